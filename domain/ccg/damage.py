"""Damage, healing, squishing and zapping (docs/rules.md A.10), with Life-O-Suction (A.12)."""

from __future__ import annotations

from typing import Any

from domain.ccg import events as ev
from domain.ccg.decision import Command, Decision, card_of, hero_of, require_in, str_arg
from domain.ccg.state import in_play
from domain.ccg.timing import window_open
from domain.fold import State


def life_of(card: dict[str, Any], s: State) -> int | None:
    """The life a card has now: a hired Monster's, Monstrous X's, or its printed life."""
    fight = s.get("fight")
    if (
        fight
        and fight.get("card")
        and card is s["cards"].get(fight["card"])
        and fight.get("monster")
    ):
        return int(fight["monster"]["life"])
    kw = card["def"]["keywords"]
    if (
        card["def"]["type"] != "monster"
        and kw.get("monstrous")
        and card["zone"] in ("dmz", "stash")
    ):
        return int(kw["monstrous"])
    life = card["def"].get("life")
    return None if life is None else int(life)


def squish_if_dead(decision: Decision, cid: str) -> bool:
    """An Ally or Monster whose damage reaches its life is squished at once (docs/rules.md A.10);
    whether it was (the caller then checks the fight, ``fights.after_card_left``)."""
    if decision.finished:
        return False
    card = decision.state["cards"][cid]
    if card["def"]["type"] == "hero" or not in_play(card):
        return False
    life = life_of(card, decision.state)
    if life is None or card["damage"] < life:
        return False
    if card["def"]["keywords"].get("regenerate"):
        decision.emit(ev.CardStashed, by="rules", card=cid, face="down", source=cid)
    else:
        decision.emit(ev.CardSquished, by="rules", card=cid, reason="damage")
    return True


def heal_by_life_o_suction(decision: Decision, source: str | None, amount: int) -> None:
    """Life-O-Suction X: the source's controller heals what it dealt (docs/rules.md A.12, D.9)."""
    if not source or amount <= 0 or decision.finished:
        return
    card = decision.state["cards"][source]
    if not card["def"]["keywords"].get("life_o_suction"):
        return
    hero = hero_of(decision.state, card["owner"])
    heal = min(amount, hero["damage"])
    if heal:
        decision.emit(
            ev.Healed,
            by="rules",
            source=source,
            target=decision.state["seats"][card["owner"]]["hero"],
            amount=heal,
        )


def decide_zap(decision: Decision, command: Command) -> None:
    seat = decision.seat
    decision.require(
        decision.state["status"] == "playing", "command/not_playing", "the game is not in play"
    )
    cid = str_arg(command, "card")
    card = card_of(decision, cid)
    decision.require(in_play(card), "command/card_not_there", "only a card in play can be zapped")
    decision.check(not card["zapped"], "rule/card_zapped", "the card is already zapped", "A.10")
    if decision.state["stack"]:
        from domain.ccg.effects import decide_zap_effect

        decide_zap_effect(decision, command, cid)
        return
    require_in(decision, cid, seat, "hero", "hoard", "stash")
    # The window first, as for abilities and Mischief: a zap in cooldown is refused as such.
    decision.check(window_open(decision.state), "rule/window_closed", "no zapping now", "A.11")
    decision.check(
        False,
        "rule/zap_needs_ability",
        "a card is zapped to pay an ability's cost ('activate') or by an effect, never alone",
        "A.10",
    )
    decision.emit(ev.CardZapped, card=cid, source=command.get("source"))
