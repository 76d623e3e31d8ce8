"""The judge's record and decisions (docs/rules.md A.14), the same for every ruleset.

A dispute and its ruling are events (:class:`DisputeOpened`, :class:`RulingRecorded`, with
``seat="judge"``), kept in ``state["disputes"]`` and never undone by a backup: a ruling often
is the reason for one. :func:`decide_dispute` and :func:`decide_ruling` decide them like the
rules decide a command: from the state, returning :class:`Step` s (each event with the state
after it) or raising a :class:`domain.errors.DomainError`. What a ruling changes in the game
(backups, forced effects) the game's ruleset decides (``decide_correction``, ``backup``), and so
is a penalty that ends the game for a seat: the ruleset's own concession (:func:`leaves_game`,
docs/rules.md F.5), the penalty upgraded first when the penalty guide says so
(:mod:`domain.penalties`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from domain import fair
from domain.arguments import int_arg, seat_arg
from domain.dealing import server_commitment
from domain.envelope import Record
from domain.errors import (
    ImpossibleCommand,
    InvalidCommand,
    NotFound,
    RuleViolation,
    UnknownVersion,
)
from domain.events import KERNEL, Event, events_of
from domain.family import family_of
from domain.fold import CopyOnWriteState, State, evolve, handles
from domain.penalties import ENDS_GAME, escalate
from domain.ruleset import Step, by_type, ruleset_of

#: A backup undoes at most this many events in one ruling.
MAX_BACKUP = 2000
#: Declares the kernel's events, loadable in every family (domain.events.events_of).
event = events_of(KERNEL)


@event
class DisputeOpened(Event):
    """A player (or the judge) called the judge about the game (docs/rules.md A.14).

    ``note`` is the statement (what is claimed); the contested range is ``from_version`` ..
    ``to_version`` (``turn`` when it was given as a turn); ``about`` is the version the dispute
    concerns, if any (the end of the range).
    """

    dispute: str
    raised_by: str
    note: str = ""
    about: int | None = None
    turn: int | None = None
    from_version: int | None = None
    to_version: int | None = None


@event
class RulingRecorded(Event):
    """The judge ruled on a dispute (docs/rules.md A.14).

    ``penalty`` (e.g. ``"warning"``, ``"game_loss"``) names the penalty given to ``player``, if
    any; a penalty that ends the game (:data:`domain.penalties.ENDS_GAME`) is followed by the
    seat's concession, recorded by the rules as their own events (:func:`decide_ruling`).
    ``backup_to`` is the version the game was backed up to for this ruling, if any;
    ``undone`` lists the versions that backup undid (newest first, every one of them), and
    ``corrections`` the versions of the judge's forced effects recorded with the ruling.
    ``infraction`` names the penalty guide's infraction (:data:`domain.penalties.INFRACTIONS`),
    if the judge named one, and ``escalated_from`` the penalty the judge gave when the guide
    upgraded it for a repeated infraction (``penalty`` is then the upgraded one).
    """

    dispute: str
    ruling: str
    penalty: str | None = None
    player: str | None = None
    backup_to: int | None = None
    undone: list[int] = field(default_factory=list)
    corrections: list[int] = field(default_factory=list)
    infraction: str | None = None
    escalated_from: str | None = None

    #: Version 2 adds ``infraction`` and ``escalated_from`` (issue #27's penalties).
    class_version = 2

    @staticmethod
    def upcast_v1_v2(values: dict[str, Any]) -> dict[str, Any]:
        """A ruling stored before version 2 named no infraction and was never upgraded."""
        return {**values, "infraction": None, "escalated_from": None}

    def to_dict(self) -> dict[str, Any]:
        """As every event's, but a ruling naming no infraction and not upgraded is stored in
        version 1's shape, byte for byte as before (its upcaster reads it back the same)."""
        out = Event.to_dict(self)
        if out["infraction"] is None and out["escalated_from"] is None:
            del out["infraction"], out["escalated_from"]
            out["v"] = 1
        return out


@handles(DisputeOpened)
def _open_dispute(e: DisputeOpened, draft: CopyOnWriteState) -> None:
    disputes = dict(draft.state.get("disputes") or {})
    disputes[e.dispute] = {
        "raised_by": e.raised_by,
        "about": e.about,
        "note": e.note,
        "opened_at": draft.state["version"] + 1,
        "turn": e.turn,
        "from_version": e.from_version,
        "to_version": e.to_version,
        "rulings": [],
    }
    draft.state["disputes"] = disputes


