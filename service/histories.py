"""Match histories: the history projection kept up to date from the notification log.

:mod:`projections.history` folds a game's records into one row; :mod:`adapters.history_store`
stores the rows next to a *tracking* row holding the id of the last notification folded in.
Rows and tracking are written in ONE transaction, so the view is always exactly "the log up to
notification *n*": it resumes after a restart, and :meth:`MatchHistory.rebuild` drops it and
folds the whole log again.

Who folds (``MUNCHLOG_PROJECTIONS``): ``inline`` (the default) -- every history read catches up
first, in the API process, so an answer includes every game committed before the request;
``worker`` -- ``munchlog worker`` (:mod:`service.worker`) follows the log with eventsourcing's
subscription and folds it as it grows (:meth:`MatchHistory.apply`), and reads answer with what
it has stored, :meth:`MatchHistory.lag` notifications behind the log at most.

A game whose stored events the projection cannot fold (a row that does not decode, a missing
version, an event the fold refuses) is left out and recorded as skipped (:meth:`skipped`), so
one damaged row never stops the histories of every other game.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from adapters.eventstore import StorageUnavailable
from adapters.history_store import HistoryRecorder, Skipped, history_recorder
from domain.envelope import UNREADABLE, Record
from projections.history import HistoryRow, fold_history, hero_totals, player_games, totals
from service.games import GameLog

__all__ = ["Lag", "MatchHistory", "StorageUnavailable"]

#: Notifications folded per transaction.
BATCH_SIZE = 500
#: Seconds between two catch-ups of the thread that keeps inline histories up to date while
#: they are read (:meth:`MatchHistory._keep_up_while_read`), and how long it goes on after the
#: last read.
KEEP_UP_EVERY = 0.1
KEEP_UP_IDLE = 60.0

Progress = Callable[[int, int], None]
"""``progress(done, total)``: notifications folded so far, of how many (at the start)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Lag:
    """How far a projection is behind the log: ``position`` (the last notification it has
    folded in), ``head`` (the log's largest notification id) and ``lag`` (notifications
    committed that it has not folded yet: ``head - position``, 0 when caught up);
    ``oldest_at``: when the oldest game record not folded yet was received (``None``: none),
    from which :meth:`seconds` says how long it has waited."""

    position: int
    head: int
    oldest_at: str | None = field(default=None, compare=False)  # a moment, not a figure

    def seconds(self, now: datetime | None = None) -> float:
        """Seconds the oldest record not folded yet has waited (0 when caught up)."""
        if self.oldest_at is None or not self.lag:
            return 0.0
        waited = (now or datetime.now(UTC)) - datetime.fromisoformat(self.oldest_at)
        return max(0.0, waited.total_seconds())

    @property
    def lag(self) -> int:
        return max(0, self.head - self.position)

    def as_dict(self) -> dict[str, int]:
        return {"position": self.position, "head": self.head, "lag": self.lag}


