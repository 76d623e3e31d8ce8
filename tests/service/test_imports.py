"""Importing a complete export as a use case (moved from tests/api/test_import_api.py): the game
comes back with its id, its events and its state, or is refused whole. What only HTTP shows
(a body that is no export, who may import) stays there."""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

from domain import event_from_dict
from domain.game import GameAccess, token_hash
from projections.exports import (
    ImportRejected,
    export_csv,
    export_json,
    export_json_text,
    export_ndjson,
    export_transcript,
)
from service.errors import GameAlreadyExistsError, GameNotFoundError
from service.games import GameLog
from tests.builders import seeded_records
from tests.marked import holds_everything, marked_game
from tests.service.helpers import judge_state, refused, start
from tests.unit.seeded_games import records_for, reseal


def test_an_import_keeps_the_id_the_events_and_the_state(log: GameLog) -> None:
    records = seeded_records(5)
    imported = log.import_export(export_json_text(records, "judge"))
    assert str(imported.game_id) == records[0]["event"]["game_id"]
    assert imported.version == len(records)
    assert {"A", "B"} == set(imported.cards) and imported.tokens["table"]
    assert imported.tokens["judge"]
    assert log.records(imported.game_id) == records
    state = judge_state(log, imported.game_id)
    again = export_json(log.all_records(imported.game_id), "judge")
    assert again["events"] == export_json(records, "judge")["events"]
    summary = log.overview(imported.game_id)
    assert summary["status"] == state["status"] == "finished"
    assert summary["winner"] == state["winner"]


def test_a_game_with_triggers_prevention_and_unchecked_cards_imports_as_it_was(
    log: GameLog,
) -> None:
    """Issue #13's events (AbilityTriggered, DamageAnnounced, DamagePrevented) and marks
    (``unchecked``, ``custom``) survive an import: same records, same chain, same exports."""
    game = marked_game(1)
    assert holds_everything(game.events)
    created = game.events[0].to_dict()
    created["game_id"] = str(uuid.UUID(int=1301))
    records = records_for([event_from_dict(created), *game.events[1:]])
    gid = log.import_export("".join(export_ndjson(records, "table"))).game_id
    assert log.records(gid) == records
    verify = log.verify_game(gid)
    assert verify["ok"] and verify["checked"] == len(records)
    assert verify["head"] == records[-1]["hash"]
    stored = log.all_records(gid)
    again = export_json(stored, "judge")
    assert again["events"] == export_json(records, "judge")["events"]
    assert any(e.get("unchecked") for e in again["events"])
    assert "".join(export_csv(stored, "judge")).splitlines()[0].endswith(",data,unchecked")
    text = export_transcript(stored, "judge")
    assert "[unchecked]" in text and "[custom]" in text and "ability triggers" in text


def test_an_ndjson_export_imports_too(log: GameLog) -> None:
    records = seeded_records(6)
    assert log.import_export("".join(export_ndjson(records, "judge"))).version == len(records)


def test_a_live_game_reimported_here_is_409_and_changes_nothing(log: GameLog) -> None:
    started = start(log)
    gid = started.game_id
    exported = export_json_text(log.all_records(gid), "judge")
    before = log.records(gid)
    with refused(GameAlreadyExistsError, "game/already_exists"):
        log.import_export(exported)
    # nothing was overwritten: the old tokens still work (the stored access holds their
    # hashes), the same events
    stored: Any = log.store.load(GameAccess.id_for(gid))
    assert stored.token_hashes == {r: token_hash(t) for r, t in started.tokens.items()}
    assert log.records(gid) == before


def test_a_broken_chain_is_refused_with_its_version_and_nothing_is_stored(log: GameLog) -> None:
    records = seeded_records(7)
    doc = export_json(records, "judge")
    doc["events"][9]["data"]["amount"] = 99  # an edit without resealing the chain
    doc["events"][9]["type"] = "GoldGranted"
    with refused(ImportRejected, "import/broken_chain") as raised:
        log.import_export(json.dumps(doc))
    assert raised.value.version == 10
    assert raised.value.reason == "hash_mismatch"
    with refused(GameNotFoundError, "game/not_found"):
        log.overview(uuid.UUID(doc["game_id"]))


def test_an_impossible_event_is_refused_even_with_a_resealed_chain(log: GameLog) -> None:
    records = copy.deepcopy(seeded_records(8))
    granted = next(r for r in records if r["event"]["type"] == "GoldGranted")
    granted["event"]["amount"] = -50  # negative gold: no rule could record this
    with refused(ImportRejected, "import/impossible_event") as raised:
        log.import_export(export_json_text(reseal(records), "judge"))
    assert raised.value.version == granted["version"]
    with refused(GameNotFoundError, "game/not_found"):
        log.overview(uuid.UUID(records[0]["event"]["game_id"]))


def test_a_seat_export_cannot_be_imported(log: GameLog) -> None:
    with refused(ImportRejected, "import/incomplete_export"):
        log.import_export(export_json_text(seeded_records(9), "A"))
