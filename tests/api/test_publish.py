"""``munchlog publish`` (issue #41): a venue's records pushed to a live public server.

The venue is a SQLite file written through ``GameLog``; the public server is ``munchlog serve``
on the test's back end (SQLite, PostgreSQL). The publisher is first pointed at a port that refuses (the link is
down: it keeps its position and says so), then at the real server: it catches up in order, and
the public spectator's export of each game equals the venue's. ``munchlog publish --once``
resumes from the position the mirror holds.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
import requests
from flask.testing import FlaskClient

from api.cli.history import open_log
from api.cli.publish import http_send
from domain.family import load_families
from projections.exports import export_ndjson
from service.games import GameLog
from service.mirrors import mirror_of_token
from service.publisher import LinkDown, Publisher
from tests.api.test_history_api import play_live
from tests.api.test_mirrors import open_mirror as open_mirror_here
from tests.live import ROOT, free_port, munchlog_serve

ORGANIZER = "public-organizer"


@pytest.fixture
def public(tmp_path: Path, backend: dict[str, Any]) -> Iterator[str]:
    """``munchlog serve`` on the test's back end (SQLite, PostgreSQL)."""
    folder = tmp_path / "public"
    folder.mkdir()
    with munchlog_serve(folder, ORGANIZER, extra_env=backend) as (port, _env):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[GameLog]:
    load_families()
    log = open_log(str(tmp_path / "venue.sqlite"))
    yield log
    log.close()


