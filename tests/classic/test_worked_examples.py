"""Each rulesheet's "Example of Combat, With Numbers and Everything", recorded as a game and
checked number by number (docs/rules.md B.5-B.7, B.11, B.12; D.C1, D.C13).

The cards are defined here with the examples' names and numbers (they are the rulesheets'
examples, not catalog cards); levels are set with Go Up a Level cards played by the other
seats before the door is kicked (B.3: any player, any time).
"""

from __future__ import annotations

from typing import Any

from domain.classic.rules import character_strength, run_modifier, strengths
from tests.classic.helpers import Game, ready_all, started, top_door, top_treasures


def door(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "door", "kind": kind, "text": name, **fields}


def treasure(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "treasure", "kind": kind, "text": name, **fields}


LEVEL_UP = treasure("Go Up a Level", "level_up")


def combat_numbers(g: Game) -> tuple[int, int]:
    c = g.state["combat"]
    assert (c["player_strength"], c["monster_strength"]) == strengths(g.state)
    return c["player_strength"], c["monster_strength"]


def with_helper(g: Game, helper: str) -> tuple[int, int]:
    """The strengths if ``helper`` joined (what the examples' would-be helpers compute)."""
    return strengths(g.state, {**g.state["combat"], "helper": helper})


def level_up(g: Game, by: str, target: str, times: int) -> None:
    hand = g.seat(by)["zones"]["hand"]
    ups = [c for c in hand if g.state["cards"][c]["def"]["kind"] == "level_up"][:times]
    for cid in ups:
        g.do(by, "play", card=cid, target=target)


def test_deluxe_net_troll() -> None:
    """DX *Example of Combat*: Aric, a Level 4 Warrior with the Chainsaw (+3), meets the Net
    Troll (Level 10); Magic Missile +5; Suzan's Enraged +5; the Warrior's Berserking discards
    three cards for +3; tied at 15, the Warrior wins ties: a level and 3 + 1 Treasures."""
    doors = [
        door("Net Troll", "monster", level=10, treasures=3, bad_stuff=[{"lose_levels": 2}]),
        door("Warrior", "class", trait="Warrior", powers={"wins_ties": True, "discard_bonus": 3}),
        door("Thief", "class", trait="Thief"),
        door("Wandering Monster", "other", wandering=True),
        door("Elf", "race", trait="Elf", powers={"helper_levels": 1, "run_away": 1}),
        door("Enraged", "enhancer", bonus=5, treasures=1),
    ]
    treasures = [
        treasure(
            "Chainsaw of Bloody Dismemberment", "item", slot="2hands", big=True, bonus=3, value=600
        ),
        treasure("Magic Missile", "one_shot", bonus=5, value=300),
        treasure("Yuppie Water", "item", slot=None, bonus=2, value=100, usable_by=["Elf"]),
        treasure("Boots of Butt-Kicking", "item", slot="footgear", bonus=2, value=400),
        *[LEVEL_UP] * 4,
    ]
    g = started(
        "munchkin-deluxe",
        doors,
        treasures,
        3,
        hands={
            "A": (
                ["Warrior", "Thief", "Wandering Monster"],
                ["Chainsaw of Bloody Dismemberment", "Magic Missile", "Yuppie Water"],
            ),
            "B": (["Elf", "Enraged"], ["Boots of Butt-Kicking"]),
            "C": ([], ["Go Up a Level"] * 4),
        },
    )
    g.do("A", "play", card=g.id("Warrior"))
    g.do("A", "play", card=g.id("Chainsaw of Bloody Dismemberment"))
    g.do("A", "play", card=g.id("Yuppie Water"))  # carried: only an Elf uses it (B.12)
    assert g.seat("A")["zones"]["carried"] == [g.id("Yuppie Water")]
    g.do("B", "play", card=g.id("Elf"))
    g.do("B", "play", card=g.id("Boots of Butt-Kicking"))
    ready_all(g)
    level_up(g, "C", "A", 3)
    level_up(g, "C", "B", 1)
    assert (g.seat("A")["level"], g.seat("B")["level"]) == (4, 2)

    g.do("A", "kick_door", card=top_door(g, "Net Troll"))
    assert combat_numbers(g) == (7, 10)  # "Aric's at a 7, the Net Troll is at a 10"
    g.do("A", "play", card=g.id("Magic Missile"))
    assert combat_numbers(g) == (12, 10)  # "+5 for this fight ... 12, beating 10"
    g.do("B", "play", card=g.id("Enraged"))
    assert combat_numbers(g) == (12, 15)  # "losing, 15 to 12"
    assert character_strength(g.state, "B") == 4  # "a Level 2 Elf with the Boots ... 4"
    assert with_helper(g, "B") == (16, 15)  # "they would have 16, enough"
    for name in ("Thief", "Wandering Monster", "Yuppie Water"):
        g.do("A", "discard", card=g.id(name))
    assert combat_numbers(g) == (15, 15)  # "now we're tied, 15 to 15"
    g.do("B", "pass")
    won = g.do("C", "pass")  # "No one says anything" (D.C1)
    assert [e.type for e in won] == ["CombatPassed", "CombatWon", "LevelsGained"]
    assert won[1].treasures == 4  # "three from the Net Troll card, and one extra"
    assert g.seat("A")["level"] == 5  # "Aric goes up a level"
    cards = top_treasures(g, 4)
    g.do("A", "take_treasure", cards=cards)
    assert all(g.state["cards"][c]["known"] == ["A"] for c in cards)  # face down: alone (B.7)
    assert g.state["combat"] is None and g.state["phase"] == "charity"


