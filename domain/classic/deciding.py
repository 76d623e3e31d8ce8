"""Deciding a classic command: the handler of each command type, and :func:`decide`, which
runs it with the checks every command shares (docs/rules.md B). Below :mod:`domain.classic`
and :mod:`domain.classic.moves` (which tries candidate commands with it), so that neither
imports the other inside a function."""

from __future__ import annotations

from collections.abc import Callable

from domain.arguments import seat_arg
from domain.classic import combat, play, turns
from domain.decision import Command, DecisionCore
from domain.errors import ImpossibleCommand
from domain.fold import State
from domain.ruleset import Step, handler_for

HANDLERS: dict[str, Callable[[DecisionCore, Command], None]] = {
    "deal": turns.decide_deal,
    "roll_first": turns.decide_roll_first,
    "ready": turns.decide_ready,
    "kick_door": turns.decide_kick_door,
    "look_for_trouble": turns.decide_look_for_trouble,
    "loot": turns.decide_loot,
    "play": play.decide_play,
    "equip": play.decide_equip,
    "unequip": play.decide_unequip,
    "discard": play.decide_discard,
    "sell": play.decide_sell,
    "trade": play.decide_trade,
    "accept_trade": play.decide_accept_trade,
    "ask_help": combat.decide_ask_help,
    "accept_help": combat.decide_accept_help,
    "decline_help": combat.decide_decline_help,
    "pass": combat.decide_pass,
    "run_away": combat.decide_run_away,
    "chase_away": combat.decide_chase_away,
    "bad_stuff": combat.decide_bad_stuff,
    "take_treasure": combat.decide_take_treasure,
    "give": play.decide_give,
    "charity": turns.decide_charity,
    "loot_body": combat.decide_loot_body,
    "end_turn": turns.decide_end_turn,
    "concede": turns.decide_concede,
}
COMMAND_TYPES = tuple(HANDLERS)
#: What may be recorded while a dead character's body waits to be looted (docs/rules.md B.9).
WHILE_LOOTING = frozenset({"loot_body", "concede"})


def decide(state: State, command: Command) -> list[Step]:
    """The steps ``command`` produces in ``state``, or a :class:`domain.errors.DomainError`."""
    handler = handler_for(state, command, HANDLERS)
    seat = seat_arg(state, command)
    if state["seats"][seat]["eliminated"] is not None:
        raise ImpossibleCommand("command/conceded", f"{seat} has left the game")
    decision = DecisionCore(state, command)
    if state.get("body") is not None and command["type"] not in WHILE_LOOTING:
        decision.check(
            False,
            "rule/body_first",
            f"{state['body']['dead']}'s body is looted first",
            "B.9",
        )
    turns.listen_first(decision, command["type"])  # Listen At The Door (B.15, D.C16)
    handler(decision, command)
    combat.settle(decision)  # a death or a departure may complete the passes (D.C1)
    play.drop_loose_cheats(decision)  # a Cheat! whose Item left is discarded (B.2)
    return decision.steps
