"""A tournament as stored: an event-sourced aggregate that drives its games (issue #27).

``Tournament`` holds what the organizer and the rules decided: the settings, the players (their
token hashes, heroes and decklists), each round's pairings with the games created for them, the
results a table or a judge reported for a match the games did not finish, the drops and the
disqualifications (a judge's ruling in one of its games, saved with that ruling). A game's own
result is never copied here: it is read from the game when the standings are computed, so a
game and its match can never disagree.

Like :class:`domain.game.Game`, each method checks first (raising the domain's errors, nothing
triggered) and only then triggers its event; applying an event never validates and never fails.
``TournamentSecrets`` keeps what no route reads: the secret whose commitment the tournament
published when it opened (round 1 is drawn from it, docs/rules.md F.2) and the key its players'
seat tokens are derived under.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.errors import ImpossibleCommand, RuleViolation
from domain.game import KeptSecrets

_SECRETS_NAME = "tournament-secrets"
#: What the store adds to every event, besides its own fields.
_META = ("originator_id", "originator_version", "timestamp")


def own_fields(event: Aggregate.Event) -> dict[str, Any]:
    """An event's own fields, in their order, without what the store adds to each
    (``originator_id``, ``originator_version``, ``timestamp``)."""
    return {k: v for k, v in vars(event).items() if k not in _META}


class Tournament(Aggregate):
    """One tournament (an "event" in the API's words): settings, players, rounds, results."""

    class Opened(Aggregate.Created):
        settings: dict[str, Any]
        commitment: str
        judge_token_hash: str
        opened_at: str

    class Registered(Aggregate.Event):
        player: str
        token_hash: str
        hero: dict[str, Any] | None
        decklist: list[dict[str, Any]] | None
        decklist_hash: str | None
        at: str

        def apply(self, aggregate: Tournament) -> None:
            row = own_fields(self)
            row["registered_at"] = row.pop("at")
            aggregate.players[self.player] = {**row, "dropped_after": None}

    class Paired(Aggregate.Event):
        """Round ``round`` paired. Version 2 adds ``results``: the results of the earlier
        rounds the pairing read that no earlier round's pairing recorded as they were
        (``domain.tournament.rounds.newly_read``), so what each round was paired on is known
        after a result is reported again or a game corrected (docs/rules.md F.2); a round
        paired before version 2 recorded none (``None``)."""

        round: int
        pairings: list[dict[str, Any]]
        byes: list[str]
        revealed: str | None
        at: str
        results: list[dict[str, Any]] | None

        class_version = 2

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            """A round paired before version 2 recorded nothing of what it read."""
            state["results"] = None

        def apply(self, aggregate: Tournament) -> None:
            aggregate.paired_on.append(
                None if self.results is None else [dict(r) for r in self.results]
            )
            aggregate.rounds.append(
                {
                    "round": self.round,
                    "pairings": [dict(p, games=list(p["games"])) for p in self.pairings],
                    "byes": list(self.byes),
                    "paired_at": self.at,
                }
            )
            if self.revealed is not None:
                aggregate.revealed = self.revealed

    class GameAdded(Aggregate.Event):
        round: int
        table: int
        game_id: str
        at: str

        def apply(self, aggregate: Tournament) -> None:
            for pairing in aggregate.round_at(self.round)["pairings"]:
                if pairing["table"] == self.table:
                    pairing["games"].append(self.game_id)

    class Reported(Aggregate.Event):
        round: int
        table: int
        result: dict[str, Any]
        by: str
        at: str

        def apply(self, aggregate: Tournament) -> None:
            for pairing in aggregate.round_at(self.round)["pairings"]:
                if pairing["table"] == self.table:
                    pairing["reported"] = {**self.result, "by": self.by, "at": self.at}

    class Dropped(Aggregate.Event):
        player: str
        after_round: int
        at: str

        def apply(self, aggregate: Tournament) -> None:
            aggregate.players[self.player]["dropped_after"] = self.after_round

    class Disqualified(Aggregate.Event):
        """A judge's ruling disqualified ``player`` in one of the event's games (``game_id``,
        the ruling's ``version``; docs/rules.md F.5): out of the event as a drop after round
        ``after_round`` is, unless it had dropped already (its drop stands)."""

        player: str
        game_id: str
        version: int
        after_round: int
        at: str

        def apply(self, aggregate: Tournament) -> None:
            info = aggregate.out_after(self.player, self.after_round)
            info["disqualified"] = {"game_id": self.game_id, "version": self.version}

    def out_after(self, player: str, after_round: int) -> dict[str, Any]:
        """``player`` out of the event after round ``after_round``, as a drop, unless it had
        dropped already (its drop stands); its entry, for the event applied to say why."""
        info: dict[str, Any] = self.players[player]
        if info["dropped_after"] is None:
            info["dropped_after"] = after_round
        return info

    def __init__(
        self, settings: dict[str, Any], commitment: str, judge_token_hash: str, opened_at: str
    ) -> None:
        self.settings = dict(settings)
        self.commitment = commitment
        self.judge_token_hash = judge_token_hash
        self.opened_at = opened_at
        self.players: dict[str, dict[str, Any]] = {}
        self.rounds: list[dict[str, Any]] = []
        self.revealed: str | None = None
        #: Each round's ``Paired.results`` (``None``: a round paired before they were kept).
        self.paired_on: list[list[dict[str, Any]] | None] = []

    # ------------------------------------------------------------------ reading

    def round_at(self, number: int) -> dict[str, Any]:
        """Round ``number`` (from 1); :class:`ImpossibleCommand` if it was not paired."""
        if not 1 <= number <= len(self.rounds):
            raise ImpossibleCommand("event/round_not_found", f"round {number} has not been paired")
        return self.rounds[number - 1]

    @property
    def round(self) -> int:
        """The number of the last round paired (0 before round 1)."""
        return len(self.rounds)

    def active(self) -> list[str]:
        """The players still in (not dropped), in registration order."""
        return [p for p, info in self.players.items() if info["dropped_after"] is None]

    def role_for(self, hashed: str) -> tuple[str, str | None] | None:
        """Who a token with this hash is here: ``("judge", None)``, ``("player", name)``, or
        ``None`` (constant-time comparisons)."""
        found: tuple[str, str | None] | None = None
        if hmac.compare_digest(self.judge_token_hash, hashed):
            found = ("judge", None)
        for name, info in self.players.items():
            if hmac.compare_digest(info["token_hash"], hashed):
                found = ("player", name)
        return found

    def pairing_of(self, number: int, player: str) -> dict[str, Any] | None:
        """The pairing of round ``number`` that seats ``player`` (``None``: a bye or absent)."""
        for pairing in self.round_at(number)["pairings"]:
            if player in pairing["seats"].values():
                return dict(pairing)
        return None

    # ------------------------------------------------------------------ deciding

    @classmethod
    def open(
        cls,
        event_id: UUID,
        settings: Mapping[str, Any],
        *,
        commitment: str,
        judge_token_hash: str,
        at: str,
    ) -> Tournament:
        return cls._create(
            cls.Opened,
            id=event_id,
            settings=dict(settings),
            commitment=commitment,
            judge_token_hash=judge_token_hash,
            opened_at=at,
        )

    def register(
        self,
        player: str,
        token_hash: str,
        *,
        hero: dict[str, Any] | None,
        decklist: list[dict[str, Any]] | None,
        decklist_hash: str | None,
        at: str,
    ) -> None:
        """A new player (late entries too, before the next round is paired): the name must be
        new here (``rule/player_registered``). Whether registration is still open (every Swiss
        round paired: ``rule/event_finished``) is the service's to say before the list is
        checked: how many Swiss rounds an event has depends on its entrants."""
        if player in self.players:
            raise RuleViolation(
                "rule/player_registered", f"{player!r} is already registered", "F.1"
            )
        self.trigger_event(
            self.Registered,
            player=player,
            token_hash=token_hash,
            hero=hero,
            decklist=decklist,
            decklist_hash=decklist_hash,
            at=at,
        )

    def pair(
        self,
        pairings: Sequence[Mapping[str, Any]],
        byes: Sequence[str],
        *,
        revealed: str | None,
        at: str,
        results: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        """Round :attr:`round` + 1, as the service paired it (``domain.tournament.rounds``),
        with what it recorded of the ``results`` it was paired on (``Paired.results``)."""
        self.trigger_event(
            self.Paired,
            round=self.round + 1,
            pairings=[dict(p) for p in pairings],
            byes=list(byes),
            revealed=revealed,
            at=at,
            results=[dict(r) for r in results],
        )

    def add_game(self, number: int, table: int, game_id: UUID, *, at: str) -> None:
        """One more game of a match (a best-of-three's second or third)."""
        self.trigger_event(self.GameAdded, round=number, table=table, game_id=str(game_id), at=at)

    def report(
        self, number: int, table: int, result: Mapping[str, Any], *, by: str, at: str
    ) -> None:
        """A match's result as the table or a judge reports it (one the games did not decide,
        e.g. a draw at time); ``result`` is already checked (``domain.tournament.results``)."""
        self.round_at(number)
        self.trigger_event(
            self.Reported, round=number, table=table, result=dict(result), by=by, at=at
        )

    def drop(self, player: str, *, at: str) -> None:
        """``player`` leaves: never paired again, keeping the rounds played."""
        if player not in self.players:
            raise ImpossibleCommand("event/player_not_found", f"no player named {player!r} here")
        if self.players[player]["dropped_after"] is not None:
            why = "was disqualified" if self.players[player].get("disqualified") else "has dropped"
            raise RuleViolation("rule/already_dropped", f"{player!r} {why} already", "F.3")
        self.trigger_event(self.Dropped, player=player, after_round=self.round, at=at)

    def disqualify(self, player: str, *, game_id: str, version: int, at: str) -> bool:
        """``player`` was disqualified by the ruling at ``version`` of ``game_id``, one of the
        event's games: never paired again, keeping the rounds played (a drop, docs/rules.md
        F.5). Whether anything was triggered: a player disqualified already is not again."""
        if player not in self.players:
            raise ImpossibleCommand("event/player_not_found", f"no player named {player!r} here")
        if self.players[player].get("disqualified"):
            return False
        self.trigger_event(
            self.Disqualified,
            player=player,
            game_id=game_id,
            version=version,
            after_round=self.round,
            at=at,
        )
        return True

    def record(self, cls: type[Aggregate.Event], **fields: Any) -> None:
        """Trigger an event class another module of the event defines and decides (the clock's,
        the check-in's, the reports', the staff's and the calls': ``domain.tournament.clock``,
        ``checkin``, ``reports``, ``staff``, ``calls``): this aggregate only stores it."""
        self.trigger_event(cls, **fields)


class TournamentSecrets(KeptSecrets, Aggregate):
    """A tournament's secrets, never read by a route: the round-1 secret (its commitment is in
    ``Tournament.Opened``; it is revealed in round 1's ``Paired``) and the key its players' seat
    tokens are derived under (``service.tournaments``), which is never revealed."""

    owner = "event_id"

    class Drawn(Aggregate.Created):
        event_id: UUID
        secret: str
        token_key: str

    def __init__(self, event_id: UUID, secret: str, token_key: str) -> None:
        self.event_id = event_id
        self.secret = secret
        self.token_key = token_key

    @staticmethod
    def id_for(event_id: UUID) -> UUID:
        return uuid5(event_id, _SECRETS_NAME)

    create_id = id_for

    @classmethod
    def draw(cls, event_id: UUID, secret: bytes, token_key: bytes) -> TournamentSecrets:
        return cls(event_id, secret.hex(), token_key.hex())


class MirroredEvent(Aggregate):
    """Marks an event as a read-only copy of a venue's (``service.mirror_events``, issue #41):
    the mirror whose batches alone may extend it. Saved with the copy's first records; never
    changed."""

    class Marked(Aggregate.Created):
        event_id: UUID
        mirror_id: UUID

    def __init__(self, event_id: UUID, mirror_id: UUID) -> None:
        self.event_id = event_id
        self.mirror_id = mirror_id

    @staticmethod
    def id_for(event_id: UUID) -> UUID:
        return uuid5(event_id, "mirror-of-event")

    create_id = id_for
