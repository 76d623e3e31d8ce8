"""The stack and the response window (docs/rules.md A.11, A.14): resolving the newest ability,
passing priority, and the rules going on where they stopped once the stack is empty."""

from __future__ import annotations

from typing import Any

from domain.ccg import events as ev
from domain.ccg.abilities import (
    check_targets,
    filters_to_name,
    step_possible,
    targets_of,
)
from domain.ccg.decision import Command, Decision, check_eliminations, end_if_decided
from domain.ccg.fights import after_card_left, cheat_check, deal_announced, finish_fight, strike
from domain.ccg.state import SEATS
from domain.ccg.turn import continue_cooldown, continue_warmup, deal_bleeding


def controller_only(decision: Decision, top: dict[str, Any], message: str) -> None:
    """Only the controller of the newest ability ends it or aims it: ``rule/not_your_ability``,
    and refused in record mode too (the other seat cannot; docs/rules.md "Record mode")."""
    decision.check(top["player"] == decision.seat, "rule/not_your_ability", message, "A.11")
    decision.require(top["player"] == decision.seat, "command/not_your_ability", message)


def decide_resolve(decision: Decision, command: Command) -> None:
    s = decision.state
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    decision.require(bool(s["stack"]), "command/nothing_to_resolve", "nothing is resolving")
    top = s["stack"][-1]
    controller_only(decision, top, "the controller of the newest ability resolves it")
    outcome = "canceled" if top["canceled"] else "resolved"
    plan = top.get("plan")
    left = [] if plan is None or top["canceled"] else plan[int(top.get("done") or 0) :]
    deck = s["seats"][top["player"]]["zones"]["deck"]
    if left:
        outcome = "partial"
        # The next effect a draw from an empty deck: it eliminates (A.13), what follows is moot.
        forced = left[0]["op"] == "draw" and not deck
        doable = [] if forced else [step["op"] for step in left if step_possible(s, top, step)]
        decision.check(
            not doable,
            "rule/effect_skipped",
            f"{s['cards'][top['card']]['def']['name']} still has to {', '.join(doable)} "
            "(only what cannot be done may be left out)",
            "A.11",
        )
    decision.cause = top["ref"]
    empty_deck_draw = any(step["op"] == "draw" for step in left) and not deck
    decision.emit(
        ev.AbilityResolved,
        ref=top["ref"],
        card=top["card"],
        outcome=outcome,
        unchecked=bool(top.get("unchecked")),
    )
    if empty_deck_draw and not decision.finished:
        # A forced draw from an empty deck eliminates (docs/rules.md A.13, D.13).
        decision.emit(ev.PlayerEliminated, actor="rules", player=top["player"], reason="deck")
        end_if_decided(decision)
    if not decision.state["stack"]:
        check_eliminations(decision)
    after_card_left(decision)
    if not decision.state["stack"]:
        continue_after_stack(decision)


def decide_target(decision: Decision, command: Command) -> None:
    """``target {targets}``: the controller of the triggered ability on top of the stack names
    its targets, before its effects (docs/rules.md D.23: a trigger that requires a target
    targets one when one is available)."""
    s = decision.state
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    decision.require(bool(s["stack"]), "command/nothing_to_target", "no ability is resolving")
    top = s["stack"][-1]
    controller_only(decision, top, "the controller of the triggered ability names its targets")
    filters = filters_to_name(s, top)
    name = s["cards"][top["card"]]["def"]["name"]
    decision.check(
        bool(filters) and not top.get("done"),
        "rule/no_target_to_name",
        f"{name}'s ability on the stack has no target left to name",
        "D.23",
    )
    targets = targets_of(decision, command)
    if filters:
        check_targets(decision, {"targets": filters}, targets)
    decision.emit(
        ev.TriggerTargeted, player=decision.seat, ref=top["ref"], card=top["card"], targets=targets
    )


def continue_after_stack(decision: Decision) -> None:
    """The stack emptied: the rules go on where mandatory triggers stopped them (the end of a
    fight, the warmup after reckoning, the cooldown after a level gain; docs/rules.md A.8, A.9
    step 8)."""
    s = decision.state
    if decision.finished:
        return
    fight = s.get("fight")
    if fight is not None and fight.get("stage") == "ending":
        monster = fight["card"]
        squished = bool(
            monster is not None
            and fight.get("monster")
            and s["cards"][monster]["damage"] >= int(fight["monster"]["life"])
        )
        finish_fight(decision, squished=squished)
        return
    if s.get("phase") == "warmup" and s.get("step") == "reckoning":
        if s.get("window") is None:  # not while a Bleeding's damage waits (D.28)
            continue_warmup(decision, s["active"])
    elif s.get("phase") == "cooldown" and s.get("step") == "level":
        continue_cooldown(decision, s["active"])


def decide_pass(decision: Decision, command: Command) -> None:
    s, seat = decision.state, decision.seat
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    window = s.get("window")
    decision.check(window is not None, "rule/no_window", "no response window is open", "A.11")
    if window is None:  # record mode: the pass is kept, flagged, and closes nothing
        decision.emit(ev.PriorityPassed, player=seat, window="none")
        return
    decision.check(not s["stack"], "rule/ability_resolving", "resolve the ability first", "A.11")
    decision.check(seat not in window["passed"], "rule/already_passed", "already passed", "A.14")
    decision.emit(ev.PriorityPassed, player=seat, window=window["kind"])
    if set(decision.state["window"]["passed"]) >= set(SEATS) and not decision.state["stack"]:
        kind = window["kind"]
        decision.emit(ev.ResponseWindowClosed, actor="rules", window=kind)
        if kind == "cost":
            cheat_check(decision)
        elif kind == "hire":
            strike(decision)
        elif kind == "damage" and window["damage"]["reason"] == "bleeding":
            deal_bleeding(decision, window["damage"])
        elif kind == "damage":
            deal_announced(decision, window["damage"])