@handles(RulingRecorded)
def _record_ruling(e: RulingRecorded, draft: CopyOnWriteState) -> None:
    disputes = dict(draft.state.get("disputes") or {})
    entry = dict(
        disputes.get(e.dispute)
        or {"raised_by": "judge", "about": None, "note": "", "opened_at": None, "rulings": []}
    )
    ruling = {
        "version": draft.state["version"] + 1,
        "ruling": e.ruling,
        "penalty": e.penalty,
        "player": e.player,
        "backup_to": e.backup_to,
        "undone": list(e.undone),
        "corrections": list(e.corrections),
    }
    if e.infraction is not None:  # only when named: older states keep their exact shape
        ruling["infraction"] = e.infraction
    if e.escalated_from is not None:
        ruling["escalated_from"] = e.escalated_from
    entry["rulings"] = [*entry["rulings"], ruling]
    disputes[e.dispute] = entry
    draft.state["disputes"] = disputes


# --------------------------------------------------------------------------- decisions


@dataclass(frozen=True, slots=True)
class Claim:
    """What a dispute contests: who raises it, what they claim, and where in the log (a
    ``turn`` resolved to its versions, or ``from_version``..``to_version``; one end given
    alone stands for both; all optional)."""

    raised_by: str
    statement: str
    turn: int | None = None
    from_version: int | None = None
    to_version: int | None = None


def contested_range(claim: Claim, current: int) -> tuple[int | None, int | None]:
    """The versions ``claim`` contests, ``(from, to)`` (one end given alone stands for both),
    in a game at version ``current``; :class:`UnknownVersion` for a version it has not reached.
    """
    lo = claim.to_version if claim.from_version is None else claim.from_version
    hi = lo if claim.to_version is None else claim.to_version
    for version in (lo, hi):
        if version is not None and version > current:
            raise UnknownVersion(version, current)
    return lo, hi


def find_dispute(state: State, dispute_id: str) -> Mapping[str, Any]:
    """The dispute ``dispute_id`` of the game in ``state``; :class:`NotFound` if it has none."""
    dispute = (state.get("disputes") or {}).get(dispute_id)
    if dispute is None:
        raise NotFound("dispute/not_found", f"no dispute {dispute_id!r} in this game")
    return dispute


def decide_dispute(state: State, claim: Claim) -> list[Step]:
    """Open the game's next dispute (``d1``, ``d2`` ...) about ``claim``.

    Raises :class:`UnknownVersion` for a version the game has not reached.
    """
    lo, hi = contested_range(claim, int(state.get("version", 0)))
    event = DisputeOpened(
        seat="judge",
        dispute=f"d{len(state.get('disputes') or {}) + 1}",
        raised_by=claim.raised_by,
        note=claim.statement,
        about=hi,
        turn=claim.turn,
        from_version=lo,
        to_version=hi,
    )
    return [Step(event, evolve(state, event))]


def read_correction(
    state: Mapping[str, Any], command: Any, effects: Mapping[str, type[Event]]
) -> tuple[Any, dict[str, Any]]:
    """What every ruleset's ``decide_correction`` reads first: the event class of ``command``
    among the ruleset's ``effects`` (by its ``type``), and the fields every forced effect has
    (``seat="judge"``, ``corrects``: a version the game has reached).

    Raises :class:`InvalidCommand` (``request/invalid_command``, ``request/unknown_correction``,
    ``request/invalid_number``) and :class:`UnknownVersion`.
    """
    cls = by_type(command, effects, "correction")
    current = int(state.get("version", 0))
    corrects = int_arg(command, "corrects", lo=1, hi=None)  # a version: the game's bounds it
    if corrects > current:
        raise UnknownVersion(corrects, current)
    return cls, {"seat": "judge", "corrects": corrects}


def level_set(state: Mapping[str, Any], command: Any) -> dict[str, Any]:
    """The fields of a judge's ``set_level`` (every family's): the seat (``player``) and its
    new level, 1 to 10 (docs/rules.md A.14, B.17)."""
    return {
        "player": seat_arg(state, command, "player"),
        "level": int_arg(command, "level", lo=1, hi=10),
    }


