"""The turn: setup, kicking the door, looting, charity, the end of a turn and conceding
(docs/rules.md B.1, B.4, B.6, B.10, B.15). Split from :mod:`domain.classic.play` (playing
cards), which it builds on; its ``decide_*`` functions work as that module's do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.arguments import ids_arg, str_arg
from domain.classic import events as ev
from domain.classic.combat import (
    RULES,
    available,
    dealt,
    drawable,
    end_combat,
    settle,
)
from domain.classic.play import _conditions, curse, no_combat, own_turn
from domain.classic.rules import (
    alive,
    card_def,
    living,
    lowest_levels,
)
from domain.classic.sets import SETS
from domain.decision import Command, DecisionCore
from domain.errors import InvalidCommand

HAND_LIMIT = 5
DEAL = 4


def start_turn(d: DecisionCore, seat: str, turn: int) -> None:
    """Dead characters return, then ``seat``'s turn begins (docs/rules.md B.4, B.9)."""
    for other in living(d.state):
        if d.state["seats"][other]["dead"]:
            d.emit(ev.CharacterReturned, actor=RULES, player=other)
    d.emit(ev.TurnBegan, actor=RULES, player=seat, turn=turn)


def maybe_start(d: DecisionCore) -> None:
    s = d.state
    if s["status"] == "setup" and s["first"] and all(s["seats"][x]["ready"] for x in living(s)):
        start_turn(d, s["first"], 1)


def next_seat(state: Mapping[str, Any], seat: str) -> str:
    order = list(state["seats"])
    for step in range(1, len(order) + 1):
        candidate = order[(order.index(seat) + step) % len(order)]
        if state["seats"][candidate]["eliminated"] is None:
            return candidate
    return seat


# ============================================================================ setup (B.1)


def decide_deal(d: DecisionCore, command: Command) -> None:
    server = d.dealt_by_server(command)  # docs/rules.md E.1
    doors = [] if server else ids_arg(command, "doors")
    treasures = [] if server else ids_arg(command, "treasures")
    st = d.state["seats"][d.seat]
    if d.state["status"] == "setup":
        d.check(not st["dealt"], "rule/already_dealt", f"{d.seat} was dealt already", "B.1")
    else:
        d.check(st["needs_deal"], "rule/already_dealt", f"{d.seat} has its cards", "B.9")
        own_turn(d, "a new character's cards")
    if server:
        available(d, "door", DEAL)
        available(d, "treasure", DEAL)
        doors, treasures = dealt(d, "door", DEAL), dealt(d, "treasure", DEAL)
    d.check(
        len(doors) == DEAL and len(treasures) == DEAL,
        "rule/deal_size",
        f"a deal is {DEAL} Doors and {DEAL} Treasures",
        "B.1",
    )
    drawable(d, "door", doors)
    drawable(d, "treasure", treasures)
    d.emit(ev.CardsDealt, player=d.seat, doors=doors, treasures=treasures)


def decide_roll_first(d: DecisionCore, command: Command) -> None:
    server = d.dealt_by_server(command)  # docs/rules.md E.1
    rolls = None if server else command.get("rolls")
    if not server and (not isinstance(rolls, Mapping) or not rolls):
        raise InvalidCommand("request/invalid_rolls", "'rolls' is {seat: 1..6}", {"rolls": []})
    for seat, roll in (rolls or {}).items():
        if seat not in d.state["seats"] or type(roll) is not int or not 1 <= roll <= 6:
            raise InvalidCommand(
                "request/invalid_rolls", "'rolls' is {seat: 1..6}", {"rolls": [str(seat)]}
            )
    d.check(d.state["status"] == "setup", "rule/out_of_order", "the game has begun", "B.1")
    d.check(d.state["first"] is None, "rule/out_of_order", "the first player is known", "B.1")
    expected = [s for s in d.state["tied"] if s in living(d.state)]
    if server:  # a die for each seat still tied (every living seat in record mode's late roll)
        rollers = expected or living(d.state)
        rolls = dict(zip(rollers, d.roll(6, len(rollers)), strict=True))
    assert rolls is not None
    d.check(
        sorted(rolls) == sorted(expected),
        "rule/wrong_rollers",
        f"{', '.join(expected)} roll (ties roll again)",
        "B.1",
    )
    top = max(rolls.values())
    best = [s for s in d.state["seats"] if rolls.get(s) == top]
    first = best[0] if len(best) == 1 else None
    d.emit(
        ev.FirstPlayerDetermined,
        rolls=dict(rolls),
        first=first,
        tied=[] if first else best,
    )
    maybe_start(d)


