"""Classic rules, one behaviour per test, each citing its docs/rules.md B or D.C section."""

from __future__ import annotations

from typing import Any

import pytest

from domain.classic.rules import alive, lowest_levels
from domain.errors import InvalidCommand, RuleViolation
from tests.classic.helpers import Game, new_game, ready_all, started, top_door, top_treasures


def door(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "door", "kind": kind, "text": name, **fields}


def treasure(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "treasure", "kind": kind, "text": name, **fields}


RAT = door("Rat", "monster", level=1, treasures=1, bad_stuff=[{"lose_levels": 1}])
OGRE = door("Ogre", "monster", level=12, treasures=3, bad_stuff=[{"lose_item": "any"}])
REAPER = door("Reaper", "monster", level=20, treasures=5, bad_stuff=[{"die": True}])
GHOUL = door("Ghoul", "monster", level=2, treasures=1, tags=["undead"], bad_stuff=[])
SPOOK = door("Spook", "monster", level=3, treasures=2, tags=["undead"], bad_stuff=[])
CURSE = door("Curse: Lose Gear", "curse", effects=[{"lose_item": "any"}, {"lose_levels": 1}])
ELF = door("Elf", "race", trait="Elf", powers={"helper_levels": 1, "run_away": 1})
MATE = door("Mate", "enhancer", bonus=0, treasures=0, copy=True)
WANDER = door("Wandering Monster", "other", wandering=True)
SWORD = treasure("Sword", "item", slot="1hand", bonus=3, value=600)
DAGGER = treasure("Dagger", "item", slot="1hand", bonus=1, value=300)
CLUB = treasure("Club", "item", slot="1hand", bonus=2, value=500)
BIG = treasure("Ladder", "item", slot=None, big=True, bonus=2, value=500)
BIG2 = treasure("Cart", "item", slot=None, big=True, bonus=2, value=500)
SHOES = treasure("Shoes", "item", slot="footgear", bonus=0, run_away=2, value=400)
UP = treasure("Go Up a Level", "level_up")
GONE = treasure("Vanish", "one_shot", bonus=0, value=100, removes="monster")


def kick(g: Game, name: str, **fields: Any) -> list[Any]:
    return g.do(g.state["active"], "kick_door", card=top_door(g, name), **fields)


def ups(g: Game, by: str, target: str, n: int) -> None:
    hand = [
        c for c in g.seat(by)["zones"]["hand"] if g.state["cards"][c]["def"]["kind"] == "level_up"
    ]
    for cid in hand[:n]:
        g.do(by, "play", card=cid, target=target)


# ============================================================================ setup (B.1)


def test_first_player_ties_roll_again() -> None:
    """B.1 (AoS): the highest roll goes first; tied highest rollers roll again."""
    g = new_game("munchkin-age-of-sigmar", [], [])
    tie = g.do("A", "roll_first", rolls={"A": 6, "B": 6, "C": 2})
    assert tie[0].first is None and g.state["tied"] == ["A", "B"]
    err = g.refused("C", "roll_first", rolls={"A": 1, "B": 3, "C": 5})
    assert isinstance(err, RuleViolation) and err.code == "rule/wrong_rollers"
    g.do("B", "roll_first", rolls={"A": 2, "B": 5})
    assert g.state["first"] == "B"


def test_the_game_begins_when_everyone_is_ready() -> None:
    """B.1: after the deal and character creation; the first player kicks open the door."""
    g = started("munchkin-deluxe", [], [])
    assert g.state["status"] == "setup"
    g.do("A", "ready")
    g.do("B", "ready")
    began = g.do("C", "ready")
    assert began[-1].type == "TurnBegan" and began[-1].player == "A"
    assert (g.state["status"], g.state["phase"], g.state["turn"]) == ("playing", "kick_door", 1)


