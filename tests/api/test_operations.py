"""The operator's side (issue 12, item 4): /healthz, /readyz and /metrics (logs: test_logs.py).

* ``/healthz`` answers without the database; ``/readyz`` checks it (and answers 503 in the
  error shape when it does not answer, also for a PostgreSQL that really went away) and
  reports the match histories' lag, 503 over ``MUNCHLOG_READY_MAX_LAG`` in worker mode;
  neither reads a token.
* ``/metrics`` counts requests by route template (the hot path's too), batches, actions,
  events, lost races, version conflicts, storage/damaged answers, and reports the lag; with
  several worker processes every scrape counts every worker's requests.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from prometheus_client.parser import text_string_to_metric_families

from adapters.eventstore import EventStore
from api.app import create_app
from api.ops.metrics import BUCKETS, FLUSH_INTERVAL, HOT_ROUTE, UNMATCHED, Tally, metrics
from domain import find_ruleset
from service.games import GameLog
from service.histories import MatchHistory
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, judge_state, post_actions
from tests.api.test_damaged_storage import Store, garbage
from tests.api.test_hotpath import hot_path
from tests.conftest import PG_URL, require_postgres
from tests.live import free_port, munchlog_serve, pg_schema

RS = find_ruleset("munchkin-ccg")


def _app(backend: dict[str, Any], tmp_path: Path, **config: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
            **backend,
            **config,
        }
    )


@contextlib.contextmanager
def closing(app: Flask) -> Iterator[Flask]:
    try:
        yield app
    finally:
        app.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- health


def test_healthz_answers_without_the_database_and_without_reading_a_token(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("/healthz touched the database")

    for name in ("log_head", "max_notification_id"):
        monkeypatch.setattr(EventStore, name, broken)
    monkeypatch.setattr(GameLog, "list_games", broken)
    for headers in ({}, {"Authorization": "Bearer nonsense"}, {"Authorization": "garbage"}):
        response = client.get("/healthz", headers=headers)
        assert response.status_code == 200
        assert response.get_json() == {"status": "ok"}


def test_readyz_reports_the_lag_of_the_match_histories(app: Flask, client: FlaskClient) -> None:
    log: GameLog = app.extensions["munchlog"]
    ready = client.get("/readyz", headers={"Authorization": "garbage"})
    assert ready.status_code == 200
    assert ready.get_json() == {
        "status": "ready",
        "projections": "inline",
        "projection": {"position": 0, "head": 0, "lag": 0},
        "max_lag": None,
    }
    create_game(client)
    head = log.store.max_notification_id()
    assert client.get("/readyz").get_json()["projection"] == {
        "position": 0,
        "head": head,
        "lag": head,
    }
    client.get("/api/players/Alice/games")  # inline: a read catches up
    assert client.get("/readyz").get_json()["projection"]["lag"] == 0


def test_readyz_is_503_in_the_error_shape_when_the_database_does_not_answer(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def gone(*args: Any, **kwargs: Any) -> Any:
        raise OSError("connection refused")

    recorder = client.application.extensions["munchlog"].store.recorder
    if "postgres" in type(recorder).__module__:  # PostgreSQL: no connection to be had
        monkeypatch.setattr(recorder.datastore.pool, "connection", gone)
    else:
        monkeypatch.setattr(type(recorder), "max_notification_id", gone)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.get_json() == {
        "error": {
            "code": "storage/unavailable",
            "message": "the database did not answer (OSError)",
        }
    }
    assert client.get("/healthz").status_code == 200  # alive, not ready
    metrics = client.get("/metrics")
    assert metrics.status_code == 200
    assert _value(_samples(metrics.get_data(as_text=True)), "munchlog_storage_up") == 0


def test_readyz_is_503_when_the_worker_is_further_behind_than_allowed(
    backend: dict[str, Any], tmp_path: Path
) -> None:
    with closing(
        _app(backend, tmp_path, MUNCHLOG_PROJECTIONS="worker", MUNCHLOG_READY_MAX_LAG="0")
    ) as app:
        client = app.test_client()
        assert client.get("/readyz").status_code == 200  # an empty log: nothing behind
        create_game(client)
        lagging = client.get("/readyz")
        assert lagging.status_code == 503
        error = lagging.get_json()["error"]
        assert error["code"] == "projection/lagging"
        head = app.extensions["munchlog"].store.max_notification_id()
        assert f"{head} notifications behind the log" in error["message"]
        assert set(lagging.get_json()) == {"error"}
        MatchHistory(app.extensions["munchlog"]).catch_up()  # what munchlog worker does
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.get_json()["max_lag"] == 0
    with closing(_app(backend, tmp_path, MUNCHLOG_READY_MAX_LAG="0")) as inline:
        client = inline.test_client()
        create_game(client)
        ready = client.get("/readyz")  # inline: the lag is reported, never held against it
        assert ready.status_code == 200 and ready.get_json()["projection"]["lag"] > 0


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("MUNCHLOG_PROJECTIONS", "sometimes"),
        ("MUNCHLOG_READY_MAX_LAG", "-1"),
        ("MUNCHLOG_READY_MAX_LAG", "ten"),
    ],
)
def test_bad_operations_settings_stop_the_start(tmp_path: Path, setting: str, value: str) -> None:
    with pytest.raises(ValueError, match=setting):
        _app({"MUNCHLOG_DATABASE_URL": str(tmp_path / "x.sqlite")}, tmp_path, **{setting: value})


class Proxy:
    """A TCP forwarder to PostgreSQL that can be cut (the database "goes away") and restored,
    or held: it accepts and keeps every connection but forwards nothing until released (a
    database that stops answering without closing its connections)."""

    def __init__(self, port: int, target: tuple[str, int] = ("127.0.0.1", 5432)) -> None:
        self.port = port
        self.target = target
        self.sockets: list[socket.socket] = []
        self.server: socket.socket | None = None
        self.flowing = threading.Event()
        self.flowing.set()

    def hold(self) -> None:
        self.flowing.clear()

    def release(self) -> None:
        self.flowing.set()

    def start(self) -> None:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(16)
        self.server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self.flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        if self.server is not None:
            with contextlib.suppress(OSError):
                self.server.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
            self.server.close()
            self.server = None
        for s in self.sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self.sockets = []


@contextlib.contextmanager
def postgres_behind_proxy() -> Iterator[tuple[Proxy, str]]:
    """A fresh schema on the test PostgreSQL reached through a :class:`Proxy`: ``(proxy, url)``;
    the proxy cut and the schema dropped after."""
    require_postgres()
    proxy = Proxy(free_port())
    proxy.start()
    with pg_schema(PG_URL) as schema:
        try:
            yield proxy, f"postgresql://postgres@127.0.0.1:{proxy.port}/test?schema={schema}"
        finally:
            proxy.cut()


@pytest.mark.postgres
def test_readyz_on_a_postgresql_that_went_away_and_came_back(tmp_path: Path) -> None:
    with postgres_behind_proxy() as (proxy, url):
        app = _app({"MUNCHLOG_DATABASE_URL": url}, tmp_path)
        try:
            client = app.test_client()
            assert client.get("/readyz").status_code == 200
            proxy.cut()
            started = time.monotonic()
            gone = client.get("/readyz")
            assert gone.status_code == 503
            assert gone.get_json()["error"]["code"] == "storage/unavailable"
            assert time.monotonic() - started < 10  # the probe does not wait out the retries
            assert client.get("/healthz").status_code == 200
            proxy.start()
            deadline = time.monotonic() + 30
            while client.get("/readyz").status_code != 200:
                assert time.monotonic() < deadline, "not ready again after the database came back"
                time.sleep(0.2)
        finally:
            with contextlib.suppress(Exception):
                app.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- metrics


def _samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def _value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def _scrape(client: FlaskClient) -> dict[Any, float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    return _samples(response.get_data(as_text=True))


def _setup_actions(game: dict[str, Any]) -> list[dict[str, Any]]:
    cards = {s: [c["id"] for c in game["seats"][s]["cards"]] for s in "AB"}
    return [
        {"type": "draw_opening", "seat": "A", "cards": cards["A"][:6]},
        {"type": "draw_opening", "seat": "B", "cards": cards["B"][:6]},
    ]


def test_metrics_count_requests_by_route_template_the_hot_path_included(
    app: Flask, client: FlaskClient
) -> None:
    game = create_game(client)
    gid = game["game_id"]
    before = _scrape(client)
    served = hot_path(app).served
    assert post_actions(client, gid, game["table_token"], _setup_actions(game)).status_code == 201
    assert hot_path(app).served == served + 1  # the hot path answered it
    refused = post_actions(client, gid, game["table_token"], [{"type": "keep", "seat": "Z"}])
    assert refused.status_code == 403  # no seat Z: answered by the app's handlers
    keyed = post_actions(client, gid, game["judge_token"], [], key="k1")  # Flask's route
    assert keyed.status_code == 400
    client.get(f"/api/games/{gid}/state")
    client.get(f"/api/games/{uuid.uuid4()}/no-such-thing")
    client.open("/healthz", method="BREW")
    after = _scrape(client)

    def delta(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    requests_total = "munchlog_http_requests_total"
    assert delta(requests_total, method="POST", route=HOT_ROUTE, status="201") == 1
    assert (
        delta(requests_total, method="POST", route=HOT_ROUTE, status=str(refused.status_code)) == 1
    )
    assert delta(requests_total, method="POST", route=HOT_ROUTE, status="400") >= 1
    assert (
        delta(requests_total, method="GET", route="/api/games/<game_id>/state", status="200") == 1
    )
    assert delta(requests_total, method="GET", route=UNMATCHED, status="404") == 1
    assert delta(requests_total, method="OTHER", route=UNMATCHED, status="405") == 1
    latency = "munchlog_http_request_duration_seconds_count"
    assert delta(latency, method="POST", route=HOT_ROUTE) == 3
    assert delta("munchlog_http_request_duration_seconds_sum", method="POST", route=HOT_ROUTE) > 0
    names = {name for name, _ in after}
    assert not any(gid in str(labels) for _, labels in after)  # no series per game
    assert "munchlog_http_request_duration_seconds_bucket" in names


def test_tallied_counts_reach_the_counters_when_flushed_and_before_every_scrape(
    client: FlaskClient,
) -> None:
    from prometheus_client import REGISTRY

    found = metrics()
    labels = {"method": "GET", "route": "/tally-test", "status": "200"}
    child = found.requests.labels(*labels.values())

    def counted() -> float:
        return REGISTRY.get_sample_value("munchlog_http_requests_total", labels) or 0.0

    start = counted()
    found.tally.add((child, 2.0), (child, 1.0))
    assert counted() == start  # tallied, not yet added
    found.flush()
    assert counted() == start + 3
    found.flush()  # the tally was emptied: nothing is added twice
    assert counted() == start + 3
    found.tally.add((child, 4.0))
    assert _value(_scrape(client), "munchlog_http_requests_total", **labels) == start + 7


def test_metrics_count_batches_actions_events_lost_races_and_conflicts(
    make_app: Callable[[], Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    import service.games

    # a worker decides on its cached copy however long ago it saw the game (TRUST_CACHE_FOR)
    monkeypatch.setattr(service.games, "TRUST_CACHE_FOR", 1e9)
    app, twin = make_app(), make_app()  # two processes on one store
    client = app.test_client()
    game = create_game(client)
    gid = game["game_id"]
    for one in (app, twin):  # both cache the game
        one.test_client().get(f"/api/games/{gid}/state", headers=bearer(game["judge_token"]))
    state = judge_state(client, game)
    first, second = RS.legal_commands(state, "A")[0], RS.legal_commands(state, "B")[0]
    before = _scrape(client)
    won = post_actions(twin.test_client(), gid, game["table_token"], [first])
    assert won.status_code == 201
    # app's copy is stale: its save loses the race, the batch is decided again and lands
    raced = post_actions(client, gid, game["table_token"], [second])
    assert raced.status_code == 201
    late = post_actions(client, gid, game["table_token"], [first], expected_version=1)
    assert late.status_code == 409
    after = _scrape(client)

    def delta(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    events = len(won.get_json()["events"]) + len(raced.get_json()["events"])
    assert delta("munchlog_recorded_batches_total", source="actions") == 2
    assert delta("munchlog_recorded_actions_total") == 2
    assert delta("munchlog_recorded_events_total", source="actions") == events
    assert delta("munchlog_lost_races_total") == 1
    assert delta("munchlog_version_conflicts_total") == 1


def test_metrics_count_storage_damaged_answers(backend: dict[str, Any], tmp_path: Path) -> None:
    with closing(_app(backend, tmp_path)) as app:
        client = app.test_client()
        game = create_game(client)
        post_actions(client, game["game_id"], game["table_token"], _setup_actions(game))
        garbage(Store(backend["MUNCHLOG_DATABASE_URL"]), game["game_id"], 2)
        before = _scrape(client)
    with closing(_app(backend, tmp_path)) as fresh:
        client = fresh.test_client()
        damaged = client.get(f"/api/games/{game['game_id']}/state")
        assert damaged.status_code == 503
        assert damaged.get_json()["error"]["code"] == "storage/damaged"
        after = _scrape(client)
    damaged_total = "munchlog_storage_damaged_total"
    assert _value(after, damaged_total) - _value(before, damaged_total) == 1


def test_metrics_report_the_projection_lag_as_readyz_does(app: Flask, client: FlaskClient) -> None:
    create_game(client)
    ready = client.get("/readyz").get_json()["projection"]
    samples = _scrape(client)
    assert _value(samples, "munchlog_storage_up") == 1
    assert _value(samples, "munchlog_log_head") == ready["head"] > 0
    assert _value(samples, "munchlog_projection_position", projection="match_histories") == 0
    assert _value(samples, "munchlog_projection_lag", projection="match_histories") == ready["lag"]


def test_every_scrape_counts_every_worker_of_a_server(tmp_path: Path) -> None:
    """``munchlog serve --workers 2``: prometheus-client's multiprocess mode in a temporary
    directory; whichever worker answers a scrape counts the requests of both (per process, a
    scrape would see only its own worker's share), each worker's as of at most
    ``FLUSH_INTERVAL`` seconds ago (its tally is flushed that often)."""
    with munchlog_serve(tmp_path, "metrics-organizer", workers=2) as (port, _env):
        base = f"http://127.0.0.1:{port}"
        for _ in range(40):  # a new connection each: the kernel spreads them over the workers
            assert requests.get(f"{base}/healthz", headers={"Connection": "close"}).ok
        time.sleep(2 * FLUSH_INTERVAL)
        counts = set()
        for _ in range(8):
            text = requests.get(f"{base}/metrics", headers={"Connection": "close"}).text
            counts.add(
                _value(
                    _samples(text),
                    "munchlog_http_requests_total",
                    method="GET",
                    route="/healthz",
                    status="200",
                )
            )
    assert counts == {40.0}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["201", "422"]),
            st.one_of(st.sampled_from(BUCKETS), st.floats(0, 20, allow_nan=False)),
        ),
        max_size=40,
    ),
    st.integers(1, 3),
)
def test_a_tally_flushed_adds_what_prometheus_clients_own_calls_add(
    requests_seen: list[tuple[str, float]], flushes: int
) -> None:
    """:class:`api.ops.metrics.Tally` against ``Counter.inc`` and ``Histogram.observe`` one by one,
    on the bucket bounds themselves and between them, flushed once or several times."""
    from prometheus_client import CollectorRegistry
    from prometheus_client import Counter as PCounter
    from prometheus_client import Histogram as PHistogram

    def metrics_in(registry: CollectorRegistry) -> tuple[Any, Any]:
        counter = PCounter("t_requests", "", ["status"], registry=registry)
        histogram = PHistogram("t_seconds", "", ["status"], buckets=BUCKETS, registry=registry)
        return counter, histogram

    direct, tallied = CollectorRegistry(), CollectorRegistry()
    (c1, h1), (c2, h2) = metrics_in(direct), metrics_in(tallied)
    tally = Tally(BUCKETS)
    for i, (status, seconds) in enumerate(requests_seen):
        c1.labels(status).inc()
        h1.labels(status).observe(seconds)
        tally.request(c2.labels(status), h2.labels(status), seconds)
        if i % flushes == 0:
            tally.flush()
    tally.flush()

    def samples(registry: CollectorRegistry) -> dict[Any, float]:
        return {
            (s.name, frozenset(s.labels.items())): s.value
            for family in registry.collect()
            for s in family.samples
            if not s.name.endswith("_created")
        }

    assert samples(tallied) == pytest.approx(samples(direct))
