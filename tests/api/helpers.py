"""Small helpers for the API tests: create a game, post actions, rebuild the judge's state."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from api.demo import demo_spec, domain_event_from_view
from domain import evolve, initial_state

ORGANIZER_TOKEN = "test-organizer-token"  # the same as in tests/conftest.py


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create_game(client: FlaskClient, **overrides: Any) -> dict[str, Any]:
    """Create the demo's prime game (plus overrides); returns the 201 body."""
    body = {**demo_spec(seed=0), **overrides}
    response = client.post("/api/games", json=body, headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 201, response.get_json()
    data: dict[str, Any] = response.get_json()
    return data


def post_actions(
    client: FlaskClient,
    game_id: str,
    token: str,
    actions: list[dict[str, Any]],
    *,
    expected_version: int | None = None,
    key: str | None = None,
) -> Any:
    body: dict[str, Any] = {"actions": actions}
    if expected_version is not None:
        body["expected_version"] = expected_version
    headers = bearer(token)
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"/api/games/{game_id}/actions", json=body, headers=headers)


def judge_state(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """The omniscient domain state, folded from the judge's view of the log."""
    state = initial_state()
    after = 0
    while True:
        page = client.get(
            f"/api/games/{game['game_id']}/events?after={after}&limit=1000",
            headers=bearer(game["judge_token"]),
        ).get_json()
        for view in page["events"]:
            state = evolve(state, domain_event_from_view(view))
            after = view["version"]
        if page["next_after"] is None:
            return state


def version_of(client: FlaskClient, game_id: str) -> int:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200
    return int(response.get_json()["version"])
