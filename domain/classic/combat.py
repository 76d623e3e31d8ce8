"""Combat: the pass window, winning, rewards, running away, Bad Stuff, death (B.5-B.9).

The engine's own steps (a won combat's levels, the end of a combat, a death, the next phase)
are emitted by the rules (``actor="rules"``) right after the command that causes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.arguments import ids_arg, int_arg, str_arg
from domain.classic import events as ev
from domain.classic.rules import (
    MAX_LEVEL,
    alive,
    can_chase,
    card_def,
    fighters,
    has_power,
    player_wins,
    reward_levels,
    reward_treasures,
    run_modifier,
    strengths,
)
from domain.classic.sets import SETS
from domain.decision import Command, DecisionCore
from domain.errors import InvalidCommand
from domain.fair import DICE, RandomUse, deal_use

RULES = "rules"
#: The name of each deck's pile in a server-dealt game's ``Dealt`` events (docs/rules.md E.1).
PILES = {"door": "doors", "treasure": "treasures"}


def dealt(d: DecisionCore, deck: str, n: int) -> list[str]:
    """``n`` cards of ``deck`` as the server deals them (docs/rules.md B.1, E.1): the deck's
    cards are in no known order, so each draw is a pick by the game's key (a ``Dealt`` event).
    A deck holding fewer gives every card it has (no chance in that), then its discards are
    shuffled into a new deck (``DiscardReshuffled``, as at the table) and the rest is drawn
    from them. Fewer than ``n`` when the discards run out too (the caller checks)."""
    rest, pile, take = deck_draw(d.state, deck, n)
    if len(d.state["decks"][deck]) < n:  # the deck holds fewer: its discards become a new deck
        discards = d.state["decks"][f"{deck}_discard"]
        if discards:
            d.emit(ev.DiscardReshuffled, actor=RULES, deck=deck, cards=list(discards))
    return [*rest, *(d.deal(PILES[deck], pile, take) if take else [])]


def deck_draw(s: Mapping[str, Any], deck: str, n: int) -> tuple[list[str], list[str], int]:
    """A draw of ``n`` cards of ``deck`` (docs/rules.md B.1, E.1): the cards it takes without
    chance (all the deck holds, when that is fewer than ``n``), the cards in no known order it
    takes the others from (the deck, or then its discards, shuffled into a new deck), and how
    many of those it takes by chance."""
    held = list(s["decks"][deck])
    if len(held) >= n:
        return [], held, n
    discards = list(s["decks"][f"{deck}_discard"])
    return held, discards, min(n - len(held), len(discards))


#: Classic's draws by event type: ``(deck, field)``, each field holding cards of that deck
#: (``None``: the deck the event's own ``deck`` names).
DRAWS: dict[str, tuple[tuple[str | None, str], ...]] = {
    "CardsDealt": (("door", "doors"), ("treasure", "treasures")),
    "DoorKicked": (("door", "card"),),
    "ListenedAtDoor": (("door", "card"),),
    "RoomLooted": ((None, "card"),),
    "TreasuresDrawn": (("treasure", "cards"),),
}
#: Classic's events that hold a die the server rolled.
ROLLS = frozenset({"FirstPlayerDetermined", "RunAwayRolled", "TheftAttempted"})


def random_uses(s: Mapping[str, Any], data: Mapping[str, Any]) -> list[RandomUse]:
    """What a classic event takes by chance in a server-dealt game (``Family.random_uses``):
    each deck it draws from, the cards there in no known order (a deck holding fewer than the
    draw: its discards, reshuffled), and each roll's dice."""
    kind = str(data.get("type"))
    if kind in ROLLS:
        return [DICE]
    uses = []
    for deck, name in DRAWS.get(kind, ()):
        deck = deck or data.get("deck")
        if not isinstance(deck, str) or deck not in PILES:
            continue
        drawn = data.get(name)
        n = 1 if isinstance(drawn, str) else len(drawn) if isinstance(drawn, list) else 0
        _, pile, take = deck_draw(s, deck, n)
        uses.append(deal_use(PILES[deck], pile, take))
    return uses


