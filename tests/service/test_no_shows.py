"""Check-in and no-shows as use cases (issue #38, docs/rules.md F.7), on the in-memory store
with a fake clock (``service.games.utc_now``, set by each test; the events' keeper asked at a
given time, as its thread does every half second).

A player not checked in ``no_show`` minutes after the round's clock started gets a game loss
ruled in its game by the server, once (two keepers stand for two recording processes); a
player who misses two rounds in a row is dropped, with the reason.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.errors import RuleViolation
from domain.tournament import checkin
from service.event_checkin import NO_SHOWS, EventCheckIn
from service.event_clock import EventClock
from service.event_keeper import EventKeeper
from service.games import GameLog
from service.tournaments import Tournaments
from tests.fake_clock import at
from tests.service.test_event_clock import new_event

CHECK_IN = {"check_in": {"opens": 10, "no_show": 5}}


def pairing_of(tournaments: Tournaments, event_id: UUID, number: int, player: str) -> Any:
    return tournaments.load(event_id).pairing_of(number, player)


def rulings(log: GameLog, game_id: str) -> list[dict[str, Any]]:
    state = log.game(UUID(game_id)).state
    return [r for d in (state.get("disputes") or {}).values() for r in d["rulings"]]


def test_a_no_show_gets_one_game_loss_at_its_deadline_and_no_earlier(
    log: GameLog, now: Any
) -> None:
    tournaments, event_id = new_event(log, **CHECK_IN)
    service = EventCheckIn(tournaments)
    for player in ("p0", "p1", "p2"):
        assert service.check_in(event_id, player)["round"] == 1
    EventClock(tournaments).act(event_id, {"action": "start"}, "judge")
    keepers = [EventKeeper(tournaments, [NO_SHOWS]) for _ in range(2)]
    now(4.9)
    for keeper in keepers:
        keeper.run_due(at(4.9))
    game = pairing_of(tournaments, event_id, 1, "p3")["games"][-1]
    assert rulings(log, game) == []  # not yet: 5 minutes after the start
    now(5.1)
    for keeper in keepers:  # two recording processes: one game loss
        keeper.run_due(at(5.1))
    given = rulings(log, game)
    assert len(given) == 1 and given[0]["penalty"] == "game_loss"
    seat = next(
        s for s, p in pairing_of(tournaments, event_id, 1, "p3")["seats"].items() if p == "p3"
    )
    assert given[0]["player"] == seat and given[0]["infraction"] == checkin.TARDINESS
    assert log.game(UUID(game)).state["status"] == "finished"  # the game loss ends the game
    shown = checkin.view(tournaments.load(event_id))
    assert shown is not None and shown["rounds"]["1"]["no_shows"] == ["p3"]
    assert shown["rounds"]["1"]["checked_in"] == ["p0", "p1", "p2"]
    for keeper in keepers:
        keeper.run_due(at(20))
    assert len(rulings(log, game)) == 1  # once


def test_two_missed_rounds_in_a_row_drop_the_player_with_the_reason(log: GameLog, now: Any) -> None:
    tournaments, event_id = new_event(log, rounds=3, **CHECK_IN)
    service, keeper = EventCheckIn(tournaments), EventKeeper(tournaments, [NO_SHOWS])
    for number, start in ((1, 0.0), (2, 40.0)):
        now(start)
        if number == 2:
            tournaments.pair_next(event_id)
        for player in ("p0", "p1", "p2"):
            service.check_in(event_id, player)
        EventClock(tournaments).act(event_id, {"action": "start"}, "judge")
        now(start + 6)
        keeper.run_due(at(start + 6))
        event = tournaments.load(event_id)
        assert "p3" in checkin.no_shows(event)[number]
        for pairing in event.round_at(number)["pairings"]:  # the others finish their match
            if "p3" not in pairing["seats"].values():
                game = pairing["games"][-1]
                if log.game(UUID(game)).state["status"] != "finished":
                    tournaments.report(
                        event_id,
                        number,
                        pairing["table"],
                        {"games": dict.fromkeys(pairing["seats"].values(), 0), "drawn_games": 1},
                        "judge",
                    )
    event = tournaments.load(event_id)
    assert event.players["p3"]["dropped_after"] == 2
    assert "rounds 1 and 2" in event.players["p3"]["drop_reason"]
    assert event.players["p1"]["dropped_after"] is None


def test_check_in_refusals_change_nothing(log: GameLog, now: Any) -> None:
    tournaments, event_id = new_event(log, **CHECK_IN)
    service = EventCheckIn(tournaments)
    service.check_in(event_id, "p0")
    before = tournaments.load(event_id).version
    with pytest.raises(RuleViolation) as twice:  # round 1's clock not started: round 2 not open
        service.check_in(event_id, "p0")
    assert twice.value.code == "rule/check_in_not_open"
    EventClock(tournaments).act(event_id, {"action": "start"}, "judge")
    now(10)  # round 1 ends at 30 minutes: round 2's check-in opens at 20
    with pytest.raises(RuleViolation) as early:
        service.check_in(event_id, "p0")
    assert early.value.code == "rule/check_in_not_open" and "opens at" in early.value.message
    assert tournaments.load(event_id).version == before + 1  # only the clock's start
    now(21)
    assert service.check_in(event_id, "p0")["round"] == 2
    plain, other = new_event(log)
    with pytest.raises(RuleViolation) as none:
        EventCheckIn(plain).check_in(other, "p0")
    assert none.value.code == "rule/no_check_in"


def test_no_check_in_once_every_round_is_played(log: GameLog, now: Any) -> None:
    tournaments, event_id = new_event(log, players=2, rounds=1, **CHECK_IN)
    event = tournaments.load(event_id)
    table = event.round_at(1)["pairings"][0]
    tournaments.report(
        event_id,
        1,
        1,
        {"games": dict.fromkeys(table["seats"].values(), 0), "drawn_games": 1},
        "judge",
    )
    with pytest.raises(RuleViolation) as over:
        EventCheckIn(tournaments).check_in(event_id, "p0")
    assert over.value.code == "rule/event_finished"


def test_the_keeper_says_when_check_in_opens_for_this_round_and_the_next(
    log: GameLog, now: Any
) -> None:
    tournaments, event_id = new_event(log, rounds=2, **CHECK_IN)  # round 1 paired at 0'
    keeper = EventKeeper(tournaments, [NO_SHOWS])
    keeper.run_due(now(0))
    assert checkin.opened(tournaments.load(event_id)) == {1: at(0)}
    now(1)
    EventClock(tournaments).act(event_id, {"action": "start"}, "judge")  # ends at 31'
    keeper.run_due(now(20.9))
    assert set(checkin.opened(tournaments.load(event_id))) == {1}
    keeper.run_due(now(21))  # 10 minutes before round 1 ends: the next round's opens
    keeper.run_due(now(22))
    shown = checkin.view(tournaments.load(event_id))
    assert shown is not None and shown["opened"] == {"1": at(0), "2": at(21)}
