"""Tournaments' use cases (issue #27, docs/rules.md F): open an event, register players and
their decklists, pair each round and create its games, read results from those games, drops,
standings.

A tournament is its own aggregate (:class:`domain.tournament.aggregate.Tournament`), saved in the
same store as the games. Pairing a round saves the round and every game it creates in one
``save``: a round is never half-created. A game's seats take tokens derived from the event's
token key and the player's event token hash (``domain.tournament.rules.seat_token``), so a
player fetches its seat's token at any time and nothing but hashes is stored; the event's judge
token is the judge of each of its games. Results are read from the games each time they are
needed, never copied: a game and its match cannot disagree.
"""

from __future__ import annotations

import copy
import hmac
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID, uuid4, uuid5

from adapters.eventstore import RecordConflictError
from domain.dealing import new_secret
from domain.errors import NotFound, RuleViolation
from domain.family import family_of
from domain.fold import State
from domain.game import Game, token_hash
from domain.judge import close_for_result, closed_by_report
from domain.penalties import match_rulings
from domain.ruleset import find_ruleset
from domain.tournament import clock, reports, rules, staff, tokens
from domain.tournament import rounds as draws
from domain.tournament import standings as ranking
from domain.tournament.aggregate import Tournament, TournamentSecrets
from service import mirror_events
from service.errors import NotAllowedError, VersionConflictError
from service.games import GameLog, utc_now

T = TypeVar("T")
#: Times a write is tried again after another write to the same event won the race.
RETRIES = 8

SEATS = "ABCDEF"


@dataclass(frozen=True)
class Caller:
    """Who is asking about an event: ``organizer``, ``judge``, ``scorekeeper``, ``player``
    (with ``player`` its name) or ``spectator``; a judge or scorekeeper of the event's staff
    with its ``staff_id`` and ``staff_role`` (``domain.tournament.staff``: the event's judge
    token is the head judge ``event-judge``)."""

    role: str
    player: str | None = None
    staff_id: str | None = None
    staff_role: str | None = None

    @property
    def by(self) -> str:
        """Who did it, as a result or a call's handling records it: ``<staff role>:<staff
        id>`` for a staff member named by the organizer, else the role (the event's judge
        token: ``judge``, as before staff existed)."""
        if self.staff_id is None or self.staff_id == staff.EVENT_JUDGE:
            return self.role
        return f"{self.staff_role}:{self.staff_id}"

    @property
    def sees_lists(self) -> bool:
        """Whether this caller sees every decklist (the organizer and the judges)."""
        return self.role in ("organizer", "judge")


