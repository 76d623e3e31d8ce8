"""How munchlog is served: ``munchlog serve`` and the documented production command.

**granian** (a Rust HTTP server with a WSGI interface) is the default; **gunicorn** (gthread)
stays available as ``munchlog serve --server gunicorn``. Measured for munchlog's own workload in
``bench/RESULTS.md`` ("Choosing the server"): on the same 2-core machine, in one run, granian
recorded 1.5-2.4x the actions per second of gunicorn gthread with the same workers and threads,
with a lower p99, because it parses HTTP and waits on sockets in Rust threads that do not hold the
GIL, where gunicorn does that work in Python.

The production command (what ``munchlog serve`` runs)::

    MUNCHLOG_ACCESS_LOG=1 MUNCHLOG_THREADS=4 granian --interface wsgi --factory --workers 2 \\
        --blocking-threads 260 --workers-kill-timeout 30 --host 0.0.0.0 --port 8000 \\
        api.ops.serving:worker_app

(4 app threads a worker, ``MUNCHLOG_THREADS``, and :data:`BODY_READERS` more that may wait
for request bodies: ``--blocking-threads`` is their sum.) ``munchlog serve`` first claims its
port and checks that nothing listens on it (:func:`check_port`): granian's ``SO_REUSEPORT``
would otherwise let a second server share it. How its processes live and die together (none
outlives ``serve``, whatever kills it; the stream process is restarted): :mod:`api.ops.processes`.

Whichever server runs, these hold (each is tested):

* **One app per worker process, built after the fork** (:func:`worker_app` is the target each
  worker loads), so each process has its own cache of games, its own database connections, its
  own group commit (``adapters/sqlite_writer.GroupCommit``: the batches that queue up in one
  process's threads while another process writes go to disk in one transaction); the writer
  lock's and group commit's per-process state is also reset by an at-fork hook.
* **Every worker queues on the SQLite writer lock** (``adapters/sqlite_writer.WriterLock``, an
  ``flock`` on a file beside the database), so writers never sleep in SQLite's busy handler.
* **A 1 ms GIL switch interval** in each worker (Python's default is 5 ms): a thread that has
  committed and still holds the writer lock gets the GIL back sooner to release it.
* **The keep-alive spread** (:class:`SpreadKeepAlive`): every :data:`KEEPALIVE_REQUESTS`-th
  response of a worker carries ``Connection: close``. The kernel hands a table's long-lived
  connection to whichever worker accepts first, and 8 tables could sit 7:1 on two workers, one
  core setting the pace for seven; a client that is told to close reconnects, and the idle
  worker is the quicker to accept. (As nginx's ``keepalive_requests``; neither server has the
  setting. Counted per process rather than per connection because WSGI does not say which
  connection a request came on; the effect is the same on average: a connection lives about
  1,000 requests, nginx's default.) Not fewer: a connection that moves finds a copy of its game
  in the other worker's cache that is as old as the last time that worker served it, which
  costs the first batch a conflict and the game a fold from its latest snapshot
  (``bench/RESULTS.md``: every 100th response recorded 0.81 of the bare endpoint, every
  1,000th 0.96, in one run).
* **No tokens in access logs**: tokens travel only in the ``Authorization`` header, which no
  access log here prints (:class:`AccessLog` logs the path without its query string, as
  ``api/ops/gunicorn_conf.py``'s format does for gunicorn); and the
  secrets munchlog reads from the environment are removed from each worker's environment once
  the app is built (:data:`SECRET_ENV`), because granian copies the process environment into
  every request's WSGI environ.
* **Graceful shutdown**: on SIGTERM or SIGINT the workers stop accepting, finish the requests
  in flight (up to :data:`GRACEFUL_TIMEOUT` seconds) and exit. A write is acknowledged only
  after its transaction is committed (``synchronous=FULL`` on SQLite), so even ``kill -9``
  loses no acknowledged write.
* **Slow clients do not hold an app thread**: granian reads headers on its Rust runtime and
  calls the app only once they are complete; the body it hands over as a stream that the
  runtime fills as the client sends it, so :class:`WholeBody` reads it in one of granian's
  threads *before* the request takes one of the worker's :data:`THREADS` app slots. A thread
  waiting for a body waits in Rust, without the GIL, and each worker has :data:`BODY_READERS`
  of them beside the app's (tested: 8, 32 and 128 clients sending a body a byte a second do
  not delay ``/healthz`` or a normal POST; 24 holding half-sent headers or bodies do not delay
  another request). The wait has no time limit here (granian has none for bodies): past
  :data:`BODY_READERS` slow bodies at once in a worker, requests wait again. gunicorn parses
  requests in Python threads; facing the Internet, put a buffering proxy (nginx, which reads
  the whole body, with ``client_body_timeout``, before it passes a request on) in front of
  either.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import queue
import sys
import time
from collections.abc import Callable, Iterable
from io import BytesIO
from typing import Any

from api.ops import gunicorn_conf
from api.ops.connections import GRACEFUL_TIMEOUT, KEEPALIVE_REQUESTS
from api.ops.processes import PortInUse, check_port, die_with_parent, streams_beside

__all__ = ["PortInUse", "check_port", "run", "worker_app"]

SERVERS = ("granian", "gunicorn")
DEFAULT_SERVER = "granian"
#: Worker processes and threads per worker (``bench/RESULTS.md``: 4 threads recorded more than
#: 2 and as much as 8; one worker per core).
WORKERS = 2
THREADS = 4
#: Threads per worker that may wait for a request's body, beside the :data:`THREADS` that run
#: the app (:class:`WholeBody`): granian's own default for WSGI is 256 in all.
#: ``MUNCHLOG_BODY_READERS`` overrides it.
BODY_READERS = 256
#: App threads per worker kept for ``/healthz`` (:class:`WholeBody`), beside :data:`THREADS`.
HEALTH_SLOTS = 2
#: The paths served in those threads: they touch no database.
HEALTH_PATHS = frozenset({"/healthz"})
#: The GIL switch interval each worker sets (seconds; ``MUNCHLOG_SWITCH_INTERVAL`` overrides it,
#: for experiments).
SWITCH_INTERVAL = 0.001
#: The target each worker loads (a factory: called once per worker, after the fork).
TARGET = "api.ops.serving:worker_app"
#: Environment variables that may hold a secret: read when the app is built, then dropped from
#: the worker's environment (granian copies the environment into every WSGI environ).
SECRET_ENV = (
    "MUNCHLOG_ORGANIZER_TOKEN",
    "MUNCHLOG_DATABASE_URL",
    "POSTGRES_PASSWORD",
    "PGPASSWORD",
)
#: granian's access log line: no query string, no headers (tokens are in the headers).
ACCESS_LOG_FORMAT = (
    '[%(time)s] %(addr)s - "%(method)s %(path)s %(protocol)s" %(status)d %(dt_ms).3f'
)

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class AccessLog:
    """WSGI middleware: one access log line per request, ``[time] addr - "METHOD /path
    PROTOCOL" status ms`` -- no query string, no headers (tokens travel in a header) -- written
    to ``stream`` in batches by a background thread every ``interval`` seconds (and at exit).

    granian's own access log formats each line through :mod:`logging` and flushes it in the
    request's thread, holding the GIL: about a tenth of the recording throughput
    (``bench/RESULTS.md``). Here a request only formats its line and appends it to a deque.
    """

    def __init__(
        self, app: WSGIApp, stream: Any = None, interval: float = 0.2, *, as_json: bool = False
    ) -> None:
        import atexit
        import threading
        from collections import deque

        self.app = app
        self.stream = stream if stream is not None else sys.stdout
        self.interval = interval
        self.as_json = as_json
        self._lines: deque[str] = deque()
        self._second = -1
        self._stamp = ""
        threading.Thread(target=self._flush_forever, name="access-log", daemon=True).start()
        atexit.register(self.flush)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        status = ["500"]

        def recording(code: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status[0] = code[:3]
            return start_response(code, headers, exc_info)

        try:
            return self.app(environ, recording)
        finally:
            now = time.time()
            if self.as_json:
                self._lines.append(_json_access_line(environ, status[0], now, started))
            else:
                if int(now) != self._second:  # the timestamp changes once a second
                    self._second = int(now)
                    self._stamp = time.strftime("%Y-%m-%d %H:%M:%S %z", time.localtime(now))
                self._lines.append(
                    f"[{self._stamp}] {environ.get('REMOTE_ADDR', '-')} - "
                    f'"{environ.get("REQUEST_METHOD", "-")} {environ.get("PATH_INFO", "")} '
                    f'{environ.get("SERVER_PROTOCOL", "-")}" {status[0]} '
                    f"{(time.perf_counter() - started) * 1000:.3f}\n"
                )

    def flush(self) -> None:
        """Write out the lines logged so far."""
        lines = []
        while self._lines:
            lines.append(self._lines.popleft())
        if lines:
            self.stream.write("".join(lines))
            self.stream.flush()

    def _flush_forever(self) -> None:
        while True:
            time.sleep(self.interval)
            try:
                self.flush()
            except (OSError, ValueError):  # the stream is gone (shutting down)
                return


def _json_access_line(environ: dict[str, Any], status: str, now: float, started: float) -> str:
    """The access log line with ``MUNCHLOG_LOG_FORMAT=json``: the same fields, as the app's
    JSON log lines name theirs (``api.ops.logs``)."""
    from api.ops.logs import utc_stamp

    return (
        json.dumps(
            {
                "time": utc_stamp(now),
                "level": "INFO",
                "logger": "munchlog.access",
                "addr": environ.get("REMOTE_ADDR", "-"),
                "method": environ.get("REQUEST_METHOD", "-"),
                "path": environ.get("PATH_INFO", ""),
                "protocol": environ.get("SERVER_PROTOCOL", "-"),
                "status": int(status),
                "ms": round((time.perf_counter() - started) * 1000, 3),
            },
            ensure_ascii=False,
        )
        + "\n"
    )


class SpreadKeepAlive:
    """WSGI middleware: every ``every``-th response of this process says ``Connection: close``
    (see the module docstring). ``next()`` on an :func:`itertools.count` is atomic under the
    GIL, so the threads of a worker share the count without a lock."""

    def __init__(self, app: WSGIApp, every: int = KEEPALIVE_REQUESTS) -> None:
        self.app = app
        self.every = every
        self._count = itertools.count(1)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if next(self._count) % self.every:
            return self.app(environ, start_response)

        def closing(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers = [(k, v) for k, v in headers if k.lower() != "connection"]
            headers.append(("Connection", "close"))
            return start_response(status, headers, exc_info)

        return self.app(environ, closing)


class WholeBody:
    """WSGI middleware: read the request's body whole, then run the app in one of ``slots``
    app threads (the outermost layer of each worker's app, :func:`worker_app`).

    granian hands the body to WSGI as a stream that its Rust runtime fills as the client sends
    it: ``wsgi.input.read`` waits for the client, without the GIL but in the thread that called
    the app. A client that sends its headers and then a byte a second would hold that thread
    for as long as it likes, and 8 of them every thread of 2 workers. So each worker runs the
    app in at most ``slots`` threads (:data:`THREADS`; a request takes a slot only once its body
    is here), and granian has :data:`BODY_READERS` more threads per worker that may wait for
    bodies in the meantime; a slow body holds one of those, never an app thread.

    A body with a ``Content-Length`` up to ``limit(path)`` (the app's ``MAX_CONTENT_LENGTH``;
    an import's own limit for ``POST /api/games/import``) is read here and handed on as a
    ``BytesIO``; a chunked one is read up to ``limit + 1`` bytes (the app refuses a longer one);
    a longer ``Content-Length`` is not read at all: the app answers 413 without reading it.
    Under gunicorn, which gives each connection one of its own threads, ``slots`` is the
    thread count and this only reads the body first.

    ``GET /healthz`` (:data:`HEALTH_PATHS`) takes one of :data:`HEALTH_SLOTS` threads kept for
    it instead: a database that stops answering holds every app thread until its bound runs out
    (docs/operations.md), and a liveness probe must not fail then (the process would be
    restarted for nothing).
    """

    def __init__(self, app: WSGIApp, slots: int, limit: Callable[[str], int]) -> None:
        self.app = app
        self.limit = limit
        # SimpleQueue: get and put in C (about 0.3 us), and a waiting get drops the GIL
        self._slots: queue.SimpleQueue[None] = queue.SimpleQueue()
        for _ in range(max(1, slots)):
            self._slots.put(None)
        # /healthz has app threads of its own: it answers while every other is waiting on
        # the database (it touches none)
        self._health: queue.SimpleQueue[None] = queue.SimpleQueue()
        for _ in range(HEALTH_SLOTS):
            self._health.put(None)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        length = environ.get("CONTENT_LENGTH", "")
        if length:
            if (
                length.isascii()
                and length.isdigit()
                and 0 < int(length) <= self.limit(environ.get("PATH_INFO", ""))
            ):
                environ["wsgi.input"] = BytesIO(environ["wsgi.input"].read(int(length)))
        elif "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            limit = self.limit(environ.get("PATH_INFO", ""))
            environ["wsgi.input"] = BytesIO(environ["wsgi.input"].read(limit + 1))
        slots = self._health if environ.get("PATH_INFO") in HEALTH_PATHS else self._slots
        slots.get()
        try:
            return self.app(environ, start_response)
        finally:
            slots.put(None)


def _body_limit(app: Any) -> Callable[[str], int]:
    """The largest body ``app`` reads at ``path`` (:class:`WholeBody`)."""
    from api.app import DEFAULT_MAX_CONTENT_LENGTH
    from api.json_api.routes.exports import IMPORT_MAX_BYTES

    config = getattr(app, "config", {})
    default = int(config.get("MAX_CONTENT_LENGTH") or DEFAULT_MAX_CONTENT_LENGTH)
    imports = int(config.get("MUNCHLOG_IMPORT_MAX_BYTES") or IMPORT_MAX_BYTES)

    def limit(path: str) -> int:
        return imports if path == "/api/games/import" else default

    return limit


def worker_app() -> Any:
    """Build one worker's app: the GIL switch interval, the app from the environment (the
    variables ``api.app`` documents; ``munchlog serve`` sets them from its options), the
    keep-alive spread; then drop :data:`SECRET_ENV` from this process's environment."""
    from api.app import create_app
    from api.ops.deadline_keeper import keep_deadlines, keep_events
    from api.ops.logs import configure_logging, log_format

    die_with_parent()  # first: nothing outlives serve (api.ops.processes)
    sys.setswitchinterval(float(os.environ.get("MUNCHLOG_SWITCH_INTERVAL") or SWITCH_INTERVAL))
    configure_logging()
    app = create_app()
    keep_deadlines(app)  # a thread that records a passed seed deadline (service.deadlines)
    keep_events(app)  # a thread that calls time at a table (service.event_keeper)
    for name in SECRET_ENV:
        os.environ.pop(name, None)
    app.wsgi_app = SpreadKeepAlive(app.wsgi_app)  # type: ignore[method-assign]
    if os.environ.get("MUNCHLOG_ACCESS_LOG") == "1":
        app.wsgi_app = AccessLog(  # type: ignore[method-assign]
            app.wsgi_app, as_json=log_format() == "json"
        )
    return _whole_body(app)


def _whole_body(app: Any) -> Any:
    """``app`` (a Flask app, or any WSGI callable) behind :class:`WholeBody`, with the
    worker's ``MUNCHLOG_THREADS`` app slots."""
    slots = int(os.environ.get("MUNCHLOG_THREADS") or THREADS)
    if hasattr(app, "wsgi_app"):
        app.wsgi_app = WholeBody(app.wsgi_app, slots, _body_limit(app))
        return app
    return WholeBody(app, slots, _body_limit(app))


#: Where :func:`run` leaves a target other than :data:`TARGET` for :func:`other_app`.
TARGET_ENV = "MUNCHLOG_SERVE_TARGET"


def other_app() -> Any:
    """The factory :func:`run` serves for a target other than :func:`worker_app` (the
    benchmarks' bare endpoints): that target's app, behind the same :class:`WholeBody`, so it
    is served with the same threads as munchlog."""
    import importlib

    die_with_parent()
    module, _, factory = os.environ[TARGET_ENV].partition(":")
    return _whole_body(getattr(importlib.import_module(module), factory)())


def run(
    target: str = TARGET,
    *,
    server: str = DEFAULT_SERVER,
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = WORKERS,
    threads: int = THREADS,
    access_log: bool = True,
    stream_port: int | None = None,
) -> None:
    """Serve the WSGI app factory ``target`` (``"module:function"``) until SIGTERM/SIGINT,
    and, with a ``stream_port``, the stream process beside it (:func:`streams_beside`).

    Raises :class:`PortInUse` (a ``SystemExit``: one line, exit status 1) if something already
    listens on ``host:port`` (or the stream port), before any server starts."""
    if server not in SERVERS:
        raise ValueError(f"unknown server {server!r} (one of {', '.join(SERVERS)})")
    check_port(host, port)
    with streams_beside(host, stream_port):
        _run(target, server, host, port, workers, threads, access_log)


def _run(
    target: str, server: str, host: str, port: int, workers: int, threads: int, access_log: bool
) -> None:
    os.environ["MUNCHLOG_THREADS"] = str(threads)  # the app threads of each worker (WholeBody)
    if target != TARGET:  # served behind WholeBody too
        os.environ[TARGET_ENV] = target
        target = "api.ops.serving:other_app"
    if server == "granian":
        # munchlog's own access log (AccessLog, in each worker), not granian's
        os.environ["MUNCHLOG_ACCESS_LOG"] = "1" if access_log else "0"
        _run_granian(target, host, port, workers, threads)
    elif server == "gunicorn":
        os.environ["MUNCHLOG_ACCESS_LOG"] = "0"  # gunicorn's own (api/ops/gunicorn_conf.py)
        _run_gunicorn(target, host, port, workers, threads, access_log)


def _run_granian(target: str, host: str, port: int, workers: int, threads: int) -> None:
    from granian import Granian
    from granian.constants import Interfaces

    from api.ops.logs import granian_log_config

    server = Granian(
        target,
        address=host,
        port=port,
        interface=Interfaces.WSGI,
        websockets=False,
        factory=True,
        workers=workers,
        # the app runs in `threads` of them (WholeBody); the others may wait for bodies
        blocking_threads=threads + int(os.environ.get("MUNCHLOG_BODY_READERS") or BODY_READERS),
        workers_kill_timeout=GRACEFUL_TIMEOUT,
        log_access=False,  # AccessLog writes it
        log_dictconfig=granian_log_config(),  # its own lines as JSON too, if so configured
    )
    logging.getLogger("_granian").addFilter(_intended_threads)  # after granian set its logging
    server.serve()


def _intended_threads(record: logging.LogRecord) -> bool:
    """Drops granian's start-up warning that a WSGI server "allows spawning up to N Python
    threads" (more than twice the cores): munchlog's are intended. Only :data:`THREADS` of them
    run the app at once (:class:`WholeBody`'s slots); the :data:`BODY_READERS` others only wait
    for a slow client's body, holding no slot. Any other line of granian's stays."""
    return not record.getMessage().startswith("Configuration allows spawning up to")


def _run_gunicorn(
    target: str, host: str, port: int, workers: int, threads: int, access_log: bool
) -> None:
    from gunicorn.app.base import BaseApplication

    module, _, factory = target.partition(":")

    class Server(BaseApplication):
        def load_config(self) -> None:
            # Every gunicorn setting api/ops/gunicorn_conf.py defines, then the options.
            for name, value in vars(gunicorn_conf).items():
                if name in self.cfg.settings:
                    self.cfg.set(name, value)
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("graceful_timeout", GRACEFUL_TIMEOUT)
            if access_log:
                self.cfg.set("accesslog", "-")

        def load(self) -> Any:  # in each worker, after the fork
            import importlib

            return getattr(importlib.import_module(module), factory)()

    Server().run()


def main(argv: list[str] | None = None) -> int:
    """``python -m api.ops.serving [--server S] [--workers N] [--threads N] [--port P] TARGET``:
    serve any WSGI app factory the way munchlog is served (the benchmarks use it for their bare
    endpoints, so both run under the same server and settings)."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m api.ops.serving", description=main.__doc__)
    p.add_argument("target", nargs="?", default=TARGET)
    p.add_argument("--server", choices=SERVERS, default=DEFAULT_SERVER)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=WORKERS)
    p.add_argument("--threads", type=int, default=THREADS)
    p.add_argument("--no-access-log", dest="access_log", action="store_false")
    a = p.parse_args(argv)
    run(
        a.target,
        server=a.server,
        host=a.host,
        port=a.port,
        workers=a.workers,
        threads=a.threads,
        access_log=a.access_log,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
