"""The match-history store: history rows kept up to date from the GameLog's notification log.

:mod:`projections.history` folds a game's records into one row; this module is its storage
adapter (the read side's only module with I/O, as ``domain/application.py`` is the write
side's). Rows live in new tables of the GameLog's own database (the same SQLite file, or the same
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
"""

from __future__ import annotations

import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder, Tracking, TrackingRecorder
from eventsourcing.popo import POPOFactory, POPOTrackingRecorder
from eventsourcing.utils import get_topic

from domain.application import GameNotFoundError
from domain.envelope import Record, record_from
from domain.game import Game, stored_record
from projections.history import HistoryRow, fold_history, hero_totals, player_games, totals

if TYPE_CHECKING:
    from domain.application import GameLog

#: The tracking row's key (``application_name`` column).
TRACKING_NAME = "GameLog/history"
#: Notifications folded per transaction.
BATCH_SIZE = 500
GAME_TOPICS = [get_topic(Game.Opened), get_topic(Game.Recorded)]

Progress = Callable[[int, int], None]
"""``progress(done, total)``: notifications folded so far, of how many (at the start)."""


class HistoryRecorder(TrackingRecorder, ABC):
    """The materialised view: history rows by game id, plus the tracking position."""

    @abstractmethod
    def position(self) -> int:
        """The id of the last notification folded in (0 before the first)."""

    @abstractmethod
    def rows(self, game_ids: Iterable[str]) -> dict[str, HistoryRow]:
        """The stored rows of these games (missing ones are left out)."""

    @abstractmethod
    def commit(
        self, expected: int, rows: Mapping[str, tuple[int, HistoryRow]], tracking: Tracking
    ) -> bool:
        """Upsert ``{game_id: (seq, row)}`` and move the position to ``tracking``, atomically,
        if the position is still ``expected``; ``False`` (nothing written) otherwise. ``seq``
        (the notification id of the game's first event) orders the games; it is kept from the
        first write."""

    @abstractmethod
    def select(self, *, player: str | None = None, event: str | None = None) -> list[HistoryRow]:
        """Rows in creation order: all, a player's (either seat, case-insensitive) or an
        event's (``labels.event``)."""

    @abstractmethod
    def reset(self) -> None:
        """Delete every row and put the position back to 0, atomically."""


def _columns(row: Mapping[str, Any]) -> tuple[str, str | None, str, str, str]:
    label = row["labels"].get("event")
    return (
        str(row["created_at"]),
        None if label is None else str(label),
        str(row["seats"]["A"]["player"]).casefold(),
        str(row["seats"]["B"]["player"]).casefold(),
        json.dumps(row, sort_keys=True, separators=(",", ":")),
    )


# ---------------------------------------------------------------------------- SQLite


