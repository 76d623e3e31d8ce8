"""Abilities that change a level (issue #24 item 5; docs/rules.md A.2, A.8, D.21; docs/cards.md
``gain_level``, ``lose_level``, the ``level_gained`` trigger).

The rules: "Increase power, levels, or life as specified by a rule or ability"; a level counter
goes from 1 to 10 ("You cannot increase your level past 10"); "Abilities that trigger when you
gain a level cannot activate if you are already at level 10". The sample catalog's cleric cards
use them: Holy Promotion (gain a level), Humbling Prayer (a Hero loses a level), Choir Boy (when
you gain a level: take 1 gold). A Wandering Bard may play cleric cards in prime (A.6), so the
games here are prime games of catalog cards.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain import ImpossibleCommand, InvalidCommand, RuleViolation
from domain.ccg import events as ev
from domain.ccg.cards import normalize_card
from projections.exports.narration import narrate
from tests import builders as b
from tests.builders import BARD, State, cmd, of_type, play, types

PROMOTION = "Sample Holy Promotion"
PRAYER = "Sample Humbling Prayer"
CHOIR_BOY = "Sample Choir Boy"
CLERIC = [PROMOTION, PRAYER, CHOIR_BOY, "Sample Penitent Monk", "Sample Divine Wrath"]


def cleric_game(mode: str = "strict", **options: Any) -> State:
    """Two Wandering Bards with cleric decks (prime), A munchkining with 10 gold."""
    deck = b.prime_deck(BARD)[:30] + CLERIC * 2
    s, _ = b.started_game(mode=mode, heroes=(BARD, BARD), decks={"A": deck, "B": deck}, **options)
    return b.add_gold(s, "A", 9)


def level(s: State, seat: str) -> int:
    return int(s["seats"][seat]["level"])


def promoted(mode: str = "strict", at: int = 1) -> tuple[State, str]:
    """A plays Holy Promotion at level ``at``: its gain_level is the next effect."""
    s = b.with_level(cleric_game(mode), "A", at)
    s, card = b.give(s, "A", PROMOTION)
    s, _ = play(s, cmd("play", "A", card=card, gold=2))
    return s, card


def test_holy_promotion_gains_a_level_and_the_event_says_by_how_much() -> None:
    s, card = promoted(at=3)
    s, events = play(s, cmd("gain_level", "A", source=card, target="A", amount=1))
    assert types(events) == ["LevelGained"]
    gained = of_type(events, ev.LevelGained)[0]
    assert (gained.player, gained.amount, gained.level, gained.source) == ("A", 1, 4, card)
    s, events = play(s, cmd("resolve", "A"))
    assert of_type(events, ev.AbilityResolved)[0].outcome == "resolved"
    assert level(s, "A") == 4


def test_the_legal_commands_offer_the_cards_level_effect() -> None:
    s, card = promoted(at=3)
    offered = [c for c in b.RS.legal_commands(s, "A") if c["type"] == "gain_level"]
    hero = b.hero(s, "A")
    assert offered == [cmd("gain_level", "A", source=card, target=hero, amount=1)]


def test_a_gain_at_level_10_is_refused_in_strict_mode_and_the_ability_may_resolve() -> None:
    s, card = promoted(at=10)
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("gain_level", "A", source=card, target="A", amount=1))
    assert (info.value.code, info.value.rule) == ("rule/level_limit", "A.2")
    s, events = play(s, cmd("resolve", "A"))  # what cannot be done may be left out (A.11)
    assert of_type(events, ev.AbilityResolved)[0].outcome == "partial"
    assert level(s, "A") == 10


def test_a_gain_at_level_10_is_flagged_in_record_mode_and_changes_nothing() -> None:
    s, card = promoted("record", at=10)
    s, _ = b.give(s, "A", CHOIR_BOY, "hoard")
    s, events = play(s, cmd("gain_level", "A", source=card, target="A", amount=1))
    assert types(events) == ["LevelGained"], "no 'when you gain a level' trigger from level 10"
    gained = of_type(events, ev.LevelGained)[0]
    assert (gained.amount, gained.level, gained.violation) == (0, 10, "rule/level_limit")
    assert level(s, "A") == 10 and s["stack"][-1]["card"] == card


def test_a_gain_past_10_stops_at_10_and_still_triggers_from_level_9() -> None:
    big = {PROMOTION: {"abilities": [{"effects": [{"op": "gain_level", "amount": 3}]}]}}
    deck = b.prime_deck(BARD)[:30] + CLERIC * 2
    s, _ = b.started_game(
        fmt="casual", heroes=(BARD, BARD), decks={"A": deck, "B": deck}, changes=big
    )
    s = b.with_level(b.add_gold(s, "A", 9), "A", 9)
    s, _ = b.give(s, "A", CHOIR_BOY, "hoard")
    s, card = b.give(s, "A", PROMOTION)
    s, events = play(
        s,
        cmd("play", "A", card=card, gold=2),
        cmd("gain_level", "A", source=card, target="A", amount=3),
    )
    gained = of_type(events, ev.LevelGained)[0]
    assert (gained.amount, gained.level) == (1, 10)
    assert types(events)[-2:] == ["LevelGained", "AbilityTriggered"], "9 is not 10: it triggers"


def test_a_level_gained_by_an_effect_triggers_choir_boy_before_the_rest_of_the_ability() -> None:
    s, card = promoted(at=1)
    s, boy = b.give(s, "A", CHOIR_BOY, "hoard")
    gold = s["seats"]["A"]["gold"]
    s, events = play(s, cmd("gain_level", "A", source=card, target="A", amount=1))
    triggered = of_type(events, ev.AbilityTriggered)
    assert [(t.card, t.trigger, t.player) for t in triggered] == [(boy, "level_gained", "A")]
    assert [e["card"] for e in s["stack"]] == [card, boy], "the trigger resolves first"
    s, _ = play(
        s,
        cmd("take_gold", "A", source=boy, amount=1),
        cmd("resolve", "A"),
        cmd("resolve", "A"),
    )
    assert (s["stack"], s["seats"]["A"]["gold"], level(s, "A")) == ([], gold + 1, 2)


def test_the_cooldown_level_triggers_choir_boy_and_waits_for_it() -> None:
    s, boy = b.give(cleric_game(), "A", CHOIR_BOY, "hoard")
    s, events = play(s, cmd("end_turn", "A"))
    assert types(events)[-2:] == ["LevelIncreased", "AbilityTriggered"]
    assert (s["phase"], s["active"], s["stack"][-1]["card"]) == ("cooldown", "A", boy)
    gold = s["seats"]["A"]["gold"]
    s, events = play(s, cmd("take_gold", "A", source=boy, amount=1), cmd("resolve", "A"))
    assert "TurnEnded" in types(events) and s["active"] == "B", "the cooldown goes on"
    assert s["seats"]["A"]["gold"] == gold + 1


def test_no_level_trigger_in_the_cooldown_at_level_10() -> None:
    s, _ = b.give(b.with_level(cleric_game(), "A", 10), "A", CHOIR_BOY, "hoard")
    s, events = play(s, cmd("end_turn", "A"))
    assert "LevelIncreased" not in types(events) and "AbilityTriggered" not in types(events)
    assert s["active"] == "B" and level(s, "A") == 10


def test_a_level_gained_trigger_is_never_activated_by_hand() -> None:
    s, boy = b.give(cleric_game(), "A", CHOIR_BOY, "hoard")
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("activate", "A", card=boy, ability=0))
    assert info.value.code == "rule/no_such_ability"


def prayed(mode: str = "strict", at: int = 3) -> tuple[State, str]:
    """A plays Humbling Prayer on B's Hero, B at level ``at``."""
    s = b.with_level(cleric_game(mode), "B", at)
    s, card = b.give(s, "A", PRAYER)
    s, _ = play(s, cmd("play", "A", card=card, gold=1, targets=[b.hero(s, "B")]))
    return s, card


