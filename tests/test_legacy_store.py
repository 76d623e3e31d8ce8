"""Games stored by an older munchlog still load: a store recorded at commit 60b5cde
(``tests/data/legacy/make_legacy_db.py``) is opened by today's code and every game in it reads
back as it did then: the judge's and a seat's state, the summary, the chain, the exports byte for
byte, the player's match history; a game in progress still takes new actions; the older event
versions it holds load through their upcasters; and each game's complete export imports into a
new store."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.app import create_app
from domain import event_from_dict
from domain.ccg.corrections import StackEntryRestored
from domain.ccg.events import AbilityActivated

LEGACY = Path(__file__).parent / "data" / "legacy"
EXPECTED: dict[str, Any] = json.loads((LEGACY / "legacy.json").read_text())
GAMES = {g["name"]: g for g in EXPECTED["games"]}


@pytest.fixture
def legacy_app(tmp_path: Path) -> Iterator[Flask]:
    db = tmp_path / "legacy.sqlite"
    shutil.copyfile(LEGACY / "legacy.sqlite", db)  # the committed file is never written
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "MUNCHLOG_DATABASE_URL": f"sqlite:///{db}",
            "MUNCHLOG_ORGANIZER_TOKEN": EXPECTED["organizer_token"],
        }
    )
    yield app
    app.extensions["munchlog"].close()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


#: Seat fields ``GET /state`` has shown since the legacy games were stored (additive): the deck's
#: known-place counts (docs/rules.md D.20). No legacy game put a card at a known place, so both
#: read 0 (an old ``SeatRestored`` reads as "nothing known").
ADDED_SEAT_FIELDS = ("deck_known_top", "deck_known_bottom")
#: Table fields ``GET /state`` has shown since (issue #26): the response window and the stack,
#: which the CCG's view computed and its documented body left out. No legacy game was stored
#: with a window open or an ability resolving, so every one reads as none.
ADDED_TABLE_FIELDS = {"window": None, "stack": []}


#: ``GET /api/games/<id>``'s ``dealing`` (added since, issue #25) of every legacy game: dealt by
#: the table, as every game was before server dealing.
TABLE_DEALT = {"mode": "table", "scheme": None, "contributors": [], "revealed": [], "withheld": []}
TABLE_VERIFIED = {"mode": "table", "ok": True, "first_mismatch": None}


def without_added_fields(state: dict[str, Any]) -> dict[str, Any]:
    seats = {}
    for name, seat in state["seats"].items():
        assert [seat.pop(key) for key in ADDED_SEAT_FIELDS] == [0, 0], name
        seats[name] = seat
    added = {key: state.pop(key) for key in ADDED_TABLE_FIELDS}
    assert added == ADDED_TABLE_FIELDS
    return {**state, "seats": seats}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_legacy_game_reads_back_as_it_was_stored(legacy_app: Flask, name: str) -> None:
    game = GAMES[name]
    client = legacy_app.test_client()
    judge = _auth(game["tokens"]["judge"])
    gid = game["game_id"]
    summary = client.get(f"/api/games/{gid}", headers=judge).get_json()
    assert summary.pop("dealing") == TABLE_DEALT  # added since (issue #25): dealt by the table
    assert summary == game["summary"]
    judge_state = client.get(f"/api/games/{gid}/state", headers=judge).get_json()
    assert without_added_fields(judge_state) == game["judge_state"]
    seat_b = client.get(f"/api/games/{gid}/state", headers=_auth(game["tokens"]["B"]))
    assert without_added_fields(seat_b.get_json()) == game["seat_b_state"]
    verify = client.get(f"/api/games/{gid}/verify", headers=judge).get_json()
    # /verify has listed problems since, and checked the dealing (issue #25: a table's)
    assert verify == {**game["verify"], "problems": [], "dealing": TABLE_VERIFIED}
    export = client.get(f"/api/games/{gid}/export?format=json", headers=judge)
    body = {k: v for k, v in export.get_json().items() if k != "exported_at"}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    assert digest == game["export_json_sha256"]
    transcript = client.get(f"/api/games/{gid}/export?format=text", headers=judge)
    assert hashlib.sha256(transcript.data).hexdigest() == game["transcript_sha256"]


def test_legacy_match_histories_are_rebuilt_from_the_stored_events(legacy_app: Flask) -> None:
    client = legacy_app.test_client()
    player = EXPECTED["history"]["player"]
    got = client.get(
        f"/api/players/{player}/games", headers=_auth(EXPECTED["organizer_token"])
    ).get_json()
    assert got == EXPECTED["history"]


def test_a_legacy_game_in_progress_takes_new_actions(legacy_app: Flask) -> None:
    game = GAMES["record-mode-in-setup"]
    client = legacy_app.test_client()
    gid = game["game_id"]
    before = game["version"]
    response = client.post(
        f"/api/games/{gid}/actions",
        json={
            "actions": [{"type": "roll_first", "seat": "A", "rolls": {"A": 6, "B": 2}}],
            "expected_version": before,
        },
        headers=_auth(game["tokens"]["table"]),
    )
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["version"] > before
    verify = client.get(f"/api/games/{gid}/verify", headers=_auth(game["tokens"]["judge"]))
    assert verify.get_json()["ok"] is True


def _stored_events(kind: str, tmp_path: Path) -> list[dict[str, Any]]:
    """The stored dicts of every ``kind`` event in the legacy store, as they were written
    (read from a copy: the committed file is never opened, so never written)."""
    copy = tmp_path / "read.sqlite"
    shutil.copyfile(LEGACY / "legacy.sqlite", copy)
    db = sqlite3.connect(copy)
    try:
        rows = db.execute("SELECT state FROM stored_events").fetchall()
    finally:
        db.close()
    events = [json.loads(state).get("event") for (state,) in rows]
    return [e for e in events if isinstance(e, dict) and e.get("type") == kind]


def test_version_1_ability_activations_load_through_their_upcaster(tmp_path: Path) -> None:
    """``AbilityActivated`` v1 predates abilities as data (issue #13): which ability was
    activated is unknown, ``ability: null`` (docs/rules.md A.11); nothing else changes."""
    stored = _stored_events("AbilityActivated", tmp_path)
    assert stored and all(e["v"] == 1 and "ability" not in e for e in stored)
    for data in stored:
        event = event_from_dict(data)
        assert isinstance(event, AbilityActivated) and event.ability is None
        assert event.to_dict() == {**data, "v": 2, "ability": None}


def test_version_1_restored_stack_entries_load_through_their_upcaster(tmp_path: Path) -> None:
    """``StackEntryRestored`` v1 (a judge's backup, docs/rules.md A.11, A.14) had no ability
    plan: it restores an entry with nothing ``extra``, which resolves as recorded."""
    stored = _stored_events("StackEntryRestored", tmp_path)
    assert stored and all(e["v"] == 1 and "extra" not in e for e in stored)
    for data in stored:
        event = event_from_dict(data)
        assert isinstance(event, StackEntryRestored) and event.extra == {}
        assert event.to_dict() == {**data, "v": 2, "extra": {}}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_legacy_games_complete_export_imports_into_a_new_store(
    legacy_app: Flask, tmp_path: Path, name: str
) -> None:
    """The judge's export of a stored game (older event versions and all) imports into another
    store and verifies there with the same head hash; exported again it is the same."""
    game = GAMES[name]
    gid, judge = game["game_id"], _auth(game["tokens"]["judge"])
    exported = legacy_app.test_client().get(f"/api/games/{gid}/export?format=json", headers=judge)
    fresh = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "fresh"),
            "MUNCHLOG_ORGANIZER_TOKEN": EXPECTED["organizer_token"],
        }
    )
    try:
        client = fresh.test_client()
        imported = client.post(
            "/api/games/import",
            data=exported.data,
            headers={**_auth(EXPECTED["organizer_token"]), "Content-Type": "application/json"},
        )
        assert imported.status_code == 201, imported.get_json()
        new_judge = _auth(imported.get_json()["judge_token"])
        verify = client.get(f"/api/games/{gid}/verify", headers=new_judge).get_json()
        assert verify == {**game["verify"], "problems": [], "dealing": TABLE_VERIFIED}
        again = client.get(f"/api/games/{gid}/export?format=json", headers=new_judge).get_json()
        assert {k: v for k, v in again.items() if k != "exported_at"} == {
            k: v for k, v in exported.get_json().items() if k != "exported_at"
        }
    finally:
        fresh.extensions["munchlog"].close()
