"""Recording on the in-memory store: what the service does around a batch, above storage --
``Idempotency-Key`` replays and refusals, ``expected_version`` conflicts, a lost race decided
again, snapshots, the match histories. (Group commit is storage's: a POPO store commits each
save at once, with nothing to group; tests/api/test_group_commit.py runs it on both back ends.)
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from adapters.eventstore import SNAPSHOT_INTERVAL
from domain import event_from_dict, find_ruleset
from projections.exports import export_json_text
from service.errors import IdempotencyKeyReusedError, VersionConflictError
from service.games import GameLog
from service.histories import MatchHistory
from tests.builders import seeded_records
from tests.service.helpers import judge_state, play_demo, refused, start
from tests.unit.seeded_games import records_for

RS = find_ruleset("munchkin-ccg")


def a_command(log: GameLog, game_id: Any, seat: str = "A") -> dict[str, Any]:
    (command, *_) = RS.legal_commands(judge_state(log, game_id), seat)
    return {k: v for k, v in command.items() if k != "salt"}


def test_a_repeated_key_answers_the_first_response_and_records_nothing_new(log: GameLog) -> None:
    gid = start(log).game_id
    command = a_command(log, gid)
    first = log.record(gid, [command], actor="table", expected_version=1, idempotency_key="k1")
    assert not first.replayed and first.response["version"] > 1
    again = log.record(gid, [command], actor="table", expected_version=1, idempotency_key="k1")
    assert again.replayed and again.response == first.response
    assert log.current_version(gid) == first.response["version"]
    with refused(IdempotencyKeyReusedError, "request/idempotency_key_reused"):
        log.record(gid, [a_command(log, gid, "B")], actor="table", idempotency_key="k1")
    assert log.current_version(gid) == first.response["version"]


def test_a_stale_expected_version_is_a_conflict_and_records_nothing(log: GameLog) -> None:
    gid = start(log).game_id
    log.record(gid, [a_command(log, gid)], actor="table", expected_version=1)
    version = log.current_version(gid)
    with refused(VersionConflictError, "game/version_conflict") as raised:
        log.record(gid, [a_command(log, gid, "B")], actor="table", expected_version=1)
    assert raised.value.current_version == version
    assert log.current_version(gid) == version


def test_a_batch_decided_on_a_stale_copy_loses_the_race_and_is_decided_again(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The in-memory store refuses a version taken by another writer as the databases do
    (``RecordConflictError``): the batch is decided again on the stored game; with an
    ``expected_version`` it is a conflict."""
    gid = start(log).game_id
    stale = log.game(gid)  # another worker's copy, before the batch below
    log.record(gid, [a_command(log, gid)], actor="table")
    monkeypatch.setattr(log.store, "cached", lambda game_id, within=None: stale.detached())
    lost: list[str] = []
    monkeypatch.setattr(log.observer, "lost_race", lambda: lost.append("lost"))
    outcome = log.record(gid, [a_command(log, gid, "B")], actor="table")
    assert lost == ["lost"] and outcome.response["version"] == log.current_version(gid)
    with refused(VersionConflictError, "game/version_conflict"):
        log.record(gid, [a_command(log, gid, "B")], actor="table", expected_version=stale.version)


def test_snapshots_are_taken_and_games_fold_through_them(log: GameLog) -> None:
    played = play_demo(log, seed=1)
    assert played.version > 2 * SNAPSHOT_INTERVAL
    versions = [v for v, _, _ in log.store.stored_snapshots(played.game_id)]
    assert len(versions) == played.version // SNAPSHOT_INTERVAL
    now = judge_state(log, played.game_id)
    log.store.forget(played.game_id)  # no cached copy: folded from the latest snapshot
    assert judge_state(log, played.game_id) == now
    assert log.verify_game(played.game_id)["ok"] is True


def test_the_match_histories_fold_the_in_memory_log_as_a_rebuild_does(log: GameLog) -> None:
    for seed in range(3):
        records = seeded_records(50 + seed, str(uuid.uuid4()))
        records[0]["event"]["seats"][0]["player"] = "Ann Smith"
        resealed = records_for([event_from_dict(r["event"]) for r in records])
        log.import_export(export_json_text(resealed, "judge"))
    live = start(log).game_id
    history = MatchHistory(log, batch_size=7)
    body = history.player("ann SMITH")
    assert body["player"] == "Ann Smith" and len(body["games"]) == 3
    alice = history.player("Alice")
    assert [g["game_id"] for g in alice["games"]] == [str(live)]
    rows = history.rows()
    history.rebuild()
    assert history.rows() == rows and len(rows) == 4
