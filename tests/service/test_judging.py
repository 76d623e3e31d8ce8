"""The judge's tools as use cases (moved from tests/api/test_judge.py): replay any moment,
disputes and rulings as events, backups. What only HTTP shows (``?as=``, who may call, the
viewer page, the query's 400s) stays there."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import ImpossibleCommand, InvalidCommand, NotFound, UnknownVersion
from domain.judge import Claim
from projections.replay import diff_view, state_diff
from projections.views import event_view, state_view
from service.games import GameLog
from tests.service.helpers import Played, events_as, play_demo, refused, state_as

ACTIONS = 40


@pytest.fixture
def game(log: GameLog) -> Played:
    """A demo game stopped in play after ``ACTIONS`` actions."""
    return play_demo(log, seed=1, max_actions=ACTIONS)


def played_turns(log: GameLog, game: Played) -> dict[int, dict[str, int]]:
    """The timeline's turns: their first and last versions and how many events each holds."""
    turns = log.replays.index(game.game_id).turns
    return {t: {"first": vs[0], "last": vs[-1], "count": len(vs)} for t, vs in turns.items()}


def strip(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "version"}


def hand_names(state: dict[str, Any], seat: str) -> set[str]:
    return {c["name"] for c in state["seats"][seat]["hand"]}


def open_dispute(log: GameLog, game: Played, by: str, statement: str, **where: Any) -> str:
    """``POST /disputes`` by ``by``: the dispute's id."""
    did, _ = log.open_dispute(game.game_id, Claim(raised_by=by, statement=statement, **where))
    return did


def ruling(text: str, **more: Any) -> dict[str, Any]:
    """A ruling body as the API's schema loads it (``corrections`` default to none)."""
    return {"ruling": text, "corrections": [], **more}


# ---------------------------------------------------------------------------- replay


def test_the_state_at_a_turn_is_the_state_after_its_last_event(log: GameLog, game: Played) -> None:
    turns = played_turns(log, game)
    assert set(turns) >= {0, 1, 2}
    for turn, r in turns.items():
        assert state_as(log, game.game_id, turn=turn) == state_as(log, game.game_id, at=r["last"])
    as_b = state_as(log, game.game_id, "B", turn=1)["seats"]
    assert "hand" not in as_b["A"] and "hand" in as_b["B"]
    with refused(NotFound, "game/turn_not_found"):
        state_as(log, game.game_id, turn=99)


def test_a_turn_shows_its_events_the_states_around_it_and_what_changed(
    log: GameLog, game: Played
) -> None:
    turns = played_turns(log, game)
    first, last = turns[1]["first"], turns[1]["last"]
    turn = log.replays.turn(game.game_id, 1)
    events = [event_view(r, "judge") for r in turn.records]
    assert turn.versions == list(range(first, last + 1))
    assert [e["version"] for e in events] == turn.versions
    assert events[0]["type"] == "TurnStarted"
    before, after = state_view(turn.before, "judge"), state_view(turn.after, "judge")
    assert before == state_as(log, game.game_id, at=first - 1)
    assert after == state_as(log, game.game_id, at=last)
    diff = diff_view(state_diff(turn.before, turn.after), turn.before, turn.after, "judge")
    active = events[0]["data"]["player"]
    seat_before, seat_after = before["seats"][active], after["seats"][active]
    assert diff["seats"][active]["level"] == [seat_before["level"], seat_after["level"]]
    if seat_before["gold"] != seat_after["gold"]:
        assert diff["seats"][active]["gold"] == [seat_before["gold"], seat_after["gold"]]
    assert {"moved", "damage", "zapped", "tokens", "seats", "table", "fight"} <= set(diff)
    assert all(m["from"] != m["to"] or m["face"][0] != m["face"][1] for m in diff["moved"])
    setup = log.replays.turn(game.game_id, 0)
    assert not setup.before.get("seats") and setup.versions[0] == 1  # the API's "before": null
    with refused(NotFound, "game/turn_not_found"):
        log.replays.turn(game.game_id, 99)


def test_an_event_comes_with_its_causes_and_what_it_caused(log: GameLog, game: Played) -> None:
    timeline = log.replays.index(game.game_id).timeline
    caused = [e for e in timeline if e["cause"] is not None]
    assert caused, "the demo game has engine steps caused by actions"
    entry = caused[-1]
    seen = log.replays.event(game.game_id, entry["version"])
    causes = [event_view(r, "judge") for r in seen.causes]
    assert event_view(seen.record, "judge")["version"] == entry["version"]
    assert seen.turn == entry["turn"]
    assert causes[0]["version"] == entry["cause"]
    assert causes[-1]["cause"] is None  # the chain ends at a player's own action
    root = log.replays.event(game.game_id, causes[-1]["version"])
    assert entry["version"] in [event_view(e, "judge")["version"] for e in root.effects]
    assert root.causes == []
    assert state_view(seen.after, "judge") == state_as(log, game.game_id, at=entry["version"])
    diff = diff_view(state_diff(seen.before, seen.after), seen.before, seen.after, "judge")
    assert diff["versions"] == [entry["version"] - 1, entry["version"]]
    with refused(UnknownVersion, "game/version_not_found"):
        log.replays.event(game.game_id, len(timeline) + 1)


def test_the_timeline_outlines_every_event_and_the_heroes_over_the_turns(
    log: GameLog, game: Played
) -> None:
    index = log.replays.index(game.game_id)
    assert index.version == game.version
    assert [e["version"] for e in index.timeline] == list(range(1, game.version + 1))
    last = [point for point in index.series if point][-1]
    now = state_as(log, game.game_id)
    for seat in "AB":
        assert last[seat] == {
            "level": now["seats"][seat]["level"],
            "damage": now["seats"][seat]["damage"],
            "gold": now["seats"][seat]["gold"],
        }


