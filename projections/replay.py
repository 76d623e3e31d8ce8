"""Judge tools over a game's stored records: turns, diffs, causes, backups (RULES.md A.14).

Pure functions of records (``{version, event, received_at, client_at, visible_to, hash,
prev_hash}``, see ``domain.game``) and of states (``domain.state``). Nothing here reads a store
or a clock; the HTTP layer loads the records and hands them over.

* :func:`state_at` -- the judge's state at a version;
* :func:`turn_ranges` -- which versions belong to which turn (setup is turn 0);
* :func:`state_diff` / :func:`diff_view` -- what changed between two states, and that change as
  one viewer may see it;
* :func:`causes` / :func:`effects` -- the chain of ``cause`` links around one event;
* :func:`backup_events` -- the correction events that put a game back to an earlier state;
* :func:`undo_steps` -- a backup as one undo per event, newest first (a judge's ruling);
* :func:`state_as_played` -- the game without the judge's corrections;
* :class:`ReplayIndex` -- turns, causes, a public timeline and the Heroes' counters, kept up to
  date incrementally;
* :func:`invariant_violations` -- what is wrong with a state, if anything.

>>> turn_ranges([])
{}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import domain.corrections as corr
from domain.events import Event, event_from_dict
from domain.state import SEATS, ZONES, State, evolve, initial_state
from projections.views import can_see

Record = Mapping[str, Any]

#: The fields of a card instance a backup restores (``def``, ``owner`` never change; a
#: card's ``stuck`` list is restored through the stuck cards' own ``host``/``position``).
CARD_FIELDS = ("zone", "face", "zapped", "damage", "tokens", "known", "host", "cost_mod")
#: The fields of a seat a backup restores (``player``, ``hero`` never change; ``zones`` are
#: restored card by card).
SEAT_FIELDS = (
    "level",
    "gold",
    "marker",
    "caught_cheating",
    "ran_this_turn",
    "eliminated",
    "mulligan",
)
#: The table fields a backup restores (besides cards, seats and the stack).
TABLE_FIELDS = ("status", "winner", "turn", "active", "phase", "step", "setup", "window", "fight")
#: State keys a backup leaves alone: the version counts events, and the judge's record of
#: disputes and rulings outlives the backup it may have ordered.
NOT_RESTORED = frozenset({"version", "disputes"})


class UnknownVersion(LookupError):
    """The records hold no event with this version."""

    def __init__(self, version: int) -> None:
        super().__init__(f"no event with version {version}")
        self.version = version


class BackupImpossible(ValueError):
    """The two states cannot be reconciled by a backup (e.g. they are of different games)."""


# ---------------------------------------------------------------------------- states


def state_at(records: Iterable[Record], version: int | None = None) -> State:
    """The judge's state after the event with ``version`` (all events when ``None``).

    Version 0 is the state before the game was created.
    """
    state = initial_state()
    for record in records:
        if version is not None and record["version"] > version:
            break
        state = evolve(state, event_from_dict(record["event"]))
    if version is not None and state["version"] < version:
        raise UnknownVersion(version)
    return state


def turn_ranges(records: Iterable[Record]) -> dict[int, tuple[int, int]]:
    """``{turn: (first_version, last_version)}``; setup (before the first turn) is turn 0.

    The turn changes at each ``TurnStarted`` and at each judge ``TableRestored`` (a backup to
    an earlier turn). A turn played again after a backup keeps its first version and extends
    to its last one.

    >>> recs = [{"version": 1, "event": {"type": "GameCreated"}},
    ...         {"version": 2, "event": {"type": "TurnStarted", "turn": 1}},
    ...         {"version": 3, "event": {"type": "CardDrawn"}}]
    >>> turn_ranges(recs)
    {0: (1, 1), 1: (2, 3)}
    """
    ranges: dict[int, tuple[int, int]] = {}
    turn = 0
    for record in records:
        event = record["event"]
        if event.get("type") in ("TurnStarted", "TableRestored"):
            turn = int(event["turn"])
        version = int(record["version"])
        first, _ = ranges.get(turn, (version, version))
        ranges[turn] = (first, version)
    return ranges


# ---------------------------------------------------------------------------- causes


def causes(records: Iterable[Record], version: int) -> list[int]:
    """The versions that caused event ``version``: its ``cause``, that event's cause, and so on
    to the root (a player's own action, whose ``cause`` is ``None``). Nearest first.

    >>> recs = [{"version": 1, "event": {"cause": None}}, {"version": 2, "event": {"cause": 1}},
    ...         {"version": 3, "event": {"cause": 2}}]
    >>> causes(recs, 3), causes(recs, 1)
    ([2, 1], [])
    """
    cause_of = {int(r["version"]): r["event"].get("cause") for r in records}
    if version not in cause_of:
        raise UnknownVersion(version)
    out: list[int] = []
    cause = cause_of[version]
    while cause is not None and cause not in out and cause != version:
        out.append(int(cause))
        cause = cause_of.get(int(cause))
    return out


def effects(records: Iterable[Record], version: int) -> list[int]:
    """Every event caused by event ``version``, directly or through others, in version order.

    >>> recs = [{"version": 1, "event": {"cause": None}}, {"version": 2, "event": {"cause": 1}},
    ...         {"version": 3, "event": {"cause": 2}}, {"version": 4, "event": {"cause": None}}]
    >>> effects(recs, 1)
    [2, 3]
    """
    children: dict[int, list[int]] = {}
    versions: set[int] = set()
    for r in records:
        v = int(r["version"])
        versions.add(v)
        cause = r["event"].get("cause")
        if cause is not None:
            children.setdefault(int(cause), []).append(v)
    if version not in versions:
        raise UnknownVersion(version)
    found: set[int] = set()
    todo = [version]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found and child != version:
                found.add(child)
                todo.append(child)
    return sorted(found)


# ---------------------------------------------------------------------------- diffs


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


def state_diff(before: State, after: State) -> dict[str, Any]:
    """What changed from ``before`` to ``after`` (the judge's view: every card id and name).

    Keys: ``versions`` ``[before, after]``; ``moved`` (cards whose zone, face or host changed:
    ``{card, name, owner, from, to, face}``); ``damage``, ``tokens``, ``zapped`` and ``known``
    (``{card, name, owner, from, to}``); ``seats`` (``{seat: {field: [from, to]}}`` for level,
    gold, marker, flags and zone counts); ``table`` (``{field: [from, to]}`` for status, winner,
    turn, active, phase, step); ``fight``, ``window``, ``stack`` (``{from, to}`` or ``None``).
    Cards are listed in id order. :func:`diff_view` redacts it for one viewer.
    """
    out: dict[str, Any] = {
        "versions": [before.get("version"), after.get("version")],
        "moved": [],
        "damage": [],
        "tokens": [],
        "zapped": [],
        "known": [],
        "seats": {},
        "table": {},
        "fight": None,
        "window": None,
        "stack": None,
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
        for key in ("damage", "tokens", "zapped", "known"):
            if b.get(key) != a.get(key):
                out[key].append({**base, "from": b.get(key), "to": a.get(key)})
    for seat in after.get("seats") or ():
        b_seat = (before.get("seats") or {}).get(seat)
        a_seat = (after.get("seats") or {}).get(seat)
        if b_seat is None or a_seat is None:
            continue
        changes: dict[str, list[Any]] = {}
        for key in _seat_scalars(b_seat, a_seat):
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
    for key in ("fight", "window", "stack"):
        if before.get(key) != after.get(key):
            out[key] = {"from": before.get(key), "to": after.get(key)}
    return out


def _seat_scalars(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The scalar fields of a seat a diff compares, in the seat's order (the CCG's:
    :data:`SEAT_FIELDS`)."""
    keys = [k for k in after if k not in ("zones", "player", "hero")]
    keys += [k for k in before if k not in after and k not in ("zones", "player", "hero")]
    return [k for k in keys if not isinstance(after.get(k, before.get(k)), dict | list)]


def diff_view(diff: Mapping[str, Any], before: State, after: State, viewer: str) -> dict[str, Any]:
    """``diff`` as ``viewer`` may see it: cards it knew neither before nor after lose their id
    and name (RULES.md A.4); the attack card's id and salt, and stack entries, likewise.

    A card's movement between zones, its damage and tokens stay: those are public (A.4).
    """
    seats = tuple(after.get("seats") or before.get("seats") or ())

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

    def fight(f: Mapping[str, Any] | None) -> dict[str, Any] | None:
        if f is None:
            return None
        out = dict(f)
        if not sees(f.get("card")):
            out["card"] = None
            out["salt"] = None
        out["defender_cards"] = [c if sees(c) else None for c in f.get("defender_cards") or []]
        return out

    def stack(entries: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]] | None:
        if entries is None:
            return None
        return [
            {
                **e,
                "card": e["card"] if sees(e["card"]) else None,
                "targets": [t if sees(t) else None for t in e.get("targets") or []],
            }
            for e in entries
        ]

    out: dict[str, Any] = {
        "versions": list(diff["versions"]),
        "seats": {k: dict(v) for k, v in diff["seats"].items()},
        "table": dict(diff["table"]),
        "window": diff["window"],
        "viewer": viewer,
    }
    for key in ("moved", "damage", "tokens", "zapped", "known"):
        out[key] = [card_entry(e) for e in diff[key]]
    out["fight"] = (
        None
        if diff["fight"] is None
        else {"from": fight(diff["fight"]["from"]), "to": fight(diff["fight"]["to"])}
    )
    out["stack"] = (
        None
        if diff["stack"] is None
        else {"from": stack(diff["stack"]["from"]), "to": stack(diff["stack"]["to"])}
    )
    return out


# ---------------------------------------------------------------------------- backup


def backup_events(
    point: State, current: State, *, seat: str = "judge", undoes: int | None = None
) -> list[Event]:
    """The correction events that turn ``current`` back into ``point`` (a judge backup).

    Contract: for two states of the same game, folding the result onto ``current`` gives a
    state equal to ``point`` in everything but ``version`` and ``disputes`` (the judge's record
    is kept), zone lists in the same order included. Only what differs is restored: cards zone
    by zone and position by position (``CardRestored``), then other cards (Heroes), the stack
    (``StackTrimmed``, ``StackEntryRestored``), then the table (``TableRestored``) and seats
    (``SeatRestored``), seats first when ``point`` is a finished game, so that every state in
    between keeps :func:`invariant_violations` empty. Events have ``seat`` (default
    ``"judge"``), ``cause=None`` and ``undoes`` (the version they undo, see
    :func:`undo_steps`; default ``None``).

    Raises :class:`BackupImpossible` when the states are of different games (or the result
    would not match, which would be a bug).
    """
    _check_same_game(point, current)
    backup = _Backup(point, current, seat, undoes)
    backup.cards()
    backup.stack()
    if point["status"] == "finished":
        backup.seats()
        backup.table()
    else:
        backup.table()
        backup.seats()
    if _restorable(backup.work) != _restorable(point):
        raise BackupImpossible("the backup does not reproduce the earlier state")
    return backup.events


class _Backup:
    """:func:`backup_events` in progress: the events so far and the state they lead to."""

    def __init__(self, point: State, current: State, seat: str, undoes: int | None) -> None:
        self.point = point
        self.work = current
        self.seat = seat
        self.undoes = undoes
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.work = evolve(self.work, event)
        self.events.append(event)

    def differs(self, cid: str) -> bool:
        a, b = self.work["cards"][cid], self.point["cards"][cid]
        return any(a.get(k) != b.get(k) for k in CARD_FIELDS)

    def cards(self) -> None:
        """Rebuild each zone list from its front: once cards 0..i-1 are in place, later
        restorations only take cards from behind them, so those stay in place."""
        for target, same_list in _zone_lists(self.point):
            for i, cid in enumerate(target):
                now = same_list(self.work)
                if i >= len(now) or now[i] != cid or self.differs(cid):
                    self.restore_card(cid, i)
        for cid in sorted(self.point["cards"]):
            if self.differs(cid):
                self.restore_card(cid, _position(self.point, cid))

    def restore_card(self, cid: str, position: int | None) -> None:
        card = self.point["cards"][cid]
        self.emit(
            corr.CardRestored(
                seat=self.seat,
                undoes=self.undoes,
                card=cid,
                zone=card["zone"],
                position=position,
                face=card["face"],
                zapped=card["zapped"],
                damage=card["damage"],
                tokens=card["tokens"],
                known=list(card["known"]),
                host=card.get("host"),
                cost_mod=card.get("cost_mod"),
            )
        )

    def stack(self) -> None:
        have = list(self.work.get("stack") or [])
        want = list(self.point.get("stack") or [])
        keep = 0
        while keep < min(len(have), len(want)) and have[keep] == want[keep]:
            keep += 1
        if keep < len(have):
            self.emit(corr.StackTrimmed(seat=self.seat, undoes=self.undoes, keep=keep))
        for entry in want[keep:]:
            self.emit(
                corr.StackEntryRestored(
                    seat=self.seat,
                    undoes=self.undoes,
                    ref=entry["ref"],
                    card=entry["card"],
                    player=entry["player"],
                    kind=entry["kind"],
                    targets=list(entry.get("targets") or []),
                    canceled=bool(entry.get("canceled")),
                )
            )

    def seats(self) -> None:
        for player in SEATS:
            want = self.point["seats"][player]
            if any(self.work["seats"][player].get(k) != want.get(k) for k in SEAT_FIELDS):
                fields = {k: want.get(k) for k in SEAT_FIELDS}
                self.emit(
                    corr.SeatRestored(seat=self.seat, undoes=self.undoes, player=player, **fields)
                )

    def table(self) -> None:
        p = self.point
        if all(self.work.get(k) == p.get(k) for k in TABLE_FIELDS):
            return
        fight = p.get("fight")
        secret = ("card", "salt", "defender_cards")
        self.emit(
            corr.TableRestored(
                seat=self.seat,
                undoes=self.undoes,
                status=p["status"],
                winner=p["winner"],
                turn=p["turn"],
                active=p["active"],
                phase=p["phase"],
                step=p["step"],
                setup=dict(p["setup"]),
                window=None if p["window"] is None else dict(p["window"]),
                fight=None
                if fight is None
                else {k: v for k, v in fight.items() if k not in secret},
                fight_card=None if fight is None else fight.get("card"),
                fight_salt=None if fight is None else fight.get("salt"),
                fight_defender_cards=[] if fight is None else list(fight["defender_cards"]),
            )
        )


def _restorable(state: State) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in NOT_RESTORED}


