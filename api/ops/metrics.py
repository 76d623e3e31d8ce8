"""Prometheus metrics (``prometheus-client``), served at ``GET /metrics``.

What is counted, and where:

``munchlog_http_requests_total{method, route, status}`` and
``munchlog_http_request_duration_seconds{method, route}`` (a histogram)
    every request, by :class:`RequestMetrics`: WSGI middleware around the whole app, so the
    recording hot path (``api/json_api/hotpath.py``, which answers without Flask) is counted as the
    Flask routes are. ``route`` is the route's template without its converters
    (``/api/games/<game_id>/state``, ``.../turns/<turn>``: :func:`route_template`), never the path (game ids would make a series per game); the hot path's is
    :data:`HOT_ROUTE`; a path no route matches is ``<unmatched>``; a method outside HTTP's
    usual seven is ``OTHER``. The duration runs until the app hands its response to the server
    (for a streamed export: until the first chunk is ready, not the last).
``munchlog_recorded_batches_total{source}``, ``munchlog_recorded_actions_total``,
``munchlog_recorded_events_total{source}``
    batches saved (``source``: ``actions`` -- a recorder's batch --, ``judge`` -- a dispute
    or ruling --, ``dealing`` -- a seed withheld past its deadline -- or ``clock`` -- time
    called at an event's table), the actions in them and the events they made; replays of an
    ``Idempotency-Key`` are not counted (``service.games.Observer``).
``munchlog_lost_races_total``
    saves that conflicted with another writer's (each decided again, or answered 409 when the
    client named its version); ``munchlog_version_conflicts_total``: 409
    ``game/version_conflict`` answers.
``munchlog_storage_damaged_total``
    ``503 storage/damaged`` answers (docs/DESIGN.md "Damaged storage").
``munchlog_storage_up``, ``munchlog_log_head``, ``munchlog_projection_position{projection}``,
``munchlog_projection_lag{projection}``, ``munchlog_projection_lag_seconds{projection}``
    read from the database at each scrape (``MatchHistory.lag``): the same figures on every
    instance, whichever process keeps the projection (the seconds: how long the oldest game
    record not yet folded in has waited, 0 when caught up).
``munchlog_mirror_lag{mirror}``, ``munchlog_mirror_lag_seconds{mirror}``
    each mirror's lag as its last batch said (``GET /api/mirrors/<id>``: the venue's records
    ``munchlog publish`` had still to send, and how old its newest record was when stored
    here), read from the database at each scrape of a worker (at most 100 mirrors).

**Several processes.** ``munchlog serve --workers N`` runs N processes; a scrape reaches one
of them. With ``PROMETHEUS_MULTIPROC_DIR`` set (a directory, emptied at each start), each
process writes its counts to files there and any of them answers for all
(prometheus-client's multiprocess mode); ``munchlog serve`` with more than one worker makes a
temporary one when it is not set (:func:`prepare_multiprocess_dir`), as it does with one
worker and the stream process (whose series, :mod:`api.streams.metrics`, the workers then
answer too). Without it (one worker and no streams, or an app in a test) the counts are the
process's own, plus prometheus-client's
``process_*`` and ``python_*`` series. Several *instances* (hosts) are scraped one by one, as
usual.

**Cost.** A request pays two ``perf_counter`` calls, a dictionary look-up per series (the
labelled children are cached) and one entry in this process's :class:`Tally` (its count and its
latency's bucket and sum, under one lock); a saved batch three counts more. The tally is plain
numbers; :meth:`Metrics.flush` adds them to prometheus-client's metrics at every scrape of this
process (so a scrape of one process is exact) and, in multiprocess mode, every
:data:`FLUSH_INTERVAL` seconds from a background thread and at exit (so a scrape answered by
another worker sees this one's figures as of at most that long ago). Before, each request made
six of prometheus-client's increments, each under its lock and, in multiprocess mode, after a
``getpid`` call and with a write to a memory-mapped file. A recorded action's metrics, timed
alone on one machine: 18 µs in multiprocess mode and 7-9 µs per process before, 5 µs in either
now (``bench/RESULTS.md``).
"""

from __future__ import annotations

import atexit
import bisect
import functools
import glob
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import request
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder

