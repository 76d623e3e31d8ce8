"""The CCG's rules read against the seed texts, paragraph by paragraph (issue #42 items 1-7;
docs/rules.md D.22 … D.28). Each rule is played in strict mode (a legal move accepted, an
illegal one refused with its section) and in record mode (the same move recorded, flagged only
when illegal).

The sample cards that show them: Sample Holy Sling (Interrupt, in a fight: deal 2 damage to the
fight's Monster; no target) and Sample Temple Spider (Hired: deal 1 damage to target Ally), both
cleric cards, so they are in the decks of these tests only (:func:`sling_game`).
"""

from __future__ import annotations

from typing import Any

import pytest

from domain import RuleViolation
from domain.ccg import events as ev
from tests.builders import (
    BARD,
    RS,
    State,
    add_gold,
    attack_revealed,
    bleeding,
    cmd,
    damage,
    give,
    hero,
    of_type,
    play,
    prime_deck,
    started_game,
    types,
    with_damage,
    zone_of,
)

SLING = "Sample Holy Sling"
SPIDER = "Sample Temple Spider"
BOTH_PASS = (cmd("pass", "A"), cmd("pass", "B"))
MODES = ["strict", "record"]


def sling_game(mode: str = "strict") -> State:
    """Two Wandering Bards (prime) whose decks hold the cleric sample cards of these rules; A is
    munchkining, each seat with 10 gold."""
    deck = prime_deck(BARD)[:34] + [SLING, SPIDER] * 3
    s, _ = started_game(mode=mode, heroes=(BARD, BARD), decks={"A": deck, "B": deck})
    return add_gold(add_gold(s, "A", 9), "B", 8)


def hired(mode: str, monster: str, gold: int, *defenders: str) -> tuple[State, str, list[str]]:
    """A attacks with ``monster`` for ``gold``, B commits ``defenders`` from its hoard, A reveals
    and both pass the cost window: the Monster is hired (its Hired trigger, if any, on the
    stack)."""
    s = sling_game(mode)
    committed = []
    for name in defenders:
        s, cid = give(s, "B", name, "hoard")
        committed.append(cid)
    s, card = give(s, "A", monster)
    s, _ = play(s, *attack_revealed("A", card, gold, committed), *BOTH_PASS)
    assert s["fight"]["hired"], s["fight"]
    return s, card, committed


def refused(s: State, command: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, command)
    return info.value.code, info.value.rule


def refused_or_flagged(mode: str, s: State, command: dict[str, Any], code: str, rule: str) -> None:
    """Strict mode refuses ``command`` with ``code`` and section ``rule``; record mode records
    it, its first event flagged with ``code``."""
    if mode == "strict":
        assert refused(s, command) == (code, rule)
        return
    _, events = play(s, command)
    assert events[0].violation == code, events


def decided(s: State, command: dict[str, Any]) -> tuple[State, list[ev.Event]]:
    """``command`` decided and folded; none of its events flagged."""
    s, events = play(s, command)
    assert events and not [e.violation for e in events if e.violation], events
    return s, events


# ---------------------------------------------------------------------------- item 1: Prevent


def shielded(mode: str) -> tuple[State, str]:
    """A munchkining; B has a Tin Shield (zap, interrupt: Prevent 1) in its hoard."""
    return give(sling_game(mode), "B", "Sample Tin Shield", "hoard")


@pytest.mark.parametrize("mode", MODES)
def test_prevent_stops_damage_from_a_cards_ability(mode: str) -> None:
    """CR: "Damage prevention is an interrupt"; QS glossary: an interrupt "resolves before the
    effects of another activated ability can resolve". B's Tin Shield interrupts A's Sudden
    Ambush (2 damage to a Hero): B takes 1 (docs/rules.md D.22)."""
    s, shield = shielded(mode)
    s, ambush = give(s, "A", "Sample Sudden Ambush")
    s, _ = decided(s, cmd("play", "A", card=ambush, targets=[hero(s, "B")]))
    s, _ = decided(s, cmd("activate", "B", card=shield))
    s, events = decided(s, cmd("prevent", "B", source=shield, amount=1))
    assert [p.amount for p in of_type(events, ev.DamagePrevented)] == [1]
    s, _ = decided(s, cmd("resolve", "B"))
    s, events = decided(s, cmd("damage", "A", source=ambush, target=hero(s, "B"), amount=2))
    assert [(d.target, d.amount) for d in of_type(events, ev.DamageDealt)] == [(hero(s, "B"), 1)]
    s, _ = decided(s, cmd("resolve", "A"))
    assert damage(s, "B") == 1 and s["stack"] == []


