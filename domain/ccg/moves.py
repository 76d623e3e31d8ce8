"""``legal_commands(state, seat)``: concrete commands a seat may send now (like ``ai.enumerate``).

Every command listed is accepted by ``decide`` in strict mode (the property tests hold us to it).
Choices with huge ranges are sampled, not enumerated: a few opening hands, gold amounts 0, the
cost and the whole purse, one allocation. Effects are offered in their simplest form (1 damage
to the opposing Hero, heal your Hero, take 1 gold) so random games exercise the ability stack.

In a game the server deals (docs/rules.md E) the commands that draw or roll name no card and no
value (E.1), and while a contributor's seed is due its seed command is offered
(``domain.seeding``, E.2) and nothing that draws or rolls is.
"""

from __future__ import annotations

from typing import Any

from domain.ccg.abilities import (
    filters_to_name,
    is_interrupt,
    passes_filter,
    referent,
    step_possible,
)
from domain.ccg.cards import abilities_of, ability_index, is_monster_like
from domain.ccg.fights import pending_damage
from domain.ccg.state import SEATS, drawable, in_play, other
from domain.ccg.timing import window_open
from domain.ccg.turn import loot_rank_total
from domain.fold import State
from domain.seeding import seed_commands, seeds_due, seeds_pending

Cmd = dict[str, Any]

#: The commands that draw or roll (docs/rules.md E.1): none while the seeds are pending (E.2).
RANDOM_COMMANDS = frozenset({"draw_opening", "roll_first", "mulligan", "draw", "spill"})


def legal_commands(s: State, seat: str) -> list[Cmd]:
    legal = _legal(s, seat)
    if not seeds_pending(s):
        return legal
    return [*(c for c in legal if c["type"] not in RANDOM_COMMANDS), *seed_commands(s, seat)]


def _legal(s: State, seat: str) -> list[Cmd]:
    status = s.get("status")
    if status == "setup":
        return _setup(s, seat)
    if status != "playing":
        return []
    out: list[Cmd] = [{"type": "concede", "seat": seat}]
    stack = s["stack"]
    fight = s["fight"]
    if stack:
        top = stack[-1]
        if top["player"] == seat:
            out.extend(_resolving(s, seat, top))
        out.extend(_interrupts(s, seat))
        return out
    if s["phase"] == "warmup" and s["step"] == "draw" and s["active"] == seat:
        top = drawable(s, seat)
        if "dealing" in s:
            out.extend([{"type": "draw", "seat": seat}] if top else [])  # E.1
        else:
            out.extend({"type": "draw", "seat": seat, "card": cid} for cid in top)
    window = s.get("window")
    if fight is not None:
        out.extend(_fight(s, seat, fight))
    elif window is not None and seat not in window["passed"]:
        out.append({"type": "pass", "seat": seat})  # a Bleeding's damage (D.28)
    elif s["phase"] == "munchkining" and s["active"] == seat:
        out.extend(_munchkining(s, seat))
    if window_open(s):
        out.extend(_abilities(s, seat))
    return out


def waiting_for(s: State) -> list[str]:
    """The seats the game waits on now (``Family.waiting_for``), in seating order: the seeds
    due (E.2); in setup, each seat with a setup step to take (A.7); then the controller of the
    ability on top of the stack (A.11), the seats still to pass in an open response window
    (a damage waits for both, A.11), the fight's side that must act (A.9: run away or face,
    commit, reveal, allocate), else the active player."""
    status = s.get("status")
    if status not in ("setup", "playing"):
        return []
    due = seeds_due(s)
    if due:
        return due
    if status == "setup":
        return [seat for seat in SEATS if _setup(s, seat)]
    if s["stack"]:
        return [s["stack"][-1]["player"]]
    window = s.get("window")
    if window is not None:
        return [seat for seat in SEATS if seat not in window["passed"]]
    fight = s.get("fight")
    if fight is not None:
        acting = [seat for seat in SEATS if _fight(s, seat, fight)]
        if acting:
            return acting
    return [s["active"]] if s.get("active") in SEATS else []


def _setup(s: State, seat: str) -> list[Cmd]:
    setup = s["setup"]
    st = s["seats"][seat]
    deck = st["zones"]["deck"]
    step = s["step"]
    server = "dealing" in s  # the server deals: no card, no value (docs/rules.md E.1)
    if step == "draw_opening" and seat not in setup["opened"]:
        if server:
            return [{"type": "draw_opening", "seat": seat}]
        return [
            {"type": "draw_opening", "seat": seat, "cards": deck[:6]},
            {"type": "draw_opening", "seat": seat, "cards": deck[-6:]},
        ]
    if step == "roll_first":
        if server:
            return [{"type": "roll_first", "seat": seat}]
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
            mulligan: Cmd = {"type": "mulligan", "seat": seat}
            if not server:
                mulligan["cards"] = pool[-6:]
            return [{"type": "keep", "seat": seat}, mulligan]
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
    damage = pending_damage(s)
    if damage is not None and seat == fight["defender"]:
        allies = [x for x in fight["defender_cards"] if s["cards"][x]["def"]["type"] == "ally"]
        out.append({"type": "allocate", "seat": seat, "damage": {allies[0]: damage}})
        if len(allies) > 1:
            half = damage // 2
            split = {allies[0]: damage - half, allies[1]: half}
            out.append({"type": "allocate", "seat": seat, "damage": split})
    return out


