"""A process's game cache: eventsourcing's LRU cache of aggregates, bounded by estimated bytes
as well as by count (:class:`SizedCache`), and its settings."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from contextlib import suppress
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.application import LRUCache

from adapters.folding import SNAPSHOT_INTERVAL
from domain.game import Game

#: Default bounds of a process's game cache (:class:`SizedCache`): games
#: (``MUNCHLOG_GAME_CACHE_GAMES``) and estimated MB (``MUNCHLOG_GAME_CACHE_MB``). A cached game
#: holds one state, whatever its length: the long game's (802 cards) about 1.8 MB at 25,000
#: events as at 200; a game larger than the whole budget is not cached.
GAME_CACHE_GAMES = 2000
GAME_CACHE_MB = 256
#: Bytes of Python objects per byte of a game state's JSON, rounded up (measured with
#: ``tracemalloc``: the long game's state, 802 cards, 1.81 MB for 386 KB of JSON, 4.7; with
#: 60-card decks 5.2).
STATE_BYTES_PER_JSON_BYTE = 6
#: A cached game's size is estimated again when its version has crossed a multiple of this
#: since the last estimate (a game state grows slowly: its cards are dealt at the start).
RESIZE_EVERY = 4 * SNAPSHOT_INTERVAL
#: What a cached aggregate other than a game (its access, summary, an idempotency record) is
#: taken to cost.
SMALL_AGGREGATE_BYTES = 2048


def whole_setting(name: str, default: int, env: Mapping[str, str]) -> int:
    """Setting ``name`` (from ``env``, else the process environment): a whole number >= 0,
    ``default`` when unset; ``ValueError`` naming the variable otherwise."""
    value = str(env.get(name) or os.environ.get(name) or "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return int(value)


class SizedCache(LRUCache[UUID, Any]):
    """eventsourcing's LRU cache of aggregates, bounded by estimated bytes as well as by count:
    putting an aggregate evicts the least recently used ones until the cached ones' estimated
    bytes are within ``max_bytes`` (the one just put stays, unless it alone is larger, in which
    case it is not kept). A game's size is estimated from its state's JSON
    (:data:`STATE_BYTES_PER_JSON_BYTE`), measured again when its version has crossed a multiple
    of :data:`RESIZE_EVERY` since (about 1 ms for the long game, once per 400 events);
    other aggregates count :data:`SMALL_AGGREGATE_BYTES`."""

    def __init__(self, maxsize: int, max_bytes: int) -> None:
        super().__init__(maxsize)
        self.max_bytes = max_bytes
        self.bytes = 0
        #: key -> (estimated bytes, the game's version // RESIZE_EVERY when estimated; -1 for
        #: another aggregate)
        self.sizes: dict[UUID, tuple[int, int]] = {}
        self._sizes_lock = threading.Lock()

    def size_of(self, value: Any, known: tuple[int, int] | None) -> tuple[int, int]:
        """``value``'s estimate: ``known`` itself (its estimate when last put) while it is a
        game whose version is in the same :data:`RESIZE_EVERY` bucket, else measured."""
        if not isinstance(value, Game):
            return SMALL_AGGREGATE_BYTES, -1
        bucket = value.version // RESIZE_EVERY
        if known is not None and known[1] == bucket:
            return known
        try:
            return STATE_BYTES_PER_JSON_BYTE * len(orjson.dumps(value.state)), bucket
        except TypeError:  # not plain JSON: a rough figure
            return STATE_BYTES_PER_JSON_BYTE * len(repr(value.state)), bucket

    def evict(self, key: UUID) -> None:
        """Drop ``key`` (``KeyError`` when it is not cached) and its estimate. (``get(key,
        evict=True)`` is eventsourcing's, left as it is so that a read costs no more; it would
        leave the estimate counted, which only makes the cache evict sooner.)"""
        try:
            super().get(key, evict=True)
        finally:
            self._forget(key)

    def put(self, key: UUID, value: Any) -> Any:
        if value is None:
            return None, None
        known = self.sizes.get(key)
        size = self.size_of(value, known)
        if size is known:
            # The everyday case (a game recorded through this process, put back after each
            # save): cached already, its estimate still current, so no total moves -- unless
            # another thread evicted it meanwhile, which the accounting below then sees.
            result: Any = super().put(key, value)
            if result[0] is None and key in self.sizes:
                return result
            return self._account(key, size, result)
        if size[0] > self.max_bytes:
            with suppress(KeyError):
                self.evict(key)  # not an older copy either
            return None, None
        return self._account(key, size, super().put(key, value))

    def _account(self, key: UUID, size: tuple[int, int], result: Any) -> Any:
        """Count ``key``'s ``size`` (just put) and forget what the put evicted (``result``),
        then evict the least recently used games until the total is within the budget."""
        evicted_key = result[0] if result else None
        with self._sizes_lock:
            if evicted_key is not None:
                self.bytes -= self.sizes.pop(evicted_key, (0, 0))[0]
            self.bytes += size[0] - self.sizes.get(key, (0, 0))[0]
            self.sizes[key] = size
            over = self.bytes > self.max_bytes
        while over:
            with self.lock:
                oldest = self.root[self.NEXT]
                victim = oldest[self.KEY] if oldest is not self.root else None
            if victim is None or victim == key:
                break
            with suppress(KeyError):
                self.evict(victim)
            with self._sizes_lock:
                over = self.bytes > self.max_bytes
        return result

    def _forget(self, key: UUID) -> None:
        with self._sizes_lock:
            self.bytes -= self.sizes.pop(key, (0, 0))[0]


def drop(cache: Any, key: UUID) -> None:
    """Drop ``key``'s aggregate from ``cache`` (eventsourcing's, or ``None``: no cache), if it
    is there."""
    if cache is not None:
        with suppress(KeyError):
            if isinstance(cache, SizedCache):
                cache.evict(key)
            else:
                cache.get(key, evict=True)


def drop_changed(cache: Any, aggregates: Mapping[UUID, Any]) -> None:
    """After a failed save of ``aggregates`` (by id), drop from ``cache`` every one that is
    itself the cached copy, changed by the write that failed: the cache then holds only what is
    stored (issue #35). The writers change detached copies (``EventStore.load``); this guards
    against one that would not, at the cost of one lookup per aggregate of a failed save."""
    if cache is None:
        return
    for key, aggregate in aggregates.items():
        try:
            cached = cache.get(key)
        except KeyError:
            continue
        if cached is aggregate:
            drop(cache, key)
