"""The match-history store: the rows of the match-history projection and its tracking row.

:mod:`projections.history` folds a game's records into one row; :mod:`service.histories` keeps
the rows up to date from the notification log; this module is their storage adapter. Rows live in new tables of the GameLog's own database (the same SQLite file, or the same
PostgreSQL schema), next to a *tracking* row holding the id of the last notification folded in.
The rows and the tracking row are written in ONE transaction, so the view is always exactly "the
log up to notification *n*": it resumes after a restart, and :meth:`MatchHistory.rebuild` drops
it and folds the whole log again.

Why eventsourcing's tracking recorders and not its ``ProjectionRunner``: the view classes are
``SQLiteTrackingRecorder`` / ``PostgresTrackingRecorder`` / ``POPOTrackingRecorder`` subclasses
(eventsourcing 9.5, ``persistence.TrackingRecorder``): their tracking table, its single-row
upsert and ``max_tracking_id`` are used as they are, and our row writes go in the same
transaction as their ``_insert_tracking`` (the pattern of eventsourcing's materialised-view
examples). The runner, though, follows the log with a subscription thread, which the SQLite
recorder does not offer (``subscribe`` raises ``NotImplementedError``), and a thread per
gunicorn worker would still answer a request before catching up. So instead every history read
calls :meth:`MatchHistory.catch_up` first: read the notifications after the tracked position
(``recorder.select_notifications``), fold them, commit rows + tracking, and only then answer:
the answer always includes every game committed before the request.

Concurrent catch-ups (threads, processes) are safe: a catch-up reads the position and the rows
it needs without locks, then commits only if the tracking row, re-read and locked in its write
transaction (``UPDATE ... RETURNING``: a row lock in PostgreSQL, the write lock in SQLite), still
holds that position; otherwise it starts again from the new one. Rows at position *n* are a
function of *n*, so what was read is still exact when the position has not moved.

The tracking key is :data:`TRACKING_NAME` (not the application's name): SQLite's tracking table
is always called ``tracking``, so every tracking recorder in one file shares it.

A game the projection cannot fold (a stored event that does not decode, a missing version, an
event the fold refuses) is *skipped*: its row is deleted and a line in ``history_skipped``
(:class:`Skipped`: the game, the version, the reason, its event label if known) says so, in the
same transaction as the rows and the tracking row; the game's later events are skipped too.
:meth:`HistoryRecorder.skipped` lists them (``munchlog rebuild-projections`` prints them, the
event export names them); a rebuild after the rows are restored folds the game again.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypedDict, cast

from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.popo import POPOFactory, POPOTrackingRecorder

from adapters.pg_writer import ddl_lock
from projections.history import HistoryRow

if TYPE_CHECKING:
    from adapters.eventstore import EventStore

#: The tracking row's key (``application_name`` column). The ``-2`` is the projection's layout:
#: a new layout gets a new key, so its rows are rebuilt from the whole log on first use.
TRACKING_NAME = "GameLog/history-2"


class Skipped(TypedDict):
    """A game the projection left out: where (``version``, the notification ``seq``) and why
    (``reason``, as ``GET /verify`` names it, and ``detail``); ``event`` is its event label
    when the projection knew it."""

    game_id: str
    version: int
    reason: str
    detail: str
    seq: int
    event: str | None


#: ``{game_id: (seq, row)}``: what :meth:`HistoryRecorder.commit` writes.
Rows = Mapping[str, tuple[int, HistoryRow]]
Skips = Iterable[Skipped]


#: The tracking key and table-name suffix of the histories a rebuild folds beside the live
#: ones (:meth:`HistoryRecorder.beside`).
REBUILD_NAME = TRACKING_NAME + "/rebuild"
REBUILD_SUFFIX = "_next"
#: The tables of the view (their names in the live view).
TABLES = ("history_rows", "history_players", "history_skipped")


def tracking_at(position: int) -> Tracking:
    """The tracking row that says "folded up to notification ``position``"."""
    return Tracking(TRACKING_NAME, position)


class HistoryRecorder(TrackingRecorder, ABC):
    """The materialised view: history rows by game id, plus the tracking position."""

    #: The tracking row's key (:data:`TRACKING_NAME`; a rebuild's: :data:`REBUILD_NAME`).
    tracking_name = TRACKING_NAME

    def tracking(self, position: int) -> Tracking:
        """This view's tracking row at ``position``."""
        return Tracking(self.tracking_name, position)

    @abstractmethod
    def beside(self) -> HistoryRecorder:
        """An empty view of its own (tables and tracking row) in the same database, for a
        rebuild to fold into while this one is read (:meth:`replace_with`)."""

    @abstractmethod
    def replace_with(self, fresh: HistoryRecorder) -> None:
        """Put ``fresh`` (this view's :meth:`beside`) in this view's place, its rows and its
        position, in one transaction: a reader sees the old view or the new one, never an
        empty one. ``fresh`` is gone after."""

    @abstractmethod
    def position(self) -> int:
        """The id of the last notification folded in (0 before the first)."""

    @abstractmethod
    def rows(self, game_ids: Iterable[str]) -> dict[str, HistoryRow]:
        """The stored rows of these games (missing ones are left out)."""

    @abstractmethod
    def commit(self, expected: int, rows: Rows, tracking: Tracking, skipped: Skips = ()) -> bool:
        """Upsert ``{game_id: (seq, row)}``, record the ``skipped`` games (deleting their rows;
        a game's first skip is kept) and move the position to ``tracking``, atomically, if the
        position is still ``expected``; ``False`` (nothing written) otherwise. ``seq`` (the
        notification id of the game's first event) orders the games; it is kept from the
        first write."""

    @abstractmethod
    def skipped(
        self, game_ids: Iterable[str] | None = None, *, event: str | None = None
    ) -> list[Skipped]:
        """The games left out (:class:`Skipped`), in the order they were met: all, those of
        ``game_ids`` or those with this event label."""

    @abstractmethod
    def select(self, *, player: str | None = None, event: str | None = None) -> list[HistoryRow]:
        """Rows in creation order: all, a player's (any seat, case-insensitive) or an event's
        (``labels.event``)."""

    @abstractmethod
    def reset(self) -> None:
        """Delete every row and put the position back to 0, atomically."""


