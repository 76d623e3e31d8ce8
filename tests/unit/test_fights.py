"""The fight procedure end to end (docs/rules.md A.9, A.10-A.12, D.2-D.4, D.6, D.11).

Damage the rules deal in a fight (limping away 2, caught cheating 1, the Monster's strike) is
first announced (``DamageAnnounced``: a response window of kind ``"damage"`` for interrupts such
as Prevent, docs/rules.md A.11, A.12); it is dealt once both seats pass. Mandatory triggers
(Hired, Survivor, end of fight) are put on the stack by the engine (``AbilityTriggered``) and
resolved by their controller with exactly their card's effects (docs/cards.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from domain import ImpossibleCommand, RuleViolation
from domain.ccg import commitment
from domain.ccg import events as ev
from tests.builders import (
    RS,
    THIEF,
    WARRIOR,
    State,
    add_gold,
    attack_revealed,
    card_def,
    cmd,
    damage,
    game_spec,
    give,
    hero,
    next_turn,
    of_type,
    play,
    started_game,
    types,
    with_damage,
    zone_of,
)

BOTH_PASS = (cmd("pass", "A"), cmd("pass", "B"))
#: The Goblin Horde's "Hired: deal 1 damage to the defending Hero", as its stack entry plans it.
HORDE_HIRED = [{"op": "damage", "amount": 1, "to": "defending_hero", "index": None}]


def attack_faced(
    monster: str, gold: int, *defenders: str, extra_gold: int = 0, start: State | None = None
) -> tuple[State, str, list[str]]:
    """From ``start`` (default: a started game), A attacks with ``monster`` and ``gold``; B faces,
    commits ``defenders`` (from its hoard, put there first), declares ready; A reveals."""
    s = start if start is not None else started_game()[0]
    committed = []
    for name in defenders:
        s, cid = give(s, "B", name, "hoard")
        committed.append(cid)
    s, card = give(s, "A", monster)
    s = add_gold(s, "A", extra_gold) if extra_gold else s
    s, _ = play(s, *attack_revealed("A", card, gold, committed))
    return s, card, committed


def hire(s: State) -> tuple[State, list[ev.Event]]:
    """Both players pass the cost window; a Goblin Horde's Hired trigger, if it fired, is
    recorded with exactly its effect (1 damage to the defending Hero) and resolved."""
    s, events = play(s, *BOTH_PASS)
    if s["stack"]:
        top = s["stack"][-1]
        assert (top["kind"], top["plan"]) == ("hired", HORDE_HIRED), top
        s, more = play(
            s,
            cmd("damage", "A", source=top["card"], target=hero(s, "B"), amount=1),
            cmd("resolve", "A"),
        )
        events += more
    return s, events


def strike(s: State) -> tuple[State, list[ev.Event]]:
    """Both players pass the hire window, and the damage window the strike opens if it
    announced damage: the state and the strike's events."""
    s, events = play(s, *BOTH_PASS)
    if (s["window"] or {}).get("kind") == "damage":
        s, more = play(s, *BOTH_PASS)
        events += more
    return s, events


def to_the_strike(s: State) -> tuple[State, list[ev.Event]]:
    """:func:`hire`, then :func:`strike`: the state and the strike's events."""
    s, _ = hire(s)
    return strike(s)


def refused(s: State, command: dict[str, Any]) -> tuple[str, str]:
    """The (code, section) a strict game refuses ``command`` with; the state is untouched."""
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, command)
    return info.value.code, info.value.rule


def recorded(s: State, command: dict[str, Any]) -> list[ev.Event]:
    """The events a record-mode game records for ``command`` (it must record some)."""
    events = [step.event for step in RS.decide(s, command)]
    assert events, command
    return events


# ---------------------------------------------------------------------------- starting, running


def test_starting_a_fight_commits_one_card_face_down_with_a_salted_commitment() -> None:
    s, _ = started_game()
    s, pot = give(s, "A", "Sample Plant Pot")
    s, events = play(s, cmd("attack", "A", card=pot, gold=1, salt="pepper"))
    assert types(events) == ["FightStarted", "AttackCardCommitted", "GoldCommitted"]
    committed = of_type(events, ev.AttackCardCommitted)[0]
    assert committed.commitment == commitment("pepper", pot, "Sample Plant Pot")
    assert s["cards"][pot]["zone"] == "dmz"
    assert s["cards"][pot]["face"] == "down"
    assert s["cards"][pot]["known"] == ["A"]
    assert s["seats"]["A"]["gold"] == 0
    assert (s["fight"]["attacker"], s["fight"]["defender"], s["fight"]["gold"]) == ("A", "B", 1)


def ran_once(start: State | None = None) -> State:
    """A attacks with a Plant Pot and B runs away on its marker (the marker flips to limp)."""
    s = start if start is not None else started_game()[0]
    s, pot = give(s, "A", "Sample Plant Pot")
    s, _ = play(s, cmd("attack", "A", card=pot, gold=1), cmd("run_away", "B"))
    return s


