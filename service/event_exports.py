"""An event's export (issue #27, "Exports"; docs/events.md): the whole tournament as one caller
may see it, for a program (JSON) or for people (a report).

The export is the event's summary as ``GET /api/events/<id>`` shows it to the caller (a decklist
and its salt only to the organizer, the judges and its own player), each player's registration
time, every round's pairings and byes as stored, the results (``Tournaments.results``) and the
standings computed from those very results, the penalties the caller may see
(``service.event_penalties``: the judges and the organizer all, a player its own, a spectator
none), the staff and the judge calls as the caller may see them (``service.event_staff``,
``service.event_calls``: the staff and the organizer all, a player its own calls), and every game of the event as the caller may see it, each in the game's own canonical
export (``projections.exports``):

* the event's judge sees every game as its judge (complete exports: each verifies offline);
* a player sees its own games from its seat and the other tables' as a spectator;
* the organizer (the service-wide token, a party to no game) and a spectator see the games'
  public information, as ``GET /api/exports`` gives it.

The results and the standings are read as the judge when the judge asks, else as a spectator
(``results_as``), as ``GET /api/events/<id>/standings`` reads them: a spectator delay holds
them back for everyone but the judges. A game whose stored events are damaged is left out and
named in ``omitted`` (``{"game_id", "version", "reason"}``), as ``GET /api/exports`` does.

Only the judge's export is complete (``complete``: true); every other one says what it leaves
out of it in words (``leaves_out``, ``projections.exports.completeness``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from uuid import UUID

from domain.envelope import DamagedRecords, Record
from domain.tournament import rounds as draws
from domain.tournament import staff
from domain.tournament.aggregate import Tournament
from projections.exports import export_json, export_transcript
from projections.exports.completeness import event_leaves_out
from projections.exports.event_check import EVENT_FORMAT, EVENT_FORMAT_VERSION
from projections.exports.event_report import event_report
from service.event_calls import EventCalls
from service.event_penalties import EventPenalties
from service.event_staff import EventStaff
from service.tournaments import Caller, Tournaments

#: The settings an export carries, as ``GET /api/events/<id>`` names them.
SETTINGS = (
    "name",
    "ruleset",
    "format",
    "match",
    "round_minutes",
    "rounds_setting",
    "top_cut",
    "table_size",
    "spectator_delay",
    "mode",
    "dealing",
    "results",
)


def game_viewer(caller: Caller, seats: Mapping[str, str]) -> str:
    """Whom ``caller`` sees a game with these ``seats`` as (the module docstring).

    >>> game_viewer(Caller("player", "ann"), {"A": "bob", "B": "ann"})
    'B'
    >>> game_viewer(Caller("player", "cy"), {"A": "bob", "B": "ann"})
    'spectator'
    """
    if caller.role == "judge":
        return "judge"
    if caller.role == "organizer":
        return "organizer"
    if caller.role == "player":
        for seat, player in seats.items():
            if player == caller.player:
                return seat
    return "spectator"


def results_viewer(caller: Caller) -> str:
    """Whom the results and standings are read as: the judge for the judge, else a spectator
    (a player is a spectator of the other tables; ``GET …/standings`` reads them so)."""
    return "judge" if caller.role == "judge" else "spectator"


def export_text(body: Mapping[str, Any]) -> str:
    """An event's JSON export as the file holds it (the API's and ``munchlog export``'s)."""
    return json.dumps(body, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


class EventExports:
    """Exports of events, over :class:`~service.tournaments.Tournaments`."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.log = tournaments.log
        self.penalties = EventPenalties(tournaments.log)

    def head(self, event_id: UUID, caller: Caller, *, exported_at: str) -> dict[str, Any]:
        """Everything the export holds but the games' logs; ``event/not_found`` if none."""
        service = self.tournaments
        event = service.load(event_id)
        summary = service.summary(event, caller)  # of the very event loaded: one version
        viewer = results_viewer(caller)
        results = service.results(event, viewer)
        dropped_by = staff.drops_by(event)
        players = [
            {
                **row,
                "registered_at": event.players[row["player"]]["registered_at"],
                **(
                    {"dropped_by": dropped_by[row["player"]]} if row["player"] in dropped_by else {}
                ),
            }
            for row in summary["players"]
        ]
        seen_as = {"role": caller.role, "player": caller.player}
        leaves_out = event_leaves_out(seen_as, delayed=bool(summary.get("spectator_delay")))
        return {
            "format": EVENT_FORMAT,
            "format_version": EVENT_FORMAT_VERSION,
            "event_id": str(event.id),
            "exported_at": exported_at,
            "viewer": seen_as,
            "complete": not leaves_out,
            "leaves_out": leaves_out,
            "results_as": viewer,
            "settings": {key: summary.get(key) for key in SETTINGS},
            "state": summary["state"],
            "winner": summary["winner"],
            "round": event.round,
            "swiss_rounds": service.swiss_rounds(event),
            "planned_rounds": summary["planned_rounds"],
            "cut_size": summary["cut_size"],
            "cut_note": summary["cut_note"],
            "end_note": summary["end_note"],
            "commitment": event.commitment,
            "revealed_secret": event.revealed,
            "players": players,
            "rounds": _rounds(event, results, delayed=_delayed(summary, viewer)),
            "results": results,
            "standings": service.standing_rows(event, results),
            "penalties": self.penalties.penalties(event.id, caller),
            "staff": EventStaff.roster(event, caller) or [],
            "staff_rulings": EventStaff.rulings(event, caller),
            "calls": EventCalls(service).listed(event, caller, exported_at),
        }

    def export(
        self, event_id: UUID, caller: Caller, *, exported_at: str, games: bool = True
    ) -> dict[str, Any]:
        """The event's JSON export (the module docstring); ``games=False`` leaves the games'
        logs out (``games`` and ``omitted`` empty, ``games_left_out`` true, ``complete``
        false: what the event page reads)."""
        head = self.head(event_id, caller, exported_at=exported_at)
        exported: list[dict[str, Any]] = []
        omitted: list[dict[str, Any]] = []
        if games:
            for viewer, records in self._games(head, caller, omitted):
                exported.append(export_json(records, viewer))
        return {
            **head,
            "complete": head["complete"] and games,
            "games": exported,
            "omitted": omitted,
            "games_left_out": not games,
        }

    def report(self, event_id: UUID, caller: Caller, *, exported_at: str) -> str:
        """The event as a readable report (``projections.exports.event_report``), each game's
        transcript after it, as the caller may see it."""
        head = self.head(event_id, caller, exported_at=exported_at)
        omitted: list[dict[str, Any]] = []
        transcripts = [
            export_transcript(records, viewer)
            for viewer, records in self._games(head, caller, omitted)
        ]
        return event_report({**head, "omitted": omitted}, transcripts)

    def _games(
        self, head: Mapping[str, Any], caller: Caller, omitted: list[dict[str, Any]]
    ) -> Iterator[tuple[str, list[Record]]]:
        """Each game of the event in round and table order, with whom it is seen as and its
        records as that viewer may see them; a damaged game is added to ``omitted``."""
        for round_ in head["rounds"]:
            for pairing in round_["pairings"]:
                viewer = game_viewer(caller, pairing["seats"])
                for game_id in pairing["games"]:
                    try:
                        records = self.log.delays.records(UUID(game_id), viewer)
                    except DamagedRecords as exc:
                        omitted.append(
                            {"game_id": game_id, "version": exc.version, "reason": exc.reason}
                        )
                        continue
                    yield viewer, list(records)


def _delayed(summary: Mapping[str, Any], viewer: str) -> bool:
    """Whether the export's results are held back by a spectator delay (all but the judge)."""
    return bool(summary.get("spectator_delay")) and viewer != "judge"


def _rounds(
    event: Tournament, results: Sequence[Mapping[str, Any]], *, delayed: bool
) -> list[dict[str, Any]]:
    """Every round as exported (:func:`_round`), each with what it was paired on where that
    is not the export's ``results`` (docs/events.md): ``paired_on``, the earlier rounds'
    results as they stood when it was paired and have changed since (a result reported again,
    a game corrected), ``[]`` when none did; ``null`` for a round paired before pairings kept
    them. A spectator delay shows no more: when the results it holds back differ from what a
    round was paired on, ``paired_on_held_back`` is true instead."""
    now = {draws.result_key(r): dict(r) for r in results}
    out = []
    for index, stored in enumerate(event.rounds):
        row = _round(stored)
        if event.paired_on[index] is None:
            row["paired_on"] = None
        else:
            then = draws.results_then(event.paired_on[: index + 1])
            changed = [r for key, r in then.items() if now.get(key) != r]
            if changed and delayed:
                row["paired_on_held_back"] = True
            else:
                row["paired_on"] = changed
        out.append(row)
    return out


def _round(stored: Mapping[str, Any]) -> dict[str, Any]:
    """A round as exported: its pairings (table, seats, games and any reported result) and
    byes, and when it was paired."""
    return {
        "round": stored["round"],
        "paired_at": stored.get("paired_at"),
        "pairings": [
            {
                "table": p["table"],
                "seats": dict(p["seats"]),
                "games": list(p["games"]),
                **({"reported": dict(p["reported"])} if "reported" in p else {}),
                **({"paired_before_correction": True} if p.get("paired_before_correction") else {}),
            }
            for p in stored["pairings"]
        ],
        "byes": list(stored["byes"]),
    }
