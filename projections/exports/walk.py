"""Walking a game's records for one viewer: export entries, the header, visitors.

Modelled on python-chess's ``chess.pgn``: :func:`walk` reads a game's stored records and
drives a :class:`GameVisitor` (``begin_game``, ``visit_event``, ``end_game``, ``result``).

An *entry* is ``projections.views.event_view(record, viewer)`` (with the event's class version
``v`` and, when the viewer may see it, its ``unchecked`` mark); for viewers who see the whole
log (``judge``, ``table``) it also has the record's ``visible_to``, so the record can be
rebuilt exactly (:func:`record_from_entry`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from domain import State, initial_state
from domain.envelope import STORED_FIELDS, Record, record_from
from domain.family import result_updates
from domain.fold import apply_record
from projections.views import event_view, sees_whole_log

FORMAT = "munchlog-game"
FORMAT_VERSION = 1
T = TypeVar("T")


class ExportFormatError(ValueError):
    """The text is not a munchlog export this version can read."""

    code = "import/not_an_export"


def game_result(records: Iterable[Record]) -> str:
    """The winning seat(s) (a classic shared victory ``"A+C"``, docs/rules.md B.16), ``"draw"``
    or ``"*"`` (not over), as of the last record: each family says which of its events set it.

    >>> game_result([{"event": {"type": "GameEnded", "winner": "B"}}])
    'B'
    """
    result = "*"
    updates = result_updates()  # each family's (``Family.result_updates``)
    for record in records:
        event = record["event"]
        update = updates.get(str(event.get("type")))
        if update is not None:
            result = update(event)
    return result


def game_header(
    first: Record, viewer: str, *, result: str = "*", exported_at: str | None = None
) -> dict[str, Any]:
    """The export header, from the game's first record (its ``GameCreated``).

    Each seat is ``{"seat", "player"}`` plus the single cards it was created with that every
    seat knows from the start (the CCG's hero), in seating order.
    """
    created = first["event"]
    if not creates_game(created):
        raise ExportFormatError("a game's first event must be its creation (GameCreated)")
    seats = created["seats"]
    everyone = {str(s["seat"]) for s in seats}
    visible: Mapping[str, Sequence[str]] = first.get("visible_to") or {}

    def public(value: Any) -> bool:
        return isinstance(value, Mapping) and everyone <= set(visible.get(str(value.get("id")), ()))

    header: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": created["game_id"],
        "ruleset": created["ruleset"],
        "rules_version": created["rules_version"],
        "mode": created["mode"],
        "game_format": created["format"],
        "viewer": viewer,
        # whole: every event, and every card of the creation (a classic game's decks are
        # known to no seat, so only the judge's export of it is complete, docs/rules.md B.1)
        "complete": sees_whole_log(viewer)
        and (viewer == "judge" or all(bool(known) for known in visible.values())),
        "seats": [
            {
                "seat": s["seat"],
                "player": s["player"],
                **{k: dict(v) for k, v in s.items() if public(v)},
            }
            for s in seats
        ],
        "labels": dict(created.get("labels") or {}),
        "result": result,
    }
    if exported_at is not None:
        header["exported_at"] = exported_at
    return header


def creates_game(event: Mapping[str, Any]) -> bool:
    """Whether ``event`` (stored form) sets a game up: the CCG's ``GameCreated`` or another
    ruleset's creation event (it names the ruleset and carries the seats)."""
    return isinstance(event.get("seats"), list) and isinstance(event.get("ruleset"), str)


def export_entry(record: Record, viewer: str, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """One record as ``viewer`` may see it: ``event_view`` (with the event's class version
    ``v`` and its ``unchecked`` mark), plus ``visible_to`` for viewers who see the whole log.
    ``seats``: the game's (see ``event_view``)."""
    entry = event_view(record, viewer, seats)
    if sees_whole_log(viewer):
        entry["visible_to"] = record.get("visible_to") or {}
    return entry


def record_from_entry(entry: Mapping[str, Any]) -> Record:
    """The stored record an entry of a complete export came from (inverse of
    :func:`export_entry` for ``judge`` and ``table``)."""
    data = dict(entry.get("data") or {})
    if entry.get("version") == 1 and isinstance(data.get("seats"), list):
        data["seats"] = [
            {
                k: v
                for k, v in seat.items()
                if not (k.endswith("_count") and isinstance(seat.get(k[: -len("_count")]), list))
            }
            for seat in data["seats"]
        ]
        for key in [k for k in data if k.endswith("_count")]:
            if isinstance(data.get(key[: -len("_count")]), list):
                del data[key]
    fields = {key: entry.get(key) for key in STORED_FIELDS}
    event = {
        "type": entry.get("type"),
        "v": entry.get("v", 1),
        "seat": entry.get("seat"),
        "cause": entry.get("cause"),
        "violation": entry.get("violation"),
        **data,
    }
    if entry.get("unchecked"):  # stored only when true (domain.events.Event.to_dict)
        event["unchecked"] = True
    fields["event"] = event
    fields["visible_to"] = entry.get("visible_to") or {}
    version: Any = entry.get("version")  # checked by verify_records, not here
    return record_from(version, fields)


@dataclass(frozen=True, slots=True)
class Turn:
    """Where the game stands after an event: the turn number (0 in setup) and the active seat."""

    number: int
    seat: str | None


class GameVisitor(Generic[T]):
    """Base class of export visitors (python-chess ``pgn.BaseVisitor``).

    :func:`walk` calls ``begin_game(header, cards)`` once, ``visit_event(entry, turn)`` for
    each record (``entry`` as :func:`export_entry` makes it for the viewer), then
    ``end_game()``, and returns ``result()``. ``cards`` maps every card id to its definition
    and ``owner`` (from the state after ``GameCreated``): a visitor may only look up ids that an
    entry shows, which are the ones the viewer may see. ``turn`` is the :class:`Turn` after the
    event for visitors that set :attr:`needs_turns` (the walk then folds every event), else
    ``None``.
    """

    needs_turns: ClassVar[bool] = False

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        """Called once, before the first event."""

    def visit_event(self, entry: Mapping[str, Any], turn: Turn | None) -> None:
        """Called for each event, in version order."""

    def end_game(self) -> None:
        """Called once, after the last event."""

    def result(self) -> T:
        """What the visitor built."""
        raise NotImplementedError


def visit(
    records: Iterable[Record],
    visitor: GameVisitor[Any],
    viewer: str,
    *,
    result: str | None = None,
    exported_at: str | None = None,
) -> Iterator[None]:
    """Drive ``visitor`` over ``records``, yielding after each call (for streaming exporters).

    ``result`` goes into the header; by default it is computed from ``records`` when they are
    a sequence, else ``"*"``.
    """
    if result is None:
        result = game_result(records) if isinstance(records, Sequence) else "*"
    state: State | None = None
    seats: list[str] = []
    for record in records:
        if state is None:
            header = game_header(record, viewer, result=result, exported_at=exported_at)
            seats = [str(s["seat"]) for s in record["event"]["seats"]]
            state = _apply(initial_state(), record)
            visitor.begin_game(header, card_book(state))
            yield None
        elif visitor.needs_turns:
            state = _apply(state, record)
        turn = (
            Turn(int(state.get("turn") or 0), state.get("active")) if visitor.needs_turns else None
        )
        visitor.visit_event(export_entry(record, viewer, seats), turn)
        yield None
    if state is None:
        raise ExportFormatError("a game has at least its GameCreated event")
    visitor.end_game()
    yield None


def walk(
    records: Iterable[Record], visitor: GameVisitor[T], viewer: str, exported_at: str | None = None
) -> T:
    """Run ``visitor`` over the whole game and return what it built."""
    for _ in visit(records, visitor, viewer, exported_at=exported_at):
        pass
    return visitor.result()


def _apply(state: State, record: Record) -> State:
    return apply_record(state, record)


def card_book(state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every card's definition, id and owner (the state conventions' ``cards``)."""
    return {
        cid: {**card["def"], "id": cid, "owner": card["owner"]}
        for cid, card in (state.get("cards") or {}).items()
    }
