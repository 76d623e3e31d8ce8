"""What every ruleset's decision in progress shares (docs/DESIGN.md): the evolving state, the
steps so far, the violations, and the two kinds of check.

``check`` is a rule of the game: strict mode raises :class:`RuleViolation`, record mode flags
the events that follow with its code (``violation``); ``require`` is a physical possibility and
always raises :class:`ImpossibleCommand`. A ruleset's ``Decision`` adds how it emits events
(each folded at once, so :attr:`DecisionCore.steps` pairs every event with the state after it)
and the readers its decisions share.

>>> d = DecisionCore({"mode": "record"}, {"seat": "A"})
>>> d.check(False, "rule/x", "a broken rule", "A.1"); d.violations
['rule/x']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import ImpossibleCommand, RuleViolation
from domain.fold import State
from domain.ruleset import Step


class DecisionCore:
    """One decision in progress: the evolving state, the steps so far, the violations."""

    __slots__ = ("cause", "command", "seat", "state", "steps", "strict", "violations")

    def __init__(self, state: State, command: Mapping[str, Any]) -> None:
        self.state = state
        self.command = command
        self.steps: list[Step] = []
        self.violations: list[str] = []
        self.strict = state.get("mode", "strict") != "record"
        self.seat: str = str(command.get("seat", "rules"))
        self.cause: int | None = None

    def check(self, ok: bool, code: str, message: str, rule: str) -> None:
        """A rule of the game: raise in strict mode, flag the events in record mode."""
        if ok:
            return
        if self.strict:
            raise RuleViolation(code, message, rule)
        if code not in self.violations:
            self.violations.append(code)

    @staticmethod
    def require(ok: bool, code: str, message: str) -> None:
        """A physical possibility: always raise when it does not hold."""
        if not ok:
            raise ImpossibleCommand(code, message)
