"""Follow an event live (issue #38): its stream's tickets and the redirect to it.

The stream itself (``GET /api/events/<id>/stream``, Server-Sent Events: a message for each new
event of the event, as the caller may see it, ``service.event_stream``) is served by the stream
process, as a game's is (docs/streams.md); here, as for a game (``api.json_api.routes.live``):
``POST /api/events/<id>/stream-tickets`` trades the caller's token for a single-use ticket, and
``GET /api/events/<id>/stream`` on the workers answers 307 to the stream process with one.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from api.json_api.routes.events import current, public_event
from api.json_api.routes.games import ApiBlueprint
from api.json_api.routes.live import (
    StreamQuerySchema,
    TicketSchema,
    new_ticket,
    to_stream,
)
from service.event_stream import TICKET_PREFIX, viewer_name

blp = ApiBlueprint(
    "event_live",
    __name__,
    url_prefix="/api/events",
    description="Follow an event live: Server-Sent Events per viewer (docs/streams.md).",
)


@blp.route("/<event_id>/stream-tickets")
class EventStreamTickets(MethodView):
    @public_event(blp, TicketSchema, status_code=201)
    def post(self, event_id: str) -> dict[str, Any]:
        """A ticket to open the event's stream from a browser (docs/streams.md)

        As a game's: the ticket stands for the caller (the organizer, the event's judge, one
        of its players, or a spectator without a token), for this event only, once, within
        `expires_in` seconds; resume with `&after=<the last id>`.
        """
        event, caller = current()
        return new_ticket(event.id, TICKET_PREFIX + viewer_name(caller), of="events")


@blp.route("/<event_id>/stream")
class EventStream(MethodView):
    @public_event(
        blp,
        query=StreamQuerySchema,
        errors=(400, 401, 404, 503),
        responses={
            "200": {
                "description": "Server-Sent Events from the stream process: each new event of "
                "the event as the caller may see it (`data`: `{version, type, ...}`, `id` its "
                "version): pairings posted, the clock, time called at a table, results, …",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            "307": {"description": "to the stream process, with a ticket for the caller"},
        },
    )
    def get(self, query: dict[str, Any], event_id: str) -> Response:
        """Follow the event live (Server-Sent Events, per viewer)

        Served by the stream process; asked of the recording workers, this answers 307 to it
        with a ticket standing for the caller's token. A spectator needs no token.
        """
        event, caller = current()
        viewer = viewer_name(caller)
        subject = None if viewer == "spectator" else TICKET_PREFIX + viewer
        return to_stream(query, event.id, subject, of="events")
