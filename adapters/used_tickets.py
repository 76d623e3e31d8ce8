"""The stream tickets already used, in the GameLog's own database (issue #36).

A stream ticket (``service.streams.Tickets``) is accepted **once**. Remembered in one stream
process's memory, a ticket used before a restart was accepted again after it, and one used at
one stream process was accepted at another beside it. So the nonces of used tickets live in a
table of the database every process shares (the same SQLite file, or the same PostgreSQL
schema): ``stream_tickets_used (nonce PRIMARY KEY, expires)``. Accepting a ticket is one
``INSERT ... ON CONFLICT DO NOTHING RETURNING``: it inserted a row, or the ticket was used before, in
whichever process. The same transaction deletes the rows of tickets that have expired (a
ticket lives 60 s): the table holds at most the tickets used in the last minute.

On eventsourcing's in-memory store (unit tests) the nonces are kept in this process
(:class:`UsedInMemory`), as before. The table is created on first use (on PostgreSQL under
munchlog's DDL lock: ``adapters.pg_writer.ddl_lock``); on SQLite the write queues on the
writer lock like every other.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from adapters.pg_writer import ddl_lock

if TYPE_CHECKING:
    from adapters.eventstore import EventStore

TABLE = "stream_tickets_used"


class UsedInMemory:
    """Used nonces in this process only (until they expire)."""

    def __init__(self) -> None:
        self._used: dict[str, int] = {}
        self._lock = threading.Lock()

    def claim(self, nonce: str, expires: int, now: float) -> bool:
        """``True`` the first time ``nonce`` is claimed before it expires."""
        with self._lock:
            for old in [n for n, until in self._used.items() if until < now]:
                del self._used[old]
            if nonce in self._used:
                return False
            self._used[nonce] = expires
            return True


class UsedInDatabase:
    """Used nonces in the store's database (see the module docstring)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.datastore: Any = store.recorder.datastore  # type: ignore[attr-defined]
        self.postgres = store.env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"
        self.mark = "%s" if self.postgres else "?"
        schema = getattr(self.datastore, "schema", "") if self.postgres else ""
        self.table = f'"{schema}".{TABLE}' if schema else TABLE
        self._created = False
        self._lock = threading.Lock()

    def _create(self) -> None:
        with self._lock:
            if self._created:
                return
            with (
                ddl_lock(self.store.env),
                self.store.writing(),
                self.datastore.transaction(commit=True) as c,
            ):
                c.execute(
                    f"CREATE TABLE IF NOT EXISTS {self.table} "
                    "(nonce TEXT PRIMARY KEY, expires BIGINT NOT NULL)"
                )
                c.execute(f"CREATE INDEX IF NOT EXISTS {TABLE}_expires ON {self.table} (expires)")
            self._created = True

    def claim(self, nonce: str, expires: int, now: float) -> bool:
        """``True`` if no process claimed ``nonce`` before (the expired ones forgotten)."""
        self._create()
        m = self.mark
        with self.store.writing(), self.datastore.transaction(commit=True) as c:
            c.execute(f"DELETE FROM {self.table} WHERE expires < {m}", (int(now),))
            c.execute(
                f"INSERT INTO {self.table} (nonce, expires) VALUES ({m}, {m}) "
                "ON CONFLICT (nonce) DO NOTHING RETURNING nonce",
                (nonce, int(expires)),
            )
            return c.fetchone() is not None  # a row inserted: the first use

    def count(self) -> int:
        """Rows held (for the tests: the table stays bounded)."""
        self._create()
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT COUNT(*) AS n FROM {self.table}")
            row = c.fetchone()
            return int(row["n"] if isinstance(row, dict) else row[0])


def used_tickets(store: EventStore) -> UsedInMemory | UsedInDatabase:
    """Where ``store``'s stream tickets are remembered once used."""
    module = store.env.get("PERSISTENCE_MODULE", "")
    if module in ("eventsourcing.sqlite", "eventsourcing.postgres"):
        return UsedInDatabase(store)
    return UsedInMemory()
