"""Elimination, win and draw (docs/rules.md A.8 draw step, A.13, D.9)."""

from __future__ import annotations

import pytest

from domain import ImpossibleCommand
from domain.ccg import events as ev
from tests.builders import (
    RS,
    WARRIOR,
    attack_revealed,
    bleeding,
    cmd,
    damage,
    give,
    hero,
    next_turn,
    of_type,
    play,
    prime_deck,
    started_game,
    types,
    with_damage,
)


def test_a_hero_whose_damage_reaches_its_life_is_eliminated_and_the_opponent_wins() -> None:
    s, _ = started_game()
    s = with_damage(s, "B", 16)  # life 18
    s, pot = give(s, "A", "Sample Plant Pot")
    s, horde = give(s, "A", "Sample Goblin Horde")
    s, _ = play(s, cmd("attack", "A", card=pot, gold=0), cmd("run_away", "B"))
    s, events = play(s, cmd("attack", "A", card=horde, gold=0), cmd("run_away", "B"))
    assert types(events)[-1] == "DamageAnnounced", "limping away: 2 damage, Prevent first (A.11)"
    assert (s["status"], damage(s, "B")) == ("playing", 16)
    s, events = play(s, cmd("pass", "B"), cmd("pass", "A"))
    assert types(events)[-4:] == ["DamageDealt", "PlayerEliminated", "FightEnded", "GameEnded"]
    assert of_type(events, ev.FightEnded)[-1].outcome == "game_over"
    assert of_type(events, ev.PlayerEliminated)[0].reason == "life"
    assert (s["status"], s["winner"], s["fight"]) == ("finished", "A", None)
    with pytest.raises(ImpossibleCommand) as info:
        RS.decide(s, cmd("end_turn", "A"))
    assert info.value.code == "command/game_over"
    assert RS.legal_commands(s, "A") == RS.legal_commands(s, "B") == []


def test_a_player_who_must_draw_from_an_empty_deck_is_eliminated_at_the_draw_step() -> None:
    decks = {"B": prime_deck("Sample Gnome Thief")[:7]}
    s, _ = started_game(fmt="casual", decks=decks)
    s, _ = next_turn(s)  # B draws its 7th and last card
    assert s["seats"]["B"]["zones"]["deck"] == []
    s, _ = next_turn(s)
    s, events = play(s, cmd("end_turn", "A"))
    assert types(events)[-3:] == ["StashUnstashed", "PlayerEliminated", "GameEnded"]
    assert of_type(events, ev.PlayerEliminated)[0].reason == "deck"
    assert "CardDrawn" not in types(events)
    assert (s["status"], s["winner"]) == ("finished", "A")


#: A Hero whose ability hits one Hero, then the other (a custom card, so a casual game).
ONE_THEN_THE_OTHER = {
    WARRIOR: {
        "text": "Zap: deal 1 damage to the opposing Hero, then 1 to your own.",
        "abilities": [
            {
                "cost": {"zap": True},
                "effects": [
                    {"op": "damage", "amount": 1, "to": "opposing_hero"},
                    {"op": "damage", "amount": 1, "to": "your_hero"},
                ],
            }
        ],
    }
}


def test_a_hero_reaching_its_life_mid_ability_is_out_at_once_the_rest_is_moot() -> None:
    """The state check runs after every atomic event, while an ability resolves too (D.9): the
    first damage eliminates B, the game is over before the second one."""
    s, _ = started_game(fmt="casual", changes=ONE_THEN_THE_OTHER)
    s = with_damage(s, "A", 19)  # Orc Warrior, life 20
    s = with_damage(s, "B", 17)  # Gnome Thief, life 18
    a = hero(s, "A")
    s, events = play(
        s,
        cmd("activate", "A", card=a),
        cmd("damage", "A", source=a, target="B", amount=1),
    )
    assert types(events) == ["AbilityActivated", "DamageDealt", "PlayerEliminated", "GameEnded"]
    assert (s["status"], s["winner"]) == ("finished", "A")
    with pytest.raises(ImpossibleCommand) as info:
        RS.decide(s, cmd("damage", "A", source=a, target="A", amount=1))
    assert info.value.code == "command/game_over"


def test_a_caught_cheater_can_lose_to_its_own_bluff() -> None:
    s, _ = started_game()
    s = with_damage(s, "A", 19)
    s, sword = give(s, "A", "Sample Rusty Sword")
    s, events = play(s, *attack_revealed("A", sword, 0))
    assert types(events)[-3:] == ["CheatingChecked", "CaughtCheating", "DamageAnnounced"]
    assert s["status"] == "playing", "the 1 damage waits for interrupts (A.11)"
    s, events = play(s, cmd("pass", "A"), cmd("pass", "B"))
    assert types(events)[-4:] == ["DamageDealt", "PlayerEliminated", "FightEnded", "GameEnded"]
    assert (s["winner"], s["fight"]) == ("B", None)


def test_conceding_eliminates_the_player() -> None:
    s, _ = started_game()
    s, events = play(s, cmd("concede", "A"))
    assert types(events) == ["PlayerConceded", "PlayerEliminated", "GameEnded"]
    assert of_type(events, ev.PlayerEliminated)[0].reason == "concede"
    assert s["winner"] == "B"


def test_bleeding_can_eliminate_in_the_reckoning_before_the_unstash() -> None:
    s, _ = started_game()
    s = with_damage(s, "B", 17)
    s, _ = bleeding(s)
    s, events = play(s, cmd("end_turn", "A"), cmd("pass", "B"), cmd("pass", "A"))
    assert types(events)[-3:] == ["DamageDealt", "PlayerEliminated", "GameEnded"]
    assert "StashUnstashed" not in types(events)
    assert s["winner"] == "A"