# HOT_ROUTE: the route template of the requests ``api/json_api/hotpath.py`` answers without Flask.
# ROUTE_KEY: where a Flask request (:func:`remember_route`), or the hot path for any path it
# matches, leaves its route's template in the WSGI environ.
from api.json_api.hotpath import _PATH as HOT_PATH
from api.json_api.hotpath import HOT_ROUTE as HOT_ROUTE
from api.json_api.hotpath import ROUTE_KEY as ROUTE_KEY
from service.games import Observer
from service.histories import Lag

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

#: The route label of a request no route matched.
UNMATCHED = "<unmatched>"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: Latency buckets (seconds): recording takes about a millisecond, a long export seconds.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: The sources of a saved batch (``service.games.GameLog._write``'s ``source``).
SOURCES = ("actions", "judge", "dealing", "clock")
#: The projection label of the match histories' series.
PROJECTION = "match_histories"
#: Seconds between two flushes of a process's tallied counts in multiprocess mode.
FLUSH_INTERVAL = 1.0


def multiprocess_dir() -> str | None:
    """``PROMETHEUS_MULTIPROC_DIR`` if set (multiprocess mode), else None."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class Metrics:
    """This process's metric objects (one per process: :func:`metrics`)."""

    def __init__(self) -> None:
        _choose_value_class()
        self.multiprocess = multiprocess_dir() is not None
        self.requests = Counter(
            "munchlog_http_requests",
            "HTTP requests answered, by method, route template and status",
            ["method", "route", "status"],
        )
        self.latency = Histogram(
            "munchlog_http_request_duration_seconds",
            "Time from a request reaching munchlog to its response being handed to the server",
            ["method", "route"],
            buckets=BUCKETS,
        )
        self.batches = Counter(
            "munchlog_recorded_batches",
            "Batches saved (source: actions = a recorder's batch, judge = dispute or ruling, "
            "dealing = a seed withheld past its deadline, clock = time called at a table)",
            ["source"],
        )
        self.actions = Counter("munchlog_recorded_actions", "Actions saved in recorders' batches")
        self.events = Counter(
            "munchlog_recorded_events", "Events saved, by the source of their batch", ["source"]
        )
        self.lost_races = Counter(
            "munchlog_lost_races",
            "Saves that conflicted with another writer's (decided again, or a 409)",
        )
        self.conflicts = Counter("munchlog_version_conflicts", "409 game/version_conflict answers")
        self.damaged = Counter("munchlog_storage_damaged", "503 storage/damaged answers")
        self._request_children: dict[tuple[str, str, str], Any] = {}
        self._latency_children: dict[tuple[str, str], Any] = {}
        self.tally = Tally(BUCKETS)
        if self.multiprocess:
            threading.Thread(target=self._flush_forever, name="metrics-flush", daemon=True).start()
            atexit.register(self.flush)

    def flush(self) -> None:
        """Add this process's tally to prometheus-client's metrics."""
        self.tally.flush()

    def _flush_forever(self) -> None:
        while True:
            time.sleep(FLUSH_INTERVAL)
            self.flush()

    def observe(self, environ: dict[str, Any], status: str, seconds: float) -> None:
        """Count one answered request (see the module docstring for the labels)."""
        route = environ.get(ROUTE_KEY)
        if route is None:  # neither a Flask route nor the hot path (MUNCHLOG_HOTPATH=0) left it
            route = HOT_ROUTE if HOT_PATH.fullmatch(environ.get("PATH_INFO", "")) else UNMATCHED
        method = environ.get("REQUEST_METHOD", "")
        if method not in METHODS:
            method = "OTHER"
        counter = self._request_children.get((method, route, status))
        if counter is None:
            counter = self.requests.labels(method, route, status)
            self._request_children[(method, route, status)] = counter
        histogram = self._latency_children.get((method, route))
        if histogram is None:
            histogram = self.latency.labels(method, route)
            self._latency_children[(method, route)] = histogram
        self.tally.request(counter, histogram, seconds)


class Tally:
    """Counts and observations not yet added to prometheus-client's metrics (see the module
    docstring, "Cost"): plain numbers under one lock, added by :meth:`flush` as prometheus-client's
    own ``inc`` and ``observe`` would have added them one by one (a test compares the two)."""

    def __init__(self, buckets: tuple[float, ...]) -> None:
        #: a histogram's upper bounds, ``+Inf`` last (as prometheus-client's ``_upper_bounds``)
        self.bounds = (*buckets, float("inf"))
        self._lock = threading.Lock()
        #: counter child -> the amount not yet added to it
        self._counts: dict[Any, float] = {}
        #: histogram child -> [observations per bucket..., their sum]
        self._observed: dict[Any, list[float]] = {}

    def add(self, *amounts: tuple[Any, float]) -> None:
        """Count each ``(counter child, amount)``."""
        counts = self._counts
        with self._lock:
            for child, amount in amounts:
                counts[child] = counts.get(child, 0.0) + amount

    def request(self, counter: Any, histogram: Any, seconds: float) -> None:
        """Count one request on ``counter`` and observe its ``seconds`` on ``histogram``."""
        bucket = bisect.bisect_left(self.bounds, seconds)  # the first bound >= seconds
        with self._lock:
            self._counts[counter] = self._counts.get(counter, 0.0) + 1.0
            observed = self._observed.get(histogram)
            if observed is None:
                observed = self._observed[histogram] = [0.0] * (len(self.bounds) + 1)
            observed[bucket] += 1.0
            observed[-1] += seconds

    def flush(self) -> None:
        """Add everything tallied to the metrics, and start a new tally."""
        with self._lock:
            counts, self._counts = self._counts, {}
            observed, self._observed = self._observed, {}
        for child, amount in counts.items():
            child.inc(amount)
        for histogram, values in observed.items():
            # what ``Histogram.observe`` adds to, per observation: its sum, and the count of
            # the first bucket whose bound is at least the value
            histogram._sum.inc(values[-1])
            for bucket, n in enumerate(values[:-1]):
                if n:
                    histogram._buckets[bucket].inc(n)


_metrics: Metrics | None = None
_metrics_lock = threading.Lock()


def metrics() -> Metrics:
    """This process's :class:`Metrics`, made on first use (in a server's worker: after the
    fork, so that multiprocess mode writes to this process's own files)."""
    global _metrics
    if _metrics is None:
        with _metrics_lock:
            if _metrics is None:
                _metrics = Metrics()
    return _metrics


def _choose_value_class() -> None:
    """prometheus-client chooses between per-process and multiprocess values when it is
    first imported, from ``PROMETHEUS_MULTIPROC_DIR``; a server's master may have imported it
    before ``munchlog serve`` set the variable. Choose again before the first metric."""
    from prometheus_client import values

    wanted = multiprocess_dir() is not None
    if wanted != (values.ValueClass is not values.MutexValue):
        values.ValueClass = values.get_value_class()


class RequestMetrics:
    """WSGI middleware: each request counted and timed (:meth:`Metrics.observe`)."""

    def __init__(self, app: WSGIApp, found: Metrics) -> None:
        self.app = app
        self.metrics = found

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        status = "500"

        def recording(code: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            nonlocal status
            status = code[:3]
            return start_response(code, headers, exc_info)

        try:
            return self.app(environ, recording)
        finally:
            self.metrics.observe(environ, status, time.perf_counter() - started)


class CountingObserver(Observer):
    """The service's :class:`~service.games.Observer`, counting into :class:`Metrics`."""

    def __init__(self, found: Metrics) -> None:
        self._tally = found.tally
        self._batches = {s: found.batches.labels(s) for s in SOURCES}
        self._events = {s: found.events.labels(s) for s in SOURCES}
        self._actions = found.actions
        self._lost = found.lost_races

    def recorded(self, source: str, actions: int, events: int) -> None:
        self._tally.add(
            (self._batches[source], 1.0), (self._actions, actions), (self._events[source], events)
        )

    def lost_race(self) -> None:
        self._lost.inc()


@functools.lru_cache(maxsize=256)
def route_template(rule: str) -> str:
    """A Flask rule as a ``route`` label, without its converters (as :data:`HOT_ROUTE`).

    >>> route_template("/api/games/<game:game_id>/turns/<int(max=9):turn>")
    '/api/games/<game_id>/turns/<turn>'
    """
    return re.sub(r"<[^:<>]*:", "<", rule)


def remember_route() -> None:
    """(``before_request``) Leave the matched route's template in the WSGI environ for
    :class:`RequestMetrics`, which runs outside Flask's request context."""
    rule = request.url_rule
    request.environ[ROUTE_KEY] = UNMATCHED if rule is None else route_template(rule.rule)


def install(app: Any) -> None:
    """Count ``app``'s requests (:class:`RequestMetrics` outermost) and its GameLog's batches."""
    found = metrics()
    app.extensions["munchlog"].observer = CountingObserver(found)
    app.before_request(remember_route)
    app.wsgi_app = RequestMetrics(app.wsgi_app, found)


class _Projection:
    """A collector reading the projection's lag from the database at each scrape."""

    def __init__(self, lag: Callable[[], Lag]) -> None:
        self.lag = lag

    def collect(self) -> Iterator[Metric]:
        try:
            found = self.lag()
        except Exception:
            yield GaugeMetricFamily(
                "munchlog_storage_up", "Whether the database answered this scrape", value=0
            )
            return
        yield GaugeMetricFamily(
            "munchlog_storage_up", "Whether the database answered this scrape", value=1
        )
        yield GaugeMetricFamily(
            "munchlog_log_head", "The log's largest notification id", value=found.head
        )
        for name, text, value in (
            ("munchlog_projection_position", "The last notification folded in", found.position),
            ("munchlog_projection_lag", "Notifications not yet folded in", found.lag),
            (
                "munchlog_projection_lag_seconds",
                "Seconds the oldest game record not yet folded in has waited",
                found.seconds(),
            ),
        ):
            family = GaugeMetricFamily(name, text, labels=["projection"])
            family.add_metric([PROJECTION], value)
            yield family


class _Mirrors:
    """A collector reading each mirror's lag (``munchlog publish``'s, as its last batch said)
    from the database at each scrape."""

    def __init__(self, mirrors: Callable[[], list[dict[str, Any]]]) -> None:
        self.mirrors = mirrors

    def collect(self) -> Iterator[Metric]:
        try:
            found = self.mirrors()
        except Exception:
            return  # munchlog_storage_up says so
        for name, text, key in (
            ("munchlog_mirror_lag", "Venue records a mirror's last batch left to send", "records"),
            (
                "munchlog_mirror_lag_seconds",
                "Seconds from a mirror's newest record to its storing here",
                "seconds",
            ),
        ):
            family = GaugeMetricFamily(name, text, labels=["mirror"])
            for mirror in found:
                family.add_metric([mirror["mirror_id"]], mirror["lag"][key] or 0)
            yield family


class _Forward:
    """A collector giving what another registry collects."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterator[Metric]:
        return iter(self.registry.collect())


def exposition(
    lag: Callable[[], Lag],
    accept: str | None,
    mirrors: Callable[[], list[dict[str, Any]]] | None = None,
) -> tuple[bytes, str]:
    """The body and content type of ``GET /metrics``: this process's metrics (or, in
    multiprocess mode, every process's), the projection's figures from ``lag()`` and the
    mirrors' lag from ``mirrors()`` (``service.mirrors.Mirrors.all``), in the text format
    ``accept`` asks for (Prometheus' or OpenMetrics)."""
    if _metrics is not None:
        _metrics.flush()
    registry = CollectorRegistry()
    if multiprocess_dir() is not None:
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_Forward(REGISTRY))
    registry.register(_Projection(lag))
    if mirrors is not None:
        registry.register(_Mirrors(mirrors))
    encoder, content_type = choose_encoder(accept or "")
    return encoder(registry), content_type


def prepare_multiprocess_dir(processes: int) -> str | None:
    """For ``munchlog serve``, before its workers and its stream process start: empty
    ``PROMETHEUS_MULTIPROC_DIR``'s ``*.db`` files if it is set (prometheus-client's files must
    not outlive a run), or, with more than one process, make a temporary directory, set the
    variable to it for them and remove it at exit. Returns the directory in use (None:
    per-process metrics)."""
    given = multiprocess_dir()
    if given is not None:
        os.makedirs(given, exist_ok=True)
        for path in glob.glob(os.path.join(given, "*.db")):
            os.remove(path)
        return given
    if processes <= 1:
        return None
    path = tempfile.mkdtemp(prefix="munchlog-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
