"""``munchlog worker`` (service/worker.py): the match histories folded in a process of their own.

Both back ends: the worker follows the log with eventsourcing's subscription (PostgreSQL's
LISTEN/NOTIFY; SQLite polled), folds each notification exactly once (rows and tracking in one
transaction) and always ends equal to a from-scratch rebuild: while games are written, across
a rebuild under it, after a failure, after ``kill -9`` in the middle of a backlog. With
``MUNCHLOG_PROJECTIONS=worker`` the API serves what the worker stored and never catches up
itself. The lag (position, head, head - position) is 0 once the projection has caught up, also
when the log ends with notifications that are not game events.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.cli.demo import demo_spec
from service import worker as worker_module
from service.games import GameLog
from service.histories import Lag, MatchHistory
from service.worker import ProjectionWorker
from tests.api.helpers import create_game
from tests.api.test_history_api import import_seeded, make_app, play_live, rebuilt

__all__ = ["make_app"]  # the fixture, shared with test_history_api

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def running(worker: ProjectionWorker) -> Iterator[threading.Event]:
    """``worker.run`` in a thread until the block ends."""
    stop = threading.Event()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            worker.run(stop)
        except BaseException as exc:
            failures.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield stop
    finally:
        stop.set()
        thread.join(30)
    assert not thread.is_alive()
    assert not failures, failures


def caught_up(history: MatchHistory, timeout: float = 30.0) -> Lag:
    """Wait until ``history`` has folded the whole log; its lag then."""
    deadline = time.monotonic() + timeout
    while True:
        lag = history.lag()
        if lag.lag == 0:
            return lag
        assert time.monotonic() < deadline, f"still behind: {lag}"
        time.sleep(0.05)


def test_the_lag_is_zero_after_a_catch_up_even_when_the_log_ends_with_other_topics(
    app: Flask,
) -> None:
    log: GameLog = app.extensions["munchlog"]
    history = MatchHistory(log)
    assert history.lag() == Lag(position=0, head=0)
    log.start_game(demo_spec(seed=1))  # the game, its tokens, its summary
    head = log.store.max_notification_id()
    assert history.lag() == Lag(position=0, head=head) and history.lag().lag == head > 0
    history.catch_up()
    # the game's events come first: a position left at the last game event would lag forever
    assert history.lag() == Lag(position=head, head=head)
    assert history.lag().as_dict() == {"position": head, "head": head, "lag": 0}


def test_the_worker_folds_the_log_as_it_grows_and_equals_a_rebuild(make_app: Any) -> None:
    app = make_app()
    log: GameLog = app.extensions["munchlog"]
    worker = ProjectionWorker(log, poll_interval=0.02, batch_size=37)
    rng = random.Random(5)
    with running(worker):
        for seed in range(3):
            import_seeded(log, 60 + seed)
            play_live(log, rng, steps=15)
        lag = caught_up(worker.history)
    assert lag.position == log.store.max_notification_id()
    assert worker.folded == lag.position  # every notification once: none twice, none left
    rows = worker.history.view.select()
    assert len(rows) == 6
    assert rows == rebuilt(log)


def test_the_api_serves_what_the_worker_stored_and_never_catches_up_itself(
    backend: dict[str, Any], tmp_path: Path
) -> None:
    from api.app import create_app

    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": "test-organizer-token",
            "MUNCHLOG_PROJECTIONS": "worker",
            **backend,
        }
    )
    try:
        client = app.test_client()
        create_game(client)
        log: GameLog = app.extensions["munchlog"]
        history = MatchHistory(log)
        for _ in range(2):  # reads do not move the projection
            assert client.get("/api/players/Alice/games").get_json()["games"] == []
        assert history.position() == 0
        ready = client.get("/readyz").get_json()
        assert ready["projections"] == "worker"
        assert ready["projection"]["lag"] == log.store.max_notification_id() > 0
        with running(ProjectionWorker(log, poll_interval=0.02)) as _:
            caught_up(history)
        games = client.get("/api/players/Alice/games").get_json()["games"]
        assert len(games) == 1
        assert client.get("/readyz").get_json()["projection"]["lag"] == 0
    finally:
        app.extensions["munchlog"].close()


def test_a_rebuild_under_the_worker_makes_it_follow_from_the_new_position(
    make_app: Any,
) -> None:
    app = make_app()
    log: GameLog = app.extensions["munchlog"]
    worker = ProjectionWorker(log, poll_interval=0.02, batch_size=20)
    rng = random.Random(7)
    with running(worker):
        import_seeded(log, 70)
        caught_up(worker.history)
        MatchHistory(log).rebuild()  # the operator's munchlog rebuild-projections
        play_live(log, rng, steps=12)
        import_seeded(log, 71)
        caught_up(worker.history)
        rows = worker.history.view.select()
    assert len(rows) == 3
    assert rows == rebuilt(log)


def test_the_worker_follows_again_after_a_failure(
    make_app: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app()
    log: GameLog = app.extensions["munchlog"]
    real = log.store.follow
    calls: list[int] = []

    def flaky(after: int, **kwargs: Any) -> Any:
        calls.append(after)
        if len(calls) == 1:
            raise ConnectionError("the database went away")
        return real(after, **kwargs)

    monkeypatch.setattr(log.store, "follow", flaky)
    import_seeded(log, 80)
    worker = ProjectionWorker(log, poll_interval=0.02)
    with caplog.at_level("INFO", logger="munchlog.worker"), running(worker):
        caught_up(worker.history, timeout=10)
    assert len(calls) == 2
    assert "ConnectionError: the database went away; following again in 1 s" in caplog.text
    assert worker.history.view.select() == rebuilt(log)


def test_the_worker_logs_its_progress_and_lag(
    make_app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app()
    log: GameLog = app.extensions["munchlog"]
    import_seeded(log, 90)
    head = log.store.max_notification_id()
    worker = ProjectionWorker(log, poll_interval=0.02, report_every=0.05)
    with caplog.at_level("INFO", logger="munchlog.worker"), running(worker):
        caught_up(worker.history)
        time.sleep(0.2)
    lines = [r for r in caplog.records if r.name == "munchlog.worker"]
    assert "following the log from notification 0" in lines[0].getMessage()
    assert any(getattr(r, "lag", None) == 0 and getattr(r, "position", None) == head for r in lines)
    assert f"stopped at notification {head} (head {head}, lag 0)" in lines[-1].getMessage()


def test_queue_handover_takes_what_has_arrived_up_to_a_batch() -> None:
    import queue

    handover: queue.Queue[Any] = queue.Queue()
    for i in range(5):
        handover.put(i)
    assert worker_module._take(handover, 3, timeout=0.01) == ([0, 1, 2], None)
    handover.put(worker_module._END)
    assert worker_module._take(handover, 3, timeout=0.01) == ([3, 4], worker_module._END)
    assert worker_module._take(handover, 3, timeout=0.01) == ([], None)


# ---------------------------------------------------------------------------- the command


def _worker(db: str, tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    out = open(tmp_path / "worker.log", "a")  # noqa: SIM115 -- closed with the process
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli.main", "worker", "--db", db, *args],
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        cwd=tmp_path,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    process.log = out  # type: ignore[attr-defined]
    return process


def _wait(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_munchlog_worker_stops_gracefully_on_sigterm_and_logs_json(
    backend: dict[str, Any], tmp_path: Path
) -> None:
    db = backend["MUNCHLOG_DATABASE_URL"]
    from api.cli.history import open_log

    log = open_log(db)
    try:
        import_seeded(log, 95)
        head = log.store.max_notification_id()
        process = _worker(
            db, tmp_path, "--report-every", "0.2", env={"MUNCHLOG_LOG_FORMAT": "json"}
        )
        try:
            history = MatchHistory(log)
            _wait(lambda: history.position() == head, 60, "the worker did not catch up")
            time.sleep(0.5)
            process.send_signal(signal.SIGTERM)
            assert process.wait(30) == 0
        finally:
            if process.poll() is None:
                process.kill()
            process.log.close()
    finally:
        log.close()
    lines = [json.loads(line) for line in (tmp_path / "worker.log").read_text().splitlines()]
    mine = [line for line in lines if line["logger"] == "munchlog.worker"]
    assert mine[0]["message"].startswith("projection worker: following the log")
    assert any(line["lag"] == 0 and line["position"] == head for line in mine)
    assert "SIGTERM received" in mine[-2]["message"]
    assert mine[-1]["message"].startswith(f"projection worker: stopped at notification {head}")
    assert {"time", "level", "logger", "message"} <= set(mine[-1])


def test_a_worker_killed_in_the_middle_resumes_and_folds_each_notification_once(
    tmp_path: Path,
) -> None:
    """SQLite: a backlog of games, ``kill -9`` once the worker is part way through, a new
    worker: the rows equal a rebuild (a notification folded twice would count its game's
    events twice)."""
    db = str(tmp_path / "munchlog.sqlite")
    from api.cli.history import open_log

    log = open_log(db)
    try:
        rng = random.Random(11)
        for seed in range(6):
            import_seeded(log, 100 + seed)
            play_live(log, rng, steps=5)
        head = log.store.max_notification_id()
        history = MatchHistory(log)
        process = _worker(db, tmp_path, "--batch-size", "7")
        try:
            _wait(lambda: history.position() > 0, 60, "the worker did not start")
            process.kill()
            process.wait(10)
        finally:
            process.log.close()
        stopped = history.position()
        assert 0 < stopped < head  # killed part way through
        process = _worker(db, tmp_path)
        try:
            _wait(lambda: history.position() == head, 60, "the new worker did not catch up")
            process.send_signal(signal.SIGINT)
            assert process.wait(30) == 0
        finally:
            process.log.close()
        rows = history.view.select()
        assert len(rows) == 12
        assert rows == rebuilt(log)
    finally:
        log.close()


def test_a_worker_stopped_in_the_middle_of_a_batch_ends_with_its_stop_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A stop (SIGTERM) that lands while the worker is folding a batch, with a progress line
    due: no progress line after it, so the log ends "SIGTERM received", then the final
    "stopped at" line (the progress line used to slip in between under load)."""
    from api.cli.history import open_log

    log = open_log(str(tmp_path / "munchlog.sqlite"))
    stop = threading.Event()
    take = worker_module._take

    def take_then_stop(*args: Any, **kwargs: Any) -> Any:
        batch, ended = take(*args, **kwargs)
        if batch:
            stop.set()  # the signal arrives while this batch is folded
        return batch, ended

    monkeypatch.setattr(worker_module, "_take", take_then_stop)
    caplog.set_level("INFO", logger="munchlog.worker")
    try:
        import_seeded(log, 3)
        folded = ProjectionWorker(log, report_every=0).run(stop)
    finally:
        log.close()
    assert folded > 0
    said = [r.getMessage() for r in caplog.records if r.name == "munchlog.worker"]
    assert said[-1].startswith("projection worker: stopped at"), said
    assert not [m for m in said if m.startswith("projection worker: position")], said
