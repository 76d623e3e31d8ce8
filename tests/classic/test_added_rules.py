"""Classic rules modelled after the first release, one behaviour per test, each citing its
docs/rules.md section: "next combat" Curses and removing Curses (B.10), monsters that hurt even
those who escape (B.8)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.classic.cards import normalize_card
from domain.errors import InvalidCommand, RuleViolation
from tests.classic.helpers import Game, ready_all, started, top_door


def door(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "door", "kind": kind, "text": name, **fields}


def treasure(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "treasure", "kind": kind, "text": name, **fields}


OGRE = door("Ogre", "monster", level=12, treasures=3, bad_stuff=[{"lose_item": "any"}])
RAT = door("Rat", "monster", level=1, treasures=1, bad_stuff=[{"lose_levels": 1}])
FRIGHT = door("Stage Fright", "curse", next_combat=True, bonus=-3, run_away=-1)
CHICKEN = door("Chicken on Your Head", "curse", persistent=True, bonus=-1, run_away=-1)
ERASER = treasure("Curse Eraser", "other", removes_curse=True)
SWORD = treasure("Sword", "item", slot="1hand", bonus=3, value=600)
DAGGER = treasure("Dagger", "item", slot="1hand", bonus=1, value=300)
UP = treasure("Go Up a Level", "level_up")
#: Level 8: hurts even those who escape (B.8).
STINGER = door(
    "Stinger",
    "monster",
    level=8,
    treasures=2,
    bad_stuff=[{"lose_levels": 2}],
    escape_bad_stuff=[{"lose_levels": 1}],
)
GRABBER = door(
    "Grabber",
    "monster",
    level=8,
    treasures=2,
    bad_stuff=[{"lose_levels": 2}],
    escape_bad_stuff=[{"lose_item": "any"}],
)
DEADLY = door("Deadly", "monster", level=8, treasures=2, escape_bad_stuff=[{"die": True}])


def kick(g: Game, name: str, **fields: Any) -> list[Any]:
    return g.do(g.state["active"], "kick_door", card=top_door(g, name), **fields)


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]


# ============================================================================ cards


def test_the_new_card_fields_are_optional_with_defaults() -> None:
    """B.8, B.10: older definitions (without the new fields) still load, as before."""
    curse = normalize_card(door("C", "curse", persistent=True), "munchkin-deluxe")
    assert curse["next_combat"] is False and curse["persistent"] is True
    monster = normalize_card(door("M", "monster", level=1, treasures=1), "munchkin-old-west")
    assert monster["escape_bad_stuff"] == []
    other = normalize_card(door("O", "other"), "munchkin-age-of-sigmar")
    assert other["removes_curse"] is False


@pytest.mark.parametrize(
    ("field", "value"),
    [("next_combat", "yes"), ("escape_bad_stuff", [{"explode": 1}]), ("removes_curse", 1)],
)
def test_the_new_card_fields_are_checked(field: str, value: Any) -> None:
    """B.8, B.10: a malformed new field is ``request/invalid_card`` naming it."""
    kind = {"next_combat": "curse", "escape_bad_stuff": "monster", "removes_curse": "other"}[field]
    raw = door("X", kind, level=1, treasures=1, **{field: value})
    with pytest.raises(InvalidCommand) as err:
        normalize_card(raw, "munchkin-deluxe")
    assert err.value.code == "request/invalid_card" and field in (err.value.fields or {})


# ============================================================================ next combat (B.10)


def test_a_next_combat_curse_waits_then_counts_then_goes() -> None:
    """B.10: played outside a combat, a "next combat" Curse waits in front of its victim,
    counts in the victim's next combat (strength and Run Away) and is discarded when that
    combat ends."""
    g = started("munchkin-deluxe", [FRIGHT, OGRE], [], hands={"B": (["Stage Fright"], [])})
    ready_all(g)
    fright = g.id("Stage Fright")
    applied = g.do("B", "play", card=fright, target="A")
    assert applied[0].type == "CurseApplied" and applied[0].stays is True
    assert g.seat("A")["zones"]["curses"] == [fright]
    kick(g, "Ogre")
    assert g.state["combat"]["player_strength"] == 1 - 3
    ran = g.do("A", "run_away", monster=g.id("Ogre"), roll=6)
    assert ran[0].modifier == -1 and ran[0].escaped is True
    assert types(ran)[1:] == ["CombatEnded", "CurseExpired", "PhaseEntered"]
    assert (ran[2].player, ran[2].card) == ("A", fright)
    assert g.seat("A")["zones"]["curses"] == []
    assert g.state["cards"][fright]["zone"] == "door_discard"
    assert g.refold() == g.state


def test_a_next_combat_curse_played_in_the_victims_combat_counts_in_it() -> None:
    """B.10 (DX, AoS *Curses* note): a "next combat" Curse played on a fighter during its
    combat counts in that combat; on a seat not fighting, it waits for that seat's own."""
    two = door("Stage Fright", "curse", next_combat=True, bonus=-3)
    g = started(
        "munchkin-deluxe",
        [two, two, RAT],
        [SWORD],
        hands={"A": ([], ["Sword"]), "B": (["Stage Fright", "Stage Fright"], [])},
    )
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    kick(g, "Rat")
    g.do("C", "pass")
    assert g.state["combat"]["player_strength"] == 4
    g.do("B", "play", card=g.id("Stage Fright", 1), target="C")  # C is not fighting: waits
    g.do("B", "play", card=g.id("Stage Fright", 0), target="A")
    c = g.state["combat"]
    assert (c["player_strength"], c["monster_strength"], c["passed"]) == (1, 1, [])
    g.do("B", "pass")
    g.do("C", "pass")
    assert g.state["combat"]["stage"] == "fight"  # a tie: the monster wins (B.5)
    ended = g.do("A", "run_away", monster=g.id("Rat"), roll=6)
    expired = [e for e in ended if e.type == "CurseExpired"]
    assert [(e.player, e.card) for e in expired] == [("A", g.id("Stage Fright", 0))]
    assert g.seat("C")["zones"]["curses"] == [g.id("Stage Fright", 1)]
    assert g.refold() == g.state


