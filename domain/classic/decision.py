"""A classic decision in progress, and the readers of a command's arguments.

As in the CCG (``domain.ccg.decision``): ``check`` is a rule of the game (strict mode raises
:class:`RuleViolation`, record mode flags the events with ``violation``), ``require`` a
physical possibility (always :class:`ImpossibleCommand`). Each emitted event is folded at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.classic.cards import MAX_NUMBER
from domain.decision import DecisionCore
from domain.errors import InvalidCommand
from domain.events import Event
from domain.fold import State, evolve
from domain.ruleset import Step

Command = Mapping[str, Any]


class Decision(DecisionCore):
    """One decision in progress (:class:`domain.decision.DecisionCore`) and how this ruleset
    emits its events."""

    __slots__ = ()

    def refuse(self, ok: bool, code: str, message: str, section: str) -> None:
        """A rule whose breach the table could not be left in: strict mode raises
        ``rule/<code>``, record mode refuses ``command/<code>`` (docs/rules.md, Record mode)."""
        if ok:
            return
        self.check(False, f"rule/{code}", message, section)
        self.require(False, f"command/{code}", message)

    def emit(self, cls: type[Event], *, actor: str | None = None, **fields: Any) -> None:
        """Fold one event (``actor="rules"`` for the engine's own steps)."""
        state = self.state
        if state.get("status") == "finished":
            return
        violation = ",".join(self.violations) if (self.violations and actor is None) else None
        event = cls(seat=actor or self.seat, cause=self.cause, violation=violation, **fields)
        self.state = state = evolve(state, event)
        self.steps.append(Step(event, state))
        if self.cause is None:
            self.cause = state["version"]

    # -- readers of the state the decisions share ------------------------------------------

    def card(self, cid: str) -> dict[str, Any]:
        card = self.state["cards"].get(cid)
        if card is None:
            self.require(False, "command/unknown_card", f"no card {cid!r} in this game")
        return dict(card)

    def in_zone(self, cid: str, owner: str | None, *zones: str) -> dict[str, Any]:
        """The card exists and is in one of ``owner``'s ``zones`` (else impossible)."""
        card = self.card(cid)
        if card["owner"] != owner or card["zone"] not in zones:  # the message only when needed
            where = f"seat {owner}'s " if owner else "the "
            self.require(
                False,
                "command/card_not_there",
                f"card {cid!r} is not in {where}{' or '.join(zones)}",
            )
        return card


# ============================================================================ arguments


def str_arg(command: Command, key: str) -> str:
    value = command.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidCommand(
            "request/missing_field", f"'{key}' is required", {key: ["a non-empty string"]}
        )
    return value


def int_arg(command: Command, key: str, lo: int = 0, hi: int = MAX_NUMBER) -> int:
    value = command.get(key)
    if type(value) is not int or not lo <= value <= hi:
        raise InvalidCommand(
            "request/invalid_number",
            f"'{key}' must be a whole number from {lo} to {hi}",
            {key: [f"a whole number {lo}..{hi}"]},
        )
    return value


def ids_arg(command: Command, key: str, *, required: bool = True) -> list[str]:
    value = command.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InvalidCommand(
            "request/invalid_list", f"'{key}' must be a list of card ids", {key: ["list of ids"]}
        )
    if len(set(value)) != len(value):
        raise InvalidCommand(
            "request/duplicate_ids", f"'{key}' names a card twice", {key: ["distinct ids"]}
        )
    return list(value)


def seat_value(state: State, value: Any, key: str) -> str:
    if not isinstance(value, str) or value not in state["seats"]:
        raise InvalidCommand(
            "request/invalid_seat",
            f"'{key}' must be a seat of this game ({', '.join(state['seats'])})",
            {key: [f"one of {', '.join(state['seats'])}"]},
        )
    return value
