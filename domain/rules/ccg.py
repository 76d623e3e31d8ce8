"""The Munchkin Collectible Card Game: ``decide(state, command) -> [events]`` (RULES.md A).

A pure decision: checks (``check`` raises :class:`RuleViolation` in strict mode and flags the
events in record mode; ``require`` always raises :class:`ImpossibleCommand`), then events. Steps
the rules perform on their own (warmup, the cheating check, hire gold, strikes, end-of-fight moves,
cooldown, eliminations) are emitted here too, by the engine (``seat="rules"``).

>>> rs = find_ruleset("munchkin-ccg")
>>> rs.name, rs.rules_version
('munchkin-ccg', 'ccg-2018-07')
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from domain import events as ev
from domain.cards import check_deck, is_monster_like, normalize_card
from domain.errors import ImpossibleCommand, InvalidCommand, RuleViolation
from domain.rules import find_ruleset, register
from domain.state import SEATS, State, evolve, in_play, initial_state, other, replay

Command = Mapping[str, Any]
RULES_VERSION = "ccg-2018-07"
MAX_LEVEL = 10


def commitment(salt: str, card_id: str, name: str) -> str:
    """The salted hash the defender sees for a face-down attack card (RULES.md A.9 step 1).

    >>> len(commitment("s", "c1", "Sample Goblin Horde"))
    64
    """
    return hashlib.sha256(f"{salt}:{card_id}:{name}".encode()).hexdigest()


# ============================================================================ context


class Ctx:
    """One decision in progress: the evolving state, the events so far, the violations."""

    __slots__ = ("cause", "command", "events", "s", "seat", "strict", "violations")

    def __init__(self, state: State, command: Command) -> None:
        self.s = state
        self.command = command
        self.events: list[ev.Event] = []
        self.violations: list[str] = []
        self.strict = state.get("mode", "strict") != "record"
        self.seat: str = command.get("seat", "rules")
        self.cause: int | None = None

    # -- checks ---------------------------------------------------------------------------

    def check(self, ok: bool, code: str, message: str, rule: str) -> None:
        """A rule of the game: raise in strict mode, flag the events in record mode."""
        if ok:
            return
        if self.strict:
            raise RuleViolation(code, message, rule)
        if code not in self.violations:
            self.violations.append(code)

    @staticmethod
    def require(ok: bool, code: str, message: str) -> None:
        """A physical possibility: always raise when it does not hold."""
        if not ok:
            raise ImpossibleCommand(code, message)

    # -- emitting -------------------------------------------------------------------------

    def emit(self, cls: type[ev.Event], *, by: str | None = None, **fields: Any) -> None:
        """Apply one event (``by="rules"`` for engine steps) and run the state-based checks."""
        if self.s.get("status") == "finished":
            return
        seat = by or self.seat
        violation = ",".join(self.violations) if (self.violations and by is None) else None
        event = cls(seat=seat, cause=self.cause, violation=violation, **fields)
        self.s = evolve(self.s, event)
        self.events.append(event)
        if self.cause is None:
            self.cause = self.s["version"]
        if cls not in (ev.PlayerEliminated, ev.GameEnded) and not self.s.get("stack"):
            check_eliminations(self)

    @property
    def finished(self) -> bool:
        return bool(self.s.get("status") == "finished")


def check_eliminations(ctx: Ctx) -> None:
    """RULES.md A.13 / D.9: a Hero whose damage reaches its life is out; last Hero wins."""
    s = ctx.s
    if s.get("status") != "playing":
        return
    out = []
    for seat in SEATS:
        st = s["seats"][seat]
        if st["eliminated"]:
            continue
        hero = s["cards"][st["hero"]]
        life = hero["def"].get("life") or 0
        if hero["damage"] >= life:
            out.append(seat)
    if not out:
        return
    for seat in out:
        ctx.emit(ev.PlayerEliminated, by="rules", player=seat, reason="life")
    end_if_decided(ctx)


def end_if_decided(ctx: Ctx) -> None:
    alive = [seat for seat in SEATS if not ctx.s["seats"][seat]["eliminated"]]
    if len(alive) <= 1:
        if ctx.s.get("fight") is not None:  # an elimination mid-fight ends the fight too
            ctx.emit(ev.FightEnded, by="rules", outcome="game_over")
        ctx.emit(ev.GameEnded, by="rules", winner=alive[0] if alive else "draw")


# ============================================================================ helpers


def seat_arg(command: Command) -> str:
    seat = command.get("seat")
    if seat not in SEATS:
        raise InvalidCommand(
            "request/invalid_seat", "'seat' must be 'A' or 'B'", {"seat": ["'A' or 'B'"]}
        )
    return str(seat)


def str_arg(command: Command, key: str) -> str:
    value = command.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidCommand(
            "request/missing_field", f"'{key}' is required", {key: ["a non-empty string"]}
        )
    return value


def int_arg(command: Command, key: str, default: int | None = None, lo: int = 0) -> int:
    value = command.get(key, default)
    if value is None or isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise InvalidCommand(
            "request/invalid_number",
            f"'{key}' must be a whole number of at least {lo}",
            {key: [f"a whole number >= {lo}"]},
        )
    return value


def ids_arg(command: Command, key: str) -> list[str]:
    value = command.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidCommand(
            "request/invalid_list", f"'{key}' must be a list of card ids", {key: ["list of ids"]}
        )
    if len(set(value)) != len(value):
        raise InvalidCommand(
            "request/duplicate_ids", f"'{key}' names a card twice", {key: ["distinct ids"]}
        )
    return list(value)


def card_of(ctx: Ctx, cid: str) -> dict[str, Any]:
    card = ctx.s["cards"].get(cid)
    ctx.require(card is not None, "command/unknown_card", f"no card {cid!r} in this game")
    assert card is not None
    return card


def require_in(ctx: Ctx, cid: str, seat: str, *zones: str) -> dict[str, Any]:
    """The card exists and is in one of ``seat``'s ``zones`` (else physically impossible)."""
    card = card_of(ctx, cid)
    ctx.require(
        card["owner"] == seat and card["zone"] in zones,
        "command/card_not_there",
        f"card {cid!r} is not in seat {seat}'s {' or '.join(zones)}",
    )
    return card


