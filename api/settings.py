"""The settings every program of munchlog reads the same way, without Flask: the instance
folder, the database URL, the installed rulesets, the organizer's token file. ``munchlog``'s
commands other than ``serve`` and ``demo`` import only this (and the service), not the app:
about 0.3 s less of start-up a command (:mod:`api.app` imports them from here).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from domain.family import load_families

SQLITE_FILE = "munchlog.sqlite"
ORGANIZER_TOKEN_FILE = "organizer_token"


def default_instance_path(environ: Mapping[str, str] = os.environ) -> str:
    """The instance folder of the app and of every command: ``$MUNCHLOG_INSTANCE``, else
    ``$XDG_DATA_HOME/munchlog``, else ``~/.local/share/munchlog``; never the current folder.

    >>> default_instance_path({"MUNCHLOG_INSTANCE": "/srv/m", "XDG_DATA_HOME": "/d"})
    '/srv/m'
    >>> default_instance_path({"XDG_DATA_HOME": "/d"})
    '/d/munchlog'
    >>> default_instance_path({"XDG_DATA_HOME": "relative"}).endswith("/.local/share/munchlog")
    True
    """
    configured = environ.get("MUNCHLOG_INSTANCE")
    if configured:
        return os.path.abspath(os.path.expanduser(configured))
    data = environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(data):  # unset, or relative: the XDG spec says to ignore it
        data = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(data, "munchlog")


def database_env(url: str | None, instance_path: str) -> dict[str, str]:
    """Map a database URL (or file path) to eventsourcing's environment keys.

    >>> database_env("postgresql://me@db:5433/games?schema=t1", "/i")["POSTGRES_SCHEMA"]
    't1'
    >>> database_env(None, "/i")["SQLITE_DBNAME"]
    '/i/munchlog.sqlite'
    >>> database_env("sqlite:///tmp/x.sqlite", "/i")["SQLITE_DBNAME"]
    '/tmp/x.sqlite'
    """
    if url and url.split(":", 1)[0] in ("postgresql", "postgres"):
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or "postgres",
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": unquote(parts.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parts.password or ""),
        }
        if "schema" in query:
            env["POSTGRES_SCHEMA"] = query["schema"][0]
        return env
    if url and url.startswith("sqlite:"):
        path = url.removeprefix("sqlite:")
        path = path[2:] if path.startswith("//") else path  # sqlite:///abs/file, sqlite:file
    else:
        path = url or os.path.join(instance_path, SQLITE_FILE)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": path,
    }


def load_rulesets(value: str | None) -> None:
    """Register the installed game families, then import each module named in ``value``
    (comma-separated); each registers its ruleset (``domain.family.load_families``)."""
    load_families(value)


def ensure_organizer_token(instance_path: str | os.PathLike[str]) -> tuple[str, bool]:
    """The organizer token kept in the instance folder, created (mode 0600) if missing.

    Returns ``(token, created)``. Safe when several processes start at once: the file is
    created exclusively, and a loser reads the winner's token.
    """
    folder = Path(instance_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ORGANIZER_TOKEN_FILE
    token = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="utf-8").strip(), False
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token + "\n")
    return token, True
