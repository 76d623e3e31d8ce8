"""How long a game waited on each seat (issue #38, docs/rules.md F.6), from the receipt times of
its records: the time until the next event is charged to the seats the game waited on, in total
and per turn; a batch's events share a time, so the rules' own steps cost nobody anything."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from domain.tournament.clock import iso, moment
from projections.replay import ReplayIndex
from tests import builders as b

T0 = "2030-01-01T10:00:00Z"


def at(seconds: float) -> str:
    return iso(moment(T0) + timedelta(seconds=seconds))


def test_each_wait_is_charged_to_the_seat_the_game_waited_on() -> None:
    state, setup = b.started_game()  # A is munchkining in turn 1
    assert state["active"] == "A"
    batches: list[tuple[float, list[Any]]] = [(0, setup)]
    state, ended = b.play(state, b.cmd("end_turn", "A"))  # after 30 s of A's turn
    batches.append((30, ended))
    card = state["seats"]["B"]["zones"]["deck"][0]
    state, drew = b.play(state, b.cmd("draw", "B", card=card))  # B took 12 s to draw
    batches.append((42, drew))
    state, ended = b.play(state, b.cmd("end_turn", "B"))  # and 5 s more to end its turn
    batches.append((47, ended))
    records = []
    for seconds, events in batches:
        for event in events:
            records.append(
                {"version": len(records) + 1, "event": event.to_dict(), "received_at": at(seconds)}
            )
    index = ReplayIndex()
    index.extend(records)
    assert index.seat_clock.totals() == {"A": 30.0, "B": 17.0}
    turns = index.seat_clock.per_turn()
    assert turns[1] == {"A": 30.0} and turns[2] == {"B": 17.0}


def test_records_without_a_time_charge_nothing() -> None:
    _, setup = b.started_game()
    index = ReplayIndex()
    index.extend(
        [{"version": i + 1, "event": e.to_dict(), "received_at": None} for i, e in enumerate(setup)]
    )
    assert index.seat_clock.totals() == {}
