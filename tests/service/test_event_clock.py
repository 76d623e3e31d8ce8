"""A round's clock as use cases (issue #38, docs/rules.md F.6): the staff's actions and the
server calling time at a table by itself, on the in-memory store with a fake clock.

The clock is the service's (``service.games.utc_now``), set by each test; the events' keeper is
asked at a given time (``run_due``), as its thread does every half second. Two keepers on one
store stand for two recording processes: time is called once. The same over real HTTP with a
game stream open: tests/api/test_event_clock_live.py.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.ccg.cards import sample_catalog
from domain.errors import RuleViolation
from domain.tournament import clock
from service.event_clock import TIME_CALLED, EventClock
from service.event_keeper import EventKeeper
from service.games import GameLog
from service.tournaments import Tournaments
from tests.fake_clock import at


def decklist() -> list[dict[str, Any]]:
    names = [c["name"] for c in sample_catalog().cards.values() if c["type"] != "hero"]
    return [{"name": names[i % len(names)]} for i in range(20)]


def new_event(log: GameLog, players: int = 4, **options: Any) -> tuple[Tournaments, UUID]:
    tournaments = Tournaments(log)
    body = {
        "name": "FNM",
        "ruleset": "munchkin-ccg",
        "format": "casual",
        "round_minutes": 30,
        "dealing": "table",
        **options,
    }
    event_id, _ = tournaments.create(body)
    for i in range(players):
        hero = {"name": "Sample Orc Warrior"}
        tournaments.register(event_id, {"player": f"p{i}", "hero": hero, "decklist": decklist()})
    tournaments.pair_next(event_id)
    return tournaments, event_id


def games_of(tournaments: Tournaments, event_id: UUID, table: int) -> list[UUID]:
    event = tournaments.load(event_id)
    pairing = next(p for p in event.round_at(1)["pairings"] if p["table"] == table)
    return [UUID(g) for g in pairing["games"]]


def called_in(log: GameLog, game_id: UUID) -> list[dict[str, Any]]:
    return [r["event"] for r in log.records(game_id) if r["event"]["type"] == "TimeCalled"]


def test_the_keeper_calls_time_at_each_table_at_its_deadline_once(log: GameLog, now: Any) -> None:
    tournaments, event_id = new_event(log)
    service = EventClock(tournaments)
    keeper, other = EventKeeper(tournaments, [TIME_CALLED]), EventKeeper(tournaments, [TIME_CALLED])
    now(1)
    service.act(event_id, {"action": "start"}, "organizer")
    now(5)
    service.act(
        event_id, {"action": "extend", "table": 2, "minutes": 3, "reason": "deck check"}, "judge"
    )
    assert keeper.run_due(now(10)) != [] and keeper.due  # learned, next due at 31'
    assert called_in(log, games_of(tournaments, event_id, 1)[0]) == []
    keeper.run_due(now(30.99))
    assert called_in(log, games_of(tournaments, event_id, 1)[0]) == []
    keeper.run_due(now(31))
    other.run_due(now(31.01))  # a second process finds it done
    (table1,) = called_in(log, games_of(tournaments, event_id, 1)[0])
    assert (table1["deadline"], table1["extra_turns"], table1["seat"]) == (at(31), 5, "rules")
    assert called_in(log, games_of(tournaments, event_id, 2)[0]) == []  # extended to 34'
    keeper.run_due(now(33.9))
    assert called_in(log, games_of(tournaments, event_id, 2)[0]) == []
    other.run_due(now(34))
    keeper.run_due(now(34.5))
    (table2,) = called_in(log, games_of(tournaments, event_id, 2)[0])
    assert table2["deadline"] == at(34)
    event = tournaments.load(event_id)
    assert clock.called(event, 1).keys() == {"1", "2"}
    shown = service.view(event, at(35))
    assert shown["state"] == "time" and shown["time_called"] == {"1": at(31), "2": at(34)}
    assert shown["extensions"] == {"2": 3}


def test_a_paused_clock_calls_nothing_and_moves_every_deadline(log: GameLog, now: Any) -> None:
    tournaments, event_id = new_event(log, players=2)
    service, keeper = EventClock(tournaments), EventKeeper(tournaments, [TIME_CALLED])
    service.act(event_id, {"action": "start"}, "judge")
    now(10)
    service.act(event_id, {"action": "pause"}, "judge")
    keeper.run_due(now(45))
    (game,) = games_of(tournaments, event_id, 1)
    assert called_in(log, game) == []
    service.act(event_id, {"action": "resume"}, "judge")  # paused 35 minutes
    keeper.run_due(now(64.9))
    assert called_in(log, game) == []
    keeper.run_due(now(65))
    assert [e["deadline"] for e in called_in(log, game)] == [at(65)]


def test_a_refused_action_changes_nothing(log: GameLog, now: Any) -> None:
    tournaments, event_id = new_event(log, players=2)
    service = EventClock(tournaments)
    before = tournaments.load(event_id).version
    with pytest.raises(RuleViolation) as refused:
        service.act(event_id, {"action": "pause"}, "judge")
    assert refused.value.code == "rule/clock_not_running"
    assert tournaments.load(event_id).version == before


def test_a_finished_game_gets_no_time_called(log: GameLog, now: Any) -> None:
    tournaments, event_id = new_event(log, players=4)
    (over,) = games_of(tournaments, event_id, 1)
    (playing,) = games_of(tournaments, event_id, 2)
    log.record(over, [{"type": "concede", "seat": "A"}], actor="A")
    service, keeper = EventClock(tournaments), EventKeeper(tournaments, [TIME_CALLED])
    service.act(event_id, {"action": "start"}, "judge")
    keeper.run_due(now(31))
    assert called_in(log, over) == [] and len(called_in(log, playing)) == 1
    called = clock.called(tournaments.load(event_id), 1)
    assert (called["1"]["games"], called["2"]["games"]) == ([], [str(playing)])
    log.record(playing, [{"type": "concede", "seat": "B"}], actor="B")
    with pytest.raises(RuleViolation) as refused:  # every match has its result
        service.act(event_id, {"action": "pause"}, "judge")
    assert "over" in refused.value.message
    assert service.view(tournaments.load(event_id))["state"] == "over"


def test_a_restarted_keeper_learns_the_clock_from_the_store(log: GameLog, now: Any) -> None:
    tournaments, event_id = new_event(log, players=2)
    EventClock(tournaments).act(event_id, {"action": "start"}, "judge")
    fresh = EventKeeper(tournaments, [TIME_CALLED])  # started after the clock was
    fresh.run_due(now(40))
    (game,) = games_of(tournaments, event_id, 1)
    assert [e["deadline"] for e in called_in(log, game)] == [at(30)]


def test_after_time_the_extra_turns_are_played_and_the_game_ends_a_draw(
    log: GameLog, now: Any
) -> None:
    """Through the service's own recording path: once the event's ``extra_turns`` (1 here) are
    over and nobody has won, the rules end the game a draw (MTR 2.5), recorded by the rules
    after the command that ended the last turn."""
    import random

    from domain.family import family_named

    tournaments, event_id = new_event(log, players=2, extra_turns=1)
    (game,) = games_of(tournaments, event_id, 1)
    EventClock(tournaments).act(event_id, {"action": "start"}, "judge")
    EventKeeper(tournaments, [TIME_CALLED]).run_due(now(30))
    (called,) = called_in(log, game)
    assert (called["turn"], called["last_turn"]) == (0, 1)  # called during setup
    family, rng = family_named("munchkin-ccg"), random.Random(3)
    turns = []
    for _ in range(400):
        state = log.game(game).state
        if state["status"] == "finished":
            break
        turns.append(state["turn"])
        command = family.demo_next(state, rng)
        assert command is not None
        log.record(game, [command], actor="judge")
    state = log.game(game).state
    assert (state["status"], state["winner"]) == ("finished", "draw")
    assert max(turns) == 1 and state["turn"] == 2  # turn 1 was played out, turn 2 never
    last = log.records(game)[-1]["event"]
    assert (last["type"], last["seat"]) == ("GameEnded", "rules")


def test_a_classic_table_at_time_ends_by_its_events_time_result(log: GameLog, now: Any) -> None:
    """A Deluxe table (record mode) with ``time_result: highest_level``: the judge set two
    seats' levels; time is called in A's first turn, the round of turns finishes (B and C), and
    the highest level still in wins, the two at level 4 sharing first place."""
    from domain.family import family_named
    from domain.judge import Claim

    tournaments = Tournaments(log)
    body = {"name": "Deluxe", "ruleset": "munchkin-deluxe", "format": "casual", "round_minutes": 30}
    event_id, _ = tournaments.create(
        {**body, "dealing": "table", "mode": "record", "time_result": "highest_level"}
    )
    for name in ("ann", "bob", "cat"):
        tournaments.register(event_id, {"player": name})
    tournaments.pair_next(event_id)
    (game,) = games_of(tournaments, event_id, 1)
    rs, rng = family_named("munchkin-deluxe"), __import__("random").Random(5)
    while log.game(game).state["status"] == "setup":  # the demo's setup: deal, roll, ready
        command = rs.demo_next(log.game(game).state, rng)
        assert command is not None
        log.record(game, [command], actor="judge")
    state = log.game(game).state
    assert state["active"] == state["first"] == "A"
    did, _ = log.open_dispute(game, Claim(raised_by="judge", statement="levels"))
    fixes = [
        {"type": "set_level", "player": seat, "level": 4, "corrects": state["version"]}
        for seat in ("A", "C")
    ]
    log.rule(game, did, {"ruling": "levels as counted", "corrections": fixes})
    EventClock(tournaments).act(event_id, {"action": "start"}, "judge")
    EventKeeper(tournaments, [TIME_CALLED]).run_due(now(30))
    (called,) = called_in(log, game)
    assert (called["extra_turns"], called["time_result"]) == (2, "highest_level")
    for seat in ("A", "B"):
        log.record(game, [{"type": "end_turn", "seat": seat}], actor="judge")
        assert log.game(game).state["status"] == "playing"
    log.record(game, [{"type": "end_turn", "seat": "C"}], actor="judge")
    state = log.game(game).state
    assert state["status"] == "finished" and sorted(state["winners"]) == ["A", "C"]
    assert rs.places(state) == {"A": 1, "C": 1, "B": 3}
    event = tournaments.load(event_id)
    seats = event.round_at(1)["pairings"][0]["seats"]
    results = tournaments.results(event)
    assert [r["places"] for r in results] == [{seats["A"]: 1, seats["C"]: 1, seats["B"]: 3}]
