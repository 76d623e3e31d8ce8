"""The judge's CCG corrections (docs/rules.md A.14): restorations, forced effects and backups.

A judge "backs up" a game by recording facts that put the table back the way it was at an
earlier version. :func:`undo_steps` (the ruleset's ``backup``) computes them, and the fold
applies them like any other fact. Each one sets part of the state *verbatim*:

* :class:`CardRestored` -- one card instance's zone, position in that zone, face, orientation,
  damage, tokens, host and knowledge (docs/rules.md A.3, A.4);
* :class:`SeatRestored` -- one seat's level, purse, Run Away marker, turn flags and how much of
  its deck's order is known (docs/rules.md D.20; the cards' places in the deck are restored
  card by card);
* :class:`TableRestored` -- status, winner, turn, phase/step, setup progress, fight, window;
* :class:`StackTrimmed` / :class:`StackEntryRestored` -- the resolution stack (docs/rules.md A.11).

Card ids that may be secret travel in ``card_fields`` (and the attack card's salt in
``secret_with``), so ``projections.views.event_view`` redacts these events like the others.
A backup ruling undoes the events after its point newest first, one at a time; each restoration
then names the event it undoes in ``undoes`` (``None`` for a plain state-to-state backup).

A judge may also force single effects (docs/rules.md A.10) to correct an event recorded in error:
:func:`decide_correction` turns an effect command (``damage``, ``heal``, ``move``, ``stash``,
``discard``, ``take_gold`` ...) plus ``corrects: <version>`` into a ``Judge*`` event. Those
subclass the rules' own effect events (same fields, same fold handler, same redaction), add
``corrects`` and ``forced_by_judge=True``, and run no rule: the judge states the fact.

The judge's record of disputes and rulings is generic: :mod:`domain.judge`.

>>> from domain.events import event_from_dict
>>> e = SeatRestored(seat="judge", player="A", level=3, gold=2, marker="run_away",
...                  caught_cheating=False, ran_this_turn=0, eliminated=None, mulligan="kept",
...                  deck_known_top=1, deck_known_bottom=0)
>>> event_from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from domain.arguments import face_arg, int_arg, seat_arg, str_arg
from domain.ccg import events as ev
from domain.ccg.cards import MAX_NUMBER
from domain.ccg.effects import move_destination
from domain.ccg.state import SEATS, ZONES, push_stack_entry, remove_from_zone
from domain.decision import find_card
from domain.envelope import Record
from domain.errors import InvalidCommand
from domain.events import Json, events_of
from domain.fold import CopyOnWriteState, State, handles
from domain.judge import level_set, read_correction
from domain.ruleset import BackupCore, Restores, Step, seat_zone_lists, undo_each

#: Declares this family's events (domain.events.events_of).
event = events_of("ccg")

# --------------------------------------------------------------------------- restorations

#: The fields of a card instance a backup restores, each one of :class:`CardRestored` too
#: (``def``, ``owner`` never change; a card's ``stuck`` list is restored through the stuck
#: cards' own ``host``/``position``).
CARD_FIELDS = ("zone", "face", "zapped", "damage", "tokens", "known", "host", "cost_mod")
#: The fields of a seat a backup restores, each one of :class:`SeatRestored` too (``player``,
#: ``hero`` never change; ``zones`` are restored card by card).
SEAT_FIELDS = (
    "level",
    "gold",
    "marker",
    "caught_cheating",
    "ran_this_turn",
    "eliminated",
    "mulligan",
    "deck_known_top",
    "deck_known_bottom",
)
#: The stack entry fields StackEntryRestored names; the rest travel in its ``extra``.
STACK_BASE = ("ref", "card", "player", "kind", "targets", "canceled")
#: The table fields a backup restores (besides cards, seats and the stack), each one of
#: :class:`TableRestored` too (the fight's secrets travel apart).
TABLE_FIELDS = ("status", "winner", "turn", "active", "phase", "step", "setup", "window", "fight")
#: The fight's keys that :class:`TableRestored` carries apart from its ``fight``.
FIGHT_SECRETS = ("card", "salt", "defender_cards")


@event
class CardRestored(ev.Event):
    """A card instance was put back exactly as it was (judge backup, docs/rules.md A.3, A.14).

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
    card_fields = ("card", "host")


