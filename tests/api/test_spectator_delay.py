"""Spectator delay (issue #26 item 5) over HTTP: a spectator (no token) and the organizer of a
game created with ``spectator_delay`` see it exactly as the judge saw it at the delayed version,
on every read path (state, events, exports, the summary and the list, turns, the timeline, one
event, verify, player histories, event exports); seats, the table and the judge see it live; the
seconds rule on a moved clock; the end of the delay; validation; the OpenAPI.
The use case: tests/service/test_spectator_delays.py."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import service.delay
import service.games
from projections.exports import export_csv, export_transcript
from projections.replay import ReplayIndex
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game
from tests.service.helpers import play_demo
from tests.streams import AsgiServer

pytestmark = pytest.mark.storage_agnostic

DELAYED = {"spectator": None, "organizer": ORGANIZER_TOKEN}


def played(app: Flask, delay: dict[str, int], *, actions: int = 25, seed: int = 3) -> Any:
    return play_demo(
        app.extensions["munchlog"],
        seed=seed,
        max_actions=actions,
        extra={"spectator_delay": delay, "labels": {"event": f"delay-{seed}"}},
    )


def get(client: FlaskClient, url: str, token: str | None) -> Any:
    response = client.get(url, headers=bearer(token))
    assert response.status_code == 200, (url, response.get_json())
    return response


def reads(client: FlaskClient, gid: str, token: str | None, player: str) -> dict[str, Any]:
    """What every read path answers the holder of ``token`` (versions and views)."""
    base = f"/api/games/{gid}"
    summary = get(client, base, token).get_json()
    listed = next(
        g
        for g in get(client, "/api/games?limit=200", token).get_json()["games"]
        if g["game_id"] == gid
    )
    events = get(client, f"{base}/events?limit=1000", token).get_json()
    exported = get(client, f"{base}/export?format=json", token).get_json()
    ndjson = get(client, f"{base}/export?format=ndjson", token).get_data(as_text=True)
    timeline = get(client, f"{base}/timeline", token).get_json()
    verify = get(client, f"{base}/verify", token).get_json()
    history = get(client, f"/api/players/{player}/games", token).get_json()
    disputes = get(client, f"{base}/disputes", token).get_json()["disputes"]
    return {
        "summary": {k: summary[k] for k in ("version", "status", "winner", "turn", "phase")},
        "listed": (listed["version"], listed["status"], listed["winner"]),
        "events": [e["version"] for e in events["events"]] + [events["version"]],
        "export": [e["version"] for e in exported["events"]],
        "ndjson": [json.loads(line).get("version") for line in ndjson.splitlines()[1:]],
        "text": get(client, f"{base}/export?format=text", token).get_data(as_text=True),
        "csv": get(client, f"{base}/export?format=csv", token).get_data(as_text=True),
        "timeline": (timeline["version"], timeline["timeline"], timeline["turns"]),
        "seat_time": timeline["seat_time"],
        "checked": verify["checked"],
        "history": [g["events"] for g in history["games"] if g["game_id"] == gid],
        "disputes": [d["opened_at"] for d in disputes],
    }


def as_judge_at(client: FlaskClient, gid: str, judge: str, version: int) -> Any:
    """The judge's read of the state at ``version``, shown as a spectator sees it."""
    return get(client, f"/api/games/{gid}/state?at={version}&as=spectator", judge).get_json()


