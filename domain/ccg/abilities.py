"""Abilities and Mischief (docs/rules.md A.11-A.12; the card data in docs/cards.md): activating,
interrupts, and the check of every ability against its card (resolving and passing priority
are :mod:`domain.ccg.stack`'s).

An encoded card's ability is data (:mod:`domain.ccg.cards`): activating it must pay exactly its
cost, meet its conditions and name targets its filters accept; its resolution must record its
effects in order (:func:`expect_effect`), and may stop early only when what is left cannot be
done (a partial resolution, A.11). Mandatory triggers (Hired, Survivor, reckoning, end of
fight) are put on the stack by the engine (:func:`trigger`), once each. A card whose text is not
encoded is ``unchecked``: its abilities are kept as recorded, and every event they make carries
the mark.
"""

from __future__ import annotations

from typing import Any

from domain.arguments import ids_arg, int_arg, str_arg
from domain.ccg import events as ev
from domain.ccg.cards import MAX_NUMBER, abilities_of, ability_index, is_unchecked
from domain.ccg.damage import is_revealed_monstrous, life_of
from domain.ccg.decision import Command, Decision
from domain.ccg.state import MAX_LEVEL, MIN_LEVEL, in_play, other
from domain.ccg.timing import window_open
from domain.errors import InvalidCommand
from domain.fold import State


def is_interrupt(card: dict[str, Any], ability: dict[str, Any] | None = None) -> bool:
    """An Interrupt Mischief, an interrupt ability, Prevent or Regenerate (docs/rules.md A.11)."""
    if ability is not None and ability.get("interrupt"):
        return True
    d = card["def"]
    kw = d["keywords"]
    return bool(
        d.get("subtype") == "interrupt"
        or kw.get("interrupt")
        or kw.get("prevent")
        or kw.get("regenerate")
    )


# ============================================================================ targets


def passes_filter(s: State, seat: str, cid: str, flt: dict[str, Any]) -> bool:
    """Card ``cid`` passes a target filter of an ability controlled by ``seat`` (docs/cards.md):
    its type, its controller, its zone (``in_play`` by default: out-of-play cards, such as
    face-down stash and attack cards, cannot be hit, A.3), damaged if asked."""
    card = s["cards"].get(cid)
    if card is None:
        return False
    d = card["def"]
    kind = d["type"]
    if kind != "monster" and d["keywords"].get("monstrous") and is_revealed_monstrous(card, s):
        kind = "monster"  # from its reveal until it leaves play (A.12, D.26)
    if kind not in flt["types"]:
        return False
    controller = card["owner"]
    if flt["controller"] == "you" and controller != seat:
        return False
    if flt["controller"] == "opponent" and controller == seat:
        return False
    zones = flt["zones"]
    ok = ("in_play" in zones and in_play(card)) or (
        card["zone"] in zones and card["zone"] != "hand" and in_play(card)
    )
    if "hand" in zones and card["zone"] == "hand" and controller == seat:
        ok = True
    if not ok:
        return False
    return not flt.get("damaged") or card["damage"] > 0


def is_targeted(s: State, cid: str) -> bool:
    """Whether an effect on card ``cid`` targets it (docs/rules.md A.12 Stealthy: "Abilities
    that do not target a specific card may affect a card with Stealthy"): it is one of the
    targets the resolving ability named. With nothing resolving, or an unchecked ability (its
    text not encoded, so whether it targets is unknown), the card is taken as targeted."""
    stack = s["stack"]
    return not stack or stack[-1].get("plan") is None or cid in stack[-1]["targets"]


def targets_of(decision: Decision, command: Command) -> list[str]:
    raw = command.get("targets") or []
    if isinstance(raw, str):
        raw = [raw]
    targets = ids_arg({"targets": raw}, "targets")
    for t in targets:
        card = decision.card(t)
        decision.check(
            not (in_play(card) and card["def"]["keywords"].get("stealthy")),
            "rule/stealthy_target",
            f"{card['def']['name']} is Stealthy and cannot be targeted",
            "A.12",
        )
    return targets


