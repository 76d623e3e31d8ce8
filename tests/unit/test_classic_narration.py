"""The transcript of a classic game reads like table talk (issue #14; docs/rules.md B):
``T1 A: kicks open the door: Net Troll (level 10) · B: helps for 2 treasures · …``; the judge's
corrections and backups too (docs/rules.md B.17), naming a card only to a viewer who may see it
(A.4)."""

from __future__ import annotations

import re
from typing import Any

from domain import evolve, initial_state, knowledge
from domain.classic.corrections import undo_steps
from domain.classic.narration import ClassicNarrator
from domain.family import family_named
from projections.exports.walk import card_book
from projections.views import event_view
from tests.classic.helpers import Game, ready_all, started, top_door, top_treasures
from tests.classic.test_judge import correct, records, states_of
from tests.classic.test_judge import game as judge_game


def door(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "door", "kind": kind, "text": name, **fields}


def treasure(name: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "deck": "treasure", "kind": kind, "text": name, **fields}


def helped_game() -> Game:
    """A kicks open the door on a Level 10 troll and B helps for two Treasures."""
    doors = [
        door("Net Troll", "monster", level=10, treasures=3, bad_stuff=[{"lose_levels": 2}]),
        door("Elf", "race", trait="Elf"),
    ]
    sword = treasure("Big Sword", "item", slot="2hands", big=True, bonus=9, value=600)
    g = started(
        "munchkin-deluxe",
        doors,
        [sword, treasure("Boots", "item", slot="footgear", bonus=2, value=400)],
        3,
        hands={"A": ([], ["Big Sword"]), "B": (["Elf"], ["Boots"])},
    )
    g.do("A", "play", card=g.id("Big Sword"))
    g.do("B", "play", card=g.id("Boots"))
    ready_all(g)
    g.do("A", "kick_door", card=top_door(g, "Net Troll"))
    g.do("A", "ask_help", helper="B", bribe={"treasures": 2})
    g.do("B", "accept_help")
    g.do("C", "pass")
    g.do("B", "pass")  # the helper too: every other living seat (D.C1)
    return g


def entries(g: Game, viewer: str) -> list[dict[str, Any]]:
    """The game's events as ``viewer`` sees them, each with who knew its cards then (A.4)."""
    seats = list(g.state["seats"])
    out, state = [], initial_state()
    for version, event in enumerate(g.events, 1):
        after = evolve(state, event)
        record = {
            "version": version,
            "event": event.to_dict(),
            "visible_to": knowledge(state, after, event),
        }
        out.append(event_view(record, viewer, seats))
        state = after
    return out


def talk(g: Game, viewer: str) -> list[str]:
    narrator = ClassicNarrator(card_book(g.state), list(g.state["seats"]))
    return [p.render(with_actor=True) for e in entries(g, viewer) for p in narrator.describe(e)]


def test_a_helped_combat_reads_like_the_table_talk() -> None:
    g = helped_game()
    said = talk(g, "judge")
    assert "A: kicks open the door: Net Troll (level 10)" in said
    assert "A: asks B for help for 2 treasures" in said
    assert "B: helps for 2 treasures" in said
    won = next(s for s in said if s.startswith("A: wins"))
    assert won.endswith("kills Net Troll")
    assert "A: goes up to Level 2" in said
    for name in ("munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar"):
        assert family_named(name).narrator is ClassicNarrator


def test_face_down_rewards_and_hands_are_not_named_to_the_others() -> None:
    g = helped_game()
    # helped: the rewards come face up (B.7); a lone win draws them face down
    cards = top_treasures(g, g.state["combat"]["treasures"])
    g.do("A", "take_treasure", cards=cards)
    names = {g.state["cards"][c]["def"]["name"] for c in cards}
    drawn_by_c = [s for s in talk(g, "C") if "draws" in s]
    assert drawn_by_c and all(n in drawn_by_c[-1] for n in names)  # face up: public
    dealt_to_b = [s for s in talk(g, "C") if s.startswith("B: is dealt")]
    assert dealt_to_b == ["B: is dealt 8 cards"]  # B's hand, named to B only
    assert "Elf" in next(s for s in talk(g, "B") if s.startswith("B: is dealt"))


# ---------------------------------------------------------------------------- the judge (B.17)


def judge_says(g: Game, viewer: str = "judge") -> list[str]:
    """The judge's lines of the transcript, as ``viewer`` reads them."""
    return [s for s in talk(g, viewer) if s.startswith("Judge: ")]


def backed_up(g: Game, point: int) -> None:
    """Back ``g`` up to version ``point`` (the judge's backup): its restoring events appended."""
    states = states_of(g.events)
    for _, steps in undo_steps(states[point], g.state, records(g.events)[point:]):
        for step in steps:
            g.events.append(step.event)
            g.state = step.state


