"""A game's live stream, framework-free: who a stream is for (a bearer token or a ticket), and
what it says next (issue #26, docs/streams.md).

``GET /api/games/<id>/stream`` is served by the stream process (:mod:`api.streams.process`), not
by the recording workers: it sends each stored event as its viewer may see it, the same JSON as
one item of ``GET /events``, as a Server-Sent Event whose ``id`` is the event's version. This
module holds what that process and the recording app share:

* **Tickets.** A browser's ``EventSource`` cannot send an ``Authorization`` header, and a
  long-lived token in a URL would end up in histories and logs. So a page trades its token for
  a ticket (``POST /api/games/<id>/stream-tickets``): a string naming the game, the viewer the
  token stands for, an expiry :data:`TICKET_SECONDS` away and a random nonce, signed with HMAC
  under a key derived from the organizer's token hash (:func:`ticket_key`: both processes know
  it; no new secret to manage). The stream process accepts a ticket once, across restarts and
  across stream processes (:class:`Tickets` remembers the nonces accepted until they expire,
  in the database: ``adapters.used_tickets``); a page that loses its stream asks
  for a new ticket and resumes after the last ``id`` it had.
* **What comes next** (:func:`next_chunks`): the events after a version as a viewer may see them
  (``Delays.page``: a spectator of a delayed game is held back, docs/rules.md), written as SSE.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from adapters.used_tickets import UsedInDatabase, UsedInMemory, used_tickets
from projections.views import event_view, hides_nothing, view_class
from service.errors import CodedError
from service.games import GameLog

UsedTickets = UsedInMemory | UsedInDatabase

#: Seconds a ticket may wait before it is used.
TICKET_SECONDS = 60
#: Seconds between two heartbeat comments on an idle stream.
HEARTBEAT_SECONDS = 15.0
#: The most events one read of the store hands a stream at once.
CHUNK_EVENTS = 500
#: The comment every stream opens with, and the one it repeats when idle.
OPENING = b"retry: 2000\n: stream open\n\n"
HEARTBEAT = b": heartbeat\n\n"
_PREFIX = b"munchlog-stream-ticket-v1|"


class InvalidTicket(CodedError):
    """A stream ticket that is forged, for another game, expired or already used: 401
    ``auth/invalid_ticket``."""

    code = "auth/invalid_ticket"

    def __init__(self, why: str) -> None:
        super().__init__(f"this stream ticket is {why}: ask for a new one")


def ticket_key(organizer_hash: str) -> bytes:
    """The key tickets are signed under: derived from the organizer token's hash, which every
    process of one deployment knows and nothing stores."""
    return hmac.new(organizer_hash.encode("ascii"), _PREFIX + b"key", hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Tickets:
    """Make and redeem stream tickets under one key (see the module docstring).

    >>> t = Tickets(b"k" * 32, clock=lambda: 1000.0)
    >>> gid = UUID(int=7)
    >>> t.redeem(t.make(gid, "A"), gid)
    'A'
    """

    def __init__(
        self, key: bytes, *, clock: Callable[[], float] = time.time, used: UsedTickets | None = None
    ) -> None:
        self._key = key
        self._clock = clock
        #: the nonces of the tickets redeemed (``adapters.used_tickets``: in the database
        #: for a store that has one, :func:`tickets_for`; else in this process)
        self._used = used if used is not None else UsedInMemory()

    def make(self, game_id: UUID, viewer: str) -> str:
        """A ticket for ``viewer`` to stream ``game_id``, valid :data:`TICKET_SECONDS`."""
        expires = int(self._clock()) + TICKET_SECONDS
        payload = f"{game_id.hex}.{viewer}.{expires}.{secrets.token_hex(12)}".encode()
        return _b64(payload) + "." + _b64(self._sign(payload))

    def redeem(self, ticket: str, game_id: UUID) -> str:
        """The viewer a ticket stands for; :class:`InvalidTicket` if it is not one this key
        signed for ``game_id``, has expired or was redeemed before."""
        head, _, mac = ticket.partition(".")
        try:
            payload = _unb64(head)
            good = hmac.compare_digest(_unb64(mac), self._sign(payload))
        except (ValueError, TypeError):
            good = False
        if not good:
            raise InvalidTicket("not valid")
        game, viewer, expires, nonce = payload.decode().split(".")
        if game != game_id.hex:
            raise InvalidTicket("for another game")
        now = self._clock()
        if int(expires) < now:
            raise InvalidTicket("expired")
        if not self._used.claim(nonce, int(expires), now):
            raise InvalidTicket("already used")
        return viewer

    def _sign(self, payload: bytes) -> bytes:
        return hmac.new(self._key, _PREFIX + payload, hashlib.sha256).digest()[:18]


#: A stream position as a client may give it: ASCII digits (spaces or tabs around them, as
#: HTTP allows around a header's value), up to :data:`MAX_POSITION` (JSON's largest exact
#: integer, as every version a request names: ``api.json_api.schemas.MAX_VERSION``).
_POSITION = re.compile(r"[ \t]*([0-9]{1,16})[ \t]*")
MAX_POSITION = 2**53 - 1


def stream_position(raw: str) -> int | None:
    """The version ``raw`` names (``Last-Event-ID``, ``?after=``), or ``None`` if it is not an
    ASCII version number: ``str.isdigit`` takes ``²`` (which ``int`` refuses) and ``int`` takes
    full-width digits, ``+1`` and ``1_0``; none of them is a version here.

    >>> [stream_position(s) for s in ("41", " 7 ", "²", "\uff11\uff12", "+1", "1_0", "", "-1")]
    [41, 7, None, None, None, None, None, None]
    """
    found = _POSITION.fullmatch(raw)
    return int(found.group(1)) if found and int(found.group(1)) <= MAX_POSITION else None


def tickets_for(log: GameLog, organizer_hash: str) -> Tickets:
    """The tickets a stream process redeems: used ones remembered in ``log``'s database, so
    that a ticket is accepted once across restarts and across stream processes."""
    return Tickets(ticket_key(organizer_hash), used=used_tickets(log.store))


def prepare(log: GameLog, game_id: UUID) -> None:
    """Verify the game's stored hash chain (once per process; ``DamagedRecords`` if it does
    not verify), as every read does before it serves a game: when its first stream opens,
    so that the events due on it later do not wait for it."""
    log.store.ensure_sound(game_id)


@dataclass(frozen=True)
class Chunk:
    """What a stream sends next: SSE ``data`` (maybe empty), the last version in it (or the
    version it started after) and whether more may be waiting."""

    data: bytes
    last: int
    more: bool


def next_chunks(
    log: GameLog,
    game_id: UUID,
    wanted: Collection[tuple[str, int]],
    dumps: Callable[[Any], str],
    *,
    limit: int = CHUNK_EVENTS,
) -> dict[tuple[str, int], Chunk]:
    """For each ``(viewer, after)`` wanted, the events after version ``after`` that the viewer
    may see now, as Server-Sent Events: ``id: <version>`` and ``data: <the event as GET
    /events shows it to that viewer>`` (written by ``dumps``, the app's JSON).

    The game's records are read once for all of them (from the smallest ``after``, at most
    ``limit``), and each event is rendered once per viewer, or once for all when it hides
    nothing from anyone (``hides_nothing``): the streams of one game at one point cost one
    read of the store, however many viewers follow it. A spectator or the organizer of a
    delayed game gets what ``Delays.version_for`` lets them see (docs/rules.md, the spectator
    delay), as on every read path."""
    lo = min(after for _, after in wanted)
    records = log.records(game_id, after=lo, limit=limit + 1)
    more = len(records) > limit
    records = records[:limit]
    seats = log.seats(game_id)
    caps = {viewer: log.delays.version_for(game_id, viewer) for viewer in {v for v, _ in wanted}}
    rendered: dict[tuple[str, int], bytes] = {}
    shared = {int(r["version"]): hides_nothing(r, seats) for r in records}
    out: dict[tuple[str, int], Chunk] = {}
    for viewer, after in wanted:
        cap = caps[viewer]
        parts: list[bytes] = []
        last = after
        for record in records:
            version = int(record["version"])
            if version <= after:
                continue
            if cap is not None and version > cap:
                break
            key = (view_class(viewer, shared[version]), version)
            data = rendered.get(key)
            if data is None:
                item = dumps(event_view(record, viewer, seats)).encode("utf-8")
                data = rendered[key] = b"id: %d\ndata: %s\n\n" % (version, item)
            parts.append(data)
            last = version
        out[(viewer, after)] = Chunk(b"".join(parts), last, more)
    return out
