"""A seed deadline kept by a real server (issue #43): ``munchlog serve`` with two recording
workers and its stream process; a server-dealt game whose two seats commit and B reveals, and
then **no request at all**: A's seed is on a page that is gone. Past the deadline the server
records A's withholding by itself, once (two workers keep the deadlines, one records), and
the judge's open stream gets it. The service-level tests (``DeadlineKeeper.expire_due`` in
memory): tests/service/test_seed_deadlines.py.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import requests

from api.cli.demo import demo_spec
from domain.dealing import seat_commitment
from tests.api.test_streams_live import Reader
from tests.live import munchlog_serve
from tests.streams import parse_sse

ORGANIZER = "seed-deadline-live-organizer"
#: The server records a passed deadline within this many seconds (the issue's figure); the
#: keeper looks every half second.
WITHIN = 2.0


def _moment(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


def test_a_passed_deadline_is_recorded_and_streamed_with_no_request(tmp_path: Path) -> None:
    with munchlog_serve(tmp_path, ORGANIZER, workers=2) as (port, _env):
        base = f"http://127.0.0.1:{port}"
        spec = {**demo_spec(seed=1), "dealing": "server", "reveal_timeout": 3}
        created = requests.post(
            f"{base}/api/games",
            json=spec,
            headers={"Authorization": f"Bearer {ORGANIZER}"},
            timeout=30,
        )
        assert created.status_code == 201, created.text
        game = created.json()
        gid, judge = game["game_id"], game["judge_token"]
        stream = requests.get(
            f"{base}/api/games/{gid}/stream",
            headers={"Authorization": f"Bearer {judge}"},
            stream=True,
            timeout=30,
        )
        assert stream.status_code == 200, stream.text
        reader = Reader(stream)
        seeds = {seat: os.urandom(32) for seat in "AB"}

        def act(seat: str, action: dict[str, Any]) -> None:
            answer = requests.post(
                f"{base}/api/games/{gid}/actions",
                json={"actions": [{**action, "seat": seat}]},
                headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"},
                timeout=30,
            )
            assert answer.status_code == 201, answer.text

        for seat in "AB":
            act(
                seat, {"type": "commit_seed", "commitment": seat_commitment(gid, seat, seeds[seat])}
            )
        act("B", {"type": "reveal_seed", "seed": seeds["B"].hex()})
        # from here on, nobody sends anything: the judge's stream is only read
        reader.until(lambda text: "SeedWithheld" in text, timeout=30)
        items = [json.loads(e["data"]) for e in parse_sse(reader.text)]
        stream.close()
        assert [i["type"] for i in items] == [
            "GameCreated",
            "SeedCommitted",
            "SeedCommitted",
            "SeedRevealed",
            "SeedWithheld",
        ], [i["type"] for i in items]
        withheld = items[-1]
        assert withheld["data"]["contributor"] == "A" and withheld["seat"] == "rules"
        deadline = withheld["data"]["deadline"]
        assert deadline == items[2]["data"]["deadline"]  # the last commitment's
        late = (_moment(withheld["received_at"]) - _moment(deadline)).total_seconds()
        print(f"recorded {late:.3f} s after the deadline")
        assert 0 < late <= WITHIN, f"recorded {late:.2f} s after the deadline"
        # once, though two workers keep the deadlines; and the game is dealt from now on
        events = requests.get(
            f"{base}/api/games/{gid}/events",
            headers={"Authorization": f"Bearer {judge}"},
            timeout=30,
        ).json()["events"]
        assert [e["type"] for e in events].count("SeedWithheld") == 1
        legal = requests.get(
            f"{base}/api/games/{gid}/legal",
            headers={"Authorization": f"Bearer {game['seats']['A']['token']}"},
            timeout=30,
        ).json()
        assert legal["deadline"] is None
        assert {"type": "draw_opening", "seat": "A"} in legal["commands"]["A"]


def test_each_worker_app_keeps_the_deadlines_until_its_log_closes(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """``api.ops.serving.worker_app`` starts a keeper thread (``api.ops.deadline_keeper``); closing the
    app's GameLog stops it; ``MUNCHLOG_DEADLINE_INTERVAL=0`` starts none."""
    from api.app import create_app
    from api.ops.deadline_keeper import INTERVAL_ENV, keep_deadlines

    app = create_app(
        {"INSTANCE_PATH": str(tmp_path / "instance"), "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER}
    )
    keeper = keep_deadlines(app)
    assert keeper is not None and keeper._thread is not None and keeper._thread.is_alive()
    app.extensions["munchlog"].close()
    assert not keeper._thread.is_alive()
    monkeypatch.setenv(INTERVAL_ENV, "0")
    other = create_app(
        {"INSTANCE_PATH": str(tmp_path / "other"), "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER}
    )
    try:
        assert keep_deadlines(other) is None
    finally:
        other.extensions["munchlog"].close()
