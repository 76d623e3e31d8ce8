"""A reported result never contradicts a game that decided its match (issue #35, item 8;
docs/rules.md F.3): ``POST /api/events/<id>/rounds/<n>/results`` over a match its games (or a
match loss ruled in one of them) decided is 422 ``rule/match_decided_by_games``, in any round,
also round 1 once round 2 is paired; a match no game decided (an unfinished game, a draw at
time) is still reported. On both back ends: the refusal reads the games from the store.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_penalties import rule
from tests.api.test_events import concede, my_game, open_event, pair, register, standings

pytestmark = pytest.mark.storage_agnostic(False)


def report(
    client: FlaskClient, eid: str, number: int, table: int, games: dict[str, int], token: str
) -> Any:
    return client.post(
        f"/api/events/{eid}/rounds/{number}/results",
        json={"table": table, "games": games},
        headers=bearer(token),
    )


def refused(response: Any, number: int, table: int) -> None:
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["rule"]) == ("rule/match_decided_by_games", "F.3")
    assert error["message"].startswith(f"round {number}, table {table}: its games decided")


def test_a_report_never_contradicts_a_game_that_decided_its_match(
    backend: dict[str, Any], client: FlaskClient
) -> None:
    event = open_event(client, rounds=2)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    first, second = pair(client, eid)["pairings"]
    won = first["seats"]["A"]
    lost = first["seats"]["B"]
    concede(client, my_game(client, eid, 1, tokens[lost]))  # table 1's game decides its match
    before = standings(client, eid)
    for token in (judge, ORGANIZER_TOKEN):  # the report would say the loser won
        refused(report(client, eid, 1, 1, {won: 0, lost: 1}, token), 1, 1)
    refused(report(client, eid, 1, 1, {won: 1, lost: 0}, judge), 1, 1)  # even the same result
    assert standings(client, eid) == before
    # table 2's game is still being played: time is called and a draw reported
    a, b = second["seats"]["A"], second["seats"]["B"]
    my_game(client, eid, 1, tokens[a])
    drawn = report(client, eid, 1, 2, {a: 0, b: 0}, judge)
    assert drawn.status_code == 201, drawn.get_json()
    paired = pair(client, eid)
    # round 2 is paired: round 1's decided match is still refused, its reported one corrected
    refused(report(client, eid, 1, 1, {won: 0, lost: 1}, ORGANIZER_TOKEN), 1, 1)
    corrected = report(client, eid, 1, 2, {a: 1, b: 0}, judge)
    assert corrected.status_code == 201, corrected.get_json()
    rows = {r["player"]: r for r in standings(client, eid)}
    assert (rows[won]["wins"], rows[lost]["losses"], rows[a]["wins"], rows[b]["losses"]) == (
        1,
        1,
        1,
        1,
    )
    # round 2: a match loss ruled in a game decides its match as a game would
    table = paired["pairings"][0]
    game = my_game(client, eid, 2, tokens[table["seats"]["A"]])
    rule(client, judge, game["game_id"], "drew extra cards", {"kind": "match_loss", "seat": "B"})
    seats = table["seats"]
    refused(report(client, eid, 2, 1, {seats["A"]: 0, seats["B"]: 1}, judge), 2, 1)


def test_a_best_of_three_is_reported_until_its_games_decide_it(
    backend: dict[str, Any], client: FlaskClient
) -> None:
    played = {}
    for wins in (1, 2):
        event = open_event(client, rounds=1, match="bo3")
        eid = event["event_id"]
        tokens = {p: register(client, eid, p) for p in ("ann", "bob")}
        (pairing,) = pair(client, eid)["pairings"]
        a, b = pairing["seats"]["A"], pairing["seats"]["B"]
        for _ in range(wins):
            concede(client, my_game(client, eid, 1, tokens[b]))
        played[wins] = report(client, eid, 1, 1, {a: 1, b: 1}, event["judge_token"])
    assert played[1].status_code == 201, played[1].get_json()  # 1-0 at time: undecided
    refused(played[2], 1, 1)  # 2-0: the games decided it