@pytest.mark.parametrize("mode", MODES)
def test_prevent_stops_a_hired_monsters_hired_damage(mode: str) -> None:
    """The same against the Goblin Horde's "Hired: deal 1 damage to the defending Hero"."""
    s, shield = shielded(mode)
    s, horde = give(s, "A", "Sample Goblin Horde")
    s, _ = play(s, *attack_revealed("A", horde, 2), *BOTH_PASS)
    assert [e["kind"] for e in s["stack"]] == ["hired"]
    s, _ = decided(s, cmd("activate", "B", card=shield))
    s, _ = decided(s, cmd("prevent", "B", source=shield, amount=1))
    s, _ = decided(s, cmd("resolve", "B"))
    s, events = decided(s, cmd("damage", "A", source=horde, target=hero(s, "B"), amount=1))
    assert [d.amount for d in of_type(events, ev.DamageDealt)] == [0]
    s, _ = decided(s, cmd("resolve", "A"))
    assert damage(s, "B") == 0


@pytest.mark.parametrize("mode", MODES)
def test_prevent_against_an_ability_that_deals_no_damage_is_refused_or_flagged(mode: str) -> None:
    """A Bard's zap (take 2 gold) deals no damage: nothing to prevent (docs/rules.md A.12)."""
    s, shield = shielded(mode)
    s, _ = play(s, cmd("activate", "A", card=hero(s, "A")), cmd("activate", "B", card=shield))
    command = cmd("prevent", "B", source=shield, amount=1)
    refused_or_flagged(mode, s, command, "rule/no_damage_to_prevent", "A.12")
    if mode == "record":
        prevented = of_type(play(s, command)[1], ev.DamagePrevented)
        assert [p.amount for p in prevented] == [0], "nothing prevented"


# ---------------------------------------------------------------------------- item 4: Stealthy


@pytest.mark.parametrize("mode", MODES)
def test_an_effect_that_does_not_target_damages_a_stealthy_monster(mode: str) -> None:
    """QS *Stealthy*: "Abilities that do not target a specific card may affect a card with
    Stealthy." The Holy Sling's 2 damage to the fight's Monster names no target: it hits the
    hired Stealthy Lurking Squid (docs/rules.md D.25)."""
    s, squid, _ = hired(mode, "Sample Lurking Squid", 3)
    s, sling = give(s, "B", SLING)
    s, _ = decided(s, cmd("play", "B", card=sling))
    s, events = decided(s, cmd("damage", "B", source=sling, target=squid, amount=2))
    assert [(d.target, d.amount) for d in of_type(events, ev.DamageDealt)] == [(squid, 2)]
    assert s["cards"][squid]["damage"] == 2


@pytest.mark.parametrize("mode", MODES)
def test_a_stealthy_monster_is_still_never_a_target(mode: str) -> None:
    """ "it may not be directly targeted by any ability": an Encore Prank naming the hired
    Stealthy Squid as its target is refused, or flagged (docs/rules.md A.12)."""
    s, squid, _ = hired(mode, "Sample Lurking Squid", 3)
    s, prank = give(s, "B", "Sample Encore Prank")
    command = cmd("play", "B", card=prank, targets=[squid])
    refused_or_flagged(mode, s, command, "rule/stealthy_target", "A.12")


# ---------------------------------------------------------------------------- item 3: squished


