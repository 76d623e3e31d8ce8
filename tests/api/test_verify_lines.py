"""Issue #44: ``munchlog verify`` of a games' export prints lines a person reads -- one a game
(which game, what was checked, the result in words, a broken game's first event and what is
wrong with it), a summary line, a progress bar above them on a terminal for a long file --
and ``--json`` the reports as before. The games are played through the service and exported
from its store (both back ends) by ``munchlog export``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.cli import verify_lines
from api.cli.main import main
from tests.api.test_event_exports import small_event

ONLY = "only the judge's export is complete"


def exported(
    client: FlaskClient,
    backend: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    *flags: str,
) -> tuple[Path, list[dict[str, Any]]]:
    """The NDJSON export of the games of an event's player who played two (``munchlog export
    --player``), and those games' headers."""
    small_event(client, played=2)
    db = backend["MUNCHLOG_DATABASE_URL"]
    out = tmp_path / "games.ndjson"
    for player in ("ann", "bob", "cid", "dee", "eve"):
        assert main(["export", "--player", player, "-o", str(out), "--db", db, *flags]) == 0
        headers = [
            json.loads(line)
            for line in out.read_text(encoding="utf-8").splitlines()
            if '"format":"munchlog-game"' in line
        ]
        if len(headers) == 2:
            break
    capsys.readouterr()
    return out, headers


def which(header: dict[str, Any]) -> str:
    """A game's line up to its colon, from its export's header."""
    seats = {s["seat"]: s["player"] for s in header["seats"]}
    labels = header["labels"]
    return (
        f"game {header['game_id']} ({seats['A']} v {seats['B']}; {labels['event']}, round "
        f"{labels['round']}, table {labels['table']}; won by {seats[header['result']]})"
    )


def verify(path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, list[str]]:
    code = main(["verify", str(path), *flags])
    out, err = capsys.readouterr()
    assert err == "" and "Traceback" not in out
    return code, out.splitlines()


def test_a_judges_export_is_one_line_a_game_and_a_summary(
    client: FlaskClient, backend: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    out, headers = exported(client, backend, tmp_path, capsys)
    code, lines = verify(out, capsys)
    sound = "hash chain intact, every event replayed through its rules"
    entries = len(out.read_text(encoding="utf-8").splitlines()) - len(headers)
    assert code == 0 and len(lines) == 3, lines
    for header, line in zip(headers, lines, strict=False):
        assert line.startswith(which(header) + ": verified: ") and line.endswith(sound)
    assert sum(int(line.split("verified: ")[1].split()[0]) for line in lines[:2]) == entries
    assert lines[2] == "2 games: 2 verified"
    # for programs, as before: one JSON report a game
    code, lines = verify(out, capsys, "--json")
    reports = [json.loads(line) for line in lines]
    assert code == 0 and [r["game_id"] for r in reports] == [h["game_id"] for h in headers]
    assert all(r["ok"] and r["first_broken"] is None for r in reports)


def test_a_partial_export_says_its_games_are_not_checked_and_whose_it_is(
    client: FlaskClient, backend: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    out, headers = exported(client, backend, tmp_path, capsys, "--as", "organizer")
    code, lines = verify(out, capsys)
    assert code == 1
    assert lines[:2] == [
        f"{which(h)}: not checked: the organizer's export has no hashes ({ONLY})" for h in headers
    ]
    assert lines[2] == (
        "2 games: 2 not checked; this is the organizer's export: it leaves out the hidden cards "
        f"and the hashes (so no chain can be checked and no game imported); {ONLY}"
    )


def test_a_changed_event_is_named_with_what_is_wrong_in_words(
    client: FlaskClient, backend: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    out, headers = exported(client, backend, tmp_path, capsys)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    second = next(i for i, x in enumerate(lines) if i and '"format":"munchlog-game"' in x)
    entry = json.loads(lines[second + 3])
    assert entry["version"] == 3
    entry["received_at"] = "2000-01-01T00:00:00+00:00"  # the second game's event 3 altered
    lines[second + 3] = json.dumps(entry) + "\n"
    gone = "00000000-0000-4000-8000-000000000001"
    left = {
        "format": "munchlog-omitted",
        "omitted": [{"game_id": gone, "version": 4, "reason": "undecodable"}],
    }
    out.write_text("".join(lines) + json.dumps(left) + "\n", encoding="utf-8")
    code, said = verify(out, capsys)
    assert code == 1 and said[0].startswith(which(headers[0]) + ": verified: ")
    assert said[1] == (
        f"{which(headers[1])}: BROKEN at event 3: it was changed after it was recorded (its "
        "fields do not give its hash); the 2 events before it are sound"
    )
    assert said[2] == (
        f"game {gone}: left out of this export: its stored event 4 is damaged (its stored row "
        "cannot be read)"
    )
    assert said[3] == "3 games: 1 verified, 1 BROKEN, 1 left out of the export"


def test_a_long_file_on_a_terminal_gets_a_progress_bar_above_its_lines(
    client: FlaskClient,
    backend: dict[str, Any],
    tmp_path: Path,
    capsys: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, headers = exported(client, backend, tmp_path, capsys)
    monkeypatch.setattr(verify_lines, "LONG", 1)  # these games are short: any file is long
    code, lines = verify(out, capsys)
    assert code == 0 and "checking games" not in "".join(lines)  # not a terminal: no bar
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code = main(["verify", str(out)])
    shown = capsys.readouterr().out
    assert code == 0 and "checking games (events)" in shown
    for header in headers:
        assert which(header) + ": verified: " in shown
    assert "2 games: 2 verified" in shown


@pytest.mark.storage_agnostic
@pytest.mark.parametrize(
    ("argv", "code", "line"),
    [
        (["verify", "NOTES"], 1, "munchlog: NOTES is not a munchlog export: bad JSON on line 1: "),
        (["verify", "missing.ndjson"], 2, "munchlog: cannot read missing.ndjson: "),
        (
            ["verify", "NOTES", "--game", "x"],
            2,
            "munchlog: verify takes an export FILE or --game ID",
        ),
        (["verify", "--game", "x", "--json"], 2, "munchlog: not a game id: 'x'"),
    ],
)
def test_a_wrong_argument_is_one_line(
    argv: list[str], code: int, line: str, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "NOTES").write_text("these are my notes\n", encoding="utf-8")
    assert main(argv) == code
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith(line), err


@pytest.mark.storage_agnostic
def test_a_reader_that_goes_away_ends_it_without_a_traceback(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``munchlog verify big.ndjson | head -1``: the pipe closes under the next line."""
    from api.cli import history

    def gone(path: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(history, "verify_in_words", gone)
    (tmp_path / "games.ndjson").write_text("{}\n", encoding="utf-8")
    assert main(["verify", str(tmp_path / "games.ndjson")]) == 1
    assert capsys.readouterr().err == ""


@pytest.mark.storage_agnostic
def test_ctrl_c_in_a_long_verify_is_one_line(
    tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while a big file is verified: one line and the shell's 130, no traceback."""
    from api.cli import history

    def interrupted(path: str) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(history, "verify_in_words", interrupted)
    (tmp_path / "games.ndjson").write_text("{}\n", encoding="utf-8")
    assert main(["verify", str(tmp_path / "games.ndjson")]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err == "munchlog: interrupted\n"
