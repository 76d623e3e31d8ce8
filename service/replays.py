"""Replaying a game for judges: states at any version or turn, and the replay index.

Per game, a :class:`projections.replay.ReplayIndex` (turns, causes, the public timeline)
extended with the records written since the last request, and a small LRU of judge states by
version (events never change, so neither do they). ``GameLog.game(id, version=v)`` rebuilds from
the nearest snapshot (at most 100 events to fold); the cache saves even that for states asked for
again (a scrubbing viewer). One :class:`Replays` per :class:`~service.games.GameLog`.

**Bounded memory** (issue #28): both caches are LRUs bounded by a count *and* by estimated
bytes (:class:`BoundedLRU`; :func:`estimated_bytes`): the indexes by
``MUNCHLOG_REPLAY_INDEX_MB`` (default :data:`INDEX_MB`) and :data:`INDEX_GAMES` games, the
states by ``MUNCHLOG_REPLAY_STATES_MB`` (default :data:`STATES_MB`) and :data:`STATES` states.
An index costs about :data:`INDEX_BYTES_PER_EVENT` bytes an event plus one state (the long
game of 25,837 events: 4.8 MB measured); a state of the long game's 802 cards about 1.8 MB.

**A turn without the whole game** (:meth:`Replays.turn`): the index is built by folding every
event (seconds for a game of 20,000 actions), so a turn is found without it unless it is already
cached: the turns of a game without disputes follow its versions (a turn only ends for a later
one; only a judge's backup, which needs a dispute, goes back to an earlier turn), so a few of
the game's snapshots, searched by their turn, give the latest one before the turn starts, and
the turn's events are folded from there: at most about two snapshot intervals and the turn's
own events (:data:`TURN_PROBES` snapshots read at most).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast
from uuid import UUID

import orjson

from adapters.eventstore import SNAPSHOT_INTERVAL, STATE_BYTES_PER_JSON_BYTE
from domain import initial_state
from domain.envelope import Record
from domain.errors import NotFound, UnknownVersion
from domain.fold import apply_record
from projections.replay import ReplayIndex, state_as_played
from service.reading import GameReads

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
#: Default budgets (MB, estimated) of the replay indexes and of the judge states kept by one
#: process (``MUNCHLOG_REPLAY_INDEX_MB``, ``MUNCHLOG_REPLAY_STATES_MB``).
INDEX_MB = 64
STATES_MB = 64
#: Bytes an event costs a :class:`ReplayIndex` besides its state (measured on the long game:
#: 116 for its timeline entry, cause, turn and chart; 418 before the index was made compact).
INDEX_BYTES_PER_EVENT = 150
#: At most this many snapshots are read to find where a turn starts (:meth:`Replays.turn`).
TURN_PROBES = 12
#: Records read at once while folding a turn, and while building an index (all of a long
#: game's records at once, freed while the index's entries live on, left the process 58 MB
#: larger for an index of 5: its memory fragmented).
TURN_PAGE = 200
INDEX_PAGE = 1000

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def budget_mb(name: str, default: int, env: Mapping[str, str] | None = None) -> int:
    """The byte budget set by environment variable ``name`` in MB (a whole number >= 0), or
    ``default`` MB; ``ValueError`` naming the variable for anything else."""
    value = (os.environ if env is None else env).get(name, "").strip()
    if not value:
        return default * 1024 * 1024
    if not value.isdigit():
        raise ValueError(f"{name} must be a whole number of MB, not {value!r}")
    return int(value) * 1024 * 1024


def estimated_bytes(state: Mapping[str, Any]) -> int:
    """What a judge's state costs in memory, estimated from its JSON (about 1 ms for the long
    game's state): :data:`STATE_BYTES_PER_JSON_BYTE` times its length."""
    try:
        return STATE_BYTES_PER_JSON_BYTE * len(orjson.dumps(state))
    except TypeError:  # not plain JSON (a test's state): a rough figure
        return STATE_BYTES_PER_JSON_BYTE * len(repr(state))


class BoundedLRU(Generic[K, V]):
    """A least-recently-used map bounded by a count and by (estimated) bytes: putting an item
    evicts the oldest ones until both hold; an item larger than the whole budget is not kept.
    Thread-safe; ``size_of`` is called outside the lock."""

    def __init__(self, max_items: int, max_bytes: int, size_of: Callable[[V], int]) -> None:
        self.max_items = max_items
        self.max_bytes = max_bytes
        self.size_of = size_of
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V, size: int | None = None) -> None:
        """Keep ``value`` under ``key`` (its size is measured again: an index grows)."""
        size = self.size_of(value) if size is None else size
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            if size > self.max_bytes or self.max_items <= 0:
                return
            self._items[key] = (value, size)
            self.bytes += size
            while len(self._items) > self.max_items or self.bytes > self.max_bytes:
                _, (_, dropped) = self._items.popitem(last=False)
                self.bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0


