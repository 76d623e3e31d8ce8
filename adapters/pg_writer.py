"""Group commit on PostgreSQL: the batches one process's threads queue up share a transaction.

eventsourcing's PostgreSQL recorder takes an ``EXCLUSIVE`` lock on the events table in every
transaction that inserts events, so that notification ids are committed in the order they are
issued (a reader tailing the notification log never skips an id that commits later). That
serialises every writer of every process and host: one transaction, and one WAL flush, at a
time -- and each round trip to the server while the lock is held also waits for this
process's GIL. :class:`PostgresGroupCommit` writes the batches that queued up in this process
while another was writing with *one* call of the recorder's own ``insert_events`` (its lock,
``NOTIFY`` and insert, pipelined: one round trip and one transaction for the group). If that
conflicts (a batch decided on a stale copy of its game: another writer took its version), each
batch is inserted again on its own, so only the conflicting one fails, with eventsourcing's
``IntegrityError`` (a ``RecordConflictError``). Each batch is still all or nothing.

The queueing and leader election are :class:`adapters.sqlite_writer.GroupCommit`'s; only the
lock (a thread lock: PostgreSQL's table lock orders the processes) and the write differ.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from adapters.game_cache import whole_setting
from adapters.sqlite_writer import GroupCommit, _Pending
from adapters.storage import StorageUnavailable, exception_chain

#: The advisory lock that serialises munchlog's table creation on a PostgreSQL server
#: ("munchlog" in ASCII, as a bigint).
DDL_LOCK_KEY = int.from_bytes(b"munchlog", "big") & 0x7FFF_FFFF_FFFF_FFFF


def ddl_lock(env: Mapping[str, str]) -> AbstractContextManager[None]:
    """Hold :data:`DDL_LOCK_KEY` while creating tables, on PostgreSQL (nothing elsewhere).

    ``CREATE TABLE IF NOT EXISTS`` is not safe against itself on PostgreSQL: two sessions that
    both find the table missing both create it, and the loser fails on the catalog's unique
    index (``pg_type_typname_nsp_index``). Every worker of every instance starting on an empty
    schema at once -- the usual first start -- would kill all but one. Creating the tables
    under a session advisory lock makes the others wait and then find them there.
    """
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        return nullcontext()
    return _advisory_lock(env)


#: Seconds a PostgreSQL connection may wait on the network (``MUNCHLOG_DB_NETWORK_TIMEOUT``).
NETWORK_TIMEOUT = 10


def network_settings(env: Mapping[str, str]) -> dict[str, int]:
    """libpq's settings that bound how long a connection waits on a network that stopped
    answering (docs/operations.md): ``connect_timeout`` for a new connection; for an open one,
    ``tcp_user_timeout`` (what was sent and not acknowledged) and TCP keepalives (a peer that
    acknowledged and went silent). Without them a read or a write sent into a partition waits
    for the kernel's retransmissions, about 15 minutes on Linux, and a new connection about
    2 (``bench/RESULTS.md``, "A PostgreSQL network outage"). ``MUNCHLOG_DB_NETWORK_TIMEOUT``
    (seconds, default :data:`NETWORK_TIMEOUT`; 0: the system's) sets them; a healthy server
    acknowledges at once and answers keepalives however long a query runs.

    >>> network_settings({"MUNCHLOG_DB_NETWORK_TIMEOUT": "6"})["tcp_user_timeout"]
    6000
    >>> network_settings({"MUNCHLOG_DB_NETWORK_TIMEOUT": "0"})
    {}
    """
    seconds = whole_setting("MUNCHLOG_DB_NETWORK_TIMEOUT", NETWORK_TIMEOUT, env)
    if not seconds:
        return {}
    probe = max(1, seconds // 3)
    return {
        "connect_timeout": max(2, seconds),  # libpq reads below 2 as 2
        "tcp_user_timeout": seconds * 1000,
        "keepalives": 1,
        "keepalives_idle": probe,
        "keepalives_interval": probe,
        "keepalives_count": 2,
    }


#: Seconds a pool waits for a connection (eventsourcing's ``POSTGRES_CONNECT_TIMEOUT``; its
#: own default, 30, times its 10 attempts a read, kept a request waiting 5 minutes).
POOL_WAIT = 5
#: Seconds reads and writes fail at once after PostgreSQL could not be reached.
UNREACHABLE_FOR = 5.0


class Reachability:
    """Fail fast while PostgreSQL is unreachable (docs/operations.md).

    When a connection could not be had (the pool's wait ran out: no new connection could be
    made) or one broke mid-query (the network bounds of :func:`network_settings` ran out),
    every use of the pool for the next :data:`UNREACHABLE_FOR` seconds raises
    :class:`~adapters.storage.StorageUnavailable` at once (the API's ``503
    storage/unavailable`` with ``Retry-After``) instead of waiting on the pool again, and
    eventsourcing does not retry it (it retries only the driver's errors); the first use after
    that tries the database again. Without it every request of an outage waited its own
    timeouts (eventsourcing tries a read 10 times), and the workers' threads with it."""

    def __init__(self, pause: float | None = None, clock: Any = time.monotonic) -> None:
        self.pause = UNREACHABLE_FOR if pause is None else pause
        self.clock = clock
        self.until = 0.0

    def check(self) -> None:
        if self.until and self.clock() < self.until:
            raise StorageUnavailable("the database could not be reached a moment ago")

    def failed(self) -> None:
        self.until = self.clock() + self.pause

    def guard(self, datastore: Any) -> None:
        """Put the check around ``datastore.get_connection`` (eventsourcing's
        ``PostgresDatastore``: every read, write and subscription takes its connection there)."""
        taking = datastore.get_connection
        reach = self

        @contextmanager
        def get_connection(*args: Any, **kwargs: Any) -> Iterator[Any]:
            reach.check()
            conn = None
            started = reach.clock()
            try:
                with taking(*args, **kwargs) as conn:
                    yield conn
            except Exception as exc:
                if _unreachable(exc, conn, reach.clock() - started):
                    reach.failed()
                raise
            reach.until = 0.0

        datastore.get_connection = get_connection


#: Seconds after which a connection that broke is taken for a network that stopped answering
#: (one the server closed, after a restart say, breaks at once: eventsourcing tries again on
#: another connection, and the pool replaces it).
SLOW_BREAK = 1.0


def _unreachable(exc: BaseException, conn: Any, seconds: float) -> bool:
    """Whether ``exc``, after ``seconds``, says the server could not be reached: the pool's
    wait ran out, or the connection broke after waiting on the network (not one the server
    closed, an SQL error, a conflict or a statement's own timeout)."""
    from psycopg_pool import PoolTimeout

    # eventsourcing raises its own error from the driver's
    if any(isinstance(found, PoolTimeout) for found in exception_chain(exc)):
        return True
    broken = conn is not None and bool(getattr(conn, "broken", False))
    return broken and seconds >= SLOW_BREAK


def prepare_outage_env(env: Any) -> Any:
    """eventsourcing's settings before its factory is made: on PostgreSQL the pool's wait
    :data:`POOL_WAIT` seconds unless ``POSTGRES_CONNECT_TIMEOUT`` is set."""
    if env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
        env.setdefault("POSTGRES_CONNECT_TIMEOUT", str(POOL_WAIT))
    return env


def bounded_on_outage(factory: Any, env: Any) -> Any:
    """eventsourcing's ``factory``, on PostgreSQL its pool's connections bounded on a network
    that stops answering (:func:`network_settings`, set before the pool opens its first one)
    and its uses failing fast for a while after the server could not be reached
    (:class:`Reachability`); as it is elsewhere."""
    datastore = getattr(factory, "datastore", None)
    pool: Any = getattr(datastore, "pool", None)
    if isinstance(getattr(pool, "kwargs", None), dict):
        pool.kwargs.update(network_settings(dict(env)))
        Reachability().guard(datastore)
    return factory


@contextmanager
def _advisory_lock(env: Mapping[str, str]) -> Iterator[None]:
    import psycopg

    settings: dict[str, Any] = {
        "dbname": env.get("POSTGRES_DBNAME") or "postgres",
        "host": env.get("POSTGRES_HOST") or "127.0.0.1",
        "port": int(env.get("POSTGRES_PORT") or 5432),
        "user": env.get("POSTGRES_USER") or None,
        "password": env.get("POSTGRES_PASSWORD") or None,
        "connect_timeout": int(float(env.get("POSTGRES_CONNECT_TIMEOUT") or 30)),
    }
    with psycopg.connect(autocommit=True, **(settings | network_settings(env))) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (DDL_LOCK_KEY,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (DDL_LOCK_KEY,))


class ThreadLock:
    """A ``threading.Lock`` used as ``with lock():``, like :class:`WriterLock`; a forked child
    gets a new one (the parent's may be held by a thread the child does not have)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            yield

    def _forget_parent(self) -> None:
        self._lock = threading.Lock()


class PostgresGroupCommit(GroupCommit):
    """Group commit for one process on eventsourcing's PostgreSQL application recorder."""

    def __init__(self, recorder: Any) -> None:
        super().__init__(ThreadLock(), recorder)  # type: ignore[arg-type]

    def _connection(self) -> Any:
        return None  # each group takes a pooled connection (see _write)

    def _forget_parent(self) -> None:
        super()._forget_parent()
        assert isinstance(self.lock, ThreadLock)
        self.lock._forget_parent()

    def close(self) -> None:
        """Nothing of its own to close: the connections are the recorder's pool's."""

    def _conflict_errors(self) -> tuple[type[BaseException], ...]:
        """What the insert raises when a batch's version is taken (the datastore translates
        psycopg's ``UniqueViolation``)."""
        from eventsourcing.persistence import IntegrityError

        return (IntegrityError,)

    def _insert_together(self, conn: Any, group: list[_Pending]) -> None:
        """One round trip: the recorder's lock statements, its ``NOTIFY`` and one ``INSERT ...
        RETURNING notification_id`` for every event of ``group``, sent as one multi-statement
        query (client-side bound), which PostgreSQL runs as one implicit transaction: the table
        lock is released by the server's commit, without waiting for this process to read a
        reply and get its GIL back."""
        import psycopg
        from psycopg import sql

        recorder = self.recorder
        stored = [event for pending in group for event in pending.stored]
        table = sql.SQL("{}.{}").format(
            sql.Identifier(recorder.datastore.schema), sql.Identifier(recorder.events_table_name)
        )
        query = sql.SQL("; ").join(
            [
                *recorder.lock_table_statements,
                sql.SQL("NOTIFY {}").format(sql.Identifier(recorder.channel_name)),
                sql.SQL(
                    "INSERT INTO {} (originator_id, originator_version, topic, state) VALUES {} "
                    "RETURNING notification_id"
                ).format(table, sql.SQL(", ").join([sql.SQL("(%s, %s, %s, %s)")] * len(stored))),
            ]
        )
        params = [
            x for e in stored for x in (e.originator_id, e.originator_version, e.topic, e.state)
        ]
        with recorder.datastore.get_connection() as conn:
            cursor = psycopg.ClientCursor(conn)
            cursor.execute(query, params)
            while cursor.nextset():
                pass
            ids = [row["notification_id"] for row in cursor.fetchall()]
        assert len(ids) == len(stored), "one notification id per event"
        start = 0
        for pending in group:
            pending.ids = ids[start : start + len(pending.stored)]
            start += len(pending.stored)
