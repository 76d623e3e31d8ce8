"""Judge calls (issue #39, docs/rules.md F.8): ``/api/events/<id>/calls``.

A player calls a judge to its table with its event token or with its seat's token (the table
page's "Call a judge"); the server takes the table's game and the version it has then. The
staff and the organizer list every call, a player its own; a judge claims, escalates (to the
head judges) and resolves a call, each an event of the event naming who did it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import current_app, request
from flask.views import MethodView
from marshmallow import fields, validate

from api.json_api.auth import bearer_token
from api.json_api.errors import Unauthorized
from api.json_api.routes.events import current, event_endpoint, parse_event_id, tournaments
from api.json_api.routes.games import BEARER, ApiBlueprint
from api.json_api.schemas import Strict, answer_schema, described
from domain.game import token_hash
from domain.tournament.calls import ACTIONS, MAX_NOTE
from service.event_calls import EventCalls
from service.tournaments import Tournaments

blp = ApiBlueprint(
    "event_calls",
    __name__,
    url_prefix="/api/events",
    description="Tournaments: judge calls from the tables (docs/rules.md F.8).",
)

NOTE = fields.String(validate=validate.Length(max=MAX_NOTE))


class CallSchema(Strict):
    table = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10000))
    note = fields.String(load_default="", validate=validate.Length(max=MAX_NOTE))


#: ``POST …/calls``: the call, and the game and version it was made at.
CallRaisedSchema = answer_schema(
    "CallRaisedSchema",
    {
        "call_id": fields.String,
        "game_id": described(fields.String, "the table's game"),
        "version": described(fields.Integer, "its version then"),
    },
)


class CallActionSchema(Strict):
    action = fields.String(required=True, validate=validate.OneOf(ACTIONS))
    note = NOTE
    dispute_id = fields.String(
        validate=validate.Length(min=1, max=100),
        metadata={"description": "resolve: the dispute of the call's game ruled on"},
    )


#: A judge call as ``GET …/calls`` lists it (docs/rules.md F.8).
CallRowSchema = answer_schema(
    "CallRowSchema",
    {
        "call_id": fields.String,
        "round": fields.Integer,
        "table": fields.Integer,
        "game_id": fields.String,
        "version": fields.Integer,
        "raised_by": described(fields.String, "the player who called"),
        "via": described(fields.String, "`player` or `seat` token"),
        "note": fields.String,
        "state": described(fields.String, "open, claimed, escalated, resolved"),
        "escalated": fields.Boolean,
        "claimed_by": described(fields.Dict, "`{staff_id, name}`", allow_none=True),
        "opened_at": fields.String,
        "age_s": described(fields.Integer, "seconds open (to its resolution, if resolved)"),
        "resolution": fields.Dict(allow_none=True),
        "actions": fields.List(fields.Dict()),
    },
)


def event_calls() -> EventCalls:
    return EventCalls(tournaments())


F = TypeVar("F", bound=Callable[..., Any])


def token_first(view: F) -> F:
    """401 ``auth/missing_token`` without a token, before the body is parsed (a seat's token
    is none of the event's: the view finds out who it is)."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if bearer_token(request.headers.get("Authorization")) is None:
            raise Unauthorized("auth/missing_token", "a player's or a seat's token calls a judge")
        return view(*args, **kwargs)

    return cast(F, wrapper)


@blp.route("/<event_id>/calls")
class Calls(MethodView):
    @token_first
    @blp.errors(400, 401, 403, 404, 409, 413, 503)
    @blp.arguments(CallSchema)
    @blp.response(201, CallRaisedSchema)
    @blp.doc(security=BEARER)
    def post(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        """Call a judge to a table of the current round (a player of the table: its event
        token or its seat's token)

        The server takes the table's game and its version at that moment. 403
        `auth/not_your_table` for a token of another table, `auth/players_only` for the staff
        and the organizer; 404 `event/table_not_found`.
        """
        token = str(bearer_token(request.headers.get("Authorization")))
        event = tournaments().load(parse_event_id(event_id))
        organizer = current_app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"]
        caller = Tournaments.caller(event, token_hash(token), organizer)
        if caller is None and not event_calls().seat_of_round(event, token):
            raise Unauthorized("auth/invalid_token", "this token is not valid here")
        return event_calls().raise_call(event.id, token, caller, body["table"], body["note"])

    @event_endpoint(
        blp,
        ("judge", "scorekeeper", "organizer", "player"),
        CallRowSchema(many=True),
        status_code=200,
        errors=(401, 403, 404, 503),
    )
    def get(self, event_id: str) -> list[dict[str, Any]]:
        """The event's judge calls, oldest open first (the staff and the organizer: every
        call; a player: its own)"""
        event, caller = current()
        return event_calls().listed(event, caller)


@blp.route("/<event_id>/calls/<call_id>")
class CallAction(MethodView):
    @event_endpoint(blp, ("judge",), CallRowSchema, body=CallActionSchema, status_code=200)
    def post(self, body: dict[str, Any], event_id: str, call_id: str) -> dict[str, Any]:
        """Claim, escalate or resolve a call (a judge of the event)

        `escalate` hands the call to the head judges: only a head judge claims or resolves
        it then (422 `rule/escalated_to_head_judges`). A call another judge holds: 422
        `rule/call_claimed` (a head judge may take it over); resolved: `rule/call_resolved`.
        `resolve` may name the `dispute_id` of the call's game ruled on (404
        `dispute/not_found` if it has none such). A scorekeeper: 403.
        """
        event, caller = current()
        return event_calls().act(event.id, caller, call_id, body)
