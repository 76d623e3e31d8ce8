"""``munchlog verify EVENT-EXPORT.json``: an event's export checked offline (docs/events.md).

``munchlog verify FILE`` hands a file whose JSON says ``"format": "munchlog-event"`` (``GET
/api/events/<id>/export``) to :func:`verify_event_file`, which runs
``projections.exports.event_check`` over it and prints one line per finding on stdout:

* ``ok: ...`` -- each part that was checked and found right;
* ``note: ...`` -- what this export could not let it check (a spectator's export has no game
  hashes and no decklists), never a failure;
* ``problem: <where>: <what>`` -- each thing wrong, one line each;

then ``event <id>: verified`` or ``event <id>: N problem(s)``. The exit code is 0 when there is
no problem, 1 when there is one (as for a game's export), 2 for a file that cannot be read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from api.cli.common import CliError
from projections.exports.event_check import check_event_export, is_event_export
from projections.exports.walk import ExportFormatError


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


def verify_event_file(path: str, obj: Mapping[str, Any]) -> int:
    """Check an event export and print what was found (the module docstring)."""
    try:
        check = check_event_export(obj)
    except ExportFormatError as exc:
        raise CliError(f"{path} is not an event export this version reads: {exc}", 1) from None
    for line in check.checked:
        print(f"ok: {line}")
    for line in check.notes:
        print(f"note: {line}")
    for problem in check.problems:
        print(f"problem: {problem}")
    if check.ok:
        print(f"event {check.event_id}: verified")
        return 0
    print(f"event {check.event_id}: {len(check.problems)} problem(s)")
    return 1
