"""Narration: export entries as the sentences of a transcript (and of the CSV's summary).

Each family tells its own events (its ``narrator``, a :class:`domain.narration.Narrator`:
``domain.family``); the base tells any other ruleset's events generically. Two marks show what
the rules did not check (docs/cards.md): ``[unchecked]`` and ``[custom]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.family import family_named
from domain.narration import (
    CUSTOM_MARK,
    UNCHECKED_MARK,
    Narrator,
    Phrase,
    Says,
    actor_label,
    card_label,
)
from projections.exports.walk import card_book

__all__ = [
    "CUSTOM_MARK",
    "UNCHECKED_MARK",
    "Narrator",
    "Phrase",
    "Says",
    "actor_label",
    "card_label",
    "narrate",
    "narrator_for",
]


def narrate(entry: Mapping[str, Any], state: Mapping[str, Any]) -> list[str]:
    """One entry's sentences on their own (the replay viewer's), actors named: ``entry`` as a
    viewer may see it (``projections.views.event_view``), ``state`` any judge's state of its
    game (its card definitions name the cards the entry shows; hidden ones stay unnamed).
    Without the events before it, a phrase that needs them (the card a fight's gold goes
    with) reads as it does for a card the viewer may not see."""
    narrator = family_named(state.get("ruleset")).narrator(
        card_book(state), list(state.get("seats") or ())
    )
    return [phrase.render(with_actor=True) for phrase in narrator.describe(entry)]


def narrator_for(header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> Narrator:
    """The narrator of the game an export ``header`` describes, knowing its ``cards``."""
    narrator = family_named(header.get("ruleset")).narrator
    return narrator(cards, [seat["seat"] for seat in header["seats"]])
