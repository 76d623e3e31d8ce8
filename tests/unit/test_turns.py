"""Turn structure: warmup, munchkining, cooldown (docs/rules.md A.8, D.1)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.ccg import events as ev
from tests import builders as b
from tests.builders import State, cmd, play


def test_ending_a_turn_runs_cooldown_then_the_opponents_warmup_up_to_the_draw() -> None:
    s, _ = b.started_game()
    s, events = play(s, cmd("end_turn", "A"))
    assert b.types(events) == [
        "PhaseStarted",
        "LevelIncreased",
        "GoldRefilled",
        "TurnEnded",
        "TurnStarted",
        "RunAwayMarkerFlipped",
        "CardsUnzapped",
        "StashUnstashed",
    ]
    assert (s["active"], s["turn"], s["phase"], s["step"]) == ("B", 2, "warmup", "draw")
    s, events = play(s, cmd("draw", "B", card=s["seats"]["B"]["zones"]["deck"][0]))
    assert b.types(events) == ["CardDrawn", "PhaseStarted"]
    assert s["phase"] == "munchkining"


def test_cooldown_raises_the_level_and_refills_the_purse_up_to_it() -> None:
    s, _ = b.started_game()
    s, events = play(s, cmd("end_turn", "A"))
    assert b.of_type(events, ev.LevelIncreased)[0].level == 2
    assert b.of_type(events, ev.GoldRefilled)[0].amount == 1
    assert (s["seats"]["A"]["level"], s["seats"]["A"]["gold"]) == (2, 2)


@pytest.mark.parametrize(
    ("position", "skipped", "key"),
    [
        pytest.param(lambda s: b.add_gold(s, "A", 9), "GoldRefilled", "gold", id="purse_of_10"),
        pytest.param(lambda s: b.with_level(s, "A", 10), "LevelIncreased", "level", id="level_10"),
    ],
)
def test_cooldown_never_reduces_a_purse_above_the_level_and_the_level_stops_at_10(
    position: Callable[[State], State], skipped: str, key: str
) -> None:
    s = position(b.started_game()[0])
    s, events = play(s, cmd("end_turn", "A"))
    assert skipped not in b.types(events)
    assert s["seats"]["A"][key] == 10


def test_the_unzap_step_unzaps_only_the_active_players_cards() -> None:
    s, _ = b.started_game()
    s, _ = b.use_hero(s, "A")  # each Hero is zapped to pay for its ability
    s, _ = b.use_hero(s, "B")
    assert s["cards"][b.hero(s, "A")]["zapped"] and s["cards"][b.hero(s, "B")]["zapped"]
    s, events = b.next_turn(s, draw=False)
    unzapped = b.of_type(events, ev.CardsUnzapped)[0]
    assert (unzapped.player, unzapped.cards) == ("B", [b.hero(s, "B")])
    assert s["cards"][b.hero(s, "A")]["zapped"] is True


def test_the_unstash_step_returns_face_up_and_face_down_cards_to_the_hand() -> None:
    s, _ = b.started_game()
    s, down = b.give(s, "B", "Sample Plant Pot", "stash")
    s, up = b.give(s, "B", "Sample Goblin Horde", "stash", face="up")
    s, events = b.next_turn(s, draw=False)
    unstashed = b.of_type(events, ev.StashUnstashed)[0]
    assert set(unstashed.cards) == {down, up}
    assert b.zone_of(s, down) == b.zone_of(s, up) == "hand"
    assert s["cards"][up]["known"] == ["B"], "back in a hand: private again"


def test_bleeding_deals_its_damage_in_the_victims_reckoning() -> None:
    s, _ = b.started_game()
    s, curse = b.bleeding(s)
    assert s["cards"][curse]["zone"] == "stuck"
    s, events = b.next_turn(s, draw=False)
    assert b.types(events)[-1] == "DamageAnnounced", "interrupts answer it first (D.28)"
    s, more = play(s, cmd("pass", "B"), cmd("pass", "A"))
    events += more
    bleed = [d for d in b.of_type(events, ev.DamageDealt) if d.source == curse]
    assert [(d.target, d.amount) for d in bleed] == [(b.hero(s, "B"), 1)]
    assert b.damage(s, "B") == 1
    assert b.types(events).index("DamageDealt") < b.types(events).index("StashUnstashed")


def test_the_ability_window_opens_at_the_draw_step_for_both_players() -> None:
    s, _ = b.started_game(draw=False)
    assert any(c["type"] == "activate" for c in b.RS.legal_commands(s, "B"))
    s, events = play(s, cmd("activate", "B", card=b.hero(s, "B"), costs={"zap": True}))
    assert b.types(events) == ["AbilityActivated"]


def test_turns_alternate_and_count_up() -> None:
    s, _ = b.started_game()
    seen = []
    for _ in range(4):
        seen.append((s["turn"], s["active"]))
        s, _ = b.next_turn(s)
    assert seen == [(1, "A"), (2, "B"), (3, "A"), (4, "B")]


def test_only_the_active_player_may_end_the_turn_and_only_outside_a_fight() -> None:
    s, _ = b.started_game()
    assert {"type": "end_turn", "seat": "A"} in b.RS.legal_commands(s, "A")
    assert {"type": "end_turn", "seat": "B"} not in b.RS.legal_commands(s, "B")
    s, pot = b.give(s, "A", "Sample Plant Pot")
    s, _ = play(s, cmd("attack", "A", card=pot, gold=0))
    assert {"type": "end_turn", "seat": "A"} not in b.RS.legal_commands(s, "A")