@event
class SeatRestored(ev.Event):
    """A seat's counters were put back: level, purse, marker, turn flags (judge backup), and
    how many cards on top and at the bottom of its deck are in a known order (docs/rules.md
    D.20: counts only; which cards they are is their place in the deck, restored by
    :class:`CardRestored`)."""

    player: str
    level: int
    gold: int
    marker: str
    caught_cheating: bool
    ran_this_turn: int
    eliminated: str | None
    mulligan: str | None = None
    undoes: int | None = None
    deck_known_top: int = 0
    deck_known_bottom: int = 0
    class_version = 2

    @staticmethod
    def upcast_v1_v2(data: dict[str, Json]) -> dict[str, Json]:
        """Version 1 was recorded before the deck's known order was kept (docs/rules.md D.20):
        the seat it restores has no card in a known place, as after a shuffle."""
        return {**data, "deck_known_top": 0, "deck_known_bottom": 0}


@event
class TableRestored(ev.Event):
    """The table's shared state was put back: status, turn, phase, setup, fight, window.

    ``fight`` is the fight without its attack card, salt and defender cards; those travel in
    ``fight_card``, ``fight_salt`` and ``fight_defender_cards`` so a viewer who may not see the
    face-down attack card sees neither its id nor its salt (docs/rules.md A.4, A.9).
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
    card_fields = ("fight_card", "fight_defender_cards")
    secret_with = {"fight_salt": "fight_card"}


@event
class StackTrimmed(ev.Event):
    """The resolution stack was cut back to its ``keep`` oldest entries (judge backup)."""

    keep: int
    undoes: int | None = None


@event
class StackEntryRestored(ev.Event):
    """An ability or Mischief was put back on top of the stack (judge backup, docs/rules.md A.11)."""

    ref: int
    card: str
    player: str
    kind: str
    targets: list[str] = field(default_factory=list)
    canceled: bool = False
    undoes: int | None = None
    #: The rest of the entry: the ability's index, its effect plan and progress, its marks.
    extra: dict[str, Json] = field(default_factory=dict)
    card_fields = ("card", "targets")
    #: The entry's ability and effect plan describe its card (docs/rules.md A.4).
    secret_with = {"extra": "card"}
    class_version = 2

    @staticmethod
    def upcast_v1_v2(data: dict[str, Json]) -> dict[str, Json]:
        """Version 1 entries had no ability plan: they restore as unchecked entries."""
        return {**data, "extra": {}}


# --------------------------------------------------------------------------- judge's forced effects


@event
class JudgeDamageDealt(ev.DamageDealt):
    """The judge put damage on a card to correct event ``corrects`` (docs/rules.md A.10, A.14)."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeHealed(ev.Healed):
    """The judge removed damage from a card ("restore 2 damage") to correct ``corrects``."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeCardMoved(ev.CardMoved):
    """The judge moved a card to a zone of its owner ("return it to the hoard")."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeCardStashed(ev.CardStashed):
    """The judge put a card in its owner's stash, face ``up`` or ``down``."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeCardDiscarded(ev.CardDiscarded):
    """The judge put a card in its owner's discard pile."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeCardRemoved(ev.CardRemoved):
    """The judge removed a card from the game."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeCardZapped(ev.CardZapped):
    """The judge zapped a card."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeCardUnzapped(ev.CardUnzapped):
    """The judge unzapped a card."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeCardRevealed(ev.CardRevealed):
    """The judge revealed a card to both players."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeTokensCollected(ev.TokensCollected):
    """The judge put stockpile tokens on a card."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeGoldTaken(ev.GoldTaken):
    """The judge gave a purse gold from the stockpile."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeGoldStolen(ev.GoldStolen):
    """The judge moved gold from one purse to the other."""

    corrects: int
    forced_by_judge: bool = True


