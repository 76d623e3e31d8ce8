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
definition. The Munchkin CCG adds its own table parts (fight, stack, DMZ) and Hero counters.

>>> can_see(["A"], "B", ("A", "B")), can_see(["A"], "judge", ("A", "B"))
(False, True)
>>> can_see(["A", "B"], "spectator", ("A", "B")), can_see(["A", "B"], "spectator", "ABC")
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from domain.events import EVENT_TYPES, event_classes

State = Mapping[str, Any]
Record = Mapping[str, Any]
#: The viewers that are not a seat, in the order they are offered.
ROLES = ("table", "judge", "organizer", "spectator")
HIDDEN: dict[str, Any] = {"hidden": True}
#: The seat names any ruleset may use (a ruleset allows some of them; see ``domain.ruleset``).
SEAT_NAMES = ("A", "B", "C", "D", "E", "F")
#: Every name a viewer may have.
VIEWERS = (*SEAT_NAMES, *ROLES)
#: Fields of a card instance the views never show as such (where it is, who knows it).
CARD_PLACE_FIELDS = frozenset({"def", "owner", "zone", "face", "known", "host"})


def seats_of_state(state: State) -> tuple[str, ...]:
    """The game's seats, in seating order (``()`` before the game is created)."""
    return tuple(state.get("seats") or ())


def viewers_of(seats: Iterable[str]) -> tuple[str, ...]:
    """Every viewer of a game with ``seats``: each seat, then the roles."""
    return (*seats, *ROLES)


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


def sees_whole_log(viewer: str) -> bool:
    return viewer in ("judge", "table")


# ---------------------------------------------------------------------------- state


def _card(state: State, cid: str, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    card = state["cards"][cid]
    if not can_see(card["known"], viewer, seats):
        return dict(HIDDEN)
    out: dict[str, Any] = {"id": cid, **card["def"], "owner": card["owner"], "face": card["face"]}
    for key, value in card.items():
        if key not in CARD_PLACE_FIELDS and _scalar(value):
            out[key] = value
    if "cost_mod" in card:  # the CCG's cost modifier and stuck Curses (docs/rules.md A.3, A.12)
        del out["cost_mod"]
        if card["cost_mod"] is not None:
            out["cost_modified"] = card["cost_mod"]
    if card.get("stuck"):
        out["stuck"] = [_card(state, x, viewer, seats) for x in card["stuck"]]
    return out


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float)


def _cards(state: State, ids: Iterable[str], viewer: str, seats: tuple[str, ...]) -> list[Any]:
    return [_card(state, cid, viewer, seats) for cid in ids]


#: Seat fields of the CCG that are bookkeeping, not part of its view (docs/rules.md A.8).
_UNSHOWN_SEAT_FIELDS = frozenset({"ran_this_turn"})
#: Top-level state keys every ruleset has, shown under their own names or not at all.
_STATE_CONVENTIONS = frozenset({"seats", "cards", "disputes", "active", "labels"})


