"""Effect commands: what a resolving ability does, recorded by its controller (docs/rules.md A.10,
A.11, A.12)."""

from __future__ import annotations

from typing import Any

from domain.arguments import face_arg, ids_arg, int_arg, str_arg
from domain.ccg import events as ev
from domain.ccg.abilities import damage_to_prevent, expect_effect, is_targeted
from domain.ccg.cards import MAX_NUMBER
from domain.ccg.damage import heal_by_life_o_suction, life_of, squish_if_dead
from domain.ccg.decision import Command, Decision, check_eliminations, dealt_from_top
from domain.ccg.fights import after_card_left, fight_stage
from domain.ccg.state import (
    MAX_LEVEL,
    MIN_LEVEL,
    SEATS,
    in_play,
    next_step,
    other,
    takes_from_top,
)
from domain.ccg.timing import window_open
from domain.ccg.triggers import trigger_level_gained
from domain.errors import InvalidCommand

MOVE_TARGETS = ("hand", "deck_bottom", "deck_top", "hoard", "stash", "discard")


def effect_context(decision: Decision, command: Command) -> str | None:
    """Effects are recorded while an ability resolves, naming its card (docs/rules.md A.11)."""
    s = decision.state
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    source = command.get("source")
    if source is not None:
        decision.card(str(source))
    top = s["stack"][-1] if s["stack"] else None
    decision.check(
        top is not None, "rule/no_ability_resolving", "effects come from an ability", "A.11"
    )
    if top is not None:
        decision.check(
            source == top["card"] and top["player"] == decision.seat,
            "rule/not_resolving_source",
            "the effect's source must be the resolving ability's card, recorded by its controller",
            "A.11",
        )
    return None if source is None else str(source)


def card_effect(decision: Decision, command: Command) -> tuple[str | None, str, dict[str, Any]]:
    """An effect on the card named by ``card``: the effect's source (:func:`effect_context`),
    the card's id and the card, which must exist."""
    source = effect_context(decision, command)
    cid = str_arg(command, "card")
    return source, cid, decision.card(cid)


def move_destination(command: Command) -> tuple[str, str]:
    """A ``move`` command's ``to`` (one of :data:`MOVE_TARGETS`) and ``face`` (by default face
    down into the deck, else face up)."""
    to = command.get("to")
    if to not in MOVE_TARGETS:
        raise InvalidCommand(
            "request/invalid_zone", f"'to' must be one of {', '.join(MOVE_TARGETS)}"
        )
    return str(to), face_arg(command, "down" if to in ("deck_bottom", "deck_top") else "up")


def target_card(decision: Decision, command: Command) -> tuple[str, dict[str, Any]]:
    """The card named by ``target`` (a card id, or a seat for its Hero): its id and the card."""
    target = str_arg(command, "target")
    if target in SEATS:
        target = decision.state["seats"][target]["hero"]
    return target, decision.card(target)


def decide_unzap(decision: Decision, command: Command) -> None:
    source, cid, card = card_effect(decision, command)
    expect_effect(decision, "unzap", target=cid)
    decision.check(card["zapped"], "rule/not_zapped", "the card is not zapped", "A.10")
    decision.emit(ev.CardUnzapped, card=cid, source=source)


def decide_cancel(decision: Decision, command: Command) -> None:
    source = effect_context(decision, command)
    stack = decision.state["stack"]
    ref = command.get("ref")
    if ref is None:
        decision.require(len(stack) >= 2, "command/nothing_to_cancel", "no ability below this one")
        ref = stack[-2]["ref"] if len(stack) >= 2 else None
    decision.require(
        any(e["ref"] == ref for e in stack),
        "command/nothing_to_cancel",
        f"no ability {ref} on the stack",
    )
    expect_effect(decision, "cancel", target=ref)
    decision.emit(ev.AbilityCanceled, ref=int(ref or 0), source=source)


def decide_damage(decision: Decision, command: Command) -> None:
    source = effect_context(decision, command)
    if command.get("target") == "each_hero":
        damage_each_hero(decision, command, source)
        return
    target, card = target_card(decision, command)
    amount = int_arg(command, "amount", hi=MAX_NUMBER)
    expect_effect(decision, "damage", amount=amount, target=target)
    decision.check(
        in_play(card),
        "rule/not_in_play",
        f"{target!r} is out of play (face down or not on the table): it cannot be hit",
        "A.3",
    )
    decision.check(
        life_of(card, decision.state) is not None,
        "rule/no_life",
        "damage goes on a Hero, Ally or Monster with life",
        "A.10",
    )
    decision.check(
        not (card["def"]["keywords"].get("stealthy") and is_targeted(decision.state, target)),
        "rule/stealthy_target",
        "a Stealthy card cannot be targeted",
        "A.12",
    )
    amount -= prevented_of(decision, source, amount)
    decision.emit(ev.DamageDealt, source=source, target=target, amount=amount)
    if squish_if_dead(decision, target):
        after_card_left(decision)
    heal_by_life_o_suction(decision, source, amount)


