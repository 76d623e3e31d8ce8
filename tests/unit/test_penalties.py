"""Penalties (docs/rules.md F.5, domain/penalties.py, domain/judge.py): a penalty that ends the
game is the seat's concession recorded by the rules, in both families; a repeated infraction is
upgraded as the Magic Infraction Procedure Guide (IPG) says; the ruling's stored shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import event_from_dict, evolve
from domain.errors import InvalidCommand
from domain.fold import State
from domain.judge import Claim, RulingRecorded, decide_dispute, decide_ruling
from domain.narration import Narrator
from domain.penalties import (
    ENDS_GAME,
    INFRACTIONS,
    PENALTIES,
    described,
    escalate,
    infraction_label,
    ordinal,
    repeat_at_least,
    upgrade_label,
)
from domain.penalties import given as given_kind
from domain.ruleset import Step, ruleset_of
from tests.builders import started_game
from tests.classic.helpers import Game, ready_all, started

#: The upgrades as the IPG's text states them (written here from the guide, not from the code):
#: the kind given, how many earlier ones of it for the same infraction, what it becomes.
IPG_UPGRADES: dict[str, tuple[str, int, str] | None] = {
    # IPG 2 (introduction): "the third or subsequent warning" of one Game Play Error category
    "game_play_error.looking_at_extra_cards": ("warning", 2, "game_loss"),
    "game_play_error.game_rule_violation": ("warning", 2, "game_loss"),
    # ... "With the exception of Failure to Maintain Game State, which is never upgraded"
    "game_play_error.failure_to_maintain_game_state": None,
    # IPG 3 (introduction): a Warning after "a Warning for an offense in the same category"
    "tournament_error.slow_play": ("warning", 1, "game_loss"),
    "tournament_error.marked_cards": ("warning", 1, "game_loss"),
    # IPG 4.1: subsequent Unsporting Conduct — Minor infractions are a Game Loss
    "unsporting_conduct.minor": ("warning", 1, "game_loss"),
    # IPG 4.2: Match Loss; repeated, a Disqualification
    "unsporting_conduct.major": ("match_loss", 1, "disqualification"),
    # IPG 4.8: a Disqualification already
    "unsporting_conduct.cheating": None,
}


def no_backup(point: int) -> tuple[State, list[Any]]:
    raise AssertionError("no backup in these rulings")


def disputed(state: State) -> tuple[State, str]:
    """``state`` with a dispute opened by the judge: the state after it and the dispute's id."""
    (step,) = decide_dispute(state, Claim(raised_by="judge", statement="called"))
    return step.state, str(step.event.dispute)  # type: ignore[attr-defined]


def rule(state: State, kind: str, seat: str, **more: Any) -> list[Step]:
    """The judge's steps for a ruling giving ``kind`` to ``seat`` (``more``: the penalty's)."""
    state, dispute = disputed(state)
    ruling = {"ruling": "penalised", "penalty": {"kind": kind, "seat": seat, **more}}
    return decide_ruling(state, dispute, ruling, no_backup)


def conceded(state: State, seat: str) -> State:
    """The state after ``seat``'s own concession (the ruleset's ``concede``)."""
    steps = ruleset_of(state).decide(state, {"type": "concede", "seat": seat})
    return steps[-1].state


def game_part(state: State) -> dict[str, Any]:
    """What the game is, apart from the judge's record and the count of events."""
    return {k: v for k, v in state.items() if k not in ("version", "disputes")}


# ---------------------------------------------------------------------------- the upgrades


@pytest.mark.parametrize(("infraction", "upgrade"), sorted(IPG_UPGRADES.items()))
def test_a_repeated_infraction_is_upgraded_at_the_ipg_count(
    infraction: str, upgrade: tuple[str, int, str] | None
) -> None:
    for kind in PENALTIES:
        for earlier in range(5):
            expected = kind
            if upgrade is not None and kind == upgrade[0] and earlier >= upgrade[1]:
                expected = upgrade[2]
            assert escalate(kind, infraction, earlier) == expected, (kind, earlier)


