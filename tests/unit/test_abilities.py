"""Abilities, Mischief, interrupts and the stack (docs/rules.md A.5, A.11, A.12 Cancel/Encore).

An encoded card's ability is checked against its data (docs/cards.md): its cost, its targets
and the effects recorded while it resolves; an *unchecked* card's are kept as told, marked.
"""

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


#: A Hero whose ability costs all three kinds of cost (a custom card, so a casual game).
COSTLY = {
    b.WARRIOR: {
        "abilities": [
            {
                "cost": {"zap": True, "gold": 2, "discard": 1},
                "targets": [{"types": ["hero"]}],
                "effects": [{"op": "damage", "amount": 1}],
            }
        ]
    }
}


def test_activating_pays_the_costs_and_puts_the_ability_on_the_stack() -> None:
    s, _ = b.started_game(fmt="casual", changes=COSTLY)
    s = b.add_gold(s, "A", 2)
    s, pot = b.give(s, "A", "Sample Plant Pot")
    a, target = b.hero(s, "A"), b.hero(s, "B")
    s, events = play(
        s,
        cmd(
            "activate",
            "A",
            card=a,
            costs={"zap": True, "gold": 2, "discard": [pot]},
            targets=[target],
        ),
    )
    act = b.of_type(events, ev.AbilityActivated)[0]
    assert act.costs == {"gold": 2, "zap": True, "discard": [pot], "give_blood": 0}
    assert (act.ability, act.unchecked) == (0, False)
    assert s["cards"][a]["zapped"] is True
    assert s["seats"]["A"]["gold"] == 1
    assert b.zone_of(s, pot) == "discard"
    assert [(e["card"], e["player"], e["kind"], e["targets"]) for e in s["stack"]] == [
        (a, "A", "ability", [target])
    ]
    assert (s["stack"][0]["plan"], s["stack"][0]["done"]) == (
        [{"op": "damage", "amount": 1, "to": "target", "index": 0}],
        0,
    )


def test_a_cost_other_than_the_cards_is_refused() -> None:
    """The Orc Warrior's ability costs a zap and nothing else (docs/rules.md A.11)."""
    s, _ = b.started_game()
    s = b.add_gold(s, "A", 2)
    a, target = b.hero(s, "A"), b.hero(s, "B")
    for costs in ({"zap": True, "gold": 2}, {"zap": False}):
        with pytest.raises(RuleViolation) as info:
            b.RS.decide(s, cmd("activate", "A", card=a, costs=costs, targets=[target]))
        assert (info.value.code, info.value.rule) == ("rule/wrong_cost", "A.11")
    s, events = play(s, cmd("activate", "A", card=a, targets=[target]))
    assert b.of_type(events, ev.AbilityActivated)[0].costs["zap"] is True, "the card's cost"


def test_effects_are_recorded_while_the_ability_resolves_then_it_leaves_the_stack() -> None:
    s, _ = b.started_game()
    a, target = b.hero(s, "A"), b.hero(s, "B")
    s, _ = play(s, cmd("activate", "A", card=a, costs={"zap": True}, targets=[target]))
    s, events = play(s, cmd("damage", "A", source=a, target="B", amount=1), cmd("resolve", "A"))
    assert b.types(events) == ["DamageDealt", "AbilityResolved"]
    ref = events[-1].ref
    assert events[0].cause is None
    assert events[-1].cause == ref
    assert (events[-1].outcome, events[-1].unchecked) == ("resolved", False)
    assert (b.damage(s, "B"), s["seats"]["A"]["gold"], s["stack"]) == (1, 1, [])


@pytest.mark.parametrize(
    ("effect", "code"),
    [
        pytest.param(cmd("damage", "A", target="B", amount=2), "rule/wrong_amount", id="amount"),
        pytest.param(cmd("damage", "A", target="A", amount=1), "rule/wrong_target", id="target"),
        pytest.param(cmd("take_gold", "A", amount=2), "rule/wrong_effect", id="op"),
    ],
)
def test_an_effect_that_is_not_the_cards_is_refused_or_flagged(
    effect: dict[str, object], code: str
) -> None:
    """The Orc Warrior deals 1 damage to its target: nothing else (docs/rules.md A.11)."""
    for mode in ("strict", "record"):
        s, _ = b.started_game(mode=mode)
        a = b.hero(s, "A")
        s, _ = play(s, cmd("activate", "A", card=a, targets=[b.hero(s, "B")]))
        if mode == "strict":
            with pytest.raises(RuleViolation) as info:
                b.RS.decide(s, {**effect, "source": a})
            assert (info.value.code, info.value.rule) == (code, "A.11")
        else:
            _, events = play(s, {**effect, "source": a})
            assert [e.violation for e in events] == [code]