def _check_same_game(point: State, current: State) -> None:
    for key in ("game_id", "ruleset", "rules_version", "mode", "format"):
        if point.get(key) != current.get(key):
            raise BackupImpossible(f"the states differ in {key!r}: not the same game")
    if point.get("status") in (None, "new") or current.get("status") in (None, "new"):
        raise BackupImpossible("a backup needs two states of a created game")
    if set(point["cards"]) != set(current["cards"]):
        raise BackupImpossible("the states hold different cards: not the same game")


def _zone_lists(state: State) -> list[tuple[list[str], Any]]:
    """Every card list of ``state`` with a getter for the same list in another state."""
    out: list[tuple[list[str], Any]] = []
    for seat in SEATS:
        for zone in ZONES:
            out.append(
                (
                    list(state["seats"][seat]["zones"][zone]),
                    lambda s, seat=seat, zone=zone: s["seats"][seat]["zones"][zone],
                )
            )
    out.append((list(state["dmz"]), lambda s: s["dmz"]))
    for cid in sorted(state["cards"]):
        stuck = state["cards"][cid]["stuck"]
        if stuck:
            out.append((list(stuck), lambda s, cid=cid: s["cards"][cid]["stuck"]))
    return out


# ---------------------------------------------------------------------------- judge's backups


