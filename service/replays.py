"""Replaying a game for judges: states at any version or turn, and the replay index.

Per game, a :class:`projections.replay.ReplayIndex` (turns, causes, the public timeline)
extended with the records written since the last request, and a small LRU of judge states by
version (events never change, so neither do they). ``GameLog.game(id, version=v)`` rebuilds from
the nearest snapshot (at most 100 events to fold); the cache saves even that for states asked for
again (a scrubbing viewer). One :class:`Replays` per :class:`~service.games.GameLog`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from domain import event_from_dict, evolve, initial_state
from domain.envelope import Record
from domain.errors import NotFound, UnknownVersion
from projections.replay import ReplayIndex, state_as_played

if TYPE_CHECKING:
    from service.games import GameLog

State = dict[str, Any]


@dataclass(frozen=True)
class TurnReplay:
    """One turn: its versions and records, the states before its first and after its last."""

    versions: list[int]
    records: list[Record]
    before: State
    after: State


@dataclass(frozen=True)
class EventReplay:
    """One event: its record, the states around it, its causes and effects (records)."""

    turn: int
    record: Record
    before: State
    after: State
    causes: list[Record]
    effects: list[Record]
    corrected_by: list[int]
    undone_by: list[int]


#: Games whose replay index is kept, and judge states kept (by game and version).
INDEX_GAMES = 64
STATES = 1024


class Replays:
    """Per-process caches of the judge's look-ups (see the module docstring)."""

    def __init__(self, log: GameLog) -> None:
        self.log = log
        self._lock = threading.Lock()
        self._indexes: OrderedDict[UUID, tuple[threading.Lock, ReplayIndex]] = OrderedDict()
        self._states: OrderedDict[tuple[UUID, int], State] = OrderedDict()

    def index(self, game_id: UUID) -> ReplayIndex:
        """The game's index, brought up to its current version."""
        current = self.log.current_version(game_id)  # GameNotFoundError for an unknown game
        self.log.ensure_sound(game_id)  # DamagedRecords (once per process for a sound game)
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
                index.extend(self.log.records(game_id, after=index.version))
        return index

    def state(self, game_id: UUID, version: int) -> State:
        """The judge's state after event ``version`` (version 0: before the game)."""
        if version == 0:
            return initial_state()
        self.log.ensure_sound(game_id)
        key = (game_id, version)
        with self._lock:
            cached = self._states.get(key)
            if cached is not None:
                self._states.move_to_end(key)
                return cached
        state = cast(State, self.log.game(game_id, version=version).state)
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

    def record_at(self, game_id: UUID, version: int) -> Record:
        """The stored record of event ``version`` (``game/version_not_found`` if none)."""
        records = self.log.records(game_id, after=version - 1, limit=1) if version >= 1 else []
        if not records or records[0]["version"] != version:
            raise UnknownVersion(version, self.log.current_version(game_id))
        return records[0]

    def records_between(self, game_id: UUID, first: int, last: int) -> list[Record]:
        """The records of versions ``first`` .. ``last``."""
        if last < first:
            return []
        return self.log.records(game_id, after=first - 1, limit=last - first + 1)

    def around(self, game_id: UUID, record: Mapping[str, Any]) -> tuple[State, State]:
        """``(state before, state after)`` event ``record``: one rebuild and one fold."""
        version = int(record["version"])
        before = self.state(game_id, version - 1)
        after = evolve(before, event_from_dict(dict(record["event"])))
        self.remember(game_id, version, after)
        return before, after

    def turn_versions(self, game_id: UUID, turn: int) -> list[int]:
        """The versions recorded during ``turn`` (``game/turn_not_found`` if none)."""
        versions = self.index(game_id).turns.get(turn)
        if not versions:
            raise NotFound("game/turn_not_found", f"turn {turn} has not been played")
        return list(versions)

    def state_for(
        self,
        game_id: UUID,
        *,
        at: int | None = None,
        turn: int | None = None,
        played: bool = False,
    ) -> State:
        """The judge's state now, ``at`` a version or at the end of ``turn``; ``played``
        leaves out the judge's corrections (the game as played)."""
        version = at
        if turn is not None:
            version = self.turn_versions(game_id, turn)[-1]
        if version is not None:
            current = self.log.current_version(game_id)
            if not 1 <= version <= current:
                raise UnknownVersion(version, current)
        if played:
            return state_as_played(self.log.records(game_id), version)
        if version is None:
            return cast(State, self.log.game(game_id).state)
        return self.state(game_id, version)

    def turn(self, game_id: UUID, turn: int) -> TurnReplay:
        """Turn ``turn`` of the game (setup is turn 0; ``game/turn_not_found`` if unplayed)."""
        versions = self.turn_versions(game_id, turn)
        return TurnReplay(
            versions=versions,
            records=self._records_of(game_id, versions),
            before=self.state(game_id, versions[0] - 1),
            after=self.state(game_id, versions[-1]),
        )

    def event(self, game_id: UUID, version: int) -> EventReplay:
        """Event ``version`` with what led to it and what it caused."""
        index = self.index(game_id)
        record = self.record_at(game_id, version)
        before, after = self.around(game_id, record)
        return EventReplay(
            turn=index.turn_of(version),
            record=record,
            before=before,
            after=after,
            causes=[self.record_at(game_id, v) for v in index.causes(version)],
            effects=self._records_of(game_id, index.effects(version)),
            corrected_by=list(index.corrected_by.get(version, [])),
            undone_by=list(index.undone_by.get(version, [])),
        )

    def _records_of(self, game_id: UUID, versions: list[int]) -> list[Record]:
        """The records of ``versions`` (ascending), read as one range."""
        if not versions:
            return []
        wanted = set(versions)
        between = self.records_between(game_id, versions[0], versions[-1])
        return [r for r in between if r["version"] in wanted]
