"""Fair dealing over HTTP (issue #25, docs/rules.md E): creating a server-dealt game, the seeds
as actions, ``dealing`` in ``GET /api/games/<id>`` and ``/verify``, the error shape of a refusal,
the OpenAPI, and the server's secret on both stores: stored with the game, shown by no route to
anyone until the game is over. The use cases themselves: tests/service/test_dealing.py.
"""

from __future__ import annotations

import os
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.dealing import seat_commitment, server_commitment
from domain.game import GameSecrets
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, post_actions


def secret_hex(app: Flask, game_id: str) -> str:
    log = app.extensions["munchlog"]
    found: Any = log.store.load(GameSecrets.id_for(UUID(game_id)))
    return str(found.secrets[0])


def everything_seen(client: FlaskClient, game: dict[str, Any]) -> str:
    """Every route's answer about the game, as every viewer: the texts a secret could leak in."""
    gid = game["game_id"]
    tokens = {**{s: v["token"] for s, v in game["seats"].items()}, "judge": game["judge_token"]}
    tokens["table"] = game["table_token"]
    texts = []
    for token in [None, *tokens.values()]:
        for path in ("", "/state", "/events", "/export", "/verify", "/timeline"):
            response = client.get(f"/api/games/{gid}{path}", headers=bearer(token))
            texts.append(response.get_data(as_text=True))
    return "\n".join(texts)


def play_to_the_end(client: FlaskClient, game: dict[str, Any]) -> None:
    gid, seats = game["game_id"], game["seats"]
    seeds = {seat: os.urandom(32) for seat in seats}
    for seat in seats:
        commitment = seat_commitment(gid, seat, seeds[seat])
        action = {"type": "commit_seed", "seat": seat, "commitment": commitment}
        assert post_actions(client, gid, seats[seat]["token"], [action]).status_code == 201
    for seat in seats:
        action = {"type": "reveal_seed", "seat": seat, "seed": seeds[seat].hex()}
        assert post_actions(client, gid, seats[seat]["token"], [action]).status_code == 201
    for seat in seats:
        action = {"type": "draw_opening", "seat": seat}
        response = post_actions(client, gid, seats[seat]["token"], [action])
        assert response.status_code == 201, response.get_json()
    concede = [{"type": "concede", "seat": "A"}]
    assert post_actions(client, gid, seats["A"]["token"], concede).status_code == 201


def test_the_secret_is_stored_and_shown_only_at_the_end(app: Flask, client: FlaskClient) -> None:
    game = create_game(client, dealing="server")
    gid = game["game_id"]
    secret = secret_hex(app, gid)
    first = client.get(f"/api/games/{gid}/events", headers=bearer(game["judge_token"]))
    created = first.get_json()["events"][0]["data"]
    assert created["dealing"]["server_commitment"] == server_commitment(gid, bytes.fromhex(secret))
    assert secret not in everything_seen(client, game)
    play_to_the_end(client, game)
    seen = everything_seen(client, game)
    assert secret in seen
    verified = client.get(f"/api/games/{gid}/verify").get_json()
    assert verified["ok"] is True
    assert verified["dealing"]["ok"] and verified["dealing"]["complete"], verified
    summary = client.get(f"/api/games/{gid}").get_json()
    assert summary["dealing"]["server_secrets"] == {"0": secret}


@pytest.mark.storage_agnostic
def test_get_game_shows_the_dealing(client: FlaskClient) -> None:
    table = create_game(client)
    assert client.get(f"/api/games/{table['game_id']}").get_json()["dealing"] == {
        "mode": "table",
        "scheme": None,
        "contributors": [],
        "revealed": [],
        "withheld": [],
    }
    game = create_game(client, dealing="server", contributors=["B"], reveal_timeout=90)
    dealing = client.get(f"/api/games/{game['game_id']}").get_json()["dealing"]
    assert {k: dealing[k] for k in ("mode", "scheme", "contributors", "revealed", "withheld")} == {
        "mode": "server",
        "scheme": "munchlog-rand-v1",
        "contributors": ["B"],
        "revealed": [],
        "withheld": [],
    }
    assert (dealing["reveal_timeout"], dealing["ready"]) == (90, False)


@pytest.mark.storage_agnostic
@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"dealing": "dice"}, "dealing"),
        ({"dealing": "server", "reveal_timeout": 0}, "reveal_timeout"),
        ({"dealing": "server", "reveal_timeout": "60"}, "reveal_timeout"),
        ({"dealing": "server", "contributors": ["Z"]}, "contributors"),
        ({"contributors": ["A"]}, "contributors"),
    ],
)
def test_a_malformed_dealing_is_400(client: FlaskClient, extra: dict[str, Any], field: str) -> None:
    from api.cli.demo import demo_spec

    body = {**demo_spec(seed=0), **extra}
    response = client.post("/api/games", json=body, headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error["code"].startswith("request/")
    assert field in repr(error.get("fields")), error


@pytest.mark.storage_agnostic
def test_a_told_card_is_422_with_the_rule(client: FlaskClient) -> None:
    game = create_game(client, dealing="server", contributors=[])
    gid, token = game["game_id"], game["seats"]["A"]["token"]
    cards = [c["id"] for c in game["seats"]["A"]["cards"][:6]]
    response = post_actions(
        client, gid, token, [{"type": "draw_opening", "seat": "A", "cards": cards}]
    )
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["rule"]) == ("rule/server_deals", "E.1")
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 1  # nothing recorded
    response = post_actions(client, gid, token, [{"type": "draw_opening", "seat": "A"}])
    assert response.status_code == 201
    assert [e["type"] for e in response.get_json()["events"]] == ["Dealt", "OpeningHandDrawn"]


