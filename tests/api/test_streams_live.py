"""Live streams over real HTTP: ``munchlog serve`` starts the stream process beside the
workers; a seat's client that asks the workers is redirected there with a ticket; events
arrive as they are committed (by another process: the follower reads the shared SQLite log);
a dropped connection resumes by ``Last-Event-ID``; heartbeats; and deploy/nginx.conf passes a
stream unbuffered, over HTTP/1.1 and over TLS with HTTP/2 (docs/streams.md)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask

from api.app import create_app
from tests.api.test_proxy import _nginx
from tests.api.test_streams import record_more
from tests.live import munchlog_serve, stored_events
from tests.service.helpers import play_demo
from tests.streams import parse_sse

ORGANIZER = "live-streams-organizer"
CURL = ["curl", "-sk", "--http2", "-m", "3"]


class Reader:
    """An SSE response read line by line as it arrives."""

    def __init__(self, response: requests.Response) -> None:
        self.response = response
        self.lines = response.iter_lines(chunk_size=1, decode_unicode=True)
        self.text = ""

    def until(self, done: Any, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while not done(self.text):
            assert time.monotonic() < deadline, f"timed out; got {self.text[-300:]!r}"
            self.text += next(self.lines) + "\n"
        return self.text

    def until_version(self, version: int) -> list[dict[str, Any]]:
        head = f"id: {version}\n"
        self.until(lambda t: head in t and "\n\n" in t.split(head, 1)[1])
        return [json.loads(e["data"]) for e in parse_sse(self.text)]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("streams-live")
    with munchlog_serve(tmp, ORGANIZER, extra_env={"MUNCHLOG_STREAM_HEARTBEAT": "0.5"}) as (
        port,
        env,
    ):
        app: Flask = create_app(
            {"INSTANCE_PATH": str(tmp / "instance"), "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER}
        )
        try:
            yield {"port": port, "env": env, "app": app, "tmp": tmp}
        finally:
            app.extensions["munchlog"].close()


def test_a_seat_asking_the_workers_streams_as_itself_live(served: dict[str, Any]) -> None:
    app, base = served["app"], f"http://127.0.0.1:{served['port']}"
    game = play_demo(app.extensions["munchlog"], seed=21, max_actions=5)
    gid, b = str(game.game_id), game.tokens["B"]
    # requests drops the Authorization header on the redirect to another port: the ticket
    # in the Location stands for it
    response = requests.get(
        f"{base}/api/games/{gid}/stream",
        headers={"Authorization": f"Bearer {b}"},
        stream=True,
        timeout=20,
    )
    assert response.status_code == 200, response.text
    assert response.history and response.history[0].status_code == 307
    assert f":{served['env'].stream_port}/" in response.url and b not in response.url
    reader = Reader(response)
    assert reader.until_version(game.version) == [
        stored_events(base, gid, b)[v] for v in range(1, game.version + 1)
    ]
    # recorded by another process (this one), committed, then on the stream
    current = record_more(app.test_client(), app, gid, game.tokens["table"], 4, seed=1)
    items = reader.until_version(current)
    assert [i["version"] for i in items] == list(range(1, current + 1))
    assert items == [stored_events(base, gid, b)[v] for v in range(1, current + 1)]
    reader.until(lambda t: ": heartbeat" in t)
    response.close()  # the connection drops; the client resumes after the last id it had
    after = record_more(app.test_client(), app, gid, game.tokens["table"], 3, seed=2)
    stream_base = f"http://127.0.0.1:{served['env'].stream_port}"
    resumed = requests.get(
        f"{stream_base}/api/games/{gid}/stream",
        headers={"Authorization": f"Bearer {b}", "Last-Event-ID": str(current)},
        stream=True,
        timeout=20,
    )
    more = Reader(resumed).until_version(after)
    resumed.close()
    assert [i["version"] for i in more] == list(range(current + 1, after + 1))


def test_a_spectator_needs_no_ticket_and_a_page_gets_one(served: dict[str, Any]) -> None:
    app, base = served["app"], f"http://127.0.0.1:{served['port']}"
    game = play_demo(app.extensions["munchlog"], seed=22, max_actions=3)
    gid = str(game.game_id)
    redirect = requests.get(f"{base}/api/games/{gid}/stream?after=1", allow_redirects=False)
    assert redirect.status_code == 307 and "ticket" not in redirect.headers["Location"]
    made = requests.post(
        f"{base}/api/games/{gid}/stream-tickets",
        headers={"Authorization": f"Bearer {game.tokens['A']}"},
        timeout=10,
    ).json()
    assert made["url"].startswith(f"http://127.0.0.1:{served['env'].stream_port}/api/games/{gid}")
    with requests.get(made["url"], stream=True, timeout=20) as first:
        assert first.status_code == 200
    again = requests.get(made["url"], timeout=10)
    assert again.status_code == 401 and again.json()["error"]["code"] == "auth/invalid_ticket"
    # the viewer's page allows the stream's origin in its Content-Security-Policy
    page = requests.get(f"{base}/games/{gid}", timeout=10)
    assert (
        f"connect-src 'self' http://127.0.0.1:{served['env'].stream_port}"
        in (page.headers["Content-Security-Policy"])
    )


def test_the_workers_metrics_count_the_stream_process_s_streams(served: dict[str, Any]) -> None:
    """One scrape for the deployment: ``munchlog serve`` (here one worker) runs the workers and
    the stream process in prometheus-client's multiprocess mode, so the workers' ``/metrics``
    has the stream process's series (api/streams/metrics.py); the stream process answers its
    own ``/metrics`` too."""
    app, base = served["app"], f"http://127.0.0.1:{served['port']}"
    stream_base = f"http://127.0.0.1:{served['env'].stream_port}"
    game = play_demo(app.extensions["munchlog"], seed=23, max_actions=3)

    def series(url: str) -> dict[str, float]:
        text = requests.get(f"{url}/metrics", timeout=10).text
        return {
            name: float(value)
            for name, _, value in (line.rpartition(" ") for line in text.splitlines())
            if name.startswith("munchlog_stream")
        }

    before = series(base)
    opened = 'munchlog_streams_opened_total{viewer="spectator"}'
    with requests.get(
        f"{stream_base}/api/games/{game.game_id}/stream", stream=True, timeout=20
    ) as response:
        reader = Reader(response)  # kept: its lines' generator, collected, closes the stream
        reader.until_version(game.version)
        deadline = time.monotonic() + 10
        while True:  # the stream process adds its counts to the files once a second
            now = series(base)
            if now.get("munchlog_streams_open", 0) >= 1 and now.get(opened, 0) > before.get(
                opened, 0
            ):
                break
            assert time.monotonic() < deadline, now
            time.sleep(0.2)
        own = series(stream_base)
    assert own["munchlog_streams_open"] >= 1 and own[opened] >= 1
    assert now["munchlog_stream_written_bytes_total"] > before.get(
        "munchlog_stream_written_bytes_total", 0
    )


def test_nginx_passes_a_stream_unbuffered_over_http1_and_http2(served: dict[str, Any]) -> None:
    app, env = served["app"], served["env"]
    game = play_demo(app.extensions["munchlog"], seed=23, max_actions=3)
    gid, a = str(game.game_id), game.tokens["A"]
    tls: list[int] = []
    proxy_dir: Path = served["tmp"] / "nginx"
    proxy_dir.mkdir(exist_ok=True)
    with _nginx(proxy_dir, served["port"], env.stream_port, tls) as proxy_port:
        base = f"http://127.0.0.1:{proxy_port}"
        # the workers behind the proxy hand out tickets for this same origin
        made = requests.post(
            f"{base}/api/games/{gid}/stream-tickets",
            headers={"Authorization": f"Bearer {a}"},
            timeout=10,
        ).json()
        assert made["url"].startswith(f"/api/games/{gid}/stream?ticket=")
        response = requests.get(base + made["url"], stream=True, timeout=20)
        assert response.status_code == 200
        reader = Reader(response)
        reader.until_version(game.version)
        current = record_more(app.test_client(), app, gid, game.tokens["table"], 2, seed=3)
        # unbuffered: the new events come while the response is still open
        assert [i["version"] for i in reader.until_version(current)][-1] == current
        response.close()
        if shutil.which("curl") is None:
            pytest.skip("curl is not installed: HTTP/2 not checked")
        url = f"https://127.0.0.1:{tls[0]}/api/games/{gid}/stream?after={current - 1}"
        h2 = subprocess.run(
            [*CURL, "-o", "/dev/null", "-w", "%{http_version}", url],
            capture_output=True,
            text=True,
        )
        assert h2.stdout == "2", h2  # (curl stops it after 3 s: the stream stays open)
        body = subprocess.run(
            [*CURL, "-H", f"Authorization: Bearer {a}", url],
            capture_output=True,
            text=True,
        )
        assert f"id: {current}\n" in body.stdout and f"id: {current - 1}\n" not in body.stdout


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGKILL"])
def test_the_stream_process_stops_with_serve(tmp_path: Path, signal_name: str) -> None:
    """``munchlog serve`` stopped (SIGTERM) or killed (SIGKILL): its stream process does not
    outlive it (the port is free again), so a restart finds its ports free."""
    import signal
    import socket

    with munchlog_serve(tmp_path, ORGANIZER) as (_port, env):
        with socket.create_connection(("127.0.0.1", env.stream_port), 2):
            pass  # the stream process listens
        env.process.send_signal(getattr(signal, signal_name))
        env.process.wait(30)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", env.stream_port), 0.5).close()
            except OSError:
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the stream process outlived serve's {signal_name}")
