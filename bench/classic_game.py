"""The classic workload of ``bench/domain_bench.py``: seeded strict 6-seat games of a classic set
(docs/rules.md B; ``munchkin-deluxe`` by default), played over ``driver_commands``.

A game is made as the classic property tests make theirs (``tests/classic/test_random_games.py``):
two 70-card decks drawn, with repetition, from the set's sample catalog by a seeded generator,
seat A bringing both. The policy (:func:`choose`) is that of the random games, minus conceding
and stray commands: a seeded uniform choice among every seat's ``driver_commands``, so each
command is legal in strict mode and a seed always plays the same game. Such a game ends when a
seat reaches Level 10 by a kill (a few hundred to a few thousand events) or runs on: the
benchmark stops it at a length cap. With the default seeds, :data:`LONG_SEED` runs past 10,000
events without a winner, and 4 of the 12 short games (``--seed 2``) end by a win within 3,000
events (from about 1,500).
"""

from __future__ import annotations

import random
from typing import Any

from tests.classic.helpers import Game, new_game, random_decks

RULESET = "munchkin-deluxe"
SEATS = 6
DECK = 70
#: A seed whose game runs past 10,000 events (no Level 10 by then) for the long game.
LONG_SEED = 2

Command = dict[str, Any]


def classic_game(seed: int, ruleset: str = RULESET, seats: int = SEATS) -> Game:
    """A new strict game of ``seats`` seats, its decks drawn by ``Random(seed)``; setup (deal,
    first player, ready) is played by the policy like every other command."""
    rng = random.Random(seed)
    doors, treasures = random_decks(ruleset, rng, DECK)
    return new_game(ruleset, doors, treasures, seats, mode="strict", options={})


def choose(game: Game, rng: random.Random) -> Command | None:
    """The next command (it carries its ``seat``), or None when no seat has one."""
    state = game.state
    legal = [
        c
        for seat in state["seats"]
        for c in game.rs.driver_commands(state, seat)
        if c["type"] != "concede"
    ]
    return rng.choice(legal) if legal else None
