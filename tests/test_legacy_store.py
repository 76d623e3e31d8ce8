"""Games stored by an older munchlog still load: a store recorded at commit 60b5cde
(``tests/data/legacy/make_legacy_db.py``) is opened by today's code and every game in it reads
back as it did then: the judge's and a seat's state, the summary, the chain, the exports byte for
byte, the player's match history; and a game in progress still takes new actions."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.app import create_app

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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_legacy_game_reads_back_as_it_was_stored(legacy_app: Flask, name: str) -> None:
    game = GAMES[name]
    client = legacy_app.test_client()
    judge = _auth(game["tokens"]["judge"])
    gid = game["game_id"]
    assert client.get(f"/api/games/{gid}", headers=judge).get_json() == game["summary"]
    assert client.get(f"/api/games/{gid}/state", headers=judge).get_json() == game["judge_state"]
    seat_b = client.get(f"/api/games/{gid}/state", headers=_auth(game["tokens"]["B"]))
    assert seat_b.get_json() == game["seat_b_state"]
    verify = client.get(f"/api/games/{gid}/verify", headers=judge).get_json()
    assert verify == {**game["verify"], "problems": []}  # /verify has listed problems since
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
