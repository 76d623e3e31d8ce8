"""The judge's classic corrections (docs/rules.md B.17, after A.14): forced effects and backups.

A judge corrects a classic game by recording new facts, never by rolling back or deleting one.

**Forced effects.** :func:`decide_correction` turns one correction command plus ``corrects:
<version>`` (the event it corrects) into one ``ClassicJudge*`` event with ``seat="judge"``,
``corrects`` and ``forced_by_judge=True``; no rule is checked (the judge states the fact), only
what the table could not be in is refused:

* ``set_level {player, level}`` -- a seat's level (1..10);
* ``move {card, to, player?}`` -- a card to a zone of a seat (``player``: ``hand``,
  ``equipped``, ``carried``, ``race``/``class``/``army``, ``curses``, ``helpers``) or to a
  deck or discard pile (``door``, ``treasure``, ``door_discard``, ``treasure_discard``; no
  ``player``); ``give_curse {card, player}`` and ``take_curse {card}`` (to the Door discards)
  are the same move for a Curse or Trap;
* ``set_dead {player, dead}`` -- mark a seat's character dead or alive (the flag alone);
* ``end_combat {}`` -- end the combat: its cards go to the discards, the turn to charity;
* ``set_turn {player?, phase?}`` -- the active seat and/or the turn's phase (no combat on).

Who knows a moved card follows the table (docs/rules.md B.1, A.4): a card put into a hand is
known to its new holder and to whoever knew it already; a card shuffled into a deck to nobody;
any other zone is face up for every seat. The event carries that ``known`` list, so the fold
decides nothing, and names its card in ``card_fields``, so ``projections.views.event_view``
shows the id only to the seats that knew the card before or after.

**Backups.** :func:`undo_steps` (the ruleset's ``backup``) undoes every event after a version,
newest first, each with facts that set part of the state back verbatim
(:class:`ClassicCardRestored` per card, :class:`ClassicTableRestored`,
:class:`ClassicSeatRestored`), computed by :func:`backup_events` from the states as the CCG's
``domain.ccg.corrections.undo_steps`` does. A restored card is named only to the seats that knew
it before or after its restoration, so a hand put back stays hidden from the other seats.

>>> s = {"version": 4, "status": "playing", "seats": {"A": {}, "B": {}, "C": {}}}
>>> decide_correction(s, {"type": "set_level", "player": "B", "level": 3, "corrects": 4})
ClassicJudgeLevelSet(seat='judge', cause=None, violation=None, unchecked=False, player='B', level=3, corrects=4, forced_by_judge=True)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from domain.arguments import seat_arg, str_arg
from domain.classic import events as ev
from domain.classic.state import (
    DECK_ZONES,
    SEAT_ZONES,
    _combat_ended,
    _pile,
    _place,
    _refresh,
    _remove,
)
from domain.decision import find_card
from domain.envelope import Record
from domain.errors import ImpossibleCommand, InvalidCommand
from domain.events import Event, Json, events_of
from domain.fold import CopyOnWriteState, State, handles
from domain.judge import level_set, read_correction
from domain.ruleset import BackupCore, BackupImpossible, Restores, Step, seat_zone_lists, undo_each

#: Declares this family's events (domain.events.events_of).
event = events_of("classic")

Draft = CopyOnWriteState

# --------------------------------------------------------------------------- forced effects


@event
class ClassicJudgeLevelSet(Event):
    """The judge set ``player``'s level to correct event ``corrects`` (docs/rules.md B.3)."""

    player: str
    level: int
    corrects: int
    forced_by_judge: bool = True


@event
class ClassicJudgeCardMoved(Event):
    """The judge moved ``card`` to zone ``to`` of ``player`` (a seat zone) or to a deck or
    discard pile (``player`` None), known afterwards to the seats ``known``; an offered trade
    that named the card is withdrawn (``ends_trade``) (docs/rules.md B.1, B.12)."""

    card: str
    player: str | None
    to: str
    known: list[str]
    ends_trade: bool = False
    corrects: int
    forced_by_judge: bool = True
    card_fields = ("card",)


