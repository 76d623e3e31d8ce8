"""A round's clock (issue #38, docs/rules.md F.6): ``POST /api/events/<id>/clock``.

The organizer or the event's judge starts, pauses and resumes the current round's clock, or
gives one table a time extension; each is an event of the event with who did it. The clock is
shown in ``GET /api/events/<id>`` (``clock``); when a table's time runs out the server calls
time in its games by itself (``service.event_clock``).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from marshmallow import fields, validate

from api.json_api.routes.events import current, event_endpoint, tournaments
from api.json_api.routes.games import ApiBlueprint
from api.json_api.schemas import Strict, whole
from domain.tournament import clock
from service.event_clock import EventClock

blp = ApiBlueprint(
    "event_clock",
    __name__,
    url_prefix="/api/events",
    description="Tournaments: the round's clock and time extensions (docs/rules.md F.6).",
)


class ClockActionSchema(Strict):
    action = fields.String(required=True, validate=validate.OneOf(clock.ACTIONS))
    table = whole(1, 10000, "`extend`: the table given more time")
    minutes = whole(1, 120, "`extend`: the minutes added to that table's time")
    reason = fields.String(
        validate=validate.Length(min=1, max=500),
        metadata={"description": "`extend`: why (a ruling, a deck check)"},
    )

    @ma.validates_schema
    def extension_fields(self, data: dict[str, Any], **kwargs: Any) -> None:
        needed = ("table", "minutes", "reason")
        if data.get("action") == "extend":
            missing = {f: ["required to extend"] for f in needed if f not in data}
            if missing:
                raise ma.ValidationError(missing)
        else:
            extra = {f: ["only to extend"] for f in needed if f in data}
            if extra:
                raise ma.ValidationError(extra)


class ClockSchema(ma.Schema):
    round = fields.Integer(required=True, metadata={"description": "the current round"})
    state = fields.String(required=True, validate=validate.OneOf(clock.STATES))
    ends_at = fields.String(
        allow_none=True,
        metadata={"description": "ISO 8601 UTC end of the round's time (null unless running)"},
    )
    remaining_s = fields.Integer(allow_none=True, metadata={"description": "seconds left"})
    round_minutes = fields.Integer(required=True)
    extensions = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": 'minutes added per table (`{"<table>": minutes}`)'},
    )
    deadlines = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "each table's deadline with its extension (ISO 8601 UTC)"},
    )
    turns_left = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "after time: the turns each table's game still plays"},
    )
    time_called = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "the tables time was called at, with their deadline"},
    )


@blp.route("/<event_id>/clock")
class Clock(MethodView):
    @event_endpoint(blp, ("organizer", "judge"), ClockSchema, body=ClockActionSchema)
    def post(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        """Start, pause or resume the current round's clock, or extend one table's time (the
        organizer or a judge)

        `{"action": "start"}` once per round; `pause` a running clock, `resume` a paused one
        (the time paused is added to the round); `{"action": "extend", "table": 3, "minutes":
        3, "reason": "deck check"}` adds minutes to one table's time (MTR 2.5), until time is
        called there. The wrong state is a 422 `rule/clock_…` (docs/rules.md F.6). When a
        table's time runs out the server records `TimeCalled` in its unfinished games.
        """
        event, caller = current()
        return EventClock(tournaments()).act(event.id, body, caller.role)
