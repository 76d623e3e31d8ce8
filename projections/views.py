"""Per-viewer views of a game: the state and the event log as each viewer may see them.

RULES.md A.4 decides what each seat sees; the per-card ``known`` sets in the state and the
``visible_to`` map stored with each event carry it. Viewers:

* ``"A"`` / ``"B"`` — one seat: its own knowledge;
* ``"table"`` — a device recording both seats of a physical game: what A or B may see;
* ``"judge"`` — everything (omniscient);
* ``"organizer"`` / ``"spectator"`` — public information: cards known to both seats.

A card the viewer may not see appears as ``{"hidden": true}``: no id, no name, nothing else.
Hash-chain fields are shown only to viewers who see every event whole (judge, table): a hash over
an event with hidden content would let a seat test guesses against it.

>>> can_see(["A"], "B"), can_see(["A"], "judge"), can_see(["A", "B"], "spectator")
(False, True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.events import EVENT_TYPES

State = Mapping[str, Any]
Record = Mapping[str, Any]
VIEWERS = ("A", "B", "table", "judge", "organizer", "spectator")
SEATS = ("A", "B")
HIDDEN: dict[str, Any] = {"hidden": True}


def seats_of(viewer: str) -> tuple[str, ...]:
    """The seats whose knowledge a viewer shares."""
    if viewer in SEATS:
        return (viewer,)
    if viewer in ("table", "judge"):
        return SEATS
    return ()


def can_see(known: Iterable[str], viewer: str) -> bool:
    """Whether ``viewer`` may see a card known to the seats ``known``."""
    if viewer == "judge":
        return True
    known = set(known)
    if viewer in ("organizer", "spectator"):
        return known >= set(SEATS)
    return bool(known & set(seats_of(viewer)))


def sees_whole_log(viewer: str) -> bool:
    return viewer in ("judge", "table")


# ---------------------------------------------------------------------------- state


def card_view(state: State, cid: str, viewer: str) -> dict[str, Any]:
    """One card instance as ``viewer`` sees it (``{"hidden": True}`` when it may not)."""
    card = state["cards"][cid]
    if not can_see(card["known"], viewer):
        return dict(HIDDEN)
    d = card["def"]
    out: dict[str, Any] = {
        "id": cid,
        "name": d["name"],
        "type": d["type"],
        "subtype": d.get("subtype"),
        "class": d.get("class"),
        "cost": d.get("cost"),
        "rank": d.get("rank"),
        "power": d.get("power"),
        "life": d.get("life"),
        "defense": d.get("defense"),
        "keywords": d.get("keywords") or {},
        "text": d.get("text") or "",
        "owner": card["owner"],
        "face": card["face"],
        "zapped": card["zapped"],
        "damage": card["damage"],
        "tokens": card["tokens"],
    }
    if card["cost_mod"] is not None:
        out["cost_modified"] = card["cost_mod"]
    if card["stuck"]:
        out["stuck"] = [card_view(state, x, viewer) for x in card["stuck"]]
    return out


def _zone(state: State, seat: str, zone: str, viewer: str) -> list[dict[str, Any]]:
    return [card_view(state, cid, viewer) for cid in state["seats"][seat]["zones"][zone]]


def state_view(state: State, viewer: str) -> dict[str, Any]:
    """The ``GET /state`` body for ``viewer`` (issue 3 contract), redacted per RULES.md A.4."""
    seats: dict[str, Any] = {}
    for seat in SEATS:
        st = state["seats"][seat]
        hero = state["cards"][st["hero"]]
        zones = st["zones"]
        seat_view: dict[str, Any] = {
            "player": st["player"],
            "hero": card_view(state, st["hero"], viewer),
            "level": st["level"],
            "gold": st["gold"],
            "damage": hero["damage"],
            "life": hero["def"].get("life"),
            "marker": st["marker"],
            "hand_count": len(zones["hand"]),
            "deck_count": len(zones["deck"]),
            "hoard": _zone(state, seat, "hoard", viewer),
            "stash": _zone(state, seat, "stash", viewer),
            "discard": _zone(state, seat, "discard", viewer),
            "removed": _zone(state, seat, "removed", viewer),
            "caught_cheating": st["caught_cheating"],
            "eliminated": st["eliminated"],
            "mulligan": st.get("mulligan"),
        }
        if viewer == "judge" or seat in seats_of(viewer):
            seat_view["hand"] = _zone(state, seat, "hand", viewer)
        seats[seat] = seat_view
    return {
        "game_id": state["game_id"],
        "version": state["version"],
        "ruleset": state["ruleset"],
        "rules_version": state["rules_version"],
        "mode": state["mode"],
        "format": state["format"],
        "labels": dict(state.get("labels") or {}),
        "status": state["status"],
        "turn": state["turn"],
        "active_seat": state["active"],
        "phase": state["phase"],
        "step": state["step"],
        "winner": state["winner"],
        "fight": _fight_view(state, viewer),
        "window": None if state["window"] is None else dict(state["window"]),
        "stack": [
            {
                "ref": e["ref"],
                "kind": e["kind"],
                "player": e["player"],
                "card": card_view(state, e["card"], viewer),
                "canceled": e["canceled"],
            }
            for e in state["stack"]
        ],
        "dmz": [card_view(state, cid, viewer) for cid in state["dmz"]],
        "seats": seats,
        "viewer": viewer,
    }


def _fight_view(state: State, viewer: str) -> dict[str, Any] | None:
    fight = state.get("fight")
    if fight is None:
        return None
    attack: dict[str, Any] | None = None
    if fight["card"] is not None:
        attack = card_view(state, fight["card"], viewer)
        attack["commitment"] = fight["commitment"]
        if can_see(state["cards"][fight["card"]]["known"], viewer):
            attack["salt"] = fight["salt"]
    out = {
        "attacker": fight["attacker"],
        "defender": fight["defender"],
        "stage": fight["stage"],
        "gold": fight["gold"],
        "attack_card": attack,
        "defender_cards": [card_view(state, cid, viewer) for cid in fight["defender_cards"]],
        "hired": fight["hired"],
    }
    if fight.get("monster"):
        out["monster"] = dict(fight["monster"])
    return out


# ---------------------------------------------------------------------------- events


def event_view(record: Record, viewer: str) -> dict[str, Any]:
    """One stored event (``{version, event, received_at, client_at, visible_to, ...}``) for
    ``viewer``: card ids it may not see become ``None`` (in lists too), secrets vanish."""
    data = dict(record["event"])
    visible: Mapping[str, list[str]] = record.get("visible_to") or {}
    etype = data.get("type", "")
    cls = EVENT_TYPES.get(etype)

    def ok(cid: Any) -> bool:
        return not isinstance(cid, str) or can_see(visible.get(cid, ["A", "B"]), viewer)

    if etype == "GameCreated":
        data["seats"] = [
            {
                **seat,
                "deck": [c if ok(c.get("id")) else dict(HIDDEN) for c in seat["deck"]],
                "deck_count": len(seat["deck"]),
            }
            for seat in data["seats"]
        ]
    elif cls is not None:
        for name in cls.card_fields:
            value = data.get(name)
            if isinstance(value, str):
                data[name] = value if ok(value) else None
            elif isinstance(value, list):
                data[name] = [v if ok(v) else None for v in value]
            elif isinstance(value, dict):
                data[name] = {k: v for k, v in value.items() if ok(k)}
        for secret, card_field in cls.secret_with.items():
            if not ok(record["event"].get(card_field)):
                data[secret] = None
    out: dict[str, Any] = {
        "version": record["version"],
        "type": etype,
        "seat": data.pop("seat", None),
        "cause": data.pop("cause", None),
        "violation": data.pop("violation", None),
        "received_at": record.get("received_at"),
        "client_at": record.get("client_at"),
    }
    data.pop("type", None)
    data.pop("v", None)
    out["data"] = data
    if sees_whole_log(viewer):
        out["hash"] = record.get("hash")
        out["prev_hash"] = record.get("prev_hash")
    return out


def events_view(records: Iterable[Record], viewer: str) -> list[dict[str, Any]]:
    return [event_view(r, viewer) for r in records]
