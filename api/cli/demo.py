"""``munchlog demo``: record one complete sample game through the HTTP API.

The demo is a client like any other: it creates a game with the organizer token, then, until the
game is over, reads the log with the judge token, folds it into the domain state, asks
its family what each seat may do (``Family.demo_commands``: the legal commands; a classic
game's name the cards a draw takes), picks one (``Family.demo_choice``: a seeded random one;
a classic game's by a policy that seeks a winner) with a seeded ``random.Random`` (never
conceding) and posts it with the table token, with ``expected_version`` and an
``Idempotency-Key``. The same seed gives the same game.

With ``dealing="server"`` (``munchlog demo --dealing server``, docs/rules.md E) the server deals
and rolls: every seat contributes a seed (32 random bytes it commits to, then reveals:
``domain.seeding.SeatSeeds``), the commands that draw or roll name no card and no value, and
the demo reads the game's ``/verify`` at the end (the dealing re-derived from the log). Its
cards and dice then come from the server's secret and the seeds, so the same seed gives the
same choices, not the same game.

It talks either to an app in this process (Flask test client) or to a running server
(``requests``), through a :class:`Transport`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain import (
    DEFAULT_RULESET,
    DomainError,
    event_from_dict,
    evolve,
    find_ruleset,
    initial_state,
)
from domain.family import families, family_named
from domain.seeding import SeatSeeds

#: The ruleset the demo plays unless asked for another.
RULESET = DEFAULT_RULESET


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
    #: A server-dealt game's ``dealing`` from ``GET /api/games/<id>/verify`` (``None``: the
    #: table dealt, or the demo stopped before the end).
    dealing: dict[str, Any] | None = None


def demo_spec(catalog: Any = None, *, seed: int = 0) -> dict[str, Any]:
    """A legal game of the default ruleset (the CCG's: two heroes and 40-card decks by name
    from the catalog; its family's ``demo_spec``)."""
    return _family_spec(RULESET, seed=seed, seats=find_ruleset(RULESET).min_seats, catalog=catalog)


def _family_spec(ruleset: str, *, seed: int, seats: int, catalog: Any) -> dict[str, Any]:
    try:
        spec = family_named(ruleset).demo_spec(seed=seed, seats=seats, catalog=catalog)
    except DomainError as exc:
        raise DemoError(exc.message) from None
    if spec is None:
        raise DemoError(f"the demo does not play {ruleset}")
    return spec


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


#: A demo game's seats in a ruleset that takes a range of them (the classic sets' 3 to 6).
CLASSIC_SEATS = 4


def demo_rulesets() -> tuple[str, ...]:
    """The rulesets the demo plays (those whose family has a demo game): the default one
    first, then the others by name."""
    found = [name for name, family in families().items() if family.plays_demo]
    return (RULESET, *sorted(n for n in found if n != RULESET))


def _default_seats(ruleset: str) -> int:
    rs = find_ruleset(ruleset)
    wanted = family_named(ruleset).demo_seats
    if wanted is not None:
        return wanted
    return rs.min_seats if rs.min_seats == rs.max_seats else CLASSIC_SEATS


#: The rulesets the demo plays: the Munchkin CCG and the classic sets.
DEMO_RULESETS = demo_rulesets()


def demo_seats(ruleset: str, seats: int | None) -> int:
    """The seats of a demo game of ``ruleset`` (``seats``: asked for, ``None``: the default);
    raises :class:`DemoError` for a ruleset the demo does not play, seats outside the
    ruleset's range, or any seats asked of the Munchkin CCG (always two).

    >>> demo_seats(DEMO_RULESETS[-1], None), demo_seats(RULESET, None)
    (4, 2)
    >>> demo_seats(DEMO_RULESETS[-1], 7)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    api.cli.demo.DemoError: ... takes 3 to 6 seats, not 7
    """
    playable = demo_rulesets()
    if ruleset not in playable:
        raise DemoError(f"unknown ruleset {ruleset!r}; the demo plays {', '.join(playable)}")
    rs = find_ruleset(ruleset)
    if rs.min_seats == rs.max_seats:
        if seats is not None:
            raise DemoError(
                f"{ruleset} always has {rs.min_seats} seats: --seats is for the classic rulesets"
            )
        return rs.min_seats
    if seats is None:
        return _default_seats(ruleset)
    if not rs.min_seats <= seats <= rs.max_seats:
        raise DemoError(f"{ruleset} takes {rs.min_seats} to {rs.max_seats} seats, not {seats}")
    return seats


#: How the demo's games are dealt (``POST /api/games``'s ``dealing``): ``table``, the default,
#: or ``server``.
DEALINGS = ("table", "server")


def demo_dealing(ruleset: str, dealing: str) -> str:
    """``dealing`` for a demo game of ``ruleset``; raises :class:`DemoError` for a dealing the
    demo does not know or a family whose demo the server cannot deal yet.

    >>> demo_dealing(RULESET, "server"), demo_dealing(DEMO_RULESETS[-1], "server")
    ('server', 'server')
    >>> demo_dealing(RULESET, "dice")
    Traceback (most recent call last):
    api.cli.demo.DemoError: unknown dealing 'dice'; choose table or server
    """
    if dealing not in DEALINGS:
        raise DemoError(f"unknown dealing {dealing!r}; choose {' or '.join(DEALINGS)}")
    if dealing == "server" and not family_named(ruleset).demo_deals_by_server:
        able = [r for r in demo_rulesets() if family_named(r).demo_deals_by_server]
        raise DemoError(
            f"the demo deals {ruleset} by the table only (--dealing server: {', '.join(able)})"
        )
    return dealing


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
    catalog: Any = None,
    max_actions: int | None = None,
    ruleset: str = RULESET,
    seats: int = CLASSIC_SEATS,
    dealing: str = "table",
) -> DemoResult:
    """Create a game and play it over HTTP to the end (or ``max_actions``) and return what a
    person needs to look. The CCG's commands are seeded random picks among the legal ones; a
    classic game (``seats`` players) follows its family's policy, which seeks progress
    (random play reaches Level 10 slowly). ``dealing="server"``: the server deals, every
    seat contributing a random seed (:func:`demo_dealing` says which rulesets it plays)."""
    rng = random.Random(seed)
    family = family_named(ruleset)
    server = demo_dealing(ruleset, dealing) == "server"
    if find_ruleset(ruleset).min_seats == find_ruleset(ruleset).max_seats:
        seats = find_ruleset(ruleset).min_seats
    spec = _family_spec(ruleset, seed=seed, seats=seats, catalog=catalog)
    if server:
        spec = {**spec, "dealing": "server"}  # every seat contributes a seed
    limit = family.demo_max_actions if max_actions is None else max_actions
    created = _expect(
        *transport("POST", "/api/games", token=organizer_token, json=spec),
        201,
        "create game",
    )
    game_id = created["game_id"]
    judge, table = created["judge_token"], created["table_token"]
    seeds = SeatSeeds(game_id)  # the seats' random seeds: committed, then revealed
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
        # decks (its family's demo_commands, never shown to a seat: docs/rules.md A.4)
        command = family.demo_next(state, rng)
        if command is None:
            raise DemoError(f"no legal command at version {version}")
        command = seeds.fill(command)
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
    checked = None
    if server and state["status"] == "finished":  # the secret is revealed: re-derive it all
        path = f"/api/games/{game_id}/verify"
        checked = _expect(*transport("GET", path, token=judge), 200, "verify")["dealing"]
    return DemoResult(
        game_id=game_id,
        version=version,
        status=state["status"],
        winner=state.get("winner"),
        actions=actions,
        tokens=tokens,
        dealing=checked,
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
