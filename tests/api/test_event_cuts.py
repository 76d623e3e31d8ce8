"""A top cut with fewer active players than it seats, over HTTP (docs/rules.md F.4): round 1
is refused while too few are registered; players dropped after it shrink the cut to the largest
of 8, 4 and 2 they fill, or leave none and the event ends on the Swiss standings; a player who
drops inside the cut leaves its next opponent a bye. The event says so and finishes."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from projections.exports.event_check import check_event_export
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event, pair, play_round, register, standings

pytestmark = pytest.mark.storage_agnostic


def shown(client: FlaskClient, eid: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/events/{eid}").get_json()
    return found


def drop(client: FlaskClient, eid: str, player: str) -> None:
    response = client.post(
        f"/api/events/{eid}/drops", json={"player": player}, headers=bearer(ORGANIZER_TOKEN)
    )
    assert response.status_code == 201, response.get_json()


def swiss(client: FlaskClient, eid: str, tokens: dict[str, str], rounds: int) -> None:
    for number in range(1, rounds + 1):
        play_round(client, eid, number, tokens, pair(client, eid))


def test_round_one_is_refused_while_fewer_players_are_registered_than_the_top_cut(
    client: FlaskClient,
) -> None:
    event = open_event(client, rounds=2, top_cut=8)
    eid = event["event_id"]
    for p in ("ann", "bob", "cid", "dee", "eve"):
        register(client, eid, p)
    refused = client.post(f"/api/events/{eid}/rounds", headers=bearer(ORGANIZER_TOKEN))
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert (error["code"], error["rule"]) == ("rule/too_few_players", "F.4")
    assert "a top 8 needs at least 8 players and 5 are registered" in error["message"]
    waiting = shown(client, eid)  # nothing paired; late entries still welcome
    assert (waiting["round"], waiting["cut_size"], waiting["cut_note"]) == (0, 8, None)
    for p in ("fay", "gus", "hal"):
        register(client, eid, p)
    assert pair(client, eid)["round"] == 1


def test_players_dropped_after_the_swiss_rounds_shrink_the_top_cut(client: FlaskClient) -> None:
    event = open_event(client, rounds=2, top_cut=4)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee", "eve")}
    swiss(client, eid, tokens, 2)
    before = shown(client, eid)
    assert (before["cut_size"], before["cut_note"], before["planned_rounds"]) == (4, None, 4)
    rows = standings(client, eid)
    for row in rows[:2]:  # the two best drop: three are left for a top 4
        drop(client, eid, row["player"])
    after = shown(client, eid)
    assert (after["state"], after["top_cut"], after["cut_size"]) == ("running", 4, 2)
    assert after["planned_rounds"] == 3
    assert after["cut_note"] == (
        "3 active player(s) for a top 4 as it stands: a top 2 (docs/rules.md F.4)"
    )
    final = pair(client, eid)
    seeds = [r["player"] for r in rows[2:4]]
    assert final["round"] == 3 and final["byes"] == []
    assert [tuple(p["seats"].values()) for p in final["pairings"]] == [tuple(seeds)]
    play_round(client, eid, 3, tokens, final)
    done = shown(client, eid)
    assert (done["state"], done["cut_size"]) == ("finished", 2)
    assert done["cut_note"] == (
        "fewer than 4 active players were left after the Swiss rounds: a top 2 (docs/rules.md F.4)"
    )
    again = client.post(f"/api/events/{eid}/rounds", headers=bearer(ORGANIZER_TOKEN))
    assert again.status_code == 422
    assert again.get_json()["error"]["code"] == "rule/event_finished"
    obj = client.get(
        f"/api/events/{eid}/export?format=json", headers=bearer(event["judge_token"])
    ).get_json()
    assert obj["cut_size"] == 2 and check_event_export(obj).ok
    assert obj["cut_note"] == done["cut_note"]
    text = client.get(f"/api/events/{eid}/export?format=text").get_data(as_text=True)
    assert f"Top cut: {done['cut_note']}\n" in text and "Round 3 (top cut: final)" in text


def test_with_fewer_than_two_active_players_the_event_ends_on_the_swiss_standings(
    client: FlaskClient,
) -> None:
    event = open_event(client, rounds=2, top_cut=4)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    swiss(client, eid, tokens, 2)
    rows = standings(client, eid)
    for row in rows[1:]:
        drop(client, eid, row["player"])
    done = shown(client, eid)
    assert (done["state"], done["cut_size"], done["planned_rounds"]) == ("finished", 0, 2)
    assert done["cut_note"] == (
        "1 active player(s) for a top 4 as it stands: no top cut, the event ends on the Swiss "
        "standings (docs/rules.md F.4)"
    )
    refused = client.post(f"/api/events/{eid}/rounds", headers=bearer(ORGANIZER_TOKEN))
    assert refused.status_code == 422
    error = refused.get_json()["error"]
    assert error["code"] == "rule/event_finished" and "no top cut" in error["message"]
    assert standings(client, eid) == [{**r, "dropped": r != rows[0]} for r in rows]


def test_a_player_who_drops_inside_the_cut_leaves_its_next_opponent_a_bye(
    client: FlaskClient,
) -> None:
    event = open_event(client, rounds=2, top_cut=4)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    swiss(client, eid, tokens, 2)
    seeds = [r["player"] for r in standings(client, eid)]
    semis = pair(client, eid)
    assert [tuple(p["seats"].values()) for p in semis["pairings"]] == [
        (seeds[0], seeds[3]),
        (seeds[1], seeds[2]),
    ]
    play_round(client, eid, 3, tokens, semis)  # seeds 1 and 2 win
    drop(client, eid, seeds[0])
    final = pair(client, eid)
    assert (final["pairings"], final["byes"]) == ([], [seeds[1]])
    done = shown(client, eid)
    assert (done["state"], done["round"], done["planned_rounds"]) == ("finished", 4, 4)
    obj = client.get(
        f"/api/events/{eid}/export?format=json", headers=bearer(event["judge_token"])
    ).get_json()
    assert check_event_export(obj).ok, check_event_export(obj).problems
