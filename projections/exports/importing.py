"""Importing a game: the checks an export passes before it becomes a stored game.

:func:`import_game` reads an export (:func:`projections.exports.formats.read_export`), checks
it is complete, verifies its hash chain (``domain.envelope.verify_records``) and replays it
through the game's own ruleset (:func:`replay_records`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from domain import DomainError, Event, State, evolve, fair, fair_check, find_ruleset, initial_state
from domain.dealing import is_hex32
from domain.envelope import Record, verify_records
from domain.family import family_named, family_of
from domain.fold import load_event
from domain.visibility import knowledge
from projections.exports.formats import read_export
from projections.exports.walk import creates_game

#: The fields of a server-dealt game's ``dealing`` that its creation request gave.
DEALING_SPEC = ("contributors", "reveal_timeout")


class ImportRejected(ValueError):
    """An imported game failed a check at event ``version`` (``reason`` says which).

    Reasons: ``version_gap``, ``prev_hash_mismatch``, ``hash_mismatch``, ``out_of_order``,
    ``duplicate_version``, ``bad_event``,
    ``incomplete_export``, ``not_game_created``, ``setup_rejected``, ``setup_mismatch``,
    ``after_game_end``, ``unfoldable``, ``invariant``, ``visibility_mismatch``,
    ``dealing_mismatch``; ``detail`` explains.
    """

    def __init__(self, version: int, reason: str, detail: str = "") -> None:
        super().__init__(f"event {version}: {reason}" + (f" ({detail})" if detail else ""))
        self.version = version
        self.reason = reason
        self.detail = detail
        self.message = str(self)

    @property
    def code(self) -> str:
        """``import/broken_chain``, ``import/bad_event``, ``import/incomplete_export`` or
        ``import/impossible_event`` (every replay reason)."""
        return _REJECTION_CODES.get(self.reason, "import/impossible_event")


_REJECTION_CODES = {
    "version_gap": "import/broken_chain",
    "prev_hash_mismatch": "import/broken_chain",
    "hash_mismatch": "import/broken_chain",
    "out_of_order": "import/broken_chain",
    "duplicate_version": "import/broken_chain",
    "bad_event": "import/bad_event",
    "incomplete_export": "import/incomplete_export",
}


def replay_records(records: Iterable[Record], *, max_level: int = 10) -> State:
    """Replay an imported game through the rules and return its final (judge's) state.

    Commands are not stored, so the rules' decisions cannot be re-run; "replayed through the
    rules" means each event must be one the game could have recorded at that point:

    1. versions run 1, 2, ... and each event loads (``event_from_dict``, with upcasting);
    2. event 1 is ``GameCreated`` and the ruleset it names re-creates exactly that event from
       its own seats, cards, mode, format and dealing (``Ruleset.create``: known ruleset and
       rules version, legal seats and cards, unique card ids; a server-dealt game's
       contributors, timeout, scheme and commitment); no later ``GameCreated``;
    3. after the game ended (``status == "finished"``) only the judge records events, and
       the rules the server's secrets (``ServerSecretRevealed``, docs/rules.md E.2);
    4. ``evolve`` applies the event and the new state keeps its family's invariants
       (``Family.invariants``; the Munchkin CCG's: no negative gold, damage,
       tokens or committed gold; levels within 1..``max_level``; every card in exactly one
       zone; a ``GameEnded`` winner that agrees with the eliminations);
    5. the record's ``visible_to`` is what ``domain.visibility.knowledge`` computes for it, so
       an import cannot widen or narrow what each seat is shown (docs/rules.md A.4).

    It does not check that each event was *legal* (e.g. that a Loot fit the level), nor the
    hash chain (:func:`verify_records` does). Raises :class:`ImportRejected` at the first
    event that fails, with ``reason`` ``version_gap``, ``bad_event``, ``not_game_created``,
    ``setup_rejected``, ``setup_mismatch``, ``after_game_end``, ``unfoldable`` (an event that
    cannot follow the game so far: an attack card with no fight, a card the game never had),
    ``invariant`` or ``visibility_mismatch``.
    """
    state = initial_state()
    expected = 1
    for record in records:
        version = record.get("version")
        if version != expected:
            raise ImportRejected(expected, "version_gap", f"found version {version!r}")
        try:
            event = load_event(state, dict(record["event"]))
        except (DomainError, TypeError, ValueError, KeyError) as exc:
            raise ImportRejected(expected, "bad_event", str(exc)) from None
        if expected == 1:
            _check_created(event)
        elif creates_game(event.to_dict()):
            raise ImportRejected(expected, "not_game_created", f"a second {event.type}")
        if state.get("status") == "finished" and not _after_the_end(event):
            raise ImportRejected(expected, "after_game_end", f"{event.type} by {event.seat}")
        try:
            after = evolve(state, event)
        except (LookupError, TypeError, ValueError, AttributeError) as exc:
            # A recorded game's events always fold (they were decided on that very state); a
            # forged or reordered export's may not: it is refused, never a server error.
            raise ImportRejected(
                expected, "unfoldable", f"{event.type} cannot follow the game so far ({exc!r})"
            ) from None
        problems = family_named(after.get("ruleset")).invariants(after, max_level=max_level)
        if problems:
            raise ImportRejected(expected, "invariant", problems[0])
        if record.get("visible_to") != knowledge(state, after, event):
            raise ImportRejected(expected, "visibility_mismatch")
        state = after
        expected += 1
    return state


def _after_the_end(event: Event) -> bool:
    """Whether ``event`` may follow the game's end: the judge's, and the server's secrets
    revealed at the end of a server-dealt game (``ServerSecretRevealed``, docs/rules.md E.2)."""
    return event.seat == "judge" or isinstance(event, fair.ServerSecretRevealed)


def _check_created(event: Event) -> None:
    """The first event is the one its ruleset's ``create`` makes from the same settings."""
    data = event.to_dict()
    if not creates_game(data):
        raise ImportRejected(1, "not_game_created", f"first event is {event.type}")
    try:
        rs = find_ruleset(str(data["ruleset"]))
        spec = family_of(rs).creation_spec(data)  # a family's own creation fields
        if spec is None:
            spec = {k: data[k] for k in ("game_id", "mode", "format", "labels", "seats")}
        if data.get("dealing") is not None:
            spec = {**spec, "dealing": _opened_dealing(data)}
        again = rs.create(spec)
    except DomainError as exc:
        raise ImportRejected(1, "setup_rejected", f"{exc.code}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ImportRejected(1, "setup_rejected", str(exc)) from None
    mine = {k: v for k, v in data.items() if k not in ("seat", "cause", "violation")}
    theirs = {
        k: v for k, v in again[0].event.to_dict().items() if k not in ("seat", "cause", "violation")
    }
    if len(again) != 1 or mine != theirs:
        raise ImportRejected(1, "setup_mismatch", "the ruleset sets this game up differently")


def _opened_dealing(data: Mapping[str, Any]) -> dict[str, Any]:
    """A server-dealt game's ``dealing`` as the server opens one (``domain.fair.opening``):
    its contributors distinct seats in seat order, a timeout in range, the scheme, a
    commitment of 64 lowercase hex; else :class:`ImportRejected` ``setup_rejected``."""
    opened = data["dealing"]
    if not isinstance(opened, Mapping):
        raise ImportRejected(1, "setup_rejected", "dealing is not an object")
    seats = [str(seat.get("seat")) for seat in data["seats"]]
    asked = {"dealing": opened.get("mode"), **{k: opened.get(k) for k in DEALING_SPEC}}
    spec = fair.read_spec(asked, seats)  # its InvalidCommand: setup_rejected
    commitment = opened.get("server_commitment")
    again = (
        None
        if spec is None
        else {**fair.opening("-", spec, bytes(32)), "server_commitment": commitment}
    )
    if again != dict(opened) or not is_hex32(commitment):
        raise ImportRejected(1, "setup_rejected", "dealing is not one the server opens")
    return again


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A verified and replayed import: the export's header, its records and final state."""

    header: dict[str, Any]
    records: list[dict[str, Any]]
    state: State


def import_game(source: str | bytes | Mapping[str, Any]) -> ImportedGame:
    """Read, verify and replay an export: what ``POST /games/import`` needs.

    Raises :class:`ExportFormatError` (not an export), or :class:`ImportRejected`:
    ``incomplete_export`` for a seat's or spectator's export, a chain reason from
    :func:`verify_records`, a replay reason from :func:`replay_records`, or
    ``dealing_mismatch``: a server-dealt game's commitment, seed, counter, result or secret
    that ``domain.fair_check.verify`` names (a result is checked once the secrets are revealed: an
    unfinished game's draws are checked by whoever gets its finished export).
    """
    header, records = read_export(source)
    if not header.get("complete"):
        raise ImportRejected(1, "incomplete_export", f"exported for {header.get('viewer')!r}")
    return ImportedGame(header=header, records=records, state=checked_records(records))


def checked_records(records: list[Record]) -> State:
    """The state after a game's ``records`` (from version 1), which must form an unbroken
    hash chain (:func:`verify_records`), replay through the rules (:func:`replay_records`) and
    deal as ``domain.fair_check.verify`` checks: what an import and a mirror's batch
    (``service.mirrors``) accept; else :class:`ImportRejected` at the first version at fault."""
    check = verify_records(records)
    if check["problems"]:
        first = check["problems"][0]
        raise ImportRejected(first["version"], first["reason"], first["detail"])
    try:
        state = replay_records(records)
    except ImportRejected as exc:  # the dealing of the events before it may break earlier
        _dealing_checked(records[: exc.version - 1])
        raise
    _dealing_checked(records)
    return state


def _dealing_checked(records: list[Record]) -> None:
    """Raise ``dealing_mismatch`` at the first event of ``records`` whose dealing does not
    verify (``domain.fair_check.verify``), if any."""
    dealt = fair_check.verify(records)
    if not dealt["ok"]:
        bad = dealt["first_mismatch"]
        raise ImportRejected(bad["version"], "dealing_mismatch", f"{bad['type']}: {bad['reason']}")
