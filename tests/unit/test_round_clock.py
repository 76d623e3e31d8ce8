"""A round's clock and the end of a round's game (issue #38, docs/rules.md F.6), at the domain's
speed with a fake clock: every moment is given (``at(minutes)``), nothing waits.

The clock: the round's deadline from its start and ``round_minutes``, a table's extension, a
pause moving every deadline by the time paused, the tables due, the refusals in the wrong
state. The game: ``TimeCalled`` with the family's extra turns (the CCG's 5 after turn 0, the
MTR's; a classic table's round of turns), the game ended by the family's time-out rule once
they are played (a CCG draw; a classic table's ``time_result``).
"""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from domain import round_time
from domain.errors import ImpossibleCommand, RuleViolation
from domain.family import load_families
from domain.game import decide_commands
from domain.ruleset import find_ruleset
from domain.tournament import clock
from domain.tournament.aggregate import Tournament
from tests import builders as b
from tests.classic.helpers import ready_all, started

load_families()

T0 = "2030-01-01T10:00:00Z"


def at(minutes: float) -> str:
    return clock.iso(clock.moment(T0) + __import__("datetime").timedelta(minutes=minutes))


def event_with_round(tables: int = 2, minutes: int = 35) -> Tournament:
    settings = {"name": "x", "ruleset": "munchkin-ccg", "round_minutes": minutes}
    event = Tournament.open(
        uuid4(), settings, commitment="c" * 64, judge_token_hash="h" * 64, at=T0
    )
    pairings = [
        {"table": t, "seats": {"A": f"p{2 * t}", "B": f"p{2 * t + 1}"}, "games": [str(uuid4())]}
        for t in range(1, tables + 1)
    ]
    event.pair(pairings, [], revealed=None, at=T0)
    return event


def act(event: Tournament, now: str, action: str, **more: Any) -> None:
    cls, fields = clock.decide(event, {"action": action, **more}, now, by="judge", over=False)
    event.record(cls, **fields)


def test_a_started_round_ends_round_minutes_later_and_every_table_is_due_then() -> None:
    event = event_with_round(minutes=35)
    assert clock.round_started_at(event, 1) is None
    assert clock.view(event, at(0), over=False)["state"] == "not_started"
    assert clock.tables_due(event, 1, at(100)) == []  # no clock, no time
    act(event, at(1), "start")
    assert clock.round_started_at(event, 1) == at(1)
    shown = clock.view(event, at(11), over=False)
    assert shown["state"] == "running" and shown["ends_at"] == at(36)
    assert shown["remaining_s"] == 25 * 60
    assert clock.tables_due(event, 1, at(35.99)) == []
    assert clock.tables_due(event, 1, at(36)) == [(1, at(36)), (2, at(36))]
    assert clock.view(event, at(37), over=False)["state"] == "time"
    assert clock.view(event, at(37), over=True)["state"] == "over"


def test_an_extension_moves_only_its_tables_deadline() -> None:
    event = event_with_round()
    act(event, at(0), "start")
    act(event, at(20), "extend", table=2, minutes=3, reason="deck check")
    act(event, at(21), "extend", table=2, minutes=1, reason="ruling")
    assert clock.view(event, at(22), over=False)["extensions"] == {"2": 4}
    assert clock.tables_due(event, 1, at(35)) == [(1, at(35))]
    assert clock.tables_due(event, 1, at(38.9)) == [(1, at(35))]
    assert clock.tables_due(event, 1, at(39)) == [(1, at(35)), (2, at(39))]


def test_a_pause_stops_the_clock_and_adds_its_time_to_every_deadline() -> None:
    event = event_with_round()
    act(event, at(0), "start")
    act(event, at(10), "pause")
    paused = clock.view(event, at(14), over=False)
    assert paused["state"] == "paused" and paused["ends_at"] is None
    assert paused["remaining_s"] == 25 * 60
    assert clock.tables_due(event, 1, at(100)) == []  # a paused clock calls nothing
    act(event, at(15), "resume")
    assert clock.view(event, at(15), over=False)["ends_at"] == at(40)
    assert clock.tables_due(event, 1, at(39.9)) == []
    assert [t for t, _ in clock.tables_due(event, 1, at(40))] == [1, 2]
    assert clock.round_started_at(event, 1) == at(0)  # the first start, not the resume