def test_a_first_run_away_only_flips_the_marker_and_a_second_in_the_same_turn_costs_2_damage() -> (
    None
):
    s, _ = started_game()
    s, pot = give(s, "A", "Sample Plant Pot")
    s, first = play(s, cmd("attack", "A", card=pot, gold=1), cmd("run_away", "B"))
    assert types(first)[3:] == [
        "RanAway",
        "RunAwayMarkerFlipped",
        "CommittedGoldReturned",
        "CardStashed",
        "FightEnded",
    ]
    assert of_type(first, ev.RanAway)[0].paid_by == "marker"
    assert s["seats"]["B"]["marker"] == "limp_away"
    assert damage(s, "B") == 0
    assert s["seats"]["A"]["gold"] == 1, "the committed gold went back to the attacker"
    assert (zone_of(s, pot), s["cards"][pot]["face"]) == ("stash", "down")
    assert s["cards"][pot]["known"] == ["A"], "a run-away card is never shown to the defender"
    assert s["fight"] is None

    s, horde = give(s, "A", "Sample Goblin Horde")
    s, second = play(s, cmd("attack", "A", card=horde, gold=0), cmd("run_away", "B"))
    assert of_type(second, ev.RanAway)[0].paid_by == "damage"
    assert types(second)[3:] == ["RanAway", "DamageAnnounced"], "A.11: interrupts come first"
    announced = of_type(second, ev.DamageAnnounced)[0]
    assert (announced.target, announced.amount, announced.reason) == (hero(s, "B"), 2, "limp_away")
    assert s["window"]["kind"] == "damage" and damage(s, "B") == 0, "announced, not dealt yet"

    s, dealt = play(s, *BOTH_PASS)
    assert types(dealt) == [
        "PriorityPassed",
        "PriorityPassed",
        "ResponseWindowClosed",
        "DamageDealt",
        "CardStashed",
        "FightEnded",
    ]
    assert [(d.target, d.amount) for d in of_type(dealt, ev.DamageDealt)] == [(hero(s, "B"), 2)]
    assert damage(s, "B") == 2
    assert s["seats"]["B"]["marker"] == "limp_away"
    assert (zone_of(s, horde), s["cards"][horde]["face"]) == ("stash", "down")
    assert of_type(dealt, ev.FightEnded)[0].outcome == "ran"
    assert "AbilityTriggered" not in types(second + dealt), (
        "a Monster that is run from is not hired"
    )


def test_prevent_1_in_the_damage_window_of_a_limp_away_takes_1_off_the_2_damage() -> None:
    """Sample Tin Shield (zap, interrupt: Prevent 1) answers the announced limp-away damage
    (docs/rules.md A.9 (II) 1, A.11, A.12 Prevent)."""
    s, shield = give(started_game()[0], "B", "Sample Tin Shield", "hoard")
    s = ran_once(s)
    s, horde = give(s, "A", "Sample Goblin Horde")
    s, _ = play(s, cmd("attack", "A", card=horde, gold=0), cmd("run_away", "B"), cmd("pass", "A"))
    assert s["window"]["passed"] == ["A"]

    s, activated = play(s, cmd("activate", "B", card=shield))
    assert of_type(activated, ev.AbilityActivated)[0].costs["zap"] is True
    assert s["cards"][shield]["zapped"] is True
    with pytest.raises(RuleViolation) as wrong:
        RS.decide(s, cmd("prevent", "B", source=shield, amount=2))
    assert (wrong.value.code, wrong.value.rule) == ("rule/wrong_amount", "A.11"), "Prevent 1"
    s, prevented = play(s, cmd("prevent", "B", source=shield, amount=1), cmd("resolve", "B"))
    assert types(prevented) == ["DamagePrevented", "AbilityResolved"]
    assert of_type(prevented, ev.DamagePrevented)[0].amount == 1
    assert s["window"]["damage"]["prevented"] == 1
    assert s["window"]["passed"] == [], "an action in the window: both must pass again (A.11)"

    s, dealt = play(s, *BOTH_PASS)
    assert [(d.target, d.amount) for d in of_type(dealt, ev.DamageDealt)] == [(hero(s, "B"), 1)]
    assert damage(s, "B") == 1
    assert of_type(dealt, ev.FightEnded)[0].outcome == "ran"


def test_only_an_interrupt_answers_the_damage_window() -> None:
    s = ran_once()
    s, horde = give(s, "A", "Sample Goblin Horde")
    s, _ = play(s, cmd("attack", "A", card=horde, gold=0), cmd("run_away", "B"))
    code = refused(s, cmd("activate", "B", card=hero(s, "B")))  # the Thief's zap: draw 2 ...
    assert code == ("rule/not_an_interrupt", "A.11")
    assert refused(s, cmd("end_turn", "A")) == ("rule/fight_in_progress", "A.9")


def test_the_marker_flips_back_to_run_away_in_the_defenders_own_warmup() -> None:
    s, _ = started_game()
    s, pot = give(s, "A", "Sample Plant Pot")
    s, _ = play(s, cmd("attack", "A", card=pot, gold=0), cmd("run_away", "B"))
    s, events = next_turn(s)
    flips = of_type(events, ev.RunAwayMarkerFlipped)
    assert [(f.player, f.side) for f in flips] == [("B", "run_away")]
    assert s["seats"]["B"]["marker"] == "run_away"


# ---------------------------------------------------------------------------- the cheating check


