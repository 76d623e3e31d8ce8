"""munchlog's own logs: plain text or one JSON object a line, and never a token.

``MUNCHLOG_LOG_FORMAT``
    ``text`` (default): ``2026-11-24T10:00:00.123Z WARNING service.histories: message``;
    ``json``: ``{"time", "level", "logger", "message", ...}`` one object a line, with the
    record's ``extra`` fields as keys (the worker's progress line carries ``position``,
    ``head``, ``lag``, ``folded``) and ``exception`` when there is one. The access log
    (``api.ops.serving.AccessLog``) and granian's own lines follow the same setting.
``MUNCHLOG_LOG_LEVEL``
    ``INFO`` by default (``DEBUG``, ``WARNING``, ...).

:func:`configure_logging` installs one handler on the root logger, on stderr; ``munchlog
serve`` (each worker) and ``munchlog worker`` call it, :func:`api.app.create_app` does not (an
app in someone else's process keeps their logging).

**No tokens.** Tokens travel only in the ``Authorization`` header, which munchlog never logs,
and the query string is left out of the access log; tokens are stored only as hashes. As a
second line of defence both formats rewrite anything that looks like a credential in a line
(``Bearer <x>``, ``Authorization: <x>``, ``token=<x>``) to ``[redacted]``
(:func:`redact`); ``tests/api/test_operations.py`` records, fails and exports with every kind
of token and finds none in any log record.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
from typing import Any

FORMATS = ("text", "json")

#: What a credential looks like in a line of text; group 1 is kept, the rest redacted.
_SECRET = re.compile(
    r"(?i)(\bbearer\s+|authorization[\"']?\s*[:=]\s*[\"']?(?:\w+\s+)?|token[\"']?\s*[=:]\s*[\"']?)"
    r"[^\s\"',;&}]+"
)
#: The attributes every ``LogRecord`` has: anything else on a record came from ``extra``.
_STANDARD = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


def redact(text: str) -> str:
    """``text`` with anything that looks like a credential replaced by ``[redacted]``."""
    if "earer" not in text and "uthorization" not in text and "oken" not in text:
        return text  # the usual line: no regular expression
    return _SECRET.sub(r"\1[redacted]", text)


def utc_stamp(created: float) -> str:
    """``2026-11-24T10:00:00.123Z`` for a ``time.time()`` value."""
    return (
        time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created))
        + f".{int(created % 1 * 1000):03d}Z"
    )


class TextFormatter(logging.Formatter):
    """``<UTC time> <LEVEL> <logger>: <message>`` (and the traceback), redacted."""

    def format(self, record: logging.LogRecord) -> str:
        line = (
            f"{utc_stamp(record.created)} {record.levelname} {record.name}: {record.getMessage()}"
        )
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return redact(line)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC), ``level``, ``logger``, ``message``, the
    record's ``extra`` fields and ``exception`` (the traceback as text), redacted."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": utc_stamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out:
                out[key] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            out["exception"] = redact(self.formatException(record.exc_info))
        if record.stack_info:
            out["stack"] = redact(self.formatStack(record.stack_info))
        return json.dumps(out, default=str, ensure_ascii=False)


def log_format(value: str | None = None) -> str:
    """The configured format (``MUNCHLOG_LOG_FORMAT``); ``ValueError`` for an unknown one."""
    found = (
        value if value is not None else os.environ.get("MUNCHLOG_LOG_FORMAT") or "text"
    ).strip()
    if found.lower() not in FORMATS:
        raise ValueError(f"MUNCHLOG_LOG_FORMAT must be one of {', '.join(FORMATS)}, not {found!r}")
    return found.lower()


def formatter(fmt: str | None = None) -> logging.Formatter:
    return JsonFormatter() if log_format(fmt) == "json" else TextFormatter()


def configure_logging(
    fmt: str | None = None, level: str | None = None, stream: Any = None
) -> logging.Handler:
    """One handler on the root logger (replacing the one a previous call installed), writing
    to ``stream`` (stderr) in ``fmt`` (``MUNCHLOG_LOG_FORMAT``) from ``level``
    (``MUNCHLOG_LOG_LEVEL``, default INFO); returns it."""
    name = (level or os.environ.get("MUNCHLOG_LOG_LEVEL") or "INFO").strip().upper()
    numeric = logging.getLevelName(name)
    if not isinstance(numeric, int):
        raise ValueError(f"MUNCHLOG_LOG_LEVEL: no level {name!r}")
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(formatter(fmt))
    handler.set_name("munchlog")
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "munchlog"]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(numeric)
    return handler


def granian_log_config(fmt: str | None = None) -> dict[str, Any] | None:
    """granian's ``log_dictconfig`` for its own lines in the JSON format (None: its own)."""
    if log_format(fmt) != "json":
        return None
    return {
        "formatters": {
            "generic": {"()": "api.ops.logs.JsonFormatter"},
            "access": {"()": "api.ops.logs.JsonFormatter"},
        }
    }
