"""Three munchlog instances and one ``munchlog worker`` on one PostgreSQL schema (issue 12, item 3).

Three ``munchlog serve --workers 1`` processes (each its own caches, as separate hosts would
have) with ``MUNCHLOG_PROJECTIONS=worker``, and one ``munchlog worker``. Eight tables record for
a few seconds, each request going to the next instance (round robin): four play demo games
(reads of the log, ``expected_version``, ``Idempotency-Key``: Flask's route), four send
one-action batches without a version (the recording hot path; a table's next request lands on
an instance whose copy of the game is stale, so saves lose races and are decided again). Then:

* every game verifies (``GET /verify`` ok);
* every acknowledged batch is stored: its events, as the table saw them, are at their
  versions in the log;
* the worker catches up (lag 0), and the histories it built equal a from-scratch rebuild, and
  every instance serves them.

The projection lag seen on ``/readyz`` under that load (largest, and at the end of the load) is
printed (``pytest -s``) and reported in README "Serving in production".
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from api.cli.demo import HttpTransport, Transport, record_demo_game
from api.cli.history import open_log
from bench.record_bench import game_body, setup_actions
from service.histories import MatchHistory
from tests.conftest import PG_URL, require_postgres
from tests.live import munchlog_serve, pg_schema, stored_events

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
ORGANIZER = "scale-out-organizer"
INSTANCES = 3
TABLES = 8
LOAD_SECONDS = 6.0


class Deadline(Exception):
    """The load is over: the table stops before its next request."""


class RoundRobin(Transport):
    """Each request to the next instance; every 201 of an actions batch noted as acknowledged."""

    def __init__(self, bases: list[str], start: int, deadline: float, acks: list[Any]) -> None:
        self.transports = [HttpTransport(base) for base in bases]
        self.turn = itertools.count(start)
        self.deadline = deadline
        self.acks = acks
        self.games: list[dict[str, Any]] = []

    def send(self, method: str, path: str, json: Any, headers: dict[str, str]) -> tuple[int, Any]:
        if time.monotonic() > self.deadline:
            raise Deadline()
        transport = self.transports[next(self.turn) % len(self.transports)]
        status, body = transport.send(method, path, json, headers)
        if method == "POST" and path == "/api/games" and status == 201:
            self.games.append(body)
        elif method == "POST" and path.endswith("/actions") and status == 201:
            self.acks.append((path.split("/")[3], body))
        return status, body


def play_demo_games(transport: RoundRobin, seed: int) -> None:
    """Demo games one after another (each reads the log and posts with a version and a key)."""
    while True:
        record_demo_game(transport, ORGANIZER, seed=seed)
        seed += 1


def hot_path_loop(transport: RoundRobin, table: int) -> None:
    """A game in munchkining, then one-action batches (``activate`` / ``resolve`` of the
    active hero) with no version and no key: what the recording hot path serves."""
    spec = game_body(f"table-{table}", {"event": "Scale-out"})
    status, game = transport("POST", "/api/games", token=ORGANIZER, json=spec)
    assert status == 201, game
    gid, token = game["game_id"], game["table_token"]
    setup = setup_actions(game)
    status, body = transport(
        "POST", f"/api/games/{gid}/actions", token=token, json={"actions": setup}
    )
    assert status == 201, body
    status, state = transport("GET", f"/api/games/{gid}/state", token=token)
    hero = state["seats"]["A"]["hero"]["id"]
    for i in itertools.count():
        action = {"type": "activate", "seat": "A", "card": hero} if i % 2 == 0 else None
        action = action or {"type": "resolve", "seat": "A"}
        status, body = transport(
            "POST", f"/api/games/{gid}/actions", token=token, json={"actions": [action]}
        )
        assert status == 201, (i, status, body)


@contextlib.contextmanager
def fresh_schema() -> Iterator[str]:
    with pg_schema(PG_URL, "munchlog_scale") as schema:
        yield f"{PG_URL}?schema={schema}"


@contextlib.contextmanager
def instances(
    tmp_path: Path, env: dict[str, str], count: int = INSTANCES, organizer: str = ORGANIZER
) -> Iterator[list[str]]:
    """``count`` ``munchlog serve --workers 1`` processes with ``env``; their base URLs."""
    with contextlib.ExitStack() as stack:
        bases = []
        for n in range(count):
            folder = tmp_path / f"instance-{n}"
            folder.mkdir()
            port, _ = stack.enter_context(
                munchlog_serve(folder, organizer, workers=1, log=True, extra_env=env)
            )
            bases.append(f"http://127.0.0.1:{port}")
        yield bases


def lag_of(base: str) -> int:
    response = requests.get(f"{base}/readyz", timeout=10)
    assert response.status_code == 200, response.text
    return int(response.json()["projection"]["lag"])


@pytest.mark.slow
def test_three_instances_and_a_worker_on_postgresql(tmp_path: Path) -> None:
    require_postgres()
    with fresh_schema() as url:
        env = {"MUNCHLOG_DATABASE_URL": url, "MUNCHLOG_PROJECTIONS": "worker"}
        worker_log = open(tmp_path / "worker.log", "w")  # noqa: SIM115
        worker = subprocess.Popen(
            [sys.executable, "-m", "api.cli.main", "worker", "--db", url, "--report-every", "1"],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            cwd=tmp_path,
            stdout=worker_log,
            stderr=subprocess.STDOUT,
        )
        try:
            with instances(tmp_path, env) as bases:
                acks: list[Any] = []
                errors: list[BaseException] = []
                deadline = time.monotonic() + LOAD_SECONDS
                transports = [RoundRobin(bases, n, deadline, acks) for n in range(TABLES)]

                def table(n: int) -> None:
                    try:
                        if n % 2:
                            play_demo_games(transports[n], seed=1000 * n)
                        else:
                            hot_path_loop(transports[n], n)
                    except Deadline:
                        pass
                    except BaseException as exc:
                        errors.append(exc)

                lags: list[int] = []
                sampling = threading.Event()

                def sample() -> None:
                    while not sampling.is_set():
                        lags.append(lag_of(bases[0]))
                        time.sleep(0.1)

                sampler = threading.Thread(target=sample)
                threads = [threading.Thread(target=table, args=(n,)) for n in range(TABLES)]
                started = time.monotonic()
                sampler.start()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                loaded = time.monotonic() - started
                sampling.set()
                sampler.join()
                at_end = lag_of(bases[0])
                assert not errors, errors[:3]

                drain_started = time.monotonic()
                while lag_of(bases[1]) > 0:
                    assert time.monotonic() - drain_started < 60, "the worker did not catch up"
                    time.sleep(0.05)
                drained = time.monotonic() - drain_started

                games = [g for t in transports for g in t.games]
                assert len(games) >= TABLES
                tokens = {g["game_id"]: g["table_token"] for g in games}
                # every game verifies, read through any instance
                for i, gid in enumerate(tokens):
                    report = requests.get(f"{bases[i % INSTANCES]}/api/games/{gid}/verify").json()
                    assert report["ok"] is True and report["problems"] == [], (gid, report)
                # every acknowledged batch is stored, as the table saw it
                stored = {gid: stored_events(bases[0], gid, tokens[gid]) for gid in tokens}
                for gid, body in acks:
                    for view in body["events"]:
                        assert stored[gid][view["version"]] == view, (gid, view["version"])
                    assert max(stored[gid]) >= body["version"]
                events = sum(len(body["events"]) for _, body in acks)
                # the histories every instance serves are the worker's
                served = [requests.get(f"{base}/api/players/Alice/games").json() for base in bases]
                assert served[0] == served[1] == served[2]
                # the instances' metrics add up to what the tables were told
                counted = [_metrics(base) for base in bases]
                batches = sum(m.get("munchlog_recorded_batches_total", 0) for m in counted)
                lost_races = sum(m.get("munchlog_lost_races_total", 0) for m in counted)
                assert batches == len(acks)
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(30) == 0
        finally:
            if worker.poll() is None:
                worker.kill()
            worker_log.close()

        # the worker's histories equal a from-scratch rebuild of the same log
        log = open_log(url)
        try:
            kept = MatchHistory(log, inline=False)
            built_by_worker = kept.view.select()
            skipped_by_worker = kept.view.skipped()
            alice = kept.player("Alice")
            assert kept.lag().lag == 0
            rebuilt = MatchHistory(log)
            rebuilt.rebuild()
            assert built_by_worker == rebuilt.view.select()
            assert skipped_by_worker == rebuilt.view.skipped() == []
            assert {r["game_id"] for r in built_by_worker} == set(tokens)
            assert alice == rebuilt.player("Alice")
            ids = [g["game_id"] for g in alice["games"]]
            assert [g["game_id"] for g in served[0]["games"]] == ids and ids
        finally:
            log.close()

    worker_lines = (tmp_path / "worker.log").read_text()
    assert "projection worker: stopped at notification" in worker_lines
    print(
        f"\n3 instances + 1 worker on PostgreSQL: {len(acks)} acknowledged batches "
        f"({events} events) from {TABLES} tables over {loaded:.1f} s "
        f"({len(acks) / loaded:.0f} batches/s), {len(games)} games; projection lag on /readyz "
        f"every 0.1 s: max {max(lags)}, median {sorted(lags)[len(lags) // 2]}, "
        f"{at_end} when the load stopped, 0 after {drained:.2f} s; "
        f"the worker's largest reported lag: {_largest_reported(worker_lines)}; "
        f"{lost_races:.0f} lost races decided again"
    )


def _metrics(base: str) -> dict[str, float]:
    """An instance's counters (summed over their labels) from ``GET /metrics``."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[str, float] = {}
    text = requests.get(f"{base}/metrics", timeout=10).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            judge = sample.labels.get("source") == "judge"
            if judge and sample.name == "munchlog_recorded_batches_total":
                continue
            out[sample.name] = out.get(sample.name, 0.0) + sample.value
    return out


def _largest_reported(lines: str) -> int:
    import re

    found = [int(m) for m in re.findall(r"lag (\d+)", lines)]
    return max(found, default=0)
