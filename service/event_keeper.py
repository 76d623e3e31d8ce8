"""The events' keeper: what an event records by itself when its time comes, with no request
(issue #38): time called at a table whose clock ran out (``service.event_clock``), and any other
per-event check registered with :func:`due_check` (check-in's no-shows, IPG 3.2 Tardiness).

It follows :mod:`service.deadlines`: each recording process runs an :class:`EventKeeper` in a
thread of its own (``api.ops.deadline_keeper``, started by ``api.ops.serving.worker_app``);
every :data:`INTERVAL` seconds it reads the store's notifications of the event classes the
checks watch (in commit order, from the start after a restart), so it learns which events may
have something due, and when; then it runs the checks of each event whose moment has passed.

**A check** (:class:`DueCheck`) names the Tournament event classes that may make something due
(``watch``: a round paired, a clock started, …) and the service (``service(tournaments)``)
whose ``due(event_id, now)`` records what is due at ``now`` and returns the next moment
something may be due (ISO 8601 UTC) or ``None`` (nothing until another watched event). It is
called after a
watched event of that event and whenever its moment passes; it must be idempotent: every
recording process runs it, so its writes are versioned (``Tournaments._update``, the game's
``GameLog._write``): the first one commits, the others decide again on the stored event, find
nothing due and record nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from domain.tournament.aggregate import Tournament
from domain.tournament.clock import moment
from service import games, mirror_events
from service.looping import Looping
from service.tournaments import Tournaments

log = logging.getLogger("munchlog.events")

#: Seconds between two looks: time is called within about this long (<= 2 s, issue #38).
INTERVAL = 0.5
#: Notifications read by one query.
PAGE = 500


class Due(Protocol):
    """A service of a check: ``due(event_id, now)`` records what is due, returns the next due
    moment or None."""

    def due(self, event_id: UUID, now: str) -> str | None: ...


@dataclass(frozen=True)
class DueCheck:
    """One per-event check of the keeper: its ``name`` (logs), the event classes whose
    notifications wake it (``watch``) and the service that runs it (``service``)."""

    name: str
    watch: tuple[type, ...]
    service: Callable[[Tournaments], Due]


#: Every registered check, in order (each module registers its own at import).
CHECKS: list[DueCheck] = []


def due_check(
    name: str, watch: tuple[type, ...], service: Callable[[Tournaments], Due]
) -> DueCheck:
    """Register a check with every keeper created after (once per name)."""
    check = DueCheck(name, watch, service)
    if all(c.name != check.name for c in CHECKS):
        CHECKS.append(check)
    return check


class EventKeeper(Looping):
    """Each event's next due moment per check, learned from the store, and what runs them:
    :meth:`run_due` (one look at a given time: the tests' entrance), :meth:`start` (a thread
    looking every ``interval`` seconds)."""

    thread_name = "munchlog-events"
    failure = "the events' due checks could not run; trying again"
    logger = log

    def __init__(self, tournaments: Tournaments, checks: list[DueCheck] | None = None) -> None:
        self.tournaments = tournaments
        self.store = tournaments.store
        self.checks = list(CHECKS if checks is None else checks)
        #: The last notification id read.
        self.position = 0
        #: ``(check name, event id)``: when it is due next (ISO 8601, UTC).
        self.due: dict[tuple[str, UUID], str] = {}
        super().__init__()

    def learn(self, now: str) -> None:
        """Read the watched notifications committed since the last look: each makes its event's
        checks due at once (``now``; the check then says when it is due next)."""
        head = self.store.max_notification_id()
        watched: dict[type, list[DueCheck]] = {}
        for check in self.checks:
            for cls in check.watch:
                watched.setdefault(cls, []).append(check)
        for cls, checks in watched.items():
            after = self.position
            while True:
                page: list[Any] = self.store.notifications_of(cls, after, PAGE)
                for note in page:
                    after = note.id
                    if note.id > head:
                        continue  # the next look reads it, with everything before it
                    for check in checks:
                        self.due[(check.name, note.originator_id)] = now
                if len(page) < PAGE:
                    break
        self.position = max(self.position, head)

    def run_due(self, now: str) -> list[tuple[str, UUID]]:
        """Learn the new notifications, then run every check whose moment has passed at ``now``
        (ISO 8601), the earliest first; returns the ``(check, event)`` pairs run."""
        self.learn(now)
        at = moment(now)
        by_name = {c.name: c for c in self.checks}
        ran: list[tuple[str, UUID]] = []
        for when, key in sorted((moment(w), k) for k, w in self.due.items()):
            if when > at:
                break
            name, event_id = key
            if _mirrored(self.store, event_id):  # a venue's copy: its venue records what is due
                self.due.pop(key, None)
                continue
            try:
                following = by_name[name].service(self.tournaments).due(event_id, now)
            except Exception:  # one event's failure is not every event's: looked at again
                log.exception("event %s: check %s failed; trying again", event_id, name)
                continue
            ran.append(key)
            if following is None:
                self.due.pop(key, None)
            else:
                self.due[key] = following
        return ran

    # ------------------------------------------------------------------ the thread

    def look(self) -> None:
        self.run_due(games.utc_now())

    def start(self, interval: float = INTERVAL) -> threading.Thread:
        return super().start(interval)


def _mirrored(store: Any, event_id: UUID) -> bool:
    """Whether the event is a venue's copy (``service.mirror_events``): nothing is recorded in
    it or its games here, its venue's keeper does that and the copy follows."""
    found: Any = store.load(event_id)
    return isinstance(found, Tournament) and mirror_events.is_mirrored(found)
