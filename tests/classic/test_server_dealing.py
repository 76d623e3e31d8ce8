"""Classic Munchkin dealt by the server (docs/rules.md B, E.1), decided without a service: every
draw and roll is a ``Dealt`` event by the game's key just before the event that uses it, what it
drew from and what it gave; the deck runs out as at the table (B.1); a choice named before its
card is drawn is a preference; the legal commands name no card and no value.

The decks below are made of copies of a few cards, so that whatever the key deals the test
knows what a seat holds. The service tier (seeds, a whole game, ``verify``, the views) is
tests/service/test_classic_dealing.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain import fair
from domain.classic import CLASSIC
from domain.classic.moves import driver_commands, legal_commands
from domain.dealing import deal, dice, game_key, seat_commitment
from domain.errors import DomainError, ImpossibleCommand, InvalidCommand, RuleViolation
from domain.events import Event
from domain.game import decide_commands
from tests.builders import random_classic_command
from tests.classic.helpers import Game, random_decks, ready_all, spec
from tests.classic.test_added_rules import GRABBER, door, treasure

GAME_ID = "11111111-2222-4333-8444-555555555555"
SECRET = bytes(range(32))
KEY = game_key(SECRET, GAME_ID, [])  # a server-only game: no seat seeds
NOW = "2026-12-01T12:00:00Z"


BAT = door("Bat", "monster", level=1, treasures=2, bad_stuff=[{"lose_levels": 1}])
LOSE_GEAR = door("Lose Gear", "curse", effects=[{"lose_item": "any"}])
THIEF = door(
    "Thief", "class", trait="Thief", powers={"backstab": 2, "steal": 4, "steal_penalty": 1}
)
SWORD = treasure("Sword", "item", slot="1hand", bonus=3, value=600)


class ServerGame(Game):
    """A classic game the server deals alone (no contributors), decided with its secret."""

    def do(self, seat: str, kind: str, **fields: Any) -> list[Event]:
        with fair.secrets_for({0: SECRET}):
            return super().do(seat, kind, **fields)

    def refused(self, seat: str, kind: str, **fields: Any) -> DomainError:
        with fair.secrets_for({0: SECRET}):
            return super().refused(seat, kind, **fields)


def server_game(
    doors: list[Any],
    treasures: list[Any],
    seats: int = 3,
    *,
    contributors: Any = (),
    ruleset: str = "munchkin-deluxe",
    **kw: Any,
) -> ServerGame:
    """A server-dealt game (Deluxe unless ``ruleset``): seat A brings every card (ids ``d0``…,
    ``t0``…)."""
    dealing = {"contributors": list(contributors), "reveal_timeout": 60}
    body = {
        **spec(ruleset, doors, treasures, seats, **kw),
        "game_id": GAME_ID,
        "dealing": fair.opening(GAME_ID, dealing, SECRET),
    }
    return ServerGame(ruleset, CLASSIC[ruleset].create(body))


def dealt_in(g: ServerGame) -> ServerGame:
    """Every seat dealt, and the roll for first player (again while tied) done: the first
    player is whom the dice say."""
    for seat in g.state["seats"]:
        g.do(seat, "deal")
    while g.state["first"] is None:
        g.do("A", "roll_first")
    return g


def ops(events: list[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, fair.Dealt)]


def names(g: Game, ids: list[str]) -> list[str]:
    return [g.state["cards"][c]["def"]["name"] for c in ids]


def counters(g: Game) -> list[int]:
    return [e.counter for e in ops(g.events)]


# ============================================================================ setup (B.1)


def test_a_deal_is_four_doors_and_four_treasures_each_drawn_by_the_key() -> None:
    """B.1, E.1: ``deal`` names no card; the Doors then the Treasures are drawn from each deck's
    cards in no known order (``among``, sorted), the first ``take`` of them shuffled by the key
    at the counter, and go face down to the seat's hand."""
    g = server_game([BAT] * 20, [SWORD] * 20)
    doors, treasures = list(g.state["decks"]["door"]), list(g.state["decks"]["treasure"])
    events = g.do("A", "deal")
    assert [e.type for e in events] == ["Dealt", "Dealt", "CardsDealt"]
    d_op, t_op, cards = events
    assert (d_op.pile, d_op.take, d_op.among, d_op.counter) == ("doors", 4, sorted(doors), 0)
    assert (t_op.pile, t_op.take, t_op.among, t_op.counter) == (
        "treasures",
        4,
        sorted(treasures),
        1,
    )
    assert d_op.cards == deal(KEY, 0, doors, 4) and t_op.cards == deal(KEY, 1, treasures, 4)
    assert (cards.doors, cards.treasures) == (d_op.cards, t_op.cards)
    assert sorted(g.seat("A")["zones"]["hand"]) == sorted([*d_op.cards, *t_op.cards])
    assert all(g.state["cards"][c]["known"] == ["A"] for c in g.seat("A")["zones"]["hand"])
    assert g.refold() == g.state


