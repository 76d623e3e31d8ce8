"""An event's penalties (issue #27, docs/rules.md F.5): the player's record read from the event's
games, and the judge's rulings in those games upgraded for repeated infractions.

A penalty is a judge's ruling in one of the event's games (``RulingRecorded``, kept in the
game's ``state["disputes"]``): it is never copied into the event, so the record and the games
cannot disagree, and each entry links to the game and the version that caused it. A game is the
event's when the event's pairings list it, not when its labels say so (anyone may label a game).

Escalation (:mod:`domain.penalties`): when a judge rules with a penalty naming an infraction in
one of the event's games, :meth:`EventPenalties.rule` counts the player's earlier penalties of
the same kind for that infraction across the event's games and hands the count to the ruling
(``domain.judge.decide_ruling``), which records the upgraded penalty (and, for a game loss, ends
the game for the seat). The count is read just before the ruling is decided; two rulings against
one player in two games at the same instant could both miss the other (judges do not rule on
one player twice at once).

A disqualification (given, or a match loss upgraded) also drops the player from the event: a
``Tournament.Disqualified`` saved in the same save as the ruling. A match loss or a
disqualification loses the player the match, which the event reads from the games
(``domain.tournament.rules.pairing_result``). A game of no event is ruled exactly as :meth:`GameLog.rule` rules it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any
from uuid import UUID

from domain.envelope import Record
from domain.errors import NotFound
from domain.penalties import ENDS_MATCH, counts_towards, described, is_ruling
from domain.tournament.aggregate import Tournament
from service.dealing import Ruled
from service.games import GameLog, utc_now
from service.tournaments import Caller, Tournaments


class EventPenalties:
    """The penalties of events, over a :class:`~service.games.GameLog`'s store."""

    def __init__(self, log: GameLog) -> None:
        self.log = log
        self.tournaments = Tournaments(log)

    # ------------------------------------------------------------------ ruling

    def rule(self, game_id: UUID, dispute_id: str, ruling: Mapping[str, Any]) -> Ruled:
        """The judge's ruling (:meth:`GameLog.rule`), ``ruling`` being ``POST …/rulings``'s
        body (its ``expected_version`` too); in one of an event's games, a penalty naming an
        infraction carries the player's earlier penalties of its kind for that infraction in
        the event (``earlier``), so the ruling records it upgraded as the penalty guide says,
        and a disqualification (given, or a match loss upgraded) drops the player from the
        event in the same save as the ruling (docs/rules.md F.5)."""
        penalty = ruling.get("penalty") or {}
        found = None
        if penalty.get("seat") is not None and (
            penalty.get("infraction") is not None or penalty.get("kind") in ENDS_MATCH
        ):
            found = self.event_of(game_id)
        if found is not None and penalty.get("infraction") is not None:
            earlier = self._earlier(*found, penalty)
            if earlier:
                ruling = {**ruling, "penalty": {**penalty, "earlier": earlier}}
        also = None
        if found is not None:
            event_id, seats = found[0].id, found[1]

            def also(records: list[Record]) -> list[Any]:
                return self._disqualify(event_id, seats, game_id, records)

        expected = ruling.get("expected_version")
        return self.log.rule(game_id, dispute_id, ruling, expected_version=expected, also=also)

    def _disqualify(
        self, event_id: UUID, seats: Mapping[str, str], game_id: UUID, records: list[Record]
    ) -> list[Any]:
        """The event, to be saved with a ruling's ``records``, when they disqualify one of the
        game's players (:meth:`Tournament.disqualify`); nothing otherwise. The event is loaded
        afresh each time it is asked: a lost race is decided again on the stored event."""
        for record in records:
            event = record["event"]
            if (
                is_ruling(event)
                and event.get("penalty") == "disqualification"
                and event.get("player") in seats
            ):
                tournament = self.tournaments.load(event_id)
                player = seats[str(event["player"])]
                at = utc_now()
                if tournament.disqualify(
                    player, game_id=str(game_id), version=int(record["version"]), at=at
                ):
                    return [tournament]
        return []

    def _earlier(
        self, event: Tournament, seats: Mapping[str, str], penalty: Mapping[str, Any]
    ) -> int:
        """How many penalties of ``penalty``'s kind for its infraction the player in its seat
        (of a game with these ``seats``) was given before in ``event``'s games."""
        player = seats.get(str(penalty["seat"]))
        if player is None:
            return 0
        infraction, kind = str(penalty["infraction"]), str(penalty["kind"])
        return sum(
            1
            for row in self._rulings(event)
            if row["player"] == player
            and counts_towards(row["recorded"], row["seat"], infraction, kind)
        )

    def event_of(self, game_id: UUID) -> tuple[Tournament, dict[str, str]] | None:
        """The event ``game_id`` belongs to and the game's seats (seat: player), if its labels
        name an event whose pairings list it; else ``None``."""
        labels = self.log.game(game_id).state.get("labels") or {}
        try:
            event = self.tournaments.load(UUID(str(labels.get("event_id"))))
        except (ValueError, NotFound):
            return None
        for round_ in event.rounds:
            for pairing in round_["pairings"]:
                if str(game_id) in pairing["games"]:
                    return event, dict(pairing["seats"])
        return None

    # ------------------------------------------------------------------ reading

    def penalties(self, event_id: UUID, caller: Caller) -> list[dict[str, Any]]:
        """``GET /api/events/<id>/penalties``: every penalty given in the event's games, in
        round, table, game and version order, each ``{player, round, table, game_id, version,
        dispute, kind, ruling, infraction?, escalated_from?, infraction_name?, ipg_section?,
        repeat_at_least?}`` (the last three as the game's disputes give them:
        :func:`domain.penalties.described`); the judges and the organizer see all of them, a
        player only its own, anyone else none."""
        event = self.tournaments.load(event_id)
        sees_all = caller.role in ("judge", "organizer")
        rows = []
        for row in self._rulings(event):
            if not sees_all and (caller.role != "player" or caller.player != row["player"]):
                continue
            recorded = row["recorded"]
            entry: dict[str, Any] = {
                "player": row["player"],
                "round": row["round"],
                "table": row["table"],
                "game_id": row["game_id"],
                "version": recorded["version"],
                "dispute": row["dispute"],
                "kind": recorded["penalty"],
                "ruling": recorded["ruling"],
            }
            for key in ("infraction", "escalated_from"):
                if recorded.get(key) is not None:
                    entry[key] = recorded[key]
            rows.append(entry | described(recorded))
        return rows

    def _rulings(self, event: Tournament) -> Iterator[dict[str, Any]]:
        """Every ruling with a penalty in the event's games, with where it was given and to
        whom: ``{player, seat, round, table, game_id, dispute, recorded}`` (``recorded``: the
        ruling as the game's state keeps it), in round, table, game and version order."""
        for round_ in event.rounds:
            for pairing in round_["pairings"]:
                seats = pairing["seats"]
                for game_id in pairing["games"]:
                    disputes = self.log.game(UUID(game_id)).state.get("disputes") or {}
                    found = [
                        (recorded["version"], dispute_id, recorded)
                        for dispute_id, dispute in disputes.items()
                        for recorded in dispute.get("rulings") or []
                        if recorded.get("penalty") is not None and recorded.get("player") in seats
                    ]
                    for _, dispute_id, recorded in sorted(found, key=lambda f: f[0]):
                        yield {
                            "player": seats[recorded["player"]],
                            "seat": recorded["player"],
                            "round": round_["round"],
                            "table": pairing["table"],
                            "game_id": game_id,
                            "dispute": dispute_id,
                            "recorded": recorded,
                        }
