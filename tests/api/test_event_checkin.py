"""Check-in over HTTP (issue #38, docs/rules.md F.7), on both back ends: a player checks in
itself (``POST /api/events/<id>/check-in``), ``GET /api/events/<id>`` shows who has; staff
tokens and bad input are refused with nothing changed; the server gives a no-show its game
loss with no request (the events' keeper asked at a moment past the deadline, as its thread
does), shown in the event and in the game's disputes.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from domain.tournament import clock
from service.event_checkin import NO_SHOWS
from service.event_keeper import EventKeeper
from service.tournaments import Tournaments
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event, pair, register

CHECK_IN = {"opens": 10, "no_show": 5}


def check_in(client: FlaskClient, eid: str, token: str | None, body: Any = None) -> Any:
    headers = bearer(token) if token else {}
    return client.post(f"/api/events/{eid}/check-in", json=body or {}, headers=headers)


def shown(client: FlaskClient, eid: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/events/{eid}").get_json()
    return found


def test_players_check_in_and_a_no_show_gets_its_game_loss_without_a_request(
    backend: dict[str, Any], app: Flask, client: FlaskClient
) -> None:
    event = open_event(client, check_in=CHECK_IN)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    assert shown(client, eid)["check_in"]["no_show"] == 5
    tables = pair(client, eid)["pairings"]
    late = tables[0]["seats"]["B"]
    for player, token in tokens.items():
        if player != late:
            answer = check_in(client, eid, token)
            assert answer.status_code == 201, answer.get_json()
            assert answer.get_json()["round"] == 1
    round_one = shown(client, eid)["check_in"]["rounds"]["1"]
    assert late not in round_one["checked_in"] and len(round_one["checked_in"]) == 3
    started = client.post(
        f"/api/events/{eid}/clock", json={"action": "start"}, headers=bearer(judge)
    )
    assert started.status_code == 201, started.get_json()
    start = shown(client, eid)["clock"]
    assert start["state"] == "running"
    deadline = shown(client, eid)["check_in"]["rounds"]["1"]["no_show_at"]
    keeper = EventKeeper(Tournaments(app.extensions["munchlog"]), [NO_SHOWS])
    before = clock.iso(clock.moment(deadline) - timedelta(seconds=1))
    keeper.run_due(before)
    assert shown(client, eid)["check_in"]["rounds"]["1"]["no_shows"] == []
    keeper.run_due(clock.iso(clock.moment(deadline) + timedelta(seconds=1)))
    assert shown(client, eid)["check_in"]["rounds"]["1"]["no_shows"] == [late]
    game = tables[0]["game_id"]
    disputes = client.get(f"/api/games/{game}/disputes").get_json()
    penalties = [r["penalty"] for d in disputes["disputes"] for r in d["rulings"]]
    assert [(p["kind"], p["seat"], p["ipg_section"]) for p in penalties] == [
        ("game_loss", "B", "3.1")
    ]
    summary = client.get(f"/api/games/{game}").get_json()
    assert summary["status"] == "finished" and summary["winner"] == "A"


def test_who_may_check_in_and_every_refusal_changes_nothing(
    backend: dict[str, Any], client: FlaskClient
) -> None:
    event = open_event(client, check_in=CHECK_IN)
    eid, judge = event["event_id"], event["judge_token"]
    token = register(client, eid, "ann")
    register(client, eid, "bob")
    before = shown(client, eid)
    for staff in (judge, ORGANIZER_TOKEN):
        refused = check_in(client, eid, staff)
        assert (
            refused.status_code == 403 and refused.get_json()["error"]["code"] == "auth/forbidden"
        )
    assert check_in(client, eid, None).get_json()["error"]["code"] == "auth/missing_token"
    assert check_in(client, eid, "nope").status_code == 401
    bad = check_in(client, eid, token, {"player": "bob"})  # nobody checks in another
    assert bad.status_code == 400
    assert shown(client, eid) == before
    assert check_in(client, eid, token).status_code == 201
    twice = check_in(client, eid, token)
    assert (
        twice.status_code == 422 and twice.get_json()["error"]["code"] == "rule/already_checked_in"
    )
    plain = open_event(client)
    other = register(client, plain["event_id"], "ann")
    none = check_in(client, plain["event_id"], other)
    assert none.status_code == 422 and none.get_json()["error"]["code"] == "rule/no_check_in"
    bad_option = client.post(
        "/api/events",
        json={
            "name": "x",
            "ruleset": "munchkin-ccg",
            "format": "casual",
            "round_minutes": 30,
            "check_in": {"opens": 10},
        },
        headers=bearer(ORGANIZER_TOKEN),
    )
    assert bad_option.status_code == 400
