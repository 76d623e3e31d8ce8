"""Fights (docs/rules.md A.9): the attack, running away, defending, the cheating check, strikes."""

from __future__ import annotations

import hashlib
from typing import Any

from domain.arguments import ids_arg, int_arg, str_arg
from domain.ccg import events as ev
from domain.ccg.cards import MAX_NUMBER, is_card_number, is_monster_like
from domain.ccg.damage import heal_by_life_o_suction, squish_if_dead
from domain.ccg.decision import Command, Decision
from domain.ccg.state import other
from domain.ccg.timing import check_turn
from domain.ccg.triggers import trigger
from domain.errors import InvalidCommand
from domain.fold import State


def commitment(salt: str, card_id: str, name: str) -> str:
    """The salted hash the defender sees for a face-down attack card (docs/rules.md A.9 step 1).

    >>> len(commitment("s", "c1", "Sample Goblin Horde"))
    64
    """
    return hashlib.sha256(f"{salt}:{card_id}:{name}".encode()).hexdigest()


def monster_stats(card: dict[str, Any]) -> tuple[int, int]:
    """(power, life) of a hired Monster; Monstrous X gives X and X (docs/rules.md D.5)."""
    d = card["def"]
    if d["type"] != "monster" and d["keywords"].get("monstrous"):
        x = int(d["keywords"]["monstrous"])
        return x, x
    return int(d.get("power") or 0), int(d.get("life") or 0)


def fight_stage(decision: Decision, *stages: str) -> dict[str, Any]:
    fight = decision.state.get("fight")
    decision.require(fight is not None, "command/no_fight", "no fight is in progress")
    assert fight is not None
    decision.check(
        fight["stage"] in stages,
        "rule/wrong_fight_step",
        f"the fight is at '{fight['stage']}', not {' or '.join(stages)}",
        "A.9",
    )
    return dict(fight)


def defender_step(decision: Decision, stage: str, message: str) -> dict[str, Any]:
    """The fight at ``stage``, for a step only the defender records (docs/rules.md A.9)."""
    fight = fight_stage(decision, stage)
    decision.check(decision.seat == fight["defender"], "rule/not_defender", message, "A.9")
    # The defender's decisions are its own: refused in record mode too (docs/rules.md
    # "Record mode").
    decision.require(decision.seat == fight["defender"], "command/not_defender", message)
    return fight


def before_reveal(decision: Decision, fight: dict[str, Any]) -> None:
    """Facing and declaring ready set the fight back to its defence: refused, in record mode too,
    once the attack card is face up (the cheating check and the hire would run again)."""
    decision.require(
        not fight["revealed"],
        "command/wrong_fight_step",
        "the attack card is already revealed: the defence is over",
    )


def decide_attack(decision: Decision, command: Command) -> None:
    s, seat = decision.state, decision.seat
    decision.require(s["status"] == "playing", "command/not_playing", "the game is not in play")
    cid = str_arg(command, "card")
    card = decision.in_zone(cid, seat, "hand")
    gold = int_arg(command, "gold", 0, hi=MAX_NUMBER)
    salt = str_arg(command, "salt")
    decision.require(gold <= s["seats"][seat]["gold"], "command/not_enough_gold", "purse too small")
    check_turn(decision, seat)
    decision.require(
        s["fight"] is None,
        "command/fight_in_progress",
        "a second fight would leave the first one's cards and gold in no fight",
    )
    decision.emit(ev.FightStarted, attacker=seat, defender=other(seat))
    decision.emit(
        ev.AttackCardCommitted,
        player=seat,
        card=cid,
        commitment=commitment(salt, cid, card["def"]["name"]),
        salt=salt,
    )
    decision.emit(ev.GoldCommitted, player=seat, amount=gold)


def decide_run_away(decision: Decision, command: Command) -> None:
    defender_step(decision, "declared", "only the defender runs")
    seat = decision.seat
    marker = decision.state["seats"][seat]["marker"]
    paid_by = "marker" if marker == "run_away" else "damage"
    decision.emit(ev.RanAway, player=seat, paid_by=paid_by)
    if paid_by == "marker":
        decision.emit(ev.RunAwayMarkerFlipped, actor="rules", player=seat, side="limp_away")
        end_fight_returning(decision, "ran", face="down")
    else:
        # Limping away costs 2 damage; interrupts (Prevent X) come first (A.11, A.12).
        hero = decision.state["seats"][seat]["hero"]
        decision.emit(ev.DamageAnnounced, actor="rules", target=hero, amount=2, reason="limp_away")


