"""A reported result closes its match's open games (issue #44): a judge's ruling in each,
saying why, ends it without a winner, so nobody wins it afterwards and a game and its match
never disagree; the players' agreed reports close them too."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import my_game, open_event, pair, register, standings


def report(client: FlaskClient, eid: str, table: int, games: dict[str, int], token: str) -> Any:
    return client.post(
        f"/api/events/{eid}/rounds/1/results",
        json={"table": table, "games": games},
        headers=bearer(token),
    )


def test_a_draw_reported_at_time_closes_the_open_game_with_a_ruling(
    client: FlaskClient,
) -> None:
    event = open_event(client, rounds=1)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    (pairing,) = pair(client, eid)["pairings"]
    a, b = pairing["seats"]["A"], pairing["seats"]["B"]
    game = my_game(client, eid, 1, tokens[b])
    assert client.get(f"/api/games/{game['game_id']}").get_json()["status"] != "finished"
    drawn = report(client, eid, 1, {a: 0, b: 0}, judge)
    assert drawn.status_code == 201, drawn.get_json()
    summary = client.get(f"/api/games/{game['game_id']}").get_json()
    assert summary["status"] == "finished" and summary["winner"] in (None, "draw")
    listed = client.get(f"/api/games/{game['game_id']}/disputes", headers=bearer(judge))
    (dispute,) = listed.get_json()["disputes"]
    assert dispute["raised_by"] == "event"
    assert "reported by the judge" in dispute["rulings"][0]["ruling"]
    # the player concedes from its phone afterwards: refused, the game is over
    late = client.post(
        f"/api/games/{game['game_id']}/actions",
        json={"actions": [{"type": "concede", "seat": game["seat"]}]},
        headers=bearer(game["token"]),
    )
    assert late.status_code in (409, 422), late.get_json()
    shown = client.get(f"/api/events/{eid}").get_json()
    assert shown["state"] == "finished"
    rows = {r["player"]: r for r in standings(client, eid)}
    assert rows[a]["draws"] == rows[b]["draws"] == 1
    # a judge may report again (correct it): the game it closed does not decide the match
    again = report(client, eid, 1, {a: 1, b: 0}, ORGANIZER_TOKEN)
    assert again.status_code == 201, again.get_json()
    rows = {r["player"]: r for r in standings(client, eid)}
    assert rows[a]["wins"] == 1
    export = client.get(f"/api/events/{eid}/export", headers=bearer(judge)).get_json()
    from projections.exports.event_check import check_event_export

    assert check_event_export(export).problems == []


def test_agreed_player_reports_close_the_open_game(client: FlaskClient) -> None:
    event = open_event(client, rounds=1)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    (pairing,) = pair(client, eid)["pairings"]
    a, b = pairing["seats"]["A"], pairing["seats"]["B"]
    game = my_game(client, eid, 1, tokens[a])
    for player, wins, losses in ((a, 0, 0), (b, 0, 0)):
        sent = client.post(
            f"/api/events/{eid}/rounds/1/report",
            json={"wins": wins, "losses": losses, "draws": 0},
            headers=bearer(tokens[player]),
        )
        assert sent.status_code == 201, sent.get_json()
    summary = client.get(f"/api/games/{game['game_id']}").get_json()
    assert summary["status"] == "finished"


def _forged(export: dict[str, Any], games: dict[str, int]) -> list[str]:
    """``export`` with its one pairing's result forged as reported (``games`` won, none
    drawn) and its result listed so: what verify finds about its games and its match."""
    from projections.exports.event_check import check_event_export

    pairing = export["rounds"][0]["pairings"][0]
    pairing["reported"] = {"games": games, "drawn_games": 0, "by": "judge", "at": "x"}
    players = list(pairing["seats"].values())
    export["results"] = [{"round": 1, "players": players, "games": games, "drawn_games": 0}]
    return [p.what for p in check_event_export(export).problems if "reported result" in p.what]


def test_verify_flags_a_game_and_its_match_that_disagree(client: FlaskClient) -> None:
    event = open_event(client, rounds=1)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
    (pairing,) = pair(client, eid)["pairings"]
    a, b = pairing["seats"]["A"], pairing["seats"]["B"]
    my_game(client, eid, 1, tokens[a])

    def export() -> dict[str, Any]:
        found: dict[str, Any] = client.get(
            f"/api/events/{eid}/export", headers=bearer(judge)
        ).get_json()
        return found

    # a draw reported over a game still open (what a server before issue #44 let happen)
    assert _forged(export(), {a: 0, b: 0}) == [
        "its games and its reported result disagree: game 1 is still open"
    ]
    from tests.api.test_events import concede

    concede(client, my_game(client, eid, 1, tokens[b]))  # a wins the game
    assert _forged(export(), {a: 0, b: 0}) == [
        f"its games and its reported result disagree: {a} won 1 of its games, the result gives it 0"
    ]
    assert _forged(export(), {a: 1, b: 0}) == []  # the same result as the game's
