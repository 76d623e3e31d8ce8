"""The Munchkin CCG's state and its fold handlers (docs/rules.md A.3, A.4; see docs/rules.md).

The state follows the layout every ruleset shares (``domain.fold``) and adds the CCG's table:
``phase``/``step``, ``setup``, the ``dmz``, the ``fight``, the response ``window`` and the
ability ``stack``; each seat has ``hero``, ``level``, ``gold``, the Run Away ``marker`` and turn
flags; each card has ``zapped``, ``damage``, ``tokens``, ``stuck`` Curses, a ``host`` and
``cost_mod``. Importing this module registers a handler for each CCG event.

Knowledge (docs/rules.md A.4, D.7): each card instance has ``known`` — the seats that know its
identity. A card's owner always knows it (the owner holds the decklist). A card becomes known
to every seat when it is face up somewhere public or revealed; it becomes private to its owner
again when it enters a hand or a deck (the opponent can no longer tell it from the others);
a face-down stash keeps whatever knowledge the card had.

The deck's known order (docs/rules.md D.20): a seat's ``deck`` list is in physical order, index
0 on top, but only its ends can be known: ``deck_known_top`` counts the cards on top whose
order is known (``deck[:deck_known_top]``, put there by an effect) and ``deck_known_bottom``
those at the bottom (the list's last ones). The cards between are in no known order. Putting a
card on the top or the bottom counts it; a card leaving the deck uncounts it; a shuffle (a
mulligan) forgets both; when no unknown card is left between them, the whole deck is known
from the top (``deck_known_top`` is the deck's size, ``deck_known_bottom`` 0).
"""

from __future__ import annotations

from typing import Any

from domain.ccg import events as ev
from domain.ccg.cards import ability_index, effect_plan, is_unchecked
from domain.fold import CopyOnWriteState, game_header, handles

#: The CCG's two seats, in seating order.
SEATS = ("A", "B")
#: Each seat's card zones (the shared ``dmz``, ``hero`` and ``stuck`` are not among them).
ZONES = ("deck", "hand", "hoard", "stash", "discard", "removed")


def other(seat: str) -> str:
    """The opponent of ``seat`` in a two-player game."""
    return "B" if seat == "A" else "A"


#: The zones a card in play is in (:func:`in_play`; a stash or DMZ card only face up).
PLAY_ZONES = frozenset({"hero", "hoard", "stuck", "stash", "dmz"})
#: A level counter goes from 1 to 10 (docs/rules.md A.2, A.8).
MIN_LEVEL, MAX_LEVEL = 1, 10


def in_play(card: dict[str, Any]) -> bool:
    """docs/rules.md A.3: Heroes, hoard cards, face-up stash and DMZ cards are in play (a face-down
    attack card is not, until it is revealed)."""
    zone = card["zone"]
    if zone in ("hero", "hoard", "stuck"):
        return True
    return zone in ("stash", "dmz") and card["face"] == "up"


def next_step(s: dict[str, Any]) -> dict[str, Any] | None:
    """The effect the resolving ability must record next: the first step of its plan not yet
    done (docs/cards.md); ``None`` when nothing checked is resolving or its plan is done."""
    stack = s.get("stack")
    if not stack:
        return None
    plan = stack[-1].get("plan")
    done = int(stack[-1].get("done") or 0)
    return plan[done] if plan is not None and done < len(plan) else None


# ---------------------------------------------------------------------------- the deck's order


def known_top(s: dict[str, Any], seat: str) -> list[str]:
    """The cards known to be on top of ``seat``'s deck, the top one first (docs/rules.md D.20)."""
    st = s["seats"][seat]
    return list(st["zones"]["deck"][: st.get("deck_known_top", 0)])


def known_bottom(s: dict[str, Any], seat: str) -> list[str]:
    """The cards known to be at the bottom of ``seat``'s deck, the bottom one last (D.20)."""
    st = s["seats"][seat]
    deck = st["zones"]["deck"]
    return list(deck[len(deck) - st.get("deck_known_bottom", 0) :])


