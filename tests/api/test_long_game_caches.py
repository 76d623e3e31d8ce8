"""A long game costs a process bounded memory, and a turn of it a bounded fold (issue #28, 6).

* ``GET /turns/<n>`` of a game whose replay index is not cached folds at most about two
  snapshot intervals and the turn's own events (counted here by the calls of
  ``domain.fold.evolve``), where it used to fold the whole game to build the index; its answer is
  the index's.
* The per-process caches are bounded by estimated bytes as well as by count, each by an
  environment variable: the game cache (``MUNCHLOG_GAME_CACHE_MB``), the replay indexes
  (``MUNCHLOG_REPLAY_INDEX_MB``) and the judge states (``MUNCHLOG_REPLAY_STATES_MB``).

The timings are in ``bench/long_game.py`` (``bench/RESULTS.md``), not here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from flask import Flask

import domain.fold
from adapters.eventstore import SNAPSHOT_INTERVAL, SizedCache
from api.app import create_app
from bench.long_game import api_spec, choose
from service.replays import TURN_PROBES, BoundedLRU
from tests.api.helpers import ORGANIZER_TOKEN

EVENTS = 1500


def _app(path: Path) -> Flask:
    return create_app(
        {"TESTING": True, "INSTANCE_PATH": str(path), "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN}
    )


def _record(app: Flask, events: int, deck: int = 60, seed: int = 4) -> tuple[UUID, str]:
    log = app.extensions["munchlog"]
    started = log.start_game(api_spec(deck))
    rng = random.Random(seed)
    while True:
        state = log.game(started.game_id).state
        if state["status"] == "finished" or state["version"] >= events:
            return started.game_id, started.tokens["judge"]
        _, command = choose(state, rng)
        command = {k: v for k, v in command.items() if k != "salt"}
        log.record(started.game_id, [command], actor="table")


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, UUID, str]]:
    app = _app(tmp_path_factory.mktemp("long"))
    gid, judge = _record(app, EVENTS)
    yield app, gid, judge
    app.extensions["munchlog"].close()


class Counted:
    """Counts the events folded (``domain.fold.evolve``) and the snapshots read."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, log: Any) -> None:
        self.folded = 0
        self.snapshots = 0
        evolve, snapshot_for = domain.fold.evolve, log.store._snapshot_for

        def counting_evolve(state: Any, event: Any) -> Any:
            self.folded += 1
            return evolve(state, event)

        def counting_snapshot_for(game_id: UUID, version: int | None) -> Any:
            self.snapshots += 1
            return snapshot_for(game_id, version)

        monkeypatch.setattr(domain.fold, "evolve", counting_evolve)
        monkeypatch.setattr(log.store, "_snapshot_for", counting_snapshot_for)


