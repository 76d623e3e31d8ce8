"""api/ops/serving.py: how munchlog is served (granian by default, gunicorn as the alternative).

The live tests run ``munchlog serve`` as a user would, under each server."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from api.ops import gunicorn_conf, serving
from tests.live import ServerEnv, munchlog_serve

ROOT = Path(__file__).resolve().parents[2]


def _app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("200 OK", [("Content-Type", "text/plain"), ("Connection", "keep-alive")])
    return [b"ok"]


def _headers_of(app: Any, n: int) -> list[dict[str, str]]:
    seen: list[dict[str, str]] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        seen.append(dict(headers))

    for _ in range(n):
        app({}, start_response)
    return seen


def test_every_keepalive_requests_th_response_of_a_process_closes_its_connection() -> None:
    spread = serving.SpreadKeepAlive(_app)
    headers = _headers_of(spread, 2 * serving.KEEPALIVE_REQUESTS)
    closing = [i + 1 for i, h in enumerate(headers) if h.get("Connection") == "close"]
    assert closing == [serving.KEEPALIVE_REQUESTS, 2 * serving.KEEPALIVE_REQUESTS]
    # the app's own Connection header is replaced, not doubled
    assert all(list(h).count("Connection") == 1 for h in headers)


def test_the_count_is_shared_by_the_threads_of_a_process() -> None:
    spread = serving.SpreadKeepAlive(_app, every=10)
    closes: list[int] = []
    lock = threading.Lock()

    def run() -> None:
        n = sum(h.get("Connection") == "close" for h in _headers_of(spread, 250))
        with lock:
            closes.append(n)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(closes) == 100  # 1,000 responses, every 10th closes


def test_the_access_log_writes_one_line_per_request_without_query_or_headers() -> None:
    import io
    import re

    stream = io.StringIO()
    log = serving.AccessLog(_app, stream=stream, interval=3600)
    environ = {
        "REMOTE_ADDR": "10.0.0.7",
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/api/games/g/actions",
        "QUERY_STRING": "token=secret-in-query",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_AUTHORIZATION": "Bearer secret-in-header",
    }
    for _ in range(3):
        b"".join(log(environ, lambda status, headers, exc_info=None: None))
    assert stream.getvalue() == ""  # written in batches, not by the request's thread
    log.flush()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert re.fullmatch(
        r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\] 10\.0\.0\.7 - "
        r'"POST /api/games/g/actions HTTP/1\.1" 200 \d+\.\d{3}',
        lines[0],
    ), lines[0]
    assert "secret" not in stream.getvalue()


def test_a_worker_app_has_the_short_switch_interval_and_no_secrets_in_its_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """granian copies the process environment into every WSGI environ: the secrets munchlog
    read to build the app are gone from it afterwards."""
    monkeypatch.setenv("MUNCHLOG_INSTANCE", str(tmp_path))
    monkeypatch.setenv("MUNCHLOG_ORGANIZER_TOKEN", "secret-organizer-token")
    monkeypatch.setenv("MUNCHLOG_DATABASE_URL", str(tmp_path / "m.sqlite"))
    before = sys.getswitchinterval()
    try:
        app = serving.worker_app()
        assert sys.getswitchinterval() == serving.SWITCH_INTERVAL < 0.005
    finally:
        sys.setswitchinterval(before)
    try:
        for name in serving.SECRET_ENV:
            assert name not in os.environ
        assert isinstance(app.wsgi_app, serving.WholeBody)  # outermost: the body comes first
        assert isinstance(app.wsgi_app.app, serving.SpreadKeepAlive)
        client = app.test_client()
        listed = client.get(
            "/api/games", headers={"Authorization": "Bearer secret-organizer-token"}
        )
        assert listed.status_code == 200  # the token it read still works
    finally:
        app.extensions["munchlog"].close()


def test_gunicorn_reads_the_settings_module() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:api.ops.gunicorn_conf",
            "--print-config",
            "api.ops.serving:worker_app()",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    ).stdout
    settings = {
        key.strip(): value.strip()
        for key, _, value in (line.partition(" = ") for line in out.splitlines())
    }
    assert settings["workers"] == str(serving.WORKERS) == "2"
    assert settings["threads"] == str(gunicorn_conf.threads) == str(serving.THREADS)
    assert settings["worker_class"] == "gthread"
    assert settings["graceful_timeout"] == str(serving.GRACEFUL_TIMEOUT)
    assert settings["pre_request"] == "<pre_request()>"


def test_gunicorn_closes_a_connection_after_its_thousandth_request_and_not_before() -> None:
    """gunicorn ignores an app's ``Connection`` header, so its hook does the spread."""
    import logging
    from types import SimpleNamespace

    n = serving.KEEPALIVE_REQUESTS
    assert n == 1000  # nginx's keepalive_requests default (api/ops/serving.py)
    worker = SimpleNamespace(log=logging.getLogger("test"))
    for number, closes in ((1, False), (n - 1, False), (n, True), (n + 1, False), (2 * n, True)):
        req = SimpleNamespace(req_number=number, must_close=False, method="GET", path="/")
        gunicorn_conf.pre_request(worker, req)
        assert req.must_close is closes, number


