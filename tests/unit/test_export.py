"""Match-history exports and imports (projections/exports/): formats, redaction, verification.

Golden files live in tests/data/. The golden game's events are stored there too
(``golden_game.events.json``), so a change to the rules does not change the exports; run with
``UPDATE_GOLDEN=1`` to regenerate the game (seed 39) and every golden export. The stored game
was recorded before abilities were data (issue #13: ``AbilityActivated`` version 1), so the
golden exports also show an old stored game read through its upcasters; to refresh only the
exports, delete them and run this file (a missing golden file is written).
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import random
import uuid
from pathlib import Path
from typing import Any

import pytest

from domain import event_from_dict, evolve, initial_state
from domain.ccg.events import GameEnded, GoldGranted
from domain.envelope import GENESIS_HASH, verify_records
from domain.game import Game, stored_record
from projections.exports import (
    CSV_COLUMNS,
    ExportFormatError,
    ImportRejected,
    export_csv,
    export_json,
    export_json_text,
    export_ndjson,
    export_transcript,
    game_result,
    import_game,
    read_export,
    replay_records,
)
from projections.exports.narration import narrator_for
from tests.unit.seeded_games import RS, game_spec, play, records_for, records_from_events, reseal

DATA = Path(__file__).resolve().parent.parent / "data"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
GOLDEN_SEED = 39
EXPORTED_AT = "2024-05-02T09:00:00+00:00"


# ---------------------------------------------------------------------------- fixtures


def golden_events() -> list[dict[str, Any]]:
    path = DATA / "golden_game.events.json"
    if UPDATE or not path.exists():
        _, events = play(GOLDEN_SEED)
        lines = ",\n".join(json.dumps(e.to_dict(), sort_keys=True) for e in events)
        path.write_text("[\n" + lines + "\n]\n", encoding="utf-8")
    result: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return result


@pytest.fixture(scope="module")
def golden() -> list[dict[str, Any]]:
    return records_for([event_from_dict(e) for e in golden_events()])


@pytest.fixture(scope="module", params=[3, 11])
def game(request: pytest.FixtureRequest) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state, events = play(request.param)
    return state, records_for(events)


def check_golden(name: str, text: str) -> None:
    path = DATA / name
    if UPDATE or not path.exists():
        path.write_bytes(text.encode("utf-8"))
    assert text == path.read_bytes().decode("utf-8"), f"{name} changed (UPDATE_GOLDEN=1)"


# ---------------------------------------------------------------------------- golden files


def test_golden_judge_json(golden: list[dict[str, Any]]) -> None:
    check_golden("golden_judge.json", export_json_text(golden, "judge", exported_at=EXPORTED_AT))


def test_golden_seat_b_ndjson(golden: list[dict[str, Any]]) -> None:
    check_golden("golden_seat_b.ndjson", "".join(export_ndjson(golden, "B")))


def test_golden_judge_csv(golden: list[dict[str, Any]]) -> None:
    check_golden("golden_judge.csv", "".join(export_csv(golden, "judge")))


def test_golden_transcripts(golden: list[dict[str, Any]]) -> None:
    check_golden("golden_judge.txt", export_transcript(golden, "judge"))
    check_golden("golden_seat_b.txt", export_transcript(golden, "B"))


def test_the_golden_game_predates_abilities_as_data_and_still_imports(
    golden: list[dict[str, Any]],
) -> None:
    """Stored events of an older version load through their upcasters (docs/rules.md A.11:
    which ability was activated is unknown, ``ability: null``) and the export imports again."""
    stored = [e for e in golden_events() if e["type"] == "AbilityActivated"]
    assert stored and all(e["v"] == 1 and "ability" not in e for e in stored)
    upcast = [r["event"] for r in golden if r["event"]["type"] == "AbilityActivated"]
    assert [(e["v"], e["ability"]) for e in upcast] == [(2, None)] * len(stored)
    imported = import_game(export_json_text(golden, "judge", exported_at=EXPORTED_AT))
    assert imported.records == golden
    assert imported.state["status"] == "finished"


# ---------------------------------------------------------------------------- round trips


def test_judge_json_export_reads_back_to_the_same_records(game: Any) -> None:
    _, records = game
    header, back = read_export(export_json(records, "judge"))
    assert back == records
    assert header["complete"] is True and header["viewer"] == "judge"
    assert read_export(export_json_text(records, "judge"))[1] == records


def test_table_ndjson_export_reads_back_to_the_same_records(game: Any) -> None:
    _, records = game
    header, back = read_export("".join(export_ndjson(records, "table")))
    assert back == records
    assert header["result"] == game_result(records)


def test_import_verifies_and_replays_to_the_live_state(game: Any) -> None:
    state, records = game
    imported = import_game(export_json_text(records, "judge", exported_at=EXPORTED_AT))
    assert imported.state == state
    assert imported.records == records
    assert imported.header["exported_at"] == EXPORTED_AT


def test_ndjson_streams_from_a_one_pass_iterator(game: Any) -> None:
    _, records = game
    lines = export_ndjson(iter(records), "judge", result="A")
    first = next(lines)
    assert json.loads(first)["result"] == "A"
    assert sum(1 for _ in lines) == len(records)


def test_csv_has_one_row_per_event(game: Any) -> None:
    _, records = game
    rows = list(csv.reader(io.StringIO("".join(export_csv(records, "A")))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [int(r[0]) for r in rows[1:]] == [r["version"] for r in records]
    assert all(r[6] for r in rows[1:]), "every event has a summary"
    assert all(json.loads(r[8]) is not None for r in rows[1:])


def test_records_match_what_the_game_aggregate_stores() -> None:
    rng = random.Random(5)
    game = Game.open(uuid.uuid4(), game_spec(rng), received_at="2024-05-01T10:00:00+00:00")
    for _ in range(40):
        if game.state["status"] == "finished":
            break
        _, command = rng.choice(
            [
                (s, c)
                for s in "AB"
                for c in RS.legal_commands(game.state, s)
                if c["type"] != "concede"
            ]
        )
        if command["type"] == "attack":
            command = {**command, "salt": "ab" * 16}
        game.execute([(command, "2024-05-01T09:59:59Z")], received_at="2024-05-01T10:00:01+00:00")
    pending = game.collect_events()
    stored = [stored_record(e) for e in pending if isinstance(e, Game.Opened | Game.Recorded)]
    assert len(stored) == len(pending)
    rebuilt: list[dict[str, Any]] = []
    state = initial_state()
    for record in stored:
        event = event_from_dict(record["event"])
        prev = rebuilt[-1]["hash"] if rebuilt else GENESIS_HASH
        rebuilt += records_from_events(
            [event],
            received_at=record["received_at"],
            client_at=record["client_at"],
            state=state,
            prev_hash=prev,
        )
        state = evolve(state, event)
    assert rebuilt == stored


# ---------------------------------------------------------------------------- redaction


def never_known_to(records: list[dict[str, Any]], seat: str) -> tuple[set[str], set[str]]:
    """Card ids ``seat`` never knew, and the salts of attack cards it never saw."""
    state = initial_state()
    known: set[str] = set()
    salts: dict[str, str] = {}
    for record in records:
        event = event_from_dict(record["event"])
        state = evolve(state, event)
        known |= {cid for cid, c in state["cards"].items() if seat in c["known"]}
        if event.type == "AttackCardCommitted":
            salts[record["event"]["card"]] = record["event"]["salt"]
    hidden = set(state["cards"]) - known
    return hidden, {salt for cid, salt in salts.items() if cid in hidden}


@pytest.mark.parametrize("seat", ["A", "B"])
def test_a_seats_exports_never_show_cards_it_never_knew(game: Any, seat: str) -> None:
    _, records = game
    hidden, salts = never_known_to(records, seat)
    assert hidden, "the game should have cards this seat never saw"
    texts = {
        "json": export_json_text(records, seat),
        "ndjson": "".join(export_ndjson(records, seat)),
        "csv": "".join(export_csv(records, seat)),
        "transcript": export_transcript(records, seat),
    }
    for fmt, text in texts.items():
        leaked = sorted(s for s in hidden | salts if s in text)
        assert not leaked, f"{fmt} export for {seat} leaks {leaked[:3]}"
        assert '"hash"' not in text or fmt == "transcript"
        assert all(r["hash"] not in text for r in records[:5])


def test_a_seats_transcript_reads_hidden_cards_as_face_down(game: Any) -> None:
    _, records = game
    text = export_transcript(records, "B")
    assert "attacks with a face-down card" in text
    assert "draws a card" in text


def test_a_seats_export_cannot_be_imported(game: Any) -> None:
    _, records = game
    with pytest.raises(ImportRejected) as exc:
        import_game(export_json(records, "A"))
    assert exc.value.reason == "incomplete_export"


def test_transcript_has_pgn_style_headers(golden: list[dict[str, Any]]) -> None:
    text = export_transcript(golden, "judge")
    head = text.split("\n\n")[0].splitlines()
    assert head[:5] == [
        '[Event "Sample Cup"]',
        '[Site "?"]',
        '[Date "2024-05-01"]',
        '[Round "2"]',
        '[Table "7"]',
    ]
    assert '[A "Player A (Sample Orc Warrior)"]' in head
    assert '[Rules "munchkin-ccg ccg-2018-07"]' in head
    assert f'[Result "{game_result(golden)}"]' in head
    body = text.split("\n\n", 1)[1]
    assert body.startswith("Setup: ")
    assert "\nT1 " in body and body.rstrip().endswith(game_result(golden))


# ---------------------------------------------------------------------------- verification


def test_an_untouched_chain_verifies(game: Any) -> None:
    _, records = game
    result = verify_records(records)
    assert result == {
        "ok": True,
        "checked": len(records),
        "first_broken": None,
        "head": records[-1]["hash"],
        "problems": [],
    }


def test_verify_names_the_first_broken_record(game: Any) -> None:
    _, records = game
    tampered = copy.deepcopy(records)
    tampered[9]["event"]["seat"] = "judge"
    assert verify_records(tampered)["first_broken"] == {"version": 10, "reason": "hash_mismatch"}
    assert verify_records(tampered)["checked"] == 9

    gap = records[:4] + records[5:]
    # a gap is named at the first missing version
    assert verify_records(gap)["first_broken"] == {"version": 5, "reason": "version_gap"}

    relinked = copy.deepcopy(records)
    relinked[3]["prev_hash"] = "f" * 64
    assert verify_records(relinked)["first_broken"] == {
        "version": 4,
        "reason": "prev_hash_mismatch",
    }

    unknown = copy.deepcopy(records)
    unknown[2]["event"]["type"] = "NoSuchEvent"
    assert verify_records(reseal(unknown))["first_broken"] == {"version": 3, "reason": "bad_event"}

    missing = copy.deepcopy(records)
    del missing[1]["visible_to"]
    assert verify_records(missing)["first_broken"] == {"version": 2, "reason": "bad_event"}


def test_read_export_refuses_what_is_not_an_export() -> None:
    with pytest.raises(ExportFormatError):
        read_export('{"events": [], "format": "pgn"}')
    with pytest.raises(ExportFormatError):
        read_export("not json\n")
    with pytest.raises(ExportFormatError):
        read_export({"format": "munchlog-game", "format_version": 99, "events": []})


# ---------------------------------------------------------------------------- replay


def rejection(records: list[dict[str, Any]]) -> tuple[int, str]:
    with pytest.raises(ImportRejected) as exc:
        replay_records(records)
    return exc.value.version, exc.value.reason


def test_replay_accepts_every_random_game() -> None:
    for seed in range(8):
        state, events = play(seed)
        assert replay_records(records_for(events)) == state


def test_replay_rejects_negative_gold(game: Any) -> None:
    _, records = game
    bad = GoldGranted(seat="rules", player="A", amount=-50)
    forged = [*records[:6], {**records[6], "event": bad.to_dict()}, *records[7:]]
    assert rejection(forged) == (7, "invariant")


def test_replay_rejects_a_winner_who_was_eliminated(game: Any) -> None:
    state, records = game
    loser = "B" if state["winner"] == "A" else "A"
    forged = copy.deepcopy(records)
    forged[-1]["event"] = GameEnded(winner=loser).to_dict()
    assert rejection(forged) == (len(records), "invariant")


def test_replay_rejects_a_log_that_does_not_start_with_game_created(game: Any) -> None:
    _, records = game
    assert rejection(records[1:]) == (1, "version_gap")
    shifted = [{**r, "version": r["version"] - 1} for r in records[1:]]
    assert rejection(shifted) == (1, "not_game_created")


def test_replay_rejects_a_setup_the_ruleset_would_refuse(game: Any) -> None:
    _, records = game
    forged = copy.deepcopy(records)
    forged[0]["event"]["seats"][0]["deck"].pop()  # 39 cards: not a legal Prime deck
    assert rejection(forged) == (1, "setup_rejected")
    forged = copy.deepcopy(records)
    forged[0]["event"]["ruleset"] = "munchkin-ccg"
    forged[0]["event"]["rules_version"] = "ccg-1999"
    assert rejection(forged) == (1, "setup_mismatch")


def test_replay_rejects_widened_visibility(game: Any) -> None:
    _, records = game
    forged = copy.deepcopy(records)
    drawn = next(r for r in forged if r["event"]["type"] == "CardDrawn")
    drawn["visible_to"] = {drawn["event"]["card"]: ["A", "B"]}
    assert rejection(forged) == (drawn["version"], "visibility_mismatch")


def test_replay_rejects_player_events_after_the_end(game: Any) -> None:
    _, records = game
    after = {**records[-1], "version": len(records) + 1, "event": records[1]["event"]}
    assert rejection([*records, after]) == (len(records) + 1, "after_game_end")


def test_replay_rejects_an_event_that_cannot_follow_the_game_so_far(game: Any) -> None:
    """A forged export whose attack card is committed before any fight (or names a card the game
    never had) is refused as ``unfoldable``, not a server error (hypothesis found the first)."""
    _, records = game
    committed = next(r for r in records if r["event"]["type"] == "AttackCardCommitted")
    early = [*copy.deepcopy(records[:3]), {**committed, "version": 4}]
    assert rejection(early) == (4, "unfoldable")
    drawn = copy.deepcopy(records)
    first = next(r for r in drawn if r["event"]["type"] == "CardDrawn")
    first["event"]["card"] = "no-such-card"
    assert rejection(drawn) == (first["version"], "unfoldable")


def test_import_reports_a_broken_chain_with_its_version(game: Any) -> None:
    _, records = game
    export = export_json(records, "judge")
    export["events"][20]["received_at"] = "2030-01-01T00:00:00+00:00"
    with pytest.raises(ImportRejected) as exc:
        import_game(export)
    assert (exc.value.version, exc.value.reason) == (21, "hash_mismatch")


# ---------------------------------------------------------------------------- other rulesets


def test_the_narrator_tells_another_rulesets_events_generically() -> None:
    header = {"ruleset": "another-game", "seats": [{"seat": s} for s in ("A", "B", "C")]}
    narrator = narrator_for(header, {"c1": {"id": "c1", "name": "Lamp", "owner": "C"}})
    drawn = {"type": "CardDrawn", "seat": "C", "data": {"player": "C", "card": "c1"}}
    hidden = {**drawn, "data": {"player": "C", "card": None}}
    unknown = {"type": "LampLit", "seat": "C", "data": {}}
    said = [
        p.render(with_actor=True) for e in (drawn, hidden, unknown) for p in narrator.describe(e)
    ]
    assert said == ["C: CardDrawn Lamp", "C: CardDrawn a card", "C: LampLit"]
