"""The round's clock over HTTP (issue #38, docs/rules.md F.6), on both back ends: who may act
on it, the bad input and the wrong state refused with nothing changed, and the clock in
``GET /api/events/<id>``. The timing rules themselves: tests/unit/test_round_clock.py and
tests/service/test_event_clock.py; the server calling time alone: test_event_clock_live.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event, pair, register


def clock_of(client: FlaskClient, event_id: str) -> dict[str, Any]:
    response = client.get(f"/api/events/{event_id}")
    assert response.status_code == 200, response.get_json()
    found: dict[str, Any] = response.get_json()["clock"]
    return found


@pytest.fixture
def paired(client: FlaskClient) -> dict[str, Any]:
    event = open_event(client, round_minutes=40)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cat", "dan")}
    pair(client, eid)
    return {**event, "tokens": tokens}


def post(client: FlaskClient, event_id: str, body: Any, token: str | None) -> Any:
    headers = bearer(token) if token else {}
    return client.post(f"/api/events/{event_id}/clock", json=body, headers=headers)


def test_the_organizer_and_the_judge_run_the_clock(
    client: FlaskClient, paired: dict[str, Any]
) -> None:
    eid = paired["event_id"]
    before = clock_of(client, eid)
    assert before == {
        "round": 1,
        "state": "not_started",
        "ends_at": None,
        "remaining_s": 2400,
        "round_minutes": 40,
        "extensions": {},
        "deadlines": {},
        "time_called": {},
        "turns_left": {},
    }
    started = post(client, eid, {"action": "start"}, ORGANIZER_TOKEN)
    assert started.status_code == 201, started.get_json()
    shown = started.get_json()
    assert shown["state"] == "running" and shown["ends_at"].endswith("Z")
    assert 2390 <= shown["remaining_s"] <= 2400
    judge = paired["judge_token"]
    extend = {"action": "extend", "table": 2, "minutes": 3, "reason": "deck check"}
    assert post(client, eid, extend, judge).status_code == 201
    assert post(client, eid, {"action": "pause"}, judge).status_code == 201
    paused = clock_of(client, eid)
    assert paused["state"] == "paused" and paused["ends_at"] is None
    assert paused["extensions"] == {"2": 3}
    assert post(client, eid, {"action": "resume"}, ORGANIZER_TOKEN).status_code == 201
    assert clock_of(client, eid)["state"] == "running"


def test_no_token_a_wrong_token_and_a_player_are_refused(
    client: FlaskClient, paired: dict[str, Any]
) -> None:
    eid = paired["event_id"]
    before = clock_of(client, eid)
    assert post(client, eid, {"action": "start"}, None).status_code == 401
    assert post(client, eid, {"action": "start"}, "not-a-token").status_code == 401
    player = post(client, eid, {"action": "start"}, paired["tokens"]["ann"])
    assert player.status_code == 403
    assert player.get_json()["error"]["code"] == "auth/forbidden"
    assert clock_of(client, eid) == before


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"action": "stop"},
        {"action": "start", "table": 1},
        {"action": "extend", "table": 1, "minutes": 3},
        {"action": "extend", "table": 1, "minutes": 0, "reason": "x"},
        {"action": "extend", "table": "1", "minutes": 3, "reason": "x"},
        {"action": "extend", "table": 1, "minutes": 3, "reason": ""},
        {"action": "start", "extra": True},
        [],
    ],
)
def test_bad_input_is_a_400_and_changes_nothing(
    client: FlaskClient, paired: dict[str, Any], body: Any
) -> None:
    eid = paired["event_id"]
    before = clock_of(client, eid)
    refused = post(client, eid, body, ORGANIZER_TOKEN)
    assert refused.status_code == 400, refused.get_json()
    assert clock_of(client, eid) == before


def test_the_wrong_state_is_a_422_with_its_rule_and_changes_nothing(
    client: FlaskClient, paired: dict[str, Any]
) -> None:
    eid = paired["event_id"]
    for action, code in (("pause", "rule/clock_not_running"), ("resume", "rule/clock_not_paused")):
        refused = post(client, eid, {"action": action}, ORGANIZER_TOKEN)
        assert refused.status_code == 422
        error = refused.get_json()["error"]
        assert (error["code"], error["rule"]) == (code, "F.6")
    assert post(client, eid, {"action": "start"}, ORGANIZER_TOKEN).status_code == 201
    running = clock_of(client, eid)
    again = post(client, eid, {"action": "start"}, ORGANIZER_TOKEN)
    assert again.status_code == 422
    assert again.get_json()["error"]["code"] == "rule/clock_started"
    missing = {"action": "extend", "table": 9, "minutes": 3, "reason": "x"}
    assert post(client, eid, missing, ORGANIZER_TOKEN).status_code == 422
    after = clock_of(client, eid)
    assert (after["extensions"], after["ends_at"]) == (running["extensions"], running["ends_at"])


def test_an_event_with_no_round_has_no_clock_to_start(client: FlaskClient) -> None:
    event = open_event(client)
    refused = post(client, event["event_id"], {"action": "start"}, ORGANIZER_TOKEN)
    assert refused.status_code == 422
    assert refused.get_json()["error"]["code"] == "rule/no_round"
    assert clock_of(client, event["event_id"])["state"] == "not_started"


def test_the_end_of_round_options_are_stored_and_checked(client: FlaskClient) -> None:
    event = open_event(client, extra_turns=3)
    shown = client.get(f"/api/events/{event['event_id']}").get_json()
    assert shown["extra_turns"] == 3 and shown.get("time_result") is None
    spec = {"name": "x", "ruleset": "munchkin-ccg", "format": "casual", "round_minutes": 35}
    refused = client.post(
        "/api/events", json={**spec, "time_result": "draw"}, headers=bearer(ORGANIZER_TOKEN)
    )
    assert refused.status_code == 400
    assert refused.get_json()["error"]["code"] == "request/invalid_time_result"
    deluxe = {**spec, "ruleset": "munchkin-deluxe", "time_result": "highest_level"}
    made = client.post("/api/events", json=deluxe, headers=bearer(ORGANIZER_TOKEN))
    assert made.status_code == 201
    shown = client.get(f"/api/events/{made.get_json()['event_id']}").get_json()
    assert shown["time_result"] == "highest_level"


def test_the_timeline_gives_the_seconds_the_game_waited_on_each_seat(
    client: FlaskClient, paired: dict[str, Any]
) -> None:
    game = client.get(
        f"/api/events/{paired['event_id']}/rounds/1/my-game",
        headers=bearer(paired["tokens"]["ann"]),
    ).get_json()
    response = client.post(
        f"/api/games/{game['game_id']}/actions",
        json={"actions": [{"type": "concede", "seat": game["seat"]}]},
        headers=bearer(game["token"]),
    )
    assert response.status_code == 201
    timeline = client.get(
        f"/api/games/{game['game_id']}/timeline", headers=bearer(paired["judge_token"])
    ).get_json()
    assert set(timeline["seat_time"]) == {"A", "B"}  # in setup the game waits on both
    assert all(0 <= s < 60 for s in timeline["seat_time"].values())
    assert timeline["turns"]["0"]["seat_time"] == timeline["seat_time"]
