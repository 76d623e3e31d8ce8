"""A match loss and a disqualification in an event over HTTP (docs/rules.md F.5): the ruling
loses the penalised player the whole match (0-2 in a best-of-three, no further game), not only
the game it is given in; a disqualification also drops the player from the event, saved with
the ruling; a classic table places such a seat last. The service's results and the export's
check read the same match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from projections.exports.event_check import check_event_export
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_penalties import rule, status
from tests.api.test_events import (
    concede,
    my_game,
    open_event,
    pair,
    play_round,
    register,
    standings,
)

pytestmark = pytest.mark.storage_agnostic

MAJOR = "unsporting_conduct.major"


def results(client: FlaskClient, eid: str, token: str) -> dict[tuple[str, ...], Any]:
    """The export's results by the pairing's players (the judge's: read live)."""
    obj = client.get(f"/api/events/{eid}/export?format=json", headers=bearer(token)).get_json()
    return {tuple(r["players"]): r for r in obj["results"]}


def verified(client: FlaskClient, eid: str, token: str | None) -> list[str]:
    """The export ``token`` gets, checked (``munchlog verify``'s check): its problems."""
    obj = client.get(f"/api/events/{eid}/export?format=json", headers=bearer(token)).get_json()
    return [str(p) for p in check_event_export(obj).problems]


def test_a_match_loss_in_game_one_of_a_best_of_three_loses_the_match_0_2(
    client: FlaskClient,
) -> None:
    event = open_event(client, match="bo3", rounds=2)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    first, second = pair(client, eid)["pairings"]
    a, b = first["seats"]["A"], first["seats"]["B"]
    ruled = rule(
        client, judge, first["game_id"], "marked cards", {"kind": "match_loss", "seat": "A"}
    )
    assert ruled["events"][0]["type"] == "RulingRecorded"
    assert status(client, first["game_id"]) == ("finished", "B")
    # no second game: both players are still sent to game 1, the match is over
    for player in (a, b):
        mine = my_game(client, eid, 1, tokens[player])
        assert (mine["game_id"], mine["game_number"]) == (first["game_id"], 1)
    assert results(client, eid, judge)[(a, b)] == {
        "round": 1,
        "players": [a, b],
        "games": {a: 0, b: 2},
        "drawn_games": 0,
    }
    # the other table plays its match out (2-0), and the round is over: round 2 pairs
    for _ in range(2):
        concede(client, my_game(client, eid, 1, tokens[second["seats"]["B"]]))
    rows = {r["player"]: r for r in standings(client, eid)}
    assert (rows[a]["losses"], rows[a]["points"], rows[b]["wins"]) == (1, 0, 1)
    # game-win: bob 2 of 2 games (6/6), ann 0 of 2 (the floor): the played game 1 counts once
    assert rows[b]["gw"] == pytest.approx(1.0) and rows[a]["gw"] == pytest.approx(0.33)
    assert not rows[a]["dropped"]  # a match loss is no drop
    for token in (judge, None, tokens[a], tokens[b]):  # each export reads the match the same
        assert verified(client, eid, token) == [], token
    paired = pair(client, eid)
    assert a in [p for t in paired["pairings"] for p in t["seats"].values()]


def test_a_match_loss_after_the_players_first_game_win_takes_the_win_away(
    client: FlaskClient,
) -> None:
    event = open_event(client, match="bo3", rounds=1)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    (pairing,) = pair(client, eid)["pairings"]
    a, b = pairing["seats"]["A"], pairing["seats"]["B"]
    concede(client, my_game(client, eid, 1, tokens[b]))  # A wins game 1
    game_two = my_game(client, eid, 1, tokens[a])
    assert game_two["game_number"] == 2
    seat = game_two["seat"]
    rule(client, judge, game_two["game_id"], "bribery", {"kind": "match_loss", "seat": seat})
    assert results(client, eid, judge)[(a, b)]["games"] == {a: 0, b: 2}
    assert my_game(client, eid, 1, tokens[b])["game_number"] == 2  # no game 3
    done = client.get(f"/api/events/{eid}").get_json()
    assert done["state"] == "finished"
    assert verified(client, eid, judge) == []


def test_a_match_loss_once_the_match_is_over_leaves_its_result(client: FlaskClient) -> None:
    """The guide applies it to the player's next match (IPG 1.1); the finished match stands."""
    event = open_event(client, rounds=1)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    (pairing,) = pair(client, eid)["pairings"]
    a, b = pairing["seats"]["A"], pairing["seats"]["B"]
    concede(client, my_game(client, eid, 1, tokens[b]))
    rule(client, judge, pairing["game_id"], "found later", {"kind": "match_loss", "seat": "A"})
    assert results(client, eid, judge)[(a, b)]["games"] == {a: 1, b: 0}
    assert verified(client, eid, judge) == []


@pytest.mark.storage_agnostic(False)
def test_a_disqualification_loses_the_match_and_drops_the_player(client: FlaskClient) -> None:
    """Both back ends: the event's drop is saved in the game's save."""
    event = open_event(client, rounds=2)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee", "eve")}
    paired = pair(client, eid)
    table = paired["pairings"][0]
    cheat, opponent = table["seats"]["B"], table["seats"]["A"]
    ruled = rule(
        client, judge, table["game_id"], "cheating", {"kind": "disqualification", "seat": "B"}
    )
    assert status(client, table["game_id"]) == ("finished", "A")
    for other in paired["pairings"][1:]:
        concede(client, my_game(client, eid, 1, tokens[other["seats"]["B"]]))
    seen = {
        who: client.get(f"/api/events/{eid}", headers=bearer(token)).get_json()
        for who, token in (("judge", judge), ("spectator", None), ("cheat", tokens[cheat]))
    }
    rows = {who: next(p for p in s["players"] if p["player"] == cheat) for who, s in seen.items()}
    assert {who: row["dropped_after"] for who, row in rows.items()} == dict.fromkeys(rows, 1)
    version = ruled["dispute"]["rulings"][0]["version"]  # the RulingRecorded's
    disqualified = {"game_id": table["game_id"], "version": version}
    assert rows["judge"]["disqualified"] == rows["cheat"]["disqualified"] == disqualified
    assert "disqualified" not in rows["spectator"]  # a penalty: the officials' and its own
    for token, sees in ((judge, True), (None, False)):
        text = client.get(f"/api/events/{eid}/export?format=text", headers=bearer(token))
        assert (f"disqualified in game {table['game_id']}" in text.get_data(as_text=True)) is sees
    # dropped: refused a second drop, never paired again, its round-1 result kept
    again = client.post(
        f"/api/events/{eid}/drops", json={"player": cheat}, headers=bearer(ORGANIZER_TOKEN)
    )
    assert again.status_code == 422
    assert again.get_json()["error"]["code"] == "rule/already_dropped"
    second = pair(client, eid)
    seated = [p for t in second["pairings"] for p in t["seats"].values()] + second["byes"]
    assert cheat not in seated and len(seated) == 4
    rows_now = {r["player"]: r for r in standings(client, eid)}
    assert rows_now[cheat]["dropped"] and rows_now[cheat]["losses"] == 1
    assert rows_now[opponent]["wins"] == 1
    assert verified(client, eid, judge) == []


def test_a_repeated_major_unsporting_conduct_disqualifies_and_drops(client: FlaskClient) -> None:
    """IPG 4.2: a second Match Loss for it is a Disqualification (docs/rules.md F.5)."""
    event = open_event(client, rounds=2)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    paired = pair(client, eid)
    table = paired["pairings"][0]
    rude = table["seats"]["A"]
    rule(
        client,
        judge,
        table["game_id"],
        "abuse",
        {"kind": "match_loss", "seat": "A", "infraction": MAJOR},
    )
    play_round(client, eid, 1, tokens, {"pairings": paired["pairings"][1:]})
    shown = client.get(f"/api/events/{eid}", headers=bearer(judge)).get_json()
    assert next(p for p in shown["players"] if p["player"] == rude)["dropped_after"] is None
    second = pair(client, eid)
    mine = my_game(client, eid, 2, tokens[rude])
    upgraded = rule(
        client,
        judge,
        mine["game_id"],
        "abuse again",
        {"kind": "match_loss", "seat": mine["seat"], "infraction": MAJOR},
    )
    assert upgraded["dispute"]["rulings"][0]["penalty"]["kind"] == "disqualification"
    shown = client.get(f"/api/events/{eid}", headers=bearer(judge)).get_json()
    row = next(p for p in shown["players"] if p["player"] == rude)
    assert row["dropped_after"] == 2 and row["disqualified"]["game_id"] == mine["game_id"]
    opponent = next(p for p in mine["opponents"].values())
    assert results(client, eid, judge)[
        tuple(next(t for t in second["pairings"] if rude in t["seats"].values())["seats"].values())
    ]["games"] == {rude: 0, opponent: 1}


def test_a_disqualified_seat_at_a_classic_table_finishes_last(client: FlaskClient) -> None:
    event = open_event(client, ruleset="munchkin-deluxe", rounds=1, table_size=3)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p, hero=None, decklist=None) for p in ("ann", "bob", "cy")}
    (table,) = pair(client, eid)["pairings"]
    seats = table["seats"]
    # A is disqualified first: out of the game, the table plays on; then B concedes, C wins.
    # B and A both left the game at level 1: by level they would share second place
    rule(client, judge, table["game_id"], "cheating", {"kind": "disqualification", "seat": "A"})
    assert status(client, table["game_id"])[0] != "finished"
    concede(client, my_game(client, eid, 1, tokens[seats["B"]]))
    assert status(client, table["game_id"])[0] == "finished"
    found = results(client, eid, judge)[tuple(seats.values())]
    assert found["places"] == {seats["C"]: 1, seats["B"]: 2, seats["A"]: 3}
    shown = client.get(f"/api/events/{eid}", headers=bearer(judge)).get_json()
    assert next(p for p in shown["players"] if p["player"] == seats["A"])["dropped_after"] == 1
    assert verified(client, eid, judge) == []


def test_the_export_check_reads_the_match_loss_as_the_service_does(
    client: FlaskClient, tmp_path: Path
) -> None:
    """A result that ignores the match loss (1-0, as the game alone says) is a problem."""
    event = open_event(client, match="bo3", rounds=1)
    eid, judge = event["event_id"], event["judge_token"]
    for p in ("ann", "bob"):
        register(client, eid, p)
    (pairing,) = pair(client, eid)["pairings"]
    a, b = pairing["seats"]["A"], pairing["seats"]["B"]
    rule(client, judge, pairing["game_id"], "marked cards", {"kind": "match_loss", "seat": "B"})
    obj = client.get(f"/api/events/{eid}/export?format=json", headers=bearer(judge)).get_json()
    assert check_event_export(obj).ok
    obj["results"][0]["games"] = {a: 1, b: 0}
    found = [str(p) for p in check_event_export(obj).problems]
    assert any(f"its games' (games won {a} 2, {b} 0)" in p for p in found), found
