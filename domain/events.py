"""Domain events: immutable facts; the base class, the registry of event types, loading.

Rulesets declare their events by subclassing :class:`Event` and registering them in their
family's namespace (``event = events_of("ccg")``, then ``@event``, which also makes the class
a frozen, slotted, keyword-only dataclass); the Munchkin CCG's are in :mod:`domain.ccg.events`,
classic Munchkin's in :mod:`domain.classic.events`. The shared kernel's (the judge's,
:mod:`domain.judge`) are declared with ``events_of(KERNEL)`` and load in every family. A stored type name is
resolved within the game's family (a ruleset names its ``family``), so families may reuse a
name; a second class under a name taken in the same namespace, or by the kernel, raises
:class:`EventNameTaken` at import time. Every event is a frozen dataclass with three common
fields:

* ``seat`` — who acted: a seat name (``"A"``), ``"rules"`` (the engine) or ``"judge"``;
* ``cause`` — the state version of the event (or ability) that caused it, ``None`` for a
  player's own action;
* ``violation`` — in ``record`` mode, the code of the rule the command broke, else ``None``;
* ``unchecked`` — ``True`` on an event recorded from a card whose text is not encoded
  (docs/cards.md): the engine kept it as told. Stored only when true, so events stored before
  the mark existed keep their exact shape (and their hashes).

Events are stored as ``event.to_dict()`` = ``{"type": ClassName, "v": class_version, ...}``.
Class names are permanent (they are in the hashed bytes of every stored record; a rename would
need a read-time alias). To change a stored shape, raise ``class_version`` and add an
``upcast_v<N>_v<N+1>`` static method; :func:`event_from_dict` applies them in order.

>>> from domain.ccg.events import CardDrawn
>>> e = CardDrawn(player="A", card="c1", seat="A")
>>> event_from_dict(e.to_dict()) == e == event_from_dict(e.to_dict(), family="ccg")
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from types import MemberDescriptorType
from typing import Any, ClassVar, TypeVar, cast, dataclass_transform

from domain.errors import InvalidCommand

Json = Any
"""A JSON value (dict, list, str, int, bool or None)."""


@dataclass_transform(kw_only_default=True, frozen_default=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base class: the fields every event carries. Every subclass is a frozen, slotted,
    keyword-only dataclass (:func:`event_dataclass`), so its fields follow these four in the
    order the class hierarchy declares them, and ``to_dict`` stores them in that order."""

    seat: str = "rules"
    cause: int | None = None
    violation: str | None = None
    unchecked: bool = False

    class_version: ClassVar[int] = 1
    #: Names of fields holding one card id, or a list of card ids (redaction uses them).
    card_fields: ClassVar[tuple[str, ...]] = ()
    #: Fields that are secret while the named card field is hidden from a viewer.
    secret_with: ClassVar[dict[str, str]] = {}

    @property
    def type(self) -> str:
        return type(self).__name__

    def to_dict(self) -> dict[str, Json]:
        out: dict[str, Json] = {"type": type(self).__name__, "v": self.class_version}
        for f in fields(self):
            out[f.name] = getattr(self, f.name)
        if not out["unchecked"]:
            del out["unchecked"]
        return out

    def card_ids(self) -> list[str]:
        """Every card instance id this event names."""
        ids: list[str] = []
        for name in self.card_fields:
            value = getattr(self, name)
            if isinstance(value, str):
                ids.append(value)
            elif isinstance(value, list):
                ids.extend(v for v in value if isinstance(v, str))
            elif isinstance(value, dict):
                ids.extend(k for k in value if k != "hero")
        return ids


E = TypeVar("E", bound=type[Event])


def event_dataclass(cls: E) -> E:
    """``cls`` as a frozen, slotted, keyword-only dataclass: the form of every event class. Used
    alone for a base class that only gives several events the same fields (it is stored under no
    name); :func:`events_of` uses it for the events themselves."""
    return cast(E, dataclass(frozen=True, slots=True, kw_only=True)(cls))


#: The shared kernel's namespace: the events every family uses (the judge's, :mod:`domain.judge`).
KERNEL = "kernel"
#: Every namespace's own event types by stored name: the kernel's and each family's.
NAMESPACES: dict[str, dict[str, type[Event]]] = {KERNEL: {}}
#: Per family, the types a game of that family loads its stored events with: its own and the
#: kernel's (one dict, so a load is one lookup).
_LOADABLE: dict[str, dict[str, type[Event]]] = {}
#: Every event type by stored name, for loads that do not know the game's family; a name that
#: more than one family uses is left out (it loads only with its family, never by a guess).
EVENT_TYPES: dict[str, type[Event]] = {}
#: The family of each registered ruleset, by ruleset name (``domain.ruleset.register``).
RULESET_FAMILIES: dict[str, str] = {}


class EventNameTaken(ValueError):
    """A second event class registered under a stored name already taken in its namespace (or
    in the kernel, whose names every family shares): raised at import time."""


