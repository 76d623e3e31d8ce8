"""``munchlog`` subcommands of the match histories; wired in by :mod:`api.cli.main`.

``munchlog export (--game ID | --player NAME | --event ID|NAME) [--format F] -o FILE [--as V]``
    ``--event`` with an event's id (or the name of exactly one event; a name two events share is
    refused, naming both) writes the event's export as ``GET /api/events/<id>/export`` gives
    it, ``json`` (default) or ``text``, as the judge (complete: every game's chain checkable),
    ``organizer`` or ``spectator`` (public information). A name no event has: the games with
    that event label, as below.
    Write exports straight from the store (``-o -`` for stdout), with a progress bar on stderr.
    One game: ``json`` (default), ``ndjson``, ``csv`` or ``text``; several games: ``ndjson``
    (default; a header line starts each game) or ``text`` (transcripts one after another). The
    operator has the database, so the default viewer is ``judge`` (complete, importable
    exports); ``--as organizer`` gives the public view. A game whose stored events are damaged
    is left out and named on stderr and at the end of the file (as ``GET /api/exports`` does);
    the exit code is then 1. No game found: one line, exit code 1, no file written.
``munchlog import FILE``
    Verify (hash chain, every event replayed) and store a complete export as a new game under
    its own id; prints the id and the new tokens. A multi-game NDJSON export stores each of its
    games, one line each (id, events, tokens), or none if one is refused. Exit code 1 if
    refused.
``munchlog verify FILE`` / ``munchlog verify --game ID [--db URL]`` / ``... --json``
    Check an export offline, or a stored game (every row read on its own, its snapshots too, as
    ``GET /api/games/<id>/verify`` does), and print one line a game for people
    (``api.cli.verify_lines``): its players and where it was played, then ``verified`` with what
    was checked, ``BROKEN at event N`` with what is wrong there in words, ``not checked`` for a
    game exported without hashes (whose export it is: only the judge's is complete) or ``left
    out of this export``; a summary line after several games; a progress bar above the lines
    for a long file on a terminal. ``--json`` prints instead, a line a game, ``{"ok",
    "checked", "first_broken", "head", "problems", "dealing"}`` (``first_broken`` is
    ``{"version", "reason"}`` of the earliest problem of the chain, the rules or the dealing,
    ``"dealing_mismatch"``; ``problems`` lists every problem of the chain; ``dealing`` is
    ``domain.fair_check.verify`` of the events before the first broken one (by the chain or the
    rules): a server-dealt game's commitments, reveals, counters, piles (docs/dealing.md "What
    verify checks") and every shuffle and roll re-derived, its ``first_mismatch`` naming the
    event, ``{"version", "type", "reason"}``); a file's report also has ``game_id`` (a game the
    export says it left out: ``"left_out": true``). Exit code 0 when every game is verified,
    else 1. An event's export (``GET /api/events/<id>/export``) is checked whole, one line per
    finding (``api.cli.events``).
``munchlog rebuild-projections``
    Drop the match-history projection and fold the whole notification log again, with a
    progress bar of the notifications read; games it had to leave out (damaged stored events)
    are listed on stderr.

Every command but ``verify FILE`` takes ``--db`` (a SQLite path or ``postgresql://`` URL; default
``$MUNCHLOG_DATABASE_URL``, else ``munchlog.sqlite`` in the instance folder:
:func:`api.cli.main.instance_path`). ``export``, ``verify --game`` and ``rebuild-projections`` only
open a database that exists (``munchlog: no database at <path>``, exit code 2); "not found"
lines name the database.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any
from uuid import UUID

from rich.console import Console

from api.cli.common import CliError, database_label, database_url, instance_path, progress_bar
from api.cli.events import event_export_in, event_named, verify_event_file, write_event_export
from api.cli.verify_lines import Lines, events_in, game_line, summary_line
from api.settings import database_env
from domain.envelope import DamagedRecords, Record
from domain.game import Game
from projections.exports import (
    ExportFormatError,
    ImportedGame,
    ImportRejected,
    export_csv,
    export_json_text,
    export_ndjson,
    export_transcript,
    import_game,
)
from projections.exports.completeness import (
    event_leaves_out,
    export_line,
    game_leaves_out,
    whose_event_export,
    whose_game_export,
)
from projections.exports.formats import omission, omitted_lines, parse_exports
from projections.exports.verify import verify_game_export
from projections.views import VIEWERS
from service.errors import GameAlreadyExistsError, GameNotFoundError
from service.games import GameLog, StartedGame
from service.histories import MatchHistory

FORMATS = ("json", "ndjson", "csv", "text")
MULTI_GAME_FORMATS = ("ndjson", "text")


def add_history_commands(sub: Any) -> None:
    """Add ``export``, ``import``, ``verify`` and ``rebuild-projections`` to ``munchlog``."""
    db_help = (
        "SQLite file path or postgresql:// URL (default: munchlog.sqlite in the instance folder)"
    )
    e = sub.add_parser("export", help="export games (one, a player's, an event's) to a file")
    which = e.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", help="a game id")
    which.add_argument("--player", help="every game of this player (either seat)")
    which.add_argument(
        "--event",
        help="an event's id or name: its export as GET /api/events/<id>/export gives it "
        "(json or text); a name no event has: every game with this event label",
    )
    e.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="default json for --game, ndjson for --player/--event (several games: ndjson or text)",
    )
    e.add_argument("-o", "--output", required=True, help="a file, or - for stdout")
    e.add_argument(
        "--as",
        dest="viewer",
        choices=VIEWERS,
        default="judge",
        help="whose view (default judge: complete, importable; organizer: the public view)",
    )
    e.add_argument("--db", help=db_help)
    e.set_defaults(func=export_command)

    i = sub.add_parser("import", help="store a complete export (one game or several) as new games")
    i.add_argument("file", help="a complete export: JSON, or NDJSON of one game or several")
    i.add_argument("--db", help=db_help)
    i.set_defaults(func=import_command)

    v = sub.add_parser(
        "verify", help="check an export (a game's or an event's) offline, or a stored game"
    )
    v.add_argument(
        "file",
        nargs="?",
        help="an export (JSON, or NDJSON of one game or several), or an event's JSON export",
    )
    v.add_argument("--game", help="a stored game's id instead: check its rows in the store")
    v.add_argument("--db", help=db_help + " (with --game)")
    v.add_argument(
        "--json",
        action="store_true",
        help="for programs: each game's report as one JSON object a line (an event's: one "
        "object) instead of lines for people",
    )
    v.set_defaults(func=verify_command)

    r = sub.add_parser("rebuild-projections", help="rebuild the match histories from scratch")
    r.add_argument("--db", help=db_help)
    r.set_defaults(func=rebuild_command)


def database_of(db: str | None) -> dict[str, str]:
    """The eventsourcing settings of ``--db`` (or the environment's / the instance folder's
    database)."""
    return database_env(database_url(db), instance_path())


def open_log(db: str | None, *, create: bool = True) -> GameLog:
    """The GameLog of ``--db`` (or the environment's / the instance folder's database).

    ``create=False`` (the commands that read): a SQLite file that does not exist is not
    created, :class:`CliError` ``no database at <path>`` instead. A database that cannot be
    opened is a :class:`CliError` too."""
    env = database_of(db)
    label = database_label(env)
    if "SQLITE_DBNAME" in env:
        path = Path(env["SQLITE_DBNAME"])
        if not create and not path.is_file():
            hint = "--db" if db else "--db, $MUNCHLOG_DATABASE_URL or $MUNCHLOG_INSTANCE"
            raise CliError(f"no database at {label} (name the right one with {hint})")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliError(f"cannot create the database {label}: {exc.strerror}") from None
    try:
        return GameLog(env)
    except Exception as exc:  # a driver's error (not a database, refused, ...): one line
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CliError(f"cannot open the database {label}: {reason}") from None


def _say(line: str) -> None:
    """One line on stderr, as it is (no wrapping, no markup)."""
    print(line, file=sys.stderr, flush=True)


def _open_output(path: str) -> IO[str]:
    if path == "-":
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8", newline="")
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror}") from None


def _read_input(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None


def _game_id(text: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        raise CliError(f"not a game id: {text!r}") from None


def export_command(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    fmt = args.format or ("json" if args.game else "ndjson")
    gid = _game_id(args.game) if args.game else None
    log = open_log(args.db, create=False)
    database = database_label(database_of(args.db))
    omitted: list[dict[str, Any]] = []
    try:
        event = event_named(log, args.event, database) if args.event else None
        if event is not None:
            return _export_event(log, event, args, database)
        if gid is not None:
            try:
                log.current_version(gid)
            except GameNotFoundError:
                raise CliError(f"no game {gid} in {database}", 1) from None
            game_ids = [gid]
        else:
            if fmt not in MULTI_GAME_FORMATS:
                several = " or ".join(MULTI_GAME_FORMATS)
                raise CliError(f"several games export as {several}, not {fmt}")
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
            if not game_ids and not omitted:
                which = f"of player {args.player!r}" if args.player else f"of event {args.event!r}"
                raise CliError(f"no games {which} in {database}; nothing written", 1)
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
                        bar.console.print(
                            f"left out: {exc.message}",
                            markup=False,
                            highlight=False,
                            soft_wrap=True,
                        )
                    else:
                        out.writelines(_export(records, fmt, args.viewer, first=written == 0))
                        written += 1
                    bar.advance(task)
            if not args.game:
                out.writelines(omitted_lines(omitted, fmt))
        finally:
            if out is not sys.stdout:
                out.close()
        _say(f"{written} game(s) of {database} written to {args.output} (as {args.viewer})")
        if game_leaves_out(args.viewer):
            _say(export_line(whose_game_export(args.viewer), game_leaves_out(args.viewer)))
        if omitted:
            _say(f"{len(omitted)} game(s) left out: their stored events are damaged")
        return 1 if omitted else 0
    finally:
        log.close()


def _export_event(log: GameLog, event: Any, args: argparse.Namespace, database: str) -> int:
    """``--event`` naming an event: its export as the API gives it (``api.cli.events``)."""
    out = _open_output(args.output)
    try:
        write_event_export(log, event, args.format or "json", args.viewer, out)
    finally:
        if out is not sys.stdout:
            out.close()
    viewer = {"role": args.viewer, "player": None}
    delayed = bool(event.settings.get("spectator_delay"))
    leaves_out = event_leaves_out(viewer, delayed=delayed)
    _say(f"event {event.id} ({event.settings['name']}) of {database} written to {args.output}")
    _say(
        f"{export_line(whose_event_export(viewer), leaves_out)} (check it: munchlog verify {args.output})"
    )
    return 0


def _export(records: list[Record], fmt: str, viewer: str, *, first: bool) -> Iterator[str]:
    if fmt == "json":
        yield export_json_text(records, viewer)
    elif fmt == "ndjson":
        yield from export_ndjson(records, viewer)
    elif fmt == "csv":
        yield from export_csv(records, viewer)
    else:
        yield ("" if first else "\n") + export_transcript(records, viewer)


def _parse_file(path: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The games of the export at ``path`` and the games it says it left out
    (:func:`parse_exports`); :class:`ExportFormatError` if it is not an export."""
    data = _read_input(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExportFormatError(f"not UTF-8 text ({exc.reason})") from None
    return parse_exports(text)


def import_command(args: argparse.Namespace) -> int:
    try:
        games, omitted = _parse_file(args.file)
    except ExportFormatError as exc:
        raise CliError(f"refused: {args.file} is not a munchlog export: {exc}", 1) from None
    # every game is checked before any is stored: a refused file changes nothing
    checked: list[ImportedGame] = []
    refused: list[str] = []
    for number, game in enumerate(games, 1):
        name = f"game {game.get('game_id', f'#{number}')}"
        try:
            checked.append(import_game(game))
        except (ExportFormatError, ImportRejected) as exc:
            refused.append(f"{name}: {exc}")
    seen: set[str] = set()
    for imported in checked:
        gid = str(imported.records[0]["event"]["game_id"])
        if gid in seen:
            refused.append(f"game {gid}: twice in this export")
        seen.add(gid)
    env = database_of(args.db)
    database = database_label(env)
    if refused:  # before the database is opened: nothing is created for a refused file
        _refuse(refused, args.file, database, len(games))
    log = open_log(args.db)
    try:
        for gid in sorted(seen):
            try:  # an id that is no UUID (a log from another tool) is stored under a uuid5 of it
                log.current_version(Game.id_for_import(gid))
            except GameNotFoundError:
                continue
            refused.append(f"game {gid}: already in {database}")
        if refused:
            _refuse(refused, args.file, database, len(games))
        started: list[StartedGame] = []
        for imported in checked:
            try:
                started.append(log.import_game(imported.records))
            except GameAlreadyExistsError as exc:  # stored meanwhile by someone else
                raise CliError(f"refused: {exc.message}", 1) from None
    finally:
        log.close()
    if len(started) == 1 and not omitted:
        one = started[0]
        print(f"game {one.game_id} imported into {database}: {one.version} events")
        print("tokens (send as 'Authorization: Bearer <token>'):")
        for role, token in one.tokens.items():
            print(f"  {role:<6} {token}")
    else:
        for done in started:
            tokens = " ".join(f"{role}={token}" for role, token in done.tokens.items())
            print(f"game {done.game_id} imported: {done.version} events; tokens {tokens}")
        print(f"{len(started)} game(s) imported into {database}", file=sys.stderr)
    for entry in omitted:
        print(
            f"munchlog: game {entry.get('game_id')} is not in this export (left out: "
            f"event {entry.get('version')} {entry.get('reason')})",
            file=sys.stderr,
        )
    return 0


def _refuse(refused: list[str], path: str, database: str, games: int) -> None:
    """Stop a refused import: one line for a one-game file, else a line per refused game and
    one saying that none was stored."""
    if games == 1 and len(refused) == 1:
        raise CliError(f"refused: {refused[0]}", 1)
    for line in refused:
        print(f"munchlog: refused: {line}", file=sys.stderr)
    raise CliError(f"nothing imported from {path} into {database} ({games} games)", 1)


def verify_file(path: str) -> list[dict[str, Any]]:
    """The ``verify`` reports of an export file, one per game (its chain, then if it holds
    its rules), then one per game the export says it left out."""
    try:
        games, omitted = _parse_file(path)
    except ExportFormatError as exc:
        return [{"ok": False, "checked": 0, "first_broken": None, "error": str(exc)}]
    return [verify_game_export(game) for game in games] + _left_out(omitted)


def _left_out(omitted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``verify`` report of each game an export says it left out."""
    return [
        {
            "game_id": entry.get("game_id"),
            "ok": False,
            "checked": 0,
            "first_broken": {"version": entry.get("version"), "reason": entry.get("reason")},
            "head": None,
            "left_out": True,
        }
        for entry in omitted
    ]


def verify_in_words(path: str) -> int:
    """``munchlog verify FILE`` of games' exports: a line a game as it is checked, a summary
    line after several (``api.cli.verify_lines``), a progress bar on a terminal for a long
    file."""
    try:
        games, omitted = _parse_file(path)
    except ExportFormatError as exc:
        raise CliError(f"{path} is not a munchlog export: {exc}", 1) from None
    lines = Lines(events_in(games))
    reports: list[dict[str, Any]] = []
    try:
        for game in games:
            reports.append(verify_game_export(game))
            lines.say(game_line(game, reports[-1]), len(game["events"]))
        for report in _left_out(omitted):
            reports.append(report)
            lines.say(game_line(None, report))
    finally:
        lines.close()
    if len(reports) > 1:
        print(summary_line(reports, games))
    return 0 if all(report["ok"] for report in reports) else 1


def verify_command(args: argparse.Namespace) -> int:
    if (args.file is None) == (args.game is None):
        raise CliError("verify takes an export FILE or --game ID")
    if args.file is not None:
        event = event_export_in(args.file)
        if event is not None:  # an event's export: the event and every game in it
            return verify_event_file(args.file, event, as_json=args.json)
        if not args.json:
            return verify_in_words(args.file)
        reports = verify_file(args.file)
    else:
        reports = [verify_stored(args.game, args.db)]
        if not args.json:
            print(game_line(None, {"game_id": str(_game_id(args.game)), **reports[0]}))
    if args.json:
        for report in reports:
            print(json.dumps(report, sort_keys=True))
    return 0 if all(report["ok"] for report in reports) else 1


def verify_stored(game_id: str, db: str | None) -> dict[str, Any]:
    """The ``verify`` report of a stored game (``GameLog.verify_game``); :class:`CliError` if
    there is no database or no such game in it."""
    gid = _game_id(game_id)
    log = open_log(db, create=False)
    try:
        return log.verify_game(gid)
    except GameNotFoundError:
        raise CliError(f"no game {gid} in {database_label(database_of(db))}", 1) from None
    finally:
        log.close()


def rebuild_command(args: argparse.Namespace) -> int:
    err = Console(stderr=True)
    log = open_log(args.db, create=False)
    try:
        with progress_bar(err) as bar:
            task = bar.add_task("reading the log (notifications)", total=None)
            update: Callable[[int, int], None] = lambda done, total: bar.update(  # noqa: E731
                task, completed=done, total=total
            )
            history = MatchHistory(log)
            folded = history.rebuild(progress=update)
        games = len(history.rows())
        skipped = history.skipped()
        _say(
            f"match histories rebuilt from {database_label(database_of(args.db))}: "
            f"{history.position()} notifications read ({folded} game events), "
            f"{games} game(s), {len(skipped)} left out"
        )
        for k in skipped:
            _say(
                f"  left out: game {k['game_id']}: event {k['version']} ({k['reason']}: {k['detail']})"
            )
        return 0
    finally:
        log.close()
