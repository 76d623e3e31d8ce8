"""A drawn card told by its name (docs/rules.md E.4, ``domain.classic.named``): each classic
command that draws from a deck in a table-dealt game (``deal``, ``kick_door``, ``loot`` and the
listen, ``take_treasure``) takes ``{"name": ...}`` for a card, made into the id of a card of
that name in the deck it draws from (the lowest id not already named by the command); a deck
too short for the draw is rebuilt from its discards as the rules rebuild it (B.1); a name the
deck does not hold is ``command/card_not_there`` naming the deck; a server-dealt game's
command is left for the rules to refuse (E.1). What the rules then decide names ids only."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.classic import events as ev
from domain.classic.named import named_fields, resolve_names, wanted
from domain.errors import DomainError, ImpossibleCommand, InvalidCommand
from domain.fold import State, evolve
from tests.classic.helpers import Game, filler, new_game, ready_all, started

RS = "munchkin-deluxe"
RAT = {"name": "Rat", "deck": "door", "kind": "monster", "level": 1, "treasures": 2}
SWORD = {"name": "Sword", "deck": "treasure", "kind": "item", "slot": "1hand", "bonus": 3}
BLANK, PEBBLE = "Sample Blank Door", "Sample Pebble"


def name(text: str) -> dict[str, str]:
    return {"name": text}


def in_pile(state: State, pile: str, card: str) -> list[str]:
    """The ids of the cards called ``card`` in ``pile``, sorted."""
    cards = state["cards"]
    return sorted(c for c in state["decks"][pile] if cards[c]["def"]["name"] == card)


def not_there(state: State, command: dict[str, Any]) -> ImpossibleCommand:
    with pytest.raises(ImpossibleCommand) as caught:
        resolve_names(state, command)
    assert caught.value.code == "command/card_not_there"
    return caught.value


def decided(g: Game, command: dict[str, Any]) -> list[Any]:
    """Resolve ``command``'s names, decide what they become, adopt it: its events."""
    resolved = resolve_names(g.state, command)
    assert not named_fields(resolved)
    return g.do(resolved.pop("seat"), resolved.pop("type"), **resolved)


def test_a_deal_names_its_cards_two_of_one_name_and_an_id_among_them() -> None:
    blank_d, blank_t = filler(RS)
    g = new_game(RS, [RAT, RAT, RAT, *blank_d], [SWORD, *blank_t])
    rats, blanks = in_pile(g.state, "door", "Rat"), in_pile(g.state, "door", BLANK)
    pebbles = in_pile(g.state, "treasure", PEBBLE)
    command = {
        "type": "deal",
        "seat": "A",
        # the id given is the lowest blank: the blank named by name is the next one
        "doors": [name("Rat"), blanks[0], name("  rat "), name(BLANK)],
        "treasures": [name(PEBBLE), name("sword"), name(PEBBLE), name(PEBBLE)],
    }
    resolved = resolve_names(g.state, command)
    assert resolved["doors"] == [rats[0], blanks[0], rats[1], blanks[1]]
    sword = in_pile(g.state, "treasure", "Sword")
    assert resolved["treasures"] == [pebbles[0], *sword, pebbles[1], pebbles[2]]
    (dealt,) = [e for e in decided(g, command) if e.type == "CardsDealt"]
    assert (dealt.doors, dealt.treasures) == (resolved["doors"], resolved["treasures"])
    assert command["doors"][0] == name("Rat")  # the command sent is not changed


def test_two_of_one_name_in_a_deal_need_two_in_the_deck() -> None:
    blank_d, blank_t = filler(RS)
    g = new_game(RS, [RAT, *blank_d], blank_t)
    doors = [name("Rat"), name("Rat"), name(BLANK), name(BLANK)]
    command = {"type": "deal", "seat": "A", "doors": doors, "treasures": [name(PEBBLE)] * 4}
    err = not_there(g.state, command)
    assert err.message == "no card named 'Rat' left in the door deck"
    command["treasures"] = [name("Rat")] * 4  # a Door named in the Treasures: not that deck
    command["doors"] = [name(BLANK)] * 4
    assert "the treasure deck" in not_there(g.state, command).message


