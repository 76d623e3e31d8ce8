"""deploy/nginx.conf: the documented reverse proxy, run for real.

Every refusal keeps the JSON error shape: munchlog's own errors pass through untouched; what
nginx refuses itself (a request line or headers too long, a path it does not route, too many
writes), granian's body-less 414/431 and an unreachable upstream come back as
``{"error": {"code", "message"}}``. Only ``/``, ``/api/``, ``/games/``, ``/events/`` and ``/static/`` are routed
(``/healthz``, ``/readyz`` and ``/metrics`` are for the operator, not the public side), and
writes are rate-limited per client address. Skips with the reason where nginx is not installed.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live import ROOT, free_port, munchlog_serve


def _request(
    port: int, method: str, path: str, headers: dict[str, str] | None = None
) -> tuple[int, str | None, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers=headers or {})
    response = conn.getresponse()
    return response.status, response.getheader("Content-Type"), response.read()


OPENSSL = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]


def self_signed(into: Path) -> tuple[Path, Path]:
    """A throwaway certificate for 127.0.0.1 (openssl), for the TLS/HTTP/2 listener."""
    crt, key = into / "munchlog.crt", into / "munchlog.key"
    if not crt.exists():
        subprocess.run(
            [*OPENSSL, "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(crt)],
            check=True,
            capture_output=True,
        )
    return crt, key


@contextlib.contextmanager
def _nginx(
    tmp_path: Path, upstream_port: int, stream_port: int | None = None, tls: list[int] | None = None
) -> Iterator[int]:
    """deploy/nginx.conf in front of munchlog at ``upstream_port`` (its stream process at
    ``stream_port``): yields the proxy's plain port; ``tls`` receives the TLS/HTTP/2 one."""
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if nginx is None:
        pytest.skip("nginx is not installed: deploy/nginx.conf is not checked here")
    # a free port may be taken by another process before nginx binds it: then try another
    for _attempt in range(3):
        proxy_port = free_port()
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        conf = conf.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream_port};")
        conf = conf.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{proxy_port};")
        tls_port = free_port()
        conf = conf.replace("listen 127.0.0.1:8443 ", f"listen 127.0.0.1:{tls_port} ")
        crt, key = self_signed(tmp_path)
        conf = conf.replace("tls/munchlog.crt;", f"{crt};").replace("tls/munchlog.key;", f"{key};")
        if stream_port is not None:
            conf = conf.replace("server 127.0.0.1:8001;", f"server 127.0.0.1:{stream_port};")
        conf = conf.replace("pid /tmp/munchlog-nginx.pid;", f"pid {tmp_path}/nginx.pid;")
        # a daemon keeps stderr open: log to a file here
        conf = conf.replace("error_log stderr;", f"error_log {tmp_path}/error.log;")
        (tmp_path / "nginx.conf").write_text(conf)
        started = subprocess.run(
            [nginx, "-p", str(ROOT), "-c", str(tmp_path / "nginx.conf")],
            capture_output=True,
            text=True,
        )
        if "Address already in use" not in started.stderr:
            break
    if started.returncode != 0 and "Permission denied" in started.stderr:
        pytest.skip(f"nginx cannot start here: {started.stderr.strip()}")
    assert started.returncode == 0, started.stderr
    if tls is not None:
        tls.append(tls_port)
    try:
        yield proxy_port
    finally:
        subprocess.run(
            [nginx, "-p", str(ROOT), "-c", str(tmp_path / "nginx.conf"), "-s", "stop"], check=False
        )


@pytest.mark.slow
def test_every_refusal_through_the_proxy_is_in_the_json_error_shape(tmp_path: Path) -> None:
    with contextlib.ExitStack() as proxy:
        with munchlog_serve(tmp_path, "proxy-organizer") as (port, _):
            proxy_port = proxy.enter_context(_nginx(tmp_path, port))
            answers = {
                "ok": _request(proxy_port, "GET", "/api/games"),
                "munchlog's 404": _request(proxy_port, "GET", "/api/games/nope"),
                "nginx 414": _request(proxy_port, "GET", "/api/games?x=" + "a" * 70_000),
                "granian 431": _request(
                    proxy_port, "GET", "/api/games", {f"X-H{i}": "v" for i in range(120)}
                ),
                "nginx 494": _request(proxy_port, "GET", "/api/games", {"X-Big": "v" * 40_000}),
            }
        answers["upstream down"] = _request(proxy_port, "GET", "/api/games")
    statuses = {name: status for name, (status, _, _) in answers.items()}
    assert statuses == {
        "ok": 200,
        "munchlog's 404": 404,
        "nginx 414": 414,
        "granian 431": 431,
        "nginx 494": 431,
        "upstream down": 502,
    }
    for name, (_status, content_type, body) in answers.items():
        assert content_type == "application/json", name
        if name != "ok":
            error = json.loads(body)["error"]
            assert error["code"] and error["message"], name
    assert json.loads(answers["munchlog's 404"][2])["error"]["code"] == "game/not_found"


