"""Who runs away first is the fighters' choice (issue #24 item 2; docs/rules.md B.8).

DX *Running Away*: "If two players are cooperating and still can't defeat the monster(s), they
must both Run Away. They roll separately, and each player chooses in what order to Run Away."
AoS: "They roll separately for each monster, in whatever order they like." OW: "They roll
separately." So the helper may roll first, and the two fighters' rolls may alternate; what still
holds is that nobody runs from a combat the side is winning, and nobody rolls twice against the
same monster.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.classic.rules import player_wins
from domain.errors import RuleViolation
from tests.classic.helpers import Game, ready_all, started, top_door
from tests.unit.test_classic_narration import talk

SETS = ("munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar")


def door(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "door", "kind": kind, "text": name, **fields}


OGRE = door("Ogre", "monster", level=10, treasures=2, bad_stuff=[{"lose_levels": 1}])
IMP = door("Imp", "monster", level=8, treasures=1, bad_stuff=[{"lose_levels": 1}])
MOUSE = door("Mouse", "monster", level=1, treasures=1)
WANDERING = door("Wandering Monster", "other", wandering=True)


def helped_fight(rs: str, monster: dict[str, Any] = OGRE, *, second: bool = False) -> Game:
    """A kicks open the door on ``monster`` and B helps; with ``second``, B adds the Imp."""
    g = started(
        rs,
        [monster, IMP, WANDERING],
        [],
        3,
        hands={"B": (["Wandering Monster", "Imp"], [])},
    )
    ready_all(g)
    g.do("A", "kick_door", card=top_door(g, monster["name"]))
    g.do("A", "ask_help", helper="B")
    g.do("B", "accept_help")
    if second:
        g.do("B", "play", card=g.id("Wandering Monster"), target=g.id("Imp"))
    return g


@pytest.mark.parametrize("rs", SETS)
def test_the_helper_may_run_first(rs: str) -> None:
    g = helped_fight(rs)
    ogre = g.id("Ogre")
    assert not player_wins(g.state)
    (rolled,) = g.do("B", "run_away", monster=ogre, roll=6)
    assert (rolled.type, rolled.player, rolled.escaped, rolled.violation) == (
        "RunAwayRolled",
        "B",
        True,
        None,
    )
    assert g.state["combat"]["stage"] == "run_away"
    err = g.refused("B", "run_away", monster=ogre, roll=6)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/already_ran", "B.8")
    events = g.do("A", "run_away", monster=ogre, roll=6)
    assert events[0].player == "A" and events[-1].type in ("CombatEnded", "PhaseEntered")
    assert g.state["combat"] is None
    said = talk(g, "judge")
    b_roll = said.index("B: rolls 6 to run from Ogre: escapes")
    assert b_roll < said.index("A: rolls 6 to run from Ogre: escapes")


@pytest.mark.parametrize("rs", SETS)
def test_the_helper_running_first_is_not_flagged_in_record_mode(rs: str) -> None:
    g = helped_fight(rs)
    steps = g.rs.decide(
        {**g.state, "mode": "record"},
        {"type": "run_away", "seat": "B", "monster": g.id("Ogre"), "roll": 1},
    )
    assert steps[0].event.type == "RunAwayRolled" and steps[0].event.violation is None


@pytest.mark.parametrize("rs", SETS)
def test_the_rolls_may_alternate_between_the_fighters_and_the_monsters(rs: str) -> None:
    """Each fighter rolls once per monster, in any order: B the Ogre, A the Imp, A the Ogre
    (caught: its Bad Stuff), B the Imp; the combat ends after the last roll and catch."""
    g = helped_fight(rs, second=True)
    ogre, imp = g.id("Ogre"), g.id("Imp")
    g.do("B", "run_away", monster=ogre, roll=5)
    g.do("A", "run_away", monster=imp, roll=6)
    g.do("A", "run_away", monster=ogre, roll=1)
    assert g.state["combat"]["caught"] == [["A", ogre]]
    g.do("A", "bad_stuff", monster=ogre)
    assert g.state["combat"] is not None  # B has not rolled against the Imp
    events = g.do("B", "run_away", monster=imp, roll=6)
    assert "CombatEnded" in [e.type for e in events] and g.state["combat"] is None
    rolls = [(e.player, e.monster) for e in g.events if e.type == "RunAwayRolled"]
    assert rolls == [("B", ogre), ("A", imp), ("A", ogre), ("B", imp)]


@pytest.mark.parametrize("rs", SETS)
def test_nobody_runs_from_a_combat_the_side_is_winning(rs: str) -> None:
    """The helper running first is no way out of a won fight: ``rule/winning_combat``."""
    g = helped_fight(rs, MOUSE)
    assert player_wins(g.state)
    err = g.refused("B", "run_away", monster=g.id("Mouse"), roll=6)
    assert isinstance(err, RuleViolation) and (err.code, err.rule) == ("rule/winning_combat", "B.8")
    steps = g.rs.decide(
        {**g.state, "mode": "record"},
        {"type": "run_away", "seat": "B", "monster": g.id("Mouse"), "roll": 6},
    )
    assert steps[0].event.violation == "rule/winning_combat"
    assert g.refused("C", "run_away", monster=g.id("Mouse"), roll=6).code == "command/not_fighting"


def test_the_helpers_run_is_offered_as_a_legal_command() -> None:
    """The moves offered to the helper include its run (the viewer's hints, random games)."""
    g = helped_fight("munchkin-deluxe")
    offered = [c for c in g.rs.legal_commands(g.state, "B") if c["type"] == "run_away"]
    assert {c["roll"] for c in offered} == set(range(1, 7))
    assert all(c["monster"] == g.id("Ogre") for c in offered)
