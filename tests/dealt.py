"""A finished server-dealt CCG game played over HTTP, its judge's export, and forgeries of that
export (issue #25): for ``munchlog verify FILE`` (tests/api/test_dealing_cli.py) and for the
viewer's own check in Chromium (tests/e2e/test_viewer_dealing.py, test_dealing_js.py).

A forger who controls the server rewrites an event *and re-seals the hash chain* after it, so
the chain verifies and only the dealing check can tell; :func:`forged` makes such an export
(``reseal=False``: a clumsy one, which the chain names). The service tier's own forgeries:
tests/service/test_dealt_exports.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from domain.dealing import seat_commitment
from domain.envelope import Record
from projections.exports import export_json_text, read_export
from tests.api.helpers import bearer, create_game
from tests.unit.seeded_games import reseal as resealed


def play_server_dealt(app: Flask) -> dict[str, Any]:
    """A CCG game created with ``"dealing": "server"`` on ``app``: both seats commit and reveal
    a seed, draw their opening hands, roll for first (again on a tie), the winner goes first and
    mulligans, the other keeps, then A concedes (the server reveals its secret). Returns the
    creation body and the judge's canonical JSON export (``export``)."""
    client = app.test_client()
    game = create_game(client, dealing="server")
    gid, seats = game["game_id"], game["seats"]

    def act(seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        response = client.post(
            f"/api/games/{gid}/actions",
            json={"actions": [{**action, "seat": seat}]},
            headers=bearer(seats[seat]["token"]),
        )
        assert response.status_code == 201, response.get_json()
        events: list[dict[str, Any]] = response.get_json()["events"]
        return events

    seeds = {seat: os.urandom(32) for seat in seats}
    for seat in seats:
        act(seat, {"type": "commit_seed", "commitment": seat_commitment(gid, seat, seeds[seat])})
    for seat in seats:
        act(seat, {"type": "reveal_seed", "seed": seeds[seat].hex()})
    for seat in seats:
        act(seat, {"type": "draw_opening"})
    while True:
        rolled = act("A", {"type": "roll_first"})[-1]["data"]
        if not rolled["tie"]:
            break
    first = max(rolled["rolls"], key=rolled["rolls"].get)
    act(first, {"type": "choose_first", "first": first})
    act(first, {"type": "mulligan"})
    act("B" if first == "A" else "A", {"type": "keep"})
    act("A", {"type": "concede"})
    response = client.get(f"/api/games/{gid}/export", headers=bearer(game["judge_token"]))
    assert response.status_code == 200
    return {"game": game, "export": response.get_data(as_text=True)}


def export_in(folder: Path) -> str:
    """The judge's export of :func:`play_server_dealt`'s game, played on an app of its own on
    SQLite in ``folder``."""
    from api.app import create_app
    from tests.conftest import ORGANIZER_TOKEN

    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
            "MUNCHLOG_DATABASE_URL": str(folder / "munchlog.sqlite"),
        }
    )
    try:
        text: str = play_server_dealt(app)["export"]
    finally:
        app.extensions["munchlog"].close()
    return text


def records_of(export: str) -> list[Record]:
    return read_export(export)[1]


def versions_of(export: str, kind: str) -> list[int]:
    """The versions of the events of type ``kind`` in ``export``."""
    return [r["version"] for r in records_of(export) if r["event"]["type"] == kind]


def forged(
    export: str, version: int, change: Callable[[dict[str, Any]], None], *, reseal: bool = True
) -> str:
    """``export`` with the event at ``version`` changed in place by ``change`` and, unless
    ``reseal`` is false, every hash from there on recomputed (a chain that verifies)."""
    header, records = read_export(export)
    index = next(i for i, r in enumerate(records) if r["version"] == version)
    change(records[index]["event"])
    if reseal:
        records = resealed(records)
    return export_json_text(records, str(header["viewer"]), exported_at=header.get("exported_at"))


def other_card(event: dict[str, Any]) -> None:
    """A ``Dealt`` deal's first card swapped for a card of the pile it did not deal."""
    left = [c for c in event["among"] if c not in event["cards"]]
    event["cards"] = [left[0], *event["cards"][1:]]


def other_die(event: dict[str, Any]) -> None:
    """A ``Dealt`` dice's first value turned to another face."""
    event["values"] = [event["values"][0] % event["sides"] + 1, *event["values"][1:]]


def next_counter(event: dict[str, Any]) -> None:
    """A ``Dealt`` event's counter moved on by one (a skipped counter value)."""
    event["counter"] += 1


def other_seed(event: dict[str, Any]) -> None:
    """A ``SeedRevealed`` seed with its last byte changed."""
    event["seed"] = event["seed"][:-2] + ("00" if event["seed"][-2:] != "00" else "01")


def other_secret(event: dict[str, Any]) -> None:
    """A ``ServerSecretRevealed`` secret with its last byte changed."""
    event["secret"] = event["secret"][:-2] + ("00" if event["secret"][-2:] != "00" else "01")
