"""An event's live stream (issue #38): ``GET /api/events/<id>/stream``, a message for every new
event of the event (a player registered, pairings posted, the clock started, paused, resumed or
extended, time called at a table, a result reported, and whatever else the event records), each
as its viewer may see it, served by the stream process beside the games' streams
(``api.streams.process``, docs/streams.md).

A message is one stored event of the event (``Tournament``): SSE ``id`` its version (a resumed
stream sends what follows ``Last-Event-ID``), ``data`` ``{"version", "type", ...its fields as
the viewer may see them}``, ``type`` the event's class in snake case (``paired``,
``clock_started``, ``table_time_called``; a stored field named ``version``, the version of a
game the event names (a judge call's, a ruling's), is sent as ``game_version``: the stream
resumes after the message's own). Who sees what (:data:`VIEWS`, by stored class name):
nobody a token hash or a secret; the organizer, the judges and the player named a decklist or a
disqualification; everyone else the public part. An event class with no view of its own is
shown whole (but its hashes, tokens and secrets) to the staff and to the player it names, and
only its ``round``, ``table`` and time to everyone else: a module that adds event classes
registers their views with :func:`event_view`.

Viewers are named as tickets carry them (:func:`viewer_name`): ``organizer``, ``judge``,
``spectator``, ``player-<the name, base64url>`` (a name may hold any character).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Collection, Mapping
from itertools import islice
from typing import Any
from uuid import UUID

from domain.tournament.aggregate import own_fields
from service.streams import CHUNK_EVENTS, Chunk
from service.tournaments import Caller

#: ``view(fields, caller)``: what ``caller`` may see of a stored event's fields (``None``: not
#: sent to it).
View = Callable[[Mapping[str, Any], Caller], "dict[str, Any] | None"]
#: The ticket viewers of an event's stream start with this (not a game's seat or role).
TICKET_PREFIX = "event-"
_HIDDEN = re.compile(r"token|hash|secret")
_PUBLIC_DEFAULT = ("round", "table", "at")


def viewer_name(caller: Caller) -> str:
    """The name of a stream's viewer (a ticket's; no ``.``, which tickets separate with)."""
    if caller.role == "player" and caller.player is not None:
        encoded = base64.urlsafe_b64encode(caller.player.encode()).rstrip(b"=").decode()
        return f"player-{encoded}"
    return caller.role


def caller_named(viewer: str) -> Caller:
    """The caller a viewer's name stands for (:func:`viewer_name` read back)."""
    if viewer.startswith("player-"):
        raw = viewer[len("player-") :]
        name = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode()
        return Caller("player", name)
    return Caller(viewer)


def snake(name: str) -> str:
    """``ClockStarted`` -> ``clock_started``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _staff_or_own(caller: Caller, fields: Mapping[str, Any]) -> bool:
    return caller.sees_lists or (
        caller.player is not None and caller.player == fields.get("player")
    )


def _visible(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if not _HIDDEN.search(k)}


def default_view(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    """An event with no view of its own: whole (but hashes, tokens, secrets) to the staff
    and the player it names; its round, table and time to everyone else."""
    if _staff_or_own(caller, fields):
        return _visible(fields)
    return {k: fields[k] for k in _PUBLIC_DEFAULT if k in fields}


def public_view(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    return _visible(fields)


def _opened(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    settings = {k: v for k, v in fields["settings"].items() if k not in ("doors", "treasures")}
    return {"settings": settings, "commitment": fields["commitment"], "at": fields["opened_at"]}


def _registered(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    shown = {"player": fields["player"], "decklist_hash": fields["decklist_hash"]}
    if _staff_or_own(caller, fields):
        shown.update(hero=fields["hero"], decklist=fields["decklist"])
    return {**shown, "at": fields["at"]}


def _paired(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    keys = ("round", "pairings", "byes", "revealed", "at")
    return {k: fields[k] for k in keys}


def _disqualified(fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
    if _staff_or_own(caller, fields):
        return _visible(fields)
    return {k: fields[k] for k in ("player", "after_round", "at")}


#: The view of each stored event class of an event, by its class name.
VIEWS: dict[str, View] = {
    "Opened": _opened,
    "Registered": _registered,
    "Paired": _paired,
    "GameAdded": public_view,
    "Reported": public_view,
    "Dropped": public_view,
    "Disqualified": _disqualified,
    "ClockStarted": public_view,
    "ClockPaused": public_view,
    "ClockResumed": public_view,
    "TimeExtended": public_view,
    "TableTimeCalled": public_view,
}


def event_view(name: str, view: View) -> View:
    """Register ``view`` for the stored event class called ``name``."""
    VIEWS[name] = view
    return view


def message(event: Any, caller: Caller) -> dict[str, Any] | None:
    """One stored event of an event as ``caller`` may see it (``None``: not for it)."""
    name = type(event).__name__
    fields = own_fields(event)
    shown = VIEWS.get(name, default_view)(fields, caller)
    if shown is None:
        return None
    if "version" in shown:  # a game's version (a call's, a ruling's): the message's is the event's
        shown = {**shown, "game_version": shown.pop("version")}
    return {**shown, "version": int(event.originator_version), "type": snake(name)}


def next_chunks(
    store: Any,
    event_id: UUID,
    wanted: Collection[tuple[str, int]],
    dumps: Callable[[Any], str],
    *,
    limit: int = CHUNK_EVENTS,
) -> dict[tuple[str, int], Chunk]:
    """For each ``(viewer, after)`` wanted, the event's stored events after version ``after``
    as that viewer may see them, as Server-Sent Events (read once for all of them)."""
    lo = min(after for _, after in wanted)
    events = list(islice(store.events.get(event_id, gt=lo), limit + 1))
    more = len(events) > limit
    events = events[:limit]
    out: dict[tuple[str, int], Chunk] = {}
    for viewer, after in wanted:
        caller = caller_named(viewer)
        parts: list[bytes] = []
        last = after
        for event in events:
            version = int(event.originator_version)
            if version <= after:
                continue
            last = version
            shown = message(event, caller)
            if shown is not None:
                parts.append(b"id: %d\ndata: %s\n\n" % (version, dumps(shown).encode("utf-8")))
        out[(viewer, after)] = Chunk(b"".join(parts), last, more)
    return out
