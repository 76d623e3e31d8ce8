"""Seeded random games for the export and judge-tool tests (OpenSpiel's random_sim_test style).

``play(seed)`` builds a game from the sample catalog with ids drawn from ``random.Random(seed)``
and plays uniformly random legal commands until it ends; ``records_for(events)`` wraps the
events in storage envelopes with a fixed clock, so everything is reproducible.
"""

from __future__ import annotations

import random
from typing import Any

from domain import Event, State, find_ruleset, initial_state, sample_catalog
from projections.export import records_from_events

RS = find_ruleset("munchkin-ccg")
HEROES = {"A": "Sample Orc Warrior", "B": "Sample Gnome Thief"}


def game_spec(rng: random.Random, game_id: str = "g1") -> dict[str, Any]:
    """Two 40-card decks of the heroes' classes, with random opaque card ids."""
    cat = sample_catalog()
    seats = []
    for seat, hero_name in HEROES.items():
        hero = cat.get(hero_name)
        names = [
            c["name"]
            for c in cat.cards.values()
            if c["type"] != "hero" and c["class"] in ("neutral", hero["class"])
        ]
        deck = [{**cat.get(name), "id": f"{rng.getrandbits(64):016x}"} for name in (names * 3)[:40]]
        hero_card = {**hero, "id": f"{rng.getrandbits(64):016x}"}
        seats.append({"seat": seat, "player": f"Player {seat}", "hero": hero_card, "deck": deck})
    return {
        "game_id": game_id,
        "mode": "strict",
        "format": "prime",
        "labels": {"event": "Sample Cup", "round": "2", "table": "7"},
        "seats": seats,
    }


def play(seed: int, max_events: int = 5000) -> tuple[State, list[Event]]:
    """A whole random game: the final state and every event."""
    rng = random.Random(seed)
    events: list[Event] = []
    state = initial_state()
    for step in RS.create(game_spec(rng)):
        events.append(step.event)
        state = step.state
    while state["status"] != "finished" and len(events) < max_events:
        options = [(seat, c) for seat in "AB" for c in RS.legal_commands(state, seat)]
        keep_playing = [o for o in options if o[1]["type"] != "concede"]
        _, command = rng.choice(keep_playing if keep_playing and rng.random() > 0.001 else options)
        if command["type"] == "attack":
            command = {**command, "salt": f"{rng.getrandbits(128):032x}"}
        for step in RS.decide(state, command):
            events.append(step.event)
            state = step.state
    return state, events


def records_for(events: list[Event]) -> list[dict[str, Any]]:
    """Stored records of ``events``, one second apart from 2024-05-01 10:00:00 UTC."""
    return records_from_events(
        events,
        received_at=lambda version: (
            f"2024-05-01T{10 + version // 3600:02d}:"
            f"{version // 60 % 60:02d}:{version % 60:02d}+00:00"
        ),
    )
