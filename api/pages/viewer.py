"""The replay viewer page: ``/games/<id>``, a Jinja template, one JS and one CSS file.

The page itself holds nothing secret: it is the same for every game and every viewer. It reads
the viewer's token from the sign-in form or from the URL fragment (``#token=...``, never sent to
the server, so it never reaches a log), keeps it in the tab's ``sessionStorage``, and calls the
JSON API with ``Authorization: Bearer``; the API redacts everything per viewer. No framework,
no CDN, no request outside this server (the Content-Security-Policy says so too).
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from api.json_api.auth import gamelog, parse_game_id
from api.json_api.routes.live import stream_origin

bp = Blueprint("viewer", __name__)

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def csp() -> str:
    """The pages' Content-Security-Policy: :data:`CSP`, whose ``connect-src`` also names the
    stream process's origin when it is another one (``munchlog serve`` without a proxy: the
    next port up; docs/streams.md)."""
    origin = stream_origin()
    return CSP if not origin else CSP.replace("connect-src 'self'", f"connect-src 'self' {origin}")


def page_headers(response: Response) -> Response:
    """The headers of every page: the CSP, no referrer, no sniffing, no caching."""
    response.headers["Content-Security-Policy"] = csp()
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>")
def game_page(game_id: str) -> Response:
    """The replay viewer of one game (404 in the API's error shape if there is no such game)."""
    gid = parse_game_id(game_id)
    gamelog().access(gid)  # GameNotFoundError -> 404
    return page_headers(Response(render_template("viewer.html", game_id=str(gid))))
