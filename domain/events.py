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

from collections.abc import Mapping
from dataclasses import dataclass, fields
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
    """Class decorator: make ``cls`` loadable by :func:`event_from_dict` under its name."""
    EVENT_TYPES[cls.__name__] = cls
    return cls


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
