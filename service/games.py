"""GameLog: the use cases of recording Munchkin games (the service layer).

One ``GameLog`` per process (the API's app factory makes it). Each method reads like a short
script: load, decide (the domain), save (its :class:`adapters.eventstore.EventStore`,
``GameLog.store``, which it holds: the use cases above, the storage below).

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

from adapters.eventstore import TRUST_CACHE_FOR, EventStore, RecordConflictError, isoformat_utc
from domain import DEFAULT_RULESET, RULESETS, fair, fair_check
from domain.dealing import new_secret
from domain.envelope import DamagedRecords, Record, canonical_json, verify_records
from domain.errors import DomainError, InvalidCommand, UnknownVersion
from domain.family import family_named, family_of
from domain.fold import State
from domain.game import (
    Game,
    GameAccess,
    GameSecrets,
    GameSummary,
    IdempotencyRecord,
    stored_record,
    token_hash,
)
from domain.judge import Claim, contested_range, decide_dispute, decide_ruling, find_dispute
from domain.ruleset import Step, find_ruleset
from projections.exports import import_game
from projections.views import event_view
from service.commands import commands_of
from service.dealing import Rekeyed, Ruled, Secrets, deals_here, rekeyed
from service.delay import Delays, delay_objects, standing
from service.errors import (
    GameAlreadyExistsError,
    GameNotFoundError,
    IdempotencyKeyReusedError,
    NotAllowedError,
    VersionConflictError,
)
from service.reading import LogPage
from service.replays import Replays
from service.snapshots import snapshot_problems

#: Games whose (immutable) token hashes are kept in memory.
ACCESS_CACHE_SIZE = 10_000
#: Roles besides the seats that get a bearer token when a game is created (each seat gets one):
#: both may record actions for any seat and open disputes (a seat acts only for itself).
GAME_ROLES = ("table", "judge")
HashesOf = Callable[[Game], dict[str, str]]
#: How often a batch sent without ``expected_version`` is retried after losing a race.
MAX_RETRIES = 5
#: At most this many games are examined by one list query (the cursor then continues).
LIST_SCAN_LIMIT = 1000


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


class Observer:
    """What the service reports as it records, for the operator's metrics (``api.ops.metrics``
    counts it; this one does nothing). Called once per saved batch or lost race, after the
    fact: it must be cheap and must not raise."""

    def recorded(self, source: str, actions: int, events: int) -> None:
        """A batch was saved: ``source`` is ``"actions"`` (a recorder's batch) or ``"judge"``
        (a dispute or a ruling), with its ``actions`` and the ``events`` they made."""

    def lost_race(self) -> None:
        """A save conflicted with another writer's (a batch decided on a stale copy): it is
        decided again on the stored game, or answered 409 if the client named a version."""


def utc_now() -> str:
    """The server clock as ISO 8601 UTC with microseconds (the envelope's ``received_at``)."""
    now = datetime.now(UTC)
    if now.microsecond:  # orjson, as isoformat(), leaves out a fraction of .000000
        return isoformat_utc(now)
    return now.isoformat(timespec="microseconds")


class GameLog:
    """Records games: ``start_game``, ``record`` (a batch of actions), the judge's, and the
    reads. Its store (:attr:`store`, an :class:`~adapters.eventstore.EventStore`) does the
    storage: what needs the log itself (following it, its head, the readiness probe) asks
    ``log.store``."""

    def __init__(self, env: Mapping[str, str] | None = None, *, catalog: Any = None):
        self.store = EventStore(env)
        self.replays = Replays(self)
        self.delays = Delays(self)  # the spectator delay of every read (service.delay)
        self.observer = Observer()
        self._access_cache: dict[UUID, GameAccess] = {}
        self._secrets = Secrets(self.store)
        self.catalog_setting = catalog  # MUNCHLOG_CATALOG: each family loads its own from it
        self._catalogs = {name: family_named(name).load_catalog(catalog) for name in RULESETS}
        self._before_close: list[Callable[[], None]] = []

    def on_close(self, stop: Callable[[], None]) -> None:
        """Have ``stop`` called before the store closes (a thread that reads it, stopped and
        joined first: SQLite's connection closed under a running query crashes the process)."""
        self._before_close.append(stop)

    def close(self) -> None:
        """Stop what reads the store (:meth:`on_close`), then close it (its connections, its
        group commit)."""
        for stop in self._before_close:
            stop()
        self.store.close()

    # ------------------------------------------------------------------ writes

    def start_game(self, request: Mapping[str, Any]) -> StartedGame:
        """Create a game from an API request (card names resolved against the catalog).

        A seat's card fields are the ruleset's (``card_fields``: the CCG's ``hero``, one card,
        and ``deck``, a list); every card gets a random opaque instance id; tokens are random and only their hashes
        are stored. Raises the domain's errors when the spec or a deck is not acceptable.
        """
        started, objects = self.new_game(request, uuid4())
        self.store.save(*objects)
        self.store.trust(started.game_id)  # sealed here: no need to verify its chain first
        return started

    def new_game(
        self, request: Mapping[str, Any], game_id: UUID, access: HashesOf | None = None
    ) -> tuple[StartedGame, list[Any]]:
        """:meth:`start_game`'s game and what it saves, unsaved (a tournament saves them with
        its round); ``access`` gives the token hashes by role instead of new random tokens."""
        received_at = utc_now()
        rs = find_ruleset(str(request.get("ruleset", DEFAULT_RULESET)))
        dealt = fair.read_spec(request, [str(s.get("seat")) for s in request["seats"]])
        used: set[str] = set()
        seats: list[dict[str, Any]] = []
        cards: dict[str, dict[str, Any]] = {}
        for index, seat in enumerate(request["seats"]):
            spec_seat: dict[str, Any] = {"seat": seat["seat"], "player": seat["player"]}
            shown: dict[str, Any] = {"cards": []}
            for name, arity in rs.card_fields.items():
                where = f"seats.{index}.{name}"
                entries = seat.get(name)
                if arity == "one":
                    found = self.resolve(entries, where, rs, name)
                    if len(found) != 1:
                        raise InvalidCommand(
                            f"request/invalid_{name}",
                            f"a seat has exactly one {name}",
                            fields={where: ["exactly one card"]},
                        )
                    card = {"id": _new_card_id(used), **found[0]}
                    spec_seat[name] = card
                    shown[name] = {"id": card["id"], "name": card["name"]}
                    continue
                listed = [
                    {"id": _new_card_id(used), **card}
                    for pos, entry in enumerate(entries or [])
                    for card in self.resolve(entry, f"{where}.{pos}", rs, name)
                ]
                spec_seat[name] = listed
                shown["cards"] += [{"id": c["id"], "name": c["name"]} for c in listed]
            seats.append(spec_seat)
            cards[seat["seat"]] = shown
        spec = {
            "ruleset": rs.name,
            "game_id": str(game_id),
            "mode": request["mode"],
            "format": request["format"],
            "labels": dict(request.get("labels") or {}),
            **({"options": dict(request["options"])} if "options" in request else {}),
            "seats": seats,
            "catalog": self.catalog_of(rs.name),  # a new game's cards are checked against it
            **({"dealing": dealt} if dealt is not None else {}),
        }
        secret = new_secret() if dealt is not None else None
        game = Game.open(game_id, spec, received_at=received_at, secret=secret)
        if access is None:
            tokens, hashes = _issue_tokens(game)
        else:
            tokens, hashes = {}, GameAccess.issue(game_id, access(game))
        summary = GameSummary.open(game, created_at=received_at)
        extra: list[Any] = [] if secret is None else [GameSecrets.draw(game_id, secret)]
        extra += delay_objects(game_id, request)
        started = StartedGame(game_id=game_id, version=game.version, tokens=tokens, cards=cards)
        return started, [game, hashes, summary, *extra]

    def record(
        self,
        game_id: UUID,
        actions: Sequence[Mapping[str, Any]],
        *,
        actor: str,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> BatchOutcome:
        """Record a batch of actions atomically; all are decided or none is stored.

        ``actions`` are command dicts plus an optional ``at`` (client time, kept as
        ``client_at``). ``attack`` commands get a fresh server ``salt``. ``actor`` is the
        caller's role: a seat may act only for itself (403 ``auth/wrong_seat``), the table and
        the judge for any seat. The response holds the new events as ``actor`` may see them.
        With an ``idempotency_key`` the first response is stored in the same save and returned
        again for any repeat of the same request.
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
        seats_checked = False

        def check(game: Game) -> BatchOutcome | None:
            nonlocal seats_checked
            if not seats_checked:
                _check_seats(actor, actions, tuple(game.state["seats"]))
                seats_checked = True
            return None if idempotency_key is None else replay()

        def replay() -> BatchOutcome | None:
            assert idempotency_key is not None
            return self._replay(game_id, idempotency_key, fingerprint)

        def decide(game: Game, received_at: str) -> None:
            commands = commands_of(game.state, actor, actions, received_at)
            game.execute(commands, received_at=received_at, secrets=self.secrets_of(game))

        def respond(game: Game, pending: list[Any]) -> tuple[BatchOutcome, list[Any]]:
            seats = tuple(game.state["seats"])
            response = {
                "version": game.version,
                "events": [event_view(stored_record(e), actor, seats) for e in pending],
            }
            extra: list[Any] = []
            if idempotency_key is not None:
                extra.append(IdempotencyRecord(game_id, idempotency_key, fingerprint, response))
            return BatchOutcome(response=response, replayed=False), extra

        try:
            outcome: BatchOutcome = self._write(
                game_id,
                decide,
                respond,
                expected_version=expected_version,
                source="actions",
                actions=len(actions),
                trust_cache=True,
                check=check,
                replay=None if idempotency_key is None else replay,
            )
        except DomainError:
            self._settle_withholding(game_id)
            raise
        return outcome

    def _settle_withholding(self, game_id: UUID) -> bool:
        """Record, on its own, the withholding a refused batch would have recorded first (a
        server-dealt game past its reveal deadline, docs/rules.md E.2): the refusal changes
        nothing, but the deadline has passed whatever the batch held. Also what
        ``service.deadlines`` records when no request comes. Whether it recorded any."""
        game = self.store.cached(game_id, within=TRUST_CACHE_FOR) or self.game(game_id)
        if "dealing" not in game.state or not fair.expire(game.state, utc_now()):
            return False

        def settle(game: Game, received_at: str) -> None:
            game.execute([], received_at=received_at, secrets=self.secrets_of(game))

        return self._record_due(game_id, settle, "dealing")

    def _record_due(self, game_id: UUID, decide: Callable[[Game, str], Any], source: str) -> bool:
        """Record what ``decide`` finds due in the game, no request asking (``source`` says
        who: the dealing's deadline, the round's clock): whether it recorded any (another
        process may have been first)."""
        recorded: int = self._write(
            game_id,
            decide,
            lambda game, pending: (len(pending), []),
            expected_version=None,
            source=source,
        )
        return recorded > 0

    def _write(
        self,
        game_id: UUID,
        decide: Callable[[Game, str], Any],
        respond: Callable[[Game, list[Any]], tuple[Any, list[Any]]],
        *,
        expected_version: int | None,
        source: str,
        actions: int = 0,
        trust_cache: bool = False,
        check: Callable[[Game], BatchOutcome | None] | None = None,
        replay: Callable[[], BatchOutcome | None] | None = None,
    ) -> Any:
        """The loop of every write to a game, written once: load, decide, the summary, save,
        retry on a lost race. Returns what ``respond`` makes of the saved game.

        Each attempt loads the game (with ``trust_cache``, first this process's cached copy if
        it saved or read the game in the last :data:`TRUST_CACHE_FOR` seconds: a table recording
        briskly through this worker; an older copy is probably behind another worker's writes,
        so the store is read instead), then ``check(game)`` (an answer it returns is returned:
        a replayed ``Idempotency-Key``), checks ``expected_version`` and ``decide(game,
        received_at)`` (the domain's errors: nothing is stored). ``respond(game, pending)``
        gives the result and what else to save with the game; the game's summary follows in
        the same save when the status or winner changed. Trusting the copy is safe: versions are
        contiguous, so saving a batch decided on a stale copy conflicts, and a refusal (a stale
        ``expected_version``, a rule) is decided again on the stored game before it is reported.

        A lost race (the save conflicts) is decided again on the stored game, after ``replay()``
        (a batch committed meanwhile under the same key is replayed), unless ``expected_version``
        was given: 409 then, as after :data:`MAX_RETRIES` lost races."""
        for _attempt in range(MAX_RETRIES):
            # Load the game BEFORE looking for a key: a batch committed in between is then
            # either seen by ``check`` (replayed) or makes our save conflict (replayed below).
            game = self.store.cached(game_id, within=TRUST_CACHE_FOR) if trust_cache else None
            if game is None:
                game, trust_cache = self.game(game_id), False
            if check is not None:
                answer = check(game)
                if answer is not None:
                    return answer
            before = (game.status, game.winner)
            due = fair.pending_deadline(game.state)  # service.deadlines follows its changes
            received_at = utc_now()
            try:
                if expected_version is not None and expected_version != game.version:
                    raise VersionConflictError(game.version, expected_version)
                decide(game, received_at)
            except (VersionConflictError, DomainError):
                if trust_cache:
                    trust_cache = False
                    continue
                raise
            pending = [e for e in game.pending_events if isinstance(e, Game.Recorded)]
            result, extra = respond(game, pending)
            objs: list[Any] = [game, *game.deadline_marks(due)]
            if (game.status, game.winner) != before:
                summary: Any = self.store.load(
                    GameSummary.id_for(game_id), of_game=(game_id, "summary")
                )
                if summary.follow(game, at=received_at):
                    objs.append(summary)
            try:
                self.store.save(*objs, *extra)
            except RecordConflictError:
                self.observer.lost_race()
                trust_cache = False
                answer = replay() if replay is not None else None
                if answer is not None:
                    return answer
                if expected_version is not None:
                    raise VersionConflictError(self.current_version(game_id)) from None
                continue
            self.store.keep(game)
            self.observer.recorded(source, actions, len(pending))
            return result
        raise VersionConflictError(self.current_version(game_id))

    def _replay(self, game_id: UUID, key: str, fingerprint: str) -> BatchOutcome | None:
        record: Any = self.store.load(
            IdempotencyRecord.id_for(game_id, key), of_game=(game_id, "idempotency")
        )
        if not isinstance(record, IdempotencyRecord) or record.game_id != game_id:
            return None
        if record.fingerprint != fingerprint:
            raise IdempotencyKeyReusedError()
        return BatchOutcome(response=record.response, replayed=True)

    def resolve(self, entry: Any, where: str, rs: Any, field: str) -> list[dict[str, Any]]:
        """Card definitions for one entry of a seat's card ``field``, at ``where`` in the
        request: the ruleset's family resolves it (``Family.resolve_entry``: a definition, or
        a card by name from the server's catalog or the family's own)."""
        return family_of(rs).resolve_entry(
            field, entry, catalog=self.catalog_of(rs.name), where=where
        )

    def catalog_of(self, ruleset: str) -> Any:
        """``ruleset``'s family's card catalog (``Family.load_catalog``), loaded once."""
        if ruleset not in self._catalogs:
            self._catalogs[ruleset] = family_named(ruleset).load_catalog(self.catalog_setting)
        return self._catalogs[ruleset]

    # ------------------------------------------------------------------ reads

    def game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game (at ``version`` if given), rebuilt from its latest snapshot and events;
        ``DamagedRecords`` if its stored events are damaged (``EventStore.load_game``)."""
        if version is not None:
            current = self.current_version(game_id)
            if not 1 <= version <= current:
                raise UnknownVersion(version, current)
        game = self.store.load_game(game_id, version)
        if not isinstance(game, Game):
            raise GameNotFoundError(game_id)
        return game

    def snapshot_at(self, game_id: UUID, version: int) -> tuple[int, State, str] | None:
        """``(version, state, head hash)`` of the game's latest usable snapshot at or before
        ``version`` (``None`` if there is none): where a turn's replay may start folding
        (:meth:`service.replays.Replays.turn`, which checks that the next event follows the
        head hash)."""
        snapshot = self.store._snapshot_for(game_id, version)
        if snapshot is None:
            return None
        found = snapshot.state
        return int(snapshot.originator_version), found["state"], str(found["head_hash"])

    def secrets_of(self, game: Game) -> dict[int, bytes] | None:
        """The server's secrets of a server-dealt game, by epoch (``None`` for a table-dealt
        one): what its rules deal with. Read by the rules only, never shown (docs/dealing.md)."""
        return self._secrets.of(game)

    def access(self, game_id: UUID) -> GameAccess:
        """The token hashes of a game; :class:`GameNotFoundError` if there is no such game."""
        cached = self._access_cache.get(game_id)
        if cached is not None:  # token hashes never change once issued
            return cached
        access: Any = self.store.load(GameAccess.id_for(game_id), of_game=(game_id, "access"))
        if not isinstance(access, GameAccess) or access.game_id != game_id:
            raise GameNotFoundError(game_id)
        if len(self._access_cache) >= ACCESS_CACHE_SIZE:
            self._access_cache.pop(next(iter(self._access_cache)))
        self._access_cache[game_id] = access
        return access

    def current_version(self, game_id: UUID) -> int:
        """The game's version, read from the store without rebuilding the game."""
        version = self.store.last_game_version(game_id)
        if version is None:
            raise GameNotFoundError(game_id)
        return version

    def records(self, game_id: UUID, *, after: int = 0, limit: int | None = None) -> list[Record]:
        """Stored events with version > ``after`` (at most ``limit``), as plain records, of a
        game whose chain verifies (``DamagedRecords`` otherwise)."""
        self.current_version(game_id)
        self.store.ensure_sound(game_id)
        return self.store.game_records(game_id, after=after, limit=limit)

    def all_records(self, game_id: UUID) -> list[Record]:
        """Every stored record of a game, read fast (what exports read), of a game whose chain
        verifies (``DamagedRecords`` otherwise)."""
        records = self.store.read_records(game_id)
        if records is None:
            raise GameNotFoundError(game_id)
        self.store.ensure_sound(game_id, records)
        return records

    def overview(self, game_id: UUID) -> dict[str, Any]:
        """The summary plus where the game stands: turn, active seat, phase."""
        return {**self.summary(game_id), **standing(self.game(game_id).state)}

    def page(self, game_id: UUID, *, after: int, limit: int) -> LogPage:
        """At most ``limit`` records after version ``after``, and where the next page starts."""
        records = self.records(game_id, after=after, limit=limit + 1)
        page = records[:limit]
        return LogPage(
            seats=self.seats(game_id),
            version=self.current_version(game_id),
            records=page,
            next_after=page[-1]["version"] if len(records) > limit else None,
        )

    def summary(self, game_id: UUID) -> dict[str, Any]:
        """The game's list entry (status, players, labels ...) plus its current version."""
        summary: Any = self.store.load(GameSummary.id_for(game_id), of_game=(game_id, "summary"))
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
        viewer: str = "judge",
    ) -> tuple[list[dict[str, Any]], int | None]:
        """Games in creation order after ``cursor``, filtered; returns ``(items, next_cursor)``.

        ``next_cursor`` is ``None`` when no more games existed at the time of the query,
        otherwise pass it back to continue (at most :data:`LIST_SCAN_LIMIT` games are
        examined per call, so a page may hold fewer than ``limit`` items and still have a
        cursor). Each game as ``viewer`` may see it (its status: ``service.delay``).
        """
        wanted_player = player.casefold() if player else None
        items: list[dict[str, Any]] = []
        position = cursor or 0
        scanned = 0
        while True:
            page = self.store.notifications_of(GameSummary.Opened, position, 100)
            if not page:
                return items, None
            for notification in page:
                position = notification.id
                scanned += 1
                try:
                    summary: Any = self.store.load(notification.originator_id)
                except DamagedRecords:
                    continue  # logged; its game's own routes answer storage/damaged
                if not isinstance(summary, GameSummary):
                    continue
                entry = self.delays.entry(summary, viewer)
                if status and entry["status"] != status:
                    continue
                if event and summary.labels.get("event") != event:
                    continue
                if wanted_player and wanted_player not in {
                    p.casefold() for p in summary.players.values()
                }:
                    continue
                items.append(entry)
                if len(items) >= limit:
                    return items, position
            if scanned >= LIST_SCAN_LIMIT:
                return items, position
            if len(page) < 100:
                return items, None

    # ------------------------------------------------------------------ the judge (A.14)

    def open_dispute(
        self, game_id: UUID, claim: Claim, *, expected_version: int | None = None
    ) -> tuple[str, list[Record]]:
        """Record a ``DisputeOpened`` (``domain.judge.decide_dispute``) for ``claim`` (its
        ``turn``, if any, resolved to that turn's versions); returns ``(dispute id, records)``."""
        if claim.raised_by not in GAME_ROLES and claim.raised_by not in self.seats(game_id):
            raise NotAllowedError("auth/forbidden", f"the {claim.raised_by} may not open a dispute")
        if claim.turn is not None:
            versions = self.replays.turn_versions(game_id, claim.turn)
            claim = replace(claim, from_version=versions[0], to_version=versions[-1])
        # What the game does not have is 404 before a stale expected_version is 409.
        contested_range(claim, self.current_version(game_id))
        records = self._judge(
            game_id,
            lambda game: (decide_dispute(game.state, claim), None),
            expected_version=expected_version,
        )
        return str(records[-1]["event"]["dispute"]), records

    def rule(
        self,
        game_id: UUID,
        dispute_id: str,
        ruling: Mapping[str, Any],
        *,
        expected_version: int | None = None,
        also: Callable[[list[Record]], list[Any]] | None = None,
    ) -> Ruled:
        """Record the judge's ruling on a dispute (``domain.judge.decide_ruling``): a backup,
        corrections, a re-keying (``"rekey": true``, docs/rules.md E.3) and the
        ``RulingRecorded`` event, all or nothing. A re-keying's new secret is saved with the
        events; the secret of the epoch it ends is returned (``Ruled.dealing_secret``) for the
        judge's response alone. ``also(records)`` gives what else to save in the same save,
        from the records the ruling makes (an event's disqualification,
        ``service.event_penalties``); it is asked again when a lost race is decided again."""

        # 404 before a stale expected_version is 409 (decide_ruling checks it again)
        find_dispute(self.replays.index(game_id).state, dispute_id)
        done: list[Rekeyed] = []

        def decide(game: Game) -> tuple[list[Step], Mapping[int, bytes] | None]:
            def backup_from(point: int) -> tuple[State, list[Record]]:
                point_state = self.game(game_id, version=point).state
                return point_state, self.replays.records_between(game_id, point + 1, game.version)

            done.clear()
            secrets = self.secrets_of(game)
            asked = bool(ruling.get("rekey"))
            # a new secret for a re-keying ruling, and for a backup that reopens a game whose
            # secret is revealed (decide_ruling re-keys it then), where this server deals it
            new = new_secret() if asked or deals_here(game, secrets) else None
            steps = decide_ruling(game.state, dispute_id, ruling, backup_from, new_secret=new)
            if new is None or not any(isinstance(s.event, fair.DealingRekeyed) for s in steps):
                return steps, secrets
            done.append(rekeyed(self.store, game, secrets, new, disclose=asked))
            return steps, done[0].secrets

        records = self._judge(
            game_id,
            decide,
            expected_version=expected_version,
            extra=lambda records: (
                ([done[0].stored] if done else []) + (also(records) if also is not None else [])
            ),
        )
        return Ruled(records, done[0].disclosed if done else None)

    def seats(self, game_id: UUID) -> tuple[str, ...]:
        """The game's seats in seating order ("A", "B", ...: the roles of its seat tokens)."""
        return tuple(sorted(r for r in self.access(game_id).token_hashes if r not in GAME_ROLES))

    def _judge(
        self,
        game_id: UUID,
        decide: Callable[[Game], tuple[list[Step], Mapping[int, bytes] | None]],
        *,
        expected_version: int | None = None,
        extra: Callable[[list[Record]], list[Any]] = lambda records: [],
    ) -> list[Record]:
        """Record the judge's steps ``decide(game)`` returns for the game as loaded, with the
        server's secrets to reveal if they end a server-dealt game, and save ``extra(records)``
        with them (a re-keying's secrets; what else the ruling's records call for).

        ``decide`` may raise the domain's errors (nothing is stored then). Like
        :meth:`record`, a lost race is retried (``decide`` runs again on the new version) unless
        ``expected_version`` is given, which is checked first (409 otherwise). A backup can
        change the status or winner, so the game's summary follows in the same save.
        """

        def record_steps(game: Game, received_at: str) -> None:
            steps, secrets = decide(game)
            game.record_judge(steps, received_at=received_at, secrets=secrets)

        def respond(game: Game, pending: list[Any]) -> tuple[list[Record], list[Any]]:
            records = [stored_record(e) for e in pending]
            return records, extra(records)

        records: list[Record] = self._write(
            game_id, record_steps, respond, expected_version=expected_version, source="judge"
        )
        return records

    # ------------------------------------------------------------------ tamper evidence

    def verify_game(self, game_id: UUID) -> dict[str, Any]:
        """Check every stored row of a game, each read on its own (``GET /verify``, ``munchlog
        verify --game``): ``{"ok", "checked", "first_broken", "head", "problems"}``.

        First the events' hash chain, as ``domain.envelope.verify_records`` checks it (every
        problem, each ``{"row": "event", "version", "reason", "detail"}``); then each snapshot
        (``"row": "snapshot"``): it must decode (``undecodable``), end with the hash of the
        event at its version (``hash_mismatch``) and hold the state the events fold to at that
        version (``state_mismatch``; folded as far as the events verify). ``ok`` is false when
        anything is damaged; ``first_broken``, ``checked`` and ``head`` are the events'.

        A game whose events are damaged is forgotten by this process (its next reads check the
        store again, and refuse); a damaged snapshot is not used again by this process.
        """
        records = self.store.stored_game_records(game_id, full=True)
        if records is None:
            raise GameNotFoundError(game_id)
        report = verify_records(records)
        problems: list[dict[str, Any]] = [{"row": "event", **p} for p in report["problems"]]
        sound = report["problems"][0]["version"] - 1 if report["problems"] else len(records)
        snapshots = snapshot_problems(self.store, game_id, records[:sound])
        if problems:
            self.store.forget(game_id)
        else:
            self.store.trust(game_id)
        for problem in snapshots:
            self.store.distrust_snapshot(game_id, problem["version"])
        dealt = fair_check.verify(records[:sound])
        return {
            "ok": not problems and not snapshots and dealt["ok"],
            "checked": report["checked"],
            "first_broken": report["first_broken"],
            "head": report["head"],
            "problems": problems + snapshots,
            "dealing": dealt,
        }

    # ------------------------------------------------------------------ import

    def import_export(self, source: str | bytes | Mapping[str, Any]) -> StartedGame:
        """Import a game from a complete export (canonical JSON or NDJSON): the chain is
        verified and every event replayed through its rules (``projections.exports``), then
        the game is stored as :meth:`import_game` does."""
        return self.import_game(import_game(source).records)

    def import_game(self, records: Sequence[Mapping[str, Any]]) -> StartedGame:
        """Store a game exported elsewhere under its own id, with new tokens.

        ``records`` are the verified and replayed records of
        ``projections.exports.import_game`` (tokens are never exported). The game, its access
        and its summary are saved in ONE ``save``: if the id is taken, nothing is stored and
        :class:`GameAlreadyExistsError` is raised.
        """
        created = records[0]["event"]
        game_id = Game.id_for_import(str(created["game_id"]))
        game = Game.adopt(game_id, records)
        tokens, access = _issue_tokens(game)
        summary = GameSummary.open(game, created_at=str(records[0]["received_at"]))
        summary.follow(game, at=str(records[-1]["received_at"]))
        try:
            self.store.save(game, access, summary, *game.deadline_marks(None))
        except RecordConflictError:
            raise GameAlreadyExistsError(game_id) from None
        self.store.trust(game_id)  # Game.adopt verified its chain
        cards = {seat["seat"]: _shown_cards(seat) for seat in created["seats"]}
        return StartedGame(game_id=game_id, version=game.version, tokens=tokens, cards=cards)


def _shown_cards(seat: Mapping[str, Any]) -> dict[str, Any]:
    """An imported seat's cards as game creation shows them: its one-card fields by name
    (the CCG's ``hero``) and every card it brought in ``cards`` (none for a ruleset whose
    creation event keeps the cards in its decks, not in the seats)."""
    shown: dict[str, Any] = {"cards": []}
    for key, value in seat.items():
        if isinstance(value, Mapping) and isinstance(value.get("id"), str):
            shown[key] = {"id": value["id"], "name": value.get("name")}
        elif isinstance(value, list):
            shown["cards"] += [
                {"id": c["id"], "name": c.get("name")}
                for c in value
                if isinstance(c, Mapping) and isinstance(c.get("id"), str)
            ]
    return shown


def _issue_tokens(game: Game) -> tuple[dict[str, str], GameAccess]:
    """New random tokens for each seat of ``game`` and for :data:`GAME_ROLES`, and the access
    record that stores only their hashes."""
    tokens = {role: secrets.token_urlsafe(32) for role in [*game.state["seats"], *GAME_ROLES]}
    access = GameAccess.issue(game.id, {role: token_hash(t) for role, t in tokens.items()})
    return tokens, access


def _check_seats(actor: str, actions: Sequence[Mapping[str, Any]], seats: tuple[str, ...]) -> None:
    """A seat may act only for itself, the table for any seat of the game, the judge for
    anyone (``"rules"`` included); else :class:`NotAllowedError` ``auth/wrong_seat``."""
    if actor == "judge":
        return
    allowed = seats if actor in GAME_ROLES else (actor,)
    for index, action in enumerate(actions):
        if action.get("seat") not in allowed:
            raise NotAllowedError(
                "auth/wrong_seat",
                f"the {actor} token may not act for seat {action.get('seat')!r} (action {index})",
            )


def _new_card_id(used: set[str]) -> str:
    """A random opaque card instance id, unique within the game."""
    while True:
        cid = secrets.token_hex(8)
        if cid not in used:
            used.add(cid)
            return cid