@pytest.mark.parametrize("n", [1, 4, 9])
def test_a_spectator_is_exactly_n_events_behind_on_every_read_path(
    app: Flask, client: FlaskClient, n: int
) -> None:
    game = played(app, {"events": n})
    gid, judge = str(game.game_id), game.tokens["judge"]
    base = f"/api/games/{gid}"
    assert game.status != "finished", "the property needs a game under way"
    current = get(client, f"/api/games/{gid}/events?limit=1", judge).get_json()["version"]
    cap = current - n
    player = app.extensions["munchlog"].summary(game.game_id)["players"]["A"]
    live = reads(client, gid, judge, player)
    # the event's export (the organizer's): the game's header, then its first ``cap`` events
    event = client.get("/api/exports?event=delay-3&format=ndjson", headers=bearer(ORGANIZER_TOKEN))
    lines = [json.loads(line) for line in event.get_data(as_text=True).splitlines()]
    assert [line["version"] for line in lines if "version" in line] == list(range(1, cap + 1))
    assert live["summary"]["version"] == current and live["checked"] == current
    for token in DELAYED.values():
        seen = reads(client, gid, token, player)
        assert seen["summary"]["version"] == cap
        assert seen["listed"][0] == cap
        assert seen["events"] == [*range(1, cap + 1), cap]
        assert seen["export"] == seen["ndjson"] == list(range(1, cap + 1))
        assert seen["checked"] == cap
        assert seen["history"] == [cap]
        # the transcript and the CSV: those of the first ``cap`` records, for this viewer
        records = app.extensions["munchlog"].all_records(game.game_id)[:cap]
        viewer = "spectator" if token is None else "organizer"
        assert seen["text"] == export_transcript(records, viewer)
        assert seen["csv"] == "".join(export_csv(records, viewer))
        version, timeline, turns = seen["timeline"]
        assert version == cap and timeline == live["timeline"][1][:cap]
        assert {t: {k: x for k, x in v.items() if k != "seat_time"} for t, v in turns.items()} == {
            t: {
                "first": v["first"],
                "last": min(v["last"], cap),
                "count": min(v["last"], cap) - v["first"] + 1,
            }
            for t, v in live["timeline"][2].items()
            if v["first"] <= cap
        }
        # the seats' waits: from the records it may see only (issue #38)
        index = ReplayIndex()
        index.extend(records)
        assert seen["seat_time"] == index.seat_clock.totals()
        # the state and the summary: the judge's, at the delayed version
        state = get(client, f"/api/games/{gid}/state", token).get_json()
        assert state == as_judge_at(client, gid, judge, cap)
        at_cap = get(client, f"/api/games/{gid}/state?at={cap}", judge).get_json()
        assert seen["summary"]["turn"] == at_cap.get("turn")
        assert seen["summary"]["status"] == at_cap.get("status", seen["summary"]["status"])
        # versions after the delayed one do not exist yet for this viewer
        for url in (f"/state?at={cap + 1}", f"/events/{cap + 1}"):
            response = client.get(f"/api/games/{gid}{url}", headers=bearer(token))
            assert response.status_code == 404, url
        assert get(client, f"/api/games/{gid}/events/{cap}", token).get_json()["event"]
        # the last turn it may see ends at its version
        last_turn = max(int(t) for t in turns)
        turn = get(client, f"/api/games/{gid}/turns/{last_turn}", token).get_json()
        assert max(turn["versions"]) == cap
        if int(max(live["timeline"][2], key=int)) > last_turn:
            later = client.get(f"/api/games/{gid}/turns/{last_turn + 1}", headers=bearer(token))
            assert later.status_code == 404
        at_turn = get(client, f"/api/games/{gid}/state?turn={last_turn}", token).get_json()
        assert at_turn == state
        # the live stream: the same events, and not one more (the judge's is live)
        streams = AsgiServer(app, poll=0.01)
        streams.app.hub.heartbeat = 0.2
        try:
            judged = streams.open(gid, token=judge).until_version(current)
            held = streams.open(gid, token=token).until_version(cap)
            held.wait(lambda s: s.text.count(": heartbeat") >= 2, 5)  # a while, idle
            assert held.ids() == list(range(1, cap + 1))
            assert (
                held.items() == get(client, f"{base}/events?limit=1000", token).get_json()["events"]
            )
            assert judged.ids() == list(range(1, current + 1))
        finally:
            streams.close()


def test_a_dispute_opened_after_the_delayed_version_is_not_seen_yet(
    app: Flask, client: FlaskClient
) -> None:
    game = played(app, {"events": 2})
    gid, judge = str(game.game_id), game.tokens["judge"]
    opened = client.post(
        f"/api/games/{gid}/disputes",
        json={"statement": "a misplay", "from_version": 2, "to_version": 3},
        headers=bearer(judge),
    )
    assert opened.status_code == 201, opened.get_json()
    assert len(get(client, f"/api/games/{gid}/disputes", judge).get_json()["disputes"]) == 1
    for token in DELAYED.values():
        assert get(client, f"/api/games/{gid}/disputes", token).get_json()["disputes"] == []


