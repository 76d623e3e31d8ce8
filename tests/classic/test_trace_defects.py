"""The defects the paragraph-by-paragraph trace (docs/rules.md, "Trace: the classic
rulebooks") found, one behaviour per test; each cites the rulebook paragraph (DX, OW, AoS:
docs/rules.md *Official sources*) and its docs/rules.md section."""

from __future__ import annotations

from typing import Any

import pytest

from domain.classic.rules import character_strength, monster_strength_of
from tests.classic.helpers import Game, ready_all, started, top_door, top_treasures
from tests.classic.test_traced_rules import OGRE, RAT, SWORD, door, kick, trait, treasure

SETS = ("munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar")


def record(g: Game) -> dict[str, Any]:
    return {**g.state, "mode": "record"}


# ============================================================================ just received (B.14)


def helped_kill(ruleset: str, treasures: tuple[Any, ...] = (SWORD, SWORD)) -> Game:
    """B helped A kill the Rat on A's turn; A took the Treasure (the first of ``treasures``)."""
    g = started(ruleset, [RAT], list(treasures), hands={"A": ([], [])})
    ready_all(g)
    kick(g, "Rat")
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    g.do("C", "pass")
    g.do("B", "pass")
    g.do("A", "take_treasure", cards=top_treasures(g, 1))
    assert g.state["combat"] is None
    return g


@pytest.mark.parametrize("ruleset", SETS)
def test_the_helper_plays_the_treasure_it_just_received(ruleset: str) -> None:
    """B.14 (DX *When You May Take Actions* ¶6 "Play a card that you have just received", DX
    and AoS *Rewards* ¶3 "even if you are the helper", OW *Treasure* ¶2): an Item given to the
    helper on the player's turn goes to the helper's table at once."""
    g = helped_kill(ruleset)
    sword = next(
        c for c in g.seat("A")["zones"]["hand"] if g.state["cards"][c]["def"]["name"] == "Sword"
    )
    g.do("A", "give", to="B", cards=[sword])
    played = g.do("B", "play", card=sword)
    assert played[0].type == "ItemPlayed" and played[0].violation is None
    assert sword in g.seat("B")["zones"]["equipped"]
    assert g.refold() == g.state


@pytest.mark.parametrize("ruleset", SETS)
def test_a_card_held_from_before_still_waits_for_its_owners_turn(ruleset: str) -> None:
    """B.14 (DX *When You May Take Actions* ¶9): an Item B had before A's turn is still played
    on B's own turn only; what B got last turn is no longer "just received"."""
    g = started(ruleset, [], [SWORD, SWORD], hands={"B": ([], ["Sword"])})
    ready_all(g)
    own = g.id("Sword", 0)
    assert g.state["cards"][own]["owner"] == "B"
    assert g.refused("B", "play", card=own).code == "rule/not_your_turn"
    flagged = g.rs.decide(record(g), {"type": "play", "seat": "B", "card": own})
    assert flagged[0].event.violation == "rule/not_your_turn"
    # a gift on A's turn, kept until B's turn is over and A's next one
    other = next(
        c
        for c in g.seat("A")["zones"]["hand"]
        if g.state["cards"][c]["def"]["name"] == "Sample Pebble"
    )
    g.do("A", "give", to="B", cards=[other])
    assert other in g.state["got"]
    g.do("A", "kick_door", card=top_door(g, "Sample Blank Door"))
    g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    hand = g.seat("A")["zones"]["hand"]
    g.do("A", "charity", gifts=dict.fromkeys(hand[: len(hand) - 5], "A"))
    g.do("A", "end_turn")
    assert g.state["got"] == []


