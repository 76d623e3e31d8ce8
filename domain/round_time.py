"""Time in a game (issue #38, docs/rules.md F.6): the kernel's ``TimeCalled`` and the end of a
round's game after its extra turns, each family saying how many and how its game ends.

When an event's table runs out of time, the server records :class:`TimeCalled` in each of its
unfinished games (``service.event_clock``). The family says how many turns follow the one in
progress (``Family.extra_turns``: the CCG's event option ``extra_turns``, 5 by default, the
turn in progress being turn 0 as the MTR's end-of-match procedure counts; classic Munchkin's:
the round of turns finishes, so every seat has had as many turns) and how a game nobody won by
then ends (``Family.time_out``: a CCG draw; a classic table's ``time_result``). After each
command, :func:`time_up` asks whether the last extra turn is over (``Game.execute``'s
decision, ``domain.game``): the family's ending is recorded by the rules then.

Nothing here names a family: they answer through ``domain.family.Family``.
"""

from __future__ import annotations

from typing import Any

from domain.events import KERNEL, Event, events_of
from domain.family import family_of
from domain.fold import CopyOnWriteState, State, evolve, handles
from domain.ruleset import Step, ruleset_of

#: Declares the kernel's events, loadable in every family (domain.events.events_of).
event = events_of(KERNEL)

#: A classic table's results at time (``time_result``).
TIME_RESULTS = ("draw", "highest_level")


@event
class TimeCalled(Event):
    """Time was called at the game's table at ``deadline`` (ISO 8601 UTC, the table's, with
    its extensions): ``extra_turns`` turns follow ``turn`` (the one in progress, turn 0), the
    last being ``last_turn`` (``None``: the family counts no turns, the game just goes on);
    then a game nobody won ends by ``time_result`` (the family's time-out rule)."""

    deadline: str
    extra_turns: int
    turn: int | None
    last_turn: int | None
    time_result: str = "draw"


@handles(TimeCalled)
def _called(e: TimeCalled, draft: CopyOnWriteState) -> None:
    draft.state["time"] = {
        "deadline": e.deadline,
        "extra_turns": e.extra_turns,
        "turn": e.turn,
        "last_turn": e.last_turn,
        "time_result": e.time_result,
    }


def call_time(
    state: State, deadline: str, extra_turns: int | None, time_result: str | None
) -> list[Step]:
    """The :class:`TimeCalled` step of a game when its table's time ran out at ``deadline``
    (``extra_turns``, ``time_result``: the event's options, ``None`` for the family's
    defaults); nothing for a game over, or one time was called in already."""
    if state.get("status") == "finished" or state.get("time") is not None:
        return []
    family = family_of(ruleset_of(state))
    turn = family.turn_now(state)
    extra = family.extra_turns(state, extra_turns)
    called = TimeCalled(
        deadline=deadline,
        extra_turns=extra,
        turn=turn,
        last_turn=None if turn is None else turn + extra,
        time_result=time_result or "draw",
    )
    return [Step(called, evolve(state, called))]


def turns_left(state: State) -> int | None:
    """The turns still to be played after time (the one in progress included); ``None``
    before time, or for a family that counts none."""
    time = state.get("time")
    if time is None or time["last_turn"] is None:
        return None
    turn = family_of(ruleset_of(state)).turn_now(state)
    return max(0, int(time["last_turn"]) - int(turn or 0) + 1)


def time_up(state: State) -> list[Step]:
    """The family's ending of a game whose extra turns are all played and nobody won (the
    rules' steps, after a command's): nothing before, nor once the game is over."""
    time: Any = state.get("time")
    if time is None or time["last_turn"] is None or state.get("status") != "playing":
        return []
    family = family_of(ruleset_of(state))
    turn = family.turn_now(state)
    if turn is None or turn <= int(time["last_turn"]):
        return []
    return family.time_out(state, str(time["time_result"]))
