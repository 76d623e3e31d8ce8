"""Tournaments over HTTP (issue #27, docs/rules.md F): opening an event, registering players and
decklists, pairing rounds that create games, results read from those games, drops, standings.

The games are played over the API by their players with the seat tokens ``my-game`` hands out;
a game is ended by a concession (docs/rules.md A.13), the quickest real result.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain import dealing
from domain.ccg.cards import sample_catalog
from domain.classic import CLASSIC
from domain.classic.hosting import sample_decks
from domain.tournament import rules
from tests.api.helpers import ORGANIZER_TOKEN, bearer

pytestmark = pytest.mark.storage_agnostic


def deck(size: int = 20) -> list[dict[str, Any]]:
    names = [c["name"] for c in sample_catalog().cards.values() if c["type"] != "hero"]
    return [{"name": names[i % len(names)]} for i in range(size)]


HERO = {"name": "Sample Orc Warrior"}


def open_event(client: FlaskClient, **body: Any) -> dict[str, Any]:
    spec = {
        "name": "Friday Night Munchkin",
        "ruleset": "munchkin-ccg",
        "format": "casual",
        "round_minutes": 35,
        "dealing": "table",
        **body,
    }
    response = client.post("/api/events", json=spec, headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def register(client: FlaskClient, event_id: str, player: str, **more: Any) -> str:
    body = {"player": player, "hero": HERO, "decklist": deck(), **more}
    body = {k: v for k, v in body.items() if v is not None}  # a classic player brings none
    response = client.post(
        f"/api/events/{event_id}/players", json=body, headers=bearer(ORGANIZER_TOKEN)
    )
    assert response.status_code == 201, response.get_json()
    token: str = response.get_json()["token"]
    return token


def pair(client: FlaskClient, event_id: str) -> dict[str, Any]:
    response = client.post(f"/api/events/{event_id}/rounds", headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 201, response.get_json()
    paired: dict[str, Any] = response.get_json()
    return paired


def my_game(client: FlaskClient, event_id: str, number: int, token: str) -> dict[str, Any]:
    response = client.get(f"/api/events/{event_id}/rounds/{number}/my-game", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    found: dict[str, Any] = response.get_json()
    return found


def concede(client: FlaskClient, game: dict[str, Any]) -> None:
    response = client.post(
        f"/api/games/{game['game_id']}/actions",
        json={"actions": [{"type": "concede", "seat": game["seat"]}]},
        headers=bearer(game["token"]),
    )
    assert response.status_code == 201, response.get_json()


def standings(client: FlaskClient, event_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/events/{event_id}/standings")
    assert response.status_code == 200, response.get_json()
    rows: list[dict[str, Any]] = response.get_json()
    return rows


def test_an_event_is_opened_by_the_organizer_only(client: FlaskClient) -> None:
    spec = {"name": "x", "ruleset": "munchkin-ccg", "format": "casual", "round_minutes": 35}
    assert client.post("/api/events", json=spec).status_code == 401
    assert client.post("/api/events", json=spec, headers=bearer("nope")).status_code == 401
    bad = client.post("/api/events", json={**spec, "top_cut": 5}, headers=bearer(ORGANIZER_TOKEN))
    assert bad.status_code == 400 and "top_cut" in json.dumps(bad.get_json())
    classic = {**spec, "ruleset": "munchkin-deluxe", "match": "bo3"}
    refused = client.post("/api/events", json=classic, headers=bearer(ORGANIZER_TOKEN))
    assert refused.status_code == 400
    assert refused.get_json()["error"]["code"] == "request/invalid_match"
    created = open_event(client)
    shown = client.get(f"/api/events/{created['event_id']}").get_json()
    assert shown["state"] == "registration" and shown["round"] == 0
    assert len(shown["commitment"]) == 64 and shown["revealed_secret"] is None
    assert client.get("/api/events/not-an-id").status_code == 404


def test_a_decklist_is_checked_against_the_format_and_shown_only_as_a_salted_hash(
    client: FlaskClient,
) -> None:
    event = open_event(client, format="prime")
    refused = client.post(
        f"/api/events/{event['event_id']}/players",
        json={"player": "ann", "hero": HERO, "decklist": deck(20)},
        headers=bearer(ORGANIZER_TOKEN),
    )
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["error"]["rule"] == "A.6"
    casual = open_event(client)
    eid = casual["event_id"]
    ann, bob = register(client, eid, "ann"), register(client, eid, "bob")
    again = client.post(
        f"/api/events/{eid}/players",
        json={"player": "ann", "hero": HERO, "decklist": deck()},
        headers=bearer(ORGANIZER_TOKEN),
    )
    assert (
        again.status_code == 422 and again.get_json()["error"]["code"] == "rule/player_registered"
    )
    seen = {
        who: client.get(f"/api/events/{eid}", headers=bearer(token)).get_json()
        for who, token in (
            ("spectator", None),
            ("bob", bob),
            ("judge", casual["judge_token"]),
            ("ann", ann),
        )
    }
    ann_row = {
        who: next(p for p in v["players"] if p["player"] == "ann") for who, v in seen.items()
    }
    for who in ("spectator", "bob"):
        assert "decklist" not in ann_row[who] and "salt" not in ann_row[who]
        assert "Sample" not in json.dumps(ann_row[who])
    for who in ("judge", "ann"):
        row = ann_row[who]
        canonical = [[e["name"], e["count"]] for e in row["decklist"]]
        digest = rules.decklist_hash(bytes.fromhex(row["salt"]), canonical, "Sample Orc Warrior")
        assert digest == row["decklist_hash"] == ann_row["spectator"]["decklist_hash"]
    # salted: the same list hashes differently for two players
    bob_row = next(p for p in seen["judge"]["players"] if p["player"] == "bob")
    assert bob_row["decklist"] == ann_row["judge"]["decklist"]
    assert bob_row["decklist_hash"] != ann_row["judge"]["decklist_hash"]


def test_round_one_is_drawn_from_the_committed_secret_and_checkable_after(
    client: FlaskClient,
) -> None:
    event = open_event(client)
    eid = event["event_id"]
    players = [f"p{i}" for i in range(7)]
    for p in players:
        register(client, eid, p)
    committed = client.get(f"/api/events/{eid}").get_json()["commitment"]
    paired = pair(client, eid)
    assert len(paired["pairings"]) == 3 and len(paired["byes"]) == 1
    shown = client.get(f"/api/events/{eid}").get_json()
    secret = bytes.fromhex(shown["revealed_secret"])
    assert dealing.server_commitment(eid, secret) == committed
    # anyone can redo the draw: the key from the secret, the players shuffled under it
    key = rules.round_one_key(eid, secret)
    from domain.tournament.pairing import round_one

    again = round_one(players, key)
    assert [list(p["seats"].values()) for p in paired["pairings"]] == [list(p) for p in again.pairs]
    assert paired["byes"] == [again.bye]
    assert hashlib.sha256(b"").hexdigest() != committed  # a real commitment, not a constant


def test_a_swiss_event_runs_from_its_games_to_standings(client: FlaskClient) -> None:
    event = open_event(client, rounds=3)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee", "eve")}
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in (1, 2, 3):
        paired = pair(client, eid)
        assert paired["round"] == number
        byes += paired["byes"]
        seated = [p for pairing in paired["pairings"] for p in pairing["seats"].values()]
        assert sorted(seated + paired["byes"]) == sorted(tokens)
        for pairing in paired["pairings"]:
            a, b = pairing["seats"]["A"], pairing["seats"]["B"]
            assert frozenset((a, b)) not in met  # 5 players, 3 rounds: no rematch needed
            met.add(frozenset((a, b)))
            # the player in seat B concedes: A wins
            game = my_game(client, eid, number, tokens[b])
            assert game["seat"] == "B" and game["game_id"] == pairing["game_id"]
            early = client.post(f"/api/events/{eid}/rounds", headers=bearer(ORGANIZER_TOKEN))
            assert early.status_code == 422  # the round is not over (or the event's last)
            expected = "rule/round_in_progress" if number < 3 else "rule/event_finished"
            assert early.get_json()["error"]["code"] == expected
            concede(client, game)
    assert len(set(byes)) == 3  # never a second bye while others have none
    rows = standings(client, eid)
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    for row in rows:
        assert row["points"] == 3 * row["wins"] + row["draws"]
        assert row["wins"] + row["losses"] + row["draws"] == 3
        assert 1 / 3 - 1e-9 <= row["omw"] <= 1 and 1 / 3 - 1e-9 <= row["gw"] <= 1
    assert rows == sorted(rows, key=lambda r: (-r["points"], -r["omw"], -r["gw"], -r["ogw"]))
    finished = client.get(f"/api/events/{eid}").get_json()
    assert finished["state"] == "finished"
    over = client.post(f"/api/events/{eid}/rounds", headers=bearer(ORGANIZER_TOKEN))
    assert over.status_code == 422 and over.get_json()["error"]["code"] == "rule/event_finished"
    late = client.post(
        f"/api/events/{eid}/players",
        json={"player": "zed", "hero": HERO, "decklist": deck()},
        headers=bearer(ORGANIZER_TOKEN),
    )
    assert late.status_code == 422 and late.get_json()["error"]["code"] == "rule/event_finished"


def test_a_seat_token_plays_only_its_own_seat_of_its_own_game(client: FlaskClient) -> None:
    event = open_event(client)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    paired = pair(client, eid)
    first, second = paired["pairings"]
    a_player = first["seats"]["A"]
    mine = my_game(client, eid, 1, tokens[a_player])
    # not the other seat, not another game
    wrong_seat = client.post(
        f"/api/games/{mine['game_id']}/actions",
        json={"actions": [{"type": "concede", "seat": "B"}]},
        headers=bearer(mine["token"]),
    )
    assert wrong_seat.status_code == 403
    other_game = client.get(f"/api/games/{second['game_id']}/state", headers=bearer(mine["token"]))
    assert other_game.status_code == 401
    # the event token is not a game token, and the judge token is every game's judge
    event_token = client.get(
        f"/api/games/{mine['game_id']}/state", headers=bearer(tokens[a_player])
    )
    assert event_token.status_code == 401
    for pairing in (first, second):
        judged = client.get(
            f"/api/games/{pairing['game_id']}/state", headers=bearer(event["judge_token"])
        )
        assert judged.status_code == 200
    # a spectator or the organizer has no game of its own
    assert client.get(f"/api/events/{eid}/rounds/1/my-game").status_code == 401
    organizer = client.get(f"/api/events/{eid}/rounds/1/my-game", headers=bearer(ORGANIZER_TOKEN))
    assert organizer.status_code == 403


def test_a_best_of_three_creates_its_next_game_until_a_player_has_two(client: FlaskClient) -> None:
    event = open_event(client, match="bo3", rounds=1)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    (pairing,) = pair(client, eid)["pairings"]
    a, b = pairing["seats"]["A"], pairing["seats"]["B"]
    concede(client, my_game(client, eid, 1, tokens[b]))  # A 1-0
    second = my_game(client, eid, 1, tokens[a])
    assert second["game_number"] == 2 and second["game_id"] != pairing["game_id"]
    assert my_game(client, eid, 1, tokens[b])["game_id"] == second["game_id"]  # not a third
    concede(client, second)  # A concedes: 1-1
    third = my_game(client, eid, 1, tokens[b])
    assert third["game_number"] == 3
    concede(client, my_game(client, eid, 1, tokens[b]))  # B concedes: A wins 2-1
    rows = {r["player"]: r for r in standings(client, eid)}
    assert (rows[a]["wins"], rows[b]["losses"]) == (1, 1)
    # game-win: A 2 of 3 games (6/9), B 1 of 3 (3/9 = the floor)
    assert rows[a]["gw"] == pytest.approx(6 / 9) and rows[b]["gw"] == pytest.approx(1 / 3)


def test_a_judge_reports_a_draw_at_time_and_drops_are_never_paired_again(
    client: FlaskClient,
) -> None:
    event = open_event(client, rounds=2)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    first, second = pair(client, eid)["pairings"]
    players = list(first["seats"].values())
    not_theirs = client.post(
        f"/api/events/{eid}/rounds/1/results",
        json={"table": 1, "games": {players[0]: 0, players[1]: 0}},
        headers=bearer(tokens[players[0]]),
    )
    assert not_theirs.status_code == 403
    bad = client.post(
        f"/api/events/{eid}/rounds/1/results",
        json={"table": 1, "games": {"nobody": 1}},
        headers=bearer(event["judge_token"]),
    )
    assert bad.status_code == 400
    reported = client.post(
        f"/api/events/{eid}/rounds/1/results",
        json={"table": 1, "games": {players[0]: 0, players[1]: 0}, "drawn_games": 1},
        headers=bearer(event["judge_token"]),
    )
    assert reported.status_code == 201, reported.get_json()
    concede(client, my_game(client, eid, 1, tokens[second["seats"]["B"]]))
    gone = second["seats"]["B"]
    other = client.post(
        f"/api/events/{eid}/drops", json={"player": players[0]}, headers=bearer(tokens[gone])
    )
    assert other.status_code == 403  # a player drops only itself
    dropped = client.post(
        f"/api/events/{eid}/drops", json={"player": gone}, headers=bearer(tokens[gone])
    )
    assert dropped.status_code == 201 and dropped.get_json()["after_round"] == 1
    paired = pair(client, eid)
    seated = [p for pairing in paired["pairings"] for p in pairing["seats"].values()]
    assert gone not in seated + paired["byes"] and len(paired["byes"]) == 1
    rows = {r["player"]: r for r in standings(client, eid)}
    assert rows[gone]["dropped"] and rows[gone]["losses"] == 1
    bye = 3 if paired["byes"] == [players[0]] else 0  # round 2 is paired, not yet played
    assert rows[players[0]]["draws"] == 1 and rows[players[0]]["points"] == 1 + bye


def play_round(
    client: FlaskClient, eid: str, number: int, tokens: dict[str, str], paired: dict[str, Any]
) -> None:
    """Every table of the round played to its end by its players: at each table every seat
    but the first concedes, in seat order (the last one standing wins)."""
    for pairing in paired["pairings"]:
        for seat, player in list(pairing["seats"].items())[1:]:
            game = my_game(client, eid, number, tokens[player])
            assert game["seat"] == seat
            concede(client, game)


def test_a_nine_player_ccg_event_three_swiss_rounds_and_a_top_four(client: FlaskClient) -> None:
    event = open_event(client, rounds=3, top_cut=4)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in [f"player{i}" for i in range(1, 10)]}
    byes: list[str] = []
    for number in (1, 2, 3):
        paired = pair(client, eid)
        assert len(paired["pairings"]) == 4 and len(paired["byes"]) == 1
        byes += paired["byes"]
        play_round(client, eid, number, tokens, paired)
    assert len(set(byes)) == 3
    rows = standings(client, eid)
    seeds = [r["player"] for r in rows[:4]]
    semis = pair(client, eid)
    assert semis["round"] == 4 and semis["byes"] == []
    brackets = [tuple(p["seats"].values()) for p in semis["pairings"]]
    assert brackets == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    play_round(client, eid, 4, tokens, semis)  # seat A (the higher seed) wins each
    final = pair(client, eid)
    assert [tuple(p["seats"].values()) for p in final["pairings"]] == [(seeds[0], seeds[1])]
    play_round(client, eid, 5, tokens, final)
    done = client.get(f"/api/events/{eid}").get_json()
    assert done["state"] == "finished" and done["planned_rounds"] == 5
    assert standings(client, eid) == rows  # the top cut decides places, not points


def test_a_fourteen_player_classic_event_seats_tables_of_four_five_and_five(
    client: FlaskClient,
) -> None:
    event = open_event(client, ruleset="munchkin-deluxe", rounds=2)
    eid = event["event_id"]
    names = [f"m{i:02}" for i in range(14)]
    tokens = {p: register(client, eid, p, hero=None, decklist=None) for p in names}
    firsts: list[str] = []
    for number in (1, 2):
        paired = pair(client, eid)
        assert sorted(len(p["seats"]) for p in paired["pairings"]) == [4, 5, 5]
        assert paired["byes"] == []
        seated = [p for pairing in paired["pairings"] for p in pairing["seats"].values()]
        assert sorted(seated) == names
        firsts += [p["seats"]["A"] for p in paired["pairings"]]
        play_round(client, eid, number, tokens, paired)
    assert len(set(firsts)) == 6  # nobody sat first twice while others had not
    rows = standings(client, eid)
    # every table's seat A won (the others conceded and share second place): 3 points a table
    # won, 2 for a second place (domain.tournament.standings' table)
    expected = {p: sum(3 if p in firsts[i * 3 : i * 3 + 3] else 2 for i in (0, 1)) for p in names}
    assert {r["player"]: r["points"] for r in rows} == expected
    assert {r["player"]: r["wins"] for r in rows} == {p: firsts.count(p) for p in names}


@pytest.mark.storage_agnostic(False)
def test_standings_obey_the_spectator_delay_for_all_but_the_judges(client: FlaskClient) -> None:
    """Both back ends: an event's aggregate and games on PostgreSQL too."""
    event = open_event(client, rounds=1, spectator_delay={"seconds": 3600})
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    (pairing,) = pair(client, eid)["pairings"]
    concede(client, my_game(client, eid, 1, tokens[pairing["seats"]["B"]]))

    def points(token: str | None) -> dict[str, int]:
        response = client.get(f"/api/events/{eid}/standings", headers=bearer(token))
        assert response.status_code == 200
        return {r["player"]: r["points"] for r in response.get_json()}

    winner = pairing["seats"]["A"]
    assert points(event["judge_token"])[winner] == 3
    for token in (None, ORGANIZER_TOKEN, tokens["ann"], tokens["bob"]):
        assert set(points(token).values()) == {0}  # the game is still live for them