def test_time_called_at_a_table_is_not_due_again() -> None:
    event = event_with_round()
    act(event, at(0), "start")
    event.record(
        clock.TableTimeCalled, round=1, table=1, deadline=at(35), games=[], by="server", at=at(35)
    )
    assert clock.tables_due(event, 1, at(36)) == [(2, at(35))]
    with pytest.raises(RuleViolation) as refused:
        act(event, at(36), "extend", table=1, minutes=2, reason="late")
    assert refused.value.code == "rule/time_called"


@pytest.mark.parametrize(
    ("steps", "action", "code"),
    [
        ([], "pause", "rule/clock_not_running"),
        ([], "resume", "rule/clock_not_paused"),
        (["start"], "start", "rule/clock_started"),
        (["start"], "resume", "rule/clock_not_paused"),
        (["start", "pause"], "pause", "rule/clock_not_running"),
        (["start", "pause"], "start", "rule/clock_started"),
    ],
)
def test_the_wrong_state_is_refused_and_changes_nothing(
    steps: list[str], action: str, code: str
) -> None:
    event = event_with_round()
    for step in steps:
        act(event, at(1), step)
    before = event.version
    with pytest.raises(RuleViolation) as refused:
        act(event, at(2), action)
    assert (refused.value.code, refused.value.rule) == (code, "F.6")
    assert event.version == before


def test_the_clock_at_time_does_not_pause_and_no_round_has_no_clock() -> None:
    event = event_with_round()
    act(event, at(0), "start")
    with pytest.raises(RuleViolation):
        act(event, at(40), "pause")  # time is up: nothing to pause
    with pytest.raises(ImpossibleCommand):
        act(event, at(1), "extend", table=9, minutes=3, reason="x")
    settings = {"name": "x", "ruleset": "munchkin-ccg", "round_minutes": 5}
    empty = Tournament.open(uuid4(), settings, commitment="c", judge_token_hash="h", at=T0)
    with pytest.raises(RuleViolation) as refused:
        act(empty, at(0), "start")
    assert refused.value.code == "rule/no_round"
    assert clock.view(empty, at(0), over=False)["state"] == "not_started"


# ---------------------------------------------------------------------------- the games


