"""What every family's views share (the kernel): who may see a card, and a card, a list of
cards and a seat as one viewer may see them (docs/rules.md A.4).

A card the viewer may not see appears as ``{"hidden": true}``: no id, no name, nothing else.
``projections.views`` builds the ``GET /state`` body from these and from the family's own
table and seat views (``domain.family.Family.table_view``, ``Family.seat_view``).

>>> can_see(["A"], "B", ("A", "B")), can_see(["A"], "judge", ("A", "B"))
(False, True)
>>> can_see(["A", "B"], "spectator", ("A", "B")), can_see(["A", "B"], "spectator", "ABC")
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

State = Mapping[str, Any]
HIDDEN: dict[str, Any] = {"hidden": True}
#: Fields of a card instance the views never show as such (where it is, who knows it).
CARD_PLACE_FIELDS = frozenset({"def", "owner", "zone", "face", "known", "host"})


def seats_of(viewer: str, seats: Collection[str]) -> tuple[str, ...]:
    """The seats (of a game with ``seats``) whose knowledge a viewer shares."""
    if viewer in seats:
        return (viewer,)
    if viewer in ("table", "judge"):
        return tuple(seats)
    return ()


def can_see(known: Iterable[str], viewer: str, seats: Collection[str]) -> bool:
    """Whether ``viewer`` may see a card known to the seats ``known`` in a game with ``seats``.

    The table sees what any seat sees (``known`` only ever names seats of the game); the
    organizer and spectators see a card known to every seat.
    """
    if viewer == "judge":
        return True
    if viewer == "table":
        return bool(set(known))
    if viewer in ("organizer", "spectator"):
        return bool(seats) and set(known) >= set(seats)
    return viewer in known


def is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float)


def card_view(state: State, cid: str, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """One card as ``viewer`` may see it: its definition, owner, face and scalar fields (a
    family shows more of its cards with its own, ``domain.family.Family.card_view``)."""
    card = state["cards"][cid]
    if not can_see(card["known"], viewer, seats):
        return dict(HIDDEN)
    out: dict[str, Any] = {"id": cid, **card["def"], "owner": card["owner"], "face": card["face"]}
    for key, value in card.items():
        if key not in CARD_PLACE_FIELDS and is_scalar(value):
            out[key] = value
    return out


def cards_view(state: State, ids: Iterable[str], viewer: str, seats: tuple[str, ...]) -> list[Any]:
    return [card_view(state, cid, viewer, seats) for cid in ids]


#: ``card(state, card_id, viewer, seats)``: one card as a viewer may see it (:func:`card_view`,
#: or a family's own).
CardView = Callable[[State, str, str, tuple[str, ...]], dict[str, Any]]
#: ``extra(key, card_id)``: more fields a seat shows after one of its card fields.
CardExtras = Callable[[str, str], Mapping[str, Any]]


def seat_view(
    state: State,
    seat: str,
    viewer: str,
    seats: tuple[str, ...],
    *,
    unshown: Collection[str] = (),
    extras: CardExtras | None = None,
    card: CardView = card_view,
) -> dict[str, Any]:
    """A seat by the state conventions every ruleset follows (docs/DESIGN.md): its scalar
    fields copied (a card id as that card; ``unshown`` ones left out), the cards of its
    ``zones`` card by card (a ``deck`` only as its count, a ``hand`` counted for everyone and
    shown to those who share the seat's knowledge), each card as ``card`` shows it."""
    st = state["seats"][seat]
    cards = state["cards"]
    out: dict[str, Any] = {}
    for key, value in st.items():
        if key == "zones" or key in unshown or not is_scalar(value):
            continue
        if isinstance(value, str) and key != "player" and value in cards:
            out[key] = card(state, value, viewer, seats)
            if extras is not None:
                out.update(extras(key, value))
        else:
            out[key] = value
    zones: Mapping[str, list[str]] = st["zones"]
    own = viewer == "judge" or seat in seats_of(viewer, seats)
    for zone, ids in zones.items():
        if zone == "deck":
            out["deck_count"] = len(ids)
        elif zone == "hand":
            out["hand_count"] = len(ids)
        else:
            out[zone] = [card(state, cid, viewer, seats) for cid in ids]
    if "hand" in zones and own:
        out["hand"] = [card(state, cid, viewer, seats) for cid in zones["hand"]]
    return out
