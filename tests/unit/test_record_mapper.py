"""``adapters.eventstore.RecordMapper``: a game's stored events written with orjson are what
eventsourcing's own mapper (its ``JSONTranscoder``) writes, and read back the same; the
timestamps in them and the server clock (``service.games.utc_now``) written by orjson are what
``isoformat`` writes."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.domain import Aggregate
from eventsourcing.domain import event as on_event
from eventsourcing.persistence import (
    DatetimeAsISO,
    DecimalAsStr,
    JSONTranscoder,
    Mapper,
    UUIDAsHex,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.eventstore import EventStore, RecordMapper, isoformat_utc
from domain.game import Game
from tests.unit.seeded_games import play, records_for


def transcoder() -> JSONTranscoder:
    t = JSONTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), DatetimeAsISO()):
        t.register(transcoding)
    return t


@pytest.fixture(scope="module")
def game_events() -> list[Any]:
    game = Game.adopt(uuid4(), records_for(play(5)[1])[:120])
    return list(game.collect_events())


def test_a_games_events_are_written_byte_for_byte_as_eventsourcing_writes_them(
    game_events: list[Any],
) -> None:
    fast, slow = RecordMapper(transcoder()), Mapper(transcoder())
    assert {type(e) for e in game_events} == {Game.Opened, Game.Recorded}
    assert all(orjson_wrote(fast, e) for e in game_events)
    for event in game_events:
        mine, theirs = fast.to_stored_event(event), slow.to_stored_event(event)
        assert mine == theirs
        again = fast.to_domain_event(mine)
        assert type(again) is type(event) and vars(again) == vars(event)


def orjson_wrote(mapper: RecordMapper, event: Any) -> bool:
    """Whether ``mapper`` writes ``event`` without its transcoder's ``json`` encoder."""

    def refuse(obj: Any) -> bytes:
        raise AssertionError("json wrote it")

    mapper.transcoder.encode = refuse  # type: ignore[method-assign]
    try:
        mapper.to_stored_event(event)
        return True
    except AssertionError:
        return False
    finally:
        del mapper.transcoder.encode


def recorded(**fields: Any) -> Any:
    base = {
        "event": {"type": "GameEnded", "winner": "A"},
        "received_at": "2024-05-01T10:00:00+00:00",
        "client_at": None,
        "visible_to": {},
        "hash": "1" * 64,
        "prev_hash": "0" * 64,
    }
    return Game.Recorded(
        originator_id=uuid4(),
        originator_version=2,
        timestamp=datetime(2024, 5, 1, 10, 0, 0, 123456, tzinfo=UTC),
        **{**base, **fields},
    )


@pytest.mark.parametrize(
    "fields",
    [
        {"client_at": 1e-05},  # orjson spells this float 0.00001: the same value
        {"event": {"type": "X", "n": 2**70}},  # past orjson's integers: the parent writes it
        {"event": {"type": "X", "name": "Sample Ogre é 🎲", "list": [1, [2, {"a": None}]]}},
    ],
)
def test_what_orjson_writes_or_declines_reads_back_the_same(fields: dict[str, Any]) -> None:
    fast, slow = RecordMapper(transcoder()), Mapper(transcoder())
    event = recorded(**fields)
    mine = fast.to_stored_event(event)
    assert vars(fast.to_domain_event(mine)) == vars(event)
    assert slow.transcoder.decode(mine.state) == slow.transcoder.decode(
        slow.to_stored_event(event).state
    )


def test_a_games_snapshot_is_written_as_eventsourcing_writes_it() -> None:
    fast, slow = RecordMapper(transcoder()), Mapper(transcoder())
    game = Game.adopt(uuid4(), records_for(play(5)[1])[:300])
    snapshot = Game.Snapshot.take(game)
    assert orjson_wrote(fast, snapshot)
    assert fast.to_stored_event(snapshot) == slow.to_stored_event(snapshot)
    again = fast.to_domain_event(fast.to_stored_event(snapshot))
    assert vars(again) == vars(snapshot) and again.mutate(None).state == game.state


class Note(Aggregate):
    """Not a game: its events may hold anything the transcoder knows, a UUID say."""

    @on_event("Noted")
    def note(self, about: UUID) -> None:
        self.about = about


