"""Setting a game up (docs/rules.md A.6, A.7): the decks, opening hands, first player, mulligans."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.arguments import ids_arg
from domain.ccg import events as ev
from domain.ccg.cards import FORMATS, CardDef, Catalog, check_catalog, check_deck, normalize_card
from domain.ccg.decision import Command, Decision
from domain.ccg.state import SEATS, other
from domain.ccg.turn import start_turn
from domain.errors import InvalidCommand
from domain.event_bases import creating_fields
from domain.fold import evolve, initial_state
from domain.ruleset import Step

NAME = "munchkin-ccg"
RULES_VERSION = "ccg-2018-07"


def create(spec: Mapping[str, Any]) -> list[Step]:
    """The step that sets a game up: one ``GameCreated`` (docs/rules.md A.6, A.7 step 1).

    ``spec["catalog"]`` (a :class:`~domain.ccg.cards.Catalog`) is the catalog a new game's
    cards are checked against (:func:`~domain.ccg.cards.check_catalog`): prime and draft play
    its cards exactly, casual cards that are not its own are marked ``custom``. The service
    gives its catalog for every new game. Without one, the definitions are a recorded game's
    (an import re-creating its ``GameCreated``): taken as recorded, ``custom`` marks included.

    Raises :class:`InvalidCommand` for malformed seats and cards, and :class:`RuleViolation`
    for cards that are not the catalog's and decks that break the format (checked in both
    modes: a deck is registered before play).
    """
    mode = spec.get("mode", "strict")
    fmt = spec.get("format", "prime")
    if mode not in ("strict", "record"):
        raise InvalidCommand("request/invalid_mode", "mode must be 'strict' or 'record'")
    seats = spec.get("seats")
    if not isinstance(seats, list) or sorted(s.get("seat") for s in seats) != list(SEATS):
        raise InvalidCommand("request/invalid_seats", "exactly two seats, 'A' and 'B'")
    catalog = spec.get("catalog")
    seen: set[str] = set()
    out_seats = []
    for seat in sorted(seats, key=lambda x: x["seat"]):
        name = seat["seat"]
        hero = _card(seat["hero"], fmt, catalog, f"seat {name}'s Hero")
        deck = [
            _card(c, fmt, catalog, f"seat {name}'s deck card {i}")
            for i, c in enumerate(seat["deck"])
        ]
        for cid in [hero["id"], *(c["id"] for c in deck)]:
            if cid in seen:
                raise InvalidCommand("request/duplicate_ids", f"card id {cid!r} used twice")
            seen.add(cid)
        check_deck(fmt, hero, deck)
        player = seat.get("player")
        if not isinstance(player, str) or not player.strip():
            raise InvalidCommand("request/invalid_player", "each seat needs a player name")
        out_seats.append({"seat": seat["seat"], "player": player, "hero": hero, "deck": deck})
    header = creating_fields(spec, ruleset=NAME, rules_version=RULES_VERSION, mode=mode, fmt=fmt)
    created = ev.GameCreated(**header, seats=out_seats)
    return [Step(created, evolve(initial_state(), created))]


def _card(raw: Mapping[str, Any], fmt: str, catalog: Catalog | None, where: str) -> CardDef:
    """One card of a seat, normalized, checked against the catalog (if any), with its id."""
    card = normalize_card(raw)
    if catalog is not None and fmt in FORMATS:  # an unknown format: check_deck says so
        card = check_catalog(fmt, card, catalog, where)
    return {**card, "id": str(raw["id"])}


def decide_draw_opening(decision: Decision, command: Command) -> None:
    s, seat = decision.state, decision.seat
    server = decision.dealt_by_server(command)  # docs/rules.md E.1
    decision.require(s["status"] == "setup", "command/not_in_setup", "the game is past setup")
    decision.check(
        seat not in s["setup"]["opened"], "rule/already_drawn", "opening hand already drawn", "A.7"
    )
    if server:
        cards = decision.deal(f"{seat}:deck", s["seats"][seat]["zones"]["deck"], 6)
    else:
        cards = ids_arg(command, "cards")
    for cid in cards:
        decision.in_zone(cid, seat, "deck")
    decision.check(len(cards) == 6, "rule/opening_hand_size", "the opening hand is 6 cards", "A.7")
    decision.emit(ev.OpeningHandDrawn, player=seat, cards=cards)


def decide_roll_first(decision: Decision, command: Command) -> None:
    s = decision.state
    server = decision.dealt_by_server(command)  # docs/rules.md E.1
    decision.require(s["status"] == "setup", "command/not_in_setup", "the game is past setup")
    decision.check(
        s["step"] == "roll_first", "rule/out_of_order", "both opening hands come first", "A.7"
    )
    if server:
        rolls: Any = dict(zip(SEATS, decision.roll(6, len(SEATS)), strict=True))
    else:
        rolls = command.get("rolls")
    if (
        not isinstance(rolls, dict)
        or sorted(rolls) != ["A", "B"]
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in rolls.values())
    ):
        raise InvalidCommand("request/invalid_rolls", "rolls must be {'A': 1-6, 'B': 1-6}")
    decision.require(all(1 <= v <= 6 for v in rolls.values()), "command/bad_die", "a die shows 1-6")
    decision.emit(ev.FirstPlayerRolled, rolls=dict(rolls), tie=rolls["A"] == rolls["B"])


def decide_choose_first(decision: Decision, command: Command) -> None:
    s = decision.state
    decision.require(s["status"] == "setup", "command/not_in_setup", "the game is past setup")
    decision.check(s["step"] == "choose_first", "rule/out_of_order", "roll for first first", "A.7")
    first = command.get("first")
    if first not in SEATS:
        raise InvalidCommand("request/invalid_seat", "'first' must be 'A' or 'B'")
    decision.check(
        decision.seat == s["setup"].get("roll_winner"),
        "rule/not_roll_winner",
        "the higher roller chooses who goes first",
        "A.7",
    )
    # Refused in record mode too (docs/rules.md "Record mode"): choosing again would hand out
    # the starting gold a second time, which no table does.
    decision.require(
        s["setup"].get("first") is None,
        "command/already_chosen",
        f"the first player is already chosen: {s['setup'].get('first')}",
    )
    decision.emit(ev.FirstPlayerChosen, chooser=decision.seat, first=first)
    decision.emit(ev.GoldGranted, actor="rules", player=first, amount=1)
    decision.emit(ev.GoldGranted, actor="rules", player=other(first), amount=2)
    _after_mulligans(decision)  # record mode: both may have decided before the choice


def _mulligan_turn(decision: Decision) -> None:
    s, seat = decision.state, decision.seat
    decision.require(s["status"] == "setup", "command/not_in_setup", "the game is past setup")
    decision.check(
        s["step"] == "mulligan", "rule/out_of_order", "choose the first player first", "A.7"
    )
    first = s["setup"].get("first")
    decided = s["setup"]["decided"]
    decision.check(
        seat not in decided, "rule/already_decided", "one mulligan decision each", "D.17"
    )
    if first is not None:
        decision.check(
            seat == first or first in decided,
            "rule/mulligan_order",
            "the first player decides on a mulligan first",
            "A.7",
        )


def decide_keep(decision: Decision, command: Command) -> None:
    _mulligan_turn(decision)
    decision.emit(ev.MulliganDeclined, player=decision.seat)
    _after_mulligans(decision)


def decide_mulligan(decision: Decision, command: Command) -> None:
    server = decision.dealt_by_server(command)  # docs/rules.md E.1
    _mulligan_turn(decision)
    seat = decision.seat
    if server:  # the hand shuffled into the deck, six drawn
        zones = decision.state["seats"][seat]["zones"]
        cards = decision.deal(f"{seat}:deck", [*zones["deck"], *zones["hand"]], 6)
    else:
        cards = ids_arg(command, "cards")
    for cid in cards:
        decision.in_zone(cid, seat, "deck", "hand")
    decision.check(len(cards) == 6, "rule/opening_hand_size", "a mulligan draws 6 cards", "A.7")
    hand = list(decision.state["seats"][seat]["zones"]["hand"])
    decision.emit(ev.MulliganTaken, player=seat, returned=hand, cards=cards)
    _after_mulligans(decision)


def _after_mulligans(decision: Decision) -> None:
    """The game starts once both seats have decided and the first player is chosen: never with
    a first player nobody chose (docs/rules.md "Record mode")."""
    setup = decision.state["setup"]
    if set(setup["decided"]) >= set(SEATS) and setup.get("first") in SEATS:
        start_turn(decision, setup["first"], 1)
