"""``test-trio``: a minimal second ruleset that lives in the tests only.

It proves that nothing above the domain assumes the Munchkin CCG's two seats: the API, views,
histories, exports and the viewer must carry a trio game through the public HTTP API with no
change made for it. Load it in a server with ``MUNCHLOG_RULESETS=tests.rulesets.trio``.

The whole game (rule codes ``T.1`` .. ``T.4``):

* T.1 Three seats, A, B and C, each with a hero (public, in its ``hero`` zone) and a deck.
  A's turn comes first, then B's, then C's, skipping seats that are out.
* T.2 On your turn you may ``draw`` the top card of your deck into your hand, and ``play`` a
  card from your hand face up onto your ``table`` for its points (a card's ``power``, else 1).
  ``end_turn`` passes the turn on. A card in a hand or a deck is known only to its owner (the
  one hidden card type); a played card is known to every seat.
* T.3 Any seat still in may ``concede`` at any time; it is out.
* T.4 A seat wins when its points reach :data:`TARGET`, or when every other seat is out; the
  other seats are then out (``outscored``) and the game is finished.

It follows the state conventions every ruleset follows (docs/DESIGN.md) and the Ruleset protocol
of ``domain.ruleset`` (``create``/``decide`` return :class:`Step` s). Every command is decided in
strict mode, whatever the game's mode.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from domain import Step, evolve, initial_state, register
from domain.errors import ImpossibleCommand, InvalidCommand, RuleViolation
from domain.events import Event, family_events
from domain.fold import handles

NAME = "test-trio"
RULES_VERSION = "trio-1"
SEATS = ("A", "B", "C")
TARGET = 5
State = dict[str, Any]
Command = Mapping[str, Any]


#: Trio's events, in its own namespace: their names could be the CCG's, they keep the ``Trio``
#: prefix only because games are stored with them.
_event = family_events("trio")


# ---------------------------------------------------------------------------- events


@_event
@dataclass(frozen=True, slots=True, kw_only=True)
class TrioGameCreated(Event):
    """The game was set up (T.1): seats ``{seat, player, hero, deck}`` with card definitions."""

    game_id: str
    ruleset: str
    rules_version: str
    mode: str
    format: str
    seats: list[dict[str, Any]]
    labels: dict[str, Any] = field(default_factory=dict)

    def card_ids(self) -> list[str]:
        return [c["id"] for s in self.seats for c in [s["hero"], *s["deck"]]]


@_event
@dataclass(frozen=True, slots=True, kw_only=True)
class TrioCardDrawn(Event):
    """``player`` drew ``card`` into its hand (T.2)."""

    player: str
    card: str
    card_fields: ClassVar[tuple[str, ...]] = ("card",)


@_event
@dataclass(frozen=True, slots=True, kw_only=True)
class TrioCardPlayed(Event):
    """``player`` played ``card`` face up onto its table for ``points`` (T.2)."""

    player: str
    card: str
    points: int
    card_fields: ClassVar[tuple[str, ...]] = ("card",)


@_event
@dataclass(frozen=True, slots=True, kw_only=True)
class TrioTurnPassed(Event):
    """``player`` ended its turn; turn ``turn`` is ``next_player``'s (T.1)."""

    player: str
    next_player: str
    turn: int


@_event
@dataclass(frozen=True, slots=True, kw_only=True)
class TrioConceded(Event):
    """``player`` is out (T.3)."""

    player: str


@_event
@dataclass(frozen=True, slots=True, kw_only=True)
class TrioGameWon(Event):
    """``winner`` won (T.4); every other seat still in is out."""

    winner: str


# ---------------------------------------------------------------------------- fold


def _writable(work: Any) -> State:
    """The new state a fold handler writes to, with its own copy of the seats and cards."""
    state: State = work.state if hasattr(work, "state") else work.s
    state["seats"] = copy.deepcopy(state.get("seats") or {})
    state["cards"] = copy.deepcopy(state.get("cards") or {})
    return state


#: The fields of :class:`TrioGameCreated` the state keeps as they are.
_HEADER = ("game_id", "ruleset", "rules_version", "mode", "format")


@handles(TrioGameCreated)
def _created(e: TrioGameCreated, work: Any) -> None:
    s = _writable(work)
    s.update({name: getattr(e, name) for name in _HEADER})
    s.update(labels=dict(e.labels), status="playing", winner=None, turn=1)
    s["active"] = e.seats[0]["seat"]
    everyone = [spec["seat"] for spec in e.seats]
    for spec in e.seats:
        seat, hero = spec["seat"], spec["hero"]
        s["cards"][hero["id"]] = _card(hero, seat, "hero", "up", everyone)
        for c in spec["deck"]:
            s["cards"][c["id"]] = _card(c, seat, "deck", "down", [seat])
        s["seats"][seat] = {
            "player": spec["player"],
            "points": 0,
            "eliminated": None,
            "zones": {
                "hero": [hero["id"]],
                "deck": [c["id"] for c in spec["deck"]],
                "hand": [],
                "table": [],
            },
        }