def open_mirror(public: str) -> str:
    answer = requests.post(
        f"{public}/api/mirrors", headers={"Authorization": f"Bearer {ORGANIZER}"}, timeout=10
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def same_as_the_venue(public: str, venue: GameLog, game_id: str) -> None:
    """The public spectator's export of the game is the venue's, byte for byte."""
    records = venue.all_records(UUID(game_id))
    mine = "".join(export_ndjson(records, "spectator"))
    theirs = requests.get(f"{public}/api/games/{game_id}/export?format=ndjson", timeout=10)
    assert theirs.status_code == 200, theirs.text
    assert theirs.text == mine


def test_publish_keeps_its_position_while_the_link_is_down_and_catches_up(
    public: str, venue: GameLog
) -> None:
    token = open_mirror(public)
    rng = random.Random(7)
    games = [play_live(venue, rng, 10) for _ in range(2)]
    lines: list[str] = []
    refusing = f"http://127.0.0.1:{free_port()}"
    publisher = Publisher(
        venue, http_send(refusing, token), mirror_of_token(token), say=lines.append
    )
    stop = threading.Event()
    thread = threading.Thread(target=publisher.run, args=(stop,), daemon=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("service.publisher.RETRY_SECONDS", 0.1)
        thread.start()
        try:
            deadline = time.monotonic() + 10
            while not any("link is down" in line for line in lines):
                assert time.monotonic() < deadline, lines
                time.sleep(0.05)
            games.append(play_live(venue, rng, 6))  # recorded while the link is down
            assert publisher.published == 0 and publisher.position == 0
            publisher.send = http_send(public, token)  # the link returns
            deadline = time.monotonic() + 30
            while not publisher.caught_up():
                assert time.monotonic() < deadline, lines
                time.sleep(0.05)
        finally:
            stop.set()
            thread.join(10)
    assert any("link is back" in line for line in lines), lines
    assert any(line.startswith("publish: ") and "lag 0" in line for line in lines), lines
    for game_id in games:
        same_as_the_venue(public, venue, game_id)
    status = requests.get(
        f"{public}/api/mirrors/{mirror_of_token(token)}",
        headers={"Authorization": f"Bearer {ORGANIZER}"},
        timeout=10,
    ).json()
    assert sorted(status["games"]) == sorted(games) and status["lag"]["records"] == 0


def test_the_command_resumes_where_the_mirror_is(
    public: str, venue: GameLog, tmp_path: Path
) -> None:
    token = open_mirror(public)
    rng = random.Random(8)
    first = play_live(venue, rng, 8)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MUNCHLOG_PUBLISH_TO": public}
    db = str(tmp_path / "venue.sqlite")
    cmd = [sys.executable, "-m", "api.cli.main", "publish", "--db", db, "--token", token]

    def run() -> str:
        done = subprocess.run([*cmd, "--once"], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    out = run()
    assert "records sent" in out and out.rstrip().endswith(
        f"{len(venue.all_records(UUID(first)))} records published"
    )
    second = play_live(venue, rng, 5)
    out = run()
    assert f"{len(venue.all_records(UUID(second)))} records published" in out
    for game_id in (first, second):
        same_as_the_venue(public, venue, game_id)


PUBLISH = [sys.executable, "-m", "api.cli.main", "publish"]


def flask_send(client: FlaskClient, token: str) -> Any:
    """A publisher's ``send`` to an app in this process (the test's public server)."""

    def send(method: str, path: str, body: Any) -> tuple[int, Any]:
        got = client.open(
            path, method=method, json=body, headers={"Authorization": f"Bearer {token}"}
        )
        return got.status_code, got.get_json()

    return send


def test_a_batch_whose_answer_the_link_lost_is_not_sent_twice(
    client: FlaskClient, venue: GameLog
) -> None:
    """The first batch is stored but its answer lost: the 409 that names the version held
    makes the publisher leave out what the copy holds, and it goes on (both back ends)."""
    token = open_mirror_here(client)["token"]
    game_id = play_live(venue, random.Random(9), 10)
    lost: list[int] = []
    through = flask_send(client, token)

    def send(method: str, path: str, body: Any) -> tuple[int, Any]:
        status, answer = through(method, path, body)
        if method == "POST" and not lost:
            lost.append(status)
            raise LinkDown("the answer was lost")
        return status, answer

    lines: list[str] = []
    publisher = Publisher(venue, send, mirror_of_token(token), say=lines.append, batch=4)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("service.publisher.RETRY_SECONDS", 0.0)
        publisher.run(threading.Event(), once=True)
    assert lost == [201]
    records = venue.all_records(UUID(game_id))
    assert publisher.published == len(records) - 4
    copy = client.get(f"/api/games/{game_id}/export?format=ndjson").get_data(as_text=True)
    assert copy == "".join(export_ndjson(records, "spectator"))


def test_a_mirrored_game_keeps_the_venue_s_spectator_delay(
    client: FlaskClient, venue: GameLog
) -> None:
    token = open_mirror_here(client)["token"]
    game_id = play_live(venue, random.Random(10), 8, spectator_delay={"events": 3})
    publisher = Publisher(venue, flask_send(client, token), mirror_of_token(token), say=print)
    publisher.run(threading.Event(), once=True)
    version = venue.current_version(UUID(game_id))
    assert version > 4
    seen = client.get(f"/api/games/{game_id}/state").get_json()["version"]
    assert seen == version - 3
    events = client.get(f"/api/games/{game_id}/events?limit=1000").get_json()["events"]
    assert len(events) == version - 3


def test_a_batch_that_lost_a_race_is_sent_again(client: FlaskClient, venue: GameLog) -> None:
    token = open_mirror_here(client)["token"]
    game_id = play_live(venue, random.Random(11), 4)
    through = flask_send(client, token)
    raced: list[bool] = []

    def send(method: str, path: str, body: Any) -> tuple[int, Any]:
        if method == "POST" and not raced:  # as the public server answers a lost race
            raced.append(True)
            error = {"code": "mirror/does_not_extend", "reason": "conflict", "version": 0}
            return 409, {"error": {**error, "game_id": game_id, "message": "raced"}}
        return through(method, path, body)

    publisher = Publisher(venue, send, mirror_of_token(token), say=print)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("service.publisher.RETRY_SECONDS", 0.0)
        publisher.run(threading.Event(), once=True)
    assert raced and publisher.published == venue.current_version(UUID(game_id))


def test_an_event_that_is_not_the_venue_s_is_one_clear_line(
    public: str, venue: GameLog, tmp_path: Path
) -> None:
    token = open_mirror(public)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MUNCHLOG_PUBLISH_TO": public}
    db = str(tmp_path / "venue.sqlite")
    game = play_live(venue, random.Random(3), 2)  # a game's id is not an event's
    for named in ("not-an-id", str(uuid4()), game):
        done = subprocess.run(
            [*PUBLISH, "--db", db, "--token", token, "--event", named, "--once"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode != 0 and done.stdout == "", done.stdout
        assert done.stderr.strip().splitlines() == [
            f"munchlog: --event {named}: no such event on this venue's database"
        ], done.stderr
