"""Mandatory triggers (docs/rules.md A.8 reckoning, A.9 steps 4 and 8; docs/cards.md): the
engine puts them on the stack itself, each once, for the seat that resolves them."""

from __future__ import annotations

from domain.ccg import events as ev
from domain.ccg.cards import ability_index
from domain.ccg.decision import Decision


def trigger(decision: Decision, cid: str, kind: str, player: str) -> bool:
    """Put card ``cid``'s ``kind`` abilities (``hired``, ``survivor``, ``reckoning``,
    ``end_of_fight``) on the stack for ``player``, each once per fight; whether any was put."""
    card = decision.state["cards"][cid]
    d = card["def"]
    indexes = ability_index(d, kind)
    if not indexes:
        return False
    if d["type"] != "monster" and d["keywords"].get("monstrous") and card["zone"] == "dmz":
        return False  # a revealed Monstrous X ignores its other text (docs/rules.md A.12)
    fight = decision.state.get("fight") or {}
    fired = set(fight.get("triggered") or [])
    put = False
    for index in indexes:
        if f"{cid}:{index}" in fired:
            continue
        decision.emit(
            ev.AbilityTriggered, by="rules", player=player, card=cid, ability=index, trigger=kind
        )
        put = True
    return put
