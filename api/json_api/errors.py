"""The one place that knows HTTP statuses: every error leaves the API in ONE JSON shape.

``{"error": {"code", "message", "rule"?, "current_version"?, "fields"?}}`` (``fields``: a
400's malformed fields, or the card fields a 422 ``rule/not_the_catalog_card`` names)

=========================================  ======  =============================================
raised                                     status  code
=========================================  ======  =============================================
malformed request (schema, JSON, domain    400     ``request/...``
``InvalidCommand``)
a query parameter the schema refuses       400     ``request/invalid_query`` (+``fields``)
a string with U+0000 or a lone surrogate,  400     ``request/invalid_body`` (+``fields``: where)
a number beyond a 64-bit integer
(``api.json_api.inputs``)
an integer past its field's range: 2**53   400     ``request/invalid_body`` (schemas),
- 1 for versions, turns, cursors; 999 for          ``request/invalid_number``,
card numbers and amounts                           ``request/invalid_card`` (rules) (+``fields``)
JSON nested deeper than 32                 400     ``request/too_deep``
a body that is not UTF-8                   400     ``request/invalid_encoding``
missing / unknown / malformed credentials  401     ``auth/...`` (checked before the body)
credentials not allowed to do this         403     ``auth/...`` (checked before the body)
unknown game, version, route, dispute      404     ``game/not_found``, ``game/version_not_found``,
(domain ``NotFound``; a path version or            ``request/not_found``, ``dispute/not_found``
turn past 2**53 - 1 matches no route)
method not allowed                         405     ``request/method_not_allowed``
stale ``expected_version`` / lost race     409     ``game/version_conflict`` (+``current_version``)
imported game id already here              409     ``game/already_exists``
a mirror's batch that does not extend the  409     ``mirror/does_not_extend`` (+``game_id``
copy held (``service.mirrors``,                    or ``event_id``, ``version`` held, ``at``,
``service.mirror_events``)                         ``reason``)
a write to an event copied from a venue    403     ``mirror/read_only``
no such mirror                             404     ``mirror/not_found``
not an export (``POST /games/import``)     400     ``import/not_an_export``
import refused (chain, rules)              422     ``import/...`` (+``version``, ``reason``)
body too large (``MAX_CONTENT_LENGTH``)    413     ``request/too_large``
refused by the rules / impossible          422     ``rule/...`` (+``rule``, +``fields`` for
                                                   a card that is not the catalog's),
                                                   ``command/...``
Idempotency-Key reused for another body    422     ``request/idempotency_key_reused``
the game's stored rows are damaged         503     ``storage/damaged`` (+``version``, ``reason``)
storage refuses: a full disk, a read-only  503     ``storage/unavailable`` (+``Retry-After``)
file, the database went away (a write, a
read, ``/readyz``)
the projection is too far behind           503     ``projection/lagging``
(``/readyz``, ``MUNCHLOG_READY_MAX_LAG``)
anything else                              500     ``server/internal_error``
=========================================  ======  =============================================
"""

from __future__ import annotations

import logging
from typing import Any

import marshmallow as ma
from flask import Flask, Response, current_app, has_app_context, jsonify
from flask_smorest import Api
from marshmallow import missing
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import HTTPException

from api.json_api import inputs, openapi
from api.ops.metrics import metrics
from domain.envelope import DamagedRecords
from domain.errors import DomainError, InvalidCommand, NotFound
from projections.exports import ExportFormatError, ImportRejected
from service.errors import (
    DoesNotExtend,
    GameAlreadyExistsError,
    GameNotFoundError,
    IdempotencyKeyReusedError,
    NotAllowedError,
    StorageUnavailable,
    VersionConflictError,
    storage_refusal,
)
from service.mirrors import MirrorNotFoundError
from service.streams import InvalidTicket

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error raised by the HTTP layer itself (auth, request shape)."""

    status = 400

    def __init__(self, code: str, message: str, *, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields


class BadRequest(ApiError):
    """The request is malformed (``request/...``)."""

    status = 400


class Unauthorized(ApiError):
    """No usable credentials (``auth/...``)."""

    status = 401


class Forbidden(ApiError):
    """Credentials that may not do this (``auth/...``)."""

    status = 403


class Unavailable(ApiError):
    """The service cannot serve this now (``/readyz``: ``projection/lagging``)."""

    status = 503


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The single error payload. ``extra`` keys whose value is ``None`` are left out."""
    error: dict[str, Any] = {"code": code, "message": message}
    error.update({k: v for k, v in extra.items() if v is not None})
    return {"error": error}


