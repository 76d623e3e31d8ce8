"""Every ``Dealt`` is held to the pile the log holds at that point, and every draw by chance to
a ``Dealt`` right before it (issue #35; docs/dealing.md "What verify checks"): the best forger's
exports (tests/pile_forgeries.py: a pile narrowed to one card, a card not in the pile, a
``Dealt`` deleted, a ``Dealt`` moved after its use, a draw from the wrong pile), each of a
finished server-dealt game of both families, are named at the same version by ``munchlog
verify``, ``GET /verify`` and the import. The viewer's JavaScript: tests/e2e/test_viewer_piles.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.cli.main import main
from domain import fair_check
from projections.exports import ImportRejected, import_game, read_export
from tests import pile_forgeries
from tests.api.helpers import post_import

FAMILIES = ("ccg", "classic")


@pytest.fixture(scope="module")
def exports() -> dict[str, str]:
    return {
        "ccg": pile_forgeries.ccg_export(),
        "classic": pile_forgeries.classic_export(reshuffled=True),
    }


@pytest.fixture(scope="module")
def forged(exports: dict[str, str]) -> dict[tuple[str, str], tuple[str, int]]:
    return {
        (family, name): forge(exports[family])
        for family in FAMILIES
        for name, forge in pile_forgeries.FAMILY_FORGERIES[family].items()
    }


CASES = [(f, n) for f in FAMILIES for n in pile_forgeries.FAMILY_FORGERIES[f]]


def cli_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, Any]:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    code = main(["verify", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("family", FAMILIES)
def test_an_honest_game_verifies_and_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], exports: dict[str, str], family: str
) -> None:
    code, report = cli_verify(tmp_path, capsys, exports[family])
    assert code == 0 and report["ok"] and report["dealing"]["complete"], report
    import_game(exports[family])


@pytest.mark.parametrize(("family", "forgery"), CASES, ids=[f"{f}-{n}" for f, n in CASES])
def test_a_forged_pile_is_named_by_verify_and_the_import(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    forged: dict[tuple[str, str], tuple[str, int]],
    family: str,
    forgery: str,
) -> None:
    text, version = forged[family, forgery]
    code, report = cli_verify(tmp_path, capsys, text)
    assert report["problems"] == [], "the forger re-sealed the chain: only the dealing tells"
    assert code == 1 and report["first_broken"] == {
        "version": version,
        "reason": "dealing_mismatch",
    }, report
    assert report["dealing"]["first_mismatch"]["version"] == version, report["dealing"]
    with pytest.raises(ImportRejected) as refused:
        import_game(text)
    assert (refused.value.version, refused.value.reason) == (version, "dealing_mismatch")


@pytest.mark.parametrize(("family", "forgery"), CASES, ids=[f"{f}-{n}" for f, n in CASES])
def test_get_verify_names_a_stored_forgery(
    app: Flask,
    monkeypatch: pytest.MonkeyPatch,
    exports: dict[str, str],
    forged: dict[tuple[str, str], tuple[str, int]],
    family: str,
    forgery: str,
) -> None:
    """The honest game imported, then its stored rows as the forger rewrote them (the store
    reads them): ``GET /verify`` names the forged event in its ``dealing``."""
    client = app.test_client()
    response = post_import(client, exports[family])
    assert response.status_code == 201, response.get_json()
    gid = response.get_json()["game_id"]
    text, version = forged[family, forgery]
    rows = read_export(text)[1]
    store = app.extensions["munchlog"].store
    monkeypatch.setattr(store, "stored_game_records", lambda game_id, full=False: rows)
    verified = client.get(f"/api/games/{gid}/verify").get_json()
    assert verified["ok"] is False
    assert verified["dealing"]["first_mismatch"]["version"] == version, verified["dealing"]


def test_the_first_bad_event_is_named_before_a_later_replay_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], exports: dict[str, str]
) -> None:
    """Finding 3: a classic kicked door's card renamed (its ``visible_to`` too), re-sealed: the
    draw does not take the card dealt, and the replay fails later on; verify and the import name
    the draw, as the dealing check does."""
    header, records = read_export(exports["classic"])
    i = next(
        i
        for i, r in enumerate(records)
        if r["event"]["type"] == "DoorKicked" and records[i - 1]["event"]["type"] == "Dealt"
    )
    kicked = records[i]
    dealt_card = kicked["event"]["card"]
    other = sorted(c["id"] for c in records[0]["event"]["doors"] if c["id"] != dealt_card)[0]
    kicked["event"]["card"] = other
    kicked["visible_to"] = {
        (other if k == dealt_card else k): v for k, v in kicked["visible_to"].items()
    }
    text = pile_forgeries.export_json_text(
        pile_forgeries.reseal(records), str(header["viewer"]), exported_at=header.get("exported_at")
    )
    code, report = cli_verify(tmp_path, capsys, text)
    assert code == 1 and report["first_broken"] == {
        "version": kicked["version"],
        "reason": "dealing_mismatch",
    }, report
    assert report["dealing"]["first_mismatch"]["version"] == kicked["version"]
    with pytest.raises(ImportRejected) as refused:
        import_game(text)
    assert refused.value.version == kicked["version"]
    assert fair_check.verify(records)["first_mismatch"]["version"] == kicked["version"]
