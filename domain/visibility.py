"""Who may see each card an event names (docs/rules.md A.4), computed once when it is recorded.

A seat may see a card's id and identity in an event when it knew the card just before the event
or knows it just after (so a reveal shows the card, and a public card going back to a hand is
still named to the opponent, who watched it go). Judges see everything; that is the viewer's
business (``projections.views``), not this module's.

>>> from domain.ccg.events import CardDrawn
>>> before = {"cards": {"c1": {"known": ["A"]}}}
>>> knowledge(before, before, CardDrawn(player="A", card="c1"))
{'c1': ['A']}
"""

from __future__ import annotations

from domain.events import Event
from domain.fold import State


def knowledge(before: State, after: State, event: Event) -> dict[str, list[str]]:
    """``{card_id: [seats that may see it]}`` for every card ``event`` names."""
    ids = event.card_ids()
    out: dict[str, list[str]] = {}
    b_cards = before.get("cards") or {}
    a_cards = after.get("cards") or {}
    for cid in ids:
        seen: set[str] = set()
        for cards in (b_cards, a_cards):
            card = cards.get(cid)
            if card is not None:
                seen.update(card["known"])
        out[cid] = sorted(seen)
    return out
