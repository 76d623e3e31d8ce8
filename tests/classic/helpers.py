"""Building and playing classic games in tests (docs/rules.md B), with no service in between."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from domain import Event, evolve, initial_state
from domain.classic import CLASSIC, ClassicRuleset
from domain.classic.cards import sample_catalog
from domain.errors import DomainError
from domain.fold import State

PLAYERS = ("ann", "bob", "cyd", "dee", "eve", "fay")


class Game:
    """A classic game in a test: its ruleset, its state and every event so far."""

    def __init__(self, ruleset: str, steps: list[Any]) -> None:
        self.rs: ClassicRuleset = CLASSIC[ruleset]
        self.events: list[Event] = [s.event for s in steps]
        self.state: State = steps[-1].state

    def do(self, seat: str, kind: str, **fields: Any) -> list[Event]:
        """Decide one command and adopt its steps; returns its events."""
        steps = self.rs.decide(self.state, {"type": kind, "seat": seat, **fields})
        if steps:
            self.state = steps[-1].state
        new = [s.event for s in steps]
        self.events += new
        return new

    def refused(self, seat: str, kind: str, **fields: Any) -> DomainError:
        """The error ``command`` raises (the test fails if it is accepted)."""
        try:
            self.rs.decide(self.state, {"type": kind, "seat": seat, **fields})
        except DomainError as err:
            return err
        raise AssertionError(f"{kind} {fields} by {seat} was accepted")

    def seat(self, seat: str) -> dict[str, Any]:
        st: dict[str, Any] = self.state["seats"][seat]
        return st

    def ids(self, name: str) -> list[str]:
        """Card ids of every card called ``name``."""
        return [cid for cid, c in self.state["cards"].items() if c["def"]["name"] == name]

    def id(self, name: str, n: int = 0) -> str:
        return self.ids(name)[n]

    def refold(self) -> State:
        state = initial_state()
        for e in self.events:
            state = evolve(state, e)
        return state


def with_ids(cards: Iterable[Mapping[str, Any]], prefix: str) -> list[dict[str, Any]]:
    return [{**c, "id": f"{prefix}{i}"} for i, c in enumerate(cards)]


def spec(
    ruleset: str,
    doors: list[Mapping[str, Any]],
    treasures: list[Mapping[str, Any]],
    seats: int = 3,
    *,
    mode: str = "strict",
    options: Mapping[str, bool] | None = None,
) -> dict[str, Any]:
    """A creation spec: seat A brings every card (ids ``d0``…, ``t0``…), the others none."""
    out = []
    for i in range(seats):
        seat = {"seat": "ABCDEF"[i], "player": PLAYERS[i], "doors": [], "treasures": []}
        if i == 0:
            seat["doors"] = with_ids(doors, "d")
            seat["treasures"] = with_ids(treasures, "t")
        out.append(seat)
    return {"mode": mode, "format": "casual", "seats": out, "options": dict(options or {})}


def new_game(
    ruleset: str, doors: list[Any], treasures: list[Any], seats: int = 3, **kw: Any
) -> Game:
    return Game(ruleset, CLASSIC[ruleset].create(spec(ruleset, doors, treasures, seats, **kw)))


def filler(ruleset: str, n: int = 40) -> tuple[list[Any], list[Any]]:
    """``n`` harmless Door and Treasure cards of the set (to deal from)."""
    cat = sample_catalog(ruleset)
    door = {"name": "Sample Blank Door", "deck": "door", "kind": "other", "text": "Nothing."}
    treasure = {
        "name": "Sample Pebble",
        "deck": "treasure",
        "kind": "item",
        "slot": None,
        "bonus": 0,
        "value": 100,
        "text": "A pebble.",
    }
    assert cat  # the catalog loads
    return [door] * n, [treasure] * n


def started(
    ruleset: str,
    doors: list[Any],
    treasures: list[Any],
    seats: int = 3,
    hands: Mapping[str, tuple[list[str], list[str]]] | None = None,
    **kw: Any,
) -> Game:
    """A game through setup: each seat dealt (its named cards first, then fillers), A first."""
    blank_d, blank_t = filler(ruleset)
    g = new_game(ruleset, [*doors, *blank_d], [*treasures, *blank_t], seats, **kw)
    wanted = dict(hands or {})
    for seat in "ABCDEF"[:seats]:
        names_d, names_t = wanted.get(seat, ([], []))
        dd = _pick(g, "door", names_d)
        tt = _pick(g, "treasure", names_t)
        g.do(seat, "deal", doors=dd, treasures=tt)
    rolls = {s: 6 if s == "A" else 1 for s in "ABCDEF"[:seats]}
    g.do("A", "roll_first", rolls=rolls)
    return g


def _pick(g: Game, deck: str, names: list[str]) -> list[str]:
    pile = g.state["decks"][deck]
    out: list[str] = []
    for name in names:
        out.append(
            next(c for c in pile if g.state["cards"][c]["def"]["name"] == name and c not in out)
        )
    blank = "Sample Blank Door" if deck == "door" else "Sample Pebble"
    for c in pile:
        if len(out) == 4:
            break
        if g.state["cards"][c]["def"]["name"] == blank and c not in out:
            out.append(c)
    return out


def ready_all(g: Game) -> None:
    for seat in g.state["seats"]:
        if not g.seat(seat)["ready"]:
            g.do(seat, "ready")


def top_door(g: Game, name: str) -> str:
    return next(c for c in g.state["decks"]["door"] if g.state["cards"][c]["def"]["name"] == name)


def top_treasures(g: Game, n: int) -> list[str]:
    return list(g.state["decks"]["treasure"][:n])


def random_decks(ruleset: str, rng: random.Random, size: int = 70) -> tuple[list[Any], list[Any]]:
    cat = list(sample_catalog(ruleset).values())
    doors = [c for c in cat if c["deck"] == "door"]
    treasures = [c for c in cat if c["deck"] == "treasure"]
    return [rng.choice(doors) for _ in range(size)], [rng.choice(treasures) for _ in range(size)]
