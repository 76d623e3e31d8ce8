"""Fair dealing in a game (issue #25, docs/dealing.md, docs/rules.md E): the seeds, the game
key, every random operation as an event, the server secret revealed at the end.

A game created with ``"dealing": "server"`` carries the server's commitment in its creating
event (``dealing``: mode, scheme, commitment, contributors, reveal timeout); the state keeps it
under ``state["dealing"]`` (absent from a table-dealt game, whose state is what it always was).
The contributors commit (:class:`SeedCommitted`), then reveal (:class:`SeedRevealed`) or are
recorded as withholding once the reveal deadline has passed (:class:`SeedWithheld`); only then
is the game key known (to the server: it needs its secret) and a random operation possible.
Each is a :class:`Dealt` event, recorded by the rules just before the family's own event that
uses its result (the card drawn, the die rolled): the operation, its counter, what it drew
from and what it gave. At the end every server secret is revealed
(:class:`ServerSecretRevealed`), so anyone can re-derive the whole game (:func:`verify`).

The rules are pure: the server's secrets reach a decision through :func:`secrets_for`, which
:class:`domain.game.Game` sets around deciding (:data:`SECRETS`); no event, state or view ever
holds a secret before it is revealed.

>>> from domain.dealing import server_commitment
>>> spec = {"mode": "server", "contributors": ["A"], "reveal_timeout": 60}
>>> opened = opening("g", spec, bytes(32))
>>> opened["server_commitment"] == server_commitment("g", bytes(32)), opened["scheme"]
(True, 'munchlog-rand-v1')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from domain import dealing
from domain.dealing import SCHEME
from domain.errors import ImpossibleCommand, InvalidCommand, RuleViolation
from domain.events import KERNEL, Event, events_of
from domain.fold import CopyOnWriteState, State, evolve, handles
from domain.ruleset import Step

#: Declares the kernel's events, loadable in every family (domain.events.events_of).
event = events_of(KERNEL)

#: The dealing modes of ``POST /api/games``: ``table`` (the seats tell every card and die, as
#: before) and ``server`` (the server deals, by ``munchlog-rand-v1``).
MODES = ("table", "server")
#: Default seconds a contributor has to reveal its seed once every contributor has committed.
DEFAULT_REVEAL_TIMEOUT = 60
#: The longest reveal timeout a game may ask for: a week.
MAX_REVEAL_TIMEOUT = 7 * 24 * 3600
#: The commands every family's games take for the seeds (routed here by ``domain.game``).
COMMANDS = ("commit_seed", "reveal_seed")

#: The fields in which a command would name a card drawn or a value rolled (docs/rules.md
#: E.1): a server-dealt command that draws or rolls carries none of them, but for one it takes
#: for something else (a discard's ``card``, :func:`refuse_told`).
DEALT_FIELDS = ("card", "cards", "doors", "treasures", "roll", "rolls", "value", "values")
#: The code of a random operation taken by an action that is not its batch's last
#: (:func:`not_last`).
NOT_LAST = "command/random_not_last"

#: The server's secrets of the game being decided, by epoch (:func:`secrets_for`).
SECRETS: ContextVar[Mapping[int, bytes] | None] = ContextVar("dealing_secrets", default=None)
#: While an action that is not its batch's last is decided: which one it is (``action 1 of 2
#: (draw)``), else ``None`` (:func:`not_last`).
_NOT_LAST: ContextVar[str | None] = ContextVar("dealing_not_last", default=None)


@contextmanager
def secrets_for(secrets: Mapping[int, bytes] | None) -> Iterator[None]:
    """Decide with the server's ``secrets`` (by epoch) at hand: what a random operation needs."""
    token = SECRETS.set(secrets)
    try:
        yield
    finally:
        SECRETS.reset(token)


