"""When a Hero is eliminated during an ability (issue #24 item 7; docs/rules.md A.13, D.9).

The reading (docs/rules.md D.9, from the Comprehensive Rules): "You are eliminated from the game
when any of the following conditions are met: [...] Damage on your Hero card meets or exceeds
your life." Nothing defers it to the end of an ability, so the state check runs after every
atomic event, while an ability resolves too: a Hero reaching its life is out at once, and what
is left of the ability is moot. Two Heroes reach their life at the same check only through one
atomic event: damage to each Hero at once (the sample Divine Wrath, ``"to": "each_hero"``), and
then "if no Heroes are left (for instance, due to simultaneous damage), the game ends in a
draw" (QS *Ending the Game*).
"""

from __future__ import annotations

from typing import Any

import pytest

from domain import ImpossibleCommand, RuleViolation
from domain.ccg import events as ev
from projections.exports.narration import narrate
from tests import builders as b
from tests.builders import BARD, State, cmd, of_type, play, types

WRATH = "Sample Divine Wrath"
CLERIC = [
    "Sample Holy Promotion",
    "Sample Humbling Prayer",
    "Sample Choir Boy",
    "Sample Penitent Monk",
    WRATH,
]
LIFE = 19  # the Wandering Bard's


def wrath_played(mode: str = "strict", damage: tuple[int, int] = (0, 0)) -> tuple[State, str]:
    """Two Wandering Bards (prime, cleric cards) with ``damage`` on A's and B's Heroes; A plays
    Divine Wrath (2 damage to each Hero): its one effect is next."""
    deck = b.prime_deck(BARD)[:30] + CLERIC * 2
    s, _ = b.started_game(mode=mode, heroes=(BARD, BARD), decks={"A": deck, "B": deck})
    s = b.add_gold(s, "A", 5)
    for seat, amount in zip("AB", damage, strict=True):
        if amount:
            s = b.with_damage(s, seat, amount)
    s, wrath = b.give(s, "A", WRATH)
    s, _ = play(s, cmd("play", "A", card=wrath, gold=3))
    return s, wrath


def each_hero(wrath: str, seat: str = "A") -> dict[str, Any]:
    return cmd("damage", seat, source=wrath, target="each_hero", amount=2)


def told(e: ev.Event, state: State) -> list[str]:
    """The export narration of one event."""
    data = e.to_dict()
    entry = {"type": data["type"], "seat": e.seat, "cause": e.cause, "data": data}
    return narrate({**entry, "violation": e.violation}, state)


def test_both_heroes_reaching_their_life_at_the_same_check_is_a_draw() -> None:
    s, wrath = wrath_played(damage=(LIFE - 2, LIFE - 1))
    s, events = play(s, each_hero(wrath))
    assert types(events) == [
        "DamageDealt",
        "DamageDealt",
        "PlayerEliminated",
        "PlayerEliminated",
        "GameEnded",
    ], "one check after both damages: neither Hero is out before the other is hit"
    assert [e.target for e in of_type(events, ev.DamageDealt)] == [b.hero(s, "B"), b.hero(s, "A")]
    assert {e.player for e in of_type(events, ev.PlayerEliminated)} == {"A", "B"}
    assert of_type(events, ev.GameEnded)[0].winner == "draw"
    assert (s["status"], s["winner"]) == ("finished", "draw")
    assert told(events[-1], s) == ["the game is a draw"]
    assert told(events[0], s) == [f"Sample Divine Wrath deals 2 to {BARD}"]


def test_one_hero_reaching_its_life_at_that_check_loses() -> None:
    s, wrath = wrath_played(damage=(0, LIFE - 2))
    s, events = play(s, each_hero(wrath))
    assert types(events)[-2:] == ["PlayerEliminated", "GameEnded"]
    assert of_type(events, ev.GameEnded)[0].winner == "A"


def test_damage_to_each_hero_is_one_effect_of_the_ability() -> None:
    s, wrath = wrath_played()
    assert each_hero(wrath) in b.RS.legal_commands(s, "A")
    s, events = play(s, each_hero(wrath))
    assert [e.seat for e in events] == ["A", "rules"], "the second Hero's share is the rules'"
    s, events = play(s, cmd("resolve", "A"))
    assert of_type(events, ev.AbilityResolved)[0].outcome == "resolved"
    assert (b.damage(s, "A"), b.damage(s, "B")) == (2, 2)


def test_damage_to_each_hero_where_the_card_names_one_target_is_refused_or_flagged() -> None:
    for mode in ("strict", "record"):
        s, _ = b.started_game(mode=mode)
        s, ambush = b.give(b.add_gold(s, "A", 1), "A", "Sample Sudden Ambush")
        s, _ = play(s, cmd("play", "A", card=ambush, gold=2, targets=[b.hero(s, "B")]))
        command = cmd("damage", "A", source=ambush, target="each_hero", amount=2)
        if mode == "strict":
            with pytest.raises(RuleViolation) as info:
                b.RS.decide(s, command)
            assert info.value.code == "rule/wrong_target"
        else:
            s, events = play(s, command)
            assert [e.violation for e in events] == ["rule/wrong_target", None]


def test_a_hero_paying_give_blood_to_its_life_is_out_before_the_card_resolves() -> None:
    """The cost is an atomic event too: the check does not wait for the Mischief (D.9)."""
    s, _ = b.started_game()
    s = b.with_damage(s, "A", 18)  # Orc Warrior, life 20
    s, pact = b.give(s, "A", "Sample Blood Pact")
    s, events = play(s, cmd("play", "A", card=pact, gold=1, give_blood=2))
    assert types(events) == ["MischiefPlayed", "PlayerEliminated", "GameEnded"]
    assert s["winner"] == "B"
    with pytest.raises(ImpossibleCommand) as info:
        b.RS.decide(s, cmd("take_gold", "A", source=pact, amount=2))
    assert info.value.code == "command/game_over"


def test_the_check_does_not_wait_for_the_ability_to_resolve() -> None:
    """Under the former reading the check waited for the stack to empty: here B is out while
    Divine Wrath is still on it."""
    s, wrath = wrath_played(damage=(0, LIFE - 1))
    s, events = play(s, each_hero(wrath))
    assert types(events)[-2:] == ["PlayerEliminated", "GameEnded"]
    assert s["stack"] and s["stack"][-1]["card"] == wrath and s["winner"] == "A"
