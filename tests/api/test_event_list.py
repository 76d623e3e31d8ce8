"""Every event and game findable (issue #44): ``GET /api/events``, the home page ``/``; an
event's standings before round 1, and the winner of a finished one."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import concede, my_game, open_event, pair, register, standings


def test_every_event_is_listed_for_anyone_in_the_order_opened(client: FlaskClient) -> None:
    empty = client.get("/api/events")
    assert empty.status_code == 200 and empty.get_json() == {"events": [], "next_cursor": None}
    first = open_event(client, name="Friday")["event_id"]
    second = open_event(client, name="Saturday")["event_id"]
    register(client, second, "ann")
    for headers in ({}, bearer(ORGANIZER_TOKEN), bearer("a-seat-token-of-another-game")):
        listed = client.get("/api/events", headers=headers)
        assert listed.status_code == 200, listed.get_json()
        lines = listed.get_json()["events"]
        assert [(e["event_id"], e["name"], e["players"]) for e in lines] == [
            (first, "Friday", 0),
            (second, "Saturday", 1),
        ]
        assert lines[0]["state"] == "registration" and lines[0]["winner"] is None
        assert "judge_token" not in str(lines) and "commitment" not in lines[0]
    page = client.get("/api/events?limit=1").get_json()
    assert [e["name"] for e in page["events"]] == ["Friday"] and page["next_cursor"] is not None
    rest = client.get(f"/api/events?limit=1&cursor={page['next_cursor']}").get_json()
    assert [e["name"] for e in rest["events"]] == ["Saturday"] and rest["next_cursor"] is None
    assert client.get("/api/events?limit=0").status_code == 400


def test_standings_are_empty_before_round_one(client: FlaskClient) -> None:
    eid = open_event(client)["event_id"]
    for player in ("ann", "bob", "cid"):
        register(client, eid, player)
    assert standings(client, eid) == []
    pair(client, eid)
    assert len(standings(client, eid)) == 3


def test_a_finished_event_names_its_winner(client: FlaskClient) -> None:
    eid = open_event(client, rounds=1)["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    pairing = pair(client, eid)["pairings"][0]
    running = client.get(f"/api/events/{eid}").get_json()
    assert running["state"] == "running" and running["winner"] is None
    loser = pairing["seats"]["B"]
    concede(client, my_game(client, eid, 1, tokens[loser]))
    shown = client.get(f"/api/events/{eid}").get_json()
    assert shown["state"] == "finished" and shown["winner"] == pairing["seats"]["A"]
    listed = client.get("/api/events").get_json()["events"]
    assert listed[0]["winner"] == pairing["seats"]["A"]


def test_the_home_page_links_every_event_and_the_recent_games(client: FlaskClient) -> None:
    empty = client.get("/")
    assert empty.status_code == 200 and "No event yet" in empty.get_data(as_text=True)
    eid = open_event(client, name="Sunday <Cup>")["event_id"]
    for player in ("ann", "bob"):
        register(client, eid, player)
    game_id = pair(client, eid)["pairings"][0]["game_id"]
    html = client.get("/").get_data(as_text=True)
    assert f'href="/events/{eid}"' in html and "Sunday &lt;Cup&gt;" in html
    assert f'href="/games/{game_id}"' in html
    assert "<Cup>" not in html  # escaped
