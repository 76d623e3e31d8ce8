"""One summary per game on every worker, with real processes (issue #35, item 7).

Two ``munchlog serve --workers 1`` processes (each its own caches) on one PostgreSQL schema. A
lost race is forced: the test holds the events table's lock (eventsourcing's recorder takes
it, ``EXCLUSIVE``, for every insert) while worker 1 records something that leaves the status
alone (a dispute opened), then worker 0 a write that changes it (a concession, a judge's
backup); both have decided on the same version and wait, in that order, for the lock. Released,
worker 1's insert goes first and worker 0's conflicts: it is decided again on the stored game.
Then every worker must answer the same ``GET /api/games/<id>``, again and again, never a 500,
and list the game under its status; before the fix worker 0 answered the status of its failed
attempt (issue #35: ``setup`` from one worker and ``finished`` from the other), and its next
change of status left a gap in the summary's versions (a 500 on any worker folding it).

The same race in one process, and a property over any sequence of raced writes:
tests/api/test_summary_races.py.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from api.cli.demo import demo_spec
from tests.api.test_scale_out import fresh_schema, instances
from tests.conftest import ORGANIZER_TOKEN, require_postgres

pytestmark = pytest.mark.postgres

WORKERS = 2
#: Reads of ``GET /api/games/<id>`` per worker after each race.
READS = 10


class Held:
    """The test's hold on the events table (``EXCLUSIVE``): inserts queue behind it."""

    def __init__(self, url: str) -> None:
        import psycopg

        base, schema = url.split("?schema=")
        self.conn = psycopg.connect(base)
        self.table = f'"{schema}".gamelog_events'

    def __enter__(self) -> Held:
        self.conn.execute(f"LOCK TABLE {self.table} IN EXCLUSIVE MODE")
        return self

    def waiting(self, count: int) -> None:
        """Until ``count`` inserts wait for the table."""
        query = f"SELECT count(*) FROM pg_locks WHERE relation = '{self.table}'::regclass"
        deadline = time.monotonic() + 30
        while True:
            with self.conn.cursor() as cur:  # the same transaction: the lock stays held
                row = cur.execute(query + " AND NOT granted").fetchone()
            if row is not None and row[0] >= count:
                return
            assert time.monotonic() < deadline, f"{count} inserts never queued"
            time.sleep(0.02)

    def __exit__(self, *exc: Any) -> None:
        self.conn.commit()
        self.conn.close()


def post(base: str, path: str, token: str, body: dict[str, Any]) -> requests.Response:
    return requests.post(
        f"{base}{path}", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=60
    )


def raced(url: str, first: Any, then: Any) -> list[requests.Response]:
    """``first()`` then ``then()`` (each an HTTP write, in its own thread), both queued on the
    held table in that order; their answers once the table is released."""
    answers: list[Any] = [None, None]

    def run(i: int, write: Any) -> None:
        answers[i] = write()

    with Held(url) as held:
        threads = []
        for i, write in enumerate((first, then)):
            threads.append(threading.Thread(target=run, args=(i, write)))
            threads[-1].start()
            held.waiting(i + 1)
    for t in threads:
        t.join(60)
    return answers


def same_everywhere(bases: list[str], gid: str, status: str) -> None:
    """Every worker answers ``GET /api/games/<id>`` alike, :data:`READS` times, with
    ``status``, and lists the game under it."""
    bodies = []
    for _ in range(READS):
        for base in bases:
            r = requests.get(f"{base}/api/games/{gid}", timeout=30)
            assert r.status_code == 200, (base, r.status_code, r.text)
            bodies.append(r.json())
    assert all(b == bodies[0] for b in bodies), [(b["status"], b["version"]) for b in bodies]
    assert bodies[0]["status"] == status
    for base in bases:
        listed = requests.get(
            f"{base}/api/games?status={status}&limit=100",
            headers={"Authorization": f"Bearer {ORGANIZER_TOKEN}"},
            timeout=30,
        ).json()["games"]
        assert gid in [g["game_id"] for g in listed], base


def test_two_workers_answer_one_status_after_lost_races_on_concede_and_backup(
    tmp_path: Path,
) -> None:
    require_postgres()
    with (
        fresh_schema() as url,
        instances(tmp_path, {"MUNCHLOG_DATABASE_URL": url}, WORKERS, ORGANIZER_TOKEN) as bases,
    ):
        created = post(bases[0], "/api/games", ORGANIZER_TOKEN, demo_spec(seed=0))
        assert created.status_code == 201, created.text
        game = created.json()
        gid, judge = game["game_id"], game["judge_token"]
        same_everywhere(bases, gid, "setup")  # both workers have the summary cached

        def dispute(base: str) -> Any:
            return lambda: post(base, f"/api/games/{gid}/disputes", judge, {"statement": "x"})

        def lost(path: str, token: str, body: dict[str, Any], status: str) -> Any:
            """A write through worker 0 that loses its race to a dispute opened through
            worker 1; then every worker answers ``status``. The write's answer."""
            opened, answer = raced(
                url,
                dispute(bases[1]),
                lambda: post(bases[0], f"/api/games/{gid}{path}", token, body),
            )
            assert opened.status_code == 201, opened.text
            assert answer.status_code == 201, answer.text
            same_everywhere(bases, gid, status)
            return answer.json()

        seat_a = game["seats"]["A"]["token"]
        concede = {"actions": [{"type": "concede", "seat": "A"}]}
        conceded = lost("/actions", seat_a, concede, "finished")
        point = conceded["events"][0]["version"] - 1
        mine = dispute(bases[0])().json()["dispute"]["dispute_id"]
        ruling = {"ruling": "backed up", "backup_to": point}
        lost(f"/disputes/{mine}/ruling", judge, ruling, "setup")

        # and the next change of status, through either worker, is stored after it
        again = post(bases[1], f"/api/games/{gid}/actions", seat_a, concede)
        assert again.status_code == 201, again.text
        same_everywhere(bases, gid, "finished")
