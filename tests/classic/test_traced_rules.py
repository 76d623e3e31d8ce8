"""Rules the paragraph-by-paragraph trace (docs/rules.md, "Trace: the classic rulebooks")
found enforced but checked by no test, one behaviour per test; each cites the rulebook
paragraph (DX, OW, AoS: docs/rules.md *Official sources*) and its docs/rules.md section."""

from __future__ import annotations

from typing import Any

import pytest

from tests.classic.helpers import Game, ready_all, started, top_door

SETS = ("munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar")
#: A character card kind of each set (B.2).
TRAIT_KIND = {
    "munchkin-deluxe": "race",
    "munchkin-old-west": "class",
    "munchkin-age-of-sigmar": "army",
}


def door(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "door", "kind": kind, "text": name, **fields}


def treasure(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "treasure", "kind": kind, "text": name, **fields}


RAT = door("Rat", "monster", level=1, treasures=1, bad_stuff=[{"lose_levels": 1}])
OGRE = door("Ogre", "monster", level=12, treasures=3, bad_stuff=[{"lose_item": "any"}])
REAPER = door("Reaper", "monster", level=20, treasures=5, bad_stuff=[{"die": True}])
SWORD = treasure("Sword", "item", slot="1hand", bonus=3, value=600)
IDOL = treasure("Idol", "item", slot=None, bonus=0, value=1000)
UP = treasure("Go Up a Level", "level_up")


def kick(g: Game, name: str) -> list[Any]:
    return g.do(g.state["active"], "kick_door", card=top_door(g, name))


def trait(ruleset: str, name: str, **fields: Any) -> dict[str, Any]:
    return door(name, TRAIT_KIND[ruleset], trait=name, **fields)


@pytest.mark.parametrize("ruleset", SETS)
def test_two_copies_of_the_same_character_card_are_refused(ruleset: str) -> None:
    """B.11 (DX *Super Munchkin and Half-Breed* ¶1, OW *Character Stats, Class* ¶3, AoS
    *Alliance* ¶1): never the same Race, Class or Army twice, a multi card or not."""
    elf = trait(ruleset, "Elf")
    g = started(ruleset, [elf, elf], [], hands={"A": (["Elf", "Elf"], [])})
    g.do("A", "play", card=g.id("Elf", 0))
    assert g.refused("A", "play", card=g.id("Elf", 1)).code == "rule/duplicate_trait"


def _dead_a(ruleset: str) -> Game:
    """A died to the Reaper on its turn and its body was looted; its turn is not over."""
    g = started(
        ruleset,
        [REAPER],
        [SWORD, UP, UP],
        hands={"B": ([], ["Sword", "Go Up a Level"]), "C": ([], ["Go Up a Level"])},
    )
    ready_all(g)
    kick(g, "Reaper")
    g.do("A", "run_away", monster=g.id("Reaper"), roll=1)
    g.do("A", "bad_stuff", monster=g.id("Reaper"))
    while g.state["body"] is not None:
        picker = g.state["body"]["order"][0]
        g.do(picker, "loot_body", card=g.state["body"]["cards"][0])
    assert g.seat("A")["dead"] and g.state["active"] == "A"
    return g


@pytest.mark.parametrize("ruleset", SETS)
def test_the_dead_receive_no_card_and_no_level(ruleset: str) -> None:
    """B.9 (DX *Death* ¶3, OW *Death* ¶3, AoS *Death* ¶4): "Dead characters cannot receive
    cards for any reason … and cannot level up"."""
    g = _dead_a(ruleset)
    gift = g.refused("B", "give", to="A", cards=[g.id("Sword")])
    assert gift.code == "rule/dead_player"
    up = next(c for c in g.ids("Go Up a Level") if g.state["cards"][c]["owner"] == "C")
    assert g.refused("C", "play", card=up, target="A").code == "rule/dead_player"


