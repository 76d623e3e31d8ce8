"""The CCG at time (docs/rules.md F.6, issue #38): the extra turns after time is called and a
game nobody won by then.

MTR 2.5 (End-of-Match Procedure): once time is called, the active player's turn in progress is
turn 0 and five more turns follow; a game with no winner at the end of them is a draw. An event
may set another count (its ``extra_turns`` option).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.ccg import events as ev
from domain.fold import State, evolve
from domain.ruleset import Step

#: The turns after turn 0 (MTR 2.5).
EXTRA_TURNS = 5


def turn_now(state: Mapping[str, Any]) -> int:
    """The turn in progress (0 during setup)."""
    return int(state.get("turn") or 0)


def extra_turns(state: Mapping[str, Any], asked: int | None) -> int:
    return EXTRA_TURNS if asked is None else int(asked)


def time_out(state: State, time_result: str) -> list[Step]:
    """A CCG game is a draw at the end of its extra turns (the MTR's; ``time_result`` is for
    tables of more than two)."""
    del time_result
    ended = ev.GameEnded(seat="rules", winner="draw")
    return [Step(ended, evolve(state, ended))]