def test_the_roll_for_first_player_is_the_keys_dice_for_the_seats_still_tied() -> None:
    """B.1, E.1: ``roll_first`` names no roll; one die each for the seats still tied, in
    seating order, the highest first, ties rolling again (only they)."""
    g = server_game([BAT] * 20, [SWORD] * 20)
    for seat in "ABC":
        g.do(seat, "deal")
    rounds = 0
    while g.state["first"] is None:
        tied, rounds = list(g.state["tied"]), rounds + 1
        events = g.do("A", "roll_first")
        (op,) = ops(events)
        assert (op.op, op.sides, op.values) == ("dice", 6, dice(KEY, op.counter, 6, len(tied)))
        rolled = next(e for e in events if e.type == "FirstPlayerDetermined")
        assert rolled.rolls == dict(zip(tied, op.values, strict=True))
    assert rounds == 3  # this key ties A, B and C, then A and C: only they roll again
    assert counters(g) == list(range(len(counters(g))))


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("deal", {"doors": ["d0", "d1", "d2", "d3"]}),
        ("deal", {"treasures": ["t0", "t1", "t2", "t3"]}),
        ("roll_first", {"rolls": {"A": 6, "B": 1, "C": 2}}),
        ("kick_door", {"card": "d0"}),
        ("loot", {"card": "d0"}),
        ("take_treasure", {"cards": ["t0"]}),
        ("run_away", {"monster": "d0", "roll": 6}),
        ("discard", {"card": "d0", "steal": "t0", "roll": 6}),
    ],
)
@pytest.mark.parametrize("mode", ["strict", "record"])
def test_a_command_naming_its_card_or_value_is_refused(
    kind: str, fields: dict[str, Any], mode: str
) -> None:
    """E.1: in both modes, before anything else is checked."""
    g = server_game([BAT] * 20, [SWORD] * 20, mode=mode)
    err = g.refused("A", kind, **fields)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/server_deals", "E.1")


#: Classic's commands that draw or roll (E.1), each with the field of ``fair.DEALT_FIELDS`` it
#: takes for something else, and a value of each such field.
DRAWS = {
    "deal": {},
    "roll_first": {},
    "kick_door": {},
    "loot": {},
    "take_treasure": {},
    "run_away": {"monster": "d0"},
    "discard": {"card": "d0", "steal": "t0"},
}
TOLD = {
    "card": "d0",
    "cards": ["d0"],
    "doors": ["d0"],
    "treasures": ["t0"],
    "roll": 6,
    "rolls": {"A": 6},
    "value": 6,
    "values": [6],
}


