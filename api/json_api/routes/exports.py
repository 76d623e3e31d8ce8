"""Match histories: game exports, imports, player histories, event exports.

* ``GET /api/games/<id>/export?format=json|ndjson|csv|text`` -- the game as the caller may see
  it (``projections.exports``): a seat's export keeps the opponent's hidden cards hidden, a judge's
  or table's is complete (and importable). ``format`` wins over ``Accept`` (``application/json``,
  ``application/x-ndjson``, ``text/csv``, ``text/plain``); no acceptable type is 406, an unknown
  ``format`` 400. NDJSON and CSV are streamed. Only the canonical JSON carries ``exported_at``:
  the streamed formats and transcripts of a game at a given version are always the same bytes.
* ``POST /api/games/import`` (organizer) -- a complete export (JSON or NDJSON) becomes a game
  again, under its own id, with new tokens: the answer is shaped like game creation's.
* ``GET /api/players/<player>/games`` (public) -- the player's games and totals, from the
  match-history projection (``adapters.history_store``): caught up before answering, or, with
  ``MUNCHLOG_PROJECTIONS=worker``, as ``munchlog worker`` has stored it.
* ``GET /api/exports?event=<label>&format=ndjson|text`` (organizer) -- every game of an event,
  streamed one after another. The organizer token is service-wide, not a party to any game, so
  each game is exported as the ``organizer`` viewer sees it: public information only (the
  spectator's view). Complete exports stay with each game's judge and table tokens. A game
  whose stored rows are damaged (or that the match histories left out for it) is not exported:
  the stream ends with a line naming each such game (:func:`omitted_lines`) instead of
  stopping in the middle.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from typing import Any
from uuid import UUID

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from werkzeug.exceptions import NotAcceptable

from api.json_api import inputs
from api.json_api.auth import (
    any_viewer,
    current_viewer,
    gamelog,
    organizer_only,
    parse_game_id,
    viewer_of_game,
)
from api.json_api.export_schemas import (
    FORMAT_DESCRIPTIONS,
    GAME_FORMATS,
    MEDIA_TYPES,
    MULTI_GAME_FORMATS,
    EventExportQuerySchema,
    ExportQuerySchema,
    GameExportSchema,
    PlayerHistorySchema,
)
from api.json_api.routes.games import BEARER, OPTIONAL_BEARER, ApiBlueprint, created_body
from api.json_api.schemas import GameCreatedSchema
from domain.envelope import DamagedRecords
from projections.exports import (
    export_csv,
    export_json_text,
    export_ndjson,
    export_transcript,
    parse_export,
)
from projections.exports.formats import omission, omitted_lines
from service.games import utc_now
from service.histories import MatchHistory

blp = ApiBlueprint(
    "exports",
    __name__,
    url_prefix="/api",
    description="Match histories: export and import games, player histories, event exports.",
)

#: Largest import body (the export of a long game is several MiB; other requests keep the
#: app's ``MAX_CONTENT_LENGTH``). Override with ``MUNCHLOG_IMPORT_MAX_BYTES``.
IMPORT_MAX_BYTES = 64 * 1024 * 1024
#: Streamed bodies are sent in chunks of about this many characters.
CHUNK = 64 * 1024
EXTENSIONS = {"json": "json", "ndjson": "ndjson", "csv": "csv", "text": "txt"}
_HISTORY_LOCK = threading.Lock()


def export_clock() -> str:
    """The ``exported_at`` of canonical JSON exports (tests replace it)."""
    return utc_now()


def history() -> MatchHistory:
    """The app's match-history projection (made on first use, over the app's GameLog): it
    catches up on each read with ``MUNCHLOG_PROJECTIONS=inline``, and serves what
    ``munchlog worker`` stored with ``worker``."""
    found = current_app.extensions.get("munchlog_history")
    if found is None:
        with _HISTORY_LOCK:
            found = current_app.extensions.get("munchlog_history")
            if found is None:
                inline = current_app.config.get("MUNCHLOG_PROJECTIONS", "inline") == "inline"
                found = MatchHistory(gamelog(), inline=inline, keep_up=inline)
                current_app.extensions["munchlog_history"] = found
    assert isinstance(found, MatchHistory)
    return found


def negotiate(asked: str | None, formats: Iterable[str]) -> str:
    """The export format: ``?format=`` if given, else the best ``Accept`` match, else the
    first of ``formats``; 406 when ``Accept`` allows none of them."""
    formats = tuple(formats)
    if asked is not None:
        return asked
    if not request.headers.get("Accept"):
        return formats[0]
    best = request.accept_mimetypes.best_match([MEDIA_TYPES[f] for f in formats])
    if best is None:
        offered = ", ".join(MEDIA_TYPES[f] for f in formats)
        raise NotAcceptable(f"this export is available as {offered}")
    return next(f for f in formats if MEDIA_TYPES[f] == best)


def chunked(lines: Iterable[str], size: int = CHUNK) -> Iterator[str]:
    """Join short lines into chunks of about ``size`` characters (fewer writes to the socket)."""
    buffer: list[str] = []
    length = 0
    for line in lines:
        buffer.append(line)
        length += len(line)
        if length >= size:
            yield "".join(buffer)
            buffer, length = [], 0
    if buffer:
        yield "".join(buffer)


def download(body: str | Iterator[str], fmt: str, filename: str) -> Response:
    """A response with the format's media type, as an attachment named ``filename``."""
    mimetype = MEDIA_TYPES[fmt]
    if mimetype.startswith("text/"):
        mimetype += "; charset=utf-8"
    if not isinstance(body, str):
        body = stream_with_context(chunked(body))
    response = Response(body, content_type=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-.") or "event"


FORMAT_RESPONSES = {
    "200": {
        "description": "the export, as an attachment",
        "headers": {
            "Content-Disposition": {
                "description": 'attachment; filename="game-<id>.<ext>" or "event-<label>.<ext>"',
                "required": True,
                "schema": {"type": "string"},
            }
        },
        "content": {
            MEDIA_TYPES[fmt]: {
                "schema": {"type": "string", "description": FORMAT_DESCRIPTIONS[fmt]}
            }
            for fmt in ("ndjson", "csv", "text")
        }
        | {"application/json": {"schema": GameExportSchema}},
    },
}


@blp.route("/games/<game:game_id>/export")
class GameExport(MethodView):
    @viewer_of_game
    @blp.errors(400, 401, 404, 406, 503)
    @blp.arguments(ExportQuerySchema, location="query")
    @blp.doc(security=OPTIONAL_BEARER, responses=FORMAT_RESPONSES)
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Export a game as the caller may see it (json, ndjson, csv or text)

        The canonical JSON of a judge or table token is complete: every card definition and
        every event with its hash, enough to verify offline and to import. A seat's export
        keeps the opponent's hidden cards hidden; without a token, public information only.
        NDJSON (a header line, then one event a line) and CSV are streamed.
        """
        gid = parse_game_id(game_id)
        viewer = current_viewer(gid)
        fmt = negotiate(query.get("format"), GAME_FORMATS)
        records = gamelog().delays.records(gid, viewer)
        filename = f"game-{gid}.{EXTENSIONS[fmt]}"
        if fmt == "json":
            return download(
                export_json_text(records, viewer, exported_at=export_clock()), fmt, filename
            )
        if fmt == "text":
            return download(export_transcript(records, viewer), fmt, filename)
        if fmt == "ndjson":
            return download(export_ndjson(records, viewer), fmt, filename)
        return download(export_csv(records, viewer), fmt, filename)


@blp.route("/games/import")
class GameImport(MethodView):
    @organizer_only
    @blp.errors(400, 401, 403, 409, 413, 422)
    @blp.response(201, GameCreatedSchema)
    @blp.doc(
        security=BEARER,
        requestBody={
            "required": True,
            "description": "a complete export (judge or table): canonical JSON or NDJSON",
            "content": {
                "application/json": {"schema": {"type": "object"}},
                "application/x-ndjson": {"schema": {"type": "string"}},
            },
        },
    )
    def post(self) -> dict[str, Any]:
        """Import a game from its complete export (organizer token)

        The hash chain is verified and every event replayed through the rules; a broken
        chain (422 `import/broken_chain`) or an impossible event (422
        `import/impossible_event`) is refused with the failing `version`, and nothing is
        stored; so is a server-dealt game whose dealing `verify` names (reason
        `dealing_mismatch`, docs/dealing.md). The game keeps its id (409 `game/already_exists`
        if it is here already) and gets new tokens, returned as by game creation. An
        unfinished server-dealt game's copy deals nothing more (its server secret is not here:
        422 `command/no_dealer`).
        """
        limit = current_app.config.get("MUNCHLOG_IMPORT_MAX_BYTES") or IMPORT_MAX_BYTES
        request.max_content_length = int(limit)
        text = inputs.decode_utf8(request.get_data(cache=False))
        return created_body(gamelog().import_export(parse_export(text, loads=inputs.loads)))


@blp.route("/players/<player>/games")
class PlayerGames(MethodView):
    @any_viewer
    @blp.errors(400, 401)
    @blp.response(200, PlayerHistorySchema)
    @blp.doc(security=OPTIONAL_BEARER)
    def get(self, player: str) -> dict[str, Any]:
        """A player's match history and totals (public information)

        Every game with this player in either seat (name case-insensitive), oldest first:
        date, event labels, hero, opponent, result from the player's side, turns, events and
        length; totals over all of them (averages over finished games), and per hero.
        """
        return history().player(inputs.check_text(player, "player"), viewer=current_viewer())


@blp.route("/exports")
class EventExport(MethodView):
    @organizer_only
    @blp.errors(400, 401, 403, 406)
    @blp.arguments(EventExportQuerySchema, location="query")
    @blp.doc(security=BEARER, responses=FORMAT_RESPONSES)
    def get(self, query: dict[str, Any]) -> Response:
        """Stream every game of an event (organizer token; public information)

        NDJSON: each game is a header line followed by its events. Text: the transcripts,
        one after another, as in a PGN file. Games are in creation order. A game whose stored
        events are damaged is left out, and named at the end: a last NDJSON line
        `{"format": "munchlog-omitted", "omitted": [{"game_id", "version", "reason"}]}`, or
        `;` comment lines after the transcripts.
        """
        fmt = negotiate(query.get("format"), MULTI_GAME_FORMATS)
        rows = history().event_games(query["event"])
        omitted = [
            omission(k["game_id"], k["version"], k["reason"])
            for k in history().skipped(event=query["event"])
        ]
        log = gamelog()

        def games() -> Iterator[str]:
            written = 0
            for row in rows:
                try:
                    records = log.delays.records(UUID(row["game_id"]), "organizer")
                except DamagedRecords as exc:
                    omitted.append(omission(row["game_id"], exc.version, exc.reason))
                    continue
                if fmt == "ndjson":
                    yield from export_ndjson(records, "organizer")
                else:
                    yield ("\n" if written else "") + export_transcript(records, "organizer")
                written += 1
            yield from omitted_lines(omitted, fmt)

        return download(games(), fmt, f"event-{_slug(query['event'])}.{EXTENSIONS[fmt]}")
