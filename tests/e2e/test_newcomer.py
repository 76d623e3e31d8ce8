"""A newcomer's first ten minutes (issue 28, item 7): the README's two commands, in order, on a
fresh copy of the repository, then the demo's replay link in Chromium.

Command 2 once broke command 1's running server: both used ``.venv``, and command 1 installed
munchlog as a copy, so command 2's ``pip install -e`` removed the installed ``api/static``: the
running viewer lost ``viewer.js`` and ``viewer.css`` (404) while ``/api`` kept working.

What runs here, as a newcomer would:

1. a copy of the repository's tracked files (its working tree: what a clone of this commit
   holds), in a temporary folder;
2. command 1, verbatim, in the background (``munchlog demo`` then ``munchlog serve``), with a
   fresh per-user data folder (``XDG_DATA_HOME``) and ``MUNCHLOG_PORT`` so that it does not
   collide with a server already on 8000;
3. command 2's install step, verbatim, into the same ``.venv`` while command 1 serves; then
   that environment's pytest on ``tests/test_readme.py`` only (command 2 runs the whole suite,
   this test included: running it from inside the suite would recurse);
4. the replay link that command 1 printed, opened in Chromium: the page, its script and its
   style load (no response of 400 or more), and the viewer draws the game.

It installs munchlog twice from PyPI (pip's cache makes that quick after the first time).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.live import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PYTEST = " && .venv/bin/python -m pytest -q -n 4 --dist worksteal"


def _commands() -> tuple[str, str]:
    run, test = re.findall(r"```bash\n(.+?)\n```", (ROOT / "README.md").read_text())[:2]
    return run, test


def _fresh_copy(into: Path) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout (the copy is of its tracked files)")
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            target = into / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


def _newcomer_env(tmp: Path, port: int) -> dict[str, str]:
    """The machine's environment less anything this test run set for munchlog."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("MUNCHLOG_", "PYTEST", "PYTHON", "VIRTUAL_ENV", "PROMETHEUS"))
    }
    env["XDG_DATA_HOME"] = str(tmp / "data")
    env["MUNCHLOG_PORT"] = str(port)
    return env


class _Output:
    """A process's output, read on a thread, so waiting on it never blocks the test."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        assert process.stdout is not None
        stream = process.stdout
        self._thread = threading.Thread(target=lambda: self.lines.extend(stream), daemon=True)
        self._thread.start()

    def text(self) -> str:
        return "".join(self.lines)


def _wait_for(condition: Any, what: str, output: _Output, timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}; command 1 printed:\n{output.text()}")


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@pytest.fixture
def command_one(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str], _Output, str]]:
    clone = _fresh_copy(tmp_path / "munchlog")
    port = free_port()
    env = _newcomer_env(tmp_path, port)
    run, _ = _commands()
    process = subprocess.Popen(
        ["bash", "-c", run],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output = _Output(process)
    try:
        yield clone, env, output, f"http://127.0.0.1:{port}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_the_readmes_two_commands_in_order_then_the_demos_replay_link(
    command_one: tuple[Path, dict[str, str], _Output, str], browser: Any
) -> None:
    clone, env, output, base = command_one
    link = _wait_for(
        lambda: re.search(r"replay\s+(http://\S+#token=\S+)", output.text()),
        "the demo's replay link",
        output,
        timeout=600,
    ).group(1)
    _wait_for(lambda: _healthy(base), "the server", output, timeout=120)
    link = re.sub(r"^http://[^/]+", base, link)

    _, test = _commands()
    assert test.endswith(PYTEST), test
    install = test[: -len(PYTEST)]
    installed = subprocess.run(
        ["bash", "-c", install], cwd=clone, env=env, capture_output=True, text=True, timeout=900
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    readme_tests = subprocess.run(
        [
            ".venv/bin/python",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_readme.py",
        ],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert readme_tests.returncode == 0, readme_tests.stdout + readme_tests.stderr
    assert _healthy(base), output.text()

    page = browser.new_page(viewport={"width": 1366, "height": 768})
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    try:
        page.goto(link)
        page.wait_for_load_state("networkidle")
        assert failed == [], failed  # was: 404 for viewer.js and viewer.css
        # a locator's wait, not a string predicate: polling one is an eval the CSP refuses
        page.locator("#last-version", has_text=re.compile(r"^\s*[1-9][0-9]*\s*$")).wait_for(
            timeout=30_000
        )
        styled = page.evaluate(
            "getComputedStyle(document.querySelector('#signin')).display === 'none'"
        )
    finally:
        page.close()
    assert styled, "the sign-in form still shows after signing in by the link"
