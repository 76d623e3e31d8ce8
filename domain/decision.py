"""A decision in progress, the same for every ruleset (docs/DESIGN.md): the evolving state, the
steps so far, the violations, the checks, how events are emitted and the cards read.

A command is decided by one ``decide_*`` function of its ruleset working on a decision (a
:class:`DecisionCore`, or a ruleset's subclass of it). ``check`` is a rule of the game: strict
mode raises :class:`RuleViolation`, record mode flags the events that follow with its code
(``violation``); ``require`` is a physical possibility and always raises
:class:`ImpossibleCommand`; ``refuse`` is a rule whose breach the table could not be left in.

:meth:`DecisionCore.emit` folds each event at once: the decision's state is always the state
after the events so far, and :attr:`DecisionCore.steps` pairs every event with it (the game
stores the events and adopts those states, folding nothing again). A ruleset adds to it through
two hooks: :meth:`~DecisionCore.stamp` (what a seat's own event carries besides its fields) and
:meth:`~DecisionCore.settle` (a state check after each event). The readers of a command's
arguments are in :mod:`domain.arguments`.

>>> d = DecisionCore({"mode": "record"}, {"seat": "A"})
>>> d.check(False, "rule/x", "a broken rule", "A.1"); d.violations
['rule/x']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain import fair
from domain.errors import ImpossibleCommand, RuleViolation
from domain.events import Event
from domain.fold import State, evolve
from domain.ruleset import Step

Command = Mapping[str, Any]


class DecisionCore:
    """One decision in progress: the evolving state, the steps so far, the violations."""

    __slots__ = ("cause", "command", "seat", "state", "steps", "strict", "violations")

    def __init__(self, state: State, command: Command) -> None:
        self.state = state
        self.command = command
        self.steps: list[Step] = []
        self.violations: list[str] = []
        self.strict = state.get("mode", "strict") != "record"
        self.seat: str = str(command.get("seat", "rules"))
        self.cause: int | None = None

    # -- checking --------------------------------------------------------------------------

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

    def refuse(self, ok: bool, code: str, message: str, section: str) -> None:
        """A rule whose breach the table could not be left in: strict mode raises
        ``rule/<code>``, record mode refuses ``command/<code>`` (docs/rules.md, Record mode)."""
        if ok:
            return
        self.check(False, f"rule/{code}", message, section)
        self.require(False, f"command/{code}", message)

    # -- emitting --------------------------------------------------------------------------

    def emit(self, cls: type[Event], *, actor: str | None = None, **fields: Any) -> None:
        """Fold one event of class ``cls`` with ``fields``, unless the game is over.

        The event is the command's seat's, flagged with the violations so far (and what
        :meth:`stamp` adds); ``actor`` names who else acts (``actor="rules"`` for the engine's
        own steps), unflagged. The first event of a decision is the cause of the others.
        (Not ``by``: classic events have a field of that name.)
        """
        state = self.state
        if state.get("status") == "finished":
            return
        if actor is None:
            seat = self.seat
            violation = ",".join(self.violations) if self.violations else None
            self.stamp(fields)
        else:
            seat, violation = actor or self.seat, None
        event = cls(seat=seat, cause=self.cause, violation=violation, **fields)
        self.state = state = evolve(state, event)
        self.steps.append(Step(event, state))
        if self.cause is None:
            self.cause = state["version"]
        self.settle(cls)

    def stamp(self, fields: dict[str, Any]) -> None:
        """Hook: add to ``fields`` what a seat's own event carries besides (nothing here)."""

    def settle(self, cls: type[Event] | None = None) -> None:
        """Hook: the state check after each event of class ``cls`` (none here)."""

    # -- dealing (docs/rules.md E) -----------------------------------------------------------

    def dealt_by_server(self, command: Command, *, uses: Sequence[str] = ()) -> bool:
        """Whether the server deals this game (``"dealing": "server"``); then a command naming
        a card drawn or a value rolled (any of ``domain.fair.DEALT_FIELDS`` but those it
        ``uses`` for something else) is refused (``rule/server_deals``, docs/rules.md E.1)."""
        if "dealing" not in self.state:
            return False
        fair.refuse_told(command, uses)
        return True

    def deal(self, pile: str, among: Sequence[str], take: int) -> list[str]:
        """Draw ``take`` cards of ``among`` (``pile``'s cards in no known order) by the game's
        key: a :class:`~domain.fair.Dealt` event by the rules, not the cause of what follows."""
        event = fair.dealt_cards(self.state, pile, among, take)
        self._operation(event)
        return list(event.cards)

    def roll(self, sides: int = 6, count: int = 1) -> list[int]:
        """Roll ``count`` dice of ``sides`` faces by the game's key (as :meth:`deal`)."""
        event = fair.dealt_dice(self.state, sides, count)
        self._operation(event)
        return list(event.values)

    def _operation(self, event: Event) -> None:
        self.state = evolve(self.state, event)
        self.steps.append(Step(event, self.state))

    @property
    def finished(self) -> bool:
        return bool(self.state.get("status") == "finished")

    # -- reading the state -----------------------------------------------------------------

    def card(self, cid: str) -> dict[str, Any]:
        """The card ``cid`` of the state (its own dict: read it, never change it), else
        impossible (``command/unknown_card``)."""
        return find_card(self.state, cid)

    def in_zone(self, cid: str, owner: str | None, *zones: str) -> dict[str, Any]:
        """The card (as :meth:`card`), which is in one of ``owner``'s ``zones`` (``owner``
        ``None``: a zone of the table), else impossible (``command/card_not_there``)."""
        card = find_card(self.state, cid)
        if card["owner"] != owner or card["zone"] not in zones:  # the message only when needed
            where = f"seat {owner}'s " if owner else "the "
            self.require(
                False,
                "command/card_not_there",
                f"card {cid!r} is not in {where}{' or '.join(zones)}",
            )
        return card


def find_card(state: Mapping[str, Any], cid: str) -> dict[str, Any]:
    """The card ``cid`` of ``state`` (its own dict); :class:`ImpossibleCommand`
    (``command/unknown_card``) when the game has none."""
    card: dict[str, Any] | None = (state.get("cards") or {}).get(cid)
    if card is None:
        raise ImpossibleCommand("command/unknown_card", f"no card {cid!r} in this game")
    return card