class Tournaments:
    """The use cases of tournaments, over a :class:`~service.games.GameLog`'s store."""

    def __init__(self, log: GameLog) -> None:
        self.log = log
        self.store = log.store

    # ------------------------------------------------------------------ writing

    def create(self, body: Mapping[str, Any]) -> tuple[UUID, str]:
        """A new event from ``POST /api/events``'s body: its id and its judge token (shown
        once; only its hash is kept)."""
        settings = rules.settings_of(body)
        rs = find_ruleset(settings["ruleset"])  # a ruleset this server runs
        for field in family_of(rs).event_card_fields:  # the tables' cards: ones it resolves
            for index, entry in enumerate(settings.get(field) or []):
                self.log.resolve(entry, f"{field}.{index}", rs, field)
        event_id = uuid4()
        secret, token_key = new_secret(), new_secret()
        judge_token = secrets.token_urlsafe(32)
        event = Tournament.open(
            event_id,
            settings,
            commitment=rules.commitment(str(event_id), secret),
            judge_token_hash=token_hash(judge_token),
            at=utc_now(),
        )
        self.store.save(event, TournamentSecrets.draw(event_id, secret, token_key))
        return event_id, judge_token

    def register(self, event_id: UUID, body: Mapping[str, Any]) -> tuple[str, str]:
        """A player joins (late entries too, before the next round is paired): its name and
        its event token. A CCG event checks the hero and decklist against the format
        (docs/rules.md A.6) and publishes only the list's salted hash."""
        player = str(body["player"])
        token = secrets.token_urlsafe(32)

        def change(event: Tournament) -> tuple[list[Any], tuple[str, str]]:
            ended = self.end_note(event)
            if ended is not None:
                raise RuleViolation(
                    "rule/event_finished", f"registration is closed: {ended}", "F.2"
                )
            if event.rounds and event.round >= self.swiss_rounds(event):
                raise RuleViolation(
                    "rule/event_finished",
                    "every Swiss round is paired: registration is closed",
                    "F.2",
                )
            hero, decklist, digest = self._decklist(event, body)
            event.register(
                player,
                token_hash(token),
                hero=hero,
                decklist=decklist,
                decklist_hash=digest,
                at=utc_now(),
            )
            return [], (player, token)

        return self._update(event_id, change)

    def _update(self, event_id: UUID, change: Callable[[Tournament], tuple[list[Any], T]]) -> T:
        """Load the event, ``change`` it (its events triggered, what else to save returned),
        save both in one ``save``; again from a fresh load when a concurrent write to the same
        event won (409 ``game/version_conflict`` after :data:`RETRIES`)."""
        for _ in range(RETRIES):
            event = self.load(event_id)
            if mirror_events.is_mirrored(event):
                raise NotAllowedError(
                    "mirror/read_only", "this event is a venue's copy: only its mirror writes it"
                )
            before = event.version
            objects, out = change(event)
            if event.version == before and not objects:
                return out  # nothing changed (a read that might have created a game)
            try:
                self.store.save(event, *objects)
            except RecordConflictError:
                continue
            return out
        raise VersionConflictError(self.load(event_id).version)

    def _decklist(
        self, event: Tournament, body: Mapping[str, Any]
    ) -> tuple[dict[str, Any] | None, list[dict[str, Any]] | None, str | None]:
        settings = event.settings
        rs = find_ruleset(settings["ruleset"])

        def resolve(entry: Any, where: str, field: str) -> list[dict[str, Any]]:
            return self.log.resolve(entry, where, rs, field)

        entry = family_of(rs).event_entry(body, settings["format"], resolve)
        row = rules.registered(entry, secrets.token_bytes(16))
        return row["hero"], row["decklist"], row["decklist_hash"]

    def pair_next(self, event_id: UUID) -> dict[str, Any]:
        """Pair the next round and create its games; the round as ``GET`` shows it."""
        return self._update(event_id, self._pair)

    def _pair(self, event: Tournament) -> tuple[list[Any], dict[str, Any]]:
        if event.round >= self.planned_rounds(event):
            raise RuleViolation("rule/event_finished", self._finished_because(event), "F.2")
        results = self.results(event)  # every game of the event read once for the round
        if event.round and not self.round_over(event, event.round, results):
            raise RuleViolation(
                "rule/round_in_progress",
                f"round {event.round} still has matches without a result",
                "F.3",
            )
        active = event.active()
        minimum = rules.seats_needed(event.settings["ruleset"])
        if len(active) < minimum and not event.rounds:  # later, the Swiss rounds stop (F.2)
            raise RuleViolation(
                "rule/too_few_players",
                f"{len(active)} active player(s): a round needs at least {minimum}",
                "F.2",
            )
        top_cut = int(event.settings.get("top_cut") or 0)
        if not event.rounds and len(active) < top_cut:
            raise RuleViolation(
                "rule/too_few_players",
                f"a top {top_cut} needs at least {top_cut} players and {len(active)} are "
                f"registered: register more before round 1 (a top cut shrinks only when "
                f"players drop later)",
                "F.4",
            )
        number = event.round + 1
        kept = self._secrets(event.id)
        tables, byes = self._draw(event, number, active, results, kept)
        read = draws.newly_read(draws.results_then(event.paired_on), results)
        revealed = kept.secret if number == 1 else None
        at = utc_now()
        pairings: list[dict[str, Any]] = []
        objects: list[Any] = []
        for index, players in enumerate(tables, start=1):
            seats = dict(zip(SEATS, players, strict=False))
            game_id, created = self._game(event, number, index, 1, seats, kept.token_key)
            objects += created
            pairings.append({"table": index, "seats": seats, "games": [str(game_id)]})
        event.pair(pairings, byes, revealed=revealed, results=read, at=at)
        return objects, event.round_at(number)

    def _draw(
        self,
        event: Tournament,
        number: int,
        active: list[str],
        results: Sequence[Mapping[str, Any]],
        kept: TournamentSecrets,
    ) -> tuple[list[tuple[str, ...]], list[str]]:
        """The tables (players in seat order) and the byes of round ``number`` from the
        ``results`` so far: round 1 drawn from the committed secret (``kept``), then Swiss
        rounds by the standings, then the top cut (``domain.tournament.rounds.draw``, the very
        function ``munchlog verify`` re-derives every round with)."""
        key = (
            rules.round_one_key(str(event.id), bytes.fromhex(kept.secret)) if number == 1 else None
        )
        given = draws.Inputs(
            event.settings,
            self.swiss_rounds(event),
            list(event.players),
            active,
            results,
            event.rounds,
        )
        return draws.draw(number, given, key)

    def _game(
        self,
        event: Tournament,
        number: int,
        table: int,
        game_no: int,
        seats: Mapping[str, str],
        token_key: str,
    ) -> tuple[UUID, list[Any]]:
        """A new game of the event (not saved): its id is fixed by the event, round, table
        and game number, so a retried round creates nothing twice; its seats' tokens are
        derived under the event's ``token_key`` (hex)."""
        game_id = uuid5(event.id, f"round-{number}/table-{table}/game-{game_no}")
        settings = event.settings
        request: dict[str, Any] = {
            "ruleset": settings["ruleset"],
            "mode": settings["mode"],
            "format": settings["format"],
            "labels": {
                "event": settings["name"],
                "event_id": str(event.id),
                "round": number,
                "table": table,
            },
            "seats": rules.game_seats(
                settings, {seat: {**event.players[p], "player": p} for seat, p in seats.items()}
            ),
        }
        if settings["dealing"] == "server":
            request["dealing"] = "server"
        if settings.get("spectator_delay"):
            request["spectator_delay"] = settings["spectator_delay"]
        key = bytes.fromhex(token_key)

        def access(game: Game) -> dict[str, str]:
            hashes = {
                seat: token_hash(
                    rules.seat_token(
                        key, str(game.id), seat, tokens.seat_basis(event.players[player])
                    )
                )
                for seat, player in seats.items()
            }
            return {
                **hashes,
                "judge": event.judge_token_hash,
                "table": token_hash(secrets.token_urlsafe(32)),
            }

        _, objects = self.log.new_game(request, game_id, access)
        return game_id, objects

    def my_game(self, event_id: UUID, number: int, player: str) -> dict[str, Any]:
        """The game ``player`` plays now in round ``number``: its id, seat and seat token (a
        best-of-three's next game is created when the last one is over and the match is not)."""
        return self._update(event_id, lambda event: self._my_game(event, number, player))

    def _my_game(
        self, event: Tournament, number: int, player: str
    ) -> tuple[list[Any], dict[str, Any]]:
        created: list[Any] = []
        pairing = event.pairing_of(number, player)
        if pairing is None:
            if player in event.round_at(number)["byes"]:
                raise NotFound("event/bye", f"{player} has a bye in round {number}")
            raise NotFound("event/not_paired", f"{player} is not paired in round {number}")
        games = list(pairing["games"])
        token_key = self._secrets(event.id).token_key
        timed_out = str(pairing["table"]) in clock.called(event, number)  # no game after time
        if not rules.is_table_game(event.settings["ruleset"]) and "reported" not in pairing:
            read = [self._game_facts(UUID(g), "judge")[0] for g in games]
            if rules.next_game_due(event.settings, pairing, read) and not timed_out:
                table, seats = pairing["table"], pairing["seats"]
                game_id, objects = self._game(
                    event, number, table, len(games) + 1, seats, token_key
                )
                event.add_game(number, pairing["table"], game_id, at=utc_now())
                created = objects
                games.append(str(game_id))
        seat = next(s for s, p in pairing["seats"].items() if p == player)
        key = bytes.fromhex(token_key)
        game_id = games[-1]
        return created, {
            "round": number,
            "table": pairing["table"],
            "game_id": game_id,
            "game_number": len(games),
            "seat": seat,
            "token": rules.seat_token(key, game_id, seat, tokens.seat_basis(event.players[player])),
            "opponents": {s: p for s, p in pairing["seats"].items() if p != player},
        }

    def report(
        self, event_id: UUID, number: int, table: int, result: Mapping[str, Any], by: str
    ) -> dict[str, Any]:
        """A match's result as a judge or the organizer reports it (one its games did not
        decide, e.g. a draw at time); CCG events only. A match its games decided (a game won,
        or a penalty's match loss: ``domain.tournament.rules.pairing_result``) is refused with
        ``rule/match_decided_by_games`` (docs/rules.md F.3), in any round, also after the
        next one is paired: a game and its match never disagree."""
        return self._update(event_id, lambda event: self._report(event, number, table, result, by))

    def _report(
        self, event: Tournament, number: int, table: int, result: Mapping[str, Any], by: str
    ) -> tuple[list[Any], dict[str, Any]]:
        pairing = next((p for p in event.round_at(number)["pairings"] if p["table"] == table), None)
        if pairing is None:
            raise NotFound("event/table_not_found", f"round {number} has no table {table}")
        on_paper = reports.mode(event.settings) == "reported"  # no game decides (F.3)
        if rules.is_table_game(event.settings["ruleset"]) and not on_paper:
            raise RuleViolation(
                "rule/table_result_from_game",
                "a table's places come from its game (a judge rules in the game)",
                "F.3",
            )
        checked = reports.settlement(result, pairing, event.settings)
        games = (
            [] if on_paper else [self._game_facts(UUID(g), "judge")[0] for g in pairing["games"]]
        )
        # a game an earlier report closed decides nothing: the report does (a new one replaces it)
        games = [{**g, "status": "playing"} if g["closed_by_report"] else g for g in games]
        unreported = {k: v for k, v in pairing.items() if k != "reported"}
        decided = (
            None if on_paper else rules.pairing_result(event.settings, unreported, games, None)
        )
        if decided is not None:
            score = ", ".join(f"{p} {n}" for p, n in decided["games"].items())
            raise RuleViolation(
                "rule/match_decided_by_games",
                f"round {number}, table {table}: its games decided the match (games won "
                f"{score}); a result cannot be reported over them: a correction is a judge's "
                "ruling in the game",
                "F.3",
            )
        event.report(number, table, checked, by=by, at=utc_now())
        self.close_games(event, number, table, by)  # before the report is saved (issue #44)
        return [], {"round": number, "table": table, **checked}

    def drop(self, event_id: UUID, player: str, by: str | None = None) -> dict[str, Any]:
        """``player`` drops; ``by`` (``Caller.by``) is recorded with it (F.8)."""

        def change(event: Tournament) -> tuple[list[Any], dict[str, Any]]:
            event.drop(player, at=utc_now())
            if by is not None:
                staff.dropped(event, player, by, utc_now())
            return [], {"player": player, "after_round": event.players[player]["dropped_after"]}

        return self._update(event_id, change)

    def readmit(self, event_id: UUID, player: str, by: str) -> dict[str, Any]:
        """``player``, who dropped, comes back before the next round is paired
        (``domain.tournament.tokens.readmit``); ``by`` (``Caller.by``) is recorded with it."""

        def change(event: Tournament) -> tuple[list[Any], dict[str, Any]]:
            tokens.readmit(event, player, by, utc_now())
            return [], {"player": player, "from_round": event.round + 1}

        return self._update(event_id, change)

    # ------------------------------------------------------------------ reading

    def load(self, event_id: UUID) -> Tournament:
        """The event, a copy of its own (the store may cache the one it returns)."""
        found = self.store.load(event_id)
        if not isinstance(found, Tournament):
            raise NotFound("event/not_found", f"no event {event_id}")
        return copy.deepcopy(found)

    def _secrets(self, event_id: UUID) -> TournamentSecrets:
        found = self.store.load(TournamentSecrets.id_for(event_id))
        if not isinstance(found, TournamentSecrets):
            raise NotFound("event/not_found", f"no event {event_id}")
        return found

    @staticmethod
    def caller(event: Tournament, hashed: str | None, organizer_hash: str) -> Caller | None:
        """Who a bearer token's hash is for this event (no token: a spectator); ``None`` for
        a token that is none of the event's nor the organizer's (the API's 401). A venue's
        copy (``service.mirror_events``) has no tokens: the organizer reads it as a
        spectator, any other token is ``None``."""
        if hashed is None:
            return Caller("spectator")
        if mirror_events.is_mirrored(event):  # a venue's copy: no token of its own works here
            organizer = hmac.compare_digest(hashed, organizer_hash)
            return Caller("spectator") if organizer else None
        member = staff.member_for(event, hashed)
        if member is not None:
            role = "judge" if member["role"] in staff.JUDGES else "scorekeeper"
            return Caller(role, staff_id=member["staff_id"], staff_role=member["role"])
        found = event.role_for(hashed)
        if found is not None:
            return Caller(found[0], found[1])
        if hmac.compare_digest(hashed, organizer_hash):
            return Caller("organizer")
        return None

    def swiss_rounds(self, event: Tournament) -> int:
        """The event's ``rounds``, else as many as its entrants at round 1 call for."""
        swiss = event.settings.get("rounds")
        if swiss is None:
            entrants = len(event.players) if not event.rounds else _entrants(event)
            swiss = rules.swiss_rounds(entrants)
        return int(swiss)

    def planned_rounds(self, event: Tournament) -> int:
        """Swiss rounds plus the top cut's (3 for a top 8, 2 for a top 4, 1 for a top 2):
        :meth:`cut_size`'s cut; the round being played when the Swiss rounds stopped there
        (:meth:`swiss_stopped`)."""
        if self.swiss_stopped(event):
            return event.round
        return self.swiss_rounds(event) + rules.cut_rounds(self.cut_size(event))

    def swiss_stopped(self, event: Tournament) -> bool:
        """Whether the event's last round paired is its last (docs/rules.md F.2): fewer active
        players are left than a round needs before the Swiss rounds are over
        (``domain.tournament.rules.swiss_stopped``); the event is finished once it is complete."""
        return rules.swiss_stopped(
            event.round,
            self.swiss_rounds(event),
            len(event.active()),
            rules.seats_needed(event.settings["ruleset"]),
        )

    def end_note(self, event: Tournament) -> str | None:
        """Why the event ends before its Swiss rounds are over (``None`` when it does not:
        :meth:`swiss_stopped`)."""
        if not self.swiss_stopped(event):
            return None
        active, number = len(event.active()), event.round
        needs = rules.seats_needed(event.settings["ruleset"])
        return (
            f"{active} active player(s) left in round {number} of {self.swiss_rounds(event)}, "
            f"fewer than a round needs ({needs}): the event ends on the standings after round "
            f"{number} (docs/rules.md F.2)"
        )

    def cut_size(self, event: Tournament) -> int:
        """The event's top cut as it stands (docs/rules.md F.4): ``top_cut`` until round 1
        (which needs the players to fill it); the one its first cut round seated once paired;
        in between, ``top_cut`` if the active players fill it, else the largest of 8, 4 and 2
        they fill (0: none, the event ends on the Swiss standings)."""
        top_cut, first = int(event.settings.get("top_cut") or 0), self.swiss_rounds(event) + 1
        if not event.rounds:
            return top_cut
        if event.round >= first:
            return 2 * len(event.round_at(first)["pairings"])
        return rules.cut_size(top_cut, len(event.active()))

    def cut_note(self, event: Tournament) -> str | None:
        """Why :meth:`cut_size` is not the event's ``top_cut`` (``None`` when it is)."""
        top_cut, size = int(event.settings.get("top_cut") or 0), self.cut_size(event)
        if size == top_cut:
            return None
        cut = f"a top {size}" if size else "no top cut, the event ends on the Swiss standings"
        if event.round > self.swiss_rounds(event):
            left = f"fewer than {top_cut} active players were left after the Swiss rounds"
        else:
            left = f"{len(event.active())} active player(s) for a top {top_cut} as it stands"
        return f"{left}: {cut} (docs/rules.md F.4)"

    def _finished_because(self, event: Tournament) -> str:
        ended = self.end_note(event)
        if ended is not None:
            return f"no round follows round {event.round}: {ended}"
        note = self.cut_note(event)
        return "every round of this event has been paired" + (f" ({note})" if note else "")

    def results(self, event: Tournament, viewer: str = "judge") -> list[dict[str, Any]]:
        """Every decided match or table so far, as ``viewer`` may see its games (a spectator
        delay holds back all but the judges, ``service.delay``): ``{round, players, games,
        drawn_games}`` for two players, ``{round, players, places}`` for a classic table."""
        out: list[dict[str, Any]] = []
        table_game = rules.is_table_game(event.settings["ruleset"])
        for round_ in event.rounds:
            for pairing in round_["pairings"]:
                state, games = None, []
                if table_game:  # the table's one game, as far as the viewer may see it
                    facts, state = self._game_facts(UUID(pairing["games"][-1]), viewer)
                    games = [facts]
                elif "reported" not in pairing:
                    games = [self._game_facts(UUID(g), viewer)[0] for g in pairing["games"]]
                decided = rules.pairing_result(event.settings, pairing, games, state)
                if decided is not None:
                    players = list(pairing["seats"].values())
                    out.append({"round": round_["round"], "players": players, **decided})
        return out

    def _game_facts(self, game_id: UUID, viewer: str) -> tuple[dict[str, Any], State]:
        """What a match's result reads of one game as ``viewer`` may see it, and its state
        then: ``status``, ``winner`` and the ``ends_match`` rulings (a match loss or a
        disqualification: ``{seat, penalty, live}``, ``live`` when its game was not over yet;
        ``domain.tournament.rules.lost_by_penalty``)."""
        state = self.log.game(game_id, version=self.log.delays.version_for(game_id, viewer)).state
        ends_match = [
            {
                "seat": seat,
                "penalty": penalty,
                "live": self.log.game(game_id, version=version - 1).status != "finished",
            }
            for version, seat, penalty in match_rulings(state)
        ]
        facts = {"status": state.get("status"), "winner": state.get("winner")}
        closed = closed_by_report(state)  # its end is the report's, not a result of its own
        return {**facts, "ends_match": ends_match, "closed_by_report": closed}, state

    def close_games(self, event: Tournament, number: int, table: int, by: str) -> None:
        """A result reported for round ``number``'s ``table`` (by ``by``) closes each of its
        games still open with a judge's ruling saying so (``domain.judge.close_for_result``),
        so nobody wins one afterwards; then the games must agree with the result (a game won
        meanwhile: 422 ``rule/match_decided_by_games``, and the report is not saved). An
        event played on paper (its games decide nothing) and classic tables (their places are
        their game's) close none."""
        pairing = next(p for p in event.round_at(number)["pairings"] if p["table"] == table)
        reported = pairing.get("reported")
        settings = event.settings
        if (
            reported is None
            or reports.mode(settings) != "games"
            or rules.is_table_game(settings["ruleset"])
        ):
            return
        score = ", ".join(f"{p} {n}" for p, n in reported["games"].items())
        note = (
            f"round {number}, table {table}: the match's result was reported by the {by} "
            f"(games won {score}, drawn {reported.get('drawn_games', 0)}); this game, still "
            "open, ends without a winner (docs/rules.md F.3)"
        )
        for game_id in pairing["games"]:
            self._close(UUID(game_id), note)
        games = [self._game_facts(UUID(g), "judge")[0] for g in pairing["games"]]
        disagrees = rules.games_disagree(pairing["seats"], games, reported)
        if disagrees is not None:
            raise RuleViolation(
                "rule/match_decided_by_games",
                f"round {number}, table {table}: its games decided the match meanwhile "
                f"({disagrees}); a correction is a judge's ruling in the game",
                "F.3",
            )

    def _close(self, game_id: UUID, note: str) -> None:
        if self.log.game(game_id).status == "finished":
            return

        def decide(game: Game, received_at: str) -> None:
            steps = close_for_result(game.state, note)
            game.record_judge(steps, received_at=received_at, secrets=self.log.secrets_of(game))

        self.log._write(
            game_id,
            decide,
            lambda game, pending: (len(pending), []),
            expected_version=None,
            source="judge",  # a judge's ruling (the metrics' sources)
        )

    def round_over(
        self, event: Tournament, number: int, results: Sequence[Mapping[str, Any]]
    ) -> bool:
        """Whether every match or table of round ``number`` is among the decided ``results``."""
        decided = sum(1 for r in results if r["round"] == number)
        return decided == len(event.round_at(number)["pairings"])

    def _rows(
        self, event: Tournament, results: Sequence[Mapping[str, Any]]
    ) -> list[ranking.Standing]:
        """The standings over the Swiss rounds (a top cut decides places, not points)."""
        return draws.swiss_rows(
            event.settings["ruleset"],
            list(event.players),
            results,
            event.rounds,
            self.swiss_rounds(event),
        )

    def standings(self, event_id: UUID, viewer: str = "judge") -> list[dict[str, Any]]:
        """``GET /api/events/<id>/standings``: one row per player, fractions as floats; a
        spectator delay holds back every viewer but the judges (a player is a spectator of
        the other tables)."""
        event = self.load(event_id)
        return self.standing_rows(event, self.results(event, viewer))

    def standing_rows(
        self, event: Tournament, results: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """The rows :meth:`standings` answers, from ``results`` as :meth:`results` gives them
        (the event export takes its standings from the very results it exports)."""
        return [
            rules.standing_row(row, event.players[row.player]["dropped_after"] is not None)
            for row in self._rows(event, results)
        ]

    def summary(self, event: Tournament, caller: Caller) -> dict[str, Any]:
        """``GET /api/events/<id>`` of a loaded ``event``: the settings, the players (a
        decklist only to those who may see it: the organizer, the judges, its player), the
        rounds."""
        settings = {k: v for k, v in event.settings.items() if k not in ("doors", "treasures")}
        settings["rounds_setting"] = settings.pop("rounds", None)
        players = []
        for name, info in event.players.items():
            row: dict[str, Any] = {
                "player": name,
                "decklist_hash": info["decklist_hash"],
                "dropped_after": info["dropped_after"],
            }
            if info.get("drop_reason"):  # dropped by the server (check-in, F.7)
                row["drop_reason"] = info["drop_reason"]
            if info["hero"] is not None and (caller.sees_lists or caller.player == name):
                row["hero"] = {k: v for k, v in info["hero"].items() if k != "salt"}
                row["decklist"] = info["decklist"]
                row["salt"] = info["hero"].get("salt")
            if caller.sees_lists or caller.player == name:  # who may see its penalties
                row["disqualified"] = info.get("disqualified")
            players.append(row)
        viewer = "judge" if caller.role == "judge" else "spectator"
        return {
            "event_id": str(event.id),
            **settings,
            **self.outcome(event, viewer),
            "planned_rounds": self.planned_rounds(event),
            "cut_size": self.cut_size(event),
            "cut_note": self.cut_note(event),
            "end_note": self.end_note(event),
            "round": event.round,
            "commitment": event.commitment,
            "revealed_secret": event.revealed,
            "players": players,
            "rounds": [
                reports.round_view(r, caller.sees_lists, caller.player) for r in event.rounds
            ],
        }

    def outcome(self, event: Tournament, viewer: str = "spectator") -> dict[str, Any]:
        """The event's ``state`` (``registration``, ``running``, ``finished``: its last round
        paired and over) and its ``winner`` once finished, as ``viewer`` may see the games'
        results (``None`` before, or while a spectator delay holds back the last results)."""
        if not event.rounds:
            return {"state": "registration", "winner": None}
        state, winner = "running", None
        if event.round >= self.planned_rounds(event):
            if self.round_over(event, event.round, self.results(event)):
                state = "finished"
            seen = self.results(event, viewer)
            if state == "finished" and self.round_over(event, event.round, seen):
                swiss = self.swiss_rounds(event)
                winner = draws.winner(swiss, event.rounds, seen, self._rows(event, seen))
        return {"state": state, "winner": winner}

    def listing(self, after: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        """``GET /api/events``: the events opened after the log position ``after``, in the
        order they were opened, each as anyone reads it (its GET's settings and state); and
        the position to go on from (``None``: no more)."""
        page = self.store.notifications_of(Tournament.Opened, after, limit + 1)
        items = [self.entry(self.load(note.originator_id)) for note in page[:limit]]
        return items, page[limit - 1].id if len(page) > limit else None

    def entry(self, event: Tournament) -> dict[str, Any]:
        """An event's line in the list of events (:meth:`listing`, the home page)."""
        settings = event.settings
        return {
            "event_id": str(event.id),
            "name": settings["name"],
            "ruleset": settings["ruleset"],
            "format": settings["format"],
            "opened_at": event.opened_at,
            "players": len(event.players),
            "round": event.round,
            "planned_rounds": self.planned_rounds(event),
            **self.outcome(event),
        }


def _entrants(event: Tournament) -> int:
    first = event.rounds[0]
    return sum(len(p["seats"]) for p in first["pairings"]) + len(first["byes"])