def test_a_next_combat_curse_counts_for_a_helper_and_goes_after() -> None:
    """B.10: the victim's next combat is one it fights in, as the player or as the helper."""
    g = started("munchkin-deluxe", [FRIGHT, OGRE], [], hands={"C": (["Stage Fright"], [])})
    ready_all(g)
    g.do("C", "play", card=g.id("Stage Fright"), target="B")
    kick(g, "Ogre")
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    assert g.state["combat"]["player_strength"] == 1 + 1 - 3
    g.do("A", "run_away", monster=g.id("Ogre"), roll=6)
    ended = g.do("B", "run_away", monster=g.id("Ogre"), roll=6)
    assert [e.player for e in ended if e.type == "CurseExpired"] == ["B"]
    assert g.seat("B")["zones"]["curses"] == []


# ============================================================================ removing Curses (B.10)


@pytest.mark.parametrize(
    "ruleset", ["munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar"]
)
def test_a_card_that_removes_curses_takes_one_off_any_seat_at_any_time(ruleset: str) -> None:
    """B.10: a persistent Curse (a Trap in Old West) stays until removed; a card that removes
    Curses does it at any time, even in another seat's combat; both are discarded."""
    curse = {**CHICKEN, "kind": "trap" if ruleset == "munchkin-old-west" else "curse"}
    g = started(
        ruleset,
        [curse, OGRE],
        [ERASER],
        hands={"B": (["Chicken on Your Head"], []), "C": ([], ["Curse Eraser"])},
    )
    ready_all(g)
    chicken, eraser = g.id("Chicken on Your Head"), g.id("Curse Eraser")
    g.do("B", "play", card=chicken, target="A")
    kick(g, "Ogre")
    assert g.state["combat"]["player_strength"] == 0
    removed = g.do("C", "play", card=eraser, target=chicken)
    assert removed[0].type == "CurseRemoved"
    assert (removed[0].by, removed[0].victim, removed[0].remover) == ("C", "A", eraser)
    assert g.seat("A")["zones"]["curses"] == []
    assert g.state["combat"]["player_strength"] == 1
    assert {g.state["cards"][c]["zone"] for c in (chicken, eraser)} == {
        "door_discard",
        "treasure_discard",
    }
    assert g.refold() == g.state


def test_the_remover_needs_a_curse_in_play() -> None:
    """B.10: naming a card that is not a Curse in front of a seat is impossible."""
    g = started(
        "munchkin-deluxe",
        [CHICKEN],
        [ERASER],
        hands={"A": (["Chicken on Your Head"], ["Curse Eraser"])},
    )
    ready_all(g)
    err = g.refused("A", "play", card=g.id("Curse Eraser"), target=g.id("Chicken on Your Head"))
    assert err.code == "command/card_not_there"
    err = g.refused("A", "play", card=g.id("Curse Eraser"))
    assert isinstance(err, InvalidCommand)


def test_a_curse_is_not_discarded_at_will_strict_and_record() -> None:
    """B.10: a Curse kept in front of its victim stays until a card removes it (or, a "next
    combat" one, until its combat ends): discarding it is ``rule/cannot_discard``; record mode
    records it with its violation."""
    for mode in ("strict", "record"):
        g = started(
            "munchkin-deluxe", [CHICKEN], [], hands={"B": (["Chicken on Your Head"], [])}, mode=mode
        )
        ready_all(g)
        chicken = g.id("Chicken on Your Head")
        g.do("B", "play", card=chicken, target="A")
        if mode == "strict":
            err = g.refused("A", "discard", card=chicken)
            assert isinstance(err, RuleViolation)
            assert (err.code, err.rule) == ("rule/cannot_discard", "B.10")
            continue
        events = g.do("A", "discard", card=chicken)
        assert events[0].type == "CurseRemoved" and events[0].remover is None
        assert events[0].violation == "rule/cannot_discard"
        assert g.seat("A")["zones"]["curses"] == [] and g.refold() == g.state


# ============================================================================ hurt on escape (B.8)


def test_a_monster_can_hurt_those_who_escape() -> None:
    """B.8: "some monsters hurt you even if you get away": its ``escape_bad_stuff`` hits the
    fighter who escapes, at once; a fighter it catches takes its Bad Stuff only."""
    g = started("munchkin-deluxe", [STINGER], [UP, UP], hands={"A": ([], ["Go Up a Level"] * 2)})
    ready_all(g)
    for cid in g.ids("Go Up a Level")[:2]:
        g.do("A", "play", card=cid, target="A")
    kick(g, "Stinger")
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    ran = g.do("A", "run_away", monster=g.id("Stinger"), roll=5)
    assert types(ran) == ["RunAwayRolled", "HurtOnEscape"]
    assert (ran[1].player, ran[1].levels) == ("A", 1) and g.seat("A")["level"] == 2
    caught = g.do("B", "run_away", monster=g.id("Stinger"), roll=1)
    assert types(caught) == ["RunAwayRolled"]
    hurt = g.do("B", "bad_stuff", monster=g.id("Stinger"))
    assert "HurtOnEscape" not in types(hurt) and g.state["combat"] is None
    assert g.refold() == g.state


