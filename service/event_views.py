"""How an event's stream shows the events of the players' reports, the judges' corrections and
check-in (issue #38; ``service.event_stream``'s views by class, registered at import: the stream
process imports this module).

A player's report is the reporter's until the result stands, as ``GET /api/events/<id>``
shows it: whole to the judges, the organizer and the reporter, who reported to everyone else;
a dispute's reports only to the judges and the organizer. A result that stands, a correction
with its reason, a check-in, a no-show and a drop for no-shows are public, as the event's
``GET`` shows them.

A judge call (issue #39, ``domain.tournament.calls``) reaches the stream at once: every step
whole to the staff (the judges, the scorekeepers) and the organizer, so the judge's page
shows a call as it is made; a call made to its caller (``raised_by``); a step on a call, to a
player, its call and its time only (the step does not name the caller, and the judges' notes
are theirs); nothing of a call to anyone else (a note may name a card in a hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.event_calls import OFFICIALS
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
    "Readmitted",
):
    event_view(_name, public_view)


def _call_raised(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any] | None:
    if caller.role in OFFICIALS or (
        caller.player is not None and caller.player == fields.get("raised_by")
    ):
        return public_view(fields, caller)
    return None


def _call_step(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any] | None:
    if caller.role in OFFICIALS:
        return public_view(fields, caller)
    if caller.role == "player":
        return {k: fields[k] for k in ("call_id", "at")}
    return None


event_view("CallRaised", _call_raised)
for _name in ("CallClaimed", "CallEscalated", "CallResolved"):
    event_view(_name, _call_step)