def prevented_of(decision: Decision, source: str | None, amount: int) -> int:
    """How much of ``amount``, the damage the resolving ability (card ``source``) deals now, a
    Prevent that interrupted it stops (docs/rules.md D.22); its ``DamageDealt`` uses it up."""
    stack = decision.state["stack"]
    if not stack or source is None or stack[-1]["card"] != source:
        return 0
    return min(amount, int(stack[-1].get("prevented") or 0))


def damage_each_hero(decision: Decision, command: Command, source: str | None) -> None:
    """X damage on each Hero at once (``"target": "each_hero"``): one atomic event, recorded as
    a ``DamageDealt`` per Hero (the other seat's first, the second by the rules), and one state
    check after both, so that two Heroes reaching their life together leave together and the
    game is a draw (docs/rules.md A.13, D.9). No Hero is targeted (Stealthy does not stop it)."""
    amount = int_arg(command, "amount", hi=MAX_NUMBER)
    expect_effect(decision, "damage", amount=amount, target="each_hero")
    seats = decision.state["seats"]
    heroes = [seats[other(decision.seat)]["hero"], seats[decision.seat]["hero"]]
    decision.held = True
    try:
        for n, hero in enumerate(heroes):
            actor = None if n == 0 else "rules"
            decision.emit(ev.DamageDealt, actor=actor, source=source, target=hero, amount=amount)
    finally:
        decision.held = False
    check_eliminations(decision)
    for _ in heroes:
        heal_by_life_o_suction(decision, source, amount)


def decide_heal(decision: Decision, command: Command) -> None:
    source = effect_context(decision, command)
    target, card = target_card(decision, command)
    amount = int_arg(command, "amount", hi=MAX_NUMBER)
    expect_effect(decision, "heal", amount=amount, target=target)
    decision.check(
        card["damage"] > 0, "rule/nothing_to_heal", "a card with no damage cannot be healed", "A.10"
    )
    decision.emit(ev.Healed, source=source, target=target, amount=min(amount, card["damage"]))


def decide_steal(decision: Decision, command: Command) -> None:
    source = effect_context(decision, command)
    amount = int_arg(command, "amount", hi=MAX_NUMBER)
    victim = command.get("from", other(decision.seat))
    if victim not in SEATS:
        raise InvalidCommand("request/invalid_seat", "'from' must be 'A' or 'B'")
    expect_effect(decision, "steal_gold", amount=amount)
    decision.check(
        victim != decision.seat, "rule/wrong_target", "gold is stolen from the opponent", "A.10"
    )
    decision.emit(
        ev.GoldStolen,
        source=source,
        from_player=victim,
        to_player=decision.seat,
        amount=min(amount, decision.state["seats"][victim]["gold"]),
    )


def decide_take_gold(decision: Decision, command: Command) -> None:
    source = effect_context(decision, command)
    amount = int_arg(command, "amount", hi=MAX_NUMBER)
    expect_effect(decision, "take_gold", amount=amount)
    decision.emit(ev.GoldTaken, source=source, player=decision.seat, amount=amount)


def decide_collect(decision: Decision, command: Command) -> None:
    source = effect_context(decision, command)
    cid = str(command.get("card") or source or "")
    card = decision.card(cid)
    amount = int_arg(command, "amount", hi=MAX_NUMBER)
    expect_effect(decision, "collect", amount=amount, target=cid)
    if life_of(card, decision.state) is None:
        decision.emit(ev.TokensCollected, source=source, card=cid, amount=amount)
        return
    # Tokens on any card with a life icon are always damage (docs/rules.md A.10): putting
    # them there deals that damage, which can squish the card.
    decision.check(
        in_play(card),
        "rule/not_in_play",
        f"{cid!r} is out of play (face down or not on the table): tokens cannot go on it",
        "A.3",
    )
    decision.emit(ev.DamageDealt, source=source, target=cid, amount=amount)
    if squish_if_dead(decision, cid):
        after_card_left(decision)
    heal_by_life_o_suction(decision, source, amount)