def test_the_escaped_victim_names_its_choice() -> None:
    """B.8, D.C15: when the hurt on escape takes one of several cards, the run names it
    (``choices``); a card that does not qualify is ``rule/wrong_choice``."""
    g = started(
        "munchkin-deluxe",
        [GRABBER, RAT],
        [SWORD, DAGGER],
        hands={"A": (["Rat"], ["Sword", "Dagger"])},
    )
    g.do("A", "play", card=g.id("Sword"))
    g.do("A", "play", card=g.id("Dagger"))
    ready_all(g)
    kick(g, "Grabber")
    grabber = g.id("Grabber")
    err = g.refused("A", "run_away", monster=grabber, roll=6)
    assert err.code == "request/missing_choice"
    err = g.refused("A", "run_away", monster=grabber, roll=6, choices=[g.id("Rat")])
    assert err.code == "command/card_not_there"
    ran = g.do("A", "run_away", monster=grabber, roll=6, choices=[g.id("Dagger")])
    assert ran[1].type == "HurtOnEscape" and ran[1].lost == [g.id("Dagger")]
    assert g.seat("A")["zones"]["equipped"] == [g.id("Sword")]


def test_hurt_on_escape_can_kill() -> None:
    """B.8, B.9: a deadly hurt on escape kills: the body is laid out, the combat is over."""
    g = started("munchkin-old-west", [DEADLY], [])
    ready_all(g)
    kick(g, "Deadly")
    ran = g.do("A", "run_away", monster=g.id("Deadly"), roll=6)
    assert types(ran)[:3] == ["RunAwayRolled", "HurtOnEscape", "PlayerDied"]
    assert g.seat("A")["dead"] and g.state["combat"] is None
    assert g.refold() == g.state


# ============================================================================ narration


def test_the_new_events_read_like_table_talk() -> None:
    """B.8, B.10: the transcript names the expired and removed Curses and the hurt on escape."""
    from tests.unit.test_classic_narration import talk

    g = started(
        "munchkin-deluxe",
        [FRIGHT, CHICKEN, STINGER],
        [ERASER, UP],
        hands={"B": (["Stage Fright", "Chicken on Your Head"], []), "C": ([], ["Curse Eraser"])},
    )
    ready_all(g)
    g.do("B", "play", card=g.id("Chicken on Your Head"), target="A")
    g.do("C", "play", card=g.id("Curse Eraser"), target=g.id("Chicken on Your Head"))
    g.do("B", "play", card=g.id("Stage Fright"), target="A")
    kick(g, "Stinger")
    g.do("A", "run_away", monster=g.id("Stinger"), roll=6)
    said = talk(g, "B")
    assert "C: removes Chicken on Your Head from A with Curse Eraser" in said
    assert "A: escapes but Stinger hurts anyway: no harm done" in said  # Level 1 stays 1
    assert "A: is rid of Stage Fright (its combat is over)" in said


# ============================================================================ Old West: received Items (B.2)


KNIFE = treasure("Knife", "item", slot="1hand", bonus=1, value=700)
GUN = treasure("Gun", "item", slot="1hand", bonus=2, value=700)


def received_game(ruleset: str, mode: str = "strict") -> Game:
    """A's turn: C trades its Gun (in play) for A's Knife (in play); each seat also holds
    three 100 gp Pebbles."""
    g = started(
        ruleset, [], [KNIFE, GUN], hands={"A": ([], ["Knife"]), "C": ([], ["Gun"])}, mode=mode
    )
    g.do("A", "play", card=g.id("Knife"))
    g.do("C", "play", card=g.id("Gun"))
    ready_all(g)
    g.do("A", "trade", **{"with": "C", "give": [g.id("Knife")], "get": [g.id("Gun")]})
    g.do("C", "accept_trade")
    return g


def pebbles(g: Game, seat: str) -> list[str]:
    hand = g.seat(seat)["zones"]["hand"]
    return [c for c in hand if g.state["cards"][c]["def"]["name"] == "Sample Pebble"][:3]


def pass_turn(g: Game) -> None:
    """The active seat kicks a blank door, loots one, discards down to 5 (all at Level 1)."""
    seat = g.state["active"]
    kick(g, "Sample Blank Door")
    g.do(seat, "loot", card=top_door(g, "Sample Blank Door"))
    hand = g.seat(seat)["zones"]["hand"]
    doors = [c for c in hand if g.state["cards"][c]["def"]["deck"] == "door"]
    g.do(seat, "charity", gifts=dict.fromkeys(doors[: len(hand) - 5], seat))
    g.do(seat, "end_turn")


