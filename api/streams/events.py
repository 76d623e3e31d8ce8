"""An event's stream in the stream process (issue #38, ``service.event_stream``): who asks, and
what their stream sends next. ``api.streams.process`` routes ``GET /api/events/<id>/stream``
here; the channels, pumps, heartbeats and resumption are the games' streams' own."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import service.event_views  # noqa: F401  (the views of reports and check-in, issue #38)
from api.json_api.auth import bearer_token
from api.json_api.errors import Unauthorized
from domain.game import token_hash
from service.event_stream import TICKET_PREFIX, next_chunks, viewer_name
from service.streams import Chunk, InvalidTicket, Tickets
from service.tournaments import Tournaments


def event_viewer(
    log: Any,
    tickets: Tickets,
    organizer_hash: str,
    event_id: UUID,
    authorization: str | None,
    ticket: str | None,
) -> str:
    """The viewer of an event's stream: by its ``Authorization`` header (the event's judge, a
    player, the organizer; none: a spectator; any other token 401), else by a ticket made by
    ``POST /api/events/<id>/stream-tickets`` (404 for no event)."""
    event = Tournaments(log).load(event_id)
    if authorization is None and ticket is not None:
        viewer = tickets.redeem(ticket, event_id)
        if not viewer.startswith(TICKET_PREFIX):
            raise InvalidTicket("for another stream")
        return viewer[len(TICKET_PREFIX) :]
    token = bearer_token(authorization)
    hashed = None if token is None else token_hash(token)
    caller = Tournaments.caller(event, hashed, organizer_hash)
    if caller is None:
        raise Unauthorized("auth/invalid_token", "this token is not valid here")
    return viewer_name(caller)


def read_event(
    log: Any, event_id: UUID, wanted: list[tuple[str, int]], dumps: Any
) -> dict[tuple[str, int], Chunk]:
    return next_chunks(log.store, event_id, wanted, dumps)