def level_effect(decision: Decision, command: Command, op: str) -> tuple[str | None, str, int, int]:
    """A level effect ``op`` (``gain_level``, ``lose_level``): its source, the player whose Hero
    it names (``target``: a seat or its Hero's id; a level is a player's, another card has
    none), its amount and that player's level now."""
    source = effect_context(decision, command)
    cid, card = target_card(decision, command)
    decision.require(
        card["def"]["type"] == "hero" and decision.state["seats"][card["owner"]]["hero"] == cid,
        "command/not_a_hero",
        f"{cid!r} is not a player's Hero: only a Hero's player has a level",
    )
    seat = str(card["owner"])
    amount = int_arg(command, "amount", hi=MAX_NUMBER)
    expect_effect(decision, op, amount=amount, target=cid)
    return source, seat, amount, int(decision.state["seats"][seat]["level"])


def decide_gain_level(decision: Decision, command: Command) -> None:
    """An ability raises a level by X, never past 10 (docs/rules.md A.2, A.8): a gain at level
    10 is refused (recorded in record mode, changing nothing), a gain past it stops at 10. A
    level gained puts its player's "when you gain a level" abilities on the stack (D.21)."""
    source, seat, amount, level = level_effect(decision, command, "gain_level")
    decision.check(
        level < MAX_LEVEL,
        "rule/level_limit",
        f"{seat} is at level {MAX_LEVEL}: a level never goes past {MAX_LEVEL}",
        "A.2",
    )
    new = min(MAX_LEVEL, level + amount)
    decision.emit(ev.LevelGained, source=source, player=seat, amount=new - level, level=new)
    if new > level and not decision.finished:
        trigger_level_gained(decision, seat)


def decide_lose_level(decision: Decision, command: Command) -> None:
    """An ability lowers a level by X, never below 1 (docs/rules.md A.1, A.2): a loss at level 1
    is refused (recorded in record mode, changing nothing), a loss past it stops at 1."""
    source, seat, amount, level = level_effect(decision, command, "lose_level")
    decision.check(
        level > MIN_LEVEL,
        "rule/level_limit",
        f"{seat} is at level {MIN_LEVEL}: a level never goes below {MIN_LEVEL}",
        "A.2",
    )
    new = max(MIN_LEVEL, level - amount)
    decision.emit(ev.LevelLost, source=source, player=seat, amount=level - new, level=new)


def decide_stick(decision: Decision, command: Command) -> None:
    source = effect_context(decision, command)
    cid = str(command.get("card") or source or "")
    card = decision.card(cid)
    host = str_arg(command, "target")
    host_card = decision.card(host)
    expect_effect(decision, "stick", target=host)
    decision.check(
        cid == source, "rule/wrong_target", "a Curse sticks itself, not another card", "A.10"
    )
    decision.check(
        in_play(host_card), "rule/target_not_in_play", "Curses stick to cards in play", "A.10"
    )
    decision.check(
        card["def"].get("subtype") == "curse", "rule/not_a_curse", "only Curses stick", "A.5"
    )
    decision.emit(ev.CardStuck, source=source, card=cid, host=host)


def decide_stash(decision: Decision, command: Command) -> None:
    source, cid, _ = card_effect(decision, command)
    expect_effect(decision, "stash", target=cid)
    decision.emit(ev.CardStashed, card=cid, face=face_arg(command, "down"), source=source)
    after_card_left(decision)


def decide_spill(decision: Decision, command: Command) -> None:
    s = decision.state
    server = decision.dealt_by_server(command)  # docs/rules.md E.1
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    source = command.get("source")
    if s["stack"] or source is not None:
        effect_context(decision, command)
    else:
        decision.check(False, "rule/no_ability_resolving", "spills come from an ability", "A.12")
    deck = s["seats"][decision.seat]["zones"]["deck"]
    step = next_step(s)
    if server:  # the top X as the server deals them
        amount = step["amount"] if step is not None and step["op"] == "spill" else 1
        if command.get("amount") is not None:
            amount = int_arg(command, "amount", lo=0, hi=MAX_NUMBER)
        cards = dealt_from_top(decision, decision.seat, amount)
        s = decision.state
    else:
        cards = ids_arg(command, "cards")
    for cid in cards:
        decision.in_zone(cid, decision.seat, "deck")
    if step is not None and step["op"] == "spill" and len(cards) == min(step["amount"], len(deck)):
        expect_effect(decision, "spill")  # Spill X with fewer cards: spill them all (D.13)
    else:
        expect_effect(decision, "spill", amount=len(cards))
    decision.check(
        takes_from_top(s, decision.seat, cards),
        "rule/not_the_top_card",
        "Spill takes the top cards of the deck: a card put on the top or the bottom keeps "
        "its place (docs/rules.md D.20)",
        "A.12",
    )
    decision.emit(ev.CardsSpilled, player=decision.seat, cards=cards, source=source)


def decide_discard(decision: Decision, command: Command) -> None:
    card_leaves(decision, command, ev.CardDiscarded)


