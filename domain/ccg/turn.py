"""A turn (docs/rules.md A.8): warmup, the draw, munchkining actions, cooldown."""

from __future__ import annotations

from typing import Any

from domain.arguments import int_arg, str_arg
from domain.ccg import events as ev
from domain.ccg.abilities import expect_effect, play_mischief
from domain.ccg.cards import MAX_NUMBER
from domain.ccg.decision import Command, Decision, dealt_from_top, end_if_decided
from domain.ccg.state import MAX_LEVEL, PLAY_ZONES, drawable, in_play, other
from domain.ccg.timing import check_turn
from domain.ccg.triggers import trigger, trigger_level_gained
from domain.errors import ImpossibleCommand
from domain.fold import State


def seat_in_play(decision: Decision, seat: str) -> list[str]:
    """The seat's cards in play, in the table's order, found in one pass over the table (most
    of its cards are out of play: PLAY_ZONES is the cheap test)."""
    return [
        cid
        for cid, card in decision.state["cards"].items()
        if card["zone"] in PLAY_ZONES and card["owner"] == seat and in_play(card)
    ]


def start_turn(decision: Decision, seat: str, turn: int) -> None:
    """Warmup: flip, unzap, reckoning (Bleeding), unstash; stop at the draw (docs/rules.md A.8)."""
    decision.emit(ev.TurnStarted, actor="rules", player=seat, turn=turn)
    decision.emit(ev.RunAwayMarkerFlipped, actor="rules", player=seat, side="run_away")
    cards = decision.state["cards"]
    zapped = [cid for cid in seat_in_play(decision, seat) if cards[cid]["zapped"]]
    decision.emit(ev.CardsUnzapped, actor="rules", player=seat, cards=zapped)
    if not bleed(decision, seat, after=None):
        reckon(decision, seat)


def bleed(decision: Decision, seat: str, after: str | None) -> bool:
    """Announce the damage of the next Bleeding Curse stuck to ``seat``'s Hero (the first, or
    the one after Curse ``after``, in the order they were stuck): the unzap step is over, so
    interrupts such as Prevent answer it before it is dealt (docs/rules.md D.1, D.18, D.28);
    whether one was announced. A Curse ``after`` no longer stuck ends the Bleeding."""
    hero_id = decision.state["seats"][seat]["hero"]
    stuck = list(decision.state["cards"][hero_id]["stuck"])
    if after is not None:
        if after not in stuck:
            return False
        stuck = stuck[stuck.index(after) + 1 :]
    for curse in stuck:
        amount = decision.state["cards"][curse]["def"]["keywords"].get("bleeding")
        if amount:
            decision.emit(
                ev.DamageAnnounced,
                actor="rules",
                target=hero_id,
                amount=int(amount),
                reason="bleeding",
                source=curse,
            )
            return True
    return False


def deal_bleeding(decision: Decision, announced: dict[str, Any]) -> None:
    """A Bleeding Curse's damage window closed: the rules deal what was not prevented, then the
    next Curse bleeds, then the reckoning triggers (docs/rules.md D.18, D.28)."""
    amount = max(0, int(announced["amount"]) - int(announced["prevented"]))
    curse, target = announced["source"], announced["target"]
    decision.emit(ev.DamageDealt, actor="rules", source=curse, target=target, amount=amount)
    seat = decision.state["cards"][target]["owner"]
    if not decision.finished and not bleed(decision, seat, after=curse):
        reckon(decision, seat)


def reckon(decision: Decision, seat: str) -> None:
    """Reckoning triggers of the active player's cards in play (docs/rules.md A.8 step 3); the
    warmup goes on when they have resolved (stack.continue_after_stack)."""
    if decision.finished:
        return
    put = False
    for cid in seat_in_play(decision, seat):
        put = trigger(decision, cid, "reckoning", seat) or put
    if put:
        return
    continue_warmup(decision, seat)


def continue_warmup(decision: Decision, seat: str) -> None:
    """Unstash (one uninterruptible action) and the empty-deck check (docs/rules.md A.8 4-5)."""
    stash = list(decision.state["seats"][seat]["zones"]["stash"])
    tokens = sum(
        decision.state["cards"][cid]["damage"] + decision.state["cards"][cid]["tokens"]
        for cid in stash
    )
    curses = [cur for cid in stash for cur in decision.state["cards"][cid]["stuck"]]
    decision.emit(
        ev.StashUnstashed,
        actor="rules",
        player=seat,
        cards=stash,
        tokens_returned=tokens,
        curses=curses,
    )
    if not decision.state["seats"][seat]["zones"]["deck"]:
        decision.emit(ev.PlayerEliminated, actor="rules", player=seat, reason="deck")
        end_if_decided(decision)


def loot_rank_total(s: State, seat: str) -> int:
    total = 0
    for card in s["cards"].values():
        in_seats_play = card["zone"] in PLAY_ZONES and card["owner"] == seat and in_play(card)
        if in_seats_play and card["def"]["type"] == "loot":
            total += card["def"].get("rank") or 0
    return total