def hero_of(s: State, seat: str) -> dict[str, Any]:
    card: dict[str, Any] = s["cards"][s["seats"][seat]["hero"]]
    return card


def window_open(s: State) -> bool:
    """RULES.md A.11 / D.1: open after the active player's unzap step, closed in cooldown."""
    if s.get("status") != "playing":
        return False
    return s["phase"] == "munchkining" or (s["phase"] == "warmup" and s["step"] == "draw")


def check_turn(ctx: Ctx, seat: str) -> None:
    """Munchkining actions: the active player, in munchkining, outside a fight (RULES.md A.8)."""
    s = ctx.s
    ctx.check(s["active"] == seat, "rule/not_your_turn", "only the active player may", "A.8")
    ctx.check(s["phase"] == "munchkining", "rule/wrong_phase", "only during munchkining", "A.8")
    ctx.check(s["fight"] is None, "rule/fight_in_progress", "a fight is in progress", "A.9")
    ctx.check(not s["stack"], "rule/ability_resolving", "an ability is still resolving", "A.11")


def loot_rank_total(s: State, seat: str) -> int:
    total = 0
    for cid, card in s["cards"].items():
        del cid
        if card["owner"] == seat and card["def"]["type"] == "loot" and in_play(card):
            total += card["def"].get("rank") or 0
    return total


def targets_of(ctx: Ctx, command: Command) -> list[str]:
    raw = command.get("targets") or []
    if isinstance(raw, str):
        raw = [raw]
    targets = ids_arg({"targets": raw}, "targets")
    for t in targets:
        card = card_of(ctx, t)
        ctx.check(
            not (in_play(card) and card["def"]["keywords"].get("stealthy")),
            "rule/stealthy_target",
            f"{card['def']['name']} is Stealthy and cannot be targeted",
            "A.12",
        )
    return targets


def is_interrupt(card: dict[str, Any]) -> bool:
    d = card["def"]
    kw = d["keywords"]
    return bool(
        d.get("subtype") == "interrupt"
        or kw.get("interrupt")
        or kw.get("prevent")
        or kw.get("regenerate")
    )


def life_of(card: dict[str, Any], s: State) -> int | None:
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


def monster_stats(card: dict[str, Any]) -> tuple[int, int]:
    """(power, life) of a hired Monster; Monstrous X gives X and X (RULES.md D.5)."""
    d = card["def"]
    if d["type"] != "monster" and d["keywords"].get("monstrous"):
        x = int(d["keywords"]["monstrous"])
        return x, x
    return int(d.get("power") or 0), int(d.get("life") or 0)


# ============================================================================ setup (A.7)


def create(spec: Mapping[str, Any]) -> list[ev.Event]:
    """Events that set a game up: one ``GameCreated`` (RULES.md A.6, A.7 step 1).

    Raises :class:`InvalidCommand` for malformed seats and :class:`RuleViolation` for decks that
    break the format (checked in both modes: a deck is registered before play).
    """
    mode = spec.get("mode", "strict")
    fmt = spec.get("format", "prime")
    if mode not in ("strict", "record"):
        raise InvalidCommand("request/invalid_mode", "mode must be 'strict' or 'record'")
    seats = spec.get("seats")
    if not isinstance(seats, list) or sorted(s.get("seat") for s in seats) != ["A", "B"]:
        raise InvalidCommand("request/invalid_seats", "exactly two seats, 'A' and 'B'")
    seen: set[str] = set()
    out_seats = []
    for seat in sorted(seats, key=lambda x: x["seat"]):
        hero = {**normalize_card(seat["hero"]), "id": str(seat["hero"]["id"])}
        deck = [{**normalize_card(c), "id": str(c["id"])} for c in seat["deck"]]
        for cid in [hero["id"], *(c["id"] for c in deck)]:
            if cid in seen:
                raise InvalidCommand("request/duplicate_ids", f"card id {cid!r} used twice")
            seen.add(cid)
        check_deck(fmt, hero, deck)
        player = seat.get("player")
        if not isinstance(player, str) or not player.strip():
            raise InvalidCommand("request/invalid_player", "each seat needs a player name")
        out_seats.append({"seat": seat["seat"], "player": player, "hero": hero, "deck": deck})
    return [
        ev.GameCreated(
            seat="rules",
            game_id=str(spec.get("game_id", "")),
            ruleset="munchkin-ccg",
            rules_version=RULES_VERSION,
            mode=mode,
            format=fmt,
            seats=out_seats,
            labels=dict(spec.get("labels") or {}),
        )
    ]


def d_draw_opening(ctx: Ctx, c: Command) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s["status"] == "setup", "command/not_in_setup", "the game is past setup")
    ctx.check(
        seat not in s["setup"]["opened"], "rule/already_drawn", "opening hand already drawn", "A.7"
    )
    cards = ids_arg(c, "cards")
    for cid in cards:
        require_in(ctx, cid, seat, "deck")
    ctx.check(len(cards) == 6, "rule/opening_hand_size", "the opening hand is 6 cards", "A.7")
    ctx.emit(ev.OpeningHandDrawn, player=seat, cards=cards)


def d_roll_first(ctx: Ctx, c: Command) -> None:
    s = ctx.s
    ctx.require(s["status"] == "setup", "command/not_in_setup", "the game is past setup")
    ctx.check(
        s["step"] == "roll_first", "rule/out_of_order", "both opening hands come first", "A.7"
    )
    rolls = c.get("rolls")
    if (
        not isinstance(rolls, dict)
        or sorted(rolls) != ["A", "B"]
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in rolls.values())
    ):
        raise InvalidCommand("request/invalid_rolls", "rolls must be {'A': 1-6, 'B': 1-6}")
    ctx.require(all(1 <= v <= 6 for v in rolls.values()), "command/bad_die", "a die shows 1-6")
    ctx.emit(ev.FirstPlayerRolled, rolls=dict(rolls), tie=rolls["A"] == rolls["B"])


