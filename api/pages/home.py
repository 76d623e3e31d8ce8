"""The home page, ``/`` (issue #44): every event, newest first, and the most recent games,
each linking to its page (``/events/<id>``, ``/games/<id>``). Server-rendered, no script; it
shows what anyone may read (``GET /api/events``, ``GET /api/games`` without a token), and the
organizer's form that opens an event (``api/static/home.js``: ``POST /api/events`` with the
token typed in), every setting explained by the API's own description."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from api.json_api.auth import gamelog
from api.json_api.routes.events import CreateEventSchema, tournaments
from api.pages.viewer import page_headers
from domain import fair
from domain.tournament import rules
from service.front import events_newest_first, recent_games

bp = Blueprint("home_page", __name__)

#: Events and games the home page lists.
SHOWN = 30


def settings_explained() -> dict[str, str]:
    """Each setting of ``POST /api/events`` and what it means (the API's own descriptions),
    for the form that opens an event."""
    fields = CreateEventSchema().fields
    return {name: str(f.metadata.get("description", "")) for name, f in fields.items()}


@bp.get("/")
def home() -> Response:
    """The home page."""
    html = render_template(
        "home.html",
        events=events_newest_first(tournaments(), SHOWN),
        games=recent_games(gamelog(), SHOWN),
        setting=settings_explained(),
        rulesets=rules.event_rulesets(),
        matches=rules.MATCHES,
        top_cuts=rules.TOP_CUTS,
        dealings=fair.MODES,
    )
    return page_headers(Response(html))
