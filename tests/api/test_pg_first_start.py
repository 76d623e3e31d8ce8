"""PostgreSQL first start: any number of workers starting at once on an empty schema all come up.

``CREATE TABLE IF NOT EXISTS`` races on PostgreSQL (the loser fails on ``pg_type``'s unique
index); munchlog creates its tables under an advisory lock (``adapters.pg_writer.ddl_lock``).
Each round makes a new empty schema and starts 4 processes that build the app at the same
instant (a barrier), as ``munchlog serve --workers 4`` or 4 hosts would.
"""

from __future__ import annotations

import multiprocessing
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ORGANIZER_TOKEN, PG_URL, require_postgres

pytestmark = pytest.mark.postgres

WORKERS = 4
ROUNDS = 20


def _start(url: str, instance: str, barrier: Any, out: Any) -> None:
    from api.app import create_app

    barrier.wait(30)
    try:
        app = create_app(
            {
                "INSTANCE_PATH": instance,
                "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
                "MUNCHLOG_DATABASE_URL": url,
            }
        )
        response = app.test_client().get("/api/games")
        app.extensions["munchlog"].close()
        out.put(response.status_code)
    except BaseException as exc:  # report it; the test fails on anything but 200
        out.put(f"{exc.__class__.__name__}: {exc}")


@pytest.mark.slow
def test_four_workers_start_at_once_on_an_empty_schema_twenty_times(tmp_path: Path) -> None:
    require_postgres()
    import psycopg

    ctx = multiprocessing.get_context("fork")
    outcomes = []
    for round_ in range(ROUNDS):
        schema = f"munchlog_first_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        try:
            barrier, out = ctx.Barrier(WORKERS), ctx.Queue()
            procs = [
                ctx.Process(
                    target=_start,
                    args=(f"{PG_URL}?schema={schema}", str(tmp_path / str(round_)), barrier, out),
                )
                for _ in range(WORKERS)
            ]
            for p in procs:
                p.start()
            results = [out.get(timeout=60) for _ in procs]
            for p in procs:
                p.join(30)
            outcomes.append(results)
        finally:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    assert outcomes == [[200] * WORKERS] * ROUNDS
