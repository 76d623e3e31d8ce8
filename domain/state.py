"""Game state and ``evolve``: fold one event into the state (RULES.md A.3, A.4).

The state is plain JSON data so that a snapshot stored as JSON and a replay from scratch give
identical states. ``evolve(state, event)`` returns a new state and never mutates its input: it
copies only the parts an event touches (copy-on-write), so its cost does not grow with the game.
It never validates and never raises on an event that ``decide`` produced: events are facts.

Knowledge (RULES.md A.4, D.7): each card instance has ``known`` — the seats that know its
identity. A card's owner always knows it (the owner holds the decklist). A card becomes known
to every seat when it is face up somewhere public or revealed; it becomes private to its owner
again when it enters a hand or a deck (the opponent can no longer tell it from the others);
a face-down stash keeps whatever knowledge the card had.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

from domain import events as ev

State = dict[str, Any]
SEATS = ("A", "B")
ZONES = ("deck", "hand", "hoard", "stash", "discard", "removed")
#: Zones whose face-up cards every seat sees (RULES.md A.4).
PUBLIC_ZONES = frozenset({"hero", "hoard", "discard", "removed"})


def other(seat: str) -> str:
    """The opponent of ``seat`` in a two-player game."""
    return "B" if seat == "A" else "A"


def initial_state() -> State:
    """The state before ``GameCreated``."""
    return {"version": 0, "status": "new"}


class Tx:
    """Copy-on-write access to a state: each container is copied at most once per event."""

    __slots__ = ("_cards", "_done", "_seats", "s")

    def __init__(self, state: State) -> None:
        self.s: State = dict(state)
        self._done: set[Any] = set()
        self._seats: dict[str, Any] | None = None
        self._cards: dict[str, Any] | None = None

    def seat(self, seat: str) -> dict[str, Any]:
        if self._seats is None:
            self._seats = self.s["seats"] = dict(self.s["seats"])
        key = ("seat", seat)
        if key not in self._done:
            self._done.add(key)
            self._seats[seat] = dict(self._seats[seat])
        result: dict[str, Any] = self._seats[seat]
        return result

    def zone(self, seat: str, zone: str) -> list[str]:
        key = ("zone", seat, zone)
        st = self.seat(seat)
        if key not in self._done:
            if ("zones", seat) not in self._done:
                self._done.add(("zones", seat))
                st["zones"] = dict(st["zones"])
            self._done.add(key)
            st["zones"][zone] = list(st["zones"][zone])
        result: list[str] = st["zones"][zone]
        return result

    def card(self, cid: str) -> dict[str, Any]:
        if self._cards is None:
            self._cards = self.s["cards"] = dict(self.s["cards"])
        key = ("card", cid)
        if key not in self._done:
            self._done.add(key)
            self._cards[cid] = dict(self._cards[cid])
        result: dict[str, Any] = self._cards[cid]
        return result

    def top(self, key: str) -> Any:
        """A copied top-level container (``dmz``, ``fight``, ``window``, ``stack``, ``setup``)."""
        if ("top", key) not in self._done:
            self._done.add(("top", key))
            value = self.s[key]
            self.s[key] = dict(value) if isinstance(value, dict) else list(value)
        return self.s[key]

    # ------------------------------------------------------------------ card movement

    def remove_from_zone(self, cid: str) -> None:
        card = self.s["cards"][cid]
        zone = card["zone"]
        if zone == "dmz":
            dmz = self.top("dmz")
            if cid in dmz:
                dmz.remove(cid)
        elif zone in ZONES:
            lst = self.zone(card["owner"], zone)
            if cid in lst:
                lst.remove(cid)
        elif zone == "stuck":
            host = card.get("host")
            if host and host in self.s["cards"]:
                hc = self.card(host)
                hc["stuck"] = [x for x in hc["stuck"] if x != cid]

    def move(self, cid: str, zone: str, face: str = "up", bottom: bool = True) -> None:
        """Move a card to its owner's ``zone`` (or the shared ``dmz``), applying A.3 side effects.

        Leaving play (or going face down) clears damage and tokens and sends stuck Curses to
        their owners' discards; knowledge follows the module docstring.
        """
        old = self.s["cards"][cid]
        was_in_play = in_play(old)
        self.remove_from_zone(cid)
        card = self.card(cid)
        card["zone"] = zone
        card["face"] = face
        card["host"] = None
        if zone == "dmz":
            self.top("dmz").append(cid)
        elif bottom or zone != "deck":
            self.zone(card["owner"], zone).append(cid)
        else:
            self.zone(card["owner"], zone).insert(0, cid)
        now_in_play = in_play(card)
        if (was_in_play and not now_in_play) or zone in ("hand", "deck", "discard", "removed"):
            self.leave_play(cid)
        if zone in ("hand", "deck"):
            card["known"] = [card["owner"]]
            card["zapped"] = False
        elif face == "up":
            card["known"] = list(SEATS)
        if zone in ("discard", "removed", "stash"):
            card["zapped"] = False

    def leave_play(self, cid: str) -> int:
        """Strip tokens, damage and stuck Curses (RULES.md A.3 "leaves play"); return tokens."""
        card = self.card(cid)
        returned = card["damage"] + card["tokens"]
        card["damage"] = 0
        card["tokens"] = 0
        card["cost_mod"] = None
        for curse in list(card["stuck"]):
            self.move(curse, "discard")
        card["stuck"] = []
        return int(returned)


def in_play(card: dict[str, Any]) -> bool:
    """RULES.md A.3: Heroes, hoard cards, face-up stash cards, DMZ cards are in play."""
    zone = card["zone"]
    if zone in ("hero", "hoard", "dmz", "stuck"):
        return True
    return zone == "stash" and card["face"] == "up"


def _new_card(cid: str, definition: dict[str, Any], owner: str, zone: str) -> dict[str, Any]:
    public = zone == "hero"
    return {
        "def": {k: v for k, v in definition.items() if k != "id"},
        "owner": owner,
        "zone": zone,
        "face": "up" if public else "down",
        "zapped": False,
        "damage": 0,
        "tokens": 0,
        "stuck": [],
        "host": None,
        "known": list(SEATS) if public else [owner],
        "cost_mod": None,
    }


# ---------------------------------------------------------------------------- evolve


@singledispatch
def _apply(event: ev.Event, tx: Tx) -> None:
    """Events with no state change of their own (e.g. PriorityPassed bookkeeping is below)."""


def evolve(state: State, event: ev.Event) -> State:
    """Return the state after ``event``. Never validates, never raises, never mutates ``state``.

    >>> s = evolve(initial_state(), ev.GameEnded(winner="draw"))
    >>> s["version"], s["winner"]
    (1, 'draw')
    """
    tx = Tx(state)
    _apply(event, tx)
    tx.s["version"] = state.get("version", 0) + 1
    return tx.s


def replay(events: list[ev.Event], state: State | None = None) -> State:
    """Fold ``events`` from ``state`` (default: the initial state)."""
    s = initial_state() if state is None else state
    for e in events:
        s = evolve(s, e)
    return s


def _on(cls: type[ev.Event]) -> Callable[[Callable[[Any, Tx], None]], Any]:
    return _apply.register(cls)


@_on(ev.GameCreated)
def _(e: ev.GameCreated, tx: Tx) -> None:
    s = tx.s
    s.update(
        game_id=e.game_id,
        ruleset=e.ruleset,
        rules_version=e.rules_version,
        mode=e.mode,
        format=e.format,
        labels=dict(e.labels),
        status="setup",
        winner=None,
        turn=0,
        active=None,
        phase="setup",
        step="draw_opening",
        setup={"opened": [], "rolls": None, "roll_winner": None, "first": None, "decided": []},
        dmz=[],
        fight=None,
        window=None,
        stack=[],
    )
    cards: dict[str, Any] = {}
    seats: dict[str, Any] = {}
    for spec in e.seats:
        seat = spec["seat"]
        hero = spec["hero"]
        cards[hero["id"]] = _new_card(hero["id"], hero, seat, "hero")
        deck = []
        for d in spec["deck"]:
            cards[d["id"]] = _new_card(d["id"], d, seat, "deck")
            deck.append(d["id"])
        seats[seat] = {
            "player": spec["player"],
            "hero": hero["id"],
            "level": 1,
            "gold": 0,
            "marker": "run_away",
            "caught_cheating": False,
            "ran_this_turn": 0,
            "eliminated": None,
            "mulligan": None,
            "zones": {
                "deck": deck,
                "hand": [],
                "hoard": [],
                "stash": [],
                "discard": [],
                "removed": [],
            },
        }
    s["cards"] = cards
    s["seats"] = seats


@_on(ev.OpeningHandDrawn)
def _(e: ev.OpeningHandDrawn, tx: Tx) -> None:
    for cid in e.cards:
        tx.move(cid, "hand")
    setup = tx.top("setup")
    if e.player not in setup["opened"]:
        setup["opened"] = [*setup["opened"], e.player]
    if set(setup["opened"]) >= set(SEATS):
        tx.s["step"] = "roll_first"


@_on(ev.FirstPlayerRolled)
def _(e: ev.FirstPlayerRolled, tx: Tx) -> None:
    setup = tx.top("setup")
    setup["rolls"] = dict(e.rolls)
    if not e.tie:
        a, b = e.rolls.get("A", 0), e.rolls.get("B", 0)
        setup["roll_winner"] = "A" if a > b else "B"
        tx.s["step"] = "choose_first"


@_on(ev.FirstPlayerChosen)
def _(e: ev.FirstPlayerChosen, tx: Tx) -> None:
    tx.top("setup")["first"] = e.first
    tx.s["step"] = "mulligan"


@_on(ev.GoldGranted)
def _(e: ev.GoldGranted, tx: Tx) -> None:
    tx.seat(e.player)["gold"] += e.amount


@_on(ev.MulliganTaken)
def _(e: ev.MulliganTaken, tx: Tx) -> None:
    for cid in e.returned:
        tx.move(cid, "deck")
    for cid in e.cards:
        tx.move(cid, "hand")
    tx.seat(e.player)["mulligan"] = "taken"
    setup = tx.top("setup")
    setup["decided"] = [*setup["decided"], e.player]


@_on(ev.MulliganDeclined)
def _(e: ev.MulliganDeclined, tx: Tx) -> None:
    tx.seat(e.player)["mulligan"] = "kept"
    setup = tx.top("setup")
    setup["decided"] = [*setup["decided"], e.player]


@_on(ev.TurnStarted)
def _(e: ev.TurnStarted, tx: Tx) -> None:
    s = tx.s
    s.update(status="playing", turn=e.turn, active=e.player, phase="warmup", step="flip")
    for seat in SEATS:
        st = tx.seat(seat)
        st["caught_cheating"] = False
        st["ran_this_turn"] = 0


@_on(ev.PhaseStarted)
def _(e: ev.PhaseStarted, tx: Tx) -> None:
    tx.s["phase"] = e.phase
    tx.s["step"] = e.step


@_on(ev.RunAwayMarkerFlipped)
def _(e: ev.RunAwayMarkerFlipped, tx: Tx) -> None:
    tx.seat(e.player)["marker"] = e.side
    if tx.s["phase"] == "warmup" and tx.s["step"] == "flip":
        tx.s["step"] = "unzap"


@_on(ev.CardsUnzapped)
def _(e: ev.CardsUnzapped, tx: Tx) -> None:
    for cid in e.cards:
        tx.card(cid)["zapped"] = False
    if tx.s["phase"] == "warmup":
        tx.s["step"] = "reckoning"


@_on(ev.StashUnstashed)
def _(e: ev.StashUnstashed, tx: Tx) -> None:
    for cid in e.cards:
        tx.move(cid, "hand")
    if tx.s["phase"] == "warmup":
        tx.s["step"] = "draw"


@_on(ev.CardDrawn)
def _(e: ev.CardDrawn, tx: Tx) -> None:
    tx.move(e.card, "hand")


@_on(ev.LootPlayed)
@_on(ev.LocationPlayed)
def _(e: ev.LootPlayed | ev.LocationPlayed, tx: Tx) -> None:
    tx.move(e.card, "hoard")


@_on(ev.AllyPlayed)
def _(e: ev.AllyPlayed, tx: Tx) -> None:
    st = tx.seat(e.player)
    st["gold"] = max(0, st["gold"] - e.gold_paid)
    tx.move(e.card, "hoard")


@_on(ev.CardSquished)
@_on(ev.CardDiscarded)
@_on(ev.MonsterDiscarded)
def _(e: ev.CardSquished | ev.CardDiscarded | ev.MonsterDiscarded, tx: Tx) -> None:
    tx.move(e.card, "discard")
    _forget_committed(tx, e.card)


@_on(ev.CardZapped)
def _(e: ev.CardZapped, tx: Tx) -> None:
    tx.card(e.card)["zapped"] = True


@_on(ev.CardUnzapped)
def _(e: ev.CardUnzapped, tx: Tx) -> None:
    tx.card(e.card)["zapped"] = False


@_on(ev.MischiefPlayed)
def _(e: ev.MischiefPlayed, tx: Tx) -> None:
    st = tx.seat(e.player)
    st["gold"] = max(0, st["gold"] - e.gold_paid)
    if e.give_blood:
        hero = tx.card(st["hero"])
        hero["damage"] += e.give_blood
    tx.move(e.card, "dmz")
    tx.top("stack").append(
        {
            "ref": tx.s["version"] + 1,
            "card": e.card,
            "player": e.player,
            "kind": "mischief",
            "targets": list(e.targets),
            "canceled": False,
        }
    )
    _touch_window(tx)


@_on(ev.AbilityActivated)
def _(e: ev.AbilityActivated, tx: Tx) -> None:
    st = tx.seat(e.player)
    costs = e.costs
    gold = int(costs.get("gold") or 0)
    st["gold"] = max(0, st["gold"] - gold)
    if costs.get("zap"):
        tx.card(e.card)["zapped"] = True
    blood = int(costs.get("give_blood") or 0)
    if blood:
        tx.card(st["hero"])["damage"] += blood
    for cid in costs.get("discard") or []:
        tx.move(cid, "discard")
    tx.top("stack").append(
        {
            "ref": tx.s["version"] + 1,
            "card": e.card,
            "player": e.player,
            "kind": "ability",
            "targets": list(e.targets),
            "canceled": False,
        }
    )
    _touch_window(tx)


@_on(ev.AbilityCanceled)
def _(e: ev.AbilityCanceled, tx: Tx) -> None:
    stack = tx.top("stack")
    for i, entry in enumerate(stack):
        if entry["ref"] == e.ref:
            stack[i] = {**entry, "canceled": True}


@_on(ev.AbilityResolved)
def _(e: ev.AbilityResolved, tx: Tx) -> None:
    stack = tx.top("stack")
    entry = None
    for i in range(len(stack) - 1, -1, -1):
        if stack[i]["ref"] == e.ref:
            entry = stack.pop(i)
            break
    if entry is not None and entry["kind"] == "mischief":
        card = tx.s["cards"][entry["card"]]
        # A Curse stuck by a CardStuck effect has left the DMZ; anything still there goes on.
        if card["zone"] == "dmz":
            if "encore" in card["def"]["keywords"]:
                tx.move(entry["card"], "stash", face="down")
            else:
                tx.move(entry["card"], "discard")
    _touch_window(tx)


@_on(ev.PriorityPassed)
def _(e: ev.PriorityPassed, tx: Tx) -> None:
    if tx.s["window"] is not None:
        w = tx.top("window")
        w["passed"] = sorted({*w["passed"], e.player})


@_on(ev.ResponseWindowClosed)
def _(e: ev.ResponseWindowClosed, tx: Tx) -> None:
    tx.s["window"] = None


def _touch_window(tx: Tx) -> None:
    """Any action in an open window means both players must pass again (RULES.md A.11)."""
    if tx.s.get("window") is not None:
        w = tx.top("window")
        w["passed"] = []


# ---------------------------------------------------------------------------- fight


@_on(ev.FightStarted)
def _(e: ev.FightStarted, tx: Tx) -> None:
    tx.s["fight"] = {
        "attacker": e.attacker,
        "defender": e.defender,
        "stage": "committing",
        "card": None,
        "gold": 0,
        "commitment": None,
        "salt": None,
        "defender_cards": [],
        "hired": False,
        "revealed": False,
    }


@_on(ev.AttackCardCommitted)
def _(e: ev.AttackCardCommitted, tx: Tx) -> None:
    tx.move(e.card, "dmz", face="down")
    f = tx.top("fight")
    f.update(card=e.card, commitment=e.commitment, salt=e.salt, stage="committing")


@_on(ev.GoldCommitted)
def _(e: ev.GoldCommitted, tx: Tx) -> None:
    st = tx.seat(e.player)
    st["gold"] = max(0, st["gold"] - e.amount)
    f = tx.top("fight")
    f["gold"] += e.amount
    f["stage"] = "declared"


@_on(ev.RanAway)
def _(e: ev.RanAway, tx: Tx) -> None:
    tx.seat(e.player)["ran_this_turn"] += 1
    tx.top("fight")["stage"] = "ran"


@_on(ev.DefenderFaced)
def _(e: ev.DefenderFaced, tx: Tx) -> None:
    tx.top("fight")["stage"] = "defending"


@_on(ev.DefenderCardsCommitted)
def _(e: ev.DefenderCardsCommitted, tx: Tx) -> None:
    f = tx.top("fight")
    f["defender_cards"] = [*f["defender_cards"], *e.cards]
    for cid in e.cards:
        tx.move(cid, "dmz", face="up")
        tx.card(cid)["zapped"] = True


@_on(ev.DefenderReady)
def _(e: ev.DefenderReady, tx: Tx) -> None:
    tx.top("fight")["stage"] = "ready"


@_on(ev.AttackCardRevealed)
def _(e: ev.AttackCardRevealed, tx: Tx) -> None:
    card = tx.card(e.card)
    card["face"] = "up"
    card["known"] = list(SEATS)
    f = tx.top("fight")
    f["revealed"] = True
    f["stage"] = "revealed"
    tx.s["window"] = {"kind": "cost", "passed": []}


@_on(ev.MonsterCostModified)
def _(e: ev.MonsterCostModified, tx: Tx) -> None:
    tx.card(e.card)["cost_mod"] = e.cost
    _touch_window(tx)


@_on(ev.CheatingChecked)
def _(e: ev.CheatingChecked, tx: Tx) -> None:
    tx.top("fight")["stage"] = "checked"
    tx.s["window"] = None


@_on(ev.CaughtCheating)
def _(e: ev.CaughtCheating, tx: Tx) -> None:
    tx.seat(e.player)["caught_cheating"] = True
    tx.top("fight")["stage"] = "caught"


@_on(ev.MonsterHired)
def _(e: ev.MonsterHired, tx: Tx) -> None:
    f = tx.top("fight")
    f["hired"] = True
    f["stage"] = "hired"
    f["monster"] = {"power": e.power, "life": e.life}
    tx.s["window"] = {"kind": "hire", "passed": []}


@_on(ev.HireGoldSpent)
def _(e: ev.HireGoldSpent, tx: Tx) -> None:
    f = tx.top("fight")
    f["gold"] = max(0, f["gold"] - e.amount)
    f["stage"] = "striking"
    tx.s["window"] = None


@_on(ev.CommittedGoldReturned)
def _(e: ev.CommittedGoldReturned, tx: Tx) -> None:
    tx.seat(e.player)["gold"] += e.amount
    if tx.s.get("fight") is not None:
        f = tx.top("fight")
        f["gold"] = max(0, f["gold"] - e.amount)


@_on(ev.DamageDealt)
def _(e: ev.DamageDealt, tx: Tx) -> None:
    if e.amount > 0 and e.target in tx.s["cards"]:
        tx.card(e.target)["damage"] += e.amount
    f = tx.s.get("fight")
    if f is not None and e.kind == "combat" and e.target == f.get("card"):
        tx.top("fight")["stage"] = "weapons_struck"


@_on(ev.DamageAllocated)
def _(e: ev.DamageAllocated, tx: Tx) -> None:
    for cid, amount in e.allocation.items():
        target = tx.s["seats"][e.player]["hero"] if cid == "hero" else cid
        if amount > 0 and target in tx.s["cards"]:
            tx.card(target)["damage"] += amount
    if tx.s.get("fight") is not None:
        tx.top("fight")["stage"] = "allocated"


@_on(ev.Healed)
def _(e: ev.Healed, tx: Tx) -> None:
    card = tx.card(e.target)
    card["damage"] = max(0, card["damage"] - e.amount)


@_on(ev.GoldStolen)
def _(e: ev.GoldStolen, tx: Tx) -> None:
    src = tx.seat(e.from_player)
    amount = min(e.amount, src["gold"])
    src["gold"] -= amount
    tx.seat(e.to_player)["gold"] += amount


@_on(ev.GoldTaken)
def _(e: ev.GoldTaken, tx: Tx) -> None:
    tx.seat(e.player)["gold"] += e.amount


@_on(ev.TokensCollected)
def _(e: ev.TokensCollected, tx: Tx) -> None:
    tx.card(e.card)["tokens"] += e.amount


@_on(ev.CardStuck)
def _(e: ev.CardStuck, tx: Tx) -> None:
    tx.remove_from_zone(e.card)
    card = tx.card(e.card)
    card.update(zone="stuck", face="up", host=e.host, known=list(SEATS))
    host = tx.card(e.host)
    host["stuck"] = [*host["stuck"], e.card]


@_on(ev.CardStashed)
def _(e: ev.CardStashed, tx: Tx) -> None:
    tx.move(e.card, "stash", face=e.face)
    _forget_committed(tx, e.card)


@_on(ev.MonsterStashedFaceUp)
def _(e: ev.MonsterStashedFaceUp, tx: Tx) -> None:
    damage = tx.s["cards"][e.card]["damage"]
    tx.move(e.card, "stash", face="up")
    tx.card(e.card)["damage"] = damage


@_on(ev.CardsSpilled)
def _(e: ev.CardsSpilled, tx: Tx) -> None:
    for cid in e.cards:
        tx.move(cid, "discard")


@_on(ev.CardRevealed)
def _(e: ev.CardRevealed, tx: Tx) -> None:
    tx.card(e.card)["known"] = list(SEATS)


@_on(ev.CardRemoved)
def _(e: ev.CardRemoved, tx: Tx) -> None:
    tx.move(e.card, "removed")
    _forget_committed(tx, e.card)


@_on(ev.CardMoved)
def _(e: ev.CardMoved, tx: Tx) -> None:
    if e.to == "deck_bottom":
        tx.move(e.card, "deck", face="down", bottom=True)
    elif e.to == "deck_top":
        tx.move(e.card, "deck", face="down", bottom=False)
    else:
        tx.move(e.card, e.to, face=e.face)
    _forget_committed(tx, e.card)


def _forget_committed(tx: Tx, cid: str) -> None:
    """A card leaving the DMZ is no longer committed to the fight (RULES.md A.9)."""
    f = tx.s.get("fight")
    if f is None:
        return
    if f.get("card") == cid and tx.s["cards"][cid]["zone"] != "dmz":
        tx.top("fight")["card"] = None
    elif cid in f["defender_cards"] and tx.s["cards"][cid]["zone"] != "dmz":
        fight = tx.top("fight")
        fight["defender_cards"] = [x for x in fight["defender_cards"] if x != cid]


@_on(ev.FightEnded)
def _(e: ev.FightEnded, tx: Tx) -> None:
    tx.s["fight"] = None
    tx.s["window"] = None


@_on(ev.DefenderCardsReturned)
def _(e: ev.DefenderCardsReturned, tx: Tx) -> None:
    for cid in e.cards:
        zapped = tx.s["cards"][cid]["zapped"]
        tx.move(cid, "hoard")
        tx.card(cid)["zapped"] = zapped
    if tx.s.get("fight") is not None:
        tx.top("fight")["defender_cards"] = []


# ---------------------------------------------------------------------------- cooldown / end


@_on(ev.LevelIncreased)
def _(e: ev.LevelIncreased, tx: Tx) -> None:
    tx.seat(e.player)["level"] = e.level


@_on(ev.GoldRefilled)
def _(e: ev.GoldRefilled, tx: Tx) -> None:
    tx.seat(e.player)["gold"] += e.amount


@_on(ev.TurnEnded)
def _(e: ev.TurnEnded, tx: Tx) -> None:
    tx.s["step"] = "ended"
    for seat in SEATS:
        tx.seat(seat)["caught_cheating"] = False


@_on(ev.PlayerEliminated)
def _(e: ev.PlayerEliminated, tx: Tx) -> None:
    tx.seat(e.player)["eliminated"] = e.reason


@_on(ev.GameEnded)
def _(e: ev.GameEnded, tx: Tx) -> None:
    tx.s.update(status="finished", winner=e.winner, window=None)
