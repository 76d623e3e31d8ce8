"""Rulesets, found by name the way python-chess finds variants (``find_variant``).

>>> find_ruleset("munchkin-ccg").name
'munchkin-ccg'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from domain.errors import InvalidCommand
from domain.events import Event
from domain.state import State


class Ruleset(Protocol):
    """What every ruleset offers: create, decide, evolve/replay and the legal commands."""

    name: str
    rules_version: str
    #: Every seat name this ruleset may use, in seating order; a game has the first N of them.
    seat_names: tuple[str, ...]
    min_seats: int
    max_seats: int

    def create(self, spec: Mapping[str, Any]) -> list[Event]: ...

    def decide(self, state: State, command: Mapping[str, Any]) -> list[Event]: ...

    def evolve(self, state: State, event: Event) -> State: ...

    def replay(self, events: list[Event]) -> State: ...

    def legal_commands(self, state: State, seat: str) -> list[dict[str, Any]]: ...


RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    RULESETS[ruleset.name] = ruleset
    return ruleset


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; raises :class:`InvalidCommand` (``request/unknown_ruleset``)."""
    if not RULESETS:
        from domain.rules import ccg  # noqa: F401  (registers itself)
    try:
        return RULESETS[name]
    except KeyError:
        raise InvalidCommand(
            "request/unknown_ruleset",
            f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}",
        ) from None
