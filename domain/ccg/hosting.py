"""What a Munchkin CCG event asks of the CCG (``domain.family``'s event part, docs/rules.md F):
a player registers a hero and a decklist checked against the event's format (A.6, F.1), as
entries or as text (``decklist_text``: ``Hero: <name>`` and ``<count> <card name>`` a line), its
seats bring them, and the deck a seat played is read from a game's cards.

>>> read_text("# my list\\nHero: Orc\\n\\n2 Stick\\n1x Rock", 3)
((2, 'Orc'), [(4, 'Stick', 2), (5, 'Rock', 1)])
>>> read_text("Hero: Orc\\n2 Stick\\n2 Stick", 3)
Traceback (most recent call last):
...
domain.errors.InvalidCommand: line 3: over 3 copies of 'Stick' (4, on lines 2, 3)

>>> state = {"cards": {"h": {"owner": "A", "def": {"type": "hero", "name": "Orc"}},
...                    "c1": {"owner": "A", "def": {"type": "loot", "name": "Stick"}},
...                    "c2": {"owner": "B", "def": {"type": "loot", "name": "Rock"}}}}
>>> deck_played(state, "A")
('Orc', [['Stick', 1]])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.ccg.cards import FORMATS, check_deck
from domain.errors import InvalidCommand
from domain.family import EntryResolver, EventEntry

#: A player's registration fields (``Family.entry_fields``): each with the seat field whose
#: entries it takes (``POST /api/games``'s ``hero`` and ``deck``).
ENTRY_FIELDS = {"hero": "hero", "decklist": "deck"}


def event_entry(body: Mapping[str, Any], fmt: str, resolve: EntryResolver) -> EventEntry:
    """A player's hero and decklist, each entry resolved (a definition, or a card of the
    server's catalog by name) and the deck checked against the format (A.6); or the same as
    ``decklist_text`` (:func:`entry_from_text`)."""
    if body.get("decklist_text") is not None:
        return entry_from_text(body, fmt, resolve)
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


#: One card line of a decklist as text: a count (``2`` or ``2x``), then the card's name.
_CARD_LINE = re.compile(r"(\d+)x?\s+(\S.*)", re.IGNORECASE)
_HERO_LINE = re.compile(r"hero\s*:\s*(.*)", re.IGNORECASE)
_MOST_PER_LINE = 60


def _line_error(number: int, reason: str) -> InvalidCommand:
    """400 ``request/decklist_text`` naming the line (from 1) and what is wrong with it."""
    where = f"line {number}: {reason}"
    return InvalidCommand("request/decklist_text", where, {"decklist_text": [where]})


def read_text(
    text: str, max_copies: int | None
) -> tuple[tuple[int, str], list[tuple[int, str, int]]]:
    """``((line, hero name), [(line, card name, count), ...])`` of a decklist as text: one
    ``<count> <card name>`` a line, ``Hero: <name>`` once, blank lines and ``#`` comments
    ignored; at most ``max_copies`` of one name over all its lines (``None``: no limit).
    Raises :func:`_line_error` for the first line that is wrong."""
    hero: tuple[int, str] | None = None
    cards: list[tuple[int, str, int]] = []
    seen: dict[str, list[int]] = {}
    counts: Counter[str] = Counter()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        named = _HERO_LINE.fullmatch(line)
        if named is not None:
            if not named.group(1).strip():
                raise _line_error(number, "'Hero:' without a name")
            if hero is not None:
                raise _line_error(number, f"a second Hero (the first is on line {hero[0]})")
            hero = (number, named.group(1).strip())
            continue
        found = _CARD_LINE.fullmatch(line)
        if found is None:
            raise _line_error(number, f"{line!r} is not '<count> <card name>' nor 'Hero: <name>'")
        count, name = int(found.group(1)), found.group(2).strip()
        if not 1 <= count <= _MOST_PER_LINE:
            raise _line_error(number, f"a count is 1 to {_MOST_PER_LINE}, not {count}")
        counts[name] += count
        seen.setdefault(name, []).append(number)
        if max_copies is not None and counts[name] > max_copies:
            lines = ", ".join(str(n) for n in seen[name])
            raise _line_error(
                number,
                f"over {max_copies} copies of {name!r} ({counts[name]}, on lines {lines})",
            )
        cards.append((number, name, count))
    if hero is None:
        raise InvalidCommand(
            "request/decklist_text",
            "no 'Hero: <name>' line: a CCG player brings one Hero",
            {"decklist_text": ["a 'Hero: <name>' line"]},
        )
    return hero, cards


def entry_from_text(body: Mapping[str, Any], fmt: str, resolve: EntryResolver) -> EventEntry:
    """A player's entry from ``decklist_text`` (:func:`read_text`): each name a card of the
    server's catalog (an unknown one names its line), then the deck checked against the
    format as a list given as entries is (A.6)."""
    both = [k for k in ("hero", "decklist") if body.get(k) is not None]
    if both:
        raise InvalidCommand(
            "request/two_decklists",
            "a decklist as text or as hero and decklist, not both",
            {k: ["not with decklist_text"] for k in both},
        )
    (hero_line, hero_name), lines = read_text(str(body["decklist_text"]), _max_copies(fmt))

    def named(line: int, name: str, count: int, field: str) -> list[dict[str, Any]]:
        try:
            return resolve({"name": name, "count": count}, f"decklist_text.{line}", field)
        except InvalidCommand as exc:
            raise _line_error(line, f"unknown card {name!r}") from exc

    hero = {"name": hero_name}
    found_hero = named(hero_line, hero_name, 1, "hero")
    cards = [card for line, name, n in lines for card in named(line, name, n, "deck")]
    check_deck(fmt, found_hero[0], cards)
    return EventEntry(hero=hero, hero_name=str(found_hero[0]["name"]), cards=cards)


def _max_copies(fmt: str) -> int | None:
    """The copies of one name the format allows (``None``: any, or an unknown format, which
    :func:`check_deck` names)."""
    most = FORMATS.get(fmt, {}).get("max_copies")
    return None if most is None else int(most)


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
