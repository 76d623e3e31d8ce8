"""GET /api/games/<id>/export: the golden bytes, negotiation, streaming, and what the store
gives back (both back ends). What a viewer's export hides is a use case:
tests/service/test_exports.py.

The HTTP tests are ``storage_agnostic`` (SQLite only). The fixed game is the unit tests'
golden game (tests/data/golden_game.events.json): it is imported from its golden judge export,
and every format must then come back byte for byte as the golden files of
tests/unit/test_export.py.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.json_api.routes import exports
from service.errors import GameNotFoundError
from tests.api.helpers import bearer, create_game, post_import

DATA = Path(__file__).resolve().parent.parent / "data"
EXPORTED_AT = "2024-05-02T09:00:00+00:00"  # as in tests/unit/test_export.py


def golden(name: str) -> bytes:
    return (DATA / name).read_bytes()


@pytest.fixture
def golden_game(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setattr(exports, "export_clock", lambda: EXPORTED_AT)
    response = post_import(client, golden("golden_judge.json"))
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


@pytest.mark.storage_agnostic
@pytest.mark.parametrize(
    ("who", "fmt", "name", "media"),
    [
        ("judge", "json", "golden_judge.json", "application/json"),
        ("B", "ndjson", "golden_seat_b.ndjson", "application/x-ndjson"),
        ("judge", "csv", "golden_judge.csv", "text/csv; charset=utf-8"),
        ("judge", "text", "golden_judge.txt", "text/plain; charset=utf-8"),
        ("B", "text", "golden_seat_b.txt", "text/plain; charset=utf-8"),
    ],
)
def test_the_endpoint_serves_the_golden_bytes(
    client: FlaskClient, golden_game: dict[str, Any], who: str, fmt: str, name: str, media: str
) -> None:
    token = golden_game["judge_token"] if who == "judge" else golden_game["seats"][who]["token"]
    gid = golden_game["game_id"]
    response = client.get(f"/api/games/{gid}/export?format={fmt}", headers=bearer(token))
    assert response.status_code == 200
    assert response.headers["Content-Type"] == media
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="game-{gid}.{exports.EXTENSIONS[fmt]}"'
    )
    assert response.get_data() == golden(name)


@pytest.mark.storage_agnostic
@pytest.mark.parametrize(
    ("accept", "media"),
    [
        ("application/json", "application/json"),
        ("application/x-ndjson", "application/x-ndjson"),
        ("text/csv", "text/csv; charset=utf-8"),
        ("text/plain", "text/plain; charset=utf-8"),
        ("text/csv;q=0.5, text/plain", "text/plain; charset=utf-8"),
        ("*/*", "application/json"),
    ],
)
def test_the_accept_header_chooses_the_format(
    client: FlaskClient, golden_game: dict[str, Any], accept: str, media: str
) -> None:
    headers = {**bearer(golden_game["judge_token"]), "Accept": accept}
    response = client.get(f"/api/games/{golden_game['game_id']}/export", headers=headers)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == media


@pytest.mark.storage_agnostic
def test_the_format_parameter_wins_over_accept(
    client: FlaskClient, golden_game: dict[str, Any]
) -> None:
    headers = {**bearer(golden_game["judge_token"]), "Accept": "application/json"}
    response = client.get(f"/api/games/{golden_game['game_id']}/export?format=csv", headers=headers)
    assert response.status_code == 200
    assert response.get_data() == golden("golden_judge.csv")


@pytest.mark.storage_agnostic
def test_an_unacceptable_type_is_406_and_an_unknown_format_400_in_our_error_shape(
    client: FlaskClient, golden_game: dict[str, Any]
) -> None:
    url = f"/api/games/{golden_game['game_id']}/export"
    response = client.get(url, headers={"Accept": "image/png"})
    assert response.status_code == 406
    assert response.get_json()["error"]["code"] == "request/not_acceptable"
    response = client.get(url + "?format=pdf")
    assert response.status_code == 400
    assert set(response.get_json()) == {"error"}
    assert response.get_json()["error"]["code"] == "request/invalid_query"


@pytest.mark.storage_agnostic
def test_streamed_formats_are_streamed(client: FlaskClient, golden_game: dict[str, Any]) -> None:
    for fmt in ("ndjson", "csv"):
        response = client.get(
            f"/api/games/{golden_game['game_id']}/export?format={fmt}",
            headers=bearer(golden_game["judge_token"]),
        )
        assert response.is_streamed
        assert "Content-Length" not in response.headers
        assert response.get_data()
        response.close()


@pytest.mark.storage_agnostic
def test_export_of_an_unknown_game_is_404(client: FlaskClient) -> None:
    response = client.get("/api/games/3c6d1d9c-0000-4000-8000-000000000000/export")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "game/not_found"


def test_exports_read_exactly_the_stored_records(
    app: Flask, client: FlaskClient, golden_game: dict[str, Any]
) -> None:
    log = app.extensions["munchlog"]
    live = create_game(client)
    for game_id in (golden_game["game_id"], live["game_id"]):
        gid = uuid.UUID(game_id)
        assert log.all_records(gid) == log.records(gid)
    with pytest.raises(GameNotFoundError):
        log.all_records(uuid.uuid4())
