"""A drawn card told by its name (docs/rules.md E.4): what a table that deals its own cards
says of a draw, made into the id the rules decide with.

In a table-dealt game (the default: not ``"dealing": "server"``) a draw is of a real card, and
the command names it by id (``kick_door {card}``, ``loot {card}``, the listen too,
``take_treasure {cards}``, ``deal {doors, treasures}``). The ids of a deck's cards are known to
no seat (A.4, B.1), so whoever records the draw may name each card by what is printed on it
instead: ``{"name": "Sample Grumpy Toad"}``, in a list field one such object per card.
:func:`resolve_names` gives the command back with each of them replaced by the id of a card of
that name in the deck the command draws from. A table-dealt deck has no order, so which copy of
a name is drawn makes no difference: the lowest id (sorted) not already named by the same
field. A deck holding fewer cards than the draw takes is rebuilt from its discards by the rules
(B.1, ``combat.drawable``): a name is then looked for in the deck first, then in its discards.

``decide`` never sees a name: this runs before it (the service's record path), and the events
hold ids as always. Who may name cards is the service's to say (the table and the judge, who
see every hand: a refusal says what is left in a deck); a server-dealt game takes no card at
all (E.1), names included: :func:`resolve_names` leaves its commands as they are, for the rules
to refuse. :func:`wanted` is what ``GET /legal`` tells the table of a draw it offers without
its cards: which deck, how many.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import fair
from domain.classic.turns import DEAL, loot_deck
from domain.errors import ImpossibleCommand, InvalidCommand
from domain.fold import State

#: The commands that draw from a deck, and their fields naming the cards drawn.
DRAWS: dict[str, tuple[str, ...]] = {
    "kick_door": ("card",),
    "loot": ("card",),
    "take_treasure": ("cards",),
    "deal": ("doors", "treasures"),
}
#: The fields that take a list of cards; the others take one.
LISTS = frozenset({"cards", "doors", "treasures"})


def is_name(value: Any) -> bool:
    """Whether ``value`` names a card by its name (``{"name": ...}``) rather than by id.

    >>> is_name({"name": "Sample Grumpy Toad"}), is_name("d0"), is_name(["d0"])
    (True, False, False)
    """
    return isinstance(value, Mapping) and "name" in value


def named_fields(command: Mapping[str, Any]) -> list[str]:
    """The fields of a draw ``command`` that name a card by its name (none for any other).

    >>> named_fields({"type": "deal", "doors": [{"name": "X"}, "d1"], "treasures": ["t0"]})
    ['doors']
    >>> named_fields({"type": "play", "card": {"name": "X"}})
    []
    """
    out = []
    for field in DRAWS.get(str(command.get("type")), ()):
        value = command.get(field)
        if any(is_name(v) for v in (value if isinstance(value, list) else [value])):
            out.append(field)
    return out


def deck_of(state: State, kind: str, field: str) -> str:
    """The deck a draw of ``kind`` takes the cards of ``field`` from, in ``state``."""
    if field == "doors" or kind == "kick_door":
        return "door"
    if field == "treasures" or kind == "take_treasure":
        return "treasure"
    return loot_deck(state)  # a loot: the listen's Door, a Door, or a Treasure (B.4, B.15)


def _key(name: str) -> str:
    """A name as compared: case and runs of spaces do not count.

    >>> _key("  sample  GRUMPY toad ") == _key("Sample Grumpy Toad")
    True
    """
    return " ".join(name.split()).casefold()


def _name_of(entry: Mapping[str, Any], where: str) -> str:
    name = entry.get("name")
    if set(entry) != {"name"} or not isinstance(name, str) or not name.strip():
        raise InvalidCommand(
            "request/invalid_card_name",
            'a card told by its name is {"name": "<the name printed on it>"}, nothing else',
            {where: ["not a card's name"]},
        )
    return name


def resolve_names(state: State, command: Mapping[str, Any]) -> dict[str, Any]:
    """``command`` with each card it draws by name (``{"name": ...}``) replaced by the id of a
    card of that name in the deck it draws from, in a table-dealt game (the module's
    docstring). None left: ``command/card_not_there``, naming the deck. A server-dealt game's
    command is given back as it is (the rules refuse any card it names, E.1)."""
    out = dict(command)
    fields = named_fields(command)
    if not fields or fair.server_deals(state):
        return out
    cards = state["cards"]
    for field in fields:
        deck = deck_of(state, str(command["type"]), field)
        value = command[field]
        entries = list(value) if isinstance(value, list) else [value]
        pile = sorted(state["decks"][deck])
        rebuilt = len(pile) < len(entries)  # the rules rebuild the deck from its discards
        if rebuilt:
            pile += sorted(state["decks"][f"{deck}_discard"])
        taken = {e for e in entries if isinstance(e, str)}
        resolved: list[Any] = []
        for index, entry in enumerate(entries):
            if not is_name(entry):
                resolved.append(entry)
                continue
            where = f"{field}.{index}" if field in LISTS else field
            name = _name_of(entry, where)
            key = _key(name)
            cid = next(
                (c for c in pile if c not in taken and _key(cards[c]["def"]["name"]) == key), None
            )
            if cid is None:
                place = f"the {deck} deck" + (" or its discards" if rebuilt else "")
                raise ImpossibleCommand(
                    "command/card_not_there", f"no card named {name!r} left in {place}"
                )
            taken.add(cid)
            resolved.append(cid)
        out[field] = resolved if isinstance(value, list) else resolved[0]
    return out


def wanted(state: State, command: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """What a draw ``command`` offered without its cards (``GET /legal``) wants told, in a
    table-dealt game: ``{field: {"deck"}}`` for a field of one card, ``{field: {"deck",
    "count"}}`` for a list of ``count`` cards; empty for any other command, a draw that names
    its cards and a server-dealt game. Only how many, and from which deck: never which cards
    the deck holds."""
    kind = str(command.get("type"))
    if fair.server_deals(state):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for field in DRAWS.get(kind, ()):
        if field in command:
            continue
        deck = deck_of(state, kind, field)
        if field not in LISTS:
            out[field] = {"deck": deck}
        elif kind == "deal":
            out[field] = {"deck": deck, "count": DEAL}
        else:  # the Treasure a won combat gives, as many as both piles still hold (D.C4)
            decks, combat = state["decks"], state.get("combat") or {}
            held = len(decks[deck]) + len(decks[f"{deck}_discard"])
            out[field] = {"deck": deck, "count": min(int(combat.get("treasures", 0)), held)}
    return out
