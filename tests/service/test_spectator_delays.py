"""The spectator delay's use case (``service.delay``) on the in-memory store: the setting is
stored with the game, the version each viewer may see under the events rule, the seconds rule
and both, and when the delay ends. Over HTTP, every read path: tests/api/test_spectator_delay.py."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest

import service.delay
import service.games
from domain import DEFAULT_RULESET
from domain.family import family_named
from service.delay import Delay
from service.games import GameLog
from tests.service.helpers import play_demo


def next_commands(log: GameLog, game_id: UUID) -> list[dict[str, Any]]:
    """The demo's next command of the game (a seeded choice), as a batch of one."""
    command = family_named(DEFAULT_RULESET).demo_next(log.game(game_id).state, random.Random(0))
    assert command is not None
    return [command]


def finish(log: GameLog, game_id: UUID) -> None:
    """End the game: seat B concedes."""
    log.record(game_id, [{"type": "concede", "seat": "B"}], actor="table")


def test_the_setting_is_stored_with_the_game(log: GameLog) -> None:
    game = play_demo(log, seed=1, max_actions=0, extra={"spectator_delay": {"events": 2}})
    plain = play_demo(log, seed=1, max_actions=0)
    assert log.delays.of(game.game_id) == Delay(events=2, seconds=None)
    assert log.delays.of(plain.game_id) is None
    log.delays._known.clear()  # read back from the store, not the cache
    assert log.delays.of(game.game_id) == Delay(events=2, seconds=None)


@pytest.mark.parametrize("n", [1, 2, 5, 30])
def test_the_events_rule(log: GameLog, n: int) -> None:
    game = play_demo(log, seed=2, max_actions=12, extra={"spectator_delay": {"events": n}})
    current = log.current_version(game.game_id)
    assert game.status != "finished"
    for viewer in ("spectator", "organizer"):
        expected = max(current - n, 1)
        assert log.delays.version_for(game.game_id, viewer) == (
            None if expected >= current else expected
        )
    for viewer in ("A", "B", "table", "judge"):
        assert log.delays.version_for(game.game_id, viewer) is None


def test_the_seconds_rule_and_both(log: GameLog, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [datetime(2026, 3, 1, tzinfo=UTC)]
    monkeypatch.setattr(service.games, "utc_now", lambda: now[0].isoformat())
    monkeypatch.setattr(service.delay, "clock", lambda: now[0])
    game = play_demo(
        log, seed=2, max_actions=0, extra={"spectator_delay": {"seconds": 10, "events": 3}}
    )
    gid = game.game_id
    at: dict[int, datetime] = {}
    for _ in range(8):
        now[0] += timedelta(seconds=4)
        log.record(gid, next_commands(log, gid), actor="table")
        at[log.current_version(gid)] = now[0]
    current = log.current_version(gid)
    old = [v for v, t in at.items() if t <= now[0] - timedelta(seconds=10)]
    expected = min(max(old), current - 3)
    assert log.delays.version_for(gid, "spectator") == expected
    now[0] += timedelta(seconds=100)  # the seconds rule has caught up: the events rule holds
    assert log.delays.version_for(gid, "spectator") == current - 3


def test_the_end(log: GameLog, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [datetime(2026, 3, 1, tzinfo=UTC)]
    monkeypatch.setattr(service.games, "utc_now", lambda: now[0].isoformat())
    monkeypatch.setattr(service.delay, "clock", lambda: now[0])
    game = play_demo(log, seed=2, max_actions=6, extra={"spectator_delay": {"seconds": 60}})
    now[0] += timedelta(seconds=5)
    finish(log, game.game_id)
    assert log.game(game.game_id).status == "finished"
    assert log.delays.version_for(game.game_id, "spectator") is not None
    now[0] += timedelta(seconds=59)
    assert log.delays.version_for(game.game_id, "spectator") is not None
    now[0] += timedelta(seconds=1)
    assert log.delays.version_for(game.game_id, "spectator") is None


@pytest.mark.parametrize("seed", range(4))
def test_the_seconds_rule_reads_each_record_once(
    log: GameLog, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """The arrival times a delay by time needs are kept per game and extended (not the whole
    game read on every read): asked between batches at random moments, the answer is the one a
    full scan of the records gives, and each record is read once."""
    rng = random.Random(seed)
    now = [datetime(2026, 3, 1, tzinfo=UTC)]
    monkeypatch.setattr(service.games, "utc_now", lambda: now[0].isoformat())
    monkeypatch.setattr(service.delay, "clock", lambda: now[0])
    game = play_demo(log, seed=3, max_actions=0, extra={"spectator_delay": {"seconds": 10}})
    gid = game.game_id
    read: list[int] = []
    records = log.records

    def counted(game_id: UUID, *, after: int = 0, limit: int | None = None) -> Any:
        found = records(game_id, after=after, limit=limit)
        read.extend(int(r["version"]) for r in found)
        return found

    monkeypatch.setattr(log, "records", counted)
    for _ in range(12):
        now[0] += timedelta(seconds=rng.choice([0, 1, 3, 7, 12]))
        if rng.random() < 0.7:
            log.record(gid, next_commands(log, gid), actor="table")
        current = log.current_version(gid)
        cutoff = now[0] - timedelta(seconds=10)
        stamps = [
            v
            for r in log.all_records(gid)
            if service.delay._parse(str(r["received_at"])) <= cutoff
            for v in [int(r["version"])]
        ]
        expected = max(stamps[-1] if stamps else 1, 1)
        answer = log.delays.version_for(gid, "spectator")
        assert answer == (None if expected >= current else expected)
    assert sorted(read) == list(range(1, log.current_version(gid) + 1))  # each once
