"""Treasures on the table: a one-shot is put in play, carried, and used later from there
(issue #24 item 3; docs/rules.md B.1, B.12, B.14).

DX and AoS *Treasures*: "Any Treasure card may be played to the table as soon as you get it, or
at any time on your own turn *except* during combat"; *"One-Shot" Treasures*: "may be played
from your hand or from the table". OW *Combat*: "You can also use one-shot items that you
already had in play." The Net Troll example's Aric discards Yuppie Water "from his carried
items". So, outside a combat, ``play`` of a one-shot from the hand puts it on the table, carried
(never equipped: it gives no bonus there), on one's own turn (or at character creation); in a
combat, ``play`` uses it, from the hand or from the table.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.classic.rules import character_strength, strengths
from domain.errors import DomainError, RuleViolation
from tests.classic.helpers import Game, ready_all, started, top_door, top_treasures
from tests.unit.test_classic_narration import talk

ONE_SHOT = {
    "munchkin-deluxe": "Sample Flaming Potion",
    "munchkin-old-west": "Sample Snake Oil",
    "munchkin-age-of-sigmar": "Sample War Cry",
}
SETS = sorted(ONE_SHOT)
TROLL = {
    "name": "Troll",
    "deck": "door",
    "kind": "monster",
    "level": 10,
    "treasures": 2,
    "text": "Troll",
}


def catalog_card(rs: str, name: str) -> dict[str, Any]:
    from domain.classic.cards import sample_catalog

    return sample_catalog(rs)[name]


def game(rs: str) -> Game:
    """A and B each hold the set's catalog one-shot; A's turn, before the door."""
    shot = catalog_card(rs, ONE_SHOT[rs])
    g = started(
        rs,
        [TROLL],
        [shot, shot],
        3,
        hands={"A": ([], [ONE_SHOT[rs]]), "B": ([], [ONE_SHOT[rs]])},
    )
    ready_all(g)
    return g


def shot_of(g: Game, seat: str) -> str:
    return next(
        c for c in g.ids(ONE_SHOT[g.state["ruleset"]]) if g.state["cards"][c]["owner"] == seat
    )


def record(g: Game, seat: str, kind: str, **fields: Any) -> list[Any]:
    steps = g.rs.decide({**g.state, "mode": "record"}, {"type": kind, "seat": seat, **fields})
    return [s.event for s in steps]


@pytest.mark.parametrize("rs", SETS)
def test_a_one_shot_goes_on_the_table_and_is_used_from_there_in_a_combat(rs: str) -> None:
    g = game(rs)
    shot = shot_of(g, "A")
    bonus = g.state["cards"][shot]["def"]["bonus"]
    before = character_strength(g.state, "A")
    (put,) = g.do("A", "play", card=shot)
    assert (put.type, put.player, put.card, put.equipped, put.violation) == (
        "ItemPlayed",
        "A",
        shot,
        False,
        None,
    )
    assert g.seat("A")["zones"]["carried"] == [shot]
    assert sorted(g.state["cards"][shot]["known"]) == ["A", "B", "C"]  # on the table: public
    assert character_strength(g.state, "A") == before  # carried, not equipped: no bonus
    assert "A: puts " + ONE_SHOT[rs] + " on the table (carried)" in talk(g, "B")

    g.do("A", "kick_door", card=top_door(g, "Troll"))
    assert strengths(g.state) == (before, 10)
    (used,) = g.do("A", "play", card=shot)  # from the table
    assert (used.type, used.side, used.bonus) == ("OneShotPlayed", "player", bonus)
    assert strengths(g.state) == (before + bonus, 10)
    assert g.seat("A")["zones"]["carried"] == [] and g.state["cards"][shot]["zone"] == "combat"
    g.do("A", "run_away", monster=g.id("Troll"), roll=6)
    assert g.state["combat"] is None
    assert g.state["cards"][shot]["zone"] == "treasure_discard"  # once the combat is over


@pytest.mark.parametrize("rs", SETS)
def test_only_on_your_own_turn(rs: str) -> None:
    """Not on another seat's turn: ``rule/not_your_turn`` (B.14); record mode records it."""
    g = game(rs)
    shot = shot_of(g, "B")
    err = g.refused("B", "play", card=shot)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/not_your_turn", "B.14")
    (flagged,) = record(g, "B", "play", card=shot)
    assert flagged.type == "ItemPlayed" and flagged.violation == "rule/not_your_turn"
    assert flagged.equipped is False


@pytest.mark.parametrize("rs", SETS)
def test_a_one_shot_on_the_table_is_never_equipped_nor_used_outside_a_combat(rs: str) -> None:
    g = game(rs)
    shot = shot_of(g, "A")
    g.do("A", "play", card=shot)
    for state in (g.state, {**g.state, "mode": "record"}):
        with pytest.raises(DomainError) as err:
            g.rs.decide(state, {"type": "equip", "seat": "A", "card": shot})
        assert err.value.code == "command/not_playable"
        with pytest.raises(DomainError) as err:
            g.rs.decide(state, {"type": "play", "seat": "A", "card": shot})
        assert err.value.code == "command/no_combat"