def _skipped(row: Any) -> Skipped:
    return {
        "game_id": str(row["game_id"]),
        "version": int(row["version"]),
        "reason": str(row["reason"]),
        "detail": str(row["detail"]),
        "seq": int(row["seq"]),
        "event": None if row["event"] is None else str(row["event"]),
    }


def _players(row: Mapping[str, Any]) -> list[str]:
    """The row's players, case-folded, once each (a player may hold two seats)."""
    return sorted({str(seat["player"]).casefold() for seat in row["seats"].values()})


class _SqlHistory(HistoryRecorder):
    """The SQL both back ends share. Two tables: ``history_rows`` (a game's row as JSON, its
    creation order ``seq``, its ``event`` label) and ``history_players`` (one line per player
    of a game, case-folded: a game has 2 to 6 seats). ``mark`` is the driver's placeholder;
    ``rows_table``, ``players_table`` and ``tracking_table`` are the quoted table names."""

    mark = "?"
    tracking_table = "tracking"
    #: ``""`` for the live view, :data:`REBUILD_SUFFIX` for a rebuild's
    suffix = ""
    #: ``(table, column)``: the indexes of the view
    indexes = (("history_rows", "seq"), ("history_rows", "event"), ("history_players", "player"))
    datastore: Any

    def table(self, base: str, suffix: str | None = None) -> str:
        """The SQL name of table ``base`` of this view (or of the view with ``suffix``)."""
        return base + (self.suffix if suffix is None else suffix)

    @property
    def rows_table(self) -> str:
        return self.table("history_rows")

    @property
    def players_table(self) -> str:
        return self.table("history_players")

    @property
    def skipped_table(self) -> str:
        return self.table("history_skipped")

    def _index(self, table: str, column: str, suffix: str | None = None) -> str:
        """An index's (unqualified) name in this view (or in the view with ``suffix``):
        ``history_rows_seq`` live, ``history_rows_next_seq`` in a rebuild's."""
        return f"{table}{self.suffix if suffix is None else suffix}_{column}"

    def create_statements(self) -> list[str]:
        return [
            f"CREATE TABLE IF NOT EXISTS {self.rows_table} (game_id TEXT PRIMARY KEY, "
            "seq BIGINT NOT NULL, created_at TEXT, event TEXT, row TEXT NOT NULL)",
            f"CREATE TABLE IF NOT EXISTS {self.players_table} (game_id TEXT NOT NULL, "
            "player TEXT NOT NULL, PRIMARY KEY (game_id, player))",
            *[
                f"CREATE INDEX IF NOT EXISTS {self._index(t, column)} ON {self.table(t)} ({column})"
                for t, column in self.indexes
            ],
            f"CREATE TABLE IF NOT EXISTS {self.skipped_table} (game_id TEXT PRIMARY KEY, "
            "version BIGINT NOT NULL, reason TEXT NOT NULL, detail TEXT NOT NULL, "
            "seq BIGINT NOT NULL, event TEXT)",
            # the first layout (player_a/player_b columns) is a projection: dropped, rebuilt
            f"DROP TABLE IF EXISTS {self.table('history_games', '')}",
        ]

    def _rename_indexes(self, c: Any, fresh: str) -> None:
        """In the switch's transaction: the indexes of the tables just renamed (from the view
        with suffix ``fresh``) take the live names."""
        raise NotImplementedError

    def replace_with(self, fresh: HistoryRecorder) -> None:
        assert isinstance(fresh, _SqlHistory) and fresh.suffix != self.suffix
        m = self.mark
        with self.datastore.transaction(commit=True) as c:
            self._locked_position(c)  # a catch-up of the live view waits for the switch
            c.execute(
                f"SELECT notification_id FROM {self.tracking_table} WHERE application_name = {m}",
                (fresh.tracking_name,),
            )
            found = c.fetchone()
            position = int(found[0] if not isinstance(found, Mapping) else found["notification_id"])
            for base in TABLES:
                c.execute(f"DROP TABLE IF EXISTS {self.table(base)}")
            for base in TABLES:
                c.execute(f"ALTER TABLE {fresh.table(base)} RENAME TO {base}{self.suffix}")
            self._rename_indexes(c, fresh.suffix)
            c.execute(
                f"UPDATE {self.tracking_table} SET notification_id = {m} "
                f"WHERE application_name = {m}",
                (position, self.tracking_name),
            )
            c.execute(
                f"DELETE FROM {self.tracking_table} WHERE application_name = {m}",
                (fresh.tracking_name,),
            )

    def _locked_position(self, c: Any) -> int:
        """The position, locked for the rest of the write transaction (-1 if none)."""
        raise NotImplementedError

    def position(self) -> int:
        return self.max_tracking_id(self.tracking_name) or 0

    def rows(self, game_ids: Iterable[str]) -> dict[str, HistoryRow]:
        ids = list(game_ids)
        out: dict[str, HistoryRow] = {}
        with self.datastore.transaction(commit=False) as c:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join([self.mark] * len(chunk))
                c.execute(
                    f"SELECT game_id, row FROM {self.rows_table} WHERE game_id IN ({marks})",
                    chunk,
                )
                out.update((r["game_id"], json.loads(r["row"])) for r in c.fetchall())
        return out

    def commit(self, expected: int, rows: Rows, tracking: Tracking, skipped: Skips = ()) -> bool:
        m = self.mark
        skips = list(skipped)
        with self.datastore.transaction(commit=True) as c:
            if self._locked_position(c) != expected:
                return False  # nothing was written
            if skips:
                c.executemany(
                    f"INSERT INTO {self.skipped_table} VALUES ({m}, {m}, {m}, {m}, {m}, {m}) "
                    "ON CONFLICT (game_id) DO NOTHING",
                    [
                        (k["game_id"], k["version"], k["reason"], k["detail"], k["seq"], k["event"])
                        for k in skips
                    ],
                )
                for table in (self.rows_table, self.players_table):
                    c.executemany(
                        f"DELETE FROM {table} WHERE game_id = {m}", [(k["game_id"],) for k in skips]
                    )
            if rows:
                c.executemany(
                    f"INSERT INTO {self.rows_table} VALUES ({m}, {m}, {m}, {m}, {m}) "
                    "ON CONFLICT (game_id) DO UPDATE SET created_at = excluded.created_at, "
                    "event = excluded.event, row = excluded.row",
                    [
                        (
                            gid,
                            seq,
                            str(row["created_at"]),
                            row["labels"].get("event"),
                            json.dumps(row, sort_keys=True, separators=(",", ":")),
                        )
                        for gid, (seq, row) in rows.items()
                    ],
                )
            players = [(gid, p) for gid, (_, row) in rows.items() for p in _players(row)]
            if players:
                c.executemany(
                    f"INSERT INTO {self.players_table} VALUES ({m}, {m}) "
                    "ON CONFLICT (game_id, player) DO NOTHING",
                    players,
                )
            self._insert_tracking(c, tracking)  # type: ignore[attr-defined]
        return True

    def select(self, *, player: str | None = None, event: str | None = None) -> list[HistoryRow]:
        sql, params = f"SELECT row FROM {self.rows_table}", []
        if player is not None:
            sql += (
                f" WHERE game_id IN (SELECT game_id FROM {self.players_table} "
                f"WHERE player = {self.mark})"
            )
            params.append(player.casefold())
        elif event is not None:
            sql += f" WHERE event = {self.mark}"
            params.append(event)
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql + " ORDER BY seq", params)
            return [json.loads(r["row"]) for r in c.fetchall()]

    def skipped(
        self, game_ids: Iterable[str] | None = None, *, event: str | None = None
    ) -> list[Skipped]:
        sql, params = f"SELECT * FROM {self.skipped_table}", []
        if game_ids is not None:
            params = list(game_ids)
            if not params:
                return []
            sql += f" WHERE game_id IN ({','.join([self.mark] * len(params))})"
        elif event is not None:
            sql += f" WHERE event = {self.mark}"
            params.append(event)
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql + " ORDER BY seq", params)
            return [_skipped(r) for r in c.fetchall()]

    def reset(self) -> None:
        with self.datastore.transaction(commit=True) as c:
            self._locked_position(c)
            c.execute(f"DELETE FROM {self.rows_table}")
            c.execute(f"DELETE FROM {self.players_table}")
            c.execute(f"DELETE FROM {self.skipped_table}")
            c.execute(
                f"UPDATE {self.tracking_table} SET notification_id = 0 "
                f"WHERE application_name = {self.mark}",
                (self.tracking_name,),
            )


