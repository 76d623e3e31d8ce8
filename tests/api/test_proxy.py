"""deploy/nginx.conf: behind the documented reverse proxy, every refusal keeps the JSON error shape.

munchlog's own errors pass through untouched; what nginx refuses itself (a request line or
headers too long), granian's body-less 414/431 and an unreachable upstream come back as
``{"error": {"code", "message"}}``. Skips with the reason where nginx is not installed.
"""

from __future__ import annotations

import http.client
import json
import shutil
import subprocess
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


def test_every_refusal_through_the_proxy_is_in_the_json_error_shape(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if nginx is None:
        pytest.skip("nginx is not installed: deploy/nginx.conf is not checked here")
    with munchlog_serve(tmp_path, "proxy-organizer") as (port, _):
        # a free port may be taken by another process before nginx binds it: then try another
        for _attempt in range(3):
            proxy_port = free_port()
            conf = (ROOT / "deploy" / "nginx.conf").read_text()
            conf = conf.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{port};")
            conf = conf.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{proxy_port};")
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
        answers = {
            "ok": _request(proxy_port, "GET", "/api/games"),
            "munchlog's 404": _request(proxy_port, "GET", "/api/games/nope"),
            "nginx 414": _request(proxy_port, "GET", "/api/games?x=" + "a" * 70_000),
            "granian 431": _request(
                proxy_port, "GET", "/api/games", {f"X-H{i}": "v" for i in range(120)}
            ),
            "nginx 494": _request(proxy_port, "GET", "/api/games", {"X-Big": "v" * 40_000}),
        }
    try:
        answers["upstream down"] = _request(proxy_port, "GET", "/api/games")
    finally:
        subprocess.run(
            [nginx, "-p", str(ROOT), "-c", str(tmp_path / "nginx.conf"), "-s", "stop"], check=False
        )
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
