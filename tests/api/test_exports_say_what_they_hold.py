"""Issue #44, "Exports say what they hold": only the judge's export of an event is complete, and
every other says what it leaves out -- in the export (``complete``, ``leaves_out``), its report,
``munchlog export`` and ``munchlog verify``; an export made before these fields existed is read
and described the same way, and a game's export still imports."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.cli.main import main
from domain.game import Game
from tests.api.helpers import ORGANIZER_TOKEN, bearer, post_import
from tests.api.test_event_exports import export, small_event
from tests.api.test_event_floor import add_staff
from tests.api.test_events import open_event, pair, register

HIDDEN = "the games' hidden cards"
HASHES = "their hashes (so no game's chain can be checked)"
DELAY = "the results the spectator delay still holds back"
PUBLIC = [HIDDEN, HASHES, "the decklists", "the penalties", "the judge calls", "the staff"]
OTHERS = [
    "the other players' hidden cards",
    "every game's hashes (so no game's chain can be checked)",
    "the other players' decklists",
    "their penalties",
    "their judge calls",
    "the staff",
]
DATA = Path(__file__).resolve().parents[1] / "data"


def test_only_the_judges_export_is_complete_and_the_others_say_what_they_leave_out(
    client: FlaskClient,
) -> None:
    event = small_event(client, played=1)
    eid = event["eid"]
    keeper = add_staff(client, eid, "Sam", "scorekeeper")["token"]
    floor = add_staff(client, eid, "Kim", "judge")["token"]
    ann = event["tokens"]["ann"]
    expected: dict[str, tuple[str | None, list[str]]] = {
        "judge": (event["judge"], []),
        "staff judge": (floor, []),
        "organizer": (ORGANIZER_TOKEN, [HIDDEN, HASHES]),
        "scorekeeper": (keeper, [HIDDEN, HASHES, "the decklists"]),
        "player": (ann, OTHERS),
        "spectator": (None, PUBLIC),
    }
    for who, (token, leaves_out) in expected.items():
        obj = export(client, eid, token)
        assert (obj["complete"], obj["leaves_out"]) == (not leaves_out, leaves_out), who
        # what it says is so: a complete export's games all have their hashes, no other's
        assert all(g["complete"] for g in obj["games"]) is (not leaves_out), who
        lean = client.get(f"/api/events/{eid}/export?games=false", headers=bearer(token))
        body = lean.get_json()  # the event page's: no games, so never complete
        assert (body["complete"], body["leaves_out"]) == (False, leaves_out), who
    report = export(client, eid, ORGANIZER_TOKEN, "text").splitlines()
    assert report[3] == (
        f"This is the organizer's export: it leaves out {HIDDEN} and {HASHES}; only the judge's "
        "export is complete."
    )
    report = export(client, eid, event["judge"], "text").splitlines()
    assert report[3] == (
        "This is the judge's export: complete: every game whole, with its hidden cards and its "
        "hash chain."
    )


def test_a_spectator_delay_is_named_among_what_it_holds_back(client: FlaskClient) -> None:
    event = open_event(client, rounds=1, spectator_delay={"seconds": 3600})
    eid = event["event_id"]
    for player in ("ann", "bob"):
        register(client, eid, player)
    pair(client, eid)
    assert export(client, eid, ORGANIZER_TOKEN)["leaves_out"] == [HIDDEN, HASHES, DELAY]
    assert export(client, eid, None)["leaves_out"] == [*PUBLIC, DELAY]
    assert export(client, eid, event["judge_token"])["leaves_out"] == []


def verify_lines(
    tmp_path: Path, obj: Any, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str]]:
    path = tmp_path / f"{uuid.uuid4()}.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    assert err == ""
    return code, out.splitlines()


def test_verify_says_whose_export_it_read_also_of_an_export_made_before_it_said_so(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = small_event(client, played=2)
    eid = event["eid"]
    public = export(client, eid, ORGANIZER_TOKEN)
    code, lines = verify_lines(tmp_path, public, capsys)
    first = (
        f"this is the organizer's export: it leaves out {HIDDEN} and {HASHES}; only the judge's "
        "export is complete"
    )
    assert code == 0 and lines[0] == first
    games = len(public["games"])
    assert (
        f"note: {games} games' chains were not checked: this is the organizer's export, whose "
        "games carry no hashes; only the judge's export is complete"
    ) in lines
    last = f"event {eid}: no problem in what the organizer's export holds; only the judge's "
    assert lines[-1] == last + "export is complete"
    # an export made before it said what it holds: the same lines, from its viewer
    old = {k: v for k, v in public.items() if k not in ("complete", "leaves_out")}
    assert verify_lines(tmp_path, old, capsys) == (code, lines)
    judges = export(client, eid, event["judge"])
    old = {k: v for k, v in judges.items() if k not in ("complete", "leaves_out")}
    code, lines = verify_lines(tmp_path, old, capsys)
    assert code == 0 and lines[-1] == f"event {eid}: verified"
    assert lines[0].startswith("this is the judge's export: complete")
    # for programs: the same findings as one object
    path = tmp_path / "public.json"
    path.write_text(json.dumps(public), encoding="utf-8")
    assert main(["verify", str(path), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["ok"], found["complete"], found["leaves_out"]) == (True, False, [HIDDEN, HASHES])
    assert found["event_id"] == eid and found["problems"] == []


def test_munchlog_export_says_whose_export_it_wrote(
    client: FlaskClient, backend: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = backend["MUNCHLOG_DATABASE_URL"]
    event = small_event(client, played=1)
    eid = event["eid"]
    out = tmp_path / "event.json"
    assert main(["export", "--event", eid, "--as", "spectator", "-o", str(out), "--db", db]) == 0
    said = capsys.readouterr().err.splitlines()[-1]
    assert said == (
        "this is a spectator's (the public one) export: it leaves out "
        f"{', '.join(PUBLIC[:-1])} and the staff; only the judge's export is complete "
        f"(check it: munchlog verify {out})"
    )
    written = json.loads(out.read_text(encoding="utf-8"))
    assert (written["complete"], written["leaves_out"]) == (False, PUBLIC)
    # a game's export as a seat: whose it is and what it leaves out
    game = written["games"][0]["game_id"]
    one = tmp_path / "seat.json"
    assert main(["export", "--game", game, "--as", "A", "-o", str(one), "--db", db]) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        "this is seat A's export: it leaves out the other seats' hidden cards and the hashes (so "
        "no chain can be checked and no game imported); only the judge's export is complete"
    )
    assert main(["export", "--game", game, "-o", str(one), "--db", db]) == 0
    assert "leaves out" not in capsys.readouterr().err  # the judge's: complete


def test_a_games_export_made_before_still_imports_and_verifies(
    client: FlaskClient, backend: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The golden export (tests/data, written by an earlier version) imports through the API
    and the command line, and ``verify`` reads it in words; a game of a judge's event export
    (the new one) imports too."""
    old = (DATA / "golden_judge.json").read_text(encoding="utf-8")
    gid = json.loads(old)["game_id"]
    code, lines = verify_lines(tmp_path, json.loads(old), capsys)
    assert code == 0 and len(lines) == 1 and lines[0].startswith(f"game {gid} (")
    assert ": verified: " in lines[0]
    response = post_import(client, old)
    assert response.status_code == 201, response.get_json()
    other = tmp_path / "other.sqlite"
    source = tmp_path / "golden.json"
    source.write_text(old, encoding="utf-8")
    assert main(["import", str(source), "--db", str(other)]) == 0
    stored = Game.id_for_import(gid)  # "g1": a log of another tool's, under a uuid5 of its id
    assert f"game {stored} imported" in capsys.readouterr().out
    assert main(["import", str(source), "--db", str(other)]) == 1  # it was a traceback
    assert capsys.readouterr().err == f"munchlog: refused: game {gid}: already in {other}\n"
    event = small_event(client, played=1)
    game = export(client, event["eid"], event["judge"])["games"][0]
    again = tmp_path / "event-game.json"
    again.write_text(json.dumps(game), encoding="utf-8")
    assert main(["import", str(again), "--db", str(tmp_path / "third.sqlite")]) == 0
    assert f"game {game['game_id']} imported" in capsys.readouterr().out