def test_dealt_cards_are_known_only_to_their_owner() -> None:
    """B.1: a hand is private; the decks are known to nobody."""
    g = started("munchkin-deluxe", [], [])
    for seat in "ABC":
        assert all(g.state["cards"][c]["known"] == [seat] for c in g.seat(seat)["zones"]["hand"])
        assert len(g.seat(seat)["zones"]["hand"]) == 8


# ============================================================================ the door (B.4, B.10)


def test_a_curse_from_the_door_hits_the_kicker_who_chooses_the_item() -> None:
    """B.10: a Curse drawn face up hits the drawer at once; the victim chooses the Item."""
    g = started(
        "munchkin-deluxe", [CURSE], [SWORD, UP], hands={"A": ([], ["Sword", "Go Up a Level"])}
    )
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    ups(g, "A", "A", 1)
    assert g.seat("A")["level"] == 2
    cursed = kick(g, "Curse: Lose Gear")
    hit = next(e for e in cursed if e.type == "CurseApplied")
    assert (hit.victim, hit.lost, hit.levels, hit.from_door) == ("A", [g.id("Sword")], 1, True)
    assert g.seat("A")["level"] == 1 and g.state["phase"] == "look_for_trouble"


def test_a_choice_among_several_items_is_required() -> None:
    """B.9/B.10: with several qualifying Items the victim must say which."""
    g = started("munchkin-deluxe", [CURSE], [SWORD, DAGGER], hands={"A": ([], ["Sword", "Dagger"])})
    g.do("A", "play", card=g.id("Sword"))
    g.do("A", "play", card=g.id("Dagger"))
    ready_all(g)
    err = g.refused("A", "kick_door", card=top_door(g, "Curse: Lose Gear"))
    assert isinstance(err, InvalidCommand) and err.code == "request/missing_choice"
    events = g.do("A", "kick_door", card=top_door(g, "Curse: Lose Gear"), choices=[g.id("Dagger")])
    assert events[1].lost == [g.id("Dagger")]


def test_a_harmless_door_goes_to_the_hand_face_up() -> None:
    """B.4: anything else from the door goes to the hand; everyone saw it."""
    g = started("munchkin-deluxe", [], [])
    ready_all(g)
    cid = top_door(g, "Sample Blank Door")
    g.do("A", "kick_door", card=cid)
    card = g.state["cards"][cid]
    assert card["zone"] == "hand" and card["owner"] == "A" and card["known"] == ["A", "B", "C"]


def test_looting_the_room_is_face_down() -> None:
    """B.4: the loot is drawn face down: only the looter knows it."""
    g = started("munchkin-deluxe", [], [])
    ready_all(g)
    kick(g, "Sample Blank Door")
    cid = top_door(g, "Sample Blank Door")
    g.do("A", "loot", card=cid)
    assert g.state["cards"][cid]["known"] == ["A"] and g.state["phase"] == "charity"


def test_listen_at_the_door_then_loot_a_treasure() -> None:
    """B.15: with Listen At The Door, a face-down Door before kicking; the loot is a Treasure."""
    g = started("munchkin-deluxe", [], [], options={"listen_at_door": True})
    ready_all(g)
    listened = g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    assert listened[0].type == "ListenedAtDoor" and g.state["phase"] == "kick_door"
    kick(g, "Sample Blank Door")
    err = g.refused("A", "loot", card=top_door(g, "Sample Blank Door"))
    assert err.code == "rule/wrong_deck"
    g.do("A", "loot", card=top_treasures(g, 1)[0])


# ============================================================================ charity (B.13)


def test_charity_goes_to_the_lowest_level_and_only_they_see_it() -> None:
    """B.13, D.C11: excess cards to the lowest-level players, split evenly, known to giver and
    receiver only."""
    g = started("munchkin-deluxe", [], [UP, UP], hands={"C": ([], ["Go Up a Level"] * 2)})
    ready_all(g)
    ups(g, "C", "A", 1)
    ups(g, "C", "C", 1)  # A and C at 2, B at 1: B is the lowest
    kick(g, "Sample Blank Door")
    g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    hand = g.seat("A")["zones"]["hand"]
    assert len(hand) == 10
    err = g.refused("A", "charity", gifts=dict.fromkeys(hand[:5], "C"))
    assert err.code == "rule/charity_recipient"
    gifts = dict.fromkeys(hand[:5], "B")
    g.do("A", "charity", gifts=gifts)
    assert all(g.state["cards"][c]["known"] == ["A", "B"] for c in gifts)
    assert g.do("A", "end_turn")[-1].player == "B"


def test_charity_splits_evenly_among_tied_lowest() -> None:
    """B.13: as evenly as possible among tied lowest players."""
    g = started("munchkin-deluxe", [], [UP], 4, hands={"D": ([], ["Go Up a Level"])})
    ready_all(g)
    ups(g, "D", "A", 1)
    kick(g, "Sample Blank Door")
    g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    hand = g.seat("A")["zones"]["hand"]
    uneven = {hand[0]: "B", hand[1]: "B", hand[2]: "B", hand[3]: "C", hand[4]: "D"}
    assert g.refused("A", "charity", gifts=uneven).code == "rule/charity_uneven"
    even = {hand[0]: "B", hand[1]: "B", hand[2]: "C", hand[3]: "C", hand[4]: "D"}
    g.do("A", "charity", gifts=even)


# ============================================================================ items (B.12)


def test_hands_and_big_items() -> None:
    """B.12: two 1-Hand Items at most; one Big Item."""
    g = started(
        "munchkin-deluxe",
        [],
        [SWORD, DAGGER, CLUB, BIG, BIG2],
        hands={"A": ([], ["Sword", "Dagger", "Club", "Ladder"]), "B": ([], ["Cart"])},
    )
    for name in ("Sword", "Dagger", "Club", "Ladder"):
        g.do("A", "play", card=g.id(name))
    assert g.state["cards"][g.id("Club")]["zone"] == "carried"
    assert g.refused("A", "equip", card=g.id("Club")).code == "rule/slot_full"
    g.do("A", "unequip", card=g.id("Dagger"))
    g.do("A", "equip", card=g.id("Club"))
    ready_all(g)
    g.do("B", "give", to="A", cards=[g.id("Cart")])
    assert g.refused("A", "play", card=g.id("Cart")).code == "rule/big_limit"
    assert g.refused("A", "sell", cards=[g.id("Dagger")]).code == "rule/sell_too_little"


def test_selling_gives_no_change_and_never_level_10() -> None:
    """B.12, D.C3: 1,000 gp per level, no change; the extra is lost at 9; never to 10."""
    g = started(
        "munchkin-deluxe",
        [],
        [SWORD, CLUB, BIG, DAGGER, *[UP] * 8],
        hands={
            "A": ([], ["Sword", "Club", "Ladder", "Dagger"]),
            "B": ([], ["Go Up a Level"] * 4),
            "C": ([], ["Go Up a Level"] * 4),
        },
    )
    ready_all(g)
    sold = g.do("A", "sell", cards=[g.id("Sword"), g.id("Club"), g.id("Dagger")])
    assert (sold[0].gold, sold[0].levels, g.seat("A")["level"]) == (1400, 1, 2)
    ups(g, "B", "A", 4)
    ups(g, "C", "A", 2)
    assert g.seat("A")["level"] == 8
    ups(g, "C", "A", 1)
    assert g.seat("A")["level"] == 9
    last_up = next(
        c for c in g.seat("C")["zones"]["hand"] if g.state["cards"][c]["def"]["kind"] == "level_up"
    )
    assert g.refused("C", "play", card=last_up, target="A").code == "rule/winning_level"
    assert g.refused("A", "sell", cards=[g.id("Ladder")]).code == "rule/sell_too_little"


# ============================================================================ combat (B.5-B.9)


