"""The practical limit for record_bench: a bare Flask endpoint that inserts the JSON body into SQLite.

Run under the same gunicorn settings as munchlog; ``BARE_DB`` names the SQLite file.
"""

from __future__ import annotations

import os
import sqlite3
import threading

from flask import Flask, request

_local = threading.local()


def _db() -> sqlite3.Connection:
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(os.environ["BARE_DB"], timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")  # as eventsourcing's SQLite recorder does
        conn.execute("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, body TEXT)")
        conn.commit()
        _local.conn = conn
    return conn


def create_app() -> Flask:
    app = Flask(__name__)

    @app.post("/bare")
    def bare() -> tuple[dict[str, int], int]:
        body = request.get_data(as_text=True)
        db = _db()
        cur = db.execute("INSERT INTO log (body) VALUES (?)", (body,))
        db.commit()
        return {"id": cur.lastrowid or 0}, 201

    return app