def test_every_infraction_of_a_class_upgrades_as_its_ipg_section_says() -> None:
    """The classes follow the IPG's sections: 2 Game Play Errors (2.6 never upgraded), 3
    Tournament Errors, 4 Unsporting Conduct (only 4.1 and 4.2 upgrade)."""
    for name, infraction in INFRACTIONS.items():
        section = infraction.section.split(".")[0]
        prefix = {"2": "game_play_error.", "3": "tournament_error.", "4": "unsporting_conduct."}
        assert name.startswith(prefix[section]), name
        upgrade = infraction.upgrade
        if infraction.section in ("2.6", "4.3", "4.4", "4.5", "4.6", "4.7", "4.8"):
            assert upgrade is None, name
        else:
            assert upgrade is not None, name
            after = 2 if section == "2" else 1
            assert (upgrade.after, upgrade.to) == (
                after,
                "disqualification" if infraction.section == "4.2" else "game_loss",
            ), name


@given(
    st.sampled_from(PENALTIES),
    st.one_of(st.none(), st.sampled_from(sorted(INFRACTIONS)), st.text(max_size=8)),
    st.integers(0, 20),
)
def test_an_upgrade_never_softens_a_penalty_and_needs_an_earlier_one(
    kind: str, infraction: str | None, earlier: int
) -> None:
    upgraded = escalate(kind, infraction, earlier)
    assert PENALTIES.index(upgraded) >= PENALTIES.index(kind)
    assert escalate(kind, infraction, 0) == kind  # a first offense is never upgraded
    if infraction not in INFRACTIONS:
        assert upgraded == kind


def test_an_upgraded_ruling_counts_as_the_penalty_given() -> None:
    assert given_kind({"penalty": "game_loss", "escalated_from": "warning"}) == "warning"
    assert given_kind({"penalty": "warning"}) == "warning"
    assert given_kind({"penalty": None}) is None


# ---------------------------------------------------------------------------- the CCG


def test_a_game_loss_ends_a_ccg_game_as_a_concession_the_other_player_winning() -> None:
    state, _ = started_game()
    steps = rule(state, "game_loss", "B")
    ruled = steps[0].state["version"]  # the RulingRecorded's version
    assert [s.event.type for s in steps] == [
        "RulingRecorded",
        "PlayerConceded",
        "PlayerEliminated",
        "GameEnded",
    ]
    after = steps[-1].state
    assert after["status"] == "finished" and after["winner"] == "A"
    # recorded by the rules, the first caused by the ruling, the rest by the first
    assert all(s.event.seat == "rules" for s in steps[1:])
    assert steps[1].event.cause == ruled
    assert all(s.event.cause == ruled + 1 for s in steps[2:])
    # the game ends exactly as B's own concession ends it
    assert game_part(after) == game_part(conceded(state, "B"))
    # each step's state is its event folded on the one before
    work = steps[0].state
    for step in steps[1:]:
        work = evolve(work, step.event)
        assert work == step.state


@pytest.mark.parametrize("kind", sorted(ENDS_GAME))
def test_every_game_ending_penalty_ends_the_game_for_the_penalised_seat(kind: str) -> None:
    state, _ = started_game(seed=3)
    after = rule(state, kind, "A")[-1].state
    assert after["status"] == "finished" and after["winner"] == "B"


@pytest.mark.parametrize("kind", ["caution", "warning"])
def test_a_lesser_penalty_is_a_record_only(kind: str) -> None:
    state, _ = started_game()
    steps = rule(state, kind, "B")
    assert [s.event.type for s in steps] == ["RulingRecorded"]
    assert steps[-1].state["status"] == "playing"


def test_a_game_loss_in_a_game_over_is_recorded_and_nothing_more() -> None:
    state, _ = started_game()
    over = conceded(state, "A")
    steps = rule(over, "game_loss", "B")
    assert [s.event.type for s in steps] == ["RulingRecorded"]
    assert steps[-1].state["winner"] == "B"  # the result stands