#: Stored event types of the judge's corrections: backup restorations and forced effects.
CORRECTION_TYPES = frozenset(
    [c.__name__ for c in corr.RESTORATIONS] + [c.__name__ for c in corr.JUDGE_EFFECTS.values()]
)


def is_correction(event: Mapping[str, Any]) -> bool:
    """Whether a stored event dict is a judge's correction (left out of the game as played).

    >>> is_correction({"type": "CardRestored"}), is_correction({"type": "CardDrawn"})
    (True, False)
    """
    return event.get("type") in CORRECTION_TYPES


def undo_steps(
    point: State, later: Sequence[Record], *, seat: str = "judge"
) -> list[tuple[int, list[Event]]]:
    """A backup the way tournament judges do it (RULES.md A.14): undo each event after
    ``point``, newest first, skipping nothing.

    ``later`` are the records after ``point`` (versions ``point + 1`` .. now, in order). Returns
    ``[(version, events)]`` for every one of those versions, newest first: the events restore
    what that one event changed to its value just before it (:func:`backup_events` from the
    state before it, each with ``undoes=version``), and the list is empty for an event that
    changed nothing a backup restores (a dispute, a ruling). Folded in order onto the current
    state they lead back to ``point`` in everything but ``version`` and ``disputes``.

    Raises :class:`BackupImpossible` when ``later`` does not continue ``point``.
    """
    states = [point]
    expected = int(point["version"]) + 1
    for record in later:
        if int(record["version"]) != expected:
            raise BackupImpossible(f"expected the record of version {expected}")
        states.append(evolve(states[-1], event_from_dict(dict(record["event"]))))
        expected += 1
    work = states[-1]
    steps: list[tuple[int, list[Event]]] = []
    for index in range(len(later) - 1, -1, -1):
        version = int(later[index]["version"])
        events = backup_events(states[index], work, seat=seat, undoes=version)
        for event in events:
            work = evolve(work, event)
        steps.append((version, events))
    return steps


