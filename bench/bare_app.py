"""The practical limit for record_bench: a bare Flask endpoint that inserts the JSON body.

Served with the same server and settings as munchlog (``python -m api.ops.serving
bench.bare_app:create_app``).

* SQLite (``BARE_DB`` names the file, WAL mode as eventsourcing's SQLite recorder sets it,
  ``synchronous=FULL`` as munchlog keeps it). With ``BARE_LOCK=1`` the insert is made under the
  same writer lock munchlog uses (:mod:`adapters.sqlite_writer`), so the comparison is like for
  like.
* PostgreSQL (``BARE_PG`` is a ``postgresql://`` URL; ``BARE_PG_SCHEMA`` the schema to create
  the table in): one connection per thread, one ``INSERT`` and ``COMMIT`` per request (fsynced
  by the server's default ``synchronous_commit=on``), as munchlog's PostgreSQL recorder commits
  each write.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from flask import Flask, request

_local = threading.local()


def _sqlite() -> Callable[[str], int]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from adapters.sqlite_writer import WriterLock

    path = os.environ["BARE_DB"]
    setup = WriterLock(path + ".lock")
    with setup():  # both workers start at once: one creates the table, in WAL mode
        conn = sqlite3.connect(path, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, body TEXT)")
        conn.commit()
        conn.close()
    lock = setup if os.environ.get("BARE_LOCK") else None

    def insert(body: str) -> int:
        db = getattr(_local, "conn", None)
        if db is None:
            db = _local.conn = sqlite3.connect(path, timeout=30)
            db.execute("PRAGMA synchronous=FULL")
        with lock() if lock is not None else nullcontext():
            cur = db.execute("INSERT INTO log (body) VALUES (?)", (body,))
            db.commit()
        return cur.lastrowid or 0

    return insert


def _postgres() -> Callable[[str], int]:
    import psycopg

    url, schema = os.environ["BARE_PG"], os.environ.get("BARE_PG_SCHEMA", "bare")
    with psycopg.connect(url, autocommit=True) as conn:
        # Both workers start at once: an advisory lock lets one create the table.
        conn.execute("SELECT pg_advisory_lock(4242)")
        conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        conn.execute(
            f'CREATE TABLE IF NOT EXISTS "{schema}".log (id BIGSERIAL PRIMARY KEY, body TEXT)'
        )
        conn.execute("SELECT pg_advisory_unlock(4242)")

    def insert(body: str) -> int:
        db: Any = getattr(_local, "pg", None)
        if db is None:
            db = _local.pg = psycopg.connect(url)
        with db.transaction():
            row = db.execute(
                f'INSERT INTO "{schema}".log (body) VALUES (%s) RETURNING id', (body,)
            ).fetchone()
        return int(row[0])

    return insert


def create_app() -> Flask:
    app = Flask(__name__)
    insert = _postgres() if os.environ.get("BARE_PG") else _sqlite()

    @app.post("/bare")
    def bare() -> tuple[dict[str, int], int]:
        return {"id": insert(request.get_data(as_text=True))}, 201

    @app.post("/echo")
    def echo() -> tuple[dict[str, Any], int]:
        """The server's own ceiling: parse the JSON body, answer JSON, touch no database."""
        return {"echo": request.get_json()}, 201

    @app.get("/")
    def index() -> str:
        return "bare"

    return app
