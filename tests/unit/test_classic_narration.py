"""The transcript of a classic game reads like table talk (issue #14; docs/rules.md B):
``T1 A: kicks open the door: Net Troll (L10) · B: helps for 2 treasures · …``."""

from __future__ import annotations

from typing import Any

from domain import evolve, initial_state, knowledge
from projections.exports.classic_narration import ClassicNarrator
from projections.exports.narration import NARRATORS
from projections.exports.walk import card_book
from projections.views import event_view
from tests.classic.helpers import Game, ready_all, started, top_door, top_treasures


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
    assert "A: kicks open the door: Net Troll (L10)" in said
    assert "A: asks B for help for 2 treasures" in said
    assert "B: helps for 2 treasures" in said
    won = next(s for s in said if s.startswith("A: wins"))
    assert won.endswith("kills Net Troll")
    assert "A: goes up to Level 2" in said
    assert set(NARRATORS) >= {"munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar"}


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
