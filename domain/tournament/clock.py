"""A round's clock (issue #38, docs/rules.md F.6): started, paused, resumed and extended by the
event's staff, each an event of the event (``Tournament``) with who did it, and every table's
deadline read from those events alone.

The clock counts the event's ``round_minutes`` from its start, less the time it stood paused;
a table's deadline is the round's end plus the judges' extensions for that table (MTR 2.5: a
time extension for one table's match). Nothing here reads a clock: every function takes the
moment it is asked about (``now``, ISO 8601 UTC), so each rule is tested at any time.

The events are defined at module level and triggered through ``Tournament.record``: their
stored topics are this module's, ``domain.tournament.aggregate`` only stores them. A
tournament recorded before the clock has no ``clocks`` attribute until one of them applies
(:func:`clocks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from eventsourcing.domain import Aggregate

from domain.errors import ImpossibleCommand, InvalidCommand, RuleViolation

#: The clock's states (``GET /api/events/<id>``'s ``clock.state``).
STATES = ("not_started", "running", "paused", "time", "over")
#: ``POST /api/events/<id>/clock``'s actions.
ACTIONS = ("start", "pause", "resume", "extend")
#: The rules section of the clock (docs/rules.md).
SECTION = "F.6"


def moment(iso: str) -> datetime:
    """An ISO 8601 UTC time (``Z`` or ``+00:00``) as an aware datetime."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def iso(at: datetime) -> str:
    """An aware datetime as ISO 8601 UTC with a ``Z``."""
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def clocks(event: Any) -> dict[int, dict[str, Any]]:
    """The event's round clocks, by round number (``{}`` before any clock event)."""
    found: dict[int, dict[str, Any]] | None = event.__dict__.get("clocks")
    if found is None:
        found = event.__dict__["clocks"] = {}
    return found


def _clock(event: Any, number: int) -> dict[str, Any]:
    return clocks(event).setdefault(
        number,
        {
            "round": number,
            "started_at": None,
            "paused_at": None,
            "paused_s": 0.0,
            "extensions": {},
            "called": {},
        },
    )


#: The results a table's game may end with at time (``time_result``; ``domain.round_time``).
TIME_RESULTS = ("draw", "highest_level")


def time_options(body: Mapping[str, Any], *, tables: bool) -> dict[str, Any]:
    """The event's options of the end of round (``POST /api/events``): ``extra_turns`` (the
    turns after the one in progress; default the family's) and ``time_result`` (events that
    seat tables: ``draw`` by default, or ``highest_level``); 400 for a ``time_result`` of a
    two-player event (its games end in a draw, MTR 2.5)."""
    found: dict[str, Any] = {}
    if body.get("extra_turns") is not None:
        found["extra_turns"] = int(body["extra_turns"])
    result = body.get("time_result")
    if result is not None:
        if not tables:
            raise InvalidCommand(
                "request/invalid_time_result",
                "time_result is for events that seat tables: a two-player game at time is a draw",
                {"time_result": ["only for events that seat tables"]},
            )
        found["time_result"] = str(result)
    return found


# ---------------------------------------------------------------------------- the events


class _ClockEvent(Aggregate.Event):
    """Round ``round``'s clock changed by ``by`` (``organizer`` or ``judge``) at ``at``: the
    fields of starting, pausing and resuming it (never stored as such)."""

    round: int
    by: str
    at: str


class ClockStarted(_ClockEvent):
    """Round ``round``'s clock started by ``by`` (``organizer`` or ``judge``) at ``at``."""

    def apply(self, aggregate: Any) -> None:
        _clock(aggregate, self.round)["started_at"] = self.at


class ClockPaused(_ClockEvent):
    """Round ``round``'s clock paused (a deck check, an emergency)."""

    def apply(self, aggregate: Any) -> None:
        _clock(aggregate, self.round)["paused_at"] = self.at


class ClockResumed(_ClockEvent):
    """Round ``round``'s clock runs again: the time it stood paused is added to the round."""

    def apply(self, aggregate: Any) -> None:
        clock = _clock(aggregate, self.round)
        if clock["paused_at"] is not None:
            paused = (moment(self.at) - moment(clock["paused_at"])).total_seconds()
            clock["paused_s"] += max(paused, 0.0)
        clock["paused_at"] = None