def test_other_events_are_eventsourcings_own() -> None:
    """orjson would write a UUID as text; the parent's mapper keeps it a UUID."""
    fast = RecordMapper(transcoder())
    note = Note()
    note.note(uuid4())
    noted = note.collect_events()[-1]
    assert not orjson_wrote(fast, noted)
    stored = fast.to_stored_event(noted)
    assert stored == Mapper(transcoder()).to_stored_event(noted)
    assert fast.to_domain_event(stored).about == noted.about


def test_the_store_uses_it_on_the_plain_json_transcoder(tmp_path: Any) -> None:
    store = EventStore(
        {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "g.db")}
    )
    try:
        assert type(store.mapper) is RecordMapper
    finally:
        store.close()


@settings(max_examples=300)
@given(st.datetimes(timezones=st.just(UTC)))
def test_isoformat_utc_is_isoformat(moment: datetime) -> None:
    assert isoformat_utc(moment) == moment.isoformat()


@pytest.mark.parametrize(
    "timestamp",
    [
        datetime(2024, 5, 1, 10, 0, 0, 0, tzinfo=UTC),  # no fraction: ``isoformat`` leaves it out
        datetime(2024, 5, 1, 10, 0, 0, 1, tzinfo=UTC),
        datetime(2024, 5, 1, 12, 0, 0, 5, tzinfo=timezone(timedelta(hours=2))),  # the transcoder's
        datetime(2024, 5, 1, 10, 0, 0, 5),  # naive: the transcoder's
    ],
)
def test_an_events_timestamp_is_written_as_the_transcoder_writes_it(timestamp: datetime) -> None:
    fast, slow = RecordMapper(transcoder()), Mapper(transcoder())
    event = recorded()
    event.__dict__["timestamp"] = timestamp
    mine = fast.to_stored_event(event)
    assert mine == slow.to_stored_event(event)
    assert fast.to_domain_event(mine).timestamp == timestamp


def test_a_transcoder_writing_datetimes_its_own_way_writes_the_timestamp() -> None:
    class Epoch(DatetimeAsISO):
        def encode(self, obj: datetime) -> str:
            return str(obj.timestamp())

    own = JSONTranscoder()
    for transcoding in (UUIDAsHex(), DecimalAsStr(), Epoch()):
        own.register(transcoding)
    stored = RecordMapper(own).to_stored_event(recorded())
    assert b'"_data_":"1714557600.123456"' in stored.state


def test_the_server_clock_always_has_microseconds(monkeypatch: pytest.MonkeyPatch) -> None:
    import service.games as games

    def clock_at(at: datetime) -> type[datetime]:
        class Clock(datetime):
            @classmethod
            def now(cls, tz: Any = None) -> Any:
                return at

        return Clock

    for at in (
        datetime(2026, 1, 2, 3, 4, 5, 0, tzinfo=UTC),
        datetime(2026, 1, 2, 3, 4, 5, 7, tzinfo=UTC),
    ):
        monkeypatch.setattr(games, "datetime", clock_at(at))
        assert games.utc_now() == at.isoformat(timespec="microseconds")
    monkeypatch.undo()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", games.utc_now())


@pytest.mark.parametrize("notified", [False, True])
def test_recordings_are_made_only_for_a_store_that_acts_on_saved_events(
    tmp_path: Any, notified: bool
) -> None:
    """eventsourcing's ``_notify`` hook gets each saved event's ``Recording`` (with its
    notification id) in a subclass that overrides it; otherwise ``save`` makes none."""
    seen: list[Any] = []

    class Notified(EventStore):
        def _notify(self, recordings: list[Any]) -> None:
            seen.extend(recordings)

    cls = Notified if notified else EventStore
    store = cls(
        {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "n.db")}
    )
    try:
        note = Note()
        note.note(uuid4())
        saved = store.save(note)
        if not notified:
            assert saved == [] and seen == []
            return
        assert saved == seen and len(saved) == 2
        assert [r.notification.originator_version for r in saved] == [1, 2]
        assert [r.domain_event.originator_version for r in saved] == [1, 2]
        ids = [r.notification.id for r in saved]
        assert ids[1] == ids[0] + 1
        assert store.recorder.max_notification_id() == ids[1]
    finally:
        store.close()
