"""``test-trio``: a minimal second ruleset that lives in the tests only.

It proves that nothing above the domain assumes the Munchkin CCG's two seats, nor its seat
fields, cards, table or words: the API, views, histories, exports and the viewer must carry a
trio game through the public HTTP API with no change made for it. Its read side is its own
(``domain.family.Family``): its seat fields ``champion`` and ``gems``, an option
(``short_game``), a card schema (``TrioCard``), a table view (``target``, ``scores``), its
narration, its results (finishing places), the card field a judge's diff lists (``scored``)
and the ``hero`` of its history rows (each seat's champion). Load it in a server with
``MUNCHLOG_RULESETS=tests.rulesets.trio``.

The whole game (rule codes ``T.1`` .. ``T.4``):

* T.1 Three seats, A, B and C, each with a champion (public, in its ``champion`` zone) and
  gems (its deck). A card is ``{name, kind, points?, text?}`` (:data:`CARD_COMPONENTS`).
  A's turn comes first, then B's, then C's, skipping seats that are out.
* T.2 On your turn you may ``draw`` the top card of your deck into your hand, and ``play`` a
  card from your hand face up onto your ``table`` for its points (a card's ``points``, else 1),
  which the card then shows (``scored``).
  ``end_turn`` passes the turn on. A card in a hand or a deck is known only to its owner (the
  one hidden card type); a played card is known to every seat.
* T.3 Any seat still in may ``concede`` at any time; it is out.
* T.4 A seat wins when its points reach :data:`TARGET` (:data:`SHORT_TARGET` with the option
  ``short_game``), or when every other seat is out; the other seats are then out
  (``outscored``) and the game is finished. The winner finishes first, the others by their
  points (T.5).

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
from domain.family import Family
from domain.fold import handles
from domain.narration import Narrator, Says
from domain.schemas import entry_of, text

NAME = "test-trio"
RULES_VERSION = "trio-1"
SEATS = ("A", "B", "C")
TARGET = 5
SHORT_TARGET = 3
#: The trio's optional rules (T.4).
OPTIONS = {"short_game": f"the first to {SHORT_TARGET} points wins (not {TARGET})"}
State = dict[str, Any]
Command = Mapping[str, Any]


#: Trio's events, in its own namespace: their names could be the CCG's, they keep the ``Trio``
#: prefix only because games are stored with them.
_event = family_events("trio")


# ---------------------------------------------------------------------------- events


@_event
@dataclass(frozen=True, slots=True, kw_only=True)
class TrioGameCreated(Event):
    """The game was set up (T.1): seats ``{seat, player, champion, gems}`` with card
    definitions, and the options (T.4)."""

    game_id: str
    ruleset: str
    rules_version: str
    mode: str
    format: str
    seats: list[dict[str, Any]]
    labels: dict[str, Any] = field(default_factory=dict)
    options: dict[str, bool] = field(default_factory=dict)

    def card_ids(self) -> list[str]:
        return [c["id"] for s in self.seats for c in [s["champion"], *s["gems"]]]


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
    s["options"] = dict(e.options)
    s["target"] = SHORT_TARGET if e.options.get("short_game") else TARGET
    s["active"] = e.seats[0]["seat"]
    everyone = [spec["seat"] for spec in e.seats]
    for spec in e.seats:
        seat, champion = spec["seat"], spec["champion"]
        s["cards"][champion["id"]] = _card(champion, seat, "champion", "up", everyone)
        for c in spec["gems"]:
            s["cards"][c["id"]] = _card(c, seat, "deck", "down", [seat])
        s["seats"][seat] = {
            "player": spec["player"],
            "points": 0,
            "eliminated": None,
            "zones": {
                "champion": [champion["id"]],
                "deck": [c["id"] for c in spec["gems"]],
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
    s["cards"][e.card]["scored"] = e.points
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
    value = card.get("points")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


#: A trio card's fields (T.1).
CARD_FIELDS = ("name", "kind", "points", "text")


def _definition(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str):
        raise InvalidCommand("request/invalid_card", "a card is a definition with an id")
    name, kind = raw.get("name"), raw.get("kind")
    if not isinstance(name, str) or not isinstance(kind, str):
        raise InvalidCommand("request/invalid_card", "a card has a name and a kind")
    out = {"name": name, "kind": kind, "points": _points(raw), "id": raw["id"]}
    if isinstance(raw.get("text"), str):
        out["text"] = raw["text"]
    return out


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
    if d.state["seats"][d.seat]["points"] >= d.state["target"]:
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


# ---------------------------------------------------------------------------- read side

#: ``components/schemas`` of a trio card (T.1), in the OpenAPI document once the trio is loaded.
CARD_COMPONENTS: dict[str, dict[str, Any]] = {
    "TrioCard": {
        "type": "object",
        "description": "a test-trio card (T.1): its name, kind and points",
        "required": ["name", "kind"],
        "additionalProperties": False,
        "properties": {
            "name": text(120, "the card's name", minLength=1),
            "kind": text(40, "gem, champion, ..."),
            "points": {"type": "integer", "minimum": 1, "maximum": 9, "default": 1},
            "text": text(500, "flavour"),
        },
    }
}


class TrioNarrator(Narrator):
    """The trio's events in words (T.2-T.4)."""

    SAYS: ClassVar[Mapping[str, Says]] = {
        **Narrator.SAYS,
        "TrioGameCreated": Says(None, "the trio sits down", minor=True),
        "TrioCardDrawn": Says("player", "draws {card}"),
        "TrioCardPlayed": Says("player", "lays {card} for {points} points"),
        "TrioTurnPassed": Says(None, "turn {turn}: {next_player}", minor=True),
        "TrioConceded": Says("player", "leaves the trio"),
        "TrioGameWon": Says(None, "{winner} wins the trio"),
    }


