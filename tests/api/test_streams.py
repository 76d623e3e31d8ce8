"""``GET /api/games/<id>/stream`` (issue #26 item 3) on the stream process's ASGI app, driven in
this process (tests/streams.py): every event once, in order, as ``GET /events`` shows it to the
same viewer; resuming by ``Last-Event-ID`` or ``?after=``; tickets; errors; heartbeats; the
spectator delay. Over real HTTP (granian, the redirect, nginx): test_streams_live.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain import find_ruleset
from domain.family import family_of
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.service.helpers import play_demo
from tests.streams import AsgiServer

#: Following the log is the store's (PostgreSQL: LISTEN/NOTIFY; SQLite: polling): the streams'
#: own behaviour runs on both; what does not depend on it (tickets, refusals) on SQLite only.
AGNOSTIC = pytest.mark.storage_agnostic


@pytest.fixture
def streams(app: Flask) -> Iterator[AsgiServer]:
    server = AsgiServer(app, poll=0.01)
    yield server
    server.close()


def record_more(client: FlaskClient, app: Flask, gid: Any, table: str, n: int, seed: int) -> int:
    """Record ``n`` commands as the demo chooses them (``Family.demo_next``: legal, seeded,
    never a concession) with the table's token; the game's version after."""
    rng = random.Random(seed)
    log = app.extensions["munchlog"]
    for _ in range(n):
        state = log.game(UUID(str(gid))).state
        if state["status"] == "finished":
            break
        command = family_of(find_ruleset(state["ruleset"])).demo_next(state, rng)
        if command is None:
            break
        body = {"actions": [command], "expected_version": state["version"]}
        response = client.post(f"/api/games/{gid}/actions", json=body, headers=bearer(table))
        assert response.status_code == 201, response.get_json()
    return int(log.current_version(UUID(str(gid))))


def events_for(client: FlaskClient, gid: Any, token: str | None) -> list[dict[str, Any]]:
    response = client.get(f"/api/games/{gid}/events?limit=1000", headers=bearer(token))
    assert response.status_code == 200
    return list(response.get_json()["events"])


def viewers(game: Any) -> dict[str, str | None]:
    seats = {s: game.tokens[s] for s in game.tokens if s not in ("table", "judge")}
    return {
        **seats,
        "table": game.tokens["table"],
        "judge": game.tokens["judge"],
        "spectator": None,
        "organizer": ORGANIZER_TOKEN,
    }


@pytest.mark.parametrize("ruleset", ["munchkin-ccg", "munchkin-deluxe"])
def test_every_viewer_gets_every_event_once_in_order_as_events_shows_it(
    app: Flask, client: FlaskClient, streams: AsgiServer, ruleset: str
) -> None:
    game = play_demo(app.extensions["munchlog"], seed=5, max_actions=8, ruleset=ruleset)
    gid = game.game_id
    opened = {who: streams.open(gid, token=token) for who, token in viewers(game).items()}
    for stream in opened.values():
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["x-accel-buffering"] == "no"
    current = record_more(client, app, gid, game.tokens["table"], 25, seed=1)
    for who, token in viewers(game).items():
        stream = opened[who].until_version(current)
        assert stream.ids() == list(range(1, current + 1)), who
        assert stream.items() == events_for(client, gid, token), who
    # seat A's stream holds A's hand; B's does not (the redaction is per viewer)
    assert opened["A"].items() != opened["B"].items()


def test_resuming_loses_and_repeats_nothing(
    app: Flask, client: FlaskClient, streams: AsgiServer
) -> None:
    game = play_demo(app.extensions["munchlog"], seed=6, max_actions=6)
    gid, b = game.game_id, game.tokens["B"]
    first = streams.open(gid, token=b)
    v1 = record_more(client, app, gid, game.tokens["table"], 6, seed=2)
    first.until_version(v1).close()  # the connection drops
    seen = first.ids()
    v2 = record_more(client, app, gid, game.tokens["table"], 6, seed=3)
    resumed = streams.open(gid, token=b, last_id=seen[-1]).until_version(v2)
    assert seen + resumed.ids() == list(range(1, v2 + 1))
    assert first.items() + resumed.items() == events_for(client, gid, b)
    # ?after= does the same; Last-Event-ID (what EventSource sends) wins over it
    by_query = streams.open(gid, token=b, query=f"after={v1 - 2}").until_version(v2)
    assert by_query.ids() == list(range(v1 - 1, v2 + 1))
    both = streams.open(gid, token=b, query="after=1", last_id=v2 - 1).until_version(v2)
    assert both.ids() == [v2]


@AGNOSTIC
def test_a_ticket_streams_as_its_viewer_once(
    app: Flask, client: FlaskClient, streams: AsgiServer
) -> None:
    game = play_demo(app.extensions["munchlog"], seed=7, max_actions=10)
    gid, a = game.game_id, game.tokens["A"]
    made = client.post(f"/api/games/{gid}/stream-tickets", headers=bearer(a))
    assert made.status_code == 201
    ticket = made.get_json()["ticket"]
    assert made.get_json()["expires_in"] == 60 and a not in made.get_json()["url"]
    stream = streams.open(gid, query=f"ticket={ticket}")
    assert stream.until_version(10).items() == events_for(client, gid, a)
    again = streams.open(gid, query=f"ticket={ticket}")
    assert again.status == 401 and '"auth/invalid_ticket"' in again.wait(lambda s: s.ended).text
    assert "already used" in again.text
    # another game's ticket, and a forged one
    other = play_demo(app.extensions["munchlog"], seed=8, max_actions=2)
    elsewhere = client.post(f"/api/games/{other.game_id}/stream-tickets", headers=bearer(a))
    assert elsewhere.status_code == 401  # A's token is not a token of the other game
    theirs = client.post(
        f"/api/games/{other.game_id}/stream-tickets", headers=bearer(other.tokens["A"])
    ).get_json()["ticket"]
    assert streams.open(gid, query=f"ticket={theirs}").status == 401
    forged = ticket[:-4] + ("AAAA" if not ticket.endswith("AAAA") else "BBBB")
    assert streams.open(gid, query=f"ticket={forged}").status == 401


@AGNOSTIC
@pytest.mark.parametrize(
    ("path", "headers", "query", "status", "code"),
    [
        (
            "/api/games/{gid}/stream",
            [(b"authorization", b"Bearer nope")],
            "",
            401,
            "auth/invalid_token",
        ),
        (
            "/api/games/{gid}/stream",
            [(b"authorization", b"Basic x")],
            "",
            401,
            "auth/malformed_header",
        ),
        ("/api/games/{other}/stream", [], "", 404, "game/not_found"),
        ("/api/games/not-a-uuid/stream", [], "", 404, "game/not_found"),
        ("/api/games/{gid}/stream", [], "after=-1", 400, "request/invalid_query"),
        ("/api/games/{gid}/stream", [], "after=x", 400, "request/invalid_query"),
        ("/api/games/{gid}/stream", [(b"last-event-id", b"1e3")], "", 400, "request/invalid_query"),
        ("/api/games/{gid}/events", [], "", 404, "request/not_found"),
        ("/", [], "", 404, "request/not_found"),
    ],
)
def test_what_the_stream_process_refuses_is_one_clear_json_error(
    app: Flask,
    streams: AsgiServer,
    path: str,
    headers: list[tuple[bytes, bytes]],
    query: str,
    status: int,
    code: str,
) -> None:
    game = play_demo(app.extensions["munchlog"], seed=9, max_actions=2)
    url = path.format(gid=game.game_id, other=UUID(int=5))
    answer = streams.request(url, headers=headers, query=query).wait(lambda s: s.ended)
    assert answer.status == status
    assert answer.headers["content-type"] == "application/json"
    import json

    error = json.loads(answer.text)["error"]
    assert error["code"] == code and error["message"]


@AGNOSTIC
def test_only_get_streams_and_the_health_check_counts_them(app: Flask, streams: AsgiServer) -> None:
    game = play_demo(app.extensions["munchlog"], seed=9, max_actions=2)
    posted = streams.request(f"/api/games/{game.game_id}/stream", method="POST")
    assert posted.wait(lambda s: s.ended).status == 405
    open_one = streams.open(game.game_id).until_version(game.version)
    health = streams.request("/healthz").wait(lambda s: s.ended)
    assert health.status == 200 and '"streams": 1' in health.text
    open_one.close()
    health = streams.request("/healthz").wait(lambda s: s.ended)
    assert '"streams": 0' in health.text


def scrape(streams: AsgiServer) -> dict[str, float]:
    """The stream process's ``GET /metrics``, its stream series by name and labels."""
    answer = streams.request("/metrics").wait(lambda s: s.ended)
    assert answer.status == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {
        name: float(value)
        for name, _, value in (line.rpartition(" ") for line in answer.text.splitlines())
        if name.startswith("munchlog_stream")
    }