@pytest.mark.parametrize("mode", MODES)
def test_a_squished_hired_monsters_ability_still_resolves_on_the_defending_hero(mode: str) -> None:
    """QS *Face the Monster* step 4: "Squishing a hired Monster does not prevent its abilities
    from activating." B's Holy Sling interrupts the Goblin Horde's Hired trigger and squishes
    it (life 2): the fight ends, and the trigger still deals its 1 damage to the Hero that was
    defending (docs/rules.md D.24)."""
    s, horde, _ = hired(mode, "Sample Goblin Horde", 2)
    assert [e["kind"] for e in s["stack"]] == ["hired"]
    s, sling = give(s, "B", SLING)
    s, _ = decided(s, cmd("play", "B", card=sling))
    s, events = decided(s, cmd("damage", "B", source=sling, target=horde, amount=2))
    assert "FightEnded" in types(events) and s["fight"] is None
    assert zone_of(s, horde) == "discard"
    s, _ = decided(s, cmd("resolve", "B"))
    s, events = decided(s, cmd("damage", "A", source=horde, target=hero(s, "B"), amount=1))
    assert [(d.source, d.target, d.amount) for d in of_type(events, ev.DamageDealt)] == [
        (horde, hero(s, "B"), 1)
    ]
    s, _ = decided(s, cmd("resolve", "A"))
    assert damage(s, "B") == 1 and s["stack"] == []


@pytest.mark.parametrize("mode", MODES)
def test_a_squished_hired_monsters_damage_still_goes_to_the_defender_only(mode: str) -> None:
    s, horde, _ = hired(mode, "Sample Goblin Horde", 2)
    s, sling = give(s, "B", SLING)
    s, _ = play(
        s,
        cmd("play", "B", card=sling),
        cmd("damage", "B", source=sling, target=horde, amount=2),
        cmd("resolve", "B"),
    )
    wrong = cmd("damage", "A", source=horde, target=hero(s, "A"), amount=1)
    refused_or_flagged(mode, s, wrong, "rule/wrong_target", "A.11")


# ---------------------------------------------------------------------------- item 5: Monstrous


def revealed_rock(mode: str) -> tuple[State, str]:
    """A attacks with Rock in Disguise (Monstrous 3) for its cost and reveals it: the cost
    window is open, nothing hired yet."""
    s = sling_game(mode)
    s, rock = give(s, "A", "Sample Rock in Disguise")
    s, _ = play(s, *attack_revealed("A", rock, 1))
    assert s["window"]["kind"] == "cost" and not s["fight"].get("hired")
    return s, rock


@pytest.mark.parametrize("mode", MODES)
def test_a_revealed_monstrous_card_is_a_monster_target_before_the_hire(mode: str) -> None:
    """QS *Monstrous X*: "When a Monstrous card is revealed in a fight, treat it as a Monster
    card type [...] until it leaves play." In the cost window B's Encore Prank (a Hero, Ally or
    Monster) targets the revealed Rock, and its damage counts against life 3 (D.26)."""
    s, rock = revealed_rock(mode)
    s, prank = give(s, "B", "Sample Encore Prank")
    s, _ = decided(s, cmd("play", "B", card=prank, targets=[rock]))
    s, _ = decided(s, cmd("damage", "B", source=prank, target=rock, amount=1))
    assert s["cards"][rock]["damage"] == 1 and zone_of(s, rock) == "dmz"


@pytest.mark.parametrize("mode", MODES)
def test_a_monstrous_card_that_survived_is_a_monster_in_the_stash(mode: str) -> None:
    """The Rock survives (no Weapon): face up in A's stash it is still a Monster, until it
    leaves play (D.26)."""
    s, rock = revealed_rock(mode)
    s, _ = play(s, *BOTH_PASS, *BOTH_PASS, *BOTH_PASS)
    assert s["fight"] is None and (zone_of(s, rock), s["cards"][rock]["face"]) == ("stash", "up")
    s, prank = give(s, "B", "Sample Encore Prank")
    s, _ = decided(s, cmd("play", "B", card=prank, targets=[rock]))


