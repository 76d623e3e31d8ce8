"""Check-in (issue #38, docs/rules.md F.7): ``POST /api/events/<id>/check-in``.

A player checks in itself, with its own token, for the round being played or the next one; the
event's ``GET`` shows who has (``check_in``). A player not checked in ``no_show`` minutes after
its round's clock started gets a game loss in its game from the server (IPG 3.1 Tardiness),
and one who misses two rounds in a row is dropped (``service.event_checkin``).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from marshmallow import fields

from api.json_api.routes.events import current, event_endpoint, tournaments
from api.json_api.routes.games import ApiBlueprint
from api.json_api.schemas import Strict
from service.event_checkin import EventCheckIn

blp = ApiBlueprint(
    "event_checkin",
    __name__,
    url_prefix="/api/events",
    description="Tournaments: check-in and no-shows (docs/rules.md F.7).",
)


class CheckInSchema(Strict):
    """No field: the token says who checks in."""


class CheckedInSchema(ma.Schema):
    round = fields.Integer(required=True, metadata={"description": "the round checked in for"})
    player = fields.String(required=True)
    at = fields.String(required=True, metadata={"description": "when (ISO 8601 UTC)"})


@blp.route("/<event_id>/check-in")
class CheckIn(MethodView):
    @event_endpoint(blp, ("player",), CheckedInSchema, body=CheckInSchema)
    def post(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        """Check in for the round being played or the next one (the player's token)

        The round being played, from its pairing, unless the player checked in for it; else
        the next round, from `opens` minutes before the round being played ends by its clock
        (422 `rule/check_in_not_open` before). 422 `rule/no_check_in` for an event without
        the `check_in` option, `rule/already_checked_in` twice for one round,
        `rule/already_dropped` for a player who dropped. A player not checked in `no_show`
        minutes after its round's clock started gets a game loss (docs/rules.md F.7).
        """
        event, caller = current()
        assert caller.player is not None
        return EventCheckIn(tournaments()).check_in(event.id, caller.player)
