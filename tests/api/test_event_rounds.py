"""Every round of an event re-derived from its export alone (issue #35, item 9; docs/events.md,
docs/rules.md F.2): ``munchlog verify`` draws rounds 2 on again (Swiss and the top cut, CCG
pairings and classic tables) and names the first round and table that differ.

The forgeries are a forger's best: the pairing changed, and with it every game of those
tables (the players' names in its events, the hash chain sealed again), the results and the
standings, so that every other part of the check still passes.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from projections.exports.event_check import recompute_standings
from projections.exports.formats import export_json, read_export
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_exports import export, problems, verify
from tests.api.test_events import my_game, open_event, pair, play_round, register
from tests.unit.seeded_games import reseal

pytestmark = pytest.mark.storage_agnostic


def report(client: FlaskClient, eid: str, number: int, table: int, games: dict[str, int]) -> Any:
    return client.post(
        f"/api/events/{eid}/rounds/{number}/results",
        json={"table": table, "games": games},
        headers=bearer(ORGANIZER_TOKEN),
    )


def whole_event(client: FlaskClient) -> dict[str, Any]:
    """Eight players, three Swiss rounds and a top 4, best-of-one: round 1's last table drawn
    at time (reported), then reported again as a win once round 2 is paired; a player drops
    after round 1 (so seven: a bye in rounds 2 and 3); the cut played to its final."""
    event = open_event(client, rounds=3, top_cut=4)
    eid = event["event_id"]
    names = ("ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal")
    tokens = {p: register(client, eid, p) for p in names}
    paired = pair(client, eid)
    *played, last = paired["pairings"]
    play_round(client, eid, 1, tokens, {"pairings": played})
    a, b = last["seats"]["A"], last["seats"]["B"]
    my_game(client, eid, 1, tokens[a])  # its game is started, never finished
    assert report(client, eid, 1, last["table"], {a: 0, b: 0}).status_code == 201
    gone = played[0]["seats"]["B"]
    dropped = client.post(
        f"/api/events/{eid}/drops", json={"player": gone}, headers=bearer(tokens[gone])
    )
    assert dropped.status_code == 201
    for number in range(2, 6):
        paired = pair(client, eid)
        if number == 2:  # round 1's draw at time becomes a win for A: round 2 was paired on it
            assert report(client, eid, 1, last["table"], {a: 1, b: 0}).status_code == 201
        if number <= 3:
            assert len(paired["byes"]) == 1
        play_round(client, eid, number, tokens, paired)
    return {"eid": eid, "judge": event["judge_token"], "draw": (a, b), "table": last["table"]}


def classic_event(client: FlaskClient) -> dict[str, Any]:
    event = open_event(client, ruleset="munchkin-deluxe", rounds=3)
    eid = event["event_id"]
    tokens = {
        p: register(client, eid, p, hero=None, decklist=None)
        for p in ("m0", "m1", "m2", "m3", "m4", "m5", "m6")
    }
    for number in (1, 2, 3):
        paired = pair(client, eid)
        assert sorted(len(p["seats"]) for p in paired["pairings"]) == [3, 4]
        play_round(client, eid, number, tokens, paired)
    return {"eid": eid, "judge": event["judge_token"]}


# ---------------------------------------------------------------------------- forging


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    return value


def swapped(obj: dict[str, Any], number: int, first: str, second: str) -> dict[str, Any]:
    """``obj`` with ``first`` and ``second`` changing places in round ``number``: its pairings,
    the events of its games (their chains sealed again), its results, and the standings
    recomputed: what a forger who knows the export's checks hands over."""
    bad = copy.deepcopy(obj)
    names = {first: second, second: first}
    round_ = bad["rounds"][number - 1]
    games: set[str] = set()
    for pairing in round_["pairings"]:
        if names.keys() & set(pairing["seats"].values()):
            pairing["seats"] = _renamed(pairing["seats"], names)
            games.update(pairing["games"])
    for index, game in enumerate(bad["games"]):
        if game["game_id"] in games:
            _, records = read_export(game)
            for record in records:
                record["event"] = _renamed(record["event"], names)
            bad["games"][index] = export_json(reseal(list(records)), game["viewer"])
    for result in bad["results"]:
        if result["round"] == number and names.keys() & set(result["players"]):
            result.update(_renamed({k: v for k, v in result.items() if k != "round"}, names))
    bad["standings"] = recompute_standings(bad)
    return bad