class MatchHistory:
    """Match histories of one GameLog, folded from its notification log.

    ``inline`` (the default; ``MUNCHLOG_PROJECTIONS=inline``): every read catches up first, in
    the reading process. ``inline=False`` (``MUNCHLOG_PROJECTIONS=worker``): reads answer with
    what is stored, which ``munchlog worker`` (:mod:`service.worker`) keeps up to date through
    :meth:`apply`; :meth:`lag` says how far behind that is."""

    def __init__(
        self,
        app: GameLog,
        *,
        batch_size: int = BATCH_SIZE,
        inline: bool = True,
        keep_up: bool = False,
    ) -> None:
        self.app = app
        self.view = history_recorder(app.store)
        self.batch_size = batch_size
        self.inline = inline
        #: inline: a thread also catches up every KEEP_UP_EVERY seconds while reads come
        self.keep_up = keep_up and inline
        self._lock = threading.Lock()  # one catch-up at a time per process (others wait)
        self._last_read = 0.0
        self._keeper: threading.Thread | None = None
        self._stopped = threading.Event()
        if self.keep_up:
            app.on_close(self.stop)

    def stop(self) -> None:
        """Stop the keeping-up thread and wait for it (before the store closes)."""
        self._stopped.set()
        keeper = self._keeper
        if keeper is not None and keeper is not threading.current_thread():
            keeper.join(10)

    def catch_up(
        self,
        *,
        progress: Progress | None = None,
        limit: int | None = None,
        view: HistoryRecorder | None = None,
    ) -> int:
        """Fold every game notification after the tracked position, up to the log's head as
        it is when called; the number folded.

        Up to that head, not after: what was committed before the call is there when it
        returns, and a catch-up under a steady stream of writes does not chase the head for
        ever (before, a history read under the record bench's load could take 34 s). A caller
        that waited for another thread's catch-up finds its head covered and folds nothing.

        ``progress(done, total)`` is called after each batch with notification ids (of every
        topic) covered so far and to cover. ``limit`` stops after about that many game
        notifications (for tests of a restart in the middle). ``view``: fold into that view
        (a rebuild's, :meth:`rebuild`) instead of the live one.
        """
        folded = 0
        view = view or self.view
        head = self.app.store.max_notification_id()
        with self._lock if view is self.view else nullcontext():
            start = view.position()
            total = max(0, head - start)
            while limit is None or folded < limit:
                batch = self.batch_size if limit is None else min(self.batch_size, limit - folded)
                step = self._step(batch, head, view)
                if step is None:
                    break
                folded += step[0]
                if progress is not None:
                    progress(step[1] - start, max(total, step[1] - start))
            if progress is not None:
                progress(total, total)
        return folded

    def _step(self, batch: int, head: int, view: HistoryRecorder) -> tuple[int, int] | None:
        """Fold one batch into ``view``: ``(notifications folded, new position)``, ``None`` if
        it is at ``head`` or past it.

        The batch is read up to ``head`` (the log's head as it was before): when it holds
        fewer than ``batch`` game events, every game event up to the head has been read, and
        the position moves to the head itself, past the notifications of other topics
        (summaries, tokens, idempotency records) at the end of the log; so a projection that
        has caught up is at the head and its :meth:`lag` is 0. (Notification ids commit in
        order on both back ends: when the head is visible, so is everything before it.)"""
        while True:
            position = view.position()
            if head <= position:
                return None
            notes = self.app.store.records_since(position, batch, stop=head)
            end = notes[-1][0] if len(notes) >= batch else head
            if self._commit(position, notes, end, view):
                return len(notes), end

    def apply(self, expected: int, notifications: Sequence[Any]) -> bool:
        """Fold ``notifications`` (of every topic, in order: the next ones after notification
        ``expected``, as :meth:`GameLog.follow` gives them) and move the position to the last
        one's id, in one transaction. ``False`` (nothing written) if the position is no longer
        ``expected`` (a rebuild, a catch-up elsewhere): the caller starts again from
        :meth:`position`. How ``munchlog worker`` folds the log."""
        if not notifications:
            return True
        records = self.app.store.game_records_of(notifications)
        with self._lock:
            return self._commit(expected, records, int(notifications[-1].id))

    def _commit(
        self,
        position: int,
        notes: Sequence[tuple[int, str, Record]],
        end: int,
        view: HistoryRecorder | None = None,
    ) -> bool:
        """Fold the game events ``notes`` (those after ``position``, up to notification
        ``end``) into the stored rows and commit the rows and the position ``end`` together,
        if the position is still ``position``. A game that cannot be folded is skipped
        (:func:`_unfoldable`), with its later events."""
        view = view or self.view
        gids = {gid for _, gid, _ in notes}
        stored = view.rows(gids)
        left_out = {k["game_id"] for k in view.skipped(gids)}
        rows: dict[str, tuple[int, HistoryRow]] = {}
        skipped: dict[str, Skipped] = {}
        for seq, gid, record in notes:
            if gid in left_out or gid in skipped:
                continue
            first, before = rows.get(gid, (seq, stored.get(gid)))
            problem = _unfoldable(before, record)
            if problem is None:
                try:
                    rows[gid] = (first, fold_history(before, record, game_id=gid))
                    continue
                except Exception as exc:
                    problem = (int(record["version"]), "bad_event", _refused(exc))
            rows.pop(gid, None)
            skipped[gid] = _skip(gid, seq, before, problem)
            log.warning("match histories: game %s left out: %s", gid, skipped[gid])
        with self.app.store.writing():
            return view.commit(position, rows, view.tracking(end), skipped.values())

    def rebuild(self, *, progress: Progress | None = None) -> int:
        """Fold the whole log again into new tables beside the live ones, then put them in
        their place in one transaction; the number of notifications folded.

        Readers go on reading the live histories meanwhile (and, inline, keeping them up to
        date), so they never see them empty or half built. The new tables are caught up to
        the log's head, then once more to what was written meanwhile, then switched in
        (:meth:`HistoryRecorder.replace_with`); the live position becomes theirs, and a reader
        or ``munchlog worker`` goes on from there. A rebuild that was interrupted leaves only
        its own tables, which the next one starts again from scratch."""
        with self.app.store.writing():
            fresh = self.view.beside()
            fresh.reset()
        folded = self.catch_up(progress=progress, view=fresh)
        folded += self.catch_up(view=fresh)  # what was written while it folded
        with self._lock, self.app.store.writing():
            self.view.replace_with(fresh)
        return folded

    def position(self) -> int:
        """The last notification folded in (0 before the first)."""
        return self.view.position()

    def lag(self) -> Lag:
        """How far the stored histories are behind the log (:class:`Lag`). The head is read
        first, with the store's probe (:meth:`GameLog.log_head`: a bounded wait, no retries;
        :class:`StorageUnavailable` when the database does not answer)."""
        head = self.app.store.log_head()
        position = self.view.position()
        if head <= position:
            return Lag(position=position, head=head)
        waiting = self.app.store.records_since(position, 1)
        oldest = waiting[0][2].get("received_at") if waiting else None
        return Lag(position, head, oldest if isinstance(oldest, str) else None)

    # -- reads (inline: each catches up first) ----------------------------------------------

    def _fresh(self) -> None:
        if self.inline:
            if self.keep_up:
                self._keep_up_while_read()
            self.catch_up()

    def _keep_up_while_read(self) -> None:
        """Start the thread that keeps the histories caught up (:meth:`_keep_up`), unless it
        runs. A read then folds only what was committed since its last round (a fraction of
        a second of writes) instead of everything since the last read: under the record
        bench's load a read waited for the fold of seconds of writes (bench/RESULTS.md, "Match
        histories under a write load")."""
        self._last_read = time.monotonic()
        if self._stopped.is_set():
            return
        if self._keeper is None or not self._keeper.is_alive():
            with self._lock:
                if self._keeper is None or not self._keeper.is_alive():
                    self._keeper = threading.Thread(
                        target=self._keep_up, name="munchlog-histories", daemon=True
                    )
                    self._keeper.start()

    def _keep_up(self) -> None:
        """Every :data:`KEEP_UP_EVERY` seconds, catch up if the log moved on; stop when no read
        came for :data:`KEEP_UP_IDLE` seconds, or at the first failure (the database gone, the
        store closed): the next read starts it again."""
        while time.monotonic() - self._last_read < KEEP_UP_IDLE:
            if self._stopped.wait(KEEP_UP_EVERY):
                return
            try:
                if self.app.store.max_notification_id() > self.view.position():
                    self.catch_up()
            except Exception as exc:
                log.debug("match histories: keeping up stopped: %s", exc)
                return

    def rows(self) -> list[HistoryRow]:
        """Every game's row, in creation order."""
        self._fresh()
        return self.view.select()

    def player(self, name: str, *, viewer: str = "judge") -> dict[str, Any]:
        """``{player, games, totals, heroes}``: a player's games (newest last) and totals,
        each game as ``viewer`` may see it (``service.delay``)."""
        self._fresh()
        rows = [self.app.delays.history_row(r, viewer) for r in self.view.select(player=name)]
        entries = player_games(rows, name)
        return {
            "player": entries[0]["player"] if entries else name,
            "games": entries,
            "totals": totals(entries),
            "heroes": hero_totals(entries),
        }

    def event_games(self, label: str) -> list[HistoryRow]:
        """The rows of an event's games (``labels.event == label``), in creation order."""
        self._fresh()
        return self.view.select(event=label)

    def skipped(self, *, event: str | None = None) -> list[Skipped]:
        """The games left out of the histories (all, or those of an event that the projection
        knew the label of), in the order they were met."""
        self._fresh()
        return self.view.skipped(event=event)


def _unfoldable(row: Mapping[str, Any] | None, record: Record) -> tuple[int, str, str] | None:
    """``(version, reason, detail)`` when ``record`` cannot be folded into the game's ``row``
    (``None``: the game's first): it does not decode, or is not the next version."""
    if UNREADABLE in record:
        return int(record["version"]), "undecodable", str(record[UNREADABLE])
    expected = 1 if row is None else int(row["events"]) + 1
    if record["version"] != expected:
        return expected, "version_gap", f"the projection met version {record['version']} next"
    return None


def _refused(exc: Exception) -> str:
    return f"the history fold refused it ({type(exc).__name__})"


def _skip(
    gid: str, seq: int, row: Mapping[str, Any] | None, problem: tuple[int, str, str]
) -> Skipped:
    version, reason, detail = problem
    event = None if row is None else row["labels"].get("event")
    return {
        "game_id": gid,
        "version": version,
        "reason": reason,
        "detail": detail,
        "seq": seq,
        "event": None if event is None else str(event),
    }
