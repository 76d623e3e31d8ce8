"""Every follower reads the log again at least every 2 s when no notification comes.

On PostgreSQL a follower waits for ``NOTIFY`` (eventsourcing's subscription); a lost
notification (its issue #305) used to stall it until the next one. Here the listener is deaf
(it never wakes the reader): the follower of the log (``EventStore.follow``, which the stream
process and ``munchlog publish`` use) and the worker still see every event within 2 s. On
SQLite, which cannot notify, the same tests hold by polling.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import random
import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.games import GameLog
from service.worker import ProjectionWorker
from tests.api.helpers import create_game
from tests.api.test_history_api import play_live
from tests.api.test_operations import _scrape, _value
from tests.api.test_worker import running

WITHIN = 2.0


def on_its_own_loop(coroutine: Any) -> Any:
    """``asyncio.run(coroutine())`` in a thread of its own: the thread running the tests may
    hold a running loop already (Playwright's, after a browser test in the same worker)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine()).result()


@pytest.fixture
def deaf(monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL's listener hears nothing (it waits until its subscription stops)."""
    from eventsourcing.postgres import PostgresSubscription

    def listen(self: Any) -> None:
        while not self._has_been_stopped:
            time.sleep(0.05)

    monkeypatch.setattr(PostgresSubscription, "_listen", listen)


def test_the_log_s_follower_sees_every_event_within_2_s_with_no_notification(
    app: Flask, deaf: None
) -> None:
    log: GameLog = app.extensions["munchlog"]
    seen: queue.Queue[int] = queue.Queue()
    with log.store.follow(log.store.max_notification_id()) as notes:

        def read() -> None:
            for note in notes:
                seen.put(note.id)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        time.sleep(0.3)  # the follower is waiting at the head
        play_live(log, random.Random(4), 3)
        head = log.store.max_notification_id()
        deadline = time.monotonic() + WITHIN
        last = 0
        while last < head:
            try:
                last = seen.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"notification {last + 1}..{head} not seen within {WITHIN} s")
        notes.stop()
    reader.join(5)


def test_the_worker_folds_every_event_within_2_s_with_no_notification(
    app: Flask, deaf: None
) -> None:
    log: GameLog = app.extensions["munchlog"]
    worker = ProjectionWorker(log)
    with running(worker):
        deadline = time.monotonic() + 10
        while worker.history.lag().lag and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the worker is waiting at the head
        play_live(log, random.Random(5), 3)
        head = log.store.max_notification_id()
        deadline = time.monotonic() + WITHIN
        while worker.history.lag().position < head:
            assert time.monotonic() < deadline, f"not folded within {WITHIN} s"
            time.sleep(0.05)


def test_the_worker_s_lag_in_records_and_seconds_is_in_metrics(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``munchlog_projection_lag`` and ``_seconds``: the records not folded yet, and how long
    the oldest has waited (its ``received_at``, here a day of 2020)."""
    monkeypatch.setattr("service.games.utc_now", lambda: "2020-01-01T10:00:00.000001+00:00")
    create_game(client)
    samples = _scrape(client)
    lag = _value(samples, "munchlog_projection_lag", projection="match_histories")
    waited = _value(samples, "munchlog_projection_lag_seconds", projection="match_histories")
    assert lag > 0 and waited > 3600
    assert client.get("/api/players/nobody/games").status_code == 200  # inline: catches up
    samples = _scrape(client)
    assert _value(samples, "munchlog_projection_lag", projection="match_histories") == 0
    assert _value(samples, "munchlog_projection_lag_seconds", projection="match_histories") == 0


def test_the_stream_follower_s_lag_in_records_and_seconds(app: Flask) -> None:
    """``munchlog_stream_follower_lag`` and ``_seconds``: a follower that has not seen the
    last notifications is that many behind, for as long as it stays there; 0 at the head."""
    from api.streams.process import Hub

    log: GameLog = app.extensions["munchlog"]
    hub = Hub(app)

    async def measure() -> tuple[float, float]:
        hub.loop = asyncio.get_running_loop()
        await hub.measure_lag()
        return hub.metrics.lag._value.get(), hub.metrics.lag_seconds._value.get()

    play_live(log, random.Random(6), 2)
    head = log.store.max_notification_id()
    hub.followed = head - 3
    assert on_its_own_loop(measure) == (3, 0.0)  # behind from now on
    time.sleep(0.05)
    behind, waited = on_its_own_loop(measure)
    assert behind == 3 and waited >= 0.05
    hub.followed = head
    assert on_its_own_loop(measure) == (0, 0.0)
    hub.pool.shutdown()
