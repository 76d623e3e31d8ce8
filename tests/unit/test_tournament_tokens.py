"""A token reissued and a dropped player brought back, as the event's aggregate decides them
(issue #44, ``domain.tournament.tokens``): each refusal triggers nothing, and the state folded
back from the stored events is the one decided."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.errors import DomainError
from domain.tournament import staff, tokens
from domain.tournament.aggregate import Tournament
from tests.unit.test_tournament_floor import floor


def refused(event: Tournament, code: str, decide: Callable[..., None], *args: str) -> None:
    before = event.version
    with pytest.raises(DomainError) as error:
        decide(event, *args)
    assert error.value.code == code
    assert event.version == before


def folded(event: Tournament) -> Tournament:
    again: Tournament | None = None
    for stored in event.collect_events():
        again = stored.mutate(again)  # type: ignore[assignment]
    assert again is not None
    return again


def test_a_new_token_replaces_the_old_one_and_the_seats_stay_derived_from_the_first() -> None:
    event = floor()
    tokens.reissue_player(event, "ann", "h-ann-2", "organizer", "t1")
    tokens.reissue_player(event, "ann", "h-ann-3", "judge", "t2")
    tokens.reissue_staff(event, "s1", "h-jo-2", "organizer", "t3")
    refused(event, "event/player_not_found", tokens.reissue_player, "zed", "h", "organizer", "t")
    refused(event, "event/staff_not_found", tokens.reissue_staff, "s9", "h", "organizer", "t")
    refused(event, "rule/event_judge_token", tokens.reissue_staff, staff.EVENT_JUDGE, "h", "o", "t")
    for state in (event, folded(event)):
        assert state.role_for("h-ann") is None and state.role_for("h-ann-3") == ("player", "ann")
        assert tokens.seat_basis(state.players["ann"]) == "h-ann"  # as registered
        assert tokens.seat_basis(state.players["bob"]) == "h-bob"
        assert staff.member_for(state, "h-jo") is None
        assert staff.member_for(state, "h-jo-2")["staff_id"] == "s1"


def test_a_dropped_player_comes_back_only_before_the_next_round() -> None:
    event = floor()  # round 1 paired
    refused(event, "rule/not_dropped", tokens.readmit, "ann", "organizer", "t")
    refused(event, "event/player_not_found", tokens.readmit, "zed", "organizer", "t")
    event.drop("ann", at="t")
    staff.dropped(event, "ann", "organizer", "t")
    tokens.readmit(event, "ann", "scorekeeper:s3", "t")
    for state in (event, folded(event)):
        assert state.players["ann"]["dropped_after"] is None and "ann" in state.active()
        assert "ann" not in staff.drops_by(state)
    event.disqualify("bob", game_id="g1", version=3, at="t")
    refused(event, "rule/disqualified", tokens.readmit, "bob", "organizer", "t")
    event.drop("ann", at="t")
    event.pair([], ["ann", "cy"], revealed=None, at="t")
    refused(event, "rule/round_paired_since_drop", tokens.readmit, "ann", "organizer", "t")