def _sqlite_recorder_class() -> type[HistoryRecorder]:
    from eventsourcing.sqlite import SQLiteCursor, SQLiteTrackingRecorder

    class SQLiteHistoryRecorder(SQLiteTrackingRecorder, HistoryRecorder):
        """History rows in the GameLog's SQLite file (table ``history_games``)."""

        def construct_create_table_statements(self) -> list[str]:
            return [
                *super().construct_create_table_statements(),
                "CREATE TABLE IF NOT EXISTS history_games (game_id TEXT PRIMARY KEY, "
                "seq INTEGER NOT NULL, created_at TEXT, event TEXT, player_a TEXT, "
                "player_b TEXT, row TEXT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS history_games_seq ON history_games (seq)",
                "CREATE INDEX IF NOT EXISTS history_games_event ON history_games (event)",
                "CREATE INDEX IF NOT EXISTS history_games_a ON history_games (player_a)",
                "CREATE INDEX IF NOT EXISTS history_games_b ON history_games (player_b)",
            ]

        def create_table(self) -> None:
            super().create_table()
            with self.datastore.transaction(commit=True) as c:
                c.execute("INSERT OR IGNORE INTO tracking VALUES (?, 0)", (TRACKING_NAME,))

        def position(self) -> int:
            return self.max_tracking_id(TRACKING_NAME) or 0

        def rows(self, game_ids: Iterable[str]) -> dict[str, HistoryRow]:
            ids = list(game_ids)
            out: dict[str, HistoryRow] = {}
            with self.datastore.transaction(commit=False) as c:
                for start in range(0, len(ids), 500):
                    chunk = ids[start : start + 500]
                    marks = ",".join("?" * len(chunk))
                    c.execute(
                        f"SELECT game_id, row FROM history_games WHERE game_id IN ({marks})",
                        chunk,
                    )
                    out.update((r["game_id"], json.loads(r["row"])) for r in c.fetchall())
            return out

        def commit(
            self, expected: int, rows: Mapping[str, tuple[int, HistoryRow]], tracking: Tracking
        ) -> bool:
            with self.datastore.transaction(commit=True) as c:
                if self._locked_position(c) != expected:
                    return False  # nothing was written
                c.executemany(
                    "INSERT INTO history_games VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET created_at = excluded.created_at, "
                    "event = excluded.event, player_a = excluded.player_a, "
                    "player_b = excluded.player_b, row = excluded.row",
                    [(gid, seq, *_columns(row)) for gid, (seq, row) in rows.items()],
                )
                self._insert_tracking(c, tracking)
            return True

        @staticmethod
        def _locked_position(c: SQLiteCursor) -> int:
            c.execute(
                "UPDATE tracking SET notification_id = notification_id "
                "WHERE application_name = ? RETURNING notification_id",
                (TRACKING_NAME,),
            )
            found = c.fetchone()
            return int(found[0]) if found is not None else -1

        def select(
            self, *, player: str | None = None, event: str | None = None
        ) -> list[HistoryRow]:
            sql, params = "SELECT row FROM history_games", []
            if player is not None:
                sql += " WHERE (player_a = ? OR player_b = ?)"
                params += [player.casefold()] * 2
            elif event is not None:
                sql += " WHERE event = ?"
                params.append(event)
            with self.datastore.transaction(commit=False) as c:
                c.execute(sql + " ORDER BY seq", params)
                return [json.loads(r["row"]) for r in c.fetchall()]

        def reset(self) -> None:
            with self.datastore.transaction(commit=True) as c:
                self._locked_position(c)
                c.execute("DELETE FROM history_games")
                c.execute(
                    "UPDATE tracking SET notification_id = 0 WHERE application_name = ?",
                    (TRACKING_NAME,),
                )

    return SQLiteHistoryRecorder


# ---------------------------------------------------------------------------- PostgreSQL