@pytest.fixture(params=serving.SERVERS)
def server_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.slow
def test_munchlog_serve_closes_keep_alive_connections_after_1000_responses(
    tmp_path: Path, server_kind: str
) -> None:
    """Through a live ``munchlog serve`` (one worker): responses 1-999 on one connection keep it
    open, the 1,000th says ``Connection: close`` and the server closes it (so a long-lived
    client reconnects, maybe to another worker)."""
    with munchlog_serve(tmp_path, "keepalive-test", server=server_kind) as (port, _):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        sock_ids = set()
        for number in range(1, serving.KEEPALIVE_REQUESTS + 1):
            conn.request("GET", "/api/games?limit=1")
            response = conn.getresponse()
            response.read()
            assert response.status == 200
            if conn.sock is not None:
                sock_ids.add(id(conn.sock))
            closing = (response.getheader("Connection") or "").lower() == "close"
            assert closing is (number == serving.KEEPALIVE_REQUESTS), number
        assert len(sock_ids) == 1  # one connection carried all of them
        conn.close()


def test_the_access_log_names_requests_but_never_a_token(tmp_path: Path, server_kind: str) -> None:
    token = "organizer-token-that-must-not-be-logged"
    with munchlog_serve(tmp_path, token, server=server_kind, log=True) as (port, _env):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for path in ("/api/games?limit=1", f"/api/games?token={token}"):
            conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
            conn.getresponse().read()
        conn.close()
        time.sleep(0.5)
    log = (tmp_path / "serve.log").read_text()
    assert "GET /api/games" in log  # there is an access log
    assert token not in log.split("organizer token", 1)[1].split("\n", 2)[2]


@pytest.mark.slow
def test_sigterm_lets_the_requests_in_flight_finish_and_loses_no_acknowledged_write(
    tmp_path: Path, server_kind: str
) -> None:
    """Graceful shutdown under load: 4 tables keep recording (``bench/record_bench.py``'s
    games: ``activate`` / ``resolve`` forever) through 2 workers until SIGTERM stops the
    server; every batch that was acknowledged (201) is in the store afterwards, the log has no
    gap, and the server exits 0."""
    from api.app import create_app
    from bench.record_bench import bodies, new_game

    token = "shutdown-organizer"
    extra = {"MUNCHLOG_ORGANIZER_TOKEN": token}
    with munchlog_serve(tmp_path, token, server=server_kind, workers=2, extra_env=extra) as (
        port,
        env,
    ):
        process = env.process
        base = f"http://127.0.0.1:{port}"
        import bench.record_bench as record_bench

        record_bench.TOKEN = token
        games = [new_game(base, i) for i in range(4)]
        acknowledged: dict[str, list[int]] = {gid: [] for gid, _, _ in games}
        stop = threading.Event()

        def record(gid: str, table: str, hero: str) -> None:
            pair = bodies(hero)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            n = 0
            while not stop.is_set():
                try:
                    conn.request(
                        "POST",
                        f"/api/games/{gid}/actions",
                        body=pair[n % 2],
                        headers={
                            "Authorization": f"Bearer {table}",
                            "Content-Type": "application/json",
                        },
                    )
                    response = conn.getresponse()
                    answer = json.loads(response.read())
                except (OSError, http.client.HTTPException, ValueError):
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    time.sleep(0.01)
                    continue
                if response.status == 201:
                    acknowledged[gid].append(answer["version"])
                if response.status in (201, 422):  # 422: out of step after a lost reply
                    n += 1

        threads = [threading.Thread(target=record, args=game, daemon=True) for game in games]
        for t in threads:
            t.start()
        try:
            time.sleep(1.5)
            process.send_signal(signal.SIGTERM)
            assert process.wait(40) == 0
        finally:  # the clients stop even when the server did not exit as it should
            stop.set()
            for t in threads:
                t.join(15)
    app = create_app(
        {"INSTANCE_PATH": str(tmp_path / "instance"), "MUNCHLOG_ORGANIZER_TOKEN": token}
    )
    log = app.extensions["munchlog"]
    try:
        for gid, _, _ in games:
            assert len(acknowledged[gid]) > 5, "every table had writes acknowledged"
            stored = [r["version"] for r in log.all_records(__import__("uuid").UUID(gid))]
            assert stored == list(range(1, len(stored) + 1))
            assert set(acknowledged[gid]) <= set(stored)
    finally:
        log.close()