def test_old_west_items_received_this_turn_are_sold_from_the_next_turn() -> None:
    """B.2 (OW *Trading*): "any item you receive in a trade ... you can't sell it until it's
    your turn": an Item received on your own turn is sold from your next turn; one received
    on another seat's turn, on your own."""
    g = received_game("munchkin-old-west")
    err = g.refused("A", "sell", cards=[g.id("Gun"), *pebbles(g, "A")])
    assert isinstance(err, RuleViolation)
    assert (err.code, err.rule) == ("rule/received_this_turn", "B.2")
    pass_turn(g)
    pass_turn(g)
    assert g.state["active"] == "C" and g.state["received"] == []
    sold = g.do("C", "sell", cards=[g.id("Knife"), *pebbles(g, "C")])
    assert sold[0].type == "ItemsSold" and sold[0].levels == 1
    assert g.refold() == g.state


def test_old_west_selling_a_received_item_is_recorded_with_its_violation() -> None:
    """B.2: record mode records the sale, flagged."""
    g = received_game("munchkin-old-west", mode="record")
    sold = g.do("A", "sell", cards=[g.id("Gun"), *pebbles(g, "A")])
    assert sold[0].violation == "rule/received_this_turn" and g.seat("A")["level"] == 2


@pytest.mark.parametrize("ruleset", ["munchkin-deluxe", "munchkin-age-of-sigmar"])
def test_other_sets_sell_received_items_at_once(ruleset: str) -> None:
    """B.2: the wait is Old West's only."""
    g = received_game(ruleset)
    sold = g.do("A", "sell", cards=[g.id("Gun"), *pebbles(g, "A")])
    assert sold[0].type == "ItemsSold" and sold[0].violation is None


def test_a_backup_across_a_trade_restores_the_received_items() -> None:
    """B.2, B.17: the Items received this turn are part of the table a backup restores; a
    stored version 1 ClassicTableRestored (before they were kept) loads with none."""
    from domain.classic.corrections import ClassicTableRestored
    from domain.events import event_from_dict
    from tests.classic.test_judge import check_backup

    g = received_game("munchkin-old-west")
    assert g.state["received"] == [g.id("Knife"), g.id("Gun")]
    check_backup(g, len(g.events) - 2)  # back to before the trade was accepted
    old = {
        "type": "ClassicTableRestored",
        "v": 1,
        "seat": "judge",
        "cause": None,
        "violation": None,
        **{k: g.state[k] for k in ("status", "winner", "winners", "turn", "active", "phase")},
        **{k: g.state[k] for k in ("first", "tied", "listened", "combat", "body", "trade")},
        "undoes": 5,
    }
    loaded = event_from_dict(old)
    assert isinstance(loaded, ClassicTableRestored) and loaded.received == []


# ============================================================================ forced help (D.C7)


ORDER = door("Press-Gang Order", "other", forces_help=True)
TROLL = door("Troll", "monster", level=10, treasures=3, bad_stuff=[{"lose_levels": 1}])


def forcing_game(level: int, mode: str = "strict") -> Game:
    """A (at ``level``) fights a Level 10 Troll, holding a card that compels help."""
    g = started(
        "munchkin-age-of-sigmar",
        [ORDER, TROLL],
        [UP] * 8,
        hands={
            "A": (["Press-Gang Order"], []),
            "B": ([], [UP["name"]] * 4),
            "C": ([], [UP["name"]] * 4),
        },
        mode=mode,
    )
    ready_all(g)
    ups = [
        c
        for s in "BC"
        for c in g.seat(s)["zones"]["hand"]
        if g.state["cards"][c]["def"]["kind"] == "level_up"
    ]
    for cid in ups[: level - 1]:
        g.do(g.state["cards"][cid]["owner"], "play", card=cid, target="A")
    assert g.seat("A")["level"] == level
    kick(g, "Troll")
    return g


def test_a_card_forces_a_seat_to_help() -> None:
    """D.C7, B.7: the card makes the seat the helper unasked; its strength counts."""
    g = forcing_game(3)
    order = g.id("Press-Gang Order")
    forced = g.do("A", "play", card=order, target="C")
    assert forced[0].type == "HelpForced" and (forced[0].helper, forced[0].card) == ("C", order)
    c = g.state["combat"]
    assert (c["helper"], c["player_strength"]) == ("C", 3 + 1)
    assert g.state["cards"][order]["zone"] == "door_discard"
    assert g.refold() == g.state


def test_nobody_is_forced_to_help_in_a_fight_for_the_win() -> None:
    """D.C7 (AoS *Asking For Help*; every set): forcing help fails in a fight for the win;
    record mode records it, flagged."""
    g = forcing_game(9)
    err = g.refused("A", "play", card=g.id("Press-Gang Order"), target="B")
    assert isinstance(err, RuleViolation)
    assert (err.code, err.rule) == ("rule/help_for_the_win", "D.C7")
    g = forcing_game(9, mode="record")
    forced = g.do("A", "play", card=g.id("Press-Gang Order"), target="B")
    assert forced[0].violation == "rule/help_for_the_win" and g.state["combat"]["helper"] == "B"


def test_a_forced_helper_backs_out_only_once_the_fight_is_for_the_win() -> None:
    """D.C7: "if you force someone to help and then the fight becomes one for the win, your
    helper gets to back out"; not before; a voluntary helper never does."""
    g = forcing_game(8)
    g.do("A", "play", card=g.id("Press-Gang Order"), target="B")
    err = g.refused("B", "decline_help")
    assert isinstance(err, RuleViolation) and err.code == "rule/not_for_the_win"
    up = next(
        c for c in g.seat("C")["zones"]["hand"] if g.state["cards"][c]["def"]["kind"] == "level_up"
    )
    g.do("C", "play", card=up, target="A")  # Level 9: the Troll's kill would be the win
    left = g.do("B", "decline_help")
    assert left[0].type == "HelperReleased" and left[0].helper == "B"
    assert g.state["combat"]["helper"] is None and g.state["combat"]["player_strength"] == 9
    assert g.refold() == g.state
    voluntary = forcing_game(9)
    voluntary.do("A", "ask_help", helper="B")
    voluntary.do("B", "accept_help")
    err = voluntary.refused("B", "decline_help")
    assert isinstance(err, RuleViolation)
    assert (err.code, err.rule) == ("rule/voluntary_helper", "D.C7")


