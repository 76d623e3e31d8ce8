"""Judge calls (issue #39, docs/rules.md F.8): a player calls a judge to its table, a judge
claims the call, may hand it to the head judges (escalate), and resolves it, perhaps with a
ruling in the table's game (a dispute of that game).

Each step is an event of the :class:`~domain.tournament.aggregate.Tournament`, decided here
(:func:`raise_call`, :func:`act`) and triggered by its ``record``; its class applies it to
the aggregate's ``calls`` (read through :func:`calls_of`). A call keeps the game and the
version the game had when it was made, so a judge sees the game as it was then.

States: ``open`` (nobody has it), ``claimed`` (a judge has it), ``escalated`` (the head judges
have it: only a head judge claims or resolves it then; a head judge who claims it keeps it
``escalated``, with ``claimed_by``), ``resolved`` (final).
"""

from __future__ import annotations

from typing import Any

from domain.errors import InvalidCommand, NotFound, RuleViolation
from domain.tournament.aggregate import Tournament, own_fields

STATES = ("open", "claimed", "escalated", "resolved")
ACTIONS = ("claim", "escalate", "resolve")
#: The longest note a call or an action carries.
MAX_NOTE = 2000


class CallRaised(Tournament.Event):
    """Player ``raised_by`` called a judge to ``table`` of round ``round`` (``via``: its event
    token, ``player``, or its seat's token, ``seat``) about ``game_id`` at ``version``."""

    call_id: str
    round: int
    table: int
    game_id: str
    version: int
    raised_by: str
    via: str
    note: str
    at: str

    def apply(self, aggregate: Tournament) -> None:
        row = own_fields(self)
        del row["at"]
        calls_of(aggregate)[self.call_id] = {
            **row,
            "state": "open",
            "claimed_by": None,
            "escalated": False,
            "opened_at": self.at,
            "actions": [],
            "resolution": None,
        }


class _CallAction(Tournament.Event):
    """Staff member ``by`` (a staff id) acted on call ``call_id`` with ``note`` at ``at``: the
    fields of claiming and escalating it (never stored as such)."""

    call_id: str
    by: str
    note: str | None
    at: str


class CallClaimed(_CallAction):
    """Staff member ``by`` (a staff id) took the call."""

    def apply(self, aggregate: Tournament) -> None:
        call = _acted(aggregate, "claim", self.call_id, self.by, self.note, self.at)
        call["claimed_by"] = self.by
        if call["state"] == "open":
            call["state"] = "claimed"


class CallEscalated(_CallAction):
    """Staff member ``by`` handed the call to the head judges."""

    def apply(self, aggregate: Tournament) -> None:
        call = _acted(aggregate, "escalate", self.call_id, self.by, self.note, self.at)
        call.update(state="escalated", escalated=True, claimed_by=None)


class CallResolved(Tournament.Event):
    """Staff member ``by`` resolved the call, with a ruling in its game's dispute
    ``dispute_id`` if one is named."""

    call_id: str
    by: str
    note: str | None
    dispute_id: str | None
    at: str

    def apply(self, aggregate: Tournament) -> None:
        call = _acted(aggregate, "resolve", self.call_id, self.by, self.note, self.at)
        call["state"] = "resolved"
        call["resolution"] = {
            "by": self.by,
            "note": self.note,
            "dispute_id": self.dispute_id,
            "at": self.at,
        }


def _acted(
    aggregate: Tournament, action: str, call_id: str, by: str, note: str | None, at: str
) -> dict[str, Any]:
    call = calls_of(aggregate)[call_id]
    call["actions"].append({"action": action, "by": by, "note": note, "at": at})
    return call


def calls_of(aggregate: Tournament) -> dict[str, dict[str, Any]]:
    """The event's calls by id, in the order they were made."""
    found: dict[str, dict[str, Any]] = vars(aggregate).setdefault("calls", {})
    return found


def raise_call(event: Tournament, **fields: Any) -> None:
    """A new call from a table of the current round: ``call_id``, ``table``, ``game_id`` and
    ``version`` (the service found the table's game and its version), ``raised_by``, ``via``,
    ``note``, ``at`` (:class:`CallRaised`)."""
    event.record(CallRaised, round=event.round, **fields)


def act(
    event: Tournament,
    call_id: str,
    action: str,
    *,
    by: str,
    head: bool,
    note: str | None,
    dispute_id: str | None,
    at: str,
) -> None:
    """Staff member ``by`` (a head judge when ``head``) claims, escalates or resolves a call.

    Refused: no such call (404 ``event/call_not_found``); a ``dispute_id`` with another action
    than ``resolve`` (400 ``request/invalid_field``); a call resolved already
    (``rule/call_resolved``); a call escalated, by a judge who is not a head judge
    (``rule/escalated_to_head_judges``), or escalated again (``rule/call_escalated``); a call
    another judge holds, by a judge who is not a head judge, or claimed again by the judge who
    holds it (``rule/call_claimed``)."""
    call = calls_of(event).get(call_id)
    if call is None:
        raise NotFound("event/call_not_found", f"no call {call_id} in this event")
    if dispute_id is not None and action != "resolve":
        raise InvalidCommand(
            "request/invalid_field",
            "dispute_id goes with resolve only",
            fields={"dispute_id": ["only with resolve"]},
        )
    if call["state"] == "resolved":
        raise RuleViolation("rule/call_resolved", f"call {call_id} is resolved already", "F.8")
    if call["state"] == "escalated":
        if not head:
            raise RuleViolation(
                "rule/escalated_to_head_judges",
                f"call {call_id} was handed to the head judges: only a head judge acts on it",
                "F.8",
            )
        if action == "escalate":
            raise RuleViolation(
                "rule/call_escalated", f"call {call_id} is escalated already", "F.8"
            )
    held = call["claimed_by"]
    if action == "claim" and held == by:
        raise RuleViolation("rule/call_claimed", f"you hold call {call_id} already", "F.8")
    if held not in (None, by) and not head:
        raise RuleViolation("rule/call_claimed", f"call {call_id} is held by another judge", "F.8")
    fields: dict[str, Any] = {"call_id": call_id, "by": by, "note": note, "at": at}
    if action == "claim":
        event.record(CallClaimed, **fields)
    elif action == "escalate":
        event.record(CallEscalated, **fields)
    else:
        event.record(CallResolved, dispute_id=dispute_id, **fields)