class TimeExtended(Aggregate.Event):
    """A judge's time extension of ``minutes`` for ``table`` of round ``round`` (MTR 2.5:
    a table whose match was held up by a ruling or a deck check), with the ``reason``."""

    round: int
    table: int
    minutes: int
    reason: str
    by: str
    at: str

    def apply(self, aggregate: Any) -> None:
        extensions = _clock(aggregate, self.round)["extensions"]
        key = str(self.table)
        extensions[key] = extensions.get(key, 0) + self.minutes


class TableTimeCalled(Aggregate.Event):
    """Time was called at ``table`` of round ``round`` at its ``deadline`` (recorded by the
    server, ``by`` ``"server"``, at ``at``), in each of its ``games`` not over then."""

    round: int
    table: int
    deadline: str
    games: list[str]
    by: str
    at: str

    def apply(self, aggregate: Any) -> None:
        _clock(aggregate, self.round)["called"][str(self.table)] = {
            "deadline": self.deadline,
            "games": list(self.games),
            "at": self.at,
        }


#: Every event class of the clock, as the event's stream names them.
EVENTS: dict[str, type[Aggregate.Event]] = {
    "clock_started": ClockStarted,
    "clock_paused": ClockPaused,
    "clock_resumed": ClockResumed,
    "time_extended": TimeExtended,
    "table_time_called": TableTimeCalled,
}


# ---------------------------------------------------------------------------- reading


def round_started_at(event: Any, number: int) -> str | None:
    """When round ``number``'s clock was first started (ISO 8601 UTC), ``None`` if it was not
    (the moment no-shows are counted from, IPG 3.2 Tardiness)."""
    clock = clocks(event).get(number)
    return None if clock is None else clock["started_at"]


def round_end(event: Any, number: int, now: str) -> datetime | None:
    """When round ``number``'s base time ends as things stand at ``now`` (a paused clock:
    as if it were resumed now); ``None`` before it started."""
    clock = clocks(event).get(number)
    if clock is None or clock["started_at"] is None:
        return None
    paused = clock["paused_s"]
    if clock["paused_at"] is not None:
        paused += max((moment(now) - moment(clock["paused_at"])).total_seconds(), 0.0)
    minutes = int(event.settings["round_minutes"])
    return moment(clock["started_at"]) + timedelta(minutes=minutes, seconds=paused)


def extension(event: Any, number: int, table: int) -> int:
    """The minutes a judge added to ``table``'s time in round ``number``."""
    clock = clocks(event).get(number)
    return 0 if clock is None else int(clock["extensions"].get(str(table), 0))


def table_deadline(event: Any, number: int, table: int, now: str) -> datetime | None:
    """``table``'s deadline in round ``number`` (the round's end plus its extensions);
    ``None`` before the clock started. A paused clock's deadline moves with ``now``."""
    end = round_end(event, number, now)
    return None if end is None else end + timedelta(minutes=extension(event, number, table))


def is_paused(event: Any, number: int) -> bool:
    clock = clocks(event).get(number)
    return clock is not None and clock["paused_at"] is not None


def called(event: Any, number: int) -> dict[str, Any]:
    """The tables of round ``number`` time was called at: ``{"<table>": {deadline, games,
    at}}``."""
    clock = clocks(event).get(number)
    return {} if clock is None else dict(clock["called"])


def tables_due(event: Any, number: int, now: str) -> list[tuple[int, str]]:
    """The tables of round ``number`` whose time ran out by ``now`` and was not called yet:
    ``(table, deadline)``, in table order. A paused clock calls nothing."""
    if number < 1 or number > len(event.rounds) or is_paused(event, number):
        return []
    done = called(event, number)
    at = moment(now)
    due: list[tuple[int, str]] = []
    for pairing in event.rounds[number - 1]["pairings"]:
        table = int(pairing["table"])
        deadline = table_deadline(event, number, table, now)
        if deadline is not None and str(table) not in done and deadline <= at:
            due.append((table, iso(deadline)))
    return due


def state_of(event: Any, number: int, now: str, *, over: bool) -> str:
    """The clock's state of round ``number`` at ``now``; ``over``: every match of the round
    has its result (the service reads them from the games)."""
    if over:
        return "over"
    clock = clocks(event).get(number)
    if clock is None or clock["started_at"] is None:
        return "not_started"
    if clock["paused_at"] is not None:
        return "paused"
    end = round_end(event, number, now)
    assert end is not None
    return "time" if end <= moment(now) else "running"


