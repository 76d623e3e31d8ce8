"""``munchlog export / import / verify / rebuild-projections`` (api/cli/history.py), on SQLite."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.cli.history import open_log
from api.cli.main import main
from projections.exports import export_json_text, export_ndjson, read_export
from tests.api.helpers import bearer, post_import
from tests.builders import seeded_records
from tests.conftest import ORGANIZER_TOKEN


def test_import_export_verify_and_rebuild_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "cli.sqlite")
    records = seeded_records(12, str(uuid.uuid4()))
    source = tmp_path / "game.json"
    source.write_text(export_json_text(records, "judge"), encoding="utf-8")

    assert main(["verify", str(source), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {**report, "ok": True, "checked": len(records), "first_broken": None}

    assert main(["import", str(source), "--db", db]) == 0
    assert records[0]["event"]["game_id"] in capsys.readouterr().out
    assert main(["import", str(source), "--db", db]) == 1  # already there

    out = tmp_path / "again.json"
    gid = records[0]["event"]["game_id"]
    assert main(["export", "--game", gid, "-o", str(out), "--db", db]) == 0
    assert read_export(out.read_text(encoding="utf-8"))[1] == records

    lines = tmp_path / "player.ndjson"
    assert main(["export", "--player", "player b", "-o", str(lines), "--db", db]) == 0
    assert lines.read_text(encoding="utf-8").count('"format":"munchlog-game"') == 1
    assert main(["export", "--event", "Sample Cup", "--format", "csv", "-o", "-", "--db", db]) == 2

    assert main(["rebuild-projections", "--db", db]) == 0
    assert f"({len(records)} game events), 1 game(s), 0 left out" in capsys.readouterr().err

    doc = json.loads(source.read_text(encoding="utf-8"))
    doc["events"][4]["received_at"] = "2000-01-01T00:00:00+00:00"
    source.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", str(source), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["checked"] == 4
    assert report["first_broken"] == {"version": 5, "reason": "hash_mismatch"}


def _event_db(tmp_path: Path, capsys: pytest.CaptureFixture[str], n: int) -> tuple[str, list[str]]:
    """A database holding ``n`` imported games of the event "Sample Cup"; their ids."""
    db = str(tmp_path / "event.sqlite")
    ids = []
    for seed in range(n):
        records = seeded_records(20 + seed, str(uuid.uuid4()))
        source = tmp_path / f"game{seed}.json"
        source.write_text(export_json_text(records, "judge"), encoding="utf-8")
        assert main(["import", str(source), "--db", db]) == 0
        ids.append(str(records[0]["event"]["game_id"]))
    capsys.readouterr()
    return db, ids


def test_an_event_export_is_verified_and_imported_game_by_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #28 item 10: ``verify`` and ``import`` take a multi-game export, one line each."""
    db, ids = _event_db(tmp_path, capsys, 3)
    out = tmp_path / "event.ndjson"
    assert main(["export", "--event", "Sample Cup", "-o", str(out), "--db", db]) == 0  # ndjson
    assert capsys.readouterr().err.endswith(f"3 game(s) of {db} written to {out} (as judge)\n")
    assert out.read_text(encoding="utf-8").count('"format":"munchlog-game"') == 3

    assert main(["verify", str(out), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    reports = [json.loads(line) for line in lines]
    assert [r["game_id"] for r in reports] == ids
    assert all(r["ok"] and r["problems"] == [] and r["first_broken"] is None for r in reports)

    other = str(tmp_path / "other.sqlite")
    assert main(["import", str(out), "--db", other]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 3
    for gid, line in zip(ids, lines, strict=True):
        assert line.startswith(f"game {gid} imported: ") and " judge=" in line
    assert captured.err == f"3 game(s) imported into {other}\n"
    assert main(["import", str(out), "--db", other]) == 1  # all there already: none stored
    assert capsys.readouterr().err.splitlines() == [
        *(f"munchlog: refused: game {gid}: already in {other}" for gid in sorted(ids)),
        f"munchlog: nothing imported from {out} into {other} (3 games)",
    ]
    again = tmp_path / "again.ndjson"
    assert main(["export", "--event", "Sample Cup", "-o", str(again), "--db", other]) == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_a_multi_game_import_with_one_bad_game_stores_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids = _event_db(tmp_path, capsys, 2)
    out = tmp_path / "event.ndjson"
    assert main(["export", "--event", "Sample Cup", "-o", str(out), "--db", db]) == 0
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    second = next(i for i, line in enumerate(lines) if i and '"format":"munchlog-game"' in line)
    entry = json.loads(lines[second + 3])
    entry["received_at"] = "2000-01-01T00:00:00+00:00"  # game 2's event 3 altered
    lines[second + 3] = json.dumps(entry) + "\n"
    out.write_text("".join(lines), encoding="utf-8")
    capsys.readouterr()

    assert main(["verify", str(out), "--json"]) == 1
    first, broken = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["ok"] and first["game_id"] == ids[0]
    assert broken["game_id"] == ids[1] and broken["ok"] is False
    assert broken["first_broken"] == {"version": 3, "reason": "hash_mismatch"}
    assert len(broken["problems"]) < 5  # this game's problems only

    other = tmp_path / "other.sqlite"
    assert main(["import", str(out), "--db", str(other)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"munchlog: refused: game {ids[1]}: event 3: hash_mismatch "
        "(its fields do not give its hash)",
        f"munchlog: nothing imported from {out} into {other} (2 games)",
    ]
    assert not other.exists()


def test_games_an_export_left_out_are_named_by_verify_and_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, ids = _event_db(tmp_path, capsys, 1)
    out = tmp_path / "event.ndjson"
    assert main(["export", "--event", "Sample Cup", "-o", str(out), "--db", db]) == 0
    gone = str(uuid.uuid4())
    with out.open("a", encoding="utf-8") as fh:  # as GET /api/exports ends when it left one out
        fh.write(
            json.dumps(
                {
                    "format": "munchlog-omitted",
                    "omitted": [{"game_id": gone, "version": 4, "reason": "undecodable"}],
                }
            )
            + "\n"
        )
    capsys.readouterr()
    assert main(["verify", str(out), "--json"]) == 1
    kept, left = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert kept["game_id"] == ids[0] and kept["ok"]
    assert left == {
        "game_id": gone,
        "ok": False,
        "checked": 0,
        "first_broken": {"version": 4, "reason": "undecodable"},
        "head": None,
        "left_out": True,
    }
    assert main(["import", str(out), "--db", str(tmp_path / "other.sqlite")]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"game {ids[0]} imported: ")
    assert f"munchlog: game {gone} is not in this export (left out: event 4 undecodable)" in (
        captured.err
    )


def test_an_export_that_finds_no_game_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = _event_db(tmp_path, capsys, 1)
    out = tmp_path / "nobody.ndjson"
    assert main(["export", "--player", "nobody", "-o", str(out), "--db", db]) == 1
    assert capsys.readouterr().err == (
        f"munchlog: no games of player 'nobody' in {db}; nothing written\n"
    )
    assert main(["export", "--event", "No Such Cup", "-o", str(out), "--db", db]) == 1
    assert "no games of event 'No Such Cup'" in capsys.readouterr().err
    assert not out.exists()


def test_rebuild_projections_counts_what_its_bar_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #28 item 13: the bar counts notifications (of every topic), and so does the final
    line, which says how many of them were game events."""
    db, _ = _event_db(tmp_path, capsys, 2)
    events = sum(len(seeded_records(20 + seed)) for seed in range(2))
    log = open_log(db)
    try:
        head = log.store.max_notification_id()
    finally:
        log.close()
    assert head > events
    assert main(["rebuild-projections", "--db", db]) == 0
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == (
        f"match histories rebuilt from {db}: {head} notifications read ({events} game events), "
        "2 game(s), 0 left out"
    )


@pytest.mark.storage_agnostic
def test_the_api_refuses_a_multi_game_export_saying_so(client: FlaskClient) -> None:
    """``POST /api/games/import`` takes one game: a multi-game export is refused as such (it
    was a ``broken_chain`` at the second header before)."""
    text = "".join(
        line
        for seed in (1, 2)
        for line in export_ndjson(seeded_records(seed, str(uuid.uuid4())), "judge")
    )
    response = post_import(client, text)
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == (
        "this export holds 2 games: give them one at a time (munchlog import takes a multi-game export)"
    )
    assert client.get("/api/games", headers=bearer(ORGANIZER_TOKEN)).get_json()["games"] == []