def check_targets(decision: Decision, ability: dict[str, Any] | None, targets: list[str]) -> None:
    """A card needing a target cannot be played without a legal one (docs/rules.md A.11)."""
    if ability is None:
        return
    filters = ability["targets"]
    if not filters and not targets:
        return  # nothing to check (most abilities)
    name = decision.command.get("card")
    if len(targets) != len(filters):  # each message is built only when its check fails
        decision.check(
            False,
            "rule/wrong_targets",
            f"this ability names {len(filters)} target(s), not {len(targets)}",
            "A.11",
        )
    for cid, flt in zip(targets, filters, strict=False):
        if not passes_filter(decision.state, decision.seat, cid, flt):
            decision.check(
                False,
                "rule/illegal_target",
                f"{cid!r} is not a legal target for {name!r}: it needs {describe_filter(flt)}",
                "A.11",
            )


def describe_filter(flt: dict[str, Any]) -> str:
    """A target filter in words: ``an opponent's Hero or Monster in play``."""
    whose = {"you": "your ", "opponent": "an opponent's ", "any": "a "}[flt["controller"]]
    where = "in play" if flt["zones"] == ["in_play"] else "in " + " or ".join(flt["zones"])
    damaged = " with damage" if flt.get("damaged") else ""
    return f"{whose}{' or '.join(t.title() for t in flt['types'])} {where}{damaged}"


# ============================================================================ the stack


def interrupted_ref(
    decision: Decision, card: dict[str, Any], message: str, ability: dict[str, Any] | None = None
) -> int | None:
    """The stack entry a new ability or Mischief interrupts: the newest one, if anything is
    resolving (or damage is announced), and then ``card`` must be an Interrupt (A.11)."""
    stack = decision.state["stack"]
    window = decision.state.get("window") or {}
    # Announced damage, a game mechanic, also waits for interrupts only (A.11).
    if stack or window.get("kind") == "damage":
        decision.check(is_interrupt(card, ability), "rule/not_an_interrupt", message, "A.11")
    return int(stack[-1]["ref"]) if stack else None


def check_conditions(
    decision: Decision, card: dict[str, Any], ability: dict[str, Any] | None
) -> None:
    """Sketchy (the card's keyword or the ability's condition), own turn, in a fight (A.12)."""
    s, seat = decision.state, decision.seat
    sketchy = card["def"]["keywords"].get("sketchy")
    if not sketchy and not (ability and ability["conditions"]):
        return  # no condition to check (most abilities)
    conditions = set(ability["conditions"]) if ability else set()
    if sketchy:
        conditions.add("sketchy")
    if "sketchy" in conditions:
        decision.check(
            s["seats"][seat]["caught_cheating"],
            "rule/sketchy",
            "Sketchy: only after being caught cheating this turn",
            "A.12",
        )
    if "own_turn" in conditions:
        decision.check(s["active"] == seat, "rule/not_your_turn", "only on your turn", "A.12")
    if "in_fight" in conditions:
        fight = s.get("fight")
        decision.check(
            bool(fight and fight.get("revealed")),
            "rule/no_revealed_monster",
            "only in a fight, once the attack card is revealed",
            "A.9",
        )


def give_blood_arg(decision: Decision, card: dict[str, Any], value: int) -> None:
    """Give Blood X: 0 (not paid) or exactly X (docs/rules.md A.12)."""
    if not value:
        return
    x = card["def"]["keywords"].get("give_blood")
    name = card["def"]["name"]
    decision.check(bool(x), "rule/no_give_blood", f"{name} has no Give Blood", "A.12")
    if x:
        decision.check(
            value == int(x) or x is True,
            "rule/wrong_cost",
            f"{name}'s Give Blood is {x} damage, not {value}",
            "A.12",
        )