def test_a_bluff_is_caught_cheating_costs_1_damage_returns_the_gold_and_unlocks_sketchy() -> None:
    s, _ = started_game(heroes=(THIEF, WARRIOR))
    s, henchman = give(s, "A", "Sample Shifty Henchman", "hoard")
    with pytest.raises(RuleViolation) as locked:
        RS.decide(s, cmd("activate", "A", card=henchman))
    assert locked.value.code == "rule/sketchy"

    s, sword = give(s, "A", "Sample Rusty Sword")
    s, events = play(s, *attack_revealed("A", sword, 1))
    assert types(events)[-4:] == [
        "AttackCardRevealed",
        "CheatingChecked",
        "CaughtCheating",
        "DamageAnnounced",
    ]
    assert of_type(events, ev.CheatingChecked)[0].result == "not_monster"
    announced = of_type(events, ev.DamageAnnounced)[0]
    assert (announced.target, announced.amount, announced.reason) == (
        hero(s, "A"),
        1,
        "caught_cheating",
    )
    assert damage(s, "A") == 0, "announced, not dealt yet"
    s, events = play(s, *BOTH_PASS)
    assert types(events)[-4:] == [
        "DamageDealt",
        "CommittedGoldReturned",
        "CardStashed",
        "FightEnded",
    ]
    assert damage(s, "A") == 1
    assert s["seats"]["A"]["gold"] == 1, "gold back to the purse"
    assert (zone_of(s, sword), s["cards"][sword]["face"]) == ("stash", "down")
    assert s["cards"][sword]["known"] == ["A", "B"], "a revealed card stays known to both"
    assert of_type(events, ev.FightEnded)[0].outcome == "caught"
    assert s["seats"]["A"]["caught_cheating"] is True

    s, activated = play(s, cmd("activate", "A", card=henchman))
    assert types(activated) == ["AbilityActivated"]
    s, stolen = play(s, cmd("steal", "A", source=henchman, amount=1), cmd("resolve", "A"))
    assert types(stolen) == ["GoldStolen", "AbilityResolved"]
    assert of_type(stolen, ev.AbilityResolved)[0].outcome == "resolved"

    s, _ = next_turn(s)
    s, _ = next_turn(s)
    assert s["active"] == "A"
    with pytest.raises(RuleViolation) as relocked:
        RS.decide(s, cmd("activate", "A", card=henchman))
    assert relocked.value.code == "rule/sketchy", "Sketchy unlocks for that turn only"


def test_an_underpaid_monster_is_caught_cheating_once_both_players_pass() -> None:
    s, horde, _ = attack_faced("Sample Goblin Horde", 1)
    s, events = play(s, *BOTH_PASS)
    checked = of_type(events, ev.CheatingChecked)[0]
    assert (checked.result, checked.gold, checked.cost) == ("underpaid", 1, 2)
    assert types(events)[-2:] == ["CaughtCheating", "DamageAnnounced"]
    assert "AbilityTriggered" not in types(events), "an underpaid Monster is not hired"
    s, events = play(s, *BOTH_PASS)
    assert damage(s, "A") == 1
    assert s["seats"]["A"]["gold"] == 1
    assert (zone_of(s, horde), s["cards"][horde]["face"]) == ("stash", "down")
    assert s["cards"][horde]["known"] == ["A", "B"]
    assert of_type(events, ev.FightEnded)[0].outcome == "caught"


def test_haggler_modifies_the_revealed_monsters_cost_by_minus_2_only_while_it_resolves() -> None:
    """Sample Haggler (Interrupt, in a fight: the revealed Monster costs 2 less) played in the
    cheat-check window decides the hire (docs/rules.md A.9 "Check for cheating", A.11)."""
    s, horde, _ = attack_faced("Sample Goblin Horde", 1, extra_gold=1)
    assert refused(s, cmd("modify_cost", "A", card=horde, cost=0)) == (
        "rule/no_ability_resolving",
        "A.11",
    ), "no cost changes without an ability saying so"
    s, haggler = give(s, "A", "Sample Haggler")
    s, played = play(s, cmd("play", "A", card=haggler))
    assert types(played) == ["MischiefPlayed"]
    assert refused(s, cmd("modify_cost", "A", source=haggler, card=horde, cost=1)) == (
        "rule/wrong_amount",
        "A.11",
    ), "2 less, not 1 less"
    s, modified = play(s, cmd("modify_cost", "A", source=haggler, card=horde, cost=0))
    assert [(m.card, m.cost, m.source) for m in of_type(modified, ev.MonsterCostModified)] == [
        (horde, 0, haggler)
    ]
    s, resolved = play(s, cmd("resolve", "A"))
    assert of_type(resolved, ev.AbilityResolved)[0].outcome == "resolved"
    assert zone_of(s, haggler) == "discard"
    assert refused(s, cmd("modify_cost", "A", source=haggler, card=horde, cost=0)) == (
        "rule/no_ability_resolving",
        "A.11",
    ), "once Haggler has resolved, it modifies nothing more"

    s, events = play(s, *BOTH_PASS)
    checked = of_type(events, ev.CheatingChecked)[0]
    assert (checked.result, checked.gold, checked.cost) == ("hired", 1, 0)