@pytest.mark.parametrize(
    ("kind", "name"),
    [(kind, name) for kind in DRAWS for name in fair.DEALT_FIELDS if name not in DRAWS[kind]],
)
@pytest.mark.parametrize("mode", ["strict", "record"])
def test_every_card_or_value_field_it_does_not_use_is_refused(
    kind: str, name: str, mode: str
) -> None:
    """E.1 (issue #35): a field the command would not even read (a ``deal`` with ``cards``,
    a ``kick_door`` with ``roll``) is refused as one it would, naming it."""
    g = server_game([BAT] * 20, [SWORD] * 20, mode=mode)
    err = g.refused("A", kind, **{**DRAWS[kind], name: TOLD[name]})
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/server_deals", "E.1")
    assert err.message.endswith(f"send no {name}")


def test_a_deal_with_cards_is_refused_and_without_them_dealt() -> None:
    """Issue #35, finding 10: the server-dealt ``deal`` took an unused ``cards``."""
    g = server_game([BAT] * 20, [SWORD] * 20)
    err = g.refused("A", "deal", cards=["d0", "d1", "d2", "d3"])
    assert isinstance(err, RuleViolation) and err.code == "rule/server_deals"
    assert [e.type for e in g.do("A", "deal")] == ["Dealt", "Dealt", "CardsDealt"]


def test_a_deal_ends_its_batch() -> None:
    """E.1: ``[deal A, deal B]`` is refused before anything is dealt (decided without the
    server's secret, it is refused so, not ``command/no_dealer``: the key is never reached);
    each alone is dealt."""
    g = server_game([BAT] * 20, [SWORD] * 20)
    batch = [({"type": "deal", "seat": seat}, None) for seat in "AB"]
    with pytest.raises(ImpossibleCommand) as caught:
        decide_commands(CLASSIC["munchkin-deluxe"], g.state, batch, received_at=NOW, secrets=None)
    assert caught.value.code == "command/random_not_last"
    assert caught.value.message.startswith("action 1 of 2 (deal) draws or rolls")
    steps = decide_commands(
        CLASSIC["munchkin-deluxe"], g.state, batch[:1], received_at=NOW, secrets={0: SECRET}
    )
    assert [s.event.type for s, _ in steps] == ["Dealt", "Dealt", "CardsDealt"]


def test_nothing_is_drawn_before_the_seeds() -> None:
    """E.2: with a contributor still to reveal, a deal and a roll are refused."""
    g = server_game([BAT] * 20, [SWORD] * 20, contributors=["A"])
    for kind in ("deal", "roll_first"):
        err = g.refused("A", kind)
        assert isinstance(err, RuleViolation) and err.code == "rule/seeds_pending"


# ============================================================================ the turn (B.4)


def test_the_door_kicked_is_drawn_by_the_key() -> None:
    """B.4, E.1: ``kick_door`` names no card: the Door is drawn from the deck's cards."""
    g = dealt_in(server_game([BAT] * 20, [SWORD] * 20))
    ready_all(g)
    deck = list(g.state["decks"]["door"])
    events = g.do(g.state["active"], "kick_door")
    assert [e.type for e in events[:3]] == ["Dealt", "DoorKicked", "CombatStarted"]
    assert (events[0].among, events[0].take, events[0].pile) == (sorted(deck), 1, "doors")
    assert events[0].cards == [events[1].card] == deal(KEY, events[0].counter, deck, 1)


def test_a_curse_kicked_takes_the_kickers_preferred_item_and_is_never_refused() -> None:
    """B.10, E.1: the kicker names its choices before the Curse is known, so they are
    preferences: the first that qualifies, else the first qualifying card (equipped first).
    A table-dealt kick would be refused for the missing choice (``request/missing_choice``)."""
    for choices, lost in (([], 0), (["t-none", "SECOND"], 1)):
        g = dealt_in(server_game([LOSE_GEAR] * 20, [SWORD] * 20))
        active = g.state["first"]
        hand = [c for c in g.seat(active)["zones"]["hand"] if names(g, [c]) == ["Sword"]]
        g.do(active, "play", card=hand[0])
        g.do(active, "play", card=hand[1])
        ready_all(g)
        equipped = list(g.seat(active)["zones"]["equipped"])
        named = [equipped[1] if c == "SECOND" else c for c in choices]
        events = g.do(active, "kick_door", choices=named)
        applied = next(e for e in events if e.type == "CurseApplied")
        assert applied.lost == [equipped[lost]]