def test_a_backup_across_a_gift_restores_the_cards_just_received() -> None:
    """B.14, B.17: the cards just received are part of the table a backup restores; a stored
    version 2 ClassicTableRestored (before they were kept) loads with none."""
    from domain.classic.corrections import ClassicTableRestored
    from domain.events import event_from_dict
    from tests.classic.test_judge import check_backup

    g = helped_kill("munchkin-deluxe")
    sword = next(
        c for c in g.seat("A")["zones"]["hand"] if g.state["cards"][c]["def"]["name"] == "Sword"
    )
    g.do("A", "give", to="B", cards=[sword])
    g.do("B", "play", card=sword)
    assert g.state["got"] == [sword]
    check_backup(g, len(g.events) - 3)  # back to before the Treasure was taken
    old = {
        "type": "ClassicTableRestored",
        "v": 2,
        "seat": "judge",
        "cause": None,
        "violation": None,
        **{k: g.state[k] for k in ("status", "winner", "winners", "turn", "active", "phase")},
        **{k: g.state[k] for k in ("first", "tied", "listened", "combat", "body", "trade")},
        "received": [],
        "cheats": {},
        "undoes": 5,
    }
    loaded = event_from_dict(old)
    assert isinstance(loaded, ClassicTableRestored) and loaded.got == []


# ============================================================================ Bad Stuff at once (B.8)

BOOTS = treasure("Boots", "item", slot="footgear", bonus=0, run_away=2, value=400)
WANDER = door("Wander", "other", wandering=True)


def _caught_by_the_ogre(ruleset: str, mode: str = "strict") -> Game:
    """A (Boots: +2 to run away) fights the Ogre and a Rat; the Ogre (Bad Stuff: an Item) caught
    A, whose Bad Stuff is unpaid."""
    g = started(
        ruleset,
        [OGRE, RAT, WANDER],
        [BOOTS],
        hands={"A": ([], ["Boots"]), "B": (["Rat", "Wander"], [])},
        mode=mode,
    )
    g.do("A", "play", card=g.id("Boots"))
    ready_all(g)
    kick(g, "Ogre")
    g.do("B", "play", card=g.id("Wander"), target=g.id("Rat"))
    g.do("A", "run_away", monster=g.id("Ogre"), roll=1)
    assert g.state["combat"]["caught"] == [["A", g.id("Ogre")]]
    return g


@pytest.mark.parametrize("ruleset", SETS)
def test_bad_stuff_is_paid_before_the_next_roll(ruleset: str) -> None:
    """B.8 (DX *Running Away* ¶3, OW *Running Away* ¶7, AoS *Running Away* ¶4): "suffer Bad
    Stuff from each one that catches you as soon as it catches you": the Boots the Ogre takes
    add nothing to the roll against the Rat."""
    g = _caught_by_the_ogre(ruleset)
    err = g.refused("A", "run_away", monster=g.id("Rat"), roll=3)
    assert err.code == "rule/bad_stuff_first" and err.rule == "B.8"  # type: ignore[attr-defined]
    g.do("A", "bad_stuff", monster=g.id("Ogre"))
    assert g.id("Boots") not in g.seat("A")["zones"]["equipped"]
    rolled = g.do("A", "run_away", monster=g.id("Rat"), roll=3)
    assert rolled[0].modifier == 0 and not rolled[0].escaped  # type: ignore[attr-defined]


def test_record_mode_flags_a_roll_before_the_bad_stuff() -> None:
    """B.8, record mode: the early roll is recorded with its violation."""
    g = _caught_by_the_ogre("munchkin-deluxe", mode="record")
    rolled = g.do("A", "run_away", monster=g.id("Rat"), roll=3)
    assert rolled[0].violation == "rule/bad_stuff_first"


# ============================================================================ the Elf helper (B.7)

MATE = door("Mate", "enhancer", bonus=0, copy=True)


def test_an_elf_helper_gains_a_level_for_each_monster_slain_a_mates_copy_too() -> None:
    """B.7 (DX *Asking For Help* ¶4: "unless he's an Elf, in which case he gains one level for
    each monster slain"), B.6 (a Mate is a second monster): the player and the Elf both gain
    two levels."""
    elf = trait("munchkin-deluxe", "Elf", powers={"helper_levels": 1, "bonus": 3})
    g = started(
        "munchkin-deluxe", [RAT, MATE, elf], [], hands={"B": (["Elf"], []), "C": (["Mate"], [])}
    )
    g.do("B", "play", card=g.id("Elf"))
    ready_all(g)
    kick(g, "Rat")
    g.do("C", "play", card=g.id("Mate"))
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    g.do("C", "pass")
    g.do("B", "pass")
    gained = {e.player: e.levels for e in g.events if e.type == "LevelsGained"}  # type: ignore[attr-defined]
    assert gained == {"A": 2, "B": 2}
    assert g.seat("B")["level"] == 3


