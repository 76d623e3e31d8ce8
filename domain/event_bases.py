"""Bases that give the events of every family the fields they share, in the order they are stored.

A family's event extends one (``class CardDrawn(PlayerCardEvent)``) and adds its own fields
after these; a base is never stored itself, and stored shapes never change (domain.events), so
neither do these bases' fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.events import Event, event_dataclass


@event_dataclass
class PlayerEvent(Event):
    """The fields of the many events about one seat and nothing else (a family's ``@event``
    classes extend it; it is stored under no name of its own)."""

    player: str


@event_dataclass
class PlayerCardEvent(Event):
    """The fields of the many events about a seat and one card it holds (stored under no
    name of its own, like :class:`PlayerEvent`)."""

    player: str
    card: str
    card_fields = ("card",)


@event_dataclass
class PlayerCardsEvent(Event):
    """The fields of the events about a seat and several cards of its (stored under no name
    of its own, like :class:`PlayerEvent`)."""

    player: str
    cards: list[str]
    card_fields = ("cards",)


@event_dataclass
class CreatingEvent(Event):
    """The fields a ruleset's creating event (a game's first) starts with: the game's header,
    which the fold copies into the state as it is (``domain.fold.game_header``). The event
    itself is the family's (``GameCreated``, ``ClassicGameCreated``), with its own fields after
    these, then ``labels`` (a dict, by default empty) and ``dealing`` last."""

    game_id: str
    ruleset: str
    rules_version: str
    mode: str
    format: str

    #: Version 2 adds ``dealing``, each family's creating event's last field (a server-dealt
    #: game, issue #25; ``None``: dealt by the table).
    class_version = 2

    @staticmethod
    def upcast_v1_v2(values: dict[str, Any]) -> dict[str, Any]:
        """Every game stored before version 2 was dealt by the table."""
        return {**values, "dealing": None}

    def to_dict(self) -> dict[str, Any]:
        """As every event's, but a table-dealt game's (``dealing`` is ``None``) is stored in
        version 1's shape, byte for byte as before server dealing existed (issue #25): version
        2 only adds ``dealing``, and its upcaster reads a version 1 event as table-dealt."""
        out = Event.to_dict(self)
        if out.get("dealing", False) is None:
            del out["dealing"]
            out["v"] = 1
        return out


def creating_fields(
    spec: Mapping[str, Any], *, ruleset: str, rules_version: str, mode: str, fmt: str
) -> dict[str, Any]:
    """The fields every family's creating event takes from a creation ``spec`` besides its own:
    the header (:class:`CreatingEvent`'s), ``labels`` and ``dealing`` (``domain.fair``)."""
    return {
        "seat": "rules",
        "game_id": str(spec.get("game_id", "")),
        "ruleset": ruleset,
        "rules_version": rules_version,
        "mode": mode,
        "format": fmt,
        "labels": dict(spec.get("labels") or {}),
        "dealing": spec.get("dealing"),
    }
