"""How an event's stream shows the events of the players' reports, the judges' corrections and
check-in (issue #38; ``service.event_stream``'s views by class, registered at import: the stream
process imports this module).

A player's report is the reporter's until the result stands, as ``GET /api/events/<id>``
shows it: whole to the judges, the organizer and the reporter, who reported to everyone else;
a dispute's reports only to the judges and the organizer. A result that stands, a correction
with its reason, a check-in, a no-show and a drop for no-shows are public, as the event's
``GET`` shows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.event_stream import event_view, public_view
from service.tournaments import Caller


def _report(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    if caller.sees_lists or caller.player == fields.get("player"):
        return public_view(fields, caller)
    return {k: fields[k] for k in ("round", "table", "player", "at")}


def _dispute(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    if caller.sees_lists:
        return public_view(fields, caller)
    return {k: fields[k] for k in ("round", "table", "at")}


event_view("PlayerReported", _report)
event_view("ReportDisputed", _dispute)
for _name in (
    "ReportsAgreed",
    "ResultCorrected",
    "CheckedIn",
    "NoShowRecorded",
    "DroppedForNoShows",
):
    event_view(_name, public_view)