def decide_draw(decision: Decision, command: Command) -> None:
    """The turn's draw (A.8) or an ability's (A.11): the top card of the drawer's own deck,
    as far as the table knows its order (docs/rules.md D.20)."""
    s, seat = decision.state, decision.seat
    server = decision.dealt_by_server(command)  # docs/rules.md E.1
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    if not server:
        cid = str_arg(command, "card")
        decision.in_zone(cid, seat, "deck")
    resolving = bool(s["stack"])
    if resolving:
        decision.check(
            s["stack"][-1]["player"] == seat,
            "rule/not_your_ability",
            "only the resolving ability's controller draws for it",
            "A.11",
        )
        source = command.get("source")
        decision.check(
            source is None or source == s["stack"][-1]["card"],
            "rule/not_resolving_source",
            "the draw's source must be the resolving ability's card",
            "A.11",
        )
        expect_effect(decision, "draw")
    else:
        decision.check(
            s["active"] == seat, "rule/not_your_turn", "only the active player draws", "A.8"
        )
        decision.check(
            s["phase"] == "warmup" and s["step"] == "draw",
            "rule/wrong_step",
            "draw only in the warmup draw step (or while an ability resolves)",
            "A.8",
        )
    if server:  # the top card as the server deals it (docs/rules.md D.20, E.1)
        decision.require(
            bool(s["seats"][seat]["zones"]["deck"]), "command/empty_deck", "the deck is empty"
        )
        (cid,) = dealt_from_top(decision, seat, 1)
        s = decision.state
    # A card put on the top or the bottom by an effect keeps its place: the message names no
    # other card, so a refusal tells nothing of the deck (docs/rules.md A.4, D.20).
    decision.check(
        cid in drawable(s, seat),
        "rule/not_the_top_card",
        f"{cid!r} is not the top card of the deck: a card put on the top or the bottom "
        "keeps its place until the deck is shuffled",
        "D.20",
    )
    decision.emit(ev.CardDrawn, player=seat, card=cid)
    if not resolving and s["phase"] == "warmup" and s["step"] == "draw" and s["active"] == seat:
        # Only the active player's own draw ends its draw step; a flagged draw by the other seat
        # (or a second one) is an extra card, and advances nothing (docs/rules.md "Record mode").
        decision.emit(ev.PhaseStarted, actor="rules", phase="munchkining", step=None)


def decide_play(decision: Decision, command: Command) -> None:
    s, seat = decision.state, decision.seat
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(command, "card")
    card = decision.in_zone(cid, seat, "hand")
    kind = card["def"]["type"]
    name = card["def"]["name"]
    if kind == "loot":
        check_turn(decision, seat)
        total = loot_rank_total(s, seat)
        level = s["seats"][seat]["level"]
        rank = card["def"].get("rank") or 0
        decision.check(
            total <= level and total + rank <= level,
            "rule/rank_limit",
            f"Loot rank in play would be {total + rank}, above level {level}",
            "A.8",
        )
        decision.emit(ev.LootPlayed, player=seat, card=cid)
    elif kind == "location":
        check_turn(decision, seat)
        has = any(
            s["cards"][x]["def"]["type"] == "location" for x in s["seats"][seat]["zones"]["hoard"]
        )
        decision.check(not has, "rule/location_limit", "one Location in play at a time", "A.8")
        decision.emit(ev.LocationPlayed, player=seat, card=cid)
    elif kind == "ally":
        check_turn(decision, seat)
        cost = card["def"].get("cost") or 0
        gold = int_arg(command, "gold", cost, hi=MAX_NUMBER)
        decision.require(
            gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small"
        )
        decision.check(gold >= cost, "rule/underpaid", f"{name} costs {cost} gold", "A.8")
        decision.emit(ev.AllyPlayed, player=seat, card=cid, gold_paid=gold)
    elif kind == "mischief":
        play_mischief(decision, command, card)
    else:
        # No zone takes a Monster or Hero played from hand: impossible in both modes (A.5).
        raise ImpossibleCommand(
            "command/not_playable", f"a {kind} is only committed in a fight, never played"
        )


def decide_squish(decision: Decision, command: Command) -> None:
    seat = decision.seat
    decision.require(
        decision.state["status"] == "playing", "command/not_playing", "the game is not in play"
    )
    cid = str_arg(command, "card")
    card = decision.in_zone(cid, seat, "hoard")
    check_turn(decision, seat)
    decision.check(
        card["def"]["type"] in ("loot", "location"),
        "rule/not_squishable",
        "only Loot and Locations are squished by action",
        "A.8",
    )
    decision.check(
        not card["zapped"], "rule/card_zapped", "only an unzapped card may be squished", "A.8"
    )
    decision.emit(ev.CardSquished, card=cid, reason="action")


def decide_end_turn(decision: Decision, command: Command) -> None:
    s, seat = decision.state, decision.seat
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    check_turn(decision, seat)
    # Refused in record mode too (docs/rules.md "Record mode"): the engine would run a cooldown
    # and a warmup for a turn nobody ended, or leave a fight or an ability across the turns.
    decision.require(s["active"] == seat, "command/not_your_turn", "only the active player ends it")
    decision.require(s["fight"] is None, "command/fight_in_progress", "finish the fight first")
    decision.require(not s["stack"], "command/ability_resolving", "resolve the stack first")
    decision.emit(ev.PhaseStarted, phase="cooldown", step="level")
    st = decision.state["seats"][seat]
    if st["level"] < MAX_LEVEL:
        decision.emit(ev.LevelIncreased, actor="rules", player=seat, level=st["level"] + 1)
        # "When you gain a level" abilities (never from level 10): the cooldown goes on once
        # they have resolved (stack.continue_after_stack).
        if trigger_level_gained(decision, seat):
            return
    continue_cooldown(decision, seat)


def continue_cooldown(decision: Decision, seat: str) -> None:
    """Cooldown steps 2-3, then the other seat's turn (docs/rules.md A.8)."""
    s = decision.state
    st = s["seats"][seat]
    if st["gold"] < st["level"]:
        decision.emit(ev.GoldRefilled, actor="rules", player=seat, amount=st["level"] - st["gold"])
    decision.emit(ev.TurnEnded, actor="rules", player=seat, turn=s["turn"])
    start_turn(decision, other(seat), decision.state["turn"] + 1)
