"""The export formats, and reading the canonical ones back.

* :class:`JsonExporter` -- the canonical export, one JSON object::

    {"format": "munchlog-game", "format_version": 1, "game_id", "ruleset", "rules_version",
     "mode", "game_format", "exported_at"?, "viewer", "complete", "seats": [{seat, player,
     hero}], "labels", "result", "events": [entry, ...]}

  A complete export (``judge``, ``table``) is self-contained (``GameCreated`` holds every card
  definition) and can be verified offline and imported. A seat's export shows what that seat
  may see (docs/rules.md A.4): the other seats' hidden cards stay hidden, and it has no hashes.
* :class:`NdjsonExporter` / :func:`export_ndjson` -- the same, streamed: the first line is the
  header (the object above without ``events``), then one entry per line.
* :class:`CsvExporter` / :func:`export_csv` -- one row per event for spreadsheets
  (:data:`CSV_COLUMNS`).

Every entry is ``{version, type, v, seat, cause, violation, unchecked?, received_at,
client_at, data}`` (``projections.views.event_view``), with ``hash``, ``prev_hash`` and
``visible_to`` in a complete export; ``unchecked: true`` marks an event recorded from a card
whose text is not encoded (docs/cards.md), shown only to a viewer who may see that card.

:func:`read_export` reads the JSON and NDJSON exports back to a header and records
(:func:`parse_export` reads their text); :func:`parse_exports` splits a multi-game NDJSON
export (one game's lines after another, ``GET /api/exports``) into its games.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from domain.envelope import Record, canonical_json
from projections.exports.narration import Narrator, narrator_for
from projections.exports.walk import (
    FORMAT,
    FORMAT_VERSION,
    ExportFormatError,
    GameVisitor,
    Turn,
    record_from_entry,
    visit,
    walk,
)


class JsonExporter(GameVisitor[dict[str, Any]]):
    """Builds the canonical export object (module docstring)."""

    def __init__(self) -> None:
        self.header: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.header = dict(header)

    def visit_event(self, entry: Mapping[str, Any], turn: Turn | None) -> None:
        self.events.append(dict(entry))

    def result(self) -> dict[str, Any]:
        return {**self.header, "events": self.events}


def export_json(
    records: Iterable[Record], viewer: str, *, exported_at: str | None = None
) -> dict[str, Any]:
    """The canonical export object for ``viewer``."""
    return walk(records, JsonExporter(), viewer, exported_at=exported_at)


def export_json_text(
    records: Iterable[Record], viewer: str, *, exported_at: str | None = None
) -> str:
    """The canonical export as text: sorted keys, one space indent, UTF-8, final newline."""
    obj = export_json(records, viewer, exported_at=exported_at)
    return json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


class _Streaming(GameVisitor[None]):
    """A visitor that produces lines as it goes; :meth:`drain` hands them over."""

    def __init__(self) -> None:
        self._lines: list[str] = []

    def emit(self, line: str) -> None:
        self._lines.append(line)

    def drain(self) -> list[str]:
        lines, self._lines = self._lines, []
        return lines

    def result(self) -> None:
        return None


def _stream(
    records: Iterable[Record],
    visitor: _Streaming,
    viewer: str,
    result: str | None,
    exported_at: str | None,
) -> Iterator[str]:
    for _ in visit(records, visitor, viewer, result=result, exported_at=exported_at):
        yield from visitor.drain()


class NdjsonExporter(_Streaming):
    """NDJSON lines: the header (no ``events``) first, then one entry per line."""

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.emit(canonical_json(dict(header)) + "\n")

    def visit_event(self, entry: Mapping[str, Any], turn: Turn | None) -> None:
        self.emit(canonical_json(entry) + "\n")


def export_ndjson(
    records: Iterable[Record],
    viewer: str,
    *,
    result: str | None = None,
    exported_at: str | None = None,
) -> Iterator[str]:
    """Stream the export as NDJSON lines (each ends with ``\\n``); see :class:`NdjsonExporter`.

    Pass ``result`` when ``records`` is a one-pass iterator (else the header says ``"*"``).
    """
    return _stream(records, NdjsonExporter(), viewer, result, exported_at)


CSV_COLUMNS = (
    "version",
    "received_at",
    "client_at",
    "seat",
    "type",
    "turn",
    "summary",
    "violation",
    "data",
    "unchecked",
)


class CsvExporter(_Streaming):
    """CSV rows (RFC 4180, CRLF): a row of :data:`CSV_COLUMNS`, then one row per event.

    ``summary`` is the transcript's sentence for the event; ``data`` the entry's data as
    compact JSON; ``unchecked`` is ``true`` for an event recorded from a card whose text is not
    encoded (docs/cards.md) when the viewer may see that card, else empty. New columns are
    only ever added at the end, so tools that read the columns by position keep working.
    """

    needs_turns = True

    def __init__(self) -> None:
        super().__init__()
        self.narrator = Narrator({}, ())

    def _row(self, values: Sequence[Any]) -> None:
        buf = io.StringIO()
        csv.writer(buf).writerow(values)
        self.emit(buf.getvalue())

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.narrator = narrator_for(header, cards)
        self._row(CSV_COLUMNS)

    def visit_event(self, entry: Mapping[str, Any], turn: Turn | None) -> None:
        phrases = self.narrator.describe(entry)
        summary = " · ".join(p.render(with_actor=True) for p in phrases)
        self._row(
            [
                entry["version"],
                entry.get("received_at") or "",
                entry.get("client_at") or "",
                entry.get("seat") or "",
                entry["type"],
                turn.number if turn is not None else "",
                summary,
                entry.get("violation") or "",
                canonical_json(entry.get("data") or {}),
                "true" if entry.get("unchecked") is True else "",
            ]
        )


def export_csv(
    records: Iterable[Record], viewer: str, *, exported_at: str | None = None
) -> Iterator[str]:
    """Stream the log as CSV lines; see :class:`CsvExporter`."""
    return _stream(records, CsvExporter(), viewer, None, exported_at)


def read_export(source: str | bytes | Mapping[str, Any]) -> tuple[dict[str, Any], list[Record]]:
    """Read a canonical JSON export (object or text) or an NDJSON export back into
    ``(header, records)``; records have the stored shape (``domain.envelope``).

    Only complete exports (``judge``, ``table``) give back records that verify. Raises
    :class:`ExportFormatError` when ``source`` is not an export this version reads.
    """
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    obj = parse_export(source) if isinstance(source, str) else source
    header = {k: v for k, v in obj.items() if k != "events"}
    if header.get("format") != FORMAT:
        raise ExportFormatError(f"not a {FORMAT} export")
    if header.get("format_version") != FORMAT_VERSION:
        raise ExportFormatError(f"unsupported format_version {header.get('format_version')!r}")
    events = obj.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise ExportFormatError("'events' must be a list of objects")
    return header, [record_from_entry(e) for e in events]


#: The ``format`` of the line that ends a multi-game NDJSON export when it left games out.
OMITTED_FORMAT = "munchlog-omitted"


def parse_export(text: str, loads: Callable[[str], Any] = json.loads) -> Mapping[str, Any]:
    """The JSON of an export's text as one object: the canonical JSON as it is, an NDJSON
    export's header with its lines as ``events``. Each JSON text is read by ``loads`` (the
    API passes its checked reader, ``api.json_api.inputs.loads``); what is not JSON, or holds several
    games (:func:`parse_exports` reads those), is :class:`ExportFormatError`.
    """
    games, _ = parse_exports(text, loads)
    if len(games) > 1:
        raise ExportFormatError(
            f"this export holds {len(games)} games: give them one at a time "
            "(munchlog import takes a multi-game export)"
        )
    return games[0]


def parse_exports(
    text: str, loads: Callable[[str], Any] = json.loads
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every game of an export's text, each as :func:`parse_export` gives it, and the games a
    multi-game NDJSON export says it left out (its ``munchlog-omitted`` line: ``{"game_id",
    "version", "reason"}`` each).

    A multi-game NDJSON export (``GET /api/exports``, ``munchlog export --player/--event``) is
    one game's lines after another: a header line (an object with ``format``) starts each
    game; the entries never have a ``format``. Raises :class:`ExportFormatError` when the text
    is not JSON, is empty, or holds no game.
    """
    try:
        parsed: Any = loads(text)
    except json.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict) and "events" in parsed:
        return [parsed], []
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ExportFormatError("empty export")
    games: list[dict[str, Any]] = []
    omitted: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        try:
            obj = loads(line)
        except json.JSONDecodeError as exc:
            raise ExportFormatError(f"bad JSON on line {number}: {exc.msg}") from None
        if isinstance(obj, dict) and obj.get("format") == OMITTED_FORMAT:
            found = obj.get("omitted")
            if not isinstance(found, list) or not all(isinstance(o, dict) for o in found):
                raise ExportFormatError(f"line {number}: 'omitted' must be a list of objects")
            omitted.extend(found)
        elif number == 1 or (isinstance(obj, dict) and "format" in obj):
            if not isinstance(obj, dict):
                raise ExportFormatError("the first line must be the header object")
            games.append({**obj, "events": []})
        elif games:
            games[-1]["events"].append(obj)
        else:
            raise ExportFormatError(f"line {number} comes before any game's header")
    if not games:
        raise ExportFormatError("the export holds no game")
    return games, omitted


def omitted_lines(omitted: Sequence[dict[str, Any]], fmt: str) -> Iterator[str]:
    """The end of a multi-game export that had to leave games out (nothing when none was):
    NDJSON, one line ``{"format": "munchlog-omitted", "omitted": [{"game_id", "version",
    "reason"}, ...]}``; text, a closing comment paragraph (``;`` lines, as in PGN)."""
    if not omitted:
        return
    if fmt == "ndjson":
        yield canonical_json({"format": "munchlog-omitted", "omitted": list(omitted)}) + "\n"
        return
    yield f"\n; {len(omitted)} game(s) left out: their stored events are damaged\n"
    for entry in omitted:
        yield f"; game {entry['game_id']}: event {entry['version']} ({entry['reason']})\n"


def omission(game_id: str, version: int, reason: str) -> dict[str, Any]:
    return {"game_id": game_id, "version": version, "reason": reason}
