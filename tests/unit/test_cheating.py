"""A cheating client against the card data (issue "Cards the engine understands").

Each row is one attempt a dishonest (or mistaken) client made: a skipped or wrong cost, a wrong
amount, target or op, wrong timing, an out-of-play card, a repeated or skipped trigger. In strict
mode it is refused with its rule code and the docs/rules.md section; in record mode it is kept
with that ``violation`` on the events it made, unless the physical game cannot be in the
resulting state: then it is refused as ``command/...`` in both modes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from domain import ImpossibleCommand, RuleViolation
from domain.ccg import events as ev
from tests import builders as b
from tests.builders import State, cmd, play

Position = Callable[[str], tuple[State, dict[str, Any]]]


@dataclass(frozen=True)
class Attempt:
    name: str
    position: Position
    code: str
    rule: str
    record: str = "flag"  # or the command/... code a record-mode game refuses it with


def munch(mode: str, **options: Any) -> State:
    """A munchkining turn 1: A (Orc Warrior) active, B (Gnome Thief) waiting."""
    s, _ = b.started_game(mode=mode, **options)
    return s


def heroes(s: State) -> tuple[str, str]:
    return b.hero(s, "A"), b.hero(s, "B")


def warrior_resolving(mode: str) -> State:
    """A zapped the Orc Warrior targeting B's Hero: "deal 1 damage" is resolving."""
    s = munch(mode)
    a, bh = heroes(s)
    s, _ = play(s, cmd("activate", "A", card=a, targets=[bh]))
    return s


def in_hoard(s: State, seat: str, name: str) -> tuple[State, str]:
    return b.give(s, seat, name, "hoard")


def in_hand(s: State, seat: str, name: str, gold: int = 0) -> tuple[State, str]:
    s, cid = b.give(s, seat, name)
    return (b.add_gold(s, seat, gold) if gold else s), cid


def thief_resolving(mode: str) -> State:
    s = munch(mode)
    s, _ = play(s, cmd("activate", "B", card=b.hero(s, "B")))
    return s


def bard_game(mode: str) -> State:
    """A plays the Wandering Bard (Zap, pay 1 gold: take 2 gold) with 3 gold."""
    s = munch(mode, heroes=(b.BARD, b.THIEF))
    return b.add_gold(s, "A", 2)


def mischief_resolving(mode: str, name: str, **extra: Any) -> tuple[State, str]:
    s = munch(mode)
    s, cid = in_hand(s, "A", name, gold=3)
    targets = extra.pop("targets", None)
    command = cmd("play", "A", card=cid, **extra)
    if targets is not None:
        command["targets"] = targets
    s, _ = play(s, command)
    return s, cid


def horde_hired(mode: str) -> tuple[State, str]:
    """A hired a Goblin Horde (cost 2, paid 2): its Hired trigger is on the stack."""
    s = munch(mode)
    s, horde = in_hand(s, "A", "Sample Goblin Horde", gold=1)
    s, _ = play(s, *b.attack_revealed("A", horde, 2), cmd("pass", "A"), cmd("pass", "B"))
    assert s["stack"] and s["stack"][-1]["card"] == horde
    return s, horde


def revealed(mode: str, name: str = "Sample Bloodsucker", gold: int = 4) -> tuple[State, str]:
    s = munch(mode)
    s, monster = in_hand(s, "A", name, gold=gold)
    s, _ = play(s, *b.attack_revealed("A", monster, gold))
    return s, monster


def declared(mode: str) -> State:
    """A attacked with a face-down card; B has not decided yet. A zapped its Hero meanwhile."""
    s = munch(mode)
    s, horde = in_hand(s, "A", "Sample Goblin Horde")
    s, _ = play(s, cmd("attack", "A", card=horde, gold=0))
    a, bh = heroes(s)
    s, _ = play(s, cmd("activate", "A", card=a, targets=[bh]))
    return s


