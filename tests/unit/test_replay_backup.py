"""Judge tools (projections/replay.py) and correction events (domain/ccg/corrections.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import domain.judge as judge
from domain import event_from_dict, evolve, initial_state
from domain.ccg.corrections import backup_events
from domain.ccg.state import SEATS, ZONES
from domain.events import Event
from domain.ruleset import BackupImpossible
from projections.exports import replay_records
from projections.replay import ReplayIndex, diff_view, invariant_violations, state_diff
from projections.views import event_view
from tests.unit.seeded_games import play, records_for, records_from_events

SEEDS = (0, 3, 7, 11, 19)


def states_of(events: list[Event]) -> list[dict[str, Any]]:
    """The state at every version: index ``v`` is the state after event ``v``."""
    states = [initial_state()]
    for event in events:
        states.append(evolve(states[-1], event))
    return states


@pytest.fixture(scope="module", params=SEEDS)
def game(request: pytest.FixtureRequest) -> tuple[list[Event], list[dict[str, Any]]]:
    _, events = play(request.param)
    return events, states_of(events)


def without_version(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "version"}


def apply(state: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    for event in events:
        state = evolve(state, event)
    return state


def backup(point: dict[str, Any], current: dict[str, Any]) -> list[Event]:
    """``backup_events``' events, checking that each step's state is its event folded."""
    steps = backup_events(point, current)
    state = current
    for step in steps:
        state = evolve(state, step.event)
        assert step.state == state
    return [step.event for step in steps]


# ---------------------------------------------------------------------------- backup


def test_a_backup_restores_any_other_state_of_the_game_exactly(game: Any) -> None:
    events, states = game
    rng = random.Random(len(events))
    pairs = [(1, len(states) - 1), (len(states) - 1, 1)]
    pairs += [(rng.randrange(1, len(states)), rng.randrange(1, len(states))) for _ in range(40)]
    for point, now in pairs:
        restored = apply(states[now], backup(states[point], states[now]))
        assert without_version(restored) == without_version(states[point]), (point, now)
        for seat in SEATS:
            for zone in ZONES:
                assert (
                    restored["seats"][seat]["zones"][zone]
                    == states[point]["seats"][seat]["zones"][zone]
                )
        assert restored["dmz"] == states[point]["dmz"]


def test_a_backup_log_replays_through_the_rules(game: Any) -> None:
    events, states = game
    rng = random.Random(7)
    records = records_for(events)
    for _ in range(3):
        point, now = rng.randrange(1, len(states)), rng.randrange(1, len(states))
        restorations = backup(states[point], states[now])
        log = records[:now] + records_from_events(
            restorations,
            received_at="2024-05-01T12:00:00+00:00",
            state=states[now],
            prev_hash=records[now - 1]["hash"],
        )
        assert without_version(replay_records(log)) == without_version(states[point])


def test_every_state_between_backup_events_keeps_the_invariants(game: Any) -> None:
    _, states = game
    for point, now in ((5, len(states) - 1), (len(states) - 1, 5), (len(states) // 2, 40)):
        state = states[now]
        for event in backup(states[point], states[now]):
            state = evolve(state, event)
            assert invariant_violations(state) == [], (point, now, event)


def test_backing_up_to_the_current_state_changes_nothing(game: Any) -> None:
    _, states = game
    assert backup(states[-1], states[-1]) == []
    assert backup(states[30], dict(states[30])) == []


def test_backup_events_are_plain_data_that_load_back(game: Any) -> None:
    _, states = game
    for event in backup(states[10], states[-1]):
        assert event.seat == "judge"
        data = json.loads(json.dumps(event.to_dict()))
        assert event_from_dict(data) == event


def test_a_backup_refuses_states_of_another_game() -> None:
    _, a = play(1)
    _, b = play(2)
    with pytest.raises(BackupImpossible):
        backup(states_of(a)[-1], states_of(b)[-1])
    with pytest.raises(BackupImpossible):
        backup(initial_state(), states_of(a)[-1])


def test_a_backup_never_shows_the_defender_a_face_down_attack_card() -> None:
    """A face-down attack card the defender never learns (never revealed later in the game):
    backing up to the fight must not name it to the defender either."""
    _, events = play(3)
    states = states_of(events)
    point = next(
        v
        for v, s in enumerate(states)
        if s.get("fight")
        and s["fight"]["card"]
        and not s["fight"]["revealed"]
        and s["fight"]["defender"] not in states[-1]["cards"][s["fight"]["card"]]["known"]
    )
    fight = states[point]["fight"]
    secret, defender = fight["card"], fight["defender"]
    assert defender not in states[point]["cards"][secret]["known"]
    restorations = backup(states[point], states[-1])
    records = records_from_events(
        restorations, received_at="2024-05-01T12:00:00+00:00", state=states[-1]
    )
    seen = json.dumps([event_view(r, defender) for r in records])
    assert secret not in seen and fight["salt"] not in seen
    as_judge = json.dumps([event_view(r, "judge") for r in records])
    assert secret in as_judge and fight["salt"] in as_judge


def test_disputes_and_rulings_outlive_a_backup(game: Any) -> None:
    _, states = game
    now = apply(
        states[-1],
        [
            judge.DisputeOpened(seat="B", dispute="d1", raised_by="B", note="too fast", about=20),
            judge.RulingRecorded(
                seat="judge", dispute="d1", ruling="back up", penalty="warning", player="A"
            ),
        ],
    )
    restored = apply(now, backup(states[20], now))
    assert restored["disputes"]["d1"]["raised_by"] == "B"
    assert restored["disputes"]["d1"]["rulings"][0]["penalty"] == "warning"
    assert without_version({k: v for k, v in restored.items() if k != "disputes"}) == (
        without_version(states[20])
    )


# ---------------------------------------------------------------------------- invariants


def test_every_state_of_a_random_game_keeps_the_invariants(game: Any) -> None:
    _, states = game
    for version, state in enumerate(states):
        assert invariant_violations(state) == [], version


def test_invariants_catch_a_card_in_two_zones(game: Any) -> None:
    _, states = game
    broken = json.loads(json.dumps(states[-1]))
    deck = broken["seats"]["A"]["zones"]["deck"]
    broken["seats"]["A"]["zones"]["hand"].append(deck[0])
    assert any(
        "in ['deck', 'hand']" in p or "in ['hand', 'deck']" in p
        for p in invariant_violations(broken)
    )
    broken["seats"]["B"]["level"] = 11
    assert any("level 11" in p for p in invariant_violations(broken))


# ---------------------------------------------------------------------------- turns, causes


def index_of(records: list[dict[str, Any]]) -> ReplayIndex:
    index = ReplayIndex()
    index.extend(records)
    return index


def test_the_replay_index_puts_every_version_in_one_turn(game: Any) -> None:
    events, states = game
    records = records_for(events)
    index = index_of(records)
    assert index.turns[0][0] == 1
    covered = [v for versions in index.turns.values() for v in versions]
    assert sorted(covered) == list(range(1, len(records) + 1))
    for turn, versions in index.turns.items():
        if turn:
            assert records[versions[0] - 1]["event"]["type"] == "TurnStarted"
            assert all(states[v]["turn"] == turn for v in versions)
            assert all(index.turn_of(v) == turn for v in versions)


def test_causes_and_effects_mirror_each_other(game: Any) -> None:
    events, _ = game
    records = records_for(events)
    index = index_of(records)
    for record in records:
        version, cause = record["version"], record["event"]["cause"]
        chain = index.causes(version)
        if cause is None:
            assert chain == []
        else:
            assert chain[0] == cause
            assert records[chain[-1] - 1]["event"]["cause"] is None
            assert version in index.effects(cause)
    root = next(r["version"] for r in records if r["event"]["type"] == "FightStarted")
    assert all(root in index.causes(v) for v in index.effects(root))


def test_the_replay_index_folds_to_the_last_version(game: Any) -> None:
    events, states = game
    index = index_of(records_for(events))
    assert index.version == len(events)
    assert index.state == states[-1]


# ---------------------------------------------------------------------------- diffs


def test_a_draw_is_a_move_from_deck_to_hand_that_the_opponent_sees_without_the_card(
    game: Any,
) -> None:
    events, states = game
    v = next(i for i, e in enumerate(events, 1) if e.type == "CardDrawn")
    drawer = events[v - 1].to_dict()["player"]
    diff = state_diff(states[v - 1], states[v])
    (moved,) = diff["moved"]
    assert (moved["from"], moved["to"], moved["owner"]) == ("deck", "hand", drawer)
    assert diff["seats"][drawer]["hand_count"][1] == diff["seats"][drawer]["hand_count"][0] + 1
    mine = diff_view(diff, states[v - 1], states[v], drawer)
    theirs = diff_view(diff, states[v - 1], states[v], "B" if drawer == "A" else "A")
    assert mine["moved"][0]["card"] == moved["card"] and mine["moved"][0]["name"]
    assert theirs["moved"][0]["card"] is None and theirs["moved"][0]["name"] is None
    assert theirs["moved"][0]["to"] == "hand"


def test_a_diff_reports_gold_level_and_table_changes(game: Any) -> None:
    _, states = game
    diff = state_diff(states[1], states[-1])
    assert diff["versions"] == [1, len(states) - 1]
    assert diff["table"]["status"] == ["setup", "finished"]
    changed = 0
    for seat in SEATS:
        for key in ("gold", "level"):
            was, now = states[1]["seats"][seat][key], states[-1]["seats"][seat][key]
            assert diff["seats"].get(seat, {}).get(key) == ([was, now] if was != now else None)
            changed += was != now
    assert changed, "a whole game changes some purse or level"
    assert diff["moved"]


def test_a_diff_hides_the_face_down_attack_card_from_the_defender() -> None:
    _, events = play(3)
    states = states_of(events)
    v = next(i for i, e in enumerate(events, 1) if e.type == "AttackCardCommitted")
    diff = state_diff(states[v - 1], states[v])
    defender = states[v]["fight"]["defender"]
    seen = json.dumps(diff_view(diff, states[v - 1], states[v], defender))
    assert states[v]["fight"]["card"] not in seen and states[v]["fight"]["salt"] not in seen
    judge = diff_view(diff, states[v - 1], states[v], "judge")
    assert judge["fight"]["to"]["card"] == states[v]["fight"]["card"]
