"""The storage aggregates: a recorded game, its access tokens, its summary, idempotency keys.

The only domain module that knows about eventsourcing (the rules stay pure): :class:`Game` asks
the ruleset to *decide*, stores each returned event wrapped in its envelope as one stored event,
and adopts the state the ruleset computed with it (each event is folded once). Aggregate version
*n* is domain state version *n* (``GameCreated`` is stored as :class:`Game.Opened`, every later
event as :class:`Game.Recorded`; both carry the same envelope fields). A game loaded from the
store folds each stored event with ``domain.fold.apply_record``.

The envelope (the record shape, the hash chain, its verifier) is :mod:`domain.envelope`. The
aggregate state is the domain state dict (plain JSON), so snapshots of a :class:`Game` are plain
JSON too.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, ClassVar, TypeVar
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from domain import fair, round_time
from domain.envelope import Record, record_from, seal, stored_fields, verify_records
from domain.errors import InvalidCommand
from domain.fold import FOLD_VERSION, State, apply_record, initial_state
from domain.ruleset import Ruleset, Step, find_ruleset
from domain.visibility import knowledge

#: The name an idempotency record's id is derived under from its game's, before its key.
_IDEMPOTENCY_PREFIX = "idempotency-key:"
#: An aggregate :func:`_detached` copies.
A = TypeVar("A", bound=Aggregate)
#: ``uuid5`` namespace of imported games whose own id is not a UUID (``Game.id_for_import``).
IMPORT_NAMESPACE = UUID("5f1c2a4e-8d3b-4c6a-9e0f-6d756e63686c")


def token_hash(token: str) -> str:
    """The SHA-256 hex digest under which a bearer token is stored (tokens never are)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: The state decided for the stored event being triggered now (its dict, the state after it).
#: Unset while a game is loaded from the store: then each stored event is folded.
#: Set (and reset) around ``trigger_event`` by :meth:`Game.open` and :meth:`Game._store`.
_DECIDED: ContextVar[tuple[dict[str, Any], State] | None] = ContextVar("decided", default=None)


def _state_after(state: State, data: dict[str, Any]) -> State:
    """The state after the stored event ``data``: the decided one when it is being recorded now,
    else ``data`` folded onto ``state`` (a game loaded from the store)."""
    decided = _DECIDED.get()
    if decided is not None and decided[0] is data:
        return decided[1]
    return apply_record(state, {"event": data})


class Enveloped(Aggregate.Event):
    """A game's stored event: one domain event (its dict) and its envelope, the record's
    fields (``domain.envelope.STORED_FIELDS``) after eventsourcing's own."""

    event: dict[str, Any]
    received_at: str
    client_at: str | None
    visible_to: dict[str, Any]
    hash: str
    prev_hash: str


def _detached(aggregate: A) -> A:
    """A shallow copy of ``aggregate`` with its own (empty) list of pending events: what a
    writer changes instead of the repository's cached copy (``Game.detached``,
    ``GameSummary.detached``)."""
    twin = object.__new__(type(aggregate))
    twin.__dict__.update(aggregate.__dict__)
    twin._pending_events = []
    return twin


