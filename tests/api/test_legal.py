"""``GET /api/games/<id>/legal`` (issue #26 item 1) over HTTP: who may ask (a seat's, the
table's or the judge's token), whose commands each gets, that a listed command is recorded when
posted, that none names a card the caller may not see (a property over random CCG and classic
games, dealt by the table and by the server), and whom the game waits on in a CCG damage window
and a classic combat; ``GET /state`` of a CCG game shows the window and the stack.
The use case on the in-memory store: tests/service/test_legal_moves.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain import find_ruleset
from domain.classic.rules import player_wins
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, post_actions
from tests.builders import classic_spec, random_classic_command

pytestmark = pytest.mark.storage_agnostic

CLASSIC = "munchkin-deluxe"


def legal(client: FlaskClient, game_id: str, token: str | None) -> Any:
    return client.get(f"/api/games/{game_id}/legal", headers=bearer(token))


def tokens(game: dict[str, Any]) -> dict[str, str]:
    """Every token of a created game by role."""
    out = {seat: v["token"] for seat, v in game["seats"].items()}
    return {**out, "table": game["table_token"], "judge": game["judge_token"]}


def card_ids(value: Any) -> Iterator[str]:
    """Every string in a command (values, list items, dict keys): where a card id could be."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from card_ids(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_ids(key)
            yield from card_ids(item)


def may_see(known: list[str], viewer: str) -> bool:
    if viewer == "judge":
        return True
    if viewer == "table":
        return bool(known)
    return viewer in known


def test_a_token_of_the_game_is_needed(client: FlaskClient) -> None:
    game = create_game(client)
    gid = game["game_id"]
    response = legal(client, gid, None)
    assert response.status_code == 401
    assert response.get_json()["error"]["code"] == "auth/missing_token"
    assert legal(client, gid, "not-a-token").status_code == 401
    assert legal(client, gid, ORGANIZER_TOKEN).status_code == 403
    missing = "00000000-0000-0000-0000-000000000000"
    assert legal(client, missing, game["table_token"]).status_code == 404


def test_a_seat_gets_its_own_commands_the_table_and_the_judge_every_seat(
    client: FlaskClient,
) -> None:
    game = create_game(client)
    gid, tok = game["game_id"], tokens(game)
    body_a = legal(client, gid, tok["A"]).get_json()
    assert set(body_a) == {"version", "waiting_for", "commands", "deadline"}
    assert body_a["version"] == game["version"]
    assert list(body_a["commands"]) == ["A"]
    assert body_a["commands"]["A"], "seat A draws its opening hand"
    assert all(c["seat"] == "A" and c["type"] == "draw_opening" for c in body_a["commands"]["A"])
    assert body_a["waiting_for"] == ["A", "B"]  # both draw their opening hands (A.7)
    assert list(legal(client, gid, tok["B"]).get_json()["commands"]) == ["B"]
    for role in ("table", "judge"):
        body = legal(client, gid, tok[role]).get_json()
        assert list(body["commands"]) == ["A", "B"]
        assert body["commands"]["A"] == body_a["commands"]["A"]


def test_a_listed_command_is_recorded_when_posted(client: FlaskClient) -> None:
    game = create_game(client, dealing="server", contributors=[])
    gid, tok = game["game_id"], tokens(game)
    body = legal(client, gid, tok["B"]).get_json()
    assert body["commands"] == {"B": [{"type": "draw_opening", "seat": "B"}]}  # E.1: no cards
    command = body["commands"]["B"][0]
    posted = post_actions(client, gid, tok["B"], [command], expected_version=body["version"])
    assert posted.status_code == 201, posted.get_json()
    after = legal(client, gid, tok["B"]).get_json()
    assert after["version"] > body["version"]
    assert after["commands"] == {"B": []}
    assert after["waiting_for"] == ["A"]


def test_the_seed_commands_are_forms_without_the_clients_secret(client: FlaskClient) -> None:
    game = create_game(client, dealing="server")
    gid, tok = game["game_id"], tokens(game)
    body = legal(client, gid, tok["A"]).get_json()
    assert body["commands"] == {"A": [{"type": "commit_seed", "seat": "A"}]}
    assert body["waiting_for"] == ["A", "B"]


def test_a_finished_game_offers_nothing(client: FlaskClient) -> None:
    game = create_game(client, dealing="server", contributors=[])
    gid, tok = game["game_id"], tokens(game)
    for seat in "AB":
        draw = [{"type": "draw_opening", "seat": seat}]
        assert post_actions(client, gid, tok[seat], draw).status_code == 201
    concede = [{"type": "concede", "seat": "A"}]
    assert post_actions(client, gid, tok["A"], concede).status_code == 201
    for role in ("A", "table", "judge"):
        body = legal(client, gid, tok[role]).get_json()
        assert (body["commands"], body["waiting_for"]) == ({}, [])


