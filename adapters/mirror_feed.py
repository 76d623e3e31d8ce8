"""What ``munchlog publish`` reads of the venue's log: its games' records and its events' (issue #41).

A game's records carry their own hash chain (``domain.envelope``); an event's (a
:class:`~domain.tournament.aggregate.Tournament`'s stored events: registrations, pairings,
results, the clock, check-in, reports, staff, calls) carry none. Both are read here in one
query, in commit order after one notification id, so the publisher keeps ONE position.

An event's record travels as ``{"version", "topic", "fields", "timestamp"}``: the stored
event's class (its topic, one of :data:`EVENT_TOPICS`), its own fields as the mapper decodes
(and upcasts) them, and its timestamp. Every token hash it holds (``token_hash``,
``judge_token_hash``: the venue's players', staff's and judge's) is sent blank
(:data:`NO_TOKEN`): no venue token may ever work on the public server; and a registration's
hero and decklist (with the salt of its public hash) are sent as ``None``: the public side
shows them to nobody (every caller reads a copy as a spectator), so it never holds them. It
refuses a record that holds either (``service.mirror_events``). The event's secrets
(``TournamentSecrets``: the round-1 secret before it is revealed, the seat tokens' key) are
another aggregate, never read here.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import Aggregate
from eventsourcing.utils import resolve_topic

from adapters.record_mapper import GAME_TOPICS, is_plain, record_of
from domain.tournament import calls, checkin, clock, reports, staff, tokens
from domain.tournament.aggregate import Tournament, own_fields

#: The token hash no token has (an empty string: a SHA-256 hex digest never is).
NO_TOKEN = ""
#: The modules whose classes are an event's stored events (imported above for that).
_EVENT_MODULES = (calls, checkin, clock, reports, staff, tokens)


def _event_classes() -> dict[str, type[Aggregate.Event]]:
    """Every stored event class of a :class:`Tournament`, by topic: its own nested ones and
    those of the modules of :data:`_EVENT_MODULES` (the abstract bases, named ``_…`` or
    ``Event``, and eventsourcing's ``Created`` are never stored and left out, as are
    ``TournamentSecrets``' and ``MirroredEvent``'s)."""
    found: dict[str, type[Aggregate.Event]] = {}
    stack: list[type] = [Aggregate.Event]
    modules = {Tournament.__module__, *(m.__name__ for m in _EVENT_MODULES)}
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        name = cls.__qualname__
        if (
            cls.__module__ in modules
            and not name.startswith(("_", "TournamentSecrets", "MirroredEvent"))
            and not name.split(".")[-1].startswith("_")
            and name.split(".")[-1] not in ("Event", "Created")
        ):
            topic = f"{cls.__module__}:{name}"
            found[topic] = resolve_topic(topic)  # the class eventsourcing registered (its
            # metaclass remakes an aggregate's nested event classes: the first is a subclass too)
    return found


#: The stored event classes of an event, by topic: what may travel (and be stored) as one.
EVENT_CLASSES = _event_classes()
EVENT_TOPICS = tuple(sorted(EVENT_CLASSES))


#: A registration's fields that only the venue's organizer, judges and the player see: the
#: hero (with the salt of the list's hash) and the decklist. Sent as ``None`` (a classic
#: player's own): the public server shows them to nobody, so it never holds them.
LISTS = ("hero", "decklist")


def is_token_hash(field: str) -> bool:
    """Whether an event's field holds a token's hash (``token_hash``, ``judge_token_hash``)."""
    return field.endswith("token_hash")


def kept_back(field: str, value: Any) -> Any:
    """What travels of an event's ``field``: a token hash blank, a registered list ``None``."""
    if is_token_hash(field):
        return NO_TOKEN
    return None if field in LISTS else value


def event_record(mapper: Any, note: Any) -> dict[str, Any]:
    """One stored event of an event as it travels (the module docstring): token hashes blank,
    registered lists left out (:func:`kept_back`)."""
    event: Any = mapper.to_domain_event(note)
    fields = {key: kept_back(key, value) for key, value in own_fields(event).items()}
    return {
        "version": int(note.originator_version),
        "topic": note.topic,
        "fields": fields,
        "timestamp": event.timestamp.isoformat(),
    }


def feed_since(store: Any, after: int, limit: int) -> list[tuple[int, str, str, dict[str, Any]]]:
    """``(notification id, kind, id, record)`` of the games' and events' stored events
    committed after notification ``after`` (at most ``limit``), in commit order: ``kind`` is
    ``"game"`` (a game's record, exactly as stored) or ``"event"`` (:func:`event_record`)."""
    notes = store.recorder.select_notifications(
        after, limit, topics=[*GAME_TOPICS, *EVENT_TOPICS], inclusive_of_start=False
    )
    plain = is_plain(store.mapper)
    out: list[tuple[int, str, str, dict[str, Any]]] = []
    for note in notes:
        if note.topic in GAME_TOPICS:
            out.append(
                (note.id, "game", str(note.originator_id), record_of(store.mapper, note, plain))
            )
        else:
            out.append(
                (note.id, "event", str(note.originator_id), event_record(store.mapper, note))
            )
    return out
