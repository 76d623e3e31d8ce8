"""A server-dealt game's exports (issue #25: "a server-dealt game replays identically from its
export after the reveal"): the judge's export imports into another server with the same
events, state and a complete dealing check; a forged deal, seed or dealing is refused; an
unfinished game imports but is dealt no further there; the transcript and the CSV tell the
dealing in words, naming only the cards the viewer may see; the match histories fold it.

Importing in general: tests/service/test_imports.py; the dealing: tests/service/test_dealing.py.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from domain.errors import ImpossibleCommand
from domain.judge import Claim
from projections.exports import (
    ImportRejected,
    export_csv,
    export_json_text,
    export_ndjson,
    export_transcript,
)
from projections.exports.narration import narrate
from projections.history import fold_history
from service.errors import GameNotFoundError
from service.games import GameLog
from service.histories import MatchHistory
from tests.service.helpers import events_as, refused
from tests.service.test_dealing import act, commit, records, reveal, seeded, started
from tests.unit.seeded_games import reseal

KERNEL = ("SeedCommitted", "SeedRevealed", "SeedWithheld", "Dealt", "ServerSecretRevealed")
KERNEL_EVENTS = (*KERNEL, "DealingRekeyed")


def rekeyed_midgame(log: GameLog, monkeypatch: pytest.MonkeyPatch) -> UUID:
    """A server-dealt CCG game in play: opening hands, the roll, A's draw, a re-keying ruling,
    then epoch 1's seeds, B withholding; A's turn ended and B's draw dealt with epoch 1's key."""
    gid, _ = seeded(log)
    started(log, gid)
    act(log, gid, "A", "draw")
    did, _ = log.open_dispute(gid, Claim(raised_by="B", statement="the deck"))
    log.rule(gid, did, {"ruling": "re-keyed", "corrections": [], "rekey": True})
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:00+00:00")
    seed = os.urandom(32)
    commit(log, gid, "A", seed)
    commit(log, gid, "B", os.urandom(32))
    reveal(log, gid, "A", seed)
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:01:01+00:00")
    act(log, gid, "A", "end_turn")  # B withholds first
    act(log, gid, "B", "draw")
    return gid


def ended(make_log: Callable[[], GameLog], monkeypatch: pytest.MonkeyPatch) -> tuple[GameLog, UUID]:
    """A game re-keyed mid-game, then conceded: every kernel event, the secrets revealed."""
    log = make_log()
    gid = rekeyed_midgame(log, monkeypatch)
    act(log, gid, "A", "concede")
    return log, gid


def test_a_finished_game_replays_identically_from_its_export(
    make_log: Callable[[], GameLog], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, gid = ended(make_log, monkeypatch)
    rows = records(log, gid)
    assert set(KERNEL_EVENTS) <= {r["event"]["type"] for r in rows}
    for text in (
        export_json_text(log.all_records(gid), "judge"),
        "".join(export_ndjson(log.all_records(gid), "judge")),
    ):
        other = make_log()
        imported = other.import_export(text)
        assert imported.game_id == gid and imported.version == len(rows)
        assert other.records(gid) == log.records(gid)
        assert other.game(gid).state == log.game(gid).state
        assert other.overview(gid)["dealing"] == log.overview(gid)["dealing"]
        report = other.verify_game(gid)
        assert report["ok"], report
        dealt = report["dealing"]
        assert dealt["ok"] and dealt["complete"] and dealt["checked"] == dealt["operations"] > 4


def forged(rows: list[dict[str, Any]], version: int, **data: Any) -> str:
    """The judge's export of ``rows`` with event ``version`` edited and the chain resealed."""
    out = copy.deepcopy(rows)
    out[version - 1]["event"].update(data)
    return export_json_text(reseal(out), "judge")