def test_a_cost_modified_with_no_ability_is_flagged_in_record_mode_and_decides_the_hire() -> None:
    """A cost change nothing on the table made (the old free ``modify_cost``) is kept as told in
    a recorded game, flagged ``rule/no_ability_resolving`` (docs/rules.md A.11)."""
    s, horde, _ = attack_faced("Sample Goblin Horde", 1, start=started_game(mode="record")[0])
    s, events = play(s, cmd("modify_cost", "B", card=horde, cost=1))
    assert types(events) == ["MonsterCostModified"]
    assert events[0].violation == "rule/no_ability_resolving"
    s, events = play(s, *BOTH_PASS)
    assert of_type(events, ev.CheatingChecked)[0].result == "hired"


def test_a_hire_with_overpayment_loses_all_committed_gold_to_the_stockpile() -> None:
    s, _, _ = attack_faced("Sample Plant Pot", 3, extra_gold=2)
    assert s["seats"]["A"]["gold"] == 0
    s, hired = play(s, *BOTH_PASS)
    assert types(hired)[-2:] == ["CheatingChecked", "MonsterHired"]
    assert of_type(hired, ev.MonsterHired)[0].power == 1
    s, struck = play(s, *BOTH_PASS)
    spent = of_type(struck, ev.HireGoldSpent)
    assert [(x.player, x.amount) for x in spent] == [("A", 3)], "surplus 2 is lost too"
    assert s["seats"]["A"]["gold"] == 0
    assert "CommittedGoldReturned" not in types(struck)


# ---------------------------------------------------------------------------- Hired


def test_the_goblin_hordes_hired_trigger_goes_on_the_stack_once_and_resolves_as_printed() -> None:
    """Hired: deal 1 damage to the defending Hero. The engine puts it on the stack when the
    Monster is hired; the attacker records exactly that effect and resolves it before the hire
    window can close (docs/rules.md A.9 step 4, A.11; docs/cards.md)."""
    s, horde, _ = attack_faced("Sample Goblin Horde", 2, extra_gold=1)
    s, events = play(s, *BOTH_PASS)
    assert types(events)[-3:] == ["CheatingChecked", "MonsterHired", "AbilityTriggered"]
    triggered = of_type(events, ev.AbilityTriggered)
    assert [(t.player, t.card, t.ability, t.trigger, t.seat) for t in triggered] == [
        ("A", horde, 0, "hired", "rules")
    ]
    assert [(e["card"], e["kind"], e["plan"]) for e in s["stack"]] == [
        (horde, "hired", HORDE_HIRED)
    ]
    assert s["window"]["kind"] == "hire"

    b_hero = hero(s, "B")
    assert refused(s, cmd("pass", "A")) == ("rule/ability_resolving", "A.11")
    assert refused(s, cmd("resolve", "A")) == ("rule/effect_skipped", "A.11")
    assert refused(s, cmd("resolve", "B")) == ("rule/not_your_ability", "A.11")
    damage_b = {"source": horde, "target": b_hero}
    assert refused(s, cmd("damage", "A", **damage_b, amount=2)) == ("rule/wrong_amount", "A.11")
    assert refused(s, cmd("damage", "A", source=horde, target=hero(s, "A"), amount=1)) == (
        "rule/wrong_target",
        "A.11",
    )
    assert refused(s, cmd("take_gold", "A", source=horde, amount=1)) == (
        "rule/wrong_effect",
        "A.11",
    )

    s, effect = play(s, cmd("damage", "A", **damage_b, amount=1))
    assert [(d.source, d.target, d.amount) for d in of_type(effect, ev.DamageDealt)] == [
        (horde, b_hero, 1)
    ]
    assert refused(s, cmd("damage", "A", **damage_b, amount=1)) == (
        "rule/not_the_cards_effect",
        "A.11",
    ), "one damage, once"
    s, resolved = play(s, cmd("resolve", "A"))
    assert [(r.card, r.outcome) for r in of_type(resolved, ev.AbilityResolved)] == [
        (horde, "resolved")
    ]
    assert s["stack"] == [] and s["window"]["kind"] == "hire"
    assert refused(s, cmd("activate", "A", card=horde, ability=0)) == (
        "rule/no_such_ability",
        "A.11",
    ), "a Hired ability is triggered by the engine, never activated by the attacker"

    s, rest = strike(s)
    assert "AbilityTriggered" not in types(rest), "Hired fires once per fight"
    assert damage(s, "B") == 1 + 3, "the Hired 1, then the strike of power 3"


@pytest.mark.parametrize("mode", ["strict", "record"])
def test_activating_a_hired_ability_by_hand_is_refused_or_flagged(mode: str) -> None:
    """The old contract let the attacker activate a Hired ability; now it is a trigger only
    (docs/rules.md A.11): refused in strict mode, kept but flagged in record mode."""
    start = started_game(mode=mode)[0]
    s, horde, _ = attack_faced("Sample Goblin Horde", 2, extra_gold=1, start=start)
    s, _ = hire(s)
    command = cmd("activate", "A", card=horde, ability=0)
    if mode == "strict":
        assert refused(s, command) == ("rule/no_such_ability", "A.11")
        return
    events = recorded(s, command)
    assert types(events) == ["AbilityActivated"]
    assert events[0].violation == "rule/no_such_ability"
    assert events[0].unchecked is True, "what it does is recorded as told"


