"""Classic Munchkin's demo policy (``munchlog demo``, ``Family.demo_spec`` and
``Family.demo_choice``): a game whose players bring shares of the set's sample catalog, played
by a policy that seeks a winner (random play reaches Level 10 slowly); the demo drives it with
:func:`domain.classic.moves.driver_commands` (a draw names the cards it takes: the demo holds
the judge's state, docs/rules.md A.4)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.classic.cards import sample_catalog as classic_catalog
from domain.classic.rules import card_def, character_strength, player_wins

#: Classic commands that shuffle cards about without moving the game on (docs/rules.md B.12).
CLASSIC_CHURN = frozenset({"unequip", "trade", "give", "discard", "sell"})
#: How often the classic demo picks any onward command (not the policy's best): the game stays
#: varied (curses, wandering monsters, trades refused…) and still finishes.
CLASSIC_WANDER = 0.05
#: The classic demo's cap on actions (a seeded game finishes long before: see the tests).
CLASSIC_ACTIONS = 3000


def classic_priority(state: Mapping[str, Any], cmd: Mapping[str, Any]) -> int:
    """How much ``cmd`` moves a classic game towards a winner (docs/rules.md B.3-B.7): take
    what a win gives, win the fights a seat can win, flee the others, help, build the character
    (play, equip, sell for a level), then kick the door and end the turn; everything else last.
    The demo plays the best of every seat's legal commands (ties broken by its seeded die)."""
    kind, seat = cmd["type"], cmd["seat"]
    combat = state.get("combat")
    if kind in ("deal", "roll_first", "loot_body", "take_treasure", "bad_stuff"):
        return 100
    if state.get("status") == "setup":
        return {"play": 90, "ready": 50}.get(kind, 0)
    if combat is not None:
        winning = player_wins(state, combat)
        fighter = seat == combat["player"]
        if kind == "pass":
            return 90 if winning or not fighter else 0
        if kind == "accept_help":
            return 85
        if kind == "run_away":
            return 60 if combat["stage"] == "fight" else 90
        if fighter and not winning and kind == "play" and cmd.get("target") is None:
            return 80 if card_def(state, cmd["card"])["kind"] == "one_shot" else 0
        if fighter and not winning and kind == "ask_help":
            return 70
        return 0
    if kind == "equip":
        return 95
    if kind == "sell":
        return 93 if state["seats"][seat]["level"] < 9 else 0
    if kind == "play" and cmd.get("target") is None:
        return 92 if card_def(state, cmd["card"])["kind"] != "monster" else 0
    if kind == "kick_door":
        return 80
    if kind == "look_for_trouble":
        card = card_def(state, cmd["card"])
        level = card.get("level")
        return 85 if isinstance(level, int) and level < character_strength(state, seat) else 0
    if kind == "loot":
        return 75 if state.get("phase") == "look_for_trouble" else 0
    if kind == "charity":
        return 80
    if kind == "end_turn":
        return 70
    return 0


def classic_choice(
    state: Mapping[str, Any], options: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """The demo's classic command among ``options`` (every seat's legal commands but a
    concession): now and then (:data:`CLASSIC_WANDER`) any onward one, else one of the best by
    :func:`classic_priority`."""
    onward = [c for c in options if c["type"] not in CLASSIC_CHURN] or options
    if rng.random() < CLASSIC_WANDER:
        return rng.choice(onward)
    scored = [(classic_priority(state, c), c) for c in options]
    best = max(score for score, _ in scored)
    return rng.choice([c for score, c in scored if score == best])


def classic_demo_spec(ruleset: str, *, seed: int = 0, seats: int = 4) -> dict[str, Any]:
    """A classic game (docs/rules.md B): ``seats`` players; each brings a share of the set's
    sample catalog by name (three copies of every card between them)."""
    rng = random.Random(seed)
    names = sorted(classic_catalog(ruleset).items())
    rng.shuffle(names)
    players = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")
    body: list[dict[str, Any]] = [
        {"seat": "ABCDEF"[i], "player": players[i], "doors": [], "treasures": []}
        for i in range(seats)
    ]
    for i, (name, card) in enumerate(names):
        field = "doors" if card["deck"] == "door" else "treasures"
        body[i % seats][field].append({"name": name, "count": 3})
    return {
        "ruleset": ruleset,
        "mode": "strict",
        "format": "casual",
        "seats": body,
        "options": {"listen_at_door": False, "shared_victory": True},
        "labels": {"event": "munchlog demo", "round": 1, "table": 1},
    }