@event
class JudgeGoldLost(ev.Event):
    """The judge returned gold from a purse to the stockpile (never below 0, docs/rules.md A.1)."""

    player: str
    amount: int
    corrects: int
    forced_by_judge: bool = True


@event
class JudgeLevelSet(ev.Event):
    """The judge set a seat's level (1..10, docs/rules.md A.2)."""

    player: str
    level: int
    corrects: int
    forced_by_judge: bool = True


@event
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
MARKER_SIDES = ("run_away", "limp_away")


def decide_correction(state: Mapping[str, Any], command: Mapping[str, Any]) -> ev.Event:
    """The forced effect for one judge correction command (docs/rules.md A.14), unchecked by rules.

    ``command`` is ``{"type", "corrects": <version>, ...}`` with the effect command's fields:
    ``target`` (a card id, or ``"A"``/``"B"`` for that Hero) and ``amount`` for ``damage`` and
    ``heal``; ``card`` for ``move`` (plus ``to``, ``face``), ``stash`` (``face``), ``discard``,
    ``remove``, ``zap``, ``unzap``, ``reveal_card``, ``collect`` (``amount``); ``player`` and
    ``amount`` for ``take_gold``/``lose_gold``; ``from``/``to`` and ``amount`` for ``steal``;
    ``player`` and ``level`` for ``set_level``; ``player`` and ``side`` for ``set_marker``.
    Raises :class:`InvalidCommand` for a malformed command, :class:`ImpossibleCommand` for an
    unknown card and :class:`domain.errors.UnknownVersion` for a ``corrects`` version the game
    has not reached (:func:`domain.judge.read_correction`).

    >>> s = {"version": 9, "cards": {"c1": {"damage": 3}}, "seats": {"A": {"hero": "c1"}}}
    >>> decide_correction(s, {"type": "heal", "target": "A", "amount": 2, "corrects": 7})
    JudgeHealed(seat='judge', cause=None, violation=None, unchecked=False, source=None, target='c1', amount=2, corrects=7, forced_by_judge=True)
    """
    cls, base = read_correction(state, command, JUDGE_EFFECTS)
    kind = command["type"]
    if kind in ("damage", "heal"):
        target = str_arg(command, "target")
        seats = state.get("seats") or {}
        if target in SEATS and target in seats:
            target = seats[target]["hero"]
        card = find_card(state, target)
        amount = int_arg(command, "amount", lo=1, hi=MAX_NUMBER)
        if kind == "heal":
            amount = min(amount, int(card["damage"]))
        return cls(**base, source=None, target=target, amount=amount)
    if kind == "take_gold":
        base["source"] = None
    if kind in ("take_gold", "lose_gold"):
        return cls(
            **base,
            player=seat_arg(state, command, "player"),
            amount=int_arg(command, "amount", lo=1, hi=MAX_NUMBER),
        )
    if kind == "steal":
        victim, taker = seat_arg(state, command, "from"), seat_arg(state, command, "to")
        return cls(
            **base,
            source=None,
            from_player=victim,
            to_player=taker,
            amount=int_arg(command, "amount", lo=1, hi=MAX_NUMBER),
        )
    if kind == "set_level":
        return cls(**base, **level_set(state, command))
    if kind == "set_marker":
        side = command.get("side")
        if side not in MARKER_SIDES:
            raise InvalidCommand("request/invalid_side", "'side' is 'run_away' or 'limp_away'")
        return cls(**base, player=seat_arg(state, command, "player"), side=str(side))
    cid = str_arg(command, "card")
    find_card(state, cid)
    if kind == "collect":
        return cls(
            **base, source=None, card=cid, amount=int_arg(command, "amount", lo=1, hi=MAX_NUMBER)
        )
    if kind == "move":
        to, face = move_destination(command)
        return cls(**base, source=None, card=cid, to=to, face=face)
    if kind == "stash":
        return cls(**base, source=None, card=cid, face=face_arg(command, "down"))
    event: ev.Event = cls(**base, source=None, card=cid)
    return event


