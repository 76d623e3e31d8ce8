"""The classic state has the contract's shape, and the classic events are registered under
permanent names that no other ruleset uses (docs/rules.md C.2)."""

from __future__ import annotations

import dataclasses

from domain.ccg import events as ccg_events
from domain.classic import events as ev
from domain.events import EVENT_TYPES, Event
from tests.classic.helpers import ready_all, started, top_door

MONSTER = {"name": "Rat", "deck": "door", "kind": "monster", "level": 1, "treasures": 1}


def test_the_state_has_the_contract_fields() -> None:
    g = started("munchkin-age-of-sigmar", [MONSTER], [], 5)
    ready_all(g)
    g.do("A", "kick_door", card=top_door(g, "Rat"))
    s = g.state
    assert {"status", "turn", "active", "phase", "winners", "decks", "seats", "combat"} <= set(s)
    assert (s["status"], s["turn"], s["active"], s["phase"], s["winners"]) == (
        "playing",
        1,
        "A",
        "combat",
        [],
    )
    assert set(s["decks"]) == {"door", "treasure", "door_discard", "treasure_discard"}
    seat = s["seats"]["C"]
    assert {"player", "level", "dead", "zones"} <= set(seat)
    assert set(seat["zones"]) == {
        "hand",
        "equipped",
        "carried",
        "race",
        "class",
        "army",
        "curses",
        "helpers",
    }
    c = s["combat"]
    assert {"player", "helper", "bribe", "monsters", "player_strength", "monster_strength"} <= set(
        c
    )
    assert c["stage"] == "fight"
    assert c["monsters"] == [
        {
            "card": g.id("Rat"),
            "enhancers": [],
            "conditions": [],
            "copies": 0,
            "level": 1,
            "strength": 1,
        }
    ]


def test_classic_events_are_registered_under_their_own_names() -> None:
    classes = ev.all_event_types()
    assert len(classes) >= 40
    ccg = {c.__name__ for c in vars(ccg_events).values() if isinstance(c, type)}
    for cls in classes:
        assert EVENT_TYPES[cls.__name__] is cls
        assert cls.__name__ not in ccg, cls.__name__
        assert issubclass(cls, Event) and dataclasses.is_dataclass(cls)
        assert cls.__doc__ and cls.__doc__.strip()
