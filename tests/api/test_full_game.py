"""A complete Munchkin CCG game recorded over HTTP, from setup to elimination (both back ends)."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from api.demo import FlaskTransport, record_demo_game
from domain import find_ruleset
from domain.envelope import verify_records
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, judge_state, post_actions


def test_a_complete_game_is_recorded_from_setup_to_elimination(
    app: Flask, client: FlaskClient
) -> None:
    result = record_demo_game(FlaskTransport(app), ORGANIZER_TOKEN, seed=3)

    assert result.status == "finished"
    assert result.winner in ("A", "B", "draw")
    game = f"/api/games/{result.game_id}"
    judge = bearer(result.tokens["judge"])

    state = client.get(f"{game}/state", headers=judge).get_json()
    assert state["status"] == "finished"
    assert state["winner"] == result.winner
    assert state["version"] == result.version
    assert set(state["seats"]) == {"A", "B"}
    for seat in state["seats"].values():
        assert {
            "player",
            "hero",
            "level",
            "gold",
            "damage",
            "life",
            "marker",
            "hand_count",
            "deck_count",
            "deck_known_top",
            "deck_known_bottom",
            "hoard",
            "stash",
            "discard",
        } <= set(seat)

    log = client.get(f"{game}/events?limit=1000", headers=judge).get_json()
    types = [e["type"] for e in log["events"]]
    assert types[0] == "GameCreated"
    assert "PlayerEliminated" in types
    assert types[-1] == "GameEnded"
    assert [e["version"] for e in log["events"]] == list(range(1, result.version + 1))

    records = app.extensions["munchlog"].records(__import__("uuid").UUID(result.game_id))
    assert verify_records(records)["ok"]
    salts = [r["event"]["salt"] for r in records if r["event"]["type"] == "AttackCardCommitted"]
    assert salts, "the demo game had no attack"
    assert all(re.fullmatch(r"[0-9a-f]{32}", salt) for salt in salts)
    assert len(set(salts)) == len(salts)

    summary = client.get(game).get_json()
    assert summary["status"] == "finished"
    assert summary["winner"] == result.winner
    listed = client.get("/api/games?status=finished&player=alice").get_json()["games"]
    assert [g["game_id"] for g in listed] == [result.game_id]
    assert client.get("/api/games?status=playing").get_json()["games"] == []

    # A finished game takes no more actions.
    refused = post_actions(
        client, result.game_id, result.tokens["table"], [{"type": "end_turn", "seat": "A"}]
    )
    assert refused.status_code == 422
    assert refused.get_json()["error"]["code"] == "command/game_over"


def test_each_seat_sees_its_own_hand_and_only_the_count_of_the_other(
    client: FlaskClient,
) -> None:
    game = create_game(client)
    rs = find_ruleset("munchkin-ccg")
    state = judge_state(client, game)
    for seat in ("A", "B"):
        (command, *_) = rs.legal_commands(state, seat)
        response = post_actions(client, game["game_id"], game["seats"][seat]["token"], [command])
        assert response.status_code == 201, response.get_json()
        state = judge_state(client, game)

    url = f"/api/games/{game['game_id']}/state"
    view_a = client.get(url, headers=bearer(game["seats"]["A"]["token"])).get_json()
    assert view_a["seats"]["A"]["hand_count"] == 6
    assert len(view_a["seats"]["A"]["hand"]) == 6
    assert all("name" in card for card in view_a["seats"]["A"]["hand"])
    hand_b = view_a["seats"]["B"].get("hand") or []
    assert all("name" not in card and "id" not in card for card in hand_b)
    assert view_a["seats"]["B"]["hand_count"] == 6
    spectator = client.get(url).get_json()
    for seat in ("A", "B"):
        assert all("name" not in c for c in spectator["seats"][seat].get("hand") or [])

    # The opponent's log names none of A's opening cards.
    ids_a = set(state["seats"]["A"]["zones"]["hand"])
    log_b = client.get(
        f"/api/games/{game['game_id']}/events", headers=bearer(game["seats"]["B"]["token"])
    ).get_json()
    text = repr(log_b)
    assert not any(cid in text for cid in ids_a)


def test_card_ids_are_random_and_opaque(client: FlaskClient) -> None:
    first = create_game(client)
    second = create_game(client)
    ids_1 = [c["id"] for c in first["seats"]["A"]["cards"]]
    ids_2 = [c["id"] for c in second["seats"]["A"]["cards"]]
    assert [c["name"] for c in first["seats"]["A"]["cards"]] == [
        c["name"] for c in second["seats"]["A"]["cards"]
    ]
    assert not set(ids_1) & set(ids_2)
    assert len(set(ids_1)) == 40
    assert all(re.fullmatch(r"[0-9a-f]{16}", cid) for cid in ids_1)


def test_client_time_is_stored_beside_the_server_time(app: Flask, client: FlaskClient) -> None:
    result = record_demo_game(FlaskTransport(app), ORGANIZER_TOKEN, seed=5, max_actions=5)
    game = {"game_id": result.game_id, "judge_token": result.tokens["judge"]}
    rs = find_ruleset("munchkin-ccg")
    state = judge_state(client, game)
    command = next(c for seat in ("A", "B") for c in rs.legal_commands(state, seat))
    response = post_actions(
        client,
        result.game_id,
        result.tokens["table"],
        [{**command, "at": "2024-05-01T10:00:00+02:00"}],
    )
    assert response.status_code == 201, response.get_json()
    events: list[dict[str, Any]] = response.get_json()["events"]
    assert events and all(e["client_at"] == "2024-05-01T10:00:00+02:00" for e in events)
    assert all(e["received_at"] for e in events)


def test_tokens_are_stored_only_as_hashes(app: Flask, client: FlaskClient) -> None:
    game = create_game(client)
    log = app.extensions["munchlog"]
    access = log.access(__import__("uuid").UUID(game["game_id"]))
    stored = repr(vars(access))
    for token in (game["table_token"], game["judge_token"], game["seats"]["A"]["token"]):
        assert token not in stored
    for notification in log.store.recorder.select_notifications(start=1, limit=100):
        blob = notification.state.decode("utf-8", "replace")
        for token in (game["table_token"], game["judge_token"], ORGANIZER_TOKEN):
            assert token not in blob
