"""A lost token replaced and a dropped player brought back (issue #44, docs/rules.md F.3, F.8),
over HTTP on both back ends: ``POST …/players/<player>/token``, ``POST …/staff/<id>/token`` and
``POST …/readmissions``. The old token is refused at once, the new one answered once and kept
as a hash only (neither is in the event's export nor its stream); every refusal changes
nothing."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.game import token_hash
from projections.exports.event_check import check_event_export
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_floor import add_staff, code
from tests.api.test_events import concede, my_game, open_event, pair, register
from tests.streams import AsgiServer


def reissue(client: FlaskClient, path: str, token: str | None) -> Any:
    return client.post(path, headers=bearer(token))


def version(client: FlaskClient, eid: str) -> int:
    found: int = client.get(f"/api/events/{eid}").get_json()["version"]
    return found


def stored_bytes(backend: dict[str, Any]) -> bytes | None:
    """The SQLite store's files as they are on disk (``None`` for PostgreSQL)."""
    url = Path(backend["MUNCHLOG_DATABASE_URL"])
    if not url.is_absolute():
        return None
    return b"".join(p.read_bytes() for p in url.parent.glob(url.name + "*"))


def test_a_players_new_token_replaces_the_old_one_at_once(
    app: Flask, client: FlaskClient, backend: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    created = open_event(client)
    eid, head = created["event_id"], created["judge_token"]
    old = {p: register(client, eid, p) for p in ("ann", "bob")}
    jo = add_staff(client, eid, "Jo", "judge")
    sam = add_staff(client, eid, "Sam", "scorekeeper")
    pair(client, eid)
    seat = my_game(client, eid, 1, old["ann"])
    path = f"/api/events/{eid}/players/ann/token"
    before = version(client, eid)
    code(reissue(client, path, None), 401, "auth/missing_token")
    code(reissue(client, path, "nope"), 401, "auth/invalid_token")
    code(reissue(client, path, old["bob"]), 403, "auth/forbidden")
    code(reissue(client, path, old["ann"]), 403, "auth/forbidden")
    code(reissue(client, path, jo["token"]), 403, "auth/forbidden")  # a floor judge
    code(reissue(client, path, sam["token"]), 403, "auth/forbidden")
    code(
        reissue(client, f"/api/events/{eid}/players/zed/token", head), 404, "event/player_not_found"
    )
    assert version(client, eid) == before  # every refusal changed nothing

    made = reissue(client, path, ORGANIZER_TOKEN)
    assert made.status_code == 201, made.get_json()
    new = made.get_json()["token"]
    assert len(new) >= 32 and new != old["ann"]
    mine = f"/api/events/{eid}/rounds/1/my-game"
    code(client.get(mine, headers=bearer(old["ann"])), 401, "auth/invalid_token")
    code(client.get(f"/api/events/{eid}", headers=bearer(old["ann"])), 401, "auth/invalid_token")
    assert my_game(client, eid, 1, new) == seat  # the game's seat is the same seat
    kim = add_staff(client, eid, "Kim", "head_judge")
    assert reissue(client, path, kim["token"]).status_code == 201  # a head judge named
    again = reissue(client, path, head)  # the event's judge token is a head judge
    assert again.status_code == 201, again.get_json()
    code(client.get(mine, headers=bearer(new)), 401, "auth/invalid_token")
    newest = again.get_json()["token"]
    concede(client, my_game(client, eid, 1, newest))  # plays on with the newest

    secrets = [old["ann"], new, newest, token_hash(new), token_hash(newest)]
    for token in (head, ORGANIZER_TOKEN, newest, None):
        text = client.get(f"/api/events/{eid}/export", headers=bearer(token)).get_data(True)
        assert not any(s in text for s in secrets)
    obj = client.get(f"/api/events/{eid}/export", headers=bearer(head)).get_json()
    assert check_event_export(obj).ok
    assert not any(s in caplog.text for s in secrets[:3])  # the server's log
    stored = stored_bytes(backend)
    if stored is not None:  # the files read hold the event's records: hashes only
        assert b"PlayerTokenReissued" in stored and token_hash(new).encode() in stored
        assert not any(t.encode() in stored for t in secrets[:3])
    server = AsgiServer(app, poll=0.01)
    try:
        for token in (head, newest, None):
            headers = [(b"authorization", f"Bearer {token}".encode())] if token else []
            stream = server.request(f"/api/events/{eid}/stream", headers=headers)
            stream.until_version(version(client, eid))
            kinds = [i["type"] for i in stream.items()]
            assert kinds.count("player_token_reissued") == 3
            assert not any(s in stream.text for s in secrets) and "token_hash" not in stream.text
        shown = [i for i in stream.items() if i["type"] == "player_token_reissued"]
        assert [set(i) for i in shown] == [{"type", "version", "at"}] * 3  # that it happened
    finally:
        server.close()


def test_a_staff_members_new_token_replaces_the_old_one(client: FlaskClient) -> None:
    created = open_event(client)
    eid, head = created["event_id"], created["judge_token"]
    ann = register(client, eid, "ann")
    register(client, eid, "bob")
    jo = add_staff(client, eid, "Jo", "judge")
    pair(client, eid)
    path = f"/api/events/{eid}/staff/{jo['staff_id']}/token"
    before = version(client, eid)
    code(reissue(client, path, None), 401, "auth/missing_token")
    code(reissue(client, path, ann), 403, "auth/forbidden")
    code(reissue(client, path, head), 403, "auth/forbidden")  # the organizer's only
    code(reissue(client, path, jo["token"]), 403, "auth/forbidden")
    missing = reissue(client, f"/api/events/{eid}/staff/st-000000000000/token", ORGANIZER_TOKEN)
    code(missing, 404, "event/staff_not_found")
    own = reissue(client, f"/api/events/{eid}/staff/event-judge/token", ORGANIZER_TOKEN)
    code(own, 422, "rule/event_judge_token")
    assert version(client, eid) == before

    made = reissue(client, path, ORGANIZER_TOKEN)
    assert made.status_code == 201, made.get_json()
    new = made.get_json()["token"]
    calls = f"/api/events/{eid}/calls"
    code(client.get(calls, headers=bearer(jo["token"])), 401, "auth/invalid_token")
    assert client.get(calls, headers=bearer(new)).status_code == 200
    game = client.get(f"/api/events/{eid}").get_json()["rounds"][0]["pairings"][0]["game_id"]
    timeline = f"/api/games/{game}/timeline"
    assert client.get(timeline, headers=bearer(new)).status_code == 200  # the games' judge
    assert client.get(timeline, headers=bearer(jo["token"])).status_code == 401
    text = client.get(f"/api/events/{eid}/export", headers=bearer(head)).get_data(True)
    assert new not in text and token_hash(new) not in text


def test_a_dropped_player_comes_back_before_the_next_round_is_paired(
    client: FlaskClient,
) -> None:
    created = open_event(client)
    eid, head = created["event_id"], created["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cy", "dee")}
    sam = add_staff(client, eid, "Sam", "scorekeeper")
    path = f"/api/events/{eid}/readmissions"

    def drop(player: str) -> None:
        response = client.post(
            f"/api/events/{eid}/drops", json={"player": player}, headers=bearer(ORGANIZER_TOKEN)
        )
        assert response.status_code == 201, response.get_json()

    def readmit(player: str, token: str | None = ORGANIZER_TOKEN) -> Any:
        return client.post(path, json={"player": player}, headers=bearer(token))

    drop("ann")
    before = version(client, eid)
    code(readmit("ann", None), 401, "auth/missing_token")
    code(readmit("ann", tokens["ann"]), 403, "auth/forbidden")
    code(readmit("ann", head), 403, "auth/forbidden")
    code(readmit("bob"), 422, "rule/not_dropped")
    code(readmit("zed"), 404, "event/player_not_found")
    code(client.post(path, json={}, headers=bearer(ORGANIZER_TOKEN)), 400, "request/invalid_body")
    assert version(client, eid) == before

    back = readmit("ann", sam["token"])
    assert back.status_code == 201, back.get_json()
    assert back.get_json() == {"player": "ann", "from_round": 1}
    shown = client.get(f"/api/events/{eid}").get_json()["players"]
    assert [p["dropped_after"] for p in shown] == [None] * 4
    seated = [p for r in pair(client, eid)["pairings"] for p in r["seats"].values()]
    assert sorted(seated) == ["ann", "bob", "cy", "dee"]

    drop("cy")  # during round 1: back before round 2 is paired
    assert readmit("cy").status_code == 201
    drop("dee")
    for pairing in client.get(f"/api/events/{eid}").get_json()["rounds"][0]["pairings"]:
        first = my_game(client, eid, 1, tokens[pairing["seats"]["A"]])
        concede(client, first)
    pair(client, eid)
    code(readmit("dee"), 422, "rule/round_paired_since_drop")
    obj = client.get(f"/api/events/{eid}/export", headers=bearer(head)).get_json()
    check = check_event_export(obj)
    assert check.ok, check.problems
    dropped = {p["player"]: p.get("dropped_by") for p in obj["players"]}
    assert dropped["cy"] is None and dropped["dee"] == "organizer"
