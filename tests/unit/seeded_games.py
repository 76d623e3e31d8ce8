"""Seeded random games for the export and judge-tool tests (OpenSpiel's random_sim_test style).

``play(seed)`` builds a game from the sample catalog with ids drawn from ``random.Random(seed)``
and plays uniformly random legal commands until it ends; ``records_for(events)`` wraps the
events in storage envelopes with a fixed clock, so everything is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from domain import Event, State, evolve, find_ruleset, initial_state, knowledge
from domain.ccg.cards import sample_catalog
from domain.envelope import GENESIS_HASH, seal

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
    for step in RS.create({**game_spec(rng), "catalog": sample_catalog()}):
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


def records_from_events(
    events: Iterable[Event],
    *,
    received_at: str | Callable[[int], str],
    client_at: str | None = None,
    state: State | None = None,
    prev_hash: str = GENESIS_HASH,
) -> list[dict[str, Any]]:
    """Wrap domain events in records as ``domain.game.Game`` stores them (hash chain and
    ``visible_to`` included), continuing from ``state`` and ``prev_hash``; ``received_at`` is
    one timestamp or a function of the version."""
    before = initial_state() if state is None else state
    out: list[dict[str, Any]] = []
    for event in events:
        after = evolve(before, event)
        version = after["version"]
        record = seal(
            version,
            event.to_dict(),
            received_at=received_at(version) if callable(received_at) else received_at,
            client_at=client_at,
            visible_to=knowledge(before, after, event),
            prev_hash=prev_hash,
        )
        out.append(record)
        before, prev_hash = after, record["hash"]
    return out


def reseal(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recompute the hash chain after a test edited records (a forger's best effort)."""
    out: list[dict[str, Any]] = []
    prev = GENESIS_HASH
    for r in records:
        fields = {k: r[k] for k in ("received_at", "client_at", "visible_to")}
        out.append(seal(r["version"], r["event"], prev_hash=prev, **fields))
        prev = out[-1]["hash"]
    return out