def _add(family: str, cls: type[Event]) -> None:
    """Put ``cls`` in ``family``'s namespace under its name; raises :class:`EventNameTaken`."""
    name = cls.__name__
    spaces = (
        NAMESPACES if family == KERNEL else {f: NAMESPACES.get(f, {}) for f in (family, KERNEL)}
    )
    for where, types in spaces.items():
        taken = types.get(name)
        if taken is not None and taken is not cls:
            raise EventNameTaken(
                f"event type {name!r} of family {family!r} ({cls.__module__}) is already taken "
                f"in {where!r} by {taken.__module__}.{taken.__qualname__}"
            )
    NAMESPACES.setdefault(family, {})[name] = cls
    kernel = NAMESPACES[KERNEL]
    if family == KERNEL:
        for space, types in NAMESPACES.items():
            if space != KERNEL:
                _LOADABLE[space] = {**types, **kernel}
    else:
        _LOADABLE.setdefault(family, dict(kernel))[name] = cls
    users = {id(types[name]): types[name] for types in NAMESPACES.values() if name in types}
    if len(users) == 1:
        EVENT_TYPES[name] = cls
    else:
        EVENT_TYPES.pop(name, None)
    init = slot_init(cls)
    if init is not None:
        cls.__init__ = init  # type: ignore[method-assign]


def register_event(cls: E) -> E:
    """Class decorator: make ``cls`` a kernel event, loadable by :func:`event_from_dict` under
    its name in every family (and give it :func:`slot_init`'s ``__init__``). A family registers
    its own events with :func:`family_events`."""
    _add(KERNEL, cls)
    return cls


def events_of(family: str) -> Callable[[E], E]:
    """The class decorator that declares an event of ``family`` (:data:`KERNEL` for the
    kernel's): makes the class an :func:`event_dataclass` and registers it in the family's
    namespace, e.g. ``event = events_of("classic")`` at the top of a family's events module,
    then ``@event`` on each class. :func:`family_events` (or :func:`register_event`) registers
    a class that is already a dataclass."""
    register = register_event if family == KERNEL else family_events(family)

    def event(cls: E) -> E:
        return register(event_dataclass(cls))

    return event


def family_events(family: str) -> Callable[[E], E]:
    """The class decorator that registers a family's events in its own namespace, e.g.
    ``register_event = family_events("classic")`` at the top of a family's events module.

    Stored names are resolved within the game's family (plus the kernel), so two families may
    each have a ``CardDrawn``; a second class under a name the family or the kernel has taken
    raises :class:`EventNameTaken`."""
    if not family or family == KERNEL:
        raise ValueError(f"an event family needs its own name, not {family!r}")

    def register(cls: E) -> E:
        _add(family, cls)
        return cls

    return register


def bind_ruleset(ruleset: str, family: str) -> None:
    """Record that games of ``ruleset`` load their events in ``family``'s namespace."""
    if family not in NAMESPACES or family == KERNEL:
        raise ValueError(f"ruleset {ruleset!r}: family {family!r} registers no events")
    RULESET_FAMILIES[ruleset] = family


def family_of(ruleset: Any) -> str | None:
    """The event family of the ruleset named ``ruleset``; ``None`` for one not registered."""
    return RULESET_FAMILIES.get(ruleset) if isinstance(ruleset, str) else None


def slot_init(cls: type[Event]) -> Callable[..., None] | None:
    """An ``__init__`` for a frozen, slotted, keyword-only event dataclass that does what the
    generated one does, faster: each field is set through its slot's own descriptor instead
    of ``object.__setattr__`` (a decision builds an event for every state change, so this is
    on every command's path). The instance is the same: same slots, same values, still
    frozen (assigning a field afterwards raises ``FrozenInstanceError``). ``None`` (keep the
    dataclass's) for anything else: a field not in ``__init__`` or positional, a
    ``__post_init__``, or no slot for a field."""
    if "__post_init__" in dir(cls):
        return None
    params, body = [], []
    namespace: dict[str, Any] = {"_MISSING": MISSING}
    for f in fields(cls):
        slot = getattr(cls, f.name, None)
        if not f.init or not f.kw_only or not isinstance(slot, MemberDescriptorType):
            return None
        name = f.name
        namespace[f"_set_{name}"] = slot.__set__
        if f.default is not MISSING:
            namespace[f"_default_{name}"] = f.default
            params.append(f"{name}=_default_{name}")
        elif f.default_factory is not MISSING:
            namespace[f"_factory_{name}"] = f.default_factory
            params.append(f"{name}=_MISSING")
            body.append(f"    if {name} is _MISSING:\n        {name} = _factory_{name}()\n")
        else:
            params.append(name)
        body.append(f"    _set_{name}(self, {name})\n")
    source = "def __init__(self, *, " + ", ".join(params) + "):\n" + ("".join(body) or "    pass\n")
    exec(source, namespace)
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    return init


def event_classes(name: str) -> list[type[Event]]:
    """Every class stored as ``name``, in any namespace (more than one when families reuse it)."""
    return [types[name] for types in NAMESPACES.values() if name in types]


def event_from_dict(data: Mapping[str, Json], family: str | None = None) -> Event:
    """Rebuild an event from its stored dict, upcasting older class versions first. Its type is
    looked up in ``family``'s namespace (and the kernel's) when given, else by name alone."""
    types = _LOADABLE.get(family, EVENT_TYPES) if family is not None else EVENT_TYPES
    try:
        cls = types[data["type"]]
    except KeyError:
        raise InvalidCommand("request/unknown_event", _unknown(data.get("type"), family)) from None
    values = dict(data)
    values.pop("type")
    version = int(values.pop("v", 1))
    while version < cls.class_version:
        values = getattr(cls, f"upcast_v{version}_v{version + 1}")(values)
        version += 1
    return cls(**values)


def _unknown(name: Any, family: str | None) -> str:
    users = sorted(f for f, types in NAMESPACES.items() if name in types)
    if family in _LOADABLE and users:
        return f"event type {name!r} is not of family {family!r} (it is {', '.join(users)}'s)"
    if len(users) > 1:
        return f"event type {name!r} is defined by several families ({', '.join(users)})"
    return f"unknown event type {name!r}"