def test_a_late_entry_joins_before_the_next_round_and_a_classic_event_brings_its_decks(
    client: FlaskClient,
) -> None:
    refused = client.post(
        "/api/events",
        json={
            "name": "x",
            "ruleset": "munchkin-deluxe",
            "format": "casual",
            "round_minutes": 60,
            "doors": [{"name": "Not A Card"}],
        },
        headers=bearer(ORGANIZER_TOKEN),
    )
    assert refused.status_code == 400, refused.get_json()
    assert refused.get_json()["error"]["code"] == "request/unknown_card_name"
    event = open_event(client, ruleset="munchkin-deluxe", rounds=2)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p, hero=None, decklist=None) for p in ("a", "b", "c")}
    with_list = client.post(
        f"/api/events/{eid}/players",
        json={"player": "d", "hero": HERO, "decklist": deck()},
        headers=bearer(ORGANIZER_TOKEN),
    )
    assert with_list.status_code == 400  # a classic table shares its decks
    first = pair(client, eid)
    assert [len(p["seats"]) for p in first["pairings"]] == [3]
    play_round(client, eid, 1, tokens, first)
    tokens["d"] = register(client, eid, "d", hero=None, decklist=None)  # late entry
    second = pair(client, eid)
    assert sorted(p for t in second["pairings"] for p in t["seats"].values()) == [
        "a",
        "b",
        "c",
        "d",
    ]
    rows = {r["player"]: r for r in standings(client, eid)}
    assert rows["d"]["points"] == 0 and rows["d"]["wins"] == 0


