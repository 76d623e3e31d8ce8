"""A look every few seconds in a daemon thread, what the keepers of a recording process share
(``service.deadlines``: seed deadlines; ``service.event_keeper``: an event's due checks)."""

from __future__ import annotations

import logging
import random
import threading


class Looping:
    """:meth:`start` calls :meth:`look` every ``interval`` seconds in a daemon thread named
    :attr:`thread_name`, from a random phase (out of step with other processes), until
    :meth:`stop`; a look that fails is logged with :attr:`failure` and the next one comes."""

    thread_name = "munchlog-loop"
    failure = "a look failed; trying again"
    logger = logging.getLogger("munchlog")

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def look(self) -> None:
        raise NotImplementedError

    def start(self, interval: float) -> threading.Thread:
        self._thread = threading.Thread(
            target=self._run, args=(interval,), name=self.thread_name, daemon=True
        )
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def _run(self, interval: float) -> None:
        if self._stop.wait(random.random() * interval):  # out of step with other processes
            return
        while True:
            try:
                self.look()
            except Exception:  # the store unreachable, a lost race too often: the next look
                self.logger.exception(self.failure)
            if self._stop.wait(interval):
                return
