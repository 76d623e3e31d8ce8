"""Two server processes on one store (gunicorn's workers): each keeps its own cache of games.

A worker decides a batch on its cached copy of the game without asking the store whether the
other worker has written since. These tests make the copies stale on purpose -- two apps on the
same SQLite file or PostgreSQL schema, each with a warm cache -- and check that staleness never
shows: batches land after the other worker's events, a refusal is only ever the fresh game's,
and ``expected_version`` is compared with the stored version, not the cached one. A copy far
behind the store is folded again from the latest snapshot rather than event by event.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

import service.games as games
from adapters import eventstore, folding
from adapters.eventstore import FAST_FORWARD_LIMIT, SNAPSHOT_INTERVAL
from api.cli.demo import FlaskTransport, record_demo_game
from domain import find_ruleset
from domain.envelope import verify_records
from domain.game import Game
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, judge_state, post_actions
from tests.api.test_damaged_storage import Store

RS = find_ruleset("munchkin-ccg")


@pytest.fixture(autouse=True)
def trusting(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker trusts its cached copy however long ago it last saw the game (in production
    only for ``TRUST_CACHE_FOR`` seconds), so these tests decide on stale copies on purpose,
    whatever the machine's speed."""
    monkeypatch.setattr(games, "TRUST_CACHE_FOR", 1e9)


@pytest.fixture
def twin(make_app: Callable[[], Flask]) -> Flask:
    """A second app (another worker process) on the same store as ``app``."""
    return make_app()


def _warm(app: Flask, game: dict[str, Any]) -> None:
    """Load the game into this app's cache (any read does)."""
    response = app.test_client().get(
        f"/api/games/{game['game_id']}/state", headers=bearer(game["judge_token"])
    )
    assert response.status_code == 200


def _game_cached_by_both(app: Flask, twin: Flask) -> tuple[dict[str, Any], dict[str, Any]]:
    """A new game, loaded into both apps' caches; with its judge's state."""
    game = create_game(app.test_client())
    _warm(app, game)
    _warm(twin, game)
    return game, judge_state(app.test_client(), game)


def test_batches_alternating_between_two_workers_all_land_in_order(app: Flask, twin: Flask) -> None:
    game = create_game(app.test_client())
    gid = game["game_id"]
    rng = random.Random(7)
    workers = [app, twin]
    for worker in workers:
        _warm(worker, game)
    versions = [1]
    for step in range(40):
        state = judge_state(app.test_client(), game)
        options = [c for s in ("A", "B") for c in RS.legal_commands(state, s)]
        options = [c for c in options if c["type"] != "concede"]
        if not options:
            break
        worker = rng.choice(workers)  # often the one whose cache is behind
        expected = state["version"] if step % 3 == 0 else None
        response = post_actions(
            worker.test_client(),
            gid,
            game["table_token"],
            [rng.choice(options)],
            expected_version=expected,
        )
        assert response.status_code == 201, (step, response.get_json())
        body = response.get_json()
        assert [e["version"] for e in body["events"]] == list(
            range(state["version"] + 1, body["version"] + 1)
        )
        versions.append(body["version"])
    assert step >= 20  # the game did not end early: the alternation was exercised
    records = app.extensions["munchlog"].records(uuid.UUID(gid))
    assert verify_records(records)["ok"]
    assert [r["version"] for r in records] == list(range(1, versions[-1] + 1))
    # Both workers now agree with a fold of the whole log.
    folded = judge_state(app.test_client(), game)
    for worker in workers:
        assert worker.extensions["munchlog"].game(uuid.UUID(gid)).state == folded