# ============================================================================ multi cards (B.11)

MULTI = {"munchkin-deluxe": "class", "munchkin-old-west": "class", "munchkin-age-of-sigmar": "army"}


def multi(ruleset: str) -> dict[str, Any]:
    return door("Twice", "other", multi=MULTI[ruleset])


def trait_of(ruleset: str, name: str, **fields: Any) -> dict[str, Any]:
    return door(name, MULTI[ruleset], trait=name, **fields)


@pytest.mark.parametrize("ruleset", SETS)
def test_a_multi_card_needs_a_character_card_to_attach_to(ruleset: str) -> None:
    """B.11 (DX *Super Munchkin and Half-Breed* ¶1: "as long as you have an appropriate card
    … to attach it to"; AoS *Alliance* ¶1: "as long as you have an Army to attach it to"):
    refused (strict) or flagged (record) with nothing to attach to; then allowed."""
    cards = [multi(ruleset), trait_of(ruleset, "Rider"), trait_of(ruleset, "Scout")]
    g = started(ruleset, cards, [], hands={"A": (["Twice", "Rider", "Scout"], [])})
    err = g.refused("A", "play", card=g.id("Twice"))
    assert err.code == "rule/nothing_to_attach" and err.rule == "B.11"  # type: ignore[attr-defined]
    flagged = g.rs.decide(record(g), {"type": "play", "seat": "A", "card": g.id("Twice")})
    assert flagged[0].event.violation == "rule/nothing_to_attach"
    g.do("A", "play", card=g.id("Rider"))
    g.do("A", "play", card=g.id("Twice"))
    g.do("A", "play", card=g.id("Scout"))  # the second card the multi card allows
    assert len(g.seat("A")["zones"][MULTI[ruleset]]) == 3


@pytest.mark.parametrize("ruleset", SETS)
def test_a_lone_trait_with_a_multi_card_has_none_of_its_disadvantages(ruleset: str) -> None:
    """B.11 (DX *Super Munchkin and Half-Breed* ¶2: "none of the disadvantages (you can equip
    Items forbidden to that Class, and monsters do not get bonuses because of your Class)";
    AoS *Alliance* ¶2; Old West read as Deluxe): the monster's +5 against the Rider is gone,
    its -1 against the Rider stays, the Item forbidden to Riders counts; a second card of the
    kind brings the disadvantages back (AoS *Alliance* ¶3)."""
    bane = door("Bane", "monster", level=2, treasures=1, vs=[{"trait": "Rider", "bonus": 5}])
    soft = door("Soft", "monster", level=2, treasures=1, vs=[{"trait": "Rider", "bonus": -1}])
    spear = treasure("Spear", "item", slot="1hand", bonus=2, value=100, not_usable_by=["Rider"])
    cards = [bane, soft, multi(ruleset), trait_of(ruleset, "Rider"), trait_of(ruleset, "Scout")]
    g = started(ruleset, cards, [spear], hands={"A": (["Twice", "Rider", "Scout"], ["Spear"])})
    g.do("A", "play", card=g.id("Rider"))
    g.do("A", "play", card=g.id("Spear"))
    assert g.id("Spear") in g.seat("A")["zones"]["carried"]  # forbidden to a plain Rider
    g.do("A", "play", card=g.id("Twice"))
    g.do("A", "equip", card=g.id("Spear"))  # no longer forbidden
    ready_all(g)
    kick(g, "Bane")
    c = g.state["combat"]
    assert (c["player_strength"], c["monster_strength"]) == (3, 2)  # not 2+5
    assert g.refold() == g.state
    soft_entry = {"card": g.id("Soft"), "enhancers": [], "conditions": [], "copies": 0}
    assert monster_strength_of(g.state, soft_entry, ["A"]) == 1  # the penalty still counts


