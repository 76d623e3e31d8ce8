"""What every family's match-history updates share (the kernel): a family says how each of
its events changes a game's history row (``Family.history_updates``,
``projections.history``), with these helpers.

A history row is plain JSON data (``projections.history``); an update returns only the fields
it changes, and never mutates the row.

>>> turn_started({"turns": 2, "status": "setup"}, {"turn": 3})
{'turns': 3, 'status': 'playing'}
>>> bump({"A": 1, "B": 0}, "B")
{'A': 1, 'B': 1}
>>> counted("fights", "attacker")({"fights": {"A": 0, "B": 2}}, {"attacker": "A"})
{'fights': {'A': 1, 'B': 2}}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Row = Mapping[str, Any]
#: ``update(row, event)``: the fields of ``row`` an event of one type changes.
HistoryUpdate = Callable[[Row, Mapping[str, Any]], dict[str, Any]]


def bump(counts: Mapping[str, int], seat: Any) -> dict[str, int]:
    """``counts`` with one more for ``seat`` (unchanged for a seat not in it)."""
    out = dict(counts)
    if seat in out:
        out[seat] += 1
    return out


def turn_started(row: Row, event: Mapping[str, Any]) -> dict[str, Any]:
    """A turn began: the row's turn count, and a game in setup is now being played."""
    out: dict[str, Any] = {"turns": max(int(row["turns"]), int(event["turn"]))}
    if row["status"] == "setup":
        out["status"] = "playing"
    return out


def counted(column: str, seat_field: str) -> HistoryUpdate:
    """The update that counts an event in the row's per-seat ``column`` (:func:`bump`) for the
    seat its data names in ``seat_field``."""

    def update(row: Row, event: Mapping[str, Any]) -> dict[str, Any]:
        return {column: bump(row[column], event.get(seat_field))}

    return update