# ---------------------------------------------------------------------------- strikes


def test_weapons_squish_the_monster_which_goes_to_its_owners_discard() -> None:
    s, horde, (sword,) = attack_faced("Sample Goblin Horde", 2, "Sample Rusty Sword", extra_gold=1)
    s, events = to_the_strike(s)
    assert types(events)[-5:] == [
        "HireGoldSpent",
        "DamageDealt",
        "MonsterDiscarded",
        "DefenderCardsReturned",
        "FightEnded",
    ]
    strike_ = of_type(events, ev.DamageDealt)[0]
    assert (strike_.source, strike_.target, strike_.amount, strike_.kind) == (
        sword,
        horde,
        2,
        "combat",
    )
    assert zone_of(s, horde) == "discard" and horde in s["seats"]["A"]["zones"]["discard"]
    assert "DamageAnnounced" not in types(events), "a squished Monster does not strike"
    assert damage(s, "B") == 1, "only the Hired 1"
    assert (zone_of(s, sword), s["cards"][sword]["zapped"]) == ("hoard", True)
    assert of_type(events, ev.FightEnded)[0].outcome == "squished"


def test_monster_damage_is_announced_then_allocated_across_allies() -> None:
    s, brute, (squire, weasel) = attack_faced(
        "Sample Axe Brute", 3, "Sample Loyal Squire", "Sample Trained Weasel", extra_gold=2
    )
    s, _ = hire(s)
    s, struck = play(s, *BOTH_PASS)
    assert types(struck)[-2:] == ["HireGoldSpent", "DamageAnnounced"]
    announced = of_type(struck, ev.DamageAnnounced)[0]
    assert (announced.target, announced.amount, announced.reason, announced.source) == (
        None,
        4,
        "strike",
        brute,
    ), "5 - 1 defense = 4, for the defender to split among its Allies (D.3)"
    assert s["fight"]["stage"] == "allocating"
    assert not [c for c in RS.legal_commands(s, "B") if c["type"] == "allocate"]
    with pytest.raises(ImpossibleCommand) as early:
        RS.decide(s, cmd("allocate", "B", damage={squire: 1, weasel: 3}))
    assert early.value.code == "command/nothing_to_allocate", "the damage window comes first"

    s, _ = play(s, *BOTH_PASS)
    options = [c for c in RS.legal_commands(s, "B") if c["type"] == "allocate"]
    assert all(sum(c["damage"].values()) == 4 for c in options) and options

    s, events = play(s, cmd("allocate", "B", damage={squire: 1, weasel: 3}))
    allocated = of_type(events, ev.DamageAllocated)[0]
    assert allocated.allocation == {squire: 1, weasel: 3}
    squished = of_type(events, ev.CardSquished)
    assert [(x.card, x.reason) for x in squished] == [(weasel, "damage")]
    assert zone_of(s, weasel) == "discard", "3 damage >= life 1"
    assert (zone_of(s, squire), s["cards"][squire]["damage"]) == ("hoard", 1), "1 < life 2"
    assert s["cards"][squire]["zapped"] is True
    assert damage(s, "B") == 0, "no damage spills to the Hero (D.3)"
    assert (zone_of(s, brute), s["cards"][brute]["face"]) == ("stash", "up")


def test_prevent_1_in_the_damage_window_of_a_strike_lowers_what_the_hero_takes() -> None:
    s, shield = give(started_game()[0], "B", "Sample Tin Shield", "hoard")
    s, brute, _ = attack_faced("Sample Axe Brute", 3, extra_gold=2, start=s)
    s, _ = hire(s)
    s, _ = play(s, *BOTH_PASS)
    assert s["window"]["damage"]["amount"] == 5
    s, _ = play(
        s,
        cmd("activate", "B", card=shield),
        cmd("prevent", "B", source=shield, amount=1),
        cmd("resolve", "B"),
    )
    s, events = play(s, *BOTH_PASS)
    dealt = of_type(events, ev.DamageDealt)
    assert [(d.source, d.target, d.amount, d.kind) for d in dealt] == [
        (brute, hero(s, "B"), 4, "combat")
    ]
    assert damage(s, "B") == 4
    assert of_type(events, ev.FightEnded)[0].outcome == "survived"


def test_prevent_1_in_the_damage_window_of_a_strike_lowers_what_the_allies_split() -> None:
    s, shield = give(started_game()[0], "B", "Sample Tin Shield", "hoard")
    s, _, (squire, weasel) = attack_faced(
        "Sample Axe Brute", 3, "Sample Loyal Squire", "Sample Trained Weasel", extra_gold=2, start=s
    )
    s, _ = hire(s)
    s, _ = play(s, *BOTH_PASS)
    s, _ = play(
        s,
        cmd("activate", "B", card=shield),
        cmd("prevent", "B", source=shield, amount=1),
        cmd("resolve", "B"),
        *BOTH_PASS,
    )
    options = [c for c in RS.legal_commands(s, "B") if c["type"] == "allocate"]
    assert options and all(sum(c["damage"].values()) == 3 for c in options), "4 - 1 prevented"
    assert refused(s, cmd("allocate", "B", damage={squire: 1, weasel: 3})) == (
        "rule/allocation_total",
        "D.3",
    )
    s, _ = play(s, cmd("allocate", "B", damage={squire: 1, weasel: 2}))
    assert s["fight"] is None and zone_of(s, squire) == "hoard"


