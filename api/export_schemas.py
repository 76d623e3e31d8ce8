"""marshmallow schemas of the match-history routes: export queries, histories."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.schemas import Strict

#: ``?format=`` values and the media type each is served as (and negotiated by ``Accept``).
MEDIA_TYPES = {
    "json": "application/json",
    "ndjson": "application/x-ndjson",
    "csv": "text/csv",
    "text": "text/plain",
}
GAME_FORMATS = ("json", "ndjson", "csv", "text")
#: Formats that can hold several games: NDJSON (a header line starts each game) and
#: transcripts (one after another, as in a PGN file).
MULTI_GAME_FORMATS = ("ndjson", "text")


class ExportQuerySchema(Strict):
    format = fields.String(
        validate=validate.OneOf(GAME_FORMATS),
        metadata={"description": "wins over the Accept header; default json"},
    )


class EventExportQuerySchema(Strict):
    event = fields.String(
        required=True,
        validate=validate.Length(min=1, max=120),
        metadata={"description": "the games' `event` label", "example": "Store Champs"},
    )
    format = fields.String(
        validate=validate.OneOf(MULTI_GAME_FORMATS),
        metadata={"description": "wins over the Accept header; default ndjson"},
    )


class PlayerGameSchema(ma.Schema):
    game_id = fields.String(required=True)
    date = fields.String(required=True, metadata={"example": "2024-05-01"})
    created_at = fields.String(required=True)
    event = fields.Raw(allow_none=True, metadata={"description": "the `event` label"})
    round = fields.Raw(allow_none=True)
    table = fields.Raw(allow_none=True)
    labels = fields.Dict(required=True)
    seat = fields.String(required=True)
    player = fields.String(required=True)
    hero = fields.String(required=True)
    opponent = fields.String(required=True)
    opponent_hero = fields.String(required=True)
    result = fields.String(
        required=True, validate=validate.OneOf(("win", "loss", "draw", "unfinished"))
    )
    end = fields.String(allow_none=True, metadata={"example": "B eliminated (life)"})
    turns = fields.Integer(required=True)
    events = fields.Integer(required=True)
    length_seconds = fields.Integer(
        allow_none=True, metadata={"description": "first to last event (server clock)"}
    )
    fights = fields.Integer(required=True, metadata={"description": "fights this player started"})
    bluffs_caught = fields.Integer(
        required=True, metadata={"description": "times the opponent was caught cheating"}
    )
    caught_cheating = fields.Integer(required=True)


class TotalsSchema(ma.Schema):
    games = fields.Integer(required=True)
    finished = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    average_length_seconds = fields.Float(allow_none=True, metadata={"description": "finished"})
    average_turns = fields.Float(allow_none=True, metadata={"description": "finished games"})
    fights = fields.Integer(required=True)
    bluffs_caught = fields.Integer(required=True)
    caught_cheating = fields.Integer(required=True)


class PlayerHistorySchema(ma.Schema):
    player = fields.String(required=True)
    games = fields.List(fields.Nested(PlayerGameSchema), required=True)
    totals = fields.Nested(TotalsSchema, required=True)
    heroes = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(TotalsSchema),
        required=True,
        metadata={"description": "the same totals per hero this player played"},
    )