class Game(Aggregate):
    """One recorded game: the domain state plus the head of its hash chain.

    ``execute`` is the only command: the ruleset decides each command against the state as it
    stands after the previous command's steps, and every step's event is triggered (stored) in
    turn, the aggregate adopting the step's state.
    A command the rules refuse raises before anything is triggered for it; the caller then
    discards the whole aggregate, so a batch is all or nothing.
    """

    class Opened(Aggregate.Created, Enveloped):
        """The game's first stored event, wrapping the domain's ``GameCreated``, with the
        game's ruleset."""

        ruleset: str

    class Recorded(Enveloped):
        """Every later stored event: one domain event and its envelope."""

        def apply(self, aggregate: Game) -> None:
            aggregate.state = _state_after(aggregate.state, self.event)
            aggregate.head_hash = self.hash

    def __init__(
        self,
        ruleset: str,
        event: dict[str, Any],
        received_at: str,
        client_at: str | None,
        visible_to: dict[str, Any],
        hash: str,
        prev_hash: str,
    ) -> None:
        del received_at, client_at, visible_to, prev_hash  # kept in the stored event only
        self.ruleset = ruleset
        self.state: State = _state_after(initial_state(), event)
        self.head_hash = hash
        self.fold = FOLD_VERSION  # kept in snapshots: an older fold's snapshot is stale

    @classmethod
    def open(
        cls,
        game_id: UUID,
        spec: Mapping[str, Any],
        *,
        received_at: str,
        secret: bytes | None = None,
    ) -> Game:
        """Create a game from a full domain spec (``rs.create(spec)``), stored from version 1.

        A spec whose ``dealing`` is a server's (``domain.fair.read_spec``) needs the server's
        ``secret``: the creating event carries only its commitment (``domain.fair.opening``).
        """
        ruleset = str(spec.get("ruleset", "munchkin-ccg"))
        rs = find_ruleset(ruleset)
        domain_spec = {k: v for k, v in spec.items() if k != "ruleset"}
        if domain_spec.get("dealing") is not None:
            if secret is None:
                raise ValueError("a server-dealt game needs the server's secret")
            domain_spec["dealing"] = fair.opening(str(game_id), domain_spec["dealing"], secret)
        first, *rest = rs.create(domain_spec)
        if domain_spec.get("dealing") is not None and "dealing" not in first.state:
            raise InvalidCommand(
                "request/dealing_unsupported",
                f"ruleset {ruleset!r} cannot be dealt by the server",
                {"dealing": ['"table" only for this ruleset']},
            )
        visible = knowledge(initial_state(), first.state, first.event)
        data = first.event.to_dict()
        record = seal(1, data, received_at=received_at, visible_to=visible)
        token = _DECIDED.set((data, first.state))  # adopt the decided state, do not fold
        try:
            game = cls._create(cls.Opened, id=game_id, ruleset=ruleset, **stored_fields(record))
        finally:
            _DECIDED.reset(token)
        game._store([(step, None) for step in rest], received_at=received_at)
        return game

    def execute(
        self,
        commands: Iterable[tuple[Mapping[str, Any], str | None]],
        *,
        received_at: str,
        secrets: Mapping[int, bytes] | None = None,
    ) -> None:
        """Decide and record each ``(command, client_at)`` in order (docs/rules.md via the ruleset).

        All commands are decided first, on local states; only when every one is accepted are the
        events triggered. A refused command (the domain's ``RuleViolation`` /
        ``ImpossibleCommand`` / ``InvalidCommand``) therefore leaves this aggregate untouched.

        A server-dealt game (docs/rules.md E) is decided with the server's ``secrets`` (by
        epoch): its seeds' commands are the kernel's (``domain.fair``), a contributor past the
        reveal deadline is recorded as withholding first, and the secrets are revealed once the
        game is over.
        """
        decided = decide_commands(
            find_ruleset(self.ruleset),
            self.state,
            commands,
            received_at=received_at,
            secrets=secrets,
        )
        self._store(decided, received_at=received_at)

    def _store(self, decided: Iterable[tuple[Step, str | None]], *, received_at: str) -> None:
        """Trigger each decided ``(step, client_at)`` with its envelope, adopting its state."""
        for step, client_at in decided:
            visible = knowledge(self.state, step.state, step.event)
            data = step.event.to_dict()
            version = self.version + 1
            record = seal(
                version,
                data,
                received_at=received_at,
                client_at=client_at,
                visible_to=visible,
                prev_hash=self.head_hash,
            )
            token = _DECIDED.set((data, step.state))  # adopt the decided state, do not fold
            try:
                self.trigger_event(self.Recorded, **stored_fields(record))
            finally:
                _DECIDED.reset(token)

    def detached(self) -> Game:
        """A copy safe to execute on while the original stays in the repository's cache.

        The state is never mutated in place (``evolve`` copies on write), so a shallow copy with
        its own list of pending events is enough.
        """
        return _detached(self)

    @property
    def status(self) -> str:
        return str(self.state.get("status", "setup"))

    @property
    def winner(self) -> str | None:
        winner = self.state.get("winner")
        return None if winner is None else str(winner)

    @staticmethod
    def id_for_import(game_id: str) -> UUID:
        """The aggregate id of an imported game: its own id when that is a UUID (every game
        this server creates), else a fixed ``uuid5`` of it (logs from other tools)."""
        try:
            return UUID(game_id)
        except ValueError:
            return uuid5(IMPORT_NAMESPACE, game_id)

    @classmethod
    def adopt(cls, game_id: UUID, records: Sequence[Mapping[str, Any]]) -> Game:
        """A game rebuilt from another server's records, each stored with its envelope as given.

        The records must run from version 1 and form an unbroken hash chain, or ``ValueError``
        is raised; whether each event is one the rules could have recorded is checked before,
        by ``projections.exports.import_game``.
        """
        if not records:
            raise ValueError("a game has at least its GameCreated record")
        check = verify_records(records)
        if not check["ok"]:
            raise ValueError(f"the records do not form an unbroken chain: {check['first_broken']}")
        first, rest = records[0], records[1:]
        game = cls._create(
            cls.Opened,
            id=game_id,
            ruleset=str(first["event"].get("ruleset", "munchkin-ccg")),
            **stored_fields(first),
        )
        game.extend(rest)
        return game

    def extend(self, records: Iterable[Mapping[str, Any]]) -> None:
        """Store records of another server that follow this game's last one, each with its
        envelope as given (a mirror's batch: ``service.mirrors``, which checked their chain,
        their rules and their dealing first)."""
        for record in records:
            self.trigger_event(self.Recorded, **stored_fields(record))

    def record_judge(
        self,
        steps: Iterable[Step],
        *,
        received_at: str,
        secrets: Mapping[int, bytes] | None = None,
    ) -> None:
        """Store the judge's decided steps (``domain.judge``: a dispute, or a ruling with its
        backup and corrections; docs/rules.md A.14) in order, each with the usual envelope;
        a server-dealt game that they end has its ``secrets`` revealed after them."""
        decided = list(steps)
        if decided:
            decided += fair.reveal_at_end(decided[-1].state, secrets)
        self._store([(step, None) for step in decided], received_at=received_at)

    def deadline_marks(self, before: str | None) -> list[SeedDeadline]:
        """What to save with this game's pending events so that ``service.deadlines`` learns
        of its seed deadline: :meth:`SeedDeadline.follow` (``before``: the pending deadline it
        had before them)."""
        return SeedDeadline.follow(self, before)


