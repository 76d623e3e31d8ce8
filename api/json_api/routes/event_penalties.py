"""An event's penalties (issue #27, docs/rules.md F.5): ``GET /api/events/<id>/penalties``.

Each penalty is a judge's ruling in one of the event's games, read from the game each time
(``service.event_penalties``), linked to the game and the version that recorded it. Who sees
what: the event's judges and the organizer every penalty, a player its own, no one else any.
A game's own disputes stay as the game shows them (``GET /api/games/<id>/disputes``, any
viewer of that game: docs/rules.md A.14); what this route adds is the player's record across the
event. munchlog treats it as the officials' and the player's, as a decklist is: the penalty guide
has every penalty reported with the tournament to a penalty database and uses a player's
earlier penalties to upgrade a repeated infraction (IPG 1.2, docs/rules.md F.5), a record kept
on the player, not a result shown with the standings.
"""

from __future__ import annotations

from typing import Any, cast

from flask import current_app
from flask.views import MethodView
from marshmallow import fields

from api.json_api.auth import gamelog
from api.json_api.routes.events import current, event_endpoint
from api.json_api.routes.games import ApiBlueprint
from api.json_api.schemas import answer_schema, described
from service.event_penalties import EventPenalties

blp = ApiBlueprint(
    "event_penalties",
    __name__,
    url_prefix="/api/events",
    description="Tournaments: the penalties given in an event's games (docs/rules.md F.5).",
)


#: A penalty given in one of an event's games (docs/rules.md F.5).
EventPenaltySchema = answer_schema(
    "EventPenaltySchema",
    {
        "player": fields.String,
        "round": fields.Integer,
        "table": fields.Integer,
        "game_id": described(fields.String, "the game the penalty was given in"),
        "version": described(
            fields.Integer,
            "the game's `RulingRecorded` event that gave it "
            "(`GET /api/games/<game_id>/events/<version>`)",
        ),
        "dispute": described(fields.String, "the dispute ruled on"),
        "kind": described(fields.String, "the penalty recorded (after any upgrade)"),
        "ruling": described(fields.String, "the judge's note"),
        "infraction": described(
            fields.String, "the penalty guide's infraction, when the judge named one"
        ),
        "escalated_from": described(
            fields.String, "the penalty the judge gave, when a repeated infraction upgraded it"
        ),
        "infraction_name": described(
            fields.String,
            "the infraction's name in the penalty guide (`Slow Play`), when the guide has the "
            "`infraction` named",
        ),
        "ipg_section": described(
            fields.String, "the infraction's section in the penalty guide (`3.3`)"
        ),
        "ruled_by": described(
            fields.Dict,
            "`{staff_id, name}`: the staff member who ruled, when recorded (docs/rules.md F.8)",
        ),
        "repeat_at_least": described(
            fields.Integer,
            "for a penalty the guide upgraded (`escalated_from`), the least count of such "
            "penalties to the player in the event it can be (the guide's count of earlier ones "
            "plus itself; the count itself is not recorded): as the game's disputes give it "
            "(docs/rules.md F.5)",
        ),
    },
    optional=(
        "infraction",
        "escalated_from",
        "infraction_name",
        "ipg_section",
        "ruled_by",
        "repeat_at_least",
    ),
)


def event_penalties() -> EventPenalties:
    """The app's :class:`~service.event_penalties.EventPenalties` (made once)."""
    found = current_app.extensions.get("munchlog_event_penalties")
    if found is None:
        found = current_app.extensions["munchlog_event_penalties"] = EventPenalties(gamelog())
    return cast(EventPenalties, found)


@blp.route("/<event_id>/penalties")
class Penalties(MethodView):
    @event_endpoint(
        blp,
        ("judge", "organizer", "scorekeeper", "player"),
        EventPenaltySchema(many=True),
        status_code=200,
        errors=(401, 404, 503),
    )
    def get(self, event_id: str) -> list[dict[str, Any]]:
        """The penalties given in the event's games (a judge, a scorekeeper, the organizer or a player)

        Every ruling with a penalty in one of the event's games, in round, table, game and
        version order, each linked to its game and to the version of its `RulingRecorded`.
        The event's judges, its scorekeepers and the organizer see every penalty; a player sees its own only
        (another player's are not listed). Without a token: 401 `auth/missing_token`. A
        player's penalty record is kept for the tournament's officials and the player, as a
        decklist is: the penalty guide reports penalties with the tournament to a penalty
        database and counts a player's earlier ones to upgrade a repeated infraction
        (docs/rules.md F.5); it is not a result shown with the standings. The disputes of one
        game stay public to that game's viewers (`GET /api/games/<id>/disputes`).
        """
        event, caller = current()
        return event_penalties().penalties(event.id, caller)
