"""An event whose drops or disqualifications leave fewer active players than a round needs
before its Swiss rounds are over, over HTTP (docs/rules.md F.2): the round being played is its
last, and once it is complete the event is finished on the standings as they are; it says why
(``end_note``: the summary, the export and its report), and a further round or a late entry is
refused with ``rule/event_finished`` and that reason. Enough players left, it goes on."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from projections.exports.event_check import check_event_export
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_cuts import drop, shown
from tests.api.test_events import open_event, pair, play_round, register, standings

pytestmark = pytest.mark.storage_agnostic


def refused(client: FlaskClient, eid: str) -> dict[str, Any]:
    """The 422 a further round gets: its error."""
    response = client.post(f"/api/events/{eid}/rounds", headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 422, response.get_json()
    error: dict[str, Any] = response.get_json()["error"]
    return error


def test_three_players_two_drop_after_round_one_of_three_and_the_event_is_finished(
    client: FlaskClient,
) -> None:
    event = open_event(client, rounds=3)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid")}
    first = pair(client, eid)
    assert len(first["pairings"]) == 1 and len(first["byes"]) == 1
    play_round(client, eid, 1, tokens, first)
    rows = standings(client, eid)
    kept = first["pairings"][0]["seats"]["A"]  # the winner of round 1 stays
    for player in tokens:
        if player != kept:
            drop(client, eid, player)
    done = shown(client, eid)
    note = (
        "1 active player(s) left in round 1 of 3, fewer than a round needs (2): the event "
        "ends on the standings after round 1 (docs/rules.md F.2)"
    )
    assert (done["state"], done["round"], done["planned_rounds"]) == ("finished", 1, 1)
    assert (done["end_note"], done["cut_size"], done["cut_note"]) == (note, 0, None)
    error = refused(client, eid)
    assert (error["code"], error["rule"]) == ("rule/event_finished", "F.2")
    assert error["message"] == f"no round follows round 1: {note}"
    late = client.post(
        f"/api/events/{eid}/players", json={"player": "dan"}, headers=bearer(ORGANIZER_TOKEN)
    )
    assert late.status_code == 422, late.get_json()
    assert late.get_json()["error"]["code"] == "rule/event_finished"
    assert note in late.get_json()["error"]["message"]
    # the standings as they were after round 1, the two who left marked dropped
    assert standings(client, eid) == [{**r, "dropped": r["player"] != kept} for r in rows]
    obj = client.get(
        f"/api/events/{eid}/export?format=json", headers=bearer(event["judge_token"])
    ).get_json()
    assert (obj["state"], obj["planned_rounds"], obj["end_note"]) == ("finished", 1, note)
    check = check_event_export(obj)
    assert check.ok, check.problems
    text = client.get(f"/api/events/{eid}/export?format=text").get_data(as_text=True)
    assert f"State: finished, round 1 of 1\nEnds early: {note}\n" in text


def test_four_players_one_left_the_round_being_played_is_the_last(client: FlaskClient) -> None:
    """Three drop while round 1 is still played: it is the last round at once (no late entry
    joins), the event running until its matches have their results, then finished; a top cut
    that nobody is left for is none (F.4)."""
    event = open_event(client, rounds=3, top_cut=4)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    first = pair(client, eid)
    assert len(first["pairings"]) == 2
    kept = first["pairings"][0]["seats"]["A"]
    for player in tokens:
        if player != kept:
            drop(client, eid, player)
    note = (
        "1 active player(s) left in round 1 of 3, fewer than a round needs (2): the event "
        "ends on the standings after round 1 (docs/rules.md F.2)"
    )
    playing = shown(client, eid)
    assert (playing["state"], playing["planned_rounds"], playing["end_note"]) == (
        "running",
        1,
        note,
    )
    assert playing["cut_size"] == 0 and "no top cut" in playing["cut_note"]
    assert refused(client, eid)["message"] == f"no round follows round 1: {note}"
    play_round(client, eid, 1, tokens, first)  # the dropped players' games still end
    done = shown(client, eid)
    assert (done["state"], done["round"], done["planned_rounds"]) == ("finished", 1, 1)
    assert done["end_note"] == note
    error = refused(client, eid)
    assert (error["code"], error["message"]) == (
        "rule/event_finished",
        f"no round follows round 1: {note}",
    )
    rows = standings(client, eid)
    assert [r["player"] for r in rows if not r["dropped"]] == [kept]
    assert all(r["wins"] + r["losses"] == 1 for r in rows)  # round 1 counted, nothing after


def test_a_classic_event_ends_with_fewer_than_three_active_players(client: FlaskClient) -> None:
    event = open_event(client, ruleset="munchkin-deluxe", rounds=2)
    eid = event["event_id"]
    names = ("a", "b", "c", "d")
    tokens = {p: register(client, eid, p, hero=None, decklist=None) for p in names}
    first = pair(client, eid)
    play_round(client, eid, 1, tokens, first)
    drop(client, eid, "c")
    drop(client, eid, "d")
    done = shown(client, eid)
    assert (done["state"], done["planned_rounds"]) == ("finished", 1)
    assert done["end_note"].startswith(
        "2 active player(s) left in round 1 of 2, fewer than a round needs (3)"
    )
    assert refused(client, eid)["code"] == "rule/event_finished"


def test_with_enough_players_left_the_swiss_rounds_go_on(client: FlaskClient) -> None:
    event = open_event(client, rounds=3)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    first = pair(client, eid)
    play_round(client, eid, 1, tokens, first)
    drop(client, eid, first["pairings"][0]["seats"]["B"])
    drop(client, eid, first["pairings"][1]["seats"]["B"])
    going = shown(client, eid)
    assert (going["state"], going["planned_rounds"], going["end_note"]) == ("running", 3, None)
    second = pair(client, eid)  # two players are a round
    assert second["round"] == 2 and len(second["pairings"]) == 1
