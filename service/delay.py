"""Spectator delay (issue #26 item 5): how far behind the live game a viewer may see it.

A game created with ``spectator_delay`` (``{"events": n}`` and/or ``{"seconds": s}``) keeps it
in its own small aggregate (:class:`domain.game.SpectatorDelay`), saved with the game's first
events and never changed. Spectators (no token) and the organizer see such a game as at an
earlier version, on every read path; the game's seats, its table and its judge see it live.

:meth:`Delays.version_for` is the one answer to "as of which version may this viewer see this
game" (``None``: live); every read path asks it:

* ``events``: the version ``n`` events behind the current one;
* ``seconds``: the last version recorded (``received_at``) at least ``s`` seconds ago;
* both: the earlier of the two; never before version 1 (the game's creation).

**The end** (what a broadcast does): the events rule counts events still to come, so it ends
with the game: once the game is finished, a spectator of an events-only delay sees it whole at
once. The seconds rule ends ``s`` seconds after the game finished: until then a spectator sees
the game as it stood ``s`` seconds ago, as a broadcast shows the end ``s`` seconds late, and then
live (a dispute opened after the end is not delayed). Where the game finished is the summary's
``finished_at`` (the batch that finished it); a judge's backup that reopens a finished game
brings the delay back.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from uuid import UUID

from domain import fair
from domain.envelope import Record
from domain.errors import NotFound, UnknownVersion
from domain.game import GameSummary, SpectatorDelay
from projections.history import HistoryRow, fold_history
from projections.replay import ReplayIndex
from projections.views import state_view
from service.errors import NotAllowedError
from service.reading import GameReads, LogPage
from service.replays import EventReplay, Replays, TurnReplay

#: The viewers a game's spectator delay holds back (its seats, table and judge see it live).
DELAYED_VIEWERS = ("spectator", "organizer")
#: The most events and seconds a delay may be (validated at creation).
MAX_EVENTS = 10_000
MAX_SECONDS = 86_400
#: Delays known, by game (immutable once the game exists; ``None``: the game has none).
CACHE_SIZE = 10_000
#: Games delayed by time whose events' arrival times are kept (:meth:`Delays.received`).
RECEIVED_GAMES = 1_000


class DelayedReads(GameReads, Protocol):
    """What :class:`Delays` reads of its :class:`~service.games.GameLog` (its replays too)."""

    @property
    def replays(self) -> Replays: ...

    def all_records(self, game_id: UUID) -> list[Record]: ...

    def overview(self, game_id: UUID) -> dict[str, Any]: ...

    def page(self, game_id: UUID, *, after: int, limit: int) -> LogPage: ...

    def seats(self, game_id: UUID) -> tuple[str, ...]: ...


def as_allowed(viewer: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """Which viewers ``viewer`` may see a game with ``seats`` as (``?as=``): a judge anyone,
    the table any seat or ``table``, a seat only itself."""
    if viewer == "judge":
        return (*seats, "table", "judge", "organizer", "spectator")
    if viewer == "table":
        return (*seats, "table", "spectator")
    if viewer == "organizer":
        return ("organizer", "spectator")
    if viewer in seats:
        return (viewer, "spectator")
    return ("spectator",)


def seen_as(viewer: str, requested: str | None, seats: Callable[[], tuple[str, ...]]) -> str:
    """The viewer to redact for: ``viewer``'s own, or ``requested`` when ``viewer`` may see the
    game (whose ``seats`` are asked only then) as it; else 403 ``auth/forbidden_view``."""
    if requested is None or requested == viewer:
        return viewer
    if requested not in as_allowed(viewer, seats()):
        raise NotAllowedError(
            "auth/forbidden_view", f"the {viewer} may not see the game as {requested!r}"
        )
    return requested


def clock() -> datetime:
    """The server clock (tests move it)."""
    return datetime.now(UTC)


def delay_objects(game_id: UUID, request: Mapping[str, Any]) -> list[SpectatorDelay]:
    """What a new game saves for its ``spectator_delay`` (nothing without one)."""
    asked = request.get("spectator_delay")
    if not asked or not any(asked.get(k) for k in ("events", "seconds")):
        return []
    return [SpectatorDelay(game_id, asked.get("events"), asked.get("seconds"))]


@dataclass(frozen=True)
class Delay:
    events: int | None
    seconds: int | None

    def as_dict(self) -> dict[str, int]:
        return {
            k: v for k, v in (("events", self.events), ("seconds", self.seconds)) if v is not None
        }


class Delays:
    """A :class:`~service.games.GameLog`'s spectator delays, and the reads they hold back."""

    def __init__(self, log: DelayedReads) -> None:
        self.log = log
        self._known: dict[UUID, Delay | None] = {}
        self._received: dict[UUID, array[float]] = {}
        self._received_lock = threading.Lock()

    def of(self, game_id: UUID) -> Delay | None:
        """The game's delay (``None``: none), for a game that exists."""
        if game_id in self._known:
            return self._known[game_id]
        found: Any = self.log.store.load(
            SpectatorDelay.id_for(game_id), of_game=(game_id, "spectator delay")
        )
        delay = None
        if isinstance(found, SpectatorDelay) and found.game_id == game_id:
            delay = Delay(found.events, found.seconds)
        self.log.current_version(game_id)  # GameNotFoundError: do not remember a game to come
        if len(self._known) >= CACHE_SIZE:
            self._known.pop(next(iter(self._known)))
        self._known[game_id] = delay
        return delay

    def version_for(self, game_id: UUID, viewer: str) -> int | None:
        """The version ``viewer`` may see the game as of, or ``None`` for live (see the module
        docstring)."""
        if viewer not in DELAYED_VIEWERS:
            return None
        delay = self.of(game_id)
        if delay is None:
            return None
        current = self.log.current_version(game_id)
        summary: Any = self.log.store.load(
            GameSummary.id_for(game_id), of_game=(game_id, "summary")
        )
        now = clock()
        version = current
        if isinstance(summary, GameSummary) and summary.status == "finished":
            ended = _parse(summary.finished_at) if summary.finished_at else now
            if not delay.seconds or now >= ended + timedelta(seconds=delay.seconds):
                return None
        elif delay.events:
            version = current - delay.events
        if delay.seconds:
            cutoff = (now - timedelta(seconds=delay.seconds)).timestamp()
            received = self.received(game_id, current)
            # the last version recorded by the cutoff: from the end, so a game followed live
            # looks at the last ``seconds`` of its events only
            seen = next((v for v in range(current, 0, -1) if received[v - 1] <= cutoff), 1)
            version = min(version, seen)
        version = max(version, 1)
        return None if version >= current else version

    def received(self, game_id: UUID, current: int) -> array[float]:
        """When each of the game's first ``current`` versions was recorded (``received_at``, as
        POSIX seconds; version ``v`` at ``[v - 1]``): kept per game and extended with the
        records after the last one kept, so a delay by time does not read the whole game on
        every read (the stream process asks once a second per delayed game, and at every look
        of its pump). Stored events never change and versions have no gaps, so what is kept
        stays true."""
        with self._received_lock:
            kept = self._received.get(game_id)
            have = 0 if kept is None else len(kept)
        if have >= current and kept is not None:
            return kept
        new = self.log.records(game_id, after=have)
        with self._received_lock:
            kept = self._received.get(game_id)
            if kept is None:
                if len(self._received) >= RECEIVED_GAMES:
                    self._received.pop(next(iter(self._received)))
                kept = self._received[game_id] = array("d")
            for record in new:  # another thread may have added some of them meanwhile
                if int(record["version"]) == len(kept) + 1:
                    kept.append(_parse(str(record["received_at"])).timestamp())
            return kept

    # ------------------------------------------------------------------ the read paths

    def check_version(self, game_id: UUID, viewer: str, version: int) -> None:
        """404 ``game/unknown_version`` for a version the viewer may not see yet."""
        cap = self.version_for(game_id, viewer)
        if cap is not None and version > cap:
            raise UnknownVersion(version, cap)

    def records(self, game_id: UUID, viewer: str) -> list[Record]:
        """Every record of the game the viewer may see (what exports read)."""
        records = self.log.all_records(game_id)
        cap = self.version_for(game_id, viewer)
        return records if cap is None else records[:cap]

    def page(self, game_id: UUID, viewer: str, *, after: int, limit: int) -> LogPage:
        """``GameLog.page`` as far as the viewer may see."""

        cap = self.version_for(game_id, viewer)
        if cap is None:
            return self.log.page(game_id, after=after, limit=limit)
        records = [
            r
            for r in self.log.records(game_id, after=after, limit=limit + 1)
            if r["version"] <= cap
        ]
        page = records[:limit]
        return LogPage(
            seats=self.log.seats(game_id),
            version=cap,
            records=page,
            next_after=page[-1]["version"] if len(records) > limit else None,
        )

    def entry(self, summary: GameSummary, viewer: str) -> dict[str, Any]:
        """A game's list entry (its summary and version) as the viewer may see it."""
        cap = self.version_for(summary.game_id, viewer)
        if cap is None:
            return {**summary.as_dict(), "version": self.log.current_version(summary.game_id)}
        return _entry_at(summary, cap, self.log.game(summary.game_id, version=cap).state)

    def overview(self, game_id: UUID, viewer: str) -> dict[str, Any]:
        """``GET /api/games/<id>``: ``GameLog.overview`` as the viewer may see it."""
        cap = self.version_for(game_id, viewer)
        if cap is None:
            return self.log.overview(game_id)
        summary: Any = self.log.store.load(
            GameSummary.id_for(game_id), of_game=(game_id, "summary")
        )
        if not isinstance(summary, GameSummary):
            return self.log.overview(game_id)
        state = self.log.game(game_id, version=cap).state
        return {**_entry_at(summary, cap, state), **standing(state)}

    def index(self, game_id: UUID, viewer: str) -> ReplayIndex:
        """The game's replay index (``GET /timeline``) as far as the viewer may see: the
        cached one, or one folded to the viewer's version."""
        index = self.log.replays.index(game_id)
        cap = self.version_for(game_id, viewer)
        if cap is None:
            return index
        delayed = ReplayIndex()
        delayed.extend(self.log.records(game_id, limit=cap))
        return delayed

    def state(
        self,
        game_id: UUID,
        viewer: str,
        *,
        as_: str | None = None,
        at: int | None = None,
        turn: int | None = None,
        played: bool = False,
    ) -> dict[str, Any]:
        """``GET /state``: the table as ``viewer`` may see it, now, ``at`` a version or at the
        end of ``turn``, as ``as_`` (:func:`seen_as`); ``played`` leaves out the judge's
        corrections. A spectator delay holds it back to the viewer's version."""
        shown = seen_as(viewer, as_, lambda: self.log.seats(game_id))
        cap = self.version_for(game_id, viewer)
        if cap is not None:  # a spectator delay: nothing after the version the viewer may see
            if turn is not None:
                at, turn = self.turn_end(game_id, cap, turn), None
            if at is None:
                at = cap
            self.check_version(game_id, viewer, at)
        state = self.log.replays.state_for(game_id, at=at, turn=turn, played=played)
        return state_view(state, shown)

    def turn_end(self, game_id: UUID, cap: int, turn: int) -> int:
        """The last version of ``turn`` at or before ``cap`` (``game/turn_not_found`` if the
        turn had not begun by then)."""
        versions = [v for v in self.log.replays.turn_versions(game_id, turn) if v <= cap]
        if not versions:
            raise _not_begun(turn)
        return versions[-1]

    def turn(self, game_id: UUID, viewer: str, turn: int) -> TurnReplay:
        """``Replays.turn`` as far as the viewer may see (``game/turn_not_found`` for a turn
        that has not begun by then; a turn under way ends at the viewer's version)."""
        played = self.log.replays.turn(game_id, turn)
        cap = self.version_for(game_id, viewer)
        if cap is None or played.versions[-1] <= cap:
            return played
        versions = [v for v in played.versions if v <= cap]
        if not versions:
            raise _not_begun(turn)
        records = [r for r in played.records if r["version"] <= cap]
        return TurnReplay(versions, records, played.before, self.log.replays.state(game_id, cap))

    def event(self, game_id: UUID, viewer: str, version: int) -> EventReplay:
        """``Replays.event`` as far as the viewer may see (404 for a later version; none of
        its effects or corrections after the viewer's version)."""
        self.check_version(game_id, viewer, version)
        seen = self.log.replays.event(game_id, version)
        cap = self.version_for(game_id, viewer)
        if cap is None:
            return seen
        return replace(
            seen,
            effects=[r for r in seen.effects if r["version"] <= cap],
            corrected_by=[v for v in seen.corrected_by if v <= cap],
            undone_by=[v for v in seen.undone_by if v <= cap],
        )

    def verify_head(self, game_id: UUID, viewer: str, result: dict[str, Any]) -> dict[str, Any]:
        """``GameLog.verify_game``'s report as far as the viewer may see: the events checked
        and the head at the viewer's version, no problem after it."""
        cap = self.version_for(game_id, viewer)
        if cap is None:
            return result
        records = self.log.records(game_id, limit=cap) if result["ok"] else []
        return {
            **result,
            "checked": min(result["checked"], cap),
            "head": records[-1]["hash"] if records else result["head"],
            "problems": [p for p in result["problems"] if p["version"] <= cap],
        }

    def history_row(self, row: HistoryRow, viewer: str) -> HistoryRow:
        """A game's match-history row as the viewer may see it (folded to its version)."""
        gid = UUID(str(row["game_id"]))
        cap = self.version_for(gid, viewer)
        if cap is None:
            return row
        folded: HistoryRow | None = None
        for record in self.log.all_records(gid)[:cap]:
            folded = fold_history(folded, record, game_id=str(row["game_id"]))
        return row if folded is None else {**row, **folded}


def _not_begun(turn: int) -> NotFound:
    return NotFound("game/turn_not_found", f"turn {turn} has not been played")


def _parse(at: str) -> datetime:
    parsed = datetime.fromisoformat(at)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def standing(state: Mapping[str, Any]) -> dict[str, Any]:
    """Where a game stands, beside its summary in ``GET /api/games/<id>``: turn, active seat,
    phase and how it is dealt (``domain.fair.view``)."""
    return {
        "turn": state.get("turn"),
        "active_seat": state.get("active"),
        "phase": state.get("phase"),
        "dealing": fair.view(state),
    }


def _entry_at(summary: GameSummary, cap: int, state: Mapping[str, Any]) -> dict[str, Any]:
    """The list entry of a game seen as at version ``cap`` (``state``, its state then)."""
    finished = state.get("status") == "finished"
    return {
        **summary.as_dict(),
        "status": str(state.get("status", "setup")),
        "winner": state.get("winner"),
        "finished_at": summary.finished_at if finished else None,
        "version": cap,
    }
