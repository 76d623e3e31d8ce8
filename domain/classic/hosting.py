"""What a classic event asks of classic Munchkin (``domain.family``'s event part, docs/rules.md
F): a table's finishing places, the one reading its game's results and the event's places
take (F.3), and the decks its tables play with.

>>> state = {"status": "finished", "winners": ["C"], "seats": {
...     "A": {"level": 7, "eliminated": None}, "B": {"level": 7, "eliminated": None},
...     "C": {"level": 10, "eliminated": None}, "D": {"level": 9, "eliminated": "conceded"}}}
>>> table_places(state)
{'C': 1, 'A': 2, 'B': 2, 'D': 4}
>>> table_places(state, {"A"})
{'C': 1, 'B': 2, 'D': 3, 'A': 4}
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from domain.classic.cards import _sample_catalog

#: The card fields of a classic table (``POST /api/events``'s ``doors`` and ``treasures``).
DECK_FIELDS = ("doors", "treasures")


def table_places(state: Mapping[str, Any], last: Iterable[str] = ()) -> dict[str, int]:
    """Each seat's finishing place at a finished classic table (docs/rules.md B.16, F.3): the
    winners 1st; then the others by level, highest first, those who conceded or were
    eliminated after everyone still in; equals share a place (1, 2, 2, 4). The seats in
    ``last`` (a match loss or a disqualification in the game, F.5) come after everyone else
    and share the last place, whatever their level."""
    seats = state["seats"]
    winners = set(state.get("winners") or [])
    penalised = set(last)

    def key(seat: str) -> tuple[int, int, int, int]:
        if seat in penalised:
            return (1, 0, 0, 0)
        if seat in winners:  # every winner 1st (a shared victory has several)
            return (0, 0, 0, 0)
        info = seats[seat]
        return (0, 1, 1 if info.get("eliminated") else 0, -int(info.get("level", 1)))

    order = sorted(seats, key=key)
    places: dict[str, int] = {}
    for index, seat in enumerate(order):
        before = order[index - 1] if index else None
        places[seat] = (
            places[before] if before is not None and key(before) == key(seat) else index + 1
        )
    return places


@functools.cache
def _sample_decks(ruleset: str) -> tuple[tuple[str, str], ...]:
    """``(field, name)`` of each card of the set's sample catalog, by name (read once)."""
    return tuple(
        ("doors" if card["deck"] == "door" else "treasures", name)
        for name, card in sorted(_sample_catalog(ruleset).items())
    )


def sample_decks(ruleset: str) -> dict[str, list[dict[str, Any]]]:
    """A classic event's decks by default: three copies of each card of the set's sample
    catalog, as ``doors`` and ``treasures`` (a classic game's creation body)."""
    decks: dict[str, list[dict[str, Any]]] = {field: [] for field in DECK_FIELDS}
    for field, name in _sample_decks(ruleset):
        decks[field].append({"name": name, "count": 3})
    return decks


def event_seats(
    ruleset: str, settings: Mapping[str, Any], seats: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """An event's table: every seat brings empty decks but the first, which brings the
    event's ``doors`` and ``treasures`` (the set's sample decks when it gave none)."""
    out = [{**seat, **{field: [] for field in DECK_FIELDS}} for seat in seats]
    if out:
        decks = sample_decks(ruleset)
        for field in DECK_FIELDS:
            out[0][field] = list(settings.get(field) or decks[field])
    return out
