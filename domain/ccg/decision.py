"""A decision in progress, and the readers of a command's arguments.

A command is decided by one ``decide_*`` function (see ``domain.ccg.HANDLERS``) working on a
:class:`Decision`: it checks (``check`` raises :class:`RuleViolation` in strict mode and flags
the events in record mode; ``require`` always raises :class:`ImpossibleCommand`), then emits
events. Each emitted event is folded at once: the decision's state is always the state after
the events so far, and :attr:`Decision.steps` pairs each event with it (the aggregate stores
the events and adopts those states, folding nothing again). After each event the state check
runs (:func:`check_eliminations`, docs/rules.md A.13, D.9).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.ccg import events as ev
from domain.ccg.cards import MAX_NUMBER
from domain.ccg.state import SEATS
from domain.decision import DecisionCore
from domain.errors import InvalidCommand
from domain.fold import State, evolve
from domain.ruleset import Step

Command = Mapping[str, Any]


class Decision(DecisionCore):
    """One decision in progress (:class:`domain.decision.DecisionCore`) and how this ruleset
    emits its events."""

    __slots__ = ("held",)

    def __init__(self, state: State, command: Mapping[str, Any]) -> None:
        super().__init__(state, command)
        #: While set, the state check waits: one atomic event recorded as several stored
        #: events (damage to each Hero at once) is checked once, after all of them (D.9).
        self.held = False

    # -- emitting -------------------------------------------------------------------------

    def emit(self, cls: type[ev.Event], *, by: str | None = None, **fields: Any) -> None:
        """Fold one event (``by="rules"`` for engine steps) and run the state check after it:
        after every event, while an ability resolves too (docs/rules.md D.9)."""
        state = self.state
        if state.get("status") == "finished":
            return
        if by is None:
            seat = self.seat
            violation = ",".join(self.violations) if self.violations else None
            if "unchecked" not in fields:
                stack = state.get("stack")
                if stack and stack[-1]["player"] == seat and stack[-1].get("unchecked"):
                    fields["unchecked"] = True  # an effect of an unchecked card (docs/cards.md)
        else:
            seat, violation = by or self.seat, None
        event = cls(seat=seat, cause=self.cause, violation=violation, **fields)
        self.state = state = evolve(state, event)
        self.steps.append(Step(event, state))
        if self.cause is None:
            self.cause = state["version"]
        if not self.held and cls is not ev.PlayerEliminated and cls is not ev.GameEnded:
            check_eliminations(self)

    @property
    def finished(self) -> bool:
        return bool(self.state.get("status") == "finished")


# ============================================================================ the state check


def check_eliminations(decision: Decision) -> None:
    """docs/rules.md A.13 / D.9: a Hero whose damage reaches its life is out; last Hero wins."""
    s = decision.state
    if s.get("status") != "playing":
        return
    seats, cards = s["seats"], s["cards"]
    out = []
    for seat in SEATS:  # after every event: kept lean
        st = seats[seat]
        if not st["eliminated"]:
            hero = cards[st["hero"]]
            if hero["damage"] >= (hero["def"].get("life") or 0):
                out.append(seat)
    if not out:
        return
    for seat in out:
        decision.emit(ev.PlayerEliminated, by="rules", player=seat, reason="life")
    end_if_decided(decision)


def end_if_decided(decision: Decision) -> None:
    alive = [seat for seat in SEATS if not decision.state["seats"][seat]["eliminated"]]
    if len(alive) <= 1:
        if decision.state.get("fight") is not None:  # an elimination mid-fight ends the fight too
            decision.emit(ev.FightEnded, by="rules", outcome="game_over")
        decision.emit(ev.GameEnded, by="rules", winner=alive[0] if alive else "draw")


# ============================================================================ arguments


def seat_arg(command: Command) -> str:
    seat = command.get("seat")
    if seat not in SEATS:
        raise InvalidCommand(
            "request/invalid_seat", "'seat' must be 'A' or 'B'", {"seat": ["'A' or 'B'"]}
        )
    return str(seat)


def str_arg(command: Command, key: str) -> str:
    value = command.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidCommand(
            "request/missing_field", f"'{key}' is required", {key: ["a non-empty string"]}
        )
    return value


def int_arg(command: Command, key: str, default: int | None = None, lo: int = 0) -> int:
    """A command's whole number ``key`` from ``lo`` to :data:`~domain.ccg.cards.MAX_NUMBER`."""
    value = command.get(key, default)
    if type(value) is not int or not lo <= value <= MAX_NUMBER:
        raise InvalidCommand(
            "request/invalid_number",
            f"'{key}' must be a whole number from {lo} to {MAX_NUMBER}",
            {key: [f"a whole number {lo}..{MAX_NUMBER}"]},
        )
    return value


def face_arg(command: Command, default: str) -> str:
    """A card's ``face``, ``"up"`` or ``"down"`` (``default`` when the command gives none)."""
    face = command.get("face", default)
    if face not in ("up", "down"):
        raise InvalidCommand("request/invalid_face", "'face' must be 'up' or 'down'")
    return str(face)


def ids_arg(command: Command, key: str) -> list[str]:
    value = command.get(key)
    if type(value) is list and not value:  # the usual case (no targets, no discards): quick
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidCommand(
            "request/invalid_list", f"'{key}' must be a list of card ids", {key: ["list of ids"]}
        )
    if len(set(value)) != len(value):
        raise InvalidCommand(
            "request/duplicate_ids", f"'{key}' names a card twice", {key: ["distinct ids"]}
        )
    return list(value)


def card_of(decision: Decision, cid: str) -> dict[str, Any]:
    card = decision.state["cards"].get(cid)
    if card is None:
        decision.require(False, "command/unknown_card", f"no card {cid!r} in this game")
    assert card is not None
    return card


def require_in(decision: Decision, cid: str, seat: str, *zones: str) -> dict[str, Any]:
    """The card exists and is in one of ``seat``'s ``zones`` (else physically impossible)."""
    card = card_of(decision, cid)
    if card["owner"] != seat or card["zone"] not in zones:
        decision.require(
            False,
            "command/card_not_there",
            f"card {cid!r} is not in seat {seat}'s {' or '.join(zones)}",
        )
    return card


def hero_of(s: State, seat: str) -> dict[str, Any]:
    card: dict[str, Any] = s["cards"][s["seats"][seat]["hero"]]
    return card
