"""Mirrors: a venue's games and events, published to this server record by record (issue #41).

A venue (a game store, a convention hall) runs its own ``munchlog serve``; ``munchlog publish``
beside it pushes every record it stores, exactly as stored, to a public server, which keeps each
game as a read-only copy under the same game id. The public server's organizer opens a mirror
(:meth:`Mirrors.open`: its id and token, the token stored as a hash only); each batch the venue
sends (:meth:`Mirrors.take`) is accepted only if, game by game, it extends the chain held here:
its first record is the next version, and the held records followed by the batch's form an
unbroken hash chain, replay through the rules and deal as ``munchlog verify`` checks
(``projections.exports.checked_records``, the import's checks). Anything else is
:class:`DoesNotExtend` (409, naming the version held and the version at fault), and a batch is
all or nothing: every game it touches and the mirror's own record are saved in ONE ``save``.

A copy has no tokens (its access record names its seats, which the views need, each with
:data:`NO_TOKEN`, which no token hashes to), so no seat, table or judge token reaches its write
paths; its :class:`~domain.game.MirroredGame` mark names the one mirror whose batches
may extend it (another mirror's token is refused, 403, as is a batch for a game of this server's
own). Reads are a local game's: every read path redacts it for its viewer. A venue's events (its
tournaments) come in the same batches, checked as far as records with no hash chain can be:
``service.mirror_events``.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from adapters.eventstore import RecordConflictError
from domain.errors import CodedError
from domain.game import Game, GameAccess, GameSummary, Mirror, MirroredGame, token_hash
from projections.exports import ImportRejected, checked_records
from service import mirror_events
from service.delay import delay_objects
from service.errors import DoesNotExtend, GameNotFoundError, NotAllowedError
from service.games import GameLog, utc_now

#: Mirrors ``/metrics`` lists at most.
MAX_LISTED = 100
#: A copy's seats' token hash: no token's SHA-256 is empty, so no token is a copy's seat.
NO_TOKEN = ""


class MirrorNotFoundError(CodedError, LookupError):
    """No mirror has this id (HTTP 404)."""

    code = "mirror/not_found"

    def __init__(self, mirror_id: object) -> None:
        super().__init__(f"no mirror {mirror_id}")


def mirror_of_token(token: str) -> str:
    """The mirror id a mirror's token starts with (``""`` for another token)."""
    named, dot, _ = token.partition(".")
    return named if dot else ""