def test_forced_help_reads_like_table_talk() -> None:
    """D.C7: the transcript says who was forced and who backed out."""
    from tests.unit.test_classic_narration import talk

    g = forcing_game(8)
    g.do("A", "play", card=g.id("Press-Gang Order"), target="B")
    up = next(
        c for c in g.seat("C")["zones"]["hand"] if g.state["cards"][c]["def"]["kind"] == "level_up"
    )
    g.do("C", "play", card=up, target="A")
    g.do("B", "decline_help")
    said = talk(g, "C")
    assert "A: plays Press-Gang Order: B must help" in said
    assert "B: backs out of the fight for the win (forced to help)" in said


# ============================================================================ a Hireling's Item (Deluxe, B.2)


SQUIRE = treasure("Squire", "hireling", bonus=1)
LADDER = treasure("Ladder", "item", slot=None, big=True, bonus=2, value=500)
CART = treasure("Cart", "item", slot=None, big=True, bonus=3, value=500)


def hireling_game(mode: str = "strict") -> Game:
    """Deluxe: A has a Squire (Hireling) and a Big Ladder in play, a Big Cart in hand."""
    g = started(
        "munchkin-deluxe",
        [OGRE],
        [SQUIRE, LADDER, CART, SWORD],
        hands={"A": ([], ["Squire", "Ladder", "Cart", "Sword"])},
        mode=mode,
    )
    g.do("A", "play", card=g.id("Ladder"))
    ready_all(g)
    g.do("A", "play", card=g.id("Squire"))
    return g


def test_a_hireling_is_played_at_any_time() -> None:
    """B.2, B.14 (DX *When You May Take Actions*): a Hireling on another seat's turn, even
    during a combat."""
    g = started("munchkin-deluxe", [OGRE], [SQUIRE], hands={"B": ([], ["Squire"])})
    ready_all(g)
    kick(g, "Ogre")
    played = g.do("B", "play", card=g.id("Squire"))
    assert played[0].type == "HelperPlayed" and played[0].violation is None
    assert g.seat("B")["zones"]["helpers"] == [g.id("Squire")]


def test_a_hireling_carries_one_item_outside_the_limits() -> None:
    """B.2: a Hireling carries one Item for its owner; it counts as equipped (its bonus in the
    combat), outside the slot and Big limits; a second Item is ``rule/hireling_full``."""
    g = hireling_game()
    ladder, squire = g.id("Ladder"), g.id("Squire")
    given = g.do("A", "equip", card=ladder, hireling=squire)
    assert given[0].type == "ItemGivenToHireling" and given[0].hireling == squire
    assert g.seat("A")["zones"]["helpers"] == [squire, ladder]
    g.do("A", "play", card=g.id("Cart"))  # a second Big Item: the Ladder is the Squire's
    assert g.seat("A")["zones"]["equipped"] == [g.id("Cart")]
    g.do("A", "play", card=g.id("Sword"))
    err = g.refused("A", "equip", card=g.id("Sword"), hireling=squire)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/hireling_full", "B.2")
    kick(g, "Ogre")
    assert g.state["combat"]["player_strength"] == 1 + 1 + 2 + 3 + 3  # Squire, Ladder, Cart, Sword
    assert g.refold() == g.state


def test_no_item_goes_to_a_hireling_in_a_combat_and_it_comes_back_outside() -> None:
    """B.2: "You cannot give a Hireling an Item to carry while you are in combat"; record
    mode records it, flagged; out of combat the Item comes back (``unequip``)."""
    g = hireling_game()
    kick(g, "Ogre")
    err = g.refused("A", "equip", card=g.id("Ladder"), hireling=g.id("Squire"))
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/in_combat", "B.2")
    g = hireling_game(mode="record")
    kick(g, "Ogre")
    given = g.do("A", "equip", card=g.id("Ladder"), hireling=g.id("Squire"))
    assert given[0].violation == "rule/in_combat"
    g.do("A", "run_away", monster=g.id("Ogre"), roll=6)
    back = g.do("A", "unequip", card=g.id("Ladder"))
    assert back[0].type == "ItemUnequipped" and g.seat("A")["zones"]["carried"] == [g.id("Ladder")]
    err = g.refused("A", "unequip", card=g.id("Squire"))
    assert err.code == "command/card_not_there"


def test_only_a_hireling_carries_items() -> None:
    """B.2: naming a card that is not one's Hireling is impossible."""
    g = hireling_game()
    err = g.refused("A", "equip", card=g.id("Ladder"), hireling=g.id("Cart"))
    assert err.code == "command/card_not_there"


def test_a_hirelings_item_reads_like_table_talk() -> None:
    """B.2: the transcript says which Item the Hireling carries."""
    from tests.unit.test_classic_narration import talk

    g = hireling_game()
    g.do("A", "equip", card=g.id("Ladder"), hireling=g.id("Squire"))
    assert "A: gives Ladder to Squire to carry" in talk(g, "B")