def test_old_west_ghost_rider() -> None:
    """OW *Example of Combat*: Miss Kitty, a Level 4 Dude with the Bowler Hat (+2, +1 for a
    Dude) and the Bowie Knife (+2) is at 9 against the Ghost Rider's 8; Gol-Darned +5; she
    swaps Dude for Indian (+2 per "Bow" Item; the Ghost Rider has -3 against Indians): 12 to
    10, a level and 2 + 1 Treasures."""
    doors = [
        door(
            "Ghost Rider",
            "monster",
            level=8,
            treasures=2,
            vs=[{"trait": "Indian", "bonus": -3}],
            bad_stuff=[{"lose_levels": 1}],
        ),
        door("Dude", "class", trait="Dude"),
        door("Indian", "class", trait="Indian"),
        door("Outlaw", "class", trait="Outlaw"),
        door("Gol-Darned", "enhancer", bonus=5, treasures=1),
    ]
    bow = [{"trait": "Indian", "bonus": 2}]
    treasures = [
        treasure(
            "Bowler Hat",
            "item",
            slot="headgear",
            bonus=2,
            value=300,
            bonus_with=[{"trait": "Dude", "bonus": 1}, *bow],
        ),
        treasure("Bowie Knife", "item", slot="1hand", bonus=2, value=300, bonus_with=bow),
        treasure("Bullwhip", "item", slot="1hand", bonus=3, value=400),
        *[LEVEL_UP] * 5,
    ]
    g = started(
        "munchkin-old-west",
        doors,
        treasures,
        4,
        hands={
            "A": (["Dude", "Indian"], ["Bowler Hat", "Bowie Knife"]),
            "B": (["Outlaw", "Gol-Darned"], ["Bullwhip"]),
            "C": ([], ["Go Up a Level"] * 4),
            "D": ([], ["Go Up a Level"]),
        },
    )
    for seat, names in (
        ("A", ["Dude", "Bowler Hat", "Bowie Knife"]),
        ("B", ["Outlaw", "Bullwhip"]),
    ):
        for name in names:
            g.do(seat, "play", card=g.id(name))
    ready_all(g)
    level_up(g, "C", "A", 3)
    level_up(g, "C", "B", 1)
    level_up(g, "D", "B", 1)
    assert (g.seat("A")["level"], g.seat("B")["level"]) == (4, 3)

    g.do("A", "kick_door", card=top_door(g, "Ghost Rider"))
    assert combat_numbers(g) == (9, 8)  # "Miss Kitty's at a 9 and the Ghost Rider is at a 8"
    g.do("B", "play", card=g.id("Gol-Darned"))
    assert combat_numbers(g) == (9, 13)  # "losing, 13 to 9"
    assert character_strength(g.state, "B") == 6  # "a Level 3 Outlaw with the Bullwhip ... 6"
    assert with_helper(g, "B") == (15, 13)  # "they would have 15, enough"
    g.do("A", "discard", card=g.id("Dude"))  # a Class is discarded any time (B.11)
    g.do("A", "play", card=g.id("Indian"))  # a new Class any time in your turn (B.14)
    assert combat_numbers(g) == (12, 10)  # "total combat strength of 12 ... winning, 12 to 10"
    g.do("B", "pass")
    g.do("C", "pass")
    won = g.do("D", "pass")
    assert won[1].type == "CombatWon" and won[1].treasures == 3  # "two ... and one extra"
    assert g.seat("A")["level"] == 5
    g.do("A", "take_treasure", cards=top_treasures(g, 3))
    assert g.state["combat"] is None