def decide_ready(d: DecisionCore, command: Command) -> None:
    st = d.state["seats"][d.seat]
    d.check(d.state["status"] == "setup", "rule/out_of_order", "the game has begun", "B.1")
    d.check(st["dealt"], "rule/out_of_order", "a seat is dealt its cards first", "B.1")
    d.check(not st["ready"], "rule/already_ready", f"{d.seat} is ready already", "B.1")
    d.emit(ev.SeatReady, player=d.seat)
    maybe_start(d)


# ============================================================================ the turn (B.4)


def _turn_step(d: DecisionCore, what: str, *phases: str) -> None:
    own_turn(d, what)
    d.check(
        d.state["phase"] in phases,
        "rule/wrong_phase",
        f"{what} belongs to {' or '.join(phases)}, not {d.state['phase']}",
        "B.4",
    )
    d.check(
        not d.state["seats"][d.seat]["needs_deal"],
        "rule/deal_first",
        "a new character draws 4 Doors and 4 Treasures first",
        "B.9",
    )


def decide_kick_door(d: DecisionCore, command: Command) -> None:
    server = d.dealt_by_server(command)  # docs/rules.md E.1
    cid = "" if server else str_arg(command, "card")
    conditions = _conditions(command)
    choices = ids_arg(command, "choices", required=False)
    d.refuse(d.state.get("combat") is None, "combat_in_progress", "finish the combat", "B.5")
    _turn_step(d, "kicking open the door", "kick_door")
    if server:
        available(d, "door", 1)
        (cid,) = dealt(d, "door", 1)
    drawable(d, "door", [cid])
    card = card_def(d.state, cid)
    d.emit(ev.DoorKicked, player=d.seat, card=cid)
    rules = SETS[d.state["ruleset"]]
    if card["kind"] == "monster":
        d.emit(ev.CombatStarted, actor=RULES, player=d.seat, monster=cid, conditions=conditions)
        return
    if card["kind"] == rules.bad_door:
        curse(d, cid, d.seat, choices, from_door=True, prefer=server)
    else:
        d.emit(ev.CardTakenToHand, actor=RULES, player=d.seat, card=cid)
    d.emit(ev.PhaseEntered, actor=RULES, player=d.seat, phase="look_for_trouble")


def decide_look_for_trouble(d: DecisionCore, command: Command) -> None:
    cid = str_arg(command, "card")
    conditions = _conditions(command)
    d.in_zone(cid, d.seat, "hand")
    d.refuse(d.state.get("combat") is None, "combat_in_progress", "finish the combat", "B.5")
    _turn_step(d, "looking for trouble", "look_for_trouble")
    d.check(
        card_def(d.state, cid)["kind"] == "monster",
        "rule/not_a_monster",
        "you look for trouble with a monster",
        "B.4",
    )
    d.emit(ev.LookedForTrouble, player=d.seat, monster=cid)
    d.emit(ev.CombatStarted, actor=RULES, player=d.seat, monster=cid, conditions=conditions)


#: What the active seat may do before its listen (docs/rules.md B.15, D.C16): the listen
#: itself (``loot``), a returning character's deal (B.9) and leaving the game.
BEFORE_LISTEN = frozenset({"loot", "deal", "concede"})


def listen_first(d: DecisionCore, kind: str) -> None:
    """With Listen At The Door on, the listen is the active seat's first action of its turn
    (docs/rules.md B.15, D.C16): any other command of that seat before it (kicking the door
    included) breaks the rule; the other seats' plays do not count, nor a dead seat's."""
    s = d.state
    if (
        kind in BEFORE_LISTEN
        or not s["options"].get("listen_at_door")
        or s["status"] != "playing"
        or s["active"] != d.seat
        or s["phase"] != "kick_door"
        or s["listened"]
        or s["seats"][d.seat]["dead"]
    ):
        return
    d.check(
        False,
        "rule/listen_first",
        "with Listen At The Door, the turn begins with the listen (a `loot` of a Door)",
        "B.15",
    )


def listening(state: Mapping[str, Any]) -> bool:
    """Whether a ``loot`` now is the listen (B.15): Listen At The Door is on, and the turn is
    in its kick phase, not listened yet."""
    return bool(
        state["options"].get("listen_at_door")
        and state.get("phase") == "kick_door"
        and not state.get("listened")
    )


def loot_deck(state: Mapping[str, Any]) -> str:
    """The deck a ``loot`` now draws from: a Door, except the loot proper with Listen At The
    Door on, a Treasure (B.4, B.15)."""
    if listening(state) or not state["options"].get("listen_at_door"):
        return "door"
    return "treasure"


