"""Rules read against the seeds' text paragraph by paragraph (issue #42, classic items 8-11):
what may be given or traded, one Big Item however it arrives, the helper's run when the player
dies, a card just received outside the combat. Each test cites the rulebook paragraph (DX, OW,
AoS: docs/rules.md *Official sources*) and its docs/rules.md section, in strict mode (refused
with the section) and in record mode (flagged)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.classic.moves import legal_commands, waiting_for
from domain.errors import RuleViolation
from tests.classic.helpers import Game, ready_all, started
from tests.classic.test_trace_defects import helped_kill
from tests.classic.test_traced_rules import RAT, SWORD, UP, door, kick, treasure

SETS = ("munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar")
#: The bad Door kind of each set (B.2): a Curse, or a Trap in Old West.
BAD_DOOR = {
    "munchkin-deluxe": "curse",
    "munchkin-old-west": "trap",
    "munchkin-age-of-sigmar": "curse",
}


def flagged(g: Game, seat: str, kind: str, **fields: Any) -> str | None:
    """The ``violation`` record mode gives the command's first event."""
    steps = g.rs.decide({**g.state, "mode": "record"}, {"type": kind, "seat": seat, **fields})
    return steps[0].event.violation


def refused_for(g: Game, seat: str, kind: str, **fields: Any) -> tuple[str, str]:
    """The code and section strict mode refuses the command with (a rule of the game)."""
    err = g.refused(seat, kind, **fields)
    assert isinstance(err, RuleViolation), err
    return err.code, err.rule


def own(g: Game, seat: str, name: str) -> str:
    return next(
        c for c in g.seat(seat)["zones"]["hand"] if g.state["cards"][c]["def"]["name"] == name
    )


# ============================================================================ 8: only Items are given


@pytest.mark.parametrize("ruleset", SETS)
def test_only_items_are_given(ruleset: str) -> None:
    """B.12 (DX *Items, Trading* ¶1 "You may trade Items (but no other cards)", ¶4 "You may
    also give Items away without a trade"; OW *Items, Trading* ¶1, ¶3; AoS *Items, Trading*
    ¶1, ¶2): a monster, a Curse or Trap, a Go Up a Level in the hand is not given, so excess
    cards go to the lowest level by Charity, not to a friend; an Item still is."""
    hex_card = door("Hex", BAD_DOOR[ruleset], effects=[{"lose_levels": 1}])
    g = started(ruleset, [RAT, hex_card], [UP], hands={"A": (["Rat", "Hex"], ["Go Up a Level"])})
    ready_all(g)
    for name in ("Rat", "Hex", "Go Up a Level"):
        cid = g.id(name)
        assert refused_for(g, "A", "give", to="B", cards=[cid]) == ("rule/only_items", "B.12")
        assert flagged(g, "A", "give", to="B", cards=[cid]) == "rule/only_items"
    pebble = own(g, "A", "Sample Pebble")
    given = g.do("A", "give", to="B", cards=[pebble])
    assert given[0].violation is None and pebble in g.seat("B")["zones"]["hand"]


@pytest.mark.parametrize("ruleset", SETS)
def test_a_helped_kills_treasure_goes_to_the_helper_whatever_it_is(ruleset: str) -> None:
    """B.7, B.12, D.C6 (DX *Asking For Help* ¶2 "any number of the Treasure cards the monster
    has", ¶4 "distribute them according to the agreement you reached"): the player hands its
    helper the Treasure the kill gave, an Item or not, and to nobody else; the next turn it is
    a card like any other."""
    g = helped_kill(ruleset, (UP, SWORD))
    (up,) = g.ids("Go Up a Level")
    assert g.state["spoils"] == {up: "B"}
    assert refused_for(g, "A", "give", to="C", cards=[up]) == ("rule/only_items", "B.12")
    given = g.do("A", "give", to="B", cards=[up])
    assert given[0].violation is None and up in g.seat("B")["zones"]["hand"]
    assert g.state["spoils"] == {}
    assert refused_for(g, "B", "give", to="A", cards=[up]) == ("rule/only_items", "B.12")
    assert g.refold() == g.state


