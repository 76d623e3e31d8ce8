"""A live ``munchlog serve`` (granian by default) for the tests that need real HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def pg_schema(url: str, prefix: str = "munchlog_test") -> Iterator[str]:
    """A new PostgreSQL schema in the database at ``url`` (its name: ``<prefix>_<12 hex>``),
    dropped with everything in it after (for a test's or a bench's own tables)."""
    import psycopg

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield schema
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerEnv(dict[str, str]):
    """The server's environment (to run more commands like it), and its ``process``."""

    def __init__(
        self, env: dict[str, str], process: subprocess.Popen[bytes], stream_port: int = 0
    ) -> None:
        super().__init__(env)
        self.process = process
        self.stream_port = stream_port


@contextmanager
def munchlog_serve(
    tmp_path: Path,
    organizer_token: str,
    *,
    server: str | None = None,
    workers: int = 1,
    log: bool = False,
    extra_env: dict[str, str] | None = None,
) -> Iterator[tuple[int, ServerEnv]]:
    """Run ``munchlog serve --workers N [--server S]`` on a free port with its instance in
    ``tmp_path``; yields ``(port, env)`` once the port accepts connections (``env.process`` is
    the server's ``Popen``), and stops the server after. With ``log`` its output goes to
    ``tmp_path / "serve.log"``."""
    port = free_port()
    env: dict[str, str] = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "MUNCHLOG_INSTANCE": str(tmp_path / "instance"),
        "MUNCHLOG_ORGANIZER_TOKEN": organizer_token,
        **(extra_env or {}),
    }
    stream_port = free_port()
    while stream_port == port:
        stream_port = free_port()
    cmd = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)]
    cmd += ["--stream-port", str(stream_port)]
    cmd += ["--workers", str(workers)] + (["--server", server] if server else [])
    out = open(tmp_path / "serve.log", "w") if log else subprocess.DEVNULL  # noqa: SIM115
    process = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError as exc:
                if process.poll() is not None:
                    raise RuntimeError(f"munchlog serve exited: {process.returncode}") from exc
                time.sleep(0.1)
        yield port, ServerEnv(env, process, stream_port)
    finally:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        if log:
            out.close()  # type: ignore[union-attr]


def stored_events(base: str, game_id: str, token: str) -> dict[int, dict[str, Any]]:
    """Every stored event of a game as ``token``'s viewer sees it, by version (all pages of
    ``GET /api/games/<id>/events`` on the live server at ``base``)."""
    import requests

    events: dict[int, dict[str, Any]] = {}
    after = 0
    while True:
        page = requests.get(
            f"{base}/api/games/{game_id}/events",
            params={"after": after, "limit": 1000},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        ).json()
        for event in page["events"]:
            events[event["version"]] = event
            after = event["version"]
        if page["next_after"] is None:
            return events


@contextmanager
def serve_beside_app(folder: Path, organizer: str) -> Iterator[tuple[int, Any]]:
    """A live ``munchlog serve`` and an app in this process on the same SQLite file (to set a
    scene through the app and look at it over HTTP): ``(port, app)``; the app closed after."""
    from api.app import create_app

    db = str(folder / "munchlog.sqlite")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": organizer,
            "MUNCHLOG_DATABASE_URL": db,
        }
    )
    try:
        with munchlog_serve(folder, organizer, extra_env={"MUNCHLOG_DATABASE_URL": db}) as (
            port,
            _,
        ):
            yield port, app
    finally:
        app.extensions["munchlog"].close()