def casual_unchecked(mode: str) -> State:
    """A casual game whose Heroes' text is not encoded (abilities: null): A's ability resolving."""
    spec = b.game_spec(0, mode=mode, fmt="casual")
    for seat in spec["seats"]:
        seat["hero"]["abilities"] = None
    s, _ = b.started_game(spec=spec)
    s, _ = play(s, cmd("activate", "A", card=b.hero(s, "A"), costs={"zap": True}))
    return s


def tin_shield_ready(mode: str) -> tuple[State, str]:
    """B's Tin Shield (Zap: Prevent 1) is in play; A's Warrior ability is on the stack."""
    s = munch(mode)
    s, shield = in_hoard(s, "B", "Sample Tin Shield")
    return s, shield


# ---------------------------------------------------------------------------- the attempts


def p_warrior_no_zap(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    a, bh = heroes(s)
    return s, cmd("activate", "A", card=a, targets=[bh], costs={"zap": False})


def p_warrior_overpaid(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    a, bh = heroes(s)
    return s, cmd("activate", "A", card=a, targets=[bh], costs={"zap": True, "gold": 1})


def p_warrior_twice(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    s, _ = play(s, cmd("damage", "A", source=b.hero(s, "A"), target=b.hero(s, "B"), amount=1))
    s, _ = play(s, cmd("resolve", "A"))
    a, bh = heroes(s)
    return s, cmd("activate", "A", card=a, targets=[bh], costs={"zap": True})


def p_warrior_at_ally(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, squire = in_hoard(s, "B", "Sample Shifty Henchman")
    return s, cmd("activate", "A", card=b.hero(s, "A"), targets=[squire])


def p_warrior_no_target(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    return s, cmd("activate", "A", card=b.hero(s, "A"))


def p_warrior_two_targets(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    a, bh = heroes(s)
    return s, cmd("activate", "A", card=a, targets=[bh, a])


def p_warrior_face_down_stash(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, moth = b.give(s, "B", "Sample Grave Moth", "stash")  # face down: out of play
    return s, cmd("activate", "A", card=b.hero(s, "A"), targets=[moth])


def p_warrior_17(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    a, bh = heroes(s)
    return s, cmd("damage", "A", source=a, target=bh, amount=17)


def p_warrior_other_target(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    a, _ = heroes(s)
    return s, cmd("damage", "A", source=a, target=a, amount=1)


def p_warrior_gold(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    return s, cmd("take_gold", "A", source=b.hero(s, "A"), amount=30)


def p_warrior_skip(mode: str) -> tuple[State, dict[str, Any]]:
    return warrior_resolving(mode), cmd("resolve", "A")


def p_warrior_extra(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    a, bh = heroes(s)
    s, _ = play(s, cmd("damage", "A", source=a, target=bh, amount=1))
    return s, cmd("damage", "A", source=a, target=bh, amount=1)


def p_warrior_other_source(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    return s, cmd("damage", "A", source=b.hero(s, "B"), target=b.hero(s, "B"), amount=1)


def p_resolve_by_opponent(mode: str) -> tuple[State, dict[str, Any]]:
    return warrior_resolving(mode), cmd("resolve", "B")


def p_thief_bottom_first(mode: str) -> tuple[State, dict[str, Any]]:
    s = thief_resolving(mode)
    card = s["seats"]["B"]["zones"]["hand"][0]
    return s, cmd("move", "B", source=b.hero(s, "B"), card=card, to="deck_bottom")


def p_thief_bottom_not_own(mode: str) -> tuple[State, dict[str, Any]]:
    s = thief_resolving(mode)
    thief = b.hero(s, "B")
    deck = s["seats"]["B"]["zones"]["deck"]
    s, _ = play(s, cmd("draw", "B", source=thief, card=deck[0]), cmd("draw", "B", card=deck[1]))
    theirs = s["seats"]["A"]["zones"]["hand"][0]
    return s, cmd("move", "B", source=thief, card=theirs, to="deck_bottom")


def p_thief_one_draw(mode: str) -> tuple[State, dict[str, Any]]:
    s = thief_resolving(mode)
    s, _ = play(s, cmd("draw", "B", card=s["seats"]["B"]["zones"]["deck"][0]))
    return s, cmd("resolve", "B")


def p_thief_three_draws(mode: str) -> tuple[State, dict[str, Any]]:
    s = thief_resolving(mode)
    deck = s["seats"]["B"]["zones"]["deck"]
    s, _ = play(s, cmd("draw", "B", card=deck[0]), cmd("draw", "B", card=deck[1]))
    return s, cmd("draw", "B", card=s["seats"]["B"]["zones"]["deck"][0])


def p_bard_unpaid(mode: str) -> tuple[State, dict[str, Any]]:
    s = bard_game(mode)
    return s, cmd("activate", "A", card=b.hero(s, "A"), costs={"zap": True})


def p_bard_overpaid(mode: str) -> tuple[State, dict[str, Any]]:
    s = bard_game(mode)
    return s, cmd("activate", "A", card=b.hero(s, "A"), costs={"zap": True, "gold": 2})


def p_bard_takes_3(mode: str) -> tuple[State, dict[str, Any]]:
    s = bard_game(mode)
    s, _ = play(s, cmd("activate", "A", card=b.hero(s, "A")))
    return s, cmd("take_gold", "A", source=b.hero(s, "A"), amount=3)


def p_tavern_gold_cost(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, tavern = in_hoard(s, "A", "Sample Tavern")
    return s, cmd("activate", "A", card=tavern, costs={"zap": True, "gold": 1})


def p_tavern_zapped(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, tavern = in_hoard(s, "A", "Sample Tavern")
    s, _ = play(s, cmd("activate", "A", card=tavern))
    s, _ = play(s, cmd("take_gold", "A", source=tavern, amount=1), cmd("resolve", "A"))
    return s, cmd("activate", "A", card=tavern, costs={"zap": True})


def p_weapon_no_ability(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, sword = in_hoard(s, "A", "Sample Rusty Sword")
    return s, cmd("activate", "A", card=sword, costs={"zap": True})


def p_sketchy_clean(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode, first="B")
    s, henchman = in_hoard(s, "B", "Sample Shifty Henchman")
    return s, cmd("activate", "B", card=henchman)


def p_smack_off_turn(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, dagger = in_hoard(s, "B", "Sample Sneaky Dagger")
    return s, cmd("activate", "B", card=dagger, targets=[b.hero(s, "A")])


def p_smack_no_zap(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode, first="B")
    s, dagger = in_hoard(s, "B", "Sample Sneaky Dagger")
    return s, cmd("activate", "B", card=dagger, targets=[b.hero(s, "A")], costs={})


def p_smack_at_ally(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode, first="B")
    s, dagger = in_hoard(s, "B", "Sample Sneaky Dagger")
    s, drummer = in_hoard(s, "A", "Sample War Drummer")
    return s, cmd("activate", "B", card=dagger, targets=[drummer])


def p_give_blood_1(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, pact = in_hand(s, "A", "Sample Blood Pact")
    return s, cmd("play", "A", card=pact, gold=1, give_blood=1)


def p_blood_pact_skips(mode: str) -> tuple[State, dict[str, Any]]:
    s, pact = mischief_resolving(mode, "Sample Blood Pact", gold=1, give_blood=2)
    s, _ = play(s, cmd("take_gold", "A", source=pact, amount=2))
    return s, cmd("resolve", "A")


def p_blood_pact_unpaid_extra(mode: str) -> tuple[State, dict[str, Any]]:
    s, pact = mischief_resolving(mode, "Sample Blood Pact", gold=1)
    s, _ = play(s, cmd("take_gold", "A", source=pact, amount=2))
    return s, cmd("take_gold", "A", source=pact, amount=2)


def p_ambush_at_ally(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, ambush = in_hand(s, "A", "Sample Sudden Ambush", gold=2)
    s, drummer = in_hoard(s, "B", "Sample War Drummer")
    return s, cmd("play", "A", card=ambush, gold=2, targets=[drummer])


def p_ambush_underpaid(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, ambush = in_hand(s, "A", "Sample Sudden Ambush", gold=2)
    return s, cmd("play", "A", card=ambush, gold=1, targets=[b.hero(s, "B")])


def p_ambush_deals_5(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, ambush = in_hand(s, "A", "Sample Sudden Ambush", gold=2)
    s, _ = play(s, cmd("play", "A", card=ambush, gold=2, targets=[b.hero(s, "B")]))
    return s, cmd("damage", "A", source=ambush, target=b.hero(s, "B"), amount=5)


def p_bandage_at_ally(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, bandage = in_hand(s, "A", "Sample Cursed Bandage")
    s, drummer = in_hoard(s, "B", "Sample War Drummer")
    return s, cmd("play", "A", card=bandage, gold=1, targets=[drummer])


def p_bandage_sticks_elsewhere(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, bandage = in_hand(s, "A", "Sample Cursed Bandage")
    s, _ = play(s, cmd("play", "A", card=bandage, gold=1, targets=[b.hero(s, "B")]))
    return s, cmd("stick", "A", source=bandage, card=bandage, target=b.hero(s, "A"))


def p_nope_deals_damage(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    s, nope = in_hand(s, "B", "Sample Nope")
    s, _ = play(s, cmd("play", "B", card=nope, gold=1))
    return s, cmd("damage", "B", source=nope, target=b.hero(s, "A"), amount=1)


def p_treachery_interrupts(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    s, ambush = in_hand(s, "B", "Sample Sudden Ambush", gold=2)
    return s, cmd("play", "B", card=ambush, gold=2, targets=[b.hero(s, "A")])


def p_ability_interrupts(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    s, tavern = in_hoard(s, "B", "Sample Tavern")
    return s, cmd("activate", "B", card=tavern)


def p_modify_cost_alone(mode: str) -> tuple[State, dict[str, Any]]:
    s, monster = revealed(mode)
    return s, cmd("modify_cost", "B", card=monster, cost=9)


def p_haggler_to_zero(mode: str) -> tuple[State, dict[str, Any]]:
    s, monster = revealed(mode)  # Bloodsucker: cost 4
    s, haggler = in_hand(s, "B", "Sample Haggler")
    s, _ = play(s, cmd("play", "B", card=haggler, gold=1))
    return s, cmd("modify_cost", "B", source=haggler, card=monster, cost=0)


def p_haggler_outside_fight(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, haggler = in_hand(s, "B", "Sample Haggler", gold=1)
    return s, cmd("play", "B", card=haggler, gold=1)


def p_hired_activated(mode: str) -> tuple[State, dict[str, Any]]:
    s, horde = horde_hired(mode)
    bh = b.hero(s, "B")
    s, _ = play(s, cmd("damage", "A", source=horde, target=bh, amount=1), cmd("resolve", "A"))
    return s, cmd("activate", "A", card=horde, ability=0)


def p_hired_3(mode: str) -> tuple[State, dict[str, Any]]:
    s, horde = horde_hired(mode)
    return s, cmd("damage", "A", source=horde, target=b.hero(s, "B"), amount=3)


def p_hired_own_hero(mode: str) -> tuple[State, dict[str, Any]]:
    s, horde = horde_hired(mode)
    return s, cmd("damage", "A", source=horde, target=b.hero(s, "A"), amount=1)


def p_hired_pass(mode: str) -> tuple[State, dict[str, Any]]:
    s, _ = horde_hired(mode)
    return s, cmd("pass", "B")


def p_hired_skip(mode: str) -> tuple[State, dict[str, Any]]:
    s, _ = horde_hired(mode)
    return s, cmd("resolve", "A")


def p_run_while_resolving(mode: str) -> tuple[State, dict[str, Any]]:
    return declared(mode), cmd("run_away", "B")


def p_face_while_resolving(mode: str) -> tuple[State, dict[str, Any]]:
    return declared(mode), cmd("face", "B")


def p_end_turn_while_resolving(mode: str) -> tuple[State, dict[str, Any]]:
    return warrior_resolving(mode), cmd("end_turn", "A")


def p_attack_while_resolving(mode: str) -> tuple[State, dict[str, Any]]:
    s = warrior_resolving(mode)
    card = s["seats"]["A"]["zones"]["hand"][0]
    return s, cmd("attack", "A", card=card, gold=0, salt="s")


def p_reveal_while_resolving(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, horde = in_hand(s, "A", "Sample Goblin Horde")
    s, _ = play(s, cmd("attack", "A", card=horde, gold=0), cmd("face", "B"), cmd("ready", "B"))
    a, bh = heroes(s)
    s, _ = play(s, cmd("activate", "A", card=a, targets=[bh]))
    return s, cmd("reveal", "A")


def p_zap_alone(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    return s, cmd("zap", "A", card=b.hero(s, "A"))


def p_zap_stash_face_down(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, tavern = b.give(s, "A", "Sample Tavern", "stash")
    return s, cmd("activate", "A", card=tavern)


def p_attack_card_activated(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, bridge = in_hand(s, "A", "Sample Tavern")
    s, _ = play(s, cmd("attack", "A", card=bridge, gold=0))
    return s, cmd("activate", "A", card=bridge)


def p_damage_face_down(mode: str) -> tuple[State, dict[str, Any]]:
    s = casual_unchecked(mode)
    s, moth = b.give(s, "B", "Sample Grave Moth", "stash")
    return s, cmd("damage", "A", source=b.hero(s, "A"), target=moth, amount=1)


def p_tokens_on_face_down_life(mode: str) -> tuple[State, dict[str, Any]]:
    """Tokens on a card with life are damage (A.10): a face-down one cannot be hit (A.3)."""
    s = casual_unchecked(mode)
    s, moth = b.give(s, "B", "Sample Grave Moth", "stash")
    return s, cmd("collect", "A", source=b.hero(s, "A"), card=moth, amount=1)


def p_prevent_nothing(mode: str) -> tuple[State, dict[str, Any]]:
    s, shield = tin_shield_ready(mode)
    s, _ = play(s, cmd("activate", "B", card=shield))
    return s, cmd("prevent", "B", source=shield, amount=1)


def p_prevent_2(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, shield = in_hoard(s, "B", "Sample Tin Shield")
    s, horde = in_hand(s, "A", "Sample Goblin Horde")
    s, _ = play(s, cmd("attack", "A", card=horde, gold=0), cmd("run_away", "B"))
    s, _ = play(s, cmd("attack", "A", card=s["seats"]["A"]["zones"]["hand"][0], gold=0))
    s, _ = play(s, cmd("run_away", "B"))  # limping: 2 damage announced
    assert s["window"]["kind"] == "damage"
    s, _ = play(s, cmd("activate", "B", card=shield))
    return s, cmd("prevent", "B", source=shield, amount=2)


def p_spill_1(mode: str) -> tuple[State, dict[str, Any]]:
    s, ale = mischief_resolving(mode, "Sample Spilled Ale", gold=1)
    return s, cmd("spill", "A", source=ale, cards=s["seats"]["A"]["zones"]["deck"][:1])


def p_piggy_2(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, pig = in_hoard(s, "A", "Sample Piggy Bank")
    s, _ = play(s, cmd("activate", "A", card=pig))
    return s, cmd("collect", "A", source=pig, card=pig, amount=2)


def p_toll_bridge_2(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, _ = in_hoard(s, "B", "Sample Toll Bridge")
    s, _ = play(s, cmd("end_turn", "A"))
    assert s["stack"] and s["stack"][-1]["kind"] == "reckoning"
    return s, cmd("take_gold", "B", source=s["stack"][-1]["card"], amount=2)


def p_moth_twice(mode: str) -> tuple[State, dict[str, Any]]:
    s = munch(mode)
    s, moth = in_hand(s, "A", "Sample Grave Moth", gold=1)
    s, _ = play(s, *b.attack_revealed("A", moth, 2), cmd("pass", "A"), cmd("pass", "B"))
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))  # hire window, then the strike
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))  # the damage window: B takes 2
    assert s["stack"] and s["stack"][-1]["kind"] == "survivor", s["stack"]
    s, _ = play(s, cmd("take_gold", "A", source=moth, amount=1))
    return s, cmd("take_gold", "A", source=moth, amount=1)


def p_bottom_card_drawn_next(mode: str) -> tuple[State, dict[str, Any]]:
    """The issue's cheat: B's Gnome Thief draws 2 and puts one on the bottom of its deck; at
    B's next draw step that very card is "drawn" (docs/rules.md D.20)."""
    s = thief_resolving(mode)
    thief = b.hero(s, "B")
    deck = s["seats"]["B"]["zones"]["deck"]
    first, second = deck[0], deck[1]
    s, _ = play(
        s,
        cmd("draw", "B", source=thief, card=first),
        cmd("draw", "B", source=thief, card=second),
        cmd("move", "B", source=thief, card=first, to="deck_bottom"),
        cmd("resolve", "B"),
        cmd("end_turn", "A"),
    )
    assert (s["active"], s["step"]) == ("B", "draw"), (s["active"], s["step"])
    return s, cmd("draw", "B", card=first)


def p_known_top_passed_over(mode: str) -> tuple[State, dict[str, Any]]:
    """A judge put a card back on top of B's deck; B's Thief then draws another card."""
    s = munch(mode)
    back = s["seats"]["B"]["zones"]["hand"][0]
    s = b.judge(s, ev.CardMoved(seat="judge", card=back, to="deck_top", face="down"))
    s, _ = play(s, cmd("activate", "B", card=b.hero(s, "B")))
    return s, cmd("draw", "B", source=b.hero(s, "B"), card=s["seats"]["B"]["zones"]["deck"][-1])


def p_spill_skips_the_top(mode: str) -> tuple[State, dict[str, Any]]:
    """A judge put a card on top of A's deck; A's Spilled Ale (Spill 2) spills two others."""
    s, ale = mischief_resolving(mode, "Sample Spilled Ale", gold=1)
    back = s["seats"]["A"]["zones"]["hand"][0]
    s = b.judge(s, ev.CardMoved(seat="judge", card=back, to="deck_top", face="down"))
    return s, cmd("spill", "A", source=ale, cards=s["seats"]["A"]["zones"]["deck"][-2:])


ATTEMPTS = [
    Attempt("hero ability without its zap", p_warrior_no_zap, "rule/wrong_cost", "A.11"),
    Attempt("hero ability overpaid", p_warrior_overpaid, "rule/wrong_cost", "A.11"),
    Attempt("zapped hero activated again", p_warrior_twice, "rule/card_zapped", "A.10"),
    Attempt("'Hero or Monster' aimed at an Ally", p_warrior_at_ally, "rule/illegal_target", "A.11"),
    Attempt("targeted ability with no target", p_warrior_no_target, "rule/wrong_targets", "A.11"),
    Attempt("one target named twice over", p_warrior_two_targets, "rule/wrong_targets", "A.11"),
    Attempt(
        "face-down stash card targeted", p_warrior_face_down_stash, "rule/illegal_target", "A.11"
    ),
    Attempt("'deal 1' recorded as 17", p_warrior_17, "rule/wrong_amount", "A.11"),
    Attempt(
        "damage to another card than the target",
        p_warrior_other_target,
        "rule/wrong_target",
        "A.11",
    ),
    Attempt("'deal 1' recorded as 30 gold", p_warrior_gold, "rule/wrong_effect", "A.11"),
    Attempt("effect skipped while possible", p_warrior_skip, "rule/effect_skipped", "A.11"),
    Attempt("the effect recorded twice", p_warrior_extra, "rule/not_the_cards_effect", "A.11"),
    Attempt(
        "an effect from another card", p_warrior_other_source, "rule/not_resolving_source", "A.11"
    ),
    Attempt(
        "the opponent resolves my ability",
        p_resolve_by_opponent,
        "rule/not_your_ability",
        "A.11",
        record="command/not_your_ability",
    ),
    Attempt("put on the bottom before drawing", p_thief_bottom_first, "rule/wrong_effect", "A.11"),
    Attempt(
        "the opponent's card put on my deck", p_thief_bottom_not_own, "rule/wrong_target", "A.11"
    ),
    Attempt("draw 2 stopped after 1", p_thief_one_draw, "rule/effect_skipped", "A.11"),
    Attempt("draw 2 drawing 3", p_thief_three_draws, "rule/wrong_effect", "A.11"),
    Attempt("gold cost skipped", p_bard_unpaid, "rule/wrong_cost", "A.11"),
    Attempt("gold cost overpaid", p_bard_overpaid, "rule/wrong_cost", "A.11"),
    Attempt("take 2 gold recorded as 3", p_bard_takes_3, "rule/wrong_amount", "A.11"),
    Attempt("a zap-only cost paid with gold", p_tavern_gold_cost, "rule/wrong_cost", "A.11"),
    Attempt("a zapped Location zapped again", p_tavern_zapped, "rule/card_zapped", "A.10"),
    Attempt(
        "a Weapon with no ability activated", p_weapon_no_ability, "rule/no_such_ability", "A.11"
    ),
    Attempt("Sketchy before being caught", p_sketchy_clean, "rule/sketchy", "A.12"),
    Attempt("Smack on the opponent's turn", p_smack_off_turn, "rule/not_your_turn", "A.12"),
    Attempt("Smack without its zap", p_smack_no_zap, "rule/wrong_cost", "A.11"),
    Attempt("Smack aimed at an Ally", p_smack_at_ally, "rule/illegal_target", "A.11"),
    Attempt("Give Blood 2 paid with 1", p_give_blood_1, "rule/wrong_cost", "A.12"),
    Attempt(
        "Give Blood paid, its effect skipped", p_blood_pact_skips, "rule/effect_skipped", "A.11"
    ),
    Attempt(
        "Give Blood effect without paying",
        p_blood_pact_unpaid_extra,
        "rule/not_the_cards_effect",
        "A.11",
    ),
    Attempt(
        "'to a Hero' Mischief aimed at an Ally", p_ambush_at_ally, "rule/illegal_target", "A.11"
    ),
    Attempt("Mischief underpaid", p_ambush_underpaid, "rule/underpaid", "A.5"),
    Attempt("Mischief's 2 damage recorded as 5", p_ambush_deals_5, "rule/wrong_amount", "A.11"),
    Attempt("Curse aimed at an Ally", p_bandage_at_ally, "rule/illegal_target", "A.11"),
    Attempt("Curse stuck to another Hero", p_bandage_sticks_elsewhere, "rule/wrong_target", "A.11"),
    Attempt("an Interrupt dealing damage", p_nope_deals_damage, "rule/wrong_effect", "A.11"),
    Attempt(
        "Treachery while something resolves",
        p_treachery_interrupts,
        "rule/not_an_interrupt",
        "A.11",
    ),
    Attempt(
        "normal ability while something resolves",
        p_ability_interrupts,
        "rule/not_an_interrupt",
        "A.11",
    ),
    Attempt(
        "modify_cost with nothing resolving",
        p_modify_cost_alone,
        "rule/no_ability_resolving",
        "A.11",
    ),
    Attempt("'2 less' recorded as free", p_haggler_to_zero, "rule/wrong_amount", "A.11"),
    Attempt(
        "an in-fight card outside a fight",
        p_haggler_outside_fight,
        "rule/no_revealed_monster",
        "A.9",
    ),
    Attempt("a Hired ability activated again", p_hired_activated, "rule/no_such_ability", "A.11"),
    Attempt("Hired: deal 1 recorded as 3", p_hired_3, "rule/wrong_amount", "A.11"),
    Attempt("Hired damage to the wrong Hero", p_hired_own_hero, "rule/wrong_target", "A.11"),
    Attempt("hire window passed over a trigger", p_hired_pass, "rule/ability_resolving", "A.11"),
    Attempt("a Hired trigger skipped", p_hired_skip, "rule/effect_skipped", "A.11"),
    Attempt(
        "run away while an ability resolves",
        p_run_while_resolving,
        "rule/ability_resolving",
        "A.11",
    ),
    Attempt(
        "face while an ability resolves", p_face_while_resolving, "rule/ability_resolving", "A.11"
    ),
    Attempt(
        "end the turn while an ability resolves",
        p_end_turn_while_resolving,
        "rule/ability_resolving",
        "A.11",
        record="command/ability_resolving",
    ),
    Attempt(
        "attack while an ability resolves",
        p_attack_while_resolving,
        "rule/ability_resolving",
        "A.11",
    ),
    Attempt(
        "reveal while an ability resolves",
        p_reveal_while_resolving,
        "rule/ability_resolving",
        "A.11",
    ),
    Attempt("a zap with no ability", p_zap_alone, "rule/zap_needs_ability", "A.10"),
    Attempt("a face-down stash card activated", p_zap_stash_face_down, "rule/not_in_play", "A.3"),
    Attempt(
        "own face-down attack card activated", p_attack_card_activated, "rule/not_in_play", "A.3"
    ),
    Attempt("a face-down stash card damaged", p_damage_face_down, "rule/not_in_play", "A.3"),
    Attempt(
        "tokens on a face-down card with life",
        p_tokens_on_face_down_life,
        "rule/not_in_play",
        "A.3",
    ),
    Attempt(
        "Prevent with no damage coming", p_prevent_nothing, "rule/no_damage_to_prevent", "A.12"
    ),
    Attempt("Prevent 1 recorded as 2", p_prevent_2, "rule/wrong_amount", "A.11"),
    Attempt("Spill 2 recorded as 1 card", p_spill_1, "rule/wrong_amount", "A.11"),
    Attempt("Collect 1 recorded as 2", p_piggy_2, "rule/wrong_amount", "A.11"),
    Attempt("a reckoning trigger's amount", p_toll_bridge_2, "rule/wrong_amount", "A.11"),
    Attempt("a Survivor trigger fired twice", p_moth_twice, "rule/not_the_cards_effect", "A.11"),
    Attempt(
        "the card put on the bottom drawn next",
        p_bottom_card_drawn_next,
        "rule/not_the_top_card",
        "D.20",
    ),
    Attempt(
        "an ability's draw passing over the known top card",
        p_known_top_passed_over,
        "rule/not_the_top_card",
        "D.20",
    ),
    Attempt(
        "Spill passing over the known top card",
        p_spill_skips_the_top,
        "rule/not_the_top_card",
        "A.12",
    ),
]


def test_the_table_holds_at_least_forty_distinct_attempts() -> None:
    assert len(ATTEMPTS) >= 40
    assert len({a.name for a in ATTEMPTS}) == len(ATTEMPTS)


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=lambda a: a.name)
def test_strict_mode_refuses_the_attempt_with_its_rule(attempt: Attempt) -> None:
    state, command = attempt.position("strict")
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(state, command)
    assert (info.value.code, info.value.rule) == (attempt.code, attempt.rule), info.value


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=lambda a: a.name)
def test_record_mode_keeps_the_attempt_with_its_violation(attempt: Attempt) -> None:
    state, command = attempt.position("record")
    if attempt.record != "flag":
        with pytest.raises(ImpossibleCommand) as info:
            b.RS.decide(state, command)
        assert info.value.code == attempt.record
        return
    steps = b.RS.decide(state, command)
    assert steps, "record mode keeps the action"
    first = steps[0].event
    assert first.violation is not None and attempt.code in first.violation.split(","), first
