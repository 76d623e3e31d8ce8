"""What a seat may be told it can do (``legal_commands``) names no card it may not see
(docs/rules.md A.4); the drivers' list (``driver_commands``, internal) names the cards a draw
takes, which no seat knows."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.classic import CLASSIC
from domain.classic.moves import CARD_FIELDS, DRAW_FIELDS, driver_commands, legal_commands
from domain.fold import State
from tests.classic.helpers import Game, new_game, random_decks, ready_all, started, top_door
from tests.classic.test_added_rules import DAGGER, GRABBER, SWORD
from tests.classic.test_judge import HAT, RAT
from tests.classic.test_legality import ROLES, position


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


def _has(state: State, seat: str, **fields: Any) -> bool:
    return {"seat": seat, **fields} in driver_commands(state, seat)


@pytest.mark.parametrize("rs", sorted(CLASSIC))
def test_the_drivers_play_the_added_cards(rs: str) -> None:
    """The commands of the added rules are among the drivers' (so random games play them),
    each accepted by ``decide``: a Curse removed by any seat (B.10), forced help (D.C7), a
    Cheat! on one's Item (B.2); and the seat is told them, naming only cards it sees."""
    r = ROLES[rs]
    cursed = position(rs, "cursed")
    curse = cursed.seat("A")["zones"]["curses"][0]
    for seat in "AC":
        remover = next(
            c
            for c in cursed.seat(seat)["zones"]["hand"]
            if cursed.state["cards"][c]["def"]["name"] == r["remover"]
        )
        assert _has(cursed.state, seat, type="play", card=remover, target=curse)
        check_seat_facing(cursed.state, seat)
    forcing = position(rs, "force1")
    forcer = forcing.id(r["forcer"])
    for helper in "BC":
        assert _has(forcing.state, "A", type="play", card=forcer, target=helper)
    check_seat_facing(forcing.state, "A")
    cheating = position(rs, "cheat")
    cheat = cheating.ids(r["cheat"])
    item = cheating.id(r["restricted"])
    assert any(
        _has(cheating.state, "A", type="play", card=c, target=item) for c in cheat
    ) and not _has(position(rs, "cheat_fight").state, "A", type="play", card=cheat[0], target=item)
    check_seat_facing(cheating.state, "A")


def test_the_drivers_give_a_hireling_its_item_and_backstab() -> None:
    """Deluxe (B.2): an Item to a Hireling and back; a Thief's backstab on each fighter."""
    rs = "munchkin-deluxe"
    g = position(rs, "hireling")
    squire = next(
        c
        for c in g.seat("A")["zones"]["helpers"]
        if g.state["cards"][c]["def"]["kind"] == "hireling"
    )
    given = [c for c in driver_commands(g.state, "A") if c["type"] == "equip" and "hireling" in c]
    assert given and all(c["hireling"] == squire for c in given)
    after = g.rs.decide(g.state, given[0])[-1].state
    assert _has(after, "A", type="unequip", card=given[0]["card"])
    stab = position(rs, "backstab")
    thief_cmds = [c for c in driver_commands(stab.state, "B") if c["type"] == "discard"]
    assert {c.get("target") for c in thief_cmds} >= {"A"}
    assert not any(
        "target" in c for c in driver_commands(stab.state, "C") if c["type"] == "discard"
    )


def test_the_drivers_run_with_the_choices_a_hurt_on_escape_asks() -> None:
    """B.8: a run from a monster that hurts even those who escape names the victim's choice
    when several cards qualify, so that every roll is accepted."""
    g = started(
        "munchkin-deluxe",
        [GRABBER, RAT],
        [SWORD, DAGGER],
        hands={"A": (["Rat"], ["Sword", "Dagger"])},
    )
    g.do("A", "play", card=g.id("Sword"))
    g.do("A", "play", card=g.id("Dagger"))
    ready_all(g)
    g.do("A", "kick_door", card=top_door(g, "Grabber"))
    runs = [c for c in driver_commands(g.state, "A") if c["type"] == "run_away"]
    assert sorted(c["roll"] for c in runs) == [1, 2, 3, 4, 5, 6]
    assert all(c["choices"] == [g.id("Sword")] for c in runs)
    check_seat_facing(g.state, "A")


def test_the_drivers_try_a_thiefs_steal() -> None:
    """Deluxe (B.2, D.C17): a Thief is offered a steal of another seat's Small Item; a seat
    without the power is not; the seat is told it by ids it sees."""
    g = position("munchkin-deluxe", "thief")
    dagger = next(
        c for c in g.ids(ROLES["munchkin-deluxe"]["onehand"]) if g.state["cards"][c]["owner"] == "A"
    )
    steals = [c for c in driver_commands(g.state, "B") if "steal" in c]
    assert [c["steal"] for c in steals] == [dagger] and 1 <= steals[0]["roll"] <= 6
    assert not any("steal" in c for c in driver_commands(g.state, "C"))
    check_seat_facing(g.state, "B")
    assert [c for c in legal_commands(g.state, "B") if "steal" in c] == steals