@pytest.mark.parametrize("mode", MODES)
def test_a_monstrous_card_not_revealed_is_no_monster_target(mode: str) -> None:
    """In the hand a Monstrous card is not a Monster (nor in play): refused, or flagged."""
    s = sling_game(mode)
    s, rock = give(s, "A", "Sample Rock in Disguise")
    s, prank = give(s, "B", "Sample Encore Prank")
    command = cmd("play", "B", card=prank, targets=[rock])
    refused_or_flagged(mode, s, command, "rule/illegal_target", "A.11")


# ---------------------------------------------------------------------------- item 6: step 8(a)


@pytest.mark.parametrize("mode", MODES)
def test_a_fight_that_loses_its_attacking_card_still_runs_its_end_of_fight_triggers(
    mode: str,
) -> None:
    """QS *No Attacking Card?*: "that fight ends. Go to Step 8"; step 8(a): "All abilities that
    trigger at the end of a fight happen now." B's Holy Sling squishes the hired Plant Pot in the
    hire window: the committed War Drummer's end-of-fight heal triggers, and the fight ends (gold
    back, D.6) once the stack is empty (D.27)."""
    s, pot, (drummer,) = hired(mode, "Sample Plant Pot", 1, "Sample War Drummer")
    s = play(s, cmd("pass", "A"))[0]  # nothing else: the hire window stays open for B
    s = with_damage(s, "B", 2)
    gold = s["seats"]["A"]["gold"]
    s, sling = give(s, "B", SLING)
    s, _ = decided(s, cmd("play", "B", card=sling))
    s, events = decided(s, cmd("damage", "B", source=sling, target=pot, amount=2))
    assert types(events) == ["DamageDealt", "CardSquished", "AbilityTriggered"]
    triggered = of_type(events, ev.AbilityTriggered)
    assert [(t.player, t.card, t.trigger) for t in triggered] == [("B", drummer, "end_of_fight")]
    assert s["fight"] is not None and zone_of(s, drummer) == "dmz"
    s, _ = decided(s, cmd("heal", "B", source=drummer, target="B", amount=1))
    s, events = decided(s, cmd("resolve", "B"))
    assert types(events) == ["AbilityResolved"], "the Sling is still resolving"
    s, events = decided(s, cmd("resolve", "B"))
    assert types(events) == [
        "AbilityResolved",
        "CommittedGoldReturned",
        "DefenderCardsReturned",
        "FightEnded",
    ]
    assert of_type(events, ev.FightEnded)[0].outcome == "no_card"
    assert s["seats"]["A"]["gold"] == gold + 1 and damage(s, "B") == 1
    assert zone_of(s, drummer) == "hoard"


# ---------------------------------------------------------------------------- item 2: targets


def spider_hired(mode: str, *defenders: str) -> tuple[State, str, list[str]]:
    """The Temple Spider (Hired: deal 1 damage to target Ally) hired against ``defenders``."""
    s, spider, committed = hired(mode, SPIDER, 2, *defenders)
    assert [(e["card"], e["kind"], e["targets"]) for e in s["stack"]] == [(spider, "hired", [])]
    return s, spider, committed


@pytest.mark.parametrize("mode", MODES)
def test_a_hired_trigger_names_its_target_and_deals_its_damage(mode: str) -> None:
    """CR: "If the ability on a hired Monster requires a target and there are no valid targets
    available, the ability still triggers" -- so with one available, it targets it: A names B's
    committed Loyal Squire (``target``), then deals it the 1 damage (docs/rules.md D.23)."""
    s, spider, (squire,) = spider_hired(mode, "Sample Loyal Squire")
    s, events = decided(s, cmd("target", "A", targets=[squire]))
    assert [(t.player, t.card, t.targets) for t in of_type(events, ev.TriggerTargeted)] == [
        ("A", spider, [squire])
    ]
    assert s["stack"][-1]["targets"] == [squire]
    s, events = decided(s, cmd("damage", "A", source=spider, target=squire, amount=1))
    assert [(d.target, d.amount) for d in of_type(events, ev.DamageDealt)] == [(squire, 1)]
    s, _ = decided(s, cmd("resolve", "A"))
    assert s["cards"][squire]["damage"] == 1 and s["stack"] == []