def _respond(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    response = jsonify(body)
    response.status_code = status
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def handle_api_error(exc: ApiError) -> Response:
    headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
    return _respond(exc.status, error_body(exc.code, exc.message, fields=exc.fields), headers)


def handle_invalid_ticket(exc: InvalidTicket) -> Response:
    """A stream ticket that cannot be used (the stream process, ``api.streams.process``): 401."""
    return handle_api_error(Unauthorized(exc.code, exc.message))


def handle_invalid_input(exc: inputs.InvalidInput) -> Response:
    return _respond(400, error_body(exc.code, exc.message, fields=exc.fields))


def handle_domain_error(exc: DomainError) -> Response:
    if isinstance(exc, InvalidCommand):
        return _respond(400, error_body(exc.code, exc.message, fields=exc.fields or None))
    if isinstance(exc, NotFound):
        current = getattr(exc, "current_version", None)
        return _respond(404, error_body(exc.code, exc.message, current_version=current))
    fields = getattr(exc, "fields", None) or None  # RuleViolation's (rule/not_the_catalog_card)
    return _respond(422, error_body(exc.code, exc.message, rule=exc.rule, fields=fields))


def handle_not_found(exc: GameNotFoundError) -> Response:
    current = getattr(exc, "current_version", None)
    return _respond(404, error_body(exc.code, exc.message, current_version=current))


def handle_conflict(exc: VersionConflictError) -> Response:
    metrics().conflicts.inc()
    return _respond(409, error_body(exc.code, exc.message, current_version=exc.current_version))


def handle_not_allowed(exc: NotAllowedError) -> Response:
    return _respond(403, error_body(exc.code, exc.message))


def handle_key_reused(exc: IdempotencyKeyReusedError) -> Response:
    return _respond(422, error_body(exc.code, exc.message))


def handle_already_exists(exc: GameAlreadyExistsError) -> Response:
    return _respond(409, error_body(exc.code, exc.message))


def handle_mirror_not_found(exc: MirrorNotFoundError) -> Response:
    return _respond(404, error_body(exc.code, exc.message))


def handle_does_not_extend(exc: DoesNotExtend) -> Response:
    body = error_body(
        exc.code, exc.message, **exc.named, version=exc.version, at=exc.at, reason=exc.reason
    )
    return _respond(409, body)


def handle_not_an_export(exc: ExportFormatError) -> Response:
    return _respond(400, error_body(exc.code, str(exc)))


def handle_import_rejected(exc: ImportRejected) -> Response:
    return _respond(422, error_body(exc.code, exc.message, version=exc.version, reason=exc.reason))


def handle_damaged(exc: DamagedRecords) -> Response:
    """503, not 500: the server works and the request was fine, but this game cannot be served
    until its rows are restored (docs/DESIGN.md "Damaged storage"); no Retry-After, since
    waiting does not mend it."""
    metrics().damaged.inc()
    return _respond(503, error_body(exc.code, exc.message, version=exc.version, reason=exc.reason))


#: Seconds a client is asked to wait (``Retry-After``) before trying again when storage refused.
RETRY_AFTER = 5


def handle_unavailable(exc: StorageUnavailable) -> Response:
    """503 with ``Retry-After``: the database did not answer, or refused a write (a full disk,
    a read-only file); nothing was recorded, and the same request may be sent again."""
    return _respond(503, error_body(exc.code, exc.message), {"Retry-After": str(RETRY_AFTER)})


_HTTP_CODES = {
    400: "request/bad_request",
    401: "auth/unauthorized",
    403: "auth/forbidden",
    404: "request/not_found",
    405: "request/method_not_allowed",
    406: "request/not_acceptable",
    413: "request/too_large",
    415: "request/unsupported_media_type",
    429: "request/too_many_requests",
}


def handle_http_exception(exc: HTTPException) -> Response:
    """Werkzeug/Flask errors (404 route, 405, 413 ...) in the same shape."""
    status = exc.code or 500
    if status >= 500:
        log.error("HTTP %s: %s", status, exc.description)
        code, message = "server/internal_error", "internal server error"
    else:
        code = _HTTP_CODES.get(status, f"request/http_{status}")
        message = (exc.description or exc.name).strip()
    headers = {}
    if status == 405:
        allowed = getattr(exc, "valid_methods", None)
        if allowed:
            headers["Allow"] = ", ".join(sorted(allowed))
    return _respond(status, error_body(code, message), headers)


def handle_unexpected(exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        return handle_http_exception(exc)
    refused = storage_refusal(exc)
    if refused is not None:  # a read (or a projection's write) that storage refused
        game_log = current_app.extensions.get("munchlog") if has_app_context() else None
        if game_log is not None:
            game_log.store.refusal(exc)  # logged; new connections from now on, /readyz reports it
        return handle_unavailable(StorageUnavailable(f"storage is unavailable: {refused}"))
    log.exception("unhandled error")
    return _respond(500, error_body("server/internal_error", "internal server error"))


def init_app(app: Flask) -> None:
    """Register the handlers (after flask-smorest's, which they replace)."""
    handlers: list[tuple[type[Exception], Any]] = [
        (ApiError, handle_api_error),
        (InvalidTicket, handle_invalid_ticket),
        (inputs.InvalidInput, handle_invalid_input),
        (DomainError, handle_domain_error),
        (GameNotFoundError, handle_not_found),
        (VersionConflictError, handle_conflict),
        (IdempotencyKeyReusedError, handle_key_reused),
        (NotAllowedError, handle_not_allowed),
        (GameAlreadyExistsError, handle_already_exists),
        (MirrorNotFoundError, handle_mirror_not_found),
        (DoesNotExtend, handle_does_not_extend),
        (ExportFormatError, handle_not_an_export),
        (ImportRejected, handle_import_rejected),
        (DamagedRecords, handle_damaged),
        (StorageUnavailable, handle_unavailable),
        (HTTPException, handle_http_exception),
        (Exception, handle_unexpected),
    ]
    for exc_class, handler in handlers:
        app.register_error_handler(exc_class, handler)


class Parser(FlaskParser):
    """webargs parser for flask-smorest: every JSON body is read by :func:`api.json_api.inputs.loads`
    and every query string checked by :func:`api.json_api.inputs.check_query` before the schema loads
    it; validation errors become ``request/invalid_body`` (``request/invalid_query`` when
    only the query string is wrong)."""

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return missing
        data = req.get_data(cache=True)
        return inputs.loads(data) if data else missing

    def load_querystring(self, req: Any, schema: ma.Schema) -> Any:
        inputs.check_query(req.args.items(multi=True))
        return super().load_querystring(req, schema)

    def handle_error(  # type: ignore[override]
        self,
        error: ma.ValidationError,
        req: Any,
        schema: ma.Schema,
        *,
        error_status_code: int | None,
        error_headers: Any,
    ) -> None:
        messages = (
            error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        )
        query = messages.get("query")
        if set(messages) == {"query"} and isinstance(query, dict):  # ?limit=5000: no body
            raise BadRequest(
                "request/invalid_query",
                "the query string is not valid: " + "; ".join(_field_problems(query)),
                fields=query,
            )
        fields = messages.get("json", messages)
        raise BadRequest("request/invalid_body", "the request body is not valid", fields=fields)

    def _handle_invalid_json_error(self, error: Any, req: Any, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        raise BadRequest("request/invalid_json", "the request body is not valid JSON")


def _field_problems(fields: Any) -> list[str]:
    """``{"limit": ["Must be ..."]}`` as ``["limit: Must be ..."]`` (for one-line messages)."""
    if not isinstance(fields, dict):
        return [str(fields)]
    problems = []
    for name, value in sorted(fields.items(), key=lambda item: str(item[0])):
        text = " ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        problems.append(f"{name}: {text}")
    return problems


class ErrorDetailSchema(ma.Schema):
    code = ma.fields.String(required=True, metadata={"example": "rule/not_your_turn"})
    message = ma.fields.String(required=True)
    rule = ma.fields.String(metadata={"description": "docs/rules.md section (rule/... errors)"})
    current_version = ma.fields.Integer(metadata={"description": "on 409 version conflicts"})
    version = ma.fields.Integer(metadata={"description": "the failing event (import/... errors)"})
    reason = ma.fields.String(metadata={"description": "which check failed (import/... errors)"})
    fields_ = ma.fields.Dict(
        data_key="fields",
        attribute="fields",
        metadata={
            "description": "per-field problems: of a 400 request/... (which field, and why), "
            "of a 422 rule/not_the_catalog_card (each card field that differs from the "
            "catalog's: 'catalog: 3, given: 0') or rule/unknown_card"
        },
    )


class ErrorSchema(ma.Schema):
    """The one error payload of every non-2xx response."""

    error = ma.fields.Nested(ErrorDetailSchema, required=True)


#: The error responses an operation documents (``ApiBlueprint.errors``): what each status
#: means here, with the codes it carries. Registered as ``components/responses/Error<status>``.
ERROR_RESPONSES = {
    400: "a malformed request: request/invalid_json, request/invalid_encoding, "
    "request/too_deep, request/invalid_body (+fields: which field, as the schema or "
    "api.json_api.inputs found it), request/invalid_query (a query parameter, +fields), request/... of the rules' argument checks (+fields), "
    "import/not_an_export",
    401: "no token, or a token that is not valid here: auth/missing_token, "
    "auth/invalid_token, auth/malformed_header (with WWW-Authenticate: Bearer)",
    403: "a valid token that may not do this: auth/forbidden, auth/wrong_seat, "
    "auth/judge_only, auth/forbidden_view",
    404: "no such game, version, turn or dispute: game/not_found, game/version_not_found "
    "(+current_version), game/turn_not_found, dispute/not_found",
    406: "no format this export offers is acceptable: request/not_acceptable",
    409: "the game is not at expected_version, or an import is here already: "
    "game/version_conflict (+current_version), game/already_exists",
    413: "the body is larger than the server takes: request/too_large",
    422: "refused: rule/... (+rule, the docs/rules.md section; rule/not_the_catalog_card and "
    "rule/unknown_card +fields: the card fields that differ), command/... (impossible), "
    "import/... (+version, reason), request/idempotency_key_reused",
    503: "not available now: storage/damaged on a game's routes, the game's stored rows are "
    "damaged (+version, reason: the first damaged record; GET /api/games/{game_id}/verify "
    "names every damaged row); storage/unavailable (with Retry-After) when storage refuses: "
    "a full disk, a read-only database, a database that does not answer (nothing was "
    "recorded; send the request again later); on /readyz also projection/lagging (the match "
    "histories are further behind than MUNCHLOG_READY_MAX_LAG)",
}

#: Headers of the documented error responses (``components/responses/Error<status>``).
ERROR_HEADERS = {
    503: {
        "Retry-After": {
            "description": "seconds to wait before sending the request again "
            "(storage/unavailable only)",
            "required": False,
            "schema": {"type": "integer"},
        }
    },
    401: {
        "WWW-Authenticate": {
            "description": "always `Bearer`",
            "required": True,
            "schema": {"type": "string", "enum": ["Bearer"]},
        }
    },
}


def error_response(status: int) -> str:
    """The name of the documented error response for ``status`` (:data:`ERROR_RESPONSES`)."""
    return f"Error{status}"


class MunchlogApi(Api):
    """flask-smorest's Api, documenting and producing our error shape instead of its own.

    A blueprint's routes are registered at once; its part of the OpenAPI document (about half
    of what building an app costs: every schema converted) is written when the document is
    first read (:attr:`spec`: ``/api/openapi.json``, the docs pages), in the order registered,
    so the document is the same and an app that is never asked for it never builds it."""

    ERROR_SCHEMA = ErrorSchema

    def __init__(self, app: Flask | None = None, **kwargs: Any) -> None:
        self._undocumented: list[tuple[Any, str, Any]] = []
        super().__init__(app, **kwargs)

    @property
    def spec(self) -> Any:
        """The OpenAPI document, with the blueprints registered since it was last read."""
        pending, self._undocumented = self._undocumented, []
        for blp, name, parameters in pending:
            blp.register_views_in_doc(self, self._app, self._spec, name=name, parameters=parameters)
            self._spec.tag({"name": name, "description": blp.description})
        return self._spec

    @spec.setter
    def spec(self, value: Any) -> None:
        self._spec = value

    def register_blueprint(self, blp: Any, *, parameters: Any = None, **options: Any) -> None:
        """flask-smorest's, but the blueprint's documentation waits for :attr:`spec`."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))

    def init_app(self, app: Flask, *, spec_kwargs: Any = None) -> None:
        """flask-smorest's, documenting the inputs' rules (``api.json_api.openapi``), plus one response
        component per :data:`ERROR_RESPONSES` entry."""
        spec_kwargs = {"marshmallow_plugin": openapi.MarshmallowRules(), **(spec_kwargs or {})}
        super().init_app(app, spec_kwargs=spec_kwargs)
        openapi.install(self, app)
        for status, description in ERROR_RESPONSES.items():
            response = {
                "description": description,
                "content": {"application/json": {"schema": "Error"}},
            }
            if status in ERROR_HEADERS:
                response["headers"] = ERROR_HEADERS[status]
            self.spec.components.response(error_response(status), response)

    def handle_http_exception(self, error: HTTPException) -> Response:
        return handle_http_exception(error)