@pytest.mark.parametrize("ruleset", SETS)
def test_charity_still_gives_any_card_to_the_lowest_level(ruleset: str) -> None:
    """B.13 (DX *Turn Phases* ¶9 "you must give the excess cards to the player with the lowest
    Level"): Charity is its own command, not a gift of Items: a monster and a Go Up a Level go
    to the lowest levels too (a guard: this held before issue #42)."""
    g = started(ruleset, [RAT], [UP, UP], hands={"A": (["Rat"], ["Go Up a Level"] * 2)})
    ready_all(g)
    g.do("A", "play", card=g.id("Go Up a Level", 0))  # A at Level 2: B and C are the lowest
    kick(g, "Sample Blank Door")
    g.do("A", "loot", card=g.state["decks"]["door"][0])
    rat, up = g.id("Rat"), g.id("Go Up a Level", 1)
    rest = [c for c in g.seat("A")["zones"]["hand"] if c not in (rat, up)]
    gifts = {rat: "B", up: "C", rest[0]: "B", rest[1]: "C"}
    assert len(g.seat("A")["zones"]["hand"]) - len(gifts) == 5
    done = g.do("A", "charity", gifts=gifts)
    assert done[0].violation is None
    assert rat in g.seat("B")["zones"]["hand"] and up in g.seat("C")["zones"]["hand"]


def test_a_backup_restores_the_helpers_share_and_an_old_restoration_has_none() -> None:
    """B.12, B.17: the Treasure still to share with the helper is part of the table a backup
    restores; a stored version 3 ClassicTableRestored (before it was kept) loads with none."""
    from domain.classic.corrections import ClassicTableRestored
    from domain.events import event_from_dict
    from tests.classic.test_judge import check_backup

    g = helped_kill("munchkin-deluxe", (UP,))
    point = len(g.events)
    g.do("A", "give", to="B", cards=list(g.state["spoils"]))
    assert g.state["spoils"] == {}
    assert check_backup(g, point) > 0
    old = ClassicTableRestored(
        **{k: g.state[k] for k in ("status", "winner", "winners", "turn", "active", "phase")},
        **{k: g.state[k] for k in ("first", "tied", "listened", "combat", "body", "trade")},
    ).to_dict()
    old["v"] = 3
    del old["spoils"]
    loaded = event_from_dict(old)
    assert isinstance(loaded, ClassicTableRestored) and loaded.spoils == {}


# ============================================================================ 9: one Big Item


LADDER = treasure("Ladder", "item", slot=None, bonus=1, value=400, big=True)
ANVIL = treasure("Anvil", "item", slot=None, bonus=1, value=400, big=True)
BARROW = treasure("Barrow", "item", slot=None, bonus=1, value=400, big=True)


@pytest.mark.parametrize("ruleset", SETS)
def test_a_gift_brings_no_second_big_item(ruleset: str) -> None:
    """B.12, D.C20 (DX *Items* ¶3 "Anyone can carry any Item (except for extra Big items)",
    *Items, Big Items* ¶1 "only one Big one"; OW *Items* ¶2; AoS *Items* ¶3, *Big Items* ¶1):
    a Big Item given from play lands carried, so not beside another one; given from the hand it
    is in the hand, where it does not count ("An item card in your hand does not count until
    you play it", OW), and playing it is the ordinary check."""
    g = started(
        ruleset,
        [],
        [LADDER, ANVIL, BARROW],
        hands={"A": ([], ["Ladder"]), "B": ([], ["Anvil", "Barrow"])},
    )
    g.do("A", "play", card=g.id("Ladder"))
    g.do("B", "play", card=g.id("Anvil"))
    ready_all(g)
    anvil, barrow = g.id("Anvil"), g.id("Barrow")
    assert refused_for(g, "B", "give", to="A", cards=[anvil]) == ("rule/big_limit", "B.12")
    assert flagged(g, "B", "give", to="A", cards=[anvil]) == "rule/big_limit"
    assert flagged(g, "B", "give", to="C", cards=[anvil]) is None  # C has no Big Item
    g.do("B", "give", to="A", cards=[barrow])  # to the hand: not carried
    assert barrow in g.seat("A")["zones"]["hand"]
    assert refused_for(g, "A", "play", card=barrow) == ("rule/big_limit", "B.12")


def _traders(ruleset: str) -> Game:
    """A's turn: A has a (Small) Sword in play and a Big Ladder in the hand, B a Big Anvil in
    play."""
    g = started(
        ruleset,
        [],
        [LADDER, ANVIL, SWORD],
        hands={"A": ([], ["Sword", "Ladder"]), "B": ([], ["Anvil"])},
    )
    g.do("A", "play", card=g.id("Sword"))
    g.do("B", "play", card=g.id("Anvil"))
    ready_all(g)
    return g


