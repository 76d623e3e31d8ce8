"""``domain.envelope.verify_records`` names every problem of a chain, not only the first: each
kind of damage a store or an export can hold, where it is, and nothing else."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.envelope import DamagedRecords, unreadable, verify_records
from tests.unit.seeded_games import play, records_for

Records = list[dict[str, Any]]


@pytest.fixture(scope="module")
def records() -> Records:
    return records_for(play(3)[1])[:30]


def found(records: list[Any]) -> list[tuple[int, str]]:
    return [(p["version"], p["reason"]) for p in verify_records(records)["problems"]]


def test_an_intact_chain_has_no_problem(records: Records) -> None:
    report = verify_records(records)
    assert report["ok"] and report["problems"] == [] and report["checked"] == len(records)


def test_an_edited_record_is_named_alone_and_the_check_goes_on(records: Records) -> None:
    edited = copy.deepcopy(records)
    edited[9]["event"]["seat"] = "judge"
    edited[19]["received_at"] = "2030-01-01T00:00:00+00:00"
    report = verify_records(edited)
    assert found(edited) == [(10, "hash_mismatch"), (20, "hash_mismatch")]
    assert report["first_broken"] == {"version": 10, "reason": "hash_mismatch"}
    assert report["checked"] == 9 and report["head"] == records[8]["hash"]


def test_a_missing_record_is_a_gap_at_the_first_missing_version(records: Records) -> None:
    assert found(records[:4] + records[5:]) == [(5, "version_gap")]
    report = verify_records(records[:4] + records[8:])
    assert report["problems"][0]["detail"] == "missing: 5 to 8"
    assert found(records[:-1]) == []  # the last record's loss is not visible in the chain


def test_an_unreadable_row_does_not_hide_what_follows(records: Records) -> None:
    rows: list[Any] = copy.deepcopy(records)
    rows[11] = unreadable(12, "its stored state does not decode (JSONDecodeError)")
    rows[20]["event"]["seat"] = "judge"
    assert found(rows) == [(12, "undecodable"), (21, "hash_mismatch")]
    detail = verify_records(rows)["problems"][0]["detail"]
    assert detail == "its stored state does not decode (JSONDecodeError)"


def test_rows_moved_or_copied_are_out_of_order_or_duplicates(records: Records) -> None:
    swapped = copy.deepcopy(records)
    swapped[5], swapped[6] = {**records[6], "version": 6}, {**records[5], "version": 7}
    assert found(swapped) == [(6, "out_of_order"), (7, "out_of_order")]
    assert verify_records(swapped)["problems"][0]["detail"] == "holds the record of version 7"

    copied = copy.deepcopy(records)
    copied[7] = {**records[3], "version": 8}
    assert found(copied) == [(8, "duplicate_version")]

    repeated = [*records[:6], records[5], *records[6:]]
    assert found(repeated) == [(6, "duplicate_version")]
    backwards = [*records[:6], records[2], *records[6:]]
    assert found(backwards) == [(3, "out_of_order")]


def test_a_relinked_record_and_a_bad_one(records: Records) -> None:
    relinked = copy.deepcopy(records)
    relinked[3]["prev_hash"] = "f" * 64
    assert found(relinked) == [(4, "prev_hash_mismatch")]
    assert found([*records[:2], "not a record", *records[3:]]) == [(3, "bad_event")]


def test_damaged_records_carries_the_first_problem() -> None:
    exc = DamagedRecords("g1", [{"version": 4, "reason": "undecodable", "detail": ""}])
    assert (exc.code, exc.version, exc.reason) == ("storage/damaged", 4, "undecodable")
    assert "event 4" in exc.message and "g1" in exc.message
