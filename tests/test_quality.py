"""The codebase stays lint-, format- and type-clean (ruff and mypy, configured in pyproject)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("domain", "service", "adapters", "projections", "api")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint_is_clean() -> None:
    result = _run("ruff", "check", *PACKAGES, "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _run("ruff", "format", "--check", *PACKAGES, "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = _run("mypy", *PACKAGES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_tests_print_past_pytest_q_only_when_asked() -> None:
    """The kill-9 test printed its figures through ``capsys.disabled()`` on every run: ``pytest
    -q`` showed a dozen lines of them between its progress dots. A test may write past the
    capture only under ``-v`` (``config.get_verbosity()`` checked just before)."""
    loud = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if line.strip().startswith("with capsys.disabled()"):
                before = "\n".join(lines[max(0, number - 3) : number])
                if "get_verbosity()" not in before:
                    loud.append(f"{path.relative_to(ROOT)}:{number + 1}")
    assert not loud, loud
