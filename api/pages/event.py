"""The event page: ``/events/<id>``, a Jinja template, one JS and one CSS file (issue #27, "A
page for an event"; docs/events.md).

Like the replay viewer (``api/pages/viewer.py``, whose headers and Content-Security-Policy it
shares), the page holds nothing secret: the shell names the event and nothing else. Its script
takes an event token (a player's, the judge's or the organizer's) from the sign-in form or the
URL fragment (``#token=...``, never sent to the server), keeps it in the tab's
``sessionStorage`` and reads the event's export without its games with ``Authorization:
Bearer``: the API decides what the caller may see (a decklist only to its player, the judges and
the organizer). It shows the pairings of every round, the results, the standings, the players
and round 1's commitment, with links to each game's replay and table page; a player's own games
link with its seat token (``GET /api/events/<id>/rounds/<n>/my-game``).
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from api.json_api.routes.events import parse_event_id, tournaments
from api.pages.viewer import page_headers

bp = Blueprint("event_page", __name__)


@bp.get("/events/<event_id>")
def event_page(event_id: str) -> Response:
    """The page of one event (404 in the API's error shape if there is no such event)."""
    event = tournaments().load(parse_event_id(event_id))
    html = render_template("event.html", event_id=str(event.id), name=event.settings["name"])
    return page_headers(Response(html))