def record(state: dict[str, Any], *commands: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``commands`` as a game records them (``domain.game.decide_commands``: the time-out
    after each), the state after and the event types."""
    rs = find_ruleset(state["ruleset"])
    types: list[str] = []
    for command in commands:
        decided = decide_commands(rs, state, [(command, None)], received_at=at(50))
        state = decided[-1][0].state
        types += [step.event.type for step, _ in decided]
    return state, types


def ccg_turn(state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The active CCG seat ends its turn; the next one draws."""
    seat = state["active"]
    state, types = record(state, b.cmd("end_turn", seat))
    if state["status"] == "finished":
        return state, types
    nxt = state["active"]
    return record(state, b.cmd("draw", nxt, card=state["seats"][nxt]["zones"]["deck"][0]))


def called(state: dict[str, Any], extra: int | None = None, result: str | None = None) -> Any:
    steps = round_time.call_time(state, at(35), extra, result)
    assert [s.event.type for s in steps] == ["TimeCalled"]
    return steps[-1].state


def test_ccg_time_plays_five_more_turns_after_turn_zero_then_the_game_is_a_draw() -> None:
    state, _ = b.started_game()
    turn0 = state["turn"]
    state = called(state)
    assert state["time"]["last_turn"] == turn0 + 5
    assert round_time.call_time(state, at(36), None, None) == []  # once
    assert round_time.turns_left(state) == 6
    for _ in range(5):
        state, types = ccg_turn(state)
        assert "GameEnded" not in types and state["status"] == "playing"
    assert state["turn"] == turn0 + 5 and round_time.turns_left(state) == 1
    state, types = ccg_turn(state)
    assert types[-1] == "GameEnded"
    assert (state["status"], state["winner"]) == ("finished", "draw")


def test_a_ccg_event_may_set_its_extra_turns() -> None:
    state, _ = b.started_game()
    state = called(state, extra=0)
    state, types = ccg_turn(state)
    assert types[-1] == "GameEnded" and state["winner"] == "draw"


def test_time_is_not_called_in_a_game_over() -> None:
    state, _ = b.started_game()
    state, _ = record(state, b.cmd("concede", "A"))
    assert state["status"] == "finished"
    assert round_time.call_time(state, at(35), None, None) == []


def classic(seats: int = 4) -> Any:
    g = started("munchkin-deluxe", [], [], seats=seats, mode="record")
    ready_all(g)
    assert g.state["status"] == "playing" and g.state["active"] == "A"
    return g


def classic_turn(state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    return record(state, {"type": "end_turn", "seat": state["active"]})


def test_a_classic_round_of_turns_finishes_so_every_seat_had_as_many_turns() -> None:
    g = classic(4)
    state, _ = classic_turn(g.state)  # A -> B: time is called in B's turn
    assert state["active"] == "B" and state["first"] == "A"
    state = called(state)
    assert state["time"]["extra_turns"] == 2  # C and D finish the round
    state, types = classic_turn(state)  # B -> C
    state, types = classic_turn(state)  # C -> D
    assert state["status"] == "playing" and "GameWon" not in types
    state, types = classic_turn(state)  # D ends the round
    assert types[-1] == "GameWon"
    assert state["status"] == "finished" and sorted(state["winners"]) == ["A", "B", "C", "D"]


def test_a_classic_table_at_time_by_highest_level_ties_sharing_the_place() -> None:
    g = classic(3)
    state = g.state
    seats = dict(state["seats"])
    for seat, level in (("A", 4), ("B", 6), ("C", 6)):
        seats[seat] = {**seats[seat], "level": level}
    state = {**state, "seats": seats}
    state = called(state, extra=0, result="highest_level")  # A's turn ends the game
    state, types = classic_turn(state)
    assert types[-1] == "GameWon" and sorted(state["winners"]) == ["B", "C"]
    places = find_ruleset("munchkin-deluxe").places(state)  # type: ignore[attr-defined]
    assert places == {"B": 1, "C": 1, "A": 3}


def test_time_options_are_checked() -> None:
    assert clock.time_options({"extra_turns": 3}, tables=False) == {"extra_turns": 3}
    assert clock.time_options({"time_result": "draw"}, tables=True) == {"time_result": "draw"}
    with pytest.raises(Exception) as refused:
        clock.time_options({"time_result": "draw"}, tables=False)
    assert getattr(refused.value, "code", None) == "request/invalid_time_result"


def test_time_called_and_the_end_at_time_read_in_words() -> None:
    from projections.exports.narration import narrate

    state, _ = b.started_game()
    steps = round_time.call_time(state, at(35), None, None)
    entry = {"type": "TimeCalled", "seat": "rules", "data": steps[0].event.to_dict()}
    text = " ".join(narrate(entry, steps[0].state))
    assert "time is called" in text and "5 more turns after this one" in text


def test_time_called_at_a_classic_table_before_its_first_turn_leaves_a_whole_round() -> None:
    g = started("munchkin-deluxe", [], [], seats=3, mode="record")  # dealt, not yet ready
    assert g.state["status"] == "setup"
    steps = round_time.call_time(g.state, at(35), None, None)
    g.state = steps[-1].state
    assert (g.state["time"]["extra_turns"], g.state["time"]["last_turn"]) == (3, 3)
    ready_all(g)
    state = g.state
    assert state["status"] == "playing"
    for _ in range(2):
        state, types = classic_turn(state)
        assert "GameWon" not in types
    state, types = classic_turn(state)  # the third seat's turn ends the round
    assert types[-1] == "GameWon" and state["status"] == "finished"