def decide_commands(
    rs: Ruleset,
    state: State,
    commands: Iterable[tuple[Mapping[str, Any], str | None]],
    *,
    received_at: str,
    secrets: Mapping[int, bytes] | None = None,
) -> list[tuple[Step, str | None]]:
    """Every ``(step, client_at)`` :meth:`Game.execute` records for ``commands`` from
    ``state``, decided and not stored (a refusal raises): the ruleset's steps, or
    ``domain.fair``'s for the seeds; in a server-dealt game the withholding due at
    ``received_at`` first and the secrets revealed at the end last, decided with ``secrets``."""
    if "dealing" not in state:  # a table-dealt game: no secret, no deadline (the hot path)
        return _decide_each(rs, state, commands, received_at)[0]
    with fair.secrets_for(secrets):
        decided: list[tuple[Step, str | None]] = [
            (step, None) for step in fair.expire(state, received_at)
        ]
        if decided:
            state = decided[-1][0].state
        more, state = _decide_each(rs, state, commands, received_at, server=True)
        decided += more
        decided.extend((step, None) for step in fair.reveal_at_end(state, secrets))
    return decided


def _decide_each(
    rs: Ruleset,
    state: State,
    commands: Iterable[tuple[Mapping[str, Any], str | None]],
    received_at: str,
    *,
    server: bool = False,
) -> tuple[list[tuple[Step, str | None]], State]:
    """Each command's steps in turn (the seeds' by ``domain.fair``), and the state after them.
    In a server-dealt game (``server``) a draw or a die ends the batch: every command but the
    last is decided under ``domain.fair.not_last`` (docs/rules.md E.1)."""
    decided: list[tuple[Step, str | None]] = []
    batch = list(commands)
    last = len(batch) - 1
    for index, (given, client_at) in enumerate(batch):
        command = dict(given)
        if command.get("type") in fair.COMMANDS:
            steps = fair.decide(state, command, received_at)
        elif server and index < last:
            with fair.not_last(index, len(batch), command.get("type")):
                steps = rs.decide(state, command)
        else:
            steps = rs.decide(state, command)
        if steps:  # the extra turns after time all played: the family ends the game (F.6)
            steps = [*steps, *round_time.time_up(steps[-1].state)]
        decided.extend((step, client_at) for step in steps)
        if steps:
            state = steps[-1].state
    return decided, state


