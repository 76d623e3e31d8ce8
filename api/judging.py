"""Who sees a replay as whom (``?as=``), over :mod:`service.replays`.

A judge may see any point as any viewer; the table as a seat or ``table``; a seat only as
itself; anything else is 403 ``auth/forbidden_view``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from api.auth import current_viewer, gamelog
from api.errors import Forbidden
from projections.views import state_view

State = dict[str, Any]

#: Which viewers each caller may see the game as (``?as=``).
AS_ALLOWED: dict[str, tuple[str, ...]] = {
    "judge": ("A", "B", "table", "judge", "organizer", "spectator"),
    "table": ("A", "B", "table", "spectator"),
    "A": ("A", "spectator"),
    "B": ("B", "spectator"),
    "organizer": ("organizer", "spectator"),
    "spectator": ("spectator",),
}


def view_as(game_id: UUID, requested: str | None) -> str:
    """The viewer to redact for: the caller's own, or ``requested`` when the caller may."""
    viewer = current_viewer(game_id)
    if requested is None or requested == viewer:
        return viewer
    if requested not in AS_ALLOWED.get(viewer, ()):
        raise Forbidden(
            "auth/forbidden_view", f"the {viewer} may not see the game as {requested!r}"
        )
    return requested


def replay_state(game_id: UUID, query: Mapping[str, Any]) -> dict[str, Any]:
    """The ``GET /state`` body: now, ``at`` a version or at the end of ``turn``, as ``as``."""
    viewer = view_as(game_id, query.get("as_"))
    state = gamelog().replays.state_for(
        game_id, at=query.get("at"), turn=query.get("turn"), played=bool(query.get("played"))
    )
    return state_view(state, viewer)