def _resolving(s: State, seat: str, top: dict[str, Any]) -> list[Cmd]:
    """The resolving ability's next effect (the card's, docs/cards.md), or ``resolve`` once
    what is left cannot be done; an unchecked card's ability is offered simple effects."""
    src = top["card"]
    plan = top.get("plan")
    if top["canceled"]:
        return [{"type": "resolve", "seat": seat}]
    if plan is None:
        out: list[Cmd] = [{"type": "resolve", "seat": seat}]
        opp_hero = s["seats"][other(seat)]["hero"]
        out.append({"type": "damage", "seat": seat, "source": src, "target": opp_hero, "amount": 1})
        out.append({"type": "take_gold", "seat": seat, "source": src, "amount": 1})
        return out
    done = int(top.get("done") or 0)
    filters = [] if done else filters_to_name(s, top)
    if filters:  # a trigger names its targets first, when it has some (docs/rules.md D.23)
        first = _first_targets(s, seat, {"targets": filters})
        if first is not None:
            return [{"type": "target", "seat": seat, "targets": first}]
    left = plan[done:]
    if not any(step_possible(s, top, step) for step in left) and not any(
        step["op"] == "draw" for step in left
    ):
        return [{"type": "resolve", "seat": seat}]
    if not left:
        return [{"type": "resolve", "seat": seat}]
    step = left[0]
    if step["op"] == "draw" and not s["seats"][seat]["zones"]["deck"]:
        return [{"type": "resolve", "seat": seat}]  # the forced draw eliminates (A.13)
    if step["op"] != "draw" and not step_possible(s, top, step):
        return []  # a later effect is still possible: nothing offered (rare in the sample)
    return _effect_commands(s, seat, top, step)


def _effect_commands(s: State, seat: str, top: dict[str, Any], step: dict[str, Any]) -> list[Cmd]:
    cards = s["cards"]
    src = top["card"]
    base: Cmd = {"seat": seat, "source": src}
    op = step["op"]
    amount = step["amount"]
    target = referent(s, top, step)
    st = s["seats"][seat]
    if op in ("damage", "heal", "gain_level", "lose_level"):
        return [{**base, "type": op, "target": target, "amount": amount}]
    if op == "take_gold":
        return [{**base, "type": "take_gold", "amount": amount}]
    if op == "steal_gold":
        return [{**base, "type": "steal", "amount": amount}]
    server = "dealing" in s  # the server deals: no card (docs/rules.md E.1)
    if op == "draw":
        if server:
            return [{**base, "type": "draw"}] if drawable(s, seat) else []
        return [{**base, "type": "draw", "card": c} for c in drawable(s, seat)[:3]]
    if op in ("put_on_bottom", "put_on_top"):
        to = "deck_bottom" if op == "put_on_bottom" else "deck_top"
        return [{**base, "type": "move", "card": c, "to": to} for c in st["zones"]["hand"][:3]]
    if op == "cancel":
        return [{**base, "type": "cancel", "ref": s["stack"][-2]["ref"]}]
    if op == "stick":
        return [{**base, "type": "stick", "card": src, "target": target}]
    if op == "modify_cost":
        card = cards[target] if target else None
        if card is None:
            return []
        now = card["cost_mod"] if card["cost_mod"] is not None else (card["def"].get("cost") or 0)
        return [{**base, "type": "modify_cost", "card": target, "cost": max(0, now + amount)}]
    if op == "collect":
        return [{**base, "type": "collect", "card": target, "amount": amount}]
    if op == "spill":
        if server:
            return [{**base, "type": "spill"}]  # the server deals the top X
        return [{**base, "type": "spill", "cards": st["zones"]["deck"][:amount]}]  # the top X
    if op == "prevent":
        return [{**base, "type": "prevent", "amount": amount}]
    command = {
        "unzap": "unzap",
        "zap": "zap",
        "discard": "discard",
        "stash": "stash",
        "remove": "remove",
        "reveal": "reveal_card",
    }[op]
    return [{**base, "type": command, "card": target}]


def _abilities(s: State, seat: str) -> list[Cmd]:
    """Mischief from hand and the activated abilities of a seat's cards in play (A.11)."""
    out: list[Cmd] = []
    out.extend(_activations(s, seat, interrupts_only=False))
    out.extend(_mischief(s, seat, interrupts_only=False))
    return out


