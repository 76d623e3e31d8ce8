"""A helper's powers and vulnerabilities count in the combat it helps (issue #24 item 1;
docs/rules.md B.5, B.7, B.11, D.C18).

DX *Asking For Help*: "The special abilities or vulnerabilities of the monster also apply to your
helper, and vice versa. For instance, if a Warrior helps you, you will win if your combined total
ties that of the monster, and he can Berserk and discard cards to add to his combat strength (but
only once per combat, not once per monster). If you are facing the Wannabe Vampire and a Cleric
helps you, he can chase it away automatically. But if you are facing the Drooling Slime and an
Elf helps you, the monster's combat strength is increased by 4 (unless you, too, are an Elf and
the monster's combat strength has already been increased)." Old West and Age of Sigmar say the
same with their own examples (the Mechanical Bull and the Killer Jalapeño; the Branchwraith and
the Icefall Yhetee), played here example by example.

The cards are the rulesheets' examples, defined here with their names (they are not catalog
cards); the numbers not printed in the rulesheets (levels, Treasures) are this file's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from domain.classic.rules import player_wins, strengths
from domain.errors import RuleViolation
from tests.classic.helpers import Game, ready_all, started, top_door
from tests.unit.test_classic_narration import talk

DX, OW, AOS = "munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar"
TRAIT_KIND = {DX: "class", OW: "class", AOS: "army"}


def door(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "door", "kind": kind, "text": name, **fields}


def treasure(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "treasure", "kind": kind, "text": name, **fields}


SWORD = treasure("Sword", "item", slot="1hand", bonus=2, value=400)
WARRIOR = door("Warrior", "class", trait="Warrior", powers={"wins_ties": True, "discard_bonus": 3})
WIZARD = door("Wizard", "class", trait="Wizard")
CLERIC = door("Cleric", "class", trait="Cleric")
ELF = door("Elf", "race", trait="Elf", powers={"helper_levels": 1, "run_away": 1})
JUNK = door("Junk", "other")
WANDERING = door("Wandering Monster", "other", wandering=True)


def fight(
    rs: str,
    monster: dict[str, Any],
    a: Sequence[dict[str, Any]],
    b: Sequence[dict[str, Any]],
    *,
    extra: Sequence[dict[str, Any]] = (),
    b_hand: Sequence[str] = (),
    c: Sequence[dict[str, Any]] = (),
) -> Game:
    """A (Level 1, a Sword: 3) kicks open the door on ``monster``; A, B and C play their
    character cards ``a``, ``b`` and ``c`` first; B also holds ``b_hand`` (names)."""
    doors = [monster, *a, *b, *c, *extra]
    g = started(
        rs,
        doors,
        [SWORD],
        3,
        hands={
            "A": ([x["name"] for x in a], ["Sword"]),
            "B": ([x["name"] for x in b] + list(b_hand), []),
            "C": ([x["name"] for x in c], []),
        },
    )
    for seat, cards in (("A", a), ("B", b), ("C", c)):
        for x in cards:
            own = [
                cid
                for cid in g.seat(seat)["zones"]["hand"]
                if g.state["cards"][cid]["def"]["name"] == x["name"]
            ]
            g.do(seat, "play", card=own[0])
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    g.do("A", "kick_door", card=top_door(g, monster["name"]))
    return g


def helped(g: Game) -> Game:
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    return g


def record(g: Game, seat: str, kind: str, **fields: Any) -> list[Any]:
    """The events the command records in record mode (the game itself is left as it was)."""
    steps = g.rs.decide({**g.state, "mode": "record"}, {"type": kind, "seat": seat, **fields})
    return [s.event for s in steps]


def hand_cards(g: Game, seat: str) -> list[str]:
    return list(g.seat(seat)["zones"]["hand"])


# ------------------------------------------------------------------------ Deluxe: the Warrior


def test_dx_a_warrior_helper_wins_a_tie() -> None:
    """DX: "if a Warrior helps you, you will win if your combined total ties that of the monster":
    A (3) and a Warrior helper (1) against a Level 4 monster: 4 to 4, won after the passes."""
    g = fight(DX, door("Tie Troll", "monster", level=4, treasures=2), [], [WARRIOR])
    assert strengths(g.state) == (3, 4)
    helped(g)
    assert strengths(g.state) == (4, 4) and player_wins(g.state)
    g.do("B", "pass")
    won = g.do("C", "pass")
    assert [e.type for e in won] == ["CombatPassed", "CombatWon", "LevelsGained"]
    assert (won[1].player_strength, won[1].monster_strength, won[1].helper) == (4, 4, "B")
    assert g.seat("A")["level"] == 2


def test_dx_a_tie_with_a_helper_that_has_no_such_power_is_lost() -> None:
    g = helped(fight(DX, door("Tie Troll", "monster", level=4, treasures=2), [], [WIZARD]))
    assert strengths(g.state) == (4, 4) and not player_wins(g.state)
    g.do("B", "pass")
    assert [e.type for e in g.do("C", "pass")] == ["CombatPassed"]  # no win: run (B.5)
    g.do("A", "run_away", monster=g.state["combat"]["monsters"][0]["card"], roll=6)


def test_dx_a_warrior_helper_berserks_once_per_combat_not_once_per_monster() -> None:
    """DX: "he can Berserk and discard cards to add to his combat strength (but only once per
    combat, not once per monster)": against two monsters (5 + 2), the helping Warrior's three
    discards make 4 + 3 = 7, a tie he wins; a fourth discard is refused; the player, no Warrior,
    may not discard for the side."""
    g = fight(
        DX,
        door("Ogre", "monster", level=5, treasures=2),
        [],
        [WARRIOR],
        extra=[WANDERING, door("Imp", "monster", level=2, treasures=1), JUNK],
        b_hand=["Wandering Monster", "Imp", "Junk"],
    )
    helped(g)
    g.do("B", "play", card=g.id("Wandering Monster"), target=g.id("Imp"))
    assert strengths(g.state) == (4, 7)
    junk = hand_cards(g, "B")  # any card powers a discard ability (B.11)
    assert len(junk) == 5
    for n, cid in enumerate(junk[:3], 1):
        (e,) = g.do("B", "discard", card=cid)
        assert (e.type, e.player, e.bonus) == ("ClassicCardDiscarded", "B", 1)
        assert strengths(g.state) == (4 + n, 7)
    assert g.state["combat"]["discard_bonus"] == {"B": 3}
    err = g.refused("B", "discard", card=junk[3])
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == (
        "rule/cannot_discard",
        "B.12",
    )
    (flagged,) = record(g, "B", "discard", card=junk[3])
    assert flagged.violation == "rule/cannot_discard" and flagged.bonus == 0
    a_card = hand_cards(g, "A")[0]
    err = g.refused("A", "discard", card=a_card)  # the player is no Warrior
    assert (err.code, err.rule) == ("rule/cannot_discard", "B.12")
    assert player_wins(g.state)  # 7 to 7: the helper's wins_ties
    g.do("B", "pass")
    won = g.do("C", "pass")
    assert won[1].type == "CombatWon" and won[1].killed == [g.id("Ogre"), g.id("Imp")]
    said = talk(g, "judge")
    assert sum(1 for s in said if s.startswith("B: discards") and "(+1 in the combat)" in s) == 3


def test_dx_a_warrior_player_still_berserks_and_wins_ties() -> None:
    """DX: "and vice versa": the player's own powers are unchanged by a helper without them."""
    g = fight(DX, door("Tie Troll", "monster", level=5, treasures=2), [WARRIOR], [WIZARD])
    helped(g)
    assert strengths(g.state) == (4, 5)
    g.do("A", "discard", card=hand_cards(g, "A")[0])
    assert strengths(g.state) == (5, 5) and player_wins(g.state)
    assert g.refused("B", "discard", card=hand_cards(g, "B")[0]).code == "rule/cannot_discard"


