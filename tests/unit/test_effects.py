"""Effects and keywords (docs/rules.md A.10, A.12): heal, steal, collect, spill, stealthy, smack...

What an effect command does is tested with a card whose text is unchecked on purpose
(``resolving()``: any effect may be recorded for it); a sample card's own effects are tested
with that card, and an effect that is not the card's is refused (docs/cards.md).
"""

from __future__ import annotations

import pytest

from domain import InvalidCommand, RuleViolation
from domain.arguments import int_arg
from domain.ccg import events as ev
from domain.ccg.cards import MAX_NUMBER
from domain.ccg.corrections import decide_correction
from tests.builders import (
    RS,
    WARRIOR,
    State,
    cmd,
    damage,
    give,
    hero,
    next_turn,
    of_type,
    play,
    resolving,
    started_game,
    types,
    unchecked,
    use_hero,
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


def piggy_bank_with_a_token() -> tuple[State, str]:
    """A's Piggy Bank ("Zap: Collect 1") in its hoard, used once: 1 token on it, zapped."""
    s, _ = started_game()
    s, bank = give(s, "A", "Sample Piggy Bank", "hoard")
    s, _ = play(s, cmd("activate", "A", card=bank))
    s, events = play(s, cmd("collect", "A", source=bank, amount=1), cmd("resolve", "A"))
    assert types(events) == ["TokensCollected", "AbilityResolved"]
    return s, bank


def test_collected_tokens_go_back_to_the_stockpile_when_the_card_leaves_play() -> None:
    s, bank = piggy_bank_with_a_token()
    assert (s["cards"][bank]["tokens"], s["cards"][bank]["zapped"]) == (1, True)
    s, _ = next_turn(s)
    s, _ = next_turn(s)  # A's unzap step
    assert (s["cards"][bank]["tokens"], s["cards"][bank]["zapped"]) == (1, False)
    s, _ = play(s, cmd("squish", "A", card=bank))
    assert s["cards"][bank]["tokens"] == 0


def test_collecting_more_than_the_card_says_is_refused() -> None:
    s, _ = started_game()
    s, bank = give(s, "A", "Sample Piggy Bank", "hoard")
    s, _ = play(s, cmd("activate", "A", card=bank))
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("collect", "A", source=bank, amount=3))
    assert info.value.code == "rule/wrong_amount"


def test_a_spill_moves_top_cards_face_up_to_the_discard_without_drawing() -> None:
    """Spilled Ale: "Spill 2 (from your own deck), then take 2 gold" (docs/rules.md A.12)."""
    s, _ = started_game()
    s, ale = give(s, "A", "Sample Spilled Ale")
    top = s["seats"]["A"]["zones"]["deck"][:2]  # index 0 is the deck's top
    hand = len(s["seats"]["A"]["zones"]["hand"])
    s, _ = play(s, cmd("play", "A", card=ale, gold=1))
    s, events = play(s, cmd("spill", "A", source=ale, cards=top))
    assert types(events) == ["CardsSpilled"]
    assert all(zone_of(s, c) == "discard" and s["cards"][c]["known"] == ["A", "B"] for c in top)
    assert len(s["seats"]["A"]["zones"]["hand"]) == hand - 1, "only the Ale left the hand"
    s, events = play(s, cmd("take_gold", "A", source=ale, amount=2), cmd("resolve", "A"))
    assert types(events) == ["GoldTaken", "AbilityResolved"]
    assert s["seats"]["A"]["gold"] == 2


def test_damage_on_a_stashed_face_up_monster_squishes_it_at_its_life() -> None:
    """The Orc Warrior deals 1 damage to a Hero or a Monster, "stashed Monsters included"."""
    s, _ = started_game()
    s, horde = give(s, "B", "Sample Goblin Horde", "stash", face="up")
    s = with_damage(s, horde, 1)  # life 2
    a = hero(s, "A")
    s, _ = play(s, cmd("activate", "A", card=a, costs={"zap": True}, targets=[horde]))
    s, events = play(s, cmd("damage", "A", source=a, target=horde, amount=1))
    assert types(events) == ["DamageDealt", "CardSquished"]
    assert zone_of(s, horde) == "discard"


def test_a_face_down_stash_card_cannot_be_targeted() -> None:
    """Face-down stash cards are out of play (docs/rules.md A.3)."""
    s, _ = started_game()
    s, horde = give(s, "B", "Sample Goblin Horde", "stash")
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("activate", "A", card=hero(s, "A"), targets=[horde]))
    assert info.value.code == "rule/illegal_target"


