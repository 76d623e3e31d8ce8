"""Results the players report and a judge's correction of a past round (issue #38,
docs/rules.md F.3): ``POST /api/events/<id>/rounds/<n>/report`` and ``…/correction``.

A player reports only its own pairing, with its own token (a staff token is 403 here: the
judges settle a dispute with ``POST …/results``); a correction is a judge's. The players'
reports are shown in ``GET /api/events/<id>``: every report to the judges and the organizer,
its own to a player, who has reported and whether a dispute is open to everyone.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from marshmallow import fields, validate

from api.json_api.routes.events import PLACES, ReportSchema, current, event_endpoint, tournaments
from api.json_api.routes.games import ApiBlueprint
from api.json_api.schemas import Strict, described, whole
from service.event_reports import EventReports

blp = ApiBlueprint(
    "event_reports",
    __name__,
    url_prefix="/api/events",
    description="Tournaments: results the players report, a judge's correction of a past "
    "round (docs/rules.md F.3).",
)


def _games(description: str) -> fields.Field:
    return whole(0, 3, description)


class PlayerReportSchema(Strict):
    wins = _games("games the reporter won (a two-player match)")
    losses = _games("games the reporter lost")
    draws = _games("drawn games")
    places = PLACES


class ReportStateSchema(ma.Schema):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    report = described(
        fields.Dict,
        "the report as the match's result: `games` and `drawn_games`, or a table's `places`",
        required=True,
    )
    reported_by = fields.List(fields.String(), required=True)
    stands = fields.Dict(
        allow_none=True,
        metadata={"description": "the result that stands (every player reported it), or null"},
    )
    dispute = fields.Boolean(
        required=True,
        metadata={"description": "the reports differ: the judges settle it (`POST …/results`)"},
    )


class CorrectionSchema(ReportSchema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class CorrectedSchema(ma.Schema):
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    games = fields.Dict(keys=fields.String(), values=fields.Integer())
    drawn_games = fields.Integer()
    places = fields.Dict(keys=fields.String(), values=fields.Integer())
    reason = fields.String(required=True)


@blp.route("/<event_id>/rounds/<int:number>/report")
class PlayerReport(MethodView):
    @event_endpoint(blp, ("player",), ReportStateSchema, body=PlayerReportSchema)
    def post(self, body: dict[str, Any], event_id: str, number: int) -> dict[str, Any]:
        """Report the result of one's own match or table (the player's token)

        A two-player match from the reporter's side: `{"wins": 2, "losses": 1, "draws": 0}`;
        a table: `{"places": {"ann": 1, "bob": 2, …}}` (every player of the table). Equal
        reports from every player of the pairing stand; a report that differs opens a
        dispute for the judges with every report in it, settled by a judge's
        `POST …/results`. A player may report again until the result stands (then 422
        `rule/result_stands`: a judge corrects it). In an event whose results come from its
        games (`results: "games"`), a report that contradicts the recorded games is 422
        `rule/report_contradicts_games` (docs/rules.md F.3).
        """
        event, caller = current()
        assert caller.player is not None
        return EventReports(tournaments()).report(event.id, number, caller.player, body)


@blp.route("/<event_id>/rounds/<int:number>/correction")
class Correction(MethodView):
    @event_endpoint(blp, ("judge",), CorrectedSchema, body=CorrectionSchema)
    def post(self, body: dict[str, Any], event_id: str, number: int) -> dict[str, Any]:
        """Correct a reported result of an earlier round (a judge), with the reason

        The result that stands at `table` (reported by the players or a judge) is replaced;
        the standings follow; later rounds stand, and each pairing made before the
        correction shows `paired_before_correction: true` (docs/rules.md F.3). A match its
        games decided is corrected by a ruling in the game (422 `rule/nothing_to_correct`).
        """
        event, caller = current()
        return EventReports(tournaments()).correct(event.id, number, body, caller.by)
