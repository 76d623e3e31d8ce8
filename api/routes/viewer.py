"""The replay viewer page: ``/games/<id>``, a Jinja template, one JS and one CSS file.

The page itself holds nothing secret: it is the same for every game and every viewer. It reads
the viewer's token from the sign-in form or from the URL fragment (``#token=...``, never sent to
the server, so it never reaches a log), keeps it in the tab's ``sessionStorage``, and calls the
JSON API with ``Authorization: Bearer``; the API redacts everything per viewer. No framework,
no CDN, no request outside this server (the Content-Security-Policy says so too).
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from api.auth import gamelog, parse_game_id

bp = Blueprint("viewer", __name__)

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


@bp.get("/games/<game_id>")
def game_page(game_id: str) -> Response:
    """The replay viewer of one game (404 in the API's error shape if there is no such game)."""
    gid = parse_game_id(game_id)
    gamelog().access(gid)  # GameNotFoundError -> 404
    return page(render_template("viewer.html", game_id=str(gid)))


def page(html: str) -> Response:
    """A page of the browser UI (the replay viewer, the table page ``api/routes/table.py``)
    with the headers every one of them carries: the one CSP, no referrer, nosniff, no-store."""
    response = Response(html)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"
    return response