def test_a_stale_expected_version_is_refused_even_where_the_cache_agrees_with_it(
    app: Flask, twin: Flask
) -> None:
    game, state = _game_cached_by_both(app, twin)
    gid = game["game_id"]
    first, second = RS.legal_commands(state, "A")[0], RS.legal_commands(state, "B")[0]
    won = post_actions(twin.test_client(), gid, game["table_token"], [first])
    assert won.status_code == 201
    now = won.get_json()["version"]

    # ``app`` still caches the game at state["version"]; the store is at ``now``.
    late = post_actions(
        app.test_client(), gid, game["table_token"], [second], expected_version=state["version"]
    )
    assert late.status_code == 409
    assert late.get_json()["error"]["code"] == "game/version_conflict"
    assert late.get_json()["error"]["current_version"] == now
    assert app.extensions["munchlog"].current_version(uuid.UUID(gid)) == now


def test_a_command_is_refused_only_if_the_fresh_game_refuses_it(app: Flask, twin: Flask) -> None:
    game, state = _game_cached_by_both(app, twin)
    gid = game["game_id"]
    command = RS.legal_commands(state, "A")[0]  # A's opening hand: legal once

    assert post_actions(twin.test_client(), gid, game["table_token"], [command]).status_code == 201
    now = app.extensions["munchlog"].current_version(uuid.UUID(gid))
    # Legal on ``app``'s stale copy, illegal on the stored game: refused, nothing recorded.
    again = post_actions(app.test_client(), gid, game["table_token"], [command])
    assert again.status_code == 422, again.get_json()
    assert app.extensions["munchlog"].current_version(uuid.UUID(gid)) == now

    # And a command that only the other worker's batch made legal is accepted by the stale one.
    rng = random.Random(3)
    for _ in range(30):
        stale = judge_state(app.test_client(), game)  # reads the log; app's cache stays behind
        options = [c for s in ("A", "B") for c in RS.legal_commands(stale, s)]
        step = rng.choice([c for c in options if c["type"] != "concede"])
        assert post_actions(twin.test_client(), gid, game["table_token"], [step]).status_code == 201
        fresh = judge_state(app.test_client(), game)
        newly_legal = [
            c
            for s in ("A", "B")
            for c in RS.legal_commands(fresh, s)
            if c["type"] != "concede" and not _legal(stale, c)
        ]
        if newly_legal:
            ok = post_actions(app.test_client(), gid, game["table_token"], [newly_legal[0]])
            assert ok.status_code == 201, ok.get_json()
            return
        _warm(app, game)
    pytest.fail("no command became legal through the other worker's batch")


def _legal(state: dict[str, Any], command: dict[str, Any]) -> bool:
    from domain.errors import DomainError

    try:
        RS.decide(state, dict(command))
    except DomainError:
        return False
    return True


# ---------------------------------------------------------------------------- a copy far behind


