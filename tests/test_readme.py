"""The README's promises: its two commands, and the curl walk-through, work as written."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.live import munchlog_serve

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```bash\n(.+?)\n```", text)[:2]


def test_the_readme_starts_with_the_two_commands() -> None:
    head = (ROOT / "README.md").read_text().split("---")[0]
    assert head.count("```bash") == 2
    run, test = _commands()
    assert "munchlog demo" in run and "munchlog serve" in run
    assert "pytest" in test


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    _, test = _commands()
    ci_test = (ROOT / ".ci" / "test").read_text()
    assert test in ci_test.splitlines()
    assert "bash .ci/test" in (ROOT / ".ci" / "run").read_text()
    assert "MUNCHLOG_REQUIRE_POSTGRES=1" in (ROOT / ".ci" / "run").read_text()


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walk-through uses curl")
def test_the_curl_walkthrough_records_a_short_game(tmp_path: Path) -> None:
    with munchlog_serve(tmp_path, "walkthrough-organizer") as (port, env):
        out = subprocess.run(
            ["bash", str(ROOT / "docs" / "walkthrough.sh")],
            env={**env, "M": f"http://127.0.0.1:{port}", "ORG": "walkthrough-organizer"},
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    lines = out.strip().splitlines()
    assert lines[0].startswith("{'commitment': ") and "'hidden': True" in lines[0]
    assert "'CaughtCheating'" in lines[1]
    assert '"code":"rule/not_your_turn"' in lines[2]
    assert lines[-2] == "('finished', 'A', 1)"
    assert lines[-1] == "['GameCreated', 'OpeningHandDrawn', 'OpeningHandDrawn']"
