"""``munchlog demo``: record one complete sample game through the HTTP API.

The demo is a client like any other: it creates a game with the organizer token, then, until the
game is over, reads the log with the judge token, folds it into the domain state, asks
``legal_commands`` what each seat may do (a classic game: ``driver_commands``, which name the
cards a draw takes), picks one with a seeded ``random.Random`` (never conceding; a classic
game by a policy that seeks a winner, :func:`classic_choice`) and posts it with the table
token, with ``expected_version`` and an ``Idempotency-Key``. The same seed gives the same game.

It talks either to an app in this process (Flask test client) or to a running server
(``requests``), through a :class:`Transport`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain import Catalog, event_from_dict, evolve, find_ruleset, initial_state, sample_catalog
from domain.classic.moves import driver_commands
from domain.classic.rules import card_def, character_strength, player_wins
from domain.classic.sets import SETS

RULESET = "munchkin-ccg"
DECK_SIZE = 40


class Transport(ABC):
    """One HTTP exchange: ``transport(method, path, token=..., json=..., headers=...)`` returns
    ``(status, json_body)``. A subclass says how to :meth:`send` it."""

    def __call__(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, Any]:
        all_headers = dict(headers or {})
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        return self.send(method, path, json, all_headers)

    @abstractmethod
    def send(
        self, method: str, path: str, json: Any, headers: dict[str, str]
    ) -> tuple[int, Any]: ...


class FlaskTransport(Transport):
    """Talk to a Flask app in this process."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()

    def send(self, method: str, path: str, json: Any, headers: dict[str, str]) -> tuple[int, Any]:
        response = self.client.open(path, method=method, json=json, headers=headers)
        return response.status_code, response.get_json(silent=True)


class HttpTransport(Transport):
    """Talk to a running server at ``base_url`` (e.g. ``http://127.0.0.1:8000``)."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        import requests

        self.base_url = base_url.rstrip("/")
        self.session = requests.Session()
        self.timeout = timeout

    def send(self, method: str, path: str, json: Any, headers: dict[str, str]) -> tuple[int, Any]:
        import requests

        try:
            response = self.session.request(
                method, self.base_url + path, json=json, headers=headers, timeout=self.timeout
            )
        except requests.RequestException as exc:
            raise DemoError(f"{method} {self.base_url}{path}: {exc.__class__.__name__}") from None
        try:
            body = response.json()
        except ValueError:
            body = None
        return response.status_code, body


class DemoError(RuntimeError):
    """The server refused something the demo expected it to accept."""


@dataclass
class DemoResult:
    game_id: str
    version: int
    status: str
    winner: str | None
    actions: int
    tokens: dict[str, str] = field(default_factory=dict)


def demo_spec(catalog: Catalog | None = None, *, seed: int = 0) -> dict[str, Any]:
    """A legal prime game: two heroes and 40-card decks by name from the catalog."""
    catalog = catalog if catalog is not None else sample_catalog()
    rng = random.Random(seed)
    heroes = sorted(n for n, d in catalog.cards.items() if d["type"] == "hero")
    if len(heroes) < 2:
        raise DemoError("the catalog needs at least two heroes")
    seats = []
    for seat, player, hero in (("A", "Alice", heroes[0]), ("B", "Bob", heroes[1])):
        hero_class = catalog.cards[hero]["class"]
        names = sorted(
            n
            for n, d in catalog.cards.items()
            if d["type"] != "hero" and d["class"] in ("neutral", hero_class)
        )
        rng.shuffle(names)
        deck: list[dict[str, Any]] = []
        left = DECK_SIZE
        for name in names:
            if left == 0:
                break
            count = min(3, left)
            deck.append({"name": name, "count": count})
            left -= count
        if left:
            raise DemoError(f"not enough {hero_class}/neutral cards for a {DECK_SIZE}-card deck")
        seats.append({"seat": seat, "player": player, "hero": {"name": hero}, "deck": deck})
    return {
        "ruleset": RULESET,
        "mode": "strict",
        "format": "prime",
        "seats": seats,
        "labels": {"event": "munchlog demo", "round": 1, "table": 1},
    }


def domain_event_from_view(view: Mapping[str, Any]) -> Any:
    """The judge's view of an event back into a domain event (the judge sees everything)."""
    data = {
        "type": view["type"],
        "v": view["v"],  # the stored class version: older ones are upcast (domain.events)
        "seat": view["seat"],
        "cause": view["cause"],
        "violation": view["violation"],
        "unchecked": bool(view.get("unchecked")),
        **view["data"],
    }
    if view["version"] == 1 and isinstance(data.get("seats"), list):  # the game's creation
        data["seats"] = [
            {k: v for k, v in s.items() if not _list_count(s, k)} for s in data["seats"]
        ]
        data = {k: v for k, v in data.items() if not _list_count(data, k)}  # classic decks
    return event_from_dict(data)