def d_choose_first(ctx: Ctx, c: Command) -> None:
    s = ctx.s
    ctx.require(s["status"] == "setup", "command/not_in_setup", "the game is past setup")
    ctx.check(s["step"] == "choose_first", "rule/out_of_order", "roll for first first", "A.7")
    first = c.get("first")
    if first not in SEATS:
        raise InvalidCommand("request/invalid_seat", "'first' must be 'A' or 'B'")
    ctx.check(
        ctx.seat == s["setup"].get("roll_winner"),
        "rule/not_roll_winner",
        "the higher roller chooses who goes first",
        "A.7",
    )
    ctx.emit(ev.FirstPlayerChosen, chooser=ctx.seat, first=first)
    ctx.emit(ev.GoldGranted, by="rules", player=first, amount=1)
    ctx.emit(ev.GoldGranted, by="rules", player=other(first), amount=2)


def _mulligan_turn(ctx: Ctx) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s["status"] == "setup", "command/not_in_setup", "the game is past setup")
    ctx.check(s["step"] == "mulligan", "rule/out_of_order", "choose the first player first", "A.7")
    first = s["setup"].get("first")
    decided = s["setup"]["decided"]
    ctx.check(seat not in decided, "rule/already_decided", "one mulligan decision each", "D.17")
    if first is not None:
        ctx.check(
            seat == first or first in decided,
            "rule/mulligan_order",
            "the first player decides on a mulligan first",
            "A.7",
        )


def d_keep(ctx: Ctx, c: Command) -> None:
    _mulligan_turn(ctx)
    ctx.emit(ev.MulliganDeclined, player=ctx.seat)
    _after_mulligans(ctx)


def d_mulligan(ctx: Ctx, c: Command) -> None:
    _mulligan_turn(ctx)
    seat = ctx.seat
    cards = ids_arg(c, "cards")
    for cid in cards:
        require_in(ctx, cid, seat, "deck", "hand")
    ctx.check(len(cards) == 6, "rule/opening_hand_size", "a mulligan draws 6 cards", "A.7")
    hand = list(ctx.s["seats"][seat]["zones"]["hand"])
    ctx.emit(ev.MulliganTaken, player=seat, returned=hand, cards=cards)
    _after_mulligans(ctx)


def _after_mulligans(ctx: Ctx) -> None:
    setup = ctx.s["setup"]
    if set(setup["decided"]) >= set(SEATS):
        start_turn(ctx, setup["first"] or "A", 1)


# ============================================================================ turn (A.8)


def start_turn(ctx: Ctx, seat: str, turn: int) -> None:
    """Warmup: flip, unzap, reckoning (Bleeding), unstash; stop at the draw (RULES.md A.8)."""
    s = ctx.s
    ctx.emit(ev.TurnStarted, by="rules", player=seat, turn=turn)
    ctx.emit(ev.RunAwayMarkerFlipped, by="rules", player=seat, side="run_away")
    zapped = [
        cid
        for cid, card in ctx.s["cards"].items()
        if card["owner"] == seat and card["zapped"] and in_play(card)
    ]
    ctx.emit(ev.CardsUnzapped, by="rules", player=seat, cards=zapped)
    hero_id = s["seats"][seat]["hero"]
    for curse in list(ctx.s["cards"][hero_id]["stuck"]):
        bleed = ctx.s["cards"][curse]["def"]["keywords"].get("bleeding")
        if bleed:
            ctx.emit(ev.DamageDealt, by="rules", source=curse, target=hero_id, amount=int(bleed))
    if ctx.finished:
        return
    stash = list(ctx.s["seats"][seat]["zones"]["stash"])
    tokens = sum(ctx.s["cards"][cid]["damage"] + ctx.s["cards"][cid]["tokens"] for cid in stash)
    curses = [cur for cid in stash for cur in ctx.s["cards"][cid]["stuck"]]
    ctx.emit(
        ev.StashUnstashed,
        by="rules",
        player=seat,
        cards=stash,
        tokens_returned=tokens,
        curses=curses,
    )
    if not ctx.s["seats"][seat]["zones"]["deck"]:
        ctx.emit(ev.PlayerEliminated, by="rules", player=seat, reason="deck")
        end_if_decided(ctx)


def d_draw(ctx: Ctx, c: Command) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(c, "card")
    require_in(ctx, cid, seat, "deck")
    if s["stack"]:
        ctx.check(
            s["stack"][-1]["player"] == seat,
            "rule/not_your_ability",
            "only the resolving ability's controller draws for it",
            "A.11",
        )
        ctx.emit(ev.CardDrawn, player=seat, card=cid)
        return
    ctx.check(s["active"] == seat, "rule/not_your_turn", "only the active player draws", "A.8")
    ctx.check(
        s["phase"] == "warmup" and s["step"] == "draw",
        "rule/wrong_step",
        "draw only in the warmup draw step (or while an ability resolves)",
        "A.8",
    )
    ctx.emit(ev.CardDrawn, player=seat, card=cid)
    if ctx.s["phase"] == "warmup":
        ctx.emit(ev.PhaseStarted, by="rules", phase="munchkining", step=None)


def d_play(ctx: Ctx, c: Command) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(c, "card")
    card = require_in(ctx, cid, seat, "hand")
    kind = card["def"]["type"]
    name = card["def"]["name"]
    if kind == "loot":
        check_turn(ctx, seat)
        total = loot_rank_total(s, seat)
        level = s["seats"][seat]["level"]
        rank = card["def"].get("rank") or 0
        ctx.check(
            total <= level and total + rank <= level,
            "rule/rank_limit",
            f"Loot rank in play would be {total + rank}, above level {level}",
            "A.8",
        )
        ctx.emit(ev.LootPlayed, player=seat, card=cid)
    elif kind == "location":
        check_turn(ctx, seat)
        has = any(
            s["cards"][x]["def"]["type"] == "location" for x in s["seats"][seat]["zones"]["hoard"]
        )
        ctx.check(not has, "rule/location_limit", "one Location in play at a time", "A.8")
        ctx.emit(ev.LocationPlayed, player=seat, card=cid)
    elif kind == "ally":
        check_turn(ctx, seat)
        cost = card["def"].get("cost") or 0
        gold = int_arg(c, "gold", cost)
        ctx.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
        ctx.check(gold >= cost, "rule/underpaid", f"{name} costs {cost} gold", "A.8")
        ctx.emit(ev.AllyPlayed, player=seat, card=cid, gold_paid=gold)
    elif kind == "mischief":
        play_mischief(ctx, c, card)
    else:
        # No zone takes a Monster or Hero played from hand: impossible in both modes (A.5).
        raise ImpossibleCommand(
            "command/not_playable", f"a {kind} is only committed in a fight, never played"
        )


