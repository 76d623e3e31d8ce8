"""api/gunicorn_conf.py: the production gunicorn settings `munchlog serve` also applies."""

from __future__ import annotations

import http.client
import logging
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from api import gunicorn_conf
from tests.live import munchlog_serve


def test_each_worker_gets_the_short_gil_switch_interval() -> None:
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        gunicorn_conf.post_worker_init(None)
        assert sys.getswitchinterval() == gunicorn_conf.SWITCH_INTERVAL < 0.005
    finally:
        sys.setswitchinterval(before)


def test_gunicorn_reads_the_settings_module() -> None:
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:api.gunicorn_conf",
            "--print-config",
            "api.app:create_app()",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    ).stdout
    settings = {
        key.strip(): value.strip()
        for key, _, value in (line.partition(" = ") for line in out.splitlines())
    }
    assert settings["workers"] == "2"
    assert settings["threads"] == str(gunicorn_conf.threads) == "4"
    assert settings["worker_class"] == "gthread"
    assert settings["post_worker_init"] == "<post_worker_init()>"
    assert settings["pre_request"] == "<pre_request()>"


def test_a_connection_is_closed_after_its_hundredth_request_and_not_before() -> None:
    worker = SimpleNamespace(log=logging.getLogger("test"))
    for number, closes in ((1, False), (99, False), (100, True), (101, False), (200, True)):
        req = SimpleNamespace(req_number=number, must_close=False, method="GET", path="/")
        gunicorn_conf.pre_request(worker, req)
        assert req.must_close is closes, number


def test_munchlog_serve_closes_keep_alive_connections_after_100_responses(
    tmp_path: Path,
) -> None:
    """Through a live ``munchlog serve``: responses 1-99 on one connection keep it open, the
    100th says ``Connection: close`` (so a long-lived client reconnects, maybe elsewhere)."""
    with munchlog_serve(tmp_path, "keepalive-test") as (port, _):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        sock_ids = set()
        for number in range(1, gunicorn_conf.KEEPALIVE_REQUESTS + 1):
            conn.request("GET", "/api/games?limit=1")
            response = conn.getresponse()
            response.read()
            assert response.status == 200
            assert conn.sock is not None or number == gunicorn_conf.KEEPALIVE_REQUESTS
            if conn.sock is not None:
                sock_ids.add(id(conn.sock))
            closing = (response.getheader("Connection") or "").lower() == "close"
            assert closing is (number == gunicorn_conf.KEEPALIVE_REQUESTS), number
        assert len(sock_ids) == 1  # one connection carried all of them
        conn.close()
