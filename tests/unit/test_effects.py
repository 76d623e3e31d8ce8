"""Effects and keywords (docs/rules.md A.10, A.12): heal, steal, collect, spill, stealthy, smack..."""

from __future__ import annotations

import pytest

from domain import InvalidCommand, RuleViolation
from domain.ccg import events as ev
from domain.ccg.cards import MAX_NUMBER
from domain.ccg.corrections import decide_correction
from domain.ccg.decision import int_arg
from tests.builders import (
    RS,
    cmd,
    damage,
    give,
    hero,
    of_type,
    play,
    resolving,
    started_game,
    types,
    with_damage,
    zone_of,
)


def test_healing_never_removes_more_damage_than_there_is() -> None:
    s = with_damage(resolving(), "A", 2)
    s, events = play(s, cmd("heal", "A", source=hero(s, "A"), target="A", amount=5))
    assert of_type(events, ev.Healed)[0].amount == 2
    assert damage(s, "A") == 0


def test_stealing_takes_at_most_what_the_victim_has() -> None:
    s = resolving()
    s, events = play(s, cmd("steal", "A", source=hero(s, "A"), amount=5))
    assert of_type(events, ev.GoldStolen)[0].amount == 2
    assert (s["seats"]["A"]["gold"], s["seats"]["B"]["gold"]) == (3, 0)


def test_collected_tokens_go_back_to_the_stockpile_when_the_card_leaves_play() -> None:
    s, _ = started_game()
    s, tavern = give(s, "A", "Sample Tavern", "hoard")
    s, _ = play(s, cmd("activate", "A", card=tavern))
    s, _ = play(s, cmd("collect", "A", source=tavern, amount=3), cmd("resolve", "A"))
    assert s["cards"][tavern]["tokens"] == 3
    s, _ = play(s, cmd("squish", "A", card=tavern))
    assert s["cards"][tavern]["tokens"] == 0


def test_a_spill_moves_top_cards_face_up_to_the_discard_without_drawing() -> None:
    s = resolving()
    top = s["seats"]["A"]["zones"]["deck"][-2:]
    hand = len(s["seats"]["A"]["zones"]["hand"])
    s, events = play(s, cmd("spill", "A", source=hero(s, "A"), cards=top))
    assert types(events) == ["CardsSpilled"]
    assert all(zone_of(s, c) == "discard" and s["cards"][c]["known"] == ["A", "B"] for c in top)
    assert len(s["seats"]["A"]["zones"]["hand"]) == hand


def test_damage_on_a_stashed_face_up_monster_squishes_it_at_its_life() -> None:
    s, _ = started_game()
    s, horde = give(s, "B", "Sample Goblin Horde", "stash", face="up")
    s, _ = play(s, cmd("activate", "A", card=hero(s, "A"), costs={"zap": True}))
    s, events = play(s, cmd("damage", "A", source=hero(s, "A"), target=horde, amount=2))
    assert types(events) == ["DamageDealt", "CardSquished"]
    assert zone_of(s, horde) == "discard"


def test_stealthy_cards_are_untargetable_only_while_in_play() -> None:
    s, _ = started_game()
    s, squid = give(s, "B", "Sample Lurking Squid", "stash", face="up")
    s, curse = give(s, "A", "Sample Cursed Bandage")
    with pytest.raises(RuleViolation):
        RS.decide(s, cmd("play", "A", card=curse, gold=1, targets=[squid]))
    s, discarded = give(s, "B", "Sample Lurking Squid", "discard")
    s, prank = give(s, "A", "Sample Encore Prank")
    events = [
        step.event
        for step in RS.decide(s, cmd("play", "A", card=prank, gold=1, targets=[discarded]))
    ]
    assert types(events) == ["MischiefPlayed"]


def test_smack_zaps_a_weapon_on_your_own_turn() -> None:
    s, _ = started_game(heroes=("Sample Gnome Thief", "Sample Orc Warrior"))
    s, dagger = give(s, "A", "Sample Sneaky Dagger", "hoard")
    s, events = play(
        s, cmd("activate", "A", card=dagger, costs={"zap": True}, targets=[hero(s, "B")])
    )
    assert types(events) == ["AbilityActivated"]
    assert s["cards"][dagger]["zapped"] is True


def test_moving_a_card_to_the_deck_bottom_hides_it_from_the_opponent_again() -> None:
    s = resolving()
    s, sword = give(s, "A", "Sample Rusty Sword", "discard")
    assert s["cards"][sword]["known"] == ["A", "B"]
    s, _ = play(s, cmd("move", "A", source=hero(s, "A"), card=sword, to="deck_bottom"))
    assert s["seats"]["A"]["zones"]["deck"][-1] == sword
    assert s["cards"][sword]["known"] == ["A"]


def test_removing_a_card_takes_it_out_of_the_game() -> None:
    s = resolving()
    s, sword = give(s, "B", "Sample Rusty Sword", "hoard")
    s, _ = play(s, cmd("remove", "A", source=hero(s, "A"), card=sword))
    assert zone_of(s, sword) == "removed"
    assert sword in s["seats"]["B"]["zones"]["removed"]


def test_a_revealed_card_is_known_to_both_players() -> None:
    s = resolving()
    card = s["seats"]["A"]["zones"]["hand"][0]
    s, _ = play(s, cmd("reveal_card", "A", source=hero(s, "A"), card=card))
    assert s["cards"][card]["known"] == ["A", "B"]


def test_an_ally_with_damage_at_its_life_is_squished_at_once() -> None:
    s = resolving()
    s, squire = give(s, "B", "Sample Loyal Squire", "hoard")
    s, events = play(s, cmd("damage", "A", source=hero(s, "A"), target=squire, amount=2))
    assert [(e.card, e.reason) for e in of_type(events, ev.CardSquished)] == [(squire, "damage")]


def test_unzapping_and_cost_changes_are_effects_of_a_resolving_ability() -> None:
    s = resolving()
    s, _ = play(s, cmd("zap", "B", card=hero(s, "B")))
    s, events = play(s, cmd("unzap", "A", source=hero(s, "A"), card=hero(s, "B")))
    assert types(events) == ["CardUnzapped"]
    assert s["cards"][hero(s, "B")]["zapped"] is False


@pytest.mark.parametrize("amount", [-1, MAX_NUMBER + 1, 2**70, True, 1.0, "3"])
def test_a_commands_numbers_are_whole_and_at_most_max_number(amount: object) -> None:
    with pytest.raises(InvalidCommand) as info:
        int_arg({"gold": amount}, "gold")
    assert info.value.fields == {"gold": [f"a whole number 0..{MAX_NUMBER}"]}
    assert int_arg({"gold": MAX_NUMBER}, "gold") == MAX_NUMBER


@pytest.mark.parametrize("amount", [0, MAX_NUMBER + 1, 2**70])
def test_a_judges_correction_moves_1_to_max_number_at_once(amount: int) -> None:
    state = {"version": 9, "cards": {}, "seats": {"A": {"hero": "c1"}}}
    command = {"type": "take_gold", "player": "A", "amount": amount, "corrects": 7}
    with pytest.raises(InvalidCommand) as info:
        decide_correction(state, command)
    assert info.value.fields == {"amount": [f"1..{MAX_NUMBER}"]}
    assert decide_correction(state, {**command, "amount": MAX_NUMBER}).amount == MAX_NUMBER
