"""The seed deadlines' keeper: a server-dealt game past its deadline records the seeds still
due as withheld by itself, with no request from anyone (issue #43, docs/dealing.md "When a
seed is lost").

A contributor's seed that nobody can send (committed in a browser tab since closed, on another
device) used to stall its game: the rules record the withholding "before the next command is
decided", and no page offered a command. So each recording process runs a
:class:`DeadlineKeeper` in a thread of its own (``api.ops.deadline_keeper``, started by
``api.ops.serving.worker_app``): every :data:`INTERVAL` seconds it reads the deadline marks
committed since its last look and, for each game whose deadline has passed, records the
withholding as the next command would have (``GameLog._settle_withholding``: an ordinary
write to the game, the same ``SeedWithheld`` events, the same envelope). The live streams send
them like any event, and the pages move on.

**Where it learns of deadlines: the store, not memory.** A batch that changes a game's pending
deadline (``domain.fair.pending_deadline``: the first commitment sets one, the last moves it to
the reveals', a withholding of a contributor that never committed opens the reveals, the last
reveal or the end of the game clears it) is saved with a :class:`~domain.game.SeedDeadline`
mark (``GameLog._write``; an import too). The keeper reads the marks in commit order (one query
of one stored event class after its last position, ``EventStore.notifications_of``); after a restart
it reads them from the start, so a deadline that passed while no server ran is kept at once.
A game is looked at only when its deadline is due: the keeper costs the recording hot path one
comparison per batch (the deadline before and after, ``None`` at once for a table-dealt game).

**Any number of workers and instances.** Every recording process keeps the same deadlines, so
when one passes several of them try to record it. The write is versioned as any other: the
first one commits, the others lose the race, decide again on the stored game, find nothing due
and record nothing (``fair.expire`` is empty once the seeds are withheld). Each process starts
at its own random phase within the interval, so they seldom try at the same moment.
"""

from __future__ import annotations

import logging
import threading
from typing import Any
from uuid import UUID

from domain import fair
from domain.envelope import DamagedRecords
from domain.game import SeedDeadline
from service.errors import GameNotFoundError
from service.games import GameLog, utc_now
from service.looping import Looping

log = logging.getLogger("munchlog.deadlines")

#: Seconds between two looks (the marks, then the deadlines passed): a deadline is kept within
#: about this long. ``MUNCHLOG_DEADLINE_INTERVAL`` changes it (``api.ops.deadline_keeper``).
INTERVAL = 0.5
#: Marks read by one query.
PAGE = 500


class DeadlineKeeper(Looping):
    """The pending seed deadlines of every game, as the store's marks say, and what records
    them once passed: :meth:`expire_due` (one look, at a given time: the tests' entrance),
    :meth:`start` (a thread looking every ``interval`` seconds)."""

    thread_name = "munchlog-deadlines"
    failure = "the seed deadlines could not be kept; trying again"
    logger = log

    def __init__(self, log: GameLog) -> None:
        self.log = log
        #: The last mark's notification id read.
        self.position = 0
        #: Each game with a pending deadline: when (ISO 8601, UTC).
        self.due: dict[UUID, str] = {}
        super().__init__()

    def learn(self) -> None:
        """Read the deadline marks committed since the last look, in commit order: each game's
        latest says its pending deadline, or that none is pending."""
        store = self.log.store
        # The log's head, read first: every notification up to it is committed (ids are given in
        # commit order), so the next look starts there, not at the last mark: with no mark for
        # hours the query still reads only what was recorded since the last look.
        head = store.max_notification_id()
        while True:
            page = store.notifications_of(SeedDeadline.Set, self.position, PAGE)
            for note in page:
                self.position = note.id
                try:
                    mark: Any = store.mapper.to_domain_event(note)
                except Exception:  # a damaged row: its game's own reads report it
                    log.exception("seed deadline mark %s does not decode", note.id)
                    continue
                if mark.deadline is None:
                    self.due.pop(mark.game_id, None)
                else:
                    self.due[mark.game_id] = mark.deadline
            if len(page) < PAGE:
                self.position = max(self.position, head)
                return

    def expire_due(self, now: str) -> list[UUID]:
        """Learn the new marks, then record the withholding of every game whose deadline has
        passed at ``now`` (ISO 8601), the earliest first; returns the games it recorded some
        for. A game another process settled first records nothing here; one the store cannot
        be written for now is tried again at the next look."""
        self.learn()
        moment = fair.moment(now)
        passed = sorted((fair.moment(at), game_id) for game_id, at in self.due.items())
        recorded: list[UUID] = []
        for at, game_id in passed:
            if at >= moment:
                break  # the rules' "past" is strictly after the deadline
            try:
                if self.log._settle_withholding(game_id):
                    recorded.append(game_id)
                    self.due.pop(game_id, None)  # its batch's own mark says what comes next
                else:
                    self._look_again(game_id)
            except (GameNotFoundError, DamagedRecords):
                log.warning("game %s cannot be read: its seed deadline is dropped", game_id)
                self.due.pop(game_id, None)
        return recorded

    def _look_again(self, game_id: UUID) -> None:
        """Nothing was recorded (another process was first, or this one's copy was behind):
        the stored game's pending deadline, if any, stays to keep."""
        pending = fair.pending_deadline(self.log.game(game_id).state)
        if pending is None:
            self.due.pop(game_id, None)
        else:
            self.due[game_id] = pending

    # ------------------------------------------------------------------ the thread

    def look(self) -> None:
        self.expire_due(utc_now())

    def start(self, interval: float = INTERVAL) -> threading.Thread:
        """Look every ``interval`` seconds in a daemon thread, from a random phase, until
        :meth:`stop`."""
        return super().start(interval)