def state_as_played(records: Iterable[Record], version: int | None = None) -> State:
    """The judge's state at ``version`` folded without the judge's corrections: the game as it
    was played. (Events played after a backup are then applied to the uncorrected table.)"""
    state = initial_state()
    for record in records:
        if version is not None and record["version"] > version:
            break
        if not is_correction(record["event"]):
            state = evolve(state, event_from_dict(dict(record["event"])))
    return state


# ---------------------------------------------------------------------------- index


def hero_stats(state: State) -> dict[str, dict[str, int]]:
    """``{seat: {counter: value}}``: each seat's public counters, for the chart (RULES.md A.4).

    The CCG's are its Hero Zone's level, damage and gold; another ruleset's are the whole
    numbers among its seats' fields.
    """
    out: dict[str, dict[str, int]] = {}
    for seat, st in state["seats"].items():
        if "hero" in st and "level" in st:
            out[seat] = {
                "level": int(st["level"]),
                "damage": int(state["cards"][st["hero"]]["damage"]),
                "gold": int(st["gold"]),
            }
        else:
            out[seat] = {
                k: int(v) for k, v in st.items() if isinstance(v, int) and not isinstance(v, bool)
            }
    return out


class ReplayIndex:
    """What the judge's tools look up often, built once per game and extended as it grows.

    Per version: its turn (as :func:`turn_ranges` counts them), its ``cause``, a public
    timeline entry (``{version, turn, type, seat, cause}`` plus ``corrects``, ``undoes``,
    ``dispute`` when present: nothing a viewer may not see), the judge events that correct or
    undo it, and, per stretch of one turn, the active seat and the Heroes' level, damage and
    gold at its end (the chart). ``state`` is the judge's state at ``version``.
    """

    def __init__(self) -> None:
        self.version = 0
        self.state: State = initial_state()
        self.turn = 0
        self.turns: dict[int, list[int]] = {}
        self.cause_of: dict[int, int | None] = {}
        self.children: dict[int, list[int]] = {}
        self.corrected_by: dict[int, list[int]] = {}
        self.undone_by: dict[int, list[int]] = {}
        self.timeline: list[dict[str, Any]] = []
        self.series: list[dict[str, Any]] = []

    def extend(self, records: Iterable[Record]) -> None:
        """Add the records after :attr:`version` (older ones are ignored)."""
        for record in records:
            version = int(record["version"])
            if version <= self.version:
                continue
            if version != self.version + 1:
                raise UnknownVersion(self.version + 1)
            self._add(version, record["event"])

    def _add(self, version: int, event: Mapping[str, Any]) -> None:
        etype = str(event.get("type"))
        self.state = evolve(self.state, event_from_dict(dict(event)))
        new_turn = int(self.state.get("turn") or 0)  # a new turn, or a backup to another
        if new_turn != self.turn:
            self.turn = new_turn
            self.series.append({})
        self.version = version
        self.turns.setdefault(self.turn, []).append(version)
        cause = event.get("cause")
        self.cause_of[version] = None if cause is None else int(cause)
        if cause is not None:
            self.children.setdefault(int(cause), []).append(version)
        entry: dict[str, Any] = {
            "version": version,
            "turn": self.turn,
            "type": etype,
            "seat": event.get("seat"),
            "cause": cause,
        }
        for key, links in (("corrects", self.corrected_by), ("undoes", self.undone_by)):
            target = event.get(key)
            if target is not None:
                entry[key] = target
                links.setdefault(int(target), []).append(version)
        if etype in ("DisputeOpened", "RulingRecorded"):
            entry["dispute"] = event.get("dispute")
        self.timeline.append(entry)
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
            raise UnknownVersion(version)
        return int(self.timeline[version - 1]["turn"])

    def causes(self, version: int) -> list[int]:
        """As :func:`causes`: the chain of ``cause`` links, nearest first."""
        if version not in self.cause_of:
            raise UnknownVersion(version)
        out: list[int] = []
        cause = self.cause_of[version]
        while cause is not None and cause not in out and cause != version:
            out.append(cause)
            cause = self.cause_of.get(cause)
        return out

    def effects(self, version: int) -> list[int]:
        """As :func:`effects`: everything ``version`` caused, in version order."""
        if version not in self.cause_of:
            raise UnknownVersion(version)
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
    """What is impossible about ``state`` (empty when nothing): RULES.md A.3, A.8, A.13.

    Checks: no negative gold, damage, tokens or committed gold; levels within 1..``max_level``;
    every card in exactly one zone (and that zone's list names it once); a finished game's
    winner agrees with the eliminations (a seat wins only when the other is out and it is not;
    a draw when both are out).

    >>> invariant_violations({"status": "new", "version": 0})
    []
    """
    if state.get("status") in (None, "new"):
        return []
    problems: list[str] = []
    seats = state["seats"]
    cards = state["cards"]
    for seat, st in seats.items():
        if "level" in st and not 1 <= st["level"] <= max_level:
            problems.append(f"{seat}: level {st['level']} outside 1..{max_level}")
        if st.get("gold", 0) < 0:
            problems.append(f"{seat}: negative gold {st['gold']}")
        if st.get("ran_this_turn", 0) < 0:
            problems.append(f"{seat}: negative run-away count")
    fight = state.get("fight")
    if fight is not None and fight.get("gold", 0) < 0:
        problems.append("fight: negative committed gold")
    for cid in sorted(cards):
        card = cards[cid]
        if card.get("damage", 0) < 0 or card.get("tokens", 0) < 0:
            problems.append(f"card {cid}: negative damage or tokens")
    problems.extend(_zone_problems(state))
    if state["status"] == "finished":
        out = {seat for seat in seats if seats[seat].get("eliminated")}
        winner = state.get("winner")
        left = [seat for seat in seats if seat not in out]
        expected = "draw" if not left else left[0] if len(left) == 1 else None
        if len(out) == 0 or winner != expected:
            problems.append(f"game ended with winner {winner!r} but eliminated {sorted(out)}")
    return problems