# ---------------------------------------------------------------------------- SQLite


def _sqlite_recorder_class() -> type[HistoryRecorder]:
    from eventsourcing.sqlite import SQLiteTrackingRecorder

    class SQLiteHistoryRecorder(SQLiteTrackingRecorder, _SqlHistory):
        """History rows in the GameLog's SQLite file."""

        def __init__(self, datastore: Any, suffix: str = "") -> None:
            self.suffix = suffix
            self.tracking_name = REBUILD_NAME if suffix else TRACKING_NAME
            super().__init__(datastore)

        def construct_create_table_statements(self) -> list[str]:
            return [*super().construct_create_table_statements(), *self.create_statements()]

        def create_table(self) -> None:
            super().create_table()
            with self.datastore.transaction(commit=True) as c:
                c.execute("INSERT OR IGNORE INTO tracking VALUES (?, 0)", (self.tracking_name,))

        def beside(self) -> HistoryRecorder:
            fresh = SQLiteHistoryRecorder(self.datastore, REBUILD_SUFFIX)
            fresh.create_table()
            return fresh

        def _rename_indexes(self, c: Any, fresh: str) -> None:
            # SQLite cannot rename an index: made again under the live name
            for table, column in self.indexes:
                c.execute(f"DROP INDEX IF EXISTS {self._index(table, column, fresh)}")
                c.execute(
                    f"CREATE INDEX {self._index(table, column)} ON {self.table(table)} ({column})"
                )

        def _locked_position(self, c: Any) -> int:
            # An UPDATE takes SQLite's write lock: concurrent catch-ups serialise here.
            c.execute(
                "UPDATE tracking SET notification_id = notification_id "
                "WHERE application_name = ? RETURNING notification_id",
                (self.tracking_name,),
            )
            found = c.fetchone()
            return int(found[0]) if found is not None else -1

    return SQLiteHistoryRecorder


