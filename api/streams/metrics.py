"""The stream process's metrics (Prometheus), for the operator (docs/operations.md).

``munchlog_streams_open``
    streams open now (a gauge; in multiprocess mode the sum over live stream processes).
``munchlog_streams_opened_total{viewer}``
    streams opened, by kind of viewer: ``seat``, ``table``, ``judge``, ``organizer``,
    ``spectator`` (a seat's name would make a series per seat letter; a token never appears).
``munchlog_streams_closed_total{reason}``
    streams ended by the server or found gone: ``client_gone`` (the client disconnected or a
    write failed), ``too_far_behind`` (:data:`api.streams.process.MAX_BACKLOG` writes waiting: a
    client that stopped reading; it resumes with ``Last-Event-ID``), ``error`` (the store could
    not be read: the stream got a ``stream-error`` event), ``shutdown``.
``munchlog_stream_writes_total``, ``munchlog_stream_written_bytes_total``
    writes to streams' connections and their bytes (events, heartbeats, the opening comment).
``munchlog_stream_waiting_writes_total``
    writes a connection made wait (its buffer was full: a slow client).
``munchlog_stream_reads_total``
    reads of the store by the games' pumps (one per game per look, for all its streams).
``munchlog_stream_follower_lag``, ``munchlog_stream_follower_lag_seconds``
    the notifications of the log the stream process's follower has not seen yet, and for how
    long it has been behind (0 at the head); measured once a second.

**Where they are served.** The stream process answers ``GET /metrics`` itself. ``munchlog
serve`` runs it in prometheus-client's multiprocess mode with the workers
(``PROMETHEUS_MULTIPROC_DIR``, :func:`api.ops.metrics.prepare_multiprocess_dir`), so the workers'
``/metrics`` includes these series too: one scrape for the whole deployment.

**Cost.** Counting is plain integer additions on the event loop (:class:`StreamCounts`); they are
added to prometheus-client's metrics once a second (``Hub._tick``) and before the stream
process answers a scrape (:meth:`StreamMetrics.flush`), never per write.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge

from api.ops.metrics import metrics

#: The kinds of viewer a stream is counted under (a seat's own name is not a label).
VIEWER_KINDS = ("seat", "table", "judge", "organizer", "spectator")
#: Why a stream ended, as counted.
CLOSE_REASONS = ("client_gone", "too_far_behind", "error", "shutdown")


def viewer_kind(viewer: str) -> str:
    """The label a stream's viewer is counted under."""
    return viewer if viewer in VIEWER_KINDS else "seat"


class StreamCounts:
    """What the stream process did since the last flush: plain numbers, kept on the loop."""

    __slots__ = ("closed", "opened", "reads", "waited", "writes", "written")

    def __init__(self) -> None:
        self.opened = dict.fromkeys(VIEWER_KINDS, 0)
        self.closed = dict.fromkeys(CLOSE_REASONS, 0)
        self.writes = 0
        self.written = 0
        self.waited = 0
        self.reads = 0

    def wrote(self, data: bytes) -> None:
        self.writes += 1
        self.written += len(data)


class StreamMetrics:
    """The stream process's prometheus-client metrics (see the module docstring)."""

    def __init__(self) -> None:
        metrics()  # the process's own (chooses multiprocess values first)
        self.open = Gauge("munchlog_streams_open", "Streams open now", multiprocess_mode="livesum")
        self.opened = Counter(
            "munchlog_streams_opened", "Streams opened, by kind of viewer", ["viewer"]
        )
        self.closed = Counter(
            "munchlog_streams_closed",
            "Streams ended by the server or found gone, by reason",
            ["reason"],
        )
        self.writes = Counter("munchlog_stream_writes", "Writes to streams' connections")
        self.written = Counter("munchlog_stream_written_bytes", "Bytes written to streams")
        self.waited = Counter(
            "munchlog_stream_waiting_writes", "Writes a stream's connection made wait"
        )
        self.reads = Counter("munchlog_stream_reads", "Reads of the store by the games' pumps")
        self.lag = Gauge(
            "munchlog_stream_follower_lag",
            "Notifications the stream process's follower has not seen yet",
            multiprocess_mode="livemax",
        )
        self.lag_seconds = Gauge(
            "munchlog_stream_follower_lag_seconds",
            "Seconds the stream process's follower has been behind the log",
            multiprocess_mode="livemax",
        )
        for kind in VIEWER_KINDS:  # every series from the start, at 0
            self.opened.labels(kind)
        for reason in CLOSE_REASONS:
            self.closed.labels(reason)

    def follower(self, behind: int, seconds: float) -> None:
        """Set the follower's lag (:meth:`api.streams.process.Hub.measure_lag`)."""
        self.lag.set(behind)
        self.lag_seconds.set(seconds)

    def flush(self, counts: StreamCounts, open_streams: int) -> None:
        """Add ``counts`` to the metrics and zero them; set the open streams."""
        self.open.set(open_streams)
        for kind, n in counts.opened.items():
            if n:
                self.opened.labels(kind).inc(n)
                counts.opened[kind] = 0
        for reason, n in counts.closed.items():
            if n:
                self.closed.labels(reason).inc(n)
                counts.closed[reason] = 0
        for name in ("writes", "written", "waited", "reads"):
            n = getattr(counts, name)
            if n:
                getattr(self, name).inc(n)
                setattr(counts, name, 0)


_stream_metrics: StreamMetrics | None = None


def stream_metrics() -> StreamMetrics:
    """This process's :class:`StreamMetrics`, made on first use (prometheus-client refuses a
    metric registered twice)."""
    global _stream_metrics
    if _stream_metrics is None:
        _stream_metrics = StreamMetrics()
    return _stream_metrics
