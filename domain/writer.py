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
Where ``fcntl`` does not exist (Windows) only the thread lock is taken.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class WriterLock:
    """A process- and thread-wide exclusive lock on ``path`` (created if missing)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._thread_lock = threading.Lock()
        self._fd: int | None = None
        self._pid: int | None = None

    def _file(self) -> int:
        # Open lazily and again after a fork (gunicorn forks workers after the app is built):
        # a descriptor inherited across fork shares its flock with the parent.
        if self._fd is None or self._pid != os.getpid():
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self._pid = os.getpid()
        return self._fd

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._thread_lock:
            if fcntl is None:  # pragma: no cover - Windows
                yield
                return
            fd = self._file()
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)


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
