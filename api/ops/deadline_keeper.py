"""A recording worker's seed deadline keeper (``service.deadlines``), started with its app.

``api.ops.serving.worker_app`` calls :func:`keep_deadlines` once per worker process, after the
fork: one daemon thread per worker, looking every ``MUNCHLOG_DEADLINE_INTERVAL`` seconds
(default :data:`service.deadlines.INTERVAL`; ``0`` turns it off, e.g. for a deployment whose
other instances keep them). The apps the tests build with ``create_app`` start none: a test
calls ``DeadlineKeeper.expire_due`` itself, or runs ``munchlog serve``.
"""

from __future__ import annotations

import os
from typing import Any

from service.deadlines import INTERVAL, DeadlineKeeper
from service.event_keeper import INTERVAL as EVENTS_INTERVAL
from service.event_keeper import EventKeeper
from service.tournaments import Tournaments

#: The environment variable of the keeper's interval (seconds; 0: no keeper in this process).
INTERVAL_ENV = "MUNCHLOG_DEADLINE_INTERVAL"


def keep_deadlines(app: Any) -> DeadlineKeeper | None:
    """Start ``app``'s keeper thread on its GameLog, unless the interval is 0; closing the
    GameLog stops it."""
    interval = float(os.environ.get(INTERVAL_ENV) or INTERVAL)
    if interval <= 0:
        return None
    log = app.extensions["munchlog"]
    keeper = DeadlineKeeper(log)
    keeper.start(interval)
    app.extensions["munchlog.deadlines"] = keeper
    close = log.close

    def closing() -> None:  # the keeper stops first, not to look into a closed store
        keeper.stop()
        close()

    log.close = closing
    return keeper


#: The environment variable of the events' keeper's interval (seconds; 0: none in this process).
EVENTS_INTERVAL_ENV = "MUNCHLOG_EVENT_INTERVAL"


def keep_events(app: Any) -> EventKeeper | None:
    """Start ``app``'s events' keeper thread (``service.event_keeper``: time called at a table
    whose clock ran out, and every other registered due check), unless the interval is 0;
    closing the GameLog stops it."""
    import service.event_checkin  # (registers the no-shows' due check)
    import service.event_clock  # noqa: F401  (registers the clock's due check)

    interval = float(os.environ.get(EVENTS_INTERVAL_ENV) or EVENTS_INTERVAL)
    if interval <= 0:
        return None
    log = app.extensions["munchlog"]
    keeper = EventKeeper(Tournaments(log))
    keeper.start(interval)
    app.extensions["munchlog.events"] = keeper
    close = log.close

    def closing() -> None:
        keeper.stop()
        close()

    log.close = closing
    return keeper
