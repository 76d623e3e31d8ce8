"""The generic fold: ``evolve(state, event)`` for every ruleset, and the helpers built on it.

Each ruleset registers, per event class, a handler that changes a :class:`CopyOnWriteState`
(``@handles(CardDrawn)``); ``evolve`` finds the handler of the event's class (or of its nearest
base class, so a judge's ``JudgeHealed`` folds like the ``Healed`` it extends), runs it and
counts the version. An event class without a handler changes nothing but the version.

The state is plain JSON data, so a snapshot stored as JSON and a replay from scratch give
identical states. ``evolve`` never mutates its input: it copies only the containers an event
touches, so its cost does not grow with the game. It never validates and never raises on an
event the rules produced: events are facts.

>>> from domain.ccg.events import GameEnded
>>> s = evolve(initial_state(), GameEnded(winner="draw"))
>>> s["version"], s["winner"]
(1, 'draw')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.event_bases import CreatingEvent
from domain.events import RULESET_FAMILIES, Event, event_from_dict, family_of

State = dict[str, Any]
Handler = Callable[[Any, "CopyOnWriteState"], None]

_HANDLERS: dict[type[Event], Handler] = {}
#: Handler found for each event class (its own or a base class's), filled on first use.
_RESOLVED: dict[type[Event], Handler | None] = {}

#: The shape of the state a fold gives. Raise it when the same events fold to a different state
#: (new state keys, a changed reading): snapshots taken by an older fold are then stale, and a
#: game is folded from its events instead (adapters.eventstore; version 2: abilities as data;
#: version 3: the deck's known order, the CCG seats' ``deck_known_top``/``deck_known_bottom``;
#: a Flaunt card used from the hand is known to every seat; version 4: the classic table's
#: ``cheats`` and ``received``, a classic combat's ``backstabs`` and ``forced``; version 5: the
#: classic table's ``got``, the cards just received this turn; version 6: the classic table's
#: ``spoils``, a helped kill's Treasure the player may give its helper, and a CCG stack entry's
#: ``prevented``, the damage a Prevent that interrupted it stops, docs/rules.md D.22).
FOLD_VERSION = 6


def handles(*classes: type[Event]) -> Callable[[Handler], Handler]:
    """Register the decorated function as the fold handler of ``classes``."""

    def register(handler: Handler) -> Handler:
        for cls in classes:
            _HANDLERS[cls] = handler
        _RESOLVED.clear()
        return handler

    return register


def _handler_for(cls: type[Event]) -> Handler | None:
    try:
        return _RESOLVED[cls]
    except KeyError:
        found = next((_HANDLERS[k] for k in cls.__mro__ if k in _HANDLERS), None)
        _RESOLVED[cls] = found
        return found


class CopyOnWriteState:
    """A new state under construction from an old one: each container it hands out (a seat,
    one of its zones, a card, a top-level value) is copied on first access and at most once
    per event, so the old state is never changed.

    Works on the state layout every ruleset shares: ``seats[seat]["zones"][zone]`` and
    ``cards[card_id]``.
    """

    __slots__ = ("_done", "_tables", "state")

    def __init__(self, state: State) -> None:
        self.state: State = dict(state)
        #: Marks of what this event has copied already (the zones, the top-level values; a
        #: ruleset may add its own).
        self._done: set[Any] = set()
        #: Per table (``seats``, ``cards``): its copy in :attr:`state` and the keys whose
        #: entries are copied in it.
        self._tables: dict[str, tuple[dict[str, Any], set[str]]] = {}

    def _entry(self, table: str, key: str) -> dict[str, Any]:
        """``state[table][key]`` (``table``: ``seats`` or ``cards``), copied the first time,
        and ``state[table]`` with it."""
        found = self._tables.get(table)
        if found is None:
            found = self._tables[table] = (dict(self.state[table]), set())
            self.state[table] = found[0]
        entries, copied = found
        if key in copied:
            result: dict[str, Any] = entries[key]
            return result
        copied.add(key)
        result = entries[key] = dict(entries[key])
        return result

    def seat(self, seat: str) -> dict[str, Any]:
        return self._entry("seats", seat)

    def zone(self, seat: str, zone: str) -> list[str]:
        key = ("zone", seat, zone)
        st = self.seat(seat)
        if key not in self._done:
            if ("zones", seat) not in self._done:
                self._done.add(("zones", seat))
                st["zones"] = dict(st["zones"])
            self._done.add(key)
            st["zones"][zone] = list(st["zones"][zone])
        result: list[str] = st["zones"][zone]
        return result

    def card(self, cid: str) -> dict[str, Any]:
        return self._entry("cards", cid)

    def once(self, mark: Any) -> bool:
        """True the first time ``mark`` (any hashable) is asked for in this event: a ruleset's
        own copy-once record, for containers this class does not hand out (e.g. a deck list)."""
        if mark in self._done:
            return False
        self._done.add(mark)
        return True

    def top(self, key: str) -> Any:
        """A copied top-level container (a dict or a list, e.g. ``fight`` or ``stack``)."""
        if key not in self._done:  # a top-level key: the other marks are tuples
            self._done.add(key)
            value = self.state[key]
            self.state[key] = dict(value) if isinstance(value, dict) else list(value)
        return self.state[key]


#: The fields of :class:`domain.event_bases.CreatingEvent`, each a state key of the same name.
GAME_HEADER = ("game_id", "ruleset", "rules_version", "mode", "format")


def game_header(created: CreatingEvent) -> dict[str, Any]:
    """The state keys a game's creating event sets as it is, in their order: its header fields
    and its ``labels`` (every family's creating event ends with them), the first keys of every
    ruleset's state after ``version`` and ``status`` (docs/DESIGN.md, state conventions)."""
    header = {name: getattr(created, name) for name in GAME_HEADER}
    header["labels"] = dict(getattr(created, "labels", {}))
    dealing = getattr(created, "dealing", None)
    if dealing is not None:  # a server-dealt game (domain.fair; absent from a table's state)
        header["dealing"] = {
            **dealing,
            "contributors": list(dealing["contributors"]),
            "epoch": 0,
            "commitments": {},
            "revealed": {},
            "withheld": [],
            "deadline": None,
            "next_counter": 0,
            "secrets": {},
        }
    return header


def initial_state() -> State:
    """The state before a game's first event."""
    return {"version": 0, "status": "new"}


def evolve(state: State, event: Event) -> State:
    """Return the state after ``event``. Never validates, never raises, never mutates ``state``."""
    draft = CopyOnWriteState(state)
    cls = type(event)
    handler = _RESOLVED[cls] if cls in _RESOLVED else _handler_for(cls)
    if handler is not None:
        handler(event, draft)
    draft.state["version"] = state.get("version", 0) + 1
    return draft.state


def apply_record(state: State, record: Mapping[str, Any]) -> State:
    """The state after a stored record (``{"event": <event dict>, ...}``): the one way to fold
    what a store, an export or a request body holds."""
    data = record["event"]
    ruleset = state.get("ruleset") or data.get("ruleset")  # load_event's lookup, inlined (hot)
    family = RULESET_FAMILIES.get(ruleset) if type(ruleset) is str else None
    return evolve(state, event_from_dict(data, family))


def load_event(state: State, data: Mapping[str, Any]) -> Event:
    """The stored event ``data`` of the game at ``state`` (the state before it), its type looked
    up in the game's family (``domain.events``): the family of the state's ``ruleset``, or of
    the creating event's own ``ruleset`` for a game's first event."""
    return event_from_dict(data, family_of(state.get("ruleset") or data.get("ruleset")))
