"""A backup ruling puts any game back exactly at any earlier point (docs/rules.md A.14), and the
stream stays a valid hash chain.

For random games (``tests.unit.seeded_games.play``), a random "now" and a random backup point,
the judge opens a dispute and rules with a backup as the API has them decided:
``domain.judge.decide_dispute``, then ``domain.judge.decide_ruling`` (the ruleset's ``backup``:
one undo per event, newest first, then ``RulingRecorded``); the records are enveloped as
``domain.game.Game`` does (``records_from_events``) and appended to the game's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import apply_record, decide_dispute, decide_ruling, initial_state
from domain.envelope import verify_records
from domain.judge import Claim, RulingRecorded
from projections.replay import invariant_violations
from projections.views import state_view
from tests.unit.seeded_games import play, records_for, records_from_events

SEEDS = 24


@lru_cache(maxsize=SEEDS)
def game_records(seed: int) -> tuple[dict[str, Any], ...]:
    _, events = play(seed, max_events=1500)
    return tuple(records_for(events))


def state_at(records: list[dict[str, Any]], version: int | None = None) -> dict[str, Any]:
    """The state after record ``version`` (all of them by default), folded as a reader does."""
    state = initial_state()
    for record in records if version is None else records[:version]:
        state = apply_record(state, record)
    return state


def restorable(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("version", "disputes")}


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.integers(0, SEEDS - 1), st.data())
def test_the_state_after_a_backup_ruling_is_the_state_at_its_point(seed: int, data: Any) -> None:
    every = game_records(seed)
    now = data.draw(st.integers(2, len(every)), label="now")
    point = data.draw(st.integers(1, now - 1), label="point")
    records = list(every[:now])
    at_point = state_at(records, point)
    current = state_at(records)

    at = "2024-05-01T12:00:00+00:00"
    (opened,) = decide_dispute(current, Claim(raised_by="judge", statement="back up"))
    records += records_from_events(
        [opened.event], received_at=at, state=current, prev_hash=records[-1]["hash"]
    )

    def backup_from(version: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return state_at(records, version), records[version:]

    ruling = {"ruling": "backed up", "backup_to": point, "corrections": []}
    steps = decide_ruling(opened.state, "d1", ruling, backup_from)
    ruled = steps[-1].event
    assert isinstance(ruled, RulingRecorded)
    assert ruled.undone == list(range(now + 1, point, -1))  # newest first, skipping nothing
    undoes = [getattr(step.event, "undoes", None) for step in steps[:-1]]
    assert undoes == sorted(undoes, reverse=True) and set(undoes) <= set(ruled.undone)
    log = records + records_from_events(
        [step.event for step in steps],
        received_at=at,
        state=opened.state,
        prev_hash=records[-1]["hash"],
    )

    verified = verify_records(log)
    assert verified["ok"] and verified["checked"] == len(log), verified
    after = state_at(log)
    assert after == steps[-1].state, "the states decided with the events are the fold's"
    assert restorable(after) == restorable(at_point)
    assert after["disputes"]["d1"]["rulings"][0]["backup_to"] == point
    assert invariant_violations(after) == []
    for viewer in ("A", "B", "spectator"):
        assert restorable(state_view(after, viewer)) == restorable(state_view(at_point, viewer))
