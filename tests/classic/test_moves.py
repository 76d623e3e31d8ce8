"""What a seat may be told it can do (``legal_commands``) names no card it may not see
(docs/rules.md A.4); the drivers' list (``driver_commands``, internal) names the cards a draw
takes, which no seat knows."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.classic import CLASSIC
from domain.classic.moves import CARD_FIELDS, DRAW_FIELDS, driver_commands, legal_commands
from domain.fold import State
from tests.classic.helpers import Game, new_game, random_decks, ready_all, started, top_door
from tests.classic.test_judge import HAT, RAT


def named(state: State, cmd: dict[str, Any]) -> set[str]:
    """Every card id a command names, in any field."""
    out: set[str] = set()
    for value in cmd.values():
        items = list(value) if isinstance(value, list | dict) else [value]
        out |= {c for c in items if isinstance(c, str) and c in state["cards"]}
    return out


def check_seat_facing(state: State, seat: str) -> None:
    """Every card ``seat``'s legal commands name is known to ``seat``; each is a driver
    command, or one with its hidden cards (and their choices) left out."""
    drivers = driver_commands(state, seat)
    for cmd in legal_commands(state, seat):
        for cid in named(state, cmd):
            assert seat in state["cards"][cid]["known"], (seat, cid, cmd)
        if cmd in drivers:
            continue
        left_out = {*CARD_FIELDS, *DRAW_FIELDS, "choices"}
        assert any(
            all(d.get(k) == v for k, v in cmd.items())
            and set(d) - set(cmd) <= left_out
            and named(state, d) - named(state, cmd)
            for d in drivers
        ), (seat, cmd)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rs=st.sampled_from(sorted(CLASSIC)), seats=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_a_seat_is_told_no_card_it_may_not_see(rs: str, seats: int, seed: int) -> None:
    rng = random.Random(seed)
    doors, treasures = random_decks(rs, rng)
    options = {"listen_at_door": rng.random() < 0.5}  # the listen: a draw before the kick
    g = new_game(rs, doors, treasures, seats, mode="strict", options=options)
    for _ in range(60):
        for seat in g.state["seats"]:
            check_seat_facing(g.state, seat)
        cmds = [c for s in g.state["seats"] for c in driver_commands(g.state, s)]
        cmds = [c for c in cmds if c["type"] != "concede"]
        if not cmds:
            break
        cmd = dict(rng.choice(cmds))
        g.do(cmd.pop("seat"), cmd.pop("type"), **cmd)


def test_a_draw_is_told_without_its_card() -> None:
    """Kicking the door: the driver names the top Door, the seat is told ``kick_door`` alone;
    a card in the seat's hand it may still be told by id."""
    g: Game = started("munchkin-deluxe", [RAT], [HAT], 3, hands={"A": ([], ["Hat"])})
    ready_all(g)
    rat, hat = top_door(g, "Rat"), g.id("Hat")
    assert {"type": "kick_door", "seat": "A", "card": rat, "choices": []} in driver_commands(
        g.state, "A"
    )
    told = legal_commands(g.state, "A")
    assert {"type": "kick_door", "seat": "A"} in told
    assert not any(rat in named(g.state, c) for c in told)
    assert {"type": "play", "seat": "A", "card": hat} in told  # A's own card, by id
    assert CLASSIC["munchkin-deluxe"].legal_commands(g.state, "A") == told