def takes_from_top(s: dict[str, Any], seat: str, cards: list[str]) -> bool:
    """Whether ``cards`` (distinct, all in ``seat``'s deck) can be the deck's top ``len(cards)``
    cards as far as the table knows (docs/rules.md D.20): the known top ones first, then any of
    the cards in no known order, the known bottom ones only once those are all taken."""
    st = s["seats"][seat]
    deck = st["zones"]["deck"]
    n, size = len(cards), len(deck)
    top, bottom = st.get("deck_known_top", 0), st.get("deck_known_bottom", 0)
    unknown_end = size - bottom  # positions top .. unknown_end - 1 are in no known order
    positions = {cid: i for i, cid in enumerate(deck)}
    taken = [positions[c] for c in cards if c in positions]
    if n <= top or n > unknown_end:
        return sorted(taken) == list(range(n))  # exactly the deck's first n cards
    return all(i < unknown_end for i in taken) and sum(1 for i in taken if i < top) == top


def drawable(s: dict[str, Any], seat: str) -> list[str]:
    """The cards of ``seat``'s deck a draw may take (docs/rules.md D.20): the known top card,
    else any card in no known order (never a known bottom card while those remain)."""
    st = s["seats"][seat]
    deck = st["zones"]["deck"]
    if st.get("deck_known_top", 0):
        return list(deck[:1])
    return list(deck[: max(1, len(deck) - st.get("deck_known_bottom", 0))])


def _deck_order(draft: CopyOnWriteState, owner: str, top: int, bottom: int) -> None:
    """Set ``owner``'s known top and bottom counts, settled: with no card of unknown place
    between them, the whole deck is known from the top (docs/rules.md D.20)."""
    size = len(draft.state["seats"][owner]["zones"]["deck"])
    if top + bottom >= size:
        top, bottom = size, 0
    st = draft.state["seats"][owner]
    if st.get("deck_known_top") != top or st.get("deck_known_bottom") != bottom:
        seat = draft.seat(owner)
        seat["deck_known_top"] = top
        seat["deck_known_bottom"] = bottom


def forget_deck_order(draft: CopyOnWriteState, owner: str) -> None:
    """A shuffle: nothing is known of the order of ``owner``'s deck (docs/rules.md D.20)."""
    _deck_order(draft, owner, 0, 0)


# ---------------------------------------------------------------------------- card movement


def remove_from_zone(draft: CopyOnWriteState, cid: str) -> None:
    """Take a card out of whatever list holds it (a zone, the DMZ, its host's Curses)."""
    card = draft.state["cards"][cid]
    zone = card["zone"]
    if zone == "dmz":
        dmz = draft.top("dmz")
        if cid in dmz:
            dmz.remove(cid)
    elif zone == "deck":
        owner = card["owner"]
        lst = draft.zone(owner, zone)
        if cid in lst:
            index = lst.index(cid)
            del lst[index]
            st = draft.state["seats"][owner]
            top, bottom = st.get("deck_known_top", 0), st.get("deck_known_bottom", 0)
            if index < top:
                top -= 1
            elif index >= len(lst) + 1 - bottom:
                bottom -= 1
            _deck_order(draft, owner, top, bottom)
    elif zone in ZONES:
        lst = draft.zone(card["owner"], zone)
        if cid in lst:
            lst.remove(cid)
    elif zone == "stuck":
        host = card.get("host")
        if host and host in draft.state["cards"]:
            hc = draft.card(host)
            hc["stuck"] = [x for x in hc["stuck"] if x != cid]


