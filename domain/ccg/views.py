"""The Munchkin CCG's table, seats and cards as one viewer may see them (docs/rules.md A.4): the
fight, the priority window, the stack and the DMZ; a seat with its Hero's damage and life; a
card with its modified cost and the Curses stuck to it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.viewing import HIDDEN, can_see, card_view, seat_view

State = Mapping[str, Any]
#: Seat fields of the CCG that are bookkeeping, not part of its view (docs/rules.md A.8).
UNSHOWN_SEAT_FIELDS = frozenset({"ran_this_turn"})


def ccg_card(state: State, cid: str, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """A card as ``viewer`` may see it (:func:`domain.viewing.card_view`), with its modified
    cost as ``cost_modified`` (the fold's ``cost_mod``, shown only when set, docs/rules.md A.3)
    and the Curses stuck to it (A.12)."""
    out = card_view(state, cid, viewer, seats)
    if out == HIDDEN:
        return out
    card = state["cards"][cid]
    if "cost_mod" in card:
        del out["cost_mod"]
        if card["cost_mod"] is not None:
            out["cost_modified"] = card["cost_mod"]
    if card.get("stuck"):
        out["stuck"] = ccg_cards(state, card["stuck"], viewer, seats)
    return out


def ccg_cards(state: State, ids: Sequence[str], viewer: str, seats: tuple[str, ...]) -> list[Any]:
    return [ccg_card(state, cid, viewer, seats) for cid in ids]


def ccg_seat(state: State, seat: str, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """A seat by the state conventions; its Hero shows its damage and life with it."""

    def hero(key: str, cid: str) -> Mapping[str, Any]:
        if key != "hero":
            return {}
        card = state["cards"][cid]
        return {"damage": card.get("damage"), "life": card["def"].get("life")}

    return seat_view(
        state, seat, viewer, seats, unshown=UNSHOWN_SEAT_FIELDS, extras=hero, card=ccg_card
    )


def ccg_table(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any]:
    """The CCG's shared table: the fight, the priority window, the stack and the DMZ."""
    return {
        "fight": _fight_view(state, viewer, seats),
        "window": _window_view(state, viewer, seats),
        "stack": [
            {
                "ref": e["ref"],
                "kind": e["kind"],
                "player": e["player"],
                "card": ccg_card(state, e["card"], viewer, seats),
                "canceled": e["canceled"],
                **_unchecked_mark(state, e, viewer, seats),
            }
            for e in state["stack"]
        ],
        "dmz": ccg_cards(state, state["dmz"], viewer, seats),
    }


def _fight_view(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any] | None:
    fight = state.get("fight")
    if fight is None:
        return None
    attack: dict[str, Any] | None = None
    if fight["card"] is not None:
        attack = ccg_card(state, fight["card"], viewer, seats)
        attack["commitment"] = fight["commitment"]
        if can_see(state["cards"][fight["card"]]["known"], viewer, seats):
            attack["salt"] = fight["salt"]
    out = {
        "attacker": fight["attacker"],
        "defender": fight["defender"],
        "stage": fight["stage"],
        "gold": fight["gold"],
        "attack_card": attack,
        "defender_cards": ccg_cards(state, fight["defender_cards"], viewer, seats),
        "hired": fight["hired"],
    }
    if fight.get("monster"):
        out["monster"] = dict(fight["monster"])
    if fight.get("announced"):  # the Monster's strike, announced before it is dealt (A.11)
        out["announced"] = dict(fight["announced"])
    return out


def _window_view(state: State, viewer: str, seats: tuple[str, ...]) -> dict[str, Any] | None:
    """The open priority window, with the seats it still waits on to pass (``waiting_for``,
    in seating order); the damage it waits on (docs/rules.md A.11) names its target and source
    only as the viewer may see them."""
    window = state["window"]
    if window is None:
        return None
    out = {
        "kind": window["kind"],
        "waiting_for": [seat for seat in seats if seat not in window["passed"]],
        **{k: v for k, v in window.items() if k != "kind"},
    }
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


# ---------------------------------------------------------------------------- the judge's diff

#: The fields of a CCG card a judge's diff lists when they change (``Family.diff_card_fields``):
#: its damage, tokens and zapped flag (docs/rules.md A.3, A.10).
DIFF_CARD_FIELDS = ("damage", "tokens", "zapped")
#: The parts of the CCG's table a judge's diff compares whole (``Family.diff_parts``).
DIFF_PARTS = ("fight", "window", "stack")
#: Fields of a stack entry that describe its card's ability (its number, its effect plan and
#: progress, the ``unchecked`` mark): hidden with a card the viewer may not see.
STACK_CARD_FIELDS = ("ability", "plan", "done", "unchecked")


def diff_part_view(key: str, value: Any, sees: Callable[[Any], bool]) -> Any:
    """One side of a diff's ``fight``, ``window`` or ``stack`` as a viewer may see it: the
    cards ``sees`` refuses lose their id, and what would tell them (the attack's salt, a
    trigger, the damage a window waits on, a stack entry's ability and plan) goes with them."""
    if key == "fight":
        return _diff_fight(value, sees)
    if key == "window":
        return _diff_window(value, sees)
    return _diff_stack(value, sees)


def _diff_fight(f: Mapping[str, Any] | None, sees: Callable[[Any], bool]) -> Any:
    if f is None:
        return None
    out = dict(f)
    if not sees(f.get("card")):
        out["card"] = None
        out["salt"] = None
    out["defender_cards"] = [c if sees(c) else None for c in f.get("defender_cards") or []]
    if "triggered" in f:  # "<card>:<ability>" of each trigger that fired (A.9)
        out["triggered"] = [t if sees(str(t).split(":")[0]) else None for t in f["triggered"]]
    return out


def _diff_window(w: Mapping[str, Any] | None, sees: Callable[[Any], bool]) -> Any:
    if w is None or not isinstance(w.get("damage"), Mapping):
        return None if w is None else dict(w)
    damage = dict(w["damage"])
    for key in ("target", "source"):
        if not sees(damage.get(key)):
            damage[key] = None
    return {**w, "damage": damage}


def _diff_stack(entries: Sequence[Mapping[str, Any]] | None, sees: Callable[[Any], bool]) -> Any:
    if entries is None:
        return None
    out = []
    for e in entries:
        entry = {
            **e,
            "card": e["card"] if sees(e["card"]) else None,
            "targets": [t if sees(t) else None for t in e.get("targets") or []],
        }
        if entry["card"] is None:  # what the ability does tells what the card is (A.4)
            for key in STACK_CARD_FIELDS:
                if key in entry:
                    entry[key] = None
        out.append(entry)
    return out
