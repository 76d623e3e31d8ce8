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
  :meth:`keep`).
* :meth:`read_records` reads a game's stored envelopes with one ``json.loads`` each.

The service (:mod:`service.games`) subclasses :class:`EventStore`; nothing above it imports
eventsourcing's persistence.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, cast
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import (
    JSONTranscoder,
    Notification,
    RecordConflictError,
    Recording,
)
from eventsourcing.utils import get_topic

from adapters.pg_writer import PostgresGroupCommit
from adapters.sqlite_writer import GroupCommit, writer_lock_for, writing
from domain.envelope import Record, record_from
from domain.game import Game, stored_record

__all__ = ["AggregateNotFoundError", "EventStore", "RecordConflictError"]

#: A game is snapshotted whenever a save takes its version past a multiple of this.
SNAPSHOT_INTERVAL = 100
#: Topics of a game's stored events (``Game.Opened`` first, then ``Game.Recorded``).
GAME_TOPICS = (get_topic(Game.Opened), get_topic(Game.Recorded))


class EventStore(Application):
    """eventsourcing's Application, tuned for munchlog (see the module docstring)."""

    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = dict(env) if env is not None else {}
        # Keep recent games in memory and fast-forward them from the store on each read, so a
        # request folds only the events written since (by this or another process).
        env.setdefault("AGGREGATE_CACHE_MAXSIZE", "2000")
        env.setdefault("AGGREGATE_CACHE_FASTFORWARD", "y")
        super().__init__(env)
        self._writer_lock = writer_lock_for(
            {k: self.env.get(k) or "" for k in ("PERSISTENCE_MODULE", "SQLITE_DBNAME")}
        )
        self._group_commit: GroupCommit | None = None
        if self._writer_lock is not None:
            self._group_commit = GroupCommit(self._writer_lock, self.recorder)
        elif self.env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
            self._group_commit = PostgresGroupCommit(self.recorder)

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
        record them all in one transaction, then take any snapshot that is due."""
        processing = ProcessingEvent[UUID]()
        for obj in objs:
            processing.events.extend(obj.collect_events())
            processing.aggregates[obj.id] = obj
        processing.saved_kwargs.update(kwargs)
        recordings = self._record(processing)
        self._take_snapshots(processing)
        self._notify(recordings)
        return recordings

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        """eventsourcing's ``EventStore.put``, with the events encoded *before* the writer lock
        is taken: only the insert and its commit are serialised (:meth:`writing`)."""
        stored = [self.mapper.to_stored_event(e) for e in processing_event.events]
        ids = self._insert(self.recorder, stored, processing_event)
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
            for event, s, n in zip(processing_event.events, stored, ids or (), strict=False)
        ]

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Snapshot a game from the aggregate at hand whenever a save takes its version past a
        multiple of :data:`SNAPSHOT_INTERVAL`; the snapshot is at the save's last version."""
        if self.snapshots is None:
            return
        for aggregate in processing_event.aggregates.values():
            if not isinstance(aggregate, Game):
                continue
            first = aggregate.version - sum(
                1 for e in processing_event.events if e.originator_id == aggregate.id
            )
            if aggregate.version // SNAPSHOT_INTERVAL > first // SNAPSHOT_INTERVAL:
                stored = self.snapshots.mapper.to_stored_event(Game.Snapshot.take(aggregate))
                self._insert(self.snapshots.recorder, [stored], None)

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

    def cached(self, game_id: UUID) -> Game | None:
        """A detached copy of this process's cached game, as of the last time this process saw
        it (None if it is not cached); it may be behind other processes' writes."""
        cache = self.repository.cache
        if cache is None:
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

    # ------------------------------------------------------------------ reading

    def load(self, aggregate_id: UUID, version: int | None = None) -> Any | None:
        """The aggregate (at ``version``), rebuilt from its latest snapshot and events; a game
        is detached from the cache. ``None`` when there is no such aggregate."""
        try:
            if version is None:
                found: Any = self.repository.get(
                    aggregate_id, deepcopy_from_cache=False, projector_func=_project
                )
            else:
                found = self.repository.get(aggregate_id, version=version)
        except AggregateNotFoundError:
            return None
        return found.detached() if version is None and isinstance(found, Game) else found

    def last_game_version(self, game_id: UUID) -> int | None:
        """The game's version, read from the store without rebuilding the game."""
        last = self.recorder.select_events(game_id, desc=True, limit=1)
        if not last or last[0].topic not in GAME_TOPICS:
            return None
        return int(last[0].originator_version)

    def game_records(
        self, game_id: UUID, *, after: int = 0, limit: int | None = None
    ) -> list[Record]:
        """Stored events with version > ``after`` (at most ``limit``), as plain records."""
        events = self.events.get(game_id, gt=after or None, limit=limit)
        return [stored_record(e) for e in events if isinstance(e, Game.Opened | Game.Recorded)]

    def read_records(self, game_id: UUID) -> list[Record] | None:
        """Every stored record of a game, faster than :meth:`game_records` (``None`` if none).

        With the default store settings (eventsourcing's JSON transcoder, no cipher, no
        compression) a game event's stored state *is* its envelope as JSON, so ``json.loads``
        gives exactly what the mapper would, without building event objects. Any other
        setting, or an event stored with a ``class_version`` (to be upcast), goes through the
        mapper.
        """
        stored = self.recorder.select_events(game_id)
        if not stored or stored[0].topic != GAME_TOPICS[0]:
            return None
        mapper = self.mapper
        plain = (
            mapper.cipher is None
            and mapper.compressor is None
            and type(mapper.transcoder) is JSONTranscoder
        )
        out: list[Record] = []
        for item in stored:
            if item.topic not in GAME_TOPICS:
                continue
            state = json.loads(item.state) if plain else None
            if state is None or "class_version" in state:
                out.append(stored_record(cast(Any, mapper.to_domain_event(item))))
                continue
            out.append(record_from(item.originator_version, state))
        return out

    def records_since(self, after: int, limit: int) -> list[tuple[int, str, Record]]:
        """``(notification id, game id, record)`` of the game events committed after
        notification ``after`` (at most ``limit``), in commit order."""
        notes = self.recorder.select_notifications(
            after, limit, topics=list(GAME_TOPICS), inclusive_of_start=False
        )
        out: list[tuple[int, str, Record]] = []
        for note in notes:
            event: Any = self.mapper.to_domain_event(note)
            out.append((note.id, str(event.originator_id), stored_record(event)))
        return out

    def notifications_of(self, topic_class: type, after: int, limit: int) -> list[Any]:
        """Notifications of one stored event class after ``after``, in commit order."""
        return list(
            self.recorder.select_notifications(
                after, limit=limit, topics=[get_topic(topic_class)], inclusive_of_start=False
            )
        )

    def max_notification_id(self) -> int:
        return int(self.recorder.max_notification_id() or 0)


def _project(aggregate: Any, events: Iterable[Any]) -> Any:
    """eventsourcing's ``project_aggregate`` without its per-event Protocol ``isinstance``
    assertion (slow on Python 3.11); every stored event of a game is a mutating event."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate
