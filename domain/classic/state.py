"""The fold of classic Munchkin's events (docs/rules.md C.2): the state every decision reads.

Layout (the conventions every ruleset follows, docs/DESIGN.md, plus the classic fields of the
contract): ``status`` (``setup``/``playing``/``finished``), ``turn``, ``active``, ``phase``,
``winners``; ``decks`` {``door``, ``treasure``, ``door_discard``, ``treasure_discard``: card
ids}; ``seats[X]`` {``player``, ``level``, ``dead``, ``eliminated``, ``ready``, ``dealt``,
``needs_deal``, ``zones``: {``hand``, ``equipped``, ``carried``, ``race``, ``class``, ``army``,
``curses``, ``helpers``}}; ``cards[id]`` {``def``, ``owner``, ``zone``, ``face``, ``known``};
``combat`` (None or the fight, docs/rules.md B.5) and ``body`` (a dead character's cards being
looted, B.9). Handlers never validate: events are facts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.classic import events as ev
from domain.classic.rules import combat_strengths
from domain.fold import CopyOnWriteState, game_header, handles

SEAT_ZONES = ("hand", "equipped", "carried", "race", "class", "army", "curses", "helpers")
DECK_ZONES = ("door", "treasure", "door_discard", "treasure_discard")
_SEAT_ZONES, _DECK_ZONES = frozenset(SEAT_ZONES), frozenset(DECK_ZONES)
Draft = CopyOnWriteState


def _everyone(d: Draft) -> list[str]:
    return list(d.state["seats"])


def _once(d: Draft, key: str) -> bool:
    """True the first time ``key`` is asked for in this event (the draft's copy-once record)."""
    return d.once(("classic", key))


def _pile(d: Draft, zone: str) -> list[str]:
    """A deck or discard list of this event's state, copied once per event."""
    decks = d.top("decks")
    if _once(d, zone):
        decks[zone] = list(decks[zone])
    result: list[str] = decks[zone]
    return result


def _body(d: Draft) -> dict[str, Any]:
    body: dict[str, Any] = d.top("body")
    if _once(d, "body"):
        body["cards"] = list(body["cards"])
        body["order"] = list(body["order"])
    return body


def _remove(d: Draft, cid: str) -> None:
    card = d.state["cards"][cid]
    _take_out(d, cid, card["zone"], card["owner"])


def _take_out(d: Draft, cid: str, zone: str, owner: str | None) -> None:
    if zone in _DECK_ZONES:
        _pile(d, zone).remove(cid)
    elif zone == "body":
        _body(d)["cards"].remove(cid)
    elif owner is not None and zone in _SEAT_ZONES:
        ids = d.zone(owner, zone)
        if cid in ids:
            ids.remove(cid)


def _place(d: Draft, cid: str, owner: str | None, zone: str, known: list[str]) -> None:
    """Move ``cid`` to ``owner``'s ``zone`` (a seat zone, a deck, ``combat``, ``table``)."""
    _move(d, cid, owner, zone, sorted(set(known)))


def _move(d: Draft, cid: str, owner: str | None, zone: str, seen: list[str]) -> None:
    """:func:`_place` with ``seen`` already sorted and distinct."""
    old = d.state["cards"][cid]
    _take_out(d, cid, old["zone"], old["owner"])
    card = d.card(cid)
    card["owner"], card["zone"], card["known"] = owner, zone, seen
    card["face"] = "up" if len(seen) == len(d.state["seats"]) else "down"
    if zone in _DECK_ZONES:
        _pile(d, zone).append(cid)
    elif zone == "body":
        _body(d)["cards"].append(cid)
    elif owner is not None and zone in _SEAT_ZONES:
        d.zone(owner, zone).append(cid)


def _discard(d: Draft, *cids: str) -> None:
    """The cards ``cids`` to their decks' discard piles, face up, in that order."""
    for cid in cids:
        deck = d.state["cards"][cid]["def"]["deck"]
        _move(d, cid, None, f"{deck}_discard", sorted(d.state["seats"]))


def _public(d: Draft, cid: str, owner: str | None, zone: str) -> None:
    _move(d, cid, owner, zone, sorted(d.state["seats"]))


def _combat(d: Draft) -> dict[str, Any]:
    """The combat, copied (containers and all) once per event."""
    c: dict[str, Any] = d.state["combat"]
    if not _once(d, "combat"):
        return c
    c = d.state["combat"] = {
        **c,
        "declined": list(c["declined"]),
        "monsters": [_entry_copy(e) for e in c["monsters"]],
        "removed": [_entry_copy(e) for e in c["removed"]],
        "one_shots": [dict(x) for x in c["one_shots"]],
        "discard_bonus": dict(c["discard_bonus"]),
        "passed": list(c["passed"]),
        "runs": {k: list(v) for k, v in c["runs"].items()},
        "caught": [list(x) for x in c["caught"]],
    }
    return c


def _combat_if_any(d: Draft) -> dict[str, Any] | None:
    """The combat, copied once per event (:func:`_combat`); ``None`` when there is none."""
    return _combat(d) if d.state.get("combat") else None


def _close(d: Draft, part: str, cards: Iterable[str]) -> None:
    """The table's ``part`` (the combat, a dead character's body) is over: ``cards``, what is
    left of it, go to their discard piles."""
    _discard(d, *cards)
    d.state[part] = None


def _entry_copy(e: dict[str, Any]) -> dict[str, Any]:
    return {**e, "enhancers": list(e["enhancers"]), "conditions": list(e["conditions"])}


def _refresh(d: Draft) -> None:
    """Recompute the combat's strengths; a change reopens the pass window (D.C1)."""
    c = _combat_if_any(d)
    if c is None:
        return
    player, monster, each = combat_strengths(d.state, c)
    if (player, monster) != (c["player_strength"], c["monster_strength"]):
        c["passed"] = []
    c["player_strength"], c["monster_strength"] = player, monster
    cards = d.state["cards"]
    for entry, strength in zip(c["monsters"], each, strict=True):
        entry["level"] = cards[entry["card"]]["def"].get("level", 0)
        entry["strength"] = strength


def _level(d: Draft, seat: str, level: int) -> None:
    d.seat(seat)["level"] = level


# ============================================================================ setup


@handles(ev.ClassicGameCreated)
def _created(e: ev.ClassicGameCreated, d: Draft) -> None:
    s = d.state
    s.update(
        game_header(e),
        options=dict(e.options),
        status="setup",
        winner=None,
        winners=[],
        turn=0,
        active=None,
        phase="setup",
        first=None,
        tied=[spec["seat"] for spec in e.seats],
        combat=None,
        body=None,
        trade=None,
        listened=False,
        received=[],  # Items received (trade, gift) this turn (Old West, docs/rules.md B.2)
        got=[],  # cards that came to a hand from another seat this turn (B.14)
        spoils={},  # a helped kill's Treasure this turn -> the helper it may be given to (B.12)
        cheats={},  # Cheat! card -> the Item it lets count (docs/rules.md B.2)
    )
    s["cards"] = {}
    for deck, defs in (("door", e.doors), ("treasure", e.treasures)):
        for c in defs:
            definition = {k: v for k, v in c.items() if k != "id"}
            s["cards"][c["id"]] = {
                "def": definition,
                "owner": None,
                "zone": deck,
                "face": "down",
                "known": [],
            }
    s["decks"] = {
        "door": [c["id"] for c in e.doors],
        "treasure": [c["id"] for c in e.treasures],
        "door_discard": [],
        "treasure_discard": [],
    }
    s["seats"] = {
        spec["seat"]: {
            "player": spec["player"],
            "level": 1,
            "dead": False,
            "eliminated": None,
            "ready": False,
            "dealt": False,
            "needs_deal": False,
            "zones": {z: [] for z in SEAT_ZONES},
        }
        for spec in e.seats
    }


@handles(ev.CardsDealt)
def _dealt(e: ev.CardsDealt, d: Draft) -> None:
    for cid in [*e.doors, *e.treasures]:
        _place(d, cid, e.player, "hand", [e.player])
    d.seat(e.player).update(dealt=True, needs_deal=False)


@handles(ev.FirstPlayerDetermined)
def _first(e: ev.FirstPlayerDetermined, d: Draft) -> None:
    d.state["first"] = e.first
    d.state["tied"] = list(e.tied)


@handles(ev.SeatReady)
def _ready(e: ev.SeatReady, d: Draft) -> None:
    d.seat(e.player)["ready"] = True


# ============================================================================ turn


@handles(ev.TurnBegan)
def _turn(e: ev.TurnBegan, d: Draft) -> None:
    d.state.update(
        status="playing",
        active=e.player,
        turn=e.turn,
        phase="kick_door",
        trade=None,
        listened=False,
        received=[],
        got=[],
        spoils={},
    )


@handles(ev.CharacterReturned)
def _returned(e: ev.CharacterReturned, d: Draft) -> None:
    d.seat(e.player).update(dead=False, needs_deal=True)


@handles(ev.PhaseEntered)
def _phase(e: ev.PhaseEntered, d: Draft) -> None:
    d.state["phase"] = e.phase


@handles(ev.DiscardReshuffled)
def _reshuffled(e: ev.DiscardReshuffled, d: Draft) -> None:
    cards, discard = d.state["cards"], f"{e.deck}_discard"
    ids = set(e.cards)
    kept = [cid for cid in d.state["decks"][discard] if cid not in ids]
    plain = len(ids) == len(e.cards) == len(d.state["decks"][discard]) - len(kept)
    if not plain or any(cards[cid]["zone"] != discard for cid in e.cards):
        for cid in e.cards:  # not a plain reshuffle (a judge's, a record-mode game's): one by one
            _place(d, cid, None, e.deck, [])
        return
    _pile(d, discard)[:] = kept  # every card from its discard pile: the same moves, at once
    for cid in e.cards:
        card = d.card(cid)
        card["owner"], card["zone"], card["known"] = None, e.deck, []
        card["face"] = "up" if not d.state["seats"] else "down"
    _pile(d, e.deck).extend(e.cards)


@handles(ev.DoorKicked)
def _kicked(e: ev.DoorKicked, d: Draft) -> None:
    _public(d, e.card, None, "table")


@handles(ev.CardTakenToHand)
def _to_hand(e: ev.CardTakenToHand, d: Draft) -> None:
    _public(d, e.card, e.player, "hand")


@handles(ev.LookedForTrouble)
def _trouble(e: ev.LookedForTrouble, d: Draft) -> None:
    _public(d, e.monster, None, "table")


@handles(ev.RoomLooted, ev.ListenedAtDoor)
def _looted(e: ev.RoomLooted | ev.ListenedAtDoor, d: Draft) -> None:
    _place(d, e.card, e.player, "hand", [e.player])
    if isinstance(e, ev.ListenedAtDoor):
        d.state["listened"] = True


@handles(ev.CharityResolved)
def _charity(e: ev.CharityResolved, d: Draft) -> None:
    for cid, seat in e.gifts.items():
        known = set(d.state["cards"][cid]["known"]) | {e.player, seat}
        _place(d, cid, seat, "hand", sorted(known))
    _got(d, list(e.gifts))
    _discard(d, *e.discarded)


def _got(d: Draft, cards: list[str]) -> None:
    """``cards`` came to a hand from another seat or a body: "just received" (B.14)."""
    if cards:
        d.state["got"] = [*(d.state.get("got") or ()), *cards]


@handles(ev.ClassicTurnEnded)
def _ended(e: ev.ClassicTurnEnded, d: Draft) -> None:
    d.state["trade"] = None


@handles(ev.ClassicConceded)
def _conceded(e: ev.ClassicConceded, d: Draft) -> None:
    d.seat(e.player)["eliminated"] = "conceded"
    if d.state.get("body") is not None:
        body = _body(d)
        body["order"] = [s for s in body["order"] if s != e.player]
    if c := _combat_if_any(d):
        if c["helper"] == e.player:
            c["helper"] = None
        if c["asked"] == e.player:
            c["asked"] = c["bribe"] = None
        c["caught"] = [x for x in c["caught"] if x[0] != e.player]
        _refresh(d)


@handles(ev.GameWon)
def _won(e: ev.GameWon, d: Draft) -> None:
    d.state.update(status="finished", winners=list(e.winners), winner="+".join(e.winners))


# ============================================================================ cards in play


@handles(ev.CharacterCardPlayed)
def _character(e: ev.CharacterCardPlayed, d: Draft) -> None:
    _public(d, e.card, e.player, e.trait_kind)
    _refresh(d)


@handles(ev.ItemPlayed)
def _item(e: ev.ItemPlayed, d: Draft) -> None:
    _public(d, e.card, e.player, "equipped" if e.equipped else "carried")
    _refresh(d)


@handles(ev.ItemEquipped)
def _equip(e: ev.ItemEquipped, d: Draft) -> None:
    _public(d, e.card, e.player, "equipped")
    _refresh(d)


@handles(ev.ItemUnequipped)
def _unequip(e: ev.ItemUnequipped, d: Draft) -> None:
    _public(d, e.card, e.player, "carried")
    _refresh(d)


@handles(ev.HelperPlayed, ev.ItemGivenToHireling)  # an Item a Hireling carries sits with it
def _helper(e: ev.HelperPlayed | ev.ItemGivenToHireling, d: Draft) -> None:
    _public(d, e.card, e.player, "helpers")
    _refresh(d)


@handles(ev.ClassicCardDiscarded)
def _discarded(e: ev.ClassicCardDiscarded, d: Draft) -> None:
    _discard(d, e.card)
    if e.bonus and (c := _combat_if_any(d)):
        c["discard_bonus"][e.player] = c["discard_bonus"].get(e.player, 0) + e.bonus
    _refresh(d)


@handles(ev.ItemsSold)
def _sold(e: ev.ItemsSold, d: Draft) -> None:
    _discard(d, *e.cards)
    _level(d, e.player, d.state["seats"][e.player]["level"] + e.levels)


@handles(ev.GoUpALevelPlayed)
def _go_up(e: ev.GoUpALevelPlayed, d: Draft) -> None:
    _discard(d, e.card)
    _level(d, e.target, d.state["seats"][e.target]["level"] + 1)
    _refresh(d)


def _hurt(d: Draft, victim: str, lost: list[str], levels: int, hand: list[str]) -> None:
    _discard(d, *lost, *hand)
    _level(d, victim, d.state["seats"][victim]["level"] - levels)


@handles(ev.CurseApplied)
def _cursed(e: ev.CurseApplied, d: Draft) -> None:
    if e.stays:
        _public(d, e.card, e.victim, "curses")
    else:
        _discard(d, e.card)
    _hurt(d, e.victim, e.lost, e.levels, e.hand)
    _refresh(d)


@handles(ev.TradeOffered)
def _offered(e: ev.TradeOffered, d: Draft) -> None:
    d.state["trade"] = {"player": e.player, "with": e.with_seat, "give": e.give, "get": e.get}


@handles(ev.ItemsTraded)
def _traded(e: ev.ItemsTraded, d: Draft) -> None:
    for cid in e.give:
        _public(d, cid, e.with_seat, "carried")
    for cid in e.get:
        _public(d, cid, e.player, "carried")
    d.state["trade"] = None
    d.state["received"] = [*(d.state.get("received") or ()), *e.give, *e.get]


@handles(ev.CardsGiven)
def _given(e: ev.CardsGiven, d: Draft) -> None:
    received = list(d.state.get("received") or ())
    for cid in e.cards:
        card = d.state["cards"][cid]
        if card["zone"] == "hand":
            _place(d, cid, e.to, "hand", [*card["known"], e.player, e.to])
            _got(d, [cid])
        else:
            _public(d, cid, e.to, "carried")
            received.append(cid)  # an Item in play changes hands (B.2)
    d.state["received"] = received
    spoils = d.state.get("spoils") or {}
    if any(c in spoils for c in e.cards):  # a helped kill's Treasure is shared once (B.12)
        d.state["spoils"] = {c: s for c, s in spoils.items() if c not in e.cards}
    _refresh(d)


# ============================================================================ combat


def _entry(monster: str, conditions: list[str]) -> dict[str, Any]:
    return {"card": monster, "enhancers": [], "conditions": list(conditions), "copies": 0}


@handles(ev.CombatStarted)
def _combat_started(e: ev.CombatStarted, d: Draft) -> None:
    _public(d, e.monster, None, "combat")
    d.state["phase"] = "combat"
    d.state["combat"] = {
        "player": e.player,
        "helper": None,
        "bribe": None,
        "asked": None,
        "declined": [],
        "monsters": [_entry(e.monster, e.conditions)],
        "removed": [],
        "one_shots": [],
        "discard_bonus": {},
        "passed": [],
        "stage": "fight",
        "runs": {},
        "caught": [],
        "treasures": 0,
        "player_strength": None,
        "monster_strength": None,
    }
    _once(d, "combat")  # a new combat, this event's own: nothing to copy
    _refresh(d)


@handles(ev.MonsterJoined)
def _joined(e: ev.MonsterJoined, d: Draft) -> None:
    _public(d, e.monster, None, "combat")
    if e.card:
        _discard(d, e.card)
    _combat(d)["monsters"].append(_entry(e.monster, e.conditions))
    _refresh(d)


@handles(ev.EnhancerPlayed)
def _enhanced(e: ev.EnhancerPlayed, d: Draft) -> None:
    _public(d, e.card, None, "combat")
    for entry in _combat(d)["monsters"]:
        if entry["card"] == e.monster:
            entry["enhancers"].append(e.card)
            if d.state["cards"][e.card]["def"].get("copy"):
                entry["copies"] += 1
    _refresh(d)


@handles(ev.OneShotPlayed)
def _one_shot(e: ev.OneShotPlayed, d: Draft) -> None:
    _public(d, e.card, None, "combat")
    c = _combat(d)
    c["one_shots"].append(
        {"card": e.card, "by": e.by, "side": e.side, "bonus": e.bonus, "run_away": e.run_away}
    )
    if e.removed is not None:
        for entry in list(c["monsters"]):
            if entry["card"] == e.removed:
                c["monsters"].remove(entry)
                c["removed"].append(entry)
            elif e.removed in entry["enhancers"]:
                entry["enhancers"].remove(e.removed)
                if d.state["cards"][e.removed]["def"].get("copy"):
                    entry["copies"] -= 1
                _discard(d, e.removed)
    _refresh(d)


@handles(ev.MonsterChasedAway)
def _chased(e: ev.MonsterChasedAway, d: Draft) -> None:
    c = _combat(d)
    for entry in list(c["monsters"]):
        if entry["card"] == e.monster:
            c["monsters"].remove(entry)
            c["removed"].append(entry)
    _refresh(d)


@handles(ev.HelpRequested)
def _asked(e: ev.HelpRequested, d: Draft) -> None:
    c = _combat(d)
    c["asked"], c["bribe"] = e.helper, e.bribe


@handles(ev.HelpAccepted)
def _accepted(e: ev.HelpAccepted, d: Draft) -> None:
    c = _combat(d)
    c["helper"], c["asked"] = e.helper, None
    _refresh(d)


@handles(ev.HelpDeclined)
def _declined(e: ev.HelpDeclined, d: Draft) -> None:
    c = _combat(d)
    c["asked"], c["bribe"] = None, None
    c["declined"].append(e.helper)


@handles(ev.CombatPassed)
def _passed(e: ev.CombatPassed, d: Draft) -> None:
    _combat(d)["passed"].append(e.player)


@handles(ev.CombatWon)
def _combat_won(e: ev.CombatWon, d: Draft) -> None:
    c = _combat(d)
    c["stage"], c["treasures"] = "treasure", e.treasures


@handles(ev.LevelsGained)
def _levels(e: ev.LevelsGained, d: Draft) -> None:
    _level(d, e.player, e.level)
    _refresh(d)


@handles(ev.TreasuresDrawn)
def _treasures(e: ev.TreasuresDrawn, d: Draft) -> None:
    known = _everyone(d) if e.face == "up" else [e.player]
    for cid in e.cards:
        _place(d, cid, e.player, "hand", known)
    if c := _combat_if_any(d):
        c["treasures"] = 0
        if c["helper"] is not None:  # the player shares them with its helper (B.7, B.12)
            spoils = {**(d.state.get("spoils") or {}), **dict.fromkeys(e.cards, c["helper"])}
            d.state["spoils"] = spoils


@handles(ev.RunAwayRolled)
def _ran(e: ev.RunAwayRolled, d: Draft) -> None:
    c = _combat(d)
    c["stage"] = "run_away"
    c["runs"].setdefault(e.player, []).append(e.monster)
    if not e.escaped:
        c["caught"].append([e.player, e.monster])


@handles(ev.SidekickSacrificed)
def _sacrificed(e: ev.SidekickSacrificed, d: Draft) -> None:
    _discard(d, e.card)
    c = _combat(d)
    c["stage"] = "run_away"
    c["runs"].setdefault(e.player, []).extend(e.monsters)
    _refresh(d)


@handles(ev.BadStuffApplied)
def _bad_stuff(e: ev.BadStuffApplied, d: Draft) -> None:
    _hurt(d, e.player, e.lost, e.levels, e.hand)
    if c := _combat_if_any(d):
        c["caught"] = [x for x in c["caught"] if x != [e.player, e.monster]]


@handles(ev.CombatEnded)
def _combat_ended(e: ev.CombatEnded, d: Draft) -> None:
    _close(d, "combat", e.discarded)


@handles(ev.PlayerDied)
def _died(e: ev.PlayerDied, d: Draft) -> None:
    d.seat(e.player)["dead"] = True
    d.state["body"] = {"dead": e.player, "cards": [], "order": list(e.order)}
    for cid in e.body:
        _public(d, cid, e.player, "body")
    if c := _combat_if_any(d):
        if c["helper"] == e.player:
            c["helper"] = None
        c["caught"] = [x for x in c["caught"] if x[0] != e.player]
        _refresh(d)


@handles(ev.BodyLooted)
def _body_looted(e: ev.BodyLooted, d: Draft) -> None:
    _public(d, e.card, e.picker, "hand")
    _got(d, [e.card])
    body = _body(d)
    body["order"] = [s for s in body["order"] if s != e.picker]


@handles(ev.BodyDiscarded)
def _body_discarded(e: ev.BodyDiscarded, d: Draft) -> None:
    _close(d, "body", e.cards)


# ============================================================================ added later (B.8, B.10)


@handles(ev.CurseExpired)
def _curse_expired(e: ev.CurseExpired, d: Draft) -> None:
    _discard(d, e.card)
    _refresh(d)


@handles(ev.CurseRemoved)
def _curse_removed(e: ev.CurseRemoved, d: Draft) -> None:
    _discard(d, e.card)
    if e.remover is not None:
        _discard(d, e.remover)
    _refresh(d)


@handles(ev.HurtOnEscape)
def _hurt_on_escape(e: ev.HurtOnEscape, d: Draft) -> None:
    _hurt(d, e.player, e.lost, e.levels, e.hand)
    _refresh(d)


@handles(ev.HelpForced)
def _help_forced(e: ev.HelpForced, d: Draft) -> None:
    _discard(d, e.card)
    if c := _combat_if_any(d):
        c["helper"], c["forced"] = e.helper, e.helper
        _refresh(d)


@handles(ev.HelperReleased)
def _helper_released(e: ev.HelperReleased, d: Draft) -> None:
    if c := _combat_if_any(d):
        if c["helper"] == e.helper:
            c["helper"] = None
        c["forced"] = None
        _refresh(d)


@handles(ev.Backstabbed)
def _backstabbed(e: ev.Backstabbed, d: Draft) -> None:
    _discard(d, e.card)
    if c := _combat_if_any(d):
        stab = {"by": e.by, "victim": e.victim, "bonus": e.bonus}
        c["backstabs"] = [*c.get("backstabs", ()), stab]
        _refresh(d)


def _cheat(d: Draft, player: str, cheat: str, counted: str, zone: str) -> None:
    """``player`` put the Cheat! ``cheat`` with its helpers and the card it lets count,
    ``counted``, in ``zone``; ``cheats`` maps the one to the other (docs/rules.md B.2)."""
    _public(d, cheat, player, "helpers")
    _public(d, counted, player, zone)
    cards = d.state["cards"]  # (a Cheat! looted from a body leaves a stale entry: dropped)
    cheats = {
        k: v for k, v in (d.state.get("cheats") or {}).items() if cards[k]["zone"] == "helpers"
    }
    d.state["cheats"] = {**cheats, cheat: counted}
    _refresh(d)


@handles(ev.CheatPlayed)
def _cheat_played(e: ev.CheatPlayed, d: Draft) -> None:
    _cheat(d, e.player, e.card, e.item, "equipped")


@handles(ev.SteedCheated)
def _steed_cheated(e: ev.SteedCheated, d: Draft) -> None:
    _cheat(d, e.player, e.card, e.steed, "helpers")


@handles(ev.CheatDiscarded)
def _cheat_discarded(e: ev.CheatDiscarded, d: Draft) -> None:
    _discard(d, e.card)
    d.state["cheats"] = {k: v for k, v in (d.state.get("cheats") or {}).items() if k != e.card}
    _refresh(d)


@handles(ev.TheftAttempted)
def _theft(e: ev.TheftAttempted, d: Draft) -> None:
    _discard(d, e.card)
    if e.stolen:
        _public(d, e.item, e.by, "carried")
    elif e.levels:
        _level(d, e.by, d.state["seats"][e.by]["level"] - e.levels)
    _refresh(d)
