"""Issue #41's acceptance scenario in small (``bench/venue_drop.py``, whose 60 s run is in
bench/RESULTS.md): a venue ``munchlog serve`` on SQLite, a public one on PostgreSQL, ``munchlog
publish`` between them through a proxy that drops the link for 2 s while the tables of a
9-player classic event record; the public side catches up within 10 s, streams a game as the
venue does, event for event, and ``munchlog verify`` says the same of both sides' exports."""

from __future__ import annotations

from argparse import Namespace

import pytest

from bench.venue_drop import run
from tests.conftest import require_postgres


@pytest.mark.slow
def test_a_venue_that_loses_its_link_for_two_seconds_is_mirrored_whole() -> None:
    require_postgres()
    figures = run(Namespace(drop_seconds=2.0, rounds=2, pace=0.05, round_actions=5, json=None))
    print(figures)  # shown when an assertion fails
    assert figures["table_errors"] == [] and figures["commands_during_drop"] > 0
    assert figures["records_to_catch_up"] > 0
    assert figures["catch_up_goal_met"], figures["catch_up_seconds"]
    assert figures["streams_equal"] and figures["stream_errors"] == []
    for name, verdict in figures["verify_mid_event"].items():
        assert verdict["exports_equal"] and verdict["same_result"], name
    assert figures["game_chain_verified"] == {"venue_judge": True, "public": True}
    assert figures["mirrored_in_all"] == figures["records_in_all"]
    assert figures["event_state"] == ["finished", "finished"]
    assert figures["standings_equal"]
    assert figures["verify_final_event"]["same_result"]
    assert figures["verify_final_event"]["venue_exit"] == 0
