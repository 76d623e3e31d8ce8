"""The service tier: the use cases on eventsourcing's in-memory ("POPO") store.

``log`` is a :class:`service.games.GameLog` on ``eventsourcing.popo``: no Flask, no database
file, no server; a test records and replays whole games in milliseconds. It is the GameLog the
API holds, with everything it does above storage: idempotency records, snapshots every
:data:`~adapters.folding.SNAPSHOT_INTERVAL` events, the replay index, the match-history
projection (:class:`~adapters.history_store.POPOHistoryRecorder`), imports and exports. What
only storage shows (the two databases, group commit, concurrency between processes, kill -9,
damaged rows) stays in ``tests/api``, on SQLite and PostgreSQL.

The service takes roles, not tokens: ``actor="A"`` is what seat A's token authenticates as
(``api.json_api.auth`` maps tokens to roles; ``tests/api`` tests it). ``make_log`` makes more GameLogs
(another server, to import into).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from service.games import GameLog
from tests.service.helpers import new_log


@pytest.fixture
def make_log() -> Iterator[Callable[[], GameLog]]:
    """Make GameLogs on stores of their own (each like another server); closed at teardown."""
    made: list[GameLog] = []

    def make() -> GameLog:
        made.append(new_log())
        return made[-1]

    try:
        yield make
    finally:
        for log in reversed(made):
            log.close()


@pytest.fixture
def log(make_log: Callable[[], GameLog]) -> GameLog:
    """A GameLog on a new in-memory store."""
    return make_log()