def test_a_forged_deal_seed_or_secret_in_an_export_is_refused_and_named(
    make_log: Callable[[], GameLog], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, gid = ended(make_log, monkeypatch)
    rows = records(log, gid)
    ops = [r for r in rows if r["event"]["type"] == "Dealt"]
    deal = next(r for r in ops if r["event"]["op"] == "deal")
    dice = next(r for r in ops if r["event"]["op"] == "dice")
    drawn = deal["event"]["cards"]
    spare = next(c for c in deal["event"]["among"] if c not in drawn)
    seed = next(r for r in rows if r["event"]["type"] == "SeedRevealed")
    secret = rows[-1]
    cases = [
        (deal["version"], {"cards": [spare, *drawn[1:]]}),
        (dice["version"], {"values": [7 - v for v in dice["event"]["values"]]}),
        (ops[-1]["version"], {"counter": ops[-1]["event"]["counter"] + 1}),
        (seed["version"], {"seed": "00" * 32}),
        (secret["version"], {"secret": "11" * 32}),
    ]
    other = make_log()
    for version, edit in cases:
        with refused(ImportRejected, "import/impossible_event") as raised:
            other.import_export(forged(rows, version, **edit))
        assert (raised.value.version, raised.value.reason) == (version, "dealing_mismatch")
    with refused(GameNotFoundError, "game/not_found"):
        other.overview(gid)


@pytest.mark.parametrize(
    "edit",
    [
        {"contributors": ["B", "A"]},
        {"contributors": ["A", "Z"]},
        {"reveal_timeout": "soon"},
        {"scheme": "munchlog-rand-v0"},
        {"server_commitment": "not hex"},
        {"mode": "table"},
    ],
)
def test_a_forged_dealing_at_creation_is_refused(
    make_log: Callable[[], GameLog], edit: dict[str, Any]
) -> None:
    log = make_log()
    gid, _ = seeded(log)
    rows = records(log, gid)
    dealing = {**rows[0]["event"]["dealing"], **edit}
    with refused(ImportRejected, "import/impossible_event") as raised:
        make_log().import_export(forged(rows, 1, dealing=dealing))
    assert (raised.value.version, raised.value.reason) == (1, "setup_rejected")


def test_a_kernel_event_in_a_table_dealt_export_is_refused(
    make_log: Callable[[], GameLog],
) -> None:
    log = make_log()
    table, _ = seeded(log)  # its seed events, grafted onto a table-dealt creation
    rows = records(log, table)
    created = {k: v for k, v in rows[0]["event"].items() if k != "dealing"}
    with refused(ImportRejected, "import/impossible_event") as raised:
        make_log().import_export(forged(rows, 1, **{**created, "v": 1, "dealing": None}))
    assert raised.value.version == 2


def test_an_unfinished_game_imports_but_is_dealt_no_further(
    make_log: Callable[[], GameLog], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = make_log()
    gid = rekeyed_midgame(log, monkeypatch)
    act(log, gid, "B", "end_turn")
    other = make_log()
    other.import_export(export_json_text(log.all_records(gid), "judge"))
    assert other.game(gid).state == log.game(gid).state
    dealt = other.verify_game(gid)["dealing"]
    assert dealt["ok"] and not dealt["complete"] and dealt["checked"] == 0
    version = other.current_version(gid)
    with refused(ImpossibleCommand, "command/no_dealer"):  # 422, not a crash
        act(other, gid, "A", "draw")
    did, _ = other.open_dispute(gid, Claim(raised_by="A", statement="re-key it"))
    with refused(ImpossibleCommand, "command/no_dealer"):
        other.rule(gid, did, {"ruling": "no", "corrections": [], "rekey": True})
    assert other.current_version(gid) == version + 1  # the dispute only
    act(other, gid, "A", "concede")
    rows = records(other, gid)
    assert not any(r["event"]["type"] == "ServerSecretRevealed" for r in rows)
    assert other.verify_game(gid)["dealing"]["ok"]
    act(log, gid, "A", "draw")  # the original still deals


def test_the_narration_tells_the_dealing_naming_only_what_the_viewer_sees(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = rekeyed_midgame(log, monkeypatch)
    act(log, gid, "A", "concede")
    stored = log.all_records(gid)
    state = log.game(gid).state
    names = {cid: card["def"]["name"] for cid, card in state["cards"].items()}

    rows = list(export_csv(stored, "B"))
    said = {line.split(",")[4]: line for line in rows[1:] if line.split(",")[4] in KERNEL_EVENTS}
    assert "commits to a seed" in said["SeedCommitted"]
    assert "reveals its seed" in said["SeedRevealed"]
    assert "withholds its seed of epoch 1" in said["SeedWithheld"]
    assert "re-keys the dealing (d1): epoch 1" in said["DealingRekeyed"]
    assert "the server reveals its secret" in said["ServerSecretRevealed"]
    transcript = export_transcript(stored, "B")
    assert "re-keys the dealing (d1)" in transcript and "withholds its seed" in transcript
    assert "the server reveals its secret of epoch 1" in transcript

    judged = {e["version"]: e for e in events_as(log, gid, "judge")}
    told: dict[str, list[str]] = {"A": [], "B": [], "dice": []}
    for entry in events_as(log, gid, "B"):
        if entry["type"] != "Dealt":
            continue
        (line,) = narrate(entry, state)
        data = judged[entry["version"]]["data"]
        if data["op"] == "dice":
            told["dice"].append(line)
            assert line == "the server rolls d6: " + ", ".join(map(str, data["values"]))
            continue
        owner = data["pile"].split(":")[0]
        told[owner].append(line)
        n = len(data["cards"])
        plain = f"the server deals {n} card{'s' if n > 1 else ''} from {owner}'s deck"
        if owner == "A":  # A's cards: B may not see them, nor are they named
            assert line == plain
        else:
            assert line.startswith(plain + ": ")
            assert all(names[c] in line for c in data["cards"])
    assert told["A"] and told["B"] and told["dice"]
    (opening,) = narrate(judged[next(v for v, e in judged.items() if e["type"] == "Dealt")], state)
    assert opening.startswith("the server deals 6 cards from A's deck: ")  # the judge sees all


def test_the_events_list_and_the_match_histories_take_the_kernel_events_in_their_stride(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = rekeyed_midgame(log, monkeypatch)
    act(log, gid, "A", "concede")
    stored = log.all_records(gid)
    state = log.game(gid).state
    a_hand = state["seats"]["A"]["zones"]["hand"]
    seen_by_b = events_as(log, gid, "B")
    assert [e["version"] for e in seen_by_b] == [r["version"] for r in stored]
    assert not any(cid in json.dumps(seen_by_b) for cid in a_hand)
    rows = MatchHistory(log).rows()
    (row,) = [r for r in rows if r["game_id"] == str(gid)]
    without: Any = None
    for record in stored:
        if record["event"]["type"] not in KERNEL_EVENTS:
            without = fold_history(without, record, game_id=str(gid))
    same = ("status", "winner", "end", "turns", "fights", "caught_cheating", "seats", "labels")
    assert {k: row[k] for k in same} == {k: without[k] for k in same}
    assert (row["status"], row["winner"], row["events"]) == ("finished", "B", len(stored))
    assert MatchHistory(log).skipped() == []