@pytest.mark.parametrize("mode", MODES)
def test_a_trigger_with_a_target_available_cannot_resolve_doing_nothing(mode: str) -> None:
    """Resolving the Spider's trigger with an Ally available and nothing done is refused, or
    flagged (``rule/effect_skipped``, A.11)."""
    s, _, _ = spider_hired(mode, "Sample Loyal Squire")
    command = cmd("resolve", "A")
    refused_or_flagged(mode, s, command, "rule/effect_skipped", "A.11")


@pytest.mark.parametrize("mode", MODES)
def test_a_trigger_with_no_valid_target_still_triggers_and_resolves_doing_nothing(
    mode: str,
) -> None:
    """No Ally anywhere: the trigger is on the stack all the same, and resolves partially."""
    s, _, _ = spider_hired(mode)
    s, events = decided(s, cmd("resolve", "A"))
    assert of_type(events, ev.AbilityResolved)[0].outcome == "partial"


@pytest.mark.parametrize("mode", MODES)
def test_a_trigger_target_must_pass_its_filter(mode: str) -> None:
    """The Spider targets an Ally: B's Hero is not one (``rule/illegal_target``, A.11)."""
    s, _, _ = spider_hired(mode, "Sample Loyal Squire")
    command = cmd("target", "A", targets=[hero(s, "B")])
    refused_or_flagged(mode, s, command, "rule/illegal_target", "A.11")


@pytest.mark.parametrize("mode", MODES)
def test_an_ability_that_names_no_target_cannot_be_aimed(mode: str) -> None:
    """The Goblin Horde's Hired damage goes to the defending Hero: no target to name
    (``rule/no_target_to_name``, D.23)."""
    s, _, _ = hired(mode, "Sample Goblin Horde", 2)
    command = cmd("target", "A", targets=[hero(s, "B")])
    refused_or_flagged(mode, s, command, "rule/no_target_to_name", "D.23")


# ---------------------------------------------------------------------------- item 7: reckoning


def bleeding_announced(mode: str) -> tuple[State, str]:
    """A's Cursed Bandage (Bleeding 1) stuck on B's Hero, B's Tin Shield in its hoard; A ends
    its turn: B's warmup stops at the reckoning, the Bleeding's 1 damage announced."""
    s, shield = shielded(mode)
    s, curse = bleeding(s, "A")
    s, events = play(s, cmd("end_turn", "A"))
    assert types(events)[-1] == "DamageAnnounced" and s["step"] == "reckoning"
    assert (s["window"]["kind"], s["window"]["damage"]["source"]) == ("damage", curse)
    return s, shield


@pytest.mark.parametrize("mode", MODES)
def test_prevent_answers_a_bleeding_curse_at_the_reckoning(mode: str) -> None:
    """CR: "Either player may activate abilities during any player's turn after the unzap step
    is complete" -- the reckoning comes after it: B's Tin Shield prevents the Bleeding's damage,
    then the warmup goes on to the draw (docs/rules.md D.28)."""
    s, shield = bleeding_announced(mode)
    s, _ = decided(s, cmd("activate", "B", card=shield))
    s, _ = decided(s, cmd("prevent", "B", source=shield, amount=1))
    s, _ = decided(s, cmd("resolve", "B"))
    assert s["step"] == "reckoning", "the damage still waits for both passes"
    s, events = play(s, cmd("pass", "B"), cmd("pass", "A"))
    assert [d.amount for d in of_type(events, ev.DamageDealt)] == [0]
    assert "StashUnstashed" in types(events) and s["step"] == "draw"
    assert damage(s, "B") == 0


@pytest.mark.parametrize("mode", MODES)
def test_only_an_interrupt_answers_a_bleeding_curse(mode: str) -> None:
    """The Bard's zap (take gold) is no interrupt: refused, or flagged (A.11)."""
    s, _ = bleeding_announced(mode)
    command = cmd("activate", "B", card=hero(s, "B"))
    refused_or_flagged(mode, s, command, "rule/not_an_interrupt", "A.11")