def _card(d: Mapping[str, Any], owner: str, zone: str, face: str, known: list[str]) -> State:
    definition = {k: v for k, v in d.items() if k != "id"}
    return {"def": definition, "owner": owner, "zone": zone, "face": face, "known": known}


def _move(s: State, cid: str, zone: str, face: str) -> None:
    card = s["cards"][cid]
    zones = s["seats"][card["owner"]]["zones"]
    zones[card["zone"]].remove(cid)
    zones[zone].append(cid)
    card.update(zone=zone, face=face)
    card["known"] = list(s["seats"]) if face == "up" else [card["owner"]]


@handles(TrioCardDrawn)
def _drawn(e: TrioCardDrawn, work: Any) -> None:
    _move(_writable(work), e.card, "hand", "down")


@handles(TrioCardPlayed)
def _played(e: TrioCardPlayed, work: Any) -> None:
    s = _writable(work)
    _move(s, e.card, "table", "up")
    s["seats"][e.player]["points"] += e.points


@handles(TrioTurnPassed)
def _passed(e: TrioTurnPassed, work: Any) -> None:
    s = work.state if hasattr(work, "state") else work.s
    s.update(active=e.next_player, turn=e.turn)


@handles(TrioConceded)
def _conceded(e: TrioConceded, work: Any) -> None:
    _writable(work)["seats"][e.player]["eliminated"] = "conceded"


@handles(TrioGameWon)
def _won(e: TrioGameWon, work: Any) -> None:
    s = _writable(work)
    s.update(status="finished", winner=e.winner, active=None)
    for seat, st in s["seats"].items():
        if seat != e.winner and st["eliminated"] is None:
            st["eliminated"] = "outscored"


# ---------------------------------------------------------------------------- decisions


def _points(card: Mapping[str, Any]) -> int:
    value = card.get("points", card.get("power"))
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def _definition(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str):
        raise InvalidCommand("request/invalid_card", "a card is a definition with an id")
    name, kind = raw.get("name"), raw.get("subtype") or raw.get("type")
    if not isinstance(name, str) or not isinstance(kind, str):
        raise InvalidCommand("request/invalid_card", "a card has a name and a type")
    return {"name": name, "type": kind, "points": _points(raw), "id": raw["id"]}


class _Decision:
    """A state that evolves as events are decided: each state is computed once."""

    def __init__(self, state: State, seat: str) -> None:
        self.state = state
        self.seat = seat
        self.steps: list[Step] = []

    def emit(self, event: Event) -> None:
        self.state = evolve(self.state, event)
        self.steps.append(Step(event=event, state=self.state))


def _in(state: State) -> list[str]:
    return [seat for seat, st in state["seats"].items() if st["eliminated"] is None]


def _next_seat(state: State, seat: str) -> str:
    order = list(state["seats"])
    for step in range(1, len(order) + 1):
        candidate = order[(order.index(seat) + step) % len(order)]
        if state["seats"][candidate]["eliminated"] is None:
            return candidate
    return seat


def _my_turn(d: _Decision) -> None:
    if d.state["active"] != d.seat:
        raise RuleViolation("rule/not_your_turn", f"it is {d.state['active']}'s turn", "T.1")


def _draw(d: _Decision, command: Command) -> None:
    _my_turn(d)
    deck = d.state["seats"][d.seat]["zones"]["deck"]
    if not deck:
        raise ImpossibleCommand("command/empty_deck", "your deck is empty")
    d.emit(TrioCardDrawn(seat=d.seat, player=d.seat, card=deck[0]))


def _play(d: _Decision, command: Command) -> None:
    _my_turn(d)
    cid = command.get("card")
    if not isinstance(cid, str):
        raise InvalidCommand("request/invalid_command", "play needs a card", {"card": ["an id"]})
    if cid not in d.state["seats"][d.seat]["zones"]["hand"]:
        raise ImpossibleCommand("command/not_in_hand", "that card is not in your hand")
    points = _points(d.state["cards"][cid]["def"])
    d.emit(TrioCardPlayed(seat=d.seat, player=d.seat, card=cid, points=points))
    if d.state["seats"][d.seat]["points"] >= TARGET:
        d.emit(TrioGameWon(seat="rules", winner=d.seat, cause=d.state["version"]))


def _end_turn(d: _Decision, command: Command) -> None:
    _my_turn(d)
    nxt = _next_seat(d.state, d.seat)
    d.emit(TrioTurnPassed(seat=d.seat, player=d.seat, next_player=nxt, turn=d.state["turn"] + 1))