# ============================================================================ Thief backstab (Deluxe, B.2)


THIEF = door("Thief", "class", trait="Thief", powers={"backstab": 2})
JUNK = door("Junk", "other")


def backstab_game(mode: str = "strict", helper: str = "C") -> Game:
    """Deluxe: B is a Thief with two Junk cards; A (with a Sword) fights a Rat, ``helper``
    helps."""
    g = started(
        "munchkin-deluxe",
        [THIEF, JUNK, JUNK, RAT],
        [SWORD],
        hands={"A": ([], ["Sword"]), "B": (["Thief", "Junk", "Junk"], [])},
        mode=mode,
    )
    g.do("A", "play", card=g.id("Sword"))
    g.do("B", "play", card=g.id("Thief"))
    ready_all(g)
    kick(g, "Rat")
    g.do("A", "ask_help", helper=helper)
    g.do(helper, "accept_help")
    return g


def test_a_thief_backstabs_a_fighter_once_per_combat() -> None:
    """B.2 (DX *Interfering With Combat*: "Backstab a player in combat, if you're a Thief"):
    the Thief discards a card, the victim's side gets the power's penalty for this combat, once
    per victim; the passes start again."""
    g = backstab_game()
    junk = g.id("Junk", 0)
    g.do("C", "pass")
    assert g.state["combat"]["player_strength"] == 1 + 3 + 1
    stab = g.do("B", "discard", card=junk, target="A")
    assert stab[0].type == "Backstabbed" and (stab[0].victim, stab[0].bonus) == ("A", -2)
    c = g.state["combat"]
    assert (c["player_strength"], c["passed"]) == (5 - 2, [])
    assert g.state["cards"][junk]["zone"] == "door_discard"
    err = g.refused("B", "discard", card=g.id("Junk", 1), target="A")
    assert isinstance(err, RuleViolation) and err.code == "rule/already_backstabbed"
    g.do("B", "discard", card=g.id("Junk", 1), target="C")  # another victim: allowed
    assert g.state["combat"]["player_strength"] == 5 - 4
    assert g.refold() == g.state


def test_only_a_thief_backstabs_and_only_a_fighter() -> None:
    """B.2: no power, ``rule/no_backstab`` (recorded with its violation in record mode); a
    seat not in the combat cannot be backstabbed; none outside a combat."""
    g = backstab_game()
    g.do("B", "discard", card=g.id("Thief"))  # no longer a Thief
    err = g.refused("B", "discard", card=g.id("Junk", 0), target="A")
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/no_backstab", "B.2")
    g = backstab_game(mode="record")
    g.do("B", "discard", card=g.id("Thief"))
    stab = g.do("B", "discard", card=g.id("Junk", 0), target="A")
    assert stab[0].violation == "rule/no_backstab" and stab[0].bonus == 0
    assert (
        g.refused("B", "discard", card=g.id("Junk", 1), target="B").code == "command/not_fighting"
    )
    g = started("munchkin-deluxe", [THIEF, JUNK], [], hands={"B": (["Thief", "Junk"], [])})
    g.do("B", "play", card=g.id("Thief"))
    ready_all(g)
    assert g.refused("B", "discard", card=g.id("Junk"), target="A").code == "command/no_combat"


def test_a_thief_does_not_backstab_in_its_own_combat() -> None:
    """B.6 (DX *Interfering With Combat*: "interfere with others' combats"): a Thief helping in
    the combat backstabs neither side: ``rule/backstab_own_combat`` (flagged in record mode)."""
    for mode in ("strict", "record"):
        g = backstab_game(mode, helper="B")
        for victim in ("A", "B"):
            if mode == "strict":
                err = g.refused("B", "discard", card=g.id("Junk", 0), target=victim)
                assert isinstance(err, RuleViolation)
                assert (err.code, err.rule) == ("rule/backstab_own_combat", "B.6")
        if mode == "record":
            stab = g.do("B", "discard", card=g.id("Junk", 0), target="A")
            assert stab[0].violation == "rule/backstab_own_combat"
            assert g.refold() == g.state


def test_a_backstab_reads_like_table_talk() -> None:
    """B.2: the transcript names the Thief, the victim and the penalty."""
    from tests.unit.test_classic_narration import talk

    g = backstab_game()
    g.do("B", "discard", card=g.id("Junk", 0), target="A")
    assert "B: backstabs A (-2), discarding Junk" in talk(g, "C")


# ============================================================================ Thief stealing (Deluxe, B.2)


THIEF_STEALS = door(
    "Thief", "class", trait="Thief", powers={"backstab": 2, "steal": 4, "steal_penalty": 1}
)


def theft_game(mode: str = "strict") -> Game:
    """Deluxe, A's turn before the door: B a Thief (Level 2) with three Junk cards; A has a
    Sword (Small) equipped and a Ladder (Big) carried; C holds Junk and no power."""
    g = started(
        "munchkin-deluxe",
        [THIEF_STEALS, JUNK, JUNK, JUNK, JUNK, RAT],
        [SWORD, LADDER, UP],
        hands={
            "A": ([], ["Sword", "Ladder"]),
            "B": (["Thief", "Junk", "Junk", "Junk"], ["Go Up a Level"]),
            "C": (["Junk"], []),
        },
        mode=mode,
    )
    g.do("A", "play", card=g.id("Sword"))
    g.do("A", "play", card=g.id("Ladder"))
    g.do("B", "play", card=g.id("Thief"))
    ready_all(g)
    g.do("B", "play", card=g.id("Go Up a Level"))  # any time (B.3)
    return g