def decide_loot(d: DecisionCore, command: Command) -> None:
    """Loot the Room (B.4); with Listen At The Door on, a ``loot`` before kicking is the
    listen, and the loot proper draws a Treasure (B.15)."""
    server = d.dealt_by_server(command)  # docs/rules.md E.1
    cid = "" if server else str_arg(command, "card")
    if listening(d.state):
        _turn_step(d, "listening at the door", "kick_door")
        if server:
            available(d, "door", 1)
            (cid,) = dealt(d, "door", 1)
        drawable(d, "door", [cid])
        d.emit(ev.ListenedAtDoor, player=d.seat, card=cid)
        return
    _turn_step(d, "looting the room", "look_for_trouble", "loot")
    no_combat(d, "looting the room", "B.4")
    deck = loot_deck(d.state)
    if server:
        available(d, deck, 1)
        (cid,) = dealt(d, deck, 1)
    card = d.card(cid)
    d.check(card["def"]["deck"] == deck, "rule/wrong_deck", f"the loot is a {deck} card", "B.15")
    drawable(d, card["def"]["deck"], [cid])
    d.emit(ev.RoomLooted, player=d.seat, card=cid, deck=card["def"]["deck"])
    d.emit(ev.PhaseEntered, actor=RULES, player=d.seat, phase="charity")


def decide_charity(d: DecisionCore, command: Command) -> None:
    gifts = command.get("gifts")
    if not isinstance(gifts, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in gifts.items()
    ):
        raise InvalidCommand("request/invalid_gifts", "'gifts' is {card: seat}", {"gifts": []})
    for cid, seat in gifts.items():
        d.in_zone(cid, d.seat, "hand")
        d.require(seat in d.state["seats"], "command/unknown_seat", f"no seat {seat!r}")
    own_turn(d, "charity")
    d.check(d.state["phase"] == "charity", "rule/wrong_phase", "charity ends the turn", "B.4")
    hand = d.state["seats"][d.seat]["zones"]["hand"]
    d.check(len(hand) > HAND_LIMIT, "rule/no_charity", f"a hand of {len(hand)} keeps all", "B.13")
    d.check(
        len(hand) - len(gifts) == HAND_LIMIT,
        "rule/charity_count",
        f"charity leaves exactly {HAND_LIMIT} cards, not {len(hand) - len(gifts)}",
        "B.13",
    )
    lowest = lowest_levels(d.state, alive(d.state))
    to = list(gifts.values())
    if d.seat in lowest:
        ok = all(s == d.seat for s in to)
        d.check(ok, "rule/charity_recipient", "the lowest level discards the excess", "B.13")
    else:
        ok = all(s in lowest for s in to)
        d.check(ok, "rule/charity_recipient", f"charity goes to {', '.join(lowest)}", "B.13")
        counts = [to.count(s) for s in lowest]
        d.check(
            max(counts) - min(counts) <= 1,
            "rule/charity_uneven",
            "split as evenly as possible",
            "B.13",
        )
    given = {c: s for c, s in gifts.items() if s != d.seat}
    d.emit(
        ev.CharityResolved,
        player=d.seat,
        gifts=given,
        discarded=[c for c, s in gifts.items() if s == d.seat],
    )


def decide_end_turn(d: DecisionCore, command: Command) -> None:
    d.refuse(d.state["active"] == d.seat, "not_your_turn", "not your turn to end", "B.14")
    d.refuse(d.state.get("combat") is None, "combat_in_progress", "finish the combat", "B.5")
    st = d.state["seats"][d.seat]
    if not st["dead"]:
        d.check(
            d.state["phase"] == "charity",
            "rule/wrong_phase",
            "look for trouble or loot the room before ending the turn",
            "B.4",
        )
        d.check(
            len(st["zones"]["hand"]) <= HAND_LIMIT,
            "rule/charity_first",
            f"a hand over {HAND_LIMIT} goes to charity first",
            "B.13",
        )
    nxt = next_seat(d.state, d.seat)
    turn = d.state["turn"] + 1
    d.emit(ev.ClassicTurnEnded, player=d.seat, next_player=nxt, turn=turn)
    start_turn(d, nxt, turn)


def decide_concede(d: DecisionCore, command: Command) -> None:
    c = d.state.get("combat")
    was_active = d.state["active"] == d.seat
    if c is not None and c["player"] == d.seat:
        end_combat(d, "conceded")
    d.emit(ev.ClassicConceded, player=d.seat)
    left = living(d.state)
    if len(left) == 1:
        d.emit(ev.GameWon, actor=RULES, winners=left, reason="last_player")
        return
    if was_active and d.state["status"] == "playing":
        nxt = next_seat(d.state, d.seat)
        turn = d.state["turn"] + 1
        d.emit(ev.ClassicTurnEnded, actor=RULES, player=d.seat, next_player=nxt, turn=turn)
        start_turn(d, nxt, turn)
    maybe_start(d)  # in setup, the others may all be ready
    body = d.state.get("body")
    if body is not None and not body["order"]:  # the last picker left (B.9)
        d.emit(ev.BodyDiscarded, actor=RULES, dead=body["dead"], cards=list(body["cards"]))
    settle(d)