def test_a_loot_draws_a_door_face_down() -> None:
    """B.4, E.1: ``loot`` names no card: a Door from the deck, to the looter's hand alone."""
    g = dealt_in(server_game([door("Junk", "other")] * 20, [SWORD] * 20))
    ready_all(g)
    active = g.state["active"]
    g.do(active, "kick_door")  # Junk: to the hand, then look for trouble or loot
    deck = list(g.state["decks"]["door"])
    events = g.do(active, "loot")
    assert [e.type for e in events[:2]] == ["Dealt", "RoomLooted"]
    assert events[0].among == sorted(deck) and events[0].cards == [events[1].card]
    assert g.state["cards"][events[1].card]["known"] == [active]


def test_listen_at_the_door_draws_a_door_then_the_loot_a_treasure() -> None:
    """B.15, E.1: with Listen At The Door, the listen is a Door by the key, the loot proper a
    Treasure."""
    g = dealt_in(
        server_game([door("Junk", "other")] * 20, [SWORD] * 20, options={"listen_at_door": True})
    )
    ready_all(g)
    active = g.state["active"]
    listened = g.do(active, "loot")
    assert [e.type for e in listened] == ["Dealt", "ListenedAtDoor"]
    assert listened[0].pile == "doors"
    g.do(active, "kick_door")
    looted = g.do(active, "loot")
    assert [e.type for e in looted[:2]] == ["Dealt", "RoomLooted"]
    assert (looted[0].pile, looted[1].deck) == ("treasures", "treasure")


# ============================================================================ combat (B.7, B.8)


def won_treasure_game(treasures: int = 13) -> ServerGame:
    """13 Bats and 13 Swords: after the deal one Sword is left in its deck; the first player
    equips a Sword, sells two (1,200 gp: a level; the discard holds them) and kills a Bat
    (two Treasures): one from the deck, one from the reshuffled discards."""
    g = dealt_in(server_game([BAT] * 13, [SWORD] * treasures))
    active = g.state["first"]
    swords = list(g.seat(active)["zones"]["hand"])
    swords = [c for c in swords if names(g, [c]) == ["Sword"]]
    g.do(active, "play", card=swords[0])
    ready_all(g)
    g.do(active, "sell", cards=swords[1:3])
    g.do(active, "kick_door")
    for seat in g.state["seats"]:
        if seat != active:
            g.do(seat, "pass")
    assert g.state["combat"]["stage"] == "treasure"
    return g


def test_the_treasure_of_a_kill_is_the_last_card_then_the_reshuffled_discards() -> None:
    """B.1, B.7, E.1: ``take_treasure`` names no card; the rules say how many; a deck holding
    fewer gives its cards, its discards are shuffled into a new deck (``DiscardReshuffled``,
    as at the table), and the rest is drawn from those by the key."""
    g = won_treasure_game()
    active = g.state["active"]
    last = list(g.state["decks"]["treasure"])
    discards = list(g.state["decks"]["treasure_discard"])
    assert (len(last), len(discards), g.state["combat"]["treasures"]) == (1, 2, 2)
    events = g.do(active, "take_treasure")
    assert [e.type for e in events[:3]] == ["DiscardReshuffled", "Dealt", "TreasuresDrawn"]
    op, drawn = events[1], events[2]
    assert (op.among, op.take) == (sorted(discards), 1)
    assert drawn.cards == [*last, *op.cards] and drawn.face == "down"
    assert g.refold() == g.state


