"""The floor's two pages (issue #39, docs/events.md "The room's screen" and "The judge's page"):
``/events/<id>/tv``, the screen for the room, and ``/events/<id>/judge``, the judges' phones.

Both are shells like the event page (``api/pages/event.py``: its headers and
Content-Security-Policy, one script and one stylesheet each, nothing from another origin) over
the JSON API and the event's stream (``GET /api/events/<id>/stream``, ``api/static/live.js``):

* the screen holds no token: it reads what a spectator may (a spectator delay holds it back as
  every public read) and shows the round's clock large, the pairings by player name with their
  tables (scrolling by themselves when they do not fit), the standings after the round, and a
  QR code to the event page, drawn here by segno as the slips' are (``api/pages/prints.py``);
* the judge's page takes a staff token from the URL fragment (``#token=...``, never sent to the
  server) or the sign-in form, and shows what the API shows that token: the open calls by age,
  the round's tables, each table's clock, and a call's ruling form (``api/static/judge-ruling.js``),
  whose choices of penalty and infraction are the penalty guide's (``domain.penalties``), in
  words, written into the page here.
"""

from __future__ import annotations

import segno
from flask import Blueprint, Response, render_template
from markupsafe import Markup

from api.json_api.routes.events import parse_event_id, tournaments
from api.pages.prints import event_url
from api.pages.viewer import page_headers
from domain.penalties import INFRACTIONS, PENALTIES, infraction_label

bp = Blueprint("floor_pages", __name__)

#: What each penalty a ruling may give does, as the ruling form says it, short enough for a
#: phone's select (docs/rules.md F.5: ``domain.penalties.ENDS_GAME``, ``ENDS_MATCH``; a
#: disqualification drops the player).
PENALTY_WORDS = {
    "caution": "a word, nothing more",
    "warning": "on the player's record",
    "game_loss": "loses this game now",
    "match_loss": "loses the match now",
    "disqualification": "out of the event",
}
#: The penalty guide's classes of infraction (the first part of a key of ``INFRACTIONS``).
INFRACTION_CLASSES = {
    "game_play_error": "Game play errors",
    "tournament_error": "Tournament errors",
    "unsporting_conduct": "Unsporting conduct",
}


def penalty_choices() -> list[tuple[str, str]]:
    """The ruling form's penalties, mildest first: ``(kind, words)``."""
    return [(k, k.replace("_", " ").capitalize() + ": " + PENALTY_WORDS[k]) for k in PENALTIES]


def infraction_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The ruling form's infractions by class, in the guide's order: ``(class, [(key, label)])``."""
    grouped: dict[str, list[tuple[str, str]]] = {}
    for key in INFRACTIONS:
        grouped.setdefault(INFRACTION_CLASSES[key.split(".")[0]], []).append(
            (key, infraction_label(key))
        )
    return list(grouped.items())


@bp.get("/events/<event_id>/tv")
def room_screen(event_id: str) -> Response:
    """The screen for the room: the clock, the pairings by name, the standings, a QR code."""
    event = tournaments().load(parse_event_id(event_id))
    url = event_url(event)
    # no width and height: a viewBox, so the screen's stylesheet sizes it
    qr = Markup(segno.make(url, error="m").svg_inline(border=2, omitsize=True))
    html = render_template(
        "tv.html", event_id=str(event.id), name=event.settings["name"], qr=qr, url=url
    )
    return page_headers(Response(html))


@bp.get("/events/<event_id>/judge")
def judge_page(event_id: str) -> Response:
    """The judge's page: the open calls, the round's tables (a staff token in the fragment)."""
    event = tournaments().load(parse_event_id(event_id))
    html = render_template(
        "judge.html",
        event_id=str(event.id),
        name=event.settings["name"],
        penalties=penalty_choices(),
        infractions=infraction_choices(),
    )
    return page_headers(Response(html))
