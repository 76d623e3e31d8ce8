"""``munchlog export --event <id>`` (issue #44): the event's export as the API gives it; a
name two events share is refused naming both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from api.cli.main import main
from tests.api.helpers import bearer
from tests.api.test_events import open_event, pair, register


def test_an_event_is_exported_by_its_id_as_the_api_gives_it(
    client: FlaskClient, backend: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    db = backend["MUNCHLOG_DATABASE_URL"]
    event = open_event(client, name="Cup")
    eid = event["event_id"]
    for player in ("ann", "bob"):
        register(client, eid, player)
    pair(client, eid)
    out = tmp_path / "event.json"
    assert main(["export", "--event", eid, "-o", str(out), "--db", db]) == 0
    err = capsys.readouterr().err
    assert f"event {eid} (Cup)" in err and "this is the judge's export: complete" in err
    written = json.loads(out.read_text(encoding="utf-8"))
    api = client.get(f"/api/events/{eid}/export", headers=bearer(event["judge_token"]))
    given = json.loads(api.get_data(as_text=True))
    assert written["format"] == "munchlog-event" and written["viewer"]["role"] == "judge"
    skip = {"exported_at"}
    assert {k: v for k, v in written.items() if k not in skip} == {
        k: v for k, v in given.items() if k not in skip
    }
    assert main(["verify", str(out)]) == 0
    assert f"event {eid}: verified" in capsys.readouterr().out
    # the one event of a name is found by it too; text is the API's report
    text = tmp_path / "event.txt"
    assert main(["export", "--event", "Cup", "--format", "text", "-o", str(text), "--db", db]) == 0
    assert "Cup" in text.read_text(encoding="utf-8")
    capsys.readouterr()
    refused = main(["export", "--event", eid, "--format", "csv", "-o", "-", "--db", db])
    assert refused == 2 and "json or text" in capsys.readouterr().err


def test_a_name_two_events_share_is_refused_naming_both(
    client: FlaskClient, backend: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    db = backend["MUNCHLOG_DATABASE_URL"]
    first = open_event(client, name="Friday")["event_id"]
    second = open_event(client, name="Friday")["event_id"]
    out = tmp_path / "friday.json"
    assert main(["export", "--event", "Friday", "-o", str(out), "--db", db]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert first in err and second in err and "--event <id>" in err
    assert not out.exists()
    missing = "00000000-0000-4000-8000-000000000000"
    assert main(["export", "--event", missing, "-o", str(out), "--db", db]) == 1
    assert f"no event {missing}" in capsys.readouterr().err
    assert main(["export", "--event", second, "-o", str(out), "--db", db]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["event_id"] == second
