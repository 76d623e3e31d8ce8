"""``munchlog publish --to <public url> --token <mirror token> [--db] [--game ID ...] [--event ID ...]
[--once]``:
push this venue's records to a public server's mirror as they are recorded
(:mod:`service.publisher`; the mirror: ``POST /api/mirrors`` on the public server, issue #41).

``--to`` defaults to ``$MUNCHLOG_PUBLISH_TO`` and ``--token`` to ``$MUNCHLOG_PUBLISH_TOKEN``;
the token names its mirror (it starts with the ``mirror_id``). It runs until SIGTERM or SIGINT (``--once``: until it has sent
everything recorded so far), one progress line a batch.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from typing import Any

from api.cli.common import CliError
from service.mirrors import mirror_of_token
from service.publisher import LinkDown, Publisher, PublishRefused

#: Seconds an answer may take before the link counts as down.
TIMEOUT = 10.0


def http_send(base_url: str, token: str, timeout: float = TIMEOUT) -> Any:
    """A :data:`service.publisher.Send` to ``base_url`` with the mirror's ``token``."""
    import requests

    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"

    def send(method: str, path: str, body: Any) -> tuple[int, Any]:
        try:
            response = session.request(
                method, base_url.rstrip("/") + path, json=body, timeout=timeout
            )
        except requests.RequestException as exc:
            raise LinkDown(type(exc).__name__) from None
        try:
            return response.status_code, response.json()
        except ValueError:
            return response.status_code, None

    return send


def publish(args: argparse.Namespace) -> int:
    from api.cli.history import open_log
    from api.settings import load_rulesets

    to = args.to or os.environ.get("MUNCHLOG_PUBLISH_TO")
    token = args.token or os.environ.get("MUNCHLOG_PUBLISH_TOKEN")
    if not (to and token):
        raise CliError("publish needs --to and --token (or MUNCHLOG_PUBLISH_TO, _TOKEN)")
    mirror = mirror_of_token(token)
    if not mirror:
        raise CliError("--token is not a mirror's token (POST /api/mirrors answers one)")
    load_rulesets(os.environ.get("MUNCHLOG_RULESETS"))
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    log = open_log(args.db, create=False)

    def say(line: str) -> None:
        print(line, flush=True)

    events = [_event_here(log, named) for named in args.event or ()]
    publisher = Publisher(
        log, http_send(to, token), mirror, games=args.game or (), events=events, say=say
    )
    try:
        publisher.run(stop, once=args.once)
    except PublishRefused as exc:
        raise CliError(f"the public server refused the venue's records: {exc}", 1) from None
    finally:
        log.close()
    print(f"publish: {publisher.published} records published", file=sys.stdout)
    return 0


def _event_here(log: Any, named: str) -> str:
    """``named`` if it is an event of this venue's log, else a :class:`CliError` saying so."""
    from uuid import UUID

    from domain.tournament.aggregate import Tournament

    try:
        found = log.store.load(UUID(named))
    except Exception:  # not a UUID, or no such aggregate
        found = None
    if not isinstance(found, Tournament):
        log.close()
        raise CliError(f"--event {named}: no such event on this venue's database")
    return str(found.id)


def add_publish_command(sub: Any, db_help: str) -> None:
    p = sub.add_parser("publish", help="push this venue's records to a public server's mirror")
    p.add_argument("--to", help="the public server's URL (default $MUNCHLOG_PUBLISH_TO)")
    p.add_argument("--token", help="the mirror's token (default $MUNCHLOG_PUBLISH_TOKEN)")
    p.add_argument("--db", help=db_help)
    p.add_argument("--game", action="append", help="publish only this game (repeatable)")
    p.add_argument(
        "--event", action="append", help="publish only this event and its games (repeatable)"
    )
    p.add_argument("--once", action="store_true", help="stop once everything is sent")
    p.set_defaults(func=publish)
