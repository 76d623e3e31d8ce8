"""How a game's rows are written and read back: :class:`RecordMapper` (a game's events and
snapshots written with orjson), the counting event store the fast-forward reads through, and the
checks of a stored game row's columns and decoded fields (:func:`row_problem`,
:func:`state_problem`). Used by :class:`adapters.eventstore.EventStore`."""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, cast
from uuid import UUID

import orjson
from eventsourcing.persistence import (
    DatetimeAsISO,
    JSONTranscoder,
    Mapper,
    Notification,
    Recording,
    StoredEvent,
)
from eventsourcing.persistence import (
    EventStore as EventsourcingStore,
)
from eventsourcing.utils import get_topic

from domain import DEFAULT_RULESET
from domain.envelope import STORED_FIELDS, DamagedRecords, Problem, Record, record_from, unreadable
from domain.game import Game, stored_record

log = logging.getLogger("adapters.eventstore")  # where a damaged row was always logged

#: Topics of a game's stored events (``Game.Opened`` first, then ``Game.Recorded``).
GAME_TOPICS = (get_topic(Game.Opened), get_topic(Game.Recorded))
#: Topic of a game's snapshots (the aggregate's class).
GAME_TOPIC = get_topic(Game)


def isoformat_utc(moment: datetime) -> str:
    """``moment.isoformat()`` for a datetime in UTC, written by orjson (about twice as fast; a
    property test holds the two equal)."""
    return orjson.dumps(moment).decode()[1:-1]


class RecordMapper(Mapper[UUID]):
    """eventsourcing's mapper, writing a game's stored events (``Game.Opened``,
    ``Game.Recorded``) and its snapshots (``Game.Snapshot``) with orjson: the state
    eventsourcing's ``JSONTranscoder`` would write (the same keys in the same order, its
    ``{"_type_", "_data_"}`` form for datetimes), several times faster (a snapshot of a
    300-event game: 615 µs with ``json``, 63 with orjson), and read back by the same transcoder.

    Only these: their fields are plain JSON (the envelope hashes an event's; a snapshot holds the
    fold's state, which the property tests round-trip through JSON) plus datetimes. Any other
    event is the parent's: orjson would write a UUID as text, where the transcoder keeps its
    type. Anything orjson will not write (an integer past 64 bits, say) goes the parent's way
    too. Used only without a cipher or a compressor."""

    FAST = frozenset({Game.Opened, Game.Recorded, Game.Snapshot})
    #: orjson hands datetimes to the transcoder's own transcoding (as :mod:`json` does).
    OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME

    @functools.cached_property
    def _iso_datetimes(self) -> bool:
        """Whether the transcoder writes datetimes as eventsourcing's ``DatetimeAsISO`` does
        (then a UTC ``timestamp`` is written here the same way, by :func:`isoformat_utc`)."""
        transcoder = cast(JSONTranscoder, self.transcoder)
        return type(transcoder.types.get(datetime)) is DatetimeAsISO

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        cls = type(domain_event)
        if cls not in self.FAST or self.cipher or self.compressor:
            return super().to_stored_event(domain_event)
        state = dict(vars(domain_event))
        originator_id = state.pop("originator_id")
        originator_version = state.pop("originator_version")
        class_version = getattr(cls, "class_version", 1)
        if class_version > 1:
            state["class_version"] = class_version
        stamp = state.get("timestamp")
        if type(stamp) is datetime and stamp.tzinfo is UTC and self._iso_datetimes:
            state["timestamp"] = {"_type_": DatetimeAsISO.name, "_data_": isoformat_utc(stamp)}
        transcoder = cast(JSONTranscoder, self.transcoder)
        try:
            data = orjson.dumps(state, default=transcoder._encode_obj, option=self.OPTIONS)
        except TypeError:  # orjson.JSONEncodeError: the parent writes it (or says why not)
            return super().to_stored_event(domain_event)
        return StoredEvent(
            originator_id=originator_id,
            originator_version=originator_version,
            topic=get_topic(cls),
            state=data,
        )