def test_seats_the_table_and_the_judge_see_it_live(app: Flask, client: FlaskClient) -> None:
    game = played(app, {"events": 5, "seconds": 3600})
    gid = str(game.game_id)
    versions = set()
    for role, token in game.tokens.items():
        versions.add(get(client, f"/api/games/{gid}", token).get_json()["version"])
        events = get(client, f"/api/games/{gid}/events?limit=1000", token).get_json()
        assert events["events"][-1]["version"] == events["version"], role
    assert versions == {game.version}
    spectator = get(client, f"/api/games/{gid}", None).get_json()
    assert spectator["version"] == 1  # an hour behind: the game as created


def test_no_delay_no_change(app: Flask, client: FlaskClient) -> None:
    game = play_demo(app.extensions["munchlog"], seed=3, max_actions=10)
    summary = get(client, f"/api/games/{game.game_id}", None).get_json()
    assert summary["version"] == game.version


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, tzinfo=UTC)

    def iso(self) -> str:
        return self.now.isoformat(timespec="microseconds")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(service.games, "utc_now", clock.iso)
    monkeypatch.setattr(service.delay, "clock", lambda: clock.now)
    return clock


def test_the_seconds_rule_shows_the_last_version_old_enough(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    log = app.extensions["munchlog"]
    game = played(app, {"seconds": 60}, actions=0)
    gid = str(game.game_id)
    created = game.version
    judge = game.tokens["judge"]
    from tests.service.test_spectator_delays import next_commands

    stamps = {}
    for _ in range(6):
        clock.now += timedelta(seconds=20)
        log.record(game.game_id, next_commands(log, game.game_id), actor="table")
        stamps[log.current_version(game.game_id)] = clock.now
    for t in range(0, 200, 10):
        clock.now = datetime(2026, 1, 1, 12, tzinfo=UTC) + timedelta(seconds=t)
        old = [v for v, at in stamps.items() if at <= clock.now - timedelta(seconds=60)]
        expected = max(old) if old else created
        seen = get(client, f"/api/games/{gid}", None).get_json()["version"]
        assert seen == min(expected, log.current_version(game.game_id)), t
        assert get(client, f"/api/games/{gid}", judge).get_json()["version"] == log.current_version(
            game.game_id
        )


def test_a_delayed_stream_moves_with_the_clock(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    """A spectator's stream of a game delayed by time gets each event once it is old enough,
    with no new event to wake it (the stream process's ticker looks again every second)."""
    log = app.extensions["munchlog"]
    game = played(app, {"seconds": 60}, actions=0, seed=8)
    from tests.service.test_spectator_delays import next_commands

    stamps = {}
    for _ in range(4):
        clock.now += timedelta(seconds=20)
        log.record(game.game_id, next_commands(log, game.game_id), actor="table")
        stamps[log.current_version(game.game_id)] = clock.now
    streams = AsgiServer(app, poll=0.01)
    streams.app.hub.heartbeat = 0.2  # the ticker every 0.1 s
    try:
        spectator = streams.open(game.game_id)
        for version, at in sorted(stamps.items()):
            clock.now = at + timedelta(seconds=60)
            spectator.until_version(version)
            assert spectator.ids() == list(range(1, version + 1))
    finally:
        streams.close()


def test_the_delay_ends_with_the_game_plus_the_seconds(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    log = app.extensions["munchlog"]
    both = played(app, {"events": 3, "seconds": 30}, actions=0, seed=5)
    events_only = played(app, {"events": 3}, actions=0, seed=6)
    for game in (both, events_only):
        while log.game(game.game_id).status != "finished":
            from tests.service.test_spectator_delays import finish

            finish(log, game.game_id)
    finished = log.current_version(both.game_id)
    # events only: the game is over, spectators see it whole at once
    seen = get(client, f"/api/games/{events_only.game_id}", None).get_json()
    assert seen["version"] == log.current_version(events_only.game_id)
    assert seen["status"] == "finished"
    # both: the seconds rule holds until 30 s after the end
    clock.now += timedelta(seconds=29)
    seen = get(client, f"/api/games/{both.game_id}", None).get_json()
    assert seen["version"] < finished and seen["status"] != "finished"
    assert seen["winner"] is None
    # the list is public (a game's token reads it as a spectator): live only in the service
    live = [g["game_id"] for g in log.list_games(status="finished")[0]]
    spectator = [
        g["game_id"] for g in get(client, "/api/games?status=finished", None).json["games"]
    ]
    assert str(both.game_id) in live
    assert str(both.game_id) not in spectator  # not finished yet, as it sees it
    clock.now += timedelta(seconds=1)
    seen = get(client, f"/api/games/{both.game_id}", None).get_json()
    assert (seen["version"], seen["status"]) == (finished, "finished")


@pytest.mark.parametrize(
    "delay",
    [
        {"events": -1},
        {"seconds": -5},
        {"events": service.delay.MAX_EVENTS + 1},
        {"seconds": service.delay.MAX_SECONDS + 1},
        {"events": 1.5},
        {"events": "3"},
        {"seconds": True},
        {"minutes": 3},
        [3],
    ],
)
def test_a_malformed_delay_is_400_with_its_field(client: FlaskClient, delay: Any) -> None:
    from api.cli.demo import demo_spec

    body = {**demo_spec(seed=0), "spectator_delay": delay}
    response = client.post("/api/games", json=body, headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 400, response.get_json()
    fields = response.get_json()["error"]["fields"]
    assert any(k.startswith("spectator_delay") for k in fields), fields


def test_a_zero_delay_is_none(client: FlaskClient) -> None:
    game = create_game(client, spectator_delay={"events": 0, "seconds": 0})
    assert client.get(f"/api/games/{game['game_id']}").get_json()["version"] == game["version"]


def test_the_openapi_documents_the_delay(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    create = spec["components"]["schemas"]["CreateGame"]["properties"]["spectator_delay"]
    assert "spectator" in json.dumps(create) and "ends" in json.dumps(create)
    delay = spec["components"]["schemas"]["SpectatorDelay"]["properties"]
    assert delay["events"]["maximum"] == service.delay.MAX_EVENTS
    assert delay["seconds"]["minimum"] == 0


class Calls:
    """Stands in for one of the GameLog's read helpers (``delays``, ``replays``) and notes the
    calls made to it from outside the service (a call it makes itself is not noted)."""

    depth = 0

    def __init__(self, name: str, real: Any, seen: list[str]) -> None:
        self._name, self._real, self._seen = name, real, seen

    def __getattr__(self, attr: str) -> Any:
        found = getattr(self._real, attr)
        if not callable(found):
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            if not Calls.depth:
                self._seen.append(f"{self._name}.{attr}")
            Calls.depth += 1
            try:
                return found(*args, **kwargs)
            finally:
                Calls.depth -= 1

        return call


def test_get_state_is_one_call_of_the_service(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GET /state`` asks the service once (``Delays.state``), even for a delayed spectator at
    the end of a turn as another viewer: the version it may see, the turn's end, the replay and
    the view are the service's to put together, not the route's."""
    game = played(app, {"events": 3})
    gid, judge = str(game.game_id), game.tokens["judge"]
    log = app.extensions["munchlog"]
    expected = {
        url: get(client, f"/api/games/{gid}/state{url}", token).get_json()
        for url, token in (("?turn=1", None), ("?as=spectator&at=2", judge), ("", None))
    }
    seen: list[str] = []
    monkeypatch.setattr(log, "delays", Calls("delays", log.delays, seen))
    monkeypatch.setattr(log, "replays", Calls("replays", log.replays, seen))
    for url, token in (("?turn=1", None), ("?as=spectator&at=2", judge), ("", None)):
        seen.clear()
        assert get(client, f"/api/games/{gid}/state{url}", token).get_json() == expected[url]
        assert seen == ["delays.state"], url
