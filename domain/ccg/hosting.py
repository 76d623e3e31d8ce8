"""What a Munchkin CCG event asks of the CCG (``domain.family``'s event part, docs/rules.md F):
a player registers a hero and a decklist checked against the event's format (A.6, F.1), its
seats bring them, and the deck a seat played is read from a game's cards.

>>> state = {"cards": {"h": {"owner": "A", "def": {"type": "hero", "name": "Orc"}},
...                    "c1": {"owner": "A", "def": {"type": "loot", "name": "Stick"}},
...                    "c2": {"owner": "B", "def": {"type": "loot", "name": "Rock"}}}}
>>> deck_played(state, "A")
('Orc', [['Stick', 1]])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.ccg.cards import check_deck
from domain.errors import InvalidCommand
from domain.family import EntryResolver, EventEntry

#: A player's registration fields (``Family.entry_fields``): each with the seat field whose
#: entries it takes (``POST /api/games``'s ``hero`` and ``deck``).
ENTRY_FIELDS = {"hero": "hero", "decklist": "deck"}


def event_entry(body: Mapping[str, Any], fmt: str, resolve: EntryResolver) -> EventEntry:
    """A player's hero and decklist, each entry resolved (a definition, or a card of the
    server's catalog by name) and the deck checked against the format (A.6)."""
    hero, deck = body.get("hero"), body.get("decklist")
    if hero is None or deck is None:
        raise InvalidCommand(
            "request/decklist_required",
            "a CCG event's player brings a hero and a decklist",
            {k: ["required"] for k in ENTRY_FIELDS if body.get(k) is None},
        )
    found_hero = resolve(hero, "hero", "hero")
    cards = [
        card
        for index, entry in enumerate(deck)
        for card in resolve(entry, f"decklist.{index}", "deck")
    ]
    if len(found_hero) != 1:
        raise InvalidCommand("request/invalid_hero", "exactly one hero", {"hero": ["one card"]})
    check_deck(fmt, found_hero[0], cards)
    return EventEntry(hero=dict(hero), hero_name=str(found_hero[0]["name"]), cards=cards)


def entry_seat(registered: Mapping[str, Any]) -> dict[str, Any]:
    """A seat brings its player's registered hero (without the list's salt) and list."""
    hero = registered.get("hero")
    if hero is None:
        return {}
    return {
        "hero": {k: v for k, v in hero.items() if k != "salt"},
        "deck": list(registered.get("decklist") or []),
    }


def deck_played(state: Mapping[str, Any], seat: str) -> tuple[str | None, list[list[Any]]]:
    """``(hero name, [[name, count], ...] by name)`` of the cards ``seat`` owns in a game's
    state (every zone: the deck the game was created with), for the deck check (F.1)."""
    hero: str | None = None
    owned: Counter[str] = Counter()
    for card in (state.get("cards") or {}).values():
        definition = card.get("def") or {}  # the CCG state keeps a card's definition here
        if card.get("owner") != seat:
            continue
        if definition.get("type") == "hero":
            hero = str(definition.get("name"))
        else:
            owned[str(definition.get("name"))] += 1
    return hero, [[name, owned[name]] for name in sorted(owned)]
