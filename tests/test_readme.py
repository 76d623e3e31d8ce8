"""The README's promises: its two commands, and the curl walk-through, work as written."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

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
    assert lines[4] == "('finished', 'A', 1)"
    assert lines[5] == "['GameCreated', 'OpeningHandDrawn', 'OpeningHandDrawn']"
    # the game the server deals: no card or value sent, each drawn or rolled by a Dealt event;
    # a draw ends its batch (docs/rules.md E.1): each is sent alone
    assert lines[6] == "['Dealt', 'FirstPlayerRolled']"
    assert lines[7] == "{'mode': 'server', 'contributors': ['A', 'B'], 'revealed': ['A', 'B']}"
    assert lines[8] == "{'ok': True, 'complete': True, 'checked': 3}"
    assert len(lines) == 9


# ----------------------------------------------------------------------------- as rendered

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _tokens() -> list[Any]:
    from markdown_it import MarkdownIt

    return list(MarkdownIt("commonmark").enable("table").parse(README))


def _cells(row: str) -> int:
    """The cells of a source table row: its unescaped pipes, less the two at its ends."""
    return len(re.split(r"(?<!\\)\|", row.strip())) - 2


def test_every_table_renders_as_a_table() -> None:
    """A blank line inside "The API in brief" split it: its last eight rows rendered as a
    paragraph of raw pipes. Every line that starts with a pipe, outside code, must belong to a
    rendered table, and every row of a table must have its header's cells."""
    tokens = _tokens()
    lines = README.splitlines()
    in_tables: set[int] = set()
    in_code: set[int] = set()
    tables = 0
    for token in tokens:
        if token.type == "table_open" and token.map:
            tables += 1
            start, end = token.map
            in_tables.update(range(start, end))
            rows = [lines[n] for n in range(start, end) if n != start + 1]
            header = _cells(rows[0])
            wrong = [row for row in rows if _cells(row) != header]
            assert not wrong, (lines[start], wrong)
        if token.type in ("fence", "code_block") and token.map:
            in_code.update(range(*token.map))
    stray = [
        f"README.md:{n + 1}: {line}"
        for n, line in enumerate(lines)
        if line.lstrip().startswith("|") and n not in in_tables and n not in in_code
    ]
    assert tables >= 3
    assert not stray, stray


def test_every_local_link_of_the_readme_leads_somewhere() -> None:
    targets = [
        token.attrs["href"]
        for block in _tokens()
        for token in block.children or []
        if token.type == "link_open"
    ]
    local = [t.split("#")[0] for t in targets if not re.match(r"[a-z]+:", str(t))]
    assert local, targets
    missing = [t for t in local if t and not (ROOT / t).exists()]
    assert not missing, missing


def test_the_curl_walkthrough_is_shown_as_it_runs() -> None:
    """The README's walk-through did not run as shown (``ORG=<organizer token>`` is redirect
    syntax; ``$GAME``, ``$TABLE`` and ``$B`` were never set; two steps were bare JSON): it is
    now ``docs/walkthrough.sh`` itself, from its first variable on, which the suite runs."""
    script = (ROOT / "docs" / "walkthrough.sh").read_text(encoding="utf-8")
    body = script[script.index("M=${M:-") :].rstrip("\n")
    blocks = re.findall(r"```bash\n(.+?)\n```", README, re.S)
    assert body in blocks


def test_commands_after_the_quick_start_say_which_munchlog() -> None:
    """Bare ``munchlog …`` lines followed the quick start without saying how to reach the
    virtualenv's script: every command shown runs ``.venv/bin/munchlog``."""
    for block in re.findall(r"```bash\n(.+?)\n```", README, re.S):
        for line in block.splitlines():
            assert not re.match(r"\s*munchlog\b", line), line


def test_the_readme_says_what_the_tests_need_and_stays_short() -> None:
    head = README.split("---")[0]
    for need in ("chromium", "nginx", "PostgreSQL", "minutes"):
        assert need in head, need
    # a user's README (about 4,000 words, a design record, before issue 28; a fifth of it is
    # now the runnable walk-through): measurements live in bench/RESULTS.md, design in
    # docs/DESIGN.md
    assert len(README.split()) <= 3000, len(README.split())