@pytest.mark.parametrize("ruleset", SETS)
def test_a_big_monster_gives_the_levels_on_its_card(ruleset: str) -> None:
    """B.7 (DX, OW, AoS *Combat* ¶1: "go up a level (two levels for some big monsters)")."""
    big = door("Big Rat", "monster", level=1, treasures=1, levels=2, bad_stuff=[])
    g = started(ruleset, [big], [SWORD], hands={"A": ([], ["Sword"])})
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    kick(g, "Big Rat")
    g.do("B", "pass")
    won: list[Any] = g.do("C", "pass")
    gained = [(e.player, e.levels) for e in won if e.type == "LevelsGained"]
    assert gained == [("A", 2)] and g.seat("A")["level"] == 3


@pytest.mark.parametrize("ruleset", SETS)
def test_one_shots_with_a_value_sell_and_other_treasures_do_not(ruleset: str) -> None:
    """B.12 (DX, AoS *"One-Shot" Treasures* ¶2): a one-shot with a Gold Piece value sells like
    an Item; a Go Up a Level is not an Item (*Other Treasures* ¶1): ``rule/not_sellable``."""
    potion = treasure("Gold Potion", "one_shot", bonus=2, value=1000)
    g = started(ruleset, [], [potion, UP], hands={"A": ([], ["Gold Potion", "Go Up a Level"])})
    ready_all(g)
    assert g.refused("A", "sell", cards=[g.id("Go Up a Level")]).code == "rule/not_sellable"
    sold: list[Any] = g.do("A", "sell", cards=[g.id("Gold Potion")])
    assert (sold[0].levels, g.seat("A")["level"]) == (1, 2)


def test_one_steed_at_a_time() -> None:
    """B.12 (AoS *Items, Steeds* ¶1: "You may only have one Steed at a time")."""
    steed = treasure("Steed", "steed", bonus=1, run_away=1)
    g = started("munchkin-age-of-sigmar", [], [steed, steed], hands={"A": ([], ["Steed"] * 2)})
    ready_all(g)
    g.do("A", "play", card=g.id("Steed", 0))
    assert g.refused("A", "play", card=g.id("Steed", 1)).code == "rule/helper_limit"


@pytest.mark.parametrize("ruleset", SETS)
def test_no_charity_with_five_cards_or_fewer(ruleset: str) -> None:
    """B.13 (DX *Turn Phases* ¶9: "If you have more than five cards"): ``rule/no_charity``."""
    hero = trait(ruleset, "Hero")
    g = started(ruleset, [hero], [IDOL] * 4, hands={"A": (["Hero"], ["Idol"] * 4)})
    g.do("A", "play", card=g.id("Hero"))
    for cid in g.ids("Idol"):
        g.do("A", "play", card=cid)
    ready_all(g)
    kick(g, "Sample Blank Door")
    g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    hand = g.seat("A")["zones"]["hand"]
    assert len(hand) == 5
    assert g.refused("A", "charity", gifts={hand[0]: "B"}).code == "rule/no_charity"
    g.do("A", "end_turn")


@pytest.mark.parametrize(
    ("effect", "lost_zone"), [({"lose_trait": "class"}, "class"), ({"discard_hand": True}, "hand")]
)
def test_bad_stuff_takes_a_character_card_or_the_hand(
    effect: dict[str, Any], lost_zone: str
) -> None:
    """B.9 (DX *Running Away* ¶2: Bad Stuff "as described on its card"): the ``lose_trait`` and
    ``discard_hand`` effects."""
    brute = door("Brute", "monster", level=12, treasures=1, bad_stuff=[effect])
    wizard = door("Wizard", "class", trait="Wizard")
    g = started("munchkin-deluxe", [brute, wizard], [], hands={"A": (["Wizard"], [])})
    g.do("A", "play", card=g.id("Wizard"))
    ready_all(g)
    kick(g, "Brute")
    before = list(g.seat("A")["zones"][lost_zone])
    assert before
    g.do("A", "run_away", monster=g.id("Brute"), roll=1)
    hurt: list[Any] = g.do("A", "bad_stuff", monster=g.id("Brute"))
    assert sorted([*hurt[0].lost, *hurt[0].hand]) == sorted(before)
    assert g.seat("A")["zones"][lost_zone] == []


