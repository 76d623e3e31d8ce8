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
A backup ruling undoes the events after its point newest first, one at a time; each restoration
then names the event it undoes in ``undoes`` (``None`` for a plain state-to-state backup).

A judge may also force single effects (RULES.md A.10) to correct an event recorded in error:
:func:`judge_effect` turns an effect command (``damage``, ``heal``, ``move``, ``stash``,
``discard``, ``take_gold`` ...) plus ``corrects: <version>`` into a ``Judge*`` event. Those
subclass the rules' own effect events (same fields, same ``evolve`` handler, same redaction),
add ``corrects`` and ``forced_by_judge=True``, and run no rule: the judge states the fact.

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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from domain import events as ev
from domain.errors import ImpossibleCommand, InvalidCommand
from domain.events import Json, _register
from domain.state import SEATS, ZONES, Tx, _apply

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
    undoes: int | None = None
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
    undoes: int | None = None


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
    undoes: int | None = None
    card_fields: ClassVar[tuple[str, ...]] = ("fight_card", "fight_defender_cards")
    secret_with: ClassVar[dict[str, str]] = {"fight_salt": "fight_card"}


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class StackTrimmed(ev.Event):
    """The resolution stack was cut back to its ``keep`` oldest entries (judge backup)."""

    keep: int
    undoes: int | None = None


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
    undoes: int | None = None
    card_fields: ClassVar[tuple[str, ...]] = ("card", "targets")


# --------------------------------------------------------------------------- judge's record


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class DisputeOpened(ev.Event):
    """A player (or the judge) called the judge about the game (RULES.md A.14).

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


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class RulingRecorded(ev.Event):
    """The judge ruled on a dispute (RULES.md A.14).

    ``penalty`` (e.g. ``"warning"``, ``"game_loss"``) names the penalty given to ``player``, if
    any; it is a record only: any change to the game is recorded by its own events.
    ``backup_to`` is the version the game was backed up to for this ruling, if any;
    ``undone`` lists the versions that backup undid (newest first, every one of them), and
    ``corrections`` the versions of the judge's forced effects recorded with the ruling.
    """

    dispute: str
    ruling: str
    penalty: str | None = None
    player: str | None = None
    backup_to: int | None = None
    undone: list[int] = field(default_factory=list)
    corrections: list[int] = field(default_factory=list)


# --------------------------------------------------------------------------- judge's forced effects


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeDamageDealt(ev.DamageDealt):
    """The judge put damage on a card to correct event ``corrects`` (RULES.md A.10, A.14)."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeHealed(ev.Healed):
    """The judge removed damage from a card ("restore 2 damage") to correct ``corrects``."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCardMoved(ev.CardMoved):
    """The judge moved a card to a zone of its owner ("return it to the hoard")."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCardStashed(ev.CardStashed):
    """The judge put a card in its owner's stash, face ``up`` or ``down``."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCardDiscarded(ev.CardDiscarded):
    """The judge put a card in its owner's discard pile."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCardRemoved(ev.CardRemoved):
    """The judge removed a card from the game."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCardZapped(ev.CardZapped):
    """The judge zapped a card."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCardUnzapped(ev.CardUnzapped):
    """The judge unzapped a card."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCardRevealed(ev.CardRevealed):
    """The judge revealed a card to both players."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeTokensCollected(ev.TokensCollected):
    """The judge put stockpile tokens on a card."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeGoldTaken(ev.GoldTaken):
    """The judge gave a purse gold from the stockpile."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeGoldStolen(ev.GoldStolen):
    """The judge moved gold from one purse to the other."""

    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeGoldLost(ev.Event):
    """The judge returned gold from a purse to the stockpile (never below 0, RULES.md A.1)."""

    player: str
    amount: int
    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeLevelSet(ev.Event):
    """The judge set a seat's level (1..10, RULES.md A.2)."""

    player: str
    level: int
    corrects: int
    forced_by_judge: bool = True


