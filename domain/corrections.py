"""Judge corrections: events that restore recorded state, and the judge's own record.

A judge "backs up" a game (RULES.md A.14) by recording facts that put the table back the way
it was at an earlier version. These events are not decided by the rules: the judge's tools
(``projections.replay.backup_events``) compute them from two states, and ``evolve`` applies
them like any other fact. Each one sets part of the state *verbatim*:

* :class:`CardRestored` -- one card instance's zone, position in that zone, face, orientation,
  damage, tokens, host and knowledge (RULES.md A.3, A.4);
* :class:`SeatRestored` -- one seat's level, purse, Run Away marker and turn flags;
* :class:`TableRestored` -- status, winner, turn, phase/step, setup progress, fight, window;
* :class:`StackTrimmed` / :class:`StackEntryRestored` -- the resolution stack (RULES.md A.11).

Card ids that may be secret travel in ``card_fields`` (and the attack card's salt in
``secret_with``), so ``projections.views.event_view`` redacts these events like the others.

:class:`DisputeOpened` and :class:`RulingRecorded` are the judge's record of a dispute and its
ruling. They are kept in ``state["disputes"]`` and are *not* undone by a backup: a ruling
often is the reason for one.

Importing this module registers the events (``domain.events.EVENT_TYPES``) and their
``evolve`` handlers.

>>> from domain.events import event_from_dict
>>> e = SeatRestored(seat="judge", player="A", level=3, gold=2, marker="run_away",
...                  caught_cheating=False, ran_this_turn=0, eliminated=None, mulligan="kept")
>>> event_from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from domain import events as ev
from domain.events import Json, _register
from domain.state import ZONES, Tx, _apply

# --------------------------------------------------------------------------- restorations


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class CardRestored(ev.Event):
    """A card instance was put back exactly as it was (judge backup, RULES.md A.3, A.14).

    ``zone`` is a zone of the card's owner (``deck``, ``hand``, ``hoard``, ``stash``,
    ``discard``, ``removed``), ``hero``, the shared ``dmz`` or ``stuck`` (to ``host``);
    ``position`` is its index in that zone's list (``None`` for ``hero``). The card leaves
    whatever list held it first, so every card stays in exactly one zone.
    """

    card: str
    zone: str
    position: int | None
    face: str
    zapped: bool
    damage: int
    tokens: int
    known: list[str]
    host: str | None = None
    cost_mod: int | None = None
    card_fields: ClassVar[tuple[str, ...]] = ("card", "host")


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRestored(ev.Event):
    """A seat's counters were put back: level, purse, marker, turn flags (judge backup)."""

    player: str
    level: int
    gold: int
    marker: str
    caught_cheating: bool
    ran_this_turn: int
    eliminated: str | None
    mulligan: str | None = None


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class TableRestored(ev.Event):
    """The table's shared state was put back: status, turn, phase, setup, fight, window.

    ``fight`` is the fight without its attack card, salt and defender cards; those travel in
    ``fight_card``, ``fight_salt`` and ``fight_defender_cards`` so a viewer who may not see the
    face-down attack card sees neither its id nor its salt (RULES.md A.4, A.9).
    """

    status: str
    winner: str | None
    turn: int
    active: str | None
    phase: str
    step: str | None
    setup: dict[str, Json]
    window: dict[str, Json] | None
    fight: dict[str, Json] | None
    fight_card: str | None = None
    fight_salt: str | None = None
    fight_defender_cards: list[str] = field(default_factory=list)
    card_fields: ClassVar[tuple[str, ...]] = ("fight_card", "fight_defender_cards")
    secret_with: ClassVar[dict[str, str]] = {"fight_salt": "fight_card"}


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class StackTrimmed(ev.Event):
    """The resolution stack was cut back to its ``keep`` oldest entries (judge backup)."""

    keep: int


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class StackEntryRestored(ev.Event):
    """An ability or Mischief was put back on top of the stack (judge backup, RULES.md A.11)."""

    ref: int
    card: str
    player: str
    kind: str
    targets: list[str] = field(default_factory=list)
    canceled: bool = False
    card_fields: ClassVar[tuple[str, ...]] = ("card", "targets")