def available(d: DecisionCore, deck: str, n: int) -> None:
    """A server's draw of ``n`` cards of ``deck`` needs them in the deck or its discards."""
    decks = d.state["decks"]
    d.require(
        len(decks[deck]) + len(decks[f"{deck}_discard"]) >= n,
        "command/empty_deck",
        f"the {deck} deck and its discards hold fewer than {n} cards",
    )


def drawable(d: DecisionCore, deck: str, ids: list[str]) -> None:
    """Every card of ``ids`` is in ``deck``; an empty deck is first rebuilt from its discards
    (docs/rules.md B.1). Naming a card nobody could draw is impossible."""
    pile = d.state["decks"][deck]
    missing = [c for c in ids if c not in pile]
    if missing and len(pile) < len(ids):
        discards = d.state["decks"][f"{deck}_discard"]
        if set(missing) <= set(discards):
            d.emit(ev.DiscardReshuffled, actor=RULES, deck=deck, cards=list(discards))
            pile = d.state["decks"][deck]
    for cid in ids:
        d.card(cid)
        d.require(cid in pile, "command/card_not_there", f"{cid!r} is not in the {deck} deck")


def in_fight(d: DecisionCore) -> dict[str, Any] | None:
    c: dict[str, Any] | None = d.state.get("combat")
    return c if c is not None and c["stage"] == "fight" else None


def check_fight(d: DecisionCore, what: str, section: str) -> dict[str, Any]:
    """The combat, in its fight stage: ``what`` needs one (physically: a combat at all)."""
    c = d.state.get("combat")
    d.require(c is not None, "command/no_combat", f"{what} needs a combat; there is none")
    assert c is not None
    d.check(c["stage"] == "fight", "rule/combat_decided", f"{what}: the combat is decided", section)
    result: dict[str, Any] = c
    return result


# ============================================================================ effects (B.9, B.10)


def apply_effects(
    d: DecisionCore,
    victim: str,
    effects: Sequence[Mapping[str, Any]],
    choices: list[str],
    section: str,
    *,
    prefer: bool = False,
) -> tuple[list[str], int, list[str], bool]:
    """``(lost cards, levels lost, discarded hand, dies)`` of ``effects`` on ``victim``, the
    victim choosing among several qualifying cards with ``choices`` in order (B.9).

    ``prefer``: the choices were named before the card was known (a Curse from a door the
    server deals, docs/rules.md E.1), so they are preferences: the first of them that
    qualifies, else the first qualifying card (equipped, then carried); never a refusal."""
    st = d.state["seats"][victim]
    zones = st["zones"]
    lost: list[str] = []
    levels, hand, dies = 0, [], False
    for effect in effects:
        ((name, arg),) = effect.items()
        if name == "lose_levels":
            levels = min(st["level"] - 1, levels + int(arg))
        elif name == "discard_hand":
            hand = list(zones["hand"])
        elif name == "die":
            dies = True
        else:
            if name == "lose_item":
                pool = [*zones["equipped"], *zones["carried"]]
                if arg == "big":
                    pool = [c for c in pool if card_def(d.state, c).get("big")]
                elif arg not in ("any", "all"):
                    pool = [c for c in zones["equipped"] if card_def(d.state, c).get("slot") == arg]
            else:
                pool = list(zones[str(arg)])
            pool = [c for c in pool if c not in lost]
            if arg == "all":
                lost.extend(pool)
            elif len(pool) == 1:
                lost.append(pool[0])
            elif pool and prefer:
                chosen = next((c for c in choices if c in pool), pool[0])
                if chosen in choices:
                    choices.remove(chosen)
                lost.append(chosen)
            elif pool:
                if not choices:
                    raise InvalidCommand(
                        "request/missing_choice",
                        f"{victim} must choose which card {name} {arg} takes: one of "
                        + ", ".join(pool),
                        {"choices": pool},
                    )
                chosen = choices.pop(0)
                owned = d.card(chosen)
                d.require(
                    owned["owner"] == victim and owned["zone"] in ("equipped", "carried", str(arg)),
                    "command/card_not_there",
                    f"{chosen!r} is not {victim}'s card in play",
                )
                d.check(
                    chosen in pool,
                    "rule/wrong_choice",
                    f"{chosen!r} does not qualify for {name} {arg}",
                    section,
                )
                lost.append(chosen)
    return lost, max(0, levels), [c for c in hand if c not in lost], dies