@contextmanager
def not_last(index: int, count: int, kind: Any) -> Iterator[None]:
    """Decide action ``index`` (from 0) of a batch of ``count``, not its last, in a server-dealt
    game: a random operation it would take is refused (:data:`NOT_LAST`) before anything is
    drawn or rolled. A draw or a die ends its batch (docs/rules.md E.1): nothing after it is
    decided on a card or a value not yet recorded, so no refusal can tell one (a refusal
    after the draw would say which card came, and the batch, refused, would use up nothing)."""
    token = _NOT_LAST.set(f"action {index + 1} of {count} ({kind})")
    try:
        yield
    finally:
        _NOT_LAST.reset(token)


# --------------------------------------------------------------------------- events


@event
class SeedCommitted(Event):
    """``contributor`` committed to its seed (``commitment``: lowercase hex SHA-256, docs/
    dealing.md) for ``epoch``; the last commitment of an epoch sets the reveal ``deadline``
    (ISO 8601, UTC)."""

    contributor: str
    commitment: str
    epoch: int = 0
    deadline: str | None = None


@event
class SeedRevealed(Event):
    """``contributor`` revealed its ``seed`` (64 lowercase hex), which opens its commitment."""

    contributor: str
    seed: str
    epoch: int = 0


@event
class SeedWithheld(Event):
    """``contributor`` did not reveal its seed by ``deadline``: the game goes on without it
    (the key encodes it as withheld); nothing is re-rolled (docs/rules.md E.2)."""

    contributor: str
    deadline: str
    epoch: int = 0


@event
class Dealt(Event):
    """One random operation of a server-dealt game, recorded by the rules just before the event
    that uses its result. ``op`` is ``deal`` (the first ``take`` of ``among`` shuffled: the
    cards drawn from ``pile``, named in ``cards``) or ``dice`` (``len(values)`` dice of
    ``sides`` faces); ``counter`` is the next of the game's gapless counter, ``epoch`` the key
    it drew with. ``among`` lists the ids the pile held in no known order (never an order:
    a verifier sorts them, docs/dealing.md); viewers see the ids they may (docs/rules.md A.4)."""

    op: str
    counter: int
    epoch: int = 0
    scheme: str = SCHEME
    pile: str | None = None
    among: list[str] = field(default_factory=list)
    take: int = 0
    cards: list[str] = field(default_factory=list)
    sides: int = 0
    values: list[int] = field(default_factory=list)
    card_fields = ("among", "cards")


@event
class ServerSecretRevealed(Event):
    """The game is over: the server's ``secret`` of ``epoch`` (64 lowercase hex), which opens
    that epoch's commitment, so that anyone can re-derive every operation."""

    secret: str
    epoch: int = 0


@event
class DealingRekeyed(Event):
    """A judge's ruling saw the server's secret of the epoch before (docs/rules.md E.3): from
    here the game deals with a new key, under a new secret committed here
    (``server_commitment``) and new seeds from the contributors."""

    epoch: int
    server_commitment: str
    ruling: str | None = None


class RandomUse(NamedTuple):
    """What one event of a server-dealt game takes from a random operation, as the log holds the
    game at that point (a family's ``Family.random_uses``; docs/dealing.md "What verify checks").

    ``op`` ``"deal"``: the event draws from ``pile`` (a ``Dealt`` event's ``pile``), whose cards
    in no known order are ``among`` (sorted), ``take`` of them by chance: with ``take`` 0 (a card
    known to be on top, docs/rules.md D.20; a deck that held fewer cards than the draw) no
    ``Dealt`` deals for it. ``op`` ``"dice"``: the event holds dice the server rolled."""

    op: str
    pile: str | None = None
    among: tuple[str, ...] = ()
    take: int = 0


def deal_use(pile: str, among: Sequence[str], wanted: int) -> RandomUse:
    """A draw of ``wanted`` cards by chance from ``pile``'s cards in no known order ``among``
    (as many as there are)."""
    return RandomUse("deal", pile, tuple(sorted(among)), max(0, min(wanted, len(among))))


#: A die roll's use (``Family.random_uses``).
DICE = RandomUse("dice")