def stored_record(event: Game.Opened | Game.Recorded) -> Record:
    """A stored game event as plain data (the ``record`` passed to ``event_view``)."""
    return record_from(event.originator_version, event.__dict__)


class GamePart(Aggregate):
    """The base of the small aggregates kept beside a game, one of each a game (its access,
    summary, secrets, spectator delay): each is made by calling its class with the game's id
    first (``game_id``), and its id is derived from the game's under :attr:`part`
    (``uuid5``: eventsourcing's ``create_id``), so a reader finds it from the game's id
    alone (:meth:`id_for`)."""

    #: The name its id is derived under (the game's id as the ``uuid5`` namespace).
    part: ClassVar[str]

    @classmethod
    def create_id(cls, game_id: UUID) -> UUID:
        return uuid5(game_id, cls.part)

    id_for = create_id


class GameAccess(GamePart):
    """The SHA-256 hashes of one game's bearer tokens, by role (``A``, ``B``, ``table``,
    ``judge``). Saved together with the game's first events; never changed afterwards."""

    part = "access"

    class Issued(Aggregate.Created):
        game_id: UUID
        token_hashes: dict[str, str]

    def __init__(self, game_id: UUID, token_hashes: dict[str, str]) -> None:
        self.game_id = game_id
        self.token_hashes = dict(token_hashes)

    @classmethod
    def issue(cls, game_id: UUID, token_hashes: Mapping[str, str]) -> GameAccess:
        return cls(game_id, dict(token_hashes))

    def role_for(self, hashed: str) -> str | None:
        """The role whose token hashes to ``hashed`` (constant-time comparisons), or ``None``."""
        found = None
        for role, stored in sorted(self.token_hashes.items()):
            if hmac.compare_digest(stored, hashed):
                found = role
        return found


class GameSummary(GamePart):
    """The game list's read model: what a list query filters on, for one game.

    Written in the same ``save`` as the game's events (when the game is created and whenever
    its status or winner changes), so it is never ahead of or behind the game it describes.
    """

    part = "summary"

    class Opened(Aggregate.Created):
        game_id: UUID
        ruleset: str
        mode: str
        format: str
        labels: dict[str, Any]
        players: dict[str, str]
        status: str
        created_at: str

    class StatusChanged(Aggregate.Event):
        status: str
        winner: str | None
        changed_at: str

        def apply(self, aggregate: GameSummary) -> None:
            aggregate.status = self.status
            aggregate.winner = self.winner
            aggregate.finished_at = self.changed_at if self.status == "finished" else None

    def __init__(
        self,
        game_id: UUID,
        ruleset: str,
        mode: str,
        format: str,
        labels: dict[str, Any],
        players: dict[str, str],
        status: str,
        created_at: str,
    ) -> None:
        self.game_id = game_id
        self.ruleset = ruleset
        self.mode = mode
        self.format = format
        self.labels = dict(labels)
        self.players = dict(players)
        self.status = status
        self.winner: str | None = None
        self.created_at = created_at
        self.finished_at: str | None = None

    @classmethod
    def open(cls, game: Game, *, created_at: str) -> GameSummary:
        state = game.state
        players = {seat: str(info.get("player", "")) for seat, info in state["seats"].items()}
        return cls(
            game_id=game.id,
            ruleset=game.ruleset,
            mode=str(state.get("mode")),
            format=str(state.get("format")),
            labels=dict(state.get("labels") or {}),
            players=players,
            status=game.status,
            created_at=created_at,
        )

    def detached(self) -> GameSummary:
        """A copy to change while the original stays in the repository's cache, so that a
        write that then fails to save leaves the cached summary as stored (issue #35). Its
        events assign attributes and never change a dict in place, so a shallow copy with its
        own list of pending events is enough."""
        return _detached(self)

    def follow(self, game: Game, *, at: str) -> bool:
        """Record the game's status/winner if they changed; whether anything was triggered."""
        if (self.status, self.winner) == (game.status, game.winner):
            return False
        self.trigger_event(
            self.StatusChanged, status=game.status, winner=game.winner, changed_at=at
        )
        return True

    def as_dict(self) -> dict[str, Any]:
        return {
            "game_id": str(self.game_id),
            "ruleset": self.ruleset,
            "mode": self.mode,
            "format": self.format,
            "labels": dict(self.labels),
            "players": dict(self.players),
            "status": self.status,
            "winner": self.winner,
            "created_at": self.created_at,
            "finished_at": self.finished_at,
        }


class IdempotencyRecord(Aggregate):
    """The first response to a batch sent with an ``Idempotency-Key``.

    Its id is ``uuid5(game_id, "idempotency-key:" + key)``, and it is saved in the same
    ``save`` as the batch's events: either both are stored or neither is. A second request
    with the key gets ``response`` back; a concurrent one loses the race with a
    ``RecordConflictError`` and then reads the winner's record.
    """

    class Stored(Aggregate.Created):
        game_id: UUID
        key: str
        fingerprint: str
        response: dict[str, Any]

    def __init__(self, game_id: UUID, key: str, fingerprint: str, response: dict[str, Any]) -> None:
        self.game_id = game_id
        self.key = key
        self.fingerprint = fingerprint
        self.response = response

    @staticmethod
    def id_for(game_id: UUID, key: str) -> UUID:
        return uuid5(game_id, _IDEMPOTENCY_PREFIX + key)

    create_id = id_for


class KeptSecrets:
    """What the aggregates of secrets the server keeps (a game's, an event's) have in common:
    no route reads one, and its repr names only whose secrets they are (:attr:`owner`), never
    a secret in a log line or a traceback."""

    #: The attribute naming whose secrets they are.
    owner: ClassVar[str] = "game_id"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.owner}={getattr(self, self.owner)})"


class GameSecrets(KeptSecrets, GamePart):
    """The server's secrets of a server-dealt game (docs/dealing.md), by epoch: the secret of
    epoch 0 drawn at creation and saved with the game, one more per re-keying ruling.

    No API reads this aggregate: the rules use the secrets to deal
    (``Game.execute(secrets=...)``), and the game's events reveal each one only once it may be
    known (at the end, ``ServerSecretRevealed``; to the judge by a re-keying ruling)."""

    part = "dealing-secrets"

    class Drawn(Aggregate.Created):
        game_id: UUID
        secret: str

    class Added(Aggregate.Event):
        epoch: int
        secret: str

        def apply(self, aggregate: GameSecrets) -> None:
            aggregate.secrets[self.epoch] = self.secret

    def __init__(self, game_id: UUID, secret: str) -> None:
        self.game_id = game_id
        self.secrets: dict[int, str] = {0: secret}

    @classmethod
    def draw(cls, game_id: UUID, secret: bytes) -> GameSecrets:
        return cls(game_id, secret.hex())

    def add(self, epoch: int, secret: bytes) -> None:
        self.trigger_event(self.Added, epoch=epoch, secret=secret.hex())

    def by_epoch(self) -> dict[int, bytes]:
        return {epoch: bytes.fromhex(secret) for epoch, secret in self.secrets.items()}


