"""Per-viewer views of a game: the state and the event log as each viewer may see them.

docs/rules.md A.4 decides what each seat sees; the per-card ``known`` sets in the state and the
``visible_to`` map stored with each event carry it. The seats are the game's own (its state's
``seats``, in seating order; the ruleset declares them). Viewers:

* each seat (``"A"``, ``"B"``, ...) — its own knowledge;
* ``"table"`` — a device recording every seat of a physical game: what any seat may see;
* ``"judge"`` — everything (omniscient);
* ``"organizer"`` / ``"spectator"`` — public information: cards known to every seat of the game.

A card the viewer may not see appears as ``{"hidden": true}``: no id, no name, nothing else.
Hash-chain fields are shown only to viewers who see every event whole (judge, table): a hash over
an event with hidden content would let a seat test guesses against it.

The views read only the state conventions every ruleset follows (``docs/DESIGN.md``): a seat's
scalar fields are copied, the card ids in its ``zones`` are shown card by card (a ``deck`` only
as its count, a ``hand`` only to those who share the seat's knowledge), and a card shows its
definition (``domain.viewing``). A family adds its own table parts and seat views
(``domain.family.Family``: the CCG's fight, stack and DMZ, classic Munchkin's decks and combat).

>>> can_see(["A"], "B", ("A", "B")), can_see(["A"], "judge", ("A", "B"))
(False, True)
>>> can_see(["A", "B"], "spectator", ("A", "B")), can_see(["A", "B"], "spectator", "ABC")
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from domain.events import EVENT_TYPES, event_classes
from domain.family import family_named
from domain.viewing import (
    HIDDEN,
    can_see,
    is_scalar,
)

State = Mapping[str, Any]
Record = Mapping[str, Any]
#: The viewers that are not a seat, in the order they are offered.
ROLES = ("table", "judge", "organizer", "spectator")
#: The seat names any ruleset may use (a ruleset allows some of them; see ``domain.ruleset``).
SEAT_NAMES = ("A", "B", "C", "D", "E", "F")
#: Every name a viewer may have.
VIEWERS = (*SEAT_NAMES, *ROLES)


def seats_of_state(state: State) -> tuple[str, ...]:
    """The game's seats, in seating order (``()`` before the game is created)."""
    return tuple(state.get("seats") or ())


def viewers_of(seats: Iterable[str]) -> tuple[str, ...]:
    """Every viewer of a game with ``seats``: each seat, then the roles."""
    return (*seats, *ROLES)


def sees_whole_log(viewer: str) -> bool:
    return viewer in ("judge", "table")


# ---------------------------------------------------------------------------- state

#: Top-level state keys every ruleset has, shown under their own names or not at all.
_STATE_CONVENTIONS = frozenset({"seats", "cards", "disputes", "active", "labels"})


def state_view(state: State, viewer: str) -> dict[str, Any]:
    """The ``GET /state`` body for ``viewer`` (the API contract), redacted per docs/rules.md A.4.

    Every top-level scalar of the state is shown (``active`` as ``active_seat``), then the
    labels, the family's own table parts (``Family.table_view``), each seat
    (``Family.seat_view``) and the viewer.
    """
    seats = seats_of_state(state)
    family = family_named(state.get("ruleset"))
    out: dict[str, Any] = {}
    for key, value in state.items():
        if key not in _STATE_CONVENTIONS and is_scalar(value):
            out[key] = value
    out["labels"] = dict(state.get("labels") or {})
    out["active_seat"] = state.get("active")
    out.update(family.table_view(state, viewer, seats))
    out["seats"] = {seat: family.seat_view(state, seat, viewer, seats) for seat in seats}
    out["viewer"] = viewer
    return out


# ---------------------------------------------------------------------------- events


