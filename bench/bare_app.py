"""The practical limit for record_bench: a bare Flask endpoint that inserts the JSON body into SQLite.

Run under the same gunicorn settings as munchlog; ``BARE_DB`` names the SQLite file. With
``BARE_LOCK=1`` the insert is made under the same writer lock munchlog uses
(:mod:`adapters.sqlite_writer`), so the comparison is like for like.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from contextlib import nullcontext
from pathlib import Path

from flask import Flask, request

_local = threading.local()


def _db() -> sqlite3.Connection:
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(os.environ["BARE_DB"], timeout=30)
        _local.conn = conn
    return conn


def create_app() -> Flask:
    app = Flask(__name__)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from adapters.sqlite_writer import WriterLock

    setup = WriterLock(os.environ["BARE_DB"] + ".lock")
    with setup():  # both workers start at once: one creates the table, in WAL mode
        conn = sqlite3.connect(os.environ["BARE_DB"], timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")  # as eventsourcing's SQLite recorder does
        conn.execute("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, body TEXT)")
        conn.commit()
        conn.close()
    lock = setup if os.environ.get("BARE_LOCK") else None

    @app.post("/bare")
    def bare() -> tuple[dict[str, int], int]:
        body = request.get_data(as_text=True)
        db = _db()
        with lock() if lock is not None else nullcontext():
            cur = db.execute("INSERT INTO log (body) VALUES (?)", (body,))
            db.commit()
        return {"id": cur.lastrowid or 0}, 201

    return app