def suffer(
    d: DecisionCore,
    victim: str,
    effects: Sequence[Mapping[str, Any]],
    choices: list[str],
    section: str,
    record: type[ev.Event],
    /,
    *,
    prefer: bool = False,
    **fields: Any,
) -> None:
    """``victim`` suffers ``effects`` (:func:`apply_effects`), recorded as a ``record`` event
    with ``fields`` and what they lose (``lost``, ``levels``, ``hand``): a monster's Bad Stuff,
    the hurt on escaping it, a Curse; a death follows when they kill (docs/rules.md B.8-B.10)."""
    lost, levels, hand, dies = apply_effects(d, victim, effects, choices, section, prefer=prefer)
    d.emit(record, **fields, lost=lost, levels=levels, hand=hand)
    if dies:
        die(d, victim)


def die(d: DecisionCore, seat: str) -> None:
    """``seat`` dies: its hand and Items are laid out and looted in level order (B.9, D.C14)."""
    zones = d.state["seats"][seat]["zones"]
    body = [*zones["hand"], *zones["equipped"], *zones["carried"], *zones["helpers"]]
    seats = list(d.state["seats"])
    i = seats.index(seat)
    left_of = seats[i + 1 :] + seats[:i]
    others = [s for s in left_of if s in alive(d.state)]
    order = sorted(others, key=lambda s: -d.state["seats"][s]["level"])
    c = d.state.get("combat")
    helped = c is not None and c["helper"] == seat
    d.emit(ev.PlayerDied, actor=RULES, player=seat, body=body, order=order)
    if not body or not order:
        d.emit(ev.BodyDiscarded, actor=RULES, dead=seat, cards=list(d.state["body"]["cards"]))
    if helped:  # the dead helper's "next combat" Curses took effect in this one (B.10)
        expire_curses(d, [seat])
    c = d.state.get("combat")
    if c is None or c["player"] != seat:
        return
    if c["stage"] == "run_away" and c["helper"] in alive(d.state):
        finish_run(d)  # the helper still runs: only the dead need not (B.8, D.C5)
    else:
        end_combat(d, "died")  # the rest of the combat is skipped (D.C5)


# ============================================================================ ending a combat


def expire_curses(d: DecisionCore, seats: Sequence[str]) -> None:
    """The "next combat" Curses of ``seats`` took effect in the combat now over (B.10)."""
    for seat in seats:
        for cid in d.state["seats"][seat]["zones"]["curses"]:
            if card_def(d.state, cid).get("next_combat"):
                d.emit(ev.CurseExpired, actor=RULES, player=seat, card=cid)


def end_combat(d: DecisionCore, outcome: str) -> None:
    c = d.state["combat"]
    ids: list[str] = []
    for e in [*c["monsters"], *c["removed"]]:
        ids += [e["card"], *e["enhancers"]]
    ids += [s["card"] for s in c["one_shots"]]
    d.emit(ev.CombatEnded, actor=RULES, player=c["player"], outcome=outcome, discarded=ids)
    expire_curses(d, fighters(c))
    if d.state["active"] == c["player"] and d.state["status"] == "playing":
        d.emit(ev.PhaseEntered, actor=RULES, player=c["player"], phase="charity")


