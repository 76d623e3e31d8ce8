"""Results the players report at the domain's speed (issue #38, docs/rules.md F.3,
``domain.tournament.reports``): equal reports stand, a different one opens a dispute that
reports coming to agree close, a report over what the recorded games give is refused, a
table's report names every player once, a correction marks the rounds paired before it."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from domain.errors import InvalidCommand, RuleViolation
from domain.family import load_families
from domain.tournament import reports
from domain.tournament.aggregate import Tournament

load_families()
T0 = "2030-01-01T10:00:00Z"


def event(ruleset: str = "munchkin-ccg", match: str = "bo3", **more: Any) -> Tournament:
    settings = {"name": "x", "ruleset": ruleset, "match": match, "round_minutes": 30, **more}
    made = Tournament.open(uuid4(), settings, commitment="c" * 64, judge_token_hash="j" * 64, at=T0)
    for name in ("ann", "bob", "cid", "dee"):
        made.register(name, f"{name}-h", hero=None, decklist=None, decklist_hash=None, at=T0)
    return made


def pair(made: Tournament, tables: list[dict[str, str]]) -> None:
    pairings = [
        {"table": n, "seats": seats, "games": [str(uuid4())]}
        for n, seats in enumerate(tables, start=1)
    ]
    made.pair(pairings, [], revealed=None, at=T0)


def told(made: Tournament, player: str, recorded: Any = None, **given: Any) -> dict[str, Any]:
    return reports.report(made, 1, player, given, recorded=recorded, at=T0)


def test_a_dispute_closes_when_the_reports_come_to_agree() -> None:
    made = event(results="reported")
    pair(made, [{"A": "ann", "B": "bob"}])
    told(made, "ann", wins=2, losses=1)
    assert told(made, "bob", wins=2, losses=0)["dispute"] is True
    assert told(made, "bob", wins=1, losses=2)["stands"]["games"] == {"ann": 2, "bob": 1}
    with pytest.raises(RuleViolation) as stands:
        told(made, "ann", wins=2, losses=0)
    assert stands.value.code == "rule/result_stands"


def test_a_report_under_the_finished_games_contradicts_them() -> None:
    made = event()
    pair(made, [{"A": "ann", "B": "bob"}])
    so_far = (None, {"ann": 1, "bob": 0}, 0)  # ann won game 1, game 2 unfinished at time
    with pytest.raises(RuleViolation) as wrong:
        told(made, "bob", so_far, wins=1, losses=0)
    assert (wrong.value.code, wrong.value.rule) == ("rule/report_contradicts_games", "F.3")
    assert told(made, "bob", so_far, wins=0, losses=1, draws=1)["stands"] is None
    decided = ({"games": {"ann": 2, "bob": 0}, "drawn_games": 0}, {"ann": 2, "bob": 0}, 0)
    with pytest.raises(RuleViolation):
        told(made, "ann", decided, wins=2, losses=1)
    after = told(made, "ann", decided, wins=2, losses=0)  # the games decide: nothing stands
    assert after["stands"] is None and after["dispute"] is False


def test_a_table_reports_every_player_once_and_its_game_decides_in_a_games_event() -> None:
    made = event("munchkin-deluxe", "bo1")
    pair(made, [{"A": "ann", "B": "bob", "C": "cid", "D": "dee"}])
    places = {"ann": 1, "bob": 2, "cid": 2, "dee": 4}
    with pytest.raises(InvalidCommand):
        told(made, "ann", (None, {}, 0), places={"ann": 1, "bob": 2})
    with pytest.raises(InvalidCommand):
        told(made, "ann", (None, {}, 0), places={**places, "ann": 5})
    with pytest.raises(RuleViolation) as unfinished:
        told(made, "ann", (None, {}, 0), places=places)
    assert unfinished.value.code == "rule/table_result_from_game"
    over = ({"places": {**places, "cid": 3}}, {}, 0)
    with pytest.raises(RuleViolation) as wrong:
        told(made, "ann", over, places=places)
    assert wrong.value.code == "rule/report_contradicts_games"


def test_a_correction_marks_every_later_pairing_and_keeps_what_it_replaced() -> None:
    made = event(results="reported", match="bo1")
    pair(made, [{"A": "ann", "B": "bob"}, {"A": "cid", "B": "dee"}])
    for player, wins in (("ann", 1), ("bob", 0)):
        told(made, player, wins=wins, losses=1 - wins)
    pair(made, [{"A": "ann", "B": "cid"}, {"A": "bob", "B": "dee"}])
    with pytest.raises(RuleViolation) as nothing:
        reports.correct(made, 1, 2, {"games": {"cid": 1, "dee": 0}}, reason="x", by="judge", at=T0)
    assert nothing.value.code == "rule/nothing_to_correct"
    with pytest.raises(RuleViolation) as same:
        reports.correct(made, 1, 1, {"games": {"ann": 1, "bob": 0}}, reason="x", by="judge", at=T0)
    assert same.value.code == "rule/same_result"
    reports.correct(made, 1, 1, {"games": {"ann": 0, "bob": 1}}, reason="slip", by="judge", at=T0)
    first = made.round_at(1)["pairings"][0]["reported"]
    assert first["games"] == {"ann": 0, "bob": 1} and first["corrected"]["reason"] == "slip"
    assert first["corrected"]["was"]["games"] == {"ann": 1, "bob": 0}
    assert all(p["paired_before_correction"] for p in made.round_at(2)["pairings"])
    assert not any("paired_before_correction" in p for p in made.round_at(1)["pairings"])
