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

Also here: what bounds a use of PostgreSQL when the server or the network stops answering
(:func:`bounded_on_outage`: :func:`network_settings`, :func:`query_timeout`,
:class:`Reachability`; docs/operations.md, "A database that hangs, and its return").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from functools import cache
from typing import Any

from adapters.game_cache import whole_setting
from adapters.sqlite_writer import GroupCommit, _Pending
from adapters.storage import StorageUnavailable, exception_chain

#: The advisory lock that serialises munchlog's table creation on a PostgreSQL server
#: ("munchlog" in ASCII, as a bigint).
DDL_LOCK_KEY = int.from_bytes(b"munchlog", "big") & 0x7FFF_FFFF_FFFF_FFFF


def ddl_lock(env: Mapping[str, str], reach: Any = None) -> AbstractContextManager[None]:
    """Hold :data:`DDL_LOCK_KEY` while creating tables, on PostgreSQL (nothing elsewhere).

    ``CREATE TABLE IF NOT EXISTS`` is not safe against itself on PostgreSQL: two sessions that
    both find the table missing both create it, and the loser fails on the catalog's unique
    index (``pg_type_typname_nsp_index``). Every worker of every instance starting on an empty
    schema at once -- the usual first start -- would kill all but one. Creating the tables
    under a session advisory lock makes the others wait and then find them there.

    Its connection waits at most :data:`POOL_WAIT` seconds for the server; with the pool's
    :class:`Reachability` (``reach``: tables made while serving, the match histories' on their
    first read) it is not tried while the server is known to be unreachable, and a server that
    could not be reached is noted there.
    """
    if env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        return nullcontext()
    return _advisory_lock(env, reach)


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


#: Seconds a statement may run (``MUNCHLOG_DB_QUERY_TIMEOUT``): PostgreSQL's
#: ``statement_timeout`` and ``lock_timeout`` on munchlog's connections, SQLite's busy timeout
#: less one second (:func:`query_timeout`).
QUERY_TIMEOUT = 3
#: Seconds the client waits beyond :data:`QUERY_TIMEOUT` for a server that does not answer at
#: all (a stopped server, a proxy that forwards nothing: nothing cancels the statement there).
SILENCE_MARGIN = 1.0
#: Seconds a pool waits for a connection (eventsourcing's ``POSTGRES_CONNECT_TIMEOUT``; its
#: own default, 30, times its 10 attempts a read, kept a request waiting 5 minutes).
POOL_WAIT = 4
#: Seconds the pool keeps trying to replace a connection that broke before it gives up (psycopg
#: pool's ``reconnect_timeout``, 5 minutes by default, between tries that double from 1 s: after
#: an outage the pool came back only at its next try, up to 12 s later). It tries again as soon
#: as a request needs a connection.
RECONNECT_TIMEOUT = 0.5
#: Seconds between two tries of a PostgreSQL that could not be reached (:class:`Reachability`).
PROBE_EVERY = 0.2
#: libpq's ``connect_timeout`` of each try (its least): a try into a network that drops packets
#: gives up and a new one starts, so the server's return is seen within about this long.
PROBE_CONNECT_TIMEOUT = 2


def query_timeout(env: Mapping[str, str]) -> int:
    """``MUNCHLOG_DB_QUERY_TIMEOUT`` (seconds; default :data:`QUERY_TIMEOUT`; 0: no bound).

    >>> query_timeout({"MUNCHLOG_DB_QUERY_TIMEOUT": "7"})
    7
    """
    return whole_setting("MUNCHLOG_DB_QUERY_TIMEOUT", QUERY_TIMEOUT, env)


class DatabaseSilent(Exception):
    """Marks a driver error raised because the server did not answer within its bound (the
    connection is closed: what it was doing is unknown)."""


@cache
def _silent_class() -> type[Exception]:
    """The driver's ``OperationalError`` (which eventsourcing wraps in its own) that is also a
    :class:`DatabaseSilent`."""
    import psycopg

    class Silent(psycopg.OperationalError, DatabaseSilent):
        pass

    return Silent


def _silent_error(seconds: float) -> Exception:
    return _silent_class()(f"the database did not answer within {seconds:g} s")


def bounded_connection_class(base: Any, seconds: float) -> Any:
    """``base`` (a psycopg ``Connection`` class) whose every wait on the server without a bound
    of its own (a statement, a commit, a rollback, a fetch; not ``notifies``, which has its
    own) gives up after ``seconds``: the connection is closed and the error is a
    :class:`DatabaseSilent`. ``statement_timeout`` is the server's and cancels a slow
    statement; this catches a server that does not answer at all (stopped, or behind a proxy
    that forwards nothing), which keepalives do not: its kernel still acknowledges."""
    from psycopg import errors

    wait_timeout: Any = getattr(errors, "_WaitTimeout", errors.OperationalError)

    class BoundedConnection(base):
        #: seconds (``None``: unbounded); :func:`answer_within` sets it for one use
        bound: float | None = seconds

        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            limit = self.bound
            if timeout is not None or not limit:
                return super().wait(gen, interval, timeout)
            try:
                return super().wait(gen, interval, limit)
            except wait_timeout:
                self.pgconn.finish()  # mid-protocol: the connection cannot be used again
                raise _silent_error(limit) from None

    return BoundedConnection


