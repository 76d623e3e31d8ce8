"""Small helpers for the API tests: create or import a game, post actions, rebuild the judge's
state, check that a response leaks no hidden card."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.cli.demo import DemoResult, demo_spec, domain_event_from_view
from domain import evolve, initial_state
from tests.service.helpers import play_demo

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


def demo_game(app: Flask, *, seed: int, max_actions: int | None = None, **more: Any) -> DemoResult:
    """The demo's game (its commands, seed and keys: ``api.cli.demo.record_demo_game``), recorded
    through the app's GameLog instead of over HTTP (``tests/service/helpers.play_demo``), for
    the tests whose subject is what is done with the game afterwards. The demo as an HTTP
    client is tested by tests/api/test_classic_api.py, test_openapi_and_cli.py and
    tests/e2e/test_newcomer.py."""
    played = play_demo(app.extensions["munchlog"], seed=seed, max_actions=max_actions, **more)
    return DemoResult(
        game_id=str(played.game_id),
        version=played.version,
        status=played.status,
        winner=played.winner,
        actions=played.actions,
        tokens=played.tokens,
    )


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


def post_import(client: FlaskClient, body: str | bytes, token: str | None = ORGANIZER_TOKEN) -> Any:
    """POST an export to ``/api/games/import`` (as the organizer unless told)."""
    return client.post(
        "/api/games/import", data=body, content_type="application/json", headers=bearer(token)
    )


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


def leak_property(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A leak property over random game seeds: ``test(..., seed)`` runs on ``max_examples`` seeds,
    the same ones every run, and may use function-scoped fixtures (a module-scoped app)."""

    def wrap(test: Callable[..., None]) -> Callable[..., None]:
        return settings(
            max_examples=max_examples,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )(given(seed=st.integers(0, 2**32 - 1))(test))

    return wrap


def assert_hidden(text: str, viewer: str, hidden: Mapping[str, str]) -> None:
    """No card of ``hidden`` (id -> name) shows its id or its name in ``text``, which is all that
    ``viewer`` fetched."""
    for cid, name in hidden.items():
        assert cid not in text, f"{viewer} sees the id of hidden card {name}"
        assert name not in text, f"{viewer} sees the name of hidden card {name}"
