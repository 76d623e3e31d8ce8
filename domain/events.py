"""Domain events: immutable facts; the base class, the registry of event types, loading.

Rulesets declare their events by subclassing :class:`Event` and registering them
(``@register_event``); the Munchkin CCG's are in :mod:`domain.ccg.events`, the judge's in
:mod:`domain.judge`. Every event is a frozen dataclass with three common fields:

* ``seat`` — who acted: a seat name (``"A"``), ``"rules"`` (the engine) or ``"judge"``;
* ``cause`` — the state version of the event (or ability) that caused it, ``None`` for a
  player's own action;
* ``violation`` — in ``record`` mode, the code of the rule the command broke, else ``None``;
* ``unchecked`` — ``True`` on an event recorded from a card whose text is not encoded
  (docs/cards.md): the engine kept it as told. Stored only when true, so events stored before
  the mark existed keep their exact shape (and their hashes).

Events are stored as ``event.to_dict()`` = ``{"type": ClassName, "v": class_version, ...}``.
Class names are permanent. To change a stored shape, raise ``class_version`` and add an
``upcast_v<N>_v<N+1>`` static method; :func:`event_from_dict` applies them in order.

>>> from domain.ccg.events import CardDrawn
>>> e = CardDrawn(player="A", card="c1", seat="A")
>>> event_from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from types import MemberDescriptorType
from typing import Any, ClassVar, TypeVar

from domain.errors import InvalidCommand

Json = Any
"""A JSON value (dict, list, str, int, bool or None)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base class: the fields every event carries."""

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


EVENT_TYPES: dict[str, type[Event]] = {}
E = TypeVar("E", bound=type[Event])


def register_event(cls: E) -> E:
    """Class decorator: make ``cls`` loadable by :func:`event_from_dict` under its name (and
    give it :func:`slot_init`'s ``__init__``)."""
    EVENT_TYPES[cls.__name__] = cls
    init = slot_init(cls)
    if init is not None:
        cls.__init__ = init  # type: ignore[method-assign]
    return cls


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


def event_from_dict(data: Mapping[str, Json]) -> Event:
    """Rebuild an event from its stored dict, upcasting older class versions first."""
    try:
        cls = EVENT_TYPES[data["type"]]
    except KeyError:
        raise InvalidCommand(
            "request/unknown_event", f"unknown event type {data.get('type')!r}"
        ) from None
    values = dict(data)
    values.pop("type")
    version = int(values.pop("v", 1))
    while version < cls.class_version:
        values = getattr(cls, f"upcast_v{version}_v{version + 1}")(values)
        version += 1
    return cls(**values)