def _seat(state: State, seat: str, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    st = state["seats"][seat]
    cards = state["cards"]
    out: dict[str, Any] = {}
    for key, value in st.items():
        if key == "zones" or key in _UNSHOWN_SEAT_FIELDS or not _scalar(value):
            continue
        if isinstance(value, str) and key != "player" and value in cards:
            out[key] = _card(state, value, viewer, seats)
            if key == "hero":  # the CCG shows its Hero's damage and life with the seat
                out["damage"] = cards[value].get("damage")
                out["life"] = cards[value]["def"].get("life")
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
            out[zone] = _cards(state, ids, viewer, seats)
    if "hand" in zones and own:
        out["hand"] = _cards(state, zones["hand"], viewer, seats)
    return out


def state_view(state: State, viewer: str) -> dict[str, Any]:
    """The ``GET /state`` body for ``viewer`` (the API contract), redacted per docs/rules.md A.4.

    Every top-level scalar of the state is shown (``active`` as ``active_seat``), then the
    labels, the CCG's table parts if the state has them, each seat and the viewer.
    """
    seats = seats_of_state(state)
    out: dict[str, Any] = {}
    for key, value in state.items():
        if key not in _STATE_CONVENTIONS and _scalar(value):
            out[key] = value
    out["labels"] = dict(state.get("labels") or {})
    out["active_seat"] = state.get("active")
    if "fight" in state:
        out.update(_ccg_table(state, viewer, seats))
    if "decks" in state:
        out.update(_classic_table(state, viewer, seats))
        out["seats"] = {seat: _classic_seat(state, seat, viewer, seats) for seat in seats}
    else:
        out["seats"] = {seat: _seat(state, seat, viewer, seats) for seat in seats}
    out["viewer"] = viewer
    return out


def _ccg_table(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """The CCG's shared table: the fight, the priority window, the stack and the DMZ."""
    return {
        "fight": _fight_view(state, viewer, seats),
        "window": _window_view(state, viewer, seats),
        "stack": [
            {
                "ref": e["ref"],
                "kind": e["kind"],
                "player": e["player"],
                "card": _card(state, e["card"], viewer, seats),
                "canceled": e["canceled"],
                **_unchecked_mark(state, e, viewer, seats),
            }
            for e in state["stack"]
        ],
        "dmz": _cards(state, state["dmz"], viewer, seats),
    }


def _fight_view(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any] | None:
    fight = state.get("fight")
    if fight is None:
        return None
    attack: dict[str, Any] | None = None
    if fight["card"] is not None:
        attack = _card(state, fight["card"], viewer, seats)
        attack["commitment"] = fight["commitment"]
        if can_see(state["cards"][fight["card"]]["known"], viewer, seats):
            attack["salt"] = fight["salt"]
    out = {
        "attacker": fight["attacker"],
        "defender": fight["defender"],
        "stage": fight["stage"],
        "gold": fight["gold"],
        "attack_card": attack,
        "defender_cards": _cards(state, fight["defender_cards"], viewer, seats),
        "hired": fight["hired"],
    }
    if fight.get("monster"):
        out["monster"] = dict(fight["monster"])
    if fight.get("announced"):  # the Monster's strike, announced before it is dealt (A.11)
        out["announced"] = dict(fight["announced"])
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


# ---------------------------------------------------------------------------- the CCG's table parts


def _window_view(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any] | None:
    """The open priority window; the damage it waits on (docs/rules.md A.11) names its target
    and source only as the viewer may see them."""
    window = state["window"]
    if window is None:
        return None
    out = dict(window)
    if isinstance(window.get("damage"), Mapping):
        damage = dict(window["damage"])
        for key in ("target", "source"):
            cid = damage.get(key)
            if isinstance(cid, str) and not can_see(state["cards"][cid]["known"], viewer, seats):
                damage[key] = None
        out["damage"] = damage
    return out


def _unchecked_mark(
    state: State, entry: Mapping[str, Any], viewer: str, seats: tuple[str, ...]
) -> dict[str, Any]:
    """``{"unchecked": True}`` for a stack entry of a card whose text is not encoded, if the
    viewer may see that card (docs/cards.md, docs/rules.md A.4); else nothing."""
    if entry.get("unchecked") and can_see(state["cards"][entry["card"]]["known"], viewer, seats):
        return {"unchecked": True}
    return {}


# ---------------------------------------------------------------------------- classic table parts

#: A classic seat's trait zones, shown together as its ``traits`` (docs/rules.md B.3).
_TRAIT_ZONES = ("race", "class", "army")


def _classic_table(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """Classic Munchkin's table (docs/rules.md B, C.2): the options, the winners, the decks
    (their counts: a deck is face down, its order known to no seat) and discards, the combat,
    a dead character's body being looted and an offered trade."""
    decks = state["decks"]
    body = state.get("body")
    trade = state.get("trade")
    return {
        "options": dict(state.get("options") or {}),
        "winners": list(state.get("winners") or []),
        "first": state.get("first"),
        "decks": {
            "door": len(decks["door"]),
            "treasure": len(decks["treasure"]),
            "door_discard": _cards(state, decks["door_discard"], viewer, seats),
            "treasure_discard": _cards(state, decks["treasure_discard"], viewer, seats),
        },
        "combat": _classic_combat(state, viewer, seats),
        "body": None
        if body is None
        else {
            "dead": body["dead"],
            "cards": _cards(state, body["cards"], viewer, seats),
            "order": list(body["order"]),
        },
        "trade": None
        if trade is None
        else {
            "player": trade["player"],
            "with": trade["with"],
            "give": _cards(state, trade["give"], viewer, seats),
            "get": _cards(state, trade["get"], viewer, seats),
        },
    }


def _classic_combat(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any] | None:
    """The combat (docs/rules.md B.5-B.9): its fighters, each monster with its level, enhancers
    and strength, both sides' strengths and its stage; every card in it is face up."""
    c = state.get("combat")
    if not c:
        return None

    def monster(entry: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "card": _card(state, entry["card"], viewer, seats),
            "level": entry.get("level"),
            "enhancers": _cards(state, entry["enhancers"], viewer, seats),
            "strength": entry.get("strength"),
        }

    return {
        "player": c["player"],
        "helper": c["helper"],
        "bribe": c["bribe"],
        "asked": c["asked"],
        "declined": list(c["declined"]),
        "monsters": [monster(e) for e in c["monsters"]],
        "one_shots": [
            {**x, "card": _card(state, x["card"], viewer, seats)} for x in c["one_shots"]
        ],
        "player_strength": c["player_strength"],
        "monster_strength": c["monster_strength"],
        "stage": c["stage"],
        "passed": list(c["passed"]),
        "runs": {k: list(v) for k, v in c["runs"].items()},
        "caught": [list(x) for x in c["caught"]],
        "treasures": c["treasures"],
    }


def _classic_seat(state: State, seat: str, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """A classic seat (docs/rules.md B.3): its scalars, ``traits`` {race, class, army}, its
    cards in play, its curses and helpers, and its hand: counted for everyone, shown only to
    the viewers who share the seat's knowledge (the seat, the table, the judge; A.4)."""
    st = state["seats"][seat]
    zones: Mapping[str, list[str]] = st["zones"]
    out: dict[str, Any] = {k: v for k, v in st.items() if k != "zones" and _scalar(v)}
    out["traits"] = {z: _cards(state, zones[z], viewer, seats) for z in _TRAIT_ZONES}
    for zone in ("equipped", "carried", "curses", "helpers"):
        out[zone] = _cards(state, zones[zone], viewer, seats)
    out["hand_count"] = len(zones["hand"])
    if viewer == "judge" or seat in seats_of(viewer, seats):
        out["hand"] = _cards(state, zones["hand"], viewer, seats)
    return out