class SpectatorDelay(GamePart):
    """A game's spectator delay (``spectator_delay`` at creation): how far behind the live game
    spectators and the organizer see it, in ``events`` and/or ``seconds`` (``None``: no such
    rule). Saved with the game's first events, only when the game has a delay; never changed.
    ``service.delay`` applies it to every read."""

    part = "spectator-delay"

    class Set(Aggregate.Created):
        game_id: UUID
        events: int | None
        seconds: int | None

    def __init__(self, game_id: UUID, events: int | None, seconds: int | None) -> None:
        self.game_id = game_id
        self.events = events
        self.seconds = seconds


class SeedDeadline(Aggregate):
    """A server-dealt game's pending seed deadline changed (docs/dealing.md): from the batch
    at the game's ``version``, the server records the seeds still due as withheld at
    ``deadline`` (ISO 8601, UTC), or none is pending any more (``None``). One per change
    (``domain.fair.pending_deadline`` before and after a batch differ), saved with that batch,
    never changed: ``service.deadlines`` finds the games to wake by reading them in commit
    order, after a restart too. Nothing in it is secret."""

    class Set(Aggregate.Created):
        game_id: UUID
        version: int
        deadline: str | None

    def __init__(self, game_id: UUID, version: int, deadline: str | None) -> None:
        self.game_id = game_id
        self.version = version
        self.deadline = deadline

    @staticmethod
    def id_for(game_id: UUID, version: int) -> UUID:
        return uuid5(game_id, f"seed-deadline:{version}")

    create_id = id_for

    @classmethod
    def follow(cls, game: Game, before: str | None) -> list[SeedDeadline]:
        """What to save with ``game``'s pending events: a mark of its pending deadline if it
        differs from ``before`` (the one it had before them), else nothing (at once for a
        table-dealt game, whose deadline is always ``None``)."""
        after = fair.pending_deadline(game.state)
        if after == before or not game.pending_events:
            return []
        return [cls(game.id, game.version, after)]


class MirroredGame(GamePart):
    """Marks a game as a read-only copy of a venue's (``service.mirrors``): the mirror whose
    batches alone may extend it. Saved with the copy's first records; never changed."""

    part = "mirror"

    class Marked(Aggregate.Created):
        game_id: UUID
        mirror_id: UUID

    def __init__(self, game_id: UUID, mirror_id: UUID) -> None:
        self.game_id = game_id
        self.mirror_id = mirror_id


class Mirror(Aggregate):
    """A venue that publishes its games and events to this server (``POST /api/mirrors``): its
    token's hash, the games and events it holds here and what its last batch said
    (``BatchTaken``)."""

    class Opened(Aggregate.Created):
        token_hash: str

    class BatchTaken(Aggregate.Event):
        games: list[str]
        records: int
        taken_at: str
        position: int
        head: int
        newest_at: str | None

        def apply(self, aggregate: Mirror) -> None:
            for game_id in self.games:
                if game_id not in aggregate.games:
                    aggregate.games.append(game_id)
            aggregate.records += self.records
            aggregate.last_batch = {
                "records": self.records,
                "taken_at": self.taken_at,
                "position": self.position,
                "head": self.head,
                "newest_at": self.newest_at,
            }

    class EventsTaken(Aggregate.Event):
        """A batch started copies of these events (a venue's tournaments, ``service.mirror_events``):
        saved with that batch's ``BatchTaken``, before it."""

        events: list[str]

        def apply(self, aggregate: Mirror) -> None:
            aggregate.events.extend(e for e in self.events if e not in aggregate.events)

    def __init__(self, token_hash: str) -> None:
        self.token_hash = token_hash
        self.games: list[str] = []
        #: The events (tournaments) it holds here, in the order they came.
        self.events: list[str] = []
        self.records = 0
        self.last_batch: dict[str, Any] | None = None

    def holds(self, hashed: str) -> bool:
        """Whether ``hashed`` is this mirror's token's hash (a constant-time comparison)."""
        return hmac.compare_digest(self.token_hash, hashed)
