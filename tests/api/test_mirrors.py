"""Mirrors (issue #41): a venue's records published to a public server, checked record by record.

The venue is an app on its own SQLite file; the public server is the test's ``backend`` (SQLite
and PostgreSQL). A batch is accepted only if it extends the chain the public copy holds; a
forged one (a record changed, dropped, reordered or inserted) or another mirror's token is
refused and changes nothing, and the copy stays verifiable. Nobody else writes to a copy.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from projections.exports import export_json_text
from service.games import GameLog
from tests.api.helpers import ORGANIZER_TOKEN, bearer, post_actions, post_import
from tests.api.test_history_api import play_live


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[Flask]:
    made = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "venue-instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": "venue-organizer",
            "MUNCHLOG_DATABASE_URL": str(tmp_path / "venue.sqlite"),
        }
    )
    yield made
    made.extensions["munchlog"].close()


def venue_game(venue: Flask, seed: int = 3, steps: int = 12) -> str:
    log: GameLog = venue.extensions["munchlog"]
    return play_live(log, random.Random(seed), steps)


def entries(venue: Flask, game_id: str, after: int = 0) -> list[dict[str, Any]]:
    """The venue's stored records of a game after ``after``, as a batch carries them."""
    log: GameLog = venue.extensions["munchlog"]
    from uuid import UUID

    return [
        {"game_id": game_id, **record}
        for record in log.all_records(UUID(game_id))
        if record["version"] > after
    ]


def open_mirror(client: FlaskClient) -> dict[str, str]:
    answer = client.post("/api/mirrors", headers=bearer(ORGANIZER_TOKEN))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def push(
    client: FlaskClient, mirror: dict[str, str], records: list[dict[str, Any]], behind: int = 0
) -> Any:
    """Send a batch, ``behind`` records short of the venue's head."""
    body = {"records": records, "position": len(records), "head": len(records) + behind}
    return client.post(
        f"/api/mirrors/{mirror['mirror_id']}/batches", json=body, headers=bearer(mirror["token"])
    )


def public_copy(client: FlaskClient, game_id: str) -> tuple[int, str]:
    """What a spectator of the copy reads: its version and its NDJSON export."""
    state = client.get(f"/api/games/{game_id}/state")
    export = client.get(f"/api/games/{game_id}/export?format=ndjson")
    return state.get_json()["version"], export.get_data(as_text=True)


def test_a_venue_s_game_pushed_in_two_batches_reads_as_the_venue_s(
    client: FlaskClient, venue: Flask
) -> None:
    game_id = venue_game(venue)
    records = entries(venue, game_id)
    mirror = open_mirror(client)
    first = push(client, mirror, records[:5])
    assert first.status_code == 201, first.get_json()
    second = push(client, mirror, records[5:])
    assert second.status_code == 201, second.get_json()
    status = client.get(f"/api/mirrors/{mirror['mirror_id']}", headers=bearer(ORGANIZER_TOKEN))
    found = status.get_json()
    assert found["games"] == [game_id] and found["records"] == len(records)
    assert found["last_batch"]["records"] == len(records) - 5 and found["lag"]["records"] == 0
    version, export = public_copy(client, game_id)
    assert version == len(records)
    here = venue.test_client()
    venue_export = here.get(f"/api/games/{game_id}/export?format=ndjson")
    assert export == venue_export.get_data(as_text=True)  # the spectator's, event for event
    assert client.get(f"/games/{game_id}").status_code == 200  # the viewer's page
    for read in ("state", "events?limit=1000", "timeline"):
        theirs = client.get(f"/api/games/{game_id}/{read}")
        assert (
            theirs.status_code == 200
            and theirs.get_json() == here.get(f"/api/games/{game_id}/{read}").get_json()
        ), read
    verified = client.get(f"/api/games/{game_id}/verify", headers=bearer(ORGANIZER_TOKEN))
    assert verified.get_json()["ok"] is True


