"""The Munchkin Collectible Card Game (docs/rules.md A, indexed in docs/rules.md), as a ruleset.

``decide(state, command)`` checks the command and returns its steps: the events with the state
after each. Steps the rules perform on their own (warmup, the cheating check, hire gold,
strikes, end-of-fight moves, cooldown, eliminations) are emitted too, by the engine
(``seat="rules"``). The modules follow the rules' sections: :mod:`~domain.ccg.setup` (A.7),
:mod:`~domain.ccg.turn` (A.8), :mod:`~domain.ccg.fights` (A.9), :mod:`~domain.ccg.damage`
(A.10), :mod:`~domain.ccg.abilities` (A.11-A.12), :mod:`~domain.ccg.effects` (effect
commands), :mod:`~domain.ccg.stack` (resolving, passing), :mod:`~domain.ccg.end` (A.13),
:mod:`~domain.ccg.moves` (legal commands) and :mod:`~domain.ccg.corrections` (the judge's
corrections, A.14). They import one another one way, every import at the top (tests/test_layers.py).

>>> CCG.name, CCG.rules_version, CCG.seat_names
('munchkin-ccg', 'ccg-2018-07', ('A', 'B'))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.ccg import abilities, effects, end, fights, setup, stack, turn
from domain.ccg.cards import EFFECT_OPS
from domain.ccg.corrections import decide_correction, undo_steps
from domain.ccg.decision import Command, Decision, seat_arg
from domain.ccg.fights import commitment
from domain.ccg.moves import legal_commands
from domain.ccg.state import SEATS
from domain.envelope import Record
from domain.events import Event
from domain.fold import State
from domain.ruleset import Step, handler_for, register

HANDLERS: dict[str, Callable[[Decision, Command], None]] = {
    "draw_opening": setup.decide_draw_opening,
    "roll_first": setup.decide_roll_first,
    "choose_first": setup.decide_choose_first,
    "keep": setup.decide_keep,
    "mulligan": setup.decide_mulligan,
    "draw": turn.decide_draw,
    "play": turn.decide_play,
    "squish": turn.decide_squish,
    "zap": effects.decide_zap,
    "unzap": effects.decide_unzap,
    "activate": abilities.decide_activate,
    "resolve": stack.decide_resolve,
    "cancel": effects.decide_cancel,
    "pass": stack.decide_pass,
    "end_turn": turn.decide_end_turn,
    "concede": end.decide_concede,
    "attack": fights.decide_attack,
    "run_away": fights.decide_run_away,
    "face": fights.decide_face,
    "commit": fights.decide_commit,
    "ready": fights.decide_ready,
    "reveal": fights.decide_reveal,
    "modify_cost": effects.decide_modify_cost,
    "allocate": fights.decide_allocate,
    "damage": effects.decide_damage,
    "heal": effects.decide_heal,
    "steal": effects.decide_steal,
    "take_gold": effects.decide_take_gold,
    "collect": effects.decide_collect,
    "stick": effects.decide_stick,
    "stash": effects.decide_stash,
    "spill": effects.decide_spill,
    "discard": effects.decide_discard,
    "reveal_card": effects.decide_reveal_card,
    "remove": effects.decide_remove,
    "move": effects.decide_move,
    "prevent": effects.decide_prevent,
    "gain_level": effects.decide_gain_level,
    "lose_level": effects.decide_lose_level,
}
#: What may be recorded while an ability resolves (docs/rules.md A.11): its controller's
#: effects and resolution, interrupts, and conceding. Anything else waits for the stack.
WHILE_RESOLVING = frozenset(
    {"activate", "play", "resolve", "pass", "concede"}
    | {command for command, _ in EFFECT_OPS.values()}
)
COMMAND_TYPES = tuple(HANDLERS)


def decide(state: State, command: Command) -> list[Step]:
    """The steps ``command`` produces in ``state``, or a :class:`domain.errors.DomainError`.

    The engine's own steps that follow (warmup, checks, strikes, cooldown, eliminations) are
    included, so the returned list is everything that happens until a player must act again.
    """
    handler = handler_for(state, command, HANDLERS)
    seat_arg(command)
    decision = Decision(state, command)
    if state.get("stack") and command["type"] not in WHILE_RESOLVING:
        decision.check(
            False,
            "rule/ability_resolving",
            f"'{command['type']}' waits until the stack is empty: only interrupts while "
            "something resolves",
            "A.11",
        )
    handler(decision, command)
    return decision.steps


class MunchkinCCG:
    """The Munchkin CCG ruleset (docs/rules.md A), registered as ``munchkin-ccg``."""

    name = setup.NAME
    family = "ccg"
    rules_version = setup.RULES_VERSION
    seat_names: tuple[str, ...] = SEATS
    min_seats = len(SEATS)
    max_seats = len(SEATS)
    command_types: tuple[str, ...] = COMMAND_TYPES
    card_fields: Mapping[str, str] = {"hero": "one", "deck": "many"}

    def create(self, spec: Mapping[str, Any]) -> list[Step]:
        return setup.create(spec)

    def decide(self, state: State, command: Mapping[str, Any]) -> list[Step]:
        return decide(state, command)

    def legal_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        return legal_commands(state, seat)

    def decide_correction(self, state: State, command: Mapping[str, Any]) -> Event:
        return decide_correction(state, command)

    def backup(
        self, point: State, current: State, later: Sequence[Record]
    ) -> list[tuple[int, list[Step]]]:
        return undo_steps(point, current, later)


CCG = MunchkinCCG()
register(CCG)

__all__ = ["CCG", "COMMAND_TYPES", "HANDLERS", "SEATS", "commitment", "decide"]
