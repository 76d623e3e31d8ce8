"""The table page's route, ``GET /games/<id>/play`` (issue #26 item 2): served with the pages'
headers (the one CSP, no referrer, nosniff, no-store), its script and style and nothing from
another site; 404 in the API's error shape for no such game. The page in a browser:
tests/e2e/test_table_*.py."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import create_game


@pytest.mark.storage_agnostic
def test_the_table_page_is_served_with_the_pages_headers(client: FlaskClient) -> None:
    game = create_game(client)
    page = client.get(f"/games/{game['game_id']}/play")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert f'data-game-id="{game["game_id"]}"' in html
    # dealing.js (the seeds' commitments), pages.js and boards.js (the board the viewer draws
    # too) and live.js before the page's own script
    scripts = ["dealing.js", "pages.js", "boards.js", "live.js", "table.js"]
    places = [html.index(f'src="/static/{name}"') for name in scripts]
    assert places == sorted(places)
    assert 'href="/static/table.css"' in html
    assert f'href="/games/{game["game_id"]}"' in html  # the replay viewer, one click away
    assert "http://" not in html and "https://" not in html
    # the same headers as the replay viewer's page: one policy for every page
    viewer = client.get(f"/games/{game['game_id']}")
    for header in ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options"):
        assert page.headers[header] == viewer.headers[header], header
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert "connect-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["Referrer-Policy"] == "no-referrer"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["Cache-Control"] == "no-store"
    for asset in ("table.js", "table.css"):
        response = client.get(f"/static/{asset}")
        assert response.status_code == 200
        text = response.get_data(as_text=True)
        assert "https://" not in text and "http://" not in text


@pytest.mark.storage_agnostic
@pytest.mark.parametrize(
    ("game_id", "code"),
    [("00000000-0000-0000-0000-000000000000", "game/not_found"), ("nope", "game/not_found")],
)
def test_no_game_is_404_in_the_apis_shape(client: FlaskClient, game_id: str, code: str) -> None:
    response = client.get(f"/games/{game_id}/play")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == code
