"""Mandatory triggers (docs/rules.md A.8 reckoning and level gains, A.9 steps 4 and 8;
docs/cards.md): the engine puts them on the stack itself, each once, for the seat that resolves
them."""

from __future__ import annotations

from domain.ccg import events as ev
from domain.ccg.cards import ability_index
from domain.ccg.decision import Decision
from domain.ccg.state import PLAY_ZONES, in_play


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
    return _put(decision, player, kind, [(cid, i) for i in indexes if f"{cid}:{i}" not in fired])


def trigger_level_gained(decision: Decision, seat: str) -> bool:
    """The "when you gain a level" abilities (docs/rules.md A.8, D.21): each ``level_gained``
    ability of ``seat``'s cards in play goes on the stack once, in the table's order; whether
    any was put.
    The caller calls this only for a level actually gained, so never from level 10 ("abilities
    that trigger when you gain a level cannot activate if you are already at level 10")."""
    mine = [
        (cid, index)
        for cid, card in decision.state["cards"].items()
        if card["owner"] == seat and card["zone"] in PLAY_ZONES and in_play(card)
        for index in ability_index(card["def"], "level_gained")
    ]
    return _put(decision, seat, "level_gained", mine)


def _put(decision: Decision, player: str, kind: str, abilities: list[tuple[str, int]]) -> bool:
    """Put each ``(card, ability index)`` of ``abilities`` on the stack, in order, as a ``kind``
    trigger resolved by ``player``; whether any was put."""
    for cid, index in abilities:
        decision.emit(
            ev.AbilityTriggered, actor="rules", player=player, card=cid, ability=index, trigger=kind
        )
    return bool(abilities)
