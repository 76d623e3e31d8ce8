"""The Munchkin CCG's fold handlers for a fight (docs/rules.md A.9, A.10): the fight's own
state, its commitments, damage, gold and tokens, and the cards a fight moves. Split from
:mod:`domain.ccg.state` (the state's shape, its zones and the other handlers), which it builds
on; :mod:`domain.ccg` imports it, so its handlers are registered with the others.
"""

from __future__ import annotations

from domain.ccg import events as ev
from domain.ccg.state import (
    SEATS,
    advance,
    event_moves,
    move,
    remove_from_zone,
    touch_window,
)
from domain.fold import CopyOnWriteState, handles

# ---------------------------------------------------------------------------- fight


@handles(ev.FightStarted)
def _(e: ev.FightStarted, draft: CopyOnWriteState) -> None:
    draft.state["fight"] = {
        "attacker": e.attacker,
        "defender": e.defender,
        "stage": "committing",
        "card": None,
        "gold": 0,
        "commitment": None,
        "salt": None,
        "defender_cards": [],
        "hired": False,
        "revealed": False,
    }


@handles(ev.AttackCardCommitted)
def _(e: ev.AttackCardCommitted, draft: CopyOnWriteState) -> None:
    move(draft, e.card, "dmz", face="down")
    f = draft.top("fight")
    f.update(card=e.card, commitment=e.commitment, salt=e.salt, stage="committing")


@handles(ev.GoldCommitted)
def _(e: ev.GoldCommitted, draft: CopyOnWriteState) -> None:
    st = draft.seat(e.player)
    st["gold"] = max(0, st["gold"] - e.amount)
    f = draft.top("fight")
    f["gold"] += e.amount
    f["stage"] = "declared"