def _zone_problems(state: State) -> list[str]:
    cards = state["cards"]
    seen: dict[str, list[str]] = {cid: [] for cid in cards}
    problems: list[str] = []

    def note(cid: str, where: str) -> None:
        if cid not in seen:
            problems.append(f"{where} names an unknown card {cid}")
        else:
            seen[cid].append(where)

    for st in state["seats"].values():
        if "hero" in st:
            note(st["hero"], "hero")
        for zone, ids in st["zones"].items():
            for cid in ids:
                note(cid, zone)
    for cid in state.get("dmz") or ():
        note(cid, "dmz")
    for host in cards:
        for cid in cards[host].get("stuck") or ():
            note(cid, "stuck")
    for cid in sorted(cards):
        card = cards[cid]
        if seen[cid] != [card["zone"]]:
            problems.append(f"card {cid}: in {seen[cid]} but its zone is {card['zone']!r}")
        elif (
            card["zone"] in state["seats"][card["owner"]]["zones"]
            and cid not in state["seats"][card["owner"]]["zones"][card["zone"]]
        ):
            problems.append(f"card {cid}: in another seat's {card['zone']}")
        elif card["zone"] == "stuck" and cid not in cards.get(card.get("host"), {}).get(
            "stuck", []
        ):
            problems.append(f"card {cid}: stuck to {card.get('host')!r}, which does not hold it")
    return problems