def test_the_stream_process_counts_its_streams_for_metrics(
    app: Flask, client: FlaskClient, streams: AsgiServer
) -> None:
    game = play_demo(app.extensions["munchlog"], seed=14, max_actions=3)
    gid = game.game_id
    before = scrape(streams)
    seat = streams.open(gid, token=game.tokens["A"]).until_version(game.version)
    watcher = streams.open(gid).until_version(game.version)
    judge = streams.open(gid, token=game.tokens["judge"]).until_version(game.version)
    current = record_more(client, app, gid, game.tokens["table"], 3, seed=6)
    for stream in (seat, watcher, judge):
        stream.until_version(current)
    seat.close()
    after = scrape(streams)

    def grew(name: str) -> float:
        return after[name] - before.get(name, 0.0)

    assert after["munchlog_streams_open"] == 2
    assert grew('munchlog_streams_opened_total{viewer="seat"}') == 1
    assert grew('munchlog_streams_opened_total{viewer="spectator"}') == 1
    assert grew('munchlog_streams_opened_total{viewer="judge"}') == 1
    assert grew('munchlog_streams_opened_total{viewer="table"}') == 0
    assert grew('munchlog_streams_closed_total{reason="client_gone"}') == 1
    # each stream: its opening comment, then at least one write of events
    assert grew("munchlog_stream_writes_total") >= 6
    sent = sum(len(s.text.encode()) for s in (seat, watcher, judge))
    assert grew("munchlog_stream_written_bytes_total") >= sent
    assert grew("munchlog_stream_reads_total") >= 1
    assert grew("munchlog_stream_waiting_writes_total") == 0
    text = streams.request("/metrics").wait(lambda s: s.ended).text
    assert all(t not in text for t in game.tokens.values())  # no token in a label