@pytest.mark.parametrize("rs", SETS)
def test_not_put_on_the_table_during_a_combat_it_is_used_there(rs: str) -> None:
    """During a combat, ``play`` of a one-shot from the hand is its use (for either side), not a
    move to the table (the Treasures rule: "except during combat")."""
    g = game(rs)
    g.do("A", "kick_door", card=top_door(g, "Troll"))
    (used,) = g.do("B", "play", card=shot_of(g, "B"), target="monster")
    assert used.type == "OneShotPlayed" and used.side == "monster"


@pytest.mark.parametrize("rs", SETS)
def test_at_character_creation_a_one_shot_goes_on_the_table_too(rs: str) -> None:
    """ "as soon as you get it": at creation, Items are played (B.1); a one-shot is an Item."""
    shot = catalog_card(rs, ONE_SHOT[rs])
    g = started(rs, [TROLL], [shot], 3, hands={"C": ([], [ONE_SHOT[rs]])})
    (put,) = g.do("C", "play", card=g.id(ONE_SHOT[rs]))
    assert put.type == "ItemPlayed" and put.equipped is False and put.violation is None
    assert g.seat("C")["zones"]["carried"] == [g.id(ONE_SHOT[rs])]


@pytest.mark.parametrize("rs", SETS)
def test_a_carried_one_shot_is_sold_traded_and_given_like_a_carried_item(rs: str) -> None:
    g = game(rs)
    shot = shot_of(g, "A")
    g.do("A", "play", card=shot)
    g.do("A", "give", to="B", cards=[shot])
    assert g.seat("B")["zones"]["carried"] == [shot]
    g.do("A", "trade", **{"with": "B"}, give=[], get=[shot])
    g.do("B", "accept_trade")
    assert g.seat("A")["zones"]["carried"] == [shot]


def test_the_net_troll_example_with_yuppie_water_a_one_shot_on_the_table() -> None:
    """DX *Example of Combat*: Aric "discards ... Yuppie Water (from his carried items)": here
    Yuppie Water is a one-shot (the real card's kind), put on the table at creation; the Warrior
    discards it from the table for +1 (B.11), and the numbers are the example's: 7 to 10, 12 to
    10 with the Magic Missile, 12 to 15 with Enraged, 15 to 15 after three discards, won."""

    def door(name: str, kind: str, **fields: Any) -> dict[str, Any]:
        return {"name": name, "deck": "door", "kind": kind, "text": name, **fields}

    def treasure(name: str, kind: str, **fields: Any) -> dict[str, Any]:
        return {"name": name, "deck": "treasure", "kind": kind, "text": name, **fields}

    doors = [
        door("Net Troll", "monster", level=10, treasures=3, bad_stuff=[{"lose_levels": 2}]),
        door("Warrior", "class", trait="Warrior", powers={"wins_ties": True, "discard_bonus": 3}),
        door("Thief", "class", trait="Thief"),
        door("Wandering Monster", "other", wandering=True),
        door("Enraged", "enhancer", bonus=5, treasures=1),
    ]
    treasures = [
        treasure("Chainsaw", "item", slot="2hands", big=True, bonus=3, value=600),
        treasure("Magic Missile", "one_shot", bonus=5, value=300),
        treasure("Yuppie Water", "one_shot", bonus=2, value=100),
        *[treasure("Go Up a Level", "level_up")] * 3,
    ]
    g = started(
        "munchkin-deluxe",
        doors,
        treasures,
        3,
        hands={
            "A": (
                ["Warrior", "Thief", "Wandering Monster"],
                ["Chainsaw", "Magic Missile", "Yuppie Water"],
            ),
            "B": (["Enraged"], []),
            "C": ([], ["Go Up a Level"] * 3),
        },
    )
    for name in ("Warrior", "Chainsaw", "Yuppie Water"):
        g.do("A", "play", card=g.id(name))
    assert g.seat("A")["zones"]["carried"] == [g.id("Yuppie Water")]
    ready_all(g)
    for cid in g.ids("Go Up a Level"):
        g.do("C", "play", card=cid, target="A")
    g.do("A", "kick_door", card=top_door(g, "Net Troll"))
    assert strengths(g.state) == (7, 10)
    g.do("A", "play", card=g.id("Magic Missile"))
    assert strengths(g.state) == (12, 10)
    g.do("B", "play", card=g.id("Enraged"))
    assert strengths(g.state) == (12, 15)
    for name in ("Thief", "Wandering Monster", "Yuppie Water"):
        (e,) = g.do("A", "discard", card=g.id(name))
        assert e.bonus == 1
    assert strengths(g.state) == (15, 15)
    g.do("B", "pass")
    won = g.do("C", "pass")
    assert won[1].type == "CombatWon" and won[1].treasures == 4
    g.do("A", "take_treasure", cards=top_treasures(g, 4))
    assert g.state["cards"][g.id("Yuppie Water")]["zone"] == "treasure_discard"