def move(
    draft: CopyOnWriteState, cid: str, zone: str, face: str = "up", bottom: bool = True
) -> None:
    """Move a card to its owner's ``zone`` (or the shared ``dmz``), applying A.3 side effects.

    Leaving play (or going face down) clears damage and tokens and sends stuck Curses to
    their owners' discards; knowledge follows the module docstring. A card put in a deck goes
    to its bottom (``bottom``) or its top, and that place is known (docs/rules.md D.20) until a
    shuffle (:func:`forget_deck_order`).
    """
    old = draft.state["cards"][cid]
    was_in_play = in_play(old)
    remove_from_zone(draft, cid)
    card = draft.card(cid)
    card["zone"] = zone
    card["face"] = face
    card["host"] = None
    if zone == "dmz":
        draft.top("dmz").append(cid)
    elif zone == "deck":
        owner = card["owner"]
        st = draft.state["seats"][owner]
        top, below = st.get("deck_known_top", 0), st.get("deck_known_bottom", 0)
        if bottom:
            draft.zone(owner, zone).append(cid)
            below += 1
        else:
            draft.zone(owner, zone).insert(0, cid)
            top += 1
        _deck_order(draft, owner, top, below)
    else:
        draft.zone(card["owner"], zone).append(cid)
    now_in_play = in_play(card)
    if (was_in_play and not now_in_play) or zone in ("hand", "deck", "discard", "removed"):
        leave_play(draft, cid)
    if zone in ("hand", "deck"):
        card["known"] = [card["owner"]]
        card["zapped"] = False
    elif face == "up":
        card["known"] = list(SEATS)
    if zone in ("discard", "removed", "stash"):
        card["zapped"] = False


def leave_play(draft: CopyOnWriteState, cid: str) -> None:
    """Strip tokens, damage and stuck Curses (docs/rules.md A.3 "leaves play")."""
    card = draft.card(cid)
    card["damage"] = 0
    card["tokens"] = 0
    card["cost_mod"] = None
    for curse in list(card["stuck"]):
        move(draft, curse, "discard")
    card["stuck"] = []


def _new_card(definition: dict[str, Any], owner: str, zone: str) -> dict[str, Any]:
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


# ---------------------------------------------------------------------------- fold handlers