# ------------------------------------------------------------- Deluxe: the Cleric and the Vampire

VAMPIRE = door(
    "Wannabe Vampire",
    "monster",
    level=12,
    treasures=3,
    chased_by=["Cleric"],
    bad_stuff=[{"lose_levels": 3}],
)


def test_dx_a_cleric_helper_chases_the_wannabe_vampire_away() -> None:
    """DX: "If you are facing the Wannabe Vampire and a Cleric helps you, he can chase it away
    automatically": the helping Cleric's `chase_away` removes it (not killed: no level and, in
    Deluxe, no Treasure, D.C2, D.C18); the player, no Cleric, cannot; a Cleric who is not
    fighting cannot either."""
    g = fight(DX, VAMPIRE, [WIZARD], [CLERIC], c=[door("Cleric", "class", trait="Cleric")])
    vampire = g.id("Wannabe Vampire")
    err = g.refused("A", "chase_away", monster=vampire)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/cannot_chase", "B.7")
    flagged = record(g, "A", "chase_away", monster=vampire)
    assert flagged[0].type == "MonsterChasedAway" and flagged[0].violation == "rule/cannot_chase"
    assert g.refused("C", "chase_away", monster=vampire).code == "command/not_fighting"
    assert g.refused("B", "chase_away", monster=vampire).code == "command/not_fighting"
    helped(g)
    events = g.do("B", "chase_away", monster=vampire)
    assert [e.type for e in events][:3] == ["MonsterChasedAway", "CombatWon", "CombatEnded"]
    assert (events[0].by, events[0].trait) == ("B", "Cleric")
    assert events[1].killed == [] and events[1].treasures == 0
    assert events[2].outcome == "removed" and g.state["combat"] is None
    assert g.seat("A")["level"] == 1 and g.seat("B")["level"] == 1
    assert g.state["cards"][vampire]["zone"] == "door_discard"
    assert "B: chases Wannabe Vampire (level 12) away (a Cleric)" in talk(g, "judge")


