"""A fifth family hosts its own event (issue #37): ``test-trio`` (tests/rulesets/trio.py, its
event part only the cards its seats bring) runs an event of tables of 3 over HTTP, from its
opening to its standings, with nothing above ``domain/`` or in ``domain/tournament/`` made for
it (docs/DESIGN.md, "Adding a family")."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.rulesets.trio import NAME

pytestmark = pytest.mark.storage_agnostic

PLAYERS = ("ann", "bob", "cyd", "dee", "eve", "fay")


def post(client: FlaskClient, path: str, body: Any = None, token: str = ORGANIZER_TOKEN) -> Any:
    response = client.post(path, json=body, headers=bearer(token))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def get(client: FlaskClient, path: str, token: str | None = None) -> Any:
    response = client.get(path, headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def play_round(client: FlaskClient, eid: str, number: int, tokens: dict[str, str]) -> None:
    """Every table of round ``number``: seats B and C concede, A wins (T.3, T.4)."""
    for player, token in tokens.items():
        game = get(client, f"/api/events/{eid}/rounds/{number}/my-game", token)
        if game["seat"] != "A":
            body = {"actions": [{"type": "concede", "seat": game["seat"]}]}
            post(client, f"/api/games/{game['game_id']}/actions", body, game["token"])
        assert game["seat"] in ("A", "B", "C") and len(game["opponents"]) == 2, player


def test_a_trio_event_runs_from_its_opening_to_its_standings(client: FlaskClient) -> None:
    body = {
        "name": "Trio Cup",
        "ruleset": NAME,
        "format": "casual",
        "round_minutes": 20,
        "rounds": 2,
        "dealing": "table",
    }
    eid = post(client, "/api/events", body)["event_id"]
    event = get(client, f"/api/events/{eid}")
    assert (event["ruleset"], event["table_size"], event["match"]) == (NAME, 3, "bo1")
    tokens = {
        p: post(client, f"/api/events/{eid}/players", {"player": p})["token"] for p in PLAYERS
    }
    winners: list[str] = []
    for number in (1, 2):
        paired = post(client, f"/api/events/{eid}/rounds")
        assert [sorted(t["seats"]) for t in paired["pairings"]] == [["A", "B", "C"]] * 2
        state = get(client, f"/api/games/{paired['pairings'][0]['games'][0]}/state")
        assert state["ruleset"] == NAME
        play_round(client, eid, number, tokens)
        winners += [t["seats"]["A"] for t in paired["pairings"]]
    rows = get(client, f"/api/events/{eid}/standings")
    assert sorted(r["player"] for r in rows) == sorted(PLAYERS)
    points = {r["player"]: r["points"] for r in rows}
    for player in PLAYERS:  # a table's winner scores more than its seats that conceded
        assert points[player] == max(points.values()) or player not in winners
    assert min(points[w] for w in winners) > min(points.values())
    assert get(client, f"/api/events/{eid}")["state"] == "finished"


def test_a_trio_player_registers_no_decklist(client: FlaskClient) -> None:
    body = {"name": "Trio Cup", "ruleset": NAME, "format": "casual", "round_minutes": 20}
    eid = post(client, "/api/events", body)["event_id"]
    refused = client.post(
        f"/api/events/{eid}/players",
        json={"player": "ann", "hero": {"name": "Orc"}, "decklist": [{"name": "Rock"}]},
        headers=bearer(ORGANIZER_TOKEN),
    )
    assert refused.status_code == 400
    assert refused.get_json()["error"]["code"] == "request/no_decklist_here"


def test_players_a_trio_table_cannot_seat_are_refused_before_any_game(client: FlaskClient) -> None:
    """Tables seat what the family's games seat (three here, not classic's 3 to 6): four
    players cannot sit at trio tables, and pairing says so (422) before creating a game."""
    body = {"name": "Trio Cup", "ruleset": NAME, "format": "casual", "round_minutes": 20}
    eid = post(client, "/api/events", body)["event_id"]
    for player in PLAYERS[:4]:
        post(client, f"/api/events/{eid}/players", {"player": player})
    refused = client.post(f"/api/events/{eid}/rounds", headers=bearer(ORGANIZER_TOKEN))
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["error"]["code"] == "command/unseatable_players"
    assert get(client, f"/api/events/{eid}")["round"] == 0
