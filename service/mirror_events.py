"""A venue's events (its tournaments) kept here as read-only copies (issue #41).

``munchlog publish`` sends an event's stored events as ``adapters.mirror_feed`` reads them:
``{"event_id", "version", "topic", "fields", "timestamp"}``. Unlike a game's records they carry
no hash chain, so what can be checked here is less than for a game (docs/operations.md, "A
venue and a public server"):

* **checked**: the event is this mirror's (or new here); its records come in order, the first
  one the next version of the copy held (``not_next`` otherwise), each the next after the one
  before it (``not_contiguous``); each names a stored event class of an event
  (``adapters.mirror_feed.EVENT_CLASSES``: ``unknown_topic``), the creation class at version 1
  and only there (``not_created``), for this event's id and of the ``Tournament`` aggregate;
  each is made into that class with exactly its fields and applies to the copy as the venue
  applied it (``does_not_apply`` otherwise: a missing or extra field, a round or a player the
  copy does not have); and it holds no token hash (``token_hash``: every token hash travels
  blank, so no venue token works here) and no registered hero or decklist (``decklist``: they
  travel as ``None``; nobody here may see them);
* **not checked**: that the fields are the ones the venue stored (nothing chains them: a
  publisher holding the mirror's token could send a changed result), nor that the event's rounds
  were drawn as the rules draw them: ``munchlog verify`` of the event's export checks that, on
  either side.

A copy is stored under the venue's event id, with a :class:`MirroredEvent` mark naming its
mirror. It is read as any event here (``GET /api/events/<id>``, standings, export, its stream
and pages), every caller as a spectator (the public organizer too: ``Tournaments.caller``), and
nothing writes to it but its mirror (``Tournaments._update``: 403 ``mirror/read_only``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from adapters.mirror_feed import EVENT_CLASSES, LISTS, NO_TOKEN, is_token_hash
from domain.game import Mirror
from domain.tournament.aggregate import MirroredEvent, Tournament
from service.errors import DoesNotExtend, NotAllowedError

#: The one class an event's first record may have.
OPENED = f"{Tournament.Opened.__module__}:{Tournament.Opened.__qualname__}"
#: The aggregate class a creation record must name.
AGGREGATE = f"{Tournament.__module__}:{Tournament.__qualname__}"


def is_mirrored(event: Tournament) -> bool:
    """Whether ``event`` is a venue's copy: its judge token hash is blank. A local event's is
    the SHA-256 of the judge token it opened with, never blank; a copy's always is (a record
    holding a token hash is refused: :func:`extended`). Read from the event itself, so every
    read and write path knows it with no other load."""
    return event.judge_token_hash == NO_TOKEN


def owner(store: Any, event_id: UUID) -> UUID | None:
    """The mirror whose copy the event is (``None``: none)."""
    mark: Any = store.load(MirroredEvent.id_for(event_id))
    return mark.mirror_id if isinstance(mark, MirroredEvent) else None


def extended(
    store: Any, mirror: Mirror, event_id: UUID, batch: Sequence[Mapping[str, Any]]
) -> list[Any]:
    """The aggregates to save for one event's part of a batch (``batch``: its records in the
    venue's order), checked (the module docstring); :class:`~service.errors.DoesNotExtend` or 403
    ``auth/not_this_mirror`` otherwise."""
    found: Any = store.load(event_id)
    held: Tournament | None = found if isinstance(found, Tournament) else None
    held_version = held.version if held is not None else 0
    if held is not None and owner(store, event_id) != mirror.id:
        raise NotAllowedError(
            "auth/not_this_mirror", f"event {event_id} is not a copy of this mirror's"
        )
    copy: Any = None
    if held is not None:
        copy = store.load(event_id, held_version)  # a copy of its own to extend
        copy._pending_events = []
    expected = held_version + 1
    for record in batch:
        at = record.get("version")
        at = at if isinstance(at, int) else 0
        if at != expected:
            reason = "not_next" if expected == held_version + 1 else "not_contiguous"
            raise DoesNotExtend(event_id, held_version, at, reason, kind="event")
        copy = _applied(copy, event_id, record, held_version)
        expected += 1
    if held is None:
        return [copy, MirroredEvent(event_id, mirror.id)]
    return [copy]


def _applied(copy: Any, event_id: UUID, record: Mapping[str, Any], held: int) -> Any:
    """``copy`` (``None`` before the first record) with ``record`` applied, its event pending."""
    at = int(record["version"])
    topic = str(record.get("topic"))
    cls = EVENT_CLASSES.get(topic)

    def refuse(reason: str) -> DoesNotExtend:
        return DoesNotExtend(event_id, held, at, reason, kind="event")

    if cls is None:
        raise refuse("unknown_topic")
    if (topic == OPENED) != (at == 1):
        raise refuse("not_created")
    fields = dict(record.get("fields") or {})
    if any(is_token_hash(k) and v != NO_TOKEN for k, v in fields.items()):
        raise refuse("token_hash")
    if any(fields.get(k) is not None for k in LISTS):
        raise refuse("decklist")
    if topic == OPENED and fields.get("originator_topic") != AGGREGATE:
        raise refuse("not_created")
    try:
        stamp = datetime.fromisoformat(str(record.get("timestamp")))
        event: Any = cls(originator_id=event_id, originator_version=at, timestamp=stamp, **fields)
        copy = event.mutate(copy)
    except Exception:  # a field missing or extra, a round or player not here: not the venue's
        raise refuse("does_not_apply") from None
    copy._pending_events.append(event)
    return copy