class Trio(Family):
    """The ``test-trio`` ruleset (see the module docstring), and its read side."""

    name = NAME
    family = "trio"
    rules_version = RULES_VERSION
    seat_names: tuple[str, ...] = SEATS
    min_seats = max_seats = len(SEATS)
    command_types = tuple(COMMANDS)
    card_fields: Mapping[str, str] = {"champion": "one", "gems": "many"}
    options: tuple[str, ...] = tuple(OPTIONS)
    option_fields: ClassVar[Mapping[str, str]] = OPTIONS
    options_description: ClassVar[str] = "the trio's optional rules"
    seat_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "champion": {"entry": entry_of("TrioCard"), "description": "test-trio: the champion"},
        "gems": {
            "entry": entry_of("TrioCard"),
            "description": "test-trio: the gems, the seat's deck",
            "max_items": 40,
        },
    }
    narrator: ClassVar[type[Narrator]] = TrioNarrator
    result_updates: ClassVar[Mapping[str, Any]] = {"TrioGameWon": lambda e: str(e["winner"])}
    #: A judge's diff lists the points a card scored when it was played (T.2).
    diff_card_fields: ClassVar[tuple[str, ...]] = ("scored",)

    def create(self, spec: Mapping[str, Any]) -> list[Any]:
        seats = spec.get("seats")
        if not isinstance(seats, list) or sorted(s.get("seat") for s in seats) != list(SEATS):
            raise InvalidCommand("request/invalid_seats", "exactly three seats, A, B and C")
        out_seats, seen = [], set()
        for seat in sorted(seats, key=lambda s: s["seat"]):
            champion = _definition(seat.get("champion"))
            gems = [_definition(c) for c in seat.get("gems") or []]
            for cid in [champion["id"], *(c["id"] for c in gems)]:
                if cid in seen:
                    raise InvalidCommand("request/duplicate_ids", f"card id {cid!r} used twice")
                seen.add(cid)
            player = seat.get("player")
            if not isinstance(player, str) or not player.strip():
                raise InvalidCommand("request/invalid_player", "each seat needs a player name")
            out_seats.append(
                {"seat": seat["seat"], "player": player, "champion": champion, "gems": gems}
            )
        options = spec.get("options") or {}
        if not isinstance(options, Mapping) or not all(
            k in OPTIONS and isinstance(v, bool) for k, v in options.items()
        ):
            raise InvalidCommand("request/invalid_options", f"options: {', '.join(OPTIONS)}")
        event = TrioGameCreated(
            game_id=str(spec.get("game_id", "")),
            ruleset=NAME,
            rules_version=RULES_VERSION,
            mode=str(spec.get("mode", "strict")),
            format=str(spec.get("format", "casual")),
            seats=out_seats,
            labels=dict(spec.get("labels") or {}),
            options={k: bool(options.get(k, False)) for k in OPTIONS},
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

    # -- the read side (domain.family) ----------------------------------------------------

    def resolve_entry(
        self, field: str, entry: Any, *, catalog: Any = None, where: str | None = None
    ) -> list[dict[str, Any]]:
        """A trio card (T.1): ``{name, kind, points?, text?}``; no catalog."""
        place = where or field
        if not isinstance(entry, Mapping):
            raise InvalidCommand("request/invalid_card", "a trio card", {place: ["a TrioCard"]})
        unknown = sorted(str(k) for k in entry if k not in CARD_FIELDS)
        if unknown:
            raise InvalidCommand(
                "request/invalid_card",
                f"not trio card fields: {', '.join(unknown)}",
                {f"{place}.{k}": ["not a TrioCard field"] for k in unknown},
            )
        points = entry.get("points", 1)
        if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= 9:
            raise InvalidCommand(
                "request/invalid_card", "points: 1..9", {f"{place}.points": ["1..9"]}
            )
        return [{k: entry[k] for k in CARD_FIELDS if k in entry}]

    def creation_spec(self, data: Mapping[str, Any]) -> dict[str, Any]:
        keys = ("game_id", "mode", "format", "labels", "seats", "options")
        return {k: data[k] for k in keys}

    def card_components(self) -> dict[str, dict[str, Any]]:
        return dict(CARD_COMPONENTS)

    def table_view(
        self, state: Mapping[str, Any], viewer: str, seats: tuple[str, ...]
    ) -> dict[str, Any]:
        """The options, the points to reach and each seat's score: public (T.2, T.4)."""
        return {
            "options": dict(state["options"]),
            "target": state["target"],
            "scores": {seat: state["seats"][seat]["points"] for seat in seats},
        }

    def history_hero(self, seat: Mapping[str, Any]) -> str | None:
        """A history row names each seat's champion (T.1) as its hero."""
        return str(seat["champion"]["name"])

    def results(self, state: State) -> dict[str, str | int | None]:
        """Finishing places (T.5): the winner first, the others by their points."""
        seats = state.get("seats") or {}
        if state.get("status") != "finished":
            return dict.fromkeys(seats)
        winner = state.get("winner")

        def ahead(seat: str) -> int:
            mine = seats[seat]["points"]
            return sum(1 for s in seats if s == winner or (s != seat and seats[s]["points"] > mine))

        return {seat: 1 if seat == winner else ahead(seat) + 1 for seat in seats}

    def event_seats(
        self, settings: Mapping[str, Any], seats: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """An event's table (docs/rules.md F, ``domain.family``): each seat brings the house
        champion and gems of its seat (T.1); its players register nothing."""
        return [{**seat, **house_cards(str(seat["seat"]))} for seat in seats]


RULESET = register(Trio())


def trio_card(name: str, kind: str = "gem", points: int = 1) -> dict[str, Any]:
    """A trio card definition the creation body may carry (T.1, ``TrioCard``)."""
    return {"name": name, "kind": kind, "points": points, "text": name}


def house_cards(seat: str, deck_size: int = 8) -> dict[str, Any]:
    """A seat's champion and gems: ``Trio Champion A``, gems ``Gem A0`` .. of 1 to 3 points."""
    champion = trio_card(f"Trio Champion {seat}", kind="champion")
    gems = [trio_card(f"Gem {seat}{i}", points=1 + i % 3) for i in range(deck_size)]
    return {"champion": champion, "gems": gems}


def trio_spec(deck_size: int = 8, *, mode: str = "strict") -> dict[str, Any]:
    """A ``POST /api/games`` body for a trio game: three seats, champions and gems."""
    seats = [
        {"seat": seat, "player": player, **house_cards(seat, deck_size)}
        for seat, player in zip(SEATS, ("ann", "bob", "cyd"), strict=True)
    ]
    return {
        "ruleset": NAME,
        "mode": mode,
        "format": "casual",
        "seats": seats,
        "labels": {"event": "Trio Cup"},
    }
