"""The app factory: configuration, the one GameLog, and the blueprints of the JSON API
(``api/json_api/``), the pages (``api/pages/``) and operations (``api/ops/routes.py``) in one
Flask app, with its error handlers.

Configuration (a ``config`` mapping wins over the environment variable of the same name):

``MUNCHLOG_DATABASE_URL``
    ``postgresql://user[:password]@host[:port]/dbname[?schema=name]`` for PostgreSQL;
    ``sqlite:///path``, ``sqlite:relative/path`` or a plain file path for SQLite. Default: a
    SQLite file ``munchlog.sqlite`` in the instance folder.
``MUNCHLOG_CATALOG``
    a catalog JSON file (or a loaded catalog); each family loads its own from it
    (``Family.load_catalog``: the CCG's, its sample catalog by default).
``MUNCHLOG_RULESETS``
    more rulesets: comma-separated module names, each imported at app start (a module
    registers its ruleset with ``domain``), e.g. ``tests.rulesets.trio``. The Munchkin CCG is
    always there.
``MUNCHLOG_ORGANIZER_TOKEN``
    the organizer's token; default: generated once into ``<instance>/organizer_token`` (0600).
``MUNCHLOG_INSTANCE`` / ``INSTANCE_PATH``
    the instance folder; default :func:`default_instance_path` (``$XDG_DATA_HOME/munchlog``,
    else ``~/.local/share/munchlog``: never the current folder).
``EVENTSOURCING_ENV``
    extra eventsourcing settings (e.g. ``{"POSTGRES_POOL_SIZE": "10"}``).
``MAX_CONTENT_LENGTH``
    request body limit in bytes (default 1 MiB; larger bodies get 413).
``MUNCHLOG_HOTPATH``
    ``0`` serves ``POST /api/games/<id>/actions`` through Flask's routing only, without the
    recording hot path of ``api/json_api/hotpath.py`` (default ``1``; the answers are the same).
``MUNCHLOG_PROJECTIONS``
    who keeps the match histories: ``inline`` (default: every history read catches up first,
    in this process) or ``worker`` (``munchlog worker`` does, in its own process; reads serve
    what it has stored, ``/readyz`` reports how far behind that is).
``MUNCHLOG_READY_MAX_LAG``
    with ``worker``: ``/readyz`` answers 503 ``projection/lagging`` when the match histories
    are more than this many notifications behind the log (default: not checked).
``MUNCHLOG_DB_QUERY_TIMEOUT``
    seconds a statement may take (default 3; 0: no bound): PostgreSQL's ``statement_timeout``
    and ``lock_timeout``, and a server that does not answer at all is given up 1 s later; on
    SQLite, the busy timeout is 1 s less (at least 1). What it bounds: docs/operations.md, "A
    database that hangs" (``adapters/pg_writer.py``).
``MUNCHLOG_DB_NETWORK_TIMEOUT``
    seconds a PostgreSQL connection waits on a network that stopped answering (default 10).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from api.json_api import errors, hotpath
from api.json_api.jsonio import FastJSONProvider
from api.json_api.routes import (
    docs,
    event_calls,
    event_checkin,
    event_clock,
    event_exports,
    event_live,
    event_penalties,
    event_reports,
    event_staff,
    events,
    exports,
    games,
    judge,
    live,
    mirrors,
    rulesets,
)
from api.ops import metrics
from api.ops import routes as operations
from api.pages import event, floor, home, prints, table, viewer
from api.settings import (
    database_env,
    default_instance_path,
    ensure_organizer_token,
    load_rulesets,
)
from domain.game import token_hash
from service.games import GameLog

DEFAULT_MAX_CONTENT_LENGTH = 1024 * 1024


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask app and its GameLog from ``config`` (see the module docstring)."""
    config = dict(config or {})
    instance = (
        config.get("INSTANCE_PATH") or config.get("MUNCHLOG_INSTANCE") or default_instance_path()
    )
    app = Flask(__name__, instance_path=os.path.abspath(instance))
    app.json = FastJSONProvider(app)
    app.config.update(
        API_TITLE="munchlog",
        API_VERSION="0.1.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {
                "description": "Event-sourced game log for the Munchkin CCG. Errors always "
                'have the shape {"error": {"code", "message", "rule"?, "current_version"?, '
                '"fields"?}}; each operation lists the ones it can send. Reads are open to '
                "anyone (a bearer token, if sent, chooses what the caller may see); writes "
                "need one. No string may hold U+0000 or a lone surrogate, no JSON nest deeper "
                "than 32, no integer pass 64 bits (400 request/...)."
            },
            "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
        },
        MAX_CONTENT_LENGTH=DEFAULT_MAX_CONTENT_LENGTH,
        JSON_SORT_KEYS=False,
    )
    organizer_token = config.pop("MUNCHLOG_ORGANIZER_TOKEN", None) or os.environ.get(
        "MUNCHLOG_ORGANIZER_TOKEN"
    )
    app.config.update(config)
    app.config["MUNCHLOG_PROJECTIONS"] = projections_mode(_setting(app, "MUNCHLOG_PROJECTIONS"))
    app.config["MUNCHLOG_READY_MAX_LAG"] = max_lag(_setting(app, "MUNCHLOG_READY_MAX_LAG"))
    if not organizer_token:
        organizer_token, _ = ensure_organizer_token(app.instance_path)
    app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"] = token_hash(organizer_token)
    load_rulesets(_setting(app, "MUNCHLOG_RULESETS"))

    app.extensions["munchlog"] = GameLog(
        eventsourcing_env(app), catalog=_setting(app, "MUNCHLOG_CATALOG")
    )

    api = errors.MunchlogApi(app)
    api.register_blueprint(games.blp)
    api.register_blueprint(judge.blp)
    api.register_blueprint(exports.blp)
    api.register_blueprint(operations.blp)
    api.register_blueprint(live.blp)
    api.register_blueprint(events.blp)
    api.register_blueprint(event_penalties.blp)
    api.register_blueprint(event_staff.blp)
    api.register_blueprint(event_calls.blp)
    api.register_blueprint(event_reports.blp)
    api.register_blueprint(event_clock.blp)
    api.register_blueprint(event_checkin.blp)
    api.register_blueprint(event_live.blp)
    api.register_blueprint(event_exports.blp)
    api.register_blueprint(rulesets.blp)
    api.register_blueprint(mirrors.blp)
    app.register_blueprint(docs.bp)
    app.register_blueprint(viewer.bp)  # the pages: the replay viewer, the table, an event's
    app.register_blueprint(table.bp)
    app.register_blueprint(event.bp)
    app.register_blueprint(prints.bp)
    app.register_blueprint(floor.bp)
    app.register_blueprint(home.bp)
    errors.init_app(app)
    hotpath.install(app)
    metrics.install(app)  # outermost: it counts and times what the hot path answers too
    return app


