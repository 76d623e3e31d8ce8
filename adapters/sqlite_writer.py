"""One writer at a time on an SQLite file, without SQLite's busy-wait.

SQLite lets one connection write at a time. When a second process wants the write lock while the
first holds it (for the few hundred microseconds of a commit and its ``fsync``), SQLite's busy
handler makes it *sleep* -- 1 ms, then 2, 5, 10 ms ... -- instead of waking it when the lock is
free. Under concurrent recording that sleep, not the work, set the pace (workers sat idle half
the time; see bench/RESULTS.md). :class:`WriterLock` queues writers on an advisory ``flock`` of
a ``<database>.lock`` file beside the database, which wakes the next writer the moment the lock
is released, and on a ``threading.Lock`` for the threads of one process (``flock`` locks belong
to the open file, which the threads share).

It only orders *our* writers: SQLite's own locking still guards the file against anyone else.
Lock order: this lock first, then a pooled connection (eventsourcing's pool lets one thread
of a process write at a time); taking them the other way round could deadlock against a writer
that holds this lock and waits for the connection. :class:`GroupCommit` writes on its own
connection, under this lock.
Where ``fcntl`` does not exist (Windows) only the thread lock is taken.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import weakref
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext, suppress
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from adapters.storage import StorageUnavailable

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


#: Live locks and group writers, told by :func:`_after_fork_in_child` to drop what the process
#: they were made in opened (gunicorn may fork workers after a lock is made).
_PER_PROCESS: weakref.WeakSet[WriterLock | GroupCommit] = weakref.WeakSet()
#: SQLite connections inherited across a fork: kept, never used or closed in the child (closing
#: one there could checkpoint or unlink the parent's WAL).
_INHERITED: list[Any] = []


def _after_fork_in_child() -> None:
    for owner in list(_PER_PROCESS):
        owner._forget_parent()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class WriterLock:
    """A process- and thread-wide exclusive lock on ``path`` (created if missing)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._thread_lock = threading.Lock()
        self._fd: int | None = None
        #: The thread lock and descriptor taken by the holder (released by ``__exit__``).
        self._held: tuple[threading.Lock, int | None] = (self._thread_lock, None)
        _PER_PROCESS.add(self)

    def _file(self) -> int:
        """The lock file's descriptor: opened lazily, and again in a forked child (see
        _forget_parent). On a read-only file system an existing lock file is opened read-only
        (``flock`` needs no write access); one that cannot be opened at all is storage
        refusing (:class:`~adapters.storage.StorageUnavailable`: 503), and the next write
        tries again."""
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                try:
                    self._fd = os.open(self.path, os.O_RDONLY)
                except OSError as exc:
                    raise StorageUnavailable(
                        f"the writer lock cannot be opened ({exc.strerror or exc})"
                    ) from None
        return self._fd

    def _forget_parent(self) -> None:
        """In a forked child: a descriptor inherited across fork shares its ``flock`` with the
        parent, so the child opens its own; the thread lock may have been held by a thread
        that does not exist here."""
        if self._fd is not None:
            with suppress(OSError):  # the parent's own descriptor (and any lock it holds) stays
                os.close(self._fd)
        self._fd = None
        self._thread_lock = threading.Lock()

    def __call__(self) -> WriterLock:
        """``with lock():`` holds the lock (a plain context manager: this is taken once per
        write, where a generator-based one costs several function calls more). The lock file
        is opened here, before anything waits on it (:meth:`_file`: StorageUnavailable)."""
        if fcntl is not None and self._fd is None:
            self._file()
        return self

    def __enter__(self) -> None:
        held = self._thread_lock
        held.acquire()
        try:
            fd = None
            if fcntl is not None:
                fd = self._file()
                fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            held.release()
            raise
        # Only the holder of the thread lock gets here: no other thread reads this meanwhile.
        self._held = (held, fd)

    def __exit__(self, *exc_info: object) -> None:
        held, fd = self._held
        try:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            held.release()


def writer_lock_for(env: dict[str, str]) -> WriterLock | None:
    """The writer lock for an eventsourcing ``env`` naming an SQLite file; None otherwise
    (PostgreSQL, or SQLite in memory, where one process holds the only connection)."""
    if env.get("PERSISTENCE_MODULE", "") != "eventsourcing.sqlite":
        return None
    name = env.get("SQLITE_DBNAME", "")
    if not name or ":memory:" in name or "mode=memory" in name:
        return None
    if name.startswith("file:"):
        name = name.removeprefix("file:").split("?", 1)[0]
    return WriterLock(name + ".lock")


def writing(lock: WriterLock | None) -> AbstractContextManager[None]:
    """``with writing(lock):`` -- the lock if there is one, else nothing."""
    return lock() if lock is not None else nullcontext()


@dataclass(eq=False)
class _Pending:
    """One batch of stored events waiting to be written (and, once ``done``, how it went)."""

    stored: Sequence[Any]
    done: bool = False
    ids: Sequence[int] | None = None
    error: BaseException | None = None