def test_a_kill_at_level_9_wins_the_game() -> None:
    """B.3, B.16: Level 10 only by a kill; the game is over."""
    g = started(
        "munchkin-deluxe",
        [RAT],
        [SWORD, *[UP] * 8],
        hands={
            "A": ([], ["Sword"]),
            "B": ([], ["Go Up a Level"] * 4),
            "C": ([], ["Go Up a Level"] * 4),
        },
    )
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    ups(g, "B", "A", 4)
    ups(g, "C", "A", 4)
    kick(g, "Rat")
    g.do("B", "pass")
    won = g.do("C", "pass")
    assert [e.type for e in won][-2:] == ["LevelsGained", "GameWon"]
    assert g.state["status"] == "finished" and g.state["winners"] == ["A"]


def test_a_helped_win_gives_face_up_treasure_and_the_elf_a_level() -> None:
    """B.7: one helper adds its strength; the Treasure is drawn face up; a Deluxe Elf helper
    goes up a level per monster."""
    g = started(
        "munchkin-deluxe", [OGRE, ELF], [SWORD, CLUB], hands={"B": (["Elf"], ["Sword", "Club"])}
    )
    g.do("B", "play", card=g.id("Elf"))
    g.do("B", "play", card=g.id("Sword"))
    g.do("B", "play", card=g.id("Club"))
    ready_all(g)
    kick(g, "Ogre")
    assert g.refused("B", "accept_help").code == "command/not_asked"
    g.do("A", "ask_help", helper="B", bribe={"treasures": 1})
    g.do("B", "accept_help")
    assert (g.state["combat"]["player_strength"], g.state["combat"]["monster_strength"]) == (7, 12)
    assert g.refused("A", "ask_help", helper="C").code == "rule/already_helped"


def test_helped_kill_treasure_face_up() -> None:
    g = started("munchkin-deluxe", [RAT, ELF], [], hands={"B": (["Elf"], [])})
    g.do("B", "play", card=g.id("Elf"))
    ready_all(g)
    kick(g, "Rat")
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    g.do("B", "pass")
    won = g.do("C", "pass")
    assert [(e.player, e.reason) for e in won if e.type == "LevelsGained"] == [
        ("A", "kill"),
        ("B", "helper"),
    ]
    cards = top_treasures(g, 1)
    g.do("A", "take_treasure", cards=cards)
    assert g.state["cards"][cards[0]]["known"] == ["A", "B", "C"]


def test_shared_victory_option() -> None:
    """B.15: with shared victories the helper of the winning kill wins too."""
    hands = {"B": ([], ["Go Up a Level"] * 4), "C": ([], ["Go Up a Level"] * 4)}
    g = started(
        "munchkin-deluxe", [RAT], [*[UP] * 8], hands=hands, options={"shared_victory": True}
    )
    ready_all(g)
    ups(g, "B", "A", 4)
    ups(g, "C", "A", 4)
    kick(g, "Rat")
    g.do("A", "ask_help", helper="C")
    g.do("C", "accept_help")
    g.do("B", "pass")
    g.do("C", "pass")
    assert g.state["winners"] == ["A", "C"] and g.state["winner"] == "A+C"


def test_running_away_per_monster_with_modifiers() -> None:
    """B.8: 5+ with modifiers escapes; each monster rolled for separately; Bad Stuff on a
    catch; the combat ends when every roll and Bad Stuff is done."""
    g = started(
        "munchkin-deluxe",
        [OGRE, GHOUL, WANDER, ELF],
        [SHOES, SWORD],
        hands={"A": (["Elf"], ["Shoes", "Sword"]), "B": (["Wandering Monster", "Ghoul"], [])},
    )
    g.do("A", "play", card=g.id("Elf"))
    g.do("A", "play", card=g.id("Shoes"))
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    kick(g, "Ogre")
    g.do("B", "play", card=g.id("Wandering Monster"), target=g.id("Ghoul"))
    assert len(g.state["combat"]["monsters"]) == 2
    roll = g.do("A", "run_away", monster=g.id("Ghoul"), roll=2)  # 2 + 2 (Shoes) + 1 (Elf)
    assert (roll[0].modifier, roll[0].escaped) == (3, True)
    caught = g.do("A", "run_away", monster=g.id("Ogre"), roll=1)
    assert caught[0].escaped is False and g.state["combat"] is not None
    err = g.refused("A", "bad_stuff", monster=g.id("Ogre"))
    assert err.code == "request/missing_choice"
    hurt = g.do("A", "bad_stuff", monster=g.id("Ogre"), choices=[g.id("Sword")])
    assert hurt[0].lost == [g.id("Sword")]
    assert hurt[-1].type == "PhaseEntered" and g.state["combat"] is None


