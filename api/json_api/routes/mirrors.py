"""Mirrors: a venue publishes its games and events here, record by record (issue #41;
``service.mirrors``, ``service.mirror_events``).

* ``POST /api/mirrors`` (organizer) -- a new mirror: ``{"mirror_id", "token"}``. The token is
  shown once; the venue gives it to ``munchlog publish --to <this server> --token <token>``.
* ``POST /api/mirrors/<mirror_id>/batches`` (the mirror's token) -- records exactly as the venue
  stored them, with their hashes and game ids, in the venue's order: stored only if each game's
  part extends the copy held here (409 ``mirror/does_not_extend``, naming the version held and
  the version at fault); another mirror's token is 403 ``auth/not_this_mirror``. All or nothing.
* ``GET /api/mirrors/<mirror_id>`` (organizer) -- the last batch, the lag (records, seconds) and
  the games.

A mirrored game is read as any game here (state, events, exports, the pages), redacted for each
viewer; it has no tokens of its own, so nobody writes to it but its mirror.
"""

from __future__ import annotations

import hmac
from functools import wraps
from typing import Any, cast
from uuid import UUID

import marshmallow as ma
from flask import current_app, g, request
from flask.views import MethodView

from api.json_api.auth import bearer_token, gamelog, organizer_only
from api.json_api.errors import Unauthorized
from api.json_api.routes.exports import IMPORT_MAX_BYTES
from api.json_api.routes.games import ApiBlueprint
from api.json_api.schemas import (
    SpectatorDelaySchema,
    Strict,
    answer_schema,
    described,
    whole,
)
from domain.game import token_hash
from service.mirrors import MirrorNotFoundError, Mirrors

blp = ApiBlueprint(
    "mirrors",
    __name__,
    url_prefix="/api/mirrors",
    description="Mirrors: a venue's games published here, checked record by record.",
)

#: Records a batch may hold at most (``munchlog publish`` sends fewer).
MAX_BATCH = 2_000
MAX_POSITION = 2**53 - 1


def mirrors() -> Mirrors:
    return Mirrors(gamelog())


def mirror_id_of(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise MirrorNotFoundError(raw) from None


def organizer_or_mirror(view: Any) -> Any:
    """The organizer's token or the mirror's own (which its publisher reads its position
    with): 401 without a token, 404 for no mirror, 403 for another token."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = bearer_token(request.headers.get("Authorization"))
        organizer = current_app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"]
        if token is None or not hmac.compare_digest(token_hash(token), organizer):
            return mirror_token(view)(*args, **kwargs)
        return view(*args, **kwargs)

    return wrapper


def mirror_token(view: Any) -> Any:
    """The mirror's own token (401 without one, 404 for no mirror, 403 for another token),
    checked before the body is parsed; the mirror's id in ``g.munchlog_mirror``."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = bearer_token(request.headers.get("Authorization"))
        if token is None:
            raise Unauthorized("auth/missing_token", "this needs the mirror's token")
        mirror_id = mirror_id_of(kwargs["mirror_id"])
        mirrors().authenticate(mirror_id, token)
        g.munchlog_mirror = (mirror_id, token)
        limit = current_app.config.get("MUNCHLOG_IMPORT_MAX_BYTES") or IMPORT_MAX_BYTES
        request.max_content_length = int(limit)  # a batch is as large as an import may be
        return view(*args, **kwargs)

    return wrapper


class MirroredRecordSchema(Strict):
    game_id = described(ma.fields.String, "the venue's game id", required=True)
    version = whole(1, MAX_POSITION, "the game's version after the event", required=True)
    event = ma.fields.Dict(required=True)
    received_at = ma.fields.String(required=True)
    client_at = ma.fields.String(required=True, allow_none=True)
    visible_to = ma.fields.Dict(required=True)
    hash = ma.fields.String(required=True)
    prev_hash = ma.fields.String(required=True)


class MirroredEventRecordSchema(Strict):
    event_id = described(ma.fields.UUID, "the venue's event id", required=True)
    version = whole(1, MAX_POSITION, "the event's version after this record", required=True)
    topic = described(ma.fields.String, "the stored event's class", required=True)
    own_fields = ma.fields.Dict(  # named so: ``fields`` is a Schema's own attribute
        data_key="fields",
        attribute="fields",
        required=True,
        metadata={"description": "its own fields as the venue stored them, token hashes blank"},
    )
    timestamp = described(ma.fields.String, "when the venue stored it", required=True)


class BatchSchema(Strict):
    records = ma.fields.List(
        ma.fields.Nested(MirroredRecordSchema),
        required=True,
        validate=ma.validate.Length(max=MAX_BATCH),
        metadata={"description": "records exactly as the venue stored them, in its order"},
    )
    position = whole(
        0, MAX_POSITION, "the venue's last notification this batch holds", required=True
    )
    head = whole(0, MAX_POSITION, "the venue's log head when it was sent", required=True)
    events = ma.fields.List(
        ma.fields.Nested(MirroredEventRecordSchema),
        load_default=list,
        validate=ma.validate.Length(max=MAX_BATCH),
        metadata={"description": "the venue's events' records (tournaments), in its order"},
    )
    delays = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Nested(SpectatorDelaySchema),
        load_default=dict,
        metadata={"description": "the spectator delay of each game the batch starts, by id"},
    )


