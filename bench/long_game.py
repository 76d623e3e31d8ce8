"""The long-game policy of ``bench/domain_bench.py`` and ``bench/replay_bench.py``.

One legal game kept going for thousands of events: the policy never deals damage (no damage
effects, no Curses; attacks only when the defender can run away for free, and then it does),
and once in each munchkining the active player activates, takes 1 gold with and resolves its
Hero's ability ``loops`` times.
"""

from __future__ import annotations

from typing import Any

from domain import find_ruleset

RS = find_ruleset("munchkin-ccg")
HARMFUL = {"concede", "damage", "allocate", "face", "cancel"}

Command = dict[str, Any]
State = dict[str, Any]


def peaceful(state: State) -> list[tuple[str, Command]]:
    """``(seat, command)`` for the legal commands that cannot damage a Hero; when every choice is
    harmful, every legal command but conceding."""
    legal = [(seat, c) for seat in state["seats"] for c in RS.legal_commands(state, seat)]
    out = []
    for seat, c in legal:
        kind = c["type"]
        if kind in HARMFUL or (kind == "play" and c.get("targets")):
            continue  # Curses (Bleeding)
        defender = "B" if seat == "A" else "A"
        if kind == "attack" and state["seats"][defender]["marker"] != "run_away":
            continue
        if kind == "run_away" and state["seats"][seat]["marker"] != "run_away":
            continue
        out.append((seat, c))
    return out or [(seat, c) for seat, c in legal if c["type"] != "concede"]


def loop_due(state: State, looped_turn: int) -> bool:
    """Whether the active player should run its ability loop now: the turn's munchkining, no
    fight, nothing resolving, and not done yet this turn (``looped_turn``)."""
    return bool(
        state["status"] == "playing"
        and state["phase"] == "munchkining"
        and state["fight"] is None
        and not state["stack"]
        and looped_turn != state["turn"]
    )


def ability_loop(state: State, loops: int) -> list[Command]:
    """The active player's Hero ability activated, taking 1 gold and resolved, ``loops`` times."""
    seat = state["active"]
    hero = state["seats"][seat]["hero"]
    return [
        command
        for _ in range(loops)
        for command in (
            {"type": "activate", "seat": seat, "card": hero},
            {"type": "take_gold", "seat": seat, "source": hero, "amount": 1},
            {"type": "resolve", "seat": seat},
        )
    ]
