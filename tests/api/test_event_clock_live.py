"""Time called by a real server with no request (issue #38): ``munchlog serve`` with two
recording workers and its stream process; an event's round paired, its clock running, the
judge's stream of the table's game open, and then **no request at all**. At the table's deadline
the server records ``TimeCalled`` in the game by itself, within 2 seconds, once (two workers
keep the events), and the open stream gets it. The timing rules at the service's speed:
tests/service/test_event_clock.py.

The shortest round is a minute; not to wait for it, the test records the clock's start in the
server's store itself, 57 seconds ago (what ``POST …/clock`` records, at another time): the
server learns it from the store as it would any start.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import requests

from api.app import create_app
from domain.tournament import clock
from service.tournaments import Tournaments
from tests.api.test_events import HERO, deck
from tests.api.test_streams_live import Reader
from tests.live import munchlog_serve
from tests.streams import parse_sse

ORGANIZER = "event-clock-live-organizer"
#: The server calls time within this many seconds (the issue's figure); its keeper looks every
#: half second.
WITHIN = 2.0


def test_time_is_called_in_a_game_and_streamed_with_no_request(tmp_path: Path) -> None:
    with munchlog_serve(tmp_path, ORGANIZER, workers=2) as (port, _env):
        base = f"http://127.0.0.1:{port}"
        organizer = {"Authorization": f"Bearer {ORGANIZER}"}

        def post(path: str, body: Any = None, headers: Any = organizer) -> Any:
            answer = requests.post(f"{base}{path}", json=body, headers=headers, timeout=30)
            assert answer.status_code == 201, answer.text
            return answer.json()

        spec = {
            "name": "Live",
            "ruleset": "munchkin-ccg",
            "format": "casual",
            "round_minutes": 1,
            "dealing": "table",
        }
        event = post("/api/events", spec)
        eid, judge = event["event_id"], event["judge_token"]
        for player in ("ann", "bob"):
            post(f"/api/events/{eid}/players", {"player": player, "hero": HERO, "decklist": deck()})
        (pairing,) = post(f"/api/events/{eid}/rounds")["pairings"]
        gid = pairing["game_id"]
        stream = requests.get(
            f"{base}/api/games/{gid}/stream",
            headers={"Authorization": f"Bearer {judge}"},
            stream=True,
            timeout=30,
        )
        assert stream.status_code == 200, stream.text
        reader = Reader(stream)
        reader.until(lambda text: "GameCreated" in text)
        started = datetime.now(UTC) - timedelta(seconds=57)
        app = create_app(
            {"INSTANCE_PATH": str(tmp_path / "instance"), "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER}
        )
        try:
            tournaments = Tournaments(app.extensions["munchlog"])

            def start(event: Any) -> tuple[list[Any], None]:
                event.record(clock.ClockStarted, round=1, by="organizer", at=clock.iso(started))
                return [], None

            tournaments._update(UUID(eid), start)
        finally:
            app.extensions["munchlog"].close()
        deadline = clock.iso(started + timedelta(minutes=1))
        # from here on, nobody sends anything: the judge's stream is only read
        reader.until(lambda text: "TimeCalled" in text, timeout=30)
        items = [json.loads(e["data"]) for e in parse_sse(reader.text)]
        stream.close()
        called = items[-1]
        assert called["type"] == "TimeCalled" and called["seat"] == "rules"
        assert called["data"]["deadline"] == deadline and called["data"]["extra_turns"] == 5
        late = (clock.moment(called["received_at"]) - clock.moment(deadline)).total_seconds()
        print(f"time called {late:.3f} s after the deadline")
        assert 0 <= late <= WITHIN, f"called {late:.2f} s after the deadline"
        events = requests.get(
            f"{base}/api/games/{gid}/events",
            headers={"Authorization": f"Bearer {judge}"},
            timeout=30,
        ).json()["events"]
        assert [e["type"] for e in events].count("TimeCalled") == 1
        for _ in range(50):  # the event records it after the game
            shown = requests.get(f"{base}/api/events/{eid}", timeout=30).json()["clock"]
            if shown["time_called"]:
                break
            time.sleep(0.1)
        assert shown["state"] == "time" and shown["time_called"] == {"1": deadline}