def _junk(g: Game, seat: str) -> str:
    return next(
        c for c in g.seat(seat)["zones"]["hand"] if g.state["cards"][c]["def"]["name"] == "Junk"
    )


def test_a_thief_steals_a_small_item_on_a_good_roll() -> None:
    """B.2, D.C17: the Thief discards a card and rolls; 4 or more takes a Small Item in play
    of another seat (to the Thief's carried Items, known to everyone)."""
    g = theft_game()
    junk, sword = _junk(g, "B"), g.id("Sword")
    events = g.do("B", "discard", card=junk, steal=sword, roll=4)
    assert [e.type for e in events] == ["TheftAttempted"]
    theft = events[0]
    assert (theft.victim, theft.item, theft.needed, theft.stolen, theft.levels) == (
        "A",
        sword,
        4,
        True,
        0,
    )
    assert (
        sword in g.seat("B")["zones"]["carried"] and sword not in g.seat("A")["zones"]["equipped"]
    )
    assert (
        g.state["cards"][sword]["face"] == "up" and g.state["cards"][junk]["zone"] == "door_discard"
    )
    assert g.seat("B")["level"] == 2
    assert g.refold() == g.state


def test_a_failed_steal_costs_the_thief_its_penalty() -> None:
    """B.2, D.C17: below the roll, the Item stays and the Thief loses ``steal_penalty`` levels
    (never below Level 1)."""
    g = theft_game()
    sword = g.id("Sword")
    events = g.do("B", "discard", card=_junk(g, "B"), steal=sword, roll=3)
    assert (events[0].stolen, events[0].levels) == (False, 1)
    assert sword in g.seat("A")["zones"]["equipped"] and g.seat("B")["level"] == 1
    events = g.do("B", "discard", card=_junk(g, "B"), steal=sword, roll=1)
    assert (events[0].stolen, events[0].levels) == (False, 0) and g.seat("B")["level"] == 1
    assert g.refold() == g.state


def test_what_a_thief_cannot_steal() -> None:
    """B.2, D.C17: no Big Item (``rule/steal_big``), no steal without the power
    (``rule/no_steal``; record mode flags it and nothing is stolen), none while the Thief or
    the victim is fighting (``rule/in_combat``), only another seat's Item in play."""
    g = theft_game()
    err = g.refused("B", "discard", card=_junk(g, "B"), steal=g.id("Ladder"), roll=6)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/steal_big", "B.2")
    err = g.refused("C", "discard", card=_junk(g, "C"), steal=g.id("Sword"), roll=6)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/no_steal", "B.2")
    err = g.refused("B", "discard", card=_junk(g, "B"), steal=_junk(g, "C"), roll=6)
    assert err.code == "command/card_not_there"
    err = g.refused("B", "discard", card=_junk(g, "B"), steal=g.id("Sword"), roll=7)
    assert err.code.startswith("request/")
    kick(g, "Rat")  # A fights: no stealing from A (the Thief's own fight likewise)
    err = g.refused("B", "discard", card=_junk(g, "B"), steal=g.id("Sword"), roll=6)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/in_combat", "B.2")
    r = theft_game(mode="record")
    events = r.do("C", "discard", card=_junk(r, "C"), steal=r.id("Sword"), roll=6)
    assert events[0].violation == "rule/no_steal" and not events[0].stolen
    assert r.id("Sword") in r.seat("A")["zones"]["equipped"]


def test_a_backup_undoes_a_steal() -> None:
    """B.2, B.17: a backup to before a steal and a failed one gives the Item, the discarded
    cards and the Thief's level back."""
    from tests.classic.test_judge import check_backup

    g = theft_game()
    point = len(g.events)
    g.do("B", "discard", card=_junk(g, "B"), steal=g.id("Sword"), roll=2)
    g.do("B", "discard", card=_junk(g, "B"), steal=g.id("Sword"), roll=6)
    assert g.seat("B")["level"] == 1 and g.id("Sword") in g.seat("B")["zones"]["carried"]
    assert check_backup(g, point) >= 2


def test_a_steal_reads_like_table_talk() -> None:
    """B.2: the transcript names the Thief, the Item, the victim and the roll."""
    from tests.unit.test_classic_narration import talk

    g = theft_game()
    g.do("B", "discard", card=_junk(g, "B"), steal=g.id("Sword"), roll=2)
    g.do("B", "discard", card=_junk(g, "B"), steal=g.id("Sword"), roll=5)
    lines = talk(g, "C")
    assert (
        "B: tries to steal Sword from A, discarding Junk: rolls 2 (4+ needed), is caught: loses 1 level"
        in lines
    )
    assert "B: tries to steal Sword from A, discarding Junk: rolls 5 (4+ needed), takes it" in lines


# ============================================================================ Cheat! (B.2)


CHEAT = treasure("Cheat!", "other", cheat=True)
WAND = treasure("Wizard Wand", "item", slot="1hand", bonus=4, value=400, usable_by=["Wizard"])
HAT = treasure("Hat", "item", slot="headgear", bonus=1, value=200)
HAT2 = treasure("Top Hat", "item", slot="headgear", bonus=2, value=200)