@_register
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeMarkerSet(ev.Event):
    """The judge turned a seat's Run Away marker to ``side`` (no warmup step follows)."""

    player: str
    side: str
    corrects: int
    forced_by_judge: bool = True


#: The effect commands a judge may force, and the event each becomes.
JUDGE_EFFECTS: dict[str, type[ev.Event]] = {
    "damage": JudgeDamageDealt,
    "heal": JudgeHealed,
    "move": JudgeCardMoved,
    "stash": JudgeCardStashed,
    "discard": JudgeCardDiscarded,
    "remove": JudgeCardRemoved,
    "zap": JudgeCardZapped,
    "unzap": JudgeCardUnzapped,
    "reveal_card": JudgeCardRevealed,
    "collect": JudgeTokensCollected,
    "take_gold": JudgeGoldTaken,
    "steal": JudgeGoldStolen,
    "lose_gold": JudgeGoldLost,
    "set_level": JudgeLevelSet,
    "set_marker": JudgeMarkerSet,
}
MOVE_TARGETS = ("hand", "deck_bottom", "deck_top", "hoard", "stash", "discard")
MARKER_SIDES = ("run_away", "limp_away")


def judge_effect(state: Mapping[str, Any], command: Mapping[str, Any]) -> ev.Event:
    """The forced effect for one judge correction command (RULES.md A.14), unchecked by rules.

    ``command`` is ``{"type", "corrects": <version>, ...}`` with the effect command's fields:
    ``target`` (a card id, or ``"A"``/``"B"`` for that Hero) and ``amount`` for ``damage`` and
    ``heal``; ``card`` for ``move`` (plus ``to``, ``face``), ``stash`` (``face``), ``discard``,
    ``remove``, ``zap``, ``unzap``, ``reveal_card``, ``collect`` (``amount``); ``player`` and
    ``amount`` for ``take_gold``/``lose_gold``; ``from``/``to`` and ``amount`` for ``steal``;
    ``player`` and ``level`` for ``set_level``; ``player`` and ``side`` for ``set_marker``.
    Raises :class:`InvalidCommand` for a malformed command, :class:`ImpossibleCommand` for an
    unknown card or a ``corrects`` version the game has not reached.

    >>> s = {"version": 9, "cards": {"c1": {"damage": 3}}, "seats": {"A": {"hero": "c1"}}}
    >>> judge_effect(s, {"type": "heal", "target": "A", "amount": 2, "corrects": 7})
    JudgeHealed(seat='judge', cause=None, violation=None, source=None, target='c1', amount=2, corrects=7, forced_by_judge=True)
    """
    kind = command.get("type")
    cls: Any = JUDGE_EFFECTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidCommand(
            "request/unknown_correction",
            f"unknown correction {kind!r}",
            {"type": [f"one of {', '.join(JUDGE_EFFECTS)}"]},
        )
    corrects = _int(command, "corrects", lo=1)
    if corrects > int(state.get("version", 0)):
        raise ImpossibleCommand(
            "command/unknown_version", f"there is no event {corrects} to correct yet"
        )
    base: dict[str, Any] = {"seat": "judge", "corrects": corrects}
    if kind in ("damage", "heal"):
        target = _str(command, "target")
        seats = state.get("seats") or {}
        if target in SEATS and target in seats:
            target = seats[target]["hero"]
        card = _card(state, target)
        amount = _int(command, "amount", lo=1)
        if kind == "heal":
            amount = min(amount, int(card["damage"]))
        return cls(**base, source=None, target=target, amount=amount)
    if kind == "take_gold":
        base["source"] = None
    if kind in ("take_gold", "lose_gold"):
        return cls(**base, player=_seat(command, "player"), amount=_int(command, "amount", lo=1))
    if kind == "steal":
        victim, taker = _seat(command, "from"), _seat(command, "to")
        return cls(
            **base,
            source=None,
            from_player=victim,
            to_player=taker,
            amount=_int(command, "amount", lo=1),
        )
    if kind == "set_level":
        return cls(
            **base, player=_seat(command, "player"), level=_int(command, "level", lo=1, hi=10)
        )
    if kind == "set_marker":
        side = command.get("side")
        if side not in MARKER_SIDES:
            raise InvalidCommand("request/invalid_side", "'side' is 'run_away' or 'limp_away'")
        return cls(**base, player=_seat(command, "player"), side=str(side))
    cid = _str(command, "card")
    _card(state, cid)
    if kind == "collect":
        return cls(**base, source=None, card=cid, amount=_int(command, "amount", lo=1))
    if kind == "move":
        to = command.get("to")
        if to not in MOVE_TARGETS:
            raise InvalidCommand(
                "request/invalid_zone", f"'to' must be one of {', '.join(MOVE_TARGETS)}"
            )
        face = _face(command, "down" if to in ("deck_bottom", "deck_top") else "up")
        return cls(**base, source=None, card=cid, to=str(to), face=face)
    if kind == "stash":
        return cls(**base, source=None, card=cid, face=_face(command, "down"))
    event: ev.Event = cls(**base, source=None, card=cid)
    return event