def test_dx_a_cleric_player_chases_it_away_alone() -> None:
    g = fight(DX, VAMPIRE, [CLERIC], [])
    events = g.do("A", "chase_away", monster=g.id("Wannabe Vampire"))
    assert events[0].trait == "Cleric" and g.state["combat"] is None


def test_a_chase_is_refused_once_the_combat_is_decided_and_without_a_combat() -> None:
    g = fight(DX, VAMPIRE, [CLERIC], [])
    g.do("A", "run_away", monster=g.id("Wannabe Vampire"), roll=1)  # caught: Bad Stuff waits
    err = g.refused("A", "chase_away", monster=g.id("Wannabe Vampire"))
    assert (err.code, err.rule) == ("rule/combat_decided", "B.7")
    g.do("A", "bad_stuff", monster=g.id("Wannabe Vampire"))
    assert g.state["combat"] is None
    err = g.refused("A", "chase_away", monster=g.id("Wannabe Vampire"))
    assert err.code == "command/no_combat"


def test_ow_a_chase_is_a_non_lethal_win_with_treasure() -> None:
    """The same card data in Old West: a non-lethal removal still gives the Treasure (D.C2)."""
    g = fight(OW, {**VAMPIRE, "chased_by": ["Dude"]}, [], [door("Dude", "class", trait="Dude")])
    helped(g)
    events = g.do("B", "chase_away", monster=g.id("Wannabe Vampire"))
    assert [e.type for e in events] == ["MonsterChasedAway", "CombatWon"]
    assert events[1].treasures == 3 and g.state["combat"]["stage"] == "treasure"
    assert g.seat("A")["level"] == 1  # no level for a monster not killed


# ---------------------------------------------------------- Deluxe: the Elf and the Drooling Slime

SLIME = door("Drooling Slime", "monster", level=1, treasures=1, vs=[{"trait": "Elf", "bonus": 4}])


