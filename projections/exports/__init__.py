"""Match histories: export a game's log for a viewer and read it back.

* :mod:`~projections.exports.walk` -- records to a viewer's entries, the header, the visitor
  that every format is (python-chess ``chess.pgn`` style);
* :mod:`~projections.exports.formats` -- canonical JSON, NDJSON and CSV, and
  :func:`read_export` (:func:`parse_export` for the text alone);
* :mod:`~projections.exports.narration` -- events as sentences, each family's narrator
  (``domain.family``: the CCG's and classic's live in their packages);
* :mod:`~projections.exports.transcript` -- the PGN-like transcript;
* :mod:`~projections.exports.importing` -- the checks of an import (:func:`import_game`).

The hash chain and its verifier are the envelope's (``domain.envelope``).
"""

from projections.exports.formats import (
    CSV_COLUMNS,
    export_csv,
    export_json,
    export_json_text,
    export_ndjson,
    parse_export,
    read_export,
)
from projections.exports.importing import (
    ImportedGame,
    ImportRejected,
    checked_records,
    import_game,
    replay_records,
)
from projections.exports.transcript import export_transcript
from projections.exports.walk import ExportFormatError, game_result

__all__ = [
    "CSV_COLUMNS",
    "ExportFormatError",
    "ImportRejected",
    "ImportedGame",
    "checked_records",
    "export_csv",
    "export_json",
    "export_json_text",
    "export_ndjson",
    "export_transcript",
    "game_result",
    "import_game",
    "parse_export",
    "read_export",
    "replay_records",
]