def _changed(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    forged = copy.deepcopy(records)
    forged[1]["received_at"] = "2020-01-01T00:00:00.000001+00:00"
    return forged


def _dropped(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return records[:1] + records[2:]


def _reordered(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [records[1], records[0], *records[2:]]


def _inserted(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [records[0], copy.deepcopy(records[0]), *records[1:]]


@pytest.mark.parametrize("forge", [_changed, _dropped, _reordered, _inserted])
def test_a_forged_batch_is_refused_naming_the_version_and_changes_nothing(
    client: FlaskClient, venue: Flask, forge: Any
) -> None:
    game_id = venue_game(venue)
    records = entries(venue, game_id)
    mirror = open_mirror(client)
    assert push(client, mirror, records[:4]).status_code == 201
    before = public_copy(client, game_id)
    refused = push(client, mirror, forge(records[4:]))
    assert refused.status_code == 409, refused.get_json()
    error = refused.get_json()["error"]
    assert error["code"] == "mirror/does_not_extend" and error["version"] == 4
    assert "version 4" in error["message"] and error["game_id"] == game_id
    assert public_copy(client, game_id) == before
    verified = client.get(f"/api/games/{game_id}/verify", headers=bearer(ORGANIZER_TOKEN))
    assert verified.get_json()["ok"] is True
    assert push(client, mirror, records[4:]).status_code == 201  # the true batch still fits


def test_a_forged_first_batch_stores_no_game(client: FlaskClient, venue: Flask) -> None:
    game_id = venue_game(venue)
    records = entries(venue, game_id)
    mirror = open_mirror(client)
    refused = push(client, mirror, _changed(records))
    assert refused.status_code == 409 and refused.get_json()["error"]["version"] == 0
    assert client.get(f"/api/games/{game_id}/state").status_code == 404


def test_another_mirror_s_token_is_refused_and_changes_nothing(
    client: FlaskClient, venue: Flask
) -> None:
    game_id = venue_game(venue)
    records = entries(venue, game_id)
    mine, other = open_mirror(client), open_mirror(client)
    assert push(client, mine, records[:4]).status_code == 201
    before = public_copy(client, game_id)
    stolen = {"mirror_id": mine["mirror_id"], "token": other["token"]}
    refused = push(client, stolen, records[4:])
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "auth/not_this_mirror"
    taken = push(client, other, records[4:])  # its own id, a game it does not hold
    assert taken.status_code == 403
    assert public_copy(client, game_id) == before
    anonymous = client.post(f"/api/mirrors/{mine['mirror_id']}/batches", json={})
    assert anonymous.status_code == 401
    unknown = client.post(
        "/api/mirrors/00000000-0000-0000-0000-000000000000/batches",
        json={},
        headers=bearer(mine["token"]),
    )
    assert unknown.status_code == 404


def test_nobody_else_writes_to_a_mirrored_game(client: FlaskClient, venue: Flask) -> None:
    game_id = venue_game(venue)
    records = entries(venue, game_id)
    mirror = open_mirror(client)
    assert push(client, mirror, records).status_code == 201
    before = public_copy(client, game_id)
    concede = [{"type": "concede", "seat": "A"}]
    for token in (ORGANIZER_TOKEN, mirror["token"], "venue-organizer"):
        answer = post_actions(client, game_id, token, concede)
        assert answer.status_code in (401, 403), answer.get_json()
    complete = export_json_text(
        [{k: v for k, v in r.items() if k != "game_id"} for r in records], "judge"
    )
    assert post_import(client, complete).status_code == 409
    assert public_copy(client, game_id) == before


def test_a_malformed_batch_is_400(client: FlaskClient) -> None:
    mirror = open_mirror(client)
    answer = client.post(
        f"/api/mirrors/{mirror['mirror_id']}/batches",
        json={"records": [{"game_id": "x"}], "position": 1, "head": 1},
        headers=bearer(mirror["token"]),
    )
    assert answer.status_code == 400


def test_a_batch_whose_dealing_does_not_verify_is_refused(client: FlaskClient) -> None:
    """The best forger re-seals the chain after dealing a card from a one-card pile
    (tests/pile_forgeries.py): the chain holds, the dealing does not, as ``verify`` says."""
    from projections.exports import read_export
    from tests.pile_forgeries import ccg_export, narrowed

    true_export = ccg_export()
    forged_export, version = narrowed(true_export)
    true, forged = read_export(true_export)[1], read_export(forged_export)[1]
    game_id = str(true[0]["event"]["game_id"])
    held = version - 1
    mirror = open_mirror(client)
    first = push(client, mirror, [{"game_id": game_id, **r} for r in true[:held]])
    assert first.status_code == 201, first.get_json()
    before = public_copy(client, game_id)
    refused = push(client, mirror, [{"game_id": game_id, **r} for r in forged[held:]])
    assert refused.status_code == 409, refused.get_json()
    error = refused.get_json()["error"]
    assert error["version"] == held and error["reason"] == "dealing_mismatch"
    assert public_copy(client, game_id) == before
    taken = push(client, mirror, [{"game_id": game_id, **r} for r in true[held:]])
    assert taken.status_code == 201, taken.get_json()


def test_the_public_spectator_s_stream_is_the_venue_s(
    app: Flask, client: FlaskClient, venue: Flask
) -> None:
    """A spectator's live stream of the copy, opened before the records arrive, says event for
    event what the venue's spectator stream says."""
    from tests.streams import AsgiServer

    game_id = venue_game(venue)
    records = entries(venue, game_id)
    mirror = open_mirror(client)
    assert push(client, mirror, records[:-3]).status_code == 201
    public, local = AsgiServer(app, poll=0.01), AsgiServer(venue, poll=0.01)
    try:
        theirs = public.open(game_id).until_version(len(records) - 3)
        assert push(client, mirror, records[-3:]).status_code == 201
        theirs.until_version(len(records))
        mine = local.open(game_id).until_version(len(records))
        assert theirs.events() == mine.events() and len(mine.events()) == len(records)
    finally:
        public.close()
        local.close()


def test_each_mirror_s_lag_is_in_metrics(client: FlaskClient, venue: Flask) -> None:
    from tests.api.test_operations import _scrape, _value

    game_id = venue_game(venue)
    mirror = open_mirror(client)
    assert push(client, mirror, entries(venue, game_id), behind=5).status_code == 201
    samples = _scrape(client)
    assert _value(samples, "munchlog_mirror_lag", mirror=mirror["mirror_id"]) == 5
    waited = _value(samples, "munchlog_mirror_lag_seconds", mirror=mirror["mirror_id"])
    status = client.get(f"/api/mirrors/{mirror['mirror_id']}", headers=bearer(mirror["token"]))
    assert status.get_json()["lag"] == {"records": 5, "seconds": waited} and waited > 0