@pytest.mark.parametrize("ruleset", SETS)
def test_a_trade_brings_no_second_big_item(ruleset: str) -> None:
    """B.12, D.C20 (DX *Items* ¶3, *Items, Big Items* ¶1; DX *Items, Trading* ¶3 "Any Item you
    receive in a trade must remain in play"): a trade that would leave a trader two Big Items
    is refused when offered and when accepted (the table may have changed in between); a Big
    Item for a Big Item is a fair swap."""
    g = _traders(ruleset)
    sword, ladder, anvil = g.id("Sword"), g.id("Ladder"), g.id("Anvil")
    g.do("A", "trade", give=[sword], get=[anvil], **{"with": "B"})  # A has no Big Item yet
    g.do("A", "play", card=ladder)  # now it has
    assert refused_for(g, "B", "accept_trade") == ("rule/big_limit", "B.12")
    assert flagged(g, "B", "accept_trade") == "rule/big_limit"
    offer = {"give": [sword], "get": [anvil], "with": "B"}
    assert refused_for(g, "A", "trade", **offer) == ("rule/big_limit", "B.12")
    assert flagged(g, "A", "trade", **offer) == "rule/big_limit"
    g.do("A", "trade", give=[ladder], get=[anvil], **{"with": "B"})  # a swap
    traded = g.do("B", "accept_trade")
    assert traded[0].violation is None
    assert anvil in g.seat("A")["zones"]["carried"] and ladder in g.seat("B")["zones"]["carried"]


# ============================================================================ 10: the helper runs on


REAPER = door("Reaper", "monster", level=20, treasures=5, bad_stuff=[{"die": True}])


def _helped_against_the_reaper(ruleset: str) -> Game:
    g = started(ruleset, [REAPER], [])
    ready_all(g)
    kick(g, "Reaper")
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    return g


def _loot(g: Game) -> None:
    while g.state["body"] is not None:
        picker = g.state["body"]["order"][0]
        g.do(picker, "loot_body", card=g.state["body"]["cards"][0])


@pytest.mark.parametrize("ruleset", SETS)
def test_the_helper_still_runs_when_the_player_dies(ruleset: str) -> None:
    """B.8, B.9, D.C5 (DX *Running Away* ¶4 "they must both Run Away. They roll separately
    … The monster(s) CAN catch them both"; *Death* ¶1 "Once you have died, you don't have to
    Run Away from any remaining monsters"; OW *Running Away* ¶5, AoS *Running Away* ¶5): the
    player dies to the monster that caught it; the body is looted, then the helper, who is not
    dead, still rolls, in strict and in record mode alike, and may be caught too."""
    g = _helped_against_the_reaper(ruleset)
    reaper = g.id("Reaper")
    g.do("A", "run_away", monster=reaper, roll=1)
    died = g.do("A", "bad_stuff", monster=reaper)
    assert "PlayerDied" in [e.type for e in died] and "CombatEnded" not in [e.type for e in died]
    assert g.state["combat"] is not None and g.seat("A")["dead"]
    _loot(g)
    assert waiting_for(g.state) == ["B"]
    assert flagged(g, "B", "run_away", monster=reaper, roll=6) is None
    caught = g.do("B", "run_away", monster=reaper, roll=1)
    assert caught[0].escaped is False and g.state["combat"]["caught"] == [["B", reaper]]
    ended = [e for e in g.do("B", "bad_stuff", monster=reaper) if e.type == "CombatEnded"]
    assert g.seat("B")["dead"] and g.state["combat"] is None
    assert ended and ended[0].outcome == "died"
    _loot(g)
    assert g.refold() == g.state


@pytest.mark.parametrize("ruleset", SETS)
def test_the_combat_ends_at_the_players_death_once_the_helper_has_run(ruleset: str) -> None:
    """B.8, D.C5: the helper escaped first; the player then dies: nobody living is left to
    roll, so the combat ends with the death (``died``), as before issue #42."""
    g = _helped_against_the_reaper(ruleset)
    reaper = g.id("Reaper")
    g.do("B", "run_away", monster=reaper, roll=6)
    g.do("A", "run_away", monster=reaper, roll=1)
    died = g.do("A", "bad_stuff", monster=reaper)
    ended = [e for e in died if e.type == "CombatEnded"]
    assert ended and ended[0].outcome == "died" and g.state["combat"] is None