def _postgres_recorder_class() -> type[HistoryRecorder]:
    from eventsourcing.postgres import PostgresTrackingRecorder
    from psycopg import Cursor
    from psycopg.sql import SQL, Identifier

    class PostgresHistoryRecorder(PostgresTrackingRecorder, HistoryRecorder):
        """History rows in the GameLog's schema (tables ``history_games``, ``history_tracking``)."""

        def __init__(self, datastore: Any) -> None:
            super().__init__(datastore, tracking_table_name="history_tracking")
            schema = Identifier(self.datastore.schema)
            self.games = SQL("{0}.{1}").format(schema, Identifier("history_games"))
            self.tracking = SQL("{0}.{1}").format(schema, Identifier(self.tracking_table_name))
            self.sql_create_statements.extend(
                [
                    SQL(
                        "CREATE TABLE IF NOT EXISTS {0} (game_id text PRIMARY KEY, "
                        "seq bigint NOT NULL, created_at text, event text, player_a text, "
                        "player_b text, row text NOT NULL)"
                    ).format(self.games),
                    *(
                        SQL("CREATE INDEX IF NOT EXISTS {0} ON {1} ({2})").format(
                            Identifier(f"history_games_{column}"), self.games, Identifier(column)
                        )
                        for column in ("seq", "event", "player_a", "player_b")
                    ),
                ]
            )

        def create_table(self) -> None:
            super().create_table()
            with self.datastore.transaction(commit=True) as curs:
                curs.execute(
                    SQL(
                        "INSERT INTO {0} VALUES (%s, 0) ON CONFLICT (application_name) DO NOTHING"
                    ).format(self.tracking),
                    (TRACKING_NAME,),
                )

        def position(self) -> int:
            return self.max_tracking_id(TRACKING_NAME) or 0

        def rows(self, game_ids: Iterable[str]) -> dict[str, HistoryRow]:
            ids = list(game_ids)
            with self.datastore.transaction(commit=False) as curs:
                curs.execute(
                    SQL("SELECT game_id, row FROM {0} WHERE game_id = ANY(%s)").format(self.games),
                    (ids,),
                )
                return {r["game_id"]: json.loads(r["row"]) for r in curs.fetchall()}

        def commit(
            self, expected: int, rows: Mapping[str, tuple[int, HistoryRow]], tracking: Tracking
        ) -> bool:
            with self.datastore.transaction(commit=True) as curs:
                if self._locked_position(curs) != expected:
                    return False  # nothing was written
                curs.executemany(
                    SQL(
                        "INSERT INTO {0} VALUES (%s, %s, %s, %s, %s, %s, %s) "
                        "ON CONFLICT (game_id) DO UPDATE SET created_at = excluded.created_at, "
                        "event = excluded.event, player_a = excluded.player_a, "
                        "player_b = excluded.player_b, row = excluded.row"
                    ).format(self.games),
                    [(gid, seq, *_columns(row)) for gid, (seq, row) in rows.items()],
                )
                self._insert_tracking(curs, tracking)
            return True

        def _locked_position(self, curs: Cursor[Any]) -> int:
            curs.execute(
                SQL(
                    "SELECT notification_id FROM {0} WHERE application_name = %s FOR UPDATE"
                ).format(self.tracking),
                (TRACKING_NAME,),
            )
            found = curs.fetchone()
            return int(found["notification_id"]) if found is not None else -1

        def select(
            self, *, player: str | None = None, event: str | None = None
        ) -> list[HistoryRow]:
            where, params = SQL(""), []
            if player is not None:
                where = SQL(" WHERE (player_a = %s OR player_b = %s)")
                params += [player.casefold()] * 2
            elif event is not None:
                where = SQL(" WHERE event = %s")
                params.append(event)
            with self.datastore.transaction(commit=False) as curs:
                curs.execute(
                    SQL("SELECT row FROM {0}{1} ORDER BY seq").format(self.games, where), params
                )
                return [json.loads(r["row"]) for r in curs.fetchall()]

        def reset(self) -> None:
            with self.datastore.transaction(commit=True) as curs:
                self._locked_position(curs)
                curs.execute(SQL("DELETE FROM {0}").format(self.games))
                curs.execute(
                    SQL("UPDATE {0} SET notification_id = 0 WHERE application_name = %s").format(
                        self.tracking
                    ),
                    (TRACKING_NAME,),
                )

    return PostgresHistoryRecorder


# ---------------------------------------------------------------------------- in memory


class POPOHistoryRecorder(POPOTrackingRecorder, HistoryRecorder):
    """History rows in memory, for a GameLog on eventsourcing's POPO store (unit tests)."""

    def __init__(self) -> None:
        super().__init__()
        self._rows: dict[str, tuple[int, HistoryRow]] = {}

    def position(self) -> int:
        return self.max_tracking_id(TRACKING_NAME) or 0

    def rows(self, game_ids: Iterable[str]) -> dict[str, HistoryRow]:
        with self._database_lock:
            return {g: self._rows[g][1] for g in game_ids if g in self._rows}

    def commit(
        self, expected: int, rows: Mapping[str, tuple[int, HistoryRow]], tracking: Tracking
    ) -> bool:
        with self._database_lock:
            if (self._max_tracking_ids[TRACKING_NAME] or 0) != expected:
                return False
            for gid, (seq, row) in rows.items():
                self._rows[gid] = (self._rows[gid][0] if gid in self._rows else seq, row)
            self._insert_tracking(tracking)
        return True

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
            self._max_tracking_ids[TRACKING_NAME] = 0


def history_recorder(app: GameLog) -> HistoryRecorder:
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
    recorder.create_table()
    return cast(HistoryRecorder, recorder)


