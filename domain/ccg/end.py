"""The end of the game (docs/rules.md A.13): eliminations, the winner, conceding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.ccg import events as ev
from domain.ccg.state import SEATS

if TYPE_CHECKING:
    from domain.ccg.decision import Command, Decision


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


def decide_concede(decision: Decision, command: Command) -> None:
    decision.require(
        decision.state["status"] in ("setup", "playing"), "command/game_over", "the game is over"
    )
    seat = decision.seat
    decision.emit(ev.PlayerConceded, player=seat)
    decision.emit(ev.PlayerEliminated, by="rules", player=seat, reason="concede")
    end_if_decided(decision)
