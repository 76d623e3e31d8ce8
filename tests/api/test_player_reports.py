"""Results the players report, and a judge's correction of a past round (issue #38,
docs/rules.md F.3), over HTTP on both back ends.

``POST /api/events/<id>/rounds/<n>/report`` with a player's token: equal reports stand, a
different one opens a dispute a judge's ``POST …/results`` settles; in a ``"games"`` event a
report that contradicts the recorded games is 422. ``POST …/correction`` (a judge) corrects a
past round: the standings follow and the later rounds' pairings say they were paired before.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from flask import Flask
from flask.testing import FlaskClient

from domain.tournament import clock
from projections.exports.event_check import check_event_export
from service.event_clock import TIME_CALLED
from service.event_keeper import EventKeeper
from service.tournaments import Tournaments
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import concede, my_game, open_event, pair, register, standings

PLAYERS = ("ann", "bob", "cid", "dee")


def report(client: FlaskClient, eid: str, number: int, token: str, **body: Any) -> Any:
    return client.post(
        f"/api/events/{eid}/rounds/{number}/report", json=body, headers=bearer(token)
    )


def settle(client: FlaskClient, eid: str, number: int, token: str, **body: Any) -> Any:
    return client.post(
        f"/api/events/{eid}/rounds/{number}/results", json=body, headers=bearer(token)
    )


def shown(client: FlaskClient, eid: str, token: str | None = None) -> dict[str, Any]:
    headers = bearer(token) if token else {}
    body: dict[str, Any] = client.get(f"/api/events/{eid}", headers=headers).get_json()
    return body


def error(response: Any, status: int) -> str:
    assert response.status_code == status, response.get_json()
    code: str = response.get_json()["error"]["code"]
    return code


def test_reports_stand_when_equal_a_dispute_is_settled_and_a_past_round_corrected(
    backend: dict[str, Any], client: FlaskClient
) -> None:
    event = open_event(client, rounds=2, results="reported")
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in PLAYERS}
    first, second = pair(client, eid)["pairings"]
    a, b = first["seats"]["A"], first["seats"]["B"]
    c, d = second["seats"]["A"], second["seats"]["B"]

    # table 1: both report a 1-0 for a; the first report alone decides nothing
    one = report(client, eid, 1, tokens[a], wins=1, losses=0)
    assert one.status_code == 201 and one.get_json()["stands"] is None
    public = shown(client, eid)["rounds"][0]["pairings"][0]
    assert public["reported_by"] == [a] and "reports" not in public  # not what a reported
    assert "reports" not in shown(client, eid, tokens[b])["rounds"][0]["pairings"][0]
    two = report(client, eid, 1, tokens[b], wins=0, losses=1)
    assert two.status_code == 201 and two.get_json()["stands"]["by"] == "players"
    assert error(report(client, eid, 1, tokens[a], wins=0, losses=1), 422) == "rule/result_stands"

    # table 2: they disagree; the judges see the dispute with both reports, others do not
    report(client, eid, 1, tokens[c], wins=1, losses=0)
    mismatch = report(client, eid, 1, tokens[d], wins=1, losses=0)
    assert mismatch.status_code == 201 and mismatch.get_json()["dispute"] is True
    staff = shown(client, eid, judge)["rounds"][0]["pairings"][1]
    assert staff["dispute"]["open"] and set(staff["dispute"]["reports"]) == {c, d}
    assert "reports" not in shown(client, eid)["rounds"][0]["pairings"][1]["dispute"]
    assert error(client.post(f"/api/events/{eid}/rounds", headers=bearer(ORGANIZER_TOKEN)), 422)
    settled = settle(client, eid, 1, judge, table=2, games={c: 1, d: 0})
    assert settled.status_code == 201, settled.get_json()
    assert shown(client, eid, judge)["rounds"][0]["pairings"][1]["dispute"]["open"] is False
    rows = {r["player"]: r for r in standings(client, eid)}
    assert (rows[a]["wins"], rows[b]["losses"], rows[c]["wins"], rows[d]["losses"]) == (1, 1, 1, 1)

    # round 2 is paired; then a judge corrects round 1's table 1: b won, in fact
    pair(client, eid)
    body = {"table": 1, "games": {a: 0, b: 1}, "reason": "the slip was filled in reversed"}
    corrected = client.post(
        f"/api/events/{eid}/rounds/1/correction", json=body, headers=bearer(judge)
    )
    assert corrected.status_code == 201, corrected.get_json()
    rows = {r["player"]: r for r in standings(client, eid)}
    assert (rows[a]["losses"], rows[b]["wins"]) == (1, 1)
    after = shown(client, eid)
    assert all(p.get("paired_before_correction") for p in after["rounds"][1]["pairings"])
    assert not any(p.get("paired_before_correction") for p in after["rounds"][0]["pairings"])
    fixed = after["rounds"][0]["pairings"][0]["reported"]
    assert fixed["corrected"]["reason"] == body["reason"] and fixed["games"] == {a: 0, b: 1}
    export = client.get(f"/api/events/{eid}/export", headers=bearer(judge)).get_json()
    assert all(p["paired_before_correction"] for p in export["rounds"][1]["pairings"])
    check = check_event_export(export)  # munchlog verify: each round drawn again, results
    assert check.ok, check.problems


def test_who_may_report_and_correct_and_every_refusal_changes_nothing(
    backend: dict[str, Any], client: FlaskClient
) -> None:
    event = open_event(client, rounds=2, results="reported")
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in PLAYERS}
    first = pair(client, eid)["pairings"][0]
    a, b = first["seats"]["A"], first["seats"]["B"]
    before = shown(client, eid, judge)
    assert error(report(client, eid, 1, judge, wins=1), 403) == "auth/forbidden"
    assert error(report(client, eid, 1, ORGANIZER_TOKEN, wins=1), 403) == "auth/forbidden"
    assert error(report(client, eid, 1, "nope", wins=1), 401) == "auth/invalid_token"
    assert error(report(client, eid, 2, tokens[a], wins=1), 422) == "event/round_not_found"
    assert error(report(client, eid, 1, tokens[a], wins=1, places={a: 1}), 400)
    assert error(report(client, eid, 1, tokens[a], wins=9), 400)
    assert error(report(client, eid, 1, tokens[a], wins=1, losses=1), 422) == (
        "rule/impossible_result"
    )
    fix = {"table": 1, "games": {a: 1, b: 0}, "reason": "x"}
    for token in (tokens[a], ORGANIZER_TOKEN):
        refused = client.post(
            f"/api/events/{eid}/rounds/1/correction", json=fix, headers=bearer(token)
        )
        assert error(refused, 403) == "auth/forbidden"
    nothing = client.post(f"/api/events/{eid}/rounds/1/correction", json=fix, headers=bearer(judge))
    assert error(nothing, 422) == "rule/nothing_to_correct"
    no_reason = {k: v for k, v in fix.items() if k != "reason"}
    bare = client.post(
        f"/api/events/{eid}/rounds/1/correction", json=no_reason, headers=bearer(judge)
    )
    assert error(bare, 400)
    assert shown(client, eid, judge) == before


def test_a_games_event_refuses_a_report_that_contradicts_its_games(
    backend: dict[str, Any], client: FlaskClient
) -> None:
    event = open_event(client, rounds=2)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in PLAYERS}
    first, second = pair(client, eid)["pairings"]
    a, b = first["seats"]["A"], first["seats"]["B"]
    concede(client, my_game(client, eid, 1, tokens[b]))  # a won table 1's game
    wrong = report(client, eid, 1, tokens[b], wins=1, losses=0)
    assert error(wrong, 422) == "rule/report_contradicts_games"
    assert wrong.get_json()["error"]["rule"] == "F.3"
    right = report(client, eid, 1, tokens[b], wins=0, losses=1)
    assert right.status_code == 201 and right.get_json()["stands"] is None  # the game decides
    # table 2 is unfinished at time: the players' equal reports stand, as a judge's would
    c, d = second["seats"]["A"], second["seats"]["B"]
    report(client, eid, 1, tokens[c], wins=0, losses=0, draws=1)
    drawn = report(client, eid, 1, tokens[d], wins=0, losses=0, draws=1)
    assert drawn.get_json()["stands"]["drawn_games"] == 1
    rows = {r["player"]: r for r in standings(client, eid)}
    assert (rows[a]["wins"], rows[c]["draws"], rows[d]["draws"]) == (1, 1, 1)


def test_a_deluxe_event_of_fourteen_on_paper_reports_places_and_settles_a_dispute(
    backend: dict[str, Any], app: Flask, client: FlaskClient
) -> None:
    event = open_event(
        client,
        ruleset="munchkin-deluxe",
        rounds=2,
        results="reported",
        time_result="highest_level",
        round_minutes=50,
    )
    eid, judge = event["event_id"], event["judge_token"]
    names = [f"p{n:02d}" for n in range(14)]
    tokens = {p: register(client, eid, p, hero=None, decklist=None) for p in names}
    tables = pair(client, eid)["pairings"]
    assert sorted(len(t["seats"]) for t in tables) == [4, 5, 5]
    # the clock runs out (the keeper asked at the deadline): time is called at each table with
    # the event's time_result, though on paper the players' places decide
    started = client.post(
        f"/api/events/{eid}/clock", json={"action": "start"}, headers=bearer(judge)
    )
    assert started.status_code == 201, started.get_json()
    start = clock.round_started_at(Tournaments(app.extensions["munchlog"]).load(UUID(eid)), 1)
    assert start is not None
    deadline = clock.iso(clock.moment(start) + timedelta(minutes=50))
    EventKeeper(Tournaments(app.extensions["munchlog"]), [TIME_CALLED]).run_due(deadline)
    game = tables[0]["game_id"]
    log = client.get(f"/api/games/{game}/events", headers=bearer(judge)).get_json()["events"]
    (called,) = [e["data"] for e in log if e["type"] == "TimeCalled"]
    assert (called["deadline"], called["time_result"]) == (deadline, "highest_level")
    for index, table in enumerate(tables):
        seated = list(table["seats"].values())
        places = {p: n for n, p in enumerate(seated, start=1)}
        for reporter in seated:
            told = dict(places)
            if index == 2 and reporter == seated[-1]:  # the last one says it came third
                told[reporter], told[seated[2]] = told[seated[2]], told[reporter]
            answer = report(client, eid, 1, tokens[reporter], places=told)
            assert answer.status_code == 201, answer.get_json()
        if index < 2:
            assert answer.get_json()["stands"]["places"] == places
        else:
            assert answer.get_json()["dispute"] is True and answer.get_json()["stands"] is None
    # a player reports only its own table; a table's report names every player of it
    stranger = tables[2]["seats"]["A"]  # its table has no result yet
    partial = {p: 1 for p in list(tables[1]["seats"].values())}
    assert error(report(client, eid, 1, tokens[stranger], places=partial), 400) == (
        "request/invalid_places"
    )
    last = tables[2]
    seated = list(last["seats"].values())
    settled = settle(
        client, eid, 1, judge, table=last["table"], places={p: n for n, p in enumerate(seated, 1)}
    )
    assert settled.status_code == 201, settled.get_json()
    rows = {r["player"]: r for r in standings(client, eid)}
    winners = sorted(t["seats"]["A"] for t in tables)
    best = max(r["points"] for r in rows.values())
    assert sorted(p for p, r in rows.items() if r["points"] == best) == winners
    assert len(pair(client, eid)["pairings"]) == 3  # round 2 follows the settled round
    export = client.get(f"/api/events/{eid}/export", headers=bearer(judge)).get_json()
    check = check_event_export(export)  # results on paper: what stands is the event's result
    assert check.ok, check.problems


def test_a_staff_judges_correction_names_that_judge(
    backend: dict[str, Any], client: FlaskClient
) -> None:
    """A correction records who made it as a result does (F.8): ``<role>:<staff_id>`` for a
    judge the organizer named, ``judge`` for the event's own judge token."""
    event = open_event(client, rounds=2, results="reported")
    eid = event["event_id"]
    for player in PLAYERS:
        register(client, eid, player)
    kim = client.post(
        f"/api/events/{eid}/staff",
        json={"name": "Kim", "role": "judge"},
        headers=bearer(ORGANIZER_TOKEN),
    ).get_json()
    first = pair(client, eid)["pairings"][0]
    a, b = first["seats"]["A"], first["seats"]["B"]
    settled = settle(client, eid, 1, event["judge_token"], table=1, games={a: 1, b: 0})
    assert settled.status_code == 201, settled.get_json()
    body = {"table": 1, "games": {a: 0, b: 1}, "reason": "the slip was reversed"}
    fixed = client.post(
        f"/api/events/{eid}/rounds/1/correction", json=body, headers=bearer(kim["token"])
    )
    assert fixed.status_code == 201, fixed.get_json()
    reported = shown(client, eid)["rounds"][0]["pairings"][0]["reported"]
    assert reported["by"] == f"judge:{kim['staff_id']}", reported
