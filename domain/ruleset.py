"""Rulesets: what a game family offers, found by name like python-chess's ``find_variant``.

A ruleset *decides*: given a state and a command it returns the :class:`Step` s that follow,
each an event with the state right after it, computed once while deciding (the aggregate
stores the events and adopts the states). It registers its events in its family's namespace
(:func:`domain.events.events_of`), their fold handlers with :func:`domain.fold.handles`, and
itself with :func:`register`.

>>> find_ruleset("munchkin-ccg").seat_names
('A', 'B')
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Protocol

from domain.envelope import Record
from domain.errors import ImpossibleCommand, InvalidCommand
from domain.events import Event, bind_ruleset
from domain.fold import State, apply_record, evolve


@dataclass(frozen=True, slots=True)
class Step:
    """One decided event and the state right after it."""

    event: Event
    state: State


class Ruleset(Protocol):
    """What every ruleset offers: creation, decisions, legal commands, the judge's corrections."""

    name: str
    #: The event family (namespace) its games' stored events load in: its package's
    #: ``events_of`` name (``"ccg"``, ``"classic"``), several rulesets may share one.
    family: str
    rules_version: str
    #: Every seat name this ruleset may use, in seating order.
    seat_names: tuple[str, ...]
    min_seats: int
    max_seats: int
    command_types: tuple[str, ...]
    #: Per-seat creation fields that hold cards: ``"one"`` card or ``"many"``.
    card_fields: Mapping[str, str]

    def create(self, spec: Mapping[str, Any]) -> list[Step]:
        """The steps that set a game up from ``spec`` (seats with card ids already given)."""
        ...

    def decide(self, state: State, command: Mapping[str, Any]) -> list[Step]:
        """The steps ``command`` produces in ``state``, or a :class:`domain.errors.DomainError`."""
        ...

    def legal_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        """Concrete commands ``seat`` may send now, each accepted by ``decide`` in strict mode,
        naming no card the seat may not see (docs/rules.md A.4): a classic draw comes without
        the cards it draws (``domain.classic.moves.legal_commands``)."""
        ...

    def decide_correction(self, state: State, command: Mapping[str, Any]) -> Event:
        """The judge's forced effect for one correction command (no rule checked)."""
        ...

    def backup(
        self, point: State, current: State, later: Sequence[Record]
    ) -> list[tuple[int, list[Step]]]:
        """Undo each event of ``later`` (the records after ``point``), newest first: for every
        version, the steps that restore what it changed, folded from ``current``."""
        ...


RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` findable by its name, its games' events loading in its ``family``."""
    family = getattr(ruleset, "family", None)
    if not isinstance(family, str):
        raise TypeError(f"ruleset {ruleset.name!r} names no event family (its `family`)")
    bind_ruleset(ruleset.name, family)
    RULESETS[ruleset.name] = ruleset
    return ruleset


def find_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name``; raises :class:`InvalidCommand` (``request/unknown_ruleset``)."""
    try:
        return RULESETS[name]
    except KeyError:
        raise InvalidCommand(
            "request/unknown_ruleset",
            f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}",
        ) from None


def ruleset_of(state: Mapping[str, Any]) -> Ruleset:
    """The ruleset that created the game ``state`` belongs to."""
    return find_ruleset(str(state.get("ruleset")))


class BackupImpossible(ValueError):
    """The two states cannot be reconciled by a backup (they are of different games)."""


#: State keys a backup leaves alone: the version counts events, the judge's record of
#: disputes and rulings outlives the backup it may have ordered, and a server-dealt game's
#: dealing (its seeds and counter) never goes back: nothing is ever re-rolled (docs/rules.md E).
NOT_RESTORED = frozenset({"version", "disputes", "dealing"})


def restorable(state: State) -> dict[str, Any]:
    """What of ``state`` a backup restores (all but :data:`NOT_RESTORED`)."""
    return {k: v for k, v in state.items() if k not in NOT_RESTORED}


def check_same_game(point: State, current: State) -> None:
    """Raise :class:`BackupImpossible` unless ``point`` and ``current`` are two states of one
    created game (its id, ruleset, rules, mode and format, its cards and seats)."""
    for key in ("game_id", "ruleset", "rules_version", "mode", "format"):
        if point.get(key) != current.get(key):
            raise BackupImpossible(f"the states differ in {key!r}: not the same game")
    if point.get("status") in (None, "new") or current.get("status") in (None, "new"):
        raise BackupImpossible("a backup needs two states of a created game")
    if set(point["cards"]) != set(current["cards"]) or set(point["seats"]) != set(current["seats"]):
        raise BackupImpossible("the states hold different cards or seats: not the same game")


def seat_zone_lists(
    state: State, seats: Iterable[str], zones: Sequence[str]
) -> list[tuple[list[str], Any]]:
    """Each of ``seats``' ``zones`` card lists in ``state``, seat by seat, each with a getter for
    the same list in another state (for :meth:`BackupCore.lists`)."""
    return [
        (
            list(state["seats"][seat]["zones"][zone]),
            lambda s, seat=seat, zone=zone: s["seats"][seat]["zones"][zone],
        )
        for seat in seats
        for zone in zones
    ]


class Restores(NamedTuple):
    """What a backup puts back of the cards, the seats or the table: the ``fields`` that count,
    each one of the restoring ``event``'s fields too, and that event."""

    fields: tuple[str, ...]
    event: type[Any]


class BackupCore:
    """A ruleset's backup in progress (its ``backup_events``): from ``current``, the restoring
    steps so far and the state they lead to (:attr:`work`), towards ``point``.

    What every ruleset's backup shares: checking that both states are of one game, folding each
    restoring event (each with the backup's ``seat`` and ``undoes``), putting the cards back
    list by list, the table when it differs and the seats field by field (:meth:`restore`), and
    checking the result (:meth:`run`). A ruleset names the fields that count and the events
    that restore them (:attr:`restores_cards`, :attr:`restores_seats`,
    :attr:`restores_table`), which card lists a state has (:meth:`lists`), and may change
    where a card outside them goes back to (:meth:`leftover_position`), how the table is
    restored (:meth:`restore_table`) and what is restored in which order (:meth:`restore`)."""

    #: A card's fields a backup puts back, by their event (with ``card`` and ``position``).
    restores_cards: ClassVar[Restores] = Restores((), Event)
    #: A seat's fields a backup puts back, by their event (``player`` names the seat).
    restores_seats: ClassVar[Restores] = Restores((), Event)
    #: The table's fields (outside cards and seats) that :meth:`restore_table` puts back.
    restores_table: ClassVar[Restores] = Restores((), Event)

    def __init__(self, point: State, current: State, seat: str, undoes: int | None) -> None:
        check_same_game(point, current)
        self.point = point
        self.work = current
        self.seat = seat
        self.undoes = undoes
        self.steps: list[Step] = []

    def emit(self, event: Event) -> None:
        self.work = evolve(self.work, event)
        self.steps.append(Step(event, self.work))

    def restored(self, event_type: type[Any], **fields: Any) -> None:
        """Emit a restoring ``event_type`` with ``fields``, by this backup's seat, undoing its
        version."""
        self.emit(event_type(seat=self.seat, undoes=self.undoes, **fields))

    def differs(self, cid: str) -> bool:
        a, b = self.work["cards"][cid], self.point["cards"][cid]
        return any(a.get(k) != b.get(k) for k in self.restores_cards.fields)

    def lists(self, state: State) -> list[tuple[list[str], Any]]:
        """Every card list of ``state``, each with a getter for the same list in another state."""
        raise NotImplementedError

    def leftover_position(self, cid: str) -> int | None:
        """Where a card in none of :meth:`lists` goes back to (``None``: the zone's end)."""
        return None

    def restore_card(self, cid: str, position: int | None) -> None:
        """Put the card back as it was, at ``position`` in its list."""
        fields = {k: self.point["cards"][cid].get(k) for k in self.restores_cards.fields}
        fields["known"] = list(fields["known"])
        self.restored(self.restores_cards.event, card=cid, position=position, **fields)

    def cards(self) -> None:
        """Rebuild each list from its front: once its cards 0..i-1 are in place, later
        restorations only take cards from behind them, so those stay in place."""
        for target, same_list in self.lists(self.point):
            for i, cid in enumerate(target):
                now = same_list(self.work)
                if i >= len(now) or now[i] != cid or self.differs(cid):
                    self.restore_card(cid, i)
        for cid in sorted(self.point["cards"]):
            if self.differs(cid):
                self.restore_card(cid, self.leftover_position(cid))

    def seats(self) -> None:
        """Each seat whose :attr:`restores_seats` fields differ, put back (in seating order)."""
        names, event = self.restores_seats
        for player, want in self.point["seats"].items():
            have = self.work["seats"][player]
            if any(have.get(k) != want.get(k) for k in names):
                self.restored(event, player=player, **{k: want.get(k) for k in names})

    def table(self) -> None:
        """The table, put back when any of its :attr:`restores_table` fields differs."""
        if any(self.work.get(k) != self.point.get(k) for k in self.restores_table.fields):
            self.restore_table()

    def restore_table(self) -> None:
        """Emit the :attr:`restores_table` event with the table's fields as in ``point``."""
        names, event = self.restores_table
        self.restored(event, **{k: copy.deepcopy(self.point.get(k)) for k in names})

    def restore(self) -> None:
        """Emit the restoring events, in order: the cards, the table, the seats."""
        self.cards()
        self.table()
        self.seats()

    def run(self) -> list[Step]:
        """The steps of :meth:`restore`, once they lead back to ``point`` (else
        :class:`BackupImpossible`: a bug)."""
        self.restore()
        if restorable(self.work) != restorable(self.point):
            raise BackupImpossible("the backup does not reproduce the earlier state")
        return self.steps


#: ``backup_events(point, current, seat=..., undoes=...)``: a ruleset's restoring steps that turn
#: ``current`` back into ``point``.
BackupEvents = Callable[..., list[Step]]


def undo_each(
    point: State,
    current: State,
    later: Sequence[Record],
    backup_events: BackupEvents,
    *,
    seat: str = "judge",
) -> list[tuple[int, list[Step]]]:
    """A backup the way tournament judges do it (docs/rules.md A.14): undo each event after
    ``point``, newest first, skipping nothing (every ruleset's ``backup``).

    ``later`` are the records after ``point`` (versions ``point + 1`` .. now, in order) and
    ``current`` the state after the last of them. Returns ``[(version, steps)]`` for every one
    of those versions, newest first: the steps restore what that one event changed to its value
    just before it (``backup_events`` from the state before it, each with ``undoes=version``),
    folded in order from ``current``; the list is empty for an event that changed nothing a
    backup restores (a dispute, a ruling). They lead back to ``point`` in everything but
    ``version`` and ``disputes``.

    Raises :class:`BackupImpossible` when ``later`` does not continue ``point``.
    """
    states = [point]
    expected = int(point["version"]) + 1
    for record in later:
        if int(record["version"]) != expected:
            raise BackupImpossible(f"expected the record of version {expected}")
        states.append(apply_record(states[-1], record))
        expected += 1
    work = current
    undone: list[tuple[int, list[Step]]] = []
    for index in range(len(later) - 1, -1, -1):
        version = int(later[index]["version"])
        steps = backup_events(states[index], work, seat=seat, undoes=version)
        if steps:
            work = steps[-1].state
        undone.append((version, steps))
    return undone


def by_type(command: Any, table: Mapping[str, Any], what: str) -> Any:
    """The entry of ``table`` that ``command`` names by its ``type``, once the command is a JSON
    object (``request/invalid_command``) of a known type (``request/unknown_<what>``): a ruleset's
    handler of a command (``what="command"``), a judge's forced effect (``"correction"``)."""
    if type(command) is not dict and not isinstance(command, Mapping):  # dict: the quick test
        raise InvalidCommand("request/invalid_command", f"a {what} is a JSON object")
    kind = command.get("type")
    found = table.get(kind) if isinstance(kind, str) else None
    if found is None:
        raise InvalidCommand(
            f"request/unknown_{what}",
            f"unknown {what} type {kind!r}",
            {"type": [f"one of {', '.join(table)}"]},
        )
    return found


def handler_for(state: State, command: Any, handlers: Mapping[str, Callable[..., None]]) -> Any:
    """The handler of ``command`` among a ruleset's ``handlers`` (:func:`by_type`), once the
    game is created and not over: what every ruleset's ``decide`` checks first."""
    handler = by_type(command, handlers, "command")
    if state.get("status") in (None, "new"):
        raise ImpossibleCommand("command/no_game", "the game has not been created")
    if state["status"] == "finished":
        raise ImpossibleCommand("command/game_over", "the game is over")
    return handler