def play_mischief(ctx: Ctx, c: Command, card: dict[str, Any]) -> None:
    """Mischief: either player, either turn, while the window is open (RULES.md A.5, A.11)."""
    s, seat = ctx.s, ctx.seat
    cid = str_arg(c, "card")
    name = card["def"]["name"]
    ctx.check(
        window_open(s), "rule/window_closed", "Mischief only after unzap, never in cooldown", "A.11"
    )
    interrupting = None
    if s["stack"]:
        ctx.check(
            is_interrupt(card),
            "rule/not_an_interrupt",
            "only an Interrupt may be played while something resolves",
            "A.11",
        )
        interrupting = s["stack"][-1]["ref"]
    cost = card["def"].get("cost") or 0
    gold = int_arg(c, "gold", cost)
    ctx.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
    ctx.check(gold >= cost, "rule/underpaid", f"{name} costs {cost} gold", "A.5")
    blood = int_arg(c, "give_blood", 0)
    if blood:
        ctx.check(
            bool(card["def"]["keywords"].get("give_blood")),
            "rule/no_give_blood",
            f"{name} has no Give Blood",
            "A.12",
        )
    targets = targets_of(ctx, c)
    if card["def"].get("subtype") == "curse":
        ctx.check(
            len(targets) == 1 and in_play(s["cards"][targets[0]]),
            "rule/needs_target",
            "a Curse needs one target card in play",
            "A.5",
        )
    ctx.emit(
        ev.MischiefPlayed,
        player=seat,
        card=cid,
        gold_paid=gold,
        targets=targets,
        interrupting=interrupting,
        give_blood=blood,
    )