class GroupCommit:
    """Group commit for one process: batches that queue up while another thread of the process is
    writing are written together, in one transaction and one ``fsync``.

    A thread queues its batch, then waits for the :class:`WriterLock`. If, when it gets it, its
    batch has already been written by the thread before it, it is done. Otherwise it leads: it
    takes *every* queued batch -- including those that arrived while it waited for the lock --
    and inserts them with one statement (one transaction, see :meth:`_insert_together`). If
    that conflicts (another writer took a batch's version), each batch is inserted again on its
    own, so the conflicting one fails alone with :class:`~eventsourcing.persistence.IntegrityError`
    (a ``RecordConflictError``) while the others commit. Each batch is still all or nothing.
    """

    def __init__(self, lock: WriterLock, recorder: Any) -> None:
        self.lock = lock
        self.recorder = recorder
        self._queue: list[_Pending] = []
        self._queue_lock = threading.Lock()
        #: Transactions written and batches written, for the curious (bench/RESULTS.md).
        self.transactions = 0
        self.batches = 0
        self._conn: Any = None
        _PER_PROCESS.add(self)

    def _connection(self) -> Any:
        """This process's own connection for group writes (made by the recorder's datastore, so
        set up exactly as its pooled ones). The writer lock already lets one thread write at a
        time, so the pool's own writer interlock would only add work; a fork gets a new one."""
        if self._conn is None:
            self._conn = self.recorder.datastore.pool._create_connection()
        return self._conn

    def _forget_parent(self) -> None:
        """In a forked child: the parent's connection is not ours to use (nor to close)."""
        if self._conn is not None:
            _INHERITED.append(self._conn)
        self._conn = None
        self._queue = []
        self._queue_lock = threading.Lock()

    def close(self) -> None:
        """Close this process's connection (if any)."""
        if self._conn is not None:
            self._conn.close()
        self._conn = None

    def insert(self, stored: Sequence[Any]) -> Sequence[int] | None:
        """Write ``stored`` (one batch) and return its notification ids, or raise."""
        lock = self.lock()  # may refuse (no lock file): before the batch is queued
        mine = _Pending(stored)
        with self._queue_lock:
            self._queue.append(mine)
        with lock:
            if not mine.done:
                with self._queue_lock:
                    group, self._queue = self._queue, []
                self._write(group)
        if mine.error is not None:
            raise mine.error
        return mine.ids

    def _write(self, group: list[_Pending]) -> None:
        """Insert every batch of ``group`` together (:meth:`_insert_together`); if that
        conflicts (a batch decided on a stale copy of its game: another writer took its
        version), insert each batch on its own, so only the conflicting ones fail. Any other
        failure (the connection cannot be opened, the disk is full, the file is read-only)
        fails every batch of the group, and the connection is closed: the next write opens a
        new one (one opened while the file was read-only would never write)."""
        conflict = self._conflict_errors()
        try:
            conn = self._connection()
            try:
                self._insert_together(conn, group)
            except conflict as exc:
                from eventsourcing.persistence import IntegrityError  # (only needed here)

                if len(group) == 1:
                    raise exc if isinstance(exc, IntegrityError) else IntegrityError(exc) from exc
                for pending in group:
                    try:
                        self._insert_together(conn, [pending])
                    except conflict as one:
                        pending.ids = None
                        pending.error = (
                            one if isinstance(one, IntegrityError) else IntegrityError(one)
                        )
            self.transactions += 1
            self.batches += len(group)
        except BaseException as exc:  # nothing was committed: every batch failed with it
            for pending in group:
                pending.ids = None
                if pending.error is None:
                    pending.error = exc
            from eventsourcing.persistence import IntegrityError

            if not isinstance(exc, (*conflict, IntegrityError)):
                with suppress(Exception):
                    self.close()
        finally:
            for pending in group:
                pending.done = True

    def _conflict_errors(self) -> tuple[type[BaseException], ...]:
        """What the insert raises when a batch's version is taken."""
        return (sqlite3.IntegrityError,)

    def _insert_together(self, conn: Any, group: list[_Pending]) -> None:
        """One ``INSERT`` of every event of ``group``, run by SQLite as its own transaction (the
        connection is in autocommit mode): one C call, so the writer lock is held for the
        insert and its ``fsync`` without this thread giving up and waiting for the GIL between
        BEGIN, the inserts and COMMIT (each a call of its own that releases the GIL). The
        table's rowids are the notification ids; rows inserted by one statement under the
        write lock get consecutive ones, the last being ``lastrowid``."""
        stored = [event for pending in group for event in pending.stored]
        table = self.recorder.events_table_name
        values = ", ".join(["(?, ?, ?, ?)"] * len(stored))
        params = [
            x
            for s in stored
            for x in (
                s.originator_id.hex if isinstance(s.originator_id, UUID) else s.originator_id,
                s.originator_version,
                s.topic,
                s.state,
            )
        ]
        raw = conn._sqlite_conn
        last = raw.execute(f"INSERT INTO {table} VALUES {values}", params).lastrowid
        first = last - len(stored) + 1
        start = 0
        for pending in group:
            pending.ids = list(range(first + start, first + start + len(pending.stored)))
            start += len(pending.stored)