def test_a_kicked_door_is_told_by_name_never_a_card_out_of_the_deck() -> None:
    g = started(RS, [RAT, RAT], [], hands={"B": (["Rat"], [])})  # one Rat in B's hand
    ready_all(g)
    assert wanted(g.state, {"type": "kick_door", "seat": "A"}) == {"card": {"deck": "door"}}
    (rat,) = in_pile(g.state, "door", "Rat")
    events = decided(g, {"type": "kick_door", "seat": "A", "card": name("RAT")})
    assert [(e.type, e.card) for e in events if e.type == "DoorKicked"] == [("DoorKicked", rat)]
    assert g.state["combat"]["monsters"][0]["card"] == rat
    # no Rat left in the deck (one in play, one in B's hand); a Treasure is in no door deck
    g2 = started(RS, [RAT], [], hands={"B": (["Rat"], [])})
    ready_all(g2)
    for card in ("Rat", PEBBLE, "No Such Card"):
        err = not_there(g2.state, {"type": "kick_door", "seat": "A", "card": name(card)})
        assert err.message == f"no card named {card!r} left in the door deck"


def test_a_loot_draws_a_door_and_with_listen_at_the_door_the_listen_too() -> None:
    g = started(RS, [], [])
    ready_all(g)
    decided(g, {"type": "kick_door", "seat": "A", "card": name(BLANK)})
    assert wanted(g.state, {"type": "loot", "seat": "A"}) == {"card": {"deck": "door"}}
    assert (
        "door deck"
        in not_there(g.state, {"type": "loot", "seat": "A", "card": name(PEBBLE)}).message
    )
    blank = in_pile(g.state, "door", BLANK)[0]
    (looted,) = [
        e
        for e in decided(g, {"type": "loot", "seat": "A", "card": name(BLANK)})
        if e.type == "RoomLooted"
    ]
    assert (looted.card, looted.deck) == (blank, "door")

    g = started(RS, [], [], options={"listen_at_door": True})
    ready_all(g)
    listen = {"type": "loot", "seat": "A", "card": name(BLANK)}
    assert wanted(g.state, {"type": "loot", "seat": "A"}) == {"card": {"deck": "door"}}
    (heard,) = [e for e in decided(g, listen) if e.type == "ListenedAtDoor"]
    assert g.state["cards"][heard.card]["def"]["name"] == BLANK
    decided(g, {"type": "kick_door", "seat": "A", "card": name(BLANK)})
    assert wanted(g.state, {"type": "loot", "seat": "A"}) == {"card": {"deck": "treasure"}}
    assert "treasure deck" in not_there(g.state, listen).message
    pebble = in_pile(g.state, "treasure", PEBBLE)[0]
    (looted,) = [e for e in decided(g, {**listen, "card": name(PEBBLE)}) if e.type == "RoomLooted"]
    assert (looted.card, looted.deck) == (pebble, "treasure")


def test_the_treasure_of_a_won_combat_is_told_by_name() -> None:
    g = started(RS, [RAT], [SWORD], hands={"A": ([], ["Sword"])})
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    decided(g, {"type": "kick_door", "seat": "A", "card": name("Rat")})
    g.do("B", "pass")
    g.do("C", "pass")
    draw = {"type": "take_treasure", "seat": "A"}
    assert wanted(g.state, draw) == {"cards": {"deck": "treasure", "count": 2}}
    pebbles = in_pile(g.state, "treasure", PEBBLE)
    events = decided(g, {**draw, "cards": [name(PEBBLE), name(PEBBLE)]})
    (drawn,) = [e for e in events if e.type == "TreasuresDrawn"]
    assert drawn.cards == pebbles[:2]
    assert "Sword" not in {g.state["cards"][c]["def"]["name"] for c in g.state["decks"]["treasure"]}


def short_door_deck() -> tuple[Game, str]:
    """Seats A and B dealt; the Door deck down to 3 blanks, its discards a Rat and 2 blanks
    (moved there by the fold, as discards would be); C still to be dealt."""
    g = new_game(RS, [RAT, *filler(RS, 10)[0]], filler(RS)[1])
    (rat,) = in_pile(g.state, "door", "Rat")
    blanks = in_pile(g.state, "door", BLANK)
    g.do("A", "deal", doors=blanks[:4], treasures=g.state["decks"]["treasure"][:4])
    g.do("B", "deal", doors=[rat, *blanks[4:7]], treasures=g.state["decks"]["treasure"][:4])
    for seat, cid in (("B", rat), ("A", blanks[0]), ("A", blanks[1])):
        discarded = ev.ClassicCardDiscarded(player=seat, card=cid, seat=seat)
        g.events.append(discarded)
        g.state = evolve(g.state, discarded)
    assert (len(g.state["decks"]["door"]), len(g.state["decks"]["door_discard"])) == (3, 3)
    return g, rat