def win(d: DecisionCore) -> None:
    """The player's side won (B.5): levels per kill, Level 10 wins (B.16), then rewards."""
    c = d.state["combat"]
    rules = SETS[d.state["ruleset"]]
    player, monster = strengths(d.state, c)
    killed = c["monsters"]
    treasures = reward_treasures(d.state, killed)
    if rules.non_lethal_treasure:
        treasures += reward_treasures(d.state, c["removed"])
    d.emit(
        ev.CombatWon,
        actor=RULES,
        player=c["player"],
        helper=c["helper"],
        killed=[e["card"] for e in killed],
        player_strength=player,
        monster_strength=monster,
        treasures=treasures,
    )
    gains = [(c["player"], reward_levels(d.state, killed), "kill")]
    helper_levels = has_power(d.state, c["helper"], "helper_levels") if c["helper"] else None
    if helper_levels and killed:  # "one level for each monster slain": a Mate's copy too (B.6)
        slain = sum(1 + e["copies"] for e in killed)
        gains.append((c["helper"], int(helper_levels) * slain, "helper"))
    winners = []
    for seat, levels, reason in gains:
        level = d.state["seats"][seat]["level"]
        new = min(MAX_LEVEL, level + levels)
        if new > level:
            d.emit(
                ev.LevelsGained,
                actor=RULES,
                player=seat,
                levels=new - level,
                level=new,
                reason=reason,
            )
        if new == MAX_LEVEL:
            winners.append(seat)
    if winners:
        reason = "level_10_by_a_kill"
        if d.state["options"].get("shared_victory") and c["helper"] and c["player"] in winners:
            if c["helper"] not in winners:  # the helper wins whatever its level (B.15)
                reason = "shared_victory"
            winners = sorted(set(winners) | {c["helper"]}, key=list(d.state["seats"]).index)
        d.emit(ev.GameWon, actor=RULES, winners=winners, reason=reason)
        return
    if treasures == 0:
        end_combat(d, "won" if killed else "removed")


def settle(d: DecisionCore) -> None:
    """After a pass: when every other living player has passed on the combat as it stands
    and the player's side wins, the combat is won (docs/rules.md B.5, D.C1)."""
    c = in_fight(d)
    if c is None:
        return
    if not c["monsters"]:
        win(d)
        return
    others = [s for s in alive(d.state) if s != c["player"]]
    if set(others) <= set(c["passed"]) and player_wins(d.state, c):
        win(d)


def finish_run(d: DecisionCore) -> None:
    """The combat ends once every living fighter has rolled for every monster and every catch
    has had its Bad Stuff (docs/rules.md B.8): a player who died meanwhile rolls no more, its
    helper still does (DX *Running Away*: "they must both Run Away"; *Death*: "Once you have
    died, you don't have to Run Away"; D.C5)."""
    c = d.state.get("combat")
    if c is None or c["stage"] != "run_away" or c["caught"]:
        return
    monsters = [e["card"] for e in c["monsters"]]
    for seat in fighters(c):
        if seat in alive(d.state) and set(monsters) - set(c["runs"].get(seat, [])):
            return
    end_combat(d, "died" if d.state["seats"][c["player"]]["dead"] else "fled")


# ============================================================================ commands


def decide_pass(d: DecisionCore, command: Command) -> None:
    c = check_fight(d, "a pass", "B.5")
    d.check(d.seat != c["player"], "rule/own_combat", "the player in combat does not pass", "B.5")
    d.check(d.seat not in c["passed"], "rule/already_passed", f"{d.seat} already passed", "B.5")
    d.emit(ev.CombatPassed, player=d.seat)
    settle(d)


def decide_ask_help(d: DecisionCore, command: Command) -> None:
    c = check_fight(d, "asking for help", "B.7")
    helper = str_arg(command, "helper")
    d.require(helper in d.state["seats"], "command/unknown_seat", f"no seat {helper!r}")
    bribe = command.get("bribe")
    if bribe is not None and not isinstance(bribe, Mapping):
        raise InvalidCommand("request/invalid_bribe", "'bribe' is an object", {"bribe": ["object"]})
    d.check(d.seat == c["player"], "rule/not_your_combat", "only the player asks for help", "B.7")
    d.check(c["helper"] is None, "rule/already_helped", "one helper at most", "B.7")
    d.check(c["asked"] is None, "rule/help_pending", f"{c['asked']} has not answered yet", "B.7")
    ok = helper != c["player"] and helper in alive(d.state)
    d.check(ok, "rule/invalid_helper", f"{helper} cannot help (self, dead or out)", "B.7")
    d.emit(ev.HelpRequested, player=d.seat, helper=helper, bribe=dict(bribe) if bribe else None)


def decide_accept_help(d: DecisionCore, command: Command) -> None:
    c = check_fight(d, "helping", "B.7")
    d.require(c["asked"] == d.seat, "command/not_asked", f"{d.seat} was not asked to help")
    d.emit(ev.HelpAccepted, helper=d.seat)