def test_the_disadvantages_come_back_with_a_second_card_of_the_kind() -> None:
    """B.11 (AoS *Alliance* ¶3: two Armies, both disadvantages): with two Classes and Super
    Munchkin the monster's bonus and the Item's ban count again."""
    ruleset = "munchkin-deluxe"
    bane = door("Bane", "monster", level=2, treasures=1, vs=[{"trait": "Rider", "bonus": 5}])
    spear = treasure("Spear", "item", slot="1hand", bonus=2, value=100, not_usable_by=["Rider"])
    cards = [bane, multi(ruleset), trait_of(ruleset, "Rider"), trait_of(ruleset, "Scout")]
    g = started(ruleset, cards, [spear], hands={"A": (["Twice", "Rider", "Scout"], ["Spear"])})
    for name in ("Rider", "Twice", "Spear", "Scout"):
        g.do("A", "play", card=g.id(name))
    ready_all(g)
    kick(g, "Bane")
    c = g.state["combat"]
    assert (c["player_strength"], c["monster_strength"]) == (1, 7)


# ============================================================================ no Race: Human (B.11)


def test_no_race_card_makes_a_deluxe_character_human() -> None:
    """B.11 (DX *Character Stats, Race* ¶1: "If you have no Race card in front of you, you are
    human"): a monster's bonus against Humans and a Human-only Item count until a Race card is
    played; a Human Race card may still be played."""
    ruleset = "munchkin-deluxe"
    hunter = door("Hunter", "monster", level=2, treasures=1, vs=[{"trait": "Human", "bonus": 3}])
    elf = door("Elf", "race", trait="Elf")
    coin = treasure("Coin", "item", slot=None, bonus=1, value=100, usable_by=["Human"])
    g = started(ruleset, [hunter, hunter, elf], [coin], hands={"A": (["Elf"], ["Coin"])})
    g.do("A", "play", card=g.id("Coin"))
    assert g.id("Coin") in g.seat("A")["zones"]["equipped"]
    ready_all(g)
    kick(g, "Hunter")
    c = g.state["combat"]
    assert (c["player_strength"], c["monster_strength"]) == (2, 5)
    g.do("A", "play", card=g.id("Elf"))  # a new Race in combat: no longer Human
    c = g.state["combat"]
    assert (c["player_strength"], c["monster_strength"]) == (1, 2)
    assert g.refold() == g.state


@pytest.mark.parametrize("ruleset", ["munchkin-old-west", "munchkin-age-of-sigmar"])
def test_old_west_and_age_of_sigmar_characters_have_no_default_race(ruleset: str) -> None:
    """B.2: only Deluxe has Races; elsewhere nobody is Human by default."""
    hunter = door("Hunter", "monster", level=2, treasures=1, vs=[{"trait": "Human", "bonus": 3}])
    g = started(ruleset, [hunter], [])
    ready_all(g)
    kick(g, "Hunter")
    assert g.state["combat"]["monster_strength"] == 2


def test_a_human_race_card_is_played_by_a_character_with_no_race() -> None:
    """B.11: being Human by default is no Race card: a Human Race card is not a duplicate."""
    human = door("Human", "race", trait="Human")
    g = started("munchkin-deluxe", [human], [], hands={"A": (["Human"], [])})
    played = g.do("A", "play", card=g.id("Human"))
    assert played[0].type == "CharacterCardPlayed"


# ============================================================================ Steeds (B.2)


@pytest.mark.parametrize(("run_away", "modifier"), [(None, 2), (0, 2), (1, 1), (-1, -1)])
def test_an_aos_steed_without_a_run_away_modifier_replaces_nothing(
    run_away: int | None, modifier: int
) -> None:
    """B.2 (AoS *Items, Steeds* ¶2: "If a Steed has a Run Away bonus or penalty, that bonus
    or penalty replaces any others"): a Steed with none (no field, or 0: neither a bonus nor a
    penalty) leaves the Boots' +2; one with a bonus or a penalty replaces it."""
    fields = {} if run_away is None else {"run_away": run_away}
    steed = treasure("Horse", "steed", bonus=1, value=300, **fields)
    g = started(
        "munchkin-age-of-sigmar", [OGRE], [steed, BOOTS], hands={"A": ([], ["Horse", "Boots"])}
    )
    ready_all(g)
    g.do("A", "play", card=g.id("Horse"))
    g.do("A", "play", card=g.id("Boots"))
    kick(g, "Ogre")
    rolled = g.do("A", "run_away", monster=g.id("Ogre"), roll=3)
    assert rolled[0].modifier == modifier  # type: ignore[attr-defined]