@pytest.mark.storage_agnostic
def test_a_draw_ends_its_batch_on_the_hot_path_as_on_the_flask_route(
    app: Flask, client: FlaskClient
) -> None:
    """Issue #35: a batch with a draw before its last action is 422
    ``command/random_not_last``; the hot path (no ``Idempotency-Key``) answers as the Flask
    route (an ``Idempotency-Key`` sends it there), and nothing is recorded."""
    from api.json_api.hotpath import RecordHotPath

    hot: Any = app.wsgi_app
    while not isinstance(hot, RecordHotPath):
        hot = hot.app
    game = create_game(client, dealing="server", contributors=[])
    gid, token = game["game_id"], game["table_token"]
    batch = [{"type": "draw_opening", "seat": "A"}, {"type": "draw_opening", "seat": "B"}]
    on_hot = post_actions(client, gid, token, batch)
    on_flask = post_actions(client, gid, token, batch, key="k-1")
    assert on_hot.status_code == on_flask.status_code == 422
    assert on_hot.get_json() == on_flask.get_json()
    error = on_hot.get_json()["error"]
    assert error["code"] == "command/random_not_last", error
    assert "action 1 of 2 (draw_opening)" in error["message"]
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 1
    for action in batch:  # one a batch: each dealt
        assert post_actions(client, gid, token, [action]).status_code == 201
    assert hot.served == 2  # the two single draws; the refusal came from the app's handlers


