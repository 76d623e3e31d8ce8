"""What the read helpers of a :class:`~service.games.GameLog` need of it, one layer below it.

:class:`~service.replays.Replays` and :class:`~service.delay.Delays` read a game through the
log that owns them; they name it by these protocols, not by ``service.games``, so the imports
point one way (``games`` -> ``delay`` -> ``replays`` -> ``reading``; ``delay`` says what more it reads,
:class:`service.delay.DelayedReads`), as ``tests/test_layers.py``
checks. A page of the log (:class:`LogPage`) lives here for the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol
from uuid import UUID

from adapters.eventstore import EventStore
from domain.envelope import Record
from domain.fold import State
from domain.game import Game


@dataclass(frozen=True)
class LogPage:
    """A page of a game's log: the records, the game's version, where the next page starts
    (and the game's seats, which a viewer's redaction needs)."""

    seats: tuple[str, ...]
    version: int
    records: list[Record]
    next_after: int | None


class GameReads(Protocol):
    """What :class:`~service.replays.Replays` reads of its game log."""

    store: EventStore

    def game(self, game_id: UUID, version: int | None = None) -> Game: ...

    def snapshot_at(self, game_id: UUID, version: int) -> tuple[int, State, str] | None: ...

    def current_version(self, game_id: UUID) -> int: ...

    def records(
        self, game_id: UUID, *, after: int = 0, limit: int | None = None
    ) -> list[Record]: ...
