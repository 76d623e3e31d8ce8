"""``munchlog verify``'s lines for people (issue #44): one line a game, then a summary line.

``munchlog verify FILE`` of a game's export (JSON, or NDJSON of one game or several) and
``munchlog verify --game ID`` print, by default, one line per game: which game (its id, its
players, where it was played), what was checked and the result in words, and for a broken
game the first problem's event and what is wrong with it; then, for a file, a summary line.
``--json`` prints the reports as before, one JSON object a line, for programs
(:func:`api.cli.history.verify_file`). A game whose export has no hashes (a seat's, the
organizer's, a spectator's) is "not checked", saying whose export it is and that only the
judge's is complete (``projections.exports.completeness``).

>>> report = {"game_id": "g1", "ok": False, "checked": 4, "head": "ab",
...     "first_broken": {"version": 5, "reason": "hash_mismatch"},
...     "problems": [{"version": 5, "reason": "hash_mismatch", "detail": "x"}]}
>>> print(game_line({"seats": [{"seat": "A", "player": "Ann"}, {"seat": "B", "player": "Bo"}],
...     "labels": {"event": "Cup", "round": 2, "table": 1}, "result": "B"}, report))
game g1 (Ann v Bo; Cup, round 2, table 1; won by Bo): BROKEN at event 5: it was changed after it was recorded (x); the 4 events before it are sound
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console

from api.cli.common import progress_bar
from projections.exports.completeness import (
    ONLY_THE_JUDGES,
    export_line,
    game_leaves_out,
    mapping,
    whose_game_export,
)

#: What each reason of a broken game (``domain.envelope.verify_records``,
#: ``projections.exports.importing.ImportRejected``, the dealing's check) means, in words.
REASONS = {
    "version_gap": "events are missing before it",
    "prev_hash_mismatch": "it does not follow the event before it (an event was removed, "
    "added or changed there)",
    "hash_mismatch": "it was changed after it was recorded",
    "out_of_order": "it is out of its place (events were moved)",
    "duplicate_version": "it is a second copy of an event",
    "bad_event": "it is not an event this version of munchlog can read",
    "undecodable": "its stored row cannot be read",
    "not_game_created": "the game does not start with its creation, or is created twice",
    "setup_rejected": "the game's setup breaks its rules",
    "setup_mismatch": "the game's setup is not the one its rules make",
    "after_game_end": "it was recorded after the game ended, by a player",
    "unfoldable": "it cannot follow the game as it stood (the rules cannot apply it)",
    "invariant": "the game breaks its rules after it",
    "visibility_mismatch": "it is shown to other players than the rules allow",
    "dealing_mismatch": "the server's dealing does not match what it committed to",
}
#: Games whose events add up to this many make a file long enough for a progress bar.
LONG = 2000


def reason_words(reason: Any) -> str:
    """A reason in words (an unknown one with each "_" read as a space)."""
    return REASONS.get(str(reason), str(reason).replace("_", " "))


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _which(game: Mapping[str, Any] | None) -> str:
    """The game's players, where it was played and its result, from its export's header."""
    if not game:
        return ""
    seats = [s for s in game.get("seats") or [] if isinstance(s, Mapping)]
    players = {str(s.get("seat")): str(s.get("player")) for s in seats}
    parts = [" v ".join(players.values())] if players else []
    labels = mapping(game.get("labels"))
    where = [str(labels["event"])] if labels.get("event") else []
    where += [f"{key} {labels[key]}" for key in ("round", "table") if labels.get(key) is not None]
    if where:
        parts.append(", ".join(where))
    result = str(game.get("result") or "*")
    if result == "draw":
        parts.append("drawn")
    elif result != "*":
        winners = [players.get(seat, seat) for seat in result.split("+")]
        parts.append("won by " + " and ".join(winners))
    else:
        parts.append("not over")
    return f" ({'; '.join(parts)})"


def _dealing(dealing: Any) -> str:
    """What the dealing's check found, for a game that verified."""
    if not isinstance(dealing, Mapping) or dealing.get("mode") != "server":
        return ""
    if dealing.get("complete"):
        return f"; every shuffle and roll the server dealt re-derived ({dealing.get('checked')})"
    return (
        f"; {dealing.get('checked')} of the server's {dealing.get('operations')} shuffles and "
        "rolls re-derived (the rest once its secret is revealed at the end)"
    )