def for_the_win(d: DecisionCore, c: Mapping[str, Any]) -> bool:
    """Whether the player's kill would take it to Level 10 (docs/rules.md D.C7)."""
    level = d.state["seats"][c["player"]]["level"]
    return bool(c["monsters"]) and level + reward_levels(d.state, c["monsters"]) >= MAX_LEVEL


def force_help(d: DecisionCore, command: Command, cid: str) -> None:
    """The player plays a card that compels ``target`` to help: never in a fight for the win
    (AoS *Asking For Help*; every set, docs/rules.md D.C7), otherwise as asking (B.7)."""
    c = check_fight(d, "forcing help", "B.7")
    helper = str_arg(command, "target")
    d.require(helper in d.state["seats"], "command/unknown_seat", f"no seat {helper!r}")
    d.check(d.seat == c["player"], "rule/not_your_combat", "only the player gets help", "B.7")
    d.check(c["helper"] is None, "rule/already_helped", "one helper at most", "B.7")
    d.check(c["asked"] is None, "rule/help_pending", f"{c['asked']} has not answered yet", "B.7")
    ok = helper != c["player"] and helper in alive(d.state)
    d.check(ok, "rule/invalid_helper", f"{helper} cannot help (self, dead or out)", "B.7")
    d.check(
        not for_the_win(d, c),
        "rule/help_for_the_win",
        "nobody is forced to help in a fight for the win",
        "D.C7",
    )
    d.emit(ev.HelpForced, player=d.seat, helper=helper, card=cid)


def decide_decline_help(d: DecisionCore, command: Command) -> None:
    """Decline when asked (B.7); or, as the helper, back out: only a forced helper, and only
    once the fight is for the win (docs/rules.md D.C7)."""
    c = check_fight(d, "declining", "B.7")
    if c["helper"] == d.seat and c["asked"] != d.seat:
        forced = c.get("forced") == d.seat
        d.check(forced, "rule/voluntary_helper", "a voluntary helper does not back out", "D.C7")
        d.check(
            for_the_win(d, c),
            "rule/not_for_the_win",
            "a forced helper backs out only of a fight for the win",
            "D.C7",
        )
        d.emit(ev.HelperReleased, helper=d.seat)
        settle(d)
        return
    d.require(c["asked"] == d.seat, "command/not_asked", f"{d.seat} was not asked to help")
    d.emit(ev.HelpDeclined, helper=d.seat)


def decide_run_away(d: DecisionCore, command: Command) -> None:
    server = d.dealt_by_server(command)  # docs/rules.md E.1
    c = d.state.get("combat")
    d.require(c is not None, "command/no_combat", "there is no combat to run from")
    assert c is not None
    monster = str_arg(command, "monster")
    roll = 0 if server else int_arg(command, "roll", lo=1, hi=6)
    choices = ids_arg(command, "choices", required=False)
    d.require(d.seat in fighters(c), "command/not_fighting", f"{d.seat} is not in the combat")
    d.require(
        monster in [e["card"] for e in c["monsters"]],
        "command/card_not_there",
        f"{monster!r} is not a monster in this combat",
    )
    d.refuse(c["stage"] != "treasure", "combat_decided", "the combat is won", "B.8")
    if c["stage"] == "fight":  # either fighter may run first: their choice (B.8)
        d.check(not player_wins(d.state, c), "rule/winning_combat", "you are winning: fight", "B.8")
    d.check(
        monster not in c["runs"].get(d.seat, []),
        "rule/already_ran",
        f"{d.seat} already rolled against {monster}",
        "B.8",
    )
    owed = [m for s, m in c["caught"] if s == d.seat]
    d.check(  # "suffer Bad Stuff from each one that catches you as soon as it catches you"
        not owed,
        "rule/bad_stuff_first",
        f"{d.seat} suffers the Bad Stuff of {', '.join(owed)} before rolling again",
        "B.8",
    )
    modifier = run_modifier(d.state, d.seat, monster)
    hurts = card_def(d.state, monster).get("escape_bad_stuff") or []
    if server:
        if hurts:  # the choices an escape's hurt takes, checked before the die is cast: a
            # refusal after it would tell the roll (docs/rules.md E.1)
            apply_effects(DecisionCore(d.state, command), d.seat, hurts, list(choices), "B.8")
        (roll,) = d.roll(6, 1)
    escaped = roll + modifier >= 5
    d.emit(
        ev.RunAwayRolled,
        player=d.seat,
        monster=monster,
        roll=roll,
        modifier=modifier,
        escaped=escaped,
    )
    if escaped and hurts:  # some monsters hurt even those who escape (B.8)
        suffer(d, d.seat, hurts, choices, "B.8", ev.HurtOnEscape, player=d.seat, monster=monster)
    finish_run(d)