# ============================================================================ discard powers (B.11)

BERSERKER = {"discard_bonus": 3}


def _berserker_fights(ruleset: str, extra: list[dict[str, Any]], hand: list[str]) -> Game:
    """A (a character card with a discard power, and a second one) fights the Ogre."""
    rage = trait_of(ruleset, "Rage", powers=BERSERKER)
    g = started(ruleset, [OGRE, rage, *extra], [], hands={"A": (["Rage", *hand], [])})
    g.do("A", "play", card=g.id("Rage"))
    return g


@pytest.mark.parametrize("ruleset", SETS)
def test_a_character_card_discarded_powers_a_discard_ability(ruleset: str) -> None:
    """B.11 (DX and OW *Character Stats, Class*: "You may discard any card, in play or in your
    hand, to power a special ability"): a Race, Class or Army card discarded by a fighter with
    a discard power gives its +1; the power's card itself too (read before it goes)."""
    g = _berserker_fights(ruleset, [multi(ruleset), trait_of(ruleset, "Scout")], ["Twice", "Scout"])
    g.do("A", "play", card=g.id("Twice"))
    g.do("A", "play", card=g.id("Scout"))
    ready_all(g)
    kick(g, "Ogre")
    before = g.state["combat"]["player_strength"]
    events = g.do("A", "discard", card=g.id("Scout"))
    assert events[0].bonus == 1  # type: ignore[attr-defined]
    assert g.state["combat"]["player_strength"] == before + 1
    assert g.do("A", "discard", card=g.id("Rage"))[0].bonus == 1  # type: ignore[attr-defined]
    assert g.state["combat"]["discard_bonus"] == {"A": 2}


def test_a_character_card_discarded_outside_a_combat_gives_nothing() -> None:
    """B.11: discarding a trait at any time stays allowed; outside a combat it powers nothing."""
    g = _berserker_fights("munchkin-deluxe", [], [])
    assert g.do("A", "discard", card=g.id("Rage"))[0].bonus == 0  # type: ignore[attr-defined]


def _squire_fights(loaded: bool) -> Game:
    squire = treasure("Squire", "hireling", bonus=1)
    g = started(
        "munchkin-deluxe",
        [OGRE, trait_of("munchkin-deluxe", "Rage", powers=BERSERKER)],
        [squire, SWORD],
        hands={"A": (["Rage"], ["Squire", "Sword"])},
    )
    ready_all(g)
    g.do("A", "play", card=g.id("Squire"))
    if loaded:
        g.do("A", "play", card=g.id("Sword"))
        g.do("A", "equip", card=g.id("Sword"), hireling=g.id("Squire"))
    kick(g, "Ogre")
    return g


def test_a_hireling_discarded_powers_a_discard_ability() -> None:
    """B.11 ("any card, in play"), B.2: a Deluxe Hireling discarded by a fighter with the power
    gives +1; without the power it stays (`rule/cannot_discard`)."""
    g = _squire_fights(loaded=False)
    assert g.refused("A", "discard", card=g.id("Squire")).code == "rule/cannot_discard"
    g.do("A", "play", card=g.id("Rage"))  # a new Class in combat: the power
    assert g.do("A", "discard", card=g.id("Squire"))[0].bonus == 1  # type: ignore[attr-defined]
    assert g.refold() == g.state


def test_a_hireling_carrying_an_item_is_not_discarded_for_a_power() -> None:
    """B.2, B.11: the Item a Hireling carries would be left with no carrier: the Hireling stays
    (read as: the Item is taken back first, outside the combat)."""
    g = _squire_fights(loaded=True)
    g.do("A", "play", card=g.id("Rage"))
    err = g.refused("A", "discard", card=g.id("Squire"))
    assert err.code == "rule/cannot_discard" and err.rule == "B.2"  # type: ignore[attr-defined]


# ============================================================================ a card that makes a monster Undead (B.6)