MirrorCreatedSchema = answer_schema(
    "MirrorCreated", {"mirror_id": ma.fields.String, "token": ma.fields.String}
)
MirrorStatusSchema = answer_schema(
    "MirrorStatus",
    {
        "mirror_id": ma.fields.String,
        "records": ma.fields.Integer,
        "last_batch": ma.fields.Dict(allow_none=True),
        "lag": ma.fields.Dict,
        "games": ma.fields.List(ma.fields.String),
        "events": ma.fields.List(ma.fields.String),
    },
)


@blp.route("")
class MirrorList(MethodView):
    @blp.endpoint(MirrorCreatedSchema, who=organizer_only, status_code=201, errors=(401, 403, 503))
    def post(self) -> dict[str, str]:
        """Open a mirror (organizer token): its id and its token, shown once"""
        return mirrors().open()


@blp.route("/<mirror_id>")
class MirrorStatus(MethodView):
    @blp.endpoint(MirrorStatusSchema, who=organizer_or_mirror, errors=(401, 403, 404, 503))
    def get(self, mirror_id: str) -> dict[str, Any]:
        """A mirror's last batch, its lag in records and seconds, and its games (organizer,
        or the mirror's own token)"""
        return mirrors().status(mirror_id_of(mirror_id))


@blp.route("/<mirror_id>/batches")
class MirrorBatches(MethodView):
    @blp.endpoint(
        MirrorStatusSchema,
        who=mirror_token,
        body=BatchSchema,
        status_code=201,
        errors=(400, 401, 403, 404, 409, 413, 503),
    )
    def post(self, body: dict[str, Any], mirror_id: str) -> dict[str, Any]:
        """Store a batch of the venue's records (the mirror's token)

        Each game's records must extend the copy held here: the next version, an unbroken
        hash chain, events the rules could have recorded and a dealing that verifies; else 409
        `mirror/does_not_extend` with the `game_id` and the `version` held and nothing is
        stored. Each event's records (`events`: a venue's tournament, which has no hash chain)
        must be the next versions, contiguous, of an event's stored classes (its creation at
        version 1 only), apply to the copy held and hold no token hash (every one sent blank)
        nor a registered hero or decklist (sent as null: nobody here sees them);
        else the same 409 with the `event_id` (`reason`: `not_next`, `not_contiguous`,
        `unknown_topic`, `not_created`, `token_hash`, `decklist`, `does_not_apply`). A copied event is
        read-only here: every write to it is 403 `mirror/read_only`.
        """
        del mirror_id
        found, token = cast(tuple[UUID, str], g.munchlog_mirror)
        return mirrors().take(
            found,
            token,
            body["records"],
            position=body["position"],
            head=body["head"],
            delays=body["delays"],
            events=body["events"],
        )
