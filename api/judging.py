"""Who sees a replay as whom (``?as=``), over :mod:`service.replays`.

A judge may see any point as any viewer; the table as any seat or ``table``; a seat only as
itself; anything else is 403 ``auth/forbidden_view``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from api.auth import current_viewer, game_seats, gamelog
from api.errors import Forbidden
from projections.views import state_view


def as_allowed(viewer: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """Which viewers ``viewer`` may see a game with ``seats`` as (``?as=``)."""
    if viewer == "judge":
        return (*seats, "table", "judge", "organizer", "spectator")
    if viewer == "table":
        return (*seats, "table", "spectator")
    if viewer == "organizer":
        return ("organizer", "spectator")
    if viewer in seats:
        return (viewer, "spectator")
    return ("spectator",)


def view_as(game_id: UUID, requested: str | None) -> str:
    """The viewer to redact for: the caller's own, or ``requested`` when the caller may."""
    viewer = current_viewer(game_id)
    if requested is None or requested == viewer:
        return viewer
    if requested not in as_allowed(viewer, game_seats(game_id)):
        raise Forbidden(
            "auth/forbidden_view", f"the {viewer} may not see the game as {requested!r}"
        )
    return requested


def replay_state(game_id: UUID, query: Mapping[str, Any]) -> dict[str, Any]:
    """The ``GET /state`` body: now, ``at`` a version or at the end of ``turn``, as ``as``."""
    viewer = view_as(game_id, query.get("as_"))
    at, turn = query.get("at"), query.get("turn")
    log = gamelog()
    cap = log.delays.version_for(game_id, current_viewer(game_id))
    if cap is not None:  # a spectator delay: nothing after the version the caller may see
        if turn is not None:
            at, turn = log.delays.turn_end(game_id, cap, turn), None
        if at is None:
            at = cap
        log.delays.check_version(game_id, current_viewer(game_id), at)
    state = log.replays.state_for(game_id, at=at, turn=turn, played=bool(query.get("played")))
    return state_view(state, viewer)
