"""The floor's facts as the event's aggregate decides them (docs/rules.md F.8): staff, and a
judge call's states, each refusal triggering nothing; the state folded back from the stored
events is the one decided (events are facts: applying never checks)."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest

from domain.errors import DomainError, RuleViolation
from domain.tournament import calls, rules, staff
from domain.tournament.aggregate import Tournament
from tests.unit.test_tournament_rules import BODY, SEATS


def floor() -> Tournament:
    event = Tournament.open(
        uuid4(), rules.settings_of(BODY), commitment="c", judge_token_hash="j", at="t"
    )
    for name in ("ann", "bob", "cy"):
        event.register(name, f"h-{name}", hero=None, decklist=None, decklist_hash=None, at="t")
    event.pair([{"table": 1, "seats": SEATS, "games": ["g1"]}], ["cy"], revealed=None, at="t")
    staff.add(event, "s1", "Jo", "judge", "h-jo", "t")
    staff.add(event, "s2", "Kim", "judge", "h-kim", "t")
    return event


def refused(event: Tournament, code: str, **act: Any) -> None:
    before = event.version
    with pytest.raises(DomainError) as error:
        calls.act(event, "c1", at="t", note=None, dispute_id=None, **act)
    assert error.value.code == code
    assert event.version == before  # nothing triggered


def test_staff_names_are_unique_and_tokens_resolve_to_members() -> None:
    event = floor()
    with pytest.raises(RuleViolation) as again:
        staff.add(event, "s3", "Jo", "scorekeeper", "h-x", "t")
    assert again.value.code == "rule/staff_named" and "s3" not in staff.staff_of(event)
    assert staff.member_for(event, "h-kim")["staff_id"] == "s2"
    assert staff.member_for(event, "j")["staff_id"] == staff.EVENT_JUDGE
    assert staff.member_for(event, "h-ann") is None
    assert [m["name"] for m in staff.roster(event)] == ["head judge", "Jo", "Kim"]
    assert all("token_hash" not in m for m in staff.roster(event))


def test_a_call_goes_open_claimed_escalated_resolved_and_refusals_trigger_nothing() -> None:
    event = floor()
    raised = {"table": 1, "game_id": "g1", "version": 5, "raised_by": "ann", "via": "seat"}
    calls.raise_call(event, call_id="c1", note="n", at="t0", **raised)
    call = calls.calls_of(event)["c1"]
    assert (call["state"], call["round"], call["claimed_by"]) == ("open", 1, None)
    calls.act(event, "c1", "claim", by="s1", head=False, note=None, dispute_id=None, at="t1")
    assert (call["state"], call["claimed_by"]) == ("claimed", "s1")
    refused(event, "rule/call_claimed", action="claim", by="s2", head=False)
    refused(event, "rule/call_claimed", action="claim", by="s1", head=False)
    refused(event, "rule/call_claimed", action="resolve", by="s2", head=False)
    calls.act(event, "c1", "escalate", by="s1", head=False, note="hj", dispute_id=None, at="t2")
    assert (call["state"], call["claimed_by"], call["escalated"]) == ("escalated", None, True)
    refused(event, "rule/escalated_to_head_judges", action="claim", by="s2", head=False)
    refused(event, "rule/call_escalated", action="escalate", by="hj", head=True)
    calls.act(event, "c1", "claim", by="hj", head=True, note=None, dispute_id=None, at="t3")
    assert (call["state"], call["claimed_by"]) == ("escalated", "hj")
    calls.act(event, "c1", "resolve", by="hj", head=True, note="ok", dispute_id="d1", at="t4")
    assert call["state"] == "resolved" and call["resolution"]["dispute_id"] == "d1"
    refused(event, "rule/call_resolved", action="claim", by="hj", head=True)
    with pytest.raises(DomainError) as missing:
        calls.act(event, "c9", "claim", by="s1", head=False, note=None, dispute_id=None, at="t")
    assert missing.value.code == "event/call_not_found"
    assert [a["action"] for a in call["actions"]] == ["claim", "escalate", "claim", "resolve"]
    # folded again from its events, the event is the one decided
    again = None
    for stored in event.collect_events():
        again = stored.mutate(again)
    assert calls.calls_of(again) == calls.calls_of(event)
    assert staff.staff_of(again) == staff.staff_of(event)


def test_a_dispute_goes_with_resolve_only() -> None:
    event = floor()
    raised = {"table": 1, "game_id": "g1", "version": 5, "raised_by": "ann", "via": "player"}
    calls.raise_call(event, call_id="c1", note="", at="t0", **raised)
    before = event.version
    with pytest.raises(DomainError) as error:
        calls.act(event, "c1", "claim", by="s1", head=False, note=None, dispute_id="d", at="t")
    assert error.value.code == "request/invalid_field" and event.version == before