def test_humbling_prayer_takes_a_level_from_its_target() -> None:
    s, card = prayed(at=3)
    s, events = play(s, cmd("lose_level", "A", source=card, target="B", amount=1))
    lost = of_type(events, ev.LevelLost)[0]
    assert (lost.player, lost.amount, lost.level) == ("B", 1, 2)
    assert level(s, "B") == 2


def test_humbling_prayer_on_another_hero_than_its_target_is_refused() -> None:
    s, card = prayed(at=3)
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("lose_level", "A", source=card, target="A", amount=1))
    assert info.value.code == "rule/wrong_target"


def test_a_loss_at_level_1_is_refused_strict_flagged_in_record_mode() -> None:
    s, card = prayed(at=1)
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, cmd("lose_level", "A", source=card, target="B", amount=1))
    assert (info.value.code, info.value.rule) == ("rule/level_limit", "A.2")
    s, card = prayed("record", at=1)
    s, events = play(s, cmd("lose_level", "A", source=card, target="B", amount=1))
    lost = of_type(events, ev.LevelLost)[0]
    assert (lost.amount, lost.level, lost.violation) == (0, 1, "rule/level_limit")
    assert level(s, "B") == 1


def test_a_loss_below_1_stops_at_1() -> None:
    s = b.resolving("A")  # an unchecked Hero ability: any effect, only its own rules apply
    s = b.with_level(s, "B", 2)
    s, events = play(s, cmd("lose_level", "A", source=b.hero(s, "A"), target="B", amount=3))
    lost = of_type(events, ev.LevelLost)[0]
    assert (lost.amount, lost.level, lost.unchecked) == (1, 1, True)