def test_an_ally_is_squished_when_its_damage_equals_its_life() -> None:
    s, _, (squire,) = attack_faced("Sample Goblin Horde", 2, "Sample Loyal Squire", extra_gold=1)
    s, _ = to_the_strike(s)
    s, events = play(s, cmd("allocate", "B", damage={squire: 2}))
    assert zone_of(s, squire) == "discard"
    assert [x.card for x in of_type(events, ev.CardSquished)] == [squire]


def test_defense_without_allies_reduces_the_damage_on_the_hero() -> None:
    s, _, _ = attack_faced("Sample Goblin Horde", 2, "Sample Leather Armor", extra_gold=1)
    s, events = to_the_strike(s)
    dealt = of_type(events, ev.DamageDealt)
    assert [(d.target, d.amount, d.reduced_by_defense) for d in dealt] == [(hero(s, "B"), 2, 1)]
    assert damage(s, "B") == 1 + 2, "the Hired 1 (no defense against it), then 3 - 1"


def test_defense_above_the_monsters_power_deals_nothing() -> None:
    s, _, _ = attack_faced("Sample Plant Pot", 1, "Sample Leather Armor")
    s, events = to_the_strike(s)
    assert "DamageAnnounced" not in types(events), "nothing to announce"
    assert damage(s, "B") == 0


def test_a_surviving_monster_is_stashed_face_up_with_its_damage_until_its_owners_unstash() -> None:
    s, dragon, (sword,) = attack_faced(
        "Sample Potted Dragon", 5, "Sample Rusty Sword", extra_gold=4
    )
    s, events = to_the_strike(s)
    stashed = of_type(events, ev.MonsterStashedFaceUp)
    assert [(x.card, x.damage) for x in stashed] == [(dragon, 2)]
    assert of_type(events, ev.FightEnded)[0].outcome == "survived"
    assert damage(s, "B") == 6, "power 6, no defense, no Ally: all on the Hero"
    assert (zone_of(s, dragon), s["cards"][dragon]["face"]) == ("stash", "up")
    assert s["cards"][dragon]["damage"] == 2
    assert s["cards"][dragon]["known"] == ["A", "B"]

    s, events = next_turn(s)  # B's turn: A's stash is untouched
    assert (zone_of(s, dragon), s["cards"][dragon]["damage"]) == ("stash", 2)
    s, events = next_turn(s)  # A's warmup unstashes
    unstashed = of_type(events, ev.StashUnstashed)
    assert unstashed[0].player == "A"
    assert dragon in unstashed[0].cards
    assert unstashed[0].tokens_returned == 2
    assert (zone_of(s, dragon), s["cards"][dragon]["damage"]) == ("hand", 0)
    assert s["cards"][dragon]["known"] == ["A"]
    assert (zone_of(s, sword), s["cards"][sword]["zapped"]) == ("hoard", False), "B's unzap"


def test_a_life_o_suction_monster_heals_its_controller_by_what_it_deals() -> None:
    start = with_damage(started_game()[0], "A", 5)
    s, _, _ = attack_faced("Sample Bloodsucker", 4, extra_gold=3, start=start)
    s, events = to_the_strike(s)
    assert damage(s, "B") == 3
    healed = of_type(events, ev.Healed)
    assert [(h.target, h.amount) for h in healed] == [(hero(s, "A"), 3)]
    assert damage(s, "A") == 2


def test_a_squished_regenerating_monster_goes_face_down_to_the_stash() -> None:
    """Weapons deal 2 + 1 = 3 < life 5: B's abilities add 2 before the strike (the Orc
    Warrior's zap, 1; an Encore Prank, 1), each exactly as its card says."""
    start = started_game(heroes=(THIEF, WARRIOR))[0]
    s, prank = give(start, "B", "Sample Encore Prank")
    s, dragon, _ = attack_faced(
        "Sample Potted Dragon",
        5,
        "Sample Rusty Sword",
        "Sample Pointy Stick",
        extra_gold=4,
        start=s,
    )
    s, _ = hire(s)
    warrior = hero(s, "B")
    s, _ = play(s, cmd("activate", "B", card=warrior, targets=[dragon]))
    assert refused(s, cmd("damage", "B", source=warrior, target=dragon, amount=2)) == (
        "rule/wrong_amount",
        "A.11",
    ), "the Warrior's zap deals 1"
    s, _ = play(s, cmd("damage", "B", source=warrior, target=dragon, amount=1), cmd("resolve", "B"))
    s, _ = play(
        s,
        cmd("play", "B", card=prank, targets=[dragon]),
        cmd("damage", "B", source=prank, target=dragon, amount=1),
        cmd("resolve", "B"),
    )
    assert s["cards"][dragon]["damage"] == 2
    s, events = strike(s)
    assert of_type(events, ev.FightEnded)[0].outcome == "squished"
    assert (zone_of(s, dragon), s["cards"][dragon]["face"]) == ("stash", "down")
    assert s["cards"][dragon]["damage"] == 0
    assert damage(s, "B") == 0