def test_a_penalty_to_a_seat_not_in_the_game_is_refused() -> None:
    state, _ = started_game()
    with pytest.raises(InvalidCommand) as info:
        rule(state, "warning", "C")
    assert info.value.code == "request/invalid_seat"
    assert set(info.value.fields) == {"penalty.seat"}


def test_the_count_given_upgrades_the_ruling_which_then_ends_the_game() -> None:
    state, _ = started_game()
    once = rule(state, "warning", "B", infraction="tournament_error.slow_play")
    assert [s.event.type for s in once] == ["RulingRecorded"]
    first = once[0].event
    assert isinstance(first, RulingRecorded)
    assert (first.penalty, first.escalated_from) == ("warning", None)
    again = rule(state, "warning", "B", infraction="tournament_error.slow_play", earlier=1)
    recorded = again[0].event
    assert isinstance(recorded, RulingRecorded)
    assert (recorded.penalty, recorded.escalated_from) == ("game_loss", "warning")
    assert recorded.infraction == "tournament_error.slow_play"
    assert again[-1].state["status"] == "finished" and again[-1].state["winner"] == "A"
    (entry,) = again[0].state["disputes"]["d1"]["rulings"]
    assert (entry["penalty"], entry["escalated_from"]) == ("game_loss", "warning")
    # a Game Play Error needs two earlier warnings: one is not enough
    gpe = rule(state, "warning", "B", infraction="game_play_error.game_rule_violation", earlier=1)
    assert [s.event.type for s in gpe] == ["RulingRecorded"]


# ---------------------------------------------------------------------------- classic


def classic_table(seats: int = 4) -> Game:
    g = started("munchkin-deluxe", [], [], seats)
    ready_all(g)
    assert g.state["status"] == "playing" and g.state["active"] == "A"
    return g


def test_a_game_loss_takes_a_classic_seat_out_and_the_table_plays_on() -> None:
    g = classic_table(4)
    steps = rule(g.state, "game_loss", "A")  # the active seat: its turn passes
    assert steps[0].event.type == "RulingRecorded"
    assert steps[1].event.type == "ClassicConceded"
    assert all(s.event.seat == "rules" for s in steps[1:])
    after = steps[-1].state
    assert after["status"] == "playing"
    assert after["seats"]["A"]["eliminated"] == "conceded"
    assert after["active"] == "B"
    assert game_part(after) == game_part(conceded(g.state, "A"))


def test_a_game_loss_at_a_table_of_two_left_ends_it_for_the_last_one() -> None:
    g = classic_table(3)
    g.do("C", "concede")
    after = rule(g.state, "disqualification", "B")[-1].state
    assert after["status"] == "finished" and after["winners"] == ["A"]


def test_a_seat_already_out_is_not_taken_out_again() -> None:
    g = classic_table(4)
    g.do("C", "concede")
    steps = rule(g.state, "game_loss", "C")
    assert [s.event.type for s in steps] == ["RulingRecorded"]


# ---------------------------------------------------------------------------- stored shape


def test_a_ruling_without_an_infraction_is_stored_as_version_1_was() -> None:
    """Stored rulings keep their bytes (and hashes): version 2 only adds two fields."""
    plain = RulingRecorded(seat="judge", dispute="d1", ruling="ok", penalty="warning", player="A")
    stored = plain.to_dict()
    assert stored["v"] == 1 and "infraction" not in stored and "escalated_from" not in stored
    written_by_version_1 = {
        "type": "RulingRecorded",
        "v": 1,
        "seat": "judge",
        "cause": None,
        "violation": None,
        "dispute": "d1",
        "ruling": "ok",
        "penalty": "warning",
        "player": "A",
        "backup_to": None,
        "undone": [],
        "corrections": [],
    }
    assert json.dumps(stored) == json.dumps(written_by_version_1)
    assert event_from_dict(written_by_version_1) == plain
    named = RulingRecorded(
        seat="judge",
        dispute="d1",
        ruling="ok",
        penalty="game_loss",
        player="A",
        infraction="tournament_error.slow_play",
        escalated_from="warning",
    )
    data = json.loads(json.dumps(named.to_dict()))
    assert data["v"] == 2 and event_from_dict(data) == named


