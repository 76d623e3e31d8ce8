"""Match histories: the projection (projections/history_store.py) and its routes, both back ends.

The projection must always equal a from-scratch rebuild: after random games, across a restart
in the middle (a new app and GameLog on the same database), and under concurrent writes and
catch-ups from threads and from a second "process" (another GameLog on the same database).
"""

from __future__ import annotations

import json
import random
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from api.cli.demo import demo_spec
from domain import event_from_dict, find_ruleset
from projections.exports import export_json_text, import_game
from service.games import GameLog
from service.histories import MatchHistory
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game
from tests.builders import seeded_records
from tests.unit.seeded_games import records_for

RS = find_ruleset("munchkin-ccg")


def import_seeded(log: GameLog, seed: int, *, event: str = "Sample Cup", player_a: str = "") -> str:
    """Import a random finished game (through GameLog); its id."""
    records = seeded_records(seed, str(uuid.uuid4()))
    created = records[0]["event"]
    created["labels"] = {**created["labels"], "event": event}
    if player_a:
        created["seats"][0]["player"] = player_a
    records = records_for([event_from_dict(r["event"]) for r in records])
    imported = import_game(export_json_text(records, "judge"))
    return str(log.import_game(imported.records).game_id)


def play_live(log: GameLog, rng: random.Random, steps: int, **spec: Any) -> str:
    """Create a game through GameLog (its spec the demo's, with ``spec``) and record ``steps``
    random legal commands, one a batch."""
    started = log.start_game({**demo_spec(seed=rng.randrange(1000)), **spec})
    gid = started.game_id
    for _ in range(steps):
        state = log.game(gid).state
        if state["status"] == "finished":
            break
        options = [c for seat in "AB" for c in RS.legal_commands(state, seat)]
        options = [c for c in options if c["type"] != "concede"]
        command = {k: v for k, v in rng.choice(options).items() if k != "salt"}
        log.record(gid, [command], actor="table")
    return str(gid)


@pytest.fixture
def make_app(backend: dict[str, Any], tmp_path: Path) -> Iterator[Any]:
    """Apps on the test's database (each a fresh GameLog: a restart)."""
    made: list[Flask] = []

    def make() -> Flask:
        app = create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": str(tmp_path / "instance"),
                "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
                **backend,
            }
        )
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["munchlog"].close()


def rebuilt(log: GameLog) -> list[dict[str, Any]]:
    """The rows of a from-scratch rebuild (into the same tables), then caught up."""
    history = MatchHistory(log)
    history.rebuild()
    return history.rows()


# ---------------------------------------------------------------------------- the projection


def test_the_projection_equals_a_rebuild_after_random_games(app: Flask) -> None:
    log: GameLog = app.extensions["munchlog"]
    history = MatchHistory(log, batch_size=37)
    rng = random.Random(1)
    ids = []
    for seed in range(4):
        ids.append(import_seeded(log, seed))
        ids.append(play_live(log, rng, steps=rng.randrange(1, 25)))
        history.catch_up()
    rows = history.rows()
    assert [r["game_id"] for r in rows] == ids  # creation order
    assert rows == rebuilt(log)
    assert "finished" in {r["status"] for r in rows}
    assert {r["status"] for r in rows} - {"finished"}  # live games too


@pytest.mark.slow
def test_a_rebuild_folds_beside_the_live_histories_and_switches_when_done(app: Flask) -> None:
    """``munchlog rebuild-projections`` (here another MatchHistory, as the command is another
    process) while the histories are read: at every step of the rebuild the live ones still
    hold every game (before: emptied first, then refilled); after it they equal what they
    were, and both a catch-up and a second rebuild (the tables and indexes renamed back and
    forth) go on from there."""
    log: GameLog = app.extensions["munchlog"]
    reader = MatchHistory(log)
    rng = random.Random(5)
    for seed in range(3):
        import_seeded(log, 40 + seed)
        play_live(log, rng, steps=8)
    before = reader.rows()
    assert len(before) == 6
    seen: list[int] = []

    def read_meanwhile(done: int, total: int) -> None:
        seen.append(len(reader.view.select()))  # what a reader is served now

    rebuilder = MatchHistory(log, batch_size=7)
    assert rebuilder.rebuild(progress=read_meanwhile) > 0
    assert len(seen) > 2 and set(seen) == {6}, seen
    assert reader.view.select() == before
    assert reader.rows() == before
    play_live(log, rng, steps=3)
    after = reader.rows()
    assert len(after) == 7
    assert rebuilder.rebuild() > 0
    assert reader.rows() == after == rebuilt(log)


def test_a_restart_in_the_middle_resumes_where_it_stopped(make_app: Any) -> None:
    first = make_app()
    log: GameLog = first.extensions["munchlog"]
    rng = random.Random(2)
    for seed in range(3):
        import_seeded(log, 20 + seed)
        play_live(log, rng, steps=10)
    folded = MatchHistory(log, batch_size=50).catch_up(limit=120)
    assert 0 < folded < 3000
    log.close()  # "restart": a new app, a new GameLog, the same database

    second = make_app()
    log2: GameLog = second.extensions["munchlog"]
    import_seeded(log2, 30)
    history = MatchHistory(log2)
    position = history.view.position()
    assert position > 0  # resumed, not started over
    rows = history.rows()
    assert len(rows) == 7
    assert rows == rebuilt(log2)