def event_view(record: Record, viewer: str, seats: Collection[str] | None = None) -> dict[str, Any]:
    """One stored event (``{version, event, received_at, client_at, visible_to, ...}``) for
    ``viewer``: card ids it may not see become ``None`` (in lists too), secrets vanish.

    The view is ``{version, type, v, seat, cause, violation, unchecked?, received_at,
    client_at, data, hash?, prev_hash?}``: ``v`` is the event's stored class version (its
    ``data`` has that version's fields), ``unchecked: true`` marks an event recorded from a card
    whose text is not encoded (docs/cards.md). The mark is shown to a viewer who may see every
    card of the event's ``visible_to`` (which lists the unchecked card,
    ``domain.visibility.knowledge``); to any other it is left out, as on a checked event, so
    its absence tells nothing about a card the viewer may not see (docs/rules.md A.4).

    ``seats`` are the game's seats; only the organizer's and a spectator's views need them
    (a card is public when every seat knows it): without them, a card raises ``ValueError``.
    The game's first event creates it: its seats carry their cards (one card or a list of
    cards per field, each ``{"id", ...definition}``), each shown or hidden on its own, and
    each list's length as ``<field>_count``; so do its own lists of cards (the classic decks,
    ``doors`` and ``treasures``, made of every seat's cards: known to no seat, docs/rules.md B.1).
    """
    data = dict(record["event"])
    visible: Mapping[str, list[str]] = record.get("visible_to") or {}
    etype = data.get("type", "")
    cls = EVENT_TYPES.get(etype)
    # a name several families use (their games are not told apart here): hide every such
    # class's card fields, never fewer than the event's own (domain.events)
    classes = [cls] if cls is not None else event_classes(etype)
    creates = _creates_game(record, data)
    if seats is None and creates:
        seats = [str(seat.get("seat")) for seat in data["seats"]]

    def ok(cid: Any) -> bool:
        if not isinstance(cid, str) or cid not in visible:
            return True
        if seats is None and viewer in ("organizer", "spectator"):
            raise ValueError(f"the {viewer}'s view of a card needs the game's seats")
        return can_see(visible[cid], viewer, seats or ())

    if creates:
        data["seats"] = [_created_seat(seat, ok) for seat in data["seats"]]
        for key, value in list(data.items()):  # decks made of every seat's cards (classic)
            if key != "seats" and _card_list(value):
                data[key] = [c if ok(c["id"]) else dict(HIDDEN) for c in value]
                data[f"{key}_count"] = len(value)
    elif viewer != "judge":  # the judge sees every card: nothing to hide
        for kind in classes:
            for name in kind.card_fields:
                value = data.get(name)
                if isinstance(value, str):
                    data[name] = value if ok(value) else None
                elif isinstance(value, list):
                    data[name] = [v if ok(v) else None for v in value]
                elif isinstance(value, dict):
                    data[name] = {k: v for k, v in value.items() if ok(k)}
            for secret, card_field in kind.secret_with.items():
                if not ok(record["event"].get(card_field)):
                    data[secret] = None
    out: dict[str, Any] = {
        "version": record["version"],
        "type": etype,
        "v": data.pop("v", 1),
        "seat": data.pop("seat", None),
        "cause": data.pop("cause", None),
        "violation": data.pop("violation", None),
        "received_at": record.get("received_at"),
        "client_at": record.get("client_at"),
    }
    if data.pop("unchecked", False) and (viewer == "judge" or all(ok(c) for c in visible)):
        out["unchecked"] = True
    data.pop("type", None)
    out["data"] = data
    if sees_whole_log(viewer):
        out["hash"] = record.get("hash")
        out["prev_hash"] = record.get("prev_hash")
    return out


def hides_nothing(record: Record, seats: Collection[str]) -> bool:
    """Whether :func:`event_view` of ``record`` is the same for every viewer but for the
    hashes (shown to the viewers that see the whole log): an event that does not create the
    game and names no card that some viewer may not see (every card of its ``visible_to``
    known to all ``seats``, which every viewer then sees: ``domain.viewing.can_see``). What a
    stream uses to render such an event once for all of its viewers (``service.streams``;
    a property holds it to ``event_view``)."""
    visible: Mapping[str, Any] = record.get("visible_to") or {}
    if visible and not seats:
        return False
    everyone = set(seats)
    return not _creates_game(record, record["event"]) and all(
        everyone <= set(known) for known in visible.values()
    )


def view_class(viewer: str, shared: bool) -> str:
    """The key under which a viewer's view of an event is the same as others': the viewer
    itself, or for an event that ``hides_nothing`` (``shared``) whether it sees the hashes."""
    if not shared:
        return viewer
    return " whole" if sees_whole_log(viewer) else " public"


def _creates_game(record: Record, data: Mapping[str, Any]) -> bool:
    return (record.get("version") == 1 or data.get("type") == "GameCreated") and isinstance(
        data.get("seats"), list
    )


def _is_card(value: Any) -> bool:
    return isinstance(value, Mapping) and isinstance(value.get("id"), str)


def _card_list(value: Any) -> bool:
    return isinstance(value, list) and all(_is_card(c) for c in value)


def _created_seat(seat: Mapping[str, Any], ok: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in seat.items():
        if _is_card(value):
            out[key] = value if ok(value["id"]) else dict(HIDDEN)
        elif _card_list(value):
            out[key] = [c if ok(c["id"]) else dict(HIDDEN) for c in value]
            out[f"{key}_count"] = len(value)
        else:
            out[key] = value
    return out
