"""When storage refuses: which errors mean "the database cannot serve this now", and recovery.

A full disk, a database file that is (or was, when it was opened) read-only, one that cannot be
opened, an I/O error, a PostgreSQL server that went away: none of these is a bug, and none is
the request's fault. :func:`storage_refusal` tells them from everything else (a version conflict
is not one; an SQL error is a bug); the event store then raises :class:`StorageUnavailable`,
which the API answers ``503 storage/unavailable`` with ``Retry-After``. Nothing was written:
each save is one transaction, and the failed one was rolled back by the database.

Recovery is the store's own, without a restart (:class:`WriteHealth`): after a refused write
this process opens new SQLite connections (one opened while the file was read-only stays
read-only for good: SQLite decides when it opens the file), and the readiness probe reports
the refusal until a write or a write probe (:func:`probe_sqlite_writes`) succeeds again.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

from domain.errors import CodedError

#: SQLite's primary result codes that mean the database cannot be written (or read) now:
#: full, read-only, cannot be opened, an I/O error, busy or locked past the timeout, no
#: permission, a file too large, a locking protocol error.
SQLITE_REFUSALS = frozenset(
    {
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_NOLFS,
        sqlite3.SQLITE_PROTOCOL,
    }
)
#: The same, by message, for an error that carries no result code.
SQLITE_MESSAGES = (
    "database or disk is full",
    "readonly database",
    "unable to open database file",
    "disk i/o error",
    "database is locked",
)


class StorageUnavailable(CodedError):
    """The database did not answer or refused a write (:func:`storage_refusal`)."""

    code = "storage/unavailable"


def exception_chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and the exceptions it was raised from or while handling (eventsourcing wraps a
    driver's error in its own), each once."""
    seen: set[int] = set()
    found: BaseException | None = exc
    while found is not None and id(found) not in seen:
        seen.add(id(found))
        yield found
        found = found.__cause__ or found.__context__


def storage_refusal(exc: BaseException) -> str | None:
    """Why the database refused, when ``exc`` says it cannot serve now (a short reason that
    names no file, server or content), else ``None``."""
    for found in exception_chain(exc):
        if isinstance(found, StorageUnavailable):
            return found.message
        if isinstance(found, sqlite3.IntegrityError):
            return None  # a version taken by another writer: a conflict, not storage
        if isinstance(found, sqlite3.Error):
            code = getattr(found, "sqlite_errorcode", None)
            text = str(found).lower()
            if (code is not None and code & 0xFF in SQLITE_REFUSALS) or any(
                m in text for m in SQLITE_MESSAGES
            ):
                return str(found).split("\n", 1)[0][:100]
            return None
        reason = _postgres_refusal(found) or _pool_refusal(found)
        if reason is not None:
            return reason
    return None


def _pool_refusal(exc: BaseException) -> str | None:
    """eventsourcing's "no connection to be had in time" (its pool is exhausted)."""
    from eventsourcing.persistence import ConnectionUnavailableError

    if isinstance(exc, ConnectionUnavailableError):
        return "no database connection could be had in time"
    return None


def _postgres_refusal(exc: BaseException) -> str | None:
    """psycopg's and its pool's errors for a server that cannot serve now: a lost or refused
    connection, no connection to be had in time, a full disk, a read-only server, a shutdown."""
    module = type(exc).__module__
    if not module.startswith(("psycopg", "psycopg_pool")):
        return None
    import psycopg
    from psycopg import errors

    if isinstance(exc, psycopg.IntegrityError):
        return None
    refused = (
        psycopg.OperationalError,  # connection lost or refused, DiskFull, AdminShutdown, ...
        errors.ReadOnlySqlTransaction,
    )
    if isinstance(exc, refused):
        return f"the database server is unavailable ({type(exc).__name__})"
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # pragma: no cover - the pool is installed with eventsourcing[postgres]
        return None
    if isinstance(exc, PoolTimeout):
        return "no database connection could be had in time"
    return None


def renew_sqlite_connections(pool: Any) -> None:
    """Make eventsourcing's SQLite pool open new connections: idle ones are closed now, those
    in use when they are returned (a connection opened while the file was read-only can never
    write). Never for an in-memory database (its last connection is the database)."""
    if getattr(pool, "is_sqlite_memory_mode", True):
        return
    with pool._put_condition:
        idle = list(pool._pool)
        pool._pool.clear()
        busy = list(pool._in_use.values())
    for conn in busy:
        conn._closing.set()  # closed by put_connection instead of going back to the pool
    for conn in idle:
        conn.close()


def probe_sqlite_writes(db_name: str, timeout: float) -> None:
    """Write to the SQLite file at ``db_name`` on a new connection, changing nothing: the
    header's ``user_version`` is written with the value it has (a page written and committed,
    as an insert's would be). Raises what SQLite raises when it cannot."""
    conn = sqlite3.connect(db_name, timeout=timeout, isolation_level=None, uri=True)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute(f"PRAGMA user_version = {version}")
    finally:
        conn.close()


class WriteHealth:
    """Whether this process's last write was refused by storage, and why (``None``: it was
    not, or nothing has been written yet). A refused write sets it; a write or a write probe
    that succeeds clears it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.refused: str | None = None

    def failed(self, reason: str) -> None:
        with self._lock:
            self.refused = reason

    def succeeded(self) -> bool:
        """Forget a refusal; whether there was one (then storage has just recovered)."""
        if self.refused is None:
            return False
        with self._lock:
            was, self.refused = self.refused, None
        return was is not None