@pytest.mark.parametrize("ruleset", tuple(CLASSIC))
def test_a_classic_event_deals_its_own_decks(client: FlaskClient, ruleset: str) -> None:
    decks = {k: [{**e, "count": 1} for e in v] for k, v in sample_decks(ruleset).items()}
    event = open_event(client, ruleset=ruleset, rounds=1, **decks)
    eid = event["event_id"]
    for p in ("a", "b", "c"):
        register(client, eid, p, hero=None, decklist=None)
    (table,) = pair(client, eid)["pairings"]
    state = client.get(
        f"/api/games/{table['game_id']}/state", headers=bearer(event["judge_token"])
    ).get_json()
    assert state["decks"]["door"] == len(decks["doors"])  # one copy each, not the default three
    assert state["decks"]["treasure"] == len(decks["treasures"])


@pytest.mark.storage_agnostic(False)
def test_racing_writes_to_one_event_pair_one_round_and_register_everyone(app: Any) -> None:
    """Eight threads at once, on both back ends: registrations all land (a write that lost the
    race to the same event is tried again), and of eight round requests one pairs the round
    (the others: 422, the round is in progress), its games created once."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    event = open_event(app.test_client())
    eid = event["event_id"]
    barrier = threading.Barrier(8)

    def run(job: tuple[str, dict[str, Any] | None]) -> tuple[int, Any]:
        client = app.test_client()
        barrier.wait()
        path, body = job
        response = client.post(path, json=body, headers=bearer(ORGANIZER_TOKEN))
        return response.status_code, response.get_json()

    jobs = [
        (f"/api/events/{eid}/players", {"player": f"p{i}", "hero": HERO, "decklist": deck()})
        for i in range(8)
    ]
    with ThreadPoolExecutor(max_workers=8) as pool:
        registered = list(pool.map(run, jobs))
    assert [status for status, _ in registered] == [201] * 8
    rounds = [(f"/api/events/{eid}/rounds", None)] * 8
    with ThreadPoolExecutor(max_workers=8) as pool:
        paired = list(pool.map(run, rounds))
    statuses = sorted(status for status, _ in paired)
    assert statuses == [201] + [422] * 7, paired
    shown = app.test_client().get(f"/api/events/{eid}").get_json()
    assert shown["round"] == 1 and len(shown["players"]) == 8
    games = [g for p in shown["rounds"][0]["pairings"] for g in p["games"]]
    assert len(games) == len(set(games)) == 4
