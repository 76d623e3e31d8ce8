"""What may I do now (``service.legal``, ``GET /legal``'s use case) on the in-memory store:
the seats each role may act for, commands as ``POST /actions`` takes them, whom the game waits
on (the family's ``waiting_for``: the CCG's damage window, the default of the test ruleset),
and a finished game. HTTP (tokens, the leak property): tests/api/test_legal.py."""

from __future__ import annotations

import random

from domain.family import DEFAULT
from service.games import GameLog
from service.legal import legal_moves
from tests.builders import classic_spec
from tests.rulesets.trio import trio_spec
from tests.service.helpers import demo_spec, start


def test_each_role_gets_the_seats_it_may_act_for(log: GameLog) -> None:
    gid = start(log).game_id
    assert list(legal_moves(log, gid, "B")["commands"]) == ["B"]
    assert list(legal_moves(log, gid, "table")["commands"]) == ["A", "B"]
    assert list(legal_moves(log, gid, "judge")["commands"]) == ["A", "B"]
    assert legal_moves(log, gid, "spectator")["commands"] == {}


def test_every_command_offered_is_recorded_and_the_window_waits_for_passes(log: GameLog) -> None:
    rng = random.Random(0)
    gid = start(log, demo_spec(0)).game_id
    for _ in range(100):
        told = legal_moves(log, gid, "table")
        state = log.game(gid).state
        window = state.get("window")
        if window and window["kind"] == "damage" and not state["stack"]:
            break
        options = [c for cs in told["commands"].values() for c in cs if c["type"] != "concede"]
        command = rng.choice(options)
        log.record(gid, [command], actor=command["seat"], expected_version=told["version"])
    else:
        raise AssertionError("no damage window")
    assert told["waiting_for"] == ["A", "B"]
    log.record(gid, [{"type": "pass", "seat": "B"}], actor="B")
    assert legal_moves(log, gid, "A")["waiting_for"] == ["A"]


def test_a_finished_game_offers_nothing(log: GameLog) -> None:
    gid = start(log, demo_spec(0), dealing="server", contributors=[]).game_id
    for seat in "AB":
        log.record(gid, [{"type": "draw_opening", "seat": seat}], actor=seat)
    assert legal_moves(log, gid, "table")["waiting_for"] == ["A", "B"]  # roll for first
    log.record(gid, [{"type": "concede", "seat": "B"}], actor="B")
    assert legal_moves(log, gid, "table") == {
        "version": log.game(gid).version,
        "waiting_for": [],
        "commands": {},
        "deadline": None,
    }


def test_the_default_waits_on_the_active_seat_or_on_whoever_may_act() -> None:
    assert DEFAULT.waiting_for(
        {"status": "playing", "seats": {"A": {}, "B": {}}, "active": "B"}
    ) == ["B"]
    assert DEFAULT.waiting_for({"status": "finished", "seats": {"A": {}}, "active": "A"}) == []
    assert DEFAULT.waiting_for({"status": "playing", "seats": {"A": {}}}) == []


def test_a_family_that_says_nothing_waits_on_its_active_seat(log: GameLog) -> None:
    gid = start(log, trio_spec()).game_id
    told = legal_moves(log, gid, "C")
    assert told["waiting_for"] == ["A"]
    assert told["commands"] == {"C": [{"type": "concede", "seat": "C"}]}
    log.record(gid, [{"type": "end_turn", "seat": "A"}], actor="A")
    assert legal_moves(log, gid, "C")["waiting_for"] == ["B"]


def test_a_table_dealt_draw_is_offered_to_the_table_only(log: GameLog) -> None:
    """A seat's phone cannot name the cards a table-dealt draw takes (E.4): the deal is the
    table's (and the judge's) to post, with what it wants told; the seat is offered none."""
    gid = start(log, classic_spec("munchkin-deluxe", 3)).game_id
    assert legal_moves(log, gid, "A")["commands"] == {"A": []}
    deal = legal_moves(log, gid, "table")["commands"]["A"][0]
    assert deal["type"] == "deal" and set(deal["draws"]) == {"doors", "treasures"}