# ---------------------------------------------------------------------------- PostgreSQL


def _quoted(*names: str) -> str:
    return ".".join('"' + name.replace('"', '""') + '"' for name in names)


def _postgres_recorder_class() -> type[HistoryRecorder]:
    from eventsourcing.postgres import PostgresTrackingRecorder
    from psycopg.sql import SQL, Composed

    class PostgresHistoryRecorder(PostgresTrackingRecorder, _SqlHistory):
        """History rows in the GameLog's schema (tracking table ``history_tracking``)."""

        mark = "%s"

        def __init__(self, datastore: Any, suffix: str = "") -> None:
            self.suffix = suffix
            self.tracking_name = REBUILD_NAME if suffix else TRACKING_NAME
            super().__init__(datastore, tracking_table_name="history_tracking")
            self.tracking_table = _quoted(self.datastore.schema, self.tracking_table_name)
            self.sql_create_statements.extend(
                Composed([SQL(sql)]) for sql in self.create_statements()
            )

        def table(self, base: str, suffix: str | None = None) -> str:
            return _quoted(self.datastore.schema, _SqlHistory.table(self, base, suffix))

        def create_table(self) -> None:
            super().create_table()
            with self.datastore.transaction(commit=True) as curs:
                curs.execute(
                    f"INSERT INTO {self.tracking_table} VALUES (%s, 0) "
                    "ON CONFLICT (application_name) DO NOTHING",
                    (self.tracking_name,),
                )

        def beside(self) -> HistoryRecorder:
            fresh = PostgresHistoryRecorder(self.datastore, REBUILD_SUFFIX)
            fresh.create_table()
            return fresh

        def _rename_indexes(self, c: Any, fresh: str) -> None:
            schema = self.datastore.schema
            names = [(self._index(t, col, fresh), self._index(t, col)) for t, col in self.indexes]
            names += [(f"{t}{fresh}_pkey", f"{t}{self.suffix}_pkey") for t in TABLES]
            for old, new in names:
                c.execute(f"ALTER INDEX {_quoted(schema, old)} RENAME TO {_quoted(new)}")

        def _locked_position(self, c: Any) -> int:
            c.execute(
                f"SELECT notification_id FROM {self.tracking_table} "
                "WHERE application_name = %s FOR UPDATE",
                (self.tracking_name,),
            )
            found = c.fetchone()
            return int(found["notification_id"]) if found is not None else -1

    return PostgresHistoryRecorder