def test_an_older_state_keeps_its_shape_and_a_named_ruling_adds_its_fields() -> None:
    state, _ = started_game()
    plain = rule(state, "warning", "B")[-1].state["disputes"]["d1"]["rulings"][0]
    assert "infraction" not in plain and "escalated_from" not in plain
    named = rule(state, "warning", "B", infraction="unsporting_conduct.minor")
    entry = named[-1].state["disputes"]["d1"]["rulings"][0]
    assert entry["infraction"] == "unsporting_conduct.minor" and "escalated_from" not in entry


# ---------------------------------------------------------------------------- in words


@pytest.mark.parametrize(("infraction", "upgrade"), sorted(IPG_UPGRADES.items()))
def test_an_upgraded_ruling_reads_as_at_least_the_guides_count(
    infraction: str, upgrade: tuple[str, int, str] | None
) -> None:
    """The count is not stored: an upgraded ruling is at least the (earlier + 1)-th, as the
    guide's text above says (the 2nd Tournament Error Warning, the 3rd Game Play Error one)."""
    for kind in PENALTIES:
        for to in PENALTIES:
            expected = (
                upgrade[1] + 1 if upgrade is not None and upgrade[::2] == (kind, to) else None
            )
            assert repeat_at_least(infraction, kind, to) == expected, (kind, to)


def test_a_ruling_is_described_by_the_guides_name_section_and_count() -> None:
    upgraded = {"penalty": "game_loss", "escalated_from": "warning"}
    gpe = "game_play_error.game_rule_violation"
    assert described({**upgraded, "infraction": gpe}) == {
        "infraction_name": "Game Rule Violation",
        "ipg_section": "2.5",
        "repeat_at_least": 3,  # IPG 2: "the third or subsequent warning"
    }
    assert described({"penalty": "warning", "infraction": gpe}) == {
        "infraction_name": "Game Rule Violation",
        "ipg_section": "2.5",
    }
    assert described({"penalty": "warning"}) == {}
    # an infraction or upgrade the guide does not have: nothing claimed of it
    assert described({**upgraded, "infraction": "house_rule.too_loud"}) == {}
    assert infraction_label("house_rule.too_loud") == "house_rule.too_loud"
    assert upgrade_label("house_rule.too_loud", "warning", "game_loss") == "upgraded from warning"
    assert infraction_label("unsporting_conduct.major") == "Unsporting Conduct — Major (IPG 4.2)"
    assert upgrade_label("unsporting_conduct.major", "match_loss", "disqualification") == (
        "upgraded from match_loss as a repeat: at least the 2nd match_loss for it in the event"
    )
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip


def told(**data: Any) -> str:
    """The narration of a ruling with ``data`` (the transcript's and the viewer's sentence)."""
    entry = {"type": "RulingRecorded", "seat": "judge", "data": {"dispute": "d1", **data}}
    (phrase,) = Narrator({}, ["A", "B"]).describe(entry)
    return phrase.render(with_actor=False)


def test_the_narration_of_a_ruling_names_its_infraction_and_its_upgrade() -> None:
    assert told(ruling="ok") == "rules on d1: ok"
    assert told(ruling="ok", penalty="warning", player="B") == "rules on d1: ok (warning for B)"
    named = {"ruling": "slow", "player": "B", "infraction": "tournament_error.slow_play"}
    assert told(**named, penalty="warning") == (
        "rules on d1: slow (warning for B: Slow Play (IPG 3.3))"
    )
    assert told(**named, penalty="game_loss", escalated_from="warning") == (
        "rules on d1: slow (game_loss for B: Slow Play (IPG 3.3); upgraded from warning as a "
        "repeat: at least the 2nd warning for it in the event)"
    )
