"""Concrete commands a seat may send now (for random games, bots and the viewer's hints).

Candidates are built from the state (the top cards of the decks, the cards in the seat's hand
and in play, every die roll) and each is kept only if :func:`domain.classic.decide` accepts it
in strict mode, so every command returned is legal (docs/rules.md B).

Two lists, because a draw names cards no seat knows (docs/rules.md A.4):
:func:`driver_commands` (internal: the drivers that hold the whole state) and
:func:`legal_commands` (the ruleset's, what a seat may be shown: no card it may not see).

In a server-dealt game (docs/rules.md E.1) a draw or a roll names no card and no value
(``{"type": "kick_door"}``, ``run_away`` without ``roll`` …): both lists give that form, each
tried with a key nobody deals with (:func:`probing`): what it would draw never decides whether
it is legal.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from domain import fair
from domain.classic.deciding import decide
from domain.classic.rules import (
    alive,
    card_def,
    fighters,
    has_power,
    living,
    lowest_levels,
    player_wins,
)
from domain.errors import DomainError
from domain.fold import State
from domain.seeding import seed_commands, seeds_due

Cmd = dict[str, Any]


def _top(state: State, deck: str, n: int) -> list[str] | None:
    pile = list(state["decks"][deck])
    if len(pile) < n:
        pile += list(state["decks"][f"{deck}_discard"])
    return pile[:n] if len(pile) >= n else None


def _choices(state: State, seat: str, effects: list[Mapping[str, Any]]) -> list[str]:
    """The first qualifying card for every effect that needs the victim's choice."""
    zones = state["seats"][seat]["zones"]
    out: list[str] = []
    for effect in effects:
        ((name, arg),) = effect.items()
        if name == "lose_item" and arg != "all":
            pool = _in_play(state, seat)
            if arg == "big":
                pool = [c for c in pool if card_def(state, c).get("big")]
            elif arg != "any":
                pool = [c for c in zones["equipped"] if card_def(state, c).get("slot") == arg]
        elif name == "lose_trait":
            pool = list(zones[str(arg)])
        else:
            continue
        pool = [c for c in pool if c not in out]
        if len(pool) > 1:
            out.append(pool[0])
    return out


def _rolls(state: State) -> list[int | None]:
    """Every value a die a seat tells may show; one roll the server makes (E.1)."""
    return [None] if fair.server_deals(state) else list(range(1, 7))


def _run(state: State, seat: str, monster: str, roll: int | None) -> Cmd:
    """A run from ``monster``, naming the choices its hurt on escape asks for (B.8)."""
    cmd: Cmd = {"type": "run_away", "monster": monster}
    if roll is not None:
        cmd["roll"] = roll
    hurts = card_def(state, monster).get("escape_bad_stuff") or []
    choices = _choices(state, seat, hurts)
    if choices:
        cmd["choices"] = choices
    return cmd


def _in_play(state: State, seat: str) -> list[str]:
    """``seat``'s Items in play: equipped, then carried (docs/rules.md B.2)."""
    zones = state["seats"][seat]["zones"]
    return [*zones["equipped"], *zones["carried"]]


def _deal(state: State) -> Iterator[Cmd]:
    """A seat's deal of 4 Doors and 4 Treasures (B.1, B.9): the tops the table names, or none
    when the server deals (E.1)."""
    if fair.server_deals(state):
        yield {"type": "deal"}
        return
    doors, treasures = _top(state, "door", 4), _top(state, "treasure", 4)
    if doors and treasures:
        yield {"type": "deal", "doors": doors, "treasures": treasures}


def _draw(state: State, deck: str) -> Iterator[list[str]]:
    """The card a one-card draw from ``deck`` names: the top the table names; nothing when the
    server deals (an empty list: the command names no card, E.1)."""
    if fair.server_deals(state):
        yield []
        return
    top = _top(state, deck, 1)
    if top:
        yield top


def _setup(state: State, seat: str) -> Iterator[Cmd]:
    st = state["seats"][seat]
    server = fair.server_deals(state)
    if not st["dealt"]:
        yield from _deal(state)
        return
    tied = [s for s in state["tied"] if state["seats"][s]["eliminated"] is None]
    if state["first"] is None and tied and tied[0] == seat and server:
        yield {"type": "roll_first"}
    elif state["first"] is None and tied and tied[0] == seat:
        yield {"type": "roll_first", "rolls": {s: 6 - i % 6 for i, s in enumerate(tied)}}
        yield {"type": "roll_first", "rolls": dict.fromkeys(tied, 3)}
    if not st["ready"]:
        yield {"type": "ready"}
        for cid in st["zones"]["hand"]:
            yield {"type": "play", "card": cid}