# --------------------------------------------------------------------------- judge's record


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class DisputeOpened(ev.Event):
    """A player (or the judge) called the judge about the game (RULES.md A.14).

    ``about`` is the state version the dispute concerns, if any.
    """

    dispute: str
    raised_by: str
    note: str = ""
    about: int | None = None


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class RulingRecorded(ev.Event):
    """The judge ruled on a dispute (RULES.md A.14).

    ``penalty`` (e.g. ``"warning"``, ``"game_loss"``) names the penalty given to ``player``, if
    any; it is a record only: any change to the game is recorded by its own events.
    ``backup_to`` is the version the game was backed up to for this ruling, if any.
    """

    dispute: str
    ruling: str
    penalty: str | None = None
    player: str | None = None
    backup_to: int | None = None


# --------------------------------------------------------------------------- evolve


def _restore_card(e: CardRestored, tx: Tx) -> None:
    tx.remove_from_zone(e.card)
    card = tx.card(e.card)
    card.update(
        zone=e.zone,
        face=e.face,
        zapped=e.zapped,
        damage=e.damage,
        tokens=e.tokens,
        known=list(e.known),
        host=e.host,
        cost_mod=e.cost_mod,
    )
    if e.zone == "dmz":
        _insert(tx.top("dmz"), e.position, e.card)
    elif e.zone in ZONES:
        _insert(tx.zone(card["owner"], e.zone), e.position, e.card)
    elif e.zone == "stuck" and e.host is not None:
        host = tx.card(e.host)
        stuck = list(host["stuck"])
        _insert(stuck, e.position, e.card)
        host["stuck"] = stuck


def _insert(cards: list[str], position: int | None, cid: str) -> None:
    """Put ``cid`` at ``position`` (the end when ``None`` or past the end)."""
    if position is None:
        cards.append(cid)
    else:
        cards.insert(position, cid)


def _restore_seat(e: SeatRestored, tx: Tx) -> None:
    tx.seat(e.player).update(
        level=e.level,
        gold=e.gold,
        marker=e.marker,
        caught_cheating=e.caught_cheating,
        ran_this_turn=e.ran_this_turn,
        eliminated=e.eliminated,
        mulligan=e.mulligan,
    )


def _restore_table(e: TableRestored, tx: Tx) -> None:
    fight: dict[str, Any] | None = None
    if e.fight is not None:
        fight = {
            **e.fight,
            "card": e.fight_card,
            "salt": e.fight_salt,
            "defender_cards": list(e.fight_defender_cards),
        }
    tx.s.update(
        status=e.status,
        winner=e.winner,
        turn=e.turn,
        active=e.active,
        phase=e.phase,
        step=e.step,
        setup=dict(e.setup),
        window=None if e.window is None else dict(e.window),
        fight=fight,
    )


def _trim_stack(e: StackTrimmed, tx: Tx) -> None:
    tx.s["stack"] = list(tx.s.get("stack") or [])[: max(0, e.keep)]


def _push_stack_entry(e: StackEntryRestored, tx: Tx) -> None:
    tx.top("stack").append(
        {
            "ref": e.ref,
            "card": e.card,
            "player": e.player,
            "kind": e.kind,
            "targets": list(e.targets),
            "canceled": e.canceled,
        }
    )


def _open_dispute(e: DisputeOpened, tx: Tx) -> None:
    disputes = dict(tx.s.get("disputes") or {})
    disputes[e.dispute] = {
        "raised_by": e.raised_by,
        "about": e.about,
        "note": e.note,
        "opened_at": tx.s["version"] + 1,
        "rulings": [],
    }
    tx.s["disputes"] = disputes


def _record_ruling(e: RulingRecorded, tx: Tx) -> None:
    disputes = dict(tx.s.get("disputes") or {})
    entry = dict(
        disputes.get(e.dispute)
        or {"raised_by": "judge", "about": None, "note": "", "opened_at": None, "rulings": []}
    )
    ruling = {
        "version": tx.s["version"] + 1,
        "ruling": e.ruling,
        "penalty": e.penalty,
        "player": e.player,
        "backup_to": e.backup_to,
    }
    entry["rulings"] = [*entry["rulings"], ruling]
    disputes[e.dispute] = entry
    tx.s["disputes"] = disputes


_apply.register(CardRestored)(_restore_card)
_apply.register(SeatRestored)(_restore_seat)
_apply.register(TableRestored)(_restore_table)
_apply.register(StackTrimmed)(_trim_stack)
_apply.register(StackEntryRestored)(_push_stack_entry)
_apply.register(DisputeOpened)(_open_dispute)
_apply.register(RulingRecorded)(_record_ruling)

#: The events a backup may contain, in the order ``backup_events`` emits them.
RESTORATIONS: tuple[type[ev.Event], ...] = (
    CardRestored,
    SeatRestored,
    TableRestored,
    StackTrimmed,
    StackEntryRestored,
)
