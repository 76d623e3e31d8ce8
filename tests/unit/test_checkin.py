"""Check-in and no-shows at the domain's speed with a fake clock (issue #38, docs/rules.md
F.7): every moment is given, nothing waits. Which round a check-in is for and when the next
one's opens, who is absent at the deadline, a no-show recorded once, two in a row a drop.
"""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from domain.errors import InvalidCommand, RuleViolation
from domain.family import load_families
from domain.tournament import checkin
from domain.tournament.aggregate import Tournament
from tests.unit.test_round_clock import act, at

load_families()
T0 = "2030-01-01T10:00:00Z"
PLAYERS = ("p0", "p1", "p2", "p3")


def event_for(**settings: Any) -> Tournament:
    base = {"name": "x", "ruleset": "munchkin-ccg", "round_minutes": 30}
    event = Tournament.open(
        uuid4(),
        {**base, "check_in": {"opens": 10, "no_show": 5}, **settings},
        commitment="c" * 64,
        judge_token_hash="h" * 64,
        at=T0,
    )
    for player in PLAYERS:
        event.register(player, "t" * 64, hero=None, decklist=None, decklist_hash=None, at=T0)
    return event


def pair(event: Tournament, at_: str) -> None:
    pairings = [
        {"table": 1, "seats": {"A": "p0", "B": "p1"}, "games": [str(uuid4())]},
        {"table": 2, "seats": {"A": "p2", "B": "p3"}, "games": [str(uuid4())]},
    ]
    event.pair(pairings, [], revealed=None, at=at_)


def test_a_check_in_is_for_the_round_being_played_else_the_next_from_opens() -> None:
    event = event_for()
    assert checkin.check_in(event, "p0", at(-20), current_over=True)["round"] == 1  # none yet
    pair(event, at(-5))
    assert checkin.check_in(event, "p1", at(-4), current_over=False)["round"] == 1
    with pytest.raises(RuleViolation) as done:  # p0 is in for round 1; round 1 has no clock
        checkin.check_in(event, "p0", at(-3), current_over=False)
    assert done.value.code == "rule/check_in_not_open"
    act(event, at(0), "start")  # round 1 ends at 30: round 2's check-in opens at 20
    with pytest.raises(RuleViolation) as early:
        checkin.round_for(event, "p0", at(19.9), current_over=False)
    assert early.value.code == "rule/check_in_not_open"
    assert checkin.round_for(event, "p0", at(20), current_over=False) == 2
    assert checkin.round_for(event, "p0", at(5), current_over=True) == 2  # round 1 is over
    checkin.check_in(event, "p0", at(20), current_over=False)
    with pytest.raises(RuleViolation) as twice:
        checkin.check_in(event, "p0", at(21), current_over=True)
    assert twice.value.code == "rule/already_checked_in"


def test_the_absent_at_the_deadline_are_no_shows_once_and_two_in_a_row_drop() -> None:
    event = event_for()
    pair(event, T0)
    assert checkin.no_show_deadline(event, 1) is None  # no clock, no deadline
    for player in ("p0", "p1", "p2"):
        checkin.check_in(event, player, at(-1), current_over=False)
    act(event, at(0), "start")
    assert checkin.no_show_deadline(event, 1) == at(5)
    missing = checkin.absent(event, 1)
    assert [(t, s, p) for t, s, p, _ in missing] == [(2, "B", "p3")]
    table, seat, player, game = missing[0]
    assert checkin.record_no_show(event, 1, table, seat, player, game, at(5))
    assert not checkin.record_no_show(event, 1, table, seat, player, game, at(6))  # once
    assert checkin.absent(event, 1) == [] and event.players["p3"]["dropped_after"] is None
    pair(event, at(40))
    act(event, at(40), "start")
    table, seat, player, game = checkin.absent(event, 2)[-1]
    assert player == "p3"
    checkin.record_no_show(event, 2, table, seat, player, game, at(45))
    assert event.players["p3"]["dropped_after"] == 2
    assert "rounds 1 and 2" in event.players["p3"]["drop_reason"]
    assert [p for _, _, p, _ in checkin.absent(event, 2)] == ["p0", "p1", "p2"]  # not again


def test_no_check_in_option_and_bad_options_are_refused() -> None:
    event = event_for(check_in=None)
    with pytest.raises(RuleViolation) as none:
        checkin.check_in(event, "p0", T0, current_over=True)
    assert none.value.code == "rule/no_check_in"
    assert checkin.view(event) is None
    with pytest.raises(InvalidCommand) as bad:
        checkin.options({"check_in": {"opens": -1, "no_show": 90}})
    assert set(bad.value.fields) == {"opens", "no_show"}