def _combat(state: State, seat: str, c: Mapping[str, Any]) -> Iterator[Cmd]:
    hand = state["seats"][seat]["zones"]["hand"]
    monsters = [e["card"] for e in c["monsters"]]
    if c["stage"] == "fight":
        if seat == c["player"]:
            for other in alive(state):
                if other != seat and other not in c["declined"]:
                    yield {"type": "ask_help", "helper": other, "bribe": {"treasures": 1}}
        if seat in fighters(c):  # the player or the helper: its powers count (B.7, B.8)
            for roll in _rolls(state):
                yield _run(state, seat, monsters[0], roll)
            for cid in [*hand, *state["seats"][seat]["zones"]["carried"]][:6]:
                yield {"type": "discard", "card": cid}
        if seat == c["player"]:
            for cid in hand:
                if card_def(state, cid).get("forces_help"):  # D.C7
                    for other in alive(state):
                        if other != seat:
                            yield {"type": "play", "card": cid, "target": other}
        if seat in fighters(c):
            for m in monsters:
                yield {"type": "chase_away", "monster": m}
        if hand and seat not in fighters(c):  # a Deluxe Thief's backstab (B.2, B.6)
            for victim in fighters(c):
                yield {"type": "discard", "card": hand[0], "target": victim}
        if c["asked"] == seat:
            yield {"type": "accept_help"}
            yield {"type": "decline_help"}
        yield {"type": "pass"}
        for cid in [*hand, *state["seats"][seat]["zones"]["carried"]]:  # one-shots: B.12
            kind = card_def(state, cid)["kind"]
            if kind in ("enhancer", "monster"):
                yield {"type": "play", "card": cid, "target": monsters[0]}
                if card_def(state, cid).get("adds_tags"):  # a monster made one of a tag (B.6)
                    for other in hand:
                        if card_def(state, other)["kind"] == "monster":
                            yield {"type": "play", "card": cid, "target": other}
                if kind == "monster":
                    yield {"type": "play", "card": cid}
            elif kind == "one_shot":
                yield {"type": "play", "card": cid, "target": "monster", "choice": 1}
                yield {"type": "play", "card": cid, "choice": 1}
            elif card_def(state, cid).get("wandering"):
                for other in hand:
                    yield {"type": "play", "card": cid, "target": other}
    elif c["stage"] == "run_away":
        for victim, monster in c["caught"]:
            if victim == seat:
                effects = card_def(state, monster).get("bad_stuff") or []
                yield {
                    "type": "bad_stuff",
                    "monster": monster,
                    "choices": _choices(state, seat, effects),
                }
        if seat in fighters(c) and not c["caught"]:
            for m in monsters:
                if m not in c["runs"].get(seat, []):
                    for roll in _rolls(state):
                        yield _run(state, seat, m, roll)
                    break
    elif c["stage"] == "treasure" and seat == c["player"] and fair.server_deals(state):
        yield {"type": "take_treasure"}
    elif c["stage"] == "treasure" and seat == c["player"]:
        n = min(
            c["treasures"],
            len(state["decks"]["treasure"]) + len(state["decks"]["treasure_discard"]),
        )
        cards = _top(state, "treasure", n)
        if cards is not None:
            yield {"type": "take_treasure", "cards": cards}


def _charity(state: State, seat: str) -> Iterator[Cmd]:
    hand = state["seats"][seat]["zones"]["hand"]
    excess = hand[: len(hand) - 5]
    lowest = lowest_levels(state, alive(state))
    if seat in lowest:
        yield {"type": "charity", "gifts": dict.fromkeys(excess, seat)}
    else:
        yield {
            "type": "charity",
            "gifts": {c: lowest[i % len(lowest)] for i, c in enumerate(excess)},
        }


def _turn(state: State, seat: str) -> Iterator[Cmd]:
    st = state["seats"][seat]
    phase = state["phase"]
    if st["dead"] or phase == "charity":
        yield {"type": "end_turn"}
    if st["needs_deal"]:
        yield from _deal(state)
    if phase == "kick_door":
        for door in _draw(state, "door"):
            if not door:  # the server deals: no card, so no choice for a Curse (E.1)
                yield {"type": "kick_door"}
                yield {"type": "loot"}
                continue
            card = card_def(state, door[0])
            choices = _choices(state, seat, card.get("effects") or [])
            yield {"type": "kick_door", "card": door[0], "choices": choices}
            yield {"type": "loot", "card": door[0]}
    if phase == "look_for_trouble":
        for cid in st["zones"]["hand"]:
            yield {"type": "look_for_trouble", "card": cid}
        for deck in ("door", "treasure"):
            for top in _draw(state, deck):
                yield {"type": "loot", "card": top[0]} if top else {"type": "loot"}
    if phase == "charity" and len(st["zones"]["hand"]) > 5:
        yield from _charity(state, seat)


