"""How long a game waited on each seat (issue #38, docs/rules.md F.6): evidence for Slow Play
(IPG 3.3), computed from the server's own receipt times each time it is asked, never stored.

After each event the game waits on the seats its family names (``Family.waiting_for``: the
active seat, the seat whose answer a response window or a fight needs, every seat with a setup
step to take); the time until the server receives the next event is charged to each of them,
in total and per turn (the turn the wait was in). Events recorded in one batch share their
receipt time, so the rules' own steps cost no one anything; the time after the last event is
not counted (nothing has ended it yet).

>>> clock = SeatClock()
>>> clock.add("2030-01-01T10:00:00Z", ["A"], 1)
>>> clock.add("2030-01-01T10:00:04.5Z", ["B"], 1)
>>> clock.add("2030-01-01T10:00:06Z", [], 2)
>>> clock.totals(), clock.per_turn()
({'A': 4.5, 'B': 1.5}, {1: {'A': 4.5, 'B': 1.5}})
"""

from __future__ import annotations

from datetime import datetime


def _moment(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


class SeatClock:
    """The seconds a game waited on each seat, fed one event at a time (:meth:`add`)."""

    def __init__(self) -> None:
        self._last: datetime | None = None
        self._waiting: tuple[str, ...] = ()
        self._turn = 0
        self._total: dict[str, float] = {}
        self._turns: dict[int, dict[str, float]] = {}

    def add(self, received_at: str | None, waiting: list[str], turn: int) -> None:
        """An event received at ``received_at``, after which the game waits on ``waiting``,
        in ``turn``: the time since the previous event is charged to those it waited on."""
        if received_at is None:
            return
        at = _moment(received_at)
        if self._last is not None and self._waiting:
            gap = max((at - self._last).total_seconds(), 0.0)
            per_turn = self._turns.setdefault(self._turn, {})
            for seat in self._waiting:
                self._total[seat] = self._total.get(seat, 0.0) + gap
                per_turn[seat] = per_turn.get(seat, 0.0) + gap
        self._last, self._waiting, self._turn = at, tuple(waiting), turn

    def totals(self) -> dict[str, float]:
        """``{seat: seconds}`` over the whole game (milliseconds kept)."""
        return {seat: round(s, 3) for seat, s in sorted(self._total.items())}

    def per_turn(self) -> dict[int, dict[str, float]]:
        """``{turn: {seat: seconds}}``: the waits in each turn."""
        return {
            turn: {seat: round(s, 3) for seat, s in sorted(seats.items())}
            for turn, seats in sorted(self._turns.items())
        }
