"""Judge tools over a game's stored records: turns, diffs, causes, backups (docs/rules.md A.14).

Pure functions of records (``{version, event, received_at, client_at, visible_to, hash,
prev_hash}``, see ``domain.game``) and of states (``domain.fold``). Nothing here reads a store
or a clock; the HTTP layer loads the records and hands them over.

* :func:`state_diff` / :func:`diff_view` -- what changed between two states, and that change as
  one viewer may see it;
* :func:`state_as_played` -- the game without the judge's corrections (:func:`is_correction`);
* :func:`hero_stats` -- the Heroes' counters in a state;
* :class:`ReplayIndex` -- per version its turn (setup is turn 0), the chain of ``cause`` links
  around it (:meth:`ReplayIndex.causes`, :meth:`ReplayIndex.effects`), a public timeline and the
  Heroes' counters, kept up to date incrementally;
* :func:`invariant_violations` -- what is wrong with a state, if anything.

>>> index = ReplayIndex()
>>> index.extend([])
>>> index.version, index.turns
(0, {})
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import Any

from domain.errors import UnknownVersion
from domain.family import Family, correction_types, family_named
from domain.fold import State, apply_record, initial_state
from projections.seat_time import SeatClock
from projections.views import can_see

Record = Mapping[str, Any]


def state_diff(before: State, after: State) -> dict[str, Any]:
    """What changed from ``before`` to ``after`` (the judge's view: every card id and name).

    Keys: ``versions`` ``[before, after]``; ``moved`` (cards whose zone, face or host changed:
    ``{card, name, owner, from, to, face}``); each card field of the game's family
    (``Family.diff_card_fields``; the CCG's ``damage``, ``tokens``, ``zapped``) and ``known``
    (``{card, name, owner, from, to}``); ``seats`` (``{seat: {field: [from, to]}}`` for its
    scalar fields, such as level and gold, and its zone counts); ``table`` (``{field: [from,
    to]}`` for status, winner, turn, active, phase, step); and each part of the table the
    game's family compares whole (``Family.diff_parts``; the CCG's ``fight``, ``window``,
    ``stack``): ``{from, to}`` or ``None``. Cards are listed in id order. :func:`diff_view`
    redacts it for one viewer.
    """
    family = _family(before, after)
    card_fields = (*family.diff_card_fields, "known")
    out: dict[str, Any] = {
        "versions": [before.get("version"), after.get("version")],
        "moved": [],
        **{key: [] for key in card_fields},
        "seats": {},
        "table": {},
        **dict.fromkeys(family.diff_parts),
    }
    b_cards: Mapping[str, Any] = before.get("cards") or {}
    a_cards: Mapping[str, Any] = after.get("cards") or {}
    for cid in sorted(a_cards):
        a = a_cards[cid]
        b = b_cards.get(cid)
        if b is None:
            continue
        base = {"card": cid, "name": a["def"].get("name"), "owner": a["owner"]}
        if (b["zone"], b["face"], b.get("host")) != (a["zone"], a["face"], a.get("host")):
            moved = {**base, "from": b["zone"], "to": a["zone"], "face": [b["face"], a["face"]]}
            if b.get("host") or a.get("host"):
                moved["host"] = [b.get("host"), a.get("host")]
            out["moved"].append(moved)
        for key in card_fields:
            if b.get(key) != a.get(key):
                out[key].append({**base, "from": b.get(key), "to": a.get(key)})
    for seat in after.get("seats") or ():
        b_seat = (before.get("seats") or {}).get(seat)
        a_seat = (after.get("seats") or {}).get(seat)
        if b_seat is None or a_seat is None:
            continue
        changes: dict[str, list[Any]] = {}
        for key in _seat_scalars(b_seat, a_seat, a_cards):
            if b_seat.get(key) != a_seat.get(key):
                changes[key] = [b_seat.get(key), a_seat.get(key)]
        for zone in a_seat["zones"]:
            nb, na = len(b_seat["zones"].get(zone, ())), len(a_seat["zones"][zone])
            if nb != na:
                changes[f"{zone}_count"] = [nb, na]
        if changes:
            out["seats"][seat] = changes
    for key in ("status", "winner", "turn", "active", "phase", "step"):
        if before.get(key) != after.get(key):
            out["table"][key] = [before.get(key), after.get(key)]
    for key in family.diff_parts:
        if before.get(key) != after.get(key):
            out[key] = {"from": before.get(key), "to": after.get(key)}
    return out


def _family(before: State, after: State) -> Family:
    return family_named(after.get("ruleset") or before.get("ruleset"))


def _seat_scalars(
    before: Mapping[str, Any], after: Mapping[str, Any], cards: Mapping[str, Any]
) -> list[str]:
    """The scalar fields of a seat a diff compares, in the seat's order: not its ``player``,
    nor a field naming one of the game's ``cards`` (the CCG's ``hero``: a card, whose own
    changes the diff lists)."""
    keys = [*after, *(k for k in before if k not in after)]
    return [
        k
        for k in keys
        if k not in ("zones", "player")
        and not isinstance(value := after.get(k, before.get(k)), dict | list)
        and not (isinstance(value, str) and value in cards)
    ]


def diff_view(diff: Mapping[str, Any], before: State, after: State, viewer: str) -> dict[str, Any]:
    """``diff`` as ``viewer`` may see it: cards it knew neither before nor after lose their id
    and name (docs/rules.md A.4), and so do the cards in the family's table parts
    (``Family.diff_part_view``; the CCG's attack card and its salt, the triggers of a fight,
    the damage a window waits on, and stack entries with their ability, effect plan and
    ``unchecked`` mark).

    A card's movement between zones and its family's card fields (the CCG's damage and
    tokens) stay: those are public (A.4).
    """
    seats = tuple(after.get("seats") or before.get("seats") or ())
    family = _family(before, after)

    def sees(cid: Any) -> bool:
        if not isinstance(cid, str):
            return True
        known: set[str] = set()
        for state in (before, after):
            card = (state.get("cards") or {}).get(cid)
            if card is not None:
                known.update(card["known"])
        return can_see(known, viewer, seats)

    def card_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(entry)
        if not sees(entry["card"]):
            out["card"] = None
            out["name"] = None
        if "host" in out:
            out["host"] = [h if sees(h) else None for h in out["host"]]
        return out

    out: dict[str, Any] = {
        "versions": list(diff["versions"]),
        "seats": {k: dict(v) for k, v in diff["seats"].items()},
        "table": dict(diff["table"]),
        "viewer": viewer,
    }
    for key in ("moved", *family.diff_card_fields, "known"):
        out[key] = [card_entry(e) for e in diff[key]]
    for key in family.diff_parts:
        part = diff.get(key)
        out[key] = (
            None
            if part is None
            else {
                "from": family.diff_part_view(key, part["from"], sees),
                "to": family.diff_part_view(key, part["to"], sees),
            }
        )
    return out


# ---------------------------------------------------------------------------- corrections


def is_correction(event: Mapping[str, Any]) -> bool:
    """Whether a stored event dict is a judge's correction (left out of the game as played).

    >>> is_correction({"type": "CardRestored"}), is_correction({"type": "CardDrawn"})
    (True, False)
    >>> is_correction({"type": "ClassicJudgeLevelSet"})
    True
    """
    return event.get("type") in correction_types()


def state_as_played(records: Iterable[Record], version: int | None = None) -> State:
    """The judge's state at ``version`` folded without the judge's corrections: the game as it
    was played. (Events played after a backup are then applied to the uncorrected table.)"""
    state = initial_state()
    for record in records:
        if version is not None and record["version"] > version:
            break
        if not is_correction(record["event"]):
            state = apply_record(state, record)
    return state


# ---------------------------------------------------------------------------- index


def hero_stats(state: State) -> dict[str, dict[str, int]]:
    """``{seat: {counter: value}}``: each seat's public counters, for the chart (docs/rules.md A.4):
    its family's (``Family.counters``; the CCG's are its Hero Zone's level, damage and gold,
    another ruleset's the whole numbers among its seats' fields)."""
    return family_named(state.get("ruleset")).counters(state)


class ReplayIndex:
    """What the judge's tools look up often, built once per game and extended as it grows.

    Per version: its turn (the state's ``turn``: setup is turn 0), its ``cause``, a public
    timeline entry (``{version, turn, type, seat, cause}`` plus ``corrects``, ``undoes``,
    ``dispute`` when present: nothing a viewer may not see), the judge events that correct or
    undo it, and, per stretch of one turn, the active seat and the Heroes' level, damage and
    gold at its end (the chart). ``state`` is the judge's state at ``version``.

    Kept compact (a game of 25,000 events is indexed in memory for each process that replays
    it): a version's entry is one tuple with its type and seat interned, and its cause one slot
    of a list; :attr:`timeline` makes the entries' dicts when asked.
    """

    def __init__(self) -> None:
        self.version = 0
        self.state: State = initial_state()
        self.turn = 0
        self.turns: dict[int, list[int]] = {}
        #: per version (from 1): ``(turn, type, seat, cause, extra)``, ``extra`` the entry's
        #: ``corrects`` / ``undoes`` / ``dispute`` (a dict) or None
        self._entries: list[tuple[int, str, Any, int | None, dict[str, Any] | None]] = []
        self.children: dict[int, list[int]] = {}
        self.corrected_by: dict[int, list[int]] = {}
        self.undone_by: dict[int, list[int]] = {}
        self.series: list[dict[str, Any]] = []
        #: how long the game waited on each seat, from the receipt times (projections.seat_time)
        self.seat_clock = SeatClock()

    @property
    def timeline(self) -> list[dict[str, Any]]:
        """The public timeline entry of each version, oldest first (made on each call)."""
        out = []
        for version, (turn, etype, seat, cause, extra) in enumerate(self._entries, 1):
            entry = {"version": version, "turn": turn, "type": etype, "seat": seat, "cause": cause}
            if extra:
                entry.update(extra)
            out.append(entry)
        return out

    def extend(self, records: Iterable[Record]) -> None:
        """Add the records after :attr:`version` (older ones are ignored)."""
        for record in records:
            version = int(record["version"])
            if version <= self.version:
                continue
            if version != self.version + 1:
                raise UnknownVersion(self.version + 1, self.version)
            self._add(version, record["event"])
            state = self.state
            waiting = family_named(state.get("ruleset")).waiting_for(state) if state else []
            self.seat_clock.add(record.get("received_at"), waiting, self.turn)

    def _add(self, version: int, event: Mapping[str, Any]) -> None:
        etype = sys.intern(str(event.get("type")))
        self.state = apply_record(self.state, {"event": event})
        new_turn = int(self.state.get("turn") or 0)  # a new turn, or a backup to another
        if new_turn != self.turn:
            self.turn = new_turn
            self.series.append({})
        self.version = version
        self.turns.setdefault(self.turn, []).append(version)
        cause = event.get("cause")
        cause = None if cause is None else int(cause)
        if cause is not None:
            self.children.setdefault(cause, []).append(version)
        extra: dict[str, Any] | None = None
        for key, links in (("corrects", self.corrected_by), ("undoes", self.undone_by)):
            target = event.get(key)
            if target is not None:
                extra = {**(extra or {}), key: target}
                links.setdefault(int(target), []).append(version)
        if etype in ("DisputeOpened", "RulingRecorded"):
            extra = {**(extra or {}), "dispute": event.get("dispute")}
        seat = event.get("seat")
        self._entries.append(
            (self.turn, etype, sys.intern(seat) if isinstance(seat, str) else seat, cause, extra)
        )
        if self.state.get("seats"):
            if not self.series:
                self.series.append({})
            self.series[-1] = {
                "turn": self.turn,
                "version": version,
                "active": self.state.get("active"),
                **hero_stats(self.state),
            }

    def turn_of(self, version: int) -> int:
        if not 1 <= version <= self.version:
            raise UnknownVersion(version, self.version)
        return self._entries[version - 1][0]

    def _cause(self, version: int) -> int | None:
        return self._entries[version - 1][3] if 1 <= version <= self.version else None

    def causes(self, version: int) -> list[int]:
        """The chain of ``cause`` links that led to ``version``, nearest first (a player's own
        action has none)."""
        if not 1 <= version <= self.version:
            raise UnknownVersion(version, self.version)
        out: list[int] = []
        cause = self._cause(version)
        while cause is not None and cause not in out and cause != version:
            out.append(cause)
            cause = self._cause(cause)
        return out

    def effects(self, version: int) -> list[int]:
        """Everything ``version`` caused, directly or not, in version order."""
        if not 1 <= version <= self.version:
            raise UnknownVersion(version, self.version)
        found: set[int] = set()
        todo = [version]
        while todo:
            for child in self.children.get(todo.pop(), []):
                if child not in found and child != version:
                    found.add(child)
                    todo.append(child)
        return sorted(found)


# ---------------------------------------------------------------------------- invariants


def invariant_violations(state: State, *, max_level: int = 10) -> list[str]:
    """What is impossible about ``state`` (empty when nothing): its family's invariants
    (``Family.invariants``; the Munchkin CCG's: docs/rules.md A.3, A.8, A.13).

    >>> invariant_violations({"status": "new", "version": 0})
    []
    """
    return family_named(state.get("ruleset")).invariants(state, max_level=max_level)