#: ``backup_from(point)``: the state at version ``point`` and the records after it.
BackupSource = Callable[[int], tuple[State, Sequence[Record]]]


def decide_ruling(
    state: State,
    dispute_id: str,
    ruling: Mapping[str, Any],
    backup_from: BackupSource,
    *,
    new_secret: bytes | None = None,
) -> list[Step]:
    """The judge's ruling on a dispute, all of it: first the backup when ``backup_to`` names a
    version (every later event undone, newest first), then the forced ``corrections`` (each
    with ``corrects: <version>``), then the re-keying when ``rekey`` is true (a
    :class:`~domain.fair.DealingRekeyed` committing to the server's ``new_secret``, docs/rules.md
    E.3) or when the backup reopens a finished game whose key is public (its secret revealed at
    the end: :func:`~domain.fair.reopened_on_public_key`; with a ``new_secret`` only, which the
    server gives where it holds the game's secrets: a game imported from an export deals
    nothing more), then the :class:`RulingRecorded` with the note and penalty, then, for a penalty that
    ends the game, the seat's concession (:func:`leaves_game`, docs/rules.md F.5).

    ``ruling`` is ``{"ruling": note, "penalty": {"kind", "seat", "infraction"?, "earlier"?} |
    None, "backup_to": int | None, "corrections": [command, ...], "rekey": bool}``;
    ``backup_from`` loads what a backup needs. A penalty's ``infraction`` names the penalty
    guide's (:data:`domain.penalties.INFRACTIONS`) and ``earlier`` counts the player's earlier
    penalties of the same kind for it in the game's event (the service's count; none outside an
    event): the kind recorded is :func:`domain.penalties.escalate`'s, with ``escalated_from``
    when it was upgraded. Raises :class:`NotFound` (``dispute/not_found``),
    :class:`UnknownVersion`, :class:`InvalidCommand` (``request/invalid_seat``, field
    ``penalty.seat``: a seat not in the game), :class:`ImpossibleCommand`
    (``dispute/already_ruled``, ``ruling/backup_too_long``, ``command/game_over``: a re-keying
    of a game over), :class:`RuleViolation` (``rule/table_deals``: a re-keying of a table-dealt
    game) and the ruleset's errors for a bad correction (an :class:`InvalidCommand` names the
    correction's index in its fields: ``corrections.<i>.<field>``).
    """
    dispute = find_dispute(state, dispute_id)
    if dispute["rulings"]:
        raise ImpossibleCommand(
            "dispute/already_ruled", f"dispute {dispute_id} has a ruling already"
        )
    penalty = ruling.get("penalty") or {}
    penalised = None
    if penalty.get("seat") is not None:
        try:
            penalised = seat_arg(state, penalty, "seat")
        except InvalidCommand as exc:
            exc.fields = {f"penalty.{k}": v for k, v in exc.fields.items()}
            raise
    rekey = bool(ruling.get("rekey"))
    if rekey and not fair.server_deals(state):
        raise RuleViolation(
            "rule/table_deals",
            'this game is dealt by the table ("dealing": "table"): there is no key to re-key',
            "E.3",
        )
    ruleset = ruleset_of(state)
    version = int(state["version"])
    steps: list[Step] = []
    undone: list[int] = []
    point = ruling.get("backup_to")
    if point is not None:
        if point > version:
            raise UnknownVersion(point, version)
        if version - point > MAX_BACKUP:
            raise ImpossibleCommand(
                "ruling/backup_too_long",
                f"a backup undoes at most {MAX_BACKUP} events in one ruling",
            )
        at_point, later = backup_from(point)
        for undone_version, restorations in ruleset.backup(at_point, state, later):
            undone.append(undone_version)
            steps.extend(restorations)
    work = steps[-1].state if steps else state
    corrections: list[int] = []
    for index, command in enumerate(ruling.get("corrections") or []):
        corrects = command.get("corrects")
        if type(corrects) is int and corrects > version:
            raise UnknownVersion(corrects, version)
        try:
            event = ruleset.decide_correction(work, command)
        except InvalidCommand as exc:
            exc.fields = {f"corrections.{index}.{k}": v for k, v in exc.fields.items()}
            raise
        work = evolve(work, event)
        steps.append(Step(event, work))
        corrections.append(int(work["version"]))
    if rekey or (new_secret is not None and fair.reopened_on_public_key(state, work)):
        steps.append(_rekeyed(work, dispute_id, new_secret))
        work = steps[-1].state
    given = penalty.get("kind")
    kind = given
    if given is not None:  # upgraded for a repeated infraction (docs/rules.md F.5)
        kind = escalate(given, penalty.get("infraction"), int(penalty.get("earlier") or 0))
    recorded = RulingRecorded(
        seat="judge",
        dispute=dispute_id,
        ruling=ruling["ruling"],
        penalty=kind,
        player=penalised,
        backup_to=point,
        undone=undone,
        corrections=corrections,
        infraction=penalty.get("infraction"),
        escalated_from=given if kind != given else None,
    )
    work = evolve(work, recorded)
    steps.append(Step(recorded, work))
    if kind in ENDS_GAME and penalised is not None:
        steps.extend(leaves_game(work, penalised))
    return steps