def _activations(s: State, seat: str, interrupts_only: bool) -> list[Cmd]:
    """Every activated ability of ``seat``'s cards in play whose cost, conditions and targets
    can be met now, with its first legal targets (docs/cards.md)."""
    if not window_open(s):
        return []
    if (s.get("window") or {}).get("damage"):
        interrupts_only = True  # announced damage waits only for interrupts (A.11)
    out: list[Cmd] = []
    st = s["seats"][seat]
    cards = s["cards"]
    own = [st["hero"], *st["zones"]["hoard"], *st["zones"]["stash"]]
    fight = s.get("fight")
    hired = fight["card"] if fight and fight.get("hired") and fight["attacker"] == seat else None
    if hired and hired not in own:
        own.append(hired)  # the attacker controls the hired Monster (A.9)
    for cid in own:
        card = cards[cid]
        if not in_play(card):
            continue
        abilities = abilities_of(card["def"])
        if abilities is None:
            if not card["zapped"] and not interrupts_only:
                out.append({"type": "activate", "seat": seat, "card": cid, "costs": {"zap": True}})
            continue
        activated = ability_index(card["def"], "activated")
        for index in activated:
            ability = abilities[index]
            if interrupts_only and not ability["interrupt"]:
                continue
            cost = ability["cost"]
            if (cost["zap"] and card["zapped"]) or cost["gold"] > st["gold"] or cost["discard"]:
                continue
            if not _conditions_met(s, seat, card, ability):
                continue
            if any(e["op"] == "prevent" for e in ability["effects"]) and not (
                (s.get("window") or {}).get("damage")
            ):
                continue
            targets = _first_targets(s, seat, ability)
            if targets is None:
                continue
            cmd: Cmd = {"type": "activate", "seat": seat, "card": cid, "ability": index}
            if targets:
                cmd["targets"] = targets
            out.append(cmd)
    return out


def _conditions_met(s: State, seat: str, card: dict[str, Any], ability: dict[str, Any]) -> bool:
    conditions = set(ability["conditions"])
    if card["def"]["keywords"].get("sketchy"):
        conditions.add("sketchy")
    if "sketchy" in conditions and not s["seats"][seat]["caught_cheating"]:
        return False
    if "own_turn" in conditions and s["active"] != seat:
        return False
    fight = s.get("fight")
    return not ("in_fight" in conditions and not (fight and fight.get("stage") == "revealed"))


def _first_targets(s: State, seat: str, ability: dict[str, Any]) -> list[str] | None:
    """A legal target for each of the ability's filters (the opposing Hero first), or None."""
    opp_hero = s["seats"][other(seat)]["hero"]
    chosen: list[str] = []
    for flt in ability["targets"]:
        candidates = [opp_hero, *s["cards"]]
        found = next(
            (
                c
                for c in candidates
                if c not in chosen
                and passes_filter(s, seat, c, flt)
                and not (
                    in_play(s["cards"][c]) and s["cards"][c]["def"]["keywords"].get("stealthy")
                )
            ),
            None,
        )
        if found is None:
            return None
        chosen.append(found)
    return chosen


def _interrupts(s: State, seat: str) -> list[Cmd]:
    return _activations(s, seat, interrupts_only=True) + _mischief(s, seat, interrupts_only=True)


def _mischief(s: State, seat: str, interrupts_only: bool) -> list[Cmd]:
    if not window_open(s):
        return []
    damage_window = bool((s.get("window") or {}).get("damage"))
    out: list[Cmd] = []
    st = s["seats"][seat]
    cards = s["cards"]
    opp_hero = s["seats"][other(seat)]["hero"]
    for cid in st["zones"]["hand"]:
        d = cards[cid]["def"]
        if d["type"] != "mischief" or (d.get("cost") or 0) > st["gold"]:
            continue
        abilities = abilities_of(d)
        played = [abilities[i] for i in ability_index(d, "played")] if abilities else []
        ability = played[0] if played else None
        interrupt = is_interrupt(cards[cid], ability)
        if (interrupts_only or damage_window) and not interrupt:
            continue
        if d["keywords"].get("sketchy") and not st["caught_cheating"]:
            continue
        cmd: Cmd = {"type": "play", "seat": seat, "card": cid, "gold": d.get("cost") or 0}
        if ability is not None:
            if not _conditions_met(s, seat, cards[cid], ability):
                continue
            if any(e["op"] == "cancel" for e in ability["effects"]) and not s["stack"]:
                continue
            targets = _first_targets(s, seat, ability)
            if targets is None:
                continue
            if targets:
                cmd["targets"] = targets
        elif abilities is None and d.get("subtype") == "curse":
            cmd["targets"] = [opp_hero]
        out.append(cmd)
        blood = d["keywords"].get("give_blood")
        if blood and blood is not True and not interrupts_only:
            out.append({**cmd, "give_blood": int(blood)})
    return out