def test_a_client_that_reads_slowly_gets_everything_once_in_order(
    app: Flask, client: FlaskClient, streams: AsgiServer
) -> None:
    """A write the connection makes wait does not stop the game's other streams, and what
    comes for the slow one meanwhile waits in order and goes in one write."""
    game = play_demo(app.extensions["munchlog"], seed=12, max_actions=4)
    gid, table = game.game_id, game.tokens["table"]
    slow = streams.open(gid, token=game.tokens["A"]).until_version(game.version)
    other = streams.open(gid, token=game.tokens["A"]).until_version(game.version)
    slow.hold()
    v1 = record_more(client, app, gid, table, 1, seed=4)
    slow.wait(lambda s: s.waiting == 1)  # its write waits on the connection
    writes = slow.writes
    v2 = v1
    for step in range(4):  # chunks the pump has for it while it waits
        v2 = record_more(client, app, gid, table, 1, seed=5 + step)
        other.until_version(v2)  # the other stream of the same viewer is not held up
    assert slow.ids()[-1] == game.version and slow.writes == writes
    slow.release()
    slow.until_version(v2)
    assert slow.ids() == list(range(1, v2 + 1))
    assert slow.items() == events_for(client, gid, game.tokens["A"])
    assert slow.writes == writes + 2  # the write that waited, then all that came meanwhile


def test_a_client_that_stops_reading_is_closed_and_resumes(
    app: Flask, client: FlaskClient, streams: AsgiServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("api.streams.process.MAX_BACKLOG", 2)
    game = play_demo(app.extensions["munchlog"], seed=13, max_actions=4)
    gid, table = game.game_id, game.tokens["table"]
    before = scrape(streams)
    stuck = streams.open(gid, token=game.tokens["B"]).until_version(game.version)
    live = streams.open(gid, token=game.tokens["B"]).until_version(game.version)
    stuck.hold()
    current = game.version
    for step in range(5):  # one chunk each (the live stream got it): more than 2 wait
        current = record_more(client, app, gid, table, 1, seed=30 + step)
        live.until_version(current)
    assert streams.app.hub.open_streams() == 1  # the stuck one is closed
    after = scrape(streams)
    closed = 'munchlog_streams_closed_total{reason="too_far_behind"}'
    assert after[closed] - before.get(closed, 0) == 1
    waited = "munchlog_stream_waiting_writes_total"
    assert after[waited] - before.get(waited, 0) == 1
    stuck.release()
    stuck.wait(lambda s: s.ended)
    got = stuck.ids()
    assert got == list(range(1, got[-1] + 1)) and got[-1] < current
    resumed = streams.open(gid, token=game.tokens["B"], last_id=got[-1]).until_version(current)
    assert got + resumed.ids() == list(range(1, current + 1))


@AGNOSTIC
def test_an_idle_stream_sends_a_heartbeat(app: Flask, streams: AsgiServer) -> None:
    game = play_demo(app.extensions["munchlog"], seed=10, max_actions=2)
    streams.app.hub.heartbeat = 0.05
    stream = streams.open(game.game_id).until_version(game.version)
    stream.wait(lambda s: s.text.count(": heartbeat\n\n") >= 2, 5)
    assert stream.ids() == list(range(1, game.version + 1))  # and no event more


@pytest.mark.parametrize("n", [1, 3])
def test_a_delayed_spectator_stream_is_exactly_n_events_behind(
    app: Flask, client: FlaskClient, streams: AsgiServer, n: int
) -> None:
    game = play_demo(
        app.extensions["munchlog"],
        seed=11,
        max_actions=6,
        extra={"spectator_delay": {"events": n}},
    )
    gid = game.game_id
    live = streams.open(gid, token=game.tokens["judge"])
    held = {
        who: streams.open(gid, token=t)
        for who, t in (("spectator", None), ("organizer", ORGANIZER_TOKEN))
    }
    for step in range(6):
        current = record_more(client, app, gid, game.tokens["table"], 1, seed=20 + step)
        live.until_version(current)
        for who, stream in held.items():
            stream.until_version(current - n)
            assert stream.ids() == list(range(1, current - n + 1)), (who, step)
            assert stream.items() == events_for(
                client, gid, None if who == "spectator" else ORGANIZER_TOKEN
            )