def decide_reveal_card(decision: Decision, command: Command) -> None:
    source, cid, _ = card_effect(decision, command)
    expect_effect(decision, "reveal", target=cid)
    decision.emit(ev.CardRevealed, card=cid, source=source)


def decide_remove(decision: Decision, command: Command) -> None:
    card_leaves(decision, command, ev.CardRemoved)


def card_leaves(decision: Decision, command: Command, cls: type[ev.Event]) -> None:
    """An effect that takes the named card from wherever it is (``cls``: ``CardDiscarded``,
    ``CardRemoved``); a fight that loses its attack card so ends (docs/rules.md A.9)."""
    source, cid, _ = card_effect(decision, command)
    expect_effect(decision, "discard" if cls is ev.CardDiscarded else "remove", target=cid)
    decision.emit(cls, card=cid, source=source)
    after_card_left(decision)


def decide_move(decision: Decision, command: Command) -> None:
    source, cid, _ = card_effect(decision, command)
    to, face = move_destination(command)
    if to in ("deck_bottom", "deck_top"):
        expect_effect(
            decision, "put_on_bottom" if to == "deck_bottom" else "put_on_top", target=cid
        )
    else:
        expect_effect(decision, f"move to {to}", target=cid)
    decision.emit(ev.CardMoved, card=cid, to=to, face=face, source=source)
    after_card_left(decision)


def decide_prevent(decision: Decision, command: Command) -> None:
    """Prevent X: stop up to X of the announced damage (docs/rules.md A.12); if less is dealt,
    all of it is prevented."""
    source = effect_context(decision, command)
    amount = int_arg(command, "amount", hi=MAX_NUMBER)
    expect_effect(decision, "prevent", amount=amount)
    window = decision.state.get("window") or {}
    pending = window.get("damage")
    if pending is not None:
        left = max(0, pending["amount"] - pending["prevented"])
    else:  # the damage of the ability it interrupts (D.22)
        left = damage_to_prevent(decision.state)
        decision.check(
            left > 0,
            "rule/no_damage_to_prevent",
            "no damage is announced, nor dealt by the ability this interrupts",
            "A.12",
        )
    decision.emit(ev.DamagePrevented, source=source, amount=min(amount, left))


def decide_modify_cost(decision: Decision, command: Command) -> None:
    """An effect changes the revealed Monster's hire cost (docs/rules.md A.9, A.11)."""
    fight = fight_stage(decision, "revealed")
    cid = str_arg(command, "card")
    decision.require(
        cid == fight["card"], "command/not_the_monster", "only the revealed card's cost"
    )
    cost = int_arg(command, "cost", hi=MAX_NUMBER)
    source = effect_context(decision, command)
    card = decision.state["cards"][cid]
    now = card["cost_mod"] if card["cost_mod"] is not None else int(card["def"].get("cost") or 0)
    step = next_step(decision.state)
    delta = cost - now
    if step and step["op"] == "modify_cost" and cost == 0 and now + int(step["amount"]) <= 0:
        delta = int(step["amount"])  # no cost goes below 0 (docs/rules.md A.1)
    expect_effect(decision, "modify_cost", amount=delta, target=cid)
    decision.emit(ev.MonsterCostModified, card=cid, cost=cost, source=source)


def decide_zap(decision: Decision, command: Command) -> None:
    """A card is zapped by an effect (:func:`decide_zap_effect`) or to pay an ability's cost,
    never alone (docs/rules.md A.10)."""
    seat = decision.seat
    decision.require(
        decision.state["status"] == "playing", "command/not_playing", "the game is not in play"
    )
    cid = str_arg(command, "card")
    card = decision.card(cid)
    decision.require(in_play(card), "command/card_not_there", "only a card in play can be zapped")
    decision.check(not card["zapped"], "rule/card_zapped", "the card is already zapped", "A.10")
    if decision.state["stack"]:
        decide_zap_effect(decision, command, cid)
        return
    decision.in_zone(cid, seat, "hero", "hoard", "stash")
    # The window first, as for abilities and Mischief: a zap in cooldown is refused as such.
    decision.check(window_open(decision.state), "rule/window_closed", "no zapping now", "A.11")
    decision.check(
        False,
        "rule/zap_needs_ability",
        "a card is zapped to pay an ability's cost ('activate') or by an effect, never alone",
        "A.10",
    )
    decision.emit(ev.CardZapped, card=cid, source=command.get("source"))


def decide_zap_effect(decision: Decision, command: Command, cid: str) -> None:
    """A ``zap`` recorded while an ability resolves is one of its effects (docs/rules.md A.10)."""
    source = effect_context(decision, command)
    expect_effect(decision, "zap", target=cid)
    decision.emit(ev.CardZapped, card=cid, source=source)