@handles(CardRestored)
def _restore_card(e: CardRestored, draft: CopyOnWriteState) -> None:
    remove_from_zone(draft, e.card)
    card = draft.card(e.card)
    card.update({k: getattr(e, k) for k in CARD_FIELDS}, known=list(e.known))
    if e.zone == "dmz":
        _insert(draft.top("dmz"), e.position, e.card)
    elif e.zone in ZONES:
        _insert(draft.zone(card["owner"], e.zone), e.position, e.card)
    elif e.zone == "stuck" and e.host is not None:
        host = draft.card(e.host)
        stuck = list(host["stuck"])
        _insert(stuck, e.position, e.card)
        host["stuck"] = stuck


def _insert(cards: list[str], position: int | None, cid: str) -> None:
    """Put ``cid`` at ``position`` (the end when ``None`` or past the end)."""
    if position is None:
        cards.append(cid)
    else:
        cards.insert(position, cid)


@handles(SeatRestored)
def _restore_seat(e: SeatRestored, draft: CopyOnWriteState) -> None:
    draft.seat(e.player).update({k: getattr(e, k) for k in SEAT_FIELDS})


@handles(TableRestored)
def _restore_table(e: TableRestored, draft: CopyOnWriteState) -> None:
    fight: dict[str, Any] | None = None
    if e.fight is not None:
        fight = {
            **e.fight,
            "card": e.fight_card,
            "salt": e.fight_salt,
            "defender_cards": list(e.fight_defender_cards),
        }
    draft.state.update(
        {k: getattr(e, k) for k in TABLE_FIELDS},
        setup=dict(e.setup),
        window=None if e.window is None else dict(e.window),
        fight=fight,
    )


@handles(StackTrimmed)
def _trim_stack(e: StackTrimmed, draft: CopyOnWriteState) -> None:
    draft.state["stack"] = list(draft.state.get("stack") or [])[: max(0, e.keep)]


@handles(StackEntryRestored)
def _push_stack_entry(e: StackEntryRestored, draft: CopyOnWriteState) -> None:
    push_stack_entry(
        draft, e.ref, e.card, e.player, e.kind, e.targets, canceled=e.canceled, extra=e.extra
    )


@handles(JudgeGoldLost)
def _lose_gold(e: JudgeGoldLost, draft: CopyOnWriteState) -> None:
    seat = draft.seat(e.player)
    seat["gold"] = max(0, seat["gold"] - e.amount)