# ---------------------------------------------------------------------------- reading games


def read_records(app: GameLog, game_id: UUID) -> list[Record]:
    """``app.records(game_id)``, faster: what the exports read (``GameNotFoundError`` if none).

    With the default store settings (eventsourcing's JSON transcoder, no cipher, no
    compression) a game event's stored state *is* its envelope as JSON: the envelope holds
    only JSON values (DESIGN.md), so ``json.loads`` gives exactly what the mapper would,
    without building event objects. Any other setting, or an event stored with a
    ``class_version`` (to be upcast), goes through ``app.mapper`` as before.
    """
    stored = app.recorder.select_events(game_id)
    if not stored or stored[0].topic != GAME_TOPICS[0]:
        raise GameNotFoundError(game_id)
    mapper = app.mapper
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


# ---------------------------------------------------------------------------- catching up


class MatchHistory:
    """Match histories of one GameLog: catch up from its notification log, then answer."""

    def __init__(self, app: GameLog, *, batch_size: int = BATCH_SIZE) -> None:
        self.app = app
        self.view = history_recorder(app)
        self.batch_size = batch_size
        self._lock = threading.Lock()  # one catch-up at a time per process (others wait)

    def catch_up(self, *, progress: Progress | None = None, limit: int | None = None) -> int:
        """Fold every game notification after the tracked position; the number folded.

        ``progress(done, total)`` is called after each batch with notification ids (of every
        topic) covered so far and to cover. ``limit`` stops after about that many game
        notifications (for tests of a restart in the middle).
        """
        folded = 0
        with self._lock:
            start = self.view.position()
            total = max(0, (self.app.recorder.max_notification_id() or 0) - start)
            while limit is None or folded < limit:
                batch = self.batch_size if limit is None else min(self.batch_size, limit - folded)
                step = self._step(batch)
                if step is None:
                    break
                folded += step[0]
                if progress is not None:
                    progress(step[1] - start, max(total, step[1] - start))
            if progress is not None:
                progress(total, total)
        return folded

    def _step(self, batch: int) -> tuple[int, int] | None:
        """Fold one batch: ``(notifications folded, new position)``, ``None`` if none left."""
        while True:
            position = self.view.position()
            notes = self.app.recorder.select_notifications(
                position, batch, topics=GAME_TOPICS, inclusive_of_start=False
            )
            if not notes:
                return None
            events = [(n.id, self.app.mapper.to_domain_event(n)) for n in notes]
            stored = self.view.rows({str(e.originator_id) for _, e in events})
            rows: dict[str, tuple[int, HistoryRow]] = {}
            for seq, event in events:
                gid = str(event.originator_id)
                record = stored_record(cast(Any, event))
                if gid in rows:
                    first, row = rows[gid]
                    rows[gid] = (first, fold_history(row, record, game_id=gid))
                else:
                    rows[gid] = (seq, fold_history(stored.get(gid), record, game_id=gid))
            with self.app.writing():
                committed = self.view.commit(position, rows, Tracking(TRACKING_NAME, notes[-1].id))
            if committed:
                return len(notes), notes[-1].id

    def rebuild(self, *, progress: Progress | None = None) -> int:
        """Drop every row and fold the whole log again; the number of notifications folded."""
        with self._lock:
            self.view.reset()
        return self.catch_up(progress=progress)

    # -- reads (each catches up first) ------------------------------------------------------

    def rows(self) -> list[HistoryRow]:
        """Every game's row, in creation order."""
        self.catch_up()
        return self.view.select()

    def player(self, name: str) -> dict[str, Any]:
        """``{player, games, totals, heroes}``: a player's games (newest last) and totals."""
        self.catch_up()
        entries = player_games(self.view.select(player=name), name)
        return {
            "player": entries[0]["player"] if entries else name,
            "games": entries,
            "totals": totals(entries),
            "heroes": hero_totals(entries),
        }

    def event_games(self, label: str) -> list[HistoryRow]:
        """The rows of an event's games (``labels.event == label``), in creation order."""
        self.catch_up()
        return self.view.select(event=label)