def test_a_deck_too_short_for_the_draw_is_rebuilt_from_its_discards_where_names_are_looked_for() -> (
    None
):
    g, rat = short_door_deck()
    deck = list(g.state["decks"]["door"])
    command = {
        "type": "deal",
        "seat": "C",
        "doors": [name("Rat"), name(BLANK), name(BLANK), name(BLANK)],
        "treasures": [name(PEBBLE)] * 4,
    }
    resolved = resolve_names(g.state, command)
    assert resolved["doors"] == [rat, *sorted(deck)]  # the deck's blanks first, then the discards
    events = decided(g, command)
    assert [e.type for e in events][:2] == ["DiscardReshuffled", "CardsDealt"]
    assert g.state["cards"][rat]["owner"] == "C"
    # four blanks: three from the deck, the fourth from the discards
    g, _ = short_door_deck()
    four = resolve_names(g.state, {**command, "doors": [name(BLANK)] * 4})["doors"]
    assert four[:3] == sorted(g.state["decks"]["door"])
    assert four[3] in g.state["decks"]["door_discard"]
    # two Rats: one only, in the discards
    err = not_there(
        g.state, {**command, "doors": [name("Rat"), name("Rat"), name(BLANK), name(BLANK)]}
    )
    assert err.message == "no card named 'Rat' left in the door deck or its discards"


def test_a_deck_that_holds_the_draw_is_not_rebuilt_so_the_discards_are_not_looked_at() -> None:
    g, _ = short_door_deck()
    err = not_there(g.state, {"type": "kick_door", "seat": "A", "card": name("Rat")})
    assert err.message == "no card named 'Rat' left in the door deck"


def test_a_server_dealt_game_leaves_a_name_to_the_rules_which_refuse_it() -> None:
    g = started(RS, [RAT], [])
    ready_all(g)
    server = {**g.state, "dealing": {}}  # what the rules read of a server-dealt game (E.1)
    command = {"type": "kick_door", "seat": "A", "card": name("Rat")}
    assert resolve_names(server, command) == command
    assert wanted(server, {"type": "kick_door", "seat": "A"}) == {}
    with pytest.raises(DomainError) as caught:
        g.rs.decide(server, resolve_names(server, command))
    assert caught.value.code == "rule/server_deals"


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("card", {"name": ""}, "card"),
        ("card", {"name": 3}, "card"),
        ("card", {"name": "Rat", "id": "d0"}, "card"),
        ("doors", [name(BLANK), {"name": None}, name(BLANK), name(BLANK)], "doors.1"),
    ],
)
def test_a_name_is_a_non_empty_string_alone(field: str, value: Any, where: str) -> None:
    g = started(RS, [RAT], [])
    ready_all(g)
    kind = "kick_door" if field == "card" else "deal"
    with pytest.raises(InvalidCommand) as caught:
        resolve_names(g.state, {"type": kind, "seat": "A", field: value})
    assert (caught.value.code, list(caught.value.fields)) == ("request/invalid_card_name", [where])


def test_what_a_draw_wants_told_is_only_the_deck_and_how_many() -> None:
    g = new_game(RS, *filler(RS))
    deal = {"type": "deal", "seat": "A"}
    four = {"doors": {"deck": "door", "count": 4}, "treasures": {"deck": "treasure", "count": 4}}
    assert wanted(g.state, deal) == four
    assert wanted(g.state, {**deal, "doors": ["d0"], "treasures": ["t0"]}) == {}
    assert wanted(g.state, {"type": "ready", "seat": "A"}) == {}


NAMES = ("Rat", "Bat", "Cat")


@settings(max_examples=60, deadline=None)
@given(
    copies=st.tuples(*(st.integers(0, 3) for _ in NAMES)),
    asked=st.lists(st.sampled_from(NAMES), min_size=4, max_size=4),
)
def test_a_deal_by_name_takes_distinct_cards_of_those_names_or_says_which_is_missing(
    copies: tuple[int, ...], asked: list[str]
) -> None:
    """Whatever the deck holds: the deal by name succeeds exactly when the deck holds as many
    of each name as asked, and then names distinct cards of the deck, each of its name."""
    doors = [{**RAT, "name": n} for n, k in zip(NAMES, copies, strict=True) for _ in range(k)]
    _, blank_t = filler(RS, 4)
    g = new_game(RS, [*doors, *filler(RS, 4)[0]], blank_t)
    command = {"type": "deal", "seat": "A", "doors": [name(n) for n in asked]}
    enough = all(Counter(asked)[n] <= k for n, k in zip(NAMES, copies, strict=True))
    if not enough:
        err = not_there(g.state, command)
        assert err.message.split("'")[1] in {
            n for n in NAMES if Counter(asked)[n] > copies[NAMES.index(n)]
        }
        return
    ids = resolve_names(g.state, command)["doors"]
    assert len(set(ids)) == 4
    assert all(c in g.state["decks"]["door"] for c in ids)
    assert [g.state["cards"][c]["def"]["name"] for c in ids] == asked
