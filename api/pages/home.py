"""The home page, ``/`` (issue #44): every event, newest first, and the most recent games,
each linking to its page (``/events/<id>``, ``/games/<id>``). Server-rendered, no script; it
shows what anyone may read (``GET /api/events``, ``GET /api/games`` without a token)."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from api.json_api.auth import gamelog
from api.json_api.routes.events import tournaments
from api.pages.viewer import page_headers
from service.front import events_newest_first, recent_games

bp = Blueprint("home_page", __name__)

#: Events and games the home page lists.
SHOWN = 30


@bp.get("/")
def home() -> Response:
    """The home page."""
    html = render_template(
        "home.html",
        events=events_newest_first(tournaments(), SHOWN),
        games=recent_games(gamelog(), SHOWN),
    )
    return page_headers(Response(html))
