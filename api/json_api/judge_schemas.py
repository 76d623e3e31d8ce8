"""marshmallow schemas of the judge's tools: replay queries, disputes, rulings, verify.

Request schemas check the shape; the game's ruleset (``Ruleset.decide_correction``) checks each
correction command (400 ``request/...`` or 422 ``command/...``), as the rules check actions.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.json_api.schemas import EVENT_VIEW, Strict, described, up_to_max
from domain.penalties import INFRACTIONS, PENALTIES
from projections.views import SEAT_NAMES, VIEWERS

__all__ = ["PENALTIES"]  # re-exported: the penalties a ruling may give (domain.penalties)
MAX_TEXT = 2000
MAX_CORRECTIONS = 50

AS_FIELD: dict[str, Any] = {
    "data_key": "as",
    "validate": validate.OneOf(VIEWERS),
    "metadata": {
        "description": "see the game as this viewer saw it: a judge may ask for any viewer, "
        "the table for A, B or table, a seat only for itself (403 auth/forbidden_view)"
    },
}


class ViewQuerySchema(Strict):
    as_ = fields.String(**AS_FIELD)


class ReplayStateQuerySchema(Strict):
    at = fields.Integer(validate=up_to_max(1), metadata={"description": "a past version to show"})
    turn = fields.Integer(
        validate=up_to_max(0),
        metadata={"description": "the state at the END of this turn (0 = setup)"},
    )
    played = fields.Boolean(
        load_default=False,
        metadata={"description": "the game as played: without the judge's corrections"},
    )
    as_ = fields.String(**AS_FIELD)

    @ma.validates_schema
    def _at_or_turn(self, data: dict[str, Any], **_: Any) -> None:
        if "at" in data and "turn" in data:
            raise ma.ValidationError("give either at or turn, not both", "turn")


class TimelineSchema(ma.Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    viewer = fields.String(required=True)
    turns = fields.Dict(
        metadata={
            "description": "{turn: {first, last, count, seat_time}}; setup is turn 0; "
            "`seat_time` as below, for the waits in that turn"
        },
    )
    seat_time = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        metadata={
            "description": "{seat: seconds} the game waited on each seat, from the server's "
            "receipt times (evidence for Slow Play, IPG 3.3; computed, never stored; "
            "docs/rules.md F.6)"
        },
    )
    timeline = fields.List(
        fields.Dict(),
        metadata={
            "description": "[{version, turn, type, seat, cause, corrects?, undoes?, "
            "dispute?}] for every event (public fields only)"
        },
    )
    series = fields.List(
        fields.Dict(),
        metadata={
            "description": "[{turn, version, A: {level, damage, gold}, B: ...}] at the "
            "end of each stretch of a turn"
        },
    )
    disputes = fields.List(
        fields.Dict(), metadata={"description": "as `GET .../disputes` lists them"}
    )


class TurnSchema(ma.Schema):
    game_id = fields.String(required=True)
    turn = fields.Integer(required=True)
    viewer = fields.String(required=True)
    versions = fields.List(fields.Integer())
    events = fields.List(fields.Dict(), metadata={"description": "each one " + EVENT_VIEW})
    before = fields.Raw(allow_none=True, metadata={"description": "state before the turn"})
    after = fields.Raw(metadata={"description": "state at the end of the turn"})
    diff = fields.Dict(
        metadata={"description": "projections.replay.state_diff as the viewer may see it"}
    )


class EventDetailSchema(ma.Schema):
    game_id = fields.String(required=True)
    viewer = fields.String(required=True)
    turn = fields.Integer()
    event = fields.Dict(
        required=True, metadata={"description": "the event as the viewer may see it " + EVENT_VIEW}
    )
    narration = fields.List(
        fields.String(),
        metadata={
            "description": "the event in words, as in the transcript; `[unchecked]` ends an "
            "event recorded from a card whose text is not encoded, `[custom]` follows the name "
            "of a card that is not the catalog's"
        },
    )
    causes = fields.List(fields.Dict(), metadata={"description": "nearest cause first"})
    effects = fields.List(fields.Dict(), metadata={"description": "what it caused, in order"})
    corrected_by = fields.List(fields.Integer())
    undone_by = fields.List(fields.Integer())
    diff = fields.Dict()
    state = fields.Raw(metadata={"description": "the state after this event"})


class DisputeCreateSchema(Strict):
    statement = fields.String(required=True, validate=validate.Length(min=1, max=MAX_TEXT))
    turn = fields.Integer(validate=up_to_max(0))
    from_version = fields.Integer(validate=up_to_max(1))
    to_version = fields.Integer(validate=up_to_max(1))
    expected_version = fields.Integer(strict=True, validate=up_to_max(0))

    @ma.validates_schema
    def _one_range(self, data: dict[str, Any], **_: Any) -> None:
        if "turn" in data and ("from_version" in data or "to_version" in data):
            raise ma.ValidationError("give a turn or a version range, not both", "turn")
        lo, hi = data.get("from_version"), data.get("to_version")
        if lo is not None and hi is not None and lo > hi:
            raise ma.ValidationError("from_version is after to_version", "from_version")


class PenaltySchema(Strict):
    kind = fields.String(
        required=True,
        validate=validate.OneOf(PENALTIES),
        metadata={
            "description": "`game_loss`, `match_loss` and `disqualification` end the game for "
            "the seat: it concedes, recorded by the rules after the ruling (docs/rules.md F.5)"
        },
    )
    seat = fields.String(
        required=True,
        validate=validate.OneOf(SEAT_NAMES),
        metadata={"description": "the penalised seat, one of the game's (400 otherwise)"},
    )
    infraction = fields.String(
        validate=validate.OneOf(sorted(INFRACTIONS)),
        metadata={
            "description": "the infraction, by the Magic Infraction Procedure Guide's names "
            "(docs/rules.md F.5): in an event's game, a penalty repeated for the same "
            "infraction is upgraded as the guide says (a second Tournament Error Warning, a "
            "third Game Play Error Warning of one category, a second Unsporting Conduct — "
            "Minor: a Game Loss; a repeated Unsporting Conduct — Major: a Disqualification), "
            "recorded with `escalated_from`"
        },
    )


class RulingCreateSchema(Strict):
    ruling = fields.String(required=True, validate=validate.Length(min=1, max=MAX_TEXT))
    penalty = fields.Nested(PenaltySchema)
    backup_to = fields.Integer(
        validate=up_to_max(1),
        metadata={"description": "undo every event after this version, newest first"},
    )
    corrections = fields.List(
        fields.Dict(),
        load_default=list,
        validate=validate.Length(max=MAX_CORRECTIONS),
        metadata={"description": "effect commands forced by the judge, each with `corrects`"},
    )
    rekey = fields.Boolean(
        load_default=False,
        metadata={
            "description": "re-key a server-dealt game (docs/rules.md E.3): a new server "
            "secret is committed (`DealingRekeyed`), the judge gets the secret of the epoch "
            "that ends (`dealing_secret` in this response only), and the contributors commit "
            "and reveal new seeds before the next draw or roll; 422 `rule/table_deals` for a "
            "table-dealt game"
        },
    )
    expected_version = fields.Integer(strict=True, validate=up_to_max(0))


class DisputeSchema(ma.Schema):
    dispute_id = fields.String(required=True)
    status = fields.String(metadata={"description": "open | ruled"})
    raised_by = fields.String()
    statement = fields.String()
    turn = fields.Integer(allow_none=True)
    from_version = fields.Integer(allow_none=True)
    to_version = fields.Integer(allow_none=True)
    opened_at = fields.Integer(allow_none=True)
    rulings = fields.List(
        fields.Dict(),
        metadata={
            "description": "[{version, ruling, penalty, backup_to, undone, corrections}]; "
            "`penalty` is null or {kind, seat, infraction?, escalated_from?, infraction_name?, "
            "ipg_section?, repeat_at_least?}: the infraction's name and section in the "
            "penalty guide, and for a penalty it upgraded (docs/rules.md F.5) the least count "
            "the guide upgrades at (the count itself is not recorded)"
        },
    )


class DisputeListSchema(ma.Schema):
    game_id = fields.String(required=True)
    disputes = fields.List(fields.Nested(DisputeSchema))


class DealingSecretSchema(ma.Schema):
    epoch = fields.Integer(required=True, metadata={"description": "the epoch that ended"})
    secret = fields.String(
        required=True,
        metadata={"description": "its server secret, 64 lowercase hex (opens its commitment)"},
    )


class RecordedSchema(ma.Schema):
    version = fields.Integer(required=True)
    dispute = fields.Nested(DisputeSchema)
    events = fields.List(fields.Dict())
    dealing_secret = fields.Nested(
        DealingSecretSchema,
        metadata={
            "description": "a re-keying ruling's response only (the judge's): the server "
            "secret of the epoch the ruling ended, shown nowhere else until the game is over"
        },
    )


class ProblemSchema(ma.Schema):
    row = described(fields.String, "where: `event` (the game's log) or `snapshot`", required=True)
    version = fields.Integer(required=True)
    reason = described(
        fields.String,
        "events: `undecodable`, `version_gap`, `hash_mismatch`, `prev_hash_mismatch`, "
        "`out_of_order`, `duplicate_version`, `bad_event`; snapshots: `undecodable`, "
        "`hash_mismatch`, `state_mismatch`",
        required=True,
    )
    detail = fields.String(required=True)


class VerifySchema(ma.Schema):
    game_id = fields.String(required=True)
    ok = fields.Boolean(required=True)
    checked = fields.Integer(required=True)
    first_broken = fields.Dict(allow_none=True, metadata={"description": "{version, reason}"})
    head = fields.String(metadata={"description": "last verified hash (judge and table only)"})
    problems = fields.List(
        fields.Nested(ProblemSchema),
        required=True,
        metadata={"description": "everything found damaged, events first, in version order"},
    )
    dealing = fields.Dict(
        metadata={
            "description": "the fair-dealing check (docs/dealing.md): `{mode, ok}` for a "
            "table-dealt game; for a server-dealt one also `scheme`, `operations`, `checked` "
            "(re-derived: all of them once the server's secret is revealed at the end), "
            "`hidden`, `complete` and `first_mismatch` `{version, type, reason}`, the first "
            "event whose commitment, reveal, counter, pile or result does not match: every "
            "`Dealt` is held to the pile the log holds at that point, and every draw or roll "
            'by chance needs its `Dealt` right before it (docs/dealing.md, "What verify '
            'checks")'
        }
    )