def _anytime(state: State, seat: str) -> Iterator[Cmd]:
    zones = state["seats"][seat]["zones"]
    for cid in zones["hand"]:
        card = card_def(state, cid)
        if card["kind"] in ("curse", "trap"):
            for target in alive(state):
                effects = card.get("effects") or []
                yield {
                    "type": "play",
                    "card": cid,
                    "target": target,
                    "choices": _choices(state, target, effects),
                }
        elif card.get("removes_curse"):  # any seat, any time (B.10)
            for other in state["seats"].values():
                for curse in other["zones"]["curses"]:
                    yield {"type": "play", "card": cid, "target": curse}
        elif card.get("cheat"):  # on one's own Item in play, or with a second Steed (B.2)
            for item in _in_play(state, seat):
                if card_def(state, item)["kind"] == "item":
                    yield {"type": "play", "card": cid, "target": item}
            for steed in zones["hand"]:
                if card_def(state, steed)["kind"] == "steed":
                    yield {"type": "play", "card": cid, "target": steed}
        elif (
            card["kind"] == "level_up"
            or state["active"] == seat
            or cid in (state.get("got") or ())  # just received (B.14)
        ):
            yield {"type": "play", "card": cid}
    for cid in zones["carried"]:
        yield {"type": "equip", "card": cid}
    for cid in zones["equipped"][:2]:
        yield {"type": "unequip", "card": cid}
    hirelings = [c for c in zones["helpers"] if card_def(state, c)["kind"] == "hireling"]
    for hireling in hirelings[:1]:  # a Deluxe Hireling carries one Item (B.2)
        for cid in _in_play(state, seat)[:1]:
            yield {"type": "equip", "card": cid, "hireling": hireling}
    for cid in zones["helpers"]:
        if card_def(state, cid)["kind"] in ("item", "one_shot"):
            yield {"type": "unequip", "card": cid}
    for kind in ("race", "class", "army", "helpers"):
        for cid in zones[kind]:
            yield {"type": "discard", "card": cid}
    if zones["hand"] and has_power(state, seat, "steal"):  # a Deluxe Thief's theft (B.2)
        small = [
            c
            for other in alive(state)
            if other != seat
            for c in _in_play(state, other)
            if not card_def(state, c).get("big")
        ]
        if small:  # one try, its roll varying with the table (both outcomes happen)
            steal: Cmd = {"type": "discard", "card": zones["hand"][0], "steal": small[0]}
            if not fair.server_deals(state):  # the server rolls itself (E.1)
                steal["roll"] = 1 + len(state["decks"]["door_discard"]) % 6
            yield steal
    items = sorted(
        (
            c
            for c in [*zones["equipped"], *zones["carried"], *zones["hand"]]
            if card_def(state, c)["kind"] in ("item", "one_shot")
            and card_def(state, c).get("value")
        ),
        key=lambda c: -card_def(state, c)["value"],
    )
    gold, sold = 0, []
    for cid in items:
        if gold >= 1000:
            break
        gold += card_def(state, cid)["value"]
        sold.append(cid)
    if gold >= 1000:
        yield {"type": "sell", "cards": sold}
    table = _in_play(state, seat)
    trade = state.get("trade")
    if trade is not None and trade["with"] == seat:
        yield {"type": "accept_trade"}
    others = [s for s in alive(state) if s != seat]
    if state["active"] == seat and table and others:
        get = _in_play(state, others[0])[:1]
        yield {"type": "trade", "with": others[0], "give": table[:1], "get": get}
        yield {"type": "give", "to": others[-1], "cards": table[:1]}
    yield {"type": "concede"}


def candidates(state: State, seat: str) -> Iterator[Cmd]:
    if state.get("status") not in ("setup", "playing"):
        return
    if state["seats"][seat]["eliminated"] is not None:
        return
    body = state.get("body")
    if body is not None:
        if body["order"] and body["order"][0] == seat:
            for cid in body["cards"][:4]:
                yield {"type": "loot_body", "card": cid}
        return
    if state["status"] == "setup":
        yield from _setup(state, seat)
        return
    c = state.get("combat")
    if c is not None:
        yield from _combat(state, seat, c)
    if state["active"] == seat and c is None:
        yield from _turn(state, seat)
    if not state["seats"][seat]["dead"]:
        yield from _anytime(state, seat)


