"""Rulesets: what a game family offers, found by name like python-chess's ``find_variant``.

A ruleset *decides*: given a state and a command it returns the :class:`Step` s that follow,
each an event with the state right after it, computed once while deciding (the aggregate
stores the events and adopts the states). It registers the fold handlers of its own events
with :func:`domain.fold.handles`, and itself with :func:`register`.

>>> find_ruleset("munchkin-ccg").seat_names
('A', 'B')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from domain.envelope import Record
from domain.errors import InvalidCommand
from domain.events import Event
from domain.fold import State


@dataclass(frozen=True, slots=True)
class Step:
    """One decided event and the state right after it."""

    event: Event
    state: State


class Ruleset(Protocol):
    """What every ruleset offers: creation, decisions, legal commands, the judge's corrections."""

    name: str
    rules_version: str
    #: Every seat name this ruleset may use, in seating order.
    seat_names: tuple[str, ...]
    min_seats: int
    max_seats: int
    command_types: tuple[str, ...]
    #: Per-seat creation fields that hold cards: ``"one"`` card or ``"many"``.
    card_fields: Mapping[str, str]

    def create(self, spec: Mapping[str, Any]) -> list[Step]:
        """The steps that set a game up from ``spec`` (seats with card ids already given)."""
        ...

    def decide(self, state: State, command: Mapping[str, Any]) -> list[Step]:
        """The steps ``command`` produces in ``state``, or a :class:`domain.errors.DomainError`."""
        ...

    def legal_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        """Concrete commands ``seat`` may send now, each accepted by ``decide`` in strict mode."""
        ...

    def decide_correction(self, state: State, command: Mapping[str, Any]) -> Event:
        """The judge's forced effect for one correction command (no rule checked)."""
        ...

    def backup(
        self, point: State, current: State, later: Sequence[Record]
    ) -> list[tuple[int, list[Step]]]:
        """Undo each event of ``later`` (the records after ``point``), newest first: for every
        version, the steps that restore what it changed, folded from ``current``."""
        ...


RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` findable by its name."""
    RULESETS[ruleset.name] = ruleset
    return ruleset


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; raises :class:`InvalidCommand` (``request/unknown_ruleset``)."""
    try:
        return RULESETS[name]
    except KeyError:
        raise InvalidCommand(
            "request/unknown_ruleset",
            f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}",
        ) from None


def ruleset_of(state: Mapping[str, Any]) -> Ruleset:
    """The ruleset that created the game ``state`` belongs to."""
    return find_ruleset(str(state.get("ruleset")))
