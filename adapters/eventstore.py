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

The service (:mod:`service.games`) holds an :class:`EventStore` (``GameLog.store``); nothing
above it imports eventsourcing's persistence. The store is split by job: how rows are written
and read back (:mod:`adapters.record_mapper`), folding a stored game (:mod:`adapters.folding`),
the game cache (:mod:`adapters.game_cache`), the readiness probe (:mod:`adapters.readiness`),
storage refusals (:mod:`adapters.storage`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, cast
from uuid import UUID

from eventsourcing.application import (
    AggregateNotFoundError,
    Application,
    LRUCache,
    ProcessingEvent,
)
from eventsourcing.persistence import (
    EventStore as EventsourcingStore,
)
from eventsourcing.persistence import (
    JSONTranscoder,
    Mapper,
    RecordConflictError,
    Recording,
    StoredEvent,
    Subscription,
)
from eventsourcing.utils import get_topic

from adapters.folding import (
    FAST_FORWARD_LIMIT,
    SNAPSHOT_INTERVAL,
    Broken,
    FarBehind,
    check_next,
    forward,
    forward_all,
    project,
    read_snapshot,
    stored_snapshots,
)
from adapters.follow import POLL_INTERVAL, subscribe
from adapters.game_cache import (
    GAME_CACHE_GAMES,
    GAME_CACHE_MB,
    STATE_BYTES_PER_JSON_BYTE,
    SizedCache,
    drop,
    drop_changed,
    whole_setting,
)
from adapters.pg_writer import (
    PostgresGroupCommit,
    bounded_on_outage,
    ddl_lock,
    prepare_outage_env,
)
from adapters.readiness import PROBE_TIMEOUT, log_head, probe_postgres
from adapters.record_mapper import (
    GAME_TOPICS,
    CountingEventStore,
    RecordMapper,
    is_plain,
    isoformat_utc,
    record_of,
    recordings_of,
    undecodable_row,
)
from adapters.sqlite_writer import GroupCommit, writer_lock_for, writing
from adapters.storage import (
    StorageUnavailable,
    WriteHealth,
    probe_sqlite_writes,
    renew_sqlite_connections,
    storage_refusal,
)
from domain.envelope import (
    UNREADABLE,
    DamagedRecords,
    Problem,
    Record,
    verify_records,
)
from domain.game import Game, GameAccess, GameSummary

__all__ = [
    "FAST_FORWARD_LIMIT",
    "SNAPSHOT_INTERVAL",
    "STATE_BYTES_PER_JSON_BYTE",
    "AggregateNotFoundError",
    "DamagedRecords",
    "EventStore",
    "RecordConflictError",
    "SizedCache",
    "StorageUnavailable",
    "isoformat_utc",
]

log = logging.getLogger(__name__)


#: Games whose stored hash chain this process has verified (:meth:`EventStore.ensure_sound`).
SOUND_GAMES = 20_000
#: Seconds a game this process has just saved or read from the store is trusted to be current
#: (:meth:`EventStore.cached`): a copy untouched for longer is probably behind another worker's
#: writes (its table's connection moved), so the recording path reads the store first instead of
#: deciding on it and conflicting at the insert.
TRUST_CACHE_FOR = 0.5


class EventStore(Application):
    """eventsourcing's Application, tuned for munchlog (see the module docstring)."""

    #: eventsourcing names the stored tables after the application (PostgreSQL's
    #: ``gamelog_events``, ...) and reads ``GAMELOG_``-prefixed settings: the name of the class
    #: that was the application until the service held its store (``service.games.GameLog``).
    name = "GameLog"
    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = dict(env) if env is not None else {}
        # Keep recent games in memory and fast-forward them from the store on each read, so a
        # request folds only the events written since (by this or another process).
        games = whole_setting("MUNCHLOG_GAME_CACHE_GAMES", GAME_CACHE_GAMES, env)
        max_bytes = whole_setting("MUNCHLOG_GAME_CACHE_MB", GAME_CACHE_MB, env) * 1024 * 1024
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

    def construct_factory(self, env: Any) -> Any:
        """eventsourcing's factory, its PostgreSQL pool bounded on a network outage."""
        return bounded_on_outage(super().construct_factory(prepare_outage_env(env)), env)

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
            drop_changed(self.repository.cache, processing.aggregates)
            refused = self.refusal(exc)
            if refused is None:
                raise
            raise refused from exc
        if self.write_health.succeeded():
            self._renew_connections()  # some may have been opened while storage refused
        self._take_snapshots(processing)
        if type(self)._notify is Application._notify:
            return []
        recordings = recordings_of(processing.events, stored, ids)
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
        """:class:`StorageUnavailable` when ``exc`` is storage refusing (a full disk, a read-only
        file, a database gone: :func:`~adapters.storage.storage_refusal`; nothing was written),
        else ``None``; remembered (:meth:`ensure_writable`), and new SQLite connections are
        opened for what follows (one opened while the file was read-only never writes)."""
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
                probe_postgres(self.recorder, timeout)
        except Exception as exc:
            reason = storage_refusal(exc) or type(exc).__name__
            log.debug("the write probe failed", exc_info=True)
            raise StorageUnavailable(f"storage refuses writes: {reason}") from exc
        if self.write_health.succeeded():
            self._renew_connections()

    def _insert(
        self, recorder: Any, stored: list[Any], processing: ProcessingEvent[UUID] | None
    ) -> Sequence[int] | None:
        """``recorder.insert_events(stored)`` under the writer lock; a game batch on SQLite goes
        through :class:`~adapters.sqlite_writer.GroupCommit` (one transaction for the batches
        queued). Nothing to insert (a write that found nothing to record): no query at all."""
        if not stored and (processing is None or processing.tracking is None):
            return []
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
        the aggregate's rows does not decode, :class:`DamagedRecords` names that game.

        The current summary (or game) is a detached copy: a write changes it and may then lose
        its race, and the cached copy must change only by what is stored (issue #35). Any other
        aggregate is the cached copy, to read only: a writer changes a copy of its own
        (``service.dealing.rekeyed``, ``Tournaments.load``; ``game_cache.drop_changed``)."""
        try:
            if version is None:
                found: Any = self.repository.get(
                    aggregate_id, deepcopy_from_cache=False, projector_func=project
                )
            else:
                found = self.repository.get(aggregate_id, version=version)
        except AggregateNotFoundError:
            return None
        except Exception as exc:
            raise undecodable_row(self.recorder, self.mapper, aggregate_id, exc, of_game) from exc
        if version is None and isinstance(found, (GameSummary, Game)):
            return found.detached()
        return found

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
            return self._forwarded(game_id, forward)
        except FarBehind:
            return self._refold(game_id, cached)

    def _refold(self, game_id: UUID, cached: Any) -> Game | None:
        """The game folded from its latest snapshot and the events after it, in place of
        ``cached`` (far behind); fast-forwarded event by event if no snapshot is newer than
        ``cached``. The game was cached, so this process has verified its chain."""
        snapshot = self._snapshot_for(game_id, None)
        if snapshot is None or snapshot.originator_version <= cached.version:
            return self._forwarded(game_id, forward_all)
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
        """The cached game fast-forwarded by ``projector`` (:func:`forward`, which raises
        :class:`FarBehind`, or :func:`forward_all`); if anything else goes wrong the cached
        copy is dropped and ``None`` returned."""
        try:
            found: Any = self.repository.get(
                game_id, deepcopy_from_cache=False, projector_func=projector
            )
        except FarBehind:
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
        checked by :func:`check_next` (for a past version, the links only: its rows were
        verified with the game's chain, and a replay should not pay for it again); the event at
        the snapshot's version must have the hash the snapshot ends with."""
        start = 0 if snapshot is None else int(snapshot.originator_version)
        rows = self.recorder.select_events(game_id, gt=start - 1 if start else None, lte=version)
        game: Any = None
        if snapshot is not None:
            head = record_of(self.mapper, rows[0]).get("hash") if rows else None
            if not rows or rows[0].originator_version != start:
                raise Broken(start, "the snapshot's event is not stored")
            if head != snapshot.state.get("head_hash"):
                raise Broken(start, "the snapshot's head is not its event's hash")
            game, rows = snapshot.mutate(None), rows[1:]
        for row in rows:
            event: Any = self.mapper.to_domain_event(row)
            if game is None:
                if not isinstance(event, Game.Opened):
                    raise Broken(row.originator_version, "a game starts with Game.Opened")
                game = event.mutate(None)
                continue
            check_next(game, event, hashes=version is None)
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
        snapshot, why = read_snapshot(self.snapshots.mapper, rows[0])
        if why is None:
            return snapshot  # None when an older fold (domain.fold.FOLD_VERSION) took it
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
        return stored_snapshots(self.snapshots, game_id)

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
        drop(self.repository.cache, game_id)

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
            raise self._damage(game_id, Broken(0, "its last stored version is not a number"))
        return version

    def _has_access(self, game_id: UUID) -> bool:
        """Whether a game has this id (its access record is stored), whatever its rows hold."""
        return bool(self.recorder.select_events(GameAccess.id_for(game_id), limit=1))

    def _is_game(self, rows: Sequence[Any], game_id: UUID) -> bool:
        return bool(rows) and (rows[0].topic in GAME_TOPICS or self._has_access(game_id))

    def stored_game_records(self, game_id: UUID, *, full: bool = False) -> list[Record] | None:
        """Every stored row of a game, read one by one and every byte of it checked: its
        record, or an :func:`~domain.envelope.unreadable` one where a row does not decode
        (``None`` if there is no such game). With ``full`` (``GET /verify``, naming the damage
        after a fold failed) each row is also decoded by the mapper, as the fold decodes it."""
        rows = self.recorder.select_events(game_id)
        if not self._is_game(rows, game_id):
            return None
        plain = is_plain(self.mapper)
        out: list[Record] = []
        for row in rows:
            at = out[-1]["version"] + 1 if out else 1  # where a row without a version sorts
            out.append(record_of(self.mapper, row, plain, at=at, full=full))
        return out

    def _read(self, game_id: UUID, rows: Sequence[Any], after: int) -> list[Record]:
        """The records of ``rows`` (versions ``after + 1``, ...), or :class:`DamagedRecords`
        when one does not decode, a version is missing or a record does not follow the one
        before it (cheap checks; the error then names every problem of the stored chain)."""
        plain = is_plain(self.mapper)
        out: list[Record] = []
        expected, link = after + 1, None
        for row in rows:
            record = record_of(self.mapper, row, plain)
            if (
                UNREADABLE in record
                or record["version"] != expected
                or (link is not None and record["prev_hash"] != link)
            ):
                raise self._damage(game_id, Broken(expected, "a stored row"))
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
        plain = is_plain(self.mapper)
        return [
            (note.id, str(note.originator_id), record_of(self.mapper, note, plain))
            for note in notes
        ]

    def game_records_of(self, notes: Iterable[Any]) -> list[tuple[int, str, Record]]:
        """``(notification id, game id, record)`` of the game events among ``notes``
        (notifications of any topic, e.g. from :meth:`follow`), in their order."""
        plain = is_plain(self.mapper)
        return [
            (note.id, str(note.originator_id), record_of(self.mapper, note, plain))
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
        """The log's head, read with one bounded query (:func:`adapters.readiness.log_head`):
        the readiness probe's "is the database there"."""
        postgres = self.env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"
        return log_head(self.recorder, postgres, timeout)