def end_fight_returning(decision: Decision, outcome: str, face: str) -> None:
    """Gold back to the attacker, the card face down to the stash, defenders home (A.9)."""
    fight = decision.state.get("fight")
    if fight is None:
        return
    if fight["gold"]:
        decision.emit(
            ev.CommittedGoldReturned, actor="rules", player=fight["attacker"], amount=fight["gold"]
        )
    if fight["card"]:
        decision.emit(ev.CardStashed, actor="rules", card=fight["card"], face=face)
    return_defenders(decision)
    decision.emit(ev.FightEnded, actor="rules", outcome=outcome)


def return_defenders(decision: Decision) -> None:
    fight = decision.state.get("fight")
    if fight and fight["defender_cards"]:
        decision.emit(
            ev.DefenderCardsReturned,
            actor="rules",
            player=fight["defender"],
            cards=list(fight["defender_cards"]),
        )


def decide_face(decision: Decision, command: Command) -> None:
    fight = defender_step(decision, "declared", "the defender decides")
    before_reveal(decision, fight)
    decision.emit(ev.DefenderFaced, player=decision.seat)


def decide_commit(decision: Decision, command: Command) -> None:
    defender_step(decision, "defending", "only the defender commits")
    seat = decision.seat
    cards = ids_arg(command, "cards")
    decision.require(bool(cards), "command/nothing_to_commit", "name at least one card")
    for cid in cards:
        card = decision.in_zone(cid, seat, "hoard")
        decision.check(
            card["def"]["type"] in ("ally", "loot"),
            "rule/not_committable",
            f"{card['def']['name']} is neither an Ally nor Loot",
            "D.2",
        )
        decision.check(
            not card["zapped"], "rule/card_zapped", "only unzapped cards are committed", "A.9"
        )
    decision.emit(ev.DefenderCardsCommitted, player=seat, cards=cards)


def decide_ready(decision: Decision, command: Command) -> None:
    fight = defender_step(decision, "defending", "the defender declares")
    before_reveal(decision, fight)
    decision.emit(ev.DefenderReady, player=decision.seat)


def decide_reveal(decision: Decision, command: Command) -> None:
    fight = fight_stage(decision, "ready")
    seat = decision.seat
    decision.check(seat == fight["attacker"], "rule/not_attacker", "the attacker reveals", "A.9")
    decision.require(seat == fight["attacker"], "command/not_attacker", "the attacker reveals")
    decision.require(
        not fight["revealed"], "command/wrong_fight_step", "the attack card is already face up"
    )
    cid = fight["card"]
    if cid is None:
        end_fight_returning(decision, "no_card", face="down")
        return
    decision.emit(ev.AttackCardRevealed, player=fight["attacker"], card=cid, salt=fight["salt"])
    card = decision.state["cards"][cid]
    if not is_monster_like(card["def"]):
        caught_cheating(decision, "not_monster", cost=None)


def cheat_check(decision: Decision) -> None:
    """docs/rules.md A.9 "Check for cheating": committed gold against the (modified) cost."""
    fight = decision.state["fight"]
    if fight is None:
        return
    cid = fight["card"]
    if cid is None:
        end_fight_returning(decision, "no_card", face="down")
        return
    card = decision.state["cards"][cid]
    cost = card["cost_mod"] if card["cost_mod"] is not None else (card["def"].get("cost") or 0)
    if fight["gold"] >= cost:
        decision.emit(
            ev.CheatingChecked,
            actor="rules",
            card=cid,
            result="hired",
            gold=fight["gold"],
            cost=cost,
        )
        power, life = monster_stats(card)
        decision.emit(ev.MonsterHired, actor="rules", card=cid, power=power, life=life)
        trigger(decision, cid, "hired", fight["attacker"])
    else:
        caught_cheating(decision, "underpaid", cost=cost)