def test_a_monstrous_mischief_fights_as_a_monster_with_power_and_life_x() -> None:
    s, rock, _ = attack_faced("Sample Rock in Disguise", 1)
    s, events = play(s, *BOTH_PASS)
    hired = of_type(events, ev.MonsterHired)[0]
    assert (hired.card, hired.power, hired.life) == (rock, 3, 3)
    s, _ = strike(s)
    assert damage(s, "B") == 3


def test_defender_cards_committed_are_zapped_in_the_dmz_and_stay_zapped_after() -> None:
    s, _ = started_game()
    s, sword = give(s, "B", "Sample Rusty Sword", "hoard")
    s, pot = give(s, "A", "Sample Plant Pot")
    s, _ = play(
        s,
        cmd("attack", "A", card=pot, gold=1),
        cmd("face", "B"),
        cmd("commit", "B", cards=[sword]),
    )
    assert (zone_of(s, sword), s["cards"][sword]["zapped"]) == ("dmz", True)
    s, _ = play(s, cmd("ready", "B"), cmd("reveal", "A"), *BOTH_PASS, *BOTH_PASS)
    assert (zone_of(s, sword), s["cards"][sword]["zapped"]) == ("hoard", True)


def test_a_defender_ready_with_nothing_committed_takes_the_whole_strike() -> None:
    s, horde, _ = attack_faced("Sample Goblin Horde", 2, extra_gold=1)
    s, events = to_the_strike(s)
    dealt = of_type(events, ev.DamageDealt)
    assert [(d.source, d.target, d.amount) for d in dealt] == [(horde, hero(s, "B"), 3)]
    assert damage(s, "B") == 1 + 3, "the Hired 1, then the whole power 3"


# ---------------------------------------------------------------------------- no attack card


def test_squishing_the_attack_card_ends_the_fight_at_once_and_returns_the_gold() -> None:
    """The Orc Warrior's zap squishes a hired Plant Pot (life 1) in the hire window: docs/rules.md
    A.9 "No attacking card", D.6 (the attacker still controls the gold)."""
    s, pot, _ = attack_faced("Sample Plant Pot", 1, start=started_game(heroes=(THIEF, WARRIOR))[0])
    s, _ = hire(s)
    gold = s["seats"]["A"]["gold"]
    warrior = hero(s, "B")
    s, _ = play(s, cmd("activate", "B", card=warrior, targets=[pot]))
    s, events = play(s, cmd("damage", "B", source=warrior, target=pot, amount=1))
    assert types(events) == [
        "DamageDealt",
        "CardSquished",
        "CommittedGoldReturned",
        "FightEnded",
    ]
    assert of_type(events, ev.FightEnded)[0].outcome == "no_card"
    assert s["seats"]["A"]["gold"] == gold + 1
    assert zone_of(s, pot) == "discard"
    s, events = play(s, cmd("resolve", "B"))
    assert types(events) == ["AbilityResolved"]
    assert damage(s, "B") == 0


EXORCIST = {
    "name": "Custom Exorcist",
    "type": "hero",
    "class": "neutral",
    "life": 20,
    "text": "Zap: remove a Monster in play from the game.",
    "abilities": [
        {
            "trigger": "activated",
            "cost": {"zap": True},
            "targets": [{"types": ["monster"]}],
            "effects": [{"op": "remove", "to": "target", "index": 0}],
        }
    ],
    "custom": True,
}


def test_removing_the_attack_card_ends_the_fight_at_once_and_returns_the_gold() -> None:
    """A (custom, casual) Hero whose encoded ability removes a Monster: the ``remove`` effect
    takes the hired Goblin Horde, once its Hired trigger has resolved (docs/rules.md A.9, D.6)."""
    spec = game_spec(fmt="casual")
    spec["seats"][1]["hero"] = {**card_def(THIEF), **EXORCIST, "id": spec["seats"][1]["hero"]["id"]}
    s, horde, _ = attack_faced(
        "Sample Goblin Horde", 2, extra_gold=1, start=started_game(spec=spec)[0]
    )
    s, _ = hire(s)  # the hire gold is not spent yet
    gold = s["seats"]["A"]["gold"]
    exorcist = hero(s, "B")
    s, _ = play(s, cmd("activate", "B", card=exorcist, targets=[horde]))
    s, events = play(s, cmd("remove", "B", source=exorcist, card=horde))
    assert types(events) == ["CardRemoved", "CommittedGoldReturned", "FightEnded"]
    assert of_type(events, ev.FightEnded)[0].outcome == "no_card"
    assert s["seats"]["A"]["gold"] == gold + 2, "D.6: the attacker still controls the gold"
    assert zone_of(s, horde) == "removed"
    s, events = play(s, cmd("resolve", "B"))
    assert types(events) == ["AbilityResolved"]
    assert damage(s, "B") == 1, "only the Hired 1: a removed Monster never strikes"


