"""``munchlog verify EVENT-EXPORT.json``: an event's export checked offline (docs/events.md).

``munchlog verify FILE`` hands a file whose JSON says ``"format": "munchlog-event"`` (``GET
/api/events/<id>/export``) to :func:`verify_event_file`, which runs
``projections.exports.event_check`` over it and prints on stdout whose export it is and what it
leaves out (``projections.exports.completeness``: only the judge's is complete), then one line
per finding:

* ``ok: ...`` -- each part that was checked and found right;
* ``note: ...`` -- what this export could not let it check (a spectator's export has no game
  hashes and no decklists), never a failure;
* ``problem: <where>: <what>`` -- each thing wrong, one line each;

then ``event <id>: verified`` (the judge's export, every game in it), ``event <id>: no problem in
what <whose> export holds; only the judge's export is complete`` or ``event <id>: N
problem(s)``. The exit code is 0 when there is no problem, 1 when there is one (as for a game's export), 2 for a file that cannot be read.
``--json``: one object, ``{"event_id", "ok", "complete", "leaves_out", "checked", "notes",
"problems"}``, the same findings for programs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from uuid import UUID

from api.cli.common import CliError
from domain.errors import NotFound
from domain.tournament.aggregate import Tournament
from projections.exports.completeness import ONLY_THE_JUDGES, event_view, export_line
from projections.exports.event_check import check_event_export, is_event_export
from projections.exports.walk import ExportFormatError
from service.event_exports import EventExports, export_text
from service.games import GameLog, utc_now
from service.tournaments import Caller, Tournaments


def event_export_in(path: str) -> Mapping[str, Any] | None:
    """The event export at ``path``, or ``None`` when the file holds something else (a game's
    export: ``verify`` goes on with it as before). :class:`CliError` (exit code 2) when the
    file cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None  # NDJSON, or not JSON at all: the game exports' reader says which
    return obj if is_event_export(obj) else None


def verify_event_file(path: str, obj: Mapping[str, Any], *, as_json: bool = False) -> int:
    """Check an event export and print what was found (the module docstring); ``as_json``:
    one JSON object instead, for programs."""
    try:
        check = check_event_export(obj)
    except ExportFormatError as exc:
        raise CliError(f"{path} is not an event export this version reads: {exc}", 1) from None
    whose, leaves_out = event_view(obj)
    complete = not leaves_out and obj.get("games_left_out") is not True
    if as_json:
        found = {"event_id": check.event_id, "ok": check.ok, "complete": complete}
        found |= {"leaves_out": leaves_out, "checked": check.checked, "notes": check.notes}
        print(json.dumps({**found, "problems": [str(p) for p in check.problems]}, sort_keys=True))
        return 0 if check.ok else 1
    print(export_line(whose, leaves_out))
    for line in check.checked:
        print(f"ok: {line}")
    for line in check.notes:
        print(f"note: {line}")
    for problem in check.problems:
        print(f"problem: {problem}")
    if check.ok and complete:
        print(f"event {check.event_id}: verified")
        return 0
    if check.ok:
        print(f"event {check.event_id}: no problem in what {whose} export holds; {ONLY_THE_JUDGES}")
        return 0
    print(f"event {check.event_id}: {len(check.problems)} problem(s)")
    return 1


#: ``--as`` of an event's export: whom it is read as (the judge's alone is complete).
EVENT_VIEWERS = ("judge", "organizer", "spectator")


def event_named(log: GameLog, given: str, database: str) -> Tournament | None:
    """The event ``munchlog export --event`` names: by its id (none: :class:`CliError`), else
    the one event of that name; ``None`` when no event has it (the games labelled so are
    exported instead). A name two events share is refused, naming each by its id."""
    service = Tournaments(log)
    try:
        event_id = UUID(given)
    except ValueError:
        event_id = None
    if event_id is not None:
        try:
            return service.load(event_id)
        except NotFound:
            raise CliError(f"no event {event_id} in {database}; nothing written", 1) from None
    named: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page, after = service.listing(after, 200)
        named += [line for line in page if line["name"] == given]
    if len(named) > 1:
        which = ", ".join(f"{line['event_id']} (opened {line['opened_at']})" for line in named)
        raise CliError(
            f"{len(named)} events are named {given!r}: {which}; "
            "name one by its id (--event <id>); nothing written",
            1,
        )
    return service.load(UUID(named[0]["event_id"])) if named else None


def write_event_export(log: GameLog, event: Tournament, fmt: str, viewer: str, out: Any) -> None:
    """Write ``event``'s export as ``GET /api/events/<id>/export`` gives it to ``viewer``'s
    token: ``json`` (the default) or ``text``."""
    if fmt not in ("json", "text"):
        raise CliError(f"an event exports as json or text, not {fmt}")
    if viewer not in EVENT_VIEWERS:
        raise CliError(f"an event's export is read as {', '.join(EVENT_VIEWERS)}, not {viewer}")
    exports = EventExports(Tournaments(log))
    at = utc_now()
    if fmt == "text":
        out.write(exports.report(event.id, Caller(viewer), exported_at=at))
    else:
        out.write(export_text(exports.export(event.id, Caller(viewer), exported_at=at)))
