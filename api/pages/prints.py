"""Paper for an event's room (issue #39, docs/events.md "Paper"): ``/events/<id>/print/…``,
HTML pages with print CSS, made on the server, each one request and nothing fetched elsewhere.

* ``pairings?by=name|table`` (``&round=n``, by default the last round paired): by name, every
  player alphabetically with its table, seat and opponents, to pin on a wall; by table, each
  table's seats.
* ``slips``: a match slip a table (event, round, table, the players and their seats, boxes for
  the result, signature lines and a QR code to the event page), three to an A4 sheet, in the
  order that cuts into piles by table: cut the stack of sheets into thirds and put the piles on
  one another, and the slips run 1, 2, 3, … (:func:`cut_order`).
* ``standings``: as ``GET /api/events/<id>/standings`` shows them to a spectator (a spectator
  delay holds them back as every public read).
* ``decklists`` (the staff who see lists: the judges and the organizer, ``Caller.sees_lists``):
  each player's registered list as a sheet. The token goes in an ``Authorization`` header; a
  browser without one gets a shell whose script (``print-auth.js``) asks again with the token
  the event page keeps in the tab, so no token is ever in a URL.

QR codes are drawn here by segno, as inline SVG.
"""

from __future__ import annotations

import math
from typing import Any

import segno
from flask import Blueprint, Response, render_template, request
from markupsafe import Markup

from api.json_api.errors import BadRequest, Forbidden
from api.json_api.routes.events import caller_of, parse_event_id, tournaments
from api.pages.viewer import page_headers
from domain.errors import NotFound
from domain.tournament.aggregate import Tournament

bp = Blueprint("print_pages", __name__)

#: Slips on one A4 sheet.
SLIPS_A_SHEET = 3


def cut_order(count: int, per_sheet: int = SLIPS_A_SHEET) -> list[list[int]]:
    """The slips' indexes sheet by sheet so that the sheets, stacked and cut, make piles in
    order: position ``i`` of sheet ``p`` holds slip ``i * sheets + p``.

    >>> cut_order(7)
    [[0, 3, 6], [1, 4], [2, 5]]
    """
    sheets = math.ceil(count / per_sheet)
    return [
        [i * sheets + p for i in range(per_sheet) if i * sheets + p < count] for p in range(sheets)
    ]


def qr_svg(url: str) -> Markup:
    """A QR code of ``url`` as inline SVG (segno; made here, no request leaves the server)."""
    svg = segno.make(url, error="m").svg_inline(scale=2, border=2, omitsize=False)
    return Markup(svg)


def event_url(event: Tournament) -> str:
    """The event page's address as the room reaches it: the request's host, and its scheme as
    the proxy tells it (``X-Forwarded-Proto``, deploy/nginx.conf: a QR code on paper must not
    send a phone to ``http`` behind TLS). A client that sets the header itself changes only
    its own page's code."""
    scheme = request.headers.get("X-Forwarded-Proto", "")
    if scheme not in ("http", "https"):
        scheme = request.scheme
    return f"{scheme}://{request.host}/events/{event.id}"


def _round(event: Tournament) -> dict[str, Any] | None:
    raw = request.args.get("round")
    if raw is None:
        return event.rounds[-1] if event.rounds else None
    if not raw.isascii() or not raw.isdigit():
        raise BadRequest("request/invalid_round", "round is a round's number")
    if not 1 <= int(raw) <= event.round:
        raise NotFound("event/round_not_found", f"round {raw} has not been paired")
    return event.round_at(int(raw))


def _page(template: str, event: Tournament, **more: Any) -> Response:
    html = render_template(
        template,
        event_id=str(event.id),
        name=event.settings["name"],
        **more,
    )
    return page_headers(Response(html))


@bp.get("/events/<event_id>/print/pairings")
def pairings(event_id: str) -> Response:
    """The round's pairings, by player name (default) or by table."""
    event = tournaments().load(parse_event_id(event_id))
    by = request.args.get("by", "name")
    if by not in ("name", "table"):
        raise BadRequest("request/invalid_by", "by is name or table")
    round_ = _round(event)
    rows: list[dict[str, Any]] = []
    for pairing in round_["pairings"] if round_ else []:
        for seat, player in pairing["seats"].items():
            others = [p for p in pairing["seats"].values() if p != player]
            rows.append(
                {"player": player, "table": pairing["table"], "seat": seat, "others": others}
            )
    for player in round_["byes"] if round_ else []:
        rows.append({"player": player, "table": None, "seat": None, "others": []})
    rows.sort(key=lambda r: (r["player"].casefold(), r["player"]))
    return _page("print_pairings.html", event, round=round_, by=by, rows=rows, title="Pairings")


@bp.get("/events/<event_id>/print/slips")
def slips(event_id: str) -> Response:
    """A match slip a table of the round, three to a sheet, in cutting order."""
    event = tournaments().load(parse_event_id(event_id))
    round_ = _round(event)
    tables = sorted(round_["pairings"] if round_ else [], key=lambda p: p["table"])
    sheets = [[tables[i] for i in sheet] for sheet in cut_order(len(tables))]
    return _page(
        "print_slips.html",
        event,
        round=round_,
        sheets=sheets,
        qr=qr_svg(event_url(event)),
        title="Slips",
    )


@bp.get("/events/<event_id>/print/standings")
def standings(event_id: str) -> Response:
    """The standings as a spectator sees them."""
    event = tournaments().load(parse_event_id(event_id))
    rows = tournaments().standings(event.id, "spectator")
    return _page("print_standings.html", event, rows=rows, round=None, title="Standings")


@bp.get("/events/<event_id>/print/decklists")
def decklists(event_id: str) -> Response:
    """Each player's registered list, a sheet each (the judges and the organizer)."""
    event = tournaments().load(parse_event_id(event_id))
    if "Authorization" not in request.headers:
        return _page("print_decklists.html", event, players=None, round=None, title="Decklists")
    caller = caller_of(event)  # 401 for a token that is not one here
    if not caller.sees_lists:
        raise Forbidden("auth/forbidden", "only the judges and the organizer see decklists")
    players = [
        {"player": name, "hero": info["hero"], "decklist": info["decklist"] or []}
        for name, info in sorted(event.players.items())
    ]
    return _page("print_decklists.html", event, players=players, round=None, title="Decklists")