def test_a_turn_of_a_long_game_folds_a_bounded_number_of_events(
    long_game: tuple[Flask, UUID, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, gid, judge = long_game
    log = app.extensions["munchlog"]
    client = app.test_client()
    headers = {"Authorization": f"Bearer {judge}"}
    log.replays._indexes.clear()
    log.replays.forget_states()
    last_turn = int(log.game(gid).state["turn"])
    version = log.current_version(gid)
    assert version >= EVENTS and last_turn > 20
    answers = {}
    for turn in (1, last_turn // 2, last_turn - 1, last_turn, 0):
        counted = Counted(monkeypatch, log)
        response = client.get(f"/api/games/{gid}/turns/{turn}", headers=headers)
        assert response.status_code == 200, response.get_json()
        answers[turn] = response.get_json()
        turn_events = len(answers[turn]["versions"])
        # the whole game is EVENTS events; a turn is folded from at most ~2 intervals before it
        assert counted.folded <= 3 * SNAPSHOT_INTERVAL + turn_events, (turn, counted.folded)
        assert counted.snapshots <= TURN_PROBES + 1
        monkeypatch.undo()
    assert log.replays.stats()["indexes"] == 0  # nothing built the whole index
    missing = client.get(f"/api/games/{gid}/turns/{last_turn + 1}", headers=headers)
    assert missing.status_code == 404
    assert missing.get_json()["error"]["code"] == "game/turn_not_found"
    # the same answers as from the whole game's index (built by the timeline)
    assert client.get(f"/api/games/{gid}/timeline", headers=headers).status_code == 200
    log.replays.forget_states()
    for turn, answer in answers.items():
        assert client.get(f"/api/games/{gid}/turns/{turn}", headers=headers).get_json() == answer


def test_the_state_at_the_end_of_a_turn_folds_a_bounded_number_of_events(
    long_game: tuple[Flask, UUID, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, gid, judge = long_game
    log = app.extensions["munchlog"]
    log.replays._indexes.clear()
    log.replays.forget_states()
    last_turn = int(log.game(gid).state["turn"])
    counted = Counted(monkeypatch, log)
    response = app.test_client().get(
        f"/api/games/{gid}/state?turn={last_turn // 2}",
        headers={"Authorization": f"Bearer {judge}"},
    )
    assert response.status_code == 200, response.get_json()
    assert counted.folded <= 4 * SNAPSHOT_INTERVAL


def test_the_game_cache_is_bounded_by_estimated_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUNCHLOG_GAME_CACHE_MB", "1")
    app = _app(tmp_path)
    log = app.extensions["munchlog"]
    try:
        cache = log.store.repository.cache
        assert isinstance(cache, SizedCache) and cache.max_bytes == 1024 * 1024
        games = [log.start_game(api_spec(60)).game_id for _ in range(12)]
        for gid in games:
            log.game(gid)
        sizes = [cache.sizes[g][0] for g in games if g in cache.sizes]
        assert sizes and all(100_000 < size < 1024 * 1024 for size in sizes)
        assert cache.bytes <= cache.max_bytes
        assert cache.bytes == sum(size for size, _ in cache.sizes.values())
        cached = [g for g in games if log.store.cached(g) is not None]
        assert games[-1] in cached and games[0] not in cached  # the oldest went first
        assert len(cached) < len(games)
        assert log.game(games[0]).version >= 1  # an evicted game is read again
    finally:
        log.close()


def test_a_game_larger_than_the_cache_is_not_kept(tmp_path: Path) -> None:
    cache = SizedCache(10, 1000)
    app = _app(tmp_path)
    log = app.extensions["munchlog"]
    try:
        game = log.game(log.start_game(api_spec(20)).game_id)
        cache.put(game.id, game)
        with pytest.raises(KeyError):
            cache.get(game.id)
        assert cache.bytes == 0
    finally:
        log.close()


def test_the_game_cache_limits_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUNCHLOG_GAME_CACHE_GAMES", "3")
    monkeypatch.setenv("MUNCHLOG_GAME_CACHE_MB", "7")
    log = _app(tmp_path).extensions["munchlog"]
    try:
        cache = log.store.repository.cache
        assert isinstance(cache, SizedCache)
        assert (cache.maxsize, cache.max_bytes) == (3, 7 * 1024 * 1024)
    finally:
        log.close()
    monkeypatch.setenv("MUNCHLOG_GAME_CACHE_MB", "lots")
    with pytest.raises(ValueError, match="MUNCHLOG_GAME_CACHE_MB"):
        _app(tmp_path / "bad")


def test_the_replay_caches_are_bounded_by_estimated_bytes(
    long_game: tuple[Flask, UUID, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, gid, _ = long_game
    monkeypatch.setenv("MUNCHLOG_REPLAY_STATES_MB", "2")
    monkeypatch.setenv("MUNCHLOG_REPLAY_INDEX_MB", "1")
    from service.replays import Replays, _index_bytes

    replays = Replays(app.extensions["munchlog"])
    version = app.extensions["munchlog"].current_version(gid)
    for v in range(version - 40, version + 1, 4):
        replays.state(gid, v)
    stats = replays.stats()
    assert 0 < stats["states"] < 11 and 0 < stats["state_bytes"] <= 2 * 1024 * 1024
    index = replays.index(gid)  # about 1,500 events and a state: within 1 MB
    assert replays.stats()["indexes"] == 1
    assert 0 < replays.stats()["index_bytes"] == _index_bytes(index) <= 1024 * 1024
    monkeypatch.setenv("MUNCHLOG_REPLAY_INDEX_MB", "0")
    replays = Replays(app.extensions["munchlog"])
    replays.index(gid)  # larger than the whole budget: not kept
    assert replays.stats()["indexes"] == 0 and replays.cached_index(gid) is None
    monkeypatch.setenv("MUNCHLOG_REPLAY_STATES_MB", "2.5")
    with pytest.raises(ValueError, match="MUNCHLOG_REPLAY_STATES_MB"):
        Replays(app.extensions["munchlog"])


def test_bounded_lru_evicts_past_its_count_and_its_bytes() -> None:
    lru: BoundedLRU[str, str] = BoundedLRU(3, 100, len)
    for key in "abcd":
        lru.put(key, key * 10)
    assert [k for k in "abcd" if lru.get(k) is not None] == ["b", "c", "d"]  # count
    lru.get("b")  # the least recently used is now c
    lru.put("e", "e" * 75)  # 30 + 75 > 100 bytes: c goes
    assert [k for k in "bcde" if lru.get(k) is not None] == ["b", "d", "e"]
    assert lru.bytes == 95
    lru.put("f", "f" * 101)  # larger than the whole budget: not kept, nothing evicted
    assert lru.get("f") is None and lru.bytes == 95
    lru.put("b", "b")  # measured again when put again
    assert lru.bytes == 86


def test_the_estimates_are_at_least_what_a_state_and_an_index_cost(
    long_game: tuple[Flask, UUID, str],
) -> None:
    """The byte budgets hold only if the estimates do not fall short: measured with
    ``tracemalloc`` on the long game (the index was 418 bytes an event before it was made
    compact; it is estimated at 150)."""
    import tracemalloc

    from projections.replay import ReplayIndex
    from service.replays import _index_bytes, estimated_bytes

    app, gid, _ = long_game
    log = app.extensions["munchlog"]
    records = log.records(gid)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        state = log.game(gid, version=len(records) - 1).state
        state_cost = tracemalloc.get_traced_memory()[0] - start
        start = tracemalloc.get_traced_memory()[0]
        index = ReplayIndex()
        index.extend(records)
        index_cost = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert state_cost <= estimated_bytes(state) < 3 * state_cost
    assert index_cost <= _index_bytes(index) < 3 * index_cost


def test_the_index_is_built_from_pages_of_records(
    long_game: tuple[Flask, UUID, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """All of a long game's records at once, freed while the index's entries live on, left the
    process tens of MB larger than the index (fragmented): they are read a page at a time."""
    from service.replays import INDEX_PAGE, Replays

    app, gid, _ = long_game
    log = app.extensions["munchlog"]
    read: list[int] = []
    records = log.records

    def counting(game_id: UUID, **kwargs: Any) -> Any:
        found = records(game_id, **kwargs)
        read.append(len(found))
        return found

    monkeypatch.setattr(log, "records", counting)
    index = Replays(log).index(gid)
    assert index.version == log.current_version(gid) > INDEX_PAGE
    assert sum(read) == index.version and max(read) <= INDEX_PAGE


def test_a_turn_after_a_backup_is_read_from_the_index(tmp_path: Path) -> None:
    """A judge's backup takes the game back to an earlier turn, so its turns no longer follow
    its versions: a game with a dispute answers ``/turns/<n>`` from the whole index, which holds
    both stretches of the turn played again."""
    app = _app(tmp_path)
    log = app.extensions["munchlog"]
    try:
        gid, judge = _record(app, 400, deck=40)
        client = app.test_client()
        headers = {"Authorization": f"Bearer {judge}"}
        base = f"/api/games/{gid}"
        turns = client.get(f"{base}/timeline", headers=headers).get_json()["turns"]
        point = turns["3"]["first"] + 2
        opened = client.post(
            f"{base}/disputes",
            json={"from_version": point + 1, "statement": "back up"},
            headers=headers,
        )
        assert opened.status_code == 201, opened.get_json()
        did = opened.get_json()["dispute"]["dispute_id"]
        ruled = client.post(
            f"{base}/disputes/{did}/ruling",
            json={"ruling": "backed up", "backup_to": point},
            headers=headers,
        )
        assert ruled.status_code == 201, ruled.get_json()
        expected = client.get(f"{base}/turns/3", headers=headers).get_json()
        assert expected["versions"][-1] == log.current_version(gid)  # both stretches of turn 3
        assert expected["versions"][0] == turns["3"]["first"]
        log.replays._indexes.clear()
        log.replays.forget_states()
        assert client.get(f"{base}/turns/3", headers=headers).get_json() == expected
    finally:
        log.close()