def test_death_the_body_is_looted_by_level_and_the_character_returns() -> None:
    """B.9, D.C5, D.C14: death keeps level, traits and curses; the others take one card each,
    highest level first (ties in seating order from the dead's left); the rest is discarded; a
    new character at the next turn's start, who draws 4 and 4 first."""
    g = started(
        "munchkin-deluxe",
        [REAPER, ELF],
        [SWORD, UP],
        hands={"A": (["Elf"], ["Sword"]), "C": ([], ["Go Up a Level"])},
    )
    g.do("A", "play", card=g.id("Elf"))
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    ups(g, "C", "C", 1)
    kick(g, "Reaper")
    g.do("A", "run_away", monster=g.id("Reaper"), roll=1)
    died = g.do("A", "bad_stuff", monster=g.id("Reaper"))
    death = next(e for e in died if e.type == "PlayerDied")
    assert death.order == ["C", "B"] and g.id("Sword") in death.body
    assert g.seat("A")["dead"] and g.seat("A")["zones"]["race"] == [g.id("Elf")]
    assert g.refused("B", "loot_body", card=g.id("Sword")).code == "rule/not_your_pick"
    assert g.refused("A", "end_turn").code == "rule/body_first"
    g.do("C", "loot_body", card=g.id("Sword"))
    rest = g.do("B", "loot_body", card=death.body[0])
    assert rest[-1].type == "BodyDiscarded" and g.state["body"] is None
    g.do("A", "end_turn")  # the dead end their turn (D.C5)
    assert not g.seat("A")["dead"] and g.seat("A")["needs_deal"]
    for seat in "BC":
        g.do(seat, "kick_door", card=top_door(g, "Sample Blank Door"))
        g.do(seat, "loot", card=top_door(g, "Sample Blank Door"))
        hand = g.seat(seat)["zones"]["hand"]
        low = lowest_levels(g.state, alive(g.state))
        to = [seat] if seat in low else low
        g.do(seat, "charity", gifts={c: to[i % len(to)] for i, c in enumerate(hand[:-5])})
        g.do(seat, "end_turn")
    assert (
        g.refused("A", "kick_door", card=top_door(g, "Sample Blank Door")).code == "rule/deal_first"
    )
    g.do(
        "A", "deal", doors=g.state["decks"]["door"][:4], treasures=g.state["decks"]["treasure"][:4]
    )
    g.do("A", "kick_door", card=top_door(g, "Sample Blank Door"))


def test_tagged_monsters_join_and_a_mate_doubles() -> None:
    """B.6: an Undead joins an Undead fight from a hand; a Mate copies a monster with its
    enhancers, doubling strength, levels and Treasure."""
    g = started(
        "munchkin-deluxe",
        [GHOUL, SPOOK, MATE],
        [SWORD, CLUB, BIG],
        hands={"A": ([], ["Sword", "Club", "Ladder"]), "B": (["Spook", "Mate"], [])},
    )
    for name in ("Sword", "Club", "Ladder"):
        g.do("A", "play", card=g.id(name))
    ready_all(g)
    kick(g, "Ghoul")
    joined = g.do("B", "play", card=g.id("Spook"))
    assert joined[0].via == "undead"
    g.do("B", "play", card=g.id("Mate"), target=g.id("Spook"))
    assert g.state["combat"]["monster_strength"] == 2 + 3 * 2
    assert g.state["combat"]["player_strength"] == 1 + 3 + 2 + 2


