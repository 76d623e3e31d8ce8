"""Builders for CCG domain tests: a position in one call, commands in one line, random games.

Everything here goes through the public domain API (``create``, ``decide``, ``evolve``,
``legal_commands``); ``decide`` and ``create`` return steps (each event with the state after
it), so nothing is folded twice. Positions that no sequence of player commands reaches quickly (a card on
top of the hand, extra gold, a cooldown position) are made by folding a *judge* event with
``evolve``, so every state a test uses is still a fold of events.

>>> state, events = started_game(seed=1)
>>> state["status"], state["active"], state["phase"]
('playing', 'A', 'munchkining')
>>> state, cid = give(state, "A", "Sample Goblin Horde")
>>> state["cards"][cid]["zone"]
'hand'
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import event_from_dict, evolve, fair, find_ruleset
from domain.ccg import events as ev
from domain.ccg.cards import sample_catalog
from domain.ccg.state import drawable
from domain.classic.cards import sample_catalog as classic_catalog
from domain.classic.demo import CLASSIC_CHURN
from domain.game import decide_commands
from domain.ruleset import Step
from domain.visibility import knowledge
from tests.unit import seeded_games

State = dict[str, Any]
Command = dict[str, Any]

RS = find_ruleset("munchkin-ccg")
CATALOG = sample_catalog()
WARRIOR = "Sample Orc Warrior"
THIEF = "Sample Gnome Thief"
BARD = "Sample Wandering Bard"
SEATS = ("A", "B")
#: When a server-dealt random game's commands are received (no reveal deadline passes).
AT = "2024-05-01T10:00:00Z"
#: A classic game's seats (3 to 6 of them).
CLASSIC_SEATS = "ABCDEF"


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


def new_id(rng: random.Random) -> str:
    """A random opaque card id (16 hex digits), like the application's ``token_hex(8)``."""
    return f"{rng.getrandbits(64):016x}"


def card_def(name: str, **changes: Any) -> dict[str, Any]:
    """The sample catalog's definition of ``name`` (a copy), with ``changes`` applied."""
    return {**CATALOG.get(name), **changes}


def class_names(hero_class: str) -> list[str]:
    """Names of the non-Hero sample cards a ``hero_class`` prime deck may hold (A.6)."""
    return [
        name
        for name, d in CATALOG.cards.items()
        if d["type"] != "hero" and (d["class"] == "neutral" or d["class"] == hero_class)
    ]


def prime_deck(hero: str, size: int = 40) -> list[str]:
    """A legal prime deck list for ``hero``: every allowed name once, then a second copy..."""
    hero_class = CATALOG.get(hero)["class"]
    names = class_names("neutral" if hero_class == "wanderer" else hero_class)
    return [names[i % len(names)] for i in range(size)]


def unique_name(name: str, seat: str, index: int) -> str:
    """``name`` with a suffix no other card has (``~A007~``), so a leaked name is detectable."""
    return f"{name} ~{seat}{index:03d}~"


