"""The table page: ``/games/<id>/play``, to play or record a game from a browser at the table
(issue #26 item 2): a Jinja template, one JS and one CSS file.

Like the replay viewer (``api/pages/viewer.py``, whose headers and Content-Security-Policy it
shares), the page holds nothing secret: it takes a seat's, the table's or the judge's token
from the sign-in form or the URL fragment (``#token=...``, never sent to the server), keeps it
in the tab's ``sessionStorage`` and calls the JSON API with ``Authorization: Bearer``. It shows
the state as that viewer may see it and the commands ``GET /api/games/<id>/legal`` offers as
buttons and pickers; every post carries ``expected_version`` and an ``Idempotency-Key``.
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from api.json_api.auth import gamelog, parse_game_id
from api.pages.viewer import page_headers

bp = Blueprint("table", __name__)


@bp.get("/games/<game_id>/play")
def table_page(game_id: str) -> Response:
    """The table page of one game (404 in the API's error shape if there is no such game)."""
    gid = parse_game_id(game_id)
    gamelog().access(gid)  # GameNotFoundError -> 404
    return page_headers(Response(render_template("table.html", game_id=str(gid))))
