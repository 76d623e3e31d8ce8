"""Seed deadlines kept by several workers or instances on one store (issue #43), on SQLite and
PostgreSQL: every one keeps the same deadlines, all of them look at the same moment once it has
passed, and the withholding is recorded once (the write is versioned: the others lose the race,
decide again on the stored game and find nothing due, and save nothing: an empty save sends
no query, where PostgreSQL's group commit used to send an ``INSERT`` without rows).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

from flask import Flask

from api.cli.demo import demo_spec
from domain.dealing import seat_commitment
from service.deadlines import DeadlineKeeper
from service.games import utc_now
from tests.api.helpers import ORGANIZER_TOKEN, bearer

KEEPERS = 4


def test_four_keepers_at_once_record_a_passed_deadline_once(
    make_app: Callable[[], Flask],
) -> None:
    apps = [make_app() for _ in range(KEEPERS)]
    client = apps[0].test_client()
    spec = {**demo_spec(seed=2), "dealing": "server", "reveal_timeout": 1}
    game: Any = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    gid = game["game_id"]
    seeds = {seat: os.urandom(32) for seat in "AB"}

    def act(seat: str, action: dict[str, Any]) -> None:
        answer = client.post(
            f"/api/games/{gid}/actions",
            json={"actions": [{**action, "seat": seat}]},
            headers=bearer(game["seats"][seat]["token"]),
        )
        assert answer.status_code == 201, answer.get_json()

    for seat in "AB":
        act(seat, {"type": "commit_seed", "commitment": seat_commitment(gid, seat, seeds[seat])})
    act("B", {"type": "reveal_seed", "seed": seeds["B"].hex()})
    keepers = [DeadlineKeeper(app.extensions["munchlog"]) for app in apps]
    for keeper in keepers:  # each worker has read the game: its copy of it will be stale
        keeper.learn()
        keeper.log.game(UUID(gid))
    time.sleep(1.3)  # past the deadline
    start = threading.Barrier(KEEPERS)
    recorded: list[list[Any]] = [[] for _ in keepers]

    failed: list[BaseException] = []

    def look(i: int) -> None:
        start.wait()
        try:
            recorded[i] = keepers[i].expire_due(utc_now())
        except BaseException as exc:  # was: PostgreSQL's group commit sent an empty INSERT
            failed.append(exc)

    threads = [threading.Thread(target=look, args=(i,)) for i in range(KEEPERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failed == []
    assert sum(len(r) for r in recorded) == 1, recorded
    events = client.get(f"/api/games/{gid}/events", headers=bearer(game["judge_token"])).get_json()
    types = [e["type"] for e in events["events"]]
    assert types.count("SeedWithheld") == 1 and types[-1] == "SeedWithheld"
    assert [e["version"] for e in events["events"]] == list(range(1, len(types) + 1))
    for keeper in keepers:  # every keeper forgets it (the mark of the withholding)
        keeper.expire_due(utc_now())
        assert keeper.due == {}
