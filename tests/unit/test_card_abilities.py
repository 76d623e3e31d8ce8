"""Every ability of the sample catalog, used as its card says (docs/cards.md, docs/rules.md
A.9-A.12): activated or played, its effects recorded as ``legal_commands`` offers them, and the
result checked number by number. The cheating attempts are in ``test_cheating.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.ccg.cards import abilities_of, is_unchecked, sample_catalog
from tests import builders as b
from tests.builders import State, cmd, play


def resolve_all(s: State, seat: str) -> tuple[State, list[Any]]:
    """Record the resolving ability's effects as offered (the first option each time), then
    resolve; repeat while ``seat`` controls the top of the stack."""
    events: list[Any] = []
    while s["stack"] and s["stack"][-1]["player"] == seat:
        options = [c for c in b.RS.legal_commands(s, seat) if c["type"] not in ("concede",)]
        effect = next(c for c in options if c.get("source") or c["type"] in ("resolve", "target"))
        s, more = play(s, effect)
        events += more
    return s, events


def gold(s: State, seat: str) -> int:
    return int(s["seats"][seat]["gold"])


def test_every_sample_card_is_encoded() -> None:
    cat = sample_catalog()
    assert [n for n, d in cat.cards.items() if is_unchecked(d)] == []
    with_abilities = {n for n, d in cat.cards.items() if abilities_of(d)}
    assert with_abilities == set(SCENARIOS), "each ability has a scenario below"


def orc_warrior() -> None:
    s, _ = b.started_game()
    s, _ = play(s, cmd("activate", "A", card=b.hero(s, "A"), targets=[b.hero(s, "B")]))
    s, events = resolve_all(s, "A")
    assert b.damage(s, "B") == 1 and s["cards"][b.hero(s, "A")]["zapped"]
    assert [e.type for e in events] == ["DamageDealt", "AbilityResolved"]


def gnome_thief() -> None:
    s, _ = b.started_game()
    hand = len(s["seats"]["B"]["zones"]["hand"])
    s, _ = play(s, cmd("activate", "B", card=b.hero(s, "B")))
    s, events = resolve_all(s, "B")
    assert [e.type for e in events] == ["CardDrawn", "CardDrawn", "CardMoved", "AbilityResolved"]
    assert len(s["seats"]["B"]["zones"]["hand"]) == hand + 1
    assert s["seats"]["B"]["zones"]["deck"][-1] == events[2].card  # the bottom


def wandering_bard() -> None:
    s, _ = b.started_game(heroes=(b.BARD, b.THIEF))
    before = gold(s, "A")
    s, _ = play(s, cmd("activate", "A", card=b.hero(s, "A")))
    s, _ = resolve_all(s, "A")
    assert gold(s, "A") == before - 1 + 2


def hired(name: str, gold_paid: int, seat: str = "A") -> tuple[State, list[Any], str]:
    s, _ = b.started_game(first=seat)
    s, monster = b.give(s, seat, name)
    s = b.add_gold(s, seat, gold_paid)
    other = b.other(seat)
    s, events = play(s, *b.attack_revealed(seat, monster, gold_paid), cmd("pass", seat))
    s, more = play(s, cmd("pass", other))
    assert [e.type for e in more][-1] == "AbilityTriggered"
    s, more2 = resolve_all(s, seat)
    return s, events + more + more2, monster


def goblin_horde() -> None:
    s, events, _ = hired("Sample Goblin Horde", 2)
    assert b.damage(s, "B") == 1
    assert sum(1 for e in events if e.type == "AbilityTriggered") == 1


def pickpocket_imp() -> None:
    s, _ = b.started_game(first="B")
    a_gold = gold(s, "A")
    s, _, _ = hired("Sample Pickpocket Imp", 2, seat="B")
    assert gold(s, "A") == a_gold - 1


def shifty_henchman() -> None:
    s, _ = b.started_game(first="B")
    s, henchman = b.give(s, "B", "Sample Shifty Henchman", "hoard")
    s, sword = b.give(s, "B", "Sample Rusty Sword")
    s, _ = play(s, *b.attack_revealed("B", sword, 0))  # a Weapon: caught cheating
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))  # the 1 damage is dealt
    assert s["seats"]["B"]["caught_cheating"] and s["fight"] is None
    a_gold = gold(s, "A")
    s, _ = play(s, cmd("activate", "B", card=henchman))
    s, _ = resolve_all(s, "B")
    assert gold(s, "A") == a_gold - 1


def tavern() -> None:
    s, _ = b.started_game()
    s, card = b.give(s, "A", "Sample Tavern", "hoard")
    before = gold(s, "A")
    s, _ = play(s, cmd("activate", "A", card=card))
    s, _ = resolve_all(s, "A")
    assert gold(s, "A") == before + 1 and s["cards"][card]["zapped"]


def cursed_bandage() -> None:
    s, curse = b.bleeding(b.started_game()[0], "A")
    assert s["cards"][curse]["zone"] == "stuck"
    s, _ = b.next_turn(s, draw=False)  # B's reckoning: Bleeding 1, announced first (D.28)
    s, _ = play(s, cmd("pass", "B"), cmd("pass", "A"))
    assert b.damage(s, "B") == 1


def nope() -> None:
    s, _ = b.started_game()
    s, _ = play(s, cmd("activate", "A", card=b.hero(s, "A"), targets=[b.hero(s, "B")]))
    s, card = b.give(s, "B", "Sample Nope")
    s, _ = play(s, cmd("play", "B", card=card, gold=1))
    s, _ = resolve_all(s, "B")
    assert s["stack"][-1]["canceled"]
    s, events = resolve_all(s, "A")
    assert events[-1].outcome == "canceled" and b.damage(s, "B") == 0


def blood_pact() -> None:
    for blood, gain in ((0, 2), (2, 4)):
        s, _ = b.started_game()
        s, card = b.give(s, "A", "Sample Blood Pact")
        before = gold(s, "A")
        s, _ = play(s, cmd("play", "A", card=card, gold=1, give_blood=blood))
        s, _ = resolve_all(s, "A")
        assert gold(s, "A") == before - 1 + gain
        assert b.damage(s, "A") == blood


def sudden_ambush() -> None:
    s, _ = b.started_game()
    s, card = b.give(s, "A", "Sample Sudden Ambush")
    s = b.add_gold(s, "A", 1)
    s, _ = play(s, cmd("play", "A", card=card, gold=2, targets=[b.hero(s, "B")]))
    s, _ = resolve_all(s, "A")
    assert b.damage(s, "B") == 2 and b.zone_of(s, card) == "discard"


def encore_prank() -> None:
    s, _ = b.started_game()
    s, card = b.give(s, "A", "Sample Encore Prank")
    s, _ = play(s, cmd("play", "A", card=card, gold=1, targets=[b.hero(s, "B")]))
    s, _ = resolve_all(s, "A")
    assert b.damage(s, "B") == 1 and b.zone_of(s, card) == "stash"


def tin_shield() -> None:
    s, _ = b.started_game()
    s, shield = b.give(s, "B", "Sample Tin Shield", "hoard")
    for _ in range(2):  # the second attack makes B limp away: 2 damage announced
        s, card = b.give(s, "A", "Sample Plant Pot")
        s, _ = play(s, cmd("attack", "A", card=card, gold=0), cmd("run_away", "B"))
    assert s["window"]["damage"]["amount"] == 2
    s, _ = play(s, cmd("activate", "B", card=shield))
    s, _ = resolve_all(s, "B")
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))
    assert b.damage(s, "B") == 1 and s["fight"] is None


def grave_moth() -> None:
    s, _ = b.started_game()
    s, moth = b.give(s, "A", "Sample Grave Moth")
    s = b.add_gold(s, "A", 1)
    s, _ = play(s, *b.attack_revealed("A", moth, 2), cmd("pass", "A"), cmd("pass", "B"))
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))  # hire window: the Monster strikes
    before = gold(s, "A")
    s, events = play(s, cmd("pass", "A"), cmd("pass", "B"))  # the 2 damage is dealt
    assert [e.trigger for e in events if e.type == "AbilityTriggered"] == ["survivor"]
    assert b.zone_of(s, moth) == "dmz", "Survivor triggers before the Monster is stashed"
    s, events = resolve_all(s, "A")
    assert gold(s, "A") == before + 1
    assert b.zone_of(s, moth) == "stash" and s["cards"][moth]["face"] == "up"
    assert s["fight"] is None


def toll_bridge() -> None:
    s, _ = b.started_game()
    s, bridge = b.give(s, "B", "Sample Toll Bridge", "hoard")
    before = gold(s, "B")
    s, events = play(s, cmd("end_turn", "A"))
    assert s["stack"][-1]["card"] == bridge and s["step"] == "reckoning"
    s, events = resolve_all(s, "B")
    assert gold(s, "B") == before + 1 and s["step"] == "draw"
    assert "StashUnstashed" in [e.type for e in events], "the warmup goes on after reckoning"


def war_drummer() -> None:
    s, _ = b.started_game()
    s = b.with_damage(s, "B", 3)
    s, drummer = b.give(s, "B", "Sample War Drummer", "hoard")
    s, pot = b.give(s, "A", "Sample Plant Pot")
    s = b.add_gold(s, "A", 1)
    s, _ = play(s, *b.attack_revealed("A", pot, 1, defenders=[drummer]))
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"), cmd("pass", "A"), cmd("pass", "B"))
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))  # the strike's damage window
    if s["fight"] and s["fight"]["stage"] == "allocating":
        s, _ = play(s, cmd("allocate", "B", damage={drummer: 1}))
    assert s["stack"] and s["stack"][-1]["kind"] == "end_of_fight"
    s, _ = resolve_all(s, "B")
    assert b.damage(s, "B") == 2 and s["fight"] is None


def haggler() -> None:
    s, _ = b.started_game()
    s, sucker = b.give(s, "A", "Sample Bloodsucker")  # cost 4
    s = b.add_gold(s, "A", 2)
    s, _ = play(s, *b.attack_revealed("A", sucker, 2))
    s, card = b.give(s, "A", "Sample Haggler")
    s, _ = play(s, cmd("play", "A", card=card, gold=1))
    s, _ = resolve_all(s, "A")
    assert s["cards"][sucker]["cost_mod"] == 2
    s, events = play(s, cmd("pass", "A"), cmd("pass", "B"))
    assert any(e.type == "MonsterHired" for e in events), "2 gold now pays the cost of 2"


def spilled_ale() -> None:
    s, _ = b.started_game()
    s, card = b.give(s, "A", "Sample Spilled Ale")
    top = s["seats"]["A"]["zones"]["deck"][:2]
    before = gold(s, "A")
    s, _ = play(s, cmd("play", "A", card=card, gold=1))
    s, _ = resolve_all(s, "A")
    assert all(b.zone_of(s, c) == "discard" for c in top)
    assert gold(s, "A") == before - 1 + 2


def piggy_bank() -> None:
    s, _ = b.started_game()
    s, pig = b.give(s, "A", "Sample Piggy Bank", "hoard")
    s, _ = play(s, cmd("activate", "A", card=pig))
    s, _ = resolve_all(s, "A")
    assert s["cards"][pig]["tokens"] == 1


def sneaky_dagger() -> None:
    s, _ = b.started_game(first="B")
    s, dagger = b.give(s, "B", "Sample Sneaky Dagger", "hoard")
    s, _ = play(s, cmd("activate", "B", card=dagger, targets=[b.hero(s, "A")]))
    s, _ = resolve_all(s, "B")
    assert b.damage(s, "A") == 1 and s["cards"][dagger]["zapped"]


def cleric_game() -> State:
    """Two Wandering Bards with cleric cards (prime: a Wanderer plays one class, A.6)."""
    cleric = [n for n, d in sample_catalog().cards.items() if d["class"] == "cleric"]
    deck = b.prime_deck(b.BARD)[: 40 - 2 * len(cleric)] + cleric * 2
    s, _ = b.started_game(heroes=(b.BARD, b.BARD), decks={"A": deck, "B": deck})
    return b.add_gold(s, "A", 9)


def holy_promotion() -> None:
    s, card = b.give(cleric_game(), "A", "Sample Holy Promotion")
    s, _ = play(s, cmd("play", "A", card=card, gold=2))
    s, events = resolve_all(s, "A")
    assert s["seats"]["A"]["level"] == 2
    assert [e.type for e in events] == ["LevelGained", "AbilityResolved"]


def humbling_prayer() -> None:
    s = b.with_level(cleric_game(), "B", 4)
    s, card = b.give(s, "A", "Sample Humbling Prayer")
    s, _ = play(s, cmd("play", "A", card=card, gold=1, targets=[b.hero(s, "B")]))
    s, _ = resolve_all(s, "A")
    assert s["seats"]["B"]["level"] == 3


def choir_boy() -> None:
    s, boy = b.give(cleric_game(), "A", "Sample Choir Boy", "hoard")
    before = gold(s, "A")
    s, _ = play(s, cmd("end_turn", "A"))  # the cooldown's level (A.8) triggers it
    assert s["stack"][-1]["card"] == boy and s["stack"][-1]["kind"] == "level_gained"
    s, events = resolve_all(s, "A")
    assert gold(s, "A") == before + 1 and s["active"] == "B"
    assert "TurnEnded" in [e.type for e in events], "the cooldown goes on after it"


def penitent_monk() -> None:
    s, monk = b.give(cleric_game(), "A", "Sample Penitent Monk", "hoard")
    s, _ = play(s, cmd("activate", "A", card=monk))
    s, events = resolve_all(s, "A")
    assert [e.type for e in events] == ["DamageDealt", "AbilityResolved"]
    assert (s["cards"][monk]["damage"], s["cards"][monk]["tokens"]) == (1, 0)


def divine_wrath() -> None:
    s, card = b.give(cleric_game(), "A", "Sample Divine Wrath")
    s, _ = play(s, cmd("play", "A", card=card, gold=3))
    s, _ = resolve_all(s, "A")
    assert (b.damage(s, "A"), b.damage(s, "B")) == (2, 2)


def holy_sling() -> None:
    """Interrupt, in a fight: 2 damage to the fight's Monster (no target: Stealthy does not stop
    it, docs/rules.md D.25)."""
    s = cleric_game()
    held = b.ids_named(s, "A", "Sample Plant Pot", "hand")
    s, pot = (s, held[0]) if held else b.give(s, "A", "Sample Plant Pot")
    s, _ = play(s, *b.attack_revealed("A", pot, 1), cmd("pass", "A"), cmd("pass", "B"))
    s, sling = b.give(s, "B", "Sample Holy Sling")
    s, _ = play(s, cmd("play", "B", card=sling, gold=1))
    s, events = resolve_all(s, "B")
    assert [e.type for e in events][:2] == ["DamageDealt", "CardSquished"]
    assert s["fight"] is None and b.zone_of(s, pot) == "discard"


def temple_spider() -> None:
    """Hired: deal 1 damage to target Ally; the attacker names the target (docs/rules.md
    D.23): resolve_all takes the offered ``target``, then the damage."""
    s = cleric_game()
    s, squire = b.give(s, "B", "Sample Loyal Squire", "hoard")
    s, spider = b.give(s, "A", "Sample Temple Spider")
    s, _ = play(s, *b.attack_revealed("A", spider, 2, [squire]), cmd("pass", "A"))
    s, _ = play(s, cmd("pass", "B"))
    s, events = resolve_all(s, "A")
    assert [e.type for e in events] == ["TriggerTargeted", "DamageDealt", "AbilityResolved"]
    assert s["cards"][squire]["damage"] == 1


SCENARIOS = {
    "Sample Orc Warrior": orc_warrior,
    "Sample Gnome Thief": gnome_thief,
    "Sample Wandering Bard": wandering_bard,
    "Sample Goblin Horde": goblin_horde,
    "Sample Pickpocket Imp": pickpocket_imp,
    "Sample Shifty Henchman": shifty_henchman,
    "Sample Tavern": tavern,
    "Sample Cursed Bandage": cursed_bandage,
    "Sample Nope": nope,
    "Sample Blood Pact": blood_pact,
    "Sample Sudden Ambush": sudden_ambush,
    "Sample Encore Prank": encore_prank,
    "Sample Tin Shield": tin_shield,
    "Sample Grave Moth": grave_moth,
    "Sample Toll Bridge": toll_bridge,
    "Sample War Drummer": war_drummer,
    "Sample Haggler": haggler,
    "Sample Spilled Ale": spilled_ale,
    "Sample Piggy Bank": piggy_bank,
    "Sample Sneaky Dagger": sneaky_dagger,
    "Sample Holy Promotion": holy_promotion,
    "Sample Humbling Prayer": humbling_prayer,
    "Sample Choir Boy": choir_boy,
    "Sample Penitent Monk": penitent_monk,
    "Sample Divine Wrath": divine_wrath,
    "Sample Holy Sling": holy_sling,
    "Sample Temple Spider": temple_spider,
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_ability_does_what_its_card_says(name: str) -> None:
    SCENARIOS[name]()