#: Classic commands that shuffle cards about without moving the game on (docs/rules.md B.12).
CLASSIC_CHURN = frozenset({"unequip", "trade", "give", "discard", "sell"})
#: How often the classic demo picks any onward command (not the policy's best): the game stays
#: varied (curses, wandering monsters, trades refused…) and still finishes.
CLASSIC_WANDER = 0.05
#: The classic demo's cap on actions (a seeded game finishes long before: see the tests).
CLASSIC_ACTIONS = 3000


def classic_priority(state: Mapping[str, Any], cmd: Mapping[str, Any]) -> int:
    """How much ``cmd`` moves a classic game towards a winner (docs/rules.md B.3-B.7): take
    what a win gives, win the fights a seat can win, flee the others, help, build the character
    (play, equip, sell for a level), then kick the door and end the turn; everything else last.
    The demo plays the best of every seat's legal commands (ties broken by its seeded die)."""
    kind, seat = cmd["type"], cmd["seat"]
    combat = state.get("combat")
    if kind in ("deal", "roll_first", "loot_body", "take_treasure", "bad_stuff"):
        return 100
    if state.get("status") == "setup":
        return {"play": 90, "ready": 50}.get(kind, 0)
    if combat is not None:
        winning = player_wins(state, combat)
        fighter = seat == combat["player"]
        if kind == "pass":
            return 90 if winning or not fighter else 0
        if kind == "accept_help":
            return 85
        if kind == "run_away":
            return 60 if combat["stage"] == "fight" else 90
        if fighter and not winning and kind == "play" and cmd.get("target") is None:
            return 80 if card_def(state, cmd["card"])["kind"] == "one_shot" else 0
        if fighter and not winning and kind == "ask_help":
            return 70
        return 0
    if kind == "equip":
        return 95
    if kind == "sell":
        return 93 if state["seats"][seat]["level"] < 9 else 0
    if kind == "play" and cmd.get("target") is None:
        return 92 if card_def(state, cmd["card"])["kind"] != "monster" else 0
    if kind == "kick_door":
        return 80
    if kind == "look_for_trouble":
        card = card_def(state, cmd["card"])
        level = card.get("level")
        return 85 if isinstance(level, int) and level < character_strength(state, seat) else 0
    if kind == "loot":
        return 75 if state.get("phase") == "look_for_trouble" else 0
    if kind == "charity":
        return 80
    if kind == "end_turn":
        return 70
    return 0