@event
class ClassicJudgeDeathSet(Event):
    """The judge marked ``player``'s character dead or alive (the flag alone, docs/rules.md
    B.9: no body is laid out, no card moves)."""

    player: str
    dead: bool
    corrects: int
    forced_by_judge: bool = True


@event
class ClassicJudgeCombatEnded(ev.CombatEnded):
    """The judge ended the combat (its cards to the discards, like a ``CombatEnded``); the
    turn goes on in ``phase`` when it is the fighting player's (docs/rules.md B.4, B.5)."""

    phase: str | None = None
    corrects: int
    forced_by_judge: bool = True


@event
class ClassicJudgeTurnSet(Event):
    """The judge made ``active`` the active seat, in ``phase`` (docs/rules.md B.4)."""

    active: str
    phase: str
    corrects: int
    forced_by_judge: bool = True


#: The correction commands a judge may force, and the event each becomes.
JUDGE_EFFECTS: dict[str, type[Event]] = {
    "set_level": ClassicJudgeLevelSet,
    "move": ClassicJudgeCardMoved,
    "give_curse": ClassicJudgeCardMoved,
    "take_curse": ClassicJudgeCardMoved,
    "set_dead": ClassicJudgeDeathSet,
    "end_combat": ClassicJudgeCombatEnded,
    "set_turn": ClassicJudgeTurnSet,
}
#: The phases ``set_turn`` may name (a combat is begun by the rules, not by the judge).
TURN_PHASES = ("kick_door", "look_for_trouble", "loot", "charity")
#: The card kinds each seat zone may hold (``hand``: any); a trait zone also takes a multi
#: card (Super Munchkin, Half-Breed, Alliance) for that trait (docs/rules.md B.11, B.12).
ZONE_KINDS: dict[str, tuple[str, ...]] = {
    "equipped": ("item",),
    "carried": ("item", "one_shot"),
    "race": ("race",),
    "class": ("class",),
    "army": ("army",),
    "curses": ("curse", "trap"),
    "helpers": ("hireling", "sidekick", "steed"),
}
CURSE_KINDS = ("curse", "trap")


def decide_correction(state: Mapping[str, Any], command: Mapping[str, Any]) -> Event:
    """The forced effect for one classic correction command (docs/rules.md B.17), unchecked by
    the rules.

    Raises :class:`InvalidCommand` (400) for a malformed command (``request/unknown_correction``,
    ``request/missing_field``, ``request/invalid_number``, ``request/invalid_seat``,
    ``request/invalid_zone``, ``request/invalid_phase``, ``request/invalid_flag``),
    :class:`UnknownVersion` (404) for a ``corrects`` version the game has not reached, and
    :class:`ImpossibleCommand` (422) for what the table cannot be in: an unknown card
    (``command/unknown_card``), a card of the wrong kind or deck for the zone
    (``command/wrong_zone``), a card still in the combat (``command/card_in_combat``), a Curse
    that is on nobody (``command/card_not_there``), no combat to end (``command/no_combat``), a
    turn set while a combat is on (``command/combat_on``) or while the game is not being played
    (``command/not_playing``).

    >>> s = {"version": 9, "status": "playing", "seats": {"A": {}, "B": {}, "C": {}},
    ...      "cards": {"t1": {"def": {"deck": "treasure", "kind": "item"}, "owner": "A",
    ...                       "zone": "hand", "known": ["A"]}}}
    >>> decide_correction(s, {"type": "move", "card": "t1", "to": "treasure", "corrects": 8})
    ClassicJudgeCardMoved(seat='judge', cause=None, violation=None, unchecked=False, card='t1', player=None, to='treasure', known=[], ends_trade=False, corrects=8, forced_by_judge=True)
    """
    cls, base = read_correction(state, command, JUDGE_EFFECTS)
    kind = command["type"]
    if kind == "set_level":
        return cls(**base, **level_set(state, command))
    if kind == "set_dead":
        dead = command.get("dead")
        if not isinstance(dead, bool):
            raise InvalidCommand("request/invalid_flag", "'dead' is true or false", {"dead": []})
        return cls(**base, player=seat_arg(state, command, "player"), dead=dead)
    if kind == "end_combat":
        return _end_combat(state, base)
    if kind == "set_turn":
        return _set_turn(state, command, base)
    return _move(state, command, str(kind), base)