@pytest.mark.parametrize(
    ("ruleset", "treasures"), [("munchkin-deluxe", 0), ("munchkin-old-west", 1)]
)
def test_non_lethal_removal_treasure_per_set(ruleset: str, treasures: int) -> None:
    """B.2, D.C2: removing the last monster ends the combat: no level; Treasure only in Old West."""
    g = started(ruleset, [RAT], [GONE], hands={"A": ([], ["Vanish"])})
    ready_all(g)
    kick(g, "Rat")
    won = g.do("A", "play", card=g.id("Vanish"), target=g.id("Rat"))
    assert next(e for e in won if e.type == "CombatWon").treasures == treasures
    assert not [e for e in won if e.type == "LevelsGained"]
    assert g.seat("A")["level"] == 1


def test_conceding_passes_the_turn_and_the_last_player_wins() -> None:
    """B.16: a concession takes a seat out; the last one left wins."""
    g = started("munchkin-deluxe", [], [])
    ready_all(g)
    g.do("A", "concede")
    assert g.state["active"] == "B"
    g.do("C", "concede")
    assert g.state["status"] == "finished" and g.state["winners"] == ["B"]


def test_an_empty_deck_is_rebuilt_from_its_discards() -> None:
    """B.1: an exhausted deck is rebuilt by shuffling its discards."""
    g = new_game("munchkin-deluxe", [RAT] * 12, [UP] * 12)
    for seat in "ABC":
        g.do(
            seat,
            "deal",
            doors=g.state["decks"]["door"][:4],
            treasures=g.state["decks"]["treasure"][:4],
        )
    g.do("A", "roll_first", rolls={"A": 5, "B": 1, "C": 2})
    ready_all(g)
    assert g.state["decks"]["door"] == []
    hand = g.seat("A")["zones"]["hand"]
    monster = [c for c in hand if g.state["cards"][c]["def"]["name"] == "Rat"]
    assert monster and g.refused("A", "kick_door", card=monster[0]).code == "command/card_not_there"


def test_trading_items_in_play() -> None:
    """B.12: Items in play only, offered and accepted, never while either is in combat; the
    received Items are carried."""
    g = started(
        "munchkin-deluxe", [RAT], [SWORD, CLUB], hands={"A": ([], ["Sword"]), "B": ([], ["Club"])}
    )
    g.do("A", "play", card=g.id("Sword"))
    g.do("B", "play", card=g.id("Club"))
    ready_all(g)
    g.do("A", "trade", **{"with": "B", "give": [g.id("Sword")], "get": [g.id("Club")]})
    assert g.refused("C", "accept_trade").code == "command/no_trade"
    g.do("B", "accept_trade")
    assert g.seat("A")["zones"]["carried"] == [g.id("Club")]
    assert g.seat("B")["zones"]["carried"] == [g.id("Sword")]
    kick(g, "Rat")
    err = g.refused("A", "trade", **{"with": "B", "give": [g.id("Club")], "get": []})
    assert err.code == "rule/in_combat"


def test_the_player_dying_ends_the_combat() -> None:
    """D.C5: a player who dies in its own combat, with nobody left to run, skips the rest of
    it (a helper still runs: tests/classic/test_seed_readings.py, issue #42)."""
    g = started("munchkin-deluxe", [REAPER], [])
    ready_all(g)
    kick(g, "Reaper")
    g.do("A", "run_away", monster=g.id("Reaper"), roll=1)
    events = g.do("A", "bad_stuff", monster=g.id("Reaper"))
    assert [e.type for e in events][-2:] == ["CombatEnded", "PhaseEntered"]
    assert g.state["combat"] is None and g.seat("A")["dead"]


def test_a_helper_who_leaves_no_longer_helps() -> None:
    """B.16: a concession takes the helper's strength out of the combat."""
    g = started("munchkin-deluxe", [OGRE], [SWORD], 4, hands={"B": ([], ["Sword"])})
    g.do("B", "play", card=g.id("Sword"))
    ready_all(g)
    kick(g, "Ogre")
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    assert g.state["combat"]["player_strength"] == 5
    g.do("B", "concede")
    assert g.state["combat"]["helper"] is None and g.state["combat"]["player_strength"] == 1


