"""An event's live stream (issue #38, ``service.event_stream``): every new event of the event as
its viewer may see it, from the stream process (driven in this process: tests/streams.py), on
both back ends; resumable with ``Last-Event-ID``; tickets as for games, once each; nothing a
viewer may not learn (another player's decklist, a token hash)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.event_clock import TIME_CALLED
from service.event_keeper import EventKeeper
from service.event_stream import message
from service.tournaments import Caller, Tournaments
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event, pair, register
from tests.streams import AsgiServer, Stream

FAR = "2099-01-01T00:00:00Z"


@pytest.fixture
def streams(app: Flask) -> Iterator[AsgiServer]:
    server = AsgiServer(app, poll=0.01)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def event(client: FlaskClient) -> dict[str, Any]:
    made = open_event(client, round_minutes=30)
    eid = made["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cat", "dan")}
    return {**made, "tokens": tokens}


def open_stream(server: AsgiServer, eid: str, token: str | None = None, **more: Any) -> Stream:
    headers = [(b"authorization", f"Bearer {token}".encode())] if token else []
    if "last_id" in more:
        headers.append((b"last-event-id", str(more["last_id"]).encode()))
    return server.request(f"/api/events/{eid}/stream", headers=headers, query=more.get("query", ""))


def types(stream: Stream) -> list[str]:
    return [i["type"] for i in stream.items()]


def test_every_viewer_follows_the_event_as_it_may_see_it(
    app: Flask, client: FlaskClient, streams: AsgiServer, event: dict[str, Any]
) -> None:
    eid = event["event_id"]
    spectator = open_stream(streams, eid)
    ann = open_stream(streams, eid, event["tokens"]["ann"])
    judge = open_stream(streams, eid, event["judge_token"])
    for stream in (spectator, ann, judge):
        assert stream.status == 200
        stream.until_version(5)
    assert types(spectator) == ["opened", *["registered"] * 4]
    pair(client, eid)
    started = client.post(
        f"/api/events/{eid}/clock", json={"action": "start"}, headers=bearer(ORGANIZER_TOKEN)
    )
    assert started.status_code == 201
    for stream in (spectator, ann, judge):
        stream.wait(lambda s: "clock_started" in types(s))
    EventKeeper(Tournaments(app.extensions["munchlog"]), [TIME_CALLED]).run_due(FAR)
    for stream in (spectator, ann, judge):
        stream.wait(lambda s: types(s).count("table_time_called") == 2)
        assert types(stream)[5:] == [
            "paired",
            "clock_started",
            "table_time_called",
            "table_time_called",
        ]
        assert stream.ids() == sorted(set(stream.ids()))
        assert "token_hash" not in stream.text and "judge_token" not in stream.text
    listed = {i["player"]: i for i in spectator.items() if i["type"] == "registered"}
    assert all("decklist" not in row for row in listed.values())
    mine = {i["player"]: i for i in ann.items() if i["type"] == "registered"}
    assert "decklist" in mine["ann"] and "decklist" not in mine["bob"]
    staff = {i["player"]: i for i in judge.items() if i["type"] == "registered"}
    assert all("decklist" in row for row in staff.values())
    assert spectator.items()[-1]["by"] == "server"


def test_a_stream_resumes_after_its_last_event_id(
    client: FlaskClient, streams: AsgiServer, event: dict[str, Any]
) -> None:
    eid = event["event_id"]
    first = open_stream(streams, eid).until_version(5)
    last = first.ids()[-1]
    pair(client, eid)
    again = open_stream(streams, eid, last_id=last).until_version(6)
    assert types(again) == ["paired"] and again.ids() == [6]
    bad = open_stream(streams, eid, last_id="x")
    assert bad.status == 400


def test_tickets_stand_for_their_viewer_once(
    client: FlaskClient, streams: AsgiServer, event: dict[str, Any]
) -> None:
    eid = event["event_id"]
    made = client.post(f"/api/events/{eid}/stream-tickets", headers=bearer(event["tokens"]["ann"]))
    assert made.status_code == 201, made.get_json()
    ticket = made.get_json()["ticket"]
    assert made.get_json()["url"].endswith(f"/api/events/{eid}/stream?ticket={ticket}")
    ann = open_stream(streams, eid, query=f"ticket={ticket}").until_version(5)
    mine = {i["player"]: i for i in ann.items() if i["type"] == "registered"}
    assert "decklist" in mine["ann"] and "decklist" not in mine["bob"]
    again = open_stream(streams, eid, query=f"ticket={ticket}")
    assert again.status == 401 and "already used" in again.wait(lambda s: s.ended).text


def test_a_wrong_token_or_no_event_is_refused(streams: AsgiServer, event: dict[str, Any]) -> None:
    assert open_stream(streams, event["event_id"], "not-a-token").status == 401
    assert open_stream(streams, "00000000-0000-0000-0000-000000000000").status == 404
    assert open_stream(streams, "not-an-id").status == 404


def test_the_workers_send_a_stream_to_the_stream_process(
    app: Flask, client: FlaskClient, event: dict[str, Any]
) -> None:
    eid = event["event_id"]
    assert client.get(f"/api/events/{eid}/stream").status_code == 503
    app.config["MUNCHLOG_STREAM_PORT"] = 9
    moved = client.get(f"/api/events/{eid}/stream", headers=bearer(event["judge_token"]))
    assert moved.status_code == 307
    assert f"/api/events/{eid}/stream?ticket=" in moved.headers["Location"]
    assert client.get(f"/api/events/{eid}/stream", headers=bearer("nope")).status_code == 401


class ResultReported:
    """A stored event class the stream has no view of (another module's)."""

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)


def test_an_event_class_with_no_view_shows_only_its_round_and_table_to_others() -> None:
    stored = ResultReported(
        originator_id="x",
        originator_version=9,
        timestamp=None,
        player="ann",
        round=2,
        table=3,
        wins=2,
        token_hash="h",
        at="t",
    )
    shown = message(stored, Caller("player", "bob"))
    assert shown == {"version": 9, "type": "result_reported", "round": 2, "table": 3, "at": "t"}
    own = message(stored, Caller("player", "ann"))
    assert own is not None and own["wins"] == 2 and "token_hash" not in own
    staff = message(stored, Caller("judge"))
    assert staff is not None and staff["wins"] == 2 and "token_hash" not in staff