def cheat_game(ruleset: str = "munchkin-deluxe", mode: str = "strict") -> Game:
    """A carries a Wand it may not use and a second Headgear; it holds two Cheat! cards."""
    g = started(
        ruleset,
        [OGRE],
        [CHEAT, CHEAT, WAND, HAT, HAT2, SWORD],
        hands={"A": ([], ["Cheat!", "Cheat!", "Wizard Wand", "Hat"]), "C": ([], ["Top Hat"])},
        mode=mode,
    )
    for name in ("Wizard Wand", "Hat"):
        g.do("A", "play", card=g.id(name))
    g.do("C", "play", card=g.id("Top Hat"))
    ready_all(g)
    return g


@pytest.mark.parametrize(
    "ruleset", ["munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar"]
)
def test_cheat_makes_an_item_count_past_its_limits(ruleset: str) -> None:
    """B.2 (Cheat! in every set; DX *Items*: "unless you have a card that lets you ignore these
    limits, such as Hireling or Cheat!"): the Item is equipped and counts though A may not use
    it; a second Headgear counts beside the first."""
    g = cheat_game(ruleset)
    wand, hat = g.id("Wizard Wand"), g.id("Hat")
    assert g.seat("A")["zones"]["carried"] == [wand]
    played = g.do("A", "play", card=g.id("Cheat!", 0), target=wand)
    assert played[0].type == "CheatPlayed" and played[0].item == wand
    assert g.seat("A")["zones"]["equipped"] == [hat, wand]
    assert g.seat("A")["zones"]["helpers"] == [g.id("Cheat!", 0)]
    g.do("A", "trade", **{"with": "C", "give": [], "get": [g.id("Top Hat")]})
    g.do("C", "accept_trade")
    g.do("A", "play", card=g.id("Cheat!", 1), target=g.id("Top Hat"))
    kick(g, "Ogre")
    assert g.state["combat"]["player_strength"] == 1 + 4 + 1 + 2
    assert g.refold() == g.state


def test_a_cheat_goes_when_its_item_goes() -> None:
    """B.2: a Cheat! stays with its Item; when the Item leaves play or is unequipped, the
    Cheat! is discarded (the engine's step after the command)."""
    g = cheat_game()
    wand, cheat = g.id("Wizard Wand"), g.id("Cheat!", 0)
    g.do("A", "play", card=cheat, target=wand)
    events = g.do("A", "unequip", card=wand)
    assert [e.type for e in events] == ["ItemUnequipped", "CheatDiscarded"]
    assert (events[1].seat, events[1].card) == ("rules", cheat)
    assert g.state["cards"][cheat]["zone"] == "treasure_discard"
    assert g.seat("A")["zones"]["helpers"] == [] and g.state["cheats"] == {}
    assert g.refold() == g.state


def test_one_cheat_per_item_and_none_in_ones_combat() -> None:
    """B.2, B.12: a second Cheat! on the same Item is ``rule/already_cheated``; attaching one
    is an equip change, ``rule/in_combat`` in one's combat; only an Item in play takes one."""
    g = cheat_game()
    wand = g.id("Wizard Wand")
    g.do("A", "play", card=g.id("Cheat!", 0), target=wand)
    err = g.refused("A", "play", card=g.id("Cheat!", 1), target=wand)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == (
        "rule/already_cheated",
        "B.2",
    )
    err = g.refused("A", "play", card=g.id("Cheat!", 1), target=g.id("Cheat!", 0))
    assert err.code == "command/card_not_there"
    kick(g, "Ogre")
    err = g.refused("A", "play", card=g.id("Cheat!", 1), target=g.id("Hat"))
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/in_combat", "B.12")


def test_a_backup_restores_the_cheats() -> None:
    """B.2, B.17: which Item a Cheat! holds is table state a backup restores."""
    from tests.classic.test_judge import check_backup

    g = cheat_game()
    g.do("A", "play", card=g.id("Cheat!", 0), target=g.id("Wizard Wand"))
    g.do("A", "unequip", card=g.id("Wizard Wand"))
    check_backup(g, len(g.events) - 3)


def test_cheat_reads_like_table_talk() -> None:
    """B.2: the transcript names the Cheat! and its Item, and its discard."""
    from tests.unit.test_classic_narration import talk

    g = cheat_game()
    g.do("A", "play", card=g.id("Cheat!", 0), target=g.id("Wizard Wand"))
    g.do("A", "unequip", card=g.id("Wizard Wand"))
    said = talk(g, "B")
    assert "A: cheats with Wizard Wand (Cheat!)" in said
    assert "A: discards Cheat! (its Item is gone)" in said


def test_a_helper_dying_in_its_next_combat_is_rid_of_the_curse() -> None:
    """B.10: a helper who dies in the combat had its "next combat" there: the Curse goes."""
    caught = door("Killer", "monster", level=12, treasures=1, bad_stuff=[{"die": True}])
    g = started("munchkin-deluxe", [FRIGHT, caught], [], hands={"C": (["Stage Fright"], [])})
    ready_all(g)
    g.do("C", "play", card=g.id("Stage Fright"), target="B")
    kick(g, "Killer")
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    g.do("A", "run_away", monster=g.id("Killer"), roll=6)
    g.do("B", "run_away", monster=g.id("Killer"), roll=1)
    died = g.do("B", "bad_stuff", monster=g.id("Killer"))
    assert "CurseExpired" in types(died) and g.seat("B")["zones"]["curses"] == []
    assert g.refold() == g.state