def test_an_empty_deck_is_rebuilt_from_its_discards_before_the_draw() -> None:
    """B.1, E.1: a Treasure deck emptied by the deal (12 Swords, three seats): the discards are
    shuffled into a new deck before the ``Dealt``, which draws both Treasures from it."""
    g = won_treasure_game(treasures=12)
    discards = list(g.state["decks"]["treasure_discard"])
    assert (g.state["decks"]["treasure"], len(discards)) == ([], 2)
    events = g.do(g.state["active"], "take_treasure")
    assert [e.type for e in events[:3]] == ["DiscardReshuffled", "Dealt", "TreasuresDrawn"]
    assert (events[1].among, events[1].take, events[2].cards) == (
        sorted(discards),
        2,
        events[1].cards,
    )


def grabbed() -> ServerGame:
    """The first player, Level 1 with two Swords equipped (6), fights a Grabber (Level 8,
    which takes an Item even from one who escapes)."""
    g = dealt_in(server_game([GRABBER] * 20, [SWORD] * 20))
    active = g.state["first"]
    swords = [c for c in g.seat(active)["zones"]["hand"] if names(g, [c]) == ["Sword"]]
    g.do(active, "play", card=swords[0])
    g.do(active, "play", card=swords[1])
    ready_all(g)
    g.do(active, "kick_door")
    return g


def test_a_run_away_is_the_keys_die() -> None:
    """B.8, E.1: ``run_away`` names no roll; the die is the key's, its value on the roll."""
    g = grabbed()
    active = g.state["active"]
    monster = g.state["combat"]["monsters"][0]["card"]
    first = g.seat(active)["zones"]["equipped"][0]
    events = g.do(active, "run_away", monster=monster, choices=[first])
    op, rolled = events[0], events[1]
    assert (op.op, op.sides, len(op.values)) == ("dice", 6, 1)
    assert op.values == dice(KEY, op.counter, 6, 1)
    assert (rolled.type, rolled.roll) == ("RunAwayRolled", op.values[0])
    assert rolled.escaped == (op.values[0] + rolled.modifier >= 5)


def test_a_hurt_on_escape_needs_its_choice_before_the_die() -> None:
    """B.8, E.1: the choices an escape's hurt asks for are checked before the die is cast,
    whatever it would show: a refusal after it would tell the roll."""
    g = grabbed()
    active = g.state["active"]
    monster = g.state["combat"]["monsters"][0]["card"]
    err = g.refused(active, "run_away", monster=monster)
    assert isinstance(err, InvalidCommand) and err.code == "request/missing_choice"
    err = g.refused(active, "run_away", monster=monster, choices=[monster])
    assert err.code == "command/card_not_there"
    assert g.state["dealing"]["next_counter"] == counters(g)[-1] + 1  # nothing was rolled


# ============================================================================ the Thief (D.C17)


def test_a_thiefs_steal_is_the_keys_die() -> None:
    """B.2, D.C17, E.1: the steal names no roll: the server's die decides, after every check."""
    g = dealt_in(server_game([THIEF] * 20, [SWORD] * 20))
    order = list(g.state["seats"])
    victim = g.state["first"]
    thief = order[(order.index(victim) + 1) % len(order)]
    sword = next(c for c in g.seat(victim)["zones"]["hand"] if names(g, [c]) == ["Sword"])
    g.do(victim, "play", card=sword)
    cls = next(c for c in g.seat(thief)["zones"]["hand"] if names(g, [c]) == ["Thief"])
    g.do(thief, "play", card=cls)
    ready_all(g)
    junk = next(c for c in g.seat(thief)["zones"]["hand"] if names(g, [c]) == ["Thief"])
    events = g.do(thief, "discard", card=junk, steal=sword)
    op, theft = events
    assert (op.op, theft.type) == ("dice", "TheftAttempted")
    assert theft.roll == op.values[0] == dice(KEY, op.counter, 6, 1)[0]
    assert theft.stolen == (theft.roll >= 4)
    err = g.refused(thief, "discard", card=junk, steal=sword)  # junk is spent: no die cast
    assert err.code == "command/card_not_there"


# ============================================================================ the legal commands