class Mirrors:
    """The mirrors of one :class:`GameLog` (see the module docstring)."""

    def __init__(self, log: GameLog) -> None:
        self.log = log
        self.store = log.store

    def open(self) -> dict[str, str]:
        """A new mirror: ``{"mirror_id", "token"}`` (the token is shown once, stored hashed;
        it starts with the mirror's id, so that the token alone names the mirror a publisher
        pushes to: :func:`mirror_of_token`)."""
        secret = secrets.token_urlsafe(32)
        mirror = Mirror(token_hash=token_hash(secret))
        self.store.save(mirror)
        return {"mirror_id": str(mirror.id), "token": f"{mirror.id}.{secret}"}

    def mirror(self, mirror_id: UUID) -> Mirror:
        found: Any = self.store.load(mirror_id)
        if not isinstance(found, Mirror):
            raise MirrorNotFoundError(mirror_id)
        return found

    def authenticate(self, mirror_id: UUID, token: str) -> Mirror:
        """The mirror, if ``token`` is its token; else ``auth/not_this_mirror`` (403)."""
        mirror = self.mirror(mirror_id)
        named, _, secret = token.partition(".")
        if named != str(mirror.id) or not mirror.holds(token_hash(secret)):
            raise NotAllowedError("auth/not_this_mirror", "this token is not this mirror's")
        return mirror

    def owner(self, game_id: UUID) -> UUID | None:
        """The mirror whose copy the game is (``None``: a game of this server's own)."""
        mark: Any = self.store.load(MirroredGame.id_for(game_id), of_game=(game_id, "mirror"))
        return mark.mirror_id if isinstance(mark, MirroredGame) else None

    def take(
        self,
        mirror_id: UUID,
        token: str,
        records: Sequence[Mapping[str, Any]],
        *,
        position: int,
        head: int,
        delays: Mapping[str, Mapping[str, Any]] | None = None,
        events: Sequence[Mapping[str, Any]] = (),
    ) -> dict[str, Any]:
        """Store a batch: ``records`` (each a stored record with its ``game_id``), in the
        venue's order, up to the venue's notification ``position``, of ``head`` there. Every
        game's part must extend the copy held here (:class:`DoesNotExtend`), and be this
        mirror's (403); nothing is stored otherwise. ``delays``: the spectator delay of each
        game the batch starts, by game id (``{"events", "seconds"}``), applied here as on the
        venue. ``events``: the venue's events' records (``service.mirror_events``), each with
        its ``event_id``, stored in the same save. The mirror's status after it."""
        mirror = copy.deepcopy(self.authenticate(mirror_id, token))  # the cache's is read-only
        by_game: dict[UUID, list[dict[str, Any]]] = {}
        for entry in records:
            record = dict(entry)
            game_id = Game.id_for_import(str(record.pop("game_id")))
            by_game.setdefault(game_id, []).append(record)
        taken_at = utc_now()
        objs: list[Any] = []
        for game_id, batch in by_game.items():
            delay = (delays or {}).get(str(game_id)) or {}
            objs += self._extended(mirror, game_id, batch, taken_at, delay)
        by_event: dict[UUID, list[Mapping[str, Any]]] = {}
        for entry in events:
            by_event.setdefault(UUID(str(entry["event_id"])), []).append(entry)
        for event_id, part in by_event.items():
            objs += mirror_events.extended(self.store, mirror, event_id, part)
        started = [str(e) for e in by_event if str(e) not in mirror.events]
        if started:
            mirror.trigger_event(Mirror.EventsTaken, events=started)
        newest = max((str(r["received_at"]) for r in records), default=None)
        mirror.trigger_event(
            Mirror.BatchTaken,
            games=[str(g) for g in by_game if str(g) not in mirror.games],
            records=len(records) + len(events),
            taken_at=taken_at,
            position=position,
            head=head,
            newest_at=newest,
        )
        try:
            self.store.save(*objs, mirror)
        except RecordConflictError:  # another batch was stored meanwhile
            if by_event and not by_game:
                event_id, part = next(iter(by_event.items()))
                held: Any = self.store.load(event_id)
                version = held.version if held is not None else 0
                raise DoesNotExtend(
                    event_id, version, int(part[0]["version"]), "conflict", kind="event"
                ) from None
            first = next(iter(by_game.items()), None)
            version = self._held(first[0]) if first else 0
            at = int(first[1][0]["version"]) if first else 0
            raise DoesNotExtend(
                first[0] if first else "", version, at, "conflict", "another batch came first"
            ) from None
        for game_id in by_game:
            self.store.trust(game_id)
        for event_id in by_event:
            self.store.forget(event_id)  # a cached copy of the event is older than the stored
        return self.status(mirror_id)

    def _held(self, game_id: UUID) -> int:
        try:
            return self.log.current_version(game_id)
        except GameNotFoundError:
            return 0

    def _extended(
        self,
        mirror: Mirror,
        game_id: UUID,
        batch: list[dict[str, Any]],
        taken_at: str,
        delay: Mapping[str, Any],
    ) -> list[Any]:
        """The aggregates to save for one game's part of a batch, checked."""
        held_version = self._held(game_id)
        if held_version and self.owner(game_id) != mirror.id:
            raise NotAllowedError(
                "auth/not_this_mirror", f"game {game_id} is not a copy of this mirror's"
            )
        held = self.log.all_records(game_id) if held_version else []
        first = batch[0].get("version")
        if first != held_version + 1:
            raise DoesNotExtend(
                game_id, held_version, first if isinstance(first, int) else 0, "not_next"
            )
        try:
            checked_records([*held, *batch])
        except ImportRejected as exc:
            raise DoesNotExtend(game_id, held_version, exc.version, exc.reason) from None
        at = str(batch[-1]["received_at"])
        if not held_version:
            game = Game.adopt(game_id, batch)
            summary = GameSummary.open(game, created_at=str(batch[0]["received_at"]))
            summary.follow(game, at=at)
            mark = MirroredGame(game_id, mirror.id)
            delayed = delay_objects(game_id, {"spectator_delay": delay})
            access = GameAccess.issue(game_id, dict.fromkeys(game.state["seats"], NO_TOKEN))
            return [game, access, summary, mark, *delayed]
        game = self.log.game(game_id)
        game.extend(batch)
        held_summary: Any = self.store.load(
            GameSummary.id_for(game_id), of_game=(game_id, "summary")
        )
        return [game, held_summary] if held_summary.follow(game, at=at) else [game]

    def all(self, most: int = MAX_LISTED) -> list[dict[str, Any]]:
        """Every mirror's status (at most ``most``), oldest first: what ``/metrics`` reports."""
        opened = self.store.notifications_of(Mirror.Opened, 0, most)
        return [self.status(note.originator_id) for note in opened]

    def status(self, mirror_id: UUID) -> dict[str, Any]:
        """What ``GET /api/mirrors/<id>`` answers: the last batch, the lag in records (the
        venue's head less the last position sent) and in seconds (from the newest record the
        last batch held, by the venue's clock, to when it was stored here), the games."""
        mirror = self.mirror(mirror_id)
        last = mirror.last_batch
        lag: dict[str, Any] = {"records": None, "seconds": None}
        if last is not None:
            lag["records"] = max(0, int(last["head"]) - int(last["position"]))
            if last["newest_at"]:
                taken = datetime.fromisoformat(last["taken_at"])
                lag["seconds"] = max(
                    0.0, (taken - datetime.fromisoformat(last["newest_at"])).total_seconds()
                )
        return {
            "mirror_id": str(mirror.id),
            "records": mirror.records,
            "last_batch": last,
            "lag": lag,
            "games": list(mirror.games),
            "events": list(mirror.events),
        }
