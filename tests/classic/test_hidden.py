"""Who may see each card a classic event names (domain.visibility.knowledge; docs/rules.md
B.1, B.4, B.7, B.13, D.C10, D.C11): a hand, a face-down loot, face-down rewards and charity
gifts stay with the seats that hold or handled them."""

from __future__ import annotations

from typing import Any

from domain import evolve, initial_state
from domain.visibility import knowledge
from tests.classic.helpers import Game, ready_all, started, top_door, top_treasures

RAT = {"name": "Rat", "deck": "door", "kind": "monster", "level": 1, "treasures": 2}
SWORD = {"name": "Sword", "deck": "treasure", "kind": "item", "slot": "1hand", "bonus": 3}


def seen(g: Game, *kinds: str) -> dict[str, dict[str, list[str]]]:
    """``{event type: knowledge}`` for the last events of ``kinds``, replayed from the start."""
    out: dict[str, dict[str, list[str]]] = {}
    states: list[Any] = []
    state = initial_state()
    for e in g.events:
        states.append(state)
        state = evolve(state, e)
        if e.type in kinds:
            out[e.type] = knowledge(states[-1], state, e)
    return out


def test_a_deal_is_seen_by_its_receiver_only() -> None:
    g = started("munchkin-deluxe", [], [])
    dealt = seen(g, "CardsDealt")["CardsDealt"]
    assert set(map(tuple, dealt.values())) == {("C",)}  # the last deal was C's


def test_a_loot_is_face_down_and_a_kicked_door_face_up() -> None:
    g = started("munchkin-deluxe", [], [])
    ready_all(g)
    g.do("A", "kick_door", card=top_door(g, "Sample Blank Door"))
    g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    k = seen(g, "DoorKicked", "RoomLooted")
    assert list(k["DoorKicked"].values()) == [["A", "B", "C"]]
    assert list(k["RoomLooted"].values()) == [["A"]]


def test_rewards_drawn_alone_are_face_down() -> None:
    """B.7 (helped rewards are face up: tests/classic/test_rules.py)."""
    g = started("munchkin-deluxe", [RAT, RAT], [SWORD], hands={"A": ([], ["Sword"])})
    g.do("A", "play", card=g.id("Sword"))
    ready_all(g)
    g.do("A", "kick_door", card=top_door(g, "Rat"))
    g.do("B", "pass")
    g.do("C", "pass")
    g.do("A", "take_treasure", cards=top_treasures(g, 2))
    alone = seen(g, "TreasuresDrawn")["TreasuresDrawn"]
    assert set(map(tuple, alone.values())) == {("A",)}


def test_charity_gifts_are_known_to_giver_and_receiver() -> None:
    """B.13, D.C11: a gift from the hand is seen by its giver and its receiver only."""
    up = {"name": "Up", "deck": "treasure", "kind": "level_up"}
    g = started("munchkin-deluxe", [], [up], hands={"C": ([], ["Up"])})
    ready_all(g)
    g.do("C", "play", card=g.id("Up"), target="A")  # A at 2: B and C are the lowest
    g.do("A", "kick_door", card=top_door(g, "Sample Blank Door"))
    g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
    hand = g.seat("A")["zones"]["hand"]
    secret = [c for c in hand if g.state["cards"][c]["known"] == ["A"]]
    public = [c for c in hand if g.state["cards"][c]["known"] == ["A", "B", "C"]]
    gifts = {secret[0]: "B", public[0]: "C", secret[1]: "B", secret[2]: "C", secret[3]: "B"}
    g.do("A", "charity", gifts=gifts)
    k = seen(g, "CharityResolved")["CharityResolved"]
    assert k[secret[0]] == ["A", "B"] and k[secret[2]] == ["A", "C"]
    assert k[public[0]] == ["A", "B", "C"]