def view(event: Any, now: str, *, over: bool) -> dict[str, Any]:
    """``GET /api/events/<id>``'s ``clock``: the current round's (the last paired; round 0 and
    ``not_started`` before round 1), ``ends_at`` (ISO 8601 UTC, ``null`` unless running or
    at time), ``remaining_s`` (whole seconds left of the base time, 0 at time; a paused
    clock's left when it was paused), the extensions and the tables time was called at."""
    number = len(event.rounds)
    state = state_of(event, number, now, over=over) if number else "not_started"
    clock = clocks(event).get(number) or {}
    end = round_end(event, number, now) if number else None
    remaining: int | None = None
    if end is not None:
        remaining = max(0, int((end - moment(now)).total_seconds() + 0.999999))
    elif number:
        remaining = int(event.settings["round_minutes"]) * 60
    tables = {
        key: iso(deadline)
        for key, deadline in (
            (str(p["table"]), table_deadline(event, number, int(p["table"]), now))
            for p in (event.rounds[number - 1]["pairings"] if number else [])
        )
        if deadline is not None
    }
    return {
        "round": number,
        "state": state,
        "ends_at": iso(end) if end is not None and state in ("running", "time") else None,
        "remaining_s": remaining if state != "over" else 0,
        "round_minutes": int(event.settings["round_minutes"]),
        "extensions": {k: int(v) for k, v in (clock.get("extensions") or {}).items()},
        "deadlines": tables if state in ("running", "time") else {},
        "time_called": {k: v["deadline"] for k, v in (clock.get("called") or {}).items()},
    }


# ---------------------------------------------------------------------------- deciding


def call_time(
    event: Any, number: int, table: int, deadline: str, games: list[str], at: str
) -> dict[str, Any] | None:
    """The fields of :class:`TableTimeCalled` at ``table`` of round ``number``, its time run
    out at ``deadline`` (the server's, at ``at``, in ``games``); ``None`` when time was called
    there already (another process was first)."""
    if str(table) in called(event, number):
        return None
    return dict(round=number, table=table, deadline=deadline, games=games, by="server", at=at)


def decide(
    event: Any, body: Mapping[str, Any], now: str, *, by: str, over: bool
) -> tuple[type[Aggregate.Event], dict[str, Any]]:
    """The event class and fields ``POST /api/events/<id>/clock``'s ``body`` records for the
    current round at ``now`` (its shape checked by the API), or the refusal: 422
    ``rule/no_round`` before round 1, ``rule/clock_…`` in the wrong state (docs/rules.md
    F.6); :class:`ImpossibleCommand` ``event/table_not_found`` for a table the round lacks."""
    number = len(event.rounds)
    if number == 0:
        raise RuleViolation("rule/no_round", "no round is paired: the clock has none", SECTION)
    state = state_of(event, number, now, over=over)
    action = str(body["action"])
    fields: dict[str, Any] = {"round": number, "by": by, "at": now}

    def need(wanted: tuple[str, ...], code: str, what: str) -> None:
        if state not in wanted:
            raise RuleViolation(
                f"rule/clock_{code}",
                f"round {number}'s clock is {state.replace('_', ' ')}: {what}",
                SECTION,
            )

    if action == "start":
        need(("not_started",), "started", "it starts once")
        return ClockStarted, fields
    if action == "pause":
        need(("running",), "not_running", "only a running clock pauses")
        return ClockPaused, fields
    if action == "resume":
        need(("paused",), "not_paused", "only a paused clock resumes")
        return ClockResumed, fields
    table = int(body["table"])
    if table not in {int(p["table"]) for p in event.rounds[number - 1]["pairings"]}:
        raise ImpossibleCommand("event/table_not_found", f"round {number} has no table {table}")
    need(("not_started", "running", "paused", "time"), "over", "the round is over")
    if str(table) in called(event, number):
        raise RuleViolation(
            "rule/time_called",
            f"time was called at table {table}: its extra turns are being played",
            SECTION,
        )
    fields.update(table=table, minutes=int(body["minutes"]), reason=str(body["reason"]))
    return TimeExtended, fields