@pytest.mark.parametrize("ruleset", SETS)
def test_a_curse_on_what_you_do_not_have_does_nothing_even_on_yourself(ruleset: str) -> None:
    """B.10 (DX, AoS *Curses* ¶6: "If a Curse applies to something you don't have, ignore
    it"; ¶7: a Curse on yourself): a lose-an-Item Curse on a seat without Items."""
    kind = "trap" if ruleset == "munchkin-old-west" else "curse"
    lose = door("Lose Your Gear", kind, effects=[{"lose_item": "any"}])
    g = started(ruleset, [lose], [], hands={"A": (["Lose Your Gear"], [])})
    ready_all(g)
    hit: list[Any] = g.do("A", "play", card=g.id("Lose Your Gear"), target="A")
    applied = next(e for e in hit if e.type == "CurseApplied")
    assert (applied.victim, applied.lost, applied.levels) == ("A", [], 0)
    assert g.state["cards"][g.id("Lose Your Gear")]["zone"] == "door_discard"


@pytest.mark.parametrize("ruleset", SETS)
def test_no_loot_after_running_away(ruleset: str) -> None:
    """B.4 (OW *Turn Phases* ¶8: "If you met a monster but ran away, you don't get to loot
    the room"): the run ends in charity; a loot is ``rule/wrong_phase``."""
    g = started(ruleset, [OGRE], [])
    ready_all(g)
    kick(g, "Ogre")
    g.do("A", "run_away", monster=g.id("Ogre"), roll=6)
    assert g.state["combat"] is None and g.state["phase"] == "charity"
    err = g.refused("A", "loot", card=top_door(g, "Sample Blank Door"))
    assert err.code == "rule/wrong_phase"


def test_death_keeps_the_multi_card() -> None:
    """B.9 (DX *Death* ¶1: "If you have Half-Breed or Super Munchkin, keep those as well")."""
    wizard = door("Wizard", "class", trait="Wizard")
    cleric = door("Cleric", "class", trait="Cleric")
    multi = door("Super Munchkin", "other", multi="class")
    g = started(
        "munchkin-deluxe",
        [REAPER, wizard, cleric, multi],
        [],
        hands={"A": (["Wizard", "Cleric", "Super Munchkin"], [])},
    )
    g.do("A", "play", card=g.id("Wizard"))
    ready_all(g)
    g.do("A", "play", card=g.id("Super Munchkin"))
    g.do("A", "play", card=g.id("Cleric"))
    kept = sorted(g.seat("A")["zones"]["class"])
    kick(g, "Reaper")
    g.do("A", "run_away", monster=g.id("Reaper"), roll=1)
    died: list[Any] = g.do("A", "bad_stuff", monster=g.id("Reaper"))
    body = next(e for e in died if e.type == "PlayerDied").body
    assert sorted(g.seat("A")["zones"]["class"]) == kept and not set(kept) & set(body)


def test_cards_in_play_do_not_return_to_the_hand() -> None:
    """B.12 (DX, AoS *Card Management* ¶4): an unequipped Item stays in play, carried."""
    g = started("munchkin-deluxe", [], [SWORD], hands={"A": ([], ["Sword"])})
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    g.do("A", "unequip", card=g.id("Sword"))
    assert g.state["cards"][g.id("Sword")]["zone"] == "carried"
    assert g.id("Sword") not in g.seat("A")["zones"]["hand"]


