"""A registration as an event shows it (``GET /api/events/<id>``'s players, an event export's):
what can be read from one player's row and checked against it (docs/rules.md F.1).

A row always has the player's ``decklist_hash`` (``None`` at a classic event: no list); those
who may see the list (the organizer, the judges, its player) also get its ``hero``, its
``decklist`` and its ``salt``, which is all it takes to hash the list again.

>>> salt = bytes(16)
>>> listed = [{"name": "Pointy Stick", "count": 2}]
>>> row = {"player": "ann", "hero": {"name": "Orc"}, "decklist": listed, "salt": salt.hex(),
...        "decklist_hash": decklist_hash(salt, canonical_decklist(listed), "Orc")}
>>> hash_again(row) == row["decklist_hash"], hero_name(row), hash_again({"player": "bob"})
(True, 'Orc', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.family import family_named
from domain.tournament.rules import canonical_decklist, decklist_hash


def hero_name(row: Mapping[str, Any]) -> str | None:
    """The name of the hero a row shows (``None`` when it shows none)."""
    hero = row.get("hero")
    return str(hero["name"]) if isinstance(hero, Mapping) and "name" in hero else None


def shows_list(row: Mapping[str, Any]) -> bool:
    """Whether the row holds the list itself (its player, the judges and the organizer)."""
    return "decklist" in row


def hash_again(row: Mapping[str, Any]) -> str | None:
    """The ``decklist_hash`` the row's own salt, hero and list give (``None`` when the row does
    not hold the list): equal to the row's ``decklist_hash`` unless something was changed.
    Raises ``ValueError`` for a salt that is not hex, ``KeyError`` for a row without one."""
    if not shows_list(row):
        return None
    salt = bytes.fromhex(str(row["salt"]))
    return decklist_hash(salt, canonical_decklist(row["decklist"]), hero_name(row))


def deck_differences(row: Mapping[str, Any], state: Mapping[str, Any], seat: str) -> list[str]:
    """How the deck ``seat`` plays in a game differs from the list its player registered (the
    row holds it): ``+2 X`` for two copies more than listed, ``-1 Y`` for one fewer, and the
    hero when it is another; empty when the game's deck is the list. A game whose family
    reads no deck played (``Family.deck_played``: a classic table's shared decks) and a row
    without the list give none."""
    deck = family_named(state.get("ruleset")).deck_played(state, seat)
    if not shows_list(row) or deck is None:
        return []
    hero, played = deck
    listed = dict((str(n), int(c)) for n, c in canonical_decklist(row["decklist"]))
    counts = {str(n): int(c) for n, c in played}
    out = [
        f"{counts.get(name, 0) - listed.get(name, 0):+d} {name}"
        for name in sorted(set(listed) | set(counts))
        if counts.get(name, 0) != listed.get(name, 0)
    ]
    if hero != hero_name(row):
        out.insert(0, f"hero {hero} (registered {hero_name(row)})")
    return out
