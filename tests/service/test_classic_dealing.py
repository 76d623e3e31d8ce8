"""Classic Munchkin dealt by the server, through the service (issue #25, docs/rules.md B, E):
the seeds of every seat, a draw or a roll that names its card or value refused, whole games of
the three sets played out by the demo's policy and checked by ``verify``, a tampered deal or die
named, and no seat seeing another's face-down draw in the ``Dealt`` events.

The rules' side of each command (what it draws, a deck running out, a Curse's choice, the
legal commands) is tests/classic/test_server_dealing.py's; the scheme's, tests/unit.
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from domain import fair_check
from domain.classic import CLASSIC
from domain.dealing import seat_commitment
from domain.errors import RuleViolation
from domain.fold import apply_record, initial_state
from service.games import GameLog
from tests.service.helpers import demo_spec, event_view, new_log, play_demo, refused, start
from tests.service.test_dealing import act, records

Record = dict[str, Any]

#: Each set with a number of seats (3 to 6 between them).
GAMES = [("munchkin-deluxe", 4), ("munchkin-old-west", 3), ("munchkin-age-of-sigmar", 6)]
#: The events that take the cards or the dice a ``Dealt`` just before them gave.
DRAWS = (
    "CardsDealt",
    "DoorKicked",
    "ListenedAtDoor",
    "RoomLooted",
    "TreasuresDrawn",
    "FirstPlayerDetermined",
    "RunAwayRolled",
    "TheftAttempted",
)
#: The draws face down, to their player's hand alone (B.1, B.4, B.7).
FACE_DOWN = ("CardsDealt", "ListenedAtDoor", "RoomLooted", "TreasuresDrawn")


def create(log: GameLog, ruleset: str = "munchkin-deluxe", seats: int = 4) -> UUID:
    return start(log, demo_spec(seed=1, ruleset=ruleset, seats=seats), dealing="server").game_id


def commit(log: GameLog, gid: UUID, seeds: dict[str, bytes], seat: str) -> None:
    act(log, gid, seat, "commit_seed", commitment=seat_commitment(str(gid), seat, seeds[seat]))


def seeded(log: GameLog, ruleset: str = "munchkin-deluxe", seats: int = 4) -> UUID:
    """A server-dealt game whose every seat has committed and revealed its seed."""
    gid = create(log, ruleset, seats)
    names = list(log.game(gid).state["seats"])
    seeds = {seat: os.urandom(32) for seat in names}
    for seat in names:
        commit(log, gid, seeds, seat)
    for seat in names:
        act(log, gid, seat, "reveal_seed", seed=seeds[seat].hex())
    return gid


# --------------------------------------------------------------------------- the commands


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("deal", {"doors": ["x"] * 4, "treasures": ["y"] * 4}),
        ("roll_first", {"rolls": {"A": 6, "B": 1, "C": 2, "D": 3}}),
        ("kick_door", {"card": "x"}),
        ("loot", {"card": "x"}),
        ("take_treasure", {"cards": ["x"]}),
        ("run_away", {"monster": "x", "roll": 6}),
        ("discard", {"card": "x", "steal": "y", "roll": 6}),  # a Thief's steal (D.C17)
    ],
)
def test_a_draw_or_a_roll_naming_its_card_or_value_is_refused(
    log: GameLog, kind: str, fields: dict[str, Any]
) -> None:
    gid = seeded(log)
    version = log.game(gid).version
    with refused(RuleViolation, "rule/server_deals") as caught:
        act(log, gid, "A", kind, **fields)
    assert caught.value.rule == "E.1"  # type: ignore[attr-defined]
    assert log.game(gid).version == version


def test_nothing_is_dealt_or_rolled_before_every_seed(log: GameLog) -> None:
    gid = create(log)
    seeds = {seat: os.urandom(32) for seat in "ABCD"}
    for seat in "ABC":
        commit(log, gid, seeds, seat)
    for kind in ("deal", "roll_first"):
        with refused(RuleViolation, "rule/seeds_pending"):
            act(log, gid, "A", kind)
    commit(log, gid, seeds, "D")
    for seat in "ABC":
        act(log, gid, seat, "reveal_seed", seed=seeds[seat].hex())
    with refused(RuleViolation, "rule/seeds_pending"):
        act(log, gid, "A", "deal")  # D has committed, not revealed
    act(log, gid, "D", "reveal_seed", seed=seeds["D"].hex())
    events = act(log, gid, "A", "deal")["events"]
    assert [e["type"] for e in events] == ["Dealt", "Dealt", "CardsDealt"]
    assert [e["data"]["counter"] for e in events[:2]] == [0, 1]


# --------------------------------------------------------------------------- whole games


@pytest.fixture(scope="module", params=GAMES, ids=[rs for rs, _ in GAMES])
def played(request: pytest.FixtureRequest) -> Iterator[tuple[GameLog, UUID, int]]:
    """A server-dealt game of every seat's seeds played to its end by the demo's policy (every
    seat's legal commands: the draws and rolls without a card or a value); the log, the game
    and its number of seats."""
    ruleset, seats = request.param
    log = new_log()
    try:
        gid = seeded(log, ruleset, seats)
        family, rng = CLASSIC[ruleset], random.Random(7)
        for _ in range(family.demo_max_actions):
            state = log.game(gid).state
            if state["status"] == "finished":
                break
            command = family.demo_next(state, rng)
            assert command is not None
            assert not {"doors", "treasures", "rolls", "roll"} & set(command), command
            log.record(gid, [command], actor="table")
        assert log.game(gid).state["status"] == "finished"
        yield log, gid, seats
    finally:
        log.close()


def test_a_played_game_counts_every_operation_and_verifies(
    played: tuple[GameLog, UUID, int],
) -> None:
    log, gid, _ = played
    rows = records(log, gid)
    ops = [r["event"] for r in rows if r["event"]["type"] == "Dealt"]
    assert [op["counter"] for op in ops] == list(range(len(ops)))
    assert {op["op"] for op in ops} == {"deal", "dice"}
    assert rows[-1]["event"]["type"] == "ServerSecretRevealed"
    assert "ServerSecretRevealed" not in [r["event"]["type"] for r in rows[:-1]]
    report = fair_check.verify(rows)
    assert report["ok"] and report["complete"], report
    assert report["checked"] == report["operations"] == len(ops)
    assert log.verify_game(gid)["dealing"]["ok"]
    state = initial_state()
    for row in rows:
        state = apply_record(state, row)
    assert state == log.game(gid).state  # the game replays from its records


def test_every_draw_and_roll_is_what_its_dealt_event_gave(
    played: tuple[GameLog, UUID, int],
) -> None:
    """Each card drawn and each die is the ``Dealt`` event's just before; a deck that ran out
    gave its last cards first, without chance (B.1), then its reshuffled discards."""
    log, gid, _ = played
    ops: list[dict[str, Any]] = []
    reshuffled = False
    for row in records(log, gid):
        e = row["event"]
        if e["type"] == "Dealt":
            ops.append(e)
            continue
        if e["type"] == "DiscardReshuffled":
            reshuffled = True
            continue
        if e["type"] in DRAWS:
            assert ops, e
            if e["type"] == "FirstPlayerDetermined":
                assert list(e["rolls"].values()) == ops[0]["values"]
            elif e["type"] in ("RunAwayRolled", "TheftAttempted"):
                assert [e["roll"]] == ops[0]["values"]
            else:
                if e["type"] == "CardsDealt":
                    drawn = [*e["doors"], *e["treasures"]]
                else:
                    drawn = e["cards"] if "cards" in e else [e["card"]]
                dealt = [c for op in ops for c in op["cards"]]
                assert set(dealt) <= set(drawn)
                assert reshuffled or sorted(dealt) == sorted(drawn)
        ops, reshuffled = [], False


def test_verify_names_a_tampered_deal_or_die(played: tuple[GameLog, UUID, int]) -> None:
    log, gid, _ = played
    rows = records(log, gid)
    ops = [r for r in rows if r["event"]["type"] == "Dealt"]
    deal = next(r for r in ops if r["event"]["op"] == "deal" and r["event"]["among"][1:])
    die = next(r for r in ops if r["event"]["op"] == "dice")
    other = next(c for c in deal["event"]["among"] if c not in deal["event"]["cards"])
    cases = [
        (deal["version"], {"cards": [other, *deal["event"]["cards"][1:]]}),
        (die["version"], {"values": [v % 6 + 1 for v in die["event"]["values"]]}),
    ]
    for version, change in cases:
        bad = copy.deepcopy(rows)
        bad[version - 1]["event"].update(change)
        report = fair_check.verify(bad)
        assert not report["ok"], change
        assert report["first_mismatch"]["version"] == version, report
        assert "recorded result" in report["first_mismatch"]["reason"], report


def test_no_seat_sees_anothers_face_down_draw_in_the_dealt_events(
    played: tuple[GameLog, UUID, int],
) -> None:
    """A.4, B.1, E.1: a ``Dealt`` event names the pile's cards and what it drew; the ids of a
    face-down draw reach neither the other seats nor a spectator (the judge sees them)."""
    log, gid, seats = played
    rows = log.all_records(gid)
    names = [chr(ord("A") + i) for i in range(seats)]
    checked = 0
    for i, row in enumerate(rows):
        if row["event"]["type"] != "Dealt" or row["event"]["op"] != "deal":
            continue
        draw = next(r["event"] for r in rows[i:] if r["event"]["type"] in DRAWS)
        if draw["type"] not in FACE_DOWN or draw.get("face") == "up":
            continue
        for viewer in [*names, "spectator"]:
            if viewer == draw["player"]:
                continue
            seen = event_view(row, viewer, names)["data"]
            assert seen["cards"] == [None] * len(row["event"]["cards"]), (viewer, seen)
            assert seen["among"] == [None] * len(row["event"]["among"]), (viewer, seen)
        judge = event_view(row, "judge", names)["data"]
        assert judge["cards"] == row["event"]["cards"]
        checked += 1
    assert checked >= seats  # every seat's deal at least


@pytest.mark.parametrize(
    ("ruleset", "seats"), [("munchkin-deluxe", 4), ("munchkin-age-of-sigmar", 3)]
)
def test_the_demo_plays_a_server_dealt_classic_game(log: GameLog, ruleset: str, seats: int) -> None:
    """``munchlog demo --dealing server --ruleset …``: the seats commit and reveal fresh random
    seeds, the game is played to its end, and ``verify`` re-derives every draw and die."""
    played = play_demo(log, seed=2, ruleset=ruleset, seats=seats, dealing="server")
    assert played.status == "finished"
    report = log.verify_game(played.game_id)["dealing"]
    assert report["ok"] and report["complete"] and report["checked"] > 3, report
