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
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from adapters.sqlite_writer import GroupCommit, _Pending

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


@contextmanager
def _advisory_lock(env: Mapping[str, str]) -> Iterator[None]:
    import psycopg

    with psycopg.connect(
        dbname=env.get("POSTGRES_DBNAME") or "postgres",
        host=env.get("POSTGRES_HOST") or "127.0.0.1",
        port=int(env.get("POSTGRES_PORT") or 5432),
        user=env.get("POSTGRES_USER") or None,
        password=env.get("POSTGRES_PASSWORD") or None,
        autocommit=True,
        connect_timeout=int(float(env.get("POSTGRES_CONNECT_TIMEOUT") or 30)),
    ) as conn:
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