def test_an_effect_after_the_cards_last_one_is_refused() -> None:
    s, _ = b.started_game()
    a = b.hero(s, "A")
    s, _ = play(
        s,
        cmd("activate", "A", card=a, targets=[b.hero(s, "B")]),
        cmd("damage", "A", source=a, target="B", amount=1),
    )
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("take_gold", "A", source=a, amount=2))
    assert info.value.code == "rule/not_the_cards_effect"


def test_an_unchecked_cards_effects_are_kept_as_told_and_marked() -> None:
    """A card whose text is not encoded (docs/cards.md): its effects are not checked, and every
    event its ability makes says so."""
    s = b.resolving()
    a = b.hero(s, "A")
    assert s["stack"][0]["unchecked"] is True and s["stack"][0]["plan"] is None
    s, events = play(
        s,
        cmd("damage", "A", source=a, target="B", amount=1),
        cmd("take_gold", "A", source=a, amount=2),
        cmd("resolve", "A"),
    )
    assert b.types(events) == ["DamageDealt", "GoldTaken", "AbilityResolved"]
    assert [e.unchecked for e in events] == [True, True, True]
    assert all(e.to_dict()["unchecked"] is True for e in events)
    assert (b.damage(s, "B"), s["seats"]["A"]["gold"], s["stack"]) == (1, 3, [])


def warrior_then_nope() -> tuple[State, str]:
    """A's Orc Warrior aims at B's Hero; B interrupts it with a Nope (Interrupt: cancel an
    ability)."""
    s, _ = b.started_game()
    s, nope = b.give(s, "B", "Sample Nope")
    s, _ = play(s, cmd("activate", "A", card=b.hero(s, "A"), targets=[b.hero(s, "B")]))
    s, events = play(s, cmd("play", "B", card=nope, gold=1))
    assert b.of_type(events, ev.MischiefPlayed)[0].interrupting == s["stack"][0]["ref"]
    return s, nope


def test_interrupts_resolve_last_in_first_out() -> None:
    s, nope = warrior_then_nope()
    first_ref = s["stack"][0]["ref"]
    assert [(e["card"], e["player"]) for e in s["stack"]] == [(b.hero(s, "A"), "A"), (nope, "B")]
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("resolve", "A"))
    assert info.value.code == "rule/not_your_ability"
    s, events = play(s, cmd("cancel", "B", source=nope), cmd("resolve", "B"), cmd("resolve", "A"))
    assert b.of_type(events, ev.AbilityCanceled)[0].ref == first_ref
    assert [e.card for e in b.of_type(events, ev.AbilityResolved)] == [nope, b.hero(s, "A")]
    assert b.zone_of(s, nope) == "discard"


def test_a_canceled_ability_keeps_its_cost_paid_but_does_nothing() -> None:
    s, nope = warrior_then_nope()
    a = b.hero(s, "A")
    s, events = play(s, cmd("cancel", "B", source=nope))
    assert b.of_type(events, ev.AbilityCanceled)[0].ref == s["stack"][0]["ref"]
    s, _ = play(s, cmd("resolve", "B"))
    assert not [c for c in b.RS.legal_commands(s, "A") if c["type"] == "damage"]
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("damage", "A", source=a, target="B", amount=1))
    assert info.value.code == "rule/ability_canceled"
    s, events = play(s, cmd("resolve", "A"))
    assert b.of_type(events, ev.AbilityResolved)[-1].outcome == "canceled"
    assert s["cards"][a]["zapped"] is True, "the cost stays paid"
    assert b.damage(s, "B") == 0