def decide_chase_away(d: DecisionCore, command: Command) -> None:
    """A fighter (the player or the helper) whose trait the monster's card names
    (``chased_by``) chases it away: the monster's vulnerability applies to the helper too
    (docs/rules.md B.7). A non-lethal removal: no level, Treasure as the set says (B.6, D.C2)."""
    c = check_fight(d, "chasing a monster away", "B.7")
    monster = str_arg(command, "monster")
    d.require(
        monster in [e["card"] for e in c["monsters"]],
        "command/card_not_there",
        f"{monster!r} is not a monster in this combat",
    )
    d.require(d.seat in fighters(c), "command/not_fighting", f"{d.seat} is not in the combat")
    trait = can_chase(d.state, d.seat, monster)
    named = ", ".join(card_def(d.state, monster).get("chased_by") or ()) or "no trait"
    d.check(trait is not None, "rule/cannot_chase", f"{monster!r} is chased away by {named}", "B.7")
    d.emit(ev.MonsterChasedAway, by=d.seat, monster=monster, trait=trait or "")
    if not d.state["combat"]["monsters"]:
        win(d)  # the last monster gone: the combat ends at once (docs/rules.md B.6)


def decide_bad_stuff(d: DecisionCore, command: Command) -> None:
    c = d.state.get("combat")
    monster = str_arg(command, "monster")
    choices = ids_arg(command, "choices", required=False)
    d.require(
        c is not None and [d.seat, monster] in c["caught"],
        "command/not_caught",
        f"{monster!r} did not catch {d.seat}",
    )
    effects = card_def(d.state, monster).get("bad_stuff") or []
    suffer(d, d.seat, effects, choices, "B.9", ev.BadStuffApplied, player=d.seat, monster=monster)
    finish_run(d)


def decide_take_treasure(d: DecisionCore, command: Command) -> None:
    server = d.dealt_by_server(command)  # docs/rules.md E.1
    cards = [] if server else ids_arg(command, "cards")
    c = d.state.get("combat")
    d.require(
        c is not None and c["stage"] == "treasure", "command/no_treasure", "no Treasure to take"
    )
    assert c is not None
    d.check(d.seat == c["player"], "rule/not_your_combat", "the player draws the Treasure", "B.7")
    decks = d.state["decks"]
    due = min(c["treasures"], len(decks["treasure"]) + len(decks["treasure_discard"]))  # D.C4
    if server:
        cards = dealt(d, "treasure", due)
    d.check(
        len(cards) == due,
        "rule/treasure_count",
        f"the combat gives {due} Treasures, not {len(cards)}",
        "B.7",
    )
    drawable(d, "treasure", cards)
    face = "up" if c["helper"] else "down"
    d.emit(ev.TreasuresDrawn, player=d.seat, cards=cards, face=face)
    end_combat(d, "won" if c["monsters"] else "removed")


def decide_loot_body(d: DecisionCore, command: Command) -> None:
    cid = str_arg(command, "card")
    body = d.state.get("body")
    d.require(body is not None, "command/no_body", "there is no body to loot")
    assert body is not None
    d.require(cid in body["cards"], "command/card_not_there", f"{cid!r} is not on the body")
    first = body["order"][0] if body["order"] else None
    d.check(d.seat == first, "rule/not_your_pick", f"it is {first}'s pick", "B.9")
    d.emit(ev.BodyLooted, picker=d.seat, dead=body["dead"], card=cid)
    body = d.state["body"]
    if not body["cards"] or not body["order"]:
        d.emit(ev.BodyDiscarded, actor=RULES, dead=body["dead"], cards=list(body["cards"]))
