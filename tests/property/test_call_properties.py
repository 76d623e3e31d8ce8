"""A judge call's states under any sequence of actions by any judges (docs/rules.md F.8):
every action either triggers exactly one event or is refused triggering none; a resolved call
never changes again; only a head judge acts on an escalated call; the call folded back from
its events is the one decided."""

from __future__ import annotations

from uuid import uuid4

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.tournament import calls, rules
from domain.tournament.aggregate import Tournament

JUDGES = {"hj": True, "s1": False, "s2": False}  # staff id -> a head judge?
STEPS = st.lists(
    st.tuples(st.sampled_from(calls.ACTIONS), st.sampled_from(sorted(JUDGES))), max_size=12
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(steps=STEPS)
def test_a_call_under_any_actions(steps: list[tuple[str, str]]) -> None:
    body = {"name": "n", "ruleset": "munchkin-ccg", "format": "casual", "round_minutes": 35}
    event = Tournament.open(
        uuid4(), rules.settings_of(body), commitment="c", judge_token_hash="j", at="t"
    )
    raised = {"table": 1, "game_id": "g", "version": 1, "raised_by": "ann", "via": "player"}
    calls.raise_call(event, call_id="c", note="", at="t", **raised)
    call = calls.calls_of(event)["c"]
    for action, by in steps:
        before, was = event.version, {**call, "actions": list(call["actions"])}
        try:
            calls.act(
                event, "c", action, by=by, head=JUDGES[by], note=None, dispute_id=None, at="t"
            )
        except DomainError:
            assert event.version == before and call == was  # refused: nothing happened
            continue
        assert event.version == before + 1
        assert was["state"] != "resolved"  # nothing follows a resolution
        if was["state"] == "escalated":
            assert JUDGES[by]  # only a head judge acts on an escalated call
        if was["claimed_by"] not in (None, by):
            assert JUDGES[by]  # only a head judge takes over another judge's call
        assert call["state"] in calls.STATES
    again = None
    for stored in event.collect_events():
        again = stored.mutate(again)
    assert calls.calls_of(again) == calls.calls_of(event)
