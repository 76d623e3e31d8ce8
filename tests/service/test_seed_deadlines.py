"""A server-dealt game never waits on a seed nobody can send (issue #43): once a seed deadline
passes, the server records the withholding by itself (``service.deadlines.DeadlineKeeper``),
with no request from anyone after the commitments; ``/legal`` says what the game waits on and
until when (``deadline``); the keeper learns the deadlines from the store, so a restarted one
keeps them too.

The clock is the service's (``service.games.utc_now``), set by each test; the keeper is asked
at a given time (``expire_due``), as its thread does every half second. The same over real
HTTP with a stream open: tests/api/test_seed_deadline_live.py.
"""

from __future__ import annotations

import os
from typing import Any
from uuid import UUID

import pytest

from domain.dealing import seat_commitment
from domain.game import SeedDeadline
from service.deadlines import DeadlineKeeper
from service.games import GameLog
from service.legal import legal_view
from tests.service.helpers import play_demo, start

T0 = "2030-01-01T00:00:00+00:00"


def at(seconds: float) -> str:
    return f"2030-01-01T00:00:{seconds:06.3f}+00:00"


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set the service's clock: ``clock(seconds)`` after :data:`T0`."""

    def set_to(seconds: float) -> str:
        now = at(seconds)
        monkeypatch.setattr("service.games.utc_now", lambda: now)
        return now

    set_to(0)
    return set_to


def commit(log: GameLog, gid: UUID, seat: str, seed: bytes) -> None:
    command = {
        "type": "commit_seed",
        "seat": seat,
        "commitment": seat_commitment(str(gid), seat, seed),
    }
    log.record(gid, [command], actor=seat)


def reveal(log: GameLog, gid: UUID, seat: str, seed: bytes) -> None:
    log.record(gid, [{"type": "reveal_seed", "seat": seat, "seed": seed.hex()}], actor=seat)


def types(log: GameLog, gid: UUID, after: int = 0) -> list[str]:
    return [str(r["event"]["type"]) for r in log.all_records(gid)][after:]


def test_a_passed_reveal_deadline_is_recorded_with_no_request(log: GameLog, clock: Any) -> None:
    """Ann's seed is on a page that is gone: Bob reveals, and nobody sends anything more. Past
    the deadline the keeper records Ann's withholding; the game is dealt from then on."""
    gid = start(log, dealing="server", reveal_timeout=5).game_id
    seeds = {seat: os.urandom(32) for seat in "AB"}
    commit(log, gid, "A", seeds["A"])
    commit(log, gid, "B", seeds["B"])
    reveal(log, gid, "B", seeds["B"])
    version = log.current_version(gid)
    keeper = DeadlineKeeper(log)
    # what every caller is told meanwhile: the game waits on A's reveal until the deadline
    for viewer in ("A", "B", "table", "judge"):
        legal = legal_view(log.game(gid).state, viewer)
        assert legal["deadline"] == {
            "at": "2030-01-01T00:00:05Z",
            "seats": ["A"],
            "step": "reveal_seed",
        }
        assert legal["waiting_for"] == ["A"]
    assert log.overview(gid)["dealing"]["deadline"]["seats"] == ["A"]

    assert keeper.expire_due(clock(5)) == []  # not past yet (the rules' "past" is strict)
    assert log.current_version(gid) == version
    assert keeper.expire_due(clock(5.5)) == [gid]
    assert types(log, gid, version) == ["SeedWithheld"]
    state = log.game(gid).state
    assert state["dealing"]["withheld"] == ["A"]
    assert legal_view(state, "A")["deadline"] is None
    assert {"type": "draw_opening", "seat": "A"} in legal_view(state, "A")["commands"]["A"]
    assert keeper.expire_due(clock(9)) == [] and keeper.due == {}  # once


def test_a_silent_contributor_then_a_lost_seed(log: GameLog, clock: Any) -> None:
    """A commits, B never does: past the commitments' deadline B is withheld and the reveals
    open for ``reveal_timeout`` more; A's seed is lost too, and past that deadline A is
    withheld: the game goes on with the server's secret alone, no request in between."""
    gid = start(log, dealing="server", reveal_timeout=10).game_id
    commit(log, gid, "A", os.urandom(32))
    legal = legal_view(log.game(gid).state, "judge")
    assert legal["deadline"] == {
        "at": "2030-01-01T00:00:10Z",
        "seats": ["B"],
        "step": "commit_seed",
    }
    keeper = DeadlineKeeper(log)
    assert keeper.expire_due(clock(10.5)) == [gid]
    deadline = legal_view(log.game(gid).state, "judge")["deadline"]
    assert deadline == {"at": "2030-01-01T00:00:20Z", "seats": ["A"], "step": "reveal_seed"}
    assert keeper.expire_due(clock(19)) == []
    assert keeper.expire_due(clock(20.5)) == [gid]
    dealing = log.game(gid).state["dealing"]
    assert (
        dealing["withheld"] == ["B", "A"]
        and legal_view(log.game(gid).state, "A")["deadline"] is None
    )


