"""When a seat may act: munchkining actions (docs/rules.md A.8) and the response window (A.11)."""

from __future__ import annotations

from domain.ccg.decision import Decision
from domain.fold import State


def window_open(s: State) -> bool:
    """docs/rules.md A.11 / D.1, D.28: open once the active player's unzap step is complete
    (the reckoning, the draw, munchkining), closed in cooldown."""
    if s.get("status") != "playing":
        return False
    return s["phase"] == "munchkining" or (
        s["phase"] == "warmup" and s["step"] in ("reckoning", "draw")
    )


def check_turn(decision: Decision, seat: str) -> None:
    """Munchkining actions: the active player, in munchkining, outside a fight (docs/rules.md A.8)."""
    s = decision.state
    decision.check(s["active"] == seat, "rule/not_your_turn", "only the active player may", "A.8")
    decision.check(
        s["phase"] == "munchkining", "rule/wrong_phase", "only during munchkining", "A.8"
    )
    decision.check(s["fight"] is None, "rule/fight_in_progress", "a fight is in progress", "A.9")
    decision.check(
        not s["stack"], "rule/ability_resolving", "an ability is still resolving", "A.11"
    )
