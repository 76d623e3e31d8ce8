"""marshmallow schemas of the match-history routes: export queries, histories."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.json_api.schemas import EVENT_VIEW, Strict
from projections.exports import CSV_COLUMNS

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


class ExportEntrySchema(ma.Schema):
    """One event of an export (``projections.exports.walk.export_entry``): the event as the
    export's viewer may see it, and in a complete export what rebuilds its stored record."""

    class Meta:
        unknown = ma.INCLUDE

    version = fields.Integer(required=True, metadata={"description": "the game's version"})
    type = fields.String(required=True, metadata={"example": "AbilityTriggered"})
    v = fields.Integer(
        required=True,
        metadata={
            "description": "the event's stored class version (older ones are upcast "
            "when the game is read or imported)"
        },
    )
    seat = fields.String(
        allow_none=True, metadata={"description": "who acted: a seat, `rules` or `judge`"}
    )
    cause = fields.Integer(allow_none=True)
    violation = fields.String(
        allow_none=True, metadata={"description": "record mode: the rule code it broke"}
    )
    unchecked = fields.Boolean(
        metadata={
            "description": "`true` on an event recorded from a card whose text is not encoded "
            "(docs/cards.md): the rules kept it as told. Present only when true and the "
            "export's viewer may see that card (docs/rules.md A.4)"
        }
    )
    received_at = fields.String(allow_none=True)
    client_at = fields.String(allow_none=True)
    data = fields.Dict(
        required=True,
        metadata={"description": "the event's own fields; a card the viewer may not see is null"},
    )
    hash = fields.String(allow_none=True, metadata={"description": "complete exports only"})
    prev_hash = fields.String(allow_none=True, metadata={"description": "complete exports only"})
    visible_to = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={
            "description": "complete exports only: `{card id: [seats that may see it]}` for "
            "the cards the event names (and the unchecked card an `unchecked` effect was "
            "recorded from)"
        },
    )


class GameExportSchema(ma.Schema):
    """The canonical JSON export (``projections.exports.formats``). NDJSON is the same: this
    object without ``events`` on the first line, then one entry a line."""

    class Meta:
        unknown = ma.INCLUDE

    format = fields.String(required=True, metadata={"example": "munchlog-game"})
    format_version = fields.Integer(required=True, metadata={"example": 1})
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True)
    rules_version = fields.String(required=True)
    mode = fields.String(required=True)
    game_format = fields.String(required=True)
    exported_at = fields.String(metadata={"description": "canonical JSON only"})
    viewer = fields.String(required=True)
    complete = fields.Boolean(
        required=True, metadata={"description": "judge or table: verifiable and importable"}
    )
    seats = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "`[{seat, player, hero}]`: the cards every seat knows"},
    )
    labels = fields.Dict(required=True)
    result = fields.String(required=True, metadata={"description": "a seat, `draw` or `*`"})
    events = fields.List(fields.Nested(ExportEntrySchema), required=True)


#: What each export format is, for the OpenAPI document.
FORMAT_DESCRIPTIONS = {
    "json": "the canonical export (GameExportSchema); each event " + EVENT_VIEW,
    "ndjson": "the canonical export's header on the first line, then one event a line",
    "csv": "RFC 4180 rows with the columns "
    + ", ".join(f"`{c}`" for c in CSV_COLUMNS)
    + " (new columns are only ever added at the end); `unchecked` is `true` for an event "
    "recorded from a card whose text is not encoded, else empty",
    "text": "the transcript: PGN-like tags, then one paragraph a turn; an event recorded from "
    "a card whose text is not encoded ends in `[unchecked]`, a custom card's name is followed "
    "by `[custom]`",
}


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