def caught_cheating(decision: Decision, result: str, cost: int | None) -> None:
    """The cheating check failed (``result``: ``not_monster`` or ``underpaid``, against the
    Monster's ``cost``). docs/rules.md A.9 2.1: 1 damage, gold back, card face down to the stash,
    Sketchy unlocked."""
    fight = decision.state["fight"]
    decision.emit(
        ev.CheatingChecked,
        actor="rules",
        card=fight["card"],
        result=result,
        gold=fight["gold"],
        cost=cost,
    )
    attacker = fight["attacker"]
    decision.emit(ev.CaughtCheating, actor="rules", player=attacker)
    hero = decision.state["seats"][attacker]["hero"]
    decision.emit(
        ev.DamageAnnounced, actor="rules", target=hero, amount=1, reason="caught_cheating"
    )


def deal_announced(decision: Decision, announced: dict[str, Any]) -> None:
    """The damage window closed: the rules deal what was announced, less what was prevented,
    then the fight goes on (docs/rules.md A.9 (II) 1, 2.1 step 1, (I) step 7)."""
    amount = max(0, int(announced["amount"]) - int(announced["prevented"]))
    reason = announced["reason"]
    target = announced["target"]
    if reason in ("limp_away", "caught_cheating"):
        decision.emit(ev.DamageDealt, actor="rules", source=None, target=target, amount=amount)
        outcome = "ran" if reason == "limp_away" else "caught"
        end_fight_returning(decision, outcome, face="down")
        return
    fight = decision.state.get("fight")
    if fight is None or fight["card"] is None:
        after_card_left(decision)
        return
    monster_id = fight["card"]
    if target is None:  # split among committed Allies: see pending_damage / decide_allocate
        if amount == 0:
            finish_fight(decision, squished=False)
        return
    _monster_hits(decision, target, amount)
    heal_by_life_o_suction(decision, monster_id, amount)
    finish_fight(decision, squished=False)


def defense_of(s: State) -> int:
    """The defense of every committed card, summed (docs/rules.md D.4)."""
    fight = s["fight"]
    return sum(int(s["cards"][x]["def"].get("defense") or 0) for x in fight["defender_cards"])


def _monster_hits(decision: Decision, target: str, amount: int) -> None:
    """The fight's Monster deals ``amount`` combat damage to ``target``, the committed cards'
    defense having taken up to its power off (docs/rules.md D.4)."""
    fight = decision.state["fight"]
    reduced = min(int(fight["monster"]["power"]), defense_of(decision.state))
    decision.emit(
        ev.DamageDealt,
        actor="rules",
        source=fight["card"],
        target=target,
        amount=amount,
        kind="combat",
        reduced_by_defense=reduced,
    )


def strike(decision: Decision) -> None:
    """docs/rules.md A.9 (I) 5-7: hire gold to the stockpile, weapons strike, then the Monster."""
    fight = decision.state["fight"]
    if fight is None:
        return
    if fight["card"] is None:
        end_fight_returning(decision, "no_card", face="down")
        return
    decision.emit(ev.HireGoldSpent, actor="rules", player=fight["attacker"], amount=fight["gold"])
    cards = decision.state["cards"]
    weapons = [x for x in fight["defender_cards"] if cards[x]["def"].get("subtype") == "weapon"]
    power = sum(int(cards[x]["def"].get("power") or 0) for x in weapons)
    monster_id = fight["card"]
    if power:
        decision.emit(
            ev.DamageDealt,
            actor="rules",
            source=weapons[0] if len(weapons) == 1 else None,
            target=monster_id,
            amount=power,
            kind="combat",
        )
    monster = decision.state["cards"][monster_id]
    if monster["damage"] >= decision.state["fight"]["monster"]["life"]:
        finish_fight(decision, squished=True)
        return
    defense = defense_of(decision.state)
    raw = int(decision.state["fight"]["monster"]["power"])
    damage = max(0, raw - defense)
    allies = [
        x for x in decision.state["fight"]["defender_cards"] if cards[x]["def"]["type"] == "ally"
    ]
    defender = decision.state["fight"]["defender"]
    hero = decision.state["seats"][defender]["hero"]
    if damage > 0:
        # The Monster strikes; its damage waits for interrupts (Prevent X) first (A.11).
        decision.emit(
            ev.DamageAnnounced,
            actor="rules",
            target=None if allies else hero,
            amount=damage,
            reason="strike",
            source=monster_id,
        )
        return
    if defense > 0 and not allies:
        _monster_hits(decision, hero, 0)
    finish_fight(decision, squished=False)


