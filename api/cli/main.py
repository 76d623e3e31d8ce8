"""``munchlog``: record, replay and export Munchkin games (an event-sourced game log).

Where the data lives: every command uses the same instance folder, whatever the current
folder: ``$MUNCHLOG_INSTANCE`` if set, else ``$XDG_DATA_HOME/munchlog``, else
``~/.local/share/munchlog`` (:func:`instance_path`). It holds the SQLite database
``munchlog.sqlite`` and the generated organizer token. ``--db`` (a SQLite path or a
``postgresql://`` URL) or ``$MUNCHLOG_DATABASE_URL`` names another database. Commands that only
read (``export``, ``verify --game``, ``rebuild-projections``) never create a database: they
stop with ``munchlog: no database at <path>``.

``munchlog serve [--host --port --db --catalog --workers --threads]``
    Run the API (granian by default, ``--server gunicorn``; see ``api/ops/serving.py``) and print
    where its database is. The organizer token is taken from ``$MUNCHLOG_ORGANIZER_TOKEN``
    (then not printed: the output goes to logs) or generated once into
    ``<instance>/organizer_token`` (then printed, so the operator learns it).
``munchlog demo [--url URL --token T --seed N --db --catalog --ruleset R --seats N --actions N
--dealing table|server]``
    Record a complete sample game through the HTTP API (in this process, or against the server
    at ``--url``) and print the game id, URLs, tokens and the database it went into;
    ``--dealing server``: a game the server deals, every seat contributing a seed.
``munchlog worker [--db --poll-interval --report-every --batch-size]``
    Keep the projections (the match histories) up to date in this process, following the log
    until SIGTERM or SIGINT (``service/worker.py``); run one beside the app instances when they
    have ``MUNCHLOG_PROJECTIONS=worker``.

``munchlog publish --to URL --token T [--db --game ID --once]``
    Push this venue's records to a public server's mirror as they are recorded
    (``api/cli/publish.py``, ``service/publisher.py``; docs/operations.md).

Errors are one line on stderr (``munchlog: ...``) and a non-zero exit code: 2 for a wrong
input (a missing file or database, an unknown ruleset, a usage error), 1 when the command ran
and found something wrong (a game not found, a refused import, a broken chain).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
from collections.abc import Sequence
from typing import Any

from api.cli.common import CliError, database_label, database_url, instance_path
from api.cli.demo import CLASSIC_SEATS, DEALINGS, DEMO_RULESETS
from api.cli.demo import RULESET as DEMO_RULESET
from api.ops import serving
from api.settings import ensure_organizer_token
from service.histories import BATCH_SIZE
from service.worker import POLL_INTERVAL, REPORT_EVERY


def default_port() -> str:
    """``munchlog serve``'s port when ``--port`` is not given: ``$MUNCHLOG_PORT``, else 8000
    (the demo's links point there too)."""
    return os.environ.get("MUNCHLOG_PORT") or "8000"


def port_number(text: str) -> int:
    """A TCP port for argparse: a whole number from 0 to 65535 (0: none, where allowed).

    >>> port_number("8000")
    8000
    >>> port_number("70000")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '70000' is not a port (a whole number from 0 to 65535)
    """
    value = text.strip()
    if not value.isdigit() or int(value) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (a whole number from 0 to 65535)")
    return int(value)


def _config(args: argparse.Namespace) -> dict[str, Any]:
    config: dict[str, Any] = {"INSTANCE_PATH": instance_path()}
    if getattr(args, "db", None):
        config["MUNCHLOG_DATABASE_URL"] = args.db
    if getattr(args, "catalog", None):
        config["MUNCHLOG_CATALOG"] = args.catalog
    return config


def _database(db: str | None) -> str:
    from api.settings import database_env

    return database_label(database_env(database_url(db), instance_path()))


def _organizer_token() -> tuple[str, str]:
    token = os.environ.get("MUNCHLOG_ORGANIZER_TOKEN")
    if token:
        return token, "from MUNCHLOG_ORGANIZER_TOKEN"
    path = os.path.join(instance_path(), "organizer_token")
    token, created = ensure_organizer_token(instance_path())
    return token, ("generated into " if created else "read from ") + path


def _stream_port(args: argparse.Namespace) -> int:
    """The stream process's port (0: none): ``--stream-port`` if given (refused in one line
    if it is ``--port`` or taken); else the next port up, or, if that one is taken, any free
    port (printed with the rest), so that a second server beside the first still starts;
    none with ``--port 0``."""
    if args.stream_port is not None:
        if args.stream_port and args.stream_port == args.port:
            raise SystemExit(
                f"munchlog serve: the stream port must differ from --port {args.port}: choose "
                "another with --stream-port (0: no streams)"
            )
        if args.stream_port:
            serving.check_port(args.host, args.stream_port)
        return int(args.stream_port)
    if not args.port:
        return 0
    if args.port < 65535:
        try:
            serving.check_port(args.host, args.port + 1)
            return int(args.port + 1)
        except serving.PortInUse:
            pass
    with socket.socket() as probe:  # any free port
        probe.bind((args.host or "127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(args: argparse.Namespace) -> int:
    from api.ops.logs import configure_logging
    from api.ops.metrics import prepare_multiprocess_dir

    configure_logging()  # MUNCHLOG_LOG_FORMAT / _LEVEL checked before any worker starts
    serving.check_port(args.host, args.port)  # before the banner: a taken port is one line
    stream_port = _stream_port(args)
    token, origin = _organizer_token()
    # The workers build their apps from the environment (api/app.py's variables), after the
    # fork; api.ops.serving.worker_app drops the secrets from it again.
    os.environ["MUNCHLOG_INSTANCE"] = instance_path()
    if args.db:
        os.environ["MUNCHLOG_DATABASE_URL"] = args.db
    if args.catalog:
        os.environ["MUNCHLOG_CATALOG"] = os.path.abspath(args.catalog)
    # several processes (the workers, the stream process) answer /metrics for each other
    # through files (prometheus-client's multiprocess mode): a temporary directory unless
    # PROMETHEUS_MULTIPROC_DIR names one
    prepare_multiprocess_dir(args.workers + (1 if stream_port else 0))
    base = f"http://{args.host}:{args.port}"
    print(f"munchlog on {base}  (API docs: {base}/api/docs; server: {args.server})", flush=True)
    if stream_port:
        print(f"live streams on http://{args.host}:{stream_port} (docs/streams.md)", flush=True)
    print(f"database: {_database(args.db)}", flush=True)
    if os.environ.get("MUNCHLOG_ORGANIZER_TOKEN"):  # the operator has it: not into the logs
        print("organizer token (from MUNCHLOG_ORGANIZER_TOKEN; not printed)", flush=True)
    else:
        print(f"organizer token ({origin}):\n  {token}", flush=True)
    serving.run(
        server=args.server,
        host=args.host,
        port=args.port,
        workers=args.workers,
        threads=args.threads,
        access_log=not args.no_access_log,
        stream_port=stream_port,
    )
    return 0


def worker(args: argparse.Namespace) -> int:
    """``munchlog worker``: follow the log into the projections until SIGTERM or SIGINT."""
    import logging
    import signal
    import threading

    from api.cli.history import open_log
    from api.ops.logs import configure_logging
    from api.settings import load_rulesets
    from service.worker import ProjectionWorker

    configure_logging()
    load_rulesets(os.environ.get("MUNCHLOG_RULESETS"))
    stop = threading.Event()

    def stopping(signum: int, _frame: Any) -> None:
        logging.getLogger("munchlog.worker").info(
            "projection worker: %s received, stopping", signal.Signals(signum).name
        )
        stop.set()

    signal.signal(signal.SIGTERM, stopping)
    signal.signal(signal.SIGINT, stopping)
    log = open_log(args.db)
    try:
        ProjectionWorker(
            log,
            poll_interval=args.poll_interval,
            report_every=args.report_every,
            batch_size=args.batch_size,
        ).run(stop)
    finally:
        log.close()
    return 0


def demo(args: argparse.Namespace) -> int:
    from api.cli.demo import (
        DemoError,
        FlaskTransport,
        HttpTransport,
        Transport,
        demo_dealing,
        demo_seats,
        file_demo_dispute,
        record_demo_game,
    )
    from domain import DEFAULT_RULESET
    from domain.family import family_named

    try:  # the settings first: nothing is created for a demo that cannot run
        seats = demo_seats(args.ruleset, args.seats)
        dealing = demo_dealing(args.ruleset, args.dealing)
    except DemoError as exc:
        raise CliError(str(exc)) from None
    if args.actions is not None and args.actions < 0:
        raise CliError(f"--actions must be 0 or more, not {args.actions}")
    catalog = None
    if args.catalog and not args.url:
        try:
            catalog = family_named(DEFAULT_RULESET).load_catalog(args.catalog)
        except OSError as exc:
            raise CliError(f"cannot read the catalog {args.catalog}: {exc.strerror}") from None
        except (ValueError, LookupError, TypeError) as exc:
            raise CliError(f"the catalog {args.catalog} is not valid: {exc!r}") from None
    transport: Transport
    if args.url:
        token = args.token or os.environ.get("MUNCHLOG_ORGANIZER_TOKEN")
        if not token:
            raise CliError("--url needs --token (or MUNCHLOG_ORGANIZER_TOKEN)")
        transport = HttpTransport(args.url)
        base = args.url.rstrip("/")
        where = f"on {base}"
    else:
        from api.app import create_app

        token, _ = _organizer_token()
        config = _config(args)
        config["MUNCHLOG_ORGANIZER_TOKEN"] = token
        if catalog is not None:
            config["MUNCHLOG_CATALOG"] = catalog
        transport = FlaskTransport(create_app(config))
        base = f"http://127.0.0.1:{default_port()}"  # where `munchlog serve` will listen
        where = f"in {_database(args.db)}"
    try:
        result = record_demo_game(
            transport,
            token,
            seed=args.seed,
            catalog=catalog,
            ruleset=args.ruleset,
            seats=seats,
            max_actions=args.actions,
            dealing=dealing,
        )
        dispute = file_demo_dispute(transport, result)
    except DemoError as exc:
        raise CliError(f"the demo stopped: {exc}", 1) from None
    game = f"{base}/api/games/{result.game_id}"
    print(f"game {result.game_id}: {result.status}, winner {result.winner}, ", end="")
    print(f"{result.version} events from {result.actions} actions")
    print(f"  summary  {game}")
    print(f"  state    {game}/state")
    print(f"  log      {game}/events")
    print(f"  docs     {base}/api/docs")
    print(f"  export   {game}/export?format=text")
    if dealing == "server":
        print(f"  verify   {game}/verify  ({_dealing_line(result.dealing)})")
    print(f"  replay   {base}/games/{result.game_id}#token={result.tokens['judge']}")
    if dispute is not None:
        print(f"           (as the judge; turn 2 carries dispute {dispute} and its ruling)")
    else:
        print("           (as the judge; the game stopped before turn 2: no dispute filed)")
    if result.status != "finished":  # a game to go on with: at the table, in a browser
        for role, value in result.tokens.items():
            if role != "judge":
                print(f"  play {role:<6}{base}/games/{result.game_id}/play#token={value}")
    print("tokens (send as 'Authorization: Bearer <token>'):")
    for role, value in result.tokens.items():
        print(f"  {role:<6} {value}")
    if args.url:
        print(f"recorded {where}")
    else:
        print(f"recorded {where}; run `munchlog serve` to browse it")
    return 0


def _dealing_line(checked: dict[str, Any] | None) -> str:
    """A server-dealt demo game's ``/verify`` ``dealing`` in words (``None``: not over).

    >>> _dealing_line({"ok": True, "complete": True, "checked": 9, "operations": 9})
    'the server dealt: verified, 9 of 9 shuffles and rolls re-derived'
    >>> _dealing_line(None)
    'the server deals: its secret is revealed at the end'
    """
    if checked is None:
        return "the server deals: its secret is revealed at the end"
    verdict = "verified" if checked.get("ok") and checked.get("complete") else "NOT verified"
    done, total = checked.get("checked"), checked.get("operations")
    return f"the server dealt: {verdict}, {done} of {total} shuffles and rolls re-derived"


DB_HELP = "SQLite file path or postgresql:// URL (default: munchlog.sqlite in the instance folder)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="munchlog",
        description="Record, replay and export Munchkin games: an event-sourced game log.",
        epilog=f"Data: the instance folder {instance_path()} ($MUNCHLOG_INSTANCE, else "
        "$XDG_DATA_HOME/munchlog, else ~/.local/share/munchlog) holds the SQLite database "
        "munchlog.sqlite and the organizer token; --db or $MUNCHLOG_DATABASE_URL names another "
        "database (a SQLite path or a postgresql:// URL).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("serve", help="run the HTTP API")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=port_number,
        default=default_port(),  # text from the environment: argparse applies type= to it
        help="port to listen on (default $MUNCHLOG_PORT, else 8000)",
    )
    p.add_argument("--db", help=DB_HELP)
    p.add_argument("--catalog", help="card catalog JSON (default: the sample catalog)")
    p.add_argument(
        "--server",
        choices=serving.SERVERS,
        default=serving.DEFAULT_SERVER,
        help=f"HTTP server (default {serving.DEFAULT_SERVER}; see api/ops/serving.py)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=serving.WORKERS,
        help=f"worker processes (default {serving.WORKERS})",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=serving.THREADS,
        help=f"threads per worker (default {serving.THREADS}; see api/ops/serving.py "
        "and bench/RESULTS.md)",
    )
    p.add_argument("--no-access-log", action="store_true", help="do not log each request")
    p.add_argument(
        "--stream-port",
        type=port_number,
        help="port of the live streams' process (default: --port + 1; 0: none; docs/streams.md)",
    )
    p.set_defaults(func=serve)

    w = sub.add_parser(
        "worker", help="keep the match histories up to date (MUNCHLOG_PROJECTIONS=worker)"
    )
    w.add_argument("--db", help=DB_HELP)
    w.add_argument(
        "--poll-interval",
        type=float,
        default=POLL_INTERVAL,
        help=f"seconds between looks at a SQLite log (default {POLL_INTERVAL}; "
        "PostgreSQL notifies)",
    )
    w.add_argument(
        "--report-every",
        type=float,
        default=REPORT_EVERY,
        help=f"seconds between progress lines (default {REPORT_EVERY:.0f})",
    )
    w.add_argument(
        "--batch-size",
        type=int,
        default=BATCH_SIZE,
        help=f"notifications folded per transaction at most (default {BATCH_SIZE})",
    )
    w.set_defaults(func=worker)

    d = sub.add_parser("demo", help="record a complete sample game through the API")
    d.add_argument("--url", help="a running server (default: an app in this process)")
    d.add_argument("--token", help="the server's organizer token (with --url)")
    d.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the demo's choices (default 0): the same seed plays the same game",
    )
    d.add_argument("--db", help=DB_HELP + " (in-process only)")
    d.add_argument("--catalog", help="card catalog JSON (in-process only)")
    d.add_argument(
        "--ruleset",
        default=DEMO_RULESET,
        help=f"{', '.join(DEMO_RULESETS)} (default {DEMO_RULESET})",
    )
    d.add_argument(
        "--seats",
        type=int,
        help=f"a classic game's seats, 3 to 6 (default {CLASSIC_SEATS}); "
        f"{DEMO_RULESET} always has 2",
    )
    d.add_argument(
        "--actions", type=int, help="stop after this many actions (default: when the game is over)"
    )
    d.add_argument(
        "--dealing",
        choices=DEALINGS,
        default="table",
        help="table (default: the seats say every card drawn and die rolled) or server (the "
        f"server deals from every seat's seed; {DEMO_RULESET} only for now)",
    )
    d.set_defaults(func=demo)

    from api.cli.history import add_history_commands  # export, import, verify, rebuild (#5)

    add_history_commands(sub)
    from api.cli.publish import add_publish_command  # a venue's mirror (#41)

    add_publish_command(sub, DB_HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from domain.family import load_families

    args = build_parser().parse_args(argv)
    load_families()  # the app registers the installed game families first
    try:
        return int(args.func(args))
    except CliError as exc:
        print(f"munchlog: {exc.message}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:  # Ctrl-C in a long export or verify (serve and worker stop on
        print("munchlog: interrupted", file=sys.stderr)  # their own signal handlers)
        return 130
    except BrokenPipeError:  # `munchlog verify big.ndjson | head`: the reader has gone
        with contextlib.suppress(OSError, ValueError):  # stdout to nowhere: no second
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # error at exit
        return 1


if __name__ == "__main__":
    sys.exit(main())