def _end_combat(state: Mapping[str, Any], base: dict[str, Any]) -> Event:
    c = state.get("combat")
    if not c:
        raise ImpossibleCommand("command/no_combat", "there is no combat to end")
    ids: list[str] = []
    for entry in [*c["monsters"], *c["removed"]]:
        ids += [entry["card"], *entry["enhancers"]]
    ids += [s["card"] for s in c["one_shots"]]
    ids = [cid for cid in ids if state["cards"][cid]["zone"] == "combat"]
    mine = state.get("active") == c["player"] and state.get("status") == "playing"
    return ClassicJudgeCombatEnded(
        **base,
        player=c["player"],
        outcome="judge",
        discarded=ids,
        phase="charity" if mine else None,
    )


def _set_turn(state: Mapping[str, Any], command: Mapping[str, Any], base: dict[str, Any]) -> Event:
    if "player" not in command and "phase" not in command:
        raise InvalidCommand(
            "request/missing_field", "'player' and/or 'phase' is required", {"player": []}
        )
    active = seat_arg(state, command, "player") if "player" in command else state.get("active")
    # a phase left out keeps the table's, which is "combat" during a combat: that is 422 below
    phase = command.get("phase", state.get("phase"))
    if "phase" in command and phase not in TURN_PHASES:
        raise InvalidCommand(
            "request/invalid_phase",
            f"'phase' is one of {', '.join(TURN_PHASES)}",
            {"phase": list(TURN_PHASES)},
        )
    if state.get("status") != "playing":
        raise ImpossibleCommand("command/not_playing", "the game is not being played")
    if state.get("combat") or phase not in TURN_PHASES:
        raise ImpossibleCommand("command/combat_on", "a combat is on: end it first (end_combat)")
    return ClassicJudgeTurnSet(**base, active=str(active), phase=str(phase))


def _move(
    state: Mapping[str, Any],
    command: Mapping[str, Any],
    kind: str,
    base: dict[str, Any],
) -> Event:
    cid = str_arg(command, "card")
    card = find_card(state, cid)
    defn = card["def"]
    player: str | None
    if kind == "give_curse":
        to, player = "curses", seat_arg(state, command, "player")
    elif kind == "take_curse":
        if card["zone"] != "curses" or defn.get("kind") not in CURSE_KINDS:
            raise ImpossibleCommand("command/card_not_there", f"{cid} is not a Curse on a seat")
        to, player = "door_discard", None
    else:
        to = str_arg(command, "to")
        if to in SEAT_ZONES:
            player = seat_arg(state, command, "player")
        elif to in DECK_ZONES:
            if command.get("player") is not None:
                raise InvalidCommand(
                    "request/invalid_seat", f"a card in {to!r} has no holder", {"player": []}
                )
            player = None
        else:
            raise InvalidCommand(
                "request/invalid_zone",
                f"'to' is one of {', '.join((*SEAT_ZONES, *DECK_ZONES))}",
                {"to": [*SEAT_ZONES, *DECK_ZONES]},
            )
    if kind == "give_curse" and defn.get("kind") not in CURSE_KINDS:
        raise ImpossibleCommand("command/wrong_zone", f"{cid} is not a Curse or Trap")
    if to in DECK_ZONES and not to.startswith(str(defn.get("deck"))):
        raise ImpossibleCommand("command/wrong_zone", f"{cid} is a {defn.get('deck')} card")
    allowed = ZONE_KINDS.get(to)
    if allowed is not None and defn.get("kind") not in allowed and defn.get("multi") != to:
        raise ImpossibleCommand(
            "command/wrong_zone", f"a {defn.get('kind')} card cannot be in {to!r}"
        )
    if card["zone"] == "combat":
        raise ImpossibleCommand(
            "command/card_in_combat", f"{cid} is in the combat: end it first (end_combat)"
        )
    if to == "hand":
        known = sorted({*card["known"], str(player)})
    elif to in ("door", "treasure"):
        known = []
    else:
        known = sorted(state["seats"])
    trade = state.get("trade") or {}
    ends_trade = cid in [*trade.get("give", ()), *trade.get("get", ())]
    return ClassicJudgeCardMoved(
        **base, card=cid, player=player, to=to, known=known, ends_trade=ends_trade
    )