@contextmanager
def answer_within(conn: Any, seconds: float) -> Iterator[Any]:
    """Bound ``conn``'s waits by ``seconds`` for the block (a connection of
    :func:`bounded_connection_class`; others are left as they are)."""
    if not hasattr(conn, "bound"):
        yield conn
        return
    before = conn.bound
    conn.bound = seconds
    try:
        yield conn
    finally:
        conn.bound = before


def session_options(env: Mapping[str, str], seconds: int) -> str:
    """libpq's ``options`` for munchlog's connections: ``PGOPTIONS`` (which an ``options``
    setting would otherwise replace), then ``statement_timeout`` and ``lock_timeout``."""
    import os

    given = env.get("PGOPTIONS") or os.environ.get("PGOPTIONS") or ""
    ms = seconds * 1000
    return f"{given} -c statement_timeout={ms} -c lock_timeout={ms}".strip()


class Reachability:
    """Fail fast while PostgreSQL is unreachable or not answering, and notice its return at once
    (docs/operations.md, "A database that hangs").

    When a connection could not be had (the pool's wait ran out), one broke mid-query after
    waiting on the network (the bounds of :func:`network_settings`), or the server did not
    answer a statement in time (:class:`DatabaseSilent`), every use of the pool raises
    :class:`~adapters.storage.StorageUnavailable` at once (the API's ``503
    storage/unavailable`` with ``Retry-After``; eventsourcing does not retry it, only the
    driver's errors) until a background thread's ``probe`` (a new connection and ``SELECT 1``,
    tried every :data:`PROBE_EVERY` seconds) succeeds; then ``recovered`` (the pool's broken
    connections dropped, new ones made) and the pool is used again. Without it every request
    of an outage waited its own timeouts (eventsourcing tries a read 10 times) and held a
    worker's thread; and with a fixed pause the database's return was noticed up to 5 s late.
    """

    def __init__(
        self,
        probe: Callable[[], object],
        *,
        recovered: Callable[[], object] | None = None,
        gone: Callable[[], bool] | None = None,
        every: float = PROBE_EVERY,
    ) -> None:
        self.probe = probe
        self.recovered = recovered
        self.gone = gone or (lambda: False)
        self.every = every
        self.down = False
        self._lock = threading.Lock()
        self._prober: threading.Thread | None = None

    def check(self) -> None:
        if self.down:
            raise StorageUnavailable("the database could not be reached a moment ago")

    def failed(self) -> None:
        """The database could not be reached: fail fast until the probe reaches it."""
        with self._lock:
            self.down = True
            if self._prober is None or not self._prober.is_alive():
                self._prober = threading.Thread(
                    target=self._probe_until_back, name="munchlog-db-probe", daemon=True
                )
                self._prober.start()

    def _probe_until_back(self) -> None:
        while not self.gone():
            started = time.monotonic()
            try:
                self.probe()
            except Exception:
                time.sleep(max(0.0, self.every - (time.monotonic() - started)))
                continue
            if self.recovered is not None:
                with suppress(Exception):
                    self.recovered()
            break
        with self._lock:
            self.down = False
            self._prober = None

    def note(self, exc: BaseException, conn: Any, seconds: float) -> BaseException | None:
        """After a use of the pool failed with ``exc``: mark the database unreachable if it is
        (:func:`_unreachable`); what to raise instead of ``exc``, if anything: a statement
        cancelled by its timeout is :class:`StorageUnavailable` (not tried again)."""
        if _unreachable(exc, conn, seconds):
            self.failed()
            return None
        if _timed_out(exc):
            return StorageUnavailable("the database did not answer in time")
        return None

    def guard(self, datastore: Any) -> None:
        """Put the check around ``datastore.get_connection`` (eventsourcing's
        ``PostgresDatastore``: every read, write and subscription takes its connection there);
        the datastore keeps it as ``reachability`` (the readiness probe asks it too)."""
        taking = datastore.get_connection
        reach = self

        @contextmanager
        def get_connection(*args: Any, **kwargs: Any) -> Iterator[Any]:
            reach.check()
            conn = None
            started = time.monotonic()
            try:
                with taking(*args, **kwargs) as conn:
                    yield conn
            except Exception as exc:
                instead = reach.note(exc, conn, time.monotonic() - started)
                if instead is not None:
                    raise instead from exc
                raise

        datastore.get_connection = get_connection
        datastore.reachability = self


#: Seconds after which a connection that broke is taken for a network that stopped answering
#: (one the server closed, after a restart say, breaks at once: eventsourcing tries again on
#: another connection, and the pool replaces it).
SLOW_BREAK = 1.0


