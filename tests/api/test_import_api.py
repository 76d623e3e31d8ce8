"""POST /api/games/import: a complete export becomes a game again, or is refused whole."""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain import event_from_dict
from projections.exports import export_json, export_json_text, export_ndjson
from tests.api.helpers import bearer, create_game, judge_state, post_import
from tests.marked import holds_everything, marked_game
from tests.unit.seeded_games import play, records_for, reseal


def seeded_records(seed: int, game_id: str | None = None) -> list[dict[str, Any]]:
    """A random whole game (tests/unit/seeded_games.py) under a UUID game id."""
    _, events = play(seed)
    created = events[0].to_dict()
    created["game_id"] = game_id or str(uuid.UUID(int=seed + 1))
    return records_for([event_from_dict(created), *events[1:]])


def test_an_import_keeps_the_id_the_events_and_the_state(app: Flask, client: FlaskClient) -> None:
    records = seeded_records(5)
    response = post_import(client, export_json_text(records, "judge"))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["game_id"] == records[0]["event"]["game_id"]
    assert body["version"] == len(records)
    assert {"A", "B"} == set(body["seats"]) and body["table_token"] and body["judge_token"]
    assert app.extensions["munchlog"].records(uuid.UUID(body["game_id"])) == records
    state = judge_state(client, body)
    again = client.get(
        f"/api/games/{body['game_id']}/export?format=json", headers=bearer(body["judge_token"])
    ).get_json()
    assert again["events"] == export_json(records, "judge")["events"]
    summary = client.get(f"/api/games/{body['game_id']}").get_json()
    assert summary["status"] == state["status"] == "finished"
    assert summary["winner"] == state["winner"]


def test_a_game_with_triggers_prevention_and_unchecked_cards_imports_as_it_was(
    app: Flask, client: FlaskClient
) -> None:
    """Issue #13's events (AbilityTriggered, DamageAnnounced, DamagePrevented) and marks
    (``unchecked``, ``custom``) survive an import: same records, same chain, same exports."""
    game = marked_game(1)
    assert holds_everything(game.events)
    created = game.events[0].to_dict()
    created["game_id"] = str(uuid.UUID(int=1301))
    records = records_for([event_from_dict(created), *game.events[1:]])
    response = post_import(client, "".join(export_ndjson(records, "table")))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    gid, judge = body["game_id"], bearer(body["judge_token"])
    assert app.extensions["munchlog"].records(uuid.UUID(gid)) == records
    verify = client.get(f"/api/games/{gid}/verify", headers=judge).get_json()
    assert verify["ok"] and verify["checked"] == len(records)
    assert verify["head"] == records[-1]["hash"]
    again = client.get(f"/api/games/{gid}/export?format=json", headers=judge).get_json()
    assert again["events"] == export_json(records, "judge")["events"]
    assert any(e.get("unchecked") for e in again["events"])
    csv_text = client.get(f"/api/games/{gid}/export?format=csv", headers=judge).get_data(
        as_text=True
    )
    assert csv_text.splitlines()[0].endswith(",data,unchecked")
    text = client.get(f"/api/games/{gid}/export?format=text", headers=judge).get_data(as_text=True)
    assert "[unchecked]" in text and "[custom]" in text and "ability triggers" in text


def test_an_ndjson_export_imports_too(client: FlaskClient) -> None:
    records = seeded_records(6)
    response = post_import(client, "".join(export_ndjson(records, "judge")))
    assert response.status_code == 201
    assert response.get_json()["version"] == len(records)


def test_a_live_game_reimported_here_is_409_and_changes_nothing(client: FlaskClient) -> None:
    game = create_game(client)
    gid = game["game_id"]
    exported = client.get(
        f"/api/games/{gid}/export?format=json", headers=bearer(game["judge_token"])
    ).get_data()
    response = post_import(client, exported)
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "game/already_exists"
    # the old tokens still work: nothing was overwritten
    assert (
        client.get(f"/api/games/{gid}/state", headers=bearer(game["judge_token"])).status_code
        == 200
    )


def test_a_broken_chain_is_refused_with_its_version_and_nothing_is_stored(
    client: FlaskClient,
) -> None:
    records = seeded_records(7)
    doc = export_json(records, "judge")
    doc["events"][9]["data"]["amount"] = 99  # an edit without resealing the chain
    doc["events"][9]["type"] = "GoldGranted"
    response = post_import(client, json.dumps(doc))
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "import/broken_chain"
    assert error["version"] == 10
    assert error["reason"] == "hash_mismatch"
    assert client.get(f"/api/games/{doc['game_id']}").status_code == 404


def test_an_impossible_event_is_refused_even_with_a_resealed_chain(client: FlaskClient) -> None:
    records = copy.deepcopy(seeded_records(8))
    granted = next(r for r in records if r["event"]["type"] == "GoldGranted")
    granted["event"]["amount"] = -50  # negative gold: no rule could record this
    response = post_import(client, export_json_text(reseal(records), "judge"))
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "import/impossible_event"
    assert error["version"] == granted["version"]
    assert client.get(f"/api/games/{records[0]['event']['game_id']}").status_code == 404


def test_a_seat_export_cannot_be_imported(client: FlaskClient) -> None:
    response = post_import(client, export_json_text(seeded_records(9), "A"))
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "import/incomplete_export"


@pytest.mark.parametrize("body", [b"", b"not json", b'{"format": "other", "events": []}'])
def test_something_else_is_400(client: FlaskClient, body: bytes) -> None:
    response = post_import(client, body)
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "import/not_an_export"


def test_only_the_organizer_may_import(client: FlaskClient) -> None:
    body = export_json_text(seeded_records(10), "judge")
    assert post_import(client, body, token=None).status_code == 401
    game = create_game(client)
    assert post_import(client, body, token=game["judge_token"]).status_code == 401