# --------------------------------------------------------------------------- the state


def opening(game_id: str, spec: Mapping[str, Any], secret: bytes) -> dict[str, Any]:
    """The ``dealing`` field of a server-dealt game's creating event: the mode, the scheme, the
    server's commitment (never the secret), the contributors and the reveal timeout."""
    return {
        "mode": "server",
        "scheme": SCHEME,
        "server_commitment": dealing.server_commitment(game_id, secret),
        "contributors": list(spec["contributors"]),
        "reveal_timeout": int(spec["reveal_timeout"]),
    }


def read_spec(spec: Mapping[str, Any], seats: Sequence[str]) -> dict[str, Any] | None:
    """The dealing a creation spec asks for (``dealing``, ``contributors``,
    ``reveal_timeout``), checked against the game's ``seats``: ``None`` for a table-dealt game.
    Raises :class:`InvalidCommand` (400) for a malformed one."""
    mode = spec.get("dealing", "table")
    if mode not in MODES:
        raise InvalidCommand(
            "request/invalid_dealing",
            f"dealing must be one of {', '.join(MODES)}",
            {"dealing": [f"one of {', '.join(MODES)}"]},
        )
    if mode == "table":
        for name in ("contributors", "reveal_timeout"):
            if spec.get(name) is not None:
                raise InvalidCommand(
                    "request/invalid_dealing",
                    f'{name} goes with "dealing": "server" only',
                    {name: ['only with "dealing": "server"']},
                )
        return None
    contributors = spec.get("contributors")
    if contributors is None:
        contributors = list(seats)
    if (
        not isinstance(contributors, list)
        or any(c not in seats for c in contributors)
        or len(set(contributors)) != len(contributors)
    ):
        raise InvalidCommand(
            "request/invalid_contributors",
            f"contributors must be distinct seats of this game ({', '.join(seats)})",
            {"contributors": [f"distinct seats among {', '.join(seats)}"]},
        )
    timeout = spec.get("reveal_timeout", DEFAULT_REVEAL_TIMEOUT)
    if (
        not isinstance(timeout, int)
        or isinstance(timeout, bool)
        or not 1 <= timeout <= MAX_REVEAL_TIMEOUT
    ):
        raise InvalidCommand(
            "request/invalid_reveal_timeout",
            f"reveal_timeout is whole seconds from 1 to {MAX_REVEAL_TIMEOUT}",
            {"reveal_timeout": [f"an integer from 1 to {MAX_REVEAL_TIMEOUT}"]},
        )
    ordered = [s for s in seats if s in contributors]  # the key lists them in seat order
    return {"mode": "server", "contributors": ordered, "reveal_timeout": timeout}