def leaves_game(state: State, seat: str) -> list[Step]:
    """The steps that end the game for ``seat`` after a ruling whose penalty ends it (a game
    loss, a match loss, a disqualification; docs/rules.md F.5): the ruleset's own concession
    (``{"type": "concede"}``), so the game ends as a concession would (the other player wins a
    two-player game; a classic table plays on without the seat), recorded by the rules: each
    event the seat would have acted is the rules' (``seat="rules"``), the first caused by the
    ruling (the last version of ``state``). None when the game is over, the seat already out
    of it, or the ruleset has no concession (the penalty is then a record only)."""
    ruleset = ruleset_of(state)
    if (
        state.get("status") == "finished"
        or state["seats"][seat].get("eliminated")
        or "concede" not in ruleset.command_types
    ):
        return []
    ruling_version = int(state["version"])
    steps: list[Step] = []
    work = state
    for step in ruleset.decide(state, {"type": "concede", "seat": seat}):
        event = replace(
            step.event,
            seat="rules" if step.event.seat == seat else step.event.seat,
            cause=ruling_version if step.event.cause is None else step.event.cause,
        )
        work = evolve(work, event)  # folded again: the seat and cause are the rules' now
        steps.append(Step(event, work))
    return steps


#: Who raises the dispute a reported result closes a game with (:func:`close_for_result`).
REPORTED = "event"


def close_for_result(state: State, note: str) -> list[Step]:
    """A judge's ruling closing a game still open when its match's result was reported
    (issue #44, docs/rules.md F.3): a dispute raised by the event (:data:`REPORTED`) and the
    ruling, both saying ``note`` (the result and why), then the game's end as at time when
    nobody won (the family's ``time_out`` with a draw: the MTR's unfinished game), so no
    one can win it afterwards. Nothing for a game over."""
    if state.get("status") == "finished":
        return []
    opened = decide_dispute(state, Claim(raised_by=REPORTED, statement=note))
    dispute = f"d{len(state.get('disputes') or {}) + 1}"  # the one decide_dispute opened
    ruled = RulingRecorded(seat="judge", dispute=dispute, ruling=note)
    work = evolve(opened[-1].state, ruled)
    steps = [*opened, Step(ruled, work)]
    return steps + family_of(ruleset_of(work)).time_out(work, "draw")


def closed_by_report(state: Mapping[str, Any]) -> bool:
    """Whether a reported result closed the game (:func:`close_for_result`)."""
    return any(d.get("raised_by") == REPORTED for d in (state.get("disputes") or {}).values())


def _rekeyed(state: State, dispute_id: str, new_secret: bytes | None) -> Step:
    """The :class:`~domain.fair.DealingRekeyed` step of a re-keying ruling (docs/rules.md
    E.3): the next epoch, under the server's ``new_secret`` (only its commitment is recorded);
    the contributors then commit and reveal new seeds before the next random operation."""
    if new_secret is None:
        raise ValueError("a re-keying ruling needs the server's new secret")
    if state.get("status") == "finished":
        raise ImpossibleCommand(
            "command/game_over",
            "the game is over: its server secrets are revealed, there is nothing to re-key",
        )
    d = fair.of(state)
    assert d is not None
    event = fair.DealingRekeyed(
        seat="judge",
        epoch=int(d["epoch"]) + 1,
        server_commitment=server_commitment(str(state["game_id"]), new_secret),
        ruling=dispute_id,
    )
    return Step(event, evolve(state, event))