def driver_commands(state: State, seat: str) -> list[dict[str, Any]]:
    """INTERNAL, never to be shown to a seat: every concrete command ``seat`` may send now,
    each accepted by ``decide`` in strict mode, for a driver that holds the whole state (the
    demo with the judge's token, the benchmarks, the random-game tests).

    In a table-dealt game a draw names the cards it draws (``kick_door``, ``loot``, ``deal``,
    ``take_treasure``: the tops of the decks, known to no seat, docs/rules.md B.1), because the
    table names them; so these commands carry ids the seat may not see (A.4). What a seat may
    be told is :func:`legal_commands`. In a server-dealt game they name none (E.1).
    """
    strict = state if state.get("mode", "strict") == "strict" else {**state, "mode": "strict"}
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    with probing(state):
        for cand in candidates(state, seat):
            cmd = {**cand, "seat": seat}
            key = repr(sorted(cmd.items()))
            if key in seen:
                continue
            seen.add(key)
            try:
                decide(strict, cmd)
            except DomainError:
                continue
            out.append(cmd)
    return [*out, *seed_commands(state, seat)]  # a server-dealt game's seeds, while due (E.2)


def probing(state: State) -> AbstractContextManager[None]:
    """Decide with a key nobody deals with (every secret zero) in a server-dealt game: a
    candidate that draws or rolls is tried so, its steps thrown away. Its legality never
    depends on what it would draw (a server's draw is decided after every check, docs/rules.md
    E.1), and a draw before every seed is in is still refused (``rule/seeds_pending``)."""
    d = fair.of(state)
    if d is None:
        return nullcontext()
    return fair.secrets_for(dict.fromkeys(range(int(d["epoch"]) + 1), bytes(32)))


#: The command fields that name cards (a card, a list of cards, or ``gifts``: cards to seats).
CARD_FIELDS = ("card", "cards", "monster", "target", "choices", "give", "get", "gifts", "steal")
DRAW_FIELDS = ("doors", "treasures")


def _hidden(state: State, seat: str, value: Any) -> bool:
    """Whether ``value`` (an id, a list of ids, a dict keyed by ids) names a card ``seat`` may
    not see (docs/rules.md A.4); a string that is no card id (a seat, ``"monster"``) names none.
    """
    cards = state["cards"]
    ids = list(value) if isinstance(value, list | dict) else [value]
    return any(isinstance(c, str) and c in cards and seat not in cards[c]["known"] for c in ids)


def legal_commands(state: State, seat: str) -> list[dict[str, Any]]:
    """What ``seat`` may do now, in words it may be shown: :func:`driver_commands` with no card
    the seat may not see (docs/rules.md A.4).

    A command that names only cards the seat knows is as :func:`driver_commands` gives it
    (accepted by ``decide`` in strict mode). A draw from a face-down deck names cards known to
    no seat: it is given without them (and without the ``choices`` its hidden card asks for),
    e.g. ``{"type": "kick_door", "seat": "A"}``, the form a server-dealt game takes (E.1); in
    a table-dealt game a driver fills them in from the table.
    """
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for cmd in driver_commands(state, seat):
        hidden = [
            k for k in (*CARD_FIELDS, *DRAW_FIELDS) if k in cmd and _hidden(state, seat, cmd[k])
        ]
        if hidden:
            cmd = {k: v for k, v in cmd.items() if k not in (*hidden, "choices")}
        key = repr(sorted(cmd.items()))
        if key not in seen:
            seen.add(key)
            out.append(cmd)
    return out


def waiting_for(state: State) -> list[str]:
    """The seats the game waits on now (``Family.waiting_for``), in seating order: the seeds
    due (E.2); in setup, each seat still to be dealt or to be ready and the seat to roll for
    first (B.1); the seat looting a body (B.9); in a combat (B.5-B.8) the seat asked for help,
    else the seats still to pass while the player's side wins, or its fighters while it
    loses; once they run, each seat caught and owing Bad Stuff, else the fighters still to
    roll; the player taking its Treasure; else the active player."""
    if state.get("status") not in ("setup", "playing"):
        return []
    due = seeds_due(state)
    if due:
        return due
    seats, in_game = list(state["seats"]), living(state)
    body = state.get("body")
    if body is not None:
        return [body["order"][0]] if body["order"] else []
    if state["status"] == "setup":
        tied = [s for s in state["tied"] if s in in_game]
        roller = tied[0] if state["first"] is None and tied else None
        return [
            s
            for s in in_game
            if s == roller or not state["seats"][s]["dealt"] or not state["seats"][s]["ready"]
        ]
    c = state.get("combat")
    if c is None:
        return [state["active"]] if state.get("active") in seats else []
    if c["stage"] == "fight":
        if c["asked"] is not None:
            return [c["asked"]]
        if c["monsters"] and player_wins(state, c):
            return [s for s in alive(state) if s != c["player"] and s not in c["passed"]]
        return [s for s in seats if s in fighters(c) and s in in_game]
    if c["stage"] == "run_away":
        caught = {victim for victim, _ in c["caught"]}
        if caught:
            return [s for s in seats if s in caught]
        monsters = {e["card"] for e in c["monsters"]}
        return [
            s
            for s in seats
            if s in fighters(c) and s in alive(state) and monsters - set(c["runs"].get(s, []))
        ]
    return [c["player"]]
