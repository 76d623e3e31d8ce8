"""Games holding what issue #13 added to the log, for the export, view and leak tests: mandatory
triggers (``AbilityTriggered``), damage announced before it is dealt and prevented
(``DamageAnnounced``, ``DamagePrevented``), events marked ``unchecked`` (cards whose text is
not encoded) and ``custom`` cards (a casual game's own).

:func:`marked_spec` is a casual ``create`` spec whose decks are made of the sample cards with
mandatory triggers (Hired:, Survivor:, reckoning, end of fight) and Prevent, plus cards made
unchecked on purpose: seat A's Hero (its zap is recorded as told) and a custom Tavern that is
not the catalog's (``HOME_BREW``, ``abilities: null``, ``custom: true``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from domain.ccg import events as ev
from tests.builders import WARRIOR, RandomGame, game_spec

#: A custom card (docs/cards.md): not the catalog's, its text not encoded.
HOME_BREW = "Home Brew Tavern"
#: Sample cards whose abilities the engine triggers or that prevent damage, and a few others.
DECK = [
    "Sample Goblin Horde",
    "Sample Pickpocket Imp",
    "Sample Grave Moth",
    "Sample Toll Bridge",
    "Sample War Drummer",
    "Sample Tin Shield",
    "Sample Shifty Henchman",
    "Sample Plant Pot",
    "Sample Loyal Squire",
    "Sample Tavern",
] * 4
#: ``changes`` for :func:`tests.builders.game_spec`: A's Hero unchecked, the Tavern custom.
CHANGES = {
    WARRIOR: {"abilities": None},
    "Sample Tavern": {"abilities": None, "custom": True},
}
#: The event types a marked game is made to hold.
NEW_EVENTS = (ev.AbilityTriggered, ev.DamageAnnounced, ev.DamagePrevented)


def marked_spec(
    seed: int, *, unique_names: Iterable[str] = (), mode: str = "strict"
) -> dict[str, Any]:
    """A casual game's spec with triggers, Prevent, unchecked and custom cards (module doc)."""
    spec = game_spec(
        seed,
        mode=mode,
        fmt="casual",
        decks={"A": DECK, "B": DECK},
        changes=CHANGES,
        unique_names=unique_names,
    )
    for seat in spec["seats"]:
        for card in seat["deck"]:
            card["name"] = card["name"].replace("Sample Tavern", HOME_BREW)
    return spec


def marked_game(seed: int, **options: Any) -> RandomGame:
    """A random legal game (both seats' ``legal_commands``) of :func:`marked_spec`, played out."""
    game = RandomGame(seed=seed, spec=marked_spec(seed, **options))
    game.run()
    return game


def holds_everything(events: Sequence[ev.Event]) -> bool:
    """Whether ``events`` hold each new event type, an ``unchecked`` event and a custom card."""
    created = events[0]
    assert isinstance(created, ev.GameCreated)
    custom = any(c.get("custom") for s in created.seats for c in [s["hero"], *s["deck"]])
    return (
        custom
        and all(any(isinstance(e, cls) for e in events) for cls in NEW_EVENTS)
        and any(e.unchecked for e in events)
    )