def test_dx_an_elf_helper_raises_the_drooling_slime_by_4() -> None:
    """DX: "if you are facing the Drooling Slime and an Elf helps you, the monster's combat strength
    is increased by 4": 1, then 5 once the Elf helps."""
    g = fight(DX, SLIME, [], [ELF])
    assert strengths(g.state) == (3, 1)
    helped(g)
    assert strengths(g.state) == (4, 5)


def test_dx_an_elf_helping_an_elf_does_not_raise_it_twice() -> None:
    """DX: "(unless you, too, are an Elf and the monster's combat strength has already been
    increased)": 5 against the Elf player, still 5 with an Elf helper."""
    g = fight(DX, SLIME, [ELF], [door("Elf", "race", trait="Elf")])
    assert strengths(g.state) == (3, 5)
    helped(g)
    assert strengths(g.state) == (4, 5)


def test_dx_the_catalog_dire_hamster_against_an_elf_helper() -> None:
    """The sample catalog's monster with a bonus against Elves, an Elf helping (B.7)."""
    from domain.classic.cards import sample_catalog

    cat = sample_catalog(DX)
    g = fight(DX, cat["Sample Dire Hamster"], [], [cat["Sample Elf"]])
    assert strengths(g.state) == (3, 6)
    helped(g)
    assert strengths(g.state) == (4, 9)


# ---------------------------------------------------------------- Old West and Age of Sigmar


@pytest.mark.parametrize(
    ("rs", "monster", "trait", "alone", "with_helper", "both"),
    [
        # OW: "if you are not a Cowboy, but a Cowboy helps you, the Mechanical Bull will be at a
        # -3 against you"
        (OW, door("Mechanical Bull", "monster", level=8, treasures=2), "Cowboy", 8, 5, 5),
        # OW: "if you are facing the Killer Jalapeño and a Dude helps you, the foe's combat
        # strength is increased by 3 (unless you, too, are a Dude ... don't increase it twice)"
        (OW, door("Killer Jalapeño", "monster", level=6, treasures=2), "Dude", 6, 9, 9),
        # AoS: "if a Moonclan Grot helps you fight the Branchwraith, its combat strength is
        # reduced by 4 (unless you are also a Moonclan Grot)"
        (AOS, door("Branchwraith", "monster", level=10, treasures=3), "Moonclan Grots", 10, 6, 6),
        # AoS: "if you are facing the Icefall Yhetee and a Moonclan Grot helps you, the
        # monster's combat strength is increased by 4 (unless you, too, are a Moonclan Grot)"
        (AOS, door("Icefall Yhetee", "monster", level=6, treasures=2), "Moonclan Grots", 6, 10, 10),
    ],
    ids=["ow-mechanical-bull", "ow-killer-jalapeno", "aos-branchwraith", "aos-icefall-yhetee"],
)
def test_a_bonus_against_the_helpers_trait_counts_once(
    rs: str, monster: dict[str, Any], trait: str, alone: int, with_helper: int, both: int
) -> None:
    delta = {"Cowboy": -3, "Dude": 3, "Moonclan Grots": -4 if "Branch" in monster["name"] else 4}
    mon = {**monster, "vs": [{"trait": trait, "bonus": delta[trait]}]}
    kind = TRAIT_KIND[rs]
    card = door(trait, kind, trait=trait)
    g = fight(rs, mon, [], [card])  # the player has not the trait, the helper has
    assert strengths(g.state)[1] == alone
    helped(g)
    assert strengths(g.state) == (4, with_helper)
    g = fight(rs, mon, [card], [door(trait, kind, trait=trait)])  # both have it
    assert strengths(g.state)[1] == with_helper
    helped(g)
    assert strengths(g.state) == (4, both)


def test_ow_the_catalog_dust_devil_against_an_indian_helper() -> None:
    from domain.classic.cards import sample_catalog

    cat = sample_catalog(OW)
    g = fight(OW, cat["Sample Dust Devil"], [], [cat["Sample Indian"]])
    assert strengths(g.state) == (3, 6)
    helped(g)
    assert strengths(g.state) == (4, 3)