def test_concurrent_writes_and_catch_ups_equal_a_rebuild(make_app: Any) -> None:
    app = make_app()
    other = make_app()  # a second "process" on the same database
    log: GameLog = app.extensions["munchlog"]
    histories = [MatchHistory(log, batch_size=40), MatchHistory(other.extensions["munchlog"])]
    errors: list[BaseException] = []
    stop = threading.Event()

    def write(n: int) -> None:
        try:
            rng = random.Random(100 + n)
            for i in range(2):
                import_seeded(log, 40 + 2 * n + i)
                play_live(log, rng, steps=8)
        except BaseException as exc:
            errors.append(exc)

    def read(history: MatchHistory) -> None:
        try:
            while not stop.is_set():
                history.catch_up()
        except BaseException as exc:
            errors.append(exc)

    writers = [threading.Thread(target=write, args=(n,)) for n in range(3)]
    readers = [threading.Thread(target=read, args=(h,)) for h in histories]
    for t in writers + readers:
        t.start()
    for t in writers:
        t.join()
    stop.set()
    for t in readers:
        t.join()
    assert not errors, errors
    rows = histories[0].rows()
    assert len(rows) == 12
    assert histories[1].rows() == rows
    assert rows == rebuilt(log)


# ---------------------------------------------------------------------------- the routes


def test_a_players_history_and_totals(app: Flask, client: FlaskClient) -> None:
    log: GameLog = app.extensions["munchlog"]
    for seed in range(3):
        import_seeded(log, 50 + seed, player_a="Ann Smith")
    game = create_game(client)  # a live game, seen at once: histories catch up on demand
    response = client.get("/api/players/ann%20SMITH/games")
    assert response.status_code == 200
    body = response.get_json()
    assert body["player"] == "Ann Smith"
    assert len(body["games"]) == 3
    entry = body["games"][0]
    assert entry["hero"] == "Sample Orc Warrior" and entry["opponent"] == "Player B"
    assert entry["opponent_hero"] == "Sample Gnome Thief"
    assert entry["event"] == "Sample Cup" and entry["date"] == "2024-05-01"
    assert entry["result"] in ("win", "loss", "draw")
    assert entry["turns"] > 0 and entry["length_seconds"] > 0
    totals = body["totals"]
    assert totals["games"] == 3
    assert totals["wins"] + totals["losses"] + totals["draws"] == 3
    assert totals["fights"] == sum(g["fights"] for g in body["games"])
    assert totals["bluffs_caught"] == sum(g["bluffs_caught"] for g in body["games"])
    assert body["heroes"]["Sample Orc Warrior"]["games"] == 3

    alice = client.get("/api/players/Alice/games").get_json()
    assert [g["game_id"] for g in alice["games"]] == [game["game_id"]]
    assert alice["games"][0]["result"] == "unfinished"
    assert alice["totals"]["average_length_seconds"] is None
    nobody = client.get("/api/players/nobody/games").get_json()
    assert nobody["games"] == [] and nobody["totals"]["games"] == 0


def test_an_events_games_are_streamed_to_the_organizer_as_public_views(
    app: Flask, client: FlaskClient
) -> None:
    log: GameLog = app.extensions["munchlog"]
    ids = [import_seeded(log, 60 + n, event="Store Champs") for n in range(2)]
    import_seeded(log, 62, event="Other Cup")
    response = client.get(
        "/api/exports?event=Store%20Champs&format=ndjson", headers=bearer(ORGANIZER_TOKEN)
    )
    assert response.status_code == 200
    assert response.is_streamed
    assert response.headers["Content-Type"] == "application/x-ndjson"
    assert 'filename="event-Store-Champs.ndjson"' in response.headers["Content-Disposition"]
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    headers = [line for line in lines if line.get("format") == "munchlog-game"]
    assert [h["game_id"] for h in headers] == ids
    assert all(h["viewer"] == "organizer" and h["complete"] is False for h in headers)
    assert not any("hash" in line for line in lines)

    text = client.get(
        "/api/exports?event=Store%20Champs",
        headers={**bearer(ORGANIZER_TOKEN), "Accept": "text/plain"},
    ).get_data(as_text=True)
    assert text.count('[Event "Store Champs"]') == 2


@pytest.mark.storage_agnostic
def test_event_exports_need_the_organizer(client: FlaskClient) -> None:
    assert client.get("/api/exports?event=X").status_code == 401
    game = create_game(client)
    response = client.get("/api/exports?event=X", headers=bearer(game["judge_token"]))
    assert response.status_code in (401, 403)
    response = client.get(
        "/api/exports?event=X", headers={**bearer(ORGANIZER_TOKEN), "Accept": "text/csv"}
    )
    assert response.status_code == 406
    assert client.get("/api/exports", headers=bearer(ORGANIZER_TOKEN)).status_code == 400