def d_squish(ctx: Ctx, c: Command) -> None:
    seat = ctx.seat
    ctx.require(ctx.s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(c, "card")
    card = require_in(ctx, cid, seat, "hoard")
    check_turn(ctx, seat)
    ctx.check(
        card["def"]["type"] in ("loot", "location"),
        "rule/not_squishable",
        "only Loot and Locations are squished by action",
        "A.8",
    )
    ctx.check(
        not card["zapped"], "rule/card_zapped", "only an unzapped card may be squished", "A.8"
    )
    ctx.emit(ev.CardSquished, card=cid, reason="action")


def d_zap(ctx: Ctx, c: Command) -> None:
    seat = ctx.seat
    ctx.require(ctx.s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(c, "card")
    card = require_in(ctx, cid, seat, "hero", "hoard", "stash")
    ctx.require(in_play(card), "command/card_not_there", "only a card in play can be zapped")
    ctx.check(not card["zapped"], "rule/card_zapped", "the card is already zapped", "A.10")
    ctx.check(window_open(ctx.s), "rule/window_closed", "no zapping now", "A.11")
    ctx.emit(ev.CardZapped, card=cid, source=c.get("source"))


def effect_context(ctx: Ctx, c: Command) -> str | None:
    """Effects are recorded while an ability resolves, naming its card (RULES.md A.11)."""
    s = ctx.s
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    source = c.get("source")
    if source is not None:
        card_of(ctx, str(source))
    top = s["stack"][-1] if s["stack"] else None
    ctx.check(top is not None, "rule/no_ability_resolving", "effects come from an ability", "A.11")
    if top is not None:
        ctx.check(
            source == top["card"] and top["player"] == ctx.seat,
            "rule/not_resolving_source",
            "the effect's source must be the resolving ability's card, recorded by its controller",
            "A.11",
        )
    return None if source is None else str(source)


def d_unzap(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    cid = str_arg(c, "card")
    card = card_of(ctx, cid)
    ctx.check(card["zapped"], "rule/not_zapped", "the card is not zapped", "A.10")
    ctx.emit(ev.CardUnzapped, card=cid, source=source)


def d_activate(ctx: Ctx, c: Command) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(c, "card")
    card = card_of(ctx, cid)
    fight = s["fight"]
    hired_monster = bool(fight and fight.get("hired") and fight.get("card") == cid)
    if hired_monster:
        ctx.require(seat == fight["attacker"], "command/not_your_card", "the attacker controls it")
    else:
        require_in(ctx, cid, seat, "hero", "hoard", "stash", "dmz", "hand")
    ctx.check(
        window_open(s), "rule/window_closed", "abilities only after unzap, not in cooldown", "A.11"
    )
    kw = card["def"]["keywords"]
    interrupting = None
    if s["stack"]:
        ctx.check(
            is_interrupt(card),
            "rule/not_an_interrupt",
            "only an interrupt ability may be activated while something resolves",
            "A.11",
        )
        interrupting = s["stack"][-1]["ref"]
    raw_costs = c.get("costs") or {}
    if not isinstance(raw_costs, dict):
        raise InvalidCommand("request/invalid_costs", "'costs' must be an object")
    gold = int_arg(raw_costs, "gold", 0)
    blood = int_arg(raw_costs, "give_blood", 0)
    zap = bool(raw_costs.get("zap", False))
    discard = ids_arg({"discard": raw_costs.get("discard") or []}, "discard")
    ctx.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
    for d in discard:
        require_in(ctx, d, seat, "hand")
    if zap:
        ctx.check(not card["zapped"], "rule/card_zapped", "a zapped card cannot be zapped", "A.10")
    if blood:
        ctx.check(bool(kw.get("give_blood")), "rule/no_give_blood", "no Give Blood here", "A.12")
    if kw.get("sketchy"):
        ctx.check(
            s["seats"][seat]["caught_cheating"],
            "rule/sketchy",
            "Sketchy: only after being caught cheating this turn",
            "A.12",
        )
    if kw.get("smack") and card["def"].get("subtype") == "weapon":
        ctx.check(s["active"] == seat, "rule/not_your_turn", "Smack only on your turn", "A.12")
    if card["zone"] == "hand":
        ctx.check(
            bool(kw.get("flaunt")), "rule/not_in_play", "only Flaunt works from the hand", "A.12"
        )
    targets = targets_of(ctx, c)
    text = c.get("text")
    costs = {"gold": gold, "zap": zap, "discard": discard, "give_blood": blood}
    ctx.emit(
        ev.AbilityActivated,
        player=seat,
        card=cid,
        costs=costs,
        targets=targets,
        text=text if isinstance(text, str) else None,
        interrupting=interrupting,
    )


def d_resolve(ctx: Ctx, c: Command) -> None:
    s = ctx.s
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    ctx.require(bool(s["stack"]), "command/nothing_to_resolve", "nothing is resolving")
    top = s["stack"][-1]
    ctx.check(
        top["player"] == ctx.seat,
        "rule/not_your_ability",
        "the controller of the newest ability resolves it",
        "A.11",
    )
    ctx.cause = top["ref"]
    ctx.emit(
        ev.AbilityResolved,
        ref=top["ref"],
        card=top["card"],
        outcome="canceled" if top["canceled"] else "resolved",
    )
    if not ctx.s["stack"]:
        check_eliminations(ctx)
    after_card_left(ctx)


def d_cancel(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    stack = ctx.s["stack"]
    ref = c.get("ref")
    if ref is None:
        ctx.require(len(stack) >= 2, "command/nothing_to_cancel", "no ability below this one")
        ref = stack[-2]["ref"] if len(stack) >= 2 else None
    ctx.require(
        any(e["ref"] == ref for e in stack),
        "command/nothing_to_cancel",
        f"no ability {ref} on the stack",
    )
    ctx.emit(ev.AbilityCanceled, ref=int(ref or 0), source=source)


def d_pass(ctx: Ctx, c: Command) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    window = s.get("window")
    ctx.check(window is not None, "rule/no_window", "no response window is open", "A.11")
    if window is None:  # record mode: the pass is kept, flagged, and closes nothing
        ctx.emit(ev.PriorityPassed, player=seat, window="none")
        return
    ctx.check(not s["stack"], "rule/ability_resolving", "resolve the ability first", "A.11")
    ctx.check(seat not in window["passed"], "rule/already_passed", "already passed", "A.14")
    ctx.emit(ev.PriorityPassed, player=seat, window=window["kind"])
    if set(ctx.s["window"]["passed"]) >= set(SEATS) and not ctx.s["stack"]:
        kind = window["kind"]
        ctx.emit(ev.ResponseWindowClosed, by="rules", window=kind)
        if kind == "cost":
            cheat_check(ctx)
        elif kind == "hire":
            strike(ctx)


def d_end_turn(ctx: Ctx, c: Command) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    check_turn(ctx, seat)
    ctx.emit(ev.PhaseStarted, phase="cooldown", step="level")
    st = ctx.s["seats"][seat]
    if st["level"] < MAX_LEVEL:
        ctx.emit(ev.LevelIncreased, by="rules", player=seat, level=st["level"] + 1)
    st = ctx.s["seats"][seat]
    if st["gold"] < st["level"]:
        ctx.emit(ev.GoldRefilled, by="rules", player=seat, amount=st["level"] - st["gold"])
    ctx.emit(ev.TurnEnded, by="rules", player=seat, turn=s["turn"])
    start_turn(ctx, other(seat), ctx.s["turn"] + 1)


def d_concede(ctx: Ctx, c: Command) -> None:
    ctx.require(ctx.s["status"] in ("setup", "playing"), "command/game_over", "the game is over")
    seat = ctx.seat
    ctx.emit(ev.PlayerConceded, player=seat)
    ctx.emit(ev.PlayerEliminated, by="rules", player=seat, reason="concede")
    end_if_decided(ctx)


# ============================================================================ fight (A.9)


def fight_stage(ctx: Ctx, *stages: str) -> dict[str, Any]:
    fight = ctx.s.get("fight")
    ctx.require(fight is not None, "command/no_fight", "no fight is in progress")
    assert fight is not None
    ctx.check(
        fight["stage"] in stages,
        "rule/wrong_fight_step",
        f"the fight is at '{fight['stage']}', not {' or '.join(stages)}",
        "A.9",
    )
    return dict(fight)


def d_attack(ctx: Ctx, c: Command) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(c, "card")
    card = require_in(ctx, cid, seat, "hand")
    gold = int_arg(c, "gold", 0)
    salt = str_arg(c, "salt")
    ctx.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
    check_turn(ctx, seat)
    ctx.emit(ev.FightStarted, attacker=seat, defender=other(seat))
    ctx.emit(
        ev.AttackCardCommitted,
        player=seat,
        card=cid,
        commitment=commitment(salt, cid, card["def"]["name"]),
        salt=salt,
    )
    ctx.emit(ev.GoldCommitted, player=seat, amount=gold)


def d_run_away(ctx: Ctx, c: Command) -> None:
    fight = fight_stage(ctx, "declared")
    seat = ctx.seat
    ctx.check(seat == fight["defender"], "rule/not_defender", "only the defender runs", "A.9")
    marker = ctx.s["seats"][seat]["marker"]
    paid_by = "marker" if marker == "run_away" else "damage"
    ctx.emit(ev.RanAway, player=seat, paid_by=paid_by)
    if paid_by == "marker":
        ctx.emit(ev.RunAwayMarkerFlipped, by="rules", player=seat, side="limp_away")
    else:
        hero = ctx.s["seats"][seat]["hero"]
        ctx.emit(ev.DamageDealt, by="rules", source=None, target=hero, amount=2)
    end_fight_returning(ctx, "ran", face="down")


def end_fight_returning(ctx: Ctx, outcome: str, face: str) -> None:
    """Gold back to the attacker, the card face down to the stash, defenders home (A.9)."""
    fight = ctx.s.get("fight")
    if fight is None:
        return
    if fight["gold"]:
        ctx.emit(
            ev.CommittedGoldReturned, by="rules", player=fight["attacker"], amount=fight["gold"]
        )
    if fight["card"]:
        ctx.emit(ev.CardStashed, by="rules", card=fight["card"], face=face)
    return_defenders(ctx)
    ctx.emit(ev.FightEnded, by="rules", outcome=outcome)


def return_defenders(ctx: Ctx) -> None:
    fight = ctx.s.get("fight")
    if fight and fight["defender_cards"]:
        ctx.emit(
            ev.DefenderCardsReturned,
            by="rules",
            player=fight["defender"],
            cards=list(fight["defender_cards"]),
        )


def d_face(ctx: Ctx, c: Command) -> None:
    fight = fight_stage(ctx, "declared")
    ctx.check(ctx.seat == fight["defender"], "rule/not_defender", "the defender decides", "A.9")
    ctx.emit(ev.DefenderFaced, player=ctx.seat)


def d_commit(ctx: Ctx, c: Command) -> None:
    fight = fight_stage(ctx, "defending")
    seat = ctx.seat
    ctx.check(seat == fight["defender"], "rule/not_defender", "only the defender commits", "A.9")
    cards = ids_arg(c, "cards")
    ctx.require(bool(cards), "command/nothing_to_commit", "name at least one card")
    for cid in cards:
        card = require_in(ctx, cid, seat, "hoard")
        ctx.check(
            card["def"]["type"] in ("ally", "loot"),
            "rule/not_committable",
            f"{card['def']['name']} is neither an Ally nor Loot",
            "D.2",
        )
        ctx.check(
            not card["zapped"], "rule/card_zapped", "only unzapped cards are committed", "A.9"
        )
    ctx.emit(ev.DefenderCardsCommitted, player=seat, cards=cards)


def d_ready(ctx: Ctx, c: Command) -> None:
    fight = fight_stage(ctx, "defending")
    ctx.check(ctx.seat == fight["defender"], "rule/not_defender", "the defender declares", "A.9")
    ctx.emit(ev.DefenderReady, player=ctx.seat)


def d_reveal(ctx: Ctx, c: Command) -> None:
    fight = fight_stage(ctx, "ready")
    seat = ctx.seat
    ctx.check(seat == fight["attacker"], "rule/not_attacker", "the attacker reveals", "A.9")
    cid = fight["card"]
    if cid is None:
        end_fight_returning(ctx, "no_card", face="down")
        return
    ctx.emit(ev.AttackCardRevealed, player=fight["attacker"], card=cid, salt=fight["salt"])
    card = ctx.s["cards"][cid]
    if not is_monster_like(card["def"]):
        ctx.emit(
            ev.CheatingChecked,
            by="rules",
            card=cid,
            result="not_monster",
            gold=fight["gold"],
            cost=None,
        )
        caught_cheating(ctx)


def d_modify_cost(ctx: Ctx, c: Command) -> None:
    fight = fight_stage(ctx, "revealed")
    cid = str_arg(c, "card")
    ctx.require(cid == fight["card"], "command/not_the_monster", "only the revealed card's cost")
    cost = int_arg(c, "cost")
    ctx.emit(ev.MonsterCostModified, card=cid, cost=cost, source=c.get("source"))


def cheat_check(ctx: Ctx) -> None:
    """RULES.md A.9 "Check for cheating": committed gold against the (modified) cost."""
    fight = ctx.s["fight"]
    if fight is None:
        return
    cid = fight["card"]
    if cid is None:
        end_fight_returning(ctx, "no_card", face="down")
        return
    card = ctx.s["cards"][cid]
    cost = card["cost_mod"] if card["cost_mod"] is not None else (card["def"].get("cost") or 0)
    if fight["gold"] >= cost:
        ctx.emit(
            ev.CheatingChecked, by="rules", card=cid, result="hired", gold=fight["gold"], cost=cost
        )
        power, life = monster_stats(card)
        ctx.emit(ev.MonsterHired, by="rules", card=cid, power=power, life=life)
    else:
        ctx.emit(
            ev.CheatingChecked,
            by="rules",
            card=cid,
            result="underpaid",
            gold=fight["gold"],
            cost=cost,
        )
        caught_cheating(ctx)


def caught_cheating(ctx: Ctx) -> None:
    """RULES.md A.9 2.1: 1 damage, gold back, card face down to the stash, Sketchy unlocked."""
    fight = ctx.s["fight"]
    attacker = fight["attacker"]
    ctx.emit(ev.CaughtCheating, by="rules", player=attacker)
    hero = ctx.s["seats"][attacker]["hero"]
    ctx.emit(ev.DamageDealt, by="rules", source=None, target=hero, amount=1)
    end_fight_returning(ctx, "caught", face="down")


def strike(ctx: Ctx) -> None:
    """RULES.md A.9 (I) 5-7: hire gold to the stockpile, weapons strike, then the Monster."""
    fight = ctx.s["fight"]
    if fight is None:
        return
    if fight["card"] is None:
        end_fight_returning(ctx, "no_card", face="down")
        return
    ctx.emit(ev.HireGoldSpent, by="rules", player=fight["attacker"], amount=fight["gold"])
    cards = ctx.s["cards"]
    committed = [cards[x] for x in fight["defender_cards"]]
    weapons = [x for x in fight["defender_cards"] if cards[x]["def"].get("subtype") == "weapon"]
    power = sum(int(cards[x]["def"].get("power") or 0) for x in weapons)
    monster_id = fight["card"]
    if power:
        ctx.emit(
            ev.DamageDealt,
            by="rules",
            source=weapons[0] if len(weapons) == 1 else None,
            target=monster_id,
            amount=power,
            kind="combat",
        )
    monster = ctx.s["cards"][monster_id]
    if monster["damage"] >= ctx.s["fight"]["monster"]["life"]:
        finish_fight(ctx, squished=True)
        return
    defense = sum(int(x["def"].get("defense") or 0) for x in committed)
    raw = ctx.s["fight"]["monster"]["power"]
    damage = max(0, raw - defense)
    allies = [x for x in ctx.s["fight"]["defender_cards"] if cards[x]["def"]["type"] == "ally"]
    if allies and damage > 0:
        return  # the defender splits it among the Allies: see pending_damage / d_allocate
    if damage > 0 or defense > 0:
        defender = ctx.s["fight"]["defender"]
        ctx.emit(
            ev.DamageDealt,
            by="rules",
            source=monster_id,
            target=ctx.s["seats"][defender]["hero"],
            amount=damage,
            kind="combat",
            reduced_by_defense=min(raw, defense),
        )
        suck(ctx, monster_id, damage)
    finish_fight(ctx, squished=False)


def pending_damage(s: State) -> int | None:
    """Monster damage waiting for the defender's allocation among committed Allies (D.3)."""
    fight = s.get("fight")
    if not fight or not fight.get("hired") or fight["stage"] not in ("striking", "weapons_struck"):
        return None
    if s.get("window") is not None or fight["card"] is None:
        return None
    cards = s["cards"]
    committed = [cards[x] for x in fight["defender_cards"]]
    if not any(x["def"]["type"] == "ally" for x in committed):
        return None
    defense = sum(int(x["def"].get("defense") or 0) for x in committed)
    damage = max(0, int(fight["monster"]["power"]) - defense)
    return damage if damage > 0 else None


def d_allocate(ctx: Ctx, c: Command) -> None:
    s, seat = ctx.s, ctx.seat
    ctx.require(s.get("fight") is not None, "command/no_fight", "no fight is in progress")
    damage = pending_damage(s)
    ctx.require(damage is not None, "command/nothing_to_allocate", "no Monster damage to allocate")
    assert damage is not None
    fight = s["fight"]
    ctx.check(seat == fight["defender"], "rule/not_defender", "the defender allocates", "D.3")
    alloc = c.get("damage")
    if not isinstance(alloc, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in alloc.values()
    ):
        raise InvalidCommand("request/invalid_allocation", "'damage' maps card ids to amounts")
    for key in alloc:
        if key != "hero":
            ctx.require(
                key in fight["defender_cards"] and s["cards"][key]["def"]["type"] == "ally",
                "command/not_committed",
                f"{key!r} is not a committed Ally",
            )
    ctx.check(
        not alloc.get("hero"),
        "rule/allocation_to_hero",
        "with Allies committed, none to the Hero",
        "D.3",
    )
    ctx.check(
        sum(alloc.values()) == damage,
        "rule/allocation_total",
        f"allocate exactly {damage} damage",
        "D.3",
    )
    ctx.emit(ev.DamageAllocated, player=seat, allocation={k: v for k, v in alloc.items() if v})
    for key, amount in alloc.items():
        if key != "hero" and amount:
            squish_if_dead(ctx, key)
    suck(ctx, fight["card"], sum(alloc.values()))
    finish_fight(ctx, squished=False)


def suck(ctx: Ctx, source: str | None, amount: int) -> None:
    """Life-O-Suction X: the source's controller heals what it dealt (RULES.md A.12, D.9)."""
    if not source or amount <= 0 or ctx.finished:
        return
    card = ctx.s["cards"][source]
    if not card["def"]["keywords"].get("life_o_suction"):
        return
    hero = hero_of(ctx.s, card["owner"])
    heal = min(amount, hero["damage"])
    if heal:
        ctx.emit(
            ev.Healed,
            by="rules",
            source=source,
            target=ctx.s["seats"][card["owner"]]["hero"],
            amount=heal,
        )


def squish_if_dead(ctx: Ctx, cid: str) -> None:
    """An Ally or Monster whose damage reaches its life is squished at once (RULES.md A.10)."""
    if ctx.finished:
        return
    card = ctx.s["cards"][cid]
    if card["def"]["type"] == "hero" or not in_play(card):
        return
    life = life_of(card, ctx.s)
    if life is None or card["damage"] < life:
        return
    if card["def"]["keywords"].get("regenerate"):
        ctx.emit(ev.CardStashed, by="rules", card=cid, face="down", source=cid)
    else:
        ctx.emit(ev.CardSquished, by="rules", card=cid, reason="damage")
    after_card_left(ctx)


def after_card_left(ctx: Ctx) -> None:
    """RULES.md A.9 "No attacking card": the fight ends at once, gold back (D.6)."""
    fight = ctx.s.get("fight")
    if fight is not None and fight["card"] is None and fight["stage"] not in ("committing",):
        end_fight_returning(ctx, "no_card", face="down")


def finish_fight(ctx: Ctx, squished: bool) -> None:
    """RULES.md A.9 step 8: the Monster to discard or face up to the stash, defenders home."""
    fight = ctx.s.get("fight")
    if fight is None or ctx.finished:
        return
    monster = fight["card"]
    if monster is not None:
        card = ctx.s["cards"][monster]
        if squished:
            if card["def"]["keywords"].get("regenerate"):
                ctx.emit(ev.CardStashed, by="rules", card=monster, face="down", source=monster)
            else:
                ctx.emit(ev.MonsterDiscarded, by="rules", card=monster)
        else:
            ctx.emit(ev.MonsterStashedFaceUp, by="rules", card=monster, damage=card["damage"])
    return_defenders(ctx)
    ctx.emit(ev.FightEnded, by="rules", outcome="squished" if squished else "survived")


# ============================================================================ effects


def d_damage(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    target = str_arg(c, "target")
    if target in SEATS:
        target = ctx.s["seats"][target]["hero"]
    card = card_of(ctx, target)
    amount = int_arg(c, "amount")
    ctx.check(
        life_of(card, ctx.s) is not None and (in_play(card) or card["zone"] == "stash"),
        "rule/no_life",
        "damage goes on a Hero, Ally or Monster with life",
        "A.10",
    )
    ctx.check(
        not card["def"]["keywords"].get("stealthy"),
        "rule/stealthy_target",
        "a Stealthy card cannot be targeted",
        "A.12",
    )
    ctx.emit(ev.DamageDealt, source=source, target=target, amount=amount)
    squish_if_dead(ctx, target)
    suck(ctx, source, amount)


def d_heal(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    target = str_arg(c, "target")
    if target in SEATS:
        target = ctx.s["seats"][target]["hero"]
    card = card_of(ctx, target)
    amount = int_arg(c, "amount")
    ctx.check(
        card["damage"] > 0, "rule/nothing_to_heal", "a card with no damage cannot be healed", "A.10"
    )
    ctx.emit(ev.Healed, source=source, target=target, amount=min(amount, card["damage"]))


def d_steal(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    amount = int_arg(c, "amount")
    victim = c.get("from", other(ctx.seat))
    if victim not in SEATS:
        raise InvalidCommand("request/invalid_seat", "'from' must be 'A' or 'B'")
    ctx.emit(
        ev.GoldStolen,
        source=source,
        from_player=victim,
        to_player=ctx.seat,
        amount=min(amount, ctx.s["seats"][victim]["gold"]),
    )


def d_take_gold(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    ctx.emit(ev.GoldTaken, source=source, player=ctx.seat, amount=int_arg(c, "amount"))


def d_collect(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    cid = str(c.get("card") or source or "")
    card_of(ctx, cid)
    ctx.emit(ev.TokensCollected, source=source, card=cid, amount=int_arg(c, "amount"))


def d_stick(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    cid = str(c.get("card") or source or "")
    card = card_of(ctx, cid)
    host = str_arg(c, "target")
    host_card = card_of(ctx, host)
    ctx.check(
        in_play(host_card), "rule/target_not_in_play", "Curses stick to cards in play", "A.10"
    )
    ctx.check(card["def"].get("subtype") == "curse", "rule/not_a_curse", "only Curses stick", "A.5")
    ctx.emit(ev.CardStuck, source=source, card=cid, host=host)


def d_stash(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    cid = str_arg(c, "card")
    card_of(ctx, cid)
    face = c.get("face", "down")
    if face not in ("up", "down"):
        raise InvalidCommand("request/invalid_face", "'face' must be 'up' or 'down'")
    ctx.emit(ev.CardStashed, card=cid, face=face, source=source)
    after_card_left(ctx)


def d_spill(ctx: Ctx, c: Command) -> None:
    s = ctx.s
    ctx.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    source = c.get("source")
    if s["stack"] or source is not None:
        effect_context(ctx, c)
    else:
        ctx.check(False, "rule/no_ability_resolving", "spills come from an ability", "A.12")
    cards = ids_arg(c, "cards")
    for cid in cards:
        require_in(ctx, cid, ctx.seat, "deck")
    ctx.emit(ev.CardsSpilled, player=ctx.seat, cards=cards, source=source)


def d_discard(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    cid = str_arg(c, "card")
    card_of(ctx, cid)
    ctx.emit(ev.CardDiscarded, card=cid, source=source)
    after_card_left(ctx)


def d_reveal_card(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    cid = str_arg(c, "card")
    card_of(ctx, cid)
    ctx.emit(ev.CardRevealed, card=cid, source=source)


def d_remove(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    cid = str_arg(c, "card")
    card_of(ctx, cid)
    ctx.emit(ev.CardRemoved, card=cid, source=source)
    after_card_left(ctx)


MOVE_TARGETS = ("hand", "deck_bottom", "deck_top", "hoard", "stash", "discard")


def d_move(ctx: Ctx, c: Command) -> None:
    source = effect_context(ctx, c)
    cid = str_arg(c, "card")
    card_of(ctx, cid)
    to = c.get("to")
    if to not in MOVE_TARGETS:
        raise InvalidCommand(
            "request/invalid_zone", f"'to' must be one of {', '.join(MOVE_TARGETS)}"
        )
    face = c.get("face", "down" if to in ("deck_bottom", "deck_top") else "up")
    if face not in ("up", "down"):
        raise InvalidCommand("request/invalid_face", "'face' must be 'up' or 'down'")
    ctx.emit(ev.CardMoved, card=cid, to=str(to), face=face, source=source)
    after_card_left(ctx)


# ============================================================================ the ruleset

HANDLERS: dict[str, Callable[[Ctx, Command], None]] = {
    "draw_opening": d_draw_opening,
    "roll_first": d_roll_first,
    "choose_first": d_choose_first,
    "keep": d_keep,
    "mulligan": d_mulligan,
    "draw": d_draw,
    "play": d_play,
    "squish": d_squish,
    "zap": d_zap,
    "unzap": d_unzap,
    "activate": d_activate,
    "resolve": d_resolve,
    "cancel": d_cancel,
    "pass": d_pass,
    "end_turn": d_end_turn,
    "concede": d_concede,
    "attack": d_attack,
    "run_away": d_run_away,
    "face": d_face,
    "commit": d_commit,
    "ready": d_ready,
    "reveal": d_reveal,
    "modify_cost": d_modify_cost,
    "allocate": d_allocate,
    "damage": d_damage,
    "heal": d_heal,
    "steal": d_steal,
    "take_gold": d_take_gold,
    "collect": d_collect,
    "stick": d_stick,
    "stash": d_stash,
    "spill": d_spill,
    "discard": d_discard,
    "reveal_card": d_reveal_card,
    "remove": d_remove,
    "move": d_move,
}
COMMAND_TYPES = tuple(HANDLERS)


def decide(state: State, command: Command) -> list[ev.Event]:
    """The events ``command`` produces in ``state``, or a :class:`DomainError`.

    The engine's own steps that follow (warmup, checks, strikes, cooldown, eliminations) are
    included, so the returned list is everything that happens until a player must act again.
    """
    if not isinstance(command, Mapping):
        raise InvalidCommand("request/invalid_command", "a command is a JSON object")
    handler = HANDLERS.get(command.get("type"))  # type: ignore[arg-type]
    if handler is None:
        raise InvalidCommand(
            "request/unknown_command",
            f"unknown command type {command.get('type')!r}",
            {"type": [f"one of {', '.join(COMMAND_TYPES)}"]},
        )
    if state.get("status") in (None, "new"):
        raise ImpossibleCommand("command/no_game", "the game has not been created")
    if state["status"] == "finished":
        raise ImpossibleCommand("command/game_over", "the game is over")
    seat_arg(command)
    ctx = Ctx(state, command)
    handler(ctx, command)
    return ctx.events


class CCG:
    """The Munchkin CCG ruleset (RULES.md A), registered as ``munchkin-ccg``."""

    name = "munchkin-ccg"
    rules_version = RULES_VERSION
    command_types = COMMAND_TYPES
    seat_names: tuple[str, ...] = SEATS
    min_seats = max_seats = len(SEATS)

    def create(self, spec: Mapping[str, Any]) -> list[ev.Event]:
        return create(spec)

    def decide(self, state: State, command: Command) -> list[ev.Event]:
        return decide(state, command)

    def evolve(self, state: State, event: ev.Event) -> State:
        return evolve(state, event)

    def replay(self, events: list[ev.Event]) -> State:
        return replay(events, initial_state())

    def legal_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        from domain.rules.ccg_moves import legal_commands

        return legal_commands(state, seat)


register(CCG())
assert find_ruleset("munchkin-ccg")