# ============================================================================ 11: outside the combat


BOOTS = treasure("Boots", "item", slot="footgear", bonus=1, value=400)
OGRE = door("Ogre", "monster", level=12, treasures=3, bad_stuff=[{"lose_levels": 1}])


def _fighting_with_gifts(ruleset: str, *, helped: bool) -> tuple[Game, str, str]:
    """A fights the Ogre (B helping, if ``helped``); B gives C a pair of Boots and C gives B
    another, from their hands, during the combat. Returns the game, C's Boots, B's Boots."""
    g = started(ruleset, [OGRE], [BOOTS] * 4, hands={"B": ([], ["Boots"]), "C": ([], ["Boots"])})
    ready_all(g)
    kick(g, "Ogre")
    if helped:
        g.do("A", "ask_help", helper="B")
        g.do("B", "accept_help")
    to_c, to_b = own(g, "B", "Boots"), own(g, "C", "Boots")
    g.do("B", "give", to="C", cards=[to_c])
    g.do("C", "give", to="B", cards=[to_b])
    assert {to_c, to_b} <= set(g.state["got"])
    return g, to_c, to_b


@pytest.mark.parametrize("ruleset", SETS)
def test_a_card_just_received_is_played_by_a_seat_not_in_the_combat(ruleset: str) -> None:
    """B.14, D.C21 (DX *When You May Take Actions* ¶4-6 "You may perform these actions at any
    time, as long as you are not in combat: … Play a card that you have just received"; AoS the
    same; DX *Combat* ¶5 "while you are in combat, you cannot … play Treasures from your
    hand"): C, not in A's combat, plays the Boots B just gave it at once, in strict and in
    record mode alike, as it may unequip an Item at the same moment."""
    g, boots, _ = _fighting_with_gifts(ruleset, helped=False)
    assert flagged(g, "C", "play", card=boots) is None
    played = g.do("C", "play", card=boots)
    assert played[0].type == "ItemPlayed" and played[0].violation is None
    assert boots in g.seat("C")["zones"]["equipped"]
    g.do("C", "unequip", card=boots)
    assert g.refold() == g.state


@pytest.mark.parametrize("ruleset", SETS)
def test_a_helper_waits_for_the_end_of_the_combat_to_play_what_it_received(ruleset: str) -> None:
    """B.14, D.C21: the helper is in the combat ("you are not in combat" does not hold): its
    gift waits (`rule/in_combat`, strict refuses it, record mode flags it); so does a card C
    held from before, which waits for C's own turn (`rule/not_your_turn` only)."""
    g, _, boots = _fighting_with_gifts(ruleset, helped=True)
    assert refused_for(g, "B", "play", card=boots) == ("rule/in_combat", "B.14")
    assert flagged(g, "B", "play", card=boots) == "rule/in_combat"
    pebble = own(g, "C", "Sample Pebble")  # dealt to C before A's turn
    assert refused_for(g, "C", "play", card=pebble) == ("rule/not_your_turn", "B.14")
    assert flagged(g, "C", "play", card=pebble) == "rule/not_your_turn"


# ============================================================================ the table page's moves


@pytest.mark.parametrize("ruleset", SETS)
def test_the_legal_moves_follow_the_readings(ruleset: str) -> None:
    """docs/rules.md B (the legal moves are the candidates strict mode accepts): a trade that
    would bring A a second Big Item is no longer offered (D.C20); the Boots C just received
    during A's combat are offered to C (D.C21), not to the helper B."""
    g = _traders(ruleset)
    g.do("A", "play", card=g.id("Ladder"))
    assert g.seat("A")["zones"]["equipped"][0] == g.id("Sword")
    offered = [c for c in legal_commands(g.state, "A") if c["type"] == "trade"]
    assert g.id("Anvil") not in [x for c in offered for x in c["get"]]
    h, to_c, to_b = _fighting_with_gifts(ruleset, helped=True)
    assert {"type": "play", "card": to_c, "seat": "C"} in legal_commands(h.state, "C")
    assert not [c for c in legal_commands(h.state, "B") if c.get("card") == to_b]