# ---------------------------------------------------------------------------- disputes


def test_a_seat_opens_a_dispute_and_the_judge_rules_with_a_penalty_and_a_correction(
    log: GameLog, game: Played
) -> None:
    gid = game.game_id
    turns = played_turns(log, game)
    did, opened = log.open_dispute(gid, Claim(raised_by="A", statement="B's <b>ally</b>?", turn=1))
    assert [r["event"]["type"] for r in opened] == ["DisputeOpened"]
    dispute = log.replays.index(gid).state["disputes"][did]
    assert not dispute.get("rulings") and dispute["raised_by"] == "A"  # open
    assert (dispute["from_version"], dispute["to_version"]) == (turns[1]["first"], turns[1]["last"])
    assert list(log.replays.index(gid).state["disputes"]) == [did]

    hero_b = state_as(log, gid)["seats"]["B"]
    version = log.current_version(gid)
    body = ruling(
        "B's hero took 1 damage in error; B warned",
        penalty={"kind": "warning", "seat": "B"},
        corrections=[
            {"type": "damage", "target": "B", "amount": 2, "corrects": turns[1]["last"]},
            {"type": "heal", "target": "B", "amount": 1, "corrects": turns[1]["last"]},
            {"type": "take_gold", "player": "A", "amount": 3, "corrects": 2},
        ],
    )
    events = [event_view(r, "judge") for r in log.rule(gid, did, body).records]
    assert [e["version"] for e in events] == list(range(version + 1, version + 5))
    forced = events[:3]
    assert [e["type"] for e in forced] == ["JudgeDamageDealt", "JudgeHealed", "JudgeGoldTaken"]
    assert all(e["seat"] == "judge" and e["data"]["forced_by_judge"] for e in forced)
    assert [e["data"]["corrects"] for e in forced] == [turns[1]["last"], turns[1]["last"], 2]
    assert events[-1]["type"] == "RulingRecorded"
    now = state_as(log, gid)
    assert now["seats"]["B"]["damage"] == hero_b["damage"] + 1
    assert now["seats"]["A"]["gold"] >= 3

    (r,) = log.replays.index(gid).state["disputes"][did]["rulings"]  # ruled
    assert (r["penalty"], r["player"]) == ("warning", "B")
    assert r["corrections"] == [version + 1, version + 2, version + 3]
    corrected = log.replays.event(gid, turns[1]["last"])
    assert corrected.corrected_by == [version + 1, version + 2]
    played = state_as(log, gid, played=True)
    assert played["seats"]["B"]["damage"] == hero_b["damage"]

    with refused(ImpossibleCommand, "dispute/already_ruled"):
        log.rule(gid, did, ruling("again"))
    with refused(NotFound, "dispute/not_found"):
        log.rule(gid, "d9", ruling("?"))


def test_a_backup_undoes_every_later_event_newest_first_and_keeps_the_originals(
    log: GameLog, game: Played
) -> None:
    gid = game.game_id
    turns = played_turns(log, game)
    point = turns[2]["first"] + 2
    before_log = events_as(log, gid)
    at_point = state_as(log, gid, at=point)
    did = open_dispute(log, game, "judge", "back up", from_version=point + 1)
    now = log.current_version(gid)
    records = log.rule(gid, did, ruling("backed up", backup_to=point)).records
    (r,) = log.replays.index(gid).state["disputes"][did]["rulings"]
    assert r["backup_to"] == point
    assert r["undone"] == list(range(now, point, -1))  # newest first, skipping nothing
    restorations = [event_view(x, "judge") for x in records[:-1]]
    undoes = [e["data"]["undoes"] for e in restorations]
    assert undoes == sorted(undoes, reverse=True)
    assert set(undoes) <= set(r["undone"]) and now not in undoes  # the dispute changes no table
    assert all(x["event"]["seat"] == "judge" for x in records)

    after = state_as(log, gid)
    assert strip(after) == strip(at_point)
    for viewer in ("A", "B"):
        assert strip(state_as(log, gid, viewer)) == strip(state_as(log, gid, viewer, at=point))
    assert events_as(log, gid)[: len(before_log)] == before_log  # nothing deleted or edited
    assert log.verify_game(gid)["ok"] is True
    assert log.replays.event(gid, now - 1).undone_by
    index = log.replays.index(gid)
    assert index.turns[at_point["turn"]][-1] == index.version


def test_a_bad_correction_records_nothing(log: GameLog, game: Played) -> None:
    gid = game.game_id
    did = open_dispute(log, game, "B", "x")
    version = log.current_version(gid)
    cases = [
        ({"type": "explode", "corrects": 2}, InvalidCommand, "request/unknown_correction"),
        ({"type": "damage", "target": "A", "amount": 1}, InvalidCommand, "request/invalid_number"),
        (
            {"type": "discard", "card": "nope", "corrects": 2},
            ImpossibleCommand,
            "command/unknown_card",
        ),
        (
            {"type": "heal", "target": "A", "amount": 1, "corrects": 10_000},
            UnknownVersion,
            "game/version_not_found",
        ),
        (
            {"type": "move", "card": "x", "to": "moon", "corrects": 1},
            ImpossibleCommand,
            "command/unknown_card",
        ),
    ]
    for correction, error, code in cases:
        first = {"type": "heal", "target": "A", "amount": 1, "corrects": 2}
        with refused(error, code):
            log.rule(gid, did, ruling("fix", corrections=[first, correction]))
    with refused(UnknownVersion, "game/version_not_found"):
        log.rule(gid, did, ruling("x", backup_to=10_000))
    assert log.current_version(gid) == version