def test_stealthy_cards_are_untargetable_only_while_in_play() -> None:
    s, _ = started_game(fmt="casual", changes=unchecked("Sample Encore Prank"))
    s, squid = give(s, "B", "Sample Lurking Squid", "stash", face="up")
    s, curse = give(s, "A", "Sample Cursed Bandage")
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("play", "A", card=curse, gold=1, targets=[squid]))
    assert (info.value.code, info.value.rule) == ("rule/stealthy_target", "A.12")
    # Out of play, Stealthy does not protect it: a card whose text is not encoded (unchecked
    # on purpose) may name it. An encoded card's filter only accepts cards in play (A.3).
    s, discarded = give(s, "B", "Sample Lurking Squid", "discard")
    s, prank = give(s, "A", "Sample Encore Prank")
    events = [
        step.event
        for step in RS.decide(s, cmd("play", "A", card=prank, gold=1, targets=[discarded]))
    ]
    assert types(events) == ["MischiefPlayed"]
    assert events[0].unchecked is True


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


def test_the_gnome_thief_puts_a_card_from_its_hand_on_the_deck_bottom() -> None:
    """Gnome Thief: "Zap: draw 2 cards, then put 1 card from your hand on the bottom of your
    deck" -- the put-back is the card's third effect, a card of the controller's hand."""
    s, _ = started_game(heroes=("Sample Gnome Thief", "Sample Orc Warrior"))
    t = hero(s, "A")
    first, second = s["seats"]["A"]["zones"]["deck"][:2]
    s, _ = play(
        s,
        cmd("activate", "A", card=t),
        cmd("draw", "A", source=t, card=first),
        cmd("draw", "A", source=t, card=second),
    )
    in_deck = s["seats"]["A"]["zones"]["deck"][0]
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("move", "A", source=t, card=in_deck, to="deck_bottom"))
    assert info.value.code == "rule/wrong_target", "a card from the hand, not from the deck"
    s, _ = play(s, cmd("move", "A", source=t, card=first, to="deck_bottom"), cmd("resolve", "A"))
    assert s["seats"]["A"]["zones"]["deck"][-1] == first
    assert (zone_of(s, second), s["stack"]) == ("hand", [])


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
    """Encore Prank: "Deal 1 damage to a Hero, Ally or Monster"."""
    s, _ = started_game()
    s, squire = give(s, "B", "Sample Loyal Squire", "hoard")
    s = with_damage(s, squire, 1)  # life 2
    s, prank = give(s, "A", "Sample Encore Prank")
    s, _ = play(s, cmd("play", "A", card=prank, gold=1, targets=[squire]))
    s, events = play(s, cmd("damage", "A", source=prank, target=squire, amount=1))
    assert [(e.card, e.reason) for e in of_type(events, ev.CardSquished)] == [(squire, "damage")]


def test_unzapping_and_cost_changes_are_effects_of_a_resolving_ability() -> None:
    s, _ = started_game(fmt="casual", changes=unchecked(WARRIOR))
    s, _ = use_hero(s, "B")  # the Gnome Thief is zapped to pay for its ability
    a, thief = hero(s, "A"), hero(s, "B")
    assert s["cards"][thief]["zapped"] is True
    s, _ = play(s, cmd("activate", "A", card=a, costs={"zap": True}))  # unchecked on purpose
    s, events = play(s, cmd("unzap", "A", source=a, card=thief))
    assert types(events) == ["CardUnzapped"]
    assert events[0].unchecked is True
    assert s["cards"][thief]["zapped"] is False


def test_an_unzap_that_is_not_the_cards_effect_is_refused() -> None:
    s, _ = started_game()
    s, _ = use_hero(s, "B")
    a, thief = hero(s, "A"), hero(s, "B")
    s, _ = play(s, cmd("activate", "A", card=a, targets=[thief]))
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("unzap", "A", source=a, card=thief))
    assert info.value.code == "rule/wrong_effect", "the Orc Warrior deals damage, nothing else"


@pytest.mark.parametrize("amount", [-1, MAX_NUMBER + 1, 2**70, True, 1.0, "3"])
def test_a_commands_numbers_are_whole_and_at_most_max_number(amount: object) -> None:
    with pytest.raises(InvalidCommand) as info:
        int_arg({"gold": amount}, "gold", hi=MAX_NUMBER)
    assert info.value.fields == {"gold": [f"a whole number 0..{MAX_NUMBER}"]}
    assert int_arg({"gold": MAX_NUMBER}, "gold", hi=MAX_NUMBER) == MAX_NUMBER


@pytest.mark.parametrize("amount", [0, MAX_NUMBER + 1, 2**70])
def test_a_judges_correction_moves_1_to_max_number_at_once(amount: int) -> None:
    state = {"version": 9, "cards": {}, "seats": {"A": {"hero": "c1"}}}
    command = {"type": "take_gold", "player": "A", "amount": amount, "corrects": 7}
    with pytest.raises(InvalidCommand) as info:
        decide_correction(state, command)
    assert info.value.fields == {"amount": [f"a whole number 1..{MAX_NUMBER}"]}
    assert decide_correction(state, {**command, "amount": MAX_NUMBER}).amount == MAX_NUMBER
