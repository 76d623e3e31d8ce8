"""Concurrent writers: conflicting batches, lost races and retried Idempotency-Keys (both back ends).

Eight threads post batches to one game at once. With ``expected_version`` exactly one batch per
round can win; the others get 409 and leave nothing. Retrying any request with the same
``Idempotency-Key`` returns the first answer and records nothing new.
"""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask

from domain import find_ruleset
from domain.envelope import verify_records
from tests.api.helpers import create_game, judge_state, post_actions

THREADS = 8
ROUNDS = 6


def _race(app: Flask, jobs: list[dict[str, Any]]) -> list[tuple[int, Any, dict[str, str]]]:
    """Post each job from its own thread, all released at the same moment."""
    barrier = threading.Barrier(len(jobs))

    def run(job: dict[str, Any]) -> tuple[int, Any, dict[str, str]]:
        client = app.test_client()
        barrier.wait()
        response = post_actions(client, **job)
        return response.status_code, response.get_json(), dict(response.headers)

    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return list(pool.map(run, jobs))


def test_conflicting_batches_are_each_recorded_once_or_rejected_with_nothing_left(
    app: Flask,
) -> None:
    client = app.test_client()
    game = create_game(client)
    gid = game["game_id"]
    rs = find_ruleset("munchkin-ccg")
    accepted: list[dict[str, Any]] = []
    all_jobs: list[tuple[dict[str, Any], int, Any]] = []

    for round_no in range(ROUNDS):
        state = judge_state(client, game)
        version = state["version"]
        options = [c for seat in ("A", "B") for c in rs.legal_commands(state, seat)]
        options = [c for c in options if c["type"] != "concede"] or options
        jobs = [
            {
                "game_id": gid,
                "token": game["table_token"],
                "actions": [options[i % len(options)]],
                "expected_version": version,
                "key": f"r{round_no}-t{i}-{uuid.uuid4().hex[:6]}",
            }
            for i in range(THREADS)
        ]
        results = _race(app, jobs)
        statuses = sorted(status for status, _, _ in results)
        assert statuses == [201] + [409] * (THREADS - 1), results
        for job, (status, body, _) in zip(jobs, results, strict=True):
            all_jobs.append((job, status, body))
            if status == 201:
                assert body["version"] == version + len(body["events"])
                accepted.append(body)
            else:
                assert body["error"]["code"] == "game/version_conflict"
                assert body["error"]["current_version"] > version

    # Retrying every request with its key changes nothing and repeats the first answer.
    log = app.extensions["munchlog"]
    final_version = log.current_version(uuid.UUID(gid))
    retries = _race(app, [job for job, _, _ in all_jobs[:THREADS]])
    retries += [
        (r.status_code, r.get_json(), dict(r.headers))
        for r in (post_actions(client, **job) for job, _, _ in all_jobs[THREADS:])
    ]
    for (_, status, body), (status2, body2, headers2) in zip(all_jobs, retries, strict=True):
        assert status2 == status
        if status == 201:
            assert body2 == body
            assert headers2.get("Idempotent-Replayed") == "true"
        else:
            assert body2["error"]["code"] == "game/version_conflict"
    assert log.current_version(uuid.UUID(gid)) == final_version

    # Every accepted batch is in the log exactly once, in order, and nothing else is.
    records = log.records(uuid.UUID(gid))
    assert verify_records(records)["ok"]
    assert [r["version"] for r in records] == list(range(1, final_version + 1))
    from_batches = [e["version"] for body in accepted for e in body["events"]]
    assert from_batches == list(range(2, final_version + 1))
    by_version = {r["version"]: r["event"]["type"] for r in records}
    assert all(by_version[e["version"]] == e["type"] for b in accepted for e in b["events"])


def test_the_same_key_sent_concurrently_records_the_batch_once(app: Flask) -> None:
    client = app.test_client()
    game = create_game(client)
    gid = game["game_id"]
    state = judge_state(client, game)
    command = find_ruleset("munchkin-ccg").legal_commands(state, "A")[0]
    before = state["version"]
    job = {
        "game_id": gid,
        "token": game["table_token"],
        "actions": [command],
        "key": "one-key-for-all",
    }
    results = _race(app, [dict(job) for _ in range(THREADS)])
    assert {status for status, _, _ in results} == {201}
    bodies = [body for _, body, _ in results]
    assert all(body == bodies[0] for body in bodies)
    replayed = [h.get("Idempotent-Replayed") for _, _, h in results]
    assert replayed.count(None) == 1
    log = app.extensions["munchlog"]
    assert log.current_version(uuid.UUID(gid)) == before + len(bodies[0]["events"])


def test_batches_without_expected_version_are_all_applied_in_some_order(app: Flask) -> None:
    client = app.test_client()
    game = create_game(client)
    gid = game["game_id"]
    state = judge_state(client, game)
    rs = find_ruleset("munchkin-ccg")
    # Both seats may draw their opening hands in either order: two independent batches.
    jobs = []
    for seat in ("A", "B"):
        (command, *_) = rs.legal_commands(state, seat)
        jobs.append({"game_id": gid, "token": game["seats"][seat]["token"], "actions": [command]})
    results = _race(app, jobs)
    assert [status for status, _, _ in results] == [201, 201], results
    records = app.extensions["munchlog"].records(uuid.UUID(gid))
    assert verify_records(records)["ok"]
    opened = [r["event"]["seat"] for r in records if r["event"]["type"] == "OpeningHandDrawn"]
    assert sorted(opened) == ["A", "B"]