def test_a_chaos_monster_joins_a_chaos_fight() -> None:
    """B.6 (AoS *Undead and Chaos Monsters* ¶1: "help any other monster with the same tag")."""
    brute = door("Chaos Brute", "monster", level=2, treasures=1, tags=["chaos"], bad_stuff=[])
    imp = door("Chaos Imp", "monster", level=1, treasures=1, tags=["chaos"], bad_stuff=[])
    g = started("munchkin-age-of-sigmar", [brute, imp], [], hands={"B": (["Chaos Imp"], [])})
    ready_all(g)
    kick(g, "Chaos Brute")
    joined: list[Any] = g.do("B", "play", card=g.id("Chaos Imp"))
    assert joined[0].via == "chaos" and len(g.state["combat"]["monsters"]) == 2


def test_an_army_is_discarded_at_any_time_even_in_combat() -> None:
    """B.11 (AoS *Character Stats, Army* ¶3, *When You May Take Actions* ¶1)."""
    grot = door("Grot", "army", trait="Grot")
    hater = door("Grot Hater", "monster", level=1, treasures=1, vs=[{"trait": "Grot", "bonus": 5}])
    g = started("munchkin-age-of-sigmar", [grot, hater], [], hands={"A": (["Grot"], [])})
    g.do("A", "play", card=g.id("Grot"))
    ready_all(g)
    kick(g, "Grot Hater")
    assert g.state["combat"]["monster_strength"] == 6
    g.do("A", "discard", card=g.id("Grot"))
    assert g.seat("A")["zones"]["army"] == [] and g.state["combat"]["monster_strength"] == 1


def test_charity_may_begin_with_selling_from_the_hand() -> None:
    """B.13 (AoS *Turn Phases* ¶8: "you can play Curses, sell Items from your hand, or play
    Items to the table"): a sale in the charity phase, then the charity of what is left."""
    g = started("munchkin-age-of-sigmar", [], [IDOL], hands={"A": ([], ["Idol"])})
    ready_all(g)
    kick(g, "Sample Blank Door")
    g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    assert g.state["phase"] == "charity" and len(g.seat("A")["zones"]["hand"]) == 10
    g.do("A", "sell", cards=[g.id("Idol")])
    assert g.seat("A")["level"] == 2 and len(g.seat("A")["zones"]["hand"]) == 9


def test_alliance_with_two_armies_has_both_armies_disadvantages() -> None:
    """B.11 (AoS *Alliance* ¶3: "all the normal advantages and disadvantages of both
    Armies"): a monster's bonuses against each Army both count."""
    grot = door("Grot", "army", trait="Grot")
    skaven = door("Skaven", "army", trait="Skaven")
    alliance = door("Alliance", "other", multi="army")
    hater = door(
        "Hater",
        "monster",
        level=1,
        treasures=1,
        vs=[{"trait": "Grot", "bonus": 2}, {"trait": "Skaven", "bonus": 3}],
    )
    g = started(
        "munchkin-age-of-sigmar",
        [grot, skaven, alliance, hater],
        [],
        hands={"A": (["Grot", "Skaven", "Alliance"], [])},
    )
    g.do("A", "play", card=g.id("Grot"))
    ready_all(g)
    g.do("A", "play", card=g.id("Alliance"))
    g.do("A", "play", card=g.id("Skaven"))
    kick(g, "Hater")
    assert g.state["combat"]["monster_strength"] == 1 + 2 + 3


def test_a_second_race_needs_half_breed() -> None:
    """B.11 (DX *Character Stats, Race* ¶3: "You may not belong to more than one race at once
    unless you play the [Half-Breed]")."""
    elf, dwarf = door("Elf", "race", trait="Elf"), door("Dwarf", "race", trait="Dwarf")
    half = door("Half-Breed", "other", multi="race")
    g = started(
        "munchkin-deluxe", [elf, dwarf, half], [], hands={"A": (["Elf", "Dwarf", "Half-Breed"], [])}
    )
    g.do("A", "play", card=g.id("Elf"))
    assert g.refused("A", "play", card=g.id("Dwarf")).code == "rule/trait_limit"
    ready_all(g)
    g.do("A", "play", card=g.id("Half-Breed"))
    g.do("A", "play", card=g.id("Dwarf"))
    assert len(g.seat("A")["zones"]["race"]) == 3
