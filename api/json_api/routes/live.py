"""Live streams, as the recording app sees them: where a game's stream is, and its tickets.

The stream itself (``GET /api/games/<id>/stream``, Server-Sent Events) is served by the
stream process (:mod:`api.streams.process`), not by these workers (docs/streams.md). Here:

* ``POST /api/games/<id>/stream-tickets`` trades the caller's token for a short-lived,
  single-use ticket and says where to open the stream with it (what a page's ``EventSource``
  does: it cannot send an ``Authorization`` header);
* ``GET /api/games/<id>/stream`` on the workers is a redirect (307) to the stream process, with
  a fresh ticket in place of the caller's header (a client that follows redirects drops that
  header on the way to another port). Behind nginx the stream path never reaches the workers.

Where the stream process is (:func:`stream_base`): ``MUNCHLOG_STREAM_URL`` if set (an origin
such as ``https://live.example.org``, or ``same-origin``); else, behind a proxy that routes
streams itself (it says so with ``X-Munchlog-Streams: proxied``, as ``deploy/nginx.conf``
does), this origin; else the port ``munchlog serve`` started it on (``MUNCHLOG_STREAM_PORT``)
on the host the request came to.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlencode, urlsplit
from uuid import UUID

import marshmallow as ma
from flask import Response, current_app, request
from flask.views import MethodView
from marshmallow import fields

from api.json_api.auth import current_viewer, parse_game_id, viewer_of_game
from api.json_api.errors import ApiError, BadRequest
from api.json_api.routes.games import OPTIONAL_BEARER, ApiBlueprint
from api.json_api.schemas import Position, up_to_max
from service.streams import TICKET_SECONDS, Tickets, stream_position, ticket_key

blp = ApiBlueprint(
    "live",
    __name__,
    url_prefix="/api/games",
    description="Follow a game live: Server-Sent Events per viewer (docs/streams.md).",
)


class StreamUnavailable(ApiError):
    """No stream process is known to this app (503 ``stream/unavailable``)."""

    status = 503


class TicketSchema(ma.Schema):
    ticket = fields.String(
        required=True, metadata={"description": "single use, for this game and viewer"}
    )
    url = fields.String(
        required=True,
        metadata={
            "description": "where to open the stream: the stream's address with the ticket "
            "(absolute when the stream process is on another origin, else a path); add "
            "`&after=<version>` to resume"
        },
    )
    expires_in = fields.Integer(
        required=True, metadata={"description": "seconds the ticket may wait before it is used"}
    )


class StreamQuerySchema(ma.Schema):
    after = Position(
        load_default=None,
        validate=up_to_max(0),
        metadata={"description": "start after this version (default: Last-Event-ID, else 0)"},
    )
    ticket = fields.String(
        load_default=None,
        metadata={"description": "a ticket from POST /stream-tickets, instead of a token"},
    )


def _tickets() -> Tickets:
    found = current_app.extensions.get("munchlog_tickets")
    if found is None:
        found = Tickets(ticket_key(current_app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"]))
        current_app.extensions["munchlog_tickets"] = found
    return found


def stream_base() -> str | None:
    """The origin of the stream process as the caller reaches it ("" for this one), or
    ``None`` when no stream process is known (see the module docstring)."""
    configured = current_app.config.get("MUNCHLOG_STREAM_URL") or os.environ.get(
        "MUNCHLOG_STREAM_URL"
    )
    if configured:
        return "" if configured.strip() == "same-origin" else configured.strip().rstrip("/")
    if request.headers.get("X-Munchlog-Streams", "").lower() == "proxied":
        return ""
    port = current_app.config.get("MUNCHLOG_STREAM_PORT") or os.environ.get("MUNCHLOG_STREAM_PORT")
    if not port:
        return None
    host = urlsplit("//" + request.host).hostname or "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"{request.scheme}://{host}:{int(port)}"


def stream_origin() -> str | None:
    """The stream process's origin when it is another one than this page's (for a page's
    Content-Security-Policy ``connect-src``), else ``None``."""
    try:
        base = stream_base()
    except Exception:  # a page never fails over this
        return None
    return base or None


def stream_url(base: str, stream_id: Any, *, of: str = "games", **query: Any) -> str:
    """The stream of the game (``of="events"``: the event) ``stream_id`` at the origin
    ``base`` ("" for this one), with ``query``'s values that are not ``None``."""
    wanted = {k: v for k, v in query.items() if v is not None}
    suffix = f"?{urlencode(wanted)}" if wanted else ""
    return f"{base}/api/{of}/{stream_id}/stream{suffix}"


