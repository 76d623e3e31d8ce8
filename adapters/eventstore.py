"""The event store under the service: eventsourcing's ``Application`` with munchlog's overrides.

Storage is configuration (eventsourcing's ``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``,
``POSTGRES_*``), passed as ``env``. What this adds to eventsourcing, and why:

* **SQLite writers queue** on a lock (:mod:`adapters.sqlite_writer`) instead of sleeping in
  SQLite's busy handler, and batches queued by one process's threads share a transaction
  (``GroupCommit``; on PostgreSQL :mod:`adapters.pg_writer`'s ``PostgresGroupCommit``, under
  eventsourcing's table lock); events are encoded *before* the lock is taken.
* ``save`` skips eventsourcing's per-object Protocol ``isinstance`` checks (slow on 3.11) and
  takes a due snapshot from the aggregate at hand (eventsourcing's default reads it back).
* Games are cached per process and fast-forwarded from the store on read; the recording path
  decides on a detached copy of the cached game and puts the saved copy back (:meth:`cached`,
  :meth:`keep`). A copy more than :data:`FAST_FORWARD_LIMIT` events behind is folded again from
  the latest snapshot instead, and the recording path trusts a copy only if this process saved
  or read the game in the last :data:`TRUST_CACHE_FOR` seconds.
* :meth:`read_records` reads a game's stored envelopes with one ``json.loads`` each.
* **A damaged row is data, not a crash** (docs/DESIGN.md "Damaged storage"): every reader of a
  game's rows decodes them one at a time and names a row that does not decode, a missing
  version or a broken link (:class:`~domain.envelope.DamagedRecords`); a process folds only
  events whose hash chain it has verified (:meth:`load_game`, :meth:`ensure_sound`); a
  snapshot that does not decode or does not continue into its events is skipped with a warning
  and the game is folded from its events.

The service (:mod:`service.games`) subclasses :class:`EventStore`; nothing above it imports
eventsourcing's persistence.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, suppress
from datetime import UTC, datetime
from typing import Any, cast
from uuid import UUID

import orjson
from eventsourcing.application import (
    AggregateNotFoundError,
    Application,
    LRUCache,
    ProcessingEvent,
)
from eventsourcing.persistence import (
    DatetimeAsISO,
    JSONTranscoder,
    Mapper,
    Notification,
    RecordConflictError,
    Recording,
    StoredEvent,
    Subscription,
)
from eventsourcing.persistence import (
    EventStore as EventsourcingStore,
)
from eventsourcing.utils import get_topic

from adapters.follow import POLL_INTERVAL, subscribe
from adapters.pg_writer import PostgresGroupCommit, ddl_lock
from adapters.sqlite_writer import GroupCommit, writer_lock_for, writing
from adapters.storage import (
    StorageUnavailable,
    WriteHealth,
    probe_sqlite_writes,
    renew_sqlite_connections,
    storage_refusal,
)
from domain.envelope import (
    STORED_FIELDS,
    UNREADABLE,
    DamagedRecords,
    Problem,
    Record,
    chain_hash,
    record_from,
    unreadable,
    verify_records,
)
from domain.fold import FOLD_VERSION
from domain.game import Game, GameAccess, stored_record

__all__ = [
    "AggregateNotFoundError",
    "DamagedRecords",
    "EventStore",
    "RecordConflictError",
    "StorageUnavailable",
]

log = logging.getLogger(__name__)

#: A game is snapshotted whenever a save takes its version past a multiple of this.
SNAPSHOT_INTERVAL = 100
#: A cached game more than this many events behind the store is folded again from its latest
#: snapshot rather than fast-forwarded one event at a time (:meth:`EventStore._fast_forward`).
FAST_FORWARD_LIMIT = SNAPSHOT_INTERVAL
#: Topics of a game's stored events (``Game.Opened`` first, then ``Game.Recorded``).
GAME_TOPICS = (get_topic(Game.Opened), get_topic(Game.Recorded))
#: Topic of a game's snapshots (the aggregate's class).
GAME_TOPIC = get_topic(Game)
#: Seconds the readiness probe waits for the database (:meth:`EventStore.log_head`).
PROBE_TIMEOUT = 2.0
#: Games whose stored hash chain this process has verified (:meth:`EventStore.ensure_sound`).
SOUND_GAMES = 20_000
#: Seconds a game this process has just saved or read from the store is trusted to be current
#: (:meth:`EventStore.cached`): a copy untouched for longer is probably behind another worker's
#: writes (its table's connection moved), so the recording path reads the store first instead of
#: deciding on it and conflicting at the insert.
TRUST_CACHE_FOR = 0.5
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
#: What a cached aggregate other than a game (its access, summary, an idempotency record) is
#: taken to cost.
SMALL_AGGREGATE_BYTES = 2048


def isoformat_utc(moment: datetime) -> str:
    """``moment.isoformat()`` for a datetime in UTC, written by orjson (about twice as fast; a
    property test holds the two equal)."""
    return orjson.dumps(moment).decode()[1:-1]


class RecordMapper(Mapper[UUID]):
    """eventsourcing's mapper, writing a game's stored events (``Game.Opened``,
    ``Game.Recorded``) and its snapshots (``Game.Snapshot``) with orjson: the state
    eventsourcing's ``JSONTranscoder`` would write (the same keys in the same order, its
    ``{"_type_", "_data_"}`` form for datetimes), several times faster (a snapshot of a
    300-event game: 615 µs with ``json``, 63 with orjson), and read back by the same transcoder.

    Only these: their fields are plain JSON (the envelope hashes an event's; a snapshot holds the
    fold's state, which the property tests round-trip through JSON) plus datetimes. Any other
    event is the parent's: orjson would write a UUID as text, where the transcoder keeps its
    type. Anything orjson will not write (an integer past 64 bits, say) goes the parent's way
    too. Used only without a cipher or a compressor."""

    FAST = frozenset({Game.Opened, Game.Recorded, Game.Snapshot})
    #: orjson hands datetimes to the transcoder's own transcoding (as :mod:`json` does).
    OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME

    @functools.cached_property
    def _iso_datetimes(self) -> bool:
        """Whether the transcoder writes datetimes as eventsourcing's ``DatetimeAsISO`` does
        (then a UTC ``timestamp`` is written here the same way, by :func:`isoformat_utc`)."""
        transcoder = cast(JSONTranscoder, self.transcoder)
        return type(transcoder.types.get(datetime)) is DatetimeAsISO

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        cls = type(domain_event)
        if cls not in self.FAST or self.cipher or self.compressor:
            return super().to_stored_event(domain_event)
        state = dict(vars(domain_event))
        originator_id = state.pop("originator_id")
        originator_version = state.pop("originator_version")
        class_version = getattr(cls, "class_version", 1)
        if class_version > 1:
            state["class_version"] = class_version
        stamp = state.get("timestamp")
        if type(stamp) is datetime and stamp.tzinfo is UTC and self._iso_datetimes:
            state["timestamp"] = {"_type_": DatetimeAsISO.name, "_data_": isoformat_utc(stamp)}
        transcoder = cast(JSONTranscoder, self.transcoder)
        try:
            data = orjson.dumps(state, default=transcoder._encode_obj, option=self.OPTIONS)
        except TypeError:  # orjson.JSONEncodeError: the parent writes it (or says why not)
            return super().to_stored_event(domain_event)
        return StoredEvent(
            originator_id=originator_id,
            originator_version=originator_version,
            topic=get_topic(cls),
            state=data,
        )


class CountedEvents:
    """The events of stored rows, decoded one at a time as they are iterated (as eventsourcing's
    ``map``), which also says how many there are (``len``) before any is decoded."""

    __slots__ = ("_events", "_rows")

    def __init__(self, decode: Any, rows: Sequence[Any]) -> None:
        self._rows = rows
        self._events = map(decode, rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> CountedEvents:
        return self

    def __next__(self) -> Any:
        return next(self._events)


class CountingEventStore(EventsourcingStore[UUID]):
    """eventsourcing's event store whose ``get`` returns :class:`CountedEvents`: the
    fast-forward (:func:`_forward`) sees how far behind a cached game is before it decodes
    anything."""

    def get(
        self,
        originator_id: UUID,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Any:
        rows = self.recorder.select_events(
            originator_id=originator_id, gt=gt, lte=lte, desc=desc, limit=limit
        )
        return CountedEvents(self.mapper.to_domain_event, rows)


class EventStore(Application):
    """eventsourcing's Application, tuned for munchlog (see the module docstring)."""

    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = dict(env) if env is not None else {}
        # Keep recent games in memory and fast-forward them from the store on each read, so a
        # request folds only the events written since (by this or another process).
        games = _whole("MUNCHLOG_GAME_CACHE_GAMES", GAME_CACHE_GAMES, env)
        max_bytes = _whole("MUNCHLOG_GAME_CACHE_MB", GAME_CACHE_MB, env) * 1024 * 1024
        env.setdefault("AGGREGATE_CACHE_MAXSIZE", str(games) if games else "")  # "": none
        env.setdefault("AGGREGATE_CACHE_FASTFORWARD", "y")
        # eventsourcing creates its tables here: one creator at a time on PostgreSQL.
        with ddl_lock({**os.environ, **env}):
            super().__init__(env)
        if type(self.repository.cache) is LRUCache:  # bounded by bytes too (SizedCache)
            self.repository.cache = SizedCache(self.repository.cache.maxsize, max_bytes)
        self._writer_lock = writer_lock_for(
            {k: self.env.get(k) or "" for k in ("PERSISTENCE_MODULE", "SQLITE_DBNAME")}
        )
        self._group_commit: GroupCommit | None = None
        if self._writer_lock is not None:
            self._group_commit = GroupCommit(self._writer_lock, self.recorder)
        elif self.env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
            self._group_commit = PostgresGroupCommit(self.recorder)
        self._sound: OrderedDict[UUID, None] = OrderedDict()
        self._damaged: OrderedDict[UUID, None] = OrderedDict()  # warned about (logging only)
        self._sound_lock = threading.Lock()
        self._bad_snapshots: set[tuple[UUID, int]] = set()
        #: game id -> when this process last saved it or read it from the store (monotonic)
        self._seen_at: dict[UUID, float] = {}
        #: whether this process's last write was refused by storage (:meth:`ensure_writable`)
        self.write_health = WriteHealth()

    def construct_mapper(self) -> Mapper[UUID]:
        """eventsourcing's mapper, or :class:`RecordMapper` where it writes the same: the JSON
        transcoder, no cipher, no compressor."""
        mapper = super().construct_mapper()
        if (
            type(mapper) is Mapper
            and type(mapper.transcoder) is JSONTranscoder
            and not mapper.cipher
            and not mapper.compressor
        ):
            return RecordMapper(mapper.transcoder)
        return mapper

    def construct_event_store(self) -> EventsourcingStore[UUID]:
        """eventsourcing's event store, counting what it reads (:class:`CountingEventStore`)
        when it is eventsourcing's own."""
        store = super().construct_event_store()
        if type(store) is EventsourcingStore:
            return CountingEventStore(mapper=store.mapper, recorder=store.recorder)
        return store

    def close(self) -> None:
        if self._group_commit is not None:
            self._group_commit.close()
        super().close()

    def writing(self) -> AbstractContextManager[None]:
        """Hold this while writing to the store: SQLite writers queue on a lock file instead of
        sleeping in SQLite's busy handler (:mod:`adapters.sqlite_writer`); nothing for
        PostgreSQL."""
        return writing(self._writer_lock)

    # ------------------------------------------------------------------ writing

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """eventsourcing's ``save`` for our aggregates, without its per-object Protocol
        ``isinstance`` checks (slow on Python 3.11): collect each aggregate's pending events and
        record them all in one transaction, then take any snapshot that is due.

        eventsourcing's ``Recording`` objects (each with a ``Notification``) are made, returned
        and passed to ``_notify`` only for a subclass that overrides ``_notify``, eventsourcing's
        hook for acting on saved events; none here does (the projections follow the store), so
        the recording path does not make them: the list is then empty."""
        # (not ``ProcessingEvent[UUID]()``: calling a subscripted generic goes through typing's
        # alias machinery on every save)
        processing: ProcessingEvent[UUID] = ProcessingEvent()
        for obj in objs:
            processing.events.extend(obj.collect_events())
            processing.aggregates[obj.id] = obj
        processing.saved_kwargs.update(kwargs)
        try:
            stored, ids = self._put(processing)
        except Exception as exc:
            refused = self.refusal(exc)
            if refused is None:
                raise
            raise refused from exc
        if self.write_health.succeeded():
            self._renew_connections()  # some may have been opened while storage refused
        self._take_snapshots(processing)
        if type(self)._notify is Application._notify:
            return []
        recordings = _recordings(processing.events, stored, ids)
        self._notify(recordings)
        return recordings

    def _put(
        self, processing_event: ProcessingEvent[UUID]
    ) -> tuple[list[StoredEvent], Sequence[int] | None]:
        """eventsourcing's ``EventStore.put``, with the events encoded *before* the writer lock
        is taken: only the insert and its commit are serialised (:meth:`writing`). Returns the
        stored events and their notification ids."""
        stored = [self.mapper.to_stored_event(e) for e in processing_event.events]
        return stored, self._insert(self.recorder, stored, processing_event)

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Snapshot a game from the aggregate at hand whenever a save takes its version past a
        multiple of :data:`SNAPSHOT_INTERVAL`; the snapshot is at the save's last version."""
        if self.snapshots is None:
            return
        for aggregate in processing_event.aggregates.values():
            if not isinstance(aggregate, Game):
                continue
            # The save took the game from ``first`` to its version with at most every event of
            # the save: with fewer events than the version is past a multiple, none was crossed.
            if aggregate.version % SNAPSHOT_INTERVAL >= len(processing_event.events):
                continue
            first = aggregate.version - sum(
                1 for e in processing_event.events if e.originator_id == aggregate.id
            )
            if aggregate.version // SNAPSHOT_INTERVAL > first // SNAPSHOT_INTERVAL:
                stored = self.snapshots.mapper.to_stored_event(Game.Snapshot.take(aggregate))
                try:
                    self._insert(self.snapshots.recorder, [stored], None)
                except Exception as exc:
                    # The events are committed: the batch stands, and the game is folded
                    # from an older snapshot until the next one is taken.
                    if self.refusal(exc) is None:
                        raise
                    log.warning("game %s: its snapshot was not stored: %s", aggregate.id, exc)

    def refusal(self, exc: BaseException) -> StorageUnavailable | None:
        """:class:`StorageUnavailable` when ``exc`` is storage refusing (a full disk, a
        read-only file, a database gone: :func:`~adapters.storage.storage_refusal`; a refused
        write wrote nothing, its transaction rolled back), else ``None``. This process
        remembers the refusal (:meth:`ensure_writable`) and opens new SQLite connections for
        what follows (one opened while the file was read-only never writes)."""
        reason = storage_refusal(exc)
        if reason is None:
            return None
        log.warning("storage refused: %s", reason)
        self.write_health.failed(reason)
        self._renew_connections()
        return StorageUnavailable(f"storage refused the write: {reason}; nothing was recorded")

    def _renew_connections(self) -> None:
        """On SQLite, the pool's connections are replaced by new ones as they come free."""
        if self._writer_lock is not None:
            recorder: Any = self.recorder
            renew_sqlite_connections(recorder.datastore.pool)

    def ensure_writable(self, timeout: float = PROBE_TIMEOUT) -> None:
        """Nothing when this process's last write was not refused by storage; otherwise a write
        probe (SQLite: one page written on a new connection, changing nothing; PostgreSQL: the
        server answers on a new pooled connection and is not read-only): if it succeeds the
        refusal is forgotten, else :class:`StorageUnavailable`. The readiness probe's "can
        this instance record"."""
        refused = self.write_health.refused
        if refused is None:
            return
        try:
            if self._writer_lock is not None:
                with self.writing():
                    probe_sqlite_writes(str(self.env.get("SQLITE_DBNAME")), timeout)
            elif self.env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
                self._probe_postgres(timeout)
        except Exception as exc:
            reason = storage_refusal(exc) or type(exc).__name__
            log.debug("the write probe failed", exc_info=True)
            raise StorageUnavailable(f"storage refuses writes: {reason}") from exc
        if self.write_health.succeeded():
            self._renew_connections()

    def _probe_postgres(self, timeout: float) -> None:
        """The PostgreSQL server answers within ``timeout`` and takes writes (it is not a
        read-only standby or in a read-only transaction mode)."""
        recorder: Any = self.recorder
        pool = recorder.datastore.pool
        pool.open(wait=False)
        with pool.connection(timeout=timeout) as conn, conn.transaction():
            conn.execute(f"SET LOCAL statement_timeout = {max(1, int(timeout * 1000))}")
            row = conn.execute("SHOW transaction_read_only").fetchone()
        value = row["transaction_read_only"] if isinstance(row, Mapping) else row[0]
        if value != "off":
            raise StorageUnavailable("the database server is read-only")

    def _insert(
        self, recorder: Any, stored: list[Any], processing: ProcessingEvent[UUID] | None
    ) -> Sequence[int] | None:
        """``recorder.insert_events(stored)`` under the writer lock; a game batch on SQLite goes
        through :class:`~adapters.sqlite_writer.GroupCommit` (one transaction for the batches
        queued)."""
        kwargs: dict[str, Any] = {}
        if processing is not None:
            kwargs = {"tracking": processing.tracking, **processing.saved_kwargs}
        grouped = (
            recorder is self.recorder
            and self._group_commit is not None
            and kwargs.get("tracking") is None
            and len(kwargs) <= 1
        )
        if grouped:
            assert self._group_commit is not None
            return self._group_commit.insert(stored)
        with self.writing():
            return recorder.insert_events(stored, **kwargs)

    # ------------------------------------------------------------------ the game cache

    def cached(self, game_id: UUID, *, within: float | None = None) -> Game | None:
        """A detached copy of this process's cached game, as of the last time this process saw
        it (None if it is not cached); it may be behind other processes' writes. With ``within``
        (seconds), only if this process saved it or read it from the store that recently
        (:data:`TRUST_CACHE_FOR`)."""
        cache = self.repository.cache
        if cache is None:
            return None
        if within is not None:
            seen = self._seen_at.get(game_id)
            if seen is None or time.monotonic() - seen > within:
                return None
        try:
            cached: Any = cache.get(game_id)
        except KeyError:
            return None
        return cached.detached() if isinstance(cached, Game) else None

    def keep(self, game: Game) -> None:
        """Put a just-saved game in the cache, so the next read of it need not fold again the
        events this process has just written (other processes' events are still fast-forwarded
        from the store).

        ``game`` itself goes in, not a copy: it is a detached copy that only this request held,
        its pending events were collected by the save, and nothing reads the cache without
        detaching first (:meth:`cached`, :meth:`load`)."""
        cache = self.repository.cache
        if cache is not None:
            try:
                cached: Any = cache.get(game.id)
            except KeyError:
                cached = None
            if cached is None or cached.version <= game.version:
                cache.put(game.id, game)
                self._seen(game.id)

    def _seen(self, game_id: UUID) -> None:
        """Remember that this process has just saved the game or read it from the store."""
        seen = self._seen_at
        if len(seen) > 4 * SOUND_GAMES:  # a bound, in the rare process that sees that many
            seen.clear()
        seen[game_id] = time.monotonic()

    # ------------------------------------------------------------------ reading

    def load(
        self,
        aggregate_id: UUID,
        version: int | None = None,
        *,
        of_game: tuple[UUID, str] | None = None,
    ) -> Any | None:
        """An aggregate other than a game (its access, summary, an idempotency record) at
        ``version``, rebuilt from its events; ``None`` when there is no such aggregate. Games
        are loaded with :meth:`load_game`. ``of_game`` is ``(game id, what record)``: if one of
        the aggregate's rows does not decode, :class:`DamagedRecords` names that game."""
        try:
            if version is None:
                found: Any = self.repository.get(
                    aggregate_id, deepcopy_from_cache=False, projector_func=_project
                )
            else:
                found = self.repository.get(aggregate_id, version=version)
        except AggregateNotFoundError:
            return None
        except Exception as exc:
            raise self._undecodable(aggregate_id, exc, of_game) from exc
        return found.detached() if version is None and isinstance(found, Game) else found

    def _undecodable(
        self, aggregate_id: UUID, failure: Exception, of_game: tuple[UUID, str] | None
    ) -> Exception:
        """:class:`DamagedRecords` for the first of the aggregate's rows that does not decode,
        or ``failure`` itself when they all do."""
        for row in self.recorder.select_events(aggregate_id):
            try:
                self.mapper.to_domain_event(row)
            except Exception as exc:
                problem: Problem = {
                    "version": int(row.originator_version),
                    "reason": "undecodable",
                    "detail": f"its stored state does not decode ({type(exc).__name__})",
                }
                game_id, record = of_game or (aggregate_id, "stored")
                log.warning("game %s: its %s record is damaged: %s", game_id, record, problem)
                return DamagedRecords(game_id, [problem], record=record)
        return failure

    def load_game(self, game_id: UUID, version: int | None = None) -> Game | None:
        """The game (at ``version``), folded only from events this process has verified;
        ``None`` when there is no such game, :class:`DamagedRecords` when its stored events are
        damaged. The current game is detached from this process's cache.

        Where the hash chain is checked, so that it costs little on the hot path:

        * a game this process has in its cache is fast-forwarded with the events other
          processes wrote since: each one's hash is recomputed and linked to the cached head
          (a few µs per event, once per process and event);
        * otherwise the whole stored chain is verified first, unless this process already did
          (:meth:`ensure_sound`: once per process and game), then the game is folded from its
          latest usable snapshot (:meth:`_snapshot_for`) and the events after it, each hash
          recomputed and linked again (for a past ``version``, linked only);
        * a game whose chain does not verify is never cached, so each request reads it again:
          a row restored from a backup is served at once, without a restart.

        So a row damaged in the store is noticed by a process when it next reads the game's rows
        or loads the game from the store (a first load, a cache miss, a restart), or answers
        ``GET /verify`` for it (:meth:`forget`); a process that folded the game before the
        damage keeps the verified copy it had (and so records nothing based on the damage).
        """
        if version is None:
            cached = self._fast_forward(game_id)
            if cached is not None:
                return cached.detached()
        if not self.ensure_sound(game_id):
            return None
        game = self._fold_game(game_id, version)
        if game is None or version is not None:
            return game
        self.keep(game)
        return game.detached()

    def _fast_forward(self, game_id: UUID) -> Game | None:
        """The cached game with the events written since folded in (``None`` if not cached).
        If anything goes wrong the cached copy is dropped: the caller then folds the game from
        the store, which names any damage.

        A copy more than :data:`FAST_FORWARD_LIMIT` events behind (another worker recorded the
        game meanwhile: a table's connection that moved between workers comes back to a copy
        hundreds of events old) is not fast-forwarded when the game has a snapshot newer than
        the copy: the copy is dropped, and the caller folds the game from that snapshot and the
        events after it (at most a snapshot interval of them, each hashed and linked), as it
        does for a game that is not cached. Without such a snapshot the copy is fast-forwarded
        event by event, however far behind."""
        cache = self.repository.cache
        if cache is None:
            return None
        try:
            cached: Any = cache.get(game_id)
        except KeyError:
            return None
        try:
            return self._forwarded(game_id, _forward)
        except _FarBehind:
            return self._refold(game_id, cached)

    def _refold(self, game_id: UUID, cached: Any) -> Game | None:
        """The game folded from its latest snapshot and the events after it, in place of
        ``cached`` (far behind); fast-forwarded event by event if no snapshot is newer than
        ``cached``. The game was cached, so this process has verified its chain."""
        snapshot = self._snapshot_for(game_id, None)
        if snapshot is None or snapshot.originator_version <= cached.version:
            return self._forwarded(game_id, _forward_all)
        try:
            game = self._fold_rows(game_id, snapshot, None)
        except Exception:  # the caller folds it again from the store, naming any damage
            game = None
        if game is None:
            self.forget(game_id)
            return None
        self.keep(game)
        return game

    def _forwarded(self, game_id: UUID, projector: Any) -> Game | None:
        """The cached game fast-forwarded by ``projector`` (:func:`_forward`, which raises
        :class:`_FarBehind`, or :func:`_forward_all`); if anything else goes wrong the cached
        copy is dropped and ``None`` returned."""
        try:
            found: Any = self.repository.get(
                game_id, deepcopy_from_cache=False, projector_func=projector
            )
        except _FarBehind:
            raise
        except Exception:
            self.forget(game_id)
            return None
        if not isinstance(found, Game):
            return None
        self._seen(game_id)
        return found

    def _fold_game(self, game_id: UUID, version: int | None) -> Game | None:
        """The game (at ``version``) from its latest usable snapshot and the events after it;
        if folding from the snapshot fails but folding the events alone does not, the snapshot
        is damaged: a warning, and it is not used again by this process."""
        snapshot = self._snapshot_for(game_id, version)
        failure: Exception | None = None
        if snapshot is not None:
            try:
                return self._fold_rows(game_id, snapshot, version)
            except Exception as exc:
                failure = exc
        try:
            game = self._fold_rows(game_id, None, version)
        except Exception as exc:
            raise self._damage(game_id, exc) from exc
        if snapshot is not None:
            self._bad_snapshots.add((game_id, snapshot.originator_version))
            log.warning(
                "game %s: the snapshot at version %s does not continue into its events (%s); "
                "folded the events instead",
                game_id,
                snapshot.originator_version,
                failure,
            )
        return game

    def _fold_rows(self, game_id: UUID, snapshot: Any | None, version: int | None) -> Game | None:
        """Fold the stored events after ``snapshot`` (or all of them) up to ``version``, each
        checked by :func:`_check_next` (for a past version, the links only: its rows were
        verified with the game's chain, and a replay should not pay for it again); the event at
        the snapshot's version must have the hash the snapshot ends with."""
        start = 0 if snapshot is None else int(snapshot.originator_version)
        rows = self.recorder.select_events(game_id, gt=start - 1 if start else None, lte=version)
        game: Any = None
        if snapshot is not None:
            head = self._record_of(rows[0]).get("hash") if rows else None
            if not rows or rows[0].originator_version != start:
                raise _Broken(start, "the snapshot's event is not stored")
            if head != snapshot.state.get("head_hash"):
                raise _Broken(start, "the snapshot's head is not its event's hash")
            game, rows = snapshot.mutate(None), rows[1:]
        for row in rows:
            event: Any = self.mapper.to_domain_event(row)
            if game is None:
                if not isinstance(event, Game.Opened):
                    raise _Broken(row.originator_version, "a game starts with Game.Opened")
                game = event.mutate(None)
                continue
            _check_next(game, event, hashes=version is None)
            game = event.mutate(game)
        return cast(Game | None, game)

    def _snapshot_for(self, game_id: UUID, version: int | None) -> Any | None:
        """The game's latest snapshot at or before ``version``, if it decodes and looks like a
        game's state at its version; a damaged one is skipped with a warning (the game is then
        folded from its events)."""
        if self.snapshots is None:
            return None
        rows = self.snapshots.recorder.select_events(game_id, desc=True, limit=1, lte=version)
        if not rows:
            return None
        at = int(rows[0].originator_version)
        if (game_id, at) in self._bad_snapshots:
            return None
        why = None
        try:
            snapshot: Any = self.snapshots.mapper.to_domain_event(rows[0])
            why = _snapshot_problem(snapshot)
        except Exception as exc:
            why = f"it does not decode ({type(exc).__name__})"
        if why is None and snapshot.state.get("fold") != FOLD_VERSION:
            return None  # taken by an older fold (domain.fold.FOLD_VERSION): stale, not damaged
        if why is None:
            return snapshot
        self._bad_snapshots.add((game_id, at))
        log.warning(
            "game %s: the snapshot at version %s is damaged (%s); folding the events",
            game_id,
            at,
            why,
        )
        return None

    def stored_snapshots(self, game_id: UUID) -> list[tuple[int, dict[str, Any] | None, str]]:
        """Every stored snapshot of a game, oldest first, read one by one: ``(version, state,
        "")``, or ``(version, None, why)`` when it does not decode or is not a game's state
        (``state`` is the game's domain state and ``head_hash``, as the aggregate had them)."""
        if self.snapshots is None:
            return []
        out: list[tuple[int, dict[str, Any] | None, str]] = []
        for row in self.snapshots.recorder.select_events(game_id):
            version = int(row.originator_version)
            try:
                snapshot: Any = self.snapshots.mapper.to_domain_event(row)
                why = _snapshot_problem(snapshot)
            except Exception as exc:
                snapshot, why = None, f"it does not decode ({type(exc).__name__})"
            if not why and snapshot.state.get("fold") != FOLD_VERSION:
                continue  # an older fold's snapshot: never used, nothing to check
            out.append((version, None if why else dict(snapshot.state), why or ""))
        return out

    def distrust_snapshot(self, game_id: UUID, version: int) -> None:
        """Fold this game without its snapshot at ``version`` from now on (in this process)."""
        self._bad_snapshots.add((game_id, version))
        self.forget(game_id)

    # ------------------------------------------------------------------ verified games

    def ensure_sound(self, game_id: UUID, records: Sequence[Record] | None = None) -> bool:
        """Check once per process that the game's stored hash chain verifies: ``False`` if there
        is no such game, :class:`DamagedRecords` if it does not verify. ``records`` are all the
        game's records when the caller has just read them (else they are read here).

        A verified game is remembered (:data:`SOUND_GAMES` of them); a damaged one is not, so
        it is checked again on every read until its rows are restored."""
        with self._sound_lock:
            if game_id in self._sound:
                self._sound.move_to_end(game_id)
                return True
        found = records if records is not None else self.stored_game_records(game_id)
        if found is None:
            return False
        report = verify_records(found)
        if not report["ok"]:
            raise self.damaged(game_id, report["problems"])
        self.trust(game_id)
        return True

    def trust(self, game_id: UUID) -> None:
        """Remember that this process has verified (or written) the game's whole chain."""
        with self._sound_lock:
            self._sound[game_id] = None
            self._sound.move_to_end(game_id)
            while len(self._sound) > SOUND_GAMES:
                self._sound.popitem(last=False)

    def forget(self, game_id: UUID) -> None:
        """Drop this process's cached copy of the game and its verification: the next read
        verifies its stored chain again."""
        with self._sound_lock:
            self._sound.pop(game_id, None)
        cache = self.repository.cache
        if cache is not None:
            with suppress(KeyError):
                cache.get(game_id, evict=True)

    def damaged(self, game_id: UUID, problems: list[Problem]) -> DamagedRecords:
        """The error for a game whose stored events have ``problems``; this process forgets the
        game (:meth:`forget`)."""
        self.forget(game_id)
        with self._sound_lock:
            first = game_id not in self._damaged
            self._damaged[game_id] = None
            while len(self._damaged) > SOUND_GAMES:
                self._damaged.popitem(last=False)
        # once per game and process at WARNING: a damaged game is checked on every request
        log.log(
            logging.WARNING if first else logging.DEBUG,
            "game %s is damaged in storage (GET /verify names every problem): %s",
            game_id,
            problems[:5],
        )
        return DamagedRecords(game_id, problems)

    def _damage(self, game_id: UUID, failure: Exception) -> Exception:
        """What to raise after reading or folding a game failed with ``failure``: the
        :class:`DamagedRecords` naming every problem of its stored chain, or ``failure`` itself
        when the chain verifies (then it is not the data's fault)."""
        records = self.stored_game_records(game_id, full=True) or []
        report = verify_records(records)
        if report["ok"]:
            return failure
        return self.damaged(game_id, report["problems"])

    # ------------------------------------------------------------------ reading records

    def last_game_version(self, game_id: UUID) -> int | None:
        """The game's version, read from the store without rebuilding the game (also when its
        last row is damaged: its version is still the game's)."""
        last = self.recorder.select_events(game_id, desc=True, limit=1)
        if not last:
            return None
        if last[0].topic not in GAME_TOPICS and not self._has_access(game_id):
            return None
        version = last[0].originator_version
        if type(version) is not int:  # a damaged row (SQLite stores any value)
            raise self._damage(game_id, _Broken(0, "its last stored version is not a number"))
        return version

    def _has_access(self, game_id: UUID) -> bool:
        """Whether a game has this id (its access record is stored), whatever its rows hold."""
        return bool(self.recorder.select_events(GameAccess.id_for(game_id), limit=1))

    def _is_game(self, rows: Sequence[Any], game_id: UUID) -> bool:
        return bool(rows) and (rows[0].topic in GAME_TOPICS or self._has_access(game_id))

    @property
    def _plain(self) -> bool:
        """Whether a stored game event's state is its envelope as plain JSON (eventsourcing's
        JSON transcoder, no cipher, no compression): then ``json.loads`` reads it."""
        mapper = self.mapper
        return (
            mapper.cipher is None
            and mapper.compressor is None
            and type(mapper.transcoder) is JSONTranscoder
        )

    def _record_of(
        self, row: Any, plain: bool | None = None, *, at: int = 0, full: bool = False
    ) -> Record:
        """The record a stored row holds, or :func:`~domain.envelope.unreadable` saying why not
        (``at`` is the version named when the row's own is not a whole number).

        With the default store settings (:attr:`_plain`) a game event's stored state *is* its
        envelope as JSON plus eventsourcing's metadata, so ``json.loads`` gives exactly what the
        mapper would, without building event objects; any other setting, or an event stored
        with a ``class_version`` (to be upcast), goes through the mapper. Either way every byte
        of the row is decoded and checked, not only the hashed envelope (:func:`_row_problem`,
        :func:`_state_problem`: the version, the topic, the timestamp, Game.Opened's aggregate
        topic and ruleset); with ``full`` (``GET /verify``) the row is also decoded by the
        mapper, as the fold decodes it, and must give the same record."""
        version = row.originator_version
        why = _row_problem(version, row.topic)
        if why is not None:
            return unreadable(version if type(version) is int else at, why)
        try:
            record: Record | None = None
            if self._plain if plain is None else plain:
                state = json.loads(row.state)
                if isinstance(state, dict) and "class_version" not in state:
                    why = _state_problem(version, state, self._stamp_of(state.get("timestamp")))
                    if why is not None:
                        return unreadable(version, why)
                    record = record_from(version, state)
                    if not full:
                        return record
            event: Any = self.mapper.to_domain_event(row)
            fields = {k: v for k, v in vars(event).items() if k not in _ID_KEYS}
            why = _state_problem(version, fields, fields.get("timestamp"))
            if why is not None:
                return unreadable(version, why)
            decoded = stored_record(event)
            if record is not None and decoded != record:
                return unreadable(version, "its stored state decodes differently in the fold")
            return decoded
        except Exception as exc:
            return unreadable(version, f"its stored state does not decode ({type(exc).__name__})")

    def _stamp_of(self, stamp: Any) -> Any:
        """A stored timestamp (``{"_type_", "_data_"}``) decoded as the transcoder decodes it,
        or ``None`` when it does not decode."""
        transcoder = cast(JSONTranscoder, self.mapper.transcoder)
        if not isinstance(stamp, dict) or stamp.keys() != {"_type_", "_data_"}:
            return None
        transcoding = transcoder.names.get(stamp["_type_"])
        if transcoding is None:
            return None
        try:
            return transcoding.decode(stamp["_data_"])
        except Exception:
            return None

    def stored_game_records(self, game_id: UUID, *, full: bool = False) -> list[Record] | None:
        """Every stored row of a game, read one by one and every byte of it checked: its
        record, or an :func:`~domain.envelope.unreadable` one where a row does not decode
        (``None`` if there is no such game). With ``full`` (``GET /verify``, naming the damage
        after a fold failed) each row is also decoded by the mapper, as the fold decodes it."""
        rows = self.recorder.select_events(game_id)
        if not self._is_game(rows, game_id):
            return None
        plain = self._plain
        out: list[Record] = []
        for row in rows:
            at = out[-1]["version"] + 1 if out else 1  # where a row without a version sorts
            out.append(self._record_of(row, plain, at=at, full=full))
        return out

    def _read(self, game_id: UUID, rows: Sequence[Any], after: int) -> list[Record]:
        """The records of ``rows`` (versions ``after + 1``, ...), or :class:`DamagedRecords`
        when one does not decode, a version is missing or a record does not follow the one
        before it (cheap checks; the error then names every problem of the stored chain)."""
        plain = self._plain
        out: list[Record] = []
        expected, link = after + 1, None
        for row in rows:
            record = self._record_of(row, plain)
            if (
                UNREADABLE in record
                or record["version"] != expected
                or (link is not None and record["prev_hash"] != link)
            ):
                raise self._damage(game_id, _Broken(expected, "a stored row"))
            out.append(record)
            expected, link = expected + 1, record["hash"]
        return out

    def game_records(
        self, game_id: UUID, *, after: int = 0, limit: int | None = None
    ) -> list[Record]:
        """Stored events with version > ``after`` (at most ``limit``), as plain records
        (:class:`DamagedRecords` if one of them is damaged)."""
        rows = self.recorder.select_events(game_id, gt=after or None, limit=limit)
        return self._read(game_id, rows, after)

    def read_records(self, game_id: UUID) -> list[Record] | None:
        """Every stored record of a game, read fast (``None`` if there is no such game,
        :class:`DamagedRecords` if one of them is damaged)."""
        rows = self.recorder.select_events(game_id)
        if not self._is_game(rows, game_id):
            return None
        return self._read(game_id, rows, 0)

    def records_since(
        self, after: int, limit: int, *, stop: int | None = None
    ) -> list[tuple[int, str, Record]]:
        """``(notification id, game id, record)`` of the game events committed after
        notification ``after`` (at most ``limit``, none after notification ``stop``), in commit
        order; a row that does not decode gives an :func:`~domain.envelope.unreadable` record
        (for the projection to skip)."""
        notes = self.recorder.select_notifications(
            after, limit, stop=stop, topics=list(GAME_TOPICS), inclusive_of_start=False
        )
        plain = self._plain
        return [(note.id, str(note.originator_id), self._record_of(note, plain)) for note in notes]

    def game_records_of(self, notes: Iterable[Any]) -> list[tuple[int, str, Record]]:
        """``(notification id, game id, record)`` of the game events among ``notes``
        (notifications of any topic, e.g. from :meth:`follow`), in their order."""
        plain = self._plain
        return [
            (note.id, str(note.originator_id), self._record_of(note, plain))
            for note in notes
            if note.topic in GAME_TOPICS
        ]

    def follow(self, after: int, *, interval: float = POLL_INTERVAL) -> Subscription[Any]:
        """eventsourcing's subscription to every notification after ``after`` (any topic), in
        commit order: ``with app.follow(n) as notes: for note in notes: ...`` blocks at the end
        of the log and goes on as it grows, until ``notes.stop()``. PostgreSQL's wakes on
        ``LISTEN``/``NOTIFY``; SQLite, which cannot notify, is polled every ``interval``
        seconds (:mod:`adapters.follow`)."""
        return subscribe(self.recorder, after, interval=interval)

    def notifications_of(self, topic_class: type, after: int, limit: int) -> list[Any]:
        """Notifications of one stored event class after ``after``, in commit order."""
        return list(
            self.recorder.select_notifications(
                after, limit=limit, topics=[get_topic(topic_class)], inclusive_of_start=False
            )
        )

    def max_notification_id(self) -> int:
        return int(self.recorder.max_notification_id() or 0)

    def log_head(self, timeout: float = PROBE_TIMEOUT) -> int:
        """The log's head (its largest notification id; 0 when it is empty), read with one
        query that gives up after ``timeout`` seconds and is not retried: the readiness
        probe's "is the database there". :class:`StorageUnavailable` when it is not.

        eventsourcing retries a failed PostgreSQL read (10 times, 0.2 s apart) and waits for a
        pool connection up to ``POSTGRES_CONNECT_TIMEOUT`` (30 s): right for a request, too
        slow for a probe. This takes a connection from the same pool (waiting ``timeout`` at
        most) and bounds the query with ``statement_timeout``."""
        try:
            if self.env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
                return int(self.recorder.max_notification_id() or 0)
            recorder: Any = self.recorder
            pool = recorder.datastore.pool
            pool.open(wait=False)
            with pool.connection(timeout=timeout) as conn, conn.transaction():
                conn.execute(f"SET LOCAL statement_timeout = {max(1, int(timeout * 1000))}")
                row = conn.execute(recorder.max_notification_id_statement).fetchone()
            return int(row["max"] or 0) if row is not None else 0
        except Exception as exc:
            log.debug("the store did not answer the probe", exc_info=True)
            raise StorageUnavailable(f"the database did not answer ({type(exc).__name__})") from exc


def _recordings(
    events: Sequence[Any], stored: Sequence[StoredEvent], ids: Sequence[int] | None
) -> list[Recording[UUID]]:
    """eventsourcing's ``Recording`` of each saved event, with its ``Notification``."""
    return [
        Recording(
            event,
            Notification(
                originator_id=s.originator_id,
                originator_version=s.originator_version,
                topic=s.topic,
                state=s.state,
                id=n,
            ),
        )
        for event, s, n in zip(events, stored, ids or (), strict=False)
    ]


class _Broken(Exception):
    """A stored event that does not continue the game being folded (the caller then names
    the damage from the whole stored chain)."""

    def __init__(self, version: int, why: str) -> None:
        super().__init__(f"event {version}: {why}")


class _Cold(Exception):
    """The game left the cache between the look-up and the fast-forward."""


class _FarBehind(Exception):
    """The cached game is more than :data:`FAST_FORWARD_LIMIT` events behind the store."""


def _check_next(game: Game, event: Any, *, hashes: bool = True) -> None:
    """``event`` is the game's next stored event: a ``Game.Recorded`` that follows the game's
    head hash and (with ``hashes``) whose fields give its own hash (eventsourcing checks the
    version)."""
    if not isinstance(event, Game.Recorded):
        raise _Broken(event.originator_version, "not a recorded game event")
    if event.prev_hash != game.head_hash:
        raise _Broken(event.originator_version, "it does not follow the game's head")
    if hashes and chain_hash(stored_record(event), event.prev_hash) != event.hash:
        raise _Broken(event.originator_version, "its fields do not give its hash")


#: A decoded event's identity, which the row's own columns give (not its stored state).
_ID_KEYS = ("originator_id", "originator_version")
#: The fields of a stored game event besides its envelope: eventsourcing's ``timestamp``, and
#: for ``Game.Opened`` (version 1) the aggregate's topic and the game's ruleset.
_RECORDED_FIELDS = frozenset({"timestamp", *STORED_FIELDS})
_OPENED_FIELDS = _RECORDED_FIELDS | {"originator_topic", "ruleset"}


def _row_problem(version: Any, topic: str) -> str | None:
    """Why a stored row's columns are not a game event's, or None: its version is a whole
    number from 1, its topic ``Game.Opened`` at version 1 and ``Game.Recorded`` after it."""
    if type(version) is not int or version < 1:
        return "its stored version is not a whole number from 1"
    if topic not in GAME_TOPICS:
        return "its topic is not a game event's"
    if (topic == GAME_TOPICS[0]) != (version == 1):
        return "its topic is not its version's (Game.Opened is version 1, Game.Recorded after)"
    return None


def _state_problem(version: int, fields: Mapping[str, Any], stamp: Any) -> str | None:
    """Why the decoded fields of a stored game event (``stamp``: its timestamp, decoded) are
    not a game event's, or None. The envelope's fields are the hash chain's to check
    (:func:`~domain.envelope.verify_records`); this checks the rest of the row."""
    if fields.keys() != (_OPENED_FIELDS if version == 1 else _RECORDED_FIELDS):
        return "its stored state does not have a game event's fields"
    if not isinstance(stamp, datetime):
        return "its stored timestamp does not decode"
    if version == 1:
        event = fields["event"]
        ruleset = event.get("ruleset", "munchkin-ccg") if isinstance(event, Mapping) else None
        if fields["originator_topic"] != GAME_TOPIC or fields["ruleset"] != ruleset:
            return "its stored aggregate topic or ruleset is not its game's"
    return None


def _snapshot_problem(snapshot: Any) -> str | None:
    """Why a decoded snapshot is not a game's state at its version, or None."""
    state = snapshot.state
    if snapshot.topic != GAME_TOPIC or not isinstance(state, dict):
        return "it is not a game's snapshot"
    inner = state.get("state")
    if not isinstance(inner, dict) or inner.get("version") != snapshot.originator_version:
        return "its state is not at its version"
    if not isinstance(state.get("head_hash"), str):
        return "it has no head hash"
    return None


def _forward(aggregate: Any, events: Iterable[Any]) -> Any:
    """Fast-forward a cached game (eventsourcing's projector): each event checked by
    :func:`_check_next` before it is folded; :class:`_FarBehind` (before anything is decoded
    or folded) if there are more than :data:`FAST_FORWARD_LIMIT` of them."""
    if aggregate is None:
        raise _Cold()
    if isinstance(events, CountedEvents) and len(events) > FAST_FORWARD_LIMIT:
        raise _FarBehind()
    return _forward_all(aggregate, events)


def _forward_all(aggregate: Any, events: Iterable[Any]) -> Any:
    """:func:`_forward` however many events there are."""
    if aggregate is None:
        raise _Cold()
    for event in events:
        _check_next(aggregate, event)
        aggregate = event.mutate(aggregate)
    return aggregate


def _project(aggregate: Any, events: Iterable[Any]) -> Any:
    """eventsourcing's ``project_aggregate`` without its per-event Protocol ``isinstance``
    assertion (slow on Python 3.11); every stored event of a game is a mutating event."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def _whole(name: str, default: int, env: Mapping[str, str]) -> int:
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
    of :data:`SNAPSHOT_INTERVAL` since (about 1 ms for the long game, once per 100 events);
    other aggregates count :data:`SMALL_AGGREGATE_BYTES`."""

    def __init__(self, maxsize: int, max_bytes: int) -> None:
        super().__init__(maxsize)
        self.max_bytes = max_bytes
        self.bytes = 0
        #: key -> (estimated bytes, the game's version // SNAPSHOT_INTERVAL when estimated)
        self.sizes: dict[UUID, tuple[int, int]] = {}
        self._sizes_lock = threading.Lock()

    def size_of(self, key: UUID, value: Any) -> tuple[int, int]:
        if not isinstance(value, Game):
            return SMALL_AGGREGATE_BYTES, -1
        bucket = value.version // SNAPSHOT_INTERVAL
        known = self.sizes.get(key)
        if known is not None and known[1] == bucket:
            return known
        try:
            return STATE_BYTES_PER_JSON_BYTE * len(orjson.dumps(value.state)), bucket
        except TypeError:  # not plain JSON: a rough figure
            return STATE_BYTES_PER_JSON_BYTE * len(repr(value.state)), bucket

    def get(self, key: UUID, *, evict: bool = False) -> Any:
        found = super().get(key, evict=evict)
        if evict:
            self._forget(key)
        return found

    def put(self, key: UUID, value: Any) -> Any:
        if value is None:
            return None, None
        size = self.size_of(key, value)
        if size[0] > self.max_bytes:
            with suppress(KeyError):
                self.get(key, evict=True)  # not an older copy either
            return None, None
        result = super().put(key, value)
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
                self.get(victim, evict=True)
            with self._sizes_lock:
                over = self.bytes > self.max_bytes
        return result

    def _forget(self, key: UUID) -> None:
        with self._sizes_lock:
            self.bytes -= self.sizes.pop(key, (0, 0))[0]
