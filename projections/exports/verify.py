"""Verifying one game's export offline: what ``munchlog verify FILE`` says of each game, and
what an event's check (:mod:`projections.exports.event_check`) asks of each of its games.

The report is ``{"game_id", "ok", "checked", "first_broken", "head", "problems"?, "dealing"?,
"error"?}``: the hash chain as ``domain.envelope.verify_records`` checks it, then, if the chain
holds, every event replayed through its rules (:func:`replay_records`), then the dealing of the
events before the first broken one (``domain.fair_check.verify``); ``first_broken`` is the
earliest of the three. Only a complete export (a
judge's or a table's) carries hashes: any other is ``incomplete_export`` at version 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import State, fair_check
from domain.envelope import verify_records
from projections.exports.formats import read_export
from projections.exports.importing import ImportRejected, replay_records
from projections.exports.walk import ExportFormatError


def check_game_export(game: Mapping[str, Any]) -> tuple[dict[str, Any], State | None]:
    """The ``verify`` report of one game's export object (``parse_exports`` gives them), and
    the game's final state when its chain holds and every event replays (else ``None``)."""
    game_id = game.get("game_id")
    try:
        header, records = read_export(game)
    except ExportFormatError as exc:
        return {
            "game_id": game_id,
            "ok": False,
            "checked": 0,
            "first_broken": None,
            "error": str(exc),
        }, None
    if not header.get("complete"):
        broken = {"version": 1, "reason": "incomplete_export"}
        return {
            "game_id": game_id,
            "ok": False,
            "checked": 0,
            "first_broken": broken,
            "head": None,
        }, None
    report: dict[str, Any] = {"game_id": game_id, **verify_records(records)}
    state: State | None = None
    if report["ok"]:
        try:
            state = replay_records(records)
        except ImportRejected as exc:
            report["ok"] = False
            report["first_broken"] = {"version": exc.version, "reason": exc.reason}
    broken = report["first_broken"]  # the dealing of the events that verify and replay
    sound = records[: broken["version"] - 1] if broken else records
    report["dealing"] = dealt = fair_check.verify(sound)  # issue #25: what the server dealt
    mismatch = dealt.get("first_mismatch")
    if mismatch is not None and (broken is None or mismatch["version"] < broken["version"]):
        report["ok"] = False  # a dealing that breaks before the replay does: the first bad event
        report["first_broken"] = {"version": mismatch["version"], "reason": "dealing_mismatch"}
    return report, state if report["ok"] else None


def verify_game_export(game: Mapping[str, Any]) -> dict[str, Any]:
    """The ``verify`` report of one game's export object (:func:`check_game_export`)."""
    return check_game_export(game)[0]