def pending_damage(s: State) -> int | None:
    """Monster damage waiting for the defender's allocation among committed Allies (D.3): what
    the strike announced less what was prevented, once the damage window closed."""
    fight = s.get("fight")
    if not fight or not fight.get("hired") or fight["stage"] != "allocating":
        return None
    if s.get("window") is not None or s.get("stack") or fight["card"] is None:
        return None
    announced = fight.get("announced") or {}
    damage = max(0, int(announced.get("amount") or 0) - int(announced.get("prevented") or 0))
    return damage if damage > 0 else None


def decide_allocate(decision: Decision, command: Command) -> None:
    s, seat = decision.state, decision.seat
    decision.require(s.get("fight") is not None, "command/no_fight", "no fight is in progress")
    damage = pending_damage(s)
    decision.require(
        damage is not None, "command/nothing_to_allocate", "no Monster damage to allocate"
    )
    assert damage is not None
    fight = s["fight"]
    decision.check(seat == fight["defender"], "rule/not_defender", "the defender allocates", "D.3")
    decision.require(seat == fight["defender"], "command/not_defender", "the defender allocates")
    alloc = command.get("damage")
    if not isinstance(alloc, dict) or not all(is_card_number(v) for v in alloc.values()):
        raise InvalidCommand(
            "request/invalid_allocation",
            f"'damage' maps card ids to amounts from 0 to {MAX_NUMBER}",
            {"damage": [f"{{card id: 0..{MAX_NUMBER}}}"]},
        )
    for key in alloc:
        if key != "hero":
            decision.require(
                key in fight["defender_cards"] and s["cards"][key]["def"]["type"] == "ally",
                "command/not_committed",
                f"{key!r} is not a committed Ally",
            )
    decision.check(
        not alloc.get("hero"),
        "rule/allocation_to_hero",
        "with Allies committed, none to the Hero",
        "D.3",
    )
    decision.check(
        sum(alloc.values()) == damage,
        "rule/allocation_total",
        f"allocate exactly {damage} damage",
        "D.3",
    )
    decision.emit(ev.DamageAllocated, player=seat, allocation={k: v for k, v in alloc.items() if v})
    for key, amount in alloc.items():
        if key != "hero" and amount and squish_if_dead(decision, key):
            after_card_left(decision)
    heal_by_life_o_suction(decision, fight["card"], sum(alloc.values()))
    finish_fight(decision, squished=False)


def after_card_left(decision: Decision) -> None:
    """docs/rules.md A.9 "No attacking card": "that fight ends. Go to Step 8" (D.27): the
    end-of-fight triggers of the defender's cards (8(a)), then gold back (D.6) and the
    defenders home; the fight ends at once when nothing triggers."""
    fight = decision.state.get("fight")
    if fight is None or fight["card"] is not None or fight["stage"] == "committing":
        return
    if fight["stage"] == "ending" and decision.state["stack"]:
        return  # its step 8(a) triggers resolve first: stack.continue_after_stack ends it
    finish_fight(decision, squished=False)


def finish_fight(decision: Decision, squished: bool) -> None:
    """docs/rules.md A.9 step 8: the Monster to discard or face up to the stash, defenders home."""
    fight = decision.state.get("fight")
    if fight is None or decision.finished:
        return
    monster = fight["card"]
    # (a) end-of-fight triggers of the fight's cards; Survivor before the move (A.9 step 8).
    put = False
    for cid in [*([monster] if monster else []), *fight["defender_cards"]]:
        owner = decision.state["cards"][cid]["owner"]
        put = trigger(decision, cid, "end_of_fight", owner) or put
    if monster is not None and not squished:
        put = trigger(decision, monster, "survivor", fight["attacker"]) or put
    if put:
        return  # stack.continue_after_stack finishes the fight once they resolved
    fight = decision.state.get("fight")
    if fight is None:
        return
    monster = fight["card"]
    if monster is None:  # the attacking card left (A.9 "No attacking card", D.6)
        end_fight_returning(decision, "no_card", face="down")
        return
    card = decision.state["cards"][monster]
    if squished:
        if card["def"]["keywords"].get("regenerate"):
            decision.emit(ev.CardStashed, actor="rules", card=monster, face="down", source=monster)
        else:
            decision.emit(ev.MonsterDiscarded, actor="rules", card=monster)
    else:
        decision.emit(ev.MonsterStashedFaceUp, actor="rules", card=monster, damage=card["damage"])
    return_defenders(decision)
    decision.emit(ev.FightEnded, actor="rules", outcome="squished" if squished else "survived")
