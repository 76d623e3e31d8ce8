"""A rebuilt deck (``DiscardReshuffled``, docs/rules.md B.1) folds as its cards moved one by one:
from the discard pile, in the event's order, face down and known to nobody. The fold moves a
plain reshuffle's cards at once; any other (a card elsewhere, one named twice) one by one."""

from __future__ import annotations

import copy
from typing import Any

from domain.classic import events as ev
from domain.fold import evolve
from tests.classic.helpers import filler, new_game

RULESET = "munchkin-deluxe"


def _discarded_doors(n: int) -> tuple[dict[str, Any], list[str]]:
    """A dealt 3-seat game after seat A discarded its 4 Doors: (state, the discarded ids)."""
    doors, treasures = filler(RULESET)
    g = new_game(RULESET, doors, treasures, 3)
    state = g.state
    hand = list(state["decks"]["door"][:4])
    state = evolve(state, ev.CardsDealt(player="A", doors=hand, treasures=[], seat="A"))
    for cid in hand[:n]:
        state = evolve(state, ev.ClassicCardDiscarded(player="A", card=cid, seat="A"))
    return state, hand


def _one_by_one(state: dict[str, Any], deck: str, cards: list[str]) -> dict[str, Any]:
    """What the rules say the reshuffle does, written out card by card on a deep copy."""
    s = copy.deepcopy(state)
    for cid in cards:
        card = s["cards"][cid]
        if card["zone"] in s["decks"]:
            s["decks"][card["zone"]].remove(cid)
        elif card["owner"] is not None:
            zone = s["seats"][card["owner"]]["zones"][card["zone"]]
            if cid in zone:
                zone.remove(cid)
        card.update(owner=None, zone=deck, known=[], face="down")
        s["decks"][deck].append(cid)
    s["version"] += 1
    return s


def test_a_plain_reshuffle_moves_every_discard_to_the_deck_in_the_events_order() -> None:
    state, hand = _discarded_doors(4)
    before = copy.deepcopy(state)
    cards = [hand[2], hand[0], hand[3]]  # not the pile's order, and one card left behind
    after = evolve(state, ev.DiscardReshuffled(deck="door", cards=cards, seat="rules"))
    assert after == _one_by_one(before, "door", cards)
    assert after["decks"]["door_discard"] == [hand[1]]
    assert after["decks"]["door"][-3:] == cards
    assert state == before  # the fold changed a copy


def test_a_reshuffle_naming_a_card_outside_the_discards_moves_it_too() -> None:
    state, hand = _discarded_doors(2)  # hand[2], hand[3] are still in A's hand
    before = copy.deepcopy(state)
    for cards in ([hand[0], hand[2]], [hand[1], hand[1]]):
        after = evolve(state, ev.DiscardReshuffled(deck="door", cards=cards, seat="rules"))
        assert after == _one_by_one(before, "door", cards)
    assert state == before
