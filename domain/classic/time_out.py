"""A classic table at time (docs/rules.md F.6, issue #38): the extra turns after time is
called, and how a game nobody won by then ends.

By default the round of turns in progress finishes, so every seat still in has had as many
turns as the others (the seats after the active one, in seating order, up to the first
player); an event may set a count instead (its ``extra_turns`` option). A game nobody won by
then ends by the event's ``time_result``: ``"draw"`` (every seat still in shares first place)
or ``"highest_level"`` (the highest level still in wins, equals sharing the place); the others
keep their places by level (``domain.classic.hosting.table_places``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.classic import events as ev
from domain.classic.rules import living
from domain.fold import State, evolve
from domain.ruleset import Step


def turn_now(state: Mapping[str, Any]) -> int:
    return int(state.get("turn") or 0)


def extra_turns(state: Mapping[str, Any], asked: int | None) -> int:
    """``asked``, else the turns that finish the round: the living seats after the active one
    up to (not including) the first player; before the first turn, a whole round."""
    if asked is not None:
        return int(asked)
    order = list(state["seats"])
    active, first = state.get("active"), state.get("first")
    if active not in order or first not in order:  # called before the first turn: one round
        return len(living(state))
    still = set(living(state))
    count = 0
    for step in range(1, len(order)):
        seat = order[(order.index(active) + step) % len(order)]
        if seat == first:
            break
        if seat in still:
            count += 1
    return count


def time_out(state: State, time_result: str) -> list[Step]:
    """The table's end at time: every seat still in wins together (``draw``), or those of the
    highest level still in (``highest_level``)."""
    still = living(state)
    if not still:
        return []
    if time_result == "highest_level":
        top = max(int(state["seats"][s]["level"]) for s in still)
        still = [s for s in still if int(state["seats"][s]["level"]) == top]
    won = ev.GameWon(seat="rules", winners=still, reason="time")
    return [Step(won, evolve(state, won))]
