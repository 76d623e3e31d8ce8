"""Munchkining actions and their legality (docs/rules.md A.8, A.10 Squish, D.10, D.16)."""

from __future__ import annotations

import pytest

from domain import ImpossibleCommand, RuleViolation
from tests.builders import (
    RS,
    add_gold,
    cmd,
    give,
    next_turn,
    play,
    started_game,
    types,
    with_level,
    zone_of,
)


def test_loot_goes_face_up_to_the_hoard_within_the_rank_limit() -> None:
    s, _ = started_game()
    s, sword = give(s, "A", "Sample Rusty Sword")
    s, events = play(s, cmd("play", "A", card=sword))
    assert types(events) == ["LootPlayed"]
    assert zone_of(s, sword) == "hoard"
    assert s["cards"][sword]["known"] == ["A", "B"]


def test_rank_0_loot_may_join_when_the_total_equals_the_level() -> None:
    s, _ = started_game()
    s, _ = give(s, "A", "Sample Rusty Sword", "hoard")
    s, stick = give(s, "A", "Sample Pointy Stick")
    s, _ = play(s, cmd("play", "A", card=stick))
    assert zone_of(s, stick) == "hoard"


def test_a_higher_level_allows_more_loot_rank() -> None:
    s, _ = started_game()
    s = with_level(s, "A", 3)
    s, hammer = give(s, "A", "Sample Big Hammer")
    s, sword = give(s, "A", "Sample Rusty Sword")
    s, _ = play(s, cmd("play", "A", card=hammer), cmd("play", "A", card=sword))
    assert zone_of(s, hammer) == zone_of(s, sword) == "hoard"


def test_existing_loot_stays_after_the_rank_total_exceeds_the_level() -> None:
    """D.10: the Loot already in play stays; only new Loot is refused."""
    s, _ = started_game()
    s, sword = give(s, "A", "Sample Rusty Sword", "hoard")
    s, armor = give(s, "A", "Sample Leather Armor", "hoard")
    assert zone_of(s, sword) == zone_of(s, armor) == "hoard"
    assert not [
        c
        for c in RS.legal_commands(s, "A")
        if c["type"] == "play" and s["cards"][c["card"]]["def"]["type"] == "loot"
    ]


def test_a_location_may_replace_another_only_after_squishing_it() -> None:
    s, _ = started_game()
    s, tavern = give(s, "A", "Sample Tavern")
    s, entrance = give(s, "A", "Sample Dungeon Entrance")
    s, _ = play(s, cmd("play", "A", card=tavern))
    with pytest.raises(RuleViolation):
        RS.decide(s, cmd("play", "A", card=entrance))
    s, events = play(s, cmd("squish", "A", card=tavern), cmd("play", "A", card=entrance))
    assert types(events) == ["CardSquished", "LocationPlayed"]
    assert events[0].reason == "action"
    assert zone_of(s, tavern) == "discard"


def test_an_ally_is_paid_from_the_purse_overpaying_allowed() -> None:
    s, _ = started_game()
    s = add_gold(s, "A", 3)
    s, squire = give(s, "A", "Sample Loyal Squire")
    s, events = play(s, cmd("play", "A", card=squire, gold=3))
    assert events[0].gold_paid == 3
    assert s["seats"]["A"]["gold"] == 1
    assert zone_of(s, squire) == "hoard"


def test_an_ally_defaults_to_paying_its_cost() -> None:
    s, _ = started_game()
    s = add_gold(s, "A", 1)
    s, squire = give(s, "A", "Sample Loyal Squire")
    s, events = play(s, cmd("play", "A", card=squire))
    assert (events[0].gold_paid, s["seats"]["A"]["gold"]) == (2, 0)


def test_squishing_sends_unzapped_loot_to_its_owners_discard_and_strips_tokens() -> None:
    s, _ = started_game()
    s, bank = give(s, "A", "Sample Piggy Bank", "hoard")
    s, _ = play(
        s,
        cmd("activate", "A", card=bank),  # "Zap: Collect 1"
        cmd("collect", "A", source=bank, card=bank, amount=1),
        cmd("resolve", "A"),
    )
    assert (s["cards"][bank]["tokens"], s["cards"][bank]["zapped"]) == (1, True)
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("squish", "A", card=bank))
    assert (info.value.code, info.value.rule) == ("rule/card_zapped", "A.8")
    s, _ = next_turn(s)
    s, _ = next_turn(s)  # A's unzap step; the token stays
    s, _ = play(s, cmd("squish", "A", card=bank))
    assert (zone_of(s, bank), s["cards"][bank]["tokens"]) == ("discard", 0)
    assert bank in s["seats"]["A"]["zones"]["discard"]


def test_monsters_are_never_played_only_committed() -> None:
    s, _ = started_game()
    s, pot = give(s, "A", "Sample Plant Pot")
    with pytest.raises(ImpossibleCommand) as info:
        RS.decide(s, cmd("play", "A", card=pot))
    assert info.value.code == "command/not_playable"


def test_legal_commands_offer_plays_attacks_squishes_and_the_end_of_the_turn() -> None:
    s, _ = started_game()
    s, sword = give(s, "A", "Sample Rusty Sword")
    s, tavern = give(s, "A", "Sample Tavern", "hoard")
    kinds = {(c["type"], c.get("card")) for c in RS.legal_commands(s, "A")}
    assert ("end_turn", None) in kinds
    assert ("play", sword) in kinds
    assert ("attack", sword) in kinds, "bluffing with any card is legal"
    assert ("squish", tavern) in kinds
    assert not [c for c in RS.legal_commands(s, "B") if c["type"] in ("end_turn", "attack")]


def test_attack_gold_options_are_nothing_the_cost_and_the_whole_purse() -> None:
    s, _ = started_game()
    s = add_gold(s, "A", 4)
    s, horde = give(s, "A", "Sample Goblin Horde")
    golds = sorted(
        c["gold"] for c in RS.legal_commands(s, "A") if c["type"] == "attack" and c["card"] == horde
    )
    assert golds == [0, 2, 5]
