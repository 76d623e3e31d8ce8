"""POST /api/games/import over HTTP: a body that is no export is 400, only the organizer may
import, and an imported game answers as a created one.

What an import does (the id, the events and the state kept, or the whole refused: a broken
chain, an impossible event, a seat's export, an id taken) is tested as a use case in
``tests/service/test_imports.py``."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from projections.exports import export_json_text
from tests.api.helpers import create_game, post_import
from tests.builders import seeded_records

pytestmark = pytest.mark.storage_agnostic


def test_an_import_answers_as_a_creation_and_its_game_answers_at_once(
    client: FlaskClient,
) -> None:
    """The 201 of an import is shaped as game creation's (its tokens work at once); a game
    already here is 409 and a refused import 422, in the one error shape."""
    records = seeded_records(5)
    response = post_import(client, export_json_text(records, "judge"))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["game_id"] == records[0]["event"]["game_id"]
    assert body["version"] == len(records)
    assert {"A", "B"} == set(body["seats"]) and body["table_token"] and body["judge_token"]
    state = client.get(
        f"/api/games/{body['game_id']}/state",
        headers={"Authorization": f"Bearer {body['seats']['A']['token']}"},
    )
    assert state.status_code == 200, state.get_json()
    seats = state.get_json()["seats"]
    assert "hand" in seats["A"] and "name" not in str(seats["B"].get("hand"))
    again = post_import(client, export_json_text(records, "judge"))
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "game/already_exists"
    seat = post_import(client, export_json_text(seeded_records(9), "A"))
    assert seat.status_code == 422 and set(seat.get_json()) == {"error"}
    assert seat.get_json()["error"]["code"] == "import/incomplete_export"


@pytest.mark.parametrize("body", [b"", b"not json", b'{"format": "other", "events": []}'])
def test_something_else_is_400(client: FlaskClient, body: bytes) -> None:
    response = post_import(client, body)
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "import/not_an_export"


def test_only_the_organizer_may_import(client: FlaskClient) -> None:
    body = export_json_text(seeded_records(10), "judge")
    assert post_import(client, body, token=None).status_code == 401
    game = create_game(client)
    assert post_import(client, body, token=game["judge_token"]).status_code == 401
