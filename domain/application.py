"""GameLog: the event-sourced application that records Munchkin games.

One ``GameLog`` per process (the API's app factory makes it). Each method reads like a short
script: load, decide, save. Storage is configuration (eventsourcing's ``PERSISTENCE_MODULE``,
``SQLITE_DBNAME``, ``POSTGRES_*``), passed as ``env``.

What is stored, per game (all written in ONE ``save`` per request, so they commit together):

* :class:`~domain.game.Game` -- the game's events with their envelopes; snapshotted every
  :data:`SNAPSHOT_INTERVAL` events;
* :class:`~domain.game.GameAccess` -- the hashes of its bearer tokens (created with the game);
* :class:`~domain.game.GameSummary` -- the list's read model (created with the game, updated in
  the same ``save`` as any batch that changes the status or winner);
* :class:`~domain.game.IdempotencyRecord` -- one per ``Idempotency-Key``, saved with the batch.

The game list reads the application's notification log, filtered to the topic of
``GameSummary.Opened``: notification ids are assigned in commit order by both back ends
(SQLite serialises writers; eventsourcing's PostgreSQL recorder locks the table while inserting),
so a cursor (the last notification id seen) never skips or repeats a game however many games are
created concurrently, and every game's summary is committed with the game itself.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import Notification, RecordConflictError, Recording
from eventsourcing.utils import get_topic

from domain.cards import Catalog, normalize_card, sample_catalog
from domain.errors import DomainError, InvalidCommand
from domain.game import (
    Game,
    GameAccess,
    GameSummary,
    IdempotencyRecord,
    Record,
    canonical_json,
    stored_record,
    token_hash,
)
from domain.writer import GroupCommit, writer_lock_for, writing

SNAPSHOT_INTERVAL = 100
#: Games whose (immutable) token hashes are kept in memory.
ACCESS_CACHE_SIZE = 10_000
#: Roles besides the seats that get a bearer token when a game is created (each seat gets one).
GAME_ROLES = ("table", "judge")
#: How often a batch sent without ``expected_version`` is retried after losing a race.
MAX_RETRIES = 5
#: At most this many games are examined by one list query (the cursor then continues).
LIST_SCAN_LIMIT = 1000
_GAME_TOPICS = (get_topic(Game.Opened), get_topic(Game.Recorded))

Render = Callable[[list[Record], int], dict[str, Any]]
"""Builds the response body of a batch from its new records and the new version."""


class GameNotFoundError(LookupError):
    """No game has this id."""

    code = "game/not_found"

    def __init__(self, game_id: object) -> None:
        super().__init__(f"no game {game_id}")
        self.message = f"no game {game_id}"


class VersionConflictError(Exception):
    """The game is not at the version the client expected (or another write won a race)."""

    code = "game/version_conflict"

    def __init__(self, current_version: int, expected: int | None = None) -> None:
        if expected is None:
            message = f"the game changed concurrently; it is now at version {current_version}"
        else:
            message = f"expected version {expected}, the game is at version {current_version}"
        super().__init__(message)
        self.message = message
        self.current_version = current_version


class VersionNotFoundError(LookupError):
    """``?at=<version>`` names a version the game has not reached."""

    code = "game/version_not_found"

    def __init__(self, version: int, current_version: int) -> None:
        self.message = f"version {version} does not exist; the game is at version {current_version}"
        super().__init__(self.message)
        self.current_version = current_version


class IdempotencyKeyReusedError(Exception):
    """An ``Idempotency-Key`` already used for a different request on this game."""

    code = "request/idempotency_key_reused"

    def __init__(self) -> None:
        self.message = "this Idempotency-Key was already used for a different request"
        super().__init__(self.message)


@dataclass(frozen=True)
class StartedGame:
    """What creating a game returns: the only time the plaintext tokens exist outside a client."""

    game_id: UUID
    version: int
    tokens: dict[str, str]
    cards: dict[str, dict[str, Any]]


@dataclass(frozen=True)
class BatchOutcome:
    """The response of a batch; ``replayed`` when it was read back for an Idempotency-Key."""

    response: dict[str, Any]
    replayed: bool


def utc_now() -> str:
    """The server clock as ISO 8601 UTC (the envelope's ``received_at``)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


class GameLog(Application):
    """Records games: ``start_game``, ``handle`` (a batch of commands), and the reads."""

    snapshotting_intervals = {Game: SNAPSHOT_INTERVAL}

    def __init__(self, env: Mapping[str, str] | None = None, *, catalog: Catalog | None = None):
        env = dict(env) if env is not None else {}
        # Keep recent games in memory and fast-forward them from the store on each read, so a
        # request folds only the events written since (by this or another process).
        env.setdefault("AGGREGATE_CACHE_MAXSIZE", "2000")
        env.setdefault("AGGREGATE_CACHE_FASTFORWARD", "y")
        super().__init__(env)
        self._writer_lock = writer_lock_for(
            {k: self.env.get(k) or "" for k in ("PERSISTENCE_MODULE", "SQLITE_DBNAME")}
        )
        self._group_commit = (
            GroupCommit(self._writer_lock, self.recorder) if self._writer_lock is not None else None
        )
        self._access_cache: dict[UUID, GameAccess] = {}
        self.catalog = catalog if catalog is not None else sample_catalog()

    # ------------------------------------------------------------------ writes

    def start_game(self, request: Mapping[str, Any]) -> StartedGame:
        """Create a game from an API request (card names resolved against the catalog).

        Every card gets a random opaque instance id; tokens are random and only their hashes
        are stored. Raises the domain's errors when the spec or a deck is not acceptable.
        """
        received_at = utc_now()
        game_id = uuid4()
        used: set[str] = set()
        seats: list[dict[str, Any]] = []
        cards: dict[str, dict[str, Any]] = {}
        for index, seat in enumerate(request["seats"]):
            hero_defs = self._resolve(seat["hero"], f"seats.{index}.hero")
            if len(hero_defs) != 1:
                raise InvalidCommand(
                    "request/invalid_hero",
                    "a seat has exactly one hero",
                    fields={f"seats.{index}.hero": ["exactly one card"]},
                )
            hero = {"id": _new_card_id(used), **hero_defs[0]}
            deck = [
                {"id": _new_card_id(used), **card}
                for pos, entry in enumerate(seat["deck"])
                for card in self._resolve(entry, f"seats.{index}.deck.{pos}")
            ]
            seats.append(
                {"seat": seat["seat"], "player": seat["player"], "hero": hero, "deck": deck}
            )
            cards[seat["seat"]] = {
                "hero": {"id": hero["id"], "name": hero["name"]},
                "cards": [{"id": c["id"], "name": c["name"]} for c in deck],
            }
        spec = {
            "ruleset": request.get("ruleset", "munchkin-ccg"),
            "game_id": str(game_id),
            "mode": request["mode"],
            "format": request["format"],
            "labels": dict(request.get("labels") or {}),
            "seats": seats,
        }
        game = Game.open(game_id, spec, received_at=received_at)
        roles = [*game.state["seats"], *GAME_ROLES]
        tokens = {role: secrets.token_urlsafe(32) for role in roles}
        access = GameAccess.issue(game_id, {role: token_hash(t) for role, t in tokens.items()})
        summary = GameSummary.open(game, created_at=received_at)
        self.save(game, access, summary)
        return StartedGame(game_id=game_id, version=game.version, tokens=tokens, cards=cards)

    def handle(
        self,
        game_id: UUID,
        actions: Sequence[Mapping[str, Any]],
        *,
        actor: str,
        render: Render,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> BatchOutcome:
        """Record a batch of actions atomically; all are decided or none is stored.

        ``actions`` are command dicts plus an optional ``at`` (client time, kept as
        ``client_at``). ``attack`` commands get a fresh server ``salt``. With an
        ``idempotency_key`` the first response is stored in the same save and returned again
        for any repeat of the same request.
        """
        fingerprint = (
            ""
            if idempotency_key is None
            else token_hash(
                canonical_json(
                    {"actor": actor, "expected_version": expected_version, "actions": list(actions)}
                )
            )
        )
        # The first attempt decides on this process's cached copy of the game without asking the
        # store whether another process has written since (a query per request). That is safe:
        # versions are contiguous, so saving a batch decided on a stale copy conflicts, and a
        # refusal (stale expected_version, a rule) is decided again on the fresh game before it
        # is reported.
        trust_cache = True
        for _attempt in range(MAX_RETRIES):
            # Load the game BEFORE looking for the key: a batch committed in between is then
            # either seen here (replayed) or makes our save conflict (replayed below).
            game = self._cached_game(game_id) if trust_cache else None
            if game is None:
                game, trust_cache = self.game(game_id), False
            if idempotency_key is not None:
                replay = self._replay(game_id, idempotency_key, fingerprint)
                if replay is not None:
                    return replay
            before = (game.status, game.winner)
            received_at = utc_now()
            try:
                if expected_version is not None and expected_version != game.version:
                    raise VersionConflictError(game.version, expected_version)
                game.execute(_commands(actions), received_at=received_at)
            except (VersionConflictError, DomainError):
                if trust_cache:
                    trust_cache = False
                    continue
                raise
            pending = [e for e in game.pending_events if isinstance(e, Game.Recorded)]
            response = render([stored_record(e) for e in pending], game.version)
            objs: list[Any] = [game]
            if (game.status, game.winner) != before:
                summary: Any = self.repository.get(GameSummary.id_for(game_id))
                if summary.follow(game, at=received_at):
                    objs.append(summary)
            if idempotency_key is not None:
                objs.append(
                    IdempotencyRecord.store(game_id, idempotency_key, fingerprint, response)
                )
            try:
                self.save(*objs)
            except RecordConflictError:
                trust_cache = False
                if idempotency_key is not None:
                    replay = self._replay(game_id, idempotency_key, fingerprint)
                    if replay is not None:
                        return replay
                if expected_version is not None:
                    raise VersionConflictError(self.current_version(game_id)) from None
                continue
            self._cache_saved(game)
            return BatchOutcome(response=response, replayed=False)
        raise VersionConflictError(self.current_version(game_id))

    def close(self) -> None:
        if self._group_commit is not None:
            self._group_commit.close()
        super().close()

    def writing(self) -> AbstractContextManager[None]:
        """Hold this while writing to the store: SQLite writers queue on a lock file instead of
        sleeping in SQLite's busy handler (see :mod:`domain.writer`); nothing for PostgreSQL."""
        return writing(self._writer_lock)

    def save(self, *objs: Any, **kwargs: Any) -> list[Recording[UUID]]:
        """eventsourcing's ``save`` for our aggregates, without its per-object Protocol
        ``isinstance`` checks (slow on Python 3.11): collect each aggregate's pending events and
        record them all in one transaction, then take any snapshot that is due."""
        processing = ProcessingEvent[UUID]()
        for obj in objs:
            processing.events.extend(obj.collect_events())
            processing.aggregates[obj.id] = obj
        processing.saved_kwargs.update(kwargs)
        recordings = self._record(processing)
        self._take_snapshots(processing)
        self._notify(recordings)
        return recordings

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        """eventsourcing's ``EventStore.put``, with the events encoded *before* the writer lock
        is taken: only the insert and its commit are serialised (:meth:`writing`)."""
        stored = [self.mapper.to_stored_event(e) for e in processing_event.events]
        ids = self._insert(self.recorder, stored, processing_event)
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
            for event, s, n in zip(processing_event.events, stored, ids or (), strict=False)
        ]

    def _take_snapshots(self, processing_event: ProcessingEvent[UUID]) -> None:
        """Snapshot a game from the aggregate at hand (eventsourcing's default reads it back from
        the store) whenever a save takes its version past a multiple of
        :data:`SNAPSHOT_INTERVAL`; the snapshot is at the save's last version."""
        if self.snapshots is None:
            return
        for aggregate in processing_event.aggregates.values():
            if not isinstance(aggregate, Game):
                continue
            first = aggregate.version - sum(
                1 for e in processing_event.events if e.originator_id == aggregate.id
            )
            if aggregate.version // SNAPSHOT_INTERVAL > first // SNAPSHOT_INTERVAL:
                stored = self.snapshots.mapper.to_stored_event(Game.Snapshot.take(aggregate))
                self._insert(self.snapshots.recorder, [stored], None)

    def _insert(
        self, recorder: Any, stored: list[Any], processing: ProcessingEvent[UUID] | None
    ) -> Sequence[int] | None:
        """``recorder.insert_events(stored)`` under the writer lock; a game batch on SQLite goes
        through :class:`~domain.writer.GroupCommit` (one transaction for the batches queued)."""
        kwargs: dict[str, Any] = {}
        if processing is not None:
            kwargs = {"tracking": processing.tracking, **processing.saved_kwargs}
        grouped = (
            recorder is self.recorder
            and self._group_commit is not None
            and kwargs.get("tracking") is None
            and len(kwargs) <= 1
        )
        if grouped:
            assert self._group_commit is not None
            return self._group_commit.insert(stored)
        with self.writing():
            return recorder.insert_events(stored, **kwargs)

    def _cached_game(self, game_id: UUID) -> Game | None:
        """A detached copy of this process's cached game, as of the last time this process saw
        it (None if it is not cached); it may be behind other processes' writes."""
        cache = self.repository.cache
        if cache is None:
            return None
        try:
            cached: Any = cache.get(game_id)
        except KeyError:
            return None
        return cached.detached() if isinstance(cached, Game) else None

    def _cache_saved(self, game: Game) -> None:
        """Put a just-saved game in the repository's cache, so the next read of it need not
        fold again the events this process has just written (other processes' events are still
        fast-forwarded from the store).

        ``game`` itself goes in, not a copy: it is a detached copy that only this request held,
        its pending events were collected by the save, and nothing reads the cache without
        detaching first (:meth:`_cached_game`, :meth:`game`)."""
        cache = self.repository.cache
        if cache is not None:
            try:
                cached: Any = cache.get(game.id)
            except KeyError:
                cached = None
            if cached is None or cached.version <= game.version:
                cache.put(game.id, game)

    def _replay(self, game_id: UUID, key: str, fingerprint: str) -> BatchOutcome | None:
        try:
            record: Any = self.repository.get(IdempotencyRecord.id_for(game_id, key))
        except AggregateNotFoundError:
            return None
        if not isinstance(record, IdempotencyRecord) or record.game_id != game_id:
            return None
        if record.fingerprint != fingerprint:
            raise IdempotencyKeyReusedError()
        return BatchOutcome(response=record.response, replayed=True)

    def _resolve(self, entry: Any, where: str) -> list[dict[str, Any]]:
        """Card definitions for one deck entry: a full definition or ``{name, count?}``."""
        if isinstance(entry, Mapping) and entry.keys() <= {"name", "count"}:
            name = entry.get("name")
            count = entry.get("count", 1)
            if not isinstance(name, str):
                raise InvalidCommand(
                    "request/invalid_card", "a card name is a string", fields={where: ["name"]}
                )
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 60:
                raise InvalidCommand(
                    "request/invalid_card",
                    "count is a whole number from 1 to 60",
                    fields={where: ["count: 1..60"]},
                )
            return [dict(self.catalog.get(name)) for _ in range(count)]
        if isinstance(entry, Mapping):
            try:
                return [normalize_card(entry)]
            except InvalidCommand as exc:
                raise InvalidCommand(
                    exc.code,
                    exc.message,
                    fields={f"{where}.{k}": v for k, v in exc.fields.items()},
                ) from None
        raise InvalidCommand(
            "request/invalid_card",
            "a card is a definition or {name, count}",
            fields={where: ["a card definition or {name, count}"]},
        )

    # ------------------------------------------------------------------ reads

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game (at ``version`` if given), rebuilt from its latest snapshot and events."""
        if version is not None:
            current = self.current_version(game_id)
            if not 1 <= version <= current:
                raise VersionNotFoundError(version, current)
        try:
            if version is None:
                game: Any = self.repository.get(
                    game_id, deepcopy_from_cache=False, projector_func=_project
                )
            else:
                game = self.repository.get(game_id, version=version)
        except AggregateNotFoundError:
            raise GameNotFoundError(game_id) from None
        if not isinstance(game, Game):
            raise GameNotFoundError(game_id)
        return game.detached() if version is None else game

    def access(self, game_id: UUID) -> GameAccess:
        """The token hashes of a game; :class:`GameNotFoundError` if there is no such game."""
        cached = self._access_cache.get(game_id)
        if cached is not None:  # token hashes never change once issued
            return cached
        try:
            access: Any = self.repository.get(GameAccess.id_for(game_id), deepcopy_from_cache=False)
        except AggregateNotFoundError:
            raise GameNotFoundError(game_id) from None
        if not isinstance(access, GameAccess) or access.game_id != game_id:
            raise GameNotFoundError(game_id)
        if len(self._access_cache) >= ACCESS_CACHE_SIZE:
            self._access_cache.pop(next(iter(self._access_cache)))
        self._access_cache[game_id] = access
        return access

    def current_version(self, game_id: UUID) -> int:
        """The game's version, read from the store without rebuilding the game."""
        last = self.recorder.select_events(game_id, desc=True, limit=1)
        if not last or last[0].topic not in _GAME_TOPICS:
            raise GameNotFoundError(game_id)
        return int(last[0].originator_version)

    def records(self, game_id: UUID, *, after: int = 0, limit: int | None = None) -> list[Record]:
        """Stored events with version > ``after`` (at most ``limit``), as plain records."""
        self.current_version(game_id)
        events = self.events.get(game_id, gt=after or None, limit=limit)
        return [stored_record(e) for e in events if isinstance(e, Game.Opened | Game.Recorded)]

    def summary(self, game_id: UUID) -> dict[str, Any]:
        """The game's list entry (status, players, labels ...) plus its current version."""
        try:
            summary: Any = self.repository.get(GameSummary.id_for(game_id))
        except AggregateNotFoundError:
            raise GameNotFoundError(game_id) from None
        if not isinstance(summary, GameSummary):
            raise GameNotFoundError(game_id)
        return {**summary.as_dict(), "version": self.current_version(game_id)}

    def list_games(
        self,
        *,
        player: str | None = None,
        status: str | None = None,
        event: str | None = None,
        cursor: int | None = None,
        limit: int = 50,
    ) -> tuple[list[dict[str, Any]], int | None]:
        """Games in creation order after ``cursor``, filtered; returns ``(items, next_cursor)``.

        ``next_cursor`` is ``None`` when no more games existed at the time of the query,
        otherwise pass it back to continue (at most :data:`LIST_SCAN_LIMIT` games are
        examined per call, so a page may hold fewer than ``limit`` items and still have a
        cursor).
        """
        topic = get_topic(GameSummary.Opened)
        wanted_player = player.casefold() if player else None
        items: list[dict[str, Any]] = []
        position = cursor or 0
        scanned = 0
        while True:
            page = self.recorder.select_notifications(
                position, limit=100, topics=[topic], inclusive_of_start=False
            )
            if not page:
                return items, None
            for notification in page:
                position = notification.id
                scanned += 1
                summary: Any = self.repository.get(notification.originator_id)
                if not isinstance(summary, GameSummary):
                    continue
                if status and summary.status != status:
                    continue
                if event and summary.labels.get("event") != event:
                    continue
                if wanted_player and wanted_player not in {
                    p.casefold() for p in summary.players.values()
                }:
                    continue
                items.append(
                    {**summary.as_dict(), "version": self.current_version(summary.game_id)}
                )
                if len(items) >= limit:
                    return items, position
            if scanned >= LIST_SCAN_LIMIT:
                return items, position
            if len(page) < 100:
                return items, None

    # ------------------------------------------------------------------ judge (issue #4)

    def judge(
        self,
        game_id: UUID,
        build: Callable[[Game], list[Any]],
        *,
        expected_version: int | None = None,
    ) -> list[Record]:
        """Record the judge's events ``build(game)`` returns for the game as loaded.

        ``build`` may raise the domain's errors (nothing is stored then). Like :meth:`handle`,
        a lost race is retried (``build`` runs again on the new version) unless
        ``expected_version`` is given, which is checked first (409 otherwise). A backup can
        change the status or winner, so the game's summary follows in the same save.
        """
        for _attempt in range(MAX_RETRIES):
            game = self.game(game_id)
            if expected_version is not None and expected_version != game.version:
                raise VersionConflictError(game.version, expected_version)
            before = (game.status, game.winner)
            received_at = utc_now()
            game.record_judge(build(game), received_at=received_at)
            pending = [e for e in game.pending_events if isinstance(e, Game.Recorded)]
            objs: list[Any] = [game]
            if (game.status, game.winner) != before:
                summary: Any = self.repository.get(GameSummary.id_for(game_id))
                if summary.follow(game, at=received_at):
                    objs.append(summary)
            try:
                self.save(*objs)
            except RecordConflictError:
                if expected_version is not None:
                    raise VersionConflictError(self.current_version(game_id)) from None
                continue
            return [stored_record(e) for e in pending]
        raise VersionConflictError(self.current_version(game_id))

    # ------------------------------------------------------------------ end of judge (issue #4)

    # ------------------------------------------------------------ import (issue #5)

    def import_game(self, records: Sequence[Mapping[str, Any]]) -> StartedGame:
        """Store a game exported elsewhere under its own id, with new tokens.

        ``records`` are the verified and replayed records of
        ``projections.export.import_game`` (tokens are never exported). The game, its access
        and its summary are saved in ONE ``save``: if the id is taken, nothing is stored and
        :class:`GameAlreadyExistsError` is raised.
        """
        created = records[0]["event"]
        game_id = Game.id_for_import(str(created["game_id"]))
        game = Game.adopt(game_id, records)
        roles = [*game.state["seats"], *GAME_ROLES]
        tokens = {role: secrets.token_urlsafe(32) for role in roles}
        access = GameAccess.issue(game_id, {role: token_hash(t) for role, t in tokens.items()})
        summary = GameSummary.open(game, created_at=str(records[0]["received_at"]))
        summary.follow(game, at=str(records[-1]["received_at"]))
        try:
            self.save(game, access, summary)
        except RecordConflictError:
            raise GameAlreadyExistsError(game_id) from None
        cards = {
            seat["seat"]: {
                "hero": {"id": seat["hero"]["id"], "name": seat["hero"]["name"]},
                "cards": [{"id": c["id"], "name": c["name"]} for c in seat["deck"]],
            }
            for seat in created["seats"]
        }
        return StartedGame(game_id=game_id, version=game.version, tokens=tokens, cards=cards)

    # ------------------------------------------------------------ end of import (issue #5)


def _project(aggregate: Any, events: Iterable[Any]) -> Any:
    """eventsourcing's ``project_aggregate`` without its per-event Protocol ``isinstance``
    assertion (slow on Python 3.11); every stored event of a game is a mutating event."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def _new_card_id(used: set[str]) -> str:
    """A random opaque card instance id, unique within the game."""
    while True:
        cid = secrets.token_hex(8)
        if cid not in used:
            used.add(cid)
            return cid


def _commands(actions: Sequence[Mapping[str, Any]]) -> list[tuple[dict[str, Any], str | None]]:
    """Split each action into the domain command and its client time; salt ``attack``."""
    out: list[tuple[dict[str, Any], str | None]] = []
    for index, action in enumerate(actions):
        command = {k: v for k, v in action.items() if k != "at"}
        if "salt" in command:
            raise InvalidCommand(
                "request/salt_not_allowed",
                "the server chooses an attack's salt; do not send one",
                fields={f"actions.{index}.salt": ["not allowed"]},
            )
        if command.get("type") == "attack":
            command["salt"] = secrets.token_hex(16)
        client_at = action.get("at")
        out.append((command, None if client_at is None else str(client_at)))
    return out


# ---------------------------------------------------------------- import (issue #5)


class GameAlreadyExistsError(Exception):
    """An imported game's id is already taken here (a game keeps its id when imported)."""

    code = "game/already_exists"

    def __init__(self, game_id: object) -> None:
        self.message = f"game {game_id} already exists"
        super().__init__(self.message)