@pytest.mark.parametrize(
    ("ruleset", "modifier"), [("munchkin-age-of-sigmar", 2), ("munchkin-old-west", 3)]
)
def test_an_aos_steed_replaces_the_other_run_away_modifiers(ruleset: str, modifier: int) -> None:
    """B.2: in AoS a Steed's Run Away modifier replaces the character's own; in Old West a
    Steed adds to them."""
    steed = treasure("Steed", "steed", bonus=1, run_away=2, value=300)
    run_shoes = treasure("Boots", "item", slot="footgear", bonus=0, run_away=1, value=100)
    g = started(ruleset, [OGRE], [steed, run_shoes], hands={"A": ([], ["Steed", "Boots"])})
    ready_all(g)
    g.do("A", "play", card=g.id("Steed"))  # helpers come after character creation (B.1)
    g.do("A", "play", card=g.id("Boots"))
    kick(g, "Ogre")
    rolled = g.do("A", "run_away", monster=g.id("Ogre"), roll=1)
    assert rolled[0].modifier == modifier


def test_a_persistent_curse_stays_and_counts() -> None:
    """B.10: a continuing Curse stays in front of its victim and counts in its combats."""
    chicken = door("Chicken on Your Head", "curse", persistent=True, bonus=-1, run_away=-1)
    g = started("munchkin-deluxe", [chicken, OGRE], [], hands={"B": (["Chicken on Your Head"], [])})
    ready_all(g)
    g.do("B", "play", card=g.id("Chicken on Your Head"), target="A")
    assert g.seat("A")["zones"]["curses"] == [g.id("Chicken on Your Head")]
    kick(g, "Ogre")
    assert g.state["combat"]["player_strength"] == 0
    assert g.do("A", "run_away", monster=g.id("Ogre"), roll=5)[0].modifier == -1


def test_an_old_west_sidekick_is_sacrificed_to_escape() -> None:
    """B.2, D.C12: a losing fighter sacrifices its Sidekick and escapes every monster."""
    kid = door("Kid", "sidekick", bonus=1)
    g = started("munchkin-old-west", [OGRE, kid], [], hands={"A": (["Kid"], [])})
    ready_all(g)
    g.do("A", "play", card=g.id("Kid"))
    kick(g, "Ogre")
    events = g.do("A", "discard", card=g.id("Kid"))
    assert events[0].type == "SidekickSacrificed" and events[0].monsters == [g.id("Ogre")]
    assert g.state["combat"] is None and g.state["phase"] == "charity"


def test_a_helper_card_is_not_discarded_at_will_outside_aos_steeds() -> None:
    """B.12: Deluxe Hirelings stay; an AoS Steed may be abandoned."""
    squire = treasure("Squire", "hireling", bonus=1)
    g = started("munchkin-deluxe", [], [squire], hands={"A": ([], ["Squire"])})
    ready_all(g)
    g.do("A", "play", card=g.id("Squire"))
    assert g.refused("A", "discard", card=g.id("Squire")).code == "rule/cannot_discard"
    steed = treasure("Steed", "steed", bonus=1, run_away=2)
    g = started("munchkin-age-of-sigmar", [], [steed], hands={"A": ([], ["Steed"])})
    ready_all(g)
    g.do("A", "play", card=g.id("Steed"))
    g.do("A", "discard", card=g.id("Steed"))
    assert g.seat("A")["zones"]["helpers"] == []


def test_a_concession_in_setup_can_start_the_game() -> None:
    """B.1, B.16: the game begins once every seat still in is ready."""
    g = started("munchkin-deluxe", [], [], 4)
    for seat in "ABC":
        g.do(seat, "ready")
    g.do("D", "concede")
    assert g.state["status"] == "playing" and g.state["active"] == "A"