def test_the_legal_commands_name_no_drawn_card_and_no_value() -> None:
    """E.1: in a server-dealt game the draws and rolls a seat may send are given without a
    card or a value (a driver's list too), and each is accepted as given."""
    g = server_game([BAT] * 20, [SWORD] * 20)
    assert {"type": "deal", "seat": "A"} in legal_commands(g.state, "A")
    for seat in "ABC":
        g.do(seat, "deal")
    rolls = [c for c in driver_commands(g.state, "A") if c["type"] == "roll_first"]
    assert rolls == [{"type": "roll_first", "seat": "A"}]
    while g.state["first"] is None:
        g.do("A", "roll_first")
    ready_all(g)
    active = g.state["active"]
    kicks = [c for c in driver_commands(g.state, active) if c["type"] == "kick_door"]
    assert kicks == [{"type": "kick_door", "seat": active}]
    g = won_treasure_game()
    active = g.state["active"]
    takes = [c for c in legal_commands(g.state, active) if c["type"] == "take_treasure"]
    assert takes == [{"type": "take_treasure", "seat": active}]
    g = grabbed()
    active = g.state["active"]
    runs = [c for c in driver_commands(g.state, active) if c["type"] == "run_away"]
    assert len(runs) == 1 and "roll" not in runs[0] and runs[0]["choices"]
    fields = {k: v for k, v in runs[0].items() if k not in ("seat", "type")}
    assert [e.type for e in g.do(active, "run_away", **fields)][:2] == ["Dealt", "RunAwayRolled"]


def test_before_the_seeds_no_draw_is_legal() -> None:
    """E.2: the legal commands before every seed is in hold no draw and no roll: the seat's
    seed command only (domain.seeding)."""
    g = server_game([BAT] * 20, [SWORD] * 20, contributors=["A"])
    assert [c["type"] for c in legal_commands(g.state, "A")] == ["commit_seed"]
    seed, now = bytes([7]) * 32, "2030-01-01T00:00:00Z"
    commit = {"type": "commit_seed", "seat": "A", "commitment": seat_commitment(GAME_ID, "A", seed)}
    for command in (commit, {"type": "reveal_seed", "seat": "A", "seed": seed.hex()}):
        g.state = fair.decide(g.state, command, now)[-1].state
    assert legal_commands(g.state, "A") == [{"type": "deal", "seat": "A"}]


def test_a_table_dealt_game_still_names_its_cards() -> None:
    """Table dealing is unchanged: the driver's draws name the tops of the decks."""
    table = Game(
        "munchkin-deluxe",
        CLASSIC["munchkin-deluxe"].create(spec("munchkin-deluxe", [BAT] * 20, [SWORD] * 20)),
    )
    (cmd,) = [c for c in driver_commands(table.state, "A") if c["type"] == "deal"]
    assert cmd["doors"] == table.state["decks"]["door"][:4]


@pytest.mark.parametrize("ruleset", sorted(CLASSIC))
def test_a_random_play_out_of_the_legal_commands(ruleset: str) -> None:
    """E.1: random legal commands of every seat (the fuzzers' pick, concessions now and then)
    play a server-dealt game of five seats: none names a drawn card or a value, every one is
    accepted, the counter has no gap and the events fold to the same state."""
    rng = random.Random(11)
    g = server_game(*random_decks(ruleset, rng), seats=5, ruleset=ruleset)
    for _ in range(400):
        if g.state["status"] == "finished":
            break
        command = random_classic_command(g.rs, g.state, rng)
        assert not {"doors", "treasures", "rolls", "roll"} & set(command), command
        if command["type"] in ("kick_door", "loot", "take_treasure"):
            assert "card" not in command and "cards" not in command, command
        g.do(
            command["seat"],
            command["type"],
            **{k: v for k, v in command.items() if k not in ("seat", "type")},
        )
    kinds = {e.type for e in g.events}
    assert {"CardsDealt", "FirstPlayerDetermined", "DoorKicked"} <= kinds
    assert counters(g) == list(range(len(counters(g))))
    assert g.refold() == g.state