def emit_use(
    decision: Decision,
    cls: type[ev.MischiefPlayed] | type[ev.AbilityActivated],
    cid: str,
    targets: list[str],
    interrupting: int | None,
    **paid: Any,
) -> None:
    """The seat used card ``cid`` (played a Mischief, activated an ability: ``cls``) on
    ``targets``, interrupting the stack entry ``interrupting`` if any, with what it paid."""
    decision.emit(
        cls, player=decision.seat, card=cid, targets=targets, interrupting=interrupting, **paid
    )


def play_mischief(decision: Decision, command: Command, card: dict[str, Any]) -> None:
    """Mischief: either player, either turn, while the window is open (docs/rules.md A.5, A.11);
    its ``played`` ability decides the targets and the effects (docs/cards.md)."""
    s, seat = decision.state, decision.seat
    cid = str_arg(command, "card")
    d = card["def"]
    name = d["name"]
    unchecked = is_unchecked(d)
    own = abilities_of(d)
    played = [own[i] for i in ability_index(d, "played")] if own and not unchecked else []
    ability = played[0] if played else None
    decision.check(
        window_open(s), "rule/window_closed", "Mischief only after unzap, never in cooldown", "A.11"
    )
    interrupting = interrupted_ref(
        decision, card, "only an Interrupt may be played while something resolves", ability
    )
    cost = d.get("cost") or 0
    gold = int_arg(command, "gold", cost, hi=MAX_NUMBER)
    decision.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
    decision.check(gold >= cost, "rule/underpaid", f"{name} costs {cost} gold", "A.5")
    blood = int_arg(command, "give_blood", 0, hi=MAX_NUMBER)
    give_blood_arg(decision, card, blood)
    check_conditions(decision, card, ability)
    targets = targets_of(decision, command)
    if unchecked:
        if d.get("subtype") == "curse":
            decision.check(
                len(targets) == 1 and in_play(s["cards"][targets[0]]),
                "rule/needs_target",
                "a Curse needs one target card in play",
                "A.5",
            )
    else:
        check_targets(decision, ability or {"targets": []}, targets)
    emit_use(
        decision,
        ev.MischiefPlayed,
        cid,
        targets,
        interrupting,
        gold_paid=gold,
        give_blood=blood,
        unchecked=unchecked,
    )


def choose_ability(decision: Decision, command: Command, card: dict[str, Any]) -> int | None:
    """The activated ability a command names (``ability``: its index; by default the card's
    only activated one); ``None`` for an unchecked card."""
    d = card["def"]
    abilities = abilities_of(d)
    if abilities is None:
        return None
    activated = ability_index(d, "activated")
    raw = command.get("ability")
    if raw is None:
        if not activated:  # the message is built only when the check fails
            decision.check(
                False, "rule/no_such_ability", f"{d['name']} has no ability to activate", "A.11"
            )
            return None
        if len(activated) > 1:
            raise InvalidCommand(
                "request/which_ability",
                f"{d['name']} has {len(activated)} activated abilities: name one ('ability')",
                {"ability": [f"one of {activated}"]},
            )
        return activated[0]
    if type(raw) is not int or not 0 <= raw < len(abilities):
        raise InvalidCommand(
            "request/invalid_ability",
            f"'ability' is the index of one of {d['name']}'s {len(abilities)} abilities",
            {"ability": [f"0..{len(abilities) - 1}"]},
        )
    if raw in activated:
        return raw
    decision.check(
        False,
        "rule/no_such_ability",
        f"{d['name']}'s ability {raw} is not activated by paying a cost "
        f"(it is '{abilities[raw]['trigger']}')",
        "A.11",
    )
    return None


