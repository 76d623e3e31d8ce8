"""Playing cards (docs/rules.md B.3, B.11-B.14); the turn itself is :mod:`domain.classic.turns`.

Each ``decide_*`` function checks one command and emits its events (and the engine's steps
that follow) on a :class:`~domain.decision.DecisionCore`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from domain.arguments import ids_arg, int_arg, str_arg
from domain.classic import events as ev
from domain.classic.combat import (
    RULES,
    check_fight,
    finish_run,
    force_help,
    in_fight,
    suffer,
    win,
)
from domain.classic.rules import (
    card_def,
    card_traits,
    cheated,
    fighters,
    hands_used,
    has_power,
    is_item,
    player_wins,
    usable_by,
)
from domain.classic.sets import SETS
from domain.decision import Command, DecisionCore
from domain.errors import InvalidCommand

SELL_PRICE = 1000


# ============================================================================ shared checks


def own_turn(d: DecisionCore, what: str) -> None:
    d.check(
        d.state["active"] == d.seat,
        "rule/not_your_turn",
        f"{what} only on your own turn; it is {d.state['active']}'s",
        "B.14",
    )


def own_turn_or_received(d: DecisionCore, cid: str, what: str) -> None:
    """``what`` (a card put in play) on one's own turn, or at any time the card was just
    received: it came to the hand from another seat, a body or charity during this turn (DX
    and AoS *When You May Take Actions*: "Play a card that you have just received"; *Rewards*:
    "Treasure cards can be played as soon as you get them, even if you are the helper";
    docs/rules.md B.14). Setup has no turns."""
    if d.state["status"] == "setup" or cid in (d.state.get("got") or ()):
        return
    own_turn(d, what)


def fighting(d: DecisionCore, seat: str) -> bool:
    c = d.state.get("combat")
    return c is not None and seat in fighters(c)


def no_combat(d: DecisionCore, what: str, section: str = "B.14") -> None:
    d.check(d.state.get("combat") is None, "rule/in_combat", f"{what} not during a combat", section)


def not_fighting(d: DecisionCore, what: str) -> None:
    """``what`` not while the seat is in combat, as the player or the helper: another seat's
    combat does not stop it (DX and AoS *When You May Take Actions*: "at any time, as long as
    you are not in combat: … Play a card that you have just received"; docs/rules.md D.C21)."""
    d.check(not fighting(d, d.seat), "rule/in_combat", f"{what} not while you fight", "B.14")


def _conditions(command: Command) -> list[str]:
    value = command.get("conditions") or []
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InvalidCommand(
            "request/invalid_list", "'conditions' is a list of strings", {"conditions": []}
        )
    return list(value)


# ============================================================================ cards (B.3, B.6, B.10-B.12)


def curse(
    d: DecisionCore,
    cid: str,
    victim: str,
    choices: list[str],
    *,
    from_door: bool,
    prefer: bool = False,
) -> None:
    """A Curse or Trap hits ``victim`` (docs/rules.md B.10); one that kills starts a death.
    ``prefer``: ``choices`` were named before the card was drawn (E.1, :func:`apply_effects`)."""
    card = card_def(d.state, cid)
    effects = card.get("effects") or []
    stays = bool(card.get("persistent") or card.get("next_combat"))
    suffer(
        d,
        victim,
        effects,
        choices,
        "B.10",
        ev.CurseApplied,
        by=d.seat,
        card=cid,
        victim=victim,
        from_door=from_door,
        stays=stays,
        prefer=prefer,
    )


def _target_seat(d: DecisionCore, command: Command, default: str | None) -> str:
    target = command.get("target", default)
    d.require(target in d.state["seats"], "command/unknown_seat", f"no seat {target!r}")
    return str(target)


def _slot_free(d: DecisionCore, seat: str, cid: str) -> bool:
    item = card_def(d.state, cid)
    slot = item.get("slot")
    free = cheated(d.state, seat)  # a Cheat!'s Item takes no slot (B.2)
    equipped = [
        c for c in d.state["seats"][seat]["zones"]["equipped"] if c != cid and c not in free
    ]
    if slot is None:
        return True
    if slot in ("1hand", "2hands"):
        return hands_used(d.state, equipped) + hands_used(d.state, [cid]) <= 2
    return all(card_def(d.state, c).get("slot") != slot for c in equipped)


def _bigs(d: DecisionCore, seat: str) -> list[str]:
    zones = d.state["seats"][seat]["zones"]
    free = cheated(d.state, seat)  # a Cheat!'s Item is past the Big limit (B.2)
    return [
        c
        for c in [*zones["equipped"], *zones["carried"]]
        if card_def(d.state, c).get("big") and c not in free
    ]


def _arriving_bigs(
    d: DecisionCore, seat: str, coming: Sequence[str], gone: Sequence[str] = ()
) -> None:
    """Items ``coming`` into ``seat``'s play (a gift from play, a trade) while ``gone`` leave it:
    still only one Big Item, however it arrives (DX *Items*: "Anyone can carry any Item
    (except for extra Big items)"; "only one Big one"; docs/rules.md B.12, D.C20)."""
    big = [c for c in coming if card_def(d.state, c).get("big")]
    if not big:
        return
    after = [c for c in _bigs(d, seat) if c not in gone] + big
    d.check(
        len(after) <= 1,
        "rule/big_limit",
        f"{seat} would carry {len(after)} Big Items: "
        + ", ".join(repr(card_def(d.state, c)["name"]) for c in after),
        "B.12",
    )


def _play_trait(d: DecisionCore, cid: str, kind: str) -> None:
    own_turn_or_received(d, cid, "a new Race, Class or Army")
    zone = d.state["seats"][d.seat]["zones"][kind]
    defs = [card_def(d.state, c) for c in zone]
    card = card_def(d.state, cid)
    multis = sum(1 for c in defs if c["kind"] == "other")
    if card["kind"] != "other":
        d.check(
            card["trait"] not in card_traits(d.state, d.seat),
            "rule/duplicate_trait",
            f"{d.seat} is a {card['trait']} already",
            "B.11",
        )
        held = sum(1 for c in defs if c["kind"] != "other")
        d.check(held <= multis, "rule/trait_limit", f"one {kind} without a multi card", "B.11")
    else:  # DX: "as long as you have an appropriate card … to attach it to"; AoS: an Army
        held = sum(1 for c in defs if c["kind"] != "other")
        d.check(
            held > multis,
            "rule/nothing_to_attach",
            f"a {card['name']!r} attaches to a {kind} card of yours without one",
            "B.11",
        )
    d.emit(ev.CharacterCardPlayed, player=d.seat, card=cid, trait_kind=kind)


def _play_item(d: DecisionCore, command: Command, cid: str) -> None:
    own_turn_or_received(d, cid, "playing an Item")
    not_fighting(d, "playing an Item")
    item = card_def(d.state, cid)
    if item.get("big"):
        d.check(not _bigs(d, d.seat), "rule/big_limit", "one Big Item at a time", "B.12")
    fits = _slot_free(d, d.seat, cid) and usable_by(d.state, d.seat, item)
    d.emit(ev.ItemPlayed, player=d.seat, card=cid, equipped=fits and not command.get("carried"))


def _one_shot_to_table(d: DecisionCore, cid: str) -> None:
    """A one-shot from the hand outside a combat goes on the table, carried (never equipped),
    to be used later "from your hand or from the table" (DX and AoS *"One-Shot" Treasures*):
    a Treasure is played to the table on your own turn, never during a combat (B.12, B.14)."""
    own_turn_or_received(d, cid, "putting a one-shot on the table")
    d.emit(ev.ItemPlayed, player=d.seat, card=cid, equipped=False)


def _play_one_shot(d: DecisionCore, command: Command, cid: str) -> None:
    c = check_fight(d, "a one-shot", "B.12")
    card = card_def(d.state, cid)
    target = command.get("target")
    removed = None
    side = "player" if d.seat in fighters(c) else "monster"
    if card.get("removes"):
        removed = str_arg(command, "target")
        if card["removes"] == "monster":
            ok = removed in [e["card"] for e in c["monsters"]]
        else:
            ok = any(removed in e["enhancers"] for e in c["monsters"])
        d.require(ok, "command/card_not_there", f"no {card['removes']} {removed!r} in the combat")
    elif target is not None:
        if target not in ("player", "monster"):
            raise InvalidCommand(
                "request/invalid_side", "'target' is 'player' or 'monster'", {"target": []}
            )
        side = str(target)
    boost = _one_shot_boost(card, command)
    d.emit(ev.OneShotPlayed, by=d.seat, card=cid, side=side, removed=removed, **boost)
    after = d.state["combat"]
    if removed is not None and not after["monsters"] and after["stage"] == "fight":
        win(d)  # the last monster removed: the combat ends at once (docs/rules.md B.6)


class OneShotBoost(TypedDict):
    """What a one-shot adds (``OneShotPlayed``'s fields): to its side's strength, to a run."""

    bonus: int
    run_away: int


def _one_shot_boost(card: Mapping[str, Any], command: Command) -> OneShotBoost:
    """A one-shot's ``bonus`` to its side and ``run_away`` modifier; a card of doses gives
    each as many times as the doses taken (``choice``, 1 to its ``max``; docs/rules.md B.12)."""
    bonus, run_away = card.get("bonus", 0), card.get("run_away", 0)
    if card.get("doses"):
        n = int_arg(command, "choice", lo=1, hi=card["doses"]["max"])
        bonus += n * card["doses"]["bonus"]
        run_away += n * card["doses"]["run_away"]
    return OneShotBoost(bonus=bonus, run_away=run_away)


def _play_enhancer(d: DecisionCore, command: Command, cid: str) -> None:
    """An enhancer on a fighting monster; one that gives a tag (``adds_tags``) may instead
    bring a monster from the player's hand into a fight of that tag, enhanced (DX *Undead
    Monsters*: "you may play it with a non-Undead monster to use this rule"; AoS *Undead and
    Chaos Monsters*; docs/rules.md B.6)."""
    c = check_fight(d, "a monster enhancer", "B.6")
    monsters = [e["card"] for e in c["monsters"]]
    target = command.get("target", monsters[0] if len(monsters) == 1 else None)
    adds = card_def(d.state, cid).get("adds_tags") or []
    held = d.state["cards"].get(target) if isinstance(target, str) else None
    if adds and held is not None and (held["owner"], held["zone"]) == (d.seat, "hand"):
        _join(d, command, str(target), None, adds)
        d.emit(ev.EnhancerPlayed, by=d.seat, card=cid, monster=str(target))
        return
    d.require(target in monsters, "command/card_not_there", f"{target!r} is not a fighting monster")
    d.emit(ev.EnhancerPlayed, by=d.seat, card=cid, monster=str(target))


def _tags(d: DecisionCore, entry: Mapping[str, Any]) -> set[str]:
    """A fighting monster's tags: its card's and those its enhancers give (B.6)."""
    out = set(card_def(d.state, entry["card"]).get("tags") or ())
    for e in entry["enhancers"]:
        out |= set(card_def(d.state, e).get("adds_tags") or ())
    return out


def _join(
    d: DecisionCore,
    command: Command,
    monster: str,
    via_card: str | None,
    adds: list[str] | tuple[str, ...] = (),
) -> None:
    c = check_fight(d, "adding a monster", "B.6")
    rules = SETS[d.state["ruleset"]]
    own = {*(card_def(d.state, monster).get("tags") or ()), *adds}
    tags = own & set(rules.join_tags)
    fighting_tags = {t for e in c["monsters"] for t in _tags(d, e)}
    via = "wandering" if via_card else next(iter(sorted(tags & fighting_tags)), "")
    d.check(
        card_def(d.state, monster)["kind"] == "monster",
        "rule/not_a_monster",
        "only a monster joins a combat",
        "B.6",
    )
    d.check(bool(via), "rule/needs_wandering", "a Wandering Monster or a shared tag", "B.6")
    d.emit(
        ev.MonsterJoined,
        by=d.seat,
        monster=monster,
        via=via or "none",
        card=via_card,
        conditions=_conditions(command),
    )


def decide_play(d: DecisionCore, command: Command) -> None:
    cid = str_arg(command, "card")
    card = d.card(cid)
    kind = card["def"]["kind"]
    zones = ("hand", "carried") if kind == "one_shot" else ("hand",)
    d.in_zone(cid, d.seat, *zones)
    rules = SETS[d.state["ruleset"]]
    if d.state["status"] == "setup":
        st = d.state["seats"][d.seat]
        d.check(not st["ready"], "rule/already_ready", "character creation is over", "B.1")
        ok = kind in ("item", "one_shot", "other") or kind in rules.trait_kinds
        d.check(ok, "rule/not_now", "only character cards and Items at creation", "B.1")
    if kind in rules.trait_kinds:
        _play_trait(d, cid, kind)
    elif kind == "other" and card["def"].get("multi"):
        _play_trait(d, cid, card["def"]["multi"])
    elif kind == "item":
        _play_item(d, command, cid)
    elif kind in rules.helper_kinds:
        if kind != "hireling":  # a Hireling is played at any time, on any turn (B.2, B.14)
            own_turn_or_received(d, cid, "a helper card")
            not_fighting(d, "a helper card")
        cheats = set((d.state.get("cheats") or {}).values())  # a Cheat!'s Steed is extra
        held = [
            c
            for c in d.state["seats"][d.seat]["zones"]["helpers"]
            if card_def(d.state, c)["kind"] == kind and c not in cheats
        ]
        d.check(not held, "rule/helper_limit", f"one {kind} at a time", "B.12")
        d.emit(ev.HelperPlayed, player=d.seat, card=cid)
    elif kind == "level_up":
        target = _target_seat(d, command, d.seat)
        st = d.state["seats"][target]
        d.check(not st["dead"], "rule/dead_player", f"{target} is dead", "B.9")
        d.check(st["level"] < 9, "rule/winning_level", "never for the winning level", "B.3")
        d.require(st["level"] < 10, "command/top_level", f"{target} is at Level 10")
        d.emit(ev.GoUpALevelPlayed, by=d.seat, card=cid, target=target)
    elif kind == rules.bad_door:
        target = _target_seat(d, command, None)
        d.check(not d.state["seats"][target]["dead"], "rule/dead_player", "the dead", "B.9")
        curse(d, cid, target, ids_arg(command, "choices", required=False), from_door=False)
    elif kind == "enhancer":
        _play_enhancer(d, command, cid)
    elif kind == "one_shot" and d.state.get("combat") is None and card["zone"] == "hand":
        _one_shot_to_table(d, cid)
    elif kind == "one_shot":
        _play_one_shot(d, command, cid)
    elif kind == "monster":
        d.check(
            d.state.get("combat") is not None,
            "rule/wrong_phase",
            "a monster from a hand is fought by looking for trouble",
            "B.4",
        )
        d.require(d.state.get("combat") is not None, "command/no_combat", "no combat to join")
        _join(d, command, cid, None)
    elif kind == "other" and card["def"].get("removes_curse"):
        _remove_curse(d, command, cid)
    elif kind == "other" and card["def"].get("forces_help"):
        force_help(d, command, cid)
    elif kind == "other" and card["def"].get("cheat"):
        _play_cheat(d, command, cid)
    elif kind == "other" and card["def"].get("wandering"):
        monster = str_arg(command, "target")
        d.in_zone(monster, d.seat, "hand")
        d.require(monster != cid, "command/card_not_there", "a card cannot bring itself")
        _join(d, command, monster, cid)
    else:
        d.require(
            False, "command/not_playable", f"{card['def']['name']!r} has no play the engine knows"
        )


def _remove_curse(d: DecisionCore, command: Command, cid: str) -> None:
    """A card that removes Curses takes the Curse or Trap ``target`` from in front of any seat,
    at any time; both are discarded (docs/rules.md B.10)."""
    target = str_arg(command, "target")
    cursed = d.card(target)
    d.require(
        cursed["zone"] == "curses" and cursed["owner"] is not None,
        "command/card_not_there",
        f"{target!r} is not a Curse in front of a seat",
    )
    d.emit(ev.CurseRemoved, by=d.seat, victim=cursed["owner"], card=target, remover=cid)


def _play_cheat(d: DecisionCore, command: Command, cid: str) -> None:
    """Cheat!: attached to one of the player's Items in play, which is equipped and counts past
    the slot, Big and trait limits while the Cheat! stays with it; an equip change, so never
    in one's combat (docs/rules.md B.2, B.12)."""
    item = str_arg(command, "target")
    if d.card(item)["def"]["kind"] == "steed":
        _cheat_steed(d, cid, item)
        return
    target = d.in_zone(item, d.seat, "carried", "equipped")
    d.require(target["def"]["kind"] == "item", "command/card_not_there", f"{item!r}: no Item")
    d.check(not fighting(d, d.seat), "rule/in_combat", "no equip change in a combat", "B.12")
    helpers = d.state["seats"][d.seat]["zones"]["helpers"]
    held = {(d.state.get("cheats") or {}).get(c) for c in helpers}
    d.check(item not in held, "rule/already_cheated", f"{item!r} has a Cheat! already", "B.2")
    d.emit(ev.CheatPlayed, player=d.seat, card=cid, item=item)


def _cheat_steed(d: DecisionCore, cid: str, steed: str) -> None:
    """Cheat! with a Steed from the hand: the Steed is played past the one-Steed limit (AoS
    *Items, Steeds*: "unless you Cheat!"), when a helper card may be played (B.2, B.14)."""
    d.in_zone(steed, d.seat, "hand")
    own_turn_or_received(d, steed, "a helper card")
    not_fighting(d, "a helper card")
    d.emit(ev.SteedCheated, player=d.seat, card=cid, steed=steed)


def _held_by_cheat(d: DecisionCore, seat: str, cid: str) -> bool:
    """Whether a Cheat! in front of ``seat`` holds ``cid``: an equipped Item, or a Steed."""
    zones = d.state["seats"][seat]["zones"]
    if cid in zones["equipped"]:
        return True
    return cid in zones["helpers"] and card_def(d.state, cid)["kind"] == "steed"


def drop_loose_cheats(d: DecisionCore) -> None:
    """After every command: a Cheat! whose Item is gone or no longer equipped, or whose Steed
    is gone, is discarded (docs/rules.md B.2)."""
    cheats = d.state.get("cheats")
    if not cheats:
        return
    for seat, st in d.state["seats"].items():
        for cid in st["zones"]["helpers"]:
            if cid in cheats and not _held_by_cheat(d, seat, cheats[cid]):
                d.emit(ev.CheatDiscarded, actor=RULES, player=seat, card=cid)


def _give_to_hireling(d: DecisionCore, cid: str, hireling: str) -> None:
    """Deluxe: a Hireling carries one Item for its owner, never handed over in a combat
    (docs/rules.md B.2)."""
    d.in_zone(cid, d.seat, "carried", "equipped")
    held = d.in_zone(hireling, d.seat, "helpers")
    d.require(
        held["def"]["kind"] == "hireling", "command/card_not_there", f"no Hireling {hireling!r}"
    )
    d.check(not fighting(d, d.seat), "rule/in_combat", "no Item to a Hireling in a combat", "B.2")
    zone = d.state["seats"][d.seat]["zones"]["helpers"]
    items = [c for c in zone if card_def(d.state, c)["kind"] in ("item", "one_shot")]
    hirelings = sum(1 for c in zone if card_def(d.state, c)["kind"] == "hireling")
    d.check(len(items) < hirelings, "rule/hireling_full", "a Hireling carries one Item", "B.2")
    d.emit(ev.ItemGivenToHireling, player=d.seat, card=cid, hireling=hireling)


def decide_equip(d: DecisionCore, command: Command) -> None:
    cid = str_arg(command, "card")
    if command.get("hireling") is not None:
        _give_to_hireling(d, cid, str_arg(command, "hireling"))
        return
    card = d.in_zone(cid, d.seat, "carried")
    d.require(
        card["def"]["kind"] == "item",
        "command/not_playable",
        f"{card['def']['name']!r} is a one-shot: used, never equipped",
    )
    d.check(not fighting(d, d.seat), "rule/in_combat", "no equipping in a combat", "B.12")
    item = card_def(d.state, cid)
    d.check(usable_by(d.state, d.seat, item), "rule/not_usable", "not for you", "B.12")
    d.check(_slot_free(d, d.seat, cid), "rule/slot_full", f"no free {item['slot']}", "B.12")
    d.emit(ev.ItemEquipped, player=d.seat, card=cid)


def decide_unequip(d: DecisionCore, command: Command) -> None:
    """Unequip an Item, or take back the one a Hireling carries (B.2, B.12)."""
    cid = str_arg(command, "card")
    card = d.in_zone(cid, d.seat, "equipped", "helpers")
    d.require(
        card["zone"] == "equipped" or card["def"]["kind"] in ("item", "one_shot"),
        "command/card_not_there",
        f"{cid!r} is a helper or a Cheat!, not an Item",
    )
    d.check(not fighting(d, d.seat), "rule/in_combat", "no unequipping in a combat", "B.12")
    d.emit(ev.ItemUnequipped, player=d.seat, card=cid)


def decide_discard(d: DecisionCore, command: Command) -> None:
    """Discard a trait (any time, B.11), a card for a discard power (B.11: any card in the hand
    or in play, a trait or a helper card too, each giving its +1), a Steed (AoS: it may be
    abandoned before a roll) or a Sidekick sacrificed to escape every monster (Old West, B.2)."""
    server = d.dealt_by_server(command, uses=("card",))  # E.1: a steal's die
    cid = str_arg(command, "card")
    zones = ("hand", "equipped", "carried", "race", "class", "army", "helpers", "curses")
    card = d.in_zone(cid, d.seat, *zones)
    if command.get("target") is not None:
        _backstab(d, cid, str_arg(command, "target"))
        return
    if command.get("steal") is not None:
        roll = None if server else int_arg(command, "roll", lo=1, hi=6)
        _steal(d, cid, str_arg(command, "steal"), roll)
        return
    rules = SETS[d.state["ruleset"]]
    kind = card["def"]["kind"]
    if card["zone"] == "curses":  # kept until removed by a card or spent (B.10)
        d.check(False, "rule/cannot_discard", "a Curse stays until a card removes it", "B.10")
        d.emit(ev.CurseRemoved, by=d.seat, victim=d.seat, card=cid, remover=None)
        return
    # DX and OW *Class*: "You may discard any card, in play or in your hand, to power a special
    # ability": a character card and a helper card too (B.11), the power read before it goes.
    c = in_fight(d)
    power = has_power(d.state, d.seat, "discard_bonus")
    used = c["discard_bonus"].get(d.seat, 0) if c else 0
    powered = c is not None and d.seat in fighters(c) and bool(power) and used < int(power)
    if card["zone"] == "helpers":
        if kind == "sidekick" and rules.sidekick_sacrifice and fighting(d, d.seat):
            _sacrifice(d, cid)
            return
        ok = powered or (kind == "steed" and rules.steed_replaces_run_away)
        d.check(ok, "rule/cannot_discard", f"a {kind} stays until lost or given", "B.12")
        if kind == "steed" and not powered and d.state["options"].get("strict_steed_discard"):
            _abandon_to_the_letter(d, cid)
        if kind == "hireling":  # its Item would be left with no Hireling to carry it (B.2)
            zone = d.state["seats"][d.seat]["zones"]["helpers"]
            items = sum(1 for h in zone if card_def(d.state, h)["kind"] in ("item", "one_shot"))
            hirelings = sum(1 for h in zone if card_def(d.state, h)["kind"] == "hireling")
            d.check(
                items < hirelings,
                "rule/cannot_discard",
                "a Hireling carrying an Item is discarded once the Item is taken back",
                "B.2",
            )
        d.emit(ev.ClassicCardDiscarded, player=d.seat, card=cid, bonus=1 if powered else 0)
        return
    if card["zone"] not in ("race", "class", "army"):  # a trait is discarded at any time
        d.check(powered, "rule/cannot_discard", "only as a power, in a combat you fight", "B.12")
    d.emit(ev.ClassicCardDiscarded, player=d.seat, card=cid, bonus=1 if powered else 0)


def _abandon_to_the_letter(d: DecisionCore, cid: str) -> None:
    """Option ``strict_steed_discard`` (AoS *Steeds*, read to the letter: "You may discard a
    Steed with a Run Away penalty before rolling if you decide to abandon it and flee on
    foot"): only a Steed whose ``run_away`` is negative, by a fighter with a monster still to
    roll against (docs/rules.md B.2, B.15)."""
    c = d.state.get("combat")
    left = (
        c is not None
        and d.seat in fighters(c)
        and c["stage"] != "treasure"
        and any(e["card"] not in c["runs"].get(d.seat, []) for e in c["monsters"])
    )
    d.check(
        card_def(d.state, cid).get("run_away", 0) < 0 and left,
        "rule/steed_stays",
        "with strict_steed_discard, only a Steed with a Run Away penalty is abandoned, "
        "before a roll",
        "B.2",
    )


def _spent_card(d: DecisionCore, cid: str, what: str) -> None:
    """The card a Thief discards to power ``what`` (a backstab, a steal) may not be a Curse kept
    as a reminder: it stays until a card removes it (docs/rules.md B.10)."""
    d.check(
        d.card(cid)["zone"] != "curses",
        "rule/cannot_discard",
        f"a Curse kept as a reminder does not power {what}",
        "B.10",
    )


def _backstab(d: DecisionCore, cid: str, victim: str) -> None:
    """Deluxe Thief: discard a card to give a fighter -N in this combat, once per victim per
    combat, never in a combat the Thief fights in (``backstab`` power; docs/rules.md B.2, B.6
    *Interfering With Combat*: "interfere with others' combats")."""
    c = check_fight(d, "a backstab", "B.2")
    d.require(victim in fighters(c), "command/not_fighting", f"{victim} is not in the combat")
    power = has_power(d.state, d.seat, "backstab")
    d.check(bool(power), "rule/no_backstab", "only a Thief backstabs", "B.2")
    d.check(  # DX *Interfering With Combat*: "interfere with others' combats"
        d.seat not in fighters(c),
        "rule/backstab_own_combat",
        "a Thief backstabs in others' combats, not in its own",
        "B.6",
    )
    done = [b for b in c.get("backstabs", ()) if b["by"] == d.seat and b["victim"] == victim]
    d.check(not done, "rule/already_backstabbed", f"{victim} was backstabbed already", "B.2")
    _spent_card(d, cid, "a backstab")
    penalty = -abs(int(power)) if power else 0
    d.emit(ev.Backstabbed, by=d.seat, card=cid, victim=victim, bonus=penalty)


def _steal(d: DecisionCore, cid: str, item: str, roll: int | None) -> None:
    """Deluxe Thief: discard a card to try to steal a Small Item in play of another seat, at any
    time but never while the Thief or the victim is fighting; a roll of ``steal`` or more takes
    it (to the Thief's carried Items), else the Thief loses ``steal_penalty`` levels (power
    ``steal``; docs/rules.md B.2, D.C17). ``roll`` ``None``: the server rolls (E.1)."""
    target = d.card(item)
    victim = target["owner"]
    d.require(
        victim is not None
        and victim != d.seat
        and target["zone"] in ("equipped", "carried")
        and target["def"]["kind"] == "item",
        "command/card_not_there",
        f"{item!r} is not an Item in play of another seat",
    )
    d.check(d.state["status"] == "playing", "rule/not_now", "the game has not begun", "B.1")
    d.check(not d.state["seats"][d.seat]["dead"], "rule/dead_player", "the dead", "B.9")
    needed = has_power(d.state, d.seat, "steal")
    d.check(bool(needed), "rule/no_steal", "only a Thief steals", "B.2")
    d.check(not target["def"].get("big"), "rule/steal_big", "only a Small Item", "B.2")
    d.check(
        not fighting(d, d.seat) and not fighting(d, str(victim)),
        "rule/in_combat",
        "no stealing while the Thief or the victim is fighting",
        "B.2",
    )
    _spent_card(d, cid, "a steal")
    if roll is None:
        (roll,) = d.roll(6, 1)
    need = int(needed) if needed else 7  # without the power nothing is stolen (record mode)
    stolen = roll >= need
    penalty = 0 if stolen else int(has_power(d.state, d.seat, "steal_penalty") or 0)
    levels = max(0, min(abs(penalty), d.state["seats"][d.seat]["level"] - 1))
    d.emit(
        ev.TheftAttempted,
        by=d.seat,
        card=cid,
        victim=str(victim),
        item=item,
        roll=roll,
        needed=need,
        stolen=stolen,
        levels=levels,
    )


def _sacrifice(d: DecisionCore, cid: str) -> None:
    """Old West: a fighter sacrifices its Sidekick and escapes every monster it has not rolled
    against yet (docs/rules.md B.2, D.C12)."""
    c = d.state["combat"]
    d.check(c["stage"] != "treasure", "rule/combat_decided", "the combat is won", "B.8")
    if c["stage"] == "fight":
        d.check(not player_wins(d.state, c), "rule/winning_combat", "you are winning", "B.8")
    done = c["runs"].get(d.seat, [])
    monsters = [e["card"] for e in c["monsters"] if e["card"] not in done]
    d.emit(ev.SidekickSacrificed, player=d.seat, card=cid, monsters=monsters)
    finish_run(d)


def decide_sell(d: DecisionCore, command: Command) -> None:
    cards = ids_arg(command, "cards")
    for cid in cards:
        d.in_zone(cid, d.seat, "hand", "equipped", "carried", "helpers")  # B.2: a Hireling's
    own_turn(d, "selling")
    no_combat(d, "selling", "B.12")
    defs = [card_def(d.state, c) for c in cards]
    ok = all(c["kind"] in ("item", "one_shot") for c in defs)
    d.check(ok, "rule/not_sellable", "only Items and one-shots sell", "B.12")
    if SETS[d.state["ruleset"]].received_items_wait:  # Old West (B.2)
        waiting = [c for c in cards if c in (d.state.get("received") or ())]
        d.check(
            not waiting,
            "rule/received_this_turn",
            f"Items received this turn are sold from your next turn: {', '.join(waiting)}",
            "B.2",
        )
    gold = sum(c.get("value", 0) for c in defs)
    d.check(gold >= SELL_PRICE, "rule/sell_too_little", f"{gold} gp buys no level", "B.12")
    level = d.state["seats"][d.seat]["level"]
    d.check(level < 9, "rule/sell_to_ten", "never sell to Level 10", "B.12")
    levels = max(0, min(gold // SELL_PRICE, 9 - level))
    d.emit(ev.ItemsSold, player=d.seat, cards=cards, gold=gold, levels=levels)


def decide_trade(d: DecisionCore, command: Command) -> None:
    other = str_arg(command, "with")
    d.require(other in d.state["seats"] and other != d.seat, "command/unknown_seat", "trade with")
    give = ids_arg(command, "give", required=False)
    get = ids_arg(command, "get", required=False)
    for cid in give:
        d.in_zone(cid, d.seat, "equipped", "carried")
    for cid in get:
        d.in_zone(cid, other, "equipped", "carried")
    ok = not fighting(d, d.seat) and not fighting(d, other)
    d.check(ok, "rule/in_combat", "no trading while either is in combat", "B.12")
    _arriving_bigs(d, d.seat, get, give)
    _arriving_bigs(d, other, give, get)
    d.emit(ev.TradeOffered, player=d.seat, with_seat=other, give=give, get=get)


def decide_accept_trade(d: DecisionCore, command: Command) -> None:
    trade = d.state.get("trade")
    d.require(trade is not None and trade["with"] == d.seat, "command/no_trade", "no offer")
    assert trade is not None
    for cid in trade["give"]:
        d.in_zone(cid, trade["player"], "equipped", "carried")
    for cid in trade["get"]:
        d.in_zone(cid, d.seat, "equipped", "carried")
    ok = not fighting(d, d.seat) and not fighting(d, trade["player"])
    d.check(ok, "rule/in_combat", "no trading while either is in combat", "B.12")
    _arriving_bigs(d, trade["player"], list(trade["get"]), list(trade["give"]))
    _arriving_bigs(d, d.seat, list(trade["give"]), list(trade["get"]))
    d.emit(
        ev.ItemsTraded,
        player=trade["player"],
        with_seat=d.seat,
        give=list(trade["give"]),
        get=list(trade["get"]),
    )


def decide_give(d: DecisionCore, command: Command) -> None:
    """A gift: Items only (DX *Items, Trading*: "You may also give Items away without a
    trade"), except the Treasures a helped kill gave, which the player hands its helper as
    agreed (DX *Asking For Help*: "any number of the Treasure cards the monster has";
    docs/rules.md B.12, D.C6)."""
    to = str_arg(command, "to")
    cards = ids_arg(command, "cards")
    d.require(to in d.state["seats"] and to != d.seat, "command/unknown_seat", f"no seat {to!r}")
    for cid in cards:
        d.in_zone(cid, d.seat, "hand", "equipped", "carried")
    d.check(not d.state["seats"][to]["dead"], "rule/dead_player", "the dead receive nothing", "B.9")
    spoils = d.state.get("spoils") or {}
    others = [c for c in cards if not is_item(d.state, c) and spoils.get(c) != to]
    d.check(
        not others,
        "rule/only_items",
        "only Items are given (a helped kill's Treasure to the helper apart), not "
        + ", ".join(repr(card_def(d.state, c)["name"]) for c in others),
        "B.12",
    )
    _arriving_bigs(d, to, [c for c in cards if d.state["cards"][c]["zone"] != "hand"])
    d.emit(ev.CardsGiven, player=d.seat, to=to, cards=cards)