@pytest.mark.slow
def test_the_proxy_routes_only_the_api_and_the_viewer(tmp_path: Path) -> None:
    """``/api/`` (the docs too), ``/games/``, ``/events/``, the pages' ``/static/`` files and
    the home page ``/`` reach munchlog; ``/healthz``, ``/readyz``, ``/metrics`` and any other path are a JSON 404 from
    nginx, though munchlog itself answers them (for the health checks and Prometheus, which
    reach the instances directly)."""
    with (
        munchlog_serve(tmp_path, "routing-organizer") as (port, _),
        _nginx(tmp_path, port) as proxy_port,
    ):
        public = {
            path: _request(proxy_port, "GET", path)
            for path in (
                "/api/games",
                "/api/docs",
                "/api/openapi.json",
                "/static/viewer.js",
                "/games/00000000-0000-4000-8000-000000000000",
                "/events/00000000-0000-4000-8000-000000000000/print/slips",
                "/",
            )
        }
        private = {
            path: (_request(proxy_port, "GET", path), _request(port, "GET", path))
            for path in (
                "/healthz",
                "/readyz",
                "/metrics",
                "/index.html",
                "/apix",
                "/gamesx/1",
                # dot segments are resolved before a location is chosen
                "/api/../healthz",
                "/api/%2e%2e/metrics",
                "/static/..%2freadyz",
                "//healthz",
            )
        }
    viewer = public.pop("/games/00000000-0000-4000-8000-000000000000")
    assert viewer[0] == 404  # munchlog's own answer: there is no such game
    assert json.loads(viewer[2])["error"]["code"] == "game/not_found"
    paper = public.pop("/events/00000000-0000-4000-8000-000000000000/print/slips")
    assert paper[0] == 404  # the event pages are munchlog's too: no such event
    assert json.loads(paper[2])["error"]["code"] == "event/not_found"
    for path, (status, _, body) in public.items():
        assert status == 200, (path, status, body[:200])
    for path, ((status, content_type, body), (direct, _, _)) in private.items():
        assert status == 404, path
        assert content_type == "application/json", path
        assert json.loads(body) == {
            "error": {"code": "request/not_found", "message": "no such path here"}
        }, path
        if path in ("/healthz", "/readyz", "/metrics"):
            assert direct == 200, path  # munchlog answers them: only the proxy hides them


def test_writes_are_rate_limited_per_client_and_reads_are_not(tmp_path: Path) -> None:
    """Writes (POST here) beyond the burst (40 at once, then 20 a second) are refused by nginx
    with 429 in the error shape and ``Retry-After``; reads from the same client still pass."""
    with (
        munchlog_serve(tmp_path, "limit-organizer") as (port, _),
        _nginx(tmp_path, port) as proxy_port,
    ):
        conn = http.client.HTTPConnection("127.0.0.1", proxy_port, timeout=10)
        writes = []
        for _ in range(200):  # munchlog answers each 401 (no token) at once
            conn.request("POST", "/api/games", body=b"{}")
            response = conn.getresponse()
            writes.append(
                (
                    response.status,
                    response.getheader("Content-Type"),
                    response.getheader("Retry-After"),
                    response.read(),
                )
            )
        reads = [_request(proxy_port, "GET", "/api/games")[0] for _ in range(60)]
    statuses = [status for status, _, _, _ in writes]
    assert statuses[:40] == [401] * 40  # the burst passes to munchlog
    assert statuses.count(429) >= 20, statuses
    refused = next(w for w in writes if w[0] == 429)
    assert refused[1] == "application/json"
    assert refused[2] == "1"
    error = json.loads(refused[3])["error"]
    assert error["code"] == "request/too_many_requests" and error["message"]
    assert reads == [200] * 60