@pytest.mark.parametrize("mode", ["strict", "record"])
def test_an_effect_the_resolving_card_does_not_have_is_refused_or_flagged(mode: str) -> None:
    """The old test removed the attack card with the Gnome Thief's zap, whose text draws 2 cards:
    an effect its card does not have (docs/rules.md A.11)."""
    start = started_game(mode=mode)[0]
    s, horde, _ = attack_faced("Sample Goblin Horde", 2, extra_gold=1, start=start)
    s, _ = hire(s)
    s, _ = play(s, cmd("activate", "B", card=hero(s, "B")))
    command = cmd("remove", "B", source=hero(s, "B"), card=horde)
    if mode == "strict":
        assert refused(s, command) == ("rule/wrong_effect", "A.11")
        return
    events = recorded(s, command)
    assert types(events)[0] == "CardRemoved"
    assert events[0].violation == "rule/wrong_effect"


# ---------------------------------------------------------------------------- the fight's end


def test_grave_moths_survivor_trigger_fires_once_before_it_is_stashed_face_up() -> None:
    """Survivor: take 1 gold. It triggers when the Monster survives the fight, before it goes to
    the stash (docs/rules.md A.9 step 8, A.12)."""
    s, moth, _ = attack_faced("Sample Grave Moth", 2, extra_gold=1)
    s, _ = hire(s)
    s, events = strike(s)
    assert types(events)[-2:] == ["DamageDealt", "AbilityTriggered"]
    triggered = of_type(events, ev.AbilityTriggered)
    assert [(t.player, t.card, t.trigger) for t in triggered] == [("A", moth, "survivor")]
    assert (zone_of(s, moth), s["fight"]["stage"]) == ("dmz", "ending"), "not stashed yet"
    assert refused(s, cmd("end_turn", "A")) == ("rule/ability_resolving", "A.11")

    gold = s["seats"]["A"]["gold"]
    s, events = play(s, cmd("take_gold", "A", source=moth, amount=1), cmd("resolve", "A"))
    assert types(events) == [
        "GoldTaken",
        "AbilityResolved",
        "MonsterStashedFaceUp",
        "FightEnded",
    ], "once resolved, the fight ends; Survivor does not fire again"
    assert s["seats"]["A"]["gold"] == gold + 1
    assert (zone_of(s, moth), s["cards"][moth]["face"]) == ("stash", "up")
    assert of_type(events, ev.FightEnded)[0].outcome == "survived"


def test_a_squished_grave_moth_does_not_survive_so_nothing_triggers() -> None:
    s, moth, _ = attack_faced("Sample Grave Moth", 2, "Sample Rusty Sword", extra_gold=1)
    s, events = to_the_strike(s)
    assert "AbilityTriggered" not in types(events)
    assert zone_of(s, moth) == "discard" and s["fight"] is None


def test_war_drummers_end_of_fight_trigger_heals_its_hero_once_the_fight_is_over() -> None:
    """End of fight, if committed: heal 1 damage from your Hero (docs/rules.md A.9 step 8)."""
    start = with_damage(started_game()[0], "B", 2)
    s, _, (drummer,) = attack_faced("Sample Plant Pot", 1, "Sample War Drummer", start=start)
    s, _ = hire(s)
    s, _ = strike(s)
    s, events = play(s, cmd("allocate", "B", damage={drummer: 1}))
    assert types(events) == ["DamageAllocated", "AbilityTriggered"]
    triggered = of_type(events, ev.AbilityTriggered)
    assert [(t.player, t.card, t.trigger) for t in triggered] == [("B", drummer, "end_of_fight")]
    assert zone_of(s, drummer) == "dmz"
    assert refused(s, cmd("heal", "B", source=drummer, target="B", amount=2)) == (
        "rule/wrong_amount",
        "A.11",
    )
    s, events = play(s, cmd("heal", "B", source=drummer, target="B", amount=1), cmd("resolve", "B"))
    assert types(events) == [
        "Healed",
        "AbilityResolved",
        "MonsterStashedFaceUp",
        "DefenderCardsReturned",
        "FightEnded",
    ]
    assert damage(s, "B") == 1
    assert (zone_of(s, drummer), s["cards"][drummer]["damage"]) == ("hoard", 1)


def test_war_drummers_heal_with_nothing_to_heal_resolves_partially() -> None:
    """An effect that cannot be done may be left out (docs/rules.md A.11 partial resolution)."""
    s, _, (drummer,) = attack_faced("Sample Plant Pot", 1, "Sample War Drummer")
    s, _ = hire(s)
    s, _ = strike(s)
    s, _ = play(s, cmd("allocate", "B", damage={drummer: 1}))
    assert refused(s, cmd("heal", "B", source=drummer, target="B", amount=1)) == (
        "rule/nothing_to_heal",
        "A.10",
    )
    s, events = play(s, cmd("resolve", "B"))
    assert of_type(events, ev.AbilityResolved)[0].outcome == "partial"
    assert types(events)[-1] == "FightEnded"


def test_a_war_drummer_left_in_the_hoard_does_not_trigger() -> None:
    start = with_damage(started_game()[0], "B", 2)
    s, drummer = give(start, "B", "Sample War Drummer", "hoard")
    s, _, _ = attack_faced("Sample Plant Pot", 1, start=s)
    s, _ = hire(s)
    s, events = strike(s)
    assert "AbilityTriggered" not in types(events), "only if committed"
    assert (zone_of(s, drummer), s["cards"][drummer]["zapped"]) == ("hoard", False)
    assert s["fight"] is None and damage(s, "B") == 2 + 1
