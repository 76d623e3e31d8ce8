"""The recording hot path: ``POST /api/games/<id>/actions`` without Flask's request machinery.

Recording is what a table's app does all game long, and for a one-action batch Flask's request
context, URL matching, ``request`` proxies and response object cost as much as the rules, the
envelope and the insert together (``bench/RESULTS.md``, "Speed (issue 11)"). :class:`RecordHotPath`
is WSGI middleware in front of the Flask app that serves the everyday request directly -- with
the same functions the Flask route calls, in the same order:

1. the game's access record and the bearer token's role (``GameLog.access``, ``role_for``);
2. the body: ``api.json_api.inputs.loads`` (the one reader of every JSON body: UTF-8, depth, numbers,
   strings) and ``ActionBatchSchema.quick_load`` (the schema's own fast path, held to ``load``
   by a property test);
3. ``api.json_api.recording.record_actions`` (``GameLog.record``), the one call both entrances record
   through;
4. the 201 response, encoded by the app's JSON provider as Flask would.

Everything else goes to the Flask app untouched, which then decides it as it always has: any
other method, path, query string, content type or header that matters
(``api.json_api.recording.RECORD_HEADERS``: ``Idempotency-Key``), a
missing or malformed ``Authorization``, a token that is not one of the game's recorders, a body
that is not the plainest shape. When ``GameLog.record`` raises, nothing was stored (it raises
before it saves), and the error is answered by the app's own error handlers, so the error shape
and codes are the app's by construction. The whole API test suite runs through this path (the
test client calls the same ``wsgi_app``); ``tests/api/test_hotpath.py`` compares it with the
Flask route byte for byte.

``MUNCHLOG_HOTPATH=0`` turns it off.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from io import BytesIO
from typing import Any
from uuid import UUID

from flask import Flask

from api.json_api import inputs, recording
from api.json_api.recording import RECORD_HEADER_KEYS
from api.json_api.schemas import ActionBatchSchema
from domain.game import token_hash
from service.games import GameLog

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

_PATH = re.compile(
    r"/api/games/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/actions"
)
#: The route template of the requests this path may answer (``api.ops.metrics``' ``route`` label).
HOT_ROUTE = "/api/games/<game_id>/actions"
#: Where the route's template is left in the WSGI environ for ``api.ops.metrics``: by this path for
#: every request whose path it matches (a Flask route that then runs writes its own over it).
ROUTE_KEY = "munchlog.route"


@functools.lru_cache(maxsize=4096)
def _uuid(text: str) -> UUID:
    """``UUID(text)`` for a game id the path matched, remembered (UUIDs are immutable): a
    table's app records into the same game all game long, and parsing one costs microseconds."""
    return UUID(text)


class RecordHotPath:
    """WSGI middleware serving the everyday ``POST .../actions`` (see the module docstring)."""

    def __init__(self, app: Flask, inner: WSGIApp) -> None:
        self.app = app
        self.inner = inner
        self.log: GameLog = app.extensions["munchlog"]
        self.max_body = int(app.config.get("MAX_CONTENT_LENGTH") or 0)
        self.served = 0  #: requests served here (the rest went to Flask), for tests and benches
        provider: Any = app.json
        #: the provider's compact output (out of debug mode), which the hot path writes itself
        self.compact = provider.compact is True or (provider.compact is None and not app.debug)
        self.mimetype = str(getattr(provider, "mimetype", "application/json"))

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        match = _PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None:
            return self.inner(environ, start_response)
        environ[ROUTE_KEY] = HOT_ROUTE
        if (
            environ.get("REQUEST_METHOD") != "POST"
            or environ.get("QUERY_STRING")
            or not environ.keys().isdisjoint(RECORD_HEADER_KEYS)
            or environ.get("CONTENT_TYPE", "").partition(";")[0].strip() != "application/json"
        ):
            return self.inner(environ, start_response)
        header = environ.get("HTTP_AUTHORIZATION", "")
        scheme, _, token = header.partition(" ")
        length = environ.get("CONTENT_LENGTH", "")
        if (
            scheme != "Bearer"
            or not token
            or " " in token
            or not (length.isascii() and length.isdigit())
        ):
            return self.inner(environ, start_response)
        size = int(length)
        if not 0 < size <= self.max_body:
            return self.inner(environ, start_response)
        raw = environ["wsgi.input"].read(size)
        environ["wsgi.input"] = BytesIO(raw)  # for Flask, if it gets the request after all
        game_id = _uuid(match.group(1))
        try:
            role = self.log.access(game_id).role_for(token_hash(token))
            # A game's tokens are its seats', the table's and the judge's, all of whom may record
            # (``api.json_api.auth.recorder_of_game``); any other token (the organizer's) or none: Flask.
            if role is None:
                return self.inner(environ, start_response)
            try:
                body = ActionBatchSchema.quick_load(inputs.loads(raw))
            except (ValueError, inputs.InvalidInput):  # Flask's parser says what is wrong
                body = None
            if body is None:
                return self.inner(environ, start_response)
            outcome = recording.record_actions(self.log, game_id, body, actor=role)
        except Exception as exc:  # nothing was stored: the app's handlers answer it
            return self._error(environ, start_response, exc)
        self.served += 1
        if not self.compact:
            response: Any = self.app.json.response(outcome.response)
            response.status_code = 201
            return response(environ, start_response)
        # What the app's JSON provider's ``response`` makes, without the Response object.
        data = f"{self._dumps(outcome.response)}\n".encode()
        start_response(
            "201 CREATED",
            [("Content-Type", self.mimetype), ("Content-Length", str(len(data)))],
        )
        return [data]

    def _dumps(self, obj: Any) -> str:
        """``app.json.dumps(obj, separators=(",", ":"))``, as the provider's compact
        ``response`` writes it (the app's ``api.json_api.jsonio.FastJSONProvider``: orjson where its
        bytes are ``json``'s)."""
        return str(self.app.json.dumps(obj, separators=(",", ":")))

    def _error(
        self, environ: dict[str, Any], start_response: StartResponse, exc: Exception
    ) -> Iterable[bytes]:
        """Answer ``exc`` with the app's own error handlers, in a request context of its own."""
        with self.app.request_context(environ):
            response: Any = self.app.finalize_request(self.app.handle_user_exception(exc))
        return response(environ, start_response)


def install(app: Flask) -> None:
    """Put the hot path in front of ``app``'s WSGI callable (unless ``MUNCHLOG_HOTPATH=0``)."""
    setting = app.config.get("MUNCHLOG_HOTPATH")
    if setting is None:
        import os

        setting = os.environ.get("MUNCHLOG_HOTPATH", "1")
    if str(setting) not in ("0", "false", "no", "off"):
        app.wsgi_app = RecordHotPath(app, app.wsgi_app)  # type: ignore[method-assign]
