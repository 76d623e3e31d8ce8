"""Match histories: the history projection kept up to date from the notification log.

:mod:`projections.history` folds a game's records into one row; :mod:`adapters.history_store`
stores the rows next to a *tracking* row holding the id of the last notification folded in.
Rows and tracking are written in ONE transaction, so the view is always exactly "the log up to
notification *n*": it resumes after a restart, and :meth:`MatchHistory.rebuild` drops it and
folds the whole log again. Every history read catches up first, so an answer includes every
game committed before the request (see the store's docstring for why not a subscription).

A game whose stored events the projection cannot fold (a row that does not decode, a missing
version, an event the fold refuses) is left out and recorded as skipped (:meth:`skipped`), so
one damaged row never stops the histories of every other game.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from adapters.history_store import Skipped, history_recorder, tracking_at
from domain.envelope import UNREADABLE, Record
from projections.history import HistoryRow, fold_history, hero_totals, player_games, totals
from service.games import GameLog

#: Notifications folded per transaction.
BATCH_SIZE = 500

Progress = Callable[[int, int], None]
"""``progress(done, total)``: notifications folded so far, of how many (at the start)."""

log = logging.getLogger(__name__)


class MatchHistory:
    """Match histories of one GameLog: catch up from its notification log, then answer."""

    def __init__(self, app: GameLog, *, batch_size: int = BATCH_SIZE) -> None:
        self.app = app
        self.view = history_recorder(app)
        self.batch_size = batch_size
        self._lock = threading.Lock()  # one catch-up at a time per process (others wait)

    def catch_up(self, *, progress: Progress | None = None, limit: int | None = None) -> int:
        """Fold every game notification after the tracked position; the number folded.

        ``progress(done, total)`` is called after each batch with notification ids (of every
        topic) covered so far and to cover. ``limit`` stops after about that many game
        notifications (for tests of a restart in the middle).
        """
        folded = 0
        with self._lock:
            start = self.view.position()
            total = max(0, self.app.max_notification_id() - start)
            while limit is None or folded < limit:
                batch = self.batch_size if limit is None else min(self.batch_size, limit - folded)
                step = self._step(batch)
                if step is None:
                    break
                folded += step[0]
                if progress is not None:
                    progress(step[1] - start, max(total, step[1] - start))
            if progress is not None:
                progress(total, total)
        return folded

    def _step(self, batch: int) -> tuple[int, int] | None:
        """Fold one batch: ``(notifications folded, new position)``, ``None`` if none left.
        A game that cannot be folded is skipped (:func:`_unfoldable`), with its later events."""
        while True:
            position = self.view.position()
            notes = self.app.records_since(position, batch)
            if not notes:
                return None
            gids = {gid for _, gid, _ in notes}
            stored = self.view.rows(gids)
            left_out = {k["game_id"] for k in self.view.skipped(gids)}
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
            with self.app.writing():
                committed = self.view.commit(
                    position, rows, tracking_at(notes[-1][0]), skipped.values()
                )
            if committed:
                return len(notes), notes[-1][0]

    def rebuild(self, *, progress: Progress | None = None) -> int:
        """Drop every row and fold the whole log again; the number of notifications folded."""
        with self._lock:
            self.view.reset()
        return self.catch_up(progress=progress)

    # -- reads (each catches up first) ------------------------------------------------------

    def rows(self) -> list[HistoryRow]:
        """Every game's row, in creation order."""
        self.catch_up()
        return self.view.select()

    def player(self, name: str) -> dict[str, Any]:
        """``{player, games, totals, heroes}``: a player's games (newest last) and totals."""
        self.catch_up()
        entries = player_games(self.view.select(player=name), name)
        return {
            "player": entries[0]["player"] if entries else name,
            "games": entries,
            "totals": totals(entries),
            "heroes": hero_totals(entries),
        }

    def event_games(self, label: str) -> list[HistoryRow]:
        """The rows of an event's games (``labels.event == label``), in creation order."""
        self.catch_up()
        return self.view.select(event=label)

    def skipped(self, *, event: str | None = None) -> list[Skipped]:
        """The games left out of the histories (all, or those of an event that the projection
        knew the label of), in the order they were met."""
        self.catch_up()
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