def test_a_late_reveal_is_422_with_the_rule_not_a_500(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reveal after its deadline records the withholding first (a batch of the ``dealing``
    source, which the metrics did not know: the answer was a 500), then refuses the reveal."""
    game = create_game(client, dealing="server", reveal_timeout=30)
    gid, seats = game["game_id"], game["seats"]
    seeds = {seat: os.urandom(32) for seat in seats}
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:00+00:00")
    for seat in seats:
        commitment = seat_commitment(gid, seat, seeds[seat])
        action = {"type": "commit_seed", "seat": seat, "commitment": commitment}
        assert post_actions(client, gid, seats[seat]["token"], [action]).status_code == 201
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:31+00:00")
    action = {"type": "reveal_seed", "seat": "A", "seed": seeds["A"].hex()}
    response = post_actions(client, gid, seats["A"]["token"], [action], expected_version=3)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["rule"]) == ("rule/seed_withheld", "E.2")
    assert client.get(f"/api/games/{gid}").get_json()["dealing"]["withheld"] == ["A", "B"]


@pytest.mark.storage_agnostic
def test_a_seed_for_another_seat_is_403(client: FlaskClient) -> None:
    game = create_game(client, dealing="server")
    action = {"type": "commit_seed", "seat": "B", "commitment": "ab" * 32}
    response = post_actions(client, game["game_id"], game["seats"]["A"]["token"], [action])
    assert response.status_code == 403


@pytest.mark.storage_agnostic
def test_the_openapi_documents_the_dealing(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    create = schemas["CreateGame"]["properties"]
    assert create["dealing"]["enum"] == ["table", "server"]
    assert {"contributors", "reveal_timeout"} <= set(create)
    assert {"mode", "scheme", "contributors", "revealed", "withheld"} <= set(
        schemas["Dealing"]["properties"]
    )
    actions = spec["paths"]["/api/games/{game_id}/actions"]["post"]["description"]
    assert "command/random_not_last" in actions and "`value` or `values`" in actions


def dispute_ruled(
    client: FlaskClient, gid: str, judge: dict[str, str], ruling: dict[str, Any]
) -> dict[str, Any]:
    """A dispute opened and ruled on with ``ruling`` by the judge (``judge``: its header): the
    ruling's 201 body."""
    opened = client.post(f"/api/games/{gid}/disputes", json={"statement": "?"}, headers=judge)
    did = opened.get_json()["dispute"]["dispute_id"]
    ruled = client.post(f"/api/games/{gid}/disputes/{did}/ruling", json=ruling, headers=judge)
    assert ruled.status_code == 201, ruled.get_json()
    answer: dict[str, Any] = ruled.get_json()
    return answer


def test_a_rekeying_ruling_gives_the_judge_alone_the_old_secret(
    app: Flask, client: FlaskClient
) -> None:
    """docs/rules.md E.3 over HTTP: the ruling's answer (judge's token only) carries epoch 0's
    secret; no other answer does, to anyone, until the end; the new secret is stored with the
    ruling (both stores)."""
    game = create_game(client, dealing="server", contributors=[])
    gid, judge = game["game_id"], bearer(game["judge_token"])
    secret = secret_hex(app, gid)
    answer = dispute_ruled(client, gid, judge, {"ruling": "re-keyed", "rekey": True})
    assert answer["dealing_secret"] == {"epoch": 0, "secret": secret}
    assert [e["type"] for e in answer["events"]] == ["DealingRekeyed", "RulingRecorded"]
    log = app.extensions["munchlog"]
    stored: Any = log.store.load(GameSecrets.id_for(UUID(gid)))
    assert sorted(stored.secrets) == [0, 1]
    assert answer["events"][0]["data"]["server_commitment"] == server_commitment(
        gid, bytes.fromhex(stored.secrets[1])
    )
    seen = everything_seen(client, game)
    assert secret not in seen and stored.secrets[1] not in seen
    assert client.get(f"/api/games/{gid}").get_json()["dealing"]["epoch"] == 1
    concede = [{"type": "concede", "seat": "A"}]
    assert post_actions(client, gid, game["seats"]["A"]["token"], concede).status_code == 201
    verified = client.get(f"/api/games/{gid}/verify").get_json()["dealing"]
    assert verified["ok"] and verified["complete"], verified


@pytest.mark.storage_agnostic
def test_a_rekeying_ruling_of_a_table_dealt_game_is_422(client: FlaskClient) -> None:
    game = create_game(client)
    gid, judge = game["game_id"], bearer(game["judge_token"])
    opened = client.post(f"/api/games/{gid}/disputes", json={"statement": "?"}, headers=judge)
    did = opened.get_json()["dispute"]["dispute_id"]
    body = {"ruling": "re-keyed", "rekey": True}
    ruled = client.post(f"/api/games/{gid}/disputes/{did}/ruling", json=body, headers=judge)
    assert ruled.status_code == 422
    error = ruled.get_json()["error"]
    assert (error["code"], error["rule"]) == ("rule/table_deals", "E.3")
    spec = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert "rekey" in spec["RulingCreate"]["properties"]
    assert "dealing_secret" in spec["Recorded"]["properties"]


def seed(client: FlaskClient, game_id: str, seats: dict[str, str]) -> None:
    """Every seat (``seats``: seat -> token) commits, then reveals, a new seed."""
    seeds = {seat: os.urandom(32) for seat in seats}
    for kind in ("commit_seed", "reveal_seed"):
        for seat, token in seats.items():
            action: dict[str, Any] = {"type": kind, "seat": seat}
            if kind == "commit_seed":
                action["commitment"] = seat_commitment(game_id, seat, seeds[seat])
            else:
                action["seed"] = seeds[seat].hex()
            response = post_actions(client, game_id, token, [action])
            assert response.status_code == 201, response.get_json()


@pytest.mark.storage_agnostic
def test_a_backup_of_a_finished_event_game_rekeys_it(client: FlaskClient) -> None:
    """Issue #35, item 6, over HTTP: an event's game (server-dealt), finished, its secret
    shown to all; the event's judge backs it up into play: the ruling re-keys it (no
    ``dealing_secret``: it is public), nothing is dealt before new seeds, and the game
    verifies over both epochs once over again."""
    from tests.api.test_events import my_game, open_event, pair, register

    event = open_event(client, dealing="server")
    eid, judge = event["event_id"], bearer(event["judge_token"])
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    (table,) = pair(client, eid)["pairings"]
    gid = table["game_id"]
    seats = {s: my_game(client, eid, 1, tokens[p])["token"] for s, p in table["seats"].items()}
    seed(client, gid, seats)
    point = client.get(f"/api/games/{gid}").get_json()["version"]
    draw = [{"type": "draw_opening", "seat": "A"}]
    assert post_actions(client, gid, seats["A"], draw).status_code == 201
    concede = [{"type": "concede", "seat": "A"}]
    assert post_actions(client, gid, seats["A"], concede).status_code == 201
    assert client.get(f"/api/games/{gid}").get_json()["dealing"]["server_secrets"]["0"]

    answer = dispute_ruled(client, gid, judge, {"ruling": "misdeal", "backup_to": point})
    assert [e["type"] for e in answer["events"][-2:]] == ["DealingRekeyed", "RulingRecorded"]
    assert "dealing_secret" not in answer
    game = client.get(f"/api/games/{gid}").get_json()
    assert (game["status"], game["dealing"]["epoch"], game["dealing"]["ready"]) == (
        "setup",
        1,
        False,
    )
    refused = post_actions(client, gid, seats["A"], draw)
    assert refused.status_code == 422
    assert refused.get_json()["error"]["code"] == "rule/seeds_pending"
    seed(client, gid, seats)
    drawn = post_actions(client, gid, seats["A"], draw).get_json()["events"]
    assert drawn[0]["type"] == "Dealt" and drawn[0]["data"]["epoch"] == 1
    assert post_actions(client, gid, seats["A"], concede).status_code == 201
    verified = client.get(f"/api/games/{gid}/verify").get_json()
    assert verified["ok"] and verified["dealing"]["complete"], verified