def game_spec(
    seed: int = 0,
    *,
    mode: str = "strict",
    fmt: str = "prime",
    heroes: Sequence[str] = (WARRIOR, THIEF),
    decks: Mapping[str, Sequence[str]] | None = None,
    unique_names: Iterable[str] = (),
    game_id: str | None = None,
    changes: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """A ``create`` spec from the sample catalog, card ids drawn from ``random.Random(seed)``.

    ``decks`` maps a seat to its list of card names (default: :func:`prime_deck`);
    ``unique_names`` lists the seats whose every card gets a unique name (casual format only,
    since prime allows three copies of a name). ``changes`` maps a card name to fields changed
    on every card of that name (Heroes included), e.g. ``{WARRIOR: {"abilities": None}}`` for a
    card made *unchecked* on purpose (docs/cards.md): a custom card, so casual format only.
    """
    rng = random.Random(seed)
    unique = set(unique_names)
    changed = changes or {}
    seats = []
    for seat, hero in zip(SEATS, heroes, strict=True):
        names = list((decks or {}).get(seat) or prime_deck(hero))
        deck = []
        for i, name in enumerate(names):
            d = card_def(name, **changed.get(name, {}))
            if seat in unique:
                d["name"] = unique_name(name, seat, i)
            deck.append({**d, "id": new_id(rng)})
        seats.append(
            {
                "seat": seat,
                "player": f"player {seat}",
                "hero": {**card_def(hero, **changed.get(hero, {})), "id": new_id(rng)},
                "deck": deck,
            }
        )
    return {
        "game_id": game_id or f"g{seed}",
        "mode": mode,
        "format": fmt,
        "labels": {"seed": seed},
        "seats": seats,
    }


def as_new(spec: Mapping[str, Any]) -> dict[str, Any]:
    """``spec`` as the service creates a new game: its cards checked against the sample catalog
    (docs/rules.md A.6: prime and draft play catalog cards, casual marks others ``custom``).
    A spec that names its own ``catalog`` keeps it (``None``: a recorded game's definitions)."""
    return {"catalog": CATALOG, **spec}


def new_game(spec: Mapping[str, Any]) -> tuple[State, list[ev.Event]]:
    """The state right after ``GameCreated`` for ``spec`` (a new game, :func:`as_new`), with
    the events."""
    steps = RS.create(as_new(spec))
    return steps[-1].state, [step.event for step in steps]


# ---------------------------------------------------------------------------- commands


def play(state: State, *commands: Command) -> tuple[State, list[ev.Event]]:
    """Decide and fold ``commands`` in order; return the final state and every event.

    An ``attack`` without a ``salt`` gets ``"salt"`` (the application fills it in for real).
    """
    events: list[ev.Event] = []
    for command in commands:
        if command.get("type") == "attack" and "salt" not in command:
            command = {**command, "salt": "salt"}
        steps = RS.decide(state, command)
        if steps:
            state = steps[-1].state
        events.extend(step.event for step in steps)
    return state, events


def cmd(kind: str, seat: str, **fields: Any) -> Command:
    """A command dict in one line: ``cmd("play", "A", card=cid)``."""
    return {"type": kind, "seat": seat, **fields}


def attack_revealed(
    seat: str, card: str, gold: int, defenders: Sequence[str] = ()
) -> list[Command]:
    """A fight up to the reveal: ``seat`` attacks with ``card`` and ``gold``; the opponent faces,
    commits ``defenders`` (if any) and declares ready; ``seat`` reveals."""
    defender = other(seat)
    commit = [cmd("commit", defender, cards=list(defenders))] if defenders else []
    return [
        cmd("attack", seat, card=card, gold=gold),
        cmd("face", defender),
        *commit,
        cmd("ready", defender),
        cmd("reveal", seat),
    ]


def types(events: Iterable[ev.Event]) -> list[str]:
    return [e.type for e in events]


def of_type(events: Iterable[ev.Event], cls: type[ev.Event]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


# ---------------------------------------------------------------------------- lookups


def ids_named(state: State, seat: str, name: str, zone: str | None = None) -> list[str]:
    """Ids of ``seat``'s cards called ``name`` (in ``zone`` if given), in zone order."""
    cards = state["cards"]
    zones = [zone] if zone else ["hand", "hoard", "stash", "deck", "discard", "removed"]
    out = []
    for z in (z for z in zones if z != "dmz"):
        out += [c for c in state["seats"][seat]["zones"][z] if cards[c]["def"]["name"] == name]
    if zone in (None, "dmz"):
        out += [
            c for c in state["dmz"] if cards[c]["owner"] == seat and cards[c]["def"]["name"] == name
        ]
    return out


def card_id(state: State, seat: str, name: str, zone: str | None = None) -> str:
    """The first id of ``seat``'s card called ``name`` (see :func:`ids_named`)."""
    found = ids_named(state, seat, name, zone)
    if not found:
        raise LookupError(f"seat {seat} has no {name!r} in {zone or 'any zone'}")
    return found[0]


def hero(state: State, seat: str) -> str:
    return str(state["seats"][seat]["hero"])


def zone_of(state: State, cid: str) -> str:
    return str(state["cards"][cid]["zone"])


def damage(state: State, cid_or_seat: str) -> int:
    cid = hero(state, cid_or_seat) if cid_or_seat in SEATS else cid_or_seat
    return int(state["cards"][cid]["damage"])


# ---------------------------------------------------------------------------- positions


def judge(state: State, event: ev.Event) -> State:
    """Fold one judge-made event (a position tweak that is still an event in the log)."""
    return evolve(state, event)


def give(
    state: State, seat: str, name: str, zone: str = "hand", face: str | None = None
) -> tuple[State, str]:
    """Put one of ``seat``'s cards called ``name`` into ``zone`` (from the deck if possible).

    ``zone`` is ``hand``, ``hoard``, ``stash`` (face down unless ``face="up"``) or ``discard``;
    the move is a judge ``CardMoved`` event, so the position is still a fold of events.
    """
    for source in ("deck", "discard", "stash", "hand", "hoard"):
        found = [c for c in ids_named(state, seat, name, source) if source != zone]
        if found:
            cid = found[0]
            face = face or ("down" if zone == "stash" else "up")
            state = judge(state, ev.CardMoved(seat="judge", card=cid, to=zone, face=face))
            return state, cid
    raise LookupError(f"seat {seat} has no {name!r} left to move to its {zone}")


def add_gold(state: State, seat: str, amount: int) -> State:
    """Put ``amount`` stockpile gold in ``seat``'s purse (a judge ``GoldTaken``)."""
    return judge(state, ev.GoldTaken(seat="judge", source=None, player=seat, amount=amount))


def with_level(state: State, seat: str, level: int) -> State:
    return judge(state, ev.LevelIncreased(seat="judge", player=seat, level=level))


def with_damage(state: State, cid_or_seat: str, amount: int) -> State:
    cid = hero(state, cid_or_seat) if cid_or_seat in SEATS else cid_or_seat
    return judge(state, ev.DamageDealt(seat="judge", source=None, target=cid, amount=amount))


def started_game(
    seed: int = 0,
    *,
    first: str = "A",
    hands: Mapping[str, Sequence[str]] | None = None,
    draw: bool = True,
    spec: Mapping[str, Any] | None = None,
    **spec_options: Any,
) -> tuple[State, list[ev.Event]]:
    """A game past setup in one call: opening hands, roll-off (A wins), ``first`` chosen, both
    keep. With ``draw`` the first player has drawn and is munchkining; else it is at the draw.

    ``hands`` maps a seat to card names to have in its opening hand (the rest from the deck
    top).
    """
    state, events = new_game(spec or game_spec(seed, **spec_options))
    commands: list[Command] = []
    for seat in SEATS:
        wanted = list((hands or {}).get(seat) or [])
        deck = list(state["seats"][seat]["zones"]["deck"])
        chosen: list[str] = []
        for name in wanted:
            cid = next(
                c for c in deck if c not in chosen and state["cards"][c]["def"]["name"] == name
            )
            chosen.append(cid)
        chosen += [c for c in deck if c not in chosen][: 6 - len(chosen)]
        commands.append(cmd("draw_opening", seat, cards=chosen))
    commands += [
        cmd("roll_first", "A", rolls={"A": 6, "B": 1}),
        cmd("choose_first", "A", first=first),
        cmd("keep", first),
        cmd("keep", other(first)),
    ]
    state, more = play(state, *commands)
    events += more
    if draw:
        state, more = draw_card(state, first)
        events += more
    return state, events


def unchecked(*names: str) -> dict[str, dict[str, Any]]:
    """``changes`` for :func:`game_spec` making the cards called ``names`` unchecked on purpose:
    their text is not encoded (``abilities: null``, docs/cards.md), so what is recorded for them
    is kept as told and marked ``unchecked``. For tests of the stack and of the effect commands
    themselves, not of a card (use with ``fmt="casual"``)."""
    return {name: {"abilities": None} for name in names}


def resolving(seat: str = "A", **game_options: Any) -> State:
    """A munchkining (see :func:`started_game`) with ``seat``'s Hero ability (zap) on the stack,
    in a casual game where that Hero is *unchecked* on purpose (:func:`unchecked`): any effect
    may be recorded while it resolves (each marked ``unchecked``). For tests of what an effect
    command does; a card's own effects are tested with the card (see :func:`use_hero`)."""
    heroes = game_options.get("heroes", (WARRIOR, THIEF))
    name = heroes[SEATS.index(seat)]
    changes = {**unchecked(name), **game_options.pop("changes", {})}
    game_options.setdefault("fmt", "casual")
    s, _ = started_game(changes=changes, **game_options)
    s, _ = play(s, cmd("activate", seat, card=hero(s, seat), costs={"zap": True}))
    return s


def horde_triggered(mode: str) -> State:
    """Turn 1, A's Goblin Horde hired for 2 gold against the Gnome Thief: its Hired trigger
    (1 damage to the defending Hero, no target) is on the stack, A to resolve it."""
    s, horde = give(add_gold(started_game(mode=mode)[0], "A", 1), "A", "Sample Goblin Horde")
    s, _ = play(
        s,
        cmd("attack", "A", card=horde, gold=2),
        cmd("face", "B"),
        cmd("ready", "B"),
        cmd("reveal", "A"),
        cmd("pass", "A"),
        cmd("pass", "B"),
    )
    return s


def hero_ability(state: State, seat: str, target: str | None = None) -> list[Command]:
    """The commands for ``seat``'s sample Hero ability, its card's effects in order, then
    ``resolve`` (docs/cards.md; domain/data/sample_catalog.json):

    * Orc Warrior: zap, target a Hero or Monster in play (default: the opposing Hero), 1 damage;
    * Gnome Thief: zap, draw the deck's top 2, put the first of them on the deck's bottom;
    * Wandering Bard: zap and pay 1 gold, take 2 gold.
    """
    h = hero(state, seat)
    name = state["cards"][h]["def"]["name"]
    if name == WARRIOR:
        target = target or hero(state, other(seat))
        commands = [
            cmd("activate", seat, card=h, costs={"zap": True}, targets=[target]),
            cmd("damage", seat, source=h, target=target, amount=1),
        ]
    elif name == THIEF:
        top = state["seats"][seat]["zones"]["deck"][:2]  # index 0 is the deck's top
        commands = [
            cmd("activate", seat, card=h, costs={"zap": True}),
            *(cmd("draw", seat, source=h, card=c) for c in top),
            cmd("move", seat, source=h, card=top[0], to="deck_bottom"),
        ]
    elif name == BARD:
        commands = [
            cmd("activate", seat, card=h, costs={"zap": True, "gold": 1}),
            cmd("take_gold", seat, source=h, amount=2),
        ]
    else:
        raise LookupError(f"no sample ability script for {name!r}")
    return [*commands, cmd("resolve", seat)]


def use_hero(state: State, seat: str, target: str | None = None) -> tuple[State, list[ev.Event]]:
    """``seat`` activates its Hero and resolves it with the card's effects (:func:`hero_ability`)."""
    return play(state, *hero_ability(state, seat, target))


def bleeding(state: State, seat: str = "A") -> tuple[State, str]:
    """``seat`` plays a Cursed Bandage (Bleeding 1) on the opponent's Hero, sticks it there and
    resolves it; returns the state and the Curse."""
    s, curse = give(state, seat, "Sample Cursed Bandage")
    target = hero(s, other(seat))
    s, _ = play(
        s,
        cmd("play", seat, card=curse, gold=1, targets=[target]),
        cmd("stick", seat, source=curse, card=curse, target=target),
        cmd("resolve", seat),
    )
    return s, curse


def top_card(state: State, seat: str) -> str:
    """A card the rules let ``seat`` draw now (docs/rules.md D.20): the known top card, else the
    last card of the deck in no known order (never one put on the bottom)."""
    return drawable(state, seat)[-1]


def draw_card(state: State, seat: str) -> tuple[State, list[ev.Event]]:
    """The warmup draw of the top card of ``seat``'s deck (:func:`top_card`)."""
    return play(state, cmd("draw", seat, card=top_card(state, seat)))


def next_turn(state: State, draw: bool = True) -> tuple[State, list[ev.Event]]:
    """End the active player's turn; the opponent draws (with ``draw``, once both seats passed
    the damage window of any Bleeding Curse in its reckoning, docs/rules.md D.28)."""
    active = state["active"]
    state, events = play(state, cmd("end_turn", active))
    while draw and (state.get("window") or {}).get("kind") == "damage" and not state["stack"]:
        state, more = play(state, cmd("pass", other(active)), cmd("pass", active))
        events += more
    if draw and state["status"] == "playing":
        state, more = draw_card(state, other(active))
        events += more
    return state, events


# ---------------------------------------------------------------------------- random games

Policy = Callable[[random.Random, State, list[tuple[str, Command]]], tuple[str, Command]]


def all_legal(state: State) -> list[tuple[str, Command]]:
    """Every ``(seat, command)`` ``legal_commands`` offers to either seat."""
    return [(seat, c) for seat in SEATS for c in RS.legal_commands(state, seat)]


def random_policy(concede_rate: float = 0.001) -> Policy:
    """Pick uniformly among legal commands, conceding only with probability ``concede_rate``."""

    def choose(
        rng: random.Random, state: State, options: list[tuple[str, Command]]
    ) -> tuple[str, Command]:
        rest = [o for o in options if o[1]["type"] != "concede"]
        if rest and rng.random() >= concede_rate:
            return rng.choice(rest)
        return rng.choice(options)

    return choose


@dataclass
class Move:
    """One command of a random game: the state before, the command, its events, the state after."""

    before: State
    seat: str
    command: Command
    events: list[ev.Event]
    after: State


@dataclass
class RandomGame:
    """A random game driven by ``legal_commands`` for both seats (reusable by any test/bench).

    ``dealing=True``: the server deals it (docs/rules.md E), both seats contributing the seeds
    ``legal_commands`` offer, the server's secret drawn from the game's own seeded stream; each
    command is decided as ``Game.execute`` decides it (``domain.game.decide_commands``).

    >>> game = RandomGame(seed=3)
    >>> final = game.run()
    >>> final["status"], final["version"] == len(game.events)
    ('finished', True)
    """

    seed: int = 0
    spec: Mapping[str, Any] | None = None
    policy: Policy = field(default_factory=random_policy)
    max_events: int = 20_000
    dealing: bool = False
    state: State = field(init=False)
    events: list[ev.Event] = field(init=False)
    rng: random.Random = field(init=False)
    secrets: dict[int, bytes] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        # Not random.Random(seed): game_spec(seed) draws its card ids from that stream.
        self.rng = random.Random(f"driver:{self.seed}")
        spec = as_new(self.spec or game_spec(self.rng.getrandbits(32)))
        if self.dealing:
            self.secrets = {0: self.rng.randbytes(32)}
            asked = {"contributors": list(SEATS), "reveal_timeout": 60}
            spec["dealing"] = fair.opening(str(spec["game_id"]), asked, self.secrets[0])
        steps = RS.create(spec)
        self.events = [step.event for step in steps]
        self.state = steps[-1].state

    def decide(self, state: State, command: Command) -> list[Step]:
        """The steps of ``command`` (a server-dealt game's as ``Game.execute`` decides them)."""
        if self.secrets is None:
            return RS.decide(state, command)
        decided = decide_commands(
            RS, state, [(command, None)], received_at=AT, secrets=self.secrets
        )
        return [step for step, _ in decided]

    @property
    def finished(self) -> bool:
        return bool(self.state["status"] == "finished")

    def choose(self) -> tuple[str, Command]:
        seat, command = self.policy(self.rng, self.state, all_legal(self.state))
        if command["type"] == "attack":
            command = {**command, "salt": f"{self.rng.getrandbits(128):032x}"}
        return seat, command

    def apply(self, seat: str, command: Command) -> Move:
        before = self.state
        steps = self.decide(before, command)
        new = [step.event for step in steps]
        if steps:
            self.state = steps[-1].state
        self.events.extend(new)
        return Move(before, seat, command, new, self.state)

    def moves(self) -> Iterator[Move]:
        while not self.finished and len(self.events) < self.max_events:
            seat, command = self.choose()
            yield self.apply(seat, command)

    def run(self) -> State:
        for _ in self.moves():
            pass
        return self.state


def records(
    events: Sequence[ev.Event], state: State | None = None
) -> Iterator[tuple[State, dict[str, Any]]]:
    """``(state after, stored record)`` for each event folded from ``state`` (default: the
    initial state), with ``visible_to`` as the application stores it."""
    state = state if state is not None else {"version": 0, "status": "new"}
    for event in events:
        after = evolve(state, event)
        yield (
            after,
            {
                "version": after["version"],
                "event": event.to_dict(),
                "visible_to": knowledge(state, after, event),
            },
        )
        state = after


def json_round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def seeded_records(seed: int, game_id: str | None = None) -> list[dict[str, Any]]:
    """A random whole game (tests/unit/seeded_games.py) under a UUID game id, as sealed
    records: what a complete export holds."""
    _, events = seeded_games.play(seed)
    created = events[0].to_dict()
    created["game_id"] = game_id or str(uuid.UUID(int=seed + 1))
    return seeded_games.records_for([event_from_dict(created), *events[1:]])


def classic_spec(
    ruleset: str, seats: int = 4, *, copies: int = 3, secret: random.Random | None = None
) -> dict[str, Any]:
    """A classic game's creation (a ``POST /api/games`` body): seat A brings the sample
    catalog ``copies`` times (by name), or, with ``secret``, as definitions each with its own
    random name; the others nothing."""
    catalog = classic_catalog(ruleset)
    doors: list[dict[str, Any]] = []
    treasures: list[dict[str, Any]] = []
    for name, card in catalog.items():
        into = doors if card["deck"] == "door" else treasures
        if secret is None:
            into.append({"name": name, "count": copies})
            continue
        for i in range(copies):
            unique = f"Secret{i}x{secret.getrandbits(40):010x}"
            into.append({**card, "name": unique, "text": ""})
    body = []
    for i in range(seats):
        mine = i == 0
        body.append(
            {
                "seat": CLASSIC_SEATS[i],
                "player": f"player {CLASSIC_SEATS[i]}",
                "doors": doors if mine else [],
                "treasures": treasures if mine else [],
            }
        )
    return {"ruleset": ruleset, "mode": "strict", "format": "casual", "seats": body}


def random_classic_command(rs: Any, state: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal classic command of any seat (``rs.driver_commands``), rarely a concession,
    and mostly one that moves the game on (as the demo does: not a churn of cards)."""
    choices = [
        {**cmd, "seat": seat} for seat in state["seats"] for cmd in rs.driver_commands(state, seat)
    ]
    keep = [c for c in choices if c["type"] != "concede"]
    onward = [c for c in keep if c["type"] not in CLASSIC_CHURN]
    if onward and rng.random() < 0.8:
        keep = onward
    return dict(rng.choice(keep if keep and rng.random() > 0.02 else choices))
