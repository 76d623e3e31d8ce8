"""The judge's tools behind the HTTP routes (issue #4): who sees the game as whom, and the
replay look-ups, cached per process.

* :func:`view_as` -- ``?as=``: a judge may see any point as any viewer; the table as any seat
  or ``table``; a seat only as itself; anything else is 403 ``auth/forbidden_view``.
* :class:`ReplayCache` -- per game, a :class:`projections.replay.ReplayIndex` (turns, causes,
  the public timeline, the Heroes' counters) extended with the records written since the last
  request, and a small LRU of judge states by version (events never change, so neither do
  they). ``GameLog.game(id, version=v)`` rebuilds from the nearest snapshot (at most 100
  events to fold); the cache saves even that for states asked for again (a scrubbing viewer).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, cast
from uuid import UUID

from flask import current_app

from api.auth import current_viewer, game_seats, gamelog
from api.errors import ApiError, Forbidden
from domain import event_from_dict, evolve, initial_state
from domain.application import VersionNotFoundError
from domain.game import Record
from projections.replay import ReplayIndex, state_as_played
from projections.views import state_view

State = dict[str, Any]


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


INDEX_GAMES = 64
STATES = 1024


class NotFound(ApiError):
    """Something inside a game that does not exist (``game/turn_not_found``,
    ``dispute/not_found``); 404 in the one error shape."""

    status = 404


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


class ReplayCache:
    """Per-process caches of the judge's look-ups (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._indexes: OrderedDict[UUID, tuple[threading.Lock, ReplayIndex]] = OrderedDict()
        self._states: OrderedDict[tuple[UUID, int], State] = OrderedDict()

    def index(self, game_id: UUID) -> ReplayIndex:
        """The game's index, brought up to its current version."""
        log = gamelog()
        current = log.current_version(game_id)  # 404 for an unknown game
        with self._lock:
            entry = self._indexes.get(game_id)
            if entry is None:
                entry = (threading.Lock(), ReplayIndex())
                self._indexes[game_id] = entry
                while len(self._indexes) > INDEX_GAMES:
                    self._indexes.popitem(last=False)
            self._indexes.move_to_end(game_id)
        lock, index = entry
        with lock:
            if index.version < current:
                index.extend(log.records(game_id, after=index.version))
        return index

    def state(self, game_id: UUID, version: int) -> State:
        """The judge's state after event ``version`` (version 0: before the game)."""
        if version == 0:
            return initial_state()
        key = (game_id, version)
        with self._lock:
            cached = self._states.get(key)
            if cached is not None:
                self._states.move_to_end(key)
                return cached
        state = cast(State, gamelog().game(game_id, version=version).state)
        self.remember(game_id, version, state)
        return state

    def forget_states(self) -> None:
        """Drop the cached states (benchmarks measure the uncached path with it)."""
        with self._lock:
            self._states.clear()

    def remember(self, game_id: UUID, version: int, state: State) -> None:
        with self._lock:
            self._states[(game_id, version)] = state
            while len(self._states) > STATES:
                self._states.popitem(last=False)


def replay_cache() -> ReplayCache:
    """The app's :class:`ReplayCache` (made on first use)."""
    cache = current_app.extensions.get("munchlog_replay")
    if cache is None:
        cache = current_app.extensions.setdefault("munchlog_replay", ReplayCache())
    return cast(ReplayCache, cache)


def record_at(game_id: UUID, version: int) -> Record:
    """The stored record of event ``version`` (404 ``game/version_not_found`` if none)."""
    log = gamelog()
    records = log.records(game_id, after=version - 1, limit=1) if version >= 1 else []
    if not records or records[0]["version"] != version:
        raise VersionNotFoundError(version, log.current_version(game_id))
    return records[0]


def records_between(game_id: UUID, first: int, last: int) -> list[Record]:
    """The records of versions ``first`` .. ``last``."""
    if last < first:
        return []
    return gamelog().records(game_id, after=first - 1, limit=last - first + 1)


def state_after(game_id: UUID, record: Mapping[str, Any]) -> tuple[State, State]:
    """``(state before, state after)`` event ``record``: one rebuild and one fold."""
    cache = replay_cache()
    version = int(record["version"])
    before = cache.state(game_id, version - 1)
    after = evolve(before, event_from_dict(dict(record["event"])))
    cache.remember(game_id, version, after)
    return before, after


def replay_state(game_id: UUID, query: Mapping[str, Any]) -> dict[str, Any]:
    """The ``GET /state`` body: now, ``at`` a version or at the end of ``turn``, as ``as``."""
    viewer = view_as(game_id, query.get("as_"))
    log = gamelog()
    version = query.get("at")
    if query.get("turn") is not None:
        version = turn_versions(game_id, int(query["turn"]))[-1]
    if query.get("played"):
        current = log.current_version(game_id)
        if version is not None and not 1 <= version <= current:
            raise VersionNotFoundError(version, current)
        state = state_as_played(log.records(game_id), version)
    elif version is None:
        state = log.game(game_id).state
    else:
        current = log.current_version(game_id)
        if not 1 <= version <= current:
            raise VersionNotFoundError(version, current)
        state = replay_cache().state(game_id, version)
    return state_view(state, viewer)


def turn_versions(game_id: UUID, turn: int) -> list[int]:
    """The versions recorded during ``turn`` (404 ``game/turn_not_found`` if none)."""
    versions = replay_cache().index(game_id).turns.get(turn)
    if not versions:
        raise NotFound("game/turn_not_found", f"turn {turn} has not been played")
    return list(versions)
