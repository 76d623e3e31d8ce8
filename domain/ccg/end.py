"""The end of the game (docs/rules.md A.13): conceding. Eliminations and the winner are checked
after every event, by :meth:`domain.ccg.decision.Decision.settle` (``check_eliminations``)."""

from __future__ import annotations

from domain.ccg import events as ev
from domain.ccg.decision import Command, Decision, end_if_decided


def decide_concede(decision: Decision, command: Command) -> None:
    decision.require(
        decision.state["status"] in ("setup", "playing"), "command/game_over", "the game is over"
    )
    seat = decision.seat
    decision.emit(ev.PlayerConceded, player=seat)
    decision.emit(ev.PlayerEliminated, actor="rules", player=seat, reason="concede")
    end_if_decided(decision)