@handles(ev.RanAway)
def _(e: ev.RanAway, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["ran_this_turn"] += 1
    draft.top("fight")["stage"] = "ran"


@handles(ev.DefenderFaced)
def _(e: ev.DefenderFaced, draft: CopyOnWriteState) -> None:
    draft.top("fight")["stage"] = "defending"


@handles(ev.DefenderCardsCommitted)
def _(e: ev.DefenderCardsCommitted, draft: CopyOnWriteState) -> None:
    f = draft.top("fight")
    f["defender_cards"] = [*f["defender_cards"], *e.cards]
    for cid in e.cards:
        move(draft, cid, "dmz", face="up")
        draft.card(cid)["zapped"] = True


@handles(ev.DefenderReady)
def _(e: ev.DefenderReady, draft: CopyOnWriteState) -> None:
    draft.top("fight")["stage"] = "ready"


@handles(ev.AttackCardRevealed)
def _(e: ev.AttackCardRevealed, draft: CopyOnWriteState) -> None:
    card = draft.card(e.card)
    card["face"] = "up"
    card["known"] = list(SEATS)
    f = draft.top("fight")
    f["revealed"] = True
    f["stage"] = "revealed"
    draft.state["window"] = {"kind": "cost", "passed": []}


@handles(ev.MonsterCostModified)
def _(e: ev.MonsterCostModified, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    draft.card(e.card)["cost_mod"] = e.cost
    touch_window(draft)


@handles(ev.CheatingChecked)
def _(e: ev.CheatingChecked, draft: CopyOnWriteState) -> None:
    draft.top("fight")["stage"] = "checked"
    draft.state["window"] = None


@handles(ev.CaughtCheating)
def _(e: ev.CaughtCheating, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["caught_cheating"] = True
    draft.top("fight")["stage"] = "caught"


@handles(ev.MonsterHired)
def _(e: ev.MonsterHired, draft: CopyOnWriteState) -> None:
    f = draft.top("fight")
    f["hired"] = True
    f["stage"] = "hired"
    f["monster"] = {"power": e.power, "life": e.life}
    draft.state["window"] = {"kind": "hire", "passed": []}


@handles(ev.HireGoldSpent)
def _(e: ev.HireGoldSpent, draft: CopyOnWriteState) -> None:
    f = draft.top("fight")
    f["gold"] = max(0, f["gold"] - e.amount)
    f["stage"] = "striking"
    draft.state["window"] = None


@handles(ev.CommittedGoldReturned)
def _(e: ev.CommittedGoldReturned, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["gold"] += e.amount
    if draft.state.get("fight") is not None:
        f = draft.top("fight")
        f["gold"] = max(0, f["gold"] - e.amount)


@handles(ev.DamageDealt)
def _(e: ev.DamageDealt, draft: CopyOnWriteState) -> None:
    stack = draft.state.get("stack")
    if stack and stack[-1].get("prevented") and e.source == stack[-1]["card"]:
        top = draft.top("stack")  # its Prevent is used up (docs/rules.md D.22)
        top[-1] = {**top[-1], "prevented": 0}
    advance(draft, e)
    if e.amount > 0 and e.target in draft.state["cards"]:
        draft.card(e.target)["damage"] += e.amount
    f = draft.state.get("fight")
    if f is not None and e.kind == "combat" and e.target == f.get("card"):
        draft.top("fight")["stage"] = "weapons_struck"


@handles(ev.DamageAllocated)
def _(e: ev.DamageAllocated, draft: CopyOnWriteState) -> None:
    for cid, amount in e.allocation.items():
        target = draft.state["seats"][e.player]["hero"] if cid == "hero" else cid
        if amount > 0 and target in draft.state["cards"]:
            draft.card(target)["damage"] += amount
    if draft.state.get("fight") is not None:
        draft.top("fight")["stage"] = "allocated"


@handles(ev.Healed)
def _(e: ev.Healed, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    card = draft.card(e.target)
    card["damage"] = max(0, card["damage"] - e.amount)


@handles(ev.GoldStolen)
def _(e: ev.GoldStolen, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    src = draft.seat(e.from_player)
    amount = min(e.amount, src["gold"])
    src["gold"] -= amount
    draft.seat(e.to_player)["gold"] += amount


@handles(ev.GoldTaken)
def _(e: ev.GoldTaken, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    draft.seat(e.player)["gold"] += e.amount


@handles(ev.TokensCollected)
def _(e: ev.TokensCollected, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    draft.card(e.card)["tokens"] += e.amount


@handles(ev.CardStuck)
def _(e: ev.CardStuck, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    remove_from_zone(draft, e.card)
    card = draft.card(e.card)
    card.update(zone="stuck", face="up", host=e.host, known=list(SEATS))
    host = draft.card(e.host)
    host["stuck"] = [*host["stuck"], e.card]


@handles(ev.CardStashed)
def _(e: ev.CardStashed, draft: CopyOnWriteState) -> None:
    event_moves(draft, e, e.card, "stash", face=e.face)


@handles(ev.MonsterStashedFaceUp)
def _(e: ev.MonsterStashedFaceUp, draft: CopyOnWriteState) -> None:
    damage = draft.state["cards"][e.card]["damage"]
    move(draft, e.card, "stash", face="up")
    draft.card(e.card)["damage"] = damage


@handles(ev.CardsSpilled)
def _(e: ev.CardsSpilled, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    for cid in e.cards:
        move(draft, cid, "discard")


@handles(ev.CardRevealed)
def _(e: ev.CardRevealed, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    draft.card(e.card)["known"] = list(SEATS)


@handles(ev.CardRemoved)
def _(e: ev.CardRemoved, draft: CopyOnWriteState) -> None:
    event_moves(draft, e, e.card, "removed")


@handles(ev.CardMoved)
def _(e: ev.CardMoved, draft: CopyOnWriteState) -> None:
    if e.to in ("deck_bottom", "deck_top"):  # face down, at the named end of the deck
        event_moves(draft, e, e.card, "deck", face="down", bottom=e.to == "deck_bottom")
    else:
        event_moves(draft, e, e.card, e.to, face=e.face)


@handles(ev.FightEnded)
def _(e: ev.FightEnded, draft: CopyOnWriteState) -> None:
    draft.state["fight"] = None
    draft.state["window"] = None


@handles(ev.DefenderCardsReturned)
def _(e: ev.DefenderCardsReturned, draft: CopyOnWriteState) -> None:
    for cid in e.cards:
        zapped = draft.state["cards"][cid]["zapped"]
        move(draft, cid, "hoard")
        draft.card(cid)["zapped"] = zapped
    if draft.state.get("fight") is not None:
        draft.top("fight")["defender_cards"] = []