def _unreachable(exc: BaseException, conn: Any, seconds: float) -> bool:
    """Whether ``exc``, after ``seconds``, says the server could not be reached: the pool's
    wait or a new connection's ran out, the server did not answer in time
    (:class:`DatabaseSilent`), or the
    connection broke after waiting on the network (not one the server closed, an SQL error, a
    conflict or a statement's own timeout)."""
    from psycopg.errors import ConnectionTimeout
    from psycopg_pool import PoolTimeout

    # eventsourcing raises its own error from the driver's
    waited = (PoolTimeout, DatabaseSilent, ConnectionTimeout)
    if any(isinstance(found, waited) for found in exception_chain(exc)):
        return True
    broken = conn is not None and bool(getattr(conn, "broken", False))
    return broken and seconds >= SLOW_BREAK


def _timed_out(exc: BaseException) -> bool:
    """Whether ``exc`` is the server cancelling a statement at ``statement_timeout`` or a lock
    wait at ``lock_timeout``."""
    from psycopg import errors

    cancelled = (errors.QueryCanceled, errors.LockNotAvailable)
    return any(isinstance(found, cancelled) for found in exception_chain(exc))


#: SQLite's busy timeout (seconds) when ``MUNCHLOG_DB_QUERY_TIMEOUT`` is 0.
SQLITE_UNBOUNDED_BUSY = 30


def prepare_outage_env(env: Any) -> Any:
    """eventsourcing's settings before its factory is made, unless set: on PostgreSQL the
    pool's wait :data:`POOL_WAIT` seconds and the insert's lock wait (``POSTGRES_LOCK_TIMEOUT``,
    which eventsourcing sets in each insert's transaction: 0, no bound, by default)
    :func:`query_timeout`; on SQLite the busy timeout (``SQLITE_LOCK_TIMEOUT``: how long a
    writer waits for a lock another holds, a backup or a ``sqlite3`` shell in a transaction, say)
    one second less than :func:`query_timeout`, at least 1: the two workers' writers may each
    wait it out in turn."""
    seconds = query_timeout(env)
    if env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
        env.setdefault("POSTGRES_CONNECT_TIMEOUT", str(POOL_WAIT))
        env.setdefault("POSTGRES_LOCK_TIMEOUT", str(seconds))
    elif env.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
        busy = max(1, seconds - 1) if seconds else SQLITE_UNBOUNDED_BUSY
        env.setdefault("SQLITE_LOCK_TIMEOUT", str(busy))
    return env


def bounded_on_outage(factory: Any, env: Any) -> Any:
    """eventsourcing's ``factory``, on PostgreSQL its pool's connections bounded on a network
    that stops answering (:func:`network_settings`, set before the pool opens its first one)
    and on a server that does not answer (``statement_timeout``, ``lock_timeout`` and the
    client's own bound: :func:`query_timeout`), its uses failing fast while the server cannot
    be reached and its broken connections replaced as soon as it is back
    (:class:`Reachability`); as it is elsewhere."""
    datastore = getattr(factory, "datastore", None)
    pool: Any = getattr(datastore, "pool", None)
    if isinstance(getattr(pool, "kwargs", None), dict):
        settings = dict(env)
        pool.kwargs.update(network_settings(settings))
        seconds = query_timeout(settings)
        if seconds:
            pool.kwargs["options"] = session_options(settings, seconds)
            pool.connection_class = bounded_connection_class(
                pool.connection_class, seconds + SILENCE_MARGIN
            )
        pool.reconnect_timeout = RECONNECT_TIMEOUT
        Reachability(
            lambda: _probe(pool),
            recovered=pool.check,
            gone=lambda: bool(getattr(pool, "closed", False)),
        ).guard(datastore)
    return factory


def _probe(pool: Any) -> None:
    """A new connection to the pool's server answers ``SELECT 1`` (bounded as the pool's are,
    each try's connection at most :data:`PROBE_CONNECT_TIMEOUT` seconds)."""
    kwargs = dict(pool.kwargs)
    kwargs["connect_timeout"] = PROBE_CONNECT_TIMEOUT
    with pool.connection_class.connect(pool.conninfo, autocommit=True, **kwargs) as conn:
        conn.execute("SELECT 1")


@contextmanager
def _advisory_lock(env: Mapping[str, str], reach: Reachability | None) -> Iterator[None]:
    import psycopg

    if reach is not None:
        reach.check()
    settings: dict[str, Any] = {
        "dbname": env.get("POSTGRES_DBNAME") or "postgres",
        "host": env.get("POSTGRES_HOST") or "127.0.0.1",
        "port": int(env.get("POSTGRES_PORT") or 5432),
        "user": env.get("POSTGRES_USER") or None,
        "password": env.get("POSTGRES_PASSWORD") or None,
    }
    wait = int(float(env.get("POSTGRES_CONNECT_TIMEOUT") or POOL_WAIT))
    started = time.monotonic()
    try:
        conn = psycopg.connect(
            autocommit=True, **(settings | network_settings(env) | {"connect_timeout": wait})
        )
    except Exception as exc:
        if reach is not None:
            reach.note(exc, None, time.monotonic() - started)
        raise
    with conn:
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