def of(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The game's dealing state, ``None`` for a table-dealt game."""
    found: dict[str, Any] | None = state.get("dealing")
    return found


def server_deals(state: Mapping[str, Any]) -> bool:
    return "dealing" in state


def reopened_on_public_key(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether a backup took a finished server-dealt game (``before``) back into play
    (``after``) while the current epoch's secret is revealed: anyone could then compute every
    later draw from that secret and the public seeds, so the ruling re-keys the game before any
    further random operation (docs/rules.md E.3)."""
    d = of(after)
    return (
        d is not None
        and before.get("status") == "finished"
        and after.get("status") != "finished"
        and str(d["epoch"]) in d["secrets"]
    )


def pending(d: Mapping[str, Any]) -> list[str]:
    """The contributors whose seed is neither revealed nor withheld in this epoch."""
    return [c for c in d["contributors"] if c not in d["revealed"] and c not in d["withheld"]]


def uncommitted(d: Mapping[str, Any]) -> list[str]:
    """The contributors that have neither committed nor been withheld in this epoch: until
    there are none, no seed is revealed (``rule/commitments_pending``)."""
    return [c for c in d["contributors"] if c not in d["commitments"] and c not in d["withheld"]]


def ready(d: Mapping[str, Any]) -> bool:
    """Whether the key of the current epoch is fixed: every contributor revealed or withheld."""
    return not pending(d)


def pending_deadline(state: Mapping[str, Any]) -> str | None:
    """When the server records the seeds still due as withheld (ISO 8601, UTC), if it will:
    a server-dealt game not over, with a contributor's seed due and a deadline set (the
    first commitment sets one). ``None`` otherwise, at once for a table-dealt game."""
    d = state.get("dealing")
    if d is None or state.get("status") == "finished" or not pending(d):
        return None
    found: str | None = d["deadline"]
    return found


def awaited(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """What a server-dealt game waits on until its deadline (:func:`pending_deadline`):
    ``{"at", "seats", "step"}``, the seats whose ``step`` (``commit_seed`` while the
    commitments are open, then ``reveal_seed``) is due by ``at``; past it the server records
    them as withholding by itself and the game goes on without their seeds (E.2). ``None``
    when no such deadline is pending."""
    at = pending_deadline(state)
    if at is None:
        return None
    d = state["dealing"]
    due = pending(d)
    closing = [c for c in due if c not in d["commitments"]]
    return {
        "at": at,
        "seats": closing or due,
        "step": "commit_seed" if closing else "reveal_seed",
    }


def view(state: Mapping[str, Any]) -> dict[str, Any]:
    """What ``GET /api/games/<id>`` shows of the dealing (every viewer alike: nothing here is
    secret; the server's secret appears only once revealed)."""
    d = of(state)
    if d is None:
        return {"mode": "table", "scheme": None, "contributors": [], "revealed": [], "withheld": []}
    return {
        "mode": "server",
        "scheme": d["scheme"],
        "contributors": list(d["contributors"]),
        "revealed": [c for c in d["contributors"] if c in d["revealed"]],
        "withheld": list(d["withheld"]),
        "committed": [c for c in d["contributors"] if c in d["commitments"]],
        "ready": ready(d),
        "epoch": d["epoch"],
        "server_commitment": d["server_commitment"],
        "reveal_timeout": d["reveal_timeout"],
        "reveal_deadline": d["deadline"],
        "deadline": awaited(state),
        "next_counter": d["next_counter"],
        "server_secrets": dict(d["secrets"]),
    }


# --------------------------------------------------------------------------- the fold


def _dealing(draft: CopyOnWriteState) -> dict[str, Any]:
    d: dict[str, Any] = draft.top("dealing")
    return d


@handles(SeedCommitted)
def _committed(e: SeedCommitted, draft: CopyOnWriteState) -> None:
    d = _dealing(draft)
    d["commitments"] = {**d["commitments"], e.contributor: e.commitment}
    if e.deadline is not None:
        d["deadline"] = e.deadline


@handles(SeedRevealed)
def _revealed(e: SeedRevealed, draft: CopyOnWriteState) -> None:
    d = _dealing(draft)
    d["revealed"] = {**d["revealed"], e.contributor: e.seed}


@handles(SeedWithheld)
def _withheld(e: SeedWithheld, draft: CopyOnWriteState) -> None:
    d = _dealing(draft)
    d["withheld"] = [*d["withheld"], e.contributor]
    if e.contributor not in d["commitments"]:  # the commitments closed without it
        rest = [c for c in d["contributors"] if c not in d["withheld"]]
        if all(c in d["commitments"] for c in rest) and any(c not in d["revealed"] for c in rest):
            d["deadline"] = deadline_after(e.deadline, int(d["reveal_timeout"]))  # the reveals


@handles(Dealt)
def _dealt(e: Dealt, draft: CopyOnWriteState) -> None:
    d = _dealing(draft)
    d["next_counter"] = e.counter + 1


@handles(ServerSecretRevealed)
def _secret(e: ServerSecretRevealed, draft: CopyOnWriteState) -> None:
    d = _dealing(draft)
    d["secrets"] = {**d["secrets"], str(e.epoch): e.secret}


@handles(DealingRekeyed)
def _rekeyed(e: DealingRekeyed, draft: CopyOnWriteState) -> None:
    d = _dealing(draft)
    past = [*d.get("past", []), _epoch_record(d)]
    d.update(
        past=past,
        epoch=e.epoch,
        server_commitment=e.server_commitment,
        commitments={},
        revealed={},
        withheld=[],
        deadline=None,
    )


def _epoch_record(d: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "epoch": d["epoch"],
        "server_commitment": d["server_commitment"],
        "commitments": dict(d["commitments"]),
        "revealed": dict(d["revealed"]),
        "withheld": list(d["withheld"]),
    }


# --------------------------------------------------------------------------- deciding


def _step(state: State, ev: Event) -> Step:
    return Step(ev, evolve(state, ev))


def _contributor(d: Mapping[str, Any], command: Mapping[str, Any]) -> str:
    seat = command.get("seat")
    if seat not in d["contributors"]:
        raise RuleViolation(
            "rule/not_a_contributor",
            f"seat {seat!r} is not a contributor of this game "
            f"({', '.join(d['contributors']) or 'none: the server deals alone'})",
            "E.2",
        )
    return str(seat)


def _hex_arg(command: Mapping[str, Any], name: str) -> str:
    value = command.get(name)
    if not dealing.is_hex32(value):
        raise InvalidCommand(
            "request/invalid_hex",
            f"{name} must be 64 lowercase hex characters (32 bytes)",
            {name: ["64 lowercase hex characters"]},
        )
    return str(value)


def moment(iso: str) -> datetime:
    """A deadline or a time of receipt (ISO 8601, UTC, ``Z`` or ``+00:00``) as a datetime."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def deadline_after(now: str, seconds: int) -> str:
    """``now`` (ISO 8601) plus ``seconds``, in the same form."""
    at = moment(now) + timedelta(seconds=seconds)
    return at.isoformat().replace("+00:00", "Z")


def _past(deadline: str | None, now: str) -> bool:
    return deadline is not None and moment(now) > moment(deadline)


def decide(state: State, command: Mapping[str, Any], now: str) -> list[Step]:
    """The steps of a ``commit_seed`` or ``reveal_seed`` command (docs/rules.md E.2)."""
    d = of(state)
    if d is None:
        raise RuleViolation(
            "rule/table_deals",
            'this game is dealt by the table ("dealing": "table"): it takes no seeds',
            "E.2",
        )
    if state.get("status") == "finished":
        raise ImpossibleCommand("command/game_over", "the game is over")
    seat = _contributor(d, command)
    epoch = int(d["epoch"])
    if command.get("type") == "commit_seed":
        commitment = _hex_arg(command, "commitment")
        if seat in d["withheld"]:
            raise RuleViolation(
                "rule/seed_withheld",
                f"seat {seat} did not commit in time: it is recorded as withholding",
                "E.2",
            )
        if seat in d["commitments"]:
            raise RuleViolation(
                "rule/already_committed", f"seat {seat} has committed already", "E.2"
            )
        if commitment in _used_commitments(d):
            raise RuleViolation(
                "rule/commitment_reused",
                "this commitment was used before in this game: commit to fresh random bytes",
                "E.2",
            )
        # The first commitment opens the commitments for ``reveal_timeout`` (a contributor that
        # never commits cannot stall the game), the last opens the reveals for as long.
        first = not d["commitments"]
        last = len(d["commitments"]) + 1 == len(d["contributors"])
        deadline = deadline_after(now, int(d["reveal_timeout"])) if first or last else None
        ev = SeedCommitted(
            seat=seat, contributor=seat, commitment=commitment, epoch=epoch, deadline=deadline
        )
        return [_step(state, ev)]
    seed = _hex_arg(command, "seed")
    waiting = uncommitted(d)
    if waiting:
        raise RuleViolation(
            "rule/commitments_pending",
            f"no seed is revealed before every contributor has committed (waiting for "
            f"{', '.join(waiting)})",
            "E.2",
        )
    if seat in d["revealed"] or seat in d["withheld"]:
        raise RuleViolation(
            "rule/already_revealed" if seat in d["revealed"] else "rule/seed_withheld",
            f"seat {seat}'s seed is "
            + ("revealed already" if seat in d["revealed"] else "recorded as withheld"),
            "E.2",
        )
    if _past(d["deadline"], now):
        raise RuleViolation(
            "rule/reveal_too_late",
            f"the reveal deadline ({d['deadline']}) has passed: the seed is withheld",
            "E.2",
        )
    game_id = str(state["game_id"])
    if not dealing.seat_seed_matches(game_id, seat, seed, d["commitments"][seat]):
        raise RuleViolation(
            "rule/seed_mismatch",
            f"the seed does not open seat {seat}'s commitment",
            "E.2",
        )
    return [_step(state, SeedRevealed(seat=seat, contributor=seat, seed=seed, epoch=epoch))]


def _used_commitments(d: Mapping[str, Any]) -> set[str]:
    used = set(d["commitments"].values())
    for past in d.get("past", []):
        used.update(past.get("commitments", {}).values())
    return used


def expire(state: State, now: str) -> list[Step]:
    """The :class:`SeedWithheld` steps of every contributor still due after the deadline
    (none before it, nor in a table-dealt game): while the commitments are open (the first one
    opened them for ``reveal_timeout``), those that have not committed; then those that have
    not revealed."""
    d = of(state)
    if d is None or state.get("status") == "finished" or not pending(d):
        return []  # the common case first: nobody's seed is due (no deadline to read)
    if not _past(d["deadline"], now):
        return []
    steps: list[Step] = []
    due = pending(d)
    if any(c not in d["commitments"] for c in due):  # the commitments close
        due = [c for c in due if c not in d["commitments"]]
    for seat in due:
        ev = SeedWithheld(contributor=seat, deadline=str(d["deadline"]), epoch=int(d["epoch"]))
        steps.append(_step(steps[-1].state if steps else state, ev))
    return steps


def reveal_at_end(state: State, secrets: Mapping[int, bytes] | None) -> list[Step]:
    """Once the game is over: a :class:`ServerSecretRevealed` step for each epoch whose secret
    (of the server's ``secrets``, by epoch) is not revealed yet."""
    d = of(state)
    if d is None or state.get("status") != "finished":
        return []
    secrets = secrets or {}
    steps: list[Step] = []
    for epoch in range(int(d["epoch"]) + 1):
        if str(epoch) in d["secrets"] or epoch not in secrets:
            continue
        ev = ServerSecretRevealed(secret=secrets[epoch].hex(), epoch=epoch)
        steps.append(_step(steps[-1].state if steps else state, ev))
        state = steps[-1].state
    return steps


def key_of(state: Mapping[str, Any], secrets: Mapping[int, bytes]) -> bytes:
    """The current epoch's game key from the server's ``secrets`` (every epoch's, by number)
    and the seeds the state holds (past epochs' from ``dealing.past``)."""
    d = of(state)
    assert d is not None
    game_id = str(state["game_id"])
    epochs = [*d.get("past", []), _epoch_record(d)]
    key = b""
    for entry in epochs:
        seeds = seeds_of(d["contributors"], entry["revealed"], entry["withheld"])
        epoch = int(entry["epoch"])
        if epoch == 0:
            key = dealing.game_key(secrets[0], game_id, seeds)
        else:
            key = dealing.rekey(key, epoch, secrets[epoch], game_id, seeds)
    return key


def seeds_of(
    contributors: Sequence[str], revealed: Mapping[str, str], withheld: Sequence[str]
) -> list[tuple[str, bytes | None]]:
    return [
        (c, bytes.fromhex(revealed[c]) if c in revealed else None)
        for c in contributors
        if c in revealed or c in withheld
    ]


# --------------------------------------------------------------------------- operations


def _dealer(state: Mapping[str, Any]) -> dealing.Dealer:
    """The dealer of the game at ``state``: its key and next counter. A random operation before
    the key is fixed is refused (``rule/seeds_pending``, docs/rules.md E.2)."""
    where = _NOT_LAST.get()
    if where is not None:  # decided before anything random, so it tells nothing (E.1)
        raise ImpossibleCommand(
            NOT_LAST,
            f"{where} draws or rolls: in a game the server deals, a draw or a die is the last "
            "action of its batch (docs/rules.md E.1); send the actions after it in a batch of "
            "their own, once its result is recorded",
        )
    d = of(state)
    assert d is not None
    waiting = pending(d)
    if waiting:
        raise RuleViolation(
            "rule/seeds_pending",
            "nothing is dealt or rolled before every contributor has revealed its seed or "
            f"timed out (waiting for {', '.join(waiting)})",
            "E.2",
        )
    secrets = SECRETS.get()
    if secrets is None or any(e not in secrets for e in range(int(d["epoch"]) + 1)):
        raise ImpossibleCommand(
            "command/no_dealer",
            "the server's secret of this game is not on this server (a game imported from an "
            "export is not dealt further): nothing can be dealt or rolled",
        )
    return dealing.Dealer(_cached_key(state, secrets), int(d["next_counter"]))


#: The keys derived lately, by everything they are derived from (the game, the seeds of every
#: epoch, the secrets): a key is two HMACs per epoch, and a game deals many times with one.
#: What is kept is what the service already holds (its secrets), a few hundred games' worth.
_KEYS: dict[tuple[Any, ...], bytes] = {}
_KEYS_KEPT = 512


def _cached_key(state: Mapping[str, Any], secrets: Mapping[int, bytes]) -> bytes:
    d = of(state)
    assert d is not None
    seeds = tuple(
        (e["epoch"], tuple(sorted(e["revealed"].items())), tuple(e["withheld"]))
        for e in [*d.get("past", []), _epoch_record(d)]
    )
    known = (state["game_id"], seeds, tuple(sorted(secrets.items())))
    key = _KEYS.get(known)
    if key is None:
        if len(_KEYS) >= _KEYS_KEPT:
            _KEYS.pop(next(iter(_KEYS)))
        key = _KEYS[known] = key_of(state, secrets)
    return key


def dealt_cards(state: Mapping[str, Any], pile: str, among: Sequence[str], take: int) -> Dealt:
    """The :class:`Dealt` event of drawing ``take`` cards of ``among`` (a pile's cards in no
    known order) at the game's next counter."""
    cards, counter = _dealer(state).deal(among, take)
    d = of(state)
    assert d is not None
    return Dealt(
        op="deal",
        counter=counter,
        epoch=int(d["epoch"]),
        pile=pile,
        among=sorted(among),
        take=take,
        cards=cards,
    )


def dealt_dice(state: Mapping[str, Any], sides: int, count: int) -> Dealt:
    """The :class:`Dealt` event of rolling ``count`` dice of ``sides`` faces."""
    values, counter = _dealer(state).dice(sides, count)
    d = of(state)
    assert d is not None
    return Dealt(op="dice", counter=counter, epoch=int(d["epoch"]), sides=sides, values=values)


def refuse_told(command: Mapping[str, Any], uses: Sequence[str] = ()) -> None:
    """In a server-dealt game a command that draws or rolls names no card and no value: refuse
    one that carries any of :data:`DEALT_FIELDS` but those it ``uses`` for something else (a
    discard's ``card``), whether the draw would read it or not (``rule/server_deals``,
    docs/rules.md E.1)."""
    told = [n for n in DEALT_FIELDS if n not in uses and command.get(n) is not None]
    if told:
        raise RuleViolation(
            "rule/server_deals",
            f"the server deals and rolls in this game: send no {' or '.join(told)}",
            "E.1",
        )
