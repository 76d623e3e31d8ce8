"""Who may see each card an event names (docs/rules.md A.4), computed once when it is recorded.

A seat may see a card's id and identity in an event when it knew the card just before the event
or knows it just after (so a reveal shows the card, and a public card going back to a hand is
still named to the opponent, who watched it go). Judges see everything; that is the viewer's
business (``projections.views``), not this module's.

An event marked ``unchecked`` (recorded from a card whose text is not encoded, docs/cards.md)
tells which card was not checked: the resolving ability's, on top of the stack. When the event
does not name that card itself (an effect command recorded while it resolves), the card is
listed too, so that the mark is shown only to those who may see the card
(``projections.views.event_view``): otherwise the mark of an effect would tell a seat something
about a card it may not see (one activated face down, say).

>>> from domain.ccg.events import CardDrawn
>>> before = {"cards": {"c1": {"known": ["A"]}}}
>>> knowledge(before, before, CardDrawn(player="A", card="c1"))
{'c1': ['A']}
>>> resolving = {"cards": {"c1": {"known": ["A"]}, "h": {"known": ["A", "B"]}},
...              "stack": [{"card": "h"}]}
>>> knowledge(resolving, resolving, CardDrawn(player="A", card="c1", unchecked=True))
{'c1': ['A'], 'h': ['A', 'B']}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.events import Event
from domain.fold import State


def knowledge(before: State, after: State, event: Event) -> dict[str, list[str]]:
    """``{card_id: [seats that may see it]}`` for every card ``event`` names (and, for an
    ``unchecked`` event, the card whose mark it carries: :func:`marked_card`)."""
    ids = event.card_ids()
    marked = marked_card(before, after, event, ids)
    if marked is not None:
        ids = [*ids, marked]
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


def marked_card(before: State, after: State, event: Event, named: Sequence[str]) -> str | None:
    """The card an ``unchecked`` event carries the mark of when the event does not name it:
    the resolving ability's card (the top of a ruleset's ``stack``, entries ``{"card", ...}``,
    before the event, else after it). ``None`` for an event without the mark, or one that names
    the card on top of the stack (it put the card there, or resolved it). ``named``: the
    event's ``card_ids()``."""
    if not event.unchecked:
        return None
    ids = set(named)
    tops = [
        str(stack[-1]["card"])
        for stack in (before.get("stack"), after.get("stack"))
        if stack and isinstance(stack[-1], Mapping) and stack[-1].get("card") is not None
    ]
    if not tops or ids.intersection(tops):
        return None
    return tops[0]
