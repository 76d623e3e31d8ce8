"""``munchlog export / import / verify / rebuild-projections`` (api/cli_history.py), on SQLite."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from api.cli import main
from projections.exports import export_json_text, read_export
from tests.api.test_import_api import seeded_records


def test_import_export_verify_and_rebuild_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "cli.sqlite")
    records = seeded_records(12, str(uuid.uuid4()))
    source = tmp_path / "game.json"
    source.write_text(export_json_text(records, "judge"), encoding="utf-8")

    assert main(["verify", str(source)]) == 0
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
    assert f"{len(records)} events folded" in capsys.readouterr().err

    doc = json.loads(source.read_text(encoding="utf-8"))
    doc["events"][4]["received_at"] = "2000-01-01T00:00:00+00:00"
    source.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", str(source)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["checked"] == 4
    assert report["first_broken"] == {"version": 5, "reason": "hash_mismatch"}
