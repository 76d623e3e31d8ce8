"""Classic Munchkin games as use cases (moved from tests/api/test_classic_api.py; docs/rules.md
B): creation and the contract's state per viewer, the rules checking a seat's cards and each
command, exports in every format and imports elsewhere. What only HTTP shows (the body's
schema, the OpenAPI, leaks through every route, the demo as an HTTP client) stays there."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.classic import CLASSIC
from domain.errors import InvalidCommand, RuleViolation
from projections.exports import (
    ImportRejected,
    export_csv,
    export_json,
    export_json_text,
    export_ndjson,
    export_transcript,
)
from service.errors import GameAlreadyExistsError, NotAllowedError
from service.games import GameLog, StartedGame
from tests.builders import CLASSIC_SEATS, classic_spec, random_classic_command
from tests.service.helpers import events_as, judge_state, refused, start, state_as

RULESETS = tuple(CLASSIC)


def exports(log: GameLog, started: StartedGame, viewer: str) -> dict[str, str]:
    """Every format of the game's export as ``viewer`` may fetch it."""
    records = log.all_records(started.game_id)
    return {
        "json": export_json_text(records, viewer),
        "ndjson": "".join(export_ndjson(records, viewer)),
        "csv": "".join(export_csv(records, viewer)),
        "text": export_transcript(records, viewer),
    }


def play_out(log: GameLog, started: StartedGame, rng: random.Random, limit: int) -> dict[str, Any]:
    """Random legal commands (rarely a concession) recorded by the table; the judge's state."""
    gid = started.game_id
    state = judge_state(log, gid)
    rs = CLASSIC[state["ruleset"]]
    for _ in range(limit):
        if state["status"] == "finished":
            break
        command = random_classic_command(rs, state, rng)
        log.record(gid, [command], actor="table")
        state = judge_state(log, gid)
    return state


# ---------------------------------------------------------------------------- creation


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seats", [3, 6])
def test_a_classic_game_has_a_token_per_seat_and_the_contracts_state(
    log: GameLog, ruleset: str, seats: int
) -> None:
    started = start(log, classic_spec(ruleset, seats))
    names = CLASSIC_SEATS[:seats]
    assert set(started.cards) == set(names)
    tokens = {started.tokens[s] for s in names} | {started.tokens["table"], started.tokens["judge"]}
    assert len(tokens) == seats + 2
    assert len(started.cards["A"]["cards"]) > 40 and started.cards["B"]["cards"] == []
    summary = log.overview(started.game_id)
    assert summary["ruleset"] == ruleset and summary["status"] == "setup"
    for seat in names:
        state = state_as(log, started.game_id, seat)
        assert state["viewer"] == seat
        assert {"status", "turn", "active_seat", "phase", "winners", "decks", "combat"} <= set(
            state
        )
        assert state["phase"] == "setup" and state["winners"] == [] and state["combat"] is None
        assert set(state["decks"]) == {"door", "treasure", "door_discard", "treasure_discard"}
        assert state["decks"]["door"] + state["decks"]["treasure"] == len(
            started.cards["A"]["cards"]
        )
        view = state["seats"][seat]
        assert {
            "player",
            "level",
            "traits",
            "equipped",
            "carried",
            "hand_count",
            "hand",
            "curses",
            "dead",
            "helpers",
        } <= set(view)
        assert set(view["traits"]) == {"race", "class", "army"}
        assert all("hand" not in v for s, v in state["seats"].items() if s != seat)


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ({"name": "Sample Orc Warrior"}, "request/unknown_card_name"),  # the CCG's, not Deluxe's
        ({"name": "Sample Tin Armor"}, "request/invalid_card"),  # a Treasure among the Doors
        ({"name": "Sample Elf", "count": 0}, "request/unknown_card_name"),
        ({"name": ["Sample Elf"]}, "request/unknown_card_name"),
        ({"name": "X", "deck": "door", "kind": "steed"}, "request/invalid_card"),  # Deluxe: none
        ({"name": "X", "deck": "door", "kind": "monster"}, "request/invalid_card"),  # no level
    ],
)
def test_the_rules_check_a_classic_seats_cards(
    log: GameLog, entry: dict[str, Any], code: str
) -> None:
    spec = classic_spec("munchkin-deluxe", 3)
    spec["seats"][1]["doors"] = [entry]
    with refused(InvalidCommand, code) as raised:
        start(log, spec)
    assert any(k.startswith("seats.1.doors.0") for k in raised.value.fields)


# ---------------------------------------------------------------------------- recording


def test_commands_are_recorded_by_seat_and_checked_by_the_rules(log: GameLog) -> None:
    gid = start(log, classic_spec("munchkin-old-west", 3)).game_id
    state = judge_state(log, gid)
    doors, treasures = state["decks"]["door"][:4], state["decks"]["treasure"][:4]
    deal = {"type": "deal", "seat": "B", "doors": doors, "treasures": treasures}
    with refused(NotAllowedError, "auth/wrong_seat"):
        log.record(gid, [{**deal, "seat": "A"}], actor="B")
    dealt = log.record(gid, [deal], actor="B")
    assert [e["type"] for e in dealt.response["events"]] == ["CardsDealt"]
    with refused(RuleViolation, "rule/already_dealt") as raised:
        log.record(gid, [deal], actor="B")
    assert raised.value.rule == "B.1"
    with refused(InvalidCommand, "request/unknown_command"):
        log.record(gid, [{"type": "draw", "seat": "B"}], actor="B")
    seen_by_c = events_as(log, gid, "C", after=1)
    assert seen_by_c[0]["data"]["doors"] == [None] * 4  # B's hand
    mine = state_as(log, gid, "B")["seats"]["B"]
    assert mine["hand_count"] == 8 and {c["id"] for c in mine["hand"]} == {*doors, *treasures}
    assert "hand" not in state_as(log, gid, "C")["seats"]["B"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_random_game_exports_in_every_format_and_imports_elsewhere(
    log: GameLog, make_log: Any, ruleset: str
) -> None:
    started = start(log, classic_spec(ruleset, 4))
    gid = started.game_id
    before = play_out(log, started, random.Random(ruleset), 60)
    assert before["turn"] >= 1
    for viewer in ("judge", "B", "spectator"):
        for fmt, body in exports(log, started, viewer).items():
            assert body.strip(), (viewer, fmt)
    text = exports(log, started, "judge")["text"]
    assert "T1 " in text and "kicks open the door" in text
    assert log.verify_game(gid)["ok"] is True
    state_before = state_as(log, gid)
    exported = exports(log, started, "judge")["json"]
    with refused(GameAlreadyExistsError, "game/already_exists"):  # its id is taken here
        log.import_export(exported)
    table = export_json(log.all_records(gid), "table")
    assert table["complete"] is False  # the decks are known to no seat (B.1)
    with refused(ImportRejected, "import/incomplete_export"):
        log.import_export(json.dumps(table))
    there = make_log()
    imported = there.import_export(exported)
    assert set(imported.cards) == set("ABCD")
    assert state_as(there, imported.game_id) == state_before
    assert there.verify_game(imported.game_id)["ok"] is True


def test_a_tampered_classic_creation_is_not_imported(log: GameLog) -> None:
    started = start(log, classic_spec("munchkin-deluxe", 3))
    exported = export_json(log.all_records(started.game_id), "judge")
    exported["events"][0]["data"]["doors"][0]["level"] = 99
    with pytest.raises(ImportRejected):  # 422
        log.import_export(json.dumps(exported))
