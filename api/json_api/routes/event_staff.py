"""An event's staff (issue #39, docs/rules.md F.8): ``POST /api/events/<id>/staff``; a lost
token replaced (issue #44): ``POST …/players/<player>/token`` and ``POST …/staff/<id>/token``.

The organizer names a head judge, a judge or a scorekeeper; each gets a token of its own, shown
once (``service.event_staff``). A judge's token judges every game of the event; a
scorekeeper's enters results and drops and rules on nothing. ``GET /api/events/<id>`` lists
the staff to the staff and the organizer.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from marshmallow import fields, validate

from api.json_api.errors import Forbidden
from api.json_api.routes.events import current, event_endpoint, tournaments
from api.json_api.routes.games import ApiBlueprint
from api.json_api.schemas import Strict, answer_schema, described
from domain.tournament.staff import ROLES
from service.event_staff import EventStaff

blp = ApiBlueprint(
    "event_staff",
    __name__,
    url_prefix="/api/events",
    description="Tournaments: the event's staff, judges and scorekeepers (docs/rules.md F.8).",
)


class StaffSchema(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    role = fields.String(
        required=True,
        validate=validate.OneOf(ROLES),
        metadata={"description": "`head_judge`, `judge` or `scorekeeper`"},
    )


#: ``POST …/staff``: the staff member's id and token (shown once).
StaffAddedSchema = answer_schema(
    "StaffAddedSchema",
    {
        "staff_id": fields.String,
        "token": described(fields.String, "the staff member's token; shown once"),
    },
)


@blp.route("/<event_id>/staff")
class Staff(MethodView):
    @event_endpoint(blp, ("organizer",), StaffAddedSchema, body=StaffSchema)
    def post(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        """Name a staff member (the organizer)

        A `head_judge` or a `judge` judges every game of the event (its token is the judge's
        to each game) and handles judge calls (a call escalated, only a head judge); a
        `scorekeeper` reports results and drops and rules on nothing (403). Every result and
        call action records who made it. The event's own `judge_token` is a head judge. A
        name on the staff already: 422 `rule/staff_named`.
        """
        event, _ = current()
        staff_id, token = EventStaff(tournaments()).add(event.id, body["name"], body["role"])
        return {"staff_id": staff_id, "token": token}


#: A token given again: the new one (shown once).
TokenReissuedSchema = answer_schema(
    "TokenReissuedSchema",
    {"token": described(fields.String, "the new token, shown once; the old one is refused (401)")},
)


@blp.route("/<event_id>/players/<path:player>/token")
class PlayerToken(MethodView):
    @event_endpoint(
        blp, ("organizer", "judge"), TokenReissuedSchema, errors=(401, 403, 404, 409, 503)
    )
    def post(self, event_id: str, player: str) -> dict[str, str]:
        """Give a player a new event token (the organizer or a head judge)

        For a lost or shared token: from now on the old one is refused (401) everywhere in
        the event, `my-game` too; the new one is answered once and kept as a hash only. The
        event records who did it (`PlayerTokenReissued`, with no token in it). A seat token
        fetched before stays its seat's (a game's seats never change); the player's link is
        `/events/<id>#token=<the new token>`. No such player: 404 `event/player_not_found`.
        """
        event, caller = current()
        if caller.role == "judge" and caller.staff_role != "head_judge":
            raise Forbidden("auth/forbidden", "only the organizer or a head judge may do this")
        token = EventStaff(tournaments()).reissue(event.id, "player", player, caller.by)
        return {"token": token}


@blp.route("/<event_id>/staff/<staff_id>/token")
class StaffToken(MethodView):
    @event_endpoint(blp, ("organizer",), TokenReissuedSchema, errors=(401, 403, 404, 409, 422, 503))
    def post(self, event_id: str, staff_id: str) -> dict[str, str]:
        """Give a staff member a new token (the organizer)

        The old one is refused (401) from now on, in the event and its games; the new one is
        answered once and kept as a hash only (`StaffTokenReissued`, with no token in it). The
        event's own judge token (`event-judge`) is every game's judge and is not replaced:
        422 `rule/event_judge_token` (name another head judge). Unknown: 404
        `event/staff_not_found`.
        """
        event, caller = current()
        token = EventStaff(tournaments()).reissue(event.id, "staff", staff_id, caller.by)
        return {"token": token}