def test_a_restarted_keeper_learns_the_deadlines_from_the_store(log: GameLog, clock: Any) -> None:
    """A keeper that was not running when the deadline was set (a process started after the
    commitments, or restarted) finds it in the store: nothing is kept in memory alone. A game
    whose seeds all came in is not kept."""
    gid = start(log, dealing="server", reveal_timeout=5).game_id
    settled = start(log, dealing="server", reveal_timeout=5).game_id
    seeds = {seat: os.urandom(32) for seat in "AB"}
    for game in (gid, settled):
        for seat in "AB":
            commit(log, game, seat, seeds[seat])
    for seat in "AB":
        reveal(log, settled, seat, seeds[seat])
    fresh = DeadlineKeeper(log)
    fresh.learn()
    assert fresh.due == {gid: "2030-01-01T00:00:05Z"}
    assert fresh.expire_due(clock(6)) == [gid]
    again = DeadlineKeeper(log)  # restarted after: nothing is due any more
    again.learn()
    assert again.due == {}


def test_only_one_of_several_keepers_records(log: GameLog, clock: Any) -> None:
    """Every worker keeps the same deadlines: the first to look records, the others find the
    seeds withheld already and record nothing."""
    gid = start(log, dealing="server", reveal_timeout=5).game_id
    for seat in "AB":
        commit(log, gid, seat, os.urandom(32))
    keepers = [DeadlineKeeper(log) for _ in range(3)]
    for keeper in keepers:
        keeper.learn()
    recorded = [keeper.expire_due(clock(6)) for keeper in keepers]
    assert recorded == [[gid], [], []]
    assert types(log, gid).count("SeedWithheld") == 2
    assert all(keeper.due == {} for keeper in keepers)


def test_marks_are_saved_only_when_the_deadline_changes(log: GameLog, clock: Any) -> None:
    """The hot path writes nothing more: a table-dealt game has no mark, a server-dealt one a
    mark at its first commitment, its last (the reveals' deadline), and its last reveal (none
    pending any more)."""
    play_demo(log, seed=1, max_actions=30)
    gid = start(log, dealing="server", reveal_timeout=30).game_id
    seeds = {seat: os.urandom(32) for seat in "AB"}
    commit(log, gid, "A", seeds["A"])
    clock(2)
    commit(log, gid, "B", seeds["B"])
    for seat in "AB":
        reveal(log, gid, seat, seeds[seat])
    notes = log.store.notifications_of(SeedDeadline.Set, 0, 100)
    marks = [log.store.mapper.to_domain_event(note) for note in notes]
    assert [(m.game_id, m.version, m.deadline) for m in marks] == [
        (gid, 2, "2030-01-01T00:00:30Z"),
        (gid, 3, "2030-01-01T00:00:32Z"),
        (gid, 5, None),
    ]


def test_an_imported_game_waiting_on_a_seed_is_kept_on_its_new_server(
    make_log: Any, clock: Any
) -> None:
    """An unfinished export waiting on a lost seed imports with its deadline: the new server's
    keeper records the withholding (it needs no secret for that)."""
    from projections.exports import export_json_text

    log = make_log()
    gid = start(log, dealing="server", reveal_timeout=5).game_id
    seeds = {seat: os.urandom(32) for seat in "AB"}
    for seat in "AB":
        commit(log, gid, seat, seeds[seat])
    reveal(log, gid, "B", seeds["B"])
    other = make_log()
    other.import_export(export_json_text(log.all_records(gid), "judge"))
    keeper = DeadlineKeeper(other)
    keeper.learn()
    assert keeper.due == {gid: "2030-01-01T00:00:05Z"}
    assert keeper.expire_due(clock(6)) == [gid]
    assert other.game(gid).state["dealing"]["withheld"] == ["A"]


def test_the_next_look_starts_at_the_head_not_at_the_last_mark(log: GameLog, clock: Any) -> None:
    """With no mark for a long time (table-dealt games recording), a look reads only what was
    recorded since the last one: the keeper's position follows the log's head."""
    gid = start(log, dealing="server", reveal_timeout=5).game_id
    commit(log, gid, "A", os.urandom(32))
    play_demo(log, seed=2, max_actions=20)
    keeper = DeadlineKeeper(log)
    keeper.learn()
    assert keeper.position == log.store.max_notification_id() and gid in keeper.due
    play_demo(log, seed=3, max_actions=10)
    keeper.learn()
    assert keeper.position == log.store.max_notification_id()


def test_a_seed_lost_after_a_rekeying_is_kept_in_the_new_epoch(log: GameLog, clock: Any) -> None:
    """A judge's re-keying ruling opens a new epoch's seeds mid-game: A's new seed is lost, and
    past the new deadline the keeper records it as withheld in that epoch."""
    from tests.service.test_rekeying import rekey, seed_epoch

    gid = start(log, dealing="server", reveal_timeout=5).game_id
    seed_epoch(log, gid)
    log.record(gid, [{"type": "draw_opening", "seat": "A"}], actor="A")
    rekey(log, gid)
    keeper = DeadlineKeeper(log)
    assert keeper.expire_due(clock(1)) == [] and keeper.due == {}  # none before a commitment
    seeds = {seat: os.urandom(32) for seat in "AB"}
    for seat in "AB":
        commit(log, gid, seat, seeds[seat])
    reveal(log, gid, "B", seeds["B"])
    assert legal_view(log.game(gid).state, "A")["deadline"] == {
        "at": "2030-01-01T00:00:06Z",
        "seats": ["A"],
        "step": "reveal_seed",
    }
    assert keeper.expire_due(clock(7)) == [gid]
    last = log.all_records(gid)[-1]["event"]
    assert last["type"] == "SeedWithheld" and last["epoch"] == 1 and last["contributor"] == "A"
    assert {"type": "draw_opening", "seat": "B"} in legal_view(log.game(gid).state, "B")[
        "commands"
    ]["B"]