def test_a_level_set_by_the_judge() -> None:
    g = judge_game()
    correct(g, type="set_level", player="C", level=7)
    assert judge_says(g) == [f"Judge: sets C's level to 7 (correcting event {len(g.events) - 1})"]


def test_a_card_moved_by_the_judge() -> None:
    g = judge_game()
    hat, curse = g.id("Hat"), g.id("Sticky Curse")
    correct(g, type="move", card=hat, to="equipped", player="D")
    correct(g, type="give_curse", card=curse, player="B")
    correct(g, type="take_curse", card=curse)
    v = len(g.events)
    assert judge_says(g) == [
        f"Judge: moves Hat to D's equipped Items (correcting event {v - 3})",
        f"Judge: puts Sticky Curse on B (correcting event {v - 2})",
        f"Judge: moves Sticky Curse to the Door discards (correcting event {v - 1})",
    ]


def test_a_death_set_by_the_judge() -> None:
    g = judge_game()
    correct(g, type="set_dead", player="C", dead=True)
    correct(g, type="set_dead", player="C", dead=False)
    assert [s.split(" (")[0] for s in judge_says(g)] == [
        "Judge: marks C's character dead",
        "Judge: marks C's character alive",
    ]


def test_a_combat_ended_by_the_judge() -> None:
    g = judge_game()
    g.do("A", "kick_door", card=top_door(g, "Rat"))
    correct(g, type="end_combat")
    assert judge_says(g) == [
        f"Judge: ends A's combat: Rat to the discards; A goes on to charity "
        f"(correcting event {len(g.events) - 1})"
    ]


def test_a_turn_set_by_the_judge() -> None:
    g = judge_game()
    correct(g, type="set_turn", player="C", phase="look_for_trouble")
    assert judge_says(g) == [
        f"Judge: makes it C's turn (look for trouble) (correcting event {len(g.events) - 1})"
    ]


def test_a_backup_restores_cards_and_the_table() -> None:
    """Undoing a kicked door: the Rat goes back on the Doors, the table to before the combat."""
    g = judge_game()
    point = len(g.events)
    g.do("A", "kick_door", card=top_door(g, "Rat"))
    backed_up(g, point)
    said = judge_says(g)
    assert f"Judge: returns Rat to the Door deck (undoing event {point + 1})" in said
    table = [s for s in said if s.startswith("Judge: restores the table: ")]
    line = r"Judge: restores the table: turn 1, A to play \(kick door\) \(undoing event \d+\)"
    assert table and all(re.fullmatch(line, s) for s in table), table
    assert g.state["phase"] == "kick_door" and g.state["combat"] is None


def test_a_backup_restores_a_combat() -> None:
    g = judge_game()
    g.do("A", "kick_door", card=top_door(g, "Rat"))
    point = len(g.events)
    correct(g, type="end_combat")
    backed_up(g, point)
    assert judge_says(g)[-2:] == [
        f"Judge: returns Rat to the combat (undoing event {point + 1})",
        f"Judge: restores the table: turn 1, A to play (combat); A fighting Rat "
        f"(undoing event {point + 1})",
    ]


def test_a_backup_restores_a_seat() -> None:
    g = judge_game()
    point = len(g.events)
    correct(g, type="set_level", player="C", level=7)
    correct(g, type="set_dead", player="B", dead=True)
    backed_up(g, point)
    assert judge_says(g)[-2:] == [
        f"Judge: restores B: Level 1, alive (undoing event {point + 2})",
        f"Judge: restores C: Level 1, alive (undoing event {point + 1})",
    ]


def test_a_hidden_card_is_not_named_in_the_judges_lines() -> None:
    """A's Hat, moved by the judge from A's hand to B's and put back by a backup: A and B read
    its name, C reads "a card" (docs/rules.md A.4)."""
    g = judge_game()
    hat = g.id("Hat")
    point = len(g.events)
    correct(g, type="move", card=hat, to="hand", player="B")
    backed_up(g, point)
    assert g.state["cards"][hat]["owner"] == "A" and g.state["cards"][hat]["known"] == ["A"]
    moved, restored = f"(correcting event {point})", f"(undoing event {point + 1})"
    for viewer in ("judge", "A", "B"):
        said = judge_says(g, viewer)
        assert f"Judge: moves Hat to B's hand {moved}" in said, viewer
        assert f"Judge: returns Hat to A's hand {restored}" in said, viewer
    said = judge_says(g, "C")
    assert f"Judge: moves a card to B's hand {moved}" in said
    assert f"Judge: returns a card to A's hand {restored}" in said
    assert not any("Hat" in s for s in talk(g, "C"))
