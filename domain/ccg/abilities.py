"""Abilities and Mischief (docs/rules.md A.11-A.12): the stack, interrupts, priority passes."""

from __future__ import annotations

from typing import Any

from domain.ccg import events as ev
from domain.ccg.decision import Command, Decision, card_of, ids_arg, int_arg, require_in, str_arg
from domain.ccg.end import check_eliminations
from domain.ccg.fights import after_card_left, cheat_check, strike
from domain.ccg.state import SEATS, in_play
from domain.ccg.timing import window_open
from domain.errors import InvalidCommand


def is_interrupt(card: dict[str, Any]) -> bool:
    d = card["def"]
    kw = d["keywords"]
    return bool(
        d.get("subtype") == "interrupt"
        or kw.get("interrupt")
        or kw.get("prevent")
        or kw.get("regenerate")
    )


def targets_of(decision: Decision, command: Command) -> list[str]:
    raw = command.get("targets") or []
    if isinstance(raw, str):
        raw = [raw]
    targets = ids_arg({"targets": raw}, "targets")
    for t in targets:
        card = card_of(decision, t)
        decision.check(
            not (in_play(card) and card["def"]["keywords"].get("stealthy")),
            "rule/stealthy_target",
            f"{card['def']['name']} is Stealthy and cannot be targeted",
            "A.12",
        )
    return targets


def interrupted_ref(decision: Decision, card: dict[str, Any], message: str) -> int | None:
    """The stack entry a new ability or Mischief interrupts: the newest one, if anything is
    resolving, and then ``card`` must be an Interrupt (docs/rules.md A.11)."""
    stack = decision.state["stack"]
    if not stack:
        return None
    decision.check(is_interrupt(card), "rule/not_an_interrupt", message, "A.11")
    ref: int = stack[-1]["ref"]
    return ref


def put_on_stack(
    decision: Decision,
    cls: type[ev.Event],
    cid: str,
    targets: list[str],
    interrupting: int | None,
    **details: Any,
) -> None:
    """Emit ``cls`` (``MischiefPlayed`` or ``AbilityActivated``): the deciding seat puts card
    ``cid``'s ability on the stack with its ``targets`` (docs/rules.md A.11)."""
    decision.emit(
        cls,
        player=decision.seat,
        card=cid,
        targets=targets,
        interrupting=interrupting,
        **details,
    )


def play_mischief(decision: Decision, command: Command, card: dict[str, Any]) -> None:
    """Mischief: either player, either turn, while the window is open (docs/rules.md A.5, A.11)."""
    s, seat = decision.state, decision.seat
    cid = str_arg(command, "card")
    name = card["def"]["name"]
    decision.check(
        window_open(s), "rule/window_closed", "Mischief only after unzap, never in cooldown", "A.11"
    )
    interrupting = interrupted_ref(
        decision, card, "only an Interrupt may be played while something resolves"
    )
    cost = card["def"].get("cost") or 0
    gold = int_arg(command, "gold", cost)
    decision.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
    decision.check(gold >= cost, "rule/underpaid", f"{name} costs {cost} gold", "A.5")
    blood = int_arg(command, "give_blood", 0)
    if blood:
        decision.check(
            bool(card["def"]["keywords"].get("give_blood")),
            "rule/no_give_blood",
            f"{name} has no Give Blood",
            "A.12",
        )
    targets = targets_of(decision, command)
    if card["def"].get("subtype") == "curse":
        decision.check(
            len(targets) == 1 and in_play(s["cards"][targets[0]]),
            "rule/needs_target",
            "a Curse needs one target card in play",
            "A.5",
        )
    put_on_stack(
        decision, ev.MischiefPlayed, cid, targets, interrupting, gold_paid=gold, give_blood=blood
    )


def decide_activate(decision: Decision, command: Command) -> None:
    s, seat = decision.state, decision.seat
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(command, "card")
    card = card_of(decision, cid)
    fight = s["fight"]
    hired_monster = bool(fight and fight.get("hired") and fight.get("card") == cid)
    if hired_monster:
        decision.require(
            seat == fight["attacker"], "command/not_your_card", "the attacker controls it"
        )
    else:
        require_in(decision, cid, seat, "hero", "hoard", "stash", "dmz", "hand")
    decision.check(
        window_open(s), "rule/window_closed", "abilities only after unzap, not in cooldown", "A.11"
    )
    kw = card["def"]["keywords"]
    interrupting = interrupted_ref(
        decision, card, "only an interrupt ability may be activated while something resolves"
    )
    raw_costs = command.get("costs") or {}
    if not isinstance(raw_costs, dict):
        raise InvalidCommand("request/invalid_costs", "'costs' must be an object")
    gold = int_arg(raw_costs, "gold", 0)
    blood = int_arg(raw_costs, "give_blood", 0)
    zap = bool(raw_costs.get("zap", False))
    discard = ids_arg({"discard": raw_costs.get("discard") or []}, "discard")
    decision.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
    for d in discard:
        require_in(decision, d, seat, "hand")
    if zap:
        decision.check(
            not card["zapped"], "rule/card_zapped", "a zapped card cannot be zapped", "A.10"
        )
    if blood:
        decision.check(
            bool(kw.get("give_blood")), "rule/no_give_blood", "no Give Blood here", "A.12"
        )
    if kw.get("sketchy"):
        decision.check(
            s["seats"][seat]["caught_cheating"],
            "rule/sketchy",
            "Sketchy: only after being caught cheating this turn",
            "A.12",
        )
    if kw.get("smack") and card["def"].get("subtype") == "weapon":
        decision.check(s["active"] == seat, "rule/not_your_turn", "Smack only on your turn", "A.12")
    if card["zone"] == "hand":
        decision.check(
            bool(kw.get("flaunt")), "rule/not_in_play", "only Flaunt works from the hand", "A.12"
        )
    targets = targets_of(decision, command)
    costs = {"gold": gold, "zap": zap, "discard": discard, "give_blood": blood}
    text = command.get("text")
    put_on_stack(
        decision,
        ev.AbilityActivated,
        cid,
        targets,
        interrupting,
        costs=costs,
        text=text if isinstance(text, str) else None,
    )


def decide_resolve(decision: Decision, command: Command) -> None:
    s = decision.state
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    decision.require(bool(s["stack"]), "command/nothing_to_resolve", "nothing is resolving")
    top = s["stack"][-1]
    decision.check(
        top["player"] == decision.seat,
        "rule/not_your_ability",
        "the controller of the newest ability resolves it",
        "A.11",
    )
    decision.cause = top["ref"]
    decision.emit(
        ev.AbilityResolved,
        ref=top["ref"],
        card=top["card"],
        outcome="canceled" if top["canceled"] else "resolved",
    )
    if not decision.state["stack"]:
        check_eliminations(decision)
    after_card_left(decision)


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
        decision.emit(ev.ResponseWindowClosed, by="rules", window=kind)
        if kind == "cost":
            cheat_check(decision)
        elif kind == "hire":
            strike(decision)
