"""Builders of the service tier: a GameLog in memory, games started and played through it,
what a viewer sees, and the error a refused call raises.

A refused call raises the error whose class :mod:`api.json_api.errors` maps to the HTTP status the
API answers (one table, tested over HTTP in ``tests/api/test_errors.py``):
``InvalidCommand`` 400, ``NotAllowedError`` 403, ``NotFound`` and ``GameNotFoundError`` 404,
``VersionConflictError`` and ``GameAlreadyExistsError`` 409, ``ImpossibleCommand``,
``RuleViolation``, ``IdempotencyKeyReusedError`` and ``ImportRejected`` 422. So
``refused(NotFound, "game/turn_not_found")`` is the service's side of "404
``game/turn_not_found``".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import pytest

from domain import DEFAULT_RULESET, find_ruleset
from domain.ccg.cards import Catalog
from domain.family import family_named
from domain.seeding import SeatSeeds
from projections.views import event_view, state_view
from service.games import GameLog, StartedGame

#: eventsourcing's in-memory store ("plain old Python objects").
POPO = {"PERSISTENCE_MODULE": "eventsourcing.popo"}
#: The demo's seats in a ruleset that takes a range of them (as ``api.cli.demo.CLASSIC_SEATS``).
CLASSIC_SEATS = 4

State = dict[str, Any]


def new_log(catalog: Catalog | None = None) -> GameLog:
    """A GameLog on a new in-memory store (close it, or use the ``log`` fixture)."""
    return GameLog(POPO, catalog=catalog)


def demo_spec(seed: int = 0, ruleset: str = DEFAULT_RULESET, seats: int = 2) -> dict[str, Any]:
    """The demo's game of ``ruleset`` (its family's ``demo_spec``: for the CCG, two heroes and
    40-card prime decks by name; ``api.cli.demo.demo_spec``)."""
    spec = family_named(ruleset).demo_spec(seed=seed, seats=seats, catalog=None)
    assert spec is not None, f"the demo does not play {ruleset}"
    return spec


def start(log: GameLog, spec: Mapping[str, Any] | None = None, **overrides: Any) -> StartedGame:
    """Create a game (the demo's prime game unless ``spec``, plus ``overrides``), as
    ``POST /api/games`` does once the organizer's token and the body are checked."""
    return log.start_game({**(spec or demo_spec()), **overrides})


def game_ref(started: StartedGame) -> dict[str, Any]:
    """What a test keeps of a created game: its id and its tokens by role."""
    return {"game_id": started.game_id, "tokens": dict(started.tokens)}


@dataclass
class Played:
    """A game played by :func:`play_demo` (the service's ``api.cli.demo.DemoResult``)."""

    game_id: UUID
    version: int
    status: str
    winner: str | None
    actions: int
    tokens: dict[str, str] = field(default_factory=dict)


def play_demo(
    log: GameLog,
    *,
    seed: int = 0,
    max_actions: int | None = None,
    ruleset: str = DEFAULT_RULESET,
    seats: int = CLASSIC_SEATS,
    catalog: Catalog | None = None,
    dealing: str = "table",
    extra: Mapping[str, Any] | None = None,
    until: Callable[[State], bool] | None = None,
) -> Played:
    """The demo's game (``api.cli.demo.record_demo_game``: the family's ``demo_spec``, its
    ``demo_commands`` and seeded ``demo_choice``, never a concession, each command recorded by
    the table with ``expected_version`` and an idempotency key), recorded through the service.
    ``dealing="server"``: the server deals, each seat committing to random bytes, then
    revealing them (``domain.seeding.SeatSeeds``). ``extra``: more of the spec. ``until``:
    past ``max_actions``, play on to the first state it holds for (or the end)."""
    rng = random.Random(seed)
    family = family_named(ruleset)
    rs = find_ruleset(ruleset)
    if rs.min_seats == rs.max_seats:
        seats = rs.min_seats
    spec = family.demo_spec(seed=seed, seats=seats, catalog=catalog)
    assert spec is not None, f"the demo does not play {ruleset}"
    if dealing != "table":
        spec = {**spec, "dealing": dealing}
    spec = {**spec, **(extra or {})}  # e.g. a spectator_delay, labels
    limit = family.demo_max_actions if max_actions is None else max_actions
    started = log.start_game(spec)
    gid = started.game_id
    seeds = SeatSeeds(str(gid))
    actions = 0
    while True:
        game = log.game(gid)
        state = game.state
        if state["status"] == "finished" or (actions >= limit and (until is None or until(state))):
            break
        command = family.demo_next(state, rng)
        assert command is not None, f"no legal command at version {game.version}"
        actions += 1
        log.record(
            gid,
            [seeds.fill(command)],
            actor="table",
            expected_version=game.version,
            idempotency_key=f"demo-{seed}-{actions}",
        )
    return Played(
        game_id=gid,
        version=game.version,
        status=state["status"],
        winner=state.get("winner"),
        actions=actions,
        tokens=dict(started.tokens),
    )


def judge_state(log: GameLog, game_id: UUID) -> State:
    """The omniscient domain state (what ``tests/api``'s ``judge_state`` folds from the judge's
    view of the log)."""
    state: State = log.game(game_id).state
    return state


def state_as(
    log: GameLog,
    game_id: UUID,
    viewer: str = "judge",
    *,
    at: int | None = None,
    turn: int | None = None,
    played: bool = False,
) -> dict[str, Any]:
    """The table as ``viewer`` sees it: ``GET /state`` (``?at=``, ``?turn=``, ``?played=``)."""
    state = log.replays.state_for(game_id, at=at, turn=turn, played=played)
    return state_view(state, viewer)


def events_as(
    log: GameLog, game_id: UUID, viewer: str = "judge", *, after: int = 0, limit: int = 1000
) -> list[dict[str, Any]]:
    """The log as ``viewer`` sees it: ``GET /events`` (one page)."""
    page = log.page(game_id, after=after, limit=limit)
    return [event_view(r, viewer, page.seats) for r in page.records]


@contextmanager
def refused(error: type[BaseException], code: str) -> Iterator[pytest.ExceptionInfo[Any]]:
    """The call in the block raises ``error`` with this ``code`` (see the module docstring)."""
    with pytest.raises(error) as raised:
        yield raised
    assert getattr(raised.value, "code", None) == code, raised.value
