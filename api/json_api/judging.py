"""Who sees a replay as whom (``?as=``), over :mod:`service.replays`.

A judge may see any point as any viewer; the table as any seat or ``table``; a seat only as
itself; anything else is 403 ``auth/forbidden_view``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from api.json_api.auth import current_viewer, game_seats, gamelog
from service.delay import seen_as


def view_as(game_id: UUID, requested: str | None) -> str:
    """The viewer to redact for: the caller's own, or ``requested`` when the caller may
    (:func:`service.delay.seen_as`)."""
    return seen_as(current_viewer(game_id), requested, lambda: game_seats(game_id))


def replay_state(game_id: UUID, query: Mapping[str, Any]) -> dict[str, Any]:
    """The ``GET /state`` body: one call of the service (:meth:`service.delay.Delays.state`)."""
    return gamelog().delays.state(
        game_id,
        current_viewer(game_id),
        as_=query.get("as_"),
        at=query.get("at"),
        turn=query.get("turn"),
        played=bool(query.get("played")),
    )