def _concede(d: _Decision, command: Command) -> None:
    if d.state["seats"][d.seat]["eliminated"] is not None:
        raise ImpossibleCommand("command/out", "you are out already")
    was_active = d.state["active"] == d.seat
    d.emit(TrioConceded(seat=d.seat, player=d.seat))
    left = _in(d.state)
    if len(left) == 1:
        d.emit(TrioGameWon(seat="rules", winner=left[0], cause=d.state["version"]))
    elif was_active:
        nxt = _next_seat(d.state, d.seat)
        turn = d.state["turn"] + 1
        d.emit(TrioTurnPassed(seat="rules", player=d.seat, next_player=nxt, turn=turn))


COMMANDS = {"draw": _draw, "play": _play, "end_turn": _end_turn, "concede": _concede}


class Trio:
    """The ``test-trio`` ruleset (see the module docstring)."""

    name = NAME
    family = "trio"
    rules_version = RULES_VERSION
    seat_names: tuple[str, ...] = SEATS
    min_seats = max_seats = len(SEATS)
    command_types = tuple(COMMANDS)
    card_fields: Mapping[str, str] = {"hero": "one", "deck": "many"}

    def create(self, spec: Mapping[str, Any]) -> list[Any]:
        seats = spec.get("seats")
        if not isinstance(seats, list) or sorted(s.get("seat") for s in seats) != list(SEATS):
            raise InvalidCommand("request/invalid_seats", "exactly three seats, A, B and C")
        out_seats, seen = [], set()
        for seat in sorted(seats, key=lambda s: s["seat"]):
            hero = _definition(seat.get("hero"))
            deck = [_definition(c) for c in seat.get("deck") or []]
            for cid in [hero["id"], *(c["id"] for c in deck)]:
                if cid in seen:
                    raise InvalidCommand("request/duplicate_ids", f"card id {cid!r} used twice")
                seen.add(cid)
            player = seat.get("player")
            if not isinstance(player, str) or not player.strip():
                raise InvalidCommand("request/invalid_player", "each seat needs a player name")
            out_seats.append({"seat": seat["seat"], "player": player, "hero": hero, "deck": deck})
        event = TrioGameCreated(
            game_id=str(spec.get("game_id", "")),
            ruleset=NAME,
            rules_version=RULES_VERSION,
            mode=str(spec.get("mode", "strict")),
            format=str(spec.get("format", "casual")),
            seats=out_seats,
            labels=dict(spec.get("labels") or {}),
        )
        return self._result([Step(event=event, state=evolve(initial_state(), event))])

    def decide(self, state: State, command: Command) -> list[Any]:
        kind, seat = command.get("type"), command.get("seat")
        if kind not in COMMANDS:
            known = {"type": [f"one of {', '.join(COMMANDS)}"]}
            raise InvalidCommand("request/unknown_command", f"{NAME} has no {kind!r}", known)
        if state.get("status") == "finished":
            raise ImpossibleCommand("command/game_over", "the game is over")
        if seat not in state.get("seats", {}):
            raise InvalidCommand("request/invalid_seat", f"no seat {seat!r} in this game")
        d = _Decision(state, str(seat))
        COMMANDS[kind](d, command)
        return self._result(d.steps)

    @staticmethod
    def _result(steps: list[Step]) -> list[Step]:
        return list(steps)

    def legal_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        if state.get("status") != "playing" or state["seats"][seat]["eliminated"] is not None:
            return []
        out: list[dict[str, Any]] = [{"type": "concede", "seat": seat}]
        if state["active"] == seat:
            zones = state["seats"][seat]["zones"]
            if zones["deck"]:
                out.append({"type": "draw", "seat": seat})
            out += [{"type": "play", "seat": seat, "card": cid} for cid in zones["hand"]]
            out.append({"type": "end_turn", "seat": seat})
        return out

    def decide_correction(self, state: State, command: Mapping[str, Any]) -> Event:
        raise InvalidCommand("request/unknown_correction", "test-trio has no corrections")

    def backup(self, point: State, current: State, later: Sequence[Any]) -> list[Any]:
        raise ImpossibleCommand("ruling/backup_impossible", "test-trio has no backups")


RULESET = register(Trio())


def trio_card(name: str, kind: str = "gem", points: int = 1) -> dict[str, Any]:
    """A card definition the creation body may carry (the CCG's shape checks accept it)."""
    return {"name": name, "type": "loot", "subtype": kind, "power": points, "text": name}


def trio_spec(deck_size: int = 8, *, mode: str = "strict") -> dict[str, Any]:
    """A ``POST /api/games`` body for a trio game: three seats, heroes and decks."""
    seats = []
    for seat, player in zip(SEATS, ("ann", "bob", "cyd"), strict=True):
        hero = {"name": f"Trio Hero {seat}", "type": "hero", "life": 3, "class": "neutral"}
        deck = [trio_card(f"Gem {seat}{i}", points=1 + i % 3) for i in range(deck_size)]
        seats.append({"seat": seat, "player": player, "hero": hero, "deck": deck})
    return {
        "ruleset": NAME,
        "mode": mode,
        "format": "casual",
        "seats": seats,
        "labels": {"event": "Trio Cup"},
    }