def _str(command: Mapping[str, Any], key: str) -> str:
    value = command.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidCommand("request/missing_field", f"'{key}' is required", {key: ["a string"]})
    return value


def _int(command: Mapping[str, Any], key: str, *, lo: int = 0, hi: int | None = None) -> int:
    value = command.get(key)
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < lo
        or (hi is not None and value > hi)
    ):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise InvalidCommand(
            "request/invalid_number", f"'{key}' must be a whole number {bounds}", {key: [bounds]}
        )
    return value


def _seat(command: Mapping[str, Any], key: str) -> str:
    value = command.get(key)
    if value not in SEATS:
        raise InvalidCommand("request/invalid_seat", f"'{key}' must be 'A' or 'B'", {key: ["A|B"]})
    return str(value)


def _face(command: Mapping[str, Any], default: str) -> str:
    face = command.get("face", default)
    if face not in ("up", "down"):
        raise InvalidCommand("request/invalid_face", "'face' must be 'up' or 'down'")
    return str(face)


def _card(state: Mapping[str, Any], cid: str) -> Mapping[str, Any]:
    card = (state.get("cards") or {}).get(cid)
    if card is None:
        raise ImpossibleCommand("command/unknown_card", f"no card {cid!r} in this game")
    result: Mapping[str, Any] = card
    return result


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
        "turn": e.turn,
        "from_version": e.from_version,
        "to_version": e.to_version,
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
        "undone": list(e.undone),
        "corrections": list(e.corrections),
    }
    entry["rulings"] = [*entry["rulings"], ruling]
    disputes[e.dispute] = entry
    tx.s["disputes"] = disputes


def _lose_gold(e: JudgeGoldLost, tx: Tx) -> None:
    seat = tx.seat(e.player)
    seat["gold"] = max(0, seat["gold"] - e.amount)


def _set_level(e: JudgeLevelSet, tx: Tx) -> None:
    tx.seat(e.player)["level"] = e.level


def _set_marker(e: JudgeMarkerSet, tx: Tx) -> None:
    tx.seat(e.player)["marker"] = e.side


_apply.register(CardRestored)(_restore_card)
_apply.register(SeatRestored)(_restore_seat)
_apply.register(TableRestored)(_restore_table)
_apply.register(StackTrimmed)(_trim_stack)
_apply.register(StackEntryRestored)(_push_stack_entry)
_apply.register(DisputeOpened)(_open_dispute)
_apply.register(RulingRecorded)(_record_ruling)
_apply.register(JudgeGoldLost)(_lose_gold)
_apply.register(JudgeLevelSet)(_set_level)
_apply.register(JudgeMarkerSet)(_set_marker)

#: The events a backup may contain, in the order ``backup_events`` emits them.
RESTORATIONS: tuple[type[ev.Event], ...] = (
    CardRestored,
    SeatRestored,
    TableRestored,
    StackTrimmed,
    StackEntryRestored,
)
