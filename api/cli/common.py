"""What every ``munchlog`` command shares: its error (:class:`CliError`), the instance folder
and the database it uses (:mod:`api.cli.main` and the history commands of :mod:`api.cli.history`
both import it, neither the other's module)."""

from __future__ import annotations

import os

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class CliError(Exception):
    """What went wrong, for one line on stderr (``munchlog: <message>``), and the exit code."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def instance_path() -> str:
    """The instance folder of every command: :func:`api.settings.default_instance_path`."""
    from api.settings import default_instance_path

    return default_instance_path()


def database_url(db: str | None) -> str | None:
    """The database a command uses: ``--db``, else ``$MUNCHLOG_DATABASE_URL``, else ``None``
    (the instance folder's SQLite file)."""
    return db or os.environ.get("MUNCHLOG_DATABASE_URL") or None


def database_label(env: dict[str, str]) -> str:
    """The database of eventsourcing settings ``env``, for people: a SQLite file's absolute
    path, or a PostgreSQL URL without its password.

    >>> database_label({"SQLITE_DBNAME": "/i/munchlog.sqlite"})
    '/i/munchlog.sqlite'
    >>> database_label({"POSTGRES_USER": "me", "POSTGRES_PASSWORD": "pw", "POSTGRES_HOST": "h",
    ...                 "POSTGRES_PORT": "5432", "POSTGRES_DBNAME": "d", "POSTGRES_SCHEMA": "s"})
    'postgresql://me@h:5432/d?schema=s'
    """
    if "SQLITE_DBNAME" in env:
        return os.path.abspath(env["SQLITE_DBNAME"])
    url = (
        f"postgresql://{env['POSTGRES_USER']}@{env['POSTGRES_HOST']}:{env['POSTGRES_PORT']}"
        f"/{env['POSTGRES_DBNAME']}"
    )
    return url + (f"?schema={env['POSTGRES_SCHEMA']}" if "POSTGRES_SCHEMA" in env else "")


def progress_bar(console: Console, *, transient: bool = False) -> Progress:
    """The commands' progress bar (rich's) on ``console``; ``transient``: gone once done."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=transient,
    )
