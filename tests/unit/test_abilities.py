"""Abilities, Mischief, interrupts and the stack (docs/rules.md A.5, A.11, A.12 Cancel/Encore)."""

from __future__ import annotations

import pytest

from domain import RuleViolation
from domain.ccg import events as ev
from tests import builders as b
from tests.builders import State, cmd, play


def horde_revealed() -> tuple[State, str]:
    """A attacks with a Goblin Horde, paying its cost of 2; B faces and is ready; A reveals."""
    s, _ = b.started_game()
    s, horde = b.give(s, "A", "Sample Goblin Horde")
    s = b.add_gold(s, "A", 1)
    s, _ = play(s, *b.attack_revealed("A", horde, 2))
    return s, horde


def test_activating_pays_the_costs_and_puts_the_ability_on_the_stack() -> None:
    s, _ = b.started_game()
    s = b.add_gold(s, "A", 2)
    s, pot = b.give(s, "A", "Sample Plant Pot")
    a = b.hero(s, "A")
    s, events = play(
        s, cmd("activate", "A", card=a, costs={"zap": True, "gold": 2, "discard": [pot]})
    )
    act = b.of_type(events, ev.AbilityActivated)[0]
    assert act.costs == {"gold": 2, "zap": True, "discard": [pot], "give_blood": 0}
    assert s["cards"][a]["zapped"] is True
    assert s["seats"]["A"]["gold"] == 1
    assert b.zone_of(s, pot) == "discard"
    assert [(e["card"], e["player"], e["kind"]) for e in s["stack"]] == [(a, "A", "ability")]


def test_effects_are_recorded_while_the_ability_resolves_then_it_leaves_the_stack() -> None:
    s = b.resolving()
    a = b.hero(s, "A")
    s, events = play(
        s,
        cmd("damage", "A", source=a, target="B", amount=1),
        cmd("take_gold", "A", source=a, amount=2),
        cmd("resolve", "A"),
    )
    assert b.types(events) == ["DamageDealt", "GoldTaken", "AbilityResolved"]
    ref = events[-1].ref
    assert all(e.cause is None for e in events[:2])
    assert events[-1].cause == ref
    assert (b.damage(s, "B"), s["seats"]["A"]["gold"], s["stack"]) == (1, 3, [])


def test_interrupts_resolve_last_in_first_out() -> None:
    s, _ = b.started_game()
    s, nope = b.give(s, "B", "Sample Nope")
    s, _ = play(s, cmd("activate", "A", card=b.hero(s, "A"), costs={"zap": True}))
    first_ref = s["stack"][0]["ref"]
    s, events = play(s, cmd("play", "B", card=nope, gold=1))
    assert b.of_type(events, ev.MischiefPlayed)[0].interrupting == first_ref
    assert [e["player"] for e in s["stack"]] == ["A", "B"]
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("resolve", "A"))
    assert info.value.code == "rule/not_your_ability"
    s, events = play(s, cmd("resolve", "B"), cmd("resolve", "A"))
    assert [e.card for e in b.of_type(events, ev.AbilityResolved)] == [nope, b.hero(s, "A")]
    assert b.zone_of(s, nope) == "discard"


def test_a_canceled_ability_keeps_its_cost_paid_but_does_nothing() -> None:
    s, _ = b.started_game()
    s, nope = b.give(s, "B", "Sample Nope")
    a = b.hero(s, "A")
    s, _ = play(s, cmd("activate", "A", card=a, costs={"zap": True}))
    s, _ = play(s, cmd("play", "B", card=nope, gold=1))
    s, events = play(s, cmd("cancel", "B", source=nope))
    assert b.of_type(events, ev.AbilityCanceled)[0].ref == s["stack"][0]["ref"]
    s, events = play(s, cmd("resolve", "B"), cmd("resolve", "A"))
    assert b.of_type(events, ev.AbilityResolved)[-1].outcome == "canceled"
    assert s["cards"][a]["zapped"] is True, "the cost stays paid"
    assert not [c for c in b.RS.legal_commands(s, "A") if c["type"] == "damage"]


def test_mischief_goes_to_the_dmz_while_it_resolves_then_to_the_discard() -> None:
    s, _ = b.started_game()
    s = b.add_gold(s, "B", 1)
    s, ambush = b.give(s, "B", "Sample Sudden Ambush")
    s, _ = play(s, cmd("play", "B", card=ambush, gold=2))
    assert (b.zone_of(s, ambush), s["cards"][ambush]["known"]) == ("dmz", ["A", "B"])
    assert s["seats"]["B"]["gold"] == 1
    s, _ = play(s, cmd("resolve", "B"))
    assert b.zone_of(s, ambush) == "discard"


def test_encore_mischief_goes_face_down_to_the_stash_after_resolving() -> None:
    s, _ = b.started_game()
    s, prank = b.give(s, "A", "Sample Encore Prank")
    s, _ = play(s, cmd("play", "A", card=prank, gold=1), cmd("resolve", "A"))
    assert (b.zone_of(s, prank), s["cards"][prank]["face"]) == ("stash", "down")
    assert s["cards"][prank]["known"] == ["A", "B"]


def test_a_curse_sticks_to_its_target_and_stays_after_resolving() -> None:
    s, _ = b.started_game()
    s, curse = b.give(s, "A", "Sample Cursed Bandage")
    target = b.hero(s, "B")
    s, _ = play(s, cmd("play", "A", card=curse, gold=1, targets=[target]))
    s, events = play(s, cmd("stick", "A", source=curse, card=curse, target=target))
    assert b.types(events) == ["CardStuck"]
    s, _ = play(s, cmd("resolve", "A"))
    assert (b.zone_of(s, curse), s["cards"][curse]["host"]) == ("stuck", target)
    assert s["cards"][target]["stuck"] == [curse]


def test_give_blood_is_paid_with_damage_on_the_players_own_hero() -> None:
    s, _ = b.started_game()
    s, pact = b.give(s, "A", "Sample Blood Pact")
    s, events = play(s, cmd("play", "A", card=pact, gold=1, give_blood=2))
    assert b.of_type(events, ev.MischiefPlayed)[0].give_blood == 2
    assert b.damage(s, "A") == 2


def test_both_players_must_pass_again_after_any_action_in_a_window() -> None:
    s, _ = play(horde_revealed()[0], cmd("pass", "A"))
    assert s["window"]["passed"] == ["A"]
    s, _ = play(s, cmd("activate", "B", card=b.hero(s, "B"), costs={"zap": True}))
    assert s["window"]["passed"] == []
    s, events = play(s, cmd("resolve", "B"), cmd("pass", "B"), cmd("pass", "A"))
    assert b.types(events)[-3:] == ["ResponseWindowClosed", "CheatingChecked", "MonsterHired"]


def test_the_attacker_may_activate_the_hired_monster_in_the_hire_window() -> None:
    s, horde = horde_revealed()
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))
    assert {"type": "activate", "seat": "A", "card": horde} in b.RS.legal_commands(s, "A")
    s, _ = play(s, cmd("activate", "A", card=horde))
    s, _ = play(s, cmd("damage", "A", source=horde, target="B", amount=1), cmd("resolve", "A"))
    assert b.damage(s, "B") == 1
    with pytest.raises(Exception) as info:
        b.RS.decide(s, cmd("activate", "B", card=horde))
    assert getattr(info.value, "code", None) == "command/not_your_card"
