"""An event's export (issue #27, "Exports"; docs/events.md): ``GET /api/events/<id>/export``.

The whole event as the caller may see it (``service.event_exports``): settings, registrations
(a decklist and its salt only to the organizer, the judges and its player, as ``GET
/api/events/<id>`` shows them), every round's pairings and byes, the results, the standings,
the penalties the caller may see (as ``GET …/penalties`` shows them) and every game's own export
(the judge's complete, a player's own games from its seat and the others as a spectator).
``format=json`` is for programs (and ``munchlog verify``); ``format=text`` a report for people,
the games' transcripts after it. ``games=false`` leaves the games out (the event page reads the
rest so).
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from marshmallow import fields, validate

from api.json_api.export_schemas import MEDIA_TYPES
from api.json_api.routes.events import current, public_event, tournaments
from api.json_api.routes.exports import EXTENSIONS, download, export_clock, negotiate
from api.json_api.routes.games import ApiBlueprint
from api.json_api.schemas import Strict
from service.event_exports import EventExports, export_text

blp = ApiBlueprint(
    "event_exports",
    __name__,
    url_prefix="/api/events",
    description="Tournaments: an event's whole export, checked offline by `munchlog verify`.",
)

#: ``?format=`` of an event's export: JSON for programs, a report for people.
EVENT_FORMATS = ("json", "text")


class EventFileQuerySchema(Strict):
    format = fields.String(
        validate=validate.OneOf(EVENT_FORMATS),
        metadata={"description": "wins over the Accept header; default json"},
    )
    games = fields.Boolean(
        load_default=True,
        metadata={"description": "false: leave the games' own exports out"},
    )


RESPONSES = {
    "200": {
        "description": "the event's export, as an attachment",
        "headers": {
            "Content-Disposition": {
                "description": 'attachment; filename="event-<id>.json" or ".txt"',
                "required": True,
                "schema": {"type": "string"},
            }
        },
        "content": {
            MEDIA_TYPES["json"]: {
                "schema": {
                    "type": "object",
                    "description": "`format: munchlog-event`: `event_id`, `exported_at`, "
                    "`viewer` (`role`, `player`), `results_as`, `settings`, `state`, `winner`, `round`, "
                    "`swiss_rounds`, `planned_rounds`, `cut_size`, `cut_note`, `end_note`, "
                    "`commitment`, `revealed_secret`, "
                    "`players`, `rounds`, `results`, `standings`, `penalties` (as `GET "
                    "…/penalties` shows them to the caller; none to a spectator), `games` (each "
                    "a game's canonical export), `omitted`, `complete` (true only in the "
                    "judge's export with its games) and `leaves_out` (what this caller's export "
                    "leaves out of the judge's, in words; `[]` in the judge's) (docs/events.md)",
                }
            },
            MEDIA_TYPES["text"]: {
                "schema": {
                    "type": "string",
                    "description": "the event as a report (a heading a round, the "
                    "standings as a table), then each game's transcript",
                }
            },
        },
    },
}


@blp.route("/<event_id>/export")
class EventExport(MethodView):
    @public_event(
        blp, query=EventFileQuerySchema, errors=(400, 401, 404, 406, 503), responses=RESPONSES
    )
    def get(self, query: dict[str, Any], event_id: str) -> Response:
        """Export a whole event as the caller may see it (json or text)

        Settings, registrations (a decklist and its salt only to the organizer, the judges
        and its player), every round's pairings and byes, the results, the standings, the
        penalties (the judges and the organizer all, a player its own) and every game's own
        export: the event's judge gets complete game exports (each verifies
        offline: `munchlog verify` checks the event and every game in it); a player its own
        games from its seat and the other tables as a spectator; anyone else public
        information. With a spectator delay, only the judges see results live.
        """
        service = tournaments()
        event, caller = current()
        fmt = negotiate(query.get("format"), EVENT_FORMATS)
        exports = EventExports(service)
        at = export_clock()
        filename = f"event-{event.id}.{EXTENSIONS[fmt]}"
        if fmt == "text":
            return download(exports.report(event.id, caller, exported_at=at), fmt, filename)
        body = exports.export(event.id, caller, exported_at=at, games=query["games"])
        return download(export_text(body), fmt, filename)