def decide_activate(decision: Decision, command: Command) -> None:
    s, seat = decision.state, decision.seat
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(command, "card")
    card = decision.card(cid)
    d = card["def"]
    fight = s["fight"]
    hired_monster = bool(fight and fight.get("hired") and fight.get("card") == cid)
    if hired_monster:
        decision.require(
            seat == fight["attacker"], "command/not_your_card", "the attacker controls it"
        )
    else:
        decision.in_zone(cid, seat, "hero", "hoard", "stash", "dmz", "hand")
    kw = d["keywords"]
    if card["zone"] == "hand":
        decision.check(
            bool(kw.get("flaunt")), "rule/not_in_play", "only Flaunt works from the hand", "A.12"
        )
    elif not hired_monster and not in_play(card):  # the message only when it fails
        decision.check(
            False,
            "rule/not_in_play",
            f"{card['zone']} card {cid!r} is face down, out of play: it cannot act",
            "A.3",
        )
    decision.check(
        window_open(s), "rule/window_closed", "abilities only after unzap, not in cooldown", "A.11"
    )
    index = choose_ability(decision, command, card)
    abilities = abilities_of(d)
    ability = abilities[index] if abilities is not None and index is not None else None
    interrupting = interrupted_ref(
        decision,
        card,
        "only an interrupt ability may be activated while something resolves",
        ability,
    )
    raw_costs = command.get("costs")
    if raw_costs is not None and not isinstance(raw_costs, dict):
        raise InvalidCommand("request/invalid_costs", "'costs' must be an object")
    if raw_costs is None and ability is not None:
        raw_costs = {
            "zap": ability["cost"]["zap"],
            "gold": ability["cost"]["gold"],
            "discard": [],
        }
        if ability["cost"]["discard"]:
            raise InvalidCommand(
                "request/missing_field",
                f"name the {ability['cost']['discard']} card(s) discarded in 'costs.discard'",
                {"costs": ["{discard: [card ids]}"]},
            )
    raw_costs = raw_costs or {}
    gold = int_arg(raw_costs, "gold", 0, hi=MAX_NUMBER)
    blood = int_arg(raw_costs, "give_blood", 0, hi=MAX_NUMBER)
    zap = raw_costs.get("zap", False)
    if not isinstance(zap, bool):
        raise InvalidCommand("request/invalid_costs", "'costs.zap' is true or false")
    discard = ids_arg({"discard": raw_costs.get("discard") or []}, "discard")
    decision.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
    for x in discard:
        decision.in_zone(x, seat, "hand")
        decision.require(x != cid, "command/card_not_there", "a card cannot discard itself")
    if zap:
        decision.check(
            not card["zapped"], "rule/card_zapped", "a zapped card cannot be zapped", "A.10"
        )
    if ability is not None:
        want = ability["cost"]
        if zap != want["zap"] or gold != want["gold"] or len(discard) != want["discard"]:
            paid = {"zap": zap, "gold": gold, "discard": len(discard)}  # the message only then
            decision.check(
                False,
                "rule/wrong_cost",
                f"{d['name']} costs {cost_words(want)}; paid {cost_words(paid)}",
                "A.11",
            )
    give_blood_arg(decision, card, blood)
    check_conditions(decision, card, ability)
    if kw.get("smack") and d.get("subtype") == "weapon" and ability is None:
        decision.check(s["active"] == seat, "rule/not_your_turn", "Smack only on your turn", "A.12")
    targets = targets_of(decision, command)
    check_targets(decision, ability, targets)
    unchecked = ability is None
    text = command.get("text")
    emit_use(
        decision,
        ev.AbilityActivated,
        cid,
        targets,
        interrupting,
        costs={"gold": gold, "zap": zap, "discard": discard, "give_blood": blood},
        text=text if isinstance(text, str) else None,
        ability=index,
        unchecked=unchecked,
    )


def cost_words(cost: dict[str, Any]) -> str:
    """``zap, 1 gold`` (or ``nothing``)."""
    parts = (["zap"] if cost.get("zap") else []) + (
        [f"{cost['gold']} gold"] if cost.get("gold") else []
    )
    if cost.get("discard"):
        parts.append(f"discard {cost['discard']}")
    return ", ".join(parts) or "nothing"


