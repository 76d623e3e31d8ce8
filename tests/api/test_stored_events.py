"""adapters.eventstore: a recorded game event is stored exactly as eventsourcing's mapper stores
it (``EventStore._encode`` writes a ``Game.Recorded``'s timestamp itself, without the JSON
transcoder's per-object callback): the same ``StoredEvent``, byte for byte."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.game import Game, GameAccess
from service.games import GameLog

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
)


@pytest.fixture
def log(tmp_path: Path) -> Iterator[GameLog]:
    found = GameLog(
        {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "s.db")}
    )
    yield found
    found.close()


def _recorded(timestamp: datetime, event: dict[str, Any], client_at: str | None) -> Any:
    return Game.Recorded(  # type: ignore[call-arg]
        originator_id=uuid.uuid4(),
        originator_version=7,
        timestamp=timestamp,
        event=event,
        received_at="2026-11-23T12:00:00.000000+00:00",
        client_at=client_at,
        visible_to={"c1": ["A"], "é\u2028": []},
        hash="a" * 64,
        prev_hash="b" * 64,
    )


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    event=st.dictionaries(st.text(), JSON, max_size=6),
    client_at=st.none() | st.text(),
    timestamp=st.datetimes(timezones=st.none() | st.just(UTC)),
)
def test_a_recorded_event_is_stored_as_the_mapper_stores_it(
    log: GameLog, event: dict[str, Any], client_at: str | None, timestamp: datetime
) -> None:
    recorded = _recorded(timestamp, event, client_at)
    (stored,) = log._encode([recorded])
    assert stored == log.mapper.to_stored_event(recorded)
    assert isinstance(stored, StoredEvent) and stored.state.startswith(b'{"timestamp":')


class _Same:
    """A compressor that does not compress."""

    def compress(self, data: bytes) -> bytes:
        return data

    def decompress(self, data: bytes) -> bytes:
        return data


def test_other_events_and_other_settings_go_through_the_mapper(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    access = GameAccess.issue(uuid.uuid4(), {"A": "h"})
    recorded = _recorded(datetime.now(UTC), {"type": "X", "n": 1}, None)
    events = [*access.collect_events(), recorded]
    assert log._encode(events) == [log.mapper.to_stored_event(e) for e in events]
    calls: list[Any] = []
    original = log.mapper.to_stored_event

    def counted(event: Any) -> StoredEvent:
        calls.append(event)
        return original(event)

    monkeypatch.setattr(log.mapper, "to_stored_event", counted)
    log._encode(events)
    assert calls == [events[0]]  # the recorded event was encoded by the store itself
    monkeypatch.setattr(log.mapper, "compressor", _Same())  # not the plain JSON settings
    calls.clear()
    log._encode(events)
    assert calls == events
