"""api/gunicorn_conf.py: the production gunicorn settings `munchlog serve` also applies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from api import gunicorn_conf


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
    assert settings["threads"] == "2"
    assert settings["worker_class"] == "gthread"
    assert settings["post_worker_init"] == "<post_worker_init()>"
