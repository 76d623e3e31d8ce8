"""``legal_commands(state, seat)``: concrete commands a seat may send now (like ``ai.enumerate``).

Every command listed is accepted by ``decide`` in strict mode (the property tests hold us to it).
Choices with huge ranges are sampled, not enumerated: a few opening hands, gold amounts 0, the
cost and the whole purse, one allocation. Effects are offered in their simplest form (1 damage
to the opposing Hero, heal your Hero, take 1 gold) so random games exercise the ability stack.
"""

from __future__ import annotations

from typing import Any

from domain.ccg.cards import is_monster_like
from domain.ccg.fights import pending_damage
from domain.ccg.state import SEATS, in_play, other
from domain.ccg.timing import window_open
from domain.ccg.turn import loot_rank_total
from domain.fold import State

Cmd = dict[str, Any]


def legal_commands(s: State, seat: str) -> list[Cmd]:
    status = s.get("status")
    if status == "setup":
        return _setup(s, seat)
    if status != "playing":
        return []
    out: list[Cmd] = [{"type": "concede", "seat": seat}]
    st = s["seats"][seat]
    cards = s["cards"]
    stack = s["stack"]
    fight = s["fight"]
    if stack:
        top = stack[-1]
        if top["player"] == seat:
            out.append({"type": "resolve", "seat": seat})
            opp_hero = s["seats"][other(seat)]["hero"]
            src = top["card"]
            if not top["canceled"]:
                out.append(
                    {"type": "damage", "seat": seat, "source": src, "target": opp_hero, "amount": 1}
                )
                if cards[st["hero"]]["damage"]:
                    out.append(
                        {
                            "type": "heal",
                            "seat": seat,
                            "source": src,
                            "target": st["hero"],
                            "amount": 1,
                        }
                    )
                out.append({"type": "take_gold", "seat": seat, "source": src, "amount": 1})
                if cards[src]["def"].get("subtype") == "curse" and top["targets"]:
                    target = top["targets"][0]
                    if in_play(cards[target]):
                        out.append(
                            {
                                "type": "stick",
                                "seat": seat,
                                "source": src,
                                "card": src,
                                "target": target,
                            }
                        )
                if len(stack) >= 2:
                    out.append({"type": "cancel", "seat": seat, "source": src})
        out.extend(_interrupts(s, seat))
        return out
    if s["phase"] == "warmup" and s["step"] == "draw" and s["active"] == seat:
        out.extend({"type": "draw", "seat": seat, "card": cid} for cid in st["zones"]["deck"])
    if fight is not None:
        out.extend(_fight(s, seat, fight))
    elif s["phase"] == "munchkining" and s["active"] == seat:
        out.extend(_munchkining(s, seat))
    if window_open(s):
        out.extend(_abilities(s, seat))
    return out


def _setup(s: State, seat: str) -> list[Cmd]:
    setup = s["setup"]
    st = s["seats"][seat]
    deck = st["zones"]["deck"]
    step = s["step"]
    if step == "draw_opening" and seat not in setup["opened"]:
        return [
            {"type": "draw_opening", "seat": seat, "cards": deck[:6]},
            {"type": "draw_opening", "seat": seat, "cards": deck[-6:]},
        ]
    if step == "roll_first":
        return [
            {"type": "roll_first", "seat": seat, "rolls": dict(zip(SEATS, (a, b), strict=True))}
            for a in range(1, 7)
            for b in range(1, 7)
        ]
    if step == "choose_first" and setup["roll_winner"] == seat:
        return [{"type": "choose_first", "seat": seat, "first": f} for f in SEATS]
    if step == "mulligan" and seat not in setup["decided"]:
        first = setup["first"]
        if seat == first or first in setup["decided"]:
            pool = deck + st["zones"]["hand"]
            return [
                {"type": "keep", "seat": seat},
                {"type": "mulligan", "seat": seat, "cards": pool[-6:]},
            ]
    return []


