"""The readiness probe's questions to the database, each bounded by a timeout and not retried:
"is it there" (:func:`log_head`) and "does PostgreSQL take writes" (:func:`probe_postgres`).
:class:`adapters.eventstore.EventStore` asks them (``log_head``, ``ensure_writable``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from adapters.pg_writer import answer_within
from adapters.storage import StorageUnavailable

log = logging.getLogger(__name__)

#: Seconds the readiness probe waits for the database (:func:`log_head`).
PROBE_TIMEOUT = 2.0


def probe_postgres(recorder: Any, timeout: float) -> None:
    """The PostgreSQL server of ``recorder`` answers within ``timeout`` and takes writes (it is
    not a read-only standby or in a read-only transaction mode)."""
    with _bounded(recorder, timeout) as conn:
        row = conn.execute("SHOW transaction_read_only").fetchone()
    value = row["transaction_read_only"] if isinstance(row, Mapping) else row[0]
    if value != "off":
        raise StorageUnavailable("the database server is read-only")


def log_head(recorder: Any, postgres: bool, timeout: float = PROBE_TIMEOUT) -> int:
    """The log's head (its largest notification id; 0 when it is empty), read with one
    query that gives up after ``timeout`` seconds and is not retried: the readiness
    probe's "is the database there". :class:`StorageUnavailable` when it is not.

    eventsourcing retries a failed PostgreSQL read (10 times, 0.2 s apart) and waits for a
    pool connection up to ``POSTGRES_CONNECT_TIMEOUT`` (30 s): right for a request, too
    slow for a probe. This takes a connection from the same pool (waiting ``timeout`` at
    most) and bounds the query with ``statement_timeout`` (and the client's wait for a server
    that does not answer at all); while the pool's :class:`~adapters.pg_writer.Reachability`
    says the server cannot be reached it answers at once."""
    try:
        if not postgres:
            return int(recorder.max_notification_id() or 0)
        with _bounded(recorder, timeout) as conn:
            row = conn.execute(recorder.max_notification_id_statement).fetchone()
        return int(row["max"] or 0) if row is not None else 0
    except Exception as exc:
        log.debug("the store did not answer the probe", exc_info=True)
        raise StorageUnavailable(f"the database did not answer ({type(exc).__name__})") from exc


@contextmanager
def _bounded(recorder: Any, timeout: float) -> Iterator[Any]:
    """A connection of ``recorder``'s pool (waiting ``timeout`` at most) in a transaction whose
    statements and waits are bounded by ``timeout``; at once :class:`StorageUnavailable` while
    the server is known to be unreachable. A server that did not answer in time is noted as
    unreachable (the requests waiting behind it then fail at once)."""
    datastore = recorder.datastore
    reach = getattr(datastore, "reachability", None)
    if reach is not None:
        reach.check()
    pool = datastore.pool
    pool.open(wait=False)
    conn = None
    started = time.monotonic()
    try:
        with (
            pool.connection(timeout=timeout) as conn,
            answer_within(conn, timeout + 0.5),
            conn.transaction(),
        ):
            conn.execute(f"SET LOCAL statement_timeout = {max(1, int(timeout * 1000))}")
            yield conn
    except Exception as exc:
        if reach is not None:
            reach.note(exc, conn, time.monotonic() - started)
        raise