def test_mischief_goes_to_the_dmz_while_it_resolves_then_to_the_discard() -> None:
    s, _ = b.started_game()
    s = b.add_gold(s, "B", 1)
    s, ambush = b.give(s, "B", "Sample Sudden Ambush")
    a = b.hero(s, "A")
    s, _ = play(s, cmd("play", "B", card=ambush, gold=2, targets=[a]))
    assert (b.zone_of(s, ambush), s["cards"][ambush]["known"]) == ("dmz", ["A", "B"])
    assert s["seats"]["B"]["gold"] == 1
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("resolve", "B"))
    assert info.value.code == "rule/effect_skipped", "its 2 damage can still be dealt"
    s, _ = play(s, cmd("damage", "B", source=ambush, target=a, amount=2), cmd("resolve", "B"))
    assert b.zone_of(s, ambush) == "discard"
    assert b.damage(s, "A") == 2


def test_encore_mischief_goes_face_down_to_the_stash_after_resolving() -> None:
    s, _ = b.started_game()
    s, prank = b.give(s, "A", "Sample Encore Prank")
    target = b.hero(s, "B")
    s, _ = play(
        s,
        cmd("play", "A", card=prank, gold=1, targets=[target]),
        cmd("damage", "A", source=prank, target=target, amount=1),
        cmd("resolve", "A"),
    )
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
    s, _ = play(s, *b.hero_ability(s, "B")[1:])  # the Gnome Thief's draws and put-back
    s, events = play(s, cmd("pass", "B"), cmd("pass", "A"))
    assert b.types(events)[-4:] == [
        "ResponseWindowClosed",
        "CheatingChecked",
        "MonsterHired",
        "AbilityTriggered",
    ]


def test_the_hired_monsters_hired_ability_is_put_on_the_stack_for_the_attacker() -> None:
    """Goblin Horde, "Hired: deal 1 damage to the defending Hero" (docs/rules.md A.9 step 4)."""
    s, horde = horde_revealed()
    s, events = play(s, cmd("pass", "A"), cmd("pass", "B"))
    triggered = b.of_type(events, ev.AbilityTriggered)
    assert [(e.card, e.player, e.trigger, e.seat) for e in triggered] == [
        (horde, "A", "hired", "rules")
    ]
    assert [(e["card"], e["player"], e["kind"]) for e in s["stack"]] == [(horde, "A", "hired")]
    assert {c["type"] for c in b.RS.legal_commands(s, "A")} == {"concede", "damage"}
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("damage", "A", source=horde, target="A", amount=1))
    assert info.value.code == "rule/wrong_target", "the defending Hero, not the attacker's"
    s, events = play(s, cmd("damage", "A", source=horde, target="B", amount=1), cmd("resolve", "A"))
    assert b.types(events) == ["DamageDealt", "AbilityResolved"]
    assert b.damage(s, "B") == 1
    assert s["window"] == {"kind": "hire", "passed": []}, "the hire window is still open"


def test_the_attacker_may_activate_the_hired_monster_in_the_hire_window() -> None:
    """A hired Monster is the attacker's to use (docs/rules.md A.9); this Horde's text is
    unchecked on purpose so that any ability may be recorded for it."""
    s, _ = b.started_game(fmt="casual", changes=b.unchecked("Sample Goblin Horde"))
    s, horde = b.give(s, "A", "Sample Goblin Horde")
    s = b.add_gold(s, "A", 1)
    s, _ = play(s, *b.attack_revealed("A", horde, 2), cmd("pass", "A"), cmd("pass", "B"))
    assert s["window"]["kind"] == "hire" and s["stack"] == [], "no Hired trigger: not encoded"
    assert any(c["type"] == "activate" and c["card"] == horde for c in b.RS.legal_commands(s, "A"))
    s, _ = play(s, cmd("activate", "A", card=horde))
    s, events = play(s, cmd("damage", "A", source=horde, target="B", amount=1), cmd("resolve", "A"))
    assert b.damage(s, "B") == 1
    assert all(e.unchecked for e in events)
    with pytest.raises(Exception) as info:
        b.RS.decide(s, cmd("activate", "B", card=horde))
    assert getattr(info.value, "code", None) == "command/not_your_card"