GOBLIN = door("Goblin", "monster", level=1, treasures=1)
ZOMBIE = door("Zombie", "monster", level=2, treasures=1, tags=["undead"])
FIEND = door("Fiend", "monster", level=2, treasures=1, tags=["chaos"])


def grave_dust(tag: str = "undead") -> dict[str, Any]:
    return door("Grave Dust", "enhancer", bonus=2, adds_tags=[tag])


def _undead_fight(ruleset: str, fought: dict[str, Any], tag: str = "undead") -> Game:
    """A fights ``fought``; B holds a Goblin (no tag) and a card that gives ``tag``."""
    g = started(
        ruleset,
        [fought, GOBLIN, grave_dust(tag)],
        [],
        hands={"B": (["Goblin", "Grave Dust"], [])},
    )
    ready_all(g)
    kick(g, fought["name"])
    return g


@pytest.mark.parametrize("ruleset", SETS)
def test_a_card_that_makes_a_monster_undead_brings_it_into_an_undead_fight(ruleset: str) -> None:
    """B.6 (DX *Undead Monsters* ¶1: "If you have a card that can be used to make a monster
    Undead, you may play it with a non-Undead monster to use this rule"; OW *Undead Monsters*;
    AoS *Undead and Chaos Monsters*): the Goblin joins the Zombie's fight, enhanced."""
    g = _undead_fight(ruleset, ZOMBIE)
    events = g.do("B", "play", card=g.id("Grave Dust"), target=g.id("Goblin"))
    assert [e.type for e in events] == ["MonsterJoined", "EnhancerPlayed"]
    assert events[0].via == "undead" and events[0].violation is None  # type: ignore[attr-defined]
    goblin = g.state["combat"]["monsters"][1]
    assert goblin["card"] == g.id("Goblin") and goblin["enhancers"] == [g.id("Grave Dust")]
    assert goblin["strength"] == 3
    assert g.refold() == g.state


@pytest.mark.parametrize("ruleset", SETS)
def test_a_card_that_makes_a_monster_undead_needs_an_undead_fight(ruleset: str) -> None:
    """B.6: against a monster with no such tag the join is refused (strict) or flagged
    (record); a plain enhancer never brings a monster from a hand."""
    g = _undead_fight(ruleset, RAT)
    err = g.refused("B", "play", card=g.id("Grave Dust"), target=g.id("Goblin"))
    assert err.code == "rule/needs_wandering"
    cmd = {"type": "play", "seat": "B", "card": g.id("Grave Dust"), "target": g.id("Goblin")}
    flagged = g.rs.decide(record(g), cmd)
    assert flagged[0].event.violation == "rule/needs_wandering"
    plain = door("Fury", "enhancer", bonus=2)
    h = started(ruleset, [ZOMBIE, GOBLIN, plain], [], hands={"B": (["Goblin", "Fury"], [])})
    ready_all(h)
    kick(h, "Zombie")
    err = h.refused("B", "play", card=h.id("Fury"), target=h.id("Goblin"))
    assert err.code == "command/card_not_there"


def test_an_aos_card_that_makes_a_monster_chaos_joins_a_chaos_fight() -> None:
    """B.6 (AoS *Undead and Chaos Monsters* ¶1: "an enhancer or other card that can be used
    to make a monster Undead or Chaos"); a monster so tagged is joined by another of the tag."""
    g = _undead_fight("munchkin-age-of-sigmar", FIEND, "chaos")
    events = g.do("B", "play", card=g.id("Grave Dust"), target=g.id("Goblin"))
    assert events[0].via == "chaos"  # type: ignore[attr-defined]


def test_an_enhancer_that_gives_a_tag_lets_others_of_the_tag_join() -> None:
    """B.6: the Rat made Undead by the card on it is an Undead in the fight: a Zombie joins."""
    g = started(
        "munchkin-deluxe",
        [RAT, ZOMBIE, grave_dust()],
        [],
        hands={"B": (["Zombie", "Grave Dust"], [])},
    )
    ready_all(g)
    kick(g, "Rat")
    g.do("B", "play", card=g.id("Grave Dust"))  # on the Rat
    events = g.do("B", "play", card=g.id("Zombie"))
    assert events[0].type == "MonsterJoined" and events[0].via == "undead"  # type: ignore[attr-defined]


