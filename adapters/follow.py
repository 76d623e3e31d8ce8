"""Following the notification log: eventsourcing's subscriptions, and polling where there are none.

``munchlog worker`` folds the log into the projections as it grows
(:mod:`service.worker`). It reads the log through eventsourcing 9.5's subscriptions
(``ApplicationRecorder.subscribe(gt=...)``): an iterator of the notifications after ``gt``
that blocks at the end of the log and goes on when more are committed. On PostgreSQL that is
``PostgresSubscription``: a thread ``LISTEN``s on the events table's channel (every insert
``NOTIFY``s it: eventsourcing's recorder and :mod:`adapters.pg_writer`'s group commit both do)
and wakes the thread that selects the new notifications. The SQLite recorder has no
subscription (``subscribe`` raises ``NotImplementedError``: SQLite cannot notify another
process), so :class:`PollingSubscription` is the same iterator with a timer in place of the
listener: it looks for new notifications every ``interval`` seconds.

A notification can be lost (eventsourcing's issue #305: the listener wakes the reader only when
one comes, so a lost ``NOTIFY`` stalls it until the next one; a killed ``LISTEN`` connection is
noticed only when it fails). So every subscription :func:`subscribe` gives also looks again at
least every :data:`REREAD_SECONDS` when nothing woke it (:class:`Rereader`): every follower (the
worker, the stream process, ``munchlog publish``) sees every notification within that time
whatever happens to ``NOTIFY``, at the cost of one ``SELECT`` per follower per interval.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import ApplicationRecorder, ListenNotifySubscription, Subscription

#: Seconds between two looks at a log that cannot notify (SQLite).
POLL_INTERVAL = 0.1
#: Seconds at most between two looks at a log that notifies, when no notification came.
REREAD_SECONDS = 1.0


class PollingSubscription(ListenNotifySubscription[ApplicationRecorder]):
    """eventsourcing's ``ListenNotifySubscription`` woken by a timer every ``interval`` seconds
    instead of by ``LISTEN``: it selects the notifications after the last one it gave (500 at
    a time), in order, and blocks while there are none. Stopped by ``stop()`` or by leaving
    its ``with`` block, as every eventsourcing subscription is."""

    def __init__(
        self,
        recorder: ApplicationRecorder,
        gt: int | None = None,
        topics: Sequence[str] = (),
        *,
        interval: float = POLL_INTERVAL,
    ) -> None:
        self._interval = interval
        self._stopping = threading.Event()  # before super(): its puller may call stop()
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        self._poll_thread = threading.Thread(target=self._poll, name="munchlog-poll", daemon=True)
        self._poll_thread.start()

    def _poll(self) -> None:
        while not self._stopping.wait(self._interval):
            self._has_been_notified.set()

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    def __exit__(self, *args: object, **kwargs: Any) -> None:
        try:
            super().__exit__(*args, **kwargs)
        finally:
            self._poll_thread.join()


class Rereader:
    """Wakes a notified subscription's reader every ``every`` seconds, until it stops, as if a
    notification had come: a thread that looks at the subscription's stop every ``tick``."""

    def __init__(
        self, subscription: ListenNotifySubscription[Any], every: float, tick: float = 0.1
    ) -> None:
        self.subscription = subscription
        self.every = every
        self.tick = min(tick, every)
        self.thread = threading.Thread(target=self._run, name="munchlog-reread", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        subscription = self.subscription
        due = time.monotonic() + self.every
        while not subscription._has_been_stopped:
            time.sleep(self.tick)
            if time.monotonic() >= due:
                subscription._has_been_notified.set()
                due = time.monotonic() + self.every


def subscribe(
    recorder: ApplicationRecorder,
    gt: int,
    *,
    interval: float = POLL_INTERVAL,
    reread: float = REREAD_SECONDS,
) -> Subscription[ApplicationRecorder]:
    """The recorder's own subscription to the notifications after ``gt`` (PostgreSQL's
    ``LISTEN``/``NOTIFY``, the in-memory store's), which also looks again every ``reread``
    seconds (:class:`Rereader`), or a :class:`PollingSubscription` when it has none
    (SQLite)."""
    try:
        subscription = recorder.subscribe(gt=gt)
    except NotImplementedError:
        return PollingSubscription(recorder, gt=gt, interval=interval)
    if isinstance(subscription, ListenNotifySubscription):
        Rereader(subscription, reread)
    return subscription