def _munchkining(s: State, seat: str) -> list[Cmd]:
    out: list[Cmd] = [{"type": "end_turn", "seat": seat}]
    st = s["seats"][seat]
    cards = s["cards"]
    level = st["level"]
    rank_total = loot_rank_total(s, seat)
    has_location = any(cards[x]["def"]["type"] == "location" for x in st["zones"]["hoard"])
    gold = st["gold"]
    for cid in st["zones"]["hand"]:
        d = cards[cid]["def"]
        kind = d["type"]
        if (
            kind == "loot" and rank_total <= level and rank_total + (d.get("rank") or 0) <= level
        ) or (kind == "location" and not has_location):
            out.append({"type": "play", "seat": seat, "card": cid})
        elif kind == "ally" and (d.get("cost") or 0) <= gold:
            out.append({"type": "play", "seat": seat, "card": cid, "gold": d.get("cost") or 0})
        amounts = {0, gold}
        if is_monster_like(d) and (d.get("cost") or 0) <= gold:
            amounts.add(d.get("cost") or 0)
        for g in sorted(amounts):
            out.append({"type": "attack", "seat": seat, "card": cid, "gold": g})
    for cid in st["zones"]["hoard"]:
        card = cards[cid]
        if card["def"]["type"] in ("loot", "location") and not card["zapped"]:
            out.append({"type": "squish", "seat": seat, "card": cid})
    return out


def _fight(s: State, seat: str, fight: dict[str, Any]) -> list[Cmd]:
    stage = fight["stage"]
    out: list[Cmd] = []
    if stage == "declared" and seat == fight["defender"]:
        out += [{"type": "run_away", "seat": seat}, {"type": "face", "seat": seat}]
    elif stage == "defending" and seat == fight["defender"]:
        out.append({"type": "ready", "seat": seat})
        for cid in s["seats"][seat]["zones"]["hoard"]:
            card = s["cards"][cid]
            if card["def"]["type"] in ("ally", "loot") and not card["zapped"]:
                out.append({"type": "commit", "seat": seat, "cards": [cid]})
    elif stage == "ready" and seat == fight["attacker"]:
        out.append({"type": "reveal", "seat": seat})
    window = s.get("window")
    if window is not None and seat not in window["passed"]:
        out.append({"type": "pass", "seat": seat})
        if window["kind"] == "hire" and seat == fight["attacker"] and fight["card"]:
            out.append({"type": "activate", "seat": seat, "card": fight["card"]})
    damage = pending_damage(s)
    if damage is not None and seat == fight["defender"]:
        allies = [x for x in fight["defender_cards"] if s["cards"][x]["def"]["type"] == "ally"]
        out.append({"type": "allocate", "seat": seat, "damage": {allies[0]: damage}})
        if len(allies) > 1:
            half = damage // 2
            split = {allies[0]: damage - half, allies[1]: half}
            out.append({"type": "allocate", "seat": seat, "damage": split})
    return out


def _abilities(s: State, seat: str) -> list[Cmd]:
    """Mischief from hand and the Hero's zap ability: either seat, window open (A.11)."""
    out: list[Cmd] = []
    st = s["seats"][seat]
    cards = s["cards"]
    hero = cards[st["hero"]]
    if not hero["zapped"]:
        out.append({"type": "activate", "seat": seat, "card": st["hero"], "costs": {"zap": True}})
    out.extend(_mischief(s, seat, interrupts_only=False))
    return out


def _interrupts(s: State, seat: str) -> list[Cmd]:
    return _mischief(s, seat, interrupts_only=True)


def _mischief(s: State, seat: str, interrupts_only: bool) -> list[Cmd]:
    if not window_open(s):
        return []
    out: list[Cmd] = []
    st = s["seats"][seat]
    cards = s["cards"]
    opp_hero = s["seats"][other(seat)]["hero"]
    for cid in st["zones"]["hand"]:
        d = cards[cid]["def"]
        if d["type"] != "mischief" or (d.get("cost") or 0) > st["gold"]:
            continue
        interrupt = d.get("subtype") == "interrupt" or d["keywords"].get("interrupt")
        if interrupts_only and not interrupt:
            continue
        cmd: Cmd = {"type": "play", "seat": seat, "card": cid, "gold": d.get("cost") or 0}
        if d.get("subtype") == "curse":
            cmd["targets"] = [opp_hero]
        out.append(cmd)
    return out