# ============================================================================ resolving


def referent(s: State, entry: dict[str, Any], step: dict[str, Any]) -> str | None:
    """The card an effect step applies to, when the ability fixes it (docs/cards.md)."""
    seat = entry["player"]
    to = step["to"]
    fight = s.get("fight") or {}
    if to == "target":
        targets = entry.get("targets") or []
        index = step.get("index") or 0
        return targets[index] if index < len(targets) else None
    if to == "self":
        return str(entry["card"])
    if to == "your_hero":
        return str(s["seats"][seat]["hero"])
    if to == "opposing_hero":
        return str(s["seats"][other(seat)]["hero"])
    if to == "defending_hero":
        if fight:
            return str(s["seats"][fight["defender"]]["hero"])
        # The fight ended under a fight trigger (its Monster squished: "Squishing a hired
        # Monster does not prevent its abilities from activating", docs/rules.md D.22): the
        # defender was the attacker's opponent, the attacker the Hired or Survivor's controller.
        return str(s["seats"][other(seat)]["hero"]) if entry["kind"] in FIGHT_TRIGGERS else None
    if to == "monster":
        return fight.get("card")
    if to == "each_hero":
        return "each_hero"  # both Heroes at once (effects.damage_each_hero)
    return None


def damage_to_prevent(s: State) -> int:
    """The damage a Prevent resolving now can stop in the ability it interrupts, the one just
    below it on the stack (docs/rules.md D.22: "Damage prevention is an interrupt"): that
    ability's next damage effect to a card (an unchecked ability's: any amount), less what is
    already prevented of it; 0 when nothing below deals damage."""
    stack = s["stack"]
    if len(stack) < 2:
        return 0
    below = stack[-2]
    if below["canceled"]:
        return 0
    plan = below.get("plan")
    if plan is None:
        amount = MAX_NUMBER
    else:
        steps = plan[int(below.get("done") or 0) :]
        hits = [x for x in steps if x["op"] == "damage" and x.get("to") != "each_hero"]
        if not hits:
            return 0
        amount = MAX_NUMBER if hits[0]["amount"] is None else int(hits[0]["amount"])
    return max(0, amount - int(below.get("prevented") or 0))


#: The kinds of stack entry the engine puts there (docs/rules.md A.8, A.9; docs/cards.md).
TRIGGER_KINDS = frozenset({"hired", "survivor", "reckoning", "end_of_fight", "level_gained"})