def classic_choice(
    state: Mapping[str, Any], options: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """The demo's classic command among ``options`` (every seat's legal commands but a
    concession): now and then (:data:`CLASSIC_WANDER`) any onward one, else one of the best by
    :func:`classic_priority`."""
    onward = [c for c in options if c["type"] not in CLASSIC_CHURN] or options
    if rng.random() < CLASSIC_WANDER:
        return rng.choice(onward)
    scored = [(classic_priority(state, c), c) for c in options]
    best = max(score for score, _ in scored)
    return rng.choice([c for score, c in scored if score == best])


CLASSIC_SEATS = 4

#: The rulesets the demo plays: the Munchkin CCG and the classic sets.
DEMO_RULESETS = (RULESET, *sorted(SETS))


def demo_seats(ruleset: str, seats: int | None) -> int:
    """The seats of a demo game of ``ruleset`` (``seats``: asked for, ``None``: the default);
    raises :class:`DemoError` for a ruleset the demo does not play, seats outside the
    ruleset's range, or any seats asked of the Munchkin CCG (always two).

    >>> demo_seats("munchkin-deluxe", None), demo_seats("munchkin-ccg", None)
    (4, 2)
    >>> demo_seats("munchkin-deluxe", 7)
    Traceback (most recent call last):
    api.demo.DemoError: munchkin-deluxe takes 3 to 6 seats, not 7
    """
    if ruleset not in DEMO_RULESETS:
        raise DemoError(f"unknown ruleset {ruleset!r}; the demo plays {', '.join(DEMO_RULESETS)}")
    rs = find_ruleset(ruleset)
    if ruleset == RULESET:
        if seats is not None:
            raise DemoError(f"{RULESET} always has 2 seats: --seats is for the classic rulesets")
        return rs.min_seats
    if seats is None:
        return CLASSIC_SEATS
    if not rs.min_seats <= seats <= rs.max_seats:
        raise DemoError(f"{ruleset} takes {rs.min_seats} to {rs.max_seats} seats, not {seats}")
    return seats


def classic_demo_spec(ruleset: str, *, seed: int = 0, seats: int = CLASSIC_SEATS) -> dict[str, Any]:
    """A classic game (docs/rules.md B): ``seats`` players; each brings a share of the set's
    sample catalog by name (three copies of every card between them)."""
    from domain.classic.cards import sample_catalog as classic_catalog

    rng = random.Random(seed)
    names = sorted(classic_catalog(ruleset).items())
    rng.shuffle(names)
    players = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")
    body: list[dict[str, Any]] = [
        {"seat": "ABCDEF"[i], "player": players[i], "doors": [], "treasures": []}
        for i in range(seats)
    ]
    for i, (name, card) in enumerate(names):
        field = "doors" if card["deck"] == "door" else "treasures"
        body[i % seats][field].append({"name": name, "count": 3})
    return {
        "ruleset": ruleset,
        "mode": "strict",
        "format": "casual",
        "seats": body,
        "options": {"listen_at_door": False, "shared_victory": True},
        "labels": {"event": "munchlog demo", "round": 1, "table": 1},
    }


def _list_count(seat: Mapping[str, Any], key: str) -> bool:
    """Whether ``key`` is the ``<list>_count`` the judge's view adds to a created seat."""
    return key.endswith("_count") and isinstance(seat.get(key.removesuffix("_count")), list)


def _expect(status: int, body: Any, wanted: int, what: str) -> Any:
    if status != wanted:
        raise DemoError(f"{what}: HTTP {status} {body}")
    return body


def record_demo_game(
    transport: Transport,
    organizer_token: str,
    *,
    seed: int = 0,
    catalog: Catalog | None = None,
    max_actions: int | None = None,
    ruleset: str = RULESET,
    seats: int = CLASSIC_SEATS,
) -> DemoResult:
    """Create a game and play it over HTTP to the end (or ``max_actions``) and return what a
    person needs to look. The CCG's commands are seeded random picks among the legal ones; a
    classic game (``seats`` players) follows :func:`classic_choice`, which seeks progress
    (random play reaches Level 10 slowly)."""
    rng = random.Random(seed)
    rs = find_ruleset(ruleset)
    if ruleset == RULESET:
        spec = demo_spec(catalog, seed=seed)
        limit = 5000 if max_actions is None else max_actions
    else:
        spec = classic_demo_spec(ruleset, seed=seed, seats=seats)
        limit = CLASSIC_ACTIONS if max_actions is None else max_actions
    created = _expect(
        *transport("POST", "/api/games", token=organizer_token, json=spec),
        201,
        "create game",
    )
    game_id = created["game_id"]
    judge, table = created["judge_token"], created["table_token"]
    state = initial_state()
    version = 0
    actions = 0
    while True:
        page = _expect(
            *transport(
                "GET", f"/api/games/{game_id}/events?after={version}&limit=1000", token=judge
            ),
            200,
            "read log",
        )
        for view in page["events"]:
            state = evolve(state, domain_event_from_view(view))
            version = view["version"]
        if page["next_after"] is not None:
            continue
        if state["status"] == "finished" or actions >= limit:
            break
        # the demo holds the judge's state: a classic draw names the cards it takes from the
        # decks (driver_commands, never shown to a seat: docs/rules.md A.4)
        legal = rs.legal_commands if ruleset == RULESET else driver_commands
        options = [
            cmd if "seat" in cmd else {**cmd, "seat": seat}
            for seat in state["seats"]
            for cmd in legal(state, seat)
            if cmd["type"] != "concede"
        ]
        if not options:
            raise DemoError(f"no legal command at version {version}")
        pick = rng.choice(options) if ruleset == RULESET else classic_choice(state, options, rng)
        command = {k: v for k, v in pick.items() if k != "salt"}
        actions += 1
        _expect(
            *transport(
                "POST",
                f"/api/games/{game_id}/actions",
                token=table,
                json={"expected_version": version, "actions": [command]},
                headers={"Idempotency-Key": f"demo-{seed}-{actions}"},
            ),
            201,
            f"action {actions} {command['type']}",
        )
    tokens = {seat: entry["token"] for seat, entry in created["seats"].items()}
    tokens.update(table=table, judge=judge)
    return DemoResult(
        game_id=game_id,
        version=version,
        status=state["status"],
        winner=state.get("winner"),
        actions=actions,
        tokens=tokens,
    )


def file_demo_dispute(transport: Transport, result: DemoResult, turn: int = 2) -> str | None:
    """Pin a contested turn on the demo game: seat B disputes it, the judge rules (a warning).

    Returns the dispute id, or ``None`` when the game stopped before ``turn`` (``--actions``).
    Nothing is rolled back: the dispute and the ruling are new events.
    """
    status, body = transport(
        "POST",
        f"/api/games/{result.game_id}/disputes",
        token=result.tokens["B"],
        json={"turn": turn, "statement": "B says A's plays in this turn went out of order."},
    )
    if status == 404 and (body or {}).get("error", {}).get("code") == "game/turn_not_found":
        return None
    opened = _expect(status, body, 201, "open dispute")
    dispute_id = str(opened["dispute"]["dispute_id"])
    _expect(
        *transport(
            "POST",
            f"/api/games/{result.game_id}/disputes/{dispute_id}/ruling",
            token=result.tokens["judge"],
            json={
                "ruling": "Reviewed the turn in the replay: the log stands as recorded. "
                "Warning to B for slow play while disputing.",
                "penalty": {"kind": "warning", "seat": "B"},
            },
        ),
        201,
        "rule on dispute",
    )
    return dispute_id
