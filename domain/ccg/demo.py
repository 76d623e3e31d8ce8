"""The Munchkin CCG's demo game (``munchlog demo``, ``Family.demo_spec``): a legal prime game,
two heroes and 40-card decks by name from the catalog; the demo then picks seeded random legal
commands."""

from __future__ import annotations

import random
from typing import Any

from domain.ccg.cards import Catalog, sample_catalog
from domain.errors import InvalidCommand

DECK_SIZE = 40


def demo_spec(catalog: Catalog | None = None, *, seed: int = 0, ruleset: str) -> dict[str, Any]:
    """A legal prime game: two heroes and 40-card decks by name from the catalog. Raises
    :class:`InvalidCommand` (``demo/catalog``) for a catalog too small for one."""
    catalog = catalog if catalog is not None else sample_catalog()
    rng = random.Random(seed)
    heroes = sorted(n for n, d in catalog.cards.items() if d["type"] == "hero")
    if len(heroes) < 2:
        raise InvalidCommand("demo/catalog", "the catalog needs at least two heroes")
    seats = []
    for seat, player, hero in (("A", "Alice", heroes[0]), ("B", "Bob", heroes[1])):
        hero_class = catalog.cards[hero]["class"]
        names = sorted(
            n
            for n, d in catalog.cards.items()
            if d["type"] != "hero" and d["class"] in ("neutral", hero_class)
        )
        rng.shuffle(names)
        deck: list[dict[str, Any]] = []
        left = DECK_SIZE
        for name in names:
            if left == 0:
                break
            count = min(3, left)
            deck.append({"name": name, "count": count})
            left -= count
        if left:
            raise InvalidCommand(
                "demo/catalog", f"not enough {hero_class}/neutral cards for a {DECK_SIZE}-card deck"
            )
        seats.append({"seat": seat, "player": player, "hero": {"name": hero}, "deck": deck})
    return {
        "ruleset": ruleset,
        "mode": "strict",
        "format": "prime",
        "seats": seats,
        "labels": {"event": "munchlog demo", "round": 1, "table": 1},
    }
