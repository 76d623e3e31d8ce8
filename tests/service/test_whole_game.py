"""A complete Munchkin CCG game recorded from setup to elimination, as use cases (moved from
tests/api/test_full_game.py): the state, the log, the list, what each seat sees, card ids,
client times."""

from __future__ import annotations

import re
from typing import Any

from domain import find_ruleset
from domain.envelope import verify_records
from domain.errors import ImpossibleCommand
from service.games import GameLog
from tests.service.helpers import (
    events_as,
    judge_state,
    play_demo,
    refused,
    start,
    state_as,
)

RS = find_ruleset("munchkin-ccg")


def test_a_complete_game_is_recorded_from_setup_to_elimination(log: GameLog) -> None:
    result = play_demo(log, seed=3)

    assert result.status == "finished"
    assert result.winner in ("A", "B", "draw")
    gid = result.game_id

    state = state_as(log, gid)
    assert state["status"] == "finished"
    assert state["winner"] == result.winner
    assert state["version"] == result.version
    assert set(state["seats"]) == {"A", "B"}
    for seat in state["seats"].values():
        assert {
            "player",
            "hero",
            "level",
            "gold",
            "damage",
            "life",
            "marker",
            "hand_count",
            "deck_count",
            "deck_known_top",
            "deck_known_bottom",
            "hoard",
            "stash",
            "discard",
        } <= set(seat)

    types = [e["type"] for e in events_as(log, gid)]
    assert types[0] == "GameCreated"
    assert "PlayerEliminated" in types
    assert types[-1] == "GameEnded"
    assert [e["version"] for e in events_as(log, gid)] == list(range(1, result.version + 1))

    records = log.records(gid)
    assert verify_records(records)["ok"]
    salts = [r["event"]["salt"] for r in records if r["event"]["type"] == "AttackCardCommitted"]
    assert salts, "the demo game had no attack"
    assert all(re.fullmatch(r"[0-9a-f]{32}", salt) for salt in salts)
    assert len(set(salts)) == len(salts)

    summary = log.overview(gid)
    assert summary["status"] == "finished"
    assert summary["winner"] == result.winner
    listed, _ = log.list_games(status="finished", player="alice")
    assert [g["game_id"] for g in listed] == [str(gid)]
    assert log.list_games(status="playing")[0] == []

    # A finished game takes no more actions.
    with refused(ImpossibleCommand, "command/game_over"):
        log.record(gid, [{"type": "end_turn", "seat": "A"}], actor="table")


def test_each_seat_sees_its_own_hand_and_only_the_count_of_the_other(log: GameLog) -> None:
    gid = start(log).game_id
    state = judge_state(log, gid)
    for seat in ("A", "B"):
        (command, *_) = RS.legal_commands(state, seat)
        log.record(gid, [command], actor=seat)  # the seat's own token
        state = judge_state(log, gid)

    view_a = state_as(log, gid, "A")
    assert view_a["seats"]["A"]["hand_count"] == 6
    assert len(view_a["seats"]["A"]["hand"]) == 6
    assert all("name" in card for card in view_a["seats"]["A"]["hand"])
    hand_b = view_a["seats"]["B"].get("hand") or []
    assert all("name" not in card and "id" not in card for card in hand_b)
    assert view_a["seats"]["B"]["hand_count"] == 6
    spectator = state_as(log, gid, "spectator")
    for seat in ("A", "B"):
        assert all("name" not in c for c in spectator["seats"][seat].get("hand") or [])

    # The opponent's log names none of A's opening cards.
    ids_a = set(state["seats"]["A"]["zones"]["hand"])
    text = repr(events_as(log, gid, "B"))
    assert not any(cid in text for cid in ids_a)


def test_card_ids_are_random_and_opaque(log: GameLog) -> None:
    first = start(log)
    second = start(log)
    ids_1 = [c["id"] for c in first.cards["A"]["cards"]]
    ids_2 = [c["id"] for c in second.cards["A"]["cards"]]
    assert [c["name"] for c in first.cards["A"]["cards"]] == [
        c["name"] for c in second.cards["A"]["cards"]
    ]
    assert not set(ids_1) & set(ids_2)
    assert len(set(ids_1)) == 40
    assert all(re.fullmatch(r"[0-9a-f]{16}", cid) for cid in ids_1)


def test_client_time_is_stored_beside_the_server_time(log: GameLog) -> None:
    result = play_demo(log, seed=5, max_actions=5)
    state = judge_state(log, result.game_id)
    command = next(c for seat in ("A", "B") for c in RS.legal_commands(state, seat))
    outcome = log.record(
        result.game_id, [{**command, "at": "2024-05-01T10:00:00+02:00"}], actor="table"
    )
    events: list[dict[str, Any]] = outcome.response["events"]
    assert events and all(e["client_at"] == "2024-05-01T10:00:00+02:00" for e in events)
    assert all(e["received_at"] for e in events)