CHEAT = treasure("Cheat!", "other", cheat=True)


def _two_steeds(ruleset: str = "munchkin-age-of-sigmar") -> Game:
    """A has a Steed in play, a second Steed and a Cheat! in hand; A's turn."""
    horse = treasure("Horse", "steed", bonus=1, run_away=1, value=300)
    pony = treasure("Pony", "steed", bonus=2, run_away=2, value=300)
    g = started(ruleset, [], [horse, pony, CHEAT], hands={"A": ([], ["Horse", "Pony", "Cheat!"])})
    ready_all(g)
    g.do("A", "play", card=g.id("Horse"))
    return g


@pytest.mark.parametrize("ruleset", ["munchkin-age-of-sigmar", "munchkin-old-west"])
def test_cheat_allows_a_second_steed(ruleset: str) -> None:
    """B.2 (AoS *Items, Steeds* ¶1: "You may only have one Steed at a time unless you
    Cheat!"): without the Cheat! the second Steed is `rule/helper_limit`; with it both are in
    play, and the Cheat! goes when its Steed does."""
    g = _two_steeds(ruleset)
    assert g.refused("A", "play", card=g.id("Pony")).code == "rule/helper_limit"
    events = g.do("A", "play", card=g.id("Cheat!"), target=g.id("Pony"))
    assert [e.type for e in events] == ["SteedCheated"]
    helpers = g.seat("A")["zones"]["helpers"]
    assert {g.id("Horse"), g.id("Pony"), g.id("Cheat!")} == set(helpers)
    assert g.state["cheats"] == {g.id("Cheat!"): g.id("Pony")}
    assert g.refold() == g.state


def test_a_cheated_steed_counts_and_its_cheat_goes_with_it() -> None:
    """B.2: both Steeds' bonuses count; when the cheated Steed is abandoned (AoS), the Cheat!
    is discarded after the command."""
    g = _two_steeds()
    g.do("A", "play", card=g.id("Cheat!"), target=g.id("Pony"))
    assert character_strength(g.state, "A") == 1 + 1 + 2
    events = g.do("A", "discard", card=g.id("Pony"))
    assert [e.type for e in events] == ["ClassicCardDiscarded", "CheatDiscarded"]
    assert g.seat("A")["zones"]["helpers"] == [g.id("Horse")]


def test_a_cheat_on_a_steed_is_played_when_a_steed_may_be() -> None:
    """B.14: the Steed the Cheat! brings is a helper card: on one's own turn, outside combat;
    record mode flags it."""
    g = _two_steeds()
    g.do("A", "kick_door", card=top_door(g, "Sample Blank Door"))
    g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    hand = g.seat("A")["zones"]["hand"]
    keep = {g.id("Pony"), g.id("Cheat!")}
    extra = [c for c in hand if c not in keep][: len(hand) - 5]
    if extra:
        g.do("A", "charity", gifts=dict.fromkeys(extra, "A"))
    g.do("A", "end_turn")
    err = g.refused("A", "play", card=g.id("Cheat!"), target=g.id("Pony"))
    assert err.code == "rule/not_your_turn"
    cmd = {"type": "play", "seat": "A", "card": g.id("Cheat!"), "target": g.id("Pony")}
    assert g.rs.decide(record(g), cmd)[0].event.violation == "rule/not_your_turn"


def test_a_cheated_steed_reads_like_table_talk_and_is_backed_up() -> None:
    """B.2, B.17: the transcript names the second Steed and its Cheat!, and the discard when
    the Steed goes; a backup restores which Steed the Cheat! holds."""
    from tests.classic.test_judge import check_backup
    from tests.unit.test_classic_narration import talk

    g = _two_steeds()
    g.do("A", "play", card=g.id("Cheat!"), target=g.id("Pony"))
    g.do("A", "discard", card=g.id("Pony"))
    said = talk(g, "B")
    assert "A: plays Pony, a Steed past the limit (Cheat!)" in said
    assert "A: discards Cheat! (its Item is gone)" in said
    check_backup(g, len(g.events) - 3)