# ---------------------------------------------------------------------------- in memory


class POPOHistoryRecorder(POPOTrackingRecorder, HistoryRecorder):
    """History rows in memory, for a GameLog on eventsourcing's POPO store (unit tests)."""

    def __init__(self) -> None:
        super().__init__()
        self._rows: dict[str, tuple[int, HistoryRow]] = {}
        self._skipped: dict[str, Skipped] = {}

    def position(self) -> int:
        return self.max_tracking_id(TRACKING_NAME) or 0

    def rows(self, game_ids: Iterable[str]) -> dict[str, HistoryRow]:
        with self._database_lock:
            return {g: self._rows[g][1] for g in game_ids if g in self._rows}

    def commit(self, expected: int, rows: Rows, tracking: Tracking, skipped: Skips = ()) -> bool:
        with self._database_lock:
            if (self._max_tracking_ids[TRACKING_NAME] or 0) != expected:
                return False
            for gid, (seq, row) in rows.items():
                self._rows[gid] = (self._rows[gid][0] if gid in self._rows else seq, row)
            for skip in skipped:
                self._skipped.setdefault(skip["game_id"], skip)
                self._rows.pop(skip["game_id"], None)
            self._insert_tracking(tracking)
        return True

    def skipped(
        self, game_ids: Iterable[str] | None = None, *, event: str | None = None
    ) -> list[Skipped]:
        with self._database_lock:
            found = sorted(self._skipped.values(), key=lambda k: k["seq"])
        if game_ids is not None:
            wanted = set(game_ids)
            return [k for k in found if k["game_id"] in wanted]
        if event is not None:
            return [k for k in found if k["event"] == event]
        return found

    def select(self, *, player: str | None = None, event: str | None = None) -> list[HistoryRow]:
        with self._database_lock:
            ordered = [row for _, row in sorted(self._rows.values(), key=lambda x: x[0])]
        if player is not None:
            wanted = player.casefold()
            return [
                r
                for r in ordered
                if wanted in {s["player"].casefold() for s in r["seats"].values()}
            ]
        if event is not None:
            return [r for r in ordered if r["labels"].get("event") == event]
        return ordered

    def reset(self) -> None:
        with self._database_lock:
            self._rows.clear()
            self._skipped.clear()
            self._max_tracking_ids[TRACKING_NAME] = 0

    def beside(self) -> HistoryRecorder:
        return POPOHistoryRecorder()

    def replace_with(self, fresh: HistoryRecorder) -> None:
        assert isinstance(fresh, POPOHistoryRecorder)
        with self._database_lock, fresh._database_lock:
            self._rows, self._skipped = dict(fresh._rows), dict(fresh._skipped)
            self._max_tracking_ids[TRACKING_NAME] = fresh._max_tracking_ids[TRACKING_NAME] or 0


def history_recorder(app: EventStore) -> HistoryRecorder:
    """The history view for ``app``'s store, sharing its datastore (connections, schema)."""
    factory: Any = app.factory
    if isinstance(factory, POPOFactory):
        return POPOHistoryRecorder()
    module = type(factory).__module__
    cls: Any
    if module == "eventsourcing.sqlite":
        cls = _sqlite_recorder_class()
    elif module == "eventsourcing.postgres":
        cls = _postgres_recorder_class()
    else:
        raise TypeError(f"no history store for {module}")
    if not factory.datastore.single_row_tracking:
        raise TypeError("the history store needs eventsourcing's single-row tracking")
    recorder = cls(datastore=factory.datastore)
    # one creator at a time on PostgreSQL
    with ddl_lock(app.env, getattr(factory.datastore, "reachability", None)):
        recorder.create_table()
    return cast(HistoryRecorder, recorder)