def test_slow_clients_do_not_stall_the_service(tmp_path: Path) -> None:
    """More clients than worker threads (2 workers x 4) holding half-sent headers or bodies:
    granian reads requests on its own runtime and calls the app with complete ones only, so a
    normal request still gets its answer at once (gunicorn gthread would give each a thread:
    README says to put a buffering proxy in front of it)."""
    import socket

    with munchlog_serve(tmp_path, "slow-clients", workers=2) as (port, _):
        slow = []
        try:
            for i in range(24):
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                if i % 2:
                    s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # headers never end
                else:
                    s.sendall(
                        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                        b"\r\nContent-Length: 1000\r\n\r\n{"  # a body that never comes
                    )
                slow.append(s)
            time.sleep(0.5)
            started = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/api/games?limit=1")
            response = conn.getresponse()
            response.read()
            elapsed = time.monotonic() - started
            assert response.status == 200
            assert elapsed < 2.0, elapsed  # not waiting for a slow client to give up
        finally:
            for s in slow:
                s.close()


def test_a_second_serve_on_a_taken_port_refuses_with_one_line_and_a_non_zero_exit(
    tmp_path: Path, server_kind: str
) -> None:
    """granian binds with SO_REUSEPORT: without a check, a second ``munchlog serve`` on the same
    port (another database) would listen beside the first, and the kernel would hand requests
    to either at random."""
    first = tmp_path / "first"
    first.mkdir()
    with munchlog_serve(first, "port-owner", server=server_kind) as (port, env):
        env = ServerEnv({**env, "MUNCHLOG_INSTANCE": str(tmp_path / "second")}, env.process)
        cmd = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port), "--server"]
        cmd += [server_kind, "--db", str(tmp_path / "other.sqlite")]
        second = subprocess.Popen(
            cmd,
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its workers too are stopped if it did start
        )
        try:
            out, err = second.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(second.pid, signal.SIGKILL)
            out, err = second.communicate()
            raise AssertionError(f"a second server started on port {port}: {out}{err}") from None
        errors = err.strip().splitlines()
        assert second.returncode != 0
        assert len(errors) == 1, err  # one line, no traceback
        assert f"port {port}" in errors[0] and "in use" in errors[0], errors[0]
        assert "Listening" not in out + err
        # the first server is the one answering, alone
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200


def test_a_port_another_program_holds_is_refused_before_any_server_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import socket

    monkeypatch.setenv("MUNCHLOG_ACCESS_LOG", "0")  # run() sets them for the workers
    monkeypatch.setenv("MUNCHLOG_THREADS", str(serving.THREADS))
    started: list[int] = []
    monkeypatch.setattr(serving, "_run_granian", lambda *args: started.append(args[2]))
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        with pytest.raises(serving.PortInUse) as refused:
            serving.run(host="127.0.0.1", port=port)
        assert started == []
    assert refused.value.code == (
        f"munchlog serve: port {port} on 127.0.0.1 is in use (another server is listening "
        "there): stop it or choose another --port"
    )
    serving.run(host="127.0.0.1", port=port)  # free again: the server starts
    assert started == [port]