def filters_to_name(s: State, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The target filters a triggered ability on the stack still has to name (docs/rules.md
    D.23): its card's, while its targets are not named; none for any other entry."""
    if entry["kind"] not in TRIGGER_KINDS or entry["targets"] or entry.get("plan") is None:
        return []
    own = abilities_of(s["cards"][entry["card"]]["def"])
    return [] if own is None or entry.get("ability") is None else own[entry["ability"]]["targets"]


def has_target(s: State, seat: str, flt: dict[str, Any]) -> bool:
    """Some card passes ``flt`` for ``seat`` and may be targeted (not Stealthy in play)."""
    return any(
        passes_filter(s, seat, cid, flt)
        and not (in_play(card) and card["def"]["keywords"].get("stealthy"))
        for cid, card in s["cards"].items()
    )


#: The triggers the attacker controls in a fight (docs/rules.md A.9 steps 4 and 8).
FIGHT_TRIGGERS = ("hired", "survivor")


def step_possible(s: State, entry: dict[str, Any], step: dict[str, Any]) -> bool:
    """Whether an effect step left out could still be done (docs/rules.md A.11 partial
    resolution: do as much as legally possible)."""
    op = step["op"]
    seat = entry["player"]
    st = s["seats"][seat]
    if step["to"] == "target" and not entry["targets"]:
        # A trigger whose targets are not named yet: "If the ability [...] requires a target
        # and there are no valid targets available, the ability still triggers [...] but its
        # ability cannot resolve" (D.23); with one available, it is to be named and done.
        filters = filters_to_name(s, entry)
        return bool(filters) and all(has_target(s, seat, flt) for flt in filters)
    target = referent(s, entry, step)
    card = s["cards"].get(target) if target else None
    if target == "each_hero":
        return True  # a Hero is always in play
    if op in ("gain_level", "lose_level"):
        if card is None or card["def"]["type"] != "hero":
            return False
        level = s["seats"][card["owner"]]["level"]
        return bool(level < MAX_LEVEL if op == "gain_level" else level > MIN_LEVEL)
    if op == "damage":
        return card is not None and in_play(card) and life_of(card, s) is not None
    if op == "heal":
        return card is not None and card["damage"] > 0
    if op in ("put_on_bottom", "put_on_top"):
        return bool(st["zones"]["hand"])
    if op == "take_gold":
        return True
    if op == "collect":  # tokens on a card with life are damage: it must be in play (A.10)
        return card is None or life_of(card, s) is None or in_play(card)
    if op == "steal_gold":
        return bool(s["seats"][other(seat)]["gold"])
    if op == "cancel":
        return len(s["stack"]) >= 2
    if op == "stick":
        return card is not None and in_play(card)
    if op == "modify_cost":
        fight = s.get("fight")
        return bool(fight and fight.get("stage") == "revealed")
    if op == "spill":
        return bool(st["zones"]["deck"])
    if op == "prevent":
        w = s.get("window") or {}
        dmg = w.get("damage")
        return bool(dmg and dmg["amount"] > dmg["prevented"]) or bool(damage_to_prevent(s))
    if op == "unzap":
        return card is not None and card["zapped"]
    if op == "zap":
        return card is not None and in_play(card) and not card["zapped"]
    if op == "draw":
        return False  # an empty deck is an elimination, handled by resolve
    return card is not None and card["zone"] not in ("removed",)


def expect_effect(
    decision: Decision,
    op: str,
    *,
    amount: int | None = None,
    target: str | None = None,
) -> None:
    """The effect command being recorded must be the resolving ability's next effect: the same
    op, amount and target as its card says (docs/rules.md A.11; docs/cards.md)."""
    s = decision.state
    stack = s["stack"]
    if not stack:
        return
    top = stack[-1]
    name = s["cards"][top["card"]]["def"]["name"]
    # Each message below is built only when its check fails (this runs on every effect).
    if top["canceled"]:
        decision.check(
            False, "rule/ability_canceled", f"{name} was canceled: it does nothing", "A.12"
        )
    plan = top.get("plan")
    if plan is None:
        return
    done = int(top.get("done") or 0)
    if done >= len(plan):
        decision.check(
            False, "rule/not_the_cards_effect", f"{name} has no more effects to record", "A.11"
        )
        return
    step = plan[done]
    if step["op"] != op:
        decision.check(
            False, "rule/wrong_effect", f"{name}'s next effect is {step['op']}, not {op}", "A.11"
        )
        return
    if step["amount"] is not None and amount is not None and amount != step["amount"]:
        decision.check(
            False,
            "rule/wrong_amount",
            f"{name}'s {op} is {step['amount']}, not {amount}",
            "A.11",
        )
    want = referent(s, top, step)
    to = step["to"]
    if to == "your_hand":
        card = s["cards"].get(target or "")
        decision.check(
            card is not None and card["owner"] == top["player"] and card["zone"] == "hand",
            "rule/wrong_target",
            f"{name} puts a card from its controller's hand",
            "A.11",
        )
    elif to == "ability":
        decision.check(
            any(e["ref"] == target for e in stack[:-1]),
            "rule/wrong_target",
            f"{name} cancels an ability below it on the stack",
            "A.11",
        )
    elif to != "none" and target != want:
        decision.check(
            False,
            "rule/wrong_target",
            f"{name}'s {op} goes to {want!r} ({to.replace('_', ' ')}), not {target!r}",
            "A.11",
        )