@handles(ClassicJudgeLevelSet)
def _set_level(e: ClassicJudgeLevelSet, d: Draft) -> None:
    d.seat(e.player)["level"] = e.level
    _refresh(d)


@handles(ClassicJudgeCardMoved)
def _moved(e: ClassicJudgeCardMoved, d: Draft) -> None:
    _place(d, e.card, e.player, e.to, e.known)
    if e.ends_trade:
        d.state["trade"] = None
    _refresh(d)


@handles(ClassicJudgeDeathSet)
def _death(e: ClassicJudgeDeathSet, d: Draft) -> None:
    d.seat(e.player)["dead"] = e.dead


@handles(ClassicJudgeCombatEnded)
def _judge_combat_ended(e: ClassicJudgeCombatEnded, d: Draft) -> None:
    _combat_ended(e, d)
    if e.phase is not None:
        d.state["phase"] = e.phase


@handles(ClassicJudgeTurnSet)
def _turn_set(e: ClassicJudgeTurnSet, d: Draft) -> None:
    d.state.update(active=e.active, phase=e.phase)


# --------------------------------------------------------------------------- restorations

#: The fields of a card a backup restores (its ``def`` never changes).
CARD_FIELDS = ("owner", "zone", "face", "known")
#: The fields of a seat a backup restores (``player`` never changes; zones card by card).
SEAT_FIELDS = ("level", "dead", "eliminated", "ready", "dealt", "needs_deal")
#: The table's fields a backup restores (cards and seats apart).
TABLE_FIELDS = (
    "status",
    "winner",
    "winners",
    "turn",
    "active",
    "phase",
    "first",
    "tied",
    "listened",
    "combat",
    "body",
    "trade",
    "received",
    "cheats",
    "got",
    "spoils",
)


@event
class ClassicCardRestored(Event):
    """A card was put back exactly as it was (judge backup, docs/rules.md B.17): its holder,
    zone, face and who knows it, at ``position`` in its zone's list (a seat zone or a deck;
    ``None`` for a card in the combat, a body or on the table, whose lists the table's
    restoration carries). The card leaves whatever list held it first."""

    card: str
    owner: str | None
    zone: str
    face: str
    known: list[str]
    position: int | None
    undoes: int | None = None
    card_fields = ("card",)


@event
class ClassicSeatRestored(Event):
    """A seat's level and flags were put back (judge backup, docs/rules.md B.17)."""

    player: str
    level: int
    dead: bool
    eliminated: str | None
    ready: bool
    dealt: bool
    needs_deal: bool
    undoes: int | None = None


@event
class ClassicTableRestored(Event):
    """The table's shared state was put back: status, winners, turn, active seat, phase, the
    first-player roll, the combat, a body being looted, an offered trade, the Items received
    this turn, the cards just received (B.14), a helped kill's Treasure still to share with
    the helper (B.12) and the Items the Cheat! cards hold (judge backup, docs/rules.md B.17).
    Every card these name is face up for every seat (B.5, B.9, B.12)."""

    status: str
    winner: str | None
    winners: list[str]
    turn: int
    active: str | None
    phase: str
    first: str | None
    tied: list[str]
    listened: bool
    combat: dict[str, Json] | None
    body: dict[str, Json] | None
    trade: dict[str, Json] | None
    undoes: int | None = None
    received: list[str] = field(default_factory=list)
    cheats: dict[str, Json] = field(default_factory=dict)
    got: list[str] = field(default_factory=list)
    spoils: dict[str, Json] = field(default_factory=dict)
    class_version = 4
    #: The cards just received and the shares are hand cards: each shown only to a seat that
    #: knows it.
    card_fields = ("got", "spoils")

    @staticmethod
    def upcast_v1_v2(data: dict[str, Json]) -> dict[str, Json]:
        """Version 1 was recorded before the Items received this turn and the Cheat! cards'
        Items were kept (docs/rules.md B.2): it restores none."""
        return {**data, "received": [], "cheats": {}}

    @staticmethod
    def upcast_v2_v3(data: dict[str, Json]) -> dict[str, Json]:
        """Version 2 was recorded before the cards just received this turn were kept
        (docs/rules.md B.14): it restores none."""
        return {**data, "got": []}

    @staticmethod
    def upcast_v3_v4(data: dict[str, Json]) -> dict[str, Json]:
        """Version 3 was recorded before a helped kill's Treasure was kept for the helper's
        share (docs/rules.md B.12): it restores none."""
        return {**data, "spoils": {}}


