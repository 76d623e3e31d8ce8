"""``munchlog``'s wrong inputs (issue #28, items 8 and 9): one line on stderr saying what is
wrong, a non-zero exit code, no traceback; and one database whatever the current folder, which
the commands that read never create and every "not found" names."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from api.cli.main import instance_path, main
from projections.exports import export_json_text
from tests.builders import seeded_records

NO_GAME = "00000000-0000-4000-8000-000000000000"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line(err: str) -> str:
    """The one line of an error on stderr (``munchlog: ...``)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("munchlog: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder is an empty folder of its own; the default instance folder is
    ``<tmp>/xdg/munchlog`` (``$XDG_DATA_HOME``, no ``$MUNCHLOG_INSTANCE``)."""
    monkeypatch.delenv("MUNCHLOG_INSTANCE", raising=False)
    monkeypatch.delenv("MUNCHLOG_DATABASE_URL", raising=False)
    monkeypatch.delenv("MUNCHLOG_ORGANIZER_TOKEN", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """``(db, game_id)``: a SQLite database holding one imported game."""
    db = str(tmp_path / "stored.sqlite")
    records = seeded_records(3, str(uuid.uuid4()))
    source = tmp_path / "game.json"
    source.write_text(export_json_text(records, "judge"), encoding="utf-8")
    assert main(["import", str(source), "--db", db]) == 0
    capsys.readouterr()
    return db, str(records[0]["event"]["game_id"])


# -- item 8: wrong inputs ------------------------------------------------------------------


def test_verify_of_a_missing_file_or_without_what_to_verify_is_one_line(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "verify", "missing.json")
    assert code == 2 and out == ""
    assert one_line(err) == "munchlog: cannot read missing.json: No such file or directory"
    code, _, err = run(capsys, "verify")
    assert code == 2 and "FILE or --game" in one_line(err)
    code, _, err = run(capsys, "verify", "--game", "not-an-id")
    assert code == 2 and one_line(err) == "munchlog: not a game id: 'not-an-id'"


def test_import_of_a_missing_or_wrong_file_is_one_line(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "import", "missing.json")
    assert code == 2 and out == ""
    assert one_line(err) == "munchlog: cannot read missing.json: No such file or directory"
    (elsewhere / "notes.txt").write_text("hello\n", encoding="utf-8")
    code, _, err = run(capsys, "import", "notes.txt", "--db", "x.sqlite")
    assert code == 1 and "notes.txt is not a munchlog export" in one_line(err)
    assert list(elsewhere.iterdir()) == [elsewhere / "notes.txt"]  # nothing created


def test_export_to_a_folder_that_does_not_exist_is_one_line(
    stored: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    db, gid = stored
    code, _, err = run(capsys, "export", "--game", gid, "-o", "/nonexistent/dir/x.json", "--db", db)
    assert code == 2
    assert (
        one_line(err) == "munchlog: cannot write /nonexistent/dir/x.json: No such file or directory"
    )
    code, _, err = run(capsys, "export", "--game", "nope", "-o", "x.json", "--db", db)
    assert code == 2 and one_line(err) == "munchlog: not a game id: 'nope'"
    # json is an event's format: a label no event has is several games (issue #44)
    code, _, err = run(
        capsys, "export", "--event", "Sample Cup", "-o", "-", "--format", "json", "--db", db
    )
    assert (
        code == 2 and one_line(err) == "munchlog: several games export as ndjson or text, not json"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--ruleset", "bogus"],
            "unknown ruleset 'bogus'; the demo plays munchkin-ccg, munchkin-age-of-sigmar, "
            "munchkin-deluxe, munchkin-old-west",
        ),
        (
            ["--ruleset", "munchkin-deluxe", "--seats", "7"],
            "munchkin-deluxe takes 3 to 6 seats, not 7",
        ),
        (
            ["--ruleset", "munchkin-deluxe", "--seats", "2"],
            "munchkin-deluxe takes 3 to 6 seats, not 2",
        ),
        (
            ["--ruleset", "munchkin-old-west", "--seats", "0"],
            "munchkin-old-west takes 3 to 6 seats, not 0",
        ),
        (["--seats", "3"], "munchkin-ccg always has 2 seats: --seats is for the classic rulesets"),
        (["--seats", "2"], "munchkin-ccg always has 2 seats: --seats is for the classic rulesets"),
        (["--actions", "-1"], "--actions must be 0 or more, not -1"),
        (
            ["--catalog", "missing.json"],
            "cannot read the catalog missing.json: No such file or directory",
        ),
    ],
)
def test_a_demo_that_cannot_run_says_why_and_creates_nothing(
    elsewhere: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "demo", *argv)
    assert code == 2 and out == ""
    assert one_line(err) == f"munchlog: {message}"
    assert not Path(instance_path()).exists()  # no organizer token, no database
    assert list(elsewhere.iterdir()) == []


def test_a_demo_dealt_in_a_way_it_does_not_know_is_a_usage_error(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--dealing`` takes ``table`` or ``server``: anything else stops argparse with its
    usage and one line saying so (exit 2), before anything is created."""
    with pytest.raises(SystemExit) as exited:
        main(["demo", "--dealing", "dice"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        "munchlog demo: error: argument --dealing: invalid choice: 'dice' "
        "(choose from 'table', 'server')"
    )
    assert not Path(instance_path()).exists()


def test_a_demo_against_a_server_that_does_not_answer_is_one_line(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "demo", "--url", "http://127.0.0.1:9", "--token", "t")
    assert code == 1
    assert one_line(err).startswith(
        "munchlog: the demo stopped: POST http://127.0.0.1:9/api/games: "
    )


def test_the_console_script_prints_no_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "api.cli.main",
            "demo",
            "--ruleset",
            "munchkin-deluxe",
            "--seats",
            "7",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr == "munchlog: munchkin-deluxe takes 3 to 6 seats, not 7\n"


# -- item 9: one database, whatever the current folder -------------------------------------


def test_the_default_database_is_in_the_user_data_folder_not_the_current_one(
    elsewhere: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert instance_path() == str(tmp_path / "xdg" / "munchlog")
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG spec: ignore it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert instance_path() == str(tmp_path / "home" / ".local" / "share" / "munchlog")
    monkeypatch.setenv("MUNCHLOG_INSTANCE", "inst")  # relative: to the folder it was set in
    assert instance_path() == str(elsewhere / "inst")


def test_demo_then_reads_from_another_folder_use_the_same_database(
    elsewhere: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    database = tmp_path / "xdg" / "munchlog" / "munchlog.sqlite"
    code, out, _ = run(capsys, "demo", "--seed", "1", "--actions", "5")
    assert code == 0
    assert f"recorded in {database}; run `munchlog serve` to browse it" in out
    gid = out.split()[1].rstrip(":")
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(other)
    code, _, err = run(capsys, "export", "--game", gid, "-o", "game.json")
    assert code == 0, err
    assert (other / "game.json").exists()
    assert run(capsys, "verify", "--game", gid)[0] == 0
    assert list(elsewhere.iterdir()) == [] and sorted(other.iterdir()) == [other / "game.json"]


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "--game", NO_GAME, "-o", "x.json"],
        ["export", "--player", "alice", "-o", "x.ndjson"],
        ["verify", "--game", NO_GAME],
        ["rebuild-projections"],
    ],
)
def test_a_read_command_never_creates_a_database(
    elsewhere: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    default = tmp_path / "xdg" / "munchlog" / "munchlog.sqlite"
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert one_line(err) == (
        f"munchlog: no database at {default} "
        "(name the right one with --db, $MUNCHLOG_DATABASE_URL or $MUNCHLOG_INSTANCE)"
    )
    code, _, err = run(capsys, *argv, "--db", "typo.sqlite")
    assert code == 2
    assert one_line(err) == (
        f"munchlog: no database at {elsewhere / 'typo.sqlite'} (name the right one with --db)"
    )
    assert list(elsewhere.iterdir()) == [] and not (tmp_path / "xdg").exists()


def test_not_found_names_the_database(
    stored: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = stored
    code, _, err = run(
        capsys, "export", "--game", NO_GAME, "-o", str(tmp_path / "x.json"), "--db", db
    )
    assert code == 1 and one_line(err) == f"munchlog: no game {NO_GAME} in {db}"
    assert not (tmp_path / "x.json").exists()
    code, _, err = run(capsys, "verify", "--game", NO_GAME, "--db", db)
    assert code == 1 and one_line(err) == f"munchlog: no game {NO_GAME} in {db}"


def test_a_file_that_is_not_a_database_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bogus = tmp_path / "notes.sqlite"
    bogus.write_text("not a database\n" * 100, encoding="utf-8")
    code, _, err = run(capsys, "verify", "--game", NO_GAME, "--db", str(bogus))
    assert code == 2
    assert one_line(err).startswith(f"munchlog: cannot open the database {bogus}: ")


def test_demo_and_serve_name_the_same_database_from_any_folder(
    elsewhere: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The README's quick start: ``munchlog demo && munchlog serve``; serve prints where its
    database is (the server itself is not started here)."""
    from api.cli import main as cli
    from api.ops import logs, metrics

    started: list[dict[str, object]] = []
    monkeypatch.setattr(cli.serving, "run", lambda **kw: started.append(kw))
    monkeypatch.setattr(cli.serving, "check_port", lambda host, port: None)
    monkeypatch.setattr(logs, "configure_logging", lambda: None)
    monkeypatch.setattr(metrics, "prepare_multiprocess_dir", lambda workers: None)
    monkeypatch.setenv("MUNCHLOG_INSTANCE", "")  # restored after serve sets it
    monkeypatch.delenv("MUNCHLOG_INSTANCE")
    database = tmp_path / "xdg" / "munchlog" / "munchlog.sqlite"
    code, out, _ = run(capsys, "demo", "--seed", "1", "--actions", "5")
    assert code == 0 and f"recorded in {database};" in out
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "serve")
    assert code == 0 and len(started) == 1
    assert f"database: {database}\n" in out
    assert os.environ["MUNCHLOG_INSTANCE"] == str(database.parent)  # what its workers open


def test_worker_passes_its_batch_size_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``munchlog worker --batch-size`` was parsed and then dropped."""
    import signal

    from service import worker

    seen: dict[str, object] = {}

    class Recording:
        def __init__(self, log: object, **kwargs: object) -> None:
            seen.update(kwargs)

        def run(self, stop: object) -> int:
            return 0

    from api.ops import logs

    monkeypatch.setattr(worker, "ProjectionWorker", Recording)
    monkeypatch.setattr(signal, "signal", lambda *a: None)  # pytest's handlers stay
    monkeypatch.setattr(logs, "configure_logging", lambda: None)
    assert main(["worker", "--db", str(tmp_path / "w.sqlite"), "--batch-size", "7"]) == 0
    assert seen["batch_size"] == 7


def test_munchlog_port_sets_serves_port_and_the_demos_links(
    elsewhere: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``MUNCHLOG_PORT`` moves the quick start off 8000 (a second clone beside a running one,
    the newcomer test): serve listens there and the demo's links point there."""
    from api.cli import main as cli
    from api.ops import logs, metrics

    started: list[dict[str, object]] = []
    monkeypatch.setattr(cli.serving, "run", lambda **kw: started.append(kw))
    monkeypatch.setattr(cli.serving, "check_port", lambda host, port: None)
    monkeypatch.setattr(logs, "configure_logging", lambda: None)
    monkeypatch.setattr(metrics, "prepare_multiprocess_dir", lambda workers: None)
    monkeypatch.setenv("MUNCHLOG_PORT", "8123")
    code, out, _ = run(capsys, "demo", "--seed", "1", "--actions", "5")
    assert code == 0 and "http://127.0.0.1:8123/games/" in out and ":8000" not in out
    assert run(capsys, "serve")[0] == 0 and started[0]["port"] == 8123
    assert run(capsys, "serve", "--port", "9001")[0] == 0 and started[1]["port"] == 9001
    monkeypatch.setenv("MUNCHLOG_PORT", "eighty")
    with pytest.raises(SystemExit) as exited:
        main(["serve"])
    assert exited.value.code == 2 and "'eighty' is not a port" in capsys.readouterr().err
    # the stream process: the next port up, another one, or none
    assert started[1]["stream_port"] == 9002
    monkeypatch.setenv("MUNCHLOG_PORT", "8123")
    assert run(capsys, "serve", "--stream-port", "9100")[0] == 0
    assert started[2]["stream_port"] == 9100
    assert run(capsys, "serve", "--stream-port", "0")[0] == 0 and not started[3]["stream_port"]
    # the next port up taken (and not asked for): any free one, said in the banner
    monkeypatch.setattr(
        cli.serving,
        "check_port",
        lambda host, port: (
            (_ for _ in ()).throw(cli.serving.PortInUse("taken")) if port == 8124 else None
        ),
    )
    code, out, _ = run(capsys, "serve")
    assert code == 0 and started[4]["stream_port"] not in (0, 8123, 8124)
    assert f"live streams on http://127.0.0.1:{started[4]['stream_port']}" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--port", "70000"], "argument --port: '70000' is not a port"),
        (["--stream-port", "x"], "argument --stream-port: 'x' is not a port"),
        (["--stream-port", "-1"], "argument --stream-port: '-1' is not a port"),
        (["--port", "9000", "--stream-port", "9000"], "the stream port must differ from --port"),
    ],
)
def test_a_wrong_port_is_one_line(
    argv: list[str], said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from api.cli import main as cli

    monkeypatch.setattr(cli.serving, "check_port", lambda host, port: None)
    monkeypatch.setattr(cli.serving, "run", lambda **kw: pytest.fail("served"))
    with pytest.raises(SystemExit) as exited:
        main(["serve", *argv])
    message = str(exited.value.code) if exited.value.code not in (2,) else capsys.readouterr().err
    assert said in message and "Traceback" not in message


def test_a_demo_of_a_family_the_server_cannot_deal_says_so(
    elsewhere: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every built-in family deals by the server (docs/rules.md E); one that does not (a family
    whose demo offers no seed commands) is refused with one line, nothing created."""
    from domain.classic import ClassicRuleset

    monkeypatch.setattr(ClassicRuleset, "demo_deals_by_server", False)
    code, out, err = run(capsys, "demo", "--ruleset", "munchkin-deluxe", "--dealing", "server")
    assert code == 2 and out == ""
    assert one_line(err).startswith("munchlog: the demo deals munchkin-deluxe by the table only")
    assert not Path(instance_path()).exists()