def new_ticket(stream_id: UUID, subject: str, *, of: str = "games") -> dict[str, Any]:
    """The answer of ``POST …/stream-tickets`` (``TicketSchema``): a ticket for ``subject`` to
    stream the game (or the event) ``stream_id``, and where to open the stream with it."""
    ticket = _tickets().make(stream_id, subject)
    # no stream process known: the page opens it on this origin (a proxy may route it)
    url = stream_url(stream_base() or "", stream_id, of=of, ticket=ticket)
    return {"ticket": ticket, "url": url, "expires_in": TICKET_SECONDS}


def to_stream(
    query: dict[str, Any], stream_id: UUID, subject: str | None, *, of: str = "games"
) -> Response:
    """``GET …/stream`` on the workers: 307 to the stream process, resuming where ``query``
    (or ``Last-Event-ID``) says, with the query's ticket, else a new one for ``subject``
    (``None``: a spectator, who needs none)."""
    after = resume_after(query)
    base = reachable_base()
    ticket = query.get("ticket")
    if subject is not None and ticket is None:
        ticket = _tickets().make(stream_id, subject)
    response = Response(status=307)
    response.headers["Location"] = stream_url(base, stream_id, of=of, after=after, ticket=ticket)
    response.headers["Cache-Control"] = "no-store"
    return response


def resume_after(query: dict[str, Any]) -> int | None:
    """Where a stream resumes: ``Last-Event-ID`` as the stream process reads it (it comes
    before ``?after=``), else ``?after=``; 400 for one that is not a version."""
    after: int | None = query.get("after")
    last_event_id = request.headers.get("Last-Event-ID", "")
    if last_event_id:
        after = stream_position(last_event_id)
        if after is None:
            raise BadRequest(
                "request/invalid_query",
                "after (or Last-Event-ID) must be a version >= 0",
                fields={"Last-Event-ID": ["Not a valid version."]},
            )
    return after


def reachable_base() -> str:
    """:func:`stream_base`, or 503 when unknown or this very origin (the stream process is
    not behind it)."""
    base = stream_base()
    if not base:
        raise StreamUnavailable(
            "stream/unavailable",
            "streams are served by the stream process, which is not reachable through "
            "this server: `munchlog serve` starts it; behind a proxy, route "
            "/api/games/<id>/stream and /api/events/<id>/stream to it (docs/streams.md)",
        )
    return base


@blp.route("/<game:game_id>/stream-tickets")
class StreamTickets(MethodView):
    @viewer_of_game
    @blp.errors(401, 404, 503)
    @blp.response(201, TicketSchema)
    @blp.doc(security=OPTIONAL_BEARER)
    def post(self, game_id: str) -> dict[str, Any]:
        """A ticket to open the game's stream from a browser (docs/streams.md)

        `EventSource` cannot send an `Authorization` header, and a token in a URL would be
        kept in histories and logs: a page sends its token here and opens `url` instead. The
        ticket stands for the same viewer, for this game only, once, within `expires_in`
        seconds; a page that loses its stream asks for another and resumes with
        `&after=<the last id it had>`.
        """
        gid = parse_game_id(game_id)
        return new_ticket(gid, current_viewer(gid))


@blp.route("/<game:game_id>/stream")
class GameStream(MethodView):
    @viewer_of_game
    @blp.errors(400, 401, 404, 503)
    @blp.arguments(StreamQuerySchema, location="query")
    @blp.doc(
        security=OPTIONAL_BEARER,
        responses={
            "200": {
                "description": "Server-Sent Events from the stream process: each stored event "
                "as the caller may see it (one item of GET /events as `data`, its version as "
                "`id`), from the version after `Last-Event-ID` or `after`; a `: heartbeat` "
                "comment every 15 s",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            "307": {"description": "to the stream process, with a ticket for the caller"},
        },
    )
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Follow the game live (Server-Sent Events, per viewer)

        Served by the stream process (`munchlog serve` starts it; docs/streams.md). Asked of
        the recording workers, this answers 307 to it, with a ticket standing for the
        caller's token (so a client that drops its `Authorization` header on a redirect to
        another port still streams as itself). A spectator needs no token.
        """
        gid = parse_game_id(game_id)
        viewer = current_viewer(gid)
        return to_stream(query, gid, None if viewer == "spectator" else viewer)