class Replays:
    """Per-process caches of the judge's look-ups (see the module docstring)."""

    def __init__(self, log: GameReads, env: Mapping[str, str] | None = None) -> None:
        self.log = log
        self._lock = threading.Lock()
        #: per game being indexed: its lock and how many requests hold or wait for it
        self._index_locks: dict[UUID, list[Any]] = {}
        self._indexes: BoundedLRU[UUID, ReplayIndex] = BoundedLRU(
            INDEX_GAMES, budget_mb("MUNCHLOG_REPLAY_INDEX_MB", INDEX_MB, env), _index_bytes
        )
        self._states: BoundedLRU[tuple[UUID, int], State] = BoundedLRU(
            STATES, budget_mb("MUNCHLOG_REPLAY_STATES_MB", STATES_MB, env), estimated_bytes
        )
        #: per game, the turn at the snapshots read so far (:meth:`turn`): a few ints a game
        self._probes: BoundedLRU[UUID, dict[int, int]] = BoundedLRU(
            4 * STATES, 4 * 1024 * 1024, lambda probes: 64 + 64 * len(probes)
        )

    def index(self, game_id: UUID) -> ReplayIndex:
        """The game's index, brought up to its current version."""
        current = self.log.current_version(game_id)  # GameNotFoundError for an unknown game
        self.log.store.ensure_sound(game_id)  # DamagedRecords (once per process for a sound game)
        with self._lock:
            entry = self._index_locks.setdefault(game_id, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                index = self._indexes.get(game_id) or ReplayIndex()
                while index.version < current:  # in pages: the records are garbage at once
                    page = self.log.records(game_id, after=index.version, limit=INDEX_PAGE)
                    if not page:
                        break
                    index.extend(page)
                self._indexes.put(game_id, index)
        finally:
            with self._lock:
                entry[1] -= 1
                if not entry[1]:
                    del self._index_locks[game_id]
        return index

    def cached_index(self, game_id: UUID) -> ReplayIndex | None:
        """The game's index if this process keeps it (brought up to date), else None: nothing
        is folded for a game whose index is not cached."""
        if self._indexes.get(game_id) is None:
            return None
        return self.index(game_id)

    def state(self, game_id: UUID, version: int) -> State:
        """The judge's state after event ``version`` (version 0: before the game)."""
        if version == 0:
            return initial_state()
        self.log.store.ensure_sound(game_id)
        cached = self._states.get((game_id, version))
        if cached is not None:
            return cached
        state = cast(State, self.log.game(game_id, version=version).state)
        self.remember(game_id, version, state)
        return state

    def forget_states(self) -> None:
        """Drop the cached states (benchmarks measure the uncached path with it)."""
        self._states.clear()

    def remember(self, game_id: UUID, version: int, state: State) -> None:
        self._states.put((game_id, version), state)

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
        after = apply_record(before, record)
        self.remember(game_id, version, after)
        return before, after

    def turn_versions(self, game_id: UUID, turn: int) -> list[int]:
        """The versions recorded during ``turn`` (``game/turn_not_found`` if none)."""
        index = self.cached_index(game_id)
        if index is None:
            return self.turn(game_id, turn).versions
        versions = index.turns.get(turn)
        if not versions:
            raise _not_played(turn)
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
        """Turn ``turn`` of the game (setup is turn 0; ``game/turn_not_found`` if unplayed):
        from the cached index if there is one, else folded from the latest snapshot before the
        turn (see the module docstring), else (a game with disputes, whose turns a backup may
        have taken back) from the index, built."""
        index = self.cached_index(game_id)
        if index is None:
            self.log.current_version(game_id)  # GameNotFoundError
            self.log.store.ensure_sound(game_id)
            game = self.log.game(game_id)
            now = cast(State, game.state)
            if now.get("disputes"):
                index = self.index(game_id)
            else:
                return self._fold_turn(game_id, turn, game.version, int(now.get("turn") or 0))
        versions = list(index.turns.get(turn) or ())
        if not versions:
            raise _not_played(turn)
        records = self._records_of(game_id, versions)
        before = self.state(game_id, versions[0] - 1)
        if versions[-1] - versions[0] + 1 != len(versions):  # played again after a backup
            return TurnReplay(versions, records, before, self.state(game_id, versions[-1]))
        after = before
        for record in records:  # the turn's own events, rather than another rebuild
            after = apply_record(after, record)
        self.remember(game_id, versions[-1], after)
        return TurnReplay(versions, records, before, after)

    def _fold_turn(self, game_id: UUID, turn: int, current: int, last_turn: int) -> TurnReplay:
        """Turn ``turn`` of a game whose turns follow its versions (``last_turn`` is its turn
        at version ``current``): its events folded from the latest state before it starts."""
        if not 0 <= turn <= last_turn:
            raise _not_played(turn)
        start, state, head = self._start_of(game_id, turn, current, last_turn)
        if head is not None:  # a snapshot's state: the next event must follow its head
            first = self.log.records(game_id, after=start, limit=1)
            if first and first[0]["prev_hash"] != head:
                state = self.state(game_id, start)  # folded and checked as any past state
        versions: list[int] = []
        records: list[Record] = []
        before = after = state
        after_version = start
        while after_version < current:
            page = self.log.records(game_id, after=after_version, limit=TURN_PAGE)
            if not page:
                break
            for record in page:
                previous, state = state, apply_record(state, record)
                after_version = int(record["version"])
                at = int(state.get("turn") or 0)
                if at > turn:
                    break
                if at == turn:
                    if not versions:
                        before = previous
                    versions.append(after_version)
                    records.append(record)
                    after = state
            else:
                continue
            break
        if not versions:
            raise _not_played(turn)
        self.remember(game_id, versions[-1], after)
        return TurnReplay(versions=versions, records=records, before=before, after=after)

    def _start_of(
        self, game_id: UUID, turn: int, current: int, last_turn: int
    ) -> tuple[int, State, str | None]:
        """``(version, state, head)``: a point before ``turn`` starts (its state's turn is lower),
        at most about two snapshot intervals before it when the game's snapshots allow: the
        latest snapshot found so, searched by interpolation and bisection among the game's
        snapshots (:data:`TURN_PROBES` read at most; the turns found are remembered). ``head``
        is the hash a snapshot read here ends with (``None`` for a state read otherwise)."""
        lo_v, lo_t = 0, 0
        hi_v, hi_t = current, last_turn
        lo_state: tuple[State, str] | None = None
        if turn == 0:
            return 0, initial_state(), None
        probes = self._probes.get(game_id) or {}
        for v, t in probes.items():
            if t < turn and v > lo_v:
                lo_v, lo_t = v, t
            elif t >= turn and v < hi_v:
                hi_v, hi_t = v, t
        found = dict(probes)
        for attempt in range(TURN_PROBES):
            if hi_v - lo_v <= 2 * SNAPSHOT_INTERVAL:
                break
            if attempt % 2 == 0 and hi_t > lo_t:  # where the turn would start, if evenly spread
                guess = lo_v + (hi_v - lo_v) * (turn - lo_t) // (hi_t - lo_t + 1)
            else:
                guess = (lo_v + hi_v) // 2
            guess = max(lo_v + SNAPSHOT_INTERVAL, min(hi_v - 1, guess))
            snapshot = self.log.snapshot_at(game_id, guess)
            if snapshot is None or snapshot[0] <= lo_v:
                break  # no snapshot between: fold from lo
            v, state, head = snapshot
            t = found[v] = int(state.get("turn") or 0)
            if t < turn:
                lo_v, lo_t, lo_state = v, t, (state, head)
            else:
                hi_v, hi_t = v, t
        if found != probes:
            self._probes.put(game_id, found)
        if lo_v == 0:
            return 0, initial_state(), None
        if lo_state is not None:
            return lo_v, lo_state[0], lo_state[1]
        return lo_v, self.state(game_id, lo_v), None

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

    def stats(self) -> dict[str, int]:
        """What the caches hold: counts and estimated bytes."""
        return {
            "indexes": len(self._indexes),
            "index_bytes": self._indexes.bytes,
            "states": len(self._states),
            "state_bytes": self._states.bytes,
        }

    def _records_of(self, game_id: UUID, versions: list[int]) -> list[Record]:
        """The records of ``versions`` (ascending), read as one range."""
        if not versions:
            return []
        wanted = set(versions)
        between = self.records_between(game_id, versions[0], versions[-1])
        return [r for r in between if r["version"] in wanted]


def _not_played(turn: int) -> NotFound:
    return NotFound("game/turn_not_found", f"turn {turn} has not been played")


def _index_bytes(index: ReplayIndex) -> int:
    """What a replay index costs in memory, estimated: its events and its state."""
    return INDEX_BYTES_PER_EVENT * index.version + estimated_bytes(index.state)
