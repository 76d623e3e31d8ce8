"""Damage, healing and squishing (docs/rules.md A.10), with Life-O-Suction (A.12); zapping is an
effect command (:mod:`domain.ccg.effects`)."""

from __future__ import annotations

from typing import Any

from domain.ccg import events as ev
from domain.ccg.decision import Decision, hero_of
from domain.ccg.state import in_play
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


def is_revealed_monstrous(card: dict[str, Any], s: State) -> bool:
    """A Monstrous X card that is a Monster now (docs/rules.md A.12, D.26): "When a Monstrous
    card is revealed in a fight, treat it as a Monster card type [...] until it leaves play":
    the fight's revealed attack card (in the cost window too, before any hire), or one that
    survived a fight, face up in its stash."""
    d = card["def"]
    if d["type"] == "monster" or not d["keywords"].get("monstrous") or card["face"] != "up":
        return False
    if card["zone"] == "stash":
        return True
    fight = s.get("fight")
    return bool(
        card["zone"] == "dmz"
        and fight
        and fight.get("revealed")
        and card is s["cards"].get(fight["card"])
    )


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
        decision.emit(ev.CardStashed, actor="rules", card=cid, face="down", source=cid)
    else:
        decision.emit(ev.CardSquished, actor="rules", card=cid, reason="damage")
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
            actor="rules",
            source=source,
            target=decision.state["seats"][card["owner"]]["hero"],
            amount=heal,
        )