@pytest.mark.slow
@pytest.mark.parametrize("slow_clients", [8, 32, 128])
def test_slow_request_bodies_do_not_stall_the_service(tmp_path: Path, slow_clients: int) -> None:
    """Clients that send a POST's headers (authorized: the app would read the body) with
    ``Content-Length: 100000``, then a byte a second: granian hands the body to WSGI as a stream
    its Rust runtime fills, so a thread that reads it waits for the client. Those threads are
    not the app's (``api.ops.serving.WholeBody``): ``/healthz`` and a normal POST are answered at
    once while all of them hang, with 8, 32 and 128 of them (2 workers x 4 app threads).

    granian's pool of blocking threads grows lazily, one thread per arriving request, and can
    count a thread as idle in the instant after it took a request (granian 2.8.9,
    ``src/blocking.rs``: ``idle`` is decreased only after ``recv`` returned). A request that
    arrives in that instant is queued without a new thread, behind the slow bodies that hold
    every thread: it waits for the next request to arrive, which adds a thread. It happened
    about once in 60 runs of this test on a loaded machine (a 10 s timeout in CI). So a probe
    not answered in 3 s gets more requests on new connections (:func:`_nudged_until_answered`),
    and must then be answered within 3 s: were slow bodies holding the app's threads, none would be.
    """
    import socket

    from bench.record_bench import game_body

    token = "slow-bodies"
    with munchlog_serve(tmp_path, token, workers=2) as (port, _):
        head = (
            "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {token}\r\nContent-Length: 100000\r\n\r\n"
        ).encode()
        slow: list[socket.socket] = []
        nudges: list[tuple[str, str]] = []
        stop = threading.Event()

        def drip() -> None:  # a byte a second on every slow connection
            while not stop.wait(1.0):
                for s in slow:
                    with contextlib.suppress(OSError):
                        s.sendall(b" ")

        dripping = threading.Thread(target=drip, daemon=True)
        try:
            for _ in range(slow_clients):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.sendall(head + b"{")
                slow.append(s)
            dripping.start()
            time.sleep(1.5)  # every slow request has reached a worker
            body = json.dumps(game_body("quick", {"event": "slow-bodies"})).encode()
            # 8 requests on new connections: each goes to either worker
            for method, path, payload, expected in 4 * (
                ("GET", "/healthz", None, 200),
                ("POST", "/api/games", body, 201),
            ):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                started = time.monotonic()
                conn.request(
                    method,
                    path,
                    body=payload,
                    headers={
                        "Authorization": f"Bearer {token}",
                        "Content-Type": "application/json",
                    },
                )
                nudged = not _answered(conn, 3.0)
                if nudged:  # granian's pool missed this one (docstring): more requests
                    nudges.append((method, path))
                    assert _nudged_until_answered(conn, port, 3.0), (
                        method,
                        path,
                        "not answered after the nudges",
                    )
                response = conn.getresponse()
                response.read()
                elapsed = time.monotonic() - started
                conn.close()
                assert response.status == expected, (method, path)
                # not waiting behind a slow body
                assert elapsed < (6.5 if nudged else 3.0), (method, path, elapsed)
            assert len(nudges) <= 1, nudges  # a rare race, not the way requests are served
            # the slow clients are still being waited for, not answered or dropped
            for s in slow[:4]:
                s.settimeout(0.1)
                with pytest.raises(TimeoutError):
                    s.recv(1)
        finally:
            stop.set()
            for s in slow:
                s.close()


def _nudged_until_answered(conn: http.client.HTTPConnection, port: int, seconds: float) -> bool:
    """Send ``GET /healthz`` on a new connection every 0.5 s until ``conn``'s response starts
    arriving (True) or ``seconds`` pass (False). Each nudge lands on either worker, and only
    one that lands on the worker holding the queued request adds the thread it waits for (with
    one nudge, CI once saw the queued request still waiting 3 s later)."""
    deadline = time.monotonic() + seconds
    sent: list[http.client.HTTPConnection] = []
    try:
        while time.monotonic() < deadline:
            nudge = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            nudge.request("GET", "/healthz")
            sent.append(nudge)
            if _answered(conn, min(0.5, max(0.0, deadline - time.monotonic()))):
                return True
        return False
    finally:
        for nudge in sent:
            nudge.close()


def _answered(conn: http.client.HTTPConnection, seconds: float) -> bool:
    """Whether ``conn``'s response starts arriving within ``seconds`` (nothing is read)."""
    import select

    assert conn.sock is not None
    readable, _, _ = select.select([conn.sock], [], [], seconds)
    return bool(readable)