def _checked_versions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The versions of the stored events this process hashes and links before folding them
    (``adapters.folding.check_next``, which every fold of a stored game event calls: the
    fast-forward's, in ``adapters.folding``, and the store's, in ``adapters.eventstore``)."""
    checked: list[int] = []
    real = folding.check_next

    def counting(game: Any, event: Any, **kw: Any) -> None:
        checked.append(event.originator_version)
        real(game, event, **kw)

    monkeypatch.setattr(folding, "check_next", counting)
    monkeypatch.setattr(eventstore, "check_next", counting)
    return checked


def _behind(app: Flask, twin: Flask, *, by: int) -> tuple[uuid.UUID, int, Any]:
    """A long game recorded through ``app``, cached by ``twin`` ``by`` events behind (as a
    worker that last served the table's connection that long ago)."""
    result = record_demo_game(FlaskTransport(app), ORGANIZER_TOKEN, seed=1)
    assert result.version > 3 * SNAPSHOT_INTERVAL
    gid = uuid.UUID(result.game_id)
    log = twin.extensions["munchlog"]
    log.store.keep(log.game(gid, version=result.version - by))
    return gid, result.version, log


def _as_recorded(app: Flask, gid: uuid.UUID, game: Any, version: int) -> None:
    recorded = app.extensions["munchlog"].game(gid)
    assert game.version == recorded.version == version
    assert game.state == recorded.state
    assert game.head_hash == recorded.head_hash


def test_a_copy_far_behind_is_folded_from_the_latest_snapshot_not_event_by_event(
    app: Flask, twin: Flask, backend: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, version, log = _behind(app, twin, by=3 * FAST_FORWARD_LIMIT)
    latest = max(Store(backend["MUNCHLOG_DATABASE_URL"]).snapshot_versions(str(gid)))
    assert latest > version - 3 * FAST_FORWARD_LIMIT
    checked = _checked_versions(monkeypatch)

    _as_recorded(app, gid, log.game(gid), version)
    # only the events after the latest snapshot were folded, each hashed and linked
    assert checked == list(range(latest + 1, version + 1))
    assert len(checked) < SNAPSHOT_INTERVAL
    checked.clear()
    _as_recorded(app, gid, log.game(gid), version)  # and the refolded game is the cached one
    assert checked == []


def test_a_copy_a_little_behind_is_fast_forwarded_event_by_event(
    app: Flask, twin: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, version, log = _behind(app, twin, by=FAST_FORWARD_LIMIT)
    checked = _checked_versions(monkeypatch)
    _as_recorded(app, gid, log.game(gid), version)
    assert checked == list(range(version - FAST_FORWARD_LIMIT + 1, version + 1))


def test_a_copy_far_behind_with_no_newer_snapshot_is_fast_forwarded_event_by_event(
    app: Flask, twin: Flask, backend: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    by = 3 * FAST_FORWARD_LIMIT
    gid, version, log = _behind(app, twin, by=by)
    store = Store(backend["MUNCHLOG_DATABASE_URL"])
    store.run(
        "DELETE FROM {table} WHERE originator_id = ? AND originator_version > ?",
        store.key(str(gid)),
        version - by,
        table="snapshots",
    )
    checked = _checked_versions(monkeypatch)
    _as_recorded(app, gid, log.game(gid), version)
    assert checked == list(range(version - by + 1, version + 1))


# ---------------------------------------------------------------------------- a copy not seen lately


@pytest.mark.parametrize("trusted_for", [1e9, 0.0])
def test_a_copy_not_seen_lately_is_read_from_the_store_before_deciding(
    app: Flask, twin: Flask, monkeypatch: pytest.MonkeyPatch, trusted_for: float
) -> None:
    """A worker decides on its cached copy only if it saved the game or read it from the store
    within ``TRUST_CACHE_FOR`` seconds; an older copy is fast-forwarded first, so the batch is
    decided once, on the current game, instead of first on the stale copy (where it would
    conflict at the insert or be refused, and be decided again)."""
    monkeypatch.setattr(games, "TRUST_CACHE_FOR", trusted_for)
    game, state = _game_cached_by_both(app, twin)
    gid = game["game_id"]
    rng = random.Random(5)
    for _ in range(6):  # the other worker moves the game on
        options = [c for s in ("A", "B") for c in RS.legal_commands(state, s)]
        step = rng.choice([c for c in options if c["type"] != "concede"])
        assert post_actions(twin.test_client(), gid, game["table_token"], [step]).status_code == 201
        state = judge_state(twin.test_client(), game)
    decided_on: list[int] = []
    execute = Game.execute

    def counting(self: Game, *args: Any, **kw: Any) -> None:
        decided_on.append(self.version)
        execute(self, *args, **kw)

    monkeypatch.setattr(Game, "execute", counting)
    options = [c for s in ("A", "B") for c in RS.legal_commands(state, s)]
    step = next(c for c in options if c["type"] != "concede")
    done = post_actions(app.test_client(), gid, game["table_token"], [step])
    assert done.status_code == 201, done.get_json()
    assert done.get_json()["version"] == state["version"] + len(done.get_json()["events"])
    if trusted_for:
        assert decided_on[0] < state["version"] and decided_on[-1] == state["version"]
    else:
        assert decided_on == [state["version"]]