@pytest.mark.parametrize("mode", ["strict", "record"])
def test_a_level_effect_on_a_card_that_is_not_a_hero_is_impossible(mode: str) -> None:
    s = b.resolving("A", mode=mode)
    s, squire = b.give(s, "B", "Sample Loyal Squire", "hoard")
    with pytest.raises(ImpossibleCommand) as info:
        b.RS.decide(s, cmd("gain_level", "A", source=b.hero(s, "A"), target=squire, amount=1))
    assert info.value.code == "command/not_a_hero"


def test_a_lost_level_keeps_the_loot_in_play_but_blocks_new_loot() -> None:
    """D.10: after a loss, Loot in play stays; no new Loot while the rank total is over the
    level."""
    s, card = prayed(at=2)
    s, _ = b.give(s, "B", "Sample Rusty Sword", "hoard")  # rank 1
    s, _ = b.give(s, "B", "Sample Leather Armor", "hoard")  # rank 1: total 2 = level 2
    s, _ = play(s, cmd("lose_level", "A", source=card, target="B", amount=1), cmd("resolve", "A"))
    assert level(s, "B") == 1 and b.card_id(s, "B", "Sample Rusty Sword", "hoard")


def told(e: ev.Event, state: State) -> list[str]:
    """The export narration of one event."""
    data = e.to_dict()
    entry = {"type": data["type"], "seat": e.seat, "cause": e.cause, "data": data}
    return narrate({**entry, "violation": e.violation}, state)


def test_the_narration_tells_each_level_change_and_the_level_trigger() -> None:
    s, card = promoted(at=3)
    s, _ = b.give(s, "A", CHOIR_BOY, "hoard")
    s, events = play(s, cmd("gain_level", "A", source=card, target="A", amount=1))
    gained, triggered = events
    assert told(gained, s) == ["A gains a level: level 4 (Sample Holy Promotion)"]
    assert told(triggered, s) == ["A: Sample Choir Boy's level-gain ability triggers"]
    s, card = prayed("record", at=1)
    s, events = play(s, cmd("lose_level", "A", source=card, target="B", amount=1))
    assert told(events[0], s) == [
        "B stays at level 1 (Sample Humbling Prayer) [violation: rule/level_limit]"
    ]
    s, card = prayed(at=3)
    s, events = play(s, cmd("lose_level", "A", source=card, target="B", amount=1))
    assert told(events[0], s) == ["B loses a level: level 2 (Sample Humbling Prayer)"]


@pytest.mark.parametrize(
    "effect",
    [
        {"op": "gain_level", "to": "self"},
        {"op": "lose_level", "to": "none"},
        {"op": "heal", "to": "each_hero"},
    ],
)
def test_a_level_effect_names_a_hero_and_each_hero_is_for_damage(effect: dict[str, Any]) -> None:
    raw = {"name": "X", "type": "mischief", "abilities": [{"effects": [effect]}]}
    with pytest.raises(InvalidCommand) as info:
        normalize_card(raw)
    assert info.value.code == "request/invalid_card"
    assert "abilities.0.effects.0.to" in info.value.fields


def test_level_effects_and_the_level_trigger_are_card_data() -> None:
    card = normalize_card(
        {
            "name": "X",
            "type": "ally",
            "life": 1,
            "abilities": [
                {"trigger": "level_gained", "effects": [{"op": "lose_level", "amount": 2}]}
            ],
        }
    )
    (ability,) = card["abilities"]
    assert ability["trigger"] == "level_gained"
    assert ability["effects"][0] == {
        "op": "lose_level",
        "amount": 2,
        "to": "opposing_hero",
        "index": None,
        "if": None,
    }