def test_age_of_sigmar_mannfred() -> None:
    """AoS *Example of Combat*: Ian, a Level 4 Stormcast Eternal with Ghal Maraz (+5, +1 for
    his Army), meets Mannfred (Level 10, +5 at 10 p.m.: 15); Battle Brew, two drinks: +6 and
    -2 to Run Away (16); Command Model +10 (25); Steve, a Level 6 Moonclan Grot with two other
    Grots at the table, would bring 12 (28); Unbind removes the Command Model: 16 to 15, a
    level and three Treasures."""
    doors = [
        door(
            "Mannfred von Carstein",
            "monster",
            level=10,
            treasures=3,
            tags=["undead"],
            when=[{"condition": "after 8 p.m.", "bonus": 5}],
            bad_stuff=[{"die": True}],
        ),
        door("Stormcast Eternals", "army", trait="Stormcast Eternals"),
        *[door("Moonclan Grots", "army", trait="Moonclan Grots", powers={"bonus_per_other": 3})]
        * 3,
        door("Command Model", "enhancer", bonus=10, treasures=1),
    ]
    treasures = [
        treasure(
            "Ghal Maraz",
            "item",
            slot="2hands",
            big=True,
            bonus=5,
            value=1000,
            bonus_with=[{"trait": "Stormcast Eternals", "bonus": 1}],
        ),
        treasure(
            "Battle Brew",
            "one_shot",
            bonus=0,
            value=200,
            doses={"max": 3, "bonus": 3, "run_away": -1},
        ),
        treasure("Unbind", "one_shot", bonus=0, value=100, removes="enhancer"),
        *[LEVEL_UP] * 8,
    ]
    g = started(
        "munchkin-age-of-sigmar",
        doors,
        treasures,
        4,
        hands={
            "A": (["Stormcast Eternals"], ["Ghal Maraz", "Battle Brew", "Unbind"]),
            "B": (["Moonclan Grots", "Command Model"], []),
            "C": (["Moonclan Grots"], ["Go Up a Level"] * 4),
            "D": (["Moonclan Grots"], ["Go Up a Level"] * 4),
        },
    )
    g.do("A", "play", card=g.id("Stormcast Eternals"))
    g.do("A", "play", card=g.id("Ghal Maraz"))
    for seat, n in (("B", 0), ("C", 1), ("D", 2)):
        g.do(seat, "play", card=g.id("Moonclan Grots", n))
    ready_all(g)
    level_up(g, "C", "A", 3)
    level_up(g, "C", "B", 1)
    level_up(g, "D", "B", 4)
    assert (g.seat("A")["level"], g.seat("B")["level"]) == (4, 6)

    g.do("A", "kick_door", card=top_door(g, "Mannfred von Carstein"), conditions=["after 8 p.m."])
    assert combat_numbers(g) == (10, 15)  # "an extra +5, for a total of 15. Ian is losing."
    g.do("A", "play", card=g.id("Battle Brew"), choice=2)
    assert combat_numbers(g) == (16, 15)  # "+6 for this fight ... 16, beating 15"
    assert run_modifier(g.state, "A", g.id("Mannfred von Carstein")) == -2  # "-2 to Run Away"
    g.do("B", "play", card=g.id("Command Model"))
    assert combat_numbers(g) == (16, 25)  # "losing, 25 to 16"
    assert character_strength(g.state, "B") == 12  # Level 6 + 6 for two other Grots
    assert with_helper(g, "B") == (28, 25)  # "their total bonus is 28, enough"
    g.do("A", "play", card=g.id("Unbind"), target=g.id("Command Model"))
    assert combat_numbers(g) == (16, 15)  # "dropping Mannfred's combat strength back to 15"
    for seat in "BCD":
        last = g.do(seat, "pass")
    assert last[1].type == "CombatWon" and last[1].treasures == 3  # "Mannfred's three Treasures"
    assert g.seat("A")["level"] == 5
    g.do("A", "take_treasure", cards=top_treasures(g, 3))
    assert g.state["combat"] is None