PROJECTIONS = ("inline", "worker")


def projections_mode(value: Any) -> str:
    """``MUNCHLOG_PROJECTIONS``: ``inline`` (default) or ``worker``; ValueError otherwise."""
    mode = str(value or "inline").strip().lower()
    if mode not in PROJECTIONS:
        raise ValueError(f"MUNCHLOG_PROJECTIONS must be inline or worker, not {value!r}")
    return mode


def max_lag(value: Any) -> int | None:
    """``MUNCHLOG_READY_MAX_LAG``: a whole number of notifications, or None (unset)."""
    if value is None or str(value).strip() == "":
        return None
    try:
        found = int(str(value).strip())
    except ValueError:
        found = -1
    if found < 0:
        raise ValueError(f"MUNCHLOG_READY_MAX_LAG must be a whole number >= 0, not {value!r}")
    return found


def _setting(app: Flask, key: str) -> Any:
    value = app.config.get(key)
    return value if value is not None else os.environ.get(key)


def eventsourcing_env(app: Flask) -> dict[str, str]:
    """The eventsourcing settings for this app's store (SQLite default, PostgreSQL by URL)."""
    url = _setting(app, "MUNCHLOG_DATABASE_URL")
    env = database_env(url, app.instance_path)
    if "SQLITE_DBNAME" in env:
        Path(env["SQLITE_DBNAME"]).parent.mkdir(parents=True, exist_ok=True)
    env.update({k: str(v) for k, v in (app.config.get("EVENTSOURCING_ENV") or {}).items()})
    return env