def check_told(app: Flask, client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """Ask ``/legal`` with every token of ``game``: each answer names only cards its caller
    may see (docs/rules.md A.4), only the seats it may act for, and the same waiting seats;
    the table's answer is returned."""
    gid, tok = game["game_id"], tokens(game)
    state = app.extensions["munchlog"].game(UUID(gid)).state
    cards = state["cards"]
    seats = list(state["seats"])
    answers = {}
    for role, token in tok.items():
        body = legal(client, gid, token).get_json()
        answers[role] = body
        finished = state["status"] == "finished"
        assert list(body["commands"]) == ([] if finished else [role] if role in seats else seats)
        for seat, commands in body["commands"].items():
            for command in commands:
                assert command["seat"] == seat, command
                for cid in card_ids(command):
                    if cid in cards:
                        assert may_see(cards[cid]["known"], role), (role, command)
    assert len({repr(a["waiting_for"]) for a in answers.values()}) == 1
    assert len({a["version"] for a in answers.values()}) == 1
    return answers["table"]


@pytest.mark.parametrize("dealing", ["table", "server"])
@pytest.mark.parametrize("seed", [1, 2])
def test_no_listed_command_names_a_card_the_caller_may_not_see_ccg(
    app: Flask, client: FlaskClient, seed: int, dealing: str
) -> None:
    rng = random.Random(seed)
    extra = {"dealing": "server", "contributors": []} if dealing == "server" else {}
    game = create_game(client, **extra)
    gid = game["game_id"]
    for _ in range(60):
        told = check_told(app, client, game)
        options = [c for cs in told["commands"].values() for c in cs if c["type"] != "concede"]
        if not options:
            break
        command = rng.choice(options)  # every listed command is recorded as offered
        posted = post_actions(
            client, gid, game["table_token"], [command], expected_version=told["version"]
        )
        assert posted.status_code == 201, (command, posted.get_json())


@pytest.mark.parametrize("dealing", ["table", "server"])
def test_no_listed_command_names_a_card_the_caller_may_not_see_classic(
    app: Flask, client: FlaskClient, dealing: str
) -> None:
    rng = random.Random(7)
    spec = classic_spec(CLASSIC, 3)
    if dealing == "server":
        spec = {**spec, "dealing": "server", "contributors": []}
    game = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    gid = game["game_id"]
    rs = find_ruleset(CLASSIC)
    log = app.extensions["munchlog"]
    for _ in range(40):
        told = check_told(app, client, game)
        state = log.game(UUID(gid)).state
        if state["status"] == "finished":
            break
        if dealing == "server":  # every listed command is recorded as offered
            options = [c for cs in told["commands"].values() for c in cs if c["type"] != "concede"]
            command = rng.choice(options)
        else:  # a table-dealt draw names the cards drawn: the driver's commands name them
            command = random_classic_command(rs, state, rng)
        posted = post_actions(client, gid, game["table_token"], [command])
        assert posted.status_code == 201, (command, posted.get_json())


def test_a_damage_window_waits_for_both_passes(app: Flask, client: FlaskClient) -> None:
    rng = random.Random(0)
    game = create_game(client)
    gid, tok = game["game_id"], tokens(game)
    for _ in range(200):
        view = client.get(f"/api/games/{gid}/state", headers=bearer(tok["A"])).get_json()
        assert "stack" in view and "window" in view
        if (view["window"] or {}).get("kind") == "damage" and not view["stack"]:
            break
        told = legal(client, gid, tok["table"]).get_json()
        options = [c for cs in told["commands"].values() for c in cs if c["type"] != "concede"]
        posted = post_actions(client, gid, tok["table"], [rng.choice(options)])
        assert posted.status_code == 201
    else:
        pytest.fail("no damage window in 200 random commands")
    assert view["window"]["waiting_for"] == ["A", "B"]
    assert legal(client, gid, tok["A"]).get_json()["waiting_for"] == ["A", "B"]
    assert {"type": "pass", "seat": "A"} in legal(client, gid, tok["A"]).get_json()["commands"]["A"]
    assert post_actions(client, gid, tok["A"], [{"type": "pass", "seat": "A"}]).status_code == 201
    assert legal(client, gid, tok["judge"]).get_json()["waiting_for"] == ["B"]
    window = client.get(f"/api/games/{gid}/state", headers=bearer(None)).get_json()["window"]
    assert window["kind"] == "damage" and window["waiting_for"] == ["B"]
    assert {"type": "pass", "seat": "A"} not in legal(client, gid, tok["A"]).get_json()["commands"][
        "A"
    ]


def test_a_classic_combat_waits_on_the_seat_asked_to_help(app: Flask, client: FlaskClient) -> None:
    """A combat the player is losing waits on the player (who may ask for help), then on the
    seat asked. (While the player's side wins, the game waits on the others to pass instead,
    docs/rules.md B.5, and the player may still ask: the server deals at random here, so the
    game is played on until a combat the player is losing.)"""
    rng = random.Random(3)
    spec = {**classic_spec(CLASSIC, 4), "dealing": "server", "contributors": []}
    game = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    gid, tok = game["game_id"], tokens(game)
    log = app.extensions["munchlog"]
    for _ in range(600):
        told = legal(client, gid, tok["table"]).get_json()
        asks = [c for cs in told["commands"].values() for c in cs if c["type"] == "ask_help"]
        state = log.game(UUID(gid)).state
        if asks and not player_wins(state, state["combat"]):
            break
        options = [c for cs in told["commands"].values() for c in cs if c["type"] != "concede"]
        assert post_actions(client, gid, tok["table"], [rng.choice(options)]).status_code == 201
    else:
        pytest.fail("no combat the player is losing to ask help in")
    combat = state["combat"]
    player = combat["player"]
    assert player in told["waiting_for"], told["waiting_for"]
    ask = asks[0]
    posted = post_actions(client, gid, tok[player], [ask], expected_version=told["version"])
    assert posted.status_code == 201, posted.get_json()
    helper = ask["helper"]
    after = legal(client, gid, tok[helper]).get_json()
    assert after["waiting_for"] == [helper]
    answers = {c["type"] for c in after["commands"][helper]}
    assert {"accept_help", "decline_help"} <= answers
