"""A drawn card told by its name over HTTP (docs/rules.md E.4): in a table-dealt classic game the
table's and the judge's tokens may send ``{"name": ...}`` for each card a draw takes, the event
stored holds the id; a seat's token may not (403 ``auth/names_need_the_table``), and its answer
is the same whatever the decks hold; a server-dealt game refuses a name as any card
(``rule/server_deals``); ``GET /legal`` tells the table and the judge which deck a draw takes
from and how many cards, never which cards. The resolution itself: tests/classic/
test_named_draws.py."""

from __future__ import annotations

import json
import random
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer, post_actions
from tests.builders import classic_spec

pytestmark = pytest.mark.storage_agnostic

RULESET = "munchkin-deluxe"
TOAD, GOLEM = "Sample Grumpy Toad", "Sample Sock Golem"
HAT, RING = "Sample Pointy Hat", "Sample Gold Ring"


def create(client: FlaskClient, spec: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def named(*names: str) -> list[dict[str, str]]:
    return [{"name": n} for n in names]


def deal(seat: str) -> dict[str, Any]:
    """A deal by names: two Toads, a Golem and a Toad; two Hats and two Rings."""
    return {
        "type": "deal",
        "seat": seat,
        "doors": named(TOAD, TOAD, GOLEM, TOAD),
        "treasures": named(HAT, RING, HAT, RING),
    }


def state_of(app: Flask, game: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = app.extensions["munchlog"].game(UUID(game["game_id"])).state
    return state


def names_of(state: dict[str, Any], ids: list[str]) -> list[str]:
    return [state["cards"][c]["def"]["name"] for c in ids]


def judge_events(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(
        f"/api/games/{game['game_id']}/events?limit=1000", headers=bearer(game["judge_token"])
    )
    events: list[dict[str, Any]] = response.get_json()["events"]
    return events


@pytest.mark.parametrize("role", ["table", "judge"])
def test_the_table_and_the_judge_deal_by_name_and_the_event_holds_ids(
    app: Flask, client: FlaskClient, role: str
) -> None:
    game = create(client, classic_spec(RULESET, 3))
    gid, token = game["game_id"], game[f"{role}_token"]
    before = state_of(app, game)
    posted = post_actions(client, gid, token, [deal("A")], expected_version=game["version"])
    assert posted.status_code == 201, posted.get_json()
    (stored,) = [e for e in judge_events(client, game) if e["type"] == "CardsDealt"]
    doors, treasures = stored["data"]["doors"], stored["data"]["treasures"]
    assert all(isinstance(c, str) for c in doors + treasures)
    assert names_of(before, doors) == [TOAD, TOAD, GOLEM, TOAD]
    assert names_of(before, treasures) == [HAT, RING, HAT, RING]
    assert len(set(doors)) == 4 and len(set(treasures)) == 4
    assert set(doors) <= set(before["decks"]["door"])
    assert state_of(app, game)["seats"]["A"]["zones"]["hand"] == [*doors, *treasures]


def test_a_batch_names_each_draw_after_the_ones_before_it(app: Flask, client: FlaskClient) -> None:
    """Three copies of each catalog card: two deals of three Toads each cannot both be; deals
    of one and two can, the second taking the Toads the first left."""
    game = create(client, classic_spec(RULESET, 3, copies=3))
    gid, table = game["game_id"], game["table_token"]
    before = state_of(app, game)
    toads = sorted(c for c in before["decks"]["door"] if before["cards"][c]["def"]["name"] == TOAD)
    batch = [deal("A"), deal("B")]
    refused = post_actions(client, gid, table, batch)
    assert refused.status_code == 422  # six Toads asked, three in the deck
    assert refused.get_json()["error"] == {
        "code": "command/card_not_there",
        "message": f"no card named {TOAD!r} left in the door deck",
    }
    one_each = [
        {**deal(seat), "doors": named(TOAD, GOLEM, GOLEM, "Sample Tax Wraith")} for seat in "AB"
    ]
    one_each[1]["doors"] = named(TOAD, TOAD, "Sample Tax Wraith", "Sample Tax Wraith")
    one_each[1]["treasures"] = named(HAT, "Sample Tin Armor", "Sample Tin Armor", RING)
    posted = post_actions(client, gid, table, one_each)
    assert posted.status_code == 201, posted.get_json()
    dealt = [e["data"]["doors"] for e in judge_events(client, game) if e["type"] == "CardsDealt"]
    assert [dealt[0][0], *dealt[1][:2]] == toads


def test_a_name_the_deck_does_not_hold_is_refused_naming_the_deck(client: FlaskClient) -> None:
    game = create(client, classic_spec(RULESET, 3, copies=3))
    command = {**deal("A"), "treasures": named(HAT, "Sample Nothing", RING, RING)}
    response = post_actions(client, game["game_id"], game["table_token"], [command])
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "command/card_not_there"
    assert error["message"] == "no card named 'Sample Nothing' left in the treasure deck"


def test_a_server_dealt_game_refuses_a_name_as_any_card(client: FlaskClient) -> None:
    spec = {**classic_spec(RULESET, 3), "dealing": "server", "contributors": []}
    game = create(client, spec)
    response = post_actions(client, game["game_id"], game["table_token"], [deal("A")])
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "rule/server_deals"


def test_the_key_fingerprints_what_was_sent(client: FlaskClient) -> None:
    """The same body with the same Idempotency-Key is answered again (the names were made
    into ids the first time: the answer is that first one); other names with it are refused."""
    game = create(client, classic_spec(RULESET, 3))
    gid, table = game["game_id"], game["table_token"]
    first = post_actions(client, gid, table, [deal("A")], key="k-1")
    again = post_actions(client, gid, table, [deal("A")], key="k-1")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    other = {**deal("A"), "doors": named(GOLEM, GOLEM, GOLEM, TOAD)}
    reused = post_actions(client, gid, table, [other], key="k-1")
    assert reused.get_json()["error"]["code"] == "request/idempotency_key_reused"


def test_legal_tells_the_table_and_the_judge_the_deck_and_the_count_not_the_cards(
    client: FlaskClient,
) -> None:
    game = create(client, classic_spec(RULESET, 3))
    gid = game["game_id"]

    def offered(token: str) -> dict[str, list[dict[str, Any]]]:
        response = client.get(f"/api/games/{gid}/legal", headers=bearer(token))
        commands: dict[str, list[dict[str, Any]]] = response.get_json()["commands"]
        return commands

    wants = {"doors": {"deck": "door", "count": 4}, "treasures": {"deck": "treasure", "count": 4}}
    for role in ("table", "judge"):
        commands = offered(game[f"{role}_token"])
        assert commands["A"] == [{"type": "deal", "seat": "A", "draws": wants}]
    seat = offered(game["seats"]["A"]["token"])
    # a seat names no card by name, so the draw is not offered to it at all (issue #40: a
    # seat's list holds only what it can post; it offered a bare `deal` that was refused)
    assert seat == {"A": []}
    # what the table is offered, filled in with names, is recorded
    (form,) = offered(game["table_token"])["B"]
    body = {k: v for k, v in form.items() if k != "draws"}
    body.update(doors=named(TOAD, TOAD, TOAD, GOLEM), treasures=named(HAT, HAT, RING, RING))
    assert post_actions(client, gid, game["table_token"], [body]).status_code == 201


def refusal(client: FlaskClient, game: dict[str, Any], command: dict[str, Any]) -> Any:
    response = post_actions(
        client,
        game["game_id"],
        game["seats"][command["seat"]]["token"],
        [command],
        expected_version=game["version"],
        key="same-key",
    )
    return response.status_code, response.get_json(), dict(response.headers)


def test_a_seat_may_not_name_a_card_and_learns_nothing_of_the_decks_from_the_refusal(
    app: Flask, client: FlaskClient
) -> None:
    """The leak angle (A.4): a seat's named draw is refused before the decks are looked at.
    Decks that hold the names (three copies of the catalog), that hold none of them (cards
    of random names), a name one copy of which is in the deck and one in another's hand, a
    name nowhere: one answer, byte for byte, and nothing stored."""
    rng = random.Random(3)
    full = create(client, classic_spec(RULESET, 3, copies=3))
    empty = create(client, classic_spec(RULESET, 3, copies=1, secret=rng))
    scarce = create(client, classic_spec(RULESET, 3, copies=2))
    toads = [c for c, card in state_of(app, scarce)["cards"].items() if card["def"]["name"] == TOAD]
    doors = state_of(app, scarce)["decks"]["door"]
    others = [c for c in doors if c not in toads][:3]
    dealt = {"type": "deal", "seat": "B", "doors": [toads[0], *others]}
    dealt["treasures"] = state_of(app, scarce)["decks"]["treasure"][:4]
    assert (
        post_actions(client, scarce["game_id"], scarce["table_token"], [dealt]).status_code == 201
    )
    scarce["version"] += 1  # B holds one Toad, the deck the other
    answers = set()
    for game in (full, empty, scarce):
        for names in ([TOAD, TOAD, TOAD, TOAD], [TOAD, GOLEM, TOAD, GOLEM], ["Nothing"] * 4):
            command = {**deal("A"), "doors": named(*names)}
            status, body, headers = refusal(client, game, command)
            assert status == 403
            headers.pop("Content-Length", None)
            answers.add((status, json.dumps(body, sort_keys=True), repr(sorted(headers.items()))))
            assert state_of(app, game)["version"] == game["version"]
    (answer,) = answers
    assert "auth/names_need_the_table" in answer[1]
    # a seat's kick by name: the same answer
    kick = {"type": "kick_door", "seat": "A", "card": {"name": TOAD}}
    assert refusal(client, full, kick)[:2] == (403, json.loads(answer[1]))


def test_the_card_names_of_a_classic_set_are_public_and_only_the_catalogs(
    client: FlaskClient,
) -> None:
    """``GET /api/rulesets/<ruleset>/cards``: the sample catalog's cards (what the table
    page's pickers suggest), to anyone; 404 for a ruleset that is not a classic set."""
    from domain.classic.cards import sample_catalog

    for ruleset in ("munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar"):
        response = client.get(f"/api/rulesets/{ruleset}/cards")
        assert response.status_code == 200
        body = response.get_json()
        assert body["ruleset"] == ruleset
        listed = {(c["name"], c["deck"], c["kind"]) for c in body["cards"]}
        catalog = sample_catalog(ruleset).values()
        assert listed == {(c["name"], c["deck"], c["kind"]) for c in catalog}
        assert len(body["cards"]) == len(listed)
        decks = [c["deck"] for c in body["cards"]]
        assert decks == sorted(decks, key=lambda d: d != "door")  # Doors first
    for other in ("munchkin-ccg", "nothing"):
        response = client.get(f"/api/rulesets/{other}/cards")
        assert response.status_code == 404
        assert response.get_json()["error"]["code"] == "ruleset/no_card_names"