def verified(tmp_path: Path, obj: Any, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """``munchlog verify``'s lines for ``obj``, which must verify."""
    code, lines = verify(tmp_path, obj, capsys)
    assert code == 0, lines
    return lines


def named_at_table_one(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    obj: dict[str, Any],
    number: int,
    first: str,
    second: str,
) -> None:
    """``obj`` with ``first`` (seated at table 1) and ``second`` changing places in round
    ``number`` (:func:`swapped`): ``munchlog verify`` finds that alone (every other part of
    the check holds: the games verify, the results and the standings agree), at round
    ``number``, table 1, and says what drawing it again seats there."""
    bad = swapped(obj, number, first, second)
    shown = ", ".join(bad["rounds"][number - 1]["pairings"][0]["seats"].values())
    want = ", ".join(obj["rounds"][number - 1]["pairings"][0]["seats"].values())
    code, lines = verify(tmp_path, bad, capsys)
    assert code == 1
    assert problems(lines) == [
        f"problem: round {number}, table 1: seats {shown}; drawn again from the export, it "
        f"seats {want}"
    ]


# ---------------------------------------------------------------------------- tests


def test_an_honest_whole_event_verifies_round_by_round(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = whole_event(client)
    obj = export(client, event["eid"], event["judge"])
    assert obj["state"] == "finished" and len(obj["rounds"]) == 5
    # round 2 was paired on round 1's draw at time, reported again as a win since
    a, b = event["draw"]
    assert [r["paired_on"] for r in obj["rounds"]] == [
        [],
        [{"round": 1, "players": [a, b], "games": {a: 0, b: 0}, "drawn_games": 0}],
        [],
        [],
        [],
    ]
    lines = verified(tmp_path, obj, capsys)
    assert (
        "ok: 4 round(s) after round 1 drawn again from the export (standings, byes, earlier "
        "pairings, drops, the top cut): the same tables and byes"
    ) in lines
    first, second = sorted((a, b))  # a reported result names its players in order
    then = f"games won {first} 0, {second} 0"
    now = f"games won {first} {int(first == a)}, {second} {int(second == a)}"
    assert (
        f"note: round 2 was paired on round 1's result for {a}, {b} as it was then ({then}); "
        f"the export's is {now} (changed since)"
    ) in lines
    text = export(client, event["eid"], event["judge"], "text")
    assert (
        f"  Paired on round 1's result for {a}, {b} as it stood then ({then}); it has changed since"
    ) in text.splitlines()


def test_a_classic_event_verifies_round_by_round(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = classic_event(client)
    lines = verified(tmp_path, export(client, event["eid"], event["judge"]), capsys)
    assert any(x.startswith("ok: 2 round(s) after round 1 drawn again") for x in lines), lines


def test_a_swiss_round_swapped_and_sealed_again_is_named_at_its_round_and_table(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = whole_event(client)
    obj = export(client, event["eid"], event["judge"])
    one, two = obj["rounds"][1]["pairings"][:2]
    named_at_table_one(tmp_path, capsys, obj, 2, one["seats"]["B"], two["seats"]["B"])


def test_a_top_cut_seed_changed_is_named_at_its_round_and_table(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = whole_event(client)
    obj = export(client, event["eid"], event["judge"])
    cut = obj["rounds"][3]  # seeds 1 v 4 and 2 v 3
    assert len(cut["pairings"]) == 2 and cut["byes"] == []
    one, two = cut["pairings"]
    named_at_table_one(tmp_path, capsys, obj, 4, one["seats"]["B"], two["seats"]["B"])  # 1 v 3


def test_a_classic_table_cut_differently_is_named_at_its_round_and_table(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = classic_event(client)
    obj = export(client, event["eid"], event["judge"])
    one, two = obj["rounds"][2]["pairings"]
    named_at_table_one(tmp_path, capsys, obj, 3, list(one["seats"].values())[-1], two["seats"]["A"])


def test_a_round_paired_on_a_result_changed_since_needs_what_it_was_paired_on(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``paired_on`` is what lets round 2 be drawn again: its pairing met a 3-point player
    with a 1-point one after round 1's draw at time; on the win reported since, the four
    3-point players meet each other. Left out, or forged to another result then, round 2 is
    named."""
    event = whole_event(client)
    obj = export(client, event["eid"], event["judge"])
    a, b = event["draw"]
    for then in ([], [{"round": 1, "players": [a, b], "games": {a: 0, b: 1}, "drawn_games": 0}]):
        bad = copy.deepcopy(obj)
        bad["rounds"][1]["paired_on"] = then
        code, lines = verify(tmp_path, bad, capsys)
        assert code == 1
        (found,) = problems(lines)
        assert (
            found.startswith("problem: round 2, table ") and "drawn again from the export" in found
        )


def test_rounds_paired_before_pairings_kept_their_results_still_verify(
    make_app: Callable[[], Flask],
    backend: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A ``Tournament.Paired`` stored before version 2 (no ``results``) loads through its
    upcaster: its round's ``paired_on`` is ``null`` (drawn again from the results as they are),
    and the next round paired records every result it reads."""
    client = make_app().test_client()
    event = open_event(client, rounds=3)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee", "eve")}
    for number in (1, 2):
        play_round(client, eid, number, tokens, pair(client, eid))
    db = sqlite3.connect(backend["MUNCHLOG_DATABASE_URL"])
    try:
        rows = db.execute(
            "SELECT rowid, state FROM stored_events WHERE topic LIKE '%Tournament.Paired'"
        ).fetchall()
        assert len(rows) == 2
        for rowid, state in rows:
            stored = json.loads(state)
            assert stored.pop("class_version") == 2 and stored.pop("results") is not None
            db.execute(  # version 1's shape: what a round paired before this change stored
                "UPDATE stored_events SET state = ? WHERE rowid = ?",
                (json.dumps(stored).encode(), rowid),
            )
        db.commit()
    finally:
        db.close()
    client = make_app().test_client()  # another process: nothing cached
    obj = export(client, eid, event["judge_token"])
    assert [r["paired_on"] for r in obj["rounds"]] == [None, None]
    lines = verified(tmp_path, obj, capsys)
    assert any(x.startswith("ok: 1 round(s) after round 1 drawn again") for x in lines), lines
    play_round(client, eid, 3, tokens, pair(client, eid))
    obj = export(client, eid, event["judge_token"])
    assert [r["paired_on"] for r in obj["rounds"]] == [None, None, []]
    verified(tmp_path, obj, capsys)


def test_a_spectator_delay_holds_back_what_a_round_was_paired_on(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Round 2 was paired on round 1's results, which the delay holds back from everyone but
    the judges: a spectator's export says so (``paired_on_held_back``) and shows none of them;
    the judge's draws round 2 again."""
    event = open_event(client, rounds=2, spectator_delay={"seconds": 3600})
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    play_round(client, eid, 1, tokens, pair(client, eid))
    pair(client, eid)
    judge = export(client, eid, event["judge_token"])
    assert [r["paired_on"] for r in judge["rounds"]] == [[], []]
    lines = verified(tmp_path, judge, capsys)
    assert any(x.startswith("ok: 1 round(s) after round 1") for x in lines), lines
    for token in (None, ORGANIZER_TOKEN, tokens["ann"]):
        held = export(client, eid, token)
        assert held["results"] == []
        first, second = held["rounds"]
        assert first["paired_on"] == [] and "paired_on" not in second
        assert second["paired_on_held_back"] is True
        lines = verified(tmp_path, held, capsys)
        assert (
            "note: 1 round(s) were paired on results the spectator delay holds back from this "
            "export: they were not drawn again (the judge's export lets them be)"
        ) in lines


def test_a_late_entry_is_drawn_in_from_the_round_after_its_registration(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Who is in a round is read from the export's times: a player registered after round 1
    was paired is in round 2 (its registration time before round 2's). Moved after round 2's
    ``paired_at``, it would not have been: round 2 is named."""
    event = open_event(client, rounds=2)
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    play_round(client, eid, 1, tokens, pair(client, eid))
    tokens["eve"] = register(client, eid, "eve")
    second = pair(client, eid)
    assert len(second["byes"]) == 1  # five players now
    obj = export(client, eid, event["judge_token"])
    assert any(
        x.startswith("ok: 1 round(s) after round 1") for x in verified(tmp_path, obj, capsys)
    )
    bad = copy.deepcopy(obj)
    eve = next(p for p in bad["players"] if p["player"] == "eve")
    eve["registered_at"] = "2999-01-01T00:00:00+00:00"
    code, lines = verify(tmp_path, bad, capsys)
    assert code == 1
    (found,) = problems(lines)
    assert found.startswith("problem: round 2, table ") or found.startswith("problem: round 2: ")