@handles(JudgeLevelSet)
def _set_level(e: JudgeLevelSet, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["level"] = e.level


@handles(JudgeMarkerSet)
def _set_marker(e: JudgeMarkerSet, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["marker"] = e.side


#: The events a backup may contain, in the order ``backup_events`` emits them.
RESTORATIONS: tuple[type[ev.Event], ...] = (
    CardRestored,
    SeatRestored,
    TableRestored,
    StackTrimmed,
    StackEntryRestored,
)


# --------------------------------------------------------------------------- backups


def _position(state: State, cid: str) -> int | None:
    card = state["cards"][cid]
    cards = _zone_list(state, card)
    return cards.index(cid) if cards is not None and cid in cards else None


def _zone_list(state: State, card: Mapping[str, Any]) -> list[str] | None:
    zone = card["zone"]
    if zone == "dmz":
        return list(state["dmz"])
    if zone in ZONES:
        return list(state["seats"][card["owner"]]["zones"][zone])
    if zone == "stuck" and card.get("host") in state["cards"]:
        return list(state["cards"][card["host"]]["stuck"])
    return None


def backup_events(
    point: State, current: State, *, seat: str = "judge", undoes: int | None = None
) -> list[Step]:
    """The correction events that turn ``current`` back into ``point`` (a judge backup), each
    with the state after it.

    Contract: for two states of the same game, folding the events onto ``current`` gives a
    state equal to ``point`` in everything but ``version`` and ``disputes`` (the judge's record
    is kept), zone lists in the same order included. Only what differs is restored: cards zone
    by zone and position by position (``CardRestored``), then other cards (Heroes), the stack
    (``StackTrimmed``, ``StackEntryRestored``), then the table (``TableRestored``) and seats
    (``SeatRestored``), seats first when ``point`` is a finished game, so that every state in
    between keeps ``projections.replay.invariant_violations`` empty. Events have ``seat`` (default
    ``"judge"``), ``cause=None`` and ``undoes`` (the version they undo, see
    :func:`undo_steps`; default ``None``).

    Raises :class:`BackupImpossible` when the states are of different games (or the result
    would not match, which would be a bug).
    """
    return _Backup(point, current, seat, undoes).run()


class _Backup(BackupCore):
    """:func:`backup_events` in progress: the CCG's cards zone by zone (the Curses stuck to a
    card too), its stack, its table with the fight's secrets, its seats."""

    restores_cards = Restores(CARD_FIELDS, CardRestored)
    restores_seats = Restores(SEAT_FIELDS, SeatRestored)
    restores_table = Restores(TABLE_FIELDS, TableRestored)

    def restore(self) -> None:
        """The cards, the stack, then the table and the seats: the seats first when ``point`` is
        a finished game."""
        self.cards()
        self.stack()
        if self.point["status"] == "finished":
            self.seats()
            self.table()
        else:
            self.table()
            self.seats()

    def lists(self, state: State) -> list[tuple[list[str], Any]]:
        return _zone_lists(state)

    def leftover_position(self, cid: str) -> int | None:
        return _position(self.point, cid)

    def stack(self) -> None:
        have = list(self.work.get("stack") or [])
        want = list(self.point.get("stack") or [])
        keep = 0
        while keep < min(len(have), len(want)) and have[keep] == want[keep]:
            keep += 1
        if keep < len(have):
            self.restored(StackTrimmed, keep=keep)
        for entry in want[keep:]:
            self.restored(
                StackEntryRestored,
                ref=entry["ref"],
                card=entry["card"],
                player=entry["player"],
                kind=entry["kind"],
                targets=list(entry.get("targets") or []),
                canceled=bool(entry.get("canceled")),
                extra={k: v for k, v in entry.items() if k not in STACK_BASE},
            )

    def restore_table(self) -> None:
        """The table, a fight's attack card, salt and defender cards apart from the fight."""
        fields = {k: copy.deepcopy(self.point[k]) for k in TABLE_FIELDS}
        fight = fields["fight"]
        if fight is not None:
            fields["fight"] = {k: v for k, v in fight.items() if k not in FIGHT_SECRETS}
            fields["fight_card"] = fight.get("card")
            fields["fight_salt"] = fight.get("salt")
            fields["fight_defender_cards"] = list(fight["defender_cards"])
        self.restored(TableRestored, **fields)


def _zone_lists(state: State) -> list[tuple[list[str], Any]]:
    """Every card list of ``state`` with a getter for the same list in another state."""
    out = seat_zone_lists(state, SEATS, ZONES)
    out.append((list(state["dmz"]), lambda s: s["dmz"]))
    for cid in sorted(state["cards"]):
        stuck = state["cards"][cid]["stuck"]
        if stuck:
            out.append((list(stuck), lambda s, cid=cid: s["cards"][cid]["stuck"]))
    return out


def undo_steps(
    point: State, current: State, later: Sequence[Record], *, seat: str = "judge"
) -> list[tuple[int, list[Step]]]:
    """The CCG ruleset's ``backup``: :func:`domain.ruleset.undo_each` with this module's
    :func:`backup_events` (docs/rules.md A.14)."""
    return undo_each(point, current, later, backup_events, seat=seat)