@handles(ev.GameCreated)
def _(e: ev.GameCreated, draft: CopyOnWriteState) -> None:
    s = draft.state
    s.update(
        game_header(e),
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
        cards[hero["id"]] = _new_card(hero, seat, "hero")
        deck = []
        for d in spec["deck"]:
            cards[d["id"]] = _new_card(d, seat, "deck")
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
            "deck_known_top": 0,
            "deck_known_bottom": 0,
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


@handles(ev.OpeningHandDrawn)
def _(e: ev.OpeningHandDrawn, draft: CopyOnWriteState) -> None:
    for cid in e.cards:
        move(draft, cid, "hand")
    setup = draft.top("setup")
    if e.player not in setup["opened"]:
        setup["opened"] = [*setup["opened"], e.player]
    if set(setup["opened"]) >= set(SEATS):
        draft.state["step"] = "roll_first"


@handles(ev.FirstPlayerRolled)
def _(e: ev.FirstPlayerRolled, draft: CopyOnWriteState) -> None:
    setup = draft.top("setup")
    setup["rolls"] = dict(e.rolls)
    if not e.tie:
        a, b = e.rolls.get("A", 0), e.rolls.get("B", 0)
        setup["roll_winner"] = "A" if a > b else "B"
        draft.state["step"] = "choose_first"


@handles(ev.FirstPlayerChosen)
def _(e: ev.FirstPlayerChosen, draft: CopyOnWriteState) -> None:
    draft.top("setup")["first"] = e.first
    draft.state["step"] = "mulligan"


@handles(ev.GoldGranted)
def _(e: ev.GoldGranted, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["gold"] += e.amount


@handles(ev.MulliganTaken)
def _(e: ev.MulliganTaken, draft: CopyOnWriteState) -> None:
    for cid in e.returned:
        move(draft, cid, "deck")
    for cid in e.cards:
        move(draft, cid, "hand")
    forget_deck_order(draft, e.player)  # the hand was shuffled into the deck (A.7)
    draft.seat(e.player)["mulligan"] = "taken"
    setup = draft.top("setup")
    setup["decided"] = [*setup["decided"], e.player]


@handles(ev.MulliganDeclined)
def _(e: ev.MulliganDeclined, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["mulligan"] = "kept"
    setup = draft.top("setup")
    setup["decided"] = [*setup["decided"], e.player]


@handles(ev.TurnStarted)
def _(e: ev.TurnStarted, draft: CopyOnWriteState) -> None:
    s = draft.state
    s.update(status="playing", turn=e.turn, active=e.player, phase="warmup", step="flip")
    for seat in SEATS:
        st = draft.seat(seat)
        st["caught_cheating"] = False
        st["ran_this_turn"] = 0


@handles(ev.PhaseStarted)
def _(e: ev.PhaseStarted, draft: CopyOnWriteState) -> None:
    draft.state["phase"] = e.phase
    draft.state["step"] = e.step


@handles(ev.RunAwayMarkerFlipped)
def _(e: ev.RunAwayMarkerFlipped, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["marker"] = e.side
    if draft.state["phase"] == "warmup" and draft.state["step"] == "flip":
        draft.state["step"] = "unzap"


@handles(ev.CardsUnzapped)
def _(e: ev.CardsUnzapped, draft: CopyOnWriteState) -> None:
    for cid in e.cards:
        draft.card(cid)["zapped"] = False
    if draft.state["phase"] == "warmup":
        draft.state["step"] = "reckoning"


@handles(ev.StashUnstashed)
def _(e: ev.StashUnstashed, draft: CopyOnWriteState) -> None:
    for cid in e.cards:
        move(draft, cid, "hand")
    if draft.state["phase"] == "warmup":
        draft.state["step"] = "draw"


@handles(ev.CardDrawn)
def _(e: ev.CardDrawn, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    move(draft, e.card, "hand")


@handles(ev.LootPlayed, ev.LocationPlayed)
def _(e: ev.LootPlayed | ev.LocationPlayed, draft: CopyOnWriteState) -> None:
    move(draft, e.card, "hoard")


@handles(ev.AllyPlayed)
def _(e: ev.AllyPlayed, draft: CopyOnWriteState) -> None:
    st = draft.seat(e.player)
    st["gold"] = max(0, st["gold"] - e.gold_paid)
    move(draft, e.card, "hoard")


@handles(ev.CardSquished, ev.CardDiscarded, ev.MonsterDiscarded)
def _(e: ev.CardSquished | ev.CardDiscarded | ev.MonsterDiscarded, draft: CopyOnWriteState) -> None:
    event_moves(draft, e, e.card, "discard")


@handles(ev.CardZapped)
def _(e: ev.CardZapped, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    draft.card(e.card)["zapped"] = True


@handles(ev.CardUnzapped)
def _(e: ev.CardUnzapped, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    draft.card(e.card)["zapped"] = False


@handles(ev.MischiefPlayed)
def _(e: ev.MischiefPlayed, draft: CopyOnWriteState) -> None:
    st = draft.seat(e.player)
    st["gold"] = max(0, st["gold"] - e.gold_paid)
    if e.give_blood:
        hero = draft.card(st["hero"])
        hero["damage"] += e.give_blood
    move(draft, e.card, "dmz")
    d = draft.state["cards"][e.card]["def"]
    played = ability_index(d, "played")
    ability = played[0] if played else None
    plan = (
        effect_plan(d, ability, e.give_blood) if played else ([] if not is_unchecked(d) else None)
    )
    push_stack_entry(
        draft,
        draft.state["version"] + 1,
        e.card,
        e.player,
        "mischief",
        e.targets,
        extra=_plan_fields(ability, plan, e.unchecked),
    )
    touch_window(draft)


@handles(ev.AbilityActivated)
def _(e: ev.AbilityActivated, draft: CopyOnWriteState) -> None:
    card = draft.state["cards"][e.card]
    if card["zone"] == "hand" and card["def"]["keywords"].get("flaunt"):
        # Flaunt: the card is shown to the opponent to be used from the hand (docs/rules.md
        # A.12). Any other card used from the hand or face down (record mode's rule/not_in_play)
        # keeps its knowledge: the log cannot tell that the table saw it.
        draft.card(e.card)["known"] = list(SEATS)
    st = draft.seat(e.player)
    costs = e.costs
    gold = int(costs.get("gold") or 0)
    st["gold"] = max(0, st["gold"] - gold)
    if costs.get("zap"):
        draft.card(e.card)["zapped"] = True
    blood = int(costs.get("give_blood") or 0)
    if blood:
        draft.card(st["hero"])["damage"] += blood
    for cid in costs.get("discard") or []:
        move(draft, cid, "discard")
    plan = effect_plan(draft.state["cards"][e.card]["def"], e.ability, blood)
    push_stack_entry(
        draft,
        draft.state["version"] + 1,
        e.card,
        e.player,
        "ability",
        e.targets,
        extra=_plan_fields(e.ability, plan, e.unchecked),
    )
    touch_window(draft)


@handles(ev.AbilityTriggered)
def _(e: ev.AbilityTriggered, draft: CopyOnWriteState) -> None:
    plan = effect_plan(draft.state["cards"][e.card]["def"], e.ability)
    push_stack_entry(
        draft,
        draft.state["version"] + 1,
        e.card,
        e.player,
        e.trigger,
        e.targets,
        extra=_plan_fields(e.ability, plan, plan is None),
    )
    touch_window(draft)
    fight = draft.state.get("fight")
    if fight is not None:
        f = draft.top("fight")
        f["triggered"] = [*(f.get("triggered") or []), f"{e.card}:{e.ability}"]
        if e.trigger in ("end_of_fight", "survivor"):
            f["stage"] = "ending"


def _plan_fields(ability: int | None, plan: list[Any] | None, unchecked: bool) -> dict[str, Any]:
    """A stack entry's ability: its index, the effects its resolution records (``plan``, or
    ``None`` when unchecked), how many are ``done``, and the ``unchecked`` mark."""
    return {
        "ability": ability,
        "plan": plan,
        "done": 0,
        "unchecked": bool(unchecked or plan is None),
    }


def advance(draft: CopyOnWriteState, e: ev.Event) -> None:
    """An effect command recorded by the controller of the resolving ability is its next step
    (docs/rules.md A.11): count it."""
    stack = draft.state.get("stack")
    if stack and e.seat == stack[-1]["player"]:
        top = draft.top("stack")
        top[-1] = {**top[-1], "done": int(top[-1].get("done") or 0) + 1}


@handles(ev.DamageAnnounced)
def _(e: ev.DamageAnnounced, draft: CopyOnWriteState) -> None:
    if e.reason == "strike" and draft.state.get("fight") is not None:
        f = draft.top("fight")
        f["announced"] = {"amount": e.amount, "prevented": 0}
        f["stage"] = "allocating" if e.target is None else "striking"
    draft.state["window"] = {
        "kind": "damage",
        "passed": [],
        "damage": {
            "target": e.target,
            "amount": e.amount,
            "prevented": 0,
            "reason": e.reason,
            "source": e.source,
        },
    }


@handles(ev.DamagePrevented)
def _(e: ev.DamagePrevented, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    window = draft.state.get("window")
    if window is not None and window.get("damage"):
        w = draft.top("window")
        w["damage"] = {**w["damage"], "prevented": w["damage"]["prevented"] + e.amount}
        w["passed"] = []
    elif len(draft.state["stack"]) >= 2:
        # Against the ability it interrupts: its next damage effect is that much less (D.22).
        stack = draft.top("stack")
        below = stack[-2]
        stack[-2] = {**below, "prevented": int(below.get("prevented") or 0) + e.amount}
        return
    fight = draft.state.get("fight")
    if fight is not None and fight.get("announced") is not None:
        f = draft.top("fight")
        f["announced"] = {**f["announced"], "prevented": f["announced"]["prevented"] + e.amount}


@handles(ev.TriggerTargeted)
def _(e: ev.TriggerTargeted, draft: CopyOnWriteState) -> None:
    stack = draft.state["stack"]
    if stack and stack[-1]["ref"] == e.ref:
        top = draft.top("stack")
        top[-1] = {**top[-1], "targets": list(e.targets)}
    touch_window(draft)


@handles(ev.AbilityCanceled)
def _(e: ev.AbilityCanceled, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    stack = draft.top("stack")
    for i, entry in enumerate(stack):
        if entry["ref"] == e.ref:
            stack[i] = {**entry, "canceled": True}


@handles(ev.AbilityResolved)
def _(e: ev.AbilityResolved, draft: CopyOnWriteState) -> None:
    stack = draft.top("stack")
    entry = None
    for i in range(len(stack) - 1, -1, -1):
        if stack[i]["ref"] == e.ref:
            entry = stack.pop(i)
            break
    if entry is not None and entry["kind"] == "mischief":
        card = draft.state["cards"][entry["card"]]
        # A Curse stuck by a CardStuck effect has left the DMZ; anything still there goes on.
        if card["zone"] == "dmz":
            if "encore" in card["def"]["keywords"]:
                move(draft, entry["card"], "stash", face="down")
            else:
                move(draft, entry["card"], "discard")
    touch_window(draft)


@handles(ev.PriorityPassed)
def _(e: ev.PriorityPassed, draft: CopyOnWriteState) -> None:
    if draft.state["window"] is not None:
        w = draft.top("window")
        w["passed"] = sorted({*w["passed"], e.player})


@handles(ev.ResponseWindowClosed)
def _(e: ev.ResponseWindowClosed, draft: CopyOnWriteState) -> None:
    draft.state["window"] = None


def push_stack_entry(
    draft: CopyOnWriteState,
    ref: int,
    card: str,
    player: str,
    kind: str,
    targets: list[str],
    *,
    canceled: bool = False,
    extra: dict[str, Any] | None = None,
) -> None:
    """Put an ability (``kind="ability"``) or a Mischief on top of the stack (docs/rules.md A.11);
    ``ref`` is the version of the event that put it there."""
    entry = {
        "ref": ref,
        "card": card,
        "player": player,
        "kind": kind,
        "targets": list(targets),
        "canceled": canceled,
        **(extra or {}),
    }
    draft.top("stack").append(entry)


def touch_window(draft: CopyOnWriteState) -> None:
    """Any action in an open window means both players must pass again (docs/rules.md A.11)."""
    if draft.state.get("window") is not None:
        w = draft.top("window")
        w["passed"] = []


def event_moves(
    draft: CopyOnWriteState, e: ev.Event, cid: str, zone: str, face: str = "up", bottom: bool = True
) -> None:
    """The fold of an event that moves card ``cid`` (:func:`move`): a step of the resolving
    ability when its controller recorded it (:func:`advance`), and the card leaves the fight's
    commitments (:func:`forget_committed`)."""
    advance(draft, e)
    move(draft, cid, zone, face=face, bottom=bottom)
    forget_committed(draft, cid)


def forget_committed(draft: CopyOnWriteState, cid: str) -> None:
    """A card leaving the DMZ is no longer committed to the fight (docs/rules.md A.9)."""
    f = draft.state.get("fight")
    if f is None:
        return
    if f.get("card") == cid and draft.state["cards"][cid]["zone"] != "dmz":
        draft.top("fight")["card"] = None
    elif cid in f["defender_cards"] and draft.state["cards"][cid]["zone"] != "dmz":
        fight = draft.top("fight")
        fight["defender_cards"] = [x for x in fight["defender_cards"] if x != cid]


# ---------------------------------------------------------------------------- cooldown / end


@handles(ev.LevelIncreased)
def _(e: ev.LevelIncreased, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["level"] = e.level


@handles(ev.LevelGained, ev.LevelLost)
def _(e: ev.LevelGained | ev.LevelLost, draft: CopyOnWriteState) -> None:
    advance(draft, e)
    draft.seat(e.player)["level"] = e.level


@handles(ev.GoldRefilled)
def _(e: ev.GoldRefilled, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["gold"] += e.amount


@handles(ev.TurnEnded)
def _(e: ev.TurnEnded, draft: CopyOnWriteState) -> None:
    draft.state["step"] = "ended"
    for seat in SEATS:
        draft.seat(seat)["caught_cheating"] = False


@handles(ev.PlayerEliminated)
def _(e: ev.PlayerEliminated, draft: CopyOnWriteState) -> None:
    draft.seat(e.player)["eliminated"] = e.reason


@handles(ev.GameEnded)
def _(e: ev.GameEnded, draft: CopyOnWriteState) -> None:
    draft.state.update(status="finished", winner=e.winner, window=None)
