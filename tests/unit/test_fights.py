"""The fight procedure end to end (docs/rules.md A.9, D.2-D.4, D.6, D.11)."""

from __future__ import annotations

import pytest

from domain import RuleViolation, commitment
from domain.ccg import events as ev
from tests.builders import (
    RS,
    THIEF,
    WARRIOR,
    State,
    add_gold,
    attack_revealed,
    cmd,
    damage,
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


def to_the_strike(s: State) -> tuple[State, list[ev.Event]]:
    """Both players pass the hire window, then the strike window: the state and the strike's
    events."""
    s, _ = play(s, *BOTH_PASS)
    return play(s, *BOTH_PASS)


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
    dealt = of_type(second, ev.DamageDealt)
    assert [(d.target, d.amount) for d in dealt] == [(hero(s, "B"), 2)]
    assert damage(s, "B") == 2
    assert s["seats"]["B"]["marker"] == "limp_away"
    assert of_type(second, ev.FightEnded)[0].outcome == "ran"


def test_the_marker_flips_back_to_run_away_in_the_defenders_own_warmup() -> None:
    s, _ = started_game()
    s, pot = give(s, "A", "Sample Plant Pot")
    s, _ = play(s, cmd("attack", "A", card=pot, gold=0), cmd("run_away", "B"))
    s, events = next_turn(s)
    flips = of_type(events, ev.RunAwayMarkerFlipped)
    assert [(f.player, f.side) for f in flips] == [("B", "run_away")]
    assert s["seats"]["B"]["marker"] == "run_away"


def test_a_bluff_is_caught_cheating_costs_1_damage_returns_the_gold_and_unlocks_sketchy() -> None:
    s, _ = started_game(heroes=(THIEF, WARRIOR))
    s, henchman = give(s, "A", "Sample Shifty Henchman", "hoard")
    with pytest.raises(RuleViolation) as locked:
        RS.decide(s, cmd("activate", "A", card=henchman))
    assert locked.value.code == "rule/sketchy"

    s, sword = give(s, "A", "Sample Rusty Sword")
    s, events = play(s, *attack_revealed("A", sword, 1))
    assert types(events)[-7:] == [
        "AttackCardRevealed",
        "CheatingChecked",
        "CaughtCheating",
        "DamageDealt",
        "CommittedGoldReturned",
        "CardStashed",
        "FightEnded",
    ]
    assert of_type(events, ev.CheatingChecked)[0].result == "not_monster"
    assert damage(s, "A") == 1
    assert s["seats"]["A"]["gold"] == 1, "gold back to the purse"
    assert (zone_of(s, sword), s["cards"][sword]["face"]) == ("stash", "down")
    assert s["cards"][sword]["known"] == ["A", "B"], "a revealed card stays known to both"
    assert of_type(events, ev.FightEnded)[0].outcome == "caught"
    assert s["seats"]["A"]["caught_cheating"] is True

    s, activated = play(s, cmd("activate", "A", card=henchman))
    assert types(activated) == ["AbilityActivated"]
    s, _ = play(s, cmd("resolve", "A"))

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
    assert "CaughtCheating" in types(events)
    assert damage(s, "A") == 1
    assert s["seats"]["A"]["gold"] == 1
    assert (zone_of(s, horde), s["cards"][horde]["face"]) == ("stash", "down")
    assert s["cards"][horde]["known"] == ["A", "B"]


def test_a_cost_modified_in_the_cheat_check_window_decides_the_hire() -> None:
    s, horde, _ = attack_faced("Sample Goblin Horde", 1)
    s, events = play(s, cmd("modify_cost", "B", card=horde, cost=1), *BOTH_PASS)
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
    strike = of_type(events, ev.DamageDealt)[0]
    assert (strike.source, strike.target, strike.amount, strike.kind) == (
        sword,
        horde,
        2,
        "combat",
    )
    assert zone_of(s, horde) == "discard" and horde in s["seats"]["A"]["zones"]["discard"]
    assert damage(s, "B") == 0, "a squished Monster does not strike"
    assert (zone_of(s, sword), s["cards"][sword]["zapped"]) == ("hoard", True)
    assert of_type(events, ev.FightEnded)[0].outcome == "squished"


def test_monster_damage_is_reduced_by_defense_and_allocated_across_allies() -> None:
    s, brute, (squire, weasel) = attack_faced(
        "Sample Axe Brute", 3, "Sample Loyal Squire", "Sample Trained Weasel", extra_gold=2
    )
    s, struck = to_the_strike(s)
    assert types(struck)[-1] == "HireGoldSpent", "the defender now splits 5 - 1 defense = 4"
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
    assert damage(s, "B") == 2


def test_defense_above_the_monsters_power_deals_nothing() -> None:
    s, _, _ = attack_faced("Sample Plant Pot", 1, "Sample Leather Armor")
    s, _ = to_the_strike(s)
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
    s, dragon, _ = attack_faced(
        "Sample Potted Dragon", 5, "Sample Rusty Sword", "Sample Pointy Stick", extra_gold=4
    )
    s, _ = play(s, *BOTH_PASS)
    # 2 + 1 = 3 < life 5: add the Sword's damage by an ability to reach 5 before the strike.
    s, _ = play(s, cmd("activate", "B", card=hero(s, "B"), costs={"zap": True}))
    s, _ = play(s, cmd("damage", "B", source=hero(s, "B"), target=dragon, amount=2))
    s, _ = play(s, cmd("resolve", "B"), *BOTH_PASS)
    assert (zone_of(s, dragon), s["cards"][dragon]["face"]) == ("stash", "down")
    assert s["cards"][dragon]["damage"] == 0


def test_a_monstrous_mischief_fights_as_a_monster_with_power_and_life_x() -> None:
    s, rock, _ = attack_faced("Sample Rock in Disguise", 1)
    s, events = play(s, *BOTH_PASS)
    hired = of_type(events, ev.MonsterHired)[0]
    assert (hired.card, hired.power, hired.life) == (rock, 3, 3)
    s, _ = play(s, *BOTH_PASS)
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


def test_removing_the_attack_card_ends_the_fight_at_once_and_returns_the_gold() -> None:
    s, horde, _ = attack_faced("Sample Goblin Horde", 2, extra_gold=1)
    s, _ = play(s, *BOTH_PASS)  # hired; the hire gold is not spent yet
    gold = s["seats"]["A"]["gold"]
    s, _ = play(s, cmd("activate", "B", card=hero(s, "B"), costs={"zap": True}))
    s, events = play(s, cmd("remove", "B", source=hero(s, "B"), card=horde))
    assert types(events) == ["CardRemoved", "CommittedGoldReturned", "FightEnded"]
    assert of_type(events, ev.FightEnded)[0].outcome == "no_card"
    assert s["seats"]["A"]["gold"] == gold + 2, "D.6: the attacker still controls the gold"
    assert zone_of(s, horde) == "removed"
    s, events = play(s, cmd("resolve", "B"))
    assert types(events) == ["AbilityResolved"]
    assert damage(s, "B") == 0


def test_a_defender_ready_with_nothing_committed_takes_the_whole_strike() -> None:
    s, _, _ = attack_faced("Sample Goblin Horde", 2, extra_gold=1)
    s, _ = to_the_strike(s)
    assert damage(s, "B") == 3