class _SlowInput:
    """A ``wsgi.input`` whose ``read`` waits until ``arrived`` is set (a client still sending)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.arrived = threading.Event()
        self.reads: list[int | None] = []

    def read(self, size: int | None = None) -> bytes:
        self.reads.append(size)
        assert self.arrived.wait(30)
        return self.data if size is None else self.data[:size]


def _ignore(*args: Any) -> None:
    """A ``start_response`` that keeps nothing."""


def _echo(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [environ["wsgi.input"].read()]


def test_a_body_is_read_before_the_request_takes_an_app_slot() -> None:
    """With one app slot: a request whose body is still coming holds no slot, so another
    request is served meanwhile; the slow one then runs with its whole body."""
    gate = serving.WholeBody(_echo, 1, lambda path: 100)
    slow = _SlowInput(b'{"a": 1}')
    answers: dict[str, bytes] = {}

    def call(name: str, environ: dict[str, Any]) -> None:
        answers[name] = b"".join(gate(environ, lambda *a: None))

    waiting = threading.Thread(
        target=call, args=("slow", {"CONTENT_LENGTH": "8", "wsgi.input": slow})
    )
    waiting.start()
    while not slow.reads:  # the slow request is waiting for its body
        time.sleep(0.01)
    call("quick", {"CONTENT_LENGTH": "5", "wsgi.input": __import__("io").BytesIO(b"hello")})
    assert answers == {"quick": b"hello"}  # served through the only slot
    slow.arrived.set()
    waiting.join(30)
    assert answers["slow"] == b'{"a": 1}' and slow.reads == [8]


def test_the_body_read_first_is_bounded_by_the_apps_limit() -> None:
    """A Content-Length over the limit is not read (the app refuses it unread, 413); a chunked
    body is read up to one byte past the limit, for the app to refuse."""
    seen: list[Any] = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen.append(environ["wsgi.input"])
        return []

    gate = serving.WholeBody(app, 2, lambda path: 1000 if path == "/big" else 10)
    over = _SlowInput(b"x" * 11)
    over.arrived.set()
    gate({"CONTENT_LENGTH": "11", "PATH_INFO": "/", "wsgi.input": over}, _ignore)
    assert over.reads == [] and seen[-1] is over
    chunked = _SlowInput(b"y" * 50)
    chunked.arrived.set()
    gate({"HTTP_TRANSFER_ENCODING": "chunked", "PATH_INFO": "/", "wsgi.input": chunked}, _ignore)
    assert chunked.reads == [11] and seen[-1].read() == b"y" * 11
    big = _SlowInput(b"z" * 500)
    big.arrived.set()
    gate({"CONTENT_LENGTH": "500", "PATH_INFO": "/big", "wsgi.input": big}, _ignore)
    assert big.reads == [500] and seen[-1].read() == b"z" * 500
    get = _SlowInput(b"")
    gate({"PATH_INFO": "/", "wsgi.input": get}, _ignore)  # no body: nothing read
    assert get.reads == []
    odd = _SlowInput(b"12")  # "\u00b2" passes str.isdigit, not int: left unread to the app
    odd.arrived.set()
    gate({"CONTENT_LENGTH": "\u00b2", "PATH_INFO": "/", "wsgi.input": odd}, _ignore)
    assert odd.reads == [] and seen[-1] is odd


def test_another_target_is_served_behind_the_same_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m api.ops.serving TARGET`` (the benchmarks' bare endpoints) serves TARGET's app
    with the same app slots and body reading as munchlog's."""
    monkeypatch.setenv(serving.TARGET_ENV, "bench.bare_app:create_app")
    monkeypatch.setenv("MUNCHLOG_THREADS", "3")
    monkeypatch.setenv("BARE_DB", str(tmp_path / "bare.sqlite"))
    app = serving.other_app()
    assert isinstance(app.wsgi_app, serving.WholeBody)
    assert app.wsgi_app._slots.qsize() == 3


def test_granian_has_body_readers_beside_the_app_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """granian's blocking threads are the app's ``threads`` (:class:`serving.WholeBody`'s slots,
    passed to the workers as ``MUNCHLOG_THREADS``) plus the threads that may wait for bodies."""
    import granian

    from tests.live import free_port

    built: list[dict[str, Any]] = []

    class Granian:
        def __init__(self, target: str, **options: Any) -> None:
            built.append({"target": target, **options})

        def serve(self) -> None:
            pass

    monkeypatch.setattr(granian, "Granian", Granian)
    monkeypatch.setenv("MUNCHLOG_ACCESS_LOG", "0")  # run() sets them for the workers
    monkeypatch.setenv("MUNCHLOG_THREADS", "0")
    monkeypatch.delenv("MUNCHLOG_BODY_READERS", raising=False)
    serving.run(port=free_port(), threads=3)
    assert built[-1]["blocking_threads"] == 3 + serving.BODY_READERS == 259
    assert built[-1]["target"] == serving.TARGET and os.environ["MUNCHLOG_THREADS"] == "3"
    monkeypatch.setenv("MUNCHLOG_BODY_READERS", "12")
    serving.run(port=free_port())
    assert built[-1]["blocking_threads"] == serving.THREADS + 12
