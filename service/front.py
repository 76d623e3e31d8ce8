"""The home page's lists (issue #44, "every event and game findable"): the events, newest
first, and the most recent games, each as anyone may see it (a spectator delay holds a game's
status back as its list entry does, ``service.delay``)."""

from __future__ import annotations

from typing import Any

from domain.envelope import DamagedRecords
from domain.game import GameSummary
from service.games import GameLog
from service.tournaments import Tournaments

#: Log positions read back at a time while looking for the newest games.
WINDOW = 500


def recent_games(log: GameLog, limit: int) -> list[dict[str, Any]]:
    """The last ``limit`` games created, newest first, as a spectator's list entries: the
    log is read backwards a window at a time (its head down), never from its start."""
    found: list[Any] = []
    high = log.store.max_notification_id()
    while high > 0 and len(found) < limit:
        low = max(0, high - WINDOW)
        page = log.store.notifications_of(GameSummary.Opened, low, WINDOW)
        found += reversed([n for n in page if n.id <= high])
        high = low
    entries = []
    for note in found[:limit]:
        try:
            summary: Any = log.store.load(note.originator_id)
        except DamagedRecords:
            continue  # logged; its game's own routes answer storage/damaged
        if isinstance(summary, GameSummary):
            entries.append(log.delays.entry(summary, "spectator"))
    return entries


def events_newest_first(service: Tournaments, limit: int) -> list[dict[str, Any]]:
    """Every event's list line (``Tournaments.entry``), the newest ``limit`` first."""
    lines: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page, after = service.listing(after, 200)
        lines += page
    return list(reversed(lines))[:limit]
