"""A venue's events mirrored (issue #41): its tournament's own records, beside its games.

The venue is an app on its own SQLite file (``tests.api.test_mirrors.venue``); the public server
is the test's ``backend`` (SQLite and PostgreSQL); the publisher runs in this process, sending
through the public app's test client. The public side then shows the event (its summary, its
standings, its export, its page) as the venue shows it to a spectator; no token of the venue
works there; every write to the copy is refused; and a forged batch of event records is refused
and changes nothing.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adapters.mirror_feed import feed_since
from api.app import create_app
from domain.tournament.aggregate import Tournament
from service.errors import NotAllowedError
from service.event_keeper import EventKeeper
from service.games import GameLog
from service.mirrors import mirror_of_token
from service.publisher import LinkDown, Publisher
from service.tournaments import Tournaments
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_exports import verify
from tests.api.test_events import deck, my_game, open_event, pair, play_round, register
from tests.api.test_mirrors import open_mirror
from tests.api.test_publish import flask_send
from tests.streams import AsgiServer

NAMES = [f"p{i}" for i in range(6)]


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[Flask]:
    """The venue: an app on its own SQLite file, with the tests' organizer token (the event
    helpers' own; on the public side it is the public organizer's, a spectator of a copy)."""
    made = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "venue-instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
            "MUNCHLOG_DATABASE_URL": str(tmp_path / "venue.sqlite"),
        }
    )
    yield made
    made.extensions["munchlog"].close()


def venue_event(here: FlaskClient, *, rounds: int = 2, played: int = 1) -> dict[str, Any]:
    """A classic event of six players (two tables of three) on the venue: ``played`` rounds
    played to the end, the next one paired and its clock started (a live round)."""
    event = open_event(here, ruleset="munchkin-deluxe", rounds=rounds, round_minutes=50)
    eid = event["event_id"]
    tokens = {p: register(here, eid, p, hero=None, decklist=None) for p in NAMES}
    for number in range(1, played + 2):
        paired = pair(here, eid)
        if number <= played:
            play_round(here, eid, number, tokens, paired)
    clock = here.post(
        f"/api/events/{eid}/clock", json={"action": "start"}, headers=bearer(ORGANIZER_TOKEN)
    )
    assert clock.status_code in (200, 201), clock.get_json()
    return {"eid": eid, "judge": event["judge_token"], "tokens": tokens}


def without_seconds_left(event: Any) -> Any:
    """``event`` but its clock's ``remaining_s``, which the two reads may see a second apart
    (3000 and 2999: CI at 23:26); the deadline it counts down to is compared."""
    clock = event.get("clock") if isinstance(event, dict) else None
    return {**event, "clock": {**clock, "remaining_s": None}} if clock else event


def reads_alike(public: FlaskClient, venue: FlaskClient, path: str) -> bool:
    """Whether ``path`` reads the same on the public side and on the venue (anonymous, but the
    clock's seconds left: :func:`without_seconds_left`)."""
    theirs, mine = public.get(path).get_json(), venue.get(path).get_json()
    return bool(without_seconds_left(theirs) == without_seconds_left(mine))


def publish(
    venue_app: Flask, client: FlaskClient, events: list[str] | None = None
) -> tuple[dict[str, str], Publisher]:
    """A new mirror on ``client``'s server and the venue published to it (only ``events``, each
    with its games, when named)."""
    mirror = open_mirror(client)
    log: GameLog = venue_app.extensions["munchlog"]
    send = flask_send(client, mirror["token"])
    publisher = Publisher(log, send, mirror["mirror_id"], events=events or (), say=print)
    publisher.run(threading.Event(), once=True)
    assert publisher.caught_up()
    return mirror, publisher


def test_a_venue_s_event_reads_on_the_public_side_as_its_spectators_read_it(
    client: FlaskClient, venue: Flask, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    here = venue.test_client()
    event = venue_event(here)
    eid = event["eid"]
    mirror, _ = publish(venue, client)
    status = client.get(f"/api/mirrors/{mirror['mirror_id']}", headers=bearer(ORGANIZER_TOKEN))
    assert status.get_json()["events"] == [eid]
    for read in ("", "/standings"):
        mine = here.get(f"/api/events/{eid}{read}")
        theirs = client.get(f"/api/events/{eid}{read}")
        assert mine.status_code == 200 and theirs.status_code == 200, (read, theirs.get_json())
        assert without_seconds_left(theirs.get_json()) == without_seconds_left(mine.get_json())
    mine = here.get(f"/api/events/{eid}/export").get_json()
    theirs = client.get(f"/api/events/{eid}/export").get_json()
    assert mine.pop("exported_at") <= theirs.pop("exported_at")
    assert theirs == mine and len(theirs["games"]) == 4
    capsys.readouterr()  # the publisher's lines
    assert verify(tmp_path, theirs, capsys) == verify(tmp_path, mine, capsys)
    organizer = client.get(f"/api/events/{eid}/export", headers=bearer(ORGANIZER_TOKEN))
    assert {**organizer.get_json(), "exported_at": None} == {**mine, "exported_at": None}
    assert client.get(f"/events/{eid}").status_code == 200  # the event's page
    more = here.post(
        f"/api/events/{eid}/drops", json={"player": "p0"}, headers=bearer(ORGANIZER_TOKEN)
    )
    assert more.status_code in (200, 201), more.get_json()
    publish_again = Publisher(
        venue.extensions["munchlog"],
        flask_send(client, mirror["token"]),
        mirror["mirror_id"],
        say=print,
    )
    publish_again.run(threading.Event(), once=True)
    assert reads_alike(client, here, f"/api/events/{eid}")


def test_no_venue_token_works_on_the_copy_and_nobody_writes_to_it(
    client: FlaskClient, venue: Flask
) -> None:
    here = venue.test_client()
    event = venue_event(here, played=0)
    eid = event["eid"]
    player = event["tokens"]["p1"]
    seat = my_game(here, eid, 1, player)
    publish(venue, client)
    for token in (player, event["judge"], seat["token"]):
        for path in (f"/api/events/{eid}", f"/api/events/{eid}/export"):
            assert client.get(path, headers=bearer(token)).status_code == 401, (token, path)
    refused = client.get(f"/api/events/{eid}/rounds/1/my-game", headers=bearer(player))
    assert refused.status_code == 401
    acted = client.post(
        f"/api/games/{seat['game_id']}/actions",
        json={"actions": [{"type": "concede", "seat": seat["seat"]}]},
        headers=bearer(seat["token"]),
    )
    assert acted.status_code == 401
    writes = [
        ("/rounds", None),
        ("/players", {"player": "late"}),
        ("/drops", {"player": "p1"}),
        ("/clock", {"action": "pause"}),
    ]
    before = client.get(f"/api/events/{eid}").get_json()
    for path, body in writes:
        answer = client.post(f"/api/events/{eid}{path}", json=body, headers=bearer(ORGANIZER_TOKEN))
        assert answer.status_code == 403, (path, answer.get_json())
        assert answer.get_json()["error"]["code"] == "mirror/read_only", path
        by_player = client.post(f"/api/events/{eid}{path}", json=body, headers=bearer(player))
        assert by_player.status_code == 401, path
    assert client.get(f"/api/events/{eid}").get_json() == before
    public_log: GameLog = client.application.extensions["munchlog"]
    stored: Any = public_log.store.load(UUID(eid))
    assert isinstance(stored, Tournament)
    hashes = [stored.judge_token_hash] + [p["token_hash"] for p in stored.players.values()]
    assert set(hashes) == {""}  # no token hash of the venue's left the venue
    with pytest.raises(NotAllowedError) as refusal:  # the service refuses too
        Tournaments(public_log).drop(UUID(eid), "p2", "organizer")
    assert refusal.value.code == "mirror/read_only"
    version = stored.version
    keeper = EventKeeper(Tournaments(public_log))
    assert keeper.run_due("2999-01-01T00:00:00.000000+00:00") == []  # its clock: the venue's
    assert public_log.store.load(UUID(eid)).version == version  # type: ignore[union-attr]
    assert (
        client.get(f"/api/games/{seat['game_id']}/state").get_json()["version"]
        == (here.get(f"/api/games/{seat['game_id']}/state").get_json()["version"])
    )


def _push(client: FlaskClient, mirror: dict[str, str], events: list[dict[str, Any]]) -> Any:
    body = {"records": [], "events": events, "position": 1, "head": 1}
    return client.post(
        f"/api/mirrors/{mirror['mirror_id']}/batches", json=body, headers=bearer(mirror["token"])
    )


def test_forged_event_records_are_refused_and_change_nothing(
    client: FlaskClient, venue: Flask
) -> None:
    here = venue.test_client()
    event = venue_event(here, played=0)
    eid = event["eid"]
    log: GameLog = venue.extensions["munchlog"]
    found = [
        {"event_id": i, **r}
        for _, kind, i, r in feed_since(log.store, 0, 10_000)
        if kind == "event"
    ]
    assert [r["version"] for r in found] == list(range(1, len(found) + 1)) and len(found) >= 8
    mirror = open_mirror(client)
    first = _push(client, mirror, found[:3])
    assert first.status_code == 201, first.get_json()
    rest = found[3:]

    def hashed(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        forged = copy.deepcopy(records)
        forged[1]["fields"]["token_hash"] = "ab" * 32
        return forged

    def extra(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        forged = copy.deepcopy(records)
        forged[0]["fields"]["surprise"] = 1
        return forged

    def unknown(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        forged = copy.deepcopy(records)
        forged[0]["topic"] = "domain.tournament.aggregate:TournamentSecrets.Drawn"
        return forged

    def reopened(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        forged = copy.deepcopy(records)
        forged[0]["topic"], forged[0]["fields"] = found[0]["topic"], found[0]["fields"]
        return forged

    def listed(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        forged = copy.deepcopy(records)
        registration = next(r for r in forged if "decklist" in r["fields"])
        registration["fields"]["decklist"] = [{"name": "a card"}]
        return forged

    forgeries = {
        "not_contiguous": rest[:1] + rest[2:],  # a record dropped
        "not_next": rest[1:],  # the first left out
        "token_hash": hashed(rest),
        "decklist": listed(rest),
        "does_not_apply": extra(rest),
        "unknown_topic": unknown(rest),
        "not_created": reopened(rest),
    }
    swapped = rest[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    forgeries["not_next"] = swapped  # reordered
    before = client.get(f"/api/events/{eid}").get_json()
    for reason, forged in forgeries.items():
        answer = _push(client, mirror, forged)
        assert answer.status_code == 409, (reason, answer.get_json())
        error = answer.get_json()["error"]
        assert (error["code"], error["reason"], error["event_id"], error["version"]) == (
            "mirror/does_not_extend",
            reason,
            eid,
            3,
        )
        assert client.get(f"/api/events/{eid}").get_json() == before
    not_an_id = _push(client, mirror, [{**rest[0], "event_id": "round-1"}])
    assert not_an_id.status_code == 400, not_an_id.get_json()
    other = open_mirror(client)
    stolen = _push(client, other, rest)
    assert stolen.status_code == 403
    assert stolen.get_json()["error"]["code"] == "auth/not_this_mirror"
    assert mirror_of_token(other["token"]) == other["mirror_id"]
    done = _push(client, mirror, rest)
    assert done.status_code == 201, done.get_json()
    public_log: GameLog = client.application.extensions["munchlog"]
    assert public_log.store.load(UUID(eid)).version == len(found)  # type: ignore[union-attr]


def test_a_batch_of_games_and_events_whose_answer_the_link_lost_is_not_sent_twice(
    client: FlaskClient, venue: Flask
) -> None:
    """Every batch is stored but its answer lost, once each: the 409s naming a game's or an
    event's version held make the publisher leave out what the copy holds, and it goes on."""
    here = venue.test_client()
    event = venue_event(here, played=1)
    eid = event["eid"]
    mirror = open_mirror(client)
    through = flask_send(client, mirror["token"])
    lost: list[int] = []
    answered: list[int] = []  # every other stored batch's answer is lost

    def send(method: str, path: str, body: Any) -> tuple[int, Any]:
        status, answer = through(method, path, body)
        if method == "POST" and status == 201 and len(lost) <= len(answered):
            lost.append(status)
            raise LinkDown("the answer was lost")
        if method == "POST" and status == 201:
            answered.append(status)
        return status, answer

    log: GameLog = venue.extensions["munchlog"]
    publisher = Publisher(log, send, mirror["mirror_id"], say=print, batch=5)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("service.publisher.RETRY_SECONDS", 0.0)
        publisher.run(threading.Event(), once=True)
    assert len(lost) >= 2
    assert reads_alike(client, here, f"/api/events/{eid}")
    total = len(feed_since(log.store, 0, 10_000))
    status = client.get(f"/api/mirrors/{mirror['mirror_id']}", headers=bearer(ORGANIZER_TOKEN))
    assert status.get_json()["records"] == total  # each record stored once


def test_a_ccg_event_s_copy_shows_no_decklist_and_streams_as_the_venue_s(
    client: FlaskClient, venue: Flask
) -> None:
    """The venue's organizer sees every decklist; the public organizer, a spectator of the
    copy, sees none: every public read of the copy is the venue's spectator's, its event
    stream too (the stream process, driven in this process: tests/streams.py)."""
    here = venue.test_client()
    made = open_event(here, rounds=1)
    eid = made["event_id"]
    for player in ("ann", "bob", "cat"):
        register(here, eid, player)
    pair(here, eid)
    publish(venue, client)
    spectator = here.get(f"/api/events/{eid}/export").get_json()
    lists = here.get(f"/api/events/{eid}/export", headers=bearer(ORGANIZER_TOKEN)).get_json()
    card = deck()[0]["name"]
    assert card in json.dumps(lists) and '"decklist": [' in json.dumps(lists)  # its organizer's
    assert card not in json.dumps(spectator)
    public_log: GameLog = client.application.extensions["munchlog"]
    stored: Any = public_log.store.load(UUID(eid))
    assert [(p["hero"], p["decklist"]) for p in stored.players.values()] == [(None, None)] * 3
    for token in (None, ORGANIZER_TOKEN):
        for path in ("", "/export", "/standings"):
            theirs = client.get(f"/api/events/{eid}{path}", headers=bearer(token)).get_json()
            mine = here.get(f"/api/events/{eid}{path}").get_json()
            if path == "/export":
                theirs["exported_at"] = mine["exported_at"]
            assert without_seconds_left(theirs) == without_seconds_left(mine), (token, path)
            assert card not in json.dumps(theirs) and '"decklist": [' not in json.dumps(theirs)
    server = AsgiServer(client.application, poll=0.01)
    venue_server = AsgiServer(venue, poll=0.01)
    try:
        version = Tournaments(venue.extensions["munchlog"]).load(UUID(eid)).version
        theirs_stream = server.request(f"/api/events/{eid}/stream").until_version(version)
        mine_stream = venue_server.request(f"/api/events/{eid}/stream").until_version(version)
        assert theirs_stream.items() == mine_stream.items() and theirs_stream.items()
        assert theirs_stream.ids() == mine_stream.ids()
    finally:
        server.close()
        venue_server.close()


def test_publishing_one_event_sends_it_and_its_games_only(
    client: FlaskClient, venue: Flask
) -> None:
    """``munchlog publish --event ID``: that event and the games of its rounds; another event
    and its games stay on the venue."""
    here = venue.test_client()
    chosen, other = venue_event(here, played=0), venue_event(here, played=0)
    mirror, _ = publish(venue, client, events=[chosen["eid"]])
    venue_games = {
        eid: [
            g
            for r in here.get(f"/api/events/{eid}").get_json()["rounds"]
            for p in r["pairings"]
            for g in p["games"]
        ]
        for eid in (chosen["eid"], other["eid"])
    }
    assert venue_games[chosen["eid"]] and venue_games[other["eid"]]
    status = client.get(f"/api/mirrors/{mirror['mirror_id']}", headers=bearer(ORGANIZER_TOKEN))
    assert status.get_json()["events"] == [chosen["eid"]]
    assert sorted(status.get_json()["games"]) == sorted(venue_games[chosen["eid"]])
    assert client.get(f"/api/events/{other['eid']}").status_code == 404
    for game_id in venue_games[other["eid"]]:
        assert client.get(f"/api/games/{game_id}/state").status_code == 404
    assert reads_alike(client, here, f"/api/events/{chosen['eid']}")
