"""``munchlog worker``: the projections, folded in a process of their own as the log grows.

With ``MUNCHLOG_PROJECTIONS=worker`` the API processes no longer catch up on reads; one worker
process folds the notification log into the match histories (today the one projection the
service keeps) and the API serves what it has stored.

How it follows the log: eventsourcing's subscription (:meth:`GameLog.follow`: PostgreSQL's
``LISTEN``/``NOTIFY``; on SQLite, which cannot notify, a poll every ``poll_interval`` seconds)
from the tracked position, every topic, in commit order. A thread hands the notifications
over a bounded queue; the main loop takes what has arrived (up to ``batch_size``) and folds it
with :meth:`MatchHistory.apply`: rows and the tracking position in ONE transaction. So each
notification is folded exactly once: a worker stopped at any point (SIGTERM, ``kill -9``, a
lost database) resumes after the last committed batch, and a batch is never half there. If the
position moved under it (``munchlog rebuild-projections``, an inline catch-up, a second
worker), :meth:`MatchHistory.apply` writes nothing and the worker subscribes again from the
stored position. A failure (the database gone) is logged and retried after a pause that
doubles up to :data:`MAX_BACKOFF` seconds.

Every ``report_every`` seconds it logs a progress line: position, head, lag and the
notifications folded since the last line (INFO when there was anything to do, DEBUG when idle).
It stops when ``stop`` is set (the command sets it on SIGTERM or SIGINT), after committing what
it has folded.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

from service.games import GameLog
from service.histories import BATCH_SIZE, MatchHistory

log = logging.getLogger("munchlog.worker")

#: Seconds between two looks at a SQLite log (PostgreSQL is notified).
POLL_INTERVAL = 0.1
#: Seconds between two progress lines.
REPORT_EVERY = 10.0
#: Longest pause before following the log again after a failure.
MAX_BACKOFF = 30.0
#: Notifications waiting to be folded at most (the subscription waits while it is full).
QUEUE_SIZE = 10 * BATCH_SIZE

_END = object()


class ProjectionWorker:
    """Folds the log into ``history`` as it grows (see the module docstring)."""

    def __init__(
        self,
        app: GameLog,
        history: MatchHistory | None = None,
        *,
        poll_interval: float = POLL_INTERVAL,
        batch_size: int = BATCH_SIZE,
        report_every: float = REPORT_EVERY,
    ) -> None:
        self.app = app
        self.history = history if history is not None else MatchHistory(app, inline=False)
        self.poll_interval = poll_interval
        self.batch_size = batch_size
        self.report_every = report_every
        self.folded = 0  #: notifications folded by this worker (of every topic)
        self.max_lag = 0  #: the largest lag a progress line reported
        self._since_report = 0

    def run(self, stop: threading.Event) -> int:
        """Follow the log until ``stop`` is set; the number of notifications folded."""
        backoff = 1.0
        lag = self._report(started=True)
        log.info(
            "projection worker: following the log from notification %s (head %s, lag %s)",
            lag.position if lag else "?",
            lag.head if lag else "?",
            lag.lag if lag else "?",
            extra=_fields(lag),
        )
        next_report = time.monotonic() + self.report_every
        while not stop.is_set():
            try:
                next_report = self._follow(stop, next_report)
                backoff = 1.0
            except Exception as exc:
                log.warning(
                    "projection worker: %s: %s; following again in %.0f s",
                    type(exc).__name__,
                    exc,
                    backoff,
                    exc_info=log.isEnabledFor(logging.DEBUG),
                )
                stop.wait(backoff)
                backoff = min(MAX_BACKOFF, backoff * 2)
        lag = self._report(final=True)
        log.info(
            "projection worker: stopped at notification %s (head %s, lag %s); "
            "%d notifications folded",
            lag.position if lag else "?",
            lag.head if lag else "?",
            lag.lag if lag else "?",
            self.folded,
            extra=_fields(lag),
        )
        return self.folded

    def _follow(self, stop: threading.Event, next_report: float) -> float:
        """One subscription from the stored position, until ``stop`` or until the position
        moves under it (then the caller subscribes again); the time of the next report."""
        position = self.history.position()
        handover: queue.Queue[Any] = queue.Queue(maxsize=QUEUE_SIZE)
        done = threading.Event()  # this subscription is over: its feeder gives up
        with self.app.store.follow(position, interval=self.poll_interval) as notes:
            feeder = threading.Thread(
                target=_feed, args=(notes, handover, done), name="munchlog-follow", daemon=True
            )
            feeder.start()
            try:
                while not stop.is_set():
                    batch, ended = _take(handover, self.batch_size, timeout=0.2)
                    if batch:
                        if not self.history.apply(position, batch):
                            log.info(
                                "projection worker: the position moved under it "
                                "(a rebuild or another catch-up); following from it again"
                            )
                            return next_report
                        position = int(batch[-1].id)
                        self.folded += len(batch)
                        self._since_report += len(batch)
                    if ended is not None:
                        if isinstance(ended, BaseException):
                            raise ended
                        return next_report  # the subscription ended
                    if time.monotonic() >= next_report and not stop.is_set():
                        self._report()  # when stopping, the final line says it instead
                        next_report = time.monotonic() + self.report_every
            finally:
                done.set()
                notes.stop()
                feeder.join(5)
        return next_report

    def _report(self, *, started: bool = False, final: bool = False) -> Any:
        """Log the progress line (position, head, lag); the :class:`Lag`, or None when the
        database did not answer."""
        try:
            lag = self.history.lag()
        except Exception as exc:
            log.warning("projection worker: cannot read the log's head: %s", exc)
            return None
        self.max_lag = max(self.max_lag, lag.lag)
        if not (started or final):
            busy = self._since_report or lag.lag
            log.log(
                logging.INFO if busy else logging.DEBUG,
                "projection worker: position %d, head %d, lag %d; %d notifications folded "
                "in %.0f s",
                lag.position,
                lag.head,
                lag.lag,
                self._since_report,
                self.report_every,
                extra={**_fields(lag), "folded": self._since_report},
            )
            self._since_report = 0
        return lag


def _fields(lag: Any) -> dict[str, int]:
    """The lag as ``extra`` fields of a log record (keys of the JSON log line)."""
    return {} if lag is None else lag.as_dict()


def _feed(notes: Any, handover: queue.Queue[Any], done: threading.Event) -> None:
    """The subscription's notifications into ``handover``, then ``_END`` (or the error);
    gives up when ``done`` is set (nobody takes from ``handover`` any more)."""
    ending: Any = _END
    try:
        for note in notes:
            while True:
                try:
                    handover.put(note, timeout=0.2)
                    break
                except queue.Full:
                    if done.is_set():
                        return
    except BaseException as exc:
        ending = exc
    while not done.is_set():
        try:
            handover.put(ending, timeout=0.2)
            return
        except queue.Full:
            continue


def _take(handover: queue.Queue[Any], most: int, timeout: float) -> tuple[list[Any], Any]:
    """What has arrived, up to ``most`` notifications (waiting ``timeout`` for the first);
    and the end of the subscription (``_END`` or its error) if it came, else None."""
    batch: list[Any] = []
    try:
        item = handover.get(timeout=timeout)
        while True:
            if item is _END or isinstance(item, BaseException):
                return batch, item
            batch.append(item)
            if len(batch) >= most:
                return batch, None
            item = handover.get_nowait()
    except queue.Empty:
        return batch, None
