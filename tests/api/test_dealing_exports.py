"""``munchlog verify FILE`` re-derives a server-dealt game's dealing (issue #25; the export:
tests/dealt.py): an honest export of a finished game verifies; one whose draw, roll, counter,
seed or secret was rewritten, its hash chain re-sealed as a forger who holds the server would,
fails with exit code 1 naming the first event that does not match. The import's own refusal
of such exports: tests/service/test_dealt_exports.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from api.cli.main import main
from tests import dealt
from tests.dealt import forged, records_of, versions_of


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> str:

    folder = tmp_path_factory.mktemp("dealt")
    return dealt.export_in(folder)


def verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, Any]:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    code = main(["verify", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_an_honest_export_verifies_with_its_dealing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], export: str
) -> None:
    code, report = verify(tmp_path, capsys, export)
    assert code == 0 and report["ok"] is True and report["first_broken"] is None
    dealing = report["dealing"]
    assert dealing["mode"] == "server" and dealing["complete"] is True, dealing
    assert dealing["checked"] == dealing["operations"] == len(versions_of(export, "Dealt")) >= 4


def first(export: str, kind: str, index: int = 0) -> int:
    return versions_of(export, kind)[index]


def dice_version(export: str) -> int:
    return next(
        r["version"]
        for r in records_of(export)
        if r["event"]["type"] == "Dealt" and r["event"]["op"] == "dice"
    )


def sides_as_float(event: dict[str, Any]) -> None:
    event["sides"] = float(event["sides"])


CASES: list[tuple[str, Callable[[str], int], Callable[[dict[str, Any]], None], str]] = [
    ("a card dealt", lambda e: first(e, "Dealt"), dealt.other_card, "the recorded result"),
    ("a die rolled", dice_version, dealt.other_die, "the recorded result"),
    ("a counter", lambda e: first(e, "Dealt", 1), dealt.next_counter, "skips"),
    ("a seed", lambda e: first(e, "SeedRevealed", 1), dealt.other_seed, "does not open"),
    ("the secret", lambda e: first(e, "ServerSecretRevealed"), dealt.other_secret, "does not open"),
    ("a die's sides", dice_version, sides_as_float, "the recorded result"),
]


@pytest.mark.parametrize(("what", "where", "change", "words"), CASES, ids=[c[0] for c in CASES])
def test_a_forged_dealing_is_named_by_verify(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    export: str,
    what: str,
    where: Callable[[str], int],
    change: Callable[[dict[str, Any]], None],
    words: str,
) -> None:
    version = where(export)
    code, report = verify(tmp_path, capsys, forged(export, version, change))
    assert code == 1 and report["ok"] is False
    assert report["problems"] == [], "the forger re-sealed the chain: only the dealing tells"
    assert report["first_broken"] == {"version": version, "reason": "dealing_mismatch"}
    mismatch = report["dealing"]["first_mismatch"]
    kind = next(r["event"]["type"] for r in records_of(export) if r["version"] == version)
    assert (mismatch["version"], mismatch["type"]) == (version, kind)
    assert words in mismatch["reason"], mismatch


def test_a_rewrite_that_breaks_the_chain_is_named_by_the_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], export: str
) -> None:
    """Not re-sealed: the chain names the event; the dealing of the events before it checks."""
    version = first(export, "Dealt", 1)
    code, report = verify(tmp_path, capsys, forged(export, version, dealt.other_card, reseal=False))
    assert code == 1
    assert report["first_broken"] == {"version": version, "reason": "hash_mismatch"}
    assert report["dealing"]["ok"] is True and report["dealing"]["operations"] == 1
