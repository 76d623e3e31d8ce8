"""Classic Munchkin's table and seats as one viewer may see them (docs/rules.md A.4, B, C.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.viewing import card_view, cards_view, is_scalar, seats_of

State = Mapping[str, Any]

#: A classic seat's trait zones, shown together as its ``traits`` (docs/rules.md B.3).
_TRAIT_ZONES = ("race", "class", "army")
#: The card fields a judge's diff lists (``Family.diff_card_fields``). A classic card has no
#: damage, tokens or zapped flag, so these lists are always empty: they are kept because a
#: classic diff has always had them (its shape in the API, unchanged since the CCG's).
DIFF_CARD_FIELDS = ("damage", "tokens", "zapped")


def classic_table(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """Classic Munchkin's table (docs/rules.md B, C.2): the options, the winners, the decks
    (their counts: a deck is face down, its order known to no seat) and discards, the combat,
    a dead character's body being looted and an offered trade."""
    decks = state["decks"]
    body = state.get("body")
    trade = state.get("trade")
    return {
        "options": dict(state.get("options") or {}),
        "winners": list(state.get("winners") or []),
        "first": state.get("first"),
        "decks": {
            "door": len(decks["door"]),
            "treasure": len(decks["treasure"]),
            "door_discard": cards_view(state, decks["door_discard"], viewer, seats),
            "treasure_discard": cards_view(state, decks["treasure_discard"], viewer, seats),
        },
        "combat": _classic_combat(state, viewer, seats),
        "body": None
        if body is None
        else {
            "dead": body["dead"],
            "cards": cards_view(state, body["cards"], viewer, seats),
            "order": list(body["order"]),
        },
        "trade": None
        if trade is None
        else {
            "player": trade["player"],
            "with": trade["with"],
            "give": cards_view(state, trade["give"], viewer, seats),
            "get": cards_view(state, trade["get"], viewer, seats),
        },
    }


def _classic_combat(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any] | None:
    """The combat (docs/rules.md B.5-B.9): its fighters, each monster with its level, enhancers
    and strength, both sides' strengths and its stage; every card in it is face up."""
    c = state.get("combat")
    if not c:
        return None

    def monster(entry: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "card": card_view(state, entry["card"], viewer, seats),
            "level": entry.get("level"),
            "enhancers": cards_view(state, entry["enhancers"], viewer, seats),
            "strength": entry.get("strength"),
        }

    return {
        "player": c["player"],
        "helper": c["helper"],
        "bribe": c["bribe"],
        "asked": c["asked"],
        "declined": list(c["declined"]),
        "monsters": [monster(e) for e in c["monsters"]],
        "one_shots": [
            {**x, "card": card_view(state, x["card"], viewer, seats)} for x in c["one_shots"]
        ],
        "player_strength": c["player_strength"],
        "monster_strength": c["monster_strength"],
        "stage": c["stage"],
        "passed": list(c["passed"]),
        "runs": {k: list(v) for k, v in c["runs"].items()},
        "caught": [list(x) for x in c["caught"]],
        "treasures": c["treasures"],
    }


def classic_seat(state: State, seat: str, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """A classic seat (docs/rules.md B.3): its scalars, ``traits`` {race, class, army}, its
    cards in play, its curses and helpers, and its hand: counted for everyone, shown only to
    the viewers who share the seat's knowledge (the seat, the table, the judge; A.4)."""
    st = state["seats"][seat]
    zones: Mapping[str, list[str]] = st["zones"]
    out: dict[str, Any] = {k: v for k, v in st.items() if k != "zones" and is_scalar(v)}
    out["traits"] = {z: cards_view(state, zones[z], viewer, seats) for z in _TRAIT_ZONES}
    for zone in ("equipped", "carried", "curses", "helpers"):
        out[zone] = cards_view(state, zones[zone], viewer, seats)
    out["hand_count"] = len(zones["hand"])
    if viewer == "judge" or seat in seats_of(viewer, seats):
        out["hand"] = cards_view(state, zones["hand"], viewer, seats)
    return out