#: The events a classic backup may contain.
RESTORATIONS: tuple[type[Event], ...] = (
    ClassicCardRestored,
    ClassicTableRestored,
    ClassicSeatRestored,
)


@handles(ClassicCardRestored)
def _restore_card(e: ClassicCardRestored, d: Draft) -> None:
    _remove(d, e.card)
    d.card(e.card).update(owner=e.owner, zone=e.zone, face=e.face, known=list(e.known))
    cards: list[str] | None = None
    if e.zone in DECK_ZONES:
        cards = _pile(d, e.zone)
    elif e.zone in SEAT_ZONES and e.owner is not None:
        cards = d.zone(e.owner, e.zone)
    if cards is not None:
        cards.insert(len(cards) if e.position is None else e.position, e.card)


@handles(ClassicSeatRestored)
def _restore_seat(e: ClassicSeatRestored, d: Draft) -> None:
    d.seat(e.player).update({k: copy.deepcopy(getattr(e, k)) for k in SEAT_FIELDS})


@handles(ClassicTableRestored)
def _restore_table(e: ClassicTableRestored, d: Draft) -> None:
    d.state.update({k: copy.deepcopy(getattr(e, k)) for k in TABLE_FIELDS})


# --------------------------------------------------------------------------- backups


def backup_events(
    point: State, current: State, *, seat: str = "judge", undoes: int | None = None
) -> list[Step]:
    """The restoring events that turn ``current`` back into ``point``, each with the state
    after it: folded onto ``current`` they give ``point`` in everything but ``version`` and
    ``disputes``, zone lists in the same order included. Only what differs is restored: the
    cards zone list by zone list from the front, then the other cards, the table, the seats.

    Raises :class:`BackupImpossible` for states of different games (or a result that does not
    match, which would be a bug).
    """
    return _Backup(point, current, seat, undoes).run()


class _Backup(BackupCore):
    """:func:`backup_events` in progress: classic's decks and seat zones card by card, its
    table (the combat, a body, a trade with it), its seats' levels and flags."""

    restores_cards = Restores(CARD_FIELDS, ClassicCardRestored)
    restores_seats = Restores(SEAT_FIELDS, ClassicSeatRestored)
    restores_table = Restores(TABLE_FIELDS, ClassicTableRestored)

    def lists(self, state: State) -> list[tuple[list[str], Any]]:
        return _lists(state)


def _lists(state: State) -> list[tuple[list[str], Any]]:
    """Every card list a card restoration rebuilds (decks, seat zones), each with a getter for
    the same list in another state."""
    decks = [(list(state["decks"][z]), lambda s, z=z: s["decks"][z]) for z in DECK_ZONES]
    return decks + seat_zone_lists(state, state["seats"], SEAT_ZONES)


def undo_steps(
    point: State, current: State, later: Sequence[Record], *, seat: str = "judge"
) -> list[tuple[int, list[Step]]]:
    """The classic rulesets' ``backup``: :func:`domain.ruleset.undo_each` with this module's
    :func:`backup_events` (docs/rules.md B.17, A.14)."""
    return undo_each(point, current, later, backup_events, seat=seat)


__all__ = [
    "JUDGE_EFFECTS",
    "RESTORATIONS",
    "BackupImpossible",
    "ClassicCardRestored",
    "ClassicJudgeCardMoved",
    "ClassicJudgeCombatEnded",
    "ClassicJudgeDeathSet",
    "ClassicJudgeLevelSet",
    "ClassicJudgeTurnSet",
    "ClassicSeatRestored",
    "ClassicTableRestored",
    "backup_events",
    "decide_correction",
    "undo_steps",
]
