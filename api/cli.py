"""The ``munchlog`` console script.

``munchlog serve [--host --port --db --catalog --workers --threads]``
    Run the API (granian by default, ``--server gunicorn``; see ``api/serving.py``). Storage: SQLite in the instance folder (``./instance`` or
    ``$MUNCHLOG_INSTANCE``) unless ``--db`` (a path or ``postgresql://`` URL) or
    ``$MUNCHLOG_DATABASE_URL`` says otherwise. The organizer token is taken from
    ``$MUNCHLOG_ORGANIZER_TOKEN`` (then not printed: the output goes to logs) or generated once
    into ``<instance>/organizer_token`` (then printed, so the operator learns it).
``munchlog demo [--url URL --token T --seed N --db --catalog --ruleset R --seats N --actions N]``
    Record a complete sample game through the HTTP API (in this process, or against the server
    at ``--url``) and print the game id, URLs and tokens.
``munchlog worker [--db --poll-interval --report-every]``
    Keep the projections (the match histories) up to date in this process, following the log
    until SIGTERM or SIGINT (``service/worker.py``); run one beside the app instances when they
    have ``MUNCHLOG_PROJECTIONS=worker``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from api import serving
from api.auth import ensure_organizer_token
from service.histories import BATCH_SIZE
from service.worker import POLL_INTERVAL, REPORT_EVERY


def _config(args: argparse.Namespace) -> dict[str, Any]:
    config: dict[str, Any] = {"INSTANCE_PATH": _instance_path()}
    if getattr(args, "db", None):
        config["MUNCHLOG_DATABASE_URL"] = args.db
    if getattr(args, "catalog", None):
        config["MUNCHLOG_CATALOG"] = args.catalog
    return config


def _instance_path() -> str:
    return os.path.abspath(os.environ.get("MUNCHLOG_INSTANCE") or "instance")


def _organizer_token() -> tuple[str, str]:
    token = os.environ.get("MUNCHLOG_ORGANIZER_TOKEN")
    if token:
        return token, "from MUNCHLOG_ORGANIZER_TOKEN"
    path = os.path.join(_instance_path(), "organizer_token")
    token, created = ensure_organizer_token(_instance_path())
    return token, ("generated into " if created else "read from ") + path


def serve(args: argparse.Namespace) -> int:
    from api.logs import configure_logging
    from api.metrics import prepare_multiprocess_dir

    configure_logging()  # MUNCHLOG_LOG_FORMAT / _LEVEL checked before any worker starts
    token, origin = _organizer_token()
    # The workers build their apps from the environment (api/app.py's variables), after the
    # fork; api.serving.worker_app drops the secrets from it again.
    os.environ["MUNCHLOG_INSTANCE"] = _instance_path()
    if args.db:
        os.environ["MUNCHLOG_DATABASE_URL"] = args.db
    if args.catalog:
        os.environ["MUNCHLOG_CATALOG"] = os.path.abspath(args.catalog)
    # several workers answer /metrics for each other through files (prometheus-client's
    # multiprocess mode): a temporary directory unless PROMETHEUS_MULTIPROC_DIR names one
    prepare_multiprocess_dir(args.workers)
    base = f"http://{args.host}:{args.port}"
    print(f"munchlog on {base}  (API docs: {base}/api/docs; server: {args.server})", flush=True)
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
    )
    return 0


def worker(args: argparse.Namespace) -> int:
    """``munchlog worker``: follow the log into the projections until SIGTERM or SIGINT."""
    import logging
    import signal
    import threading

    from api.app import load_rulesets
    from api.cli_history import open_log
    from api.logs import configure_logging
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
        ProjectionWorker(log, poll_interval=args.poll_interval, report_every=args.report_every).run(
            stop
        )
    finally:
        log.close()
    return 0


def demo(args: argparse.Namespace) -> int:
    from api.demo import (
        FlaskTransport,
        HttpTransport,
        Transport,
        file_demo_dispute,
        record_demo_game,
    )
    from domain import Catalog

    transport: Transport
    if args.url:
        token = args.token or os.environ.get("MUNCHLOG_ORGANIZER_TOKEN")
        if not token:
            print("--url needs --token (or MUNCHLOG_ORGANIZER_TOKEN)", file=sys.stderr)
            return 2
        transport = HttpTransport(args.url)
        base = args.url.rstrip("/")
    else:
        from api.app import create_app

        token, _ = _organizer_token()
        config = _config(args)
        config["MUNCHLOG_ORGANIZER_TOKEN"] = token
        transport = FlaskTransport(create_app(config))
        base = "http://127.0.0.1:8000"
    catalog = Catalog.load(args.catalog) if args.catalog and not args.url else None
    result = record_demo_game(
        transport,
        token,
        seed=args.seed,
        catalog=catalog,
        ruleset=args.ruleset,
        seats=args.seats,
        max_actions=args.actions,
    )
    dispute = file_demo_dispute(transport, result)
    game = f"{base}/api/games/{result.game_id}"
    print(f"game {result.game_id}: {result.status}, winner {result.winner}, ", end="")
    print(f"{result.version} events from {result.actions} actions")
    print(f"  summary  {game}")
    print(f"  state    {game}/state")
    print(f"  log      {game}/events")
    print(f"  docs     {base}/api/docs")
    print(f"  export   {game}/export?format=text")
    print(f"  replay   {base}/games/{result.game_id}#token={result.tokens['judge']}")
    print(f"           (as the judge; turn 2 carries dispute {dispute} and its ruling)")
    print("tokens (send as 'Authorization: Bearer <token>'):")
    for role, value in result.tokens.items():
        print(f"  {role:<6} {value}")
    if not args.url:
        print("recorded in this machine's store; run `munchlog serve` to browse it")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="munchlog", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("serve", help="run the HTTP API")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", help="SQLite file path or postgresql:// URL")
    p.add_argument("--catalog", help="card catalog JSON (default: the sample catalog)")
    p.add_argument(
        "--server",
        choices=serving.SERVERS,
        default=serving.DEFAULT_SERVER,
        help=f"HTTP server (default {serving.DEFAULT_SERVER}; see api/serving.py)",
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
        help=f"threads per worker (default {serving.THREADS}; see api/serving.py "
        "and bench/RESULTS.md)",
    )
    p.add_argument("--no-access-log", action="store_true", help="do not log each request")
    p.set_defaults(func=serve)

    w = sub.add_parser(
        "worker", help="keep the match histories up to date (MUNCHLOG_PROJECTIONS=worker)"
    )
    w.add_argument("--db", help="SQLite file path or postgresql:// URL")
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
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--db", help="SQLite file path or postgresql:// URL (in-process only)")
    d.add_argument("--catalog", help="card catalog JSON (in-process only)")
    d.add_argument(
        "--ruleset",
        default="munchkin-ccg",
        help="munchkin-ccg (default), munchkin-deluxe, munchkin-old-west or munchkin-age-of-sigmar",
    )
    d.add_argument("--seats", type=int, default=4, help="a classic game's seats, 3 to 6")
    d.add_argument(
        "--actions", type=int, help="stop after this many actions (default: when the game is over)"
    )
    d.set_defaults(func=demo)

    from api.cli_history import add_history_commands  # export, import, verify, rebuild (#5)

    add_history_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
