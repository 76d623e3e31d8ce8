"""A live ``munchlog serve`` (gunicorn, one worker) for the tests that need real HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def munchlog_serve(tmp_path: Path, organizer_token: str) -> Iterator[tuple[int, dict[str, str]]]:
    """Run ``munchlog serve --workers 1`` on a free port with its instance in ``tmp_path``;
    yields ``(port, env)`` once the port accepts connections, and stops the server after."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "MUNCHLOG_INSTANCE": str(tmp_path / "instance"),
        "MUNCHLOG_ORGANIZER_TOKEN": organizer_token,
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--workers", "1"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port, env
    finally:
        server.terminate()
        server.wait(10)
