"""Snapshots: a game loaded through a snapshot equals the state folded from all its events."""

from __future__ import annotations

import uuid

from flask import Flask
from flask.testing import FlaskClient

from adapters.eventstore import SNAPSHOT_INTERVAL
from domain import apply_record, initial_state
from projections.views import state_view
from tests.api.helpers import bearer, demo_game


def test_states_loaded_through_snapshots_equal_states_folded_from_all_events(
    app: Flask, client: FlaskClient
) -> None:
    result = demo_game(app, seed=1)
    assert result.version > 3 * SNAPSHOT_INTERVAL
    log = app.extensions["munchlog"]
    game_id = uuid.UUID(result.game_id)

    assert log.store.snapshots is not None
    # One snapshot per multiple of the interval, taken at the end of the batch (one save, one
    # server time) whose events reach that multiple.
    records = log.records(game_id)
    batch_end: dict[str, int] = {}
    for record in records:
        batch_end[record["received_at"]] = record["version"]
    expected = [
        batch_end[records[m - 1]["received_at"]]
        for m in range(SNAPSHOT_INTERVAL, result.version + 1, SNAPSHOT_INTERVAL)
    ]
    snapshot_versions = [s.originator_version for s in log.store.snapshots.get(game_id)]
    assert snapshot_versions == expected
    assert any(v % SNAPSHOT_INTERVAL for v in expected)  # this game has a batch across one

    folded = [initial_state()]
    for record in log.records(game_id):
        folded.append(apply_record(folded[-1], record))

    k = SNAPSHOT_INTERVAL
    versions = sorted(
        set(range(1, result.version + 1, 13))
        | {k - 1, k, k + 1, 2 * k, 2 * k + 1, 3 * k + 7, result.version}
    )
    for version in versions:
        game = log.game(game_id, version=version)
        assert game.version == version
        assert game.state == folded[version], f"state differs at version {version}"
        assert game.head_hash == log.records(game_id, after=version - 1, limit=1)[0]["hash"]

    latest = log.game(game_id)
    assert latest.state == folded[-1]

    # The HTTP view of a past version is the view of the folded state.
    judge = bearer(result.tokens["judge"])
    for version in (k - 1, k, k + 1, 2 * k + 5):
        body = client.get(f"/api/games/{result.game_id}/state?at={version}", headers=judge)
        assert body.status_code == 200
        assert body.get_json() == _dumped(state_view(folded[version], "judge"))


def _dumped(view: dict) -> dict:  # type: ignore[type-arg]
    """The view as the API's response schema serialises it (JSON round trip)."""
    from api.json_api.schemas import StateViewSchema

    return StateViewSchema().dump(view)  # type: ignore[no-any-return]