def _broken(report: Mapping[str, Any]) -> str:
    """The first problem of a broken game: its event and what is wrong, in words."""
    first = mapping(report.get("first_broken"))
    version, reason = first.get("version"), first.get("reason")
    what = reason_words(reason)
    problems = [p for p in report.get("problems") or [] if isinstance(p, Mapping)]
    if problems and problems[0].get("version") == version and problems[0].get("detail"):
        what += f" ({problems[0]['detail']})"
    dealing = mapping(report.get("dealing"))
    mismatch = dealing.get("first_mismatch") if reason == "dealing_mismatch" else None
    if isinstance(mismatch, Mapping) and mismatch.get("reason"):
        what += f": {mismatch.get('type')}: {mismatch['reason']}"
    sound = int(report.get("checked") or 0)
    before = ""
    if sound:
        events = "the event before it is" if sound == 1 else f"the {sound} events before it are"
        before = f"; {events} sound"
    more = len(problems) - 1
    after = f"; {_plural(more, 'more problem')} after it" if more > 0 else ""
    return f"BROKEN at event {version}: {what}{before}{after}"


def game_line(game: Mapping[str, Any] | None, report: Mapping[str, Any]) -> str:
    """One game's line: which game, then what was checked and found (the module docstring)."""
    gid = report.get("game_id")
    if report.get("error"):
        name = f"game {gid}" if gid else "a game without an id"
        return f"{name}: not a game's export this version reads ({report['error']})"
    head = f"game {gid}{_which(game)}: "
    first = mapping(report.get("first_broken"))
    if report.get("left_out"):
        return head + (
            f"left out of this export: its stored event {first.get('version')} is damaged "
            f"({reason_words(first.get('reason'))})"
        )
    if first.get("reason") == "incomplete_export":
        whose = whose_game_export(str((game or {}).get("viewer")))
        return head + f"not checked: {whose} export has no hashes ({ONLY_THE_JUDGES})"
    if not report.get("ok"):
        return head + _broken(report)
    checked = _plural(int(report.get("checked") or 0), "event")
    if game is None:  # a stored game (``GameLog.verify_game``)
        found = f"verified in the store: {checked}, every row read back, hash chain intact"
    else:
        found = f"verified: {checked}, hash chain intact, every event replayed through its rules"
    return head + found + _dealing(report.get("dealing"))


#: What became of a game, in the order the summary line counts them (:func:`outcome`).
OUTCOMES = ("verified", "BROKEN", "not checked", "unreadable", "left out of the export")


def outcome(report: Mapping[str, Any]) -> str:
    """What became of a game in the check: one of :data:`OUTCOMES`."""
    if report.get("left_out"):
        return "left out of the export"
    if report.get("ok"):
        return "verified"
    if mapping(report.get("first_broken")).get("reason") == "incomplete_export":
        return "not checked"
    return "unreadable" if report.get("error") else "BROKEN"


def summary_line(reports: Sequence[Mapping[str, Any]], games: Sequence[Any]) -> str:
    """The last line of a file's check: how many games, and how many of each outcome; whose
    export the games not checked are, and what it leaves out.

    >>> summary_line([{"ok": True}, {"ok": False, "error": "empty"}, {"ok": True}], [])
    '3 games: 2 verified, 1 unreadable'
    """
    found = [outcome(r) for r in reports]
    said = ", ".join(f"{found.count(what)} {what}" for what in OUTCOMES if what in found)
    line = f"{_plural(len(reports), 'game')}: {said or 'none'}"
    if "not checked" in found:
        viewers = sorted({str(g.get("viewer")) for g in games if not g.get("complete")})
        for viewer in viewers:
            line += f"; {export_line(whose_game_export(viewer), game_leaves_out(viewer))}"
    return line


class Lines:
    """Where the lines go: stdout as it is, or, on a terminal for a long file, above a
    progress bar (rich's, as ``munchlog export`` has) that counts the events checked."""

    def __init__(self, events: int) -> None:
        self.bar: Any = None
        if sys.stdout.isatty() and events >= LONG:
            console = Console(file=sys.stdout, force_terminal=True)
            self.bar = progress_bar(console, transient=True)
            self.bar.start()
            self.task = self.bar.add_task("checking games (events)", total=events)

    def say(self, line: str, events: int = 0) -> None:
        if self.bar is None:
            print(line, flush=True)
            return
        self.bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
        self.bar.advance(self.task, events)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def events_in(games: Iterable[Mapping[str, Any]]) -> int:
    return sum(len(g.get("events") or []) for g in games)
