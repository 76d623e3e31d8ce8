"""``munchlog`` subcommands of the match histories; wired in by :mod:`api.cli`.

``munchlog export (--game ID | --player NAME | --event LABEL) [--format F] -o FILE [--as V]``
    Write exports straight from the store (``-o -`` for stdout), with a progress bar on stderr.
    One game: ``json`` (default), ``ndjson``, ``csv`` or ``text``; several games: ``ndjson``
    (a header line starts each game) or ``text`` (transcripts one after another). The operator
    has the database, so the default viewer is ``judge`` (complete, importable exports);
    ``--as organizer`` gives the public view. A game whose stored events are damaged is left
    out and named on stderr and at the end of the file (as ``GET /api/exports`` does); the exit
    code is then 1.
``munchlog import FILE``
    Verify (hash chain, every event replayed) and store a complete export as a new game under
    its own id; prints the id and the new tokens. Exit code 1 if refused.
``munchlog verify FILE`` / ``munchlog verify --game ID [--db URL]``
    Check an export offline, or a stored game (every row read on its own, its snapshots too, as
    ``GET /api/games/<id>/verify`` does): prints ``{"ok", "checked", "first_broken", "head",
    "problems"}`` as JSON (``first_broken`` is ``{"version", "reason"}`` for the chain or the
    rules; ``problems`` lists every problem of the chain); exit code 0/1.
``munchlog rebuild-projections``
    Drop the match-history projection and fold the whole notification log again; games it had
    to leave out (damaged stored events) are listed on stderr.

Every command but ``verify FILE`` takes ``--db`` (a SQLite path or ``postgresql://`` URL; default
``$MUNCHLOG_DATABASE_URL``, else ``munchlog.sqlite`` in ``$MUNCHLOG_INSTANCE`` or ``./instance``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any
from uuid import UUID

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from api.app import database_env
from api.routes.exports import omission, omitted_lines
from domain.envelope import DamagedRecords, Record, verify_records
from projections.exports import (
    ExportFormatError,
    ImportRejected,
    export_csv,
    export_json_text,
    export_ndjson,
    export_transcript,
    import_game,
    read_export,
    replay_records,
)
from projections.views import VIEWERS
from service.errors import GameAlreadyExistsError, GameNotFoundError
from service.games import GameLog
from service.histories import MatchHistory

FORMATS = ("json", "ndjson", "csv", "text")
MULTI_GAME_FORMATS = ("ndjson", "text")


def add_history_commands(sub: Any) -> None:
    """Add ``export``, ``import``, ``verify`` and ``rebuild-projections`` to ``munchlog``."""
    e = sub.add_parser("export", help="export games (one, a player's, an event's) to a file")
    which = e.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", help="a game id")
    which.add_argument("--player", help="every game of this player (either seat)")
    which.add_argument("--event", help="every game with this event label")
    e.add_argument("--format", choices=FORMATS, default=None, help="default json (one game)")
    e.add_argument("-o", "--output", required=True, help="a file, or - for stdout")
    e.add_argument("--as", dest="viewer", choices=VIEWERS, default="judge")
    e.add_argument("--db", help="SQLite file path or postgresql:// URL")
    e.set_defaults(func=export_command)

    i = sub.add_parser("import", help="store a complete export as a new game")
    i.add_argument("file")
    i.add_argument("--db", help="SQLite file path or postgresql:// URL")
    i.set_defaults(func=import_command)

    v = sub.add_parser("verify", help="check an export offline, or a stored game")
    v.add_argument("file", nargs="?", help="an export (JSON or NDJSON)")
    v.add_argument("--game", help="a stored game's id instead: check its rows in the store")
    v.add_argument("--db", help="SQLite file path or postgresql:// URL (with --game)")
    v.set_defaults(func=verify_command)

    r = sub.add_parser("rebuild-projections", help="rebuild the match histories from scratch")
    r.add_argument("--db", help="SQLite file path or postgresql:// URL")
    r.set_defaults(func=rebuild_command)


def open_log(db: str | None) -> GameLog:
    """The GameLog of ``--db`` (or the environment's / the instance folder's database)."""
    instance = os.path.abspath(os.environ.get("MUNCHLOG_INSTANCE") or "instance")
    env = database_env(db or os.environ.get("MUNCHLOG_DATABASE_URL"), instance)
    if "SQLITE_DBNAME" in env:
        Path(env["SQLITE_DBNAME"]).parent.mkdir(parents=True, exist_ok=True)
    return GameLog(env)


def progress_bar(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )


def _open_output(path: str) -> IO[str]:
    if path == "-":
        return sys.stdout
    return open(path, "w", encoding="utf-8", newline="")


def export_command(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    fmt = args.format or ("json" if args.game else "ndjson")
    if not args.game and fmt not in MULTI_GAME_FORMATS:
        err.print(f"several games export as {' or '.join(MULTI_GAME_FORMATS)}, not {fmt}")
        return 2
    log = open_log(args.db)
    omitted: list[dict[str, Any]] = []
    try:
        if args.game:
            try:
                game_ids = [UUID(args.game)]
                log.current_version(game_ids[0])
            except (ValueError, GameNotFoundError):
                err.print(f"no game {args.game}")
                return 1
        else:
            history = MatchHistory(log)
            if args.player:
                found = history.player(args.player)["games"]
            else:
                found = history.event_games(args.event)
                omitted += [
                    omission(k["game_id"], k["version"], k["reason"])
                    for k in history.skipped(event=args.event)
                ]
            game_ids = [UUID(row["game_id"]) for row in found]
        out = _open_output(args.output)
        written = 0
        try:
            with progress_bar(err) as bar:
                task = bar.add_task("exporting games", total=len(game_ids))
                for gid in game_ids:
                    try:
                        records = log.all_records(gid)
                    except DamagedRecords as exc:
                        omitted.append(omission(str(gid), exc.version, exc.reason))
                        err.print(f"left out: {exc.message}")
                    else:
                        out.writelines(_export(records, fmt, args.viewer, first=written == 0))
                        written += 1
                    bar.advance(task)
            if not args.game:
                out.writelines(omitted_lines(omitted, fmt))
        finally:
            if out is not sys.stdout:
                out.close()
        err.print(f"{written} game(s) written to {args.output}")
        if omitted:
            err.print(f"{len(omitted)} game(s) left out: their stored events are damaged")
        return 1 if omitted else 0
    finally:
        log.close()


def _export(records: list[Record], fmt: str, viewer: str, *, first: bool) -> Iterator[str]:
    if fmt == "json":
        yield export_json_text(records, viewer)
    elif fmt == "ndjson":
        yield from export_ndjson(records, viewer)
    elif fmt == "csv":
        yield from export_csv(records, viewer)
    else:
        yield ("" if first else "\n") + export_transcript(records, viewer)


def import_command(args: argparse.Namespace) -> int:
    try:
        imported = import_game(Path(args.file).read_bytes())
    except (ExportFormatError, ImportRejected) as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    log = open_log(args.db)
    try:
        started = log.import_game(imported.records)
    except GameAlreadyExistsError as exc:
        print(f"refused: {exc.message}", file=sys.stderr)
        return 1
    finally:
        log.close()
    print(f"game {started.game_id} imported: {started.version} events")
    print("tokens (send as 'Authorization: Bearer <token>'):")
    for role, token in started.tokens.items():
        print(f"  {role:<6} {token}")
    return 0


def verify_file(path: str) -> dict[str, Any]:
    """The ``verify`` report of an export file: the chain, then (if it holds) the rules."""
    try:
        header, records = read_export(Path(path).read_bytes())
    except (ExportFormatError, UnicodeDecodeError) as exc:
        return {"ok": False, "checked": 0, "first_broken": None, "error": str(exc)}
    if not header.get("complete"):
        broken = {"version": 1, "reason": "incomplete_export"}
        return {"ok": False, "checked": 0, "first_broken": broken, "head": None}
    report: dict[str, Any] = dict(verify_records(records))
    if report["ok"]:
        try:
            replay_records(records)
        except ImportRejected as exc:
            report["ok"] = False
            report["first_broken"] = {"version": exc.version, "reason": exc.reason}
    return report


def verify_command(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.game is None):
        print("verify takes an export FILE or --game ID", file=sys.stderr)
        return 2
    if args.file is not None:
        report = verify_file(args.file)
    else:
        found = verify_stored(args.game, args.db)
        if found is None:
            print(f"no game {args.game}", file=sys.stderr)
            return 1
        report = found
    print(json.dumps(report, sort_keys=True))
    return 0 if report["ok"] else 1


def verify_stored(game_id: str, db: str | None) -> dict[str, Any] | None:
    """The ``verify`` report of a stored game (``GameLog.verify_game``), ``None`` if none."""
    log = open_log(db)
    try:
        return log.verify_game(UUID(game_id))
    except (ValueError, GameNotFoundError):
        return None
    finally:
        log.close()


def rebuild_command(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    log = open_log(args.db)
    try:
        with progress_bar(err) as bar:
            task = bar.add_task("rebuilding match histories", total=None)
            update: Callable[[int, int], None] = lambda done, total: bar.update(  # noqa: E731
                task, completed=done, total=total
            )
            history = MatchHistory(log)
            folded = history.rebuild(progress=update)
        err.print(f"match histories rebuilt: {folded} events folded")
        skipped = history.skipped()
        if skipped:
            err.print(f"{len(skipped)} game(s) left out (their stored events are damaged):")
        for k in skipped:
            err.print(f"  game {k['game_id']}: event {k['version']} ({k['reason']}: {k['detail']})")
        return 0
    finally:
        log.close()
