"""A backup ruling puts any game back exactly at any earlier point (RULES.md A.14), and the
stream stays a valid hash chain.

For random games (``tests.unit.seeded_games.play``), a random "now" and a random backup point,
the ruling is built as the API builds it: ``projections.replay.undo_steps`` (one undo per
event, newest first), then ``RulingRecorded``; the records are enveloped as ``domain.game.Game``
does (``records_from_events``) and appended to the game's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain.corrections as corr
from domain.envelope import verify_records
from projections.replay import invariant_violations, state_at, undo_steps
from projections.views import state_view
from tests.unit.seeded_games import play, records_for, records_from_events

SEEDS = 24


@lru_cache(maxsize=SEEDS)
def game_records(seed: int) -> tuple[dict[str, Any], ...]:
    _, events = play(seed, max_events=1500)
    return tuple(records_for(events))


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

    steps = undo_steps(at_point, records[point:])
    undone = [version for version, _ in steps]
    assert undone == list(range(now, point, -1))  # newest first, skipping nothing
    ruling = corr.RulingRecorded(
        seat="judge", dispute="d1", ruling="backed up", backup_to=point, undone=undone
    )
    judge_events = [e for _, events in steps for e in events] + [ruling]
    for version, events in steps:
        assert all(getattr(e, "undoes", None) == version for e in events)
    log = records + records_from_events(
        judge_events,
        received_at="2024-05-01T12:00:00+00:00",
        state=current,
        prev_hash=records[-1]["hash"],
    )

    verified = verify_records(log)
    assert verified["ok"] and verified["checked"] == len(log), verified
    after = state_at(log)
    assert restorable(after) == restorable(at_point)
    assert after["disputes"]["d1"]["rulings"][0]["backup_to"] == point
    assert invariant_violations(after) == []
    for viewer in ("A", "B", "spectator"):
        assert restorable(state_view(after, viewer)) == restorable(state_view(at_point, viewer))