class CountedEvents:
    """The events of stored rows, decoded one at a time as they are iterated (as eventsourcing's
    ``map``), which also says how many there are (``len``) before any is decoded."""

    __slots__ = ("_events", "_rows")

    def __init__(self, decode: Any, rows: Sequence[Any]) -> None:
        self._rows = rows
        self._events = map(decode, rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> CountedEvents:
        return self

    def __next__(self) -> Any:
        return next(self._events)


class CountingEventStore(EventsourcingStore[UUID]):
    """eventsourcing's event store whose ``get`` returns :class:`CountedEvents`: the
    fast-forward (:func:`forward`) sees how far behind a cached game is before it decodes
    anything."""

    def get(self, originator_id: UUID, **query: Any) -> Any:
        """The events of ``originator_id``; ``query`` is eventsourcing's (``gt``, ``lte``,
        ``desc``, ``limit``), passed to the recorder as it is."""
        rows = self.recorder.select_events(originator_id=originator_id, **query)
        return CountedEvents(self.mapper.to_domain_event, rows)


def recordings_of(
    events: Sequence[Any], stored: Sequence[StoredEvent], ids: Sequence[int] | None
) -> list[Recording[UUID]]:
    """eventsourcing's ``Recording`` of each saved event, with its ``Notification``."""
    return [
        Recording(
            event,
            Notification(
                originator_id=s.originator_id,
                originator_version=s.originator_version,
                topic=s.topic,
                state=s.state,
                id=n,
            ),
        )
        for event, s, n in zip(events, stored, ids or (), strict=False)
    ]


#: A decoded event's identity, which the row's own columns give (not its stored state).
ID_KEYS = ("originator_id", "originator_version")
#: The fields of a stored game event besides its envelope: eventsourcing's ``timestamp``, and
#: for ``Game.Opened`` (version 1) the aggregate's topic and the game's ruleset.
_RECORDED_FIELDS = frozenset({"timestamp", *STORED_FIELDS})
_OPENED_FIELDS = _RECORDED_FIELDS | {"originator_topic", "ruleset"}


def row_problem(version: Any, topic: str) -> str | None:
    """Why a stored row's columns are not a game event's, or None: its version is a whole
    number from 1, its topic ``Game.Opened`` at version 1 and ``Game.Recorded`` after it."""
    if type(version) is not int or version < 1:
        return "its stored version is not a whole number from 1"
    if topic not in GAME_TOPICS:
        return "its topic is not a game event's"
    if (topic == GAME_TOPICS[0]) != (version == 1):
        return "its topic is not its version's (Game.Opened is version 1, Game.Recorded after)"
    return None


def state_problem(version: int, fields: Mapping[str, Any], stamp: Any) -> str | None:
    """Why the decoded fields of a stored game event (``stamp``: its timestamp, decoded) are
    not a game event's, or None. The envelope's fields are the hash chain's to check
    (:func:`~domain.envelope.verify_records`); this checks the rest of the row."""
    if fields.keys() != (_OPENED_FIELDS if version == 1 else _RECORDED_FIELDS):
        return "its stored state does not have a game event's fields"
    if not isinstance(stamp, datetime):
        return "its stored timestamp does not decode"
    if version == 1:
        event = fields["event"]
        ruleset = event.get("ruleset", DEFAULT_RULESET) if isinstance(event, Mapping) else None
        if fields["originator_topic"] != GAME_TOPIC or fields["ruleset"] != ruleset:
            return "its stored aggregate topic or ruleset is not its game's"
    return None


def is_plain(mapper: Any) -> bool:
    """Whether a stored game event's state is its envelope as plain JSON (eventsourcing's
    JSON transcoder, no cipher, no compression): then ``json.loads`` reads it."""
    return (
        mapper.cipher is None
        and mapper.compressor is None
        and type(mapper.transcoder) is JSONTranscoder
    )


def record_of(
    mapper: Any, row: Any, plain: bool | None = None, *, at: int = 0, full: bool = False
) -> Record:
    """The record a stored row holds, or :func:`~domain.envelope.unreadable` saying why not
    (``at`` is the version named when the row's own is not a whole number).

    With the default store settings (:func:`is_plain`) a game event's stored state *is* its
    envelope as JSON plus eventsourcing's metadata, so ``json.loads`` gives exactly what the
    mapper would, without building event objects; any other setting, or an event stored
    with a ``class_version`` (to be upcast), goes through the mapper. Either way every byte
    of the row is decoded and checked, not only the hashed envelope (:func:`row_problem`,
    :func:`state_problem`: the version, the topic, the timestamp, Game.Opened's aggregate
    topic and ruleset); with ``full`` (``GET /verify``) the row is also decoded by the
    mapper, as the fold decodes it, and must give the same record."""
    version = row.originator_version
    why = row_problem(version, row.topic)
    if why is not None:
        return unreadable(version if type(version) is int else at, why)
    try:
        record: Record | None = None
        if is_plain(mapper) if plain is None else plain:
            state = json.loads(row.state)
            if isinstance(state, dict) and "class_version" not in state:
                why = state_problem(version, state, stamp_of(mapper, state.get("timestamp")))
                if why is not None:
                    return unreadable(version, why)
                record = record_from(version, state)
                if not full:
                    return record
        event: Any = mapper.to_domain_event(row)
        fields = {k: v for k, v in vars(event).items() if k not in ID_KEYS}
        why = state_problem(version, fields, fields.get("timestamp"))
        if why is not None:
            return unreadable(version, why)
        decoded = stored_record(event)
        if record is not None and decoded != record:
            return unreadable(version, "its stored state decodes differently in the fold")
        return decoded
    except Exception as exc:
        return unreadable(version, f"its stored state does not decode ({type(exc).__name__})")


def stamp_of(mapper: Any, stamp: Any) -> Any:
    """A stored timestamp (``{"_type_", "_data_"}``) decoded as the transcoder decodes it,
    or ``None`` when it does not decode."""
    transcoder = cast(JSONTranscoder, mapper.transcoder)
    if not isinstance(stamp, dict) or stamp.keys() != {"_type_", "_data_"}:
        return None
    transcoding = transcoder.names.get(stamp["_type_"])
    if transcoding is None:
        return None
    try:
        return transcoding.decode(stamp["_data_"])
    except Exception:
        return None


def undecodable_row(
    recorder: Any,
    mapper: Any,
    aggregate_id: UUID,
    failure: Exception,
    of_game: tuple[UUID, str] | None,
) -> Exception:
    """:class:`DamagedRecords` for the first of an aggregate's rows that does not decode (it
    names the game and the record of ``of_game``: ``(game id, what record)``), or ``failure``
    itself when they all do."""
    for row in recorder.select_events(aggregate_id):
        try:
            mapper.to_domain_event(row)
        except Exception as exc:
            problem: Problem = {
                "version": int(row.originator_version),
                "reason": "undecodable",
                "detail": f"its stored state does not decode ({type(exc).__name__})",
            }
            game_id, record = of_game or (aggregate_id, "stored")
            log.warning("game %s: its %s record is damaged: %s", game_id, record, problem)
            return DamagedRecords(game_id, [problem], record=record)
    return failure
