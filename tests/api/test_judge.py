"""The judge's tools over HTTP: replay any moment as any viewer (``?as=``), who may open a
dispute or rule, the routes' bodies, tamper evidence, and the replay viewer page.

What the tools do (replays, disputes, rulings, backups, corrections) is tested as use cases in
``tests/service/test_judging.py``. These tests show what only HTTP can, the same on any store
(``storage_agnostic``: SQLite only), except a row edited in each database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.cli.demo import DemoResult
from api.json_api.schemas import StateViewSchema
from tests.api.helpers import ORGANIZER_TOKEN, bearer, demo_game, version_of

ACTIONS = 40


@pytest.fixture
def game(app: Flask) -> DemoResult:
    """A demo game stopped in play after ``ACTIONS`` actions."""
    return demo_game(app, seed=1, max_actions=ACTIONS)


def get(client: FlaskClient, game: DemoResult, path: str, who: str | None = "judge") -> Any:
    token = game.tokens.get(who or "", ORGANIZER_TOKEN if who else None)
    response = client.get(f"/api/games/{game.game_id}{path}", headers=bearer(token))
    assert response.status_code == 200, (path, response.get_json())
    return response.get_json()


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_json()
    body: dict[str, Any] = response.get_json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    return body


def post(client: FlaskClient, game: DemoResult, path: str, body: Any, who: str) -> Any:
    return client.post(
        f"/api/games/{game.game_id}{path}", json=body, headers=bearer(game.tokens.get(who))
    )


def played_turns(client: FlaskClient, game: DemoResult) -> dict[int, dict[str, int]]:
    return {int(t): r for t, r in get(client, game, "/timeline")["turns"].items()}


def dumped(state: dict[str, Any]) -> Any:
    """A full state view as ``GET /state`` shows it (its schema keeps the documented fields)."""
    return StateViewSchema().dump(state)


def hand_names(state: dict[str, Any], seat: str) -> set[str]:
    return {c["name"] for c in state["seats"][seat]["hand"]}


# ---------------------------------------------------------------------------- replay


@pytest.mark.storage_agnostic
def test_the_replay_routes_show_the_states_of_the_state_route_and_refuse_what_is_not_there(
    client: FlaskClient, game: DemoResult
) -> None:
    """The bodies of ``/turns/<n>``, ``/events/<v>`` and ``/timeline`` (the replays themselves:
    tests/service/test_judging.py), and their 400 and 404s."""
    turns = played_turns(client, game)
    first, last = turns[1]["first"], turns[1]["last"]
    body = get(client, game, "/turns/1")
    assert body["versions"] == list(range(first, last + 1)) and body["viewer"] == "judge"
    assert [e["version"] for e in body["events"]] == body["versions"]
    assert dumped(body["before"]) == get(client, game, f"/state?at={first - 1}")
    assert dumped(body["after"]) == get(client, game, f"/state?at={last}")
    assert {"moved", "damage", "zapped", "tokens", "seats", "table", "fight"} <= set(body["diff"])
    assert get(client, game, "/turns/0")["before"] is None
    event = get(client, game, f"/events/{last}")
    assert event["event"]["version"] == last and event["turn"] == 1 and event["narration"]
    assert dumped(event["state"]) == get(client, game, f"/state?at={last}")
    assert event["diff"]["versions"] == [last - 1, last]
    timeline = get(client, game, "/timeline", who="B")
    assert timeline["viewer"] == "B" and timeline["version"] == game.version
    assert timeline["series"] and timeline["disputes"] == []
    gid = game.game_id
    error(client.get(f"/api/games/{gid}/state?turn=99"), 404, "game/turn_not_found")
    error(client.get(f"/api/games/{gid}/state?turn=1&at=3"), 400, "request/invalid_query")
    error(client.get(f"/api/games/{gid}/turns/99"), 404, "game/turn_not_found")
    error(client.get(f"/api/games/{gid}/events/{game.version + 1}"), 404, "game/version_not_found")


@pytest.mark.storage_agnostic
def test_a_judge_sees_any_point_as_either_seat_saw_it_or_omnisciently(
    client: FlaskClient, game: DemoResult
) -> None:
    at = played_turns(client, game)[1]["last"]
    judge = get(client, game, f"/state?at={at}")
    as_a = get(client, game, f"/state?at={at}&as=A")
    as_b = get(client, game, f"/state?at={at}&as=B")
    assert "hand" in judge["seats"]["A"] and "hand" in judge["seats"]["B"]
    assert as_a == get(client, game, f"/state?at={at}", who="A")
    assert as_b == get(client, game, f"/state?at={at}", who="B")
    assert "hand" not in as_b["seats"]["A"] and "hand" in as_b["seats"]["B"]
    assert hand_names(as_a, "A") == hand_names(judge, "A")
    turn_as_b = get(client, game, "/turns/1?as=B")
    assert turn_as_b == get(client, game, "/turns/1", who="B")
    assert get(client, game, f"/events/{at}?as=A") == get(client, game, f"/events/{at}", who="A")


@pytest.mark.storage_agnostic
@pytest.mark.parametrize("path", ["/state?at=5&as={}", "/turns/1?as={}", "/events/5?as={}"])
def test_a_seat_sees_past_points_only_as_itself(
    client: FlaskClient, game: DemoResult, path: str
) -> None:
    for seat, other in (("A", "B"), ("B", "A")):
        for wanted in ("judge", other, "table"):
            response = client.get(
                f"/api/games/{game.game_id}" + path.format(wanted),
                headers=bearer(game.tokens[seat]),
            )
            error(response, 403, "auth/forbidden_view")
    spectator = client.get(f"/api/games/{game.game_id}" + path.format("judge"))
    error(spectator, 403, "auth/forbidden_view")


@pytest.mark.storage_agnostic
def test_no_hand_card_of_the_other_seat_reaches_a_seat_at_any_point(
    client: FlaskClient, game: DemoResult
) -> None:
    checked = 0
    for turn, r in played_turns(client, game).items():
        for seat, other in (("A", "B"), ("B", "A")):
            hand = {
                c["id"] for c in get(client, game, f"/state?turn={turn}")["seats"][seat]["hand"]
            }
            seen = json.dumps(
                [
                    get(client, game, f"/state?turn={turn}", who=other),
                    get(client, game, f"/events/{r['last']}", who=other),
                ]
            )
            assert not [cid for cid in hand if cid in seen], (turn, seat)
            checked += len(hand)
    assert checked
    timeline = get(client, game, "/timeline", who="A")["timeline"]
    public = {"version", "turn", "type", "seat", "cause", "corrects", "undoes", "dispute"}
    assert all(set(e) <= public for e in timeline)


# ---------------------------------------------------------------------------- disputes


@pytest.mark.storage_agnostic
def test_only_the_judge_rules_and_the_disputes_show_each_ruling(
    client: FlaskClient, game: DemoResult
) -> None:
    """Who may rule, and the dispute entries of ``/disputes`` and of the ruling's answer (the
    disputes themselves: tests/service/test_judging.py)."""
    turns = played_turns(client, game)
    opened = post(client, game, "/disputes", {"turn": 1, "statement": "B's <b>ally</b>?"}, "A")
    assert opened.status_code == 201, opened.get_json()
    dispute = opened.get_json()["dispute"]
    assert dispute["status"] == "open" and dispute["raised_by"] == "A"
    assert (dispute["from_version"], dispute["to_version"]) == (turns[1]["first"], turns[1]["last"])
    did = dispute["dispute_id"]
    listed = get(client, game, "/disputes", who="B")["disputes"]
    assert [d["dispute_id"] for d in listed] == [did] and listed[0]["rulings"] == []

    error(
        post(client, game, f"/disputes/{did}/ruling", {"ruling": "x"}, "A"), 403, "auth/judge_only"
    )
    error(
        post(client, game, f"/disputes/{did}/ruling", {"ruling": "x"}, "table"),
        403,
        "auth/judge_only",
    )
    error(
        post(client, game, f"/disputes/{did}/ruling", {"ruling": "x"}, "none"),
        401,
        "auth/missing_token",
    )
    version = version_of(client, game.game_id)
    ruling = {
        "ruling": "B warned",
        "penalty": {"kind": "warning", "seat": "B"},
        "corrections": [{"type": "take_gold", "player": "A", "amount": 3, "corrects": 2}],
    }
    ruled = post(client, game, f"/disputes/{did}/ruling", ruling, "judge")
    assert ruled.status_code == 201, ruled.get_json()
    body = ruled.get_json()
    assert body["version"] == version + 2
    assert [e["type"] for e in body["events"]] == ["JudgeGoldTaken", "RulingRecorded"]
    assert body["dispute"]["status"] == "ruled"
    (entry,) = get(client, game, "/disputes", who="A")["disputes"]
    assert entry == body["dispute"]
    (r,) = entry["rulings"]
    assert r["penalty"] == {"kind": "warning", "seat": "B"}
    assert r["corrections"] == [version + 1] and r["version"] == version + 2
    again = post(client, game, f"/disputes/{did}/ruling", {"ruling": "again"}, "judge")
    error(again, 422, "dispute/already_ruled")


@pytest.mark.storage_agnostic
def test_a_dispute_needs_a_game_token_a_statement_and_a_real_range(
    client: FlaskClient, game: DemoResult
) -> None:
    path = f"/api/games/{game.game_id}/disputes"
    error(client.post(path, json={"statement": "x"}), 401, "auth/missing_token")
    organizer = client.post(path, json={"statement": "x"}, headers=bearer(ORGANIZER_TOKEN))
    error(organizer, 403, "auth/forbidden")
    error(post(client, game, "/disputes", {}, "B"), 400, "request/invalid_body")
    both = {"statement": "x", "turn": 1, "from_version": 3}
    error(post(client, game, "/disputes", both, "B"), 400, "request/invalid_body")
    error(
        post(client, game, "/disputes", {"statement": "x", "turn": 50}, "B"),
        404,
        "game/turn_not_found",
    )
    far = {"statement": "x", "to_version": 10_000}
    error(post(client, game, "/disputes", far, "B"), 404, "game/version_not_found")
    stale = {"statement": "x", "expected_version": 3}
    error(post(client, game, "/disputes", stale, "table"), 409, "game/version_conflict")
    stale_and_far = {**far, "expected_version": 3}  # what the game lacks comes first
    error(post(client, game, "/disputes", stale_and_far, "B"), 404, "game/version_not_found")
    stale_ruling = {"ruling": "x", "expected_version": 3}
    error(
        post(client, game, "/disputes/d99/ruling", stale_ruling, "judge"), 404, "dispute/not_found"
    )
    ok = post(client, game, "/disputes", {"statement": "no range"}, "table")
    assert ok.status_code == 201 and ok.get_json()["dispute"]["from_version"] is None


# ---------------------------------------------------------------------------- tamper evidence


@pytest.mark.storage_agnostic
def test_verify_reports_an_intact_chain_to_every_viewer(
    client: FlaskClient, game: DemoResult
) -> None:
    judge = get(client, game, "/verify")
    assert (
        judge["ok"] is True and judge["checked"] == game.version and judge["first_broken"] is None
    )
    assert len(judge["head"]) == 64 and judge["problems"] == []
    seat = get(client, game, "/verify", who="A")
    assert seat["ok"] is True and "head" not in seat
    spectator = get(client, game, "/verify", who=None)
    assert spectator["checked"] == game.version


def test_verify_finds_exactly_the_event_edited_in_the_database(
    app: Flask, client: FlaskClient, game: DemoResult, backend: dict[str, Any]
) -> None:
    from uuid import UUID

    target = game.version // 2
    url = backend["MUNCHLOG_DATABASE_URL"]
    originator = UUID(game.game_id)
    if url.startswith("postgresql"):  # eventsourcing names the table after the application
        import psycopg

        from tests.conftest import PG_URL

        schema = url.split("schema=")[1]
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            (state,) = conn.execute(
                f'SELECT state FROM "{schema}".gamelog_events '
                "WHERE originator_id = %s AND originator_version = %s",
                (originator, target),
            ).fetchone()
            conn.execute(
                f'UPDATE "{schema}".gamelog_events SET state = %s '
                "WHERE originator_id = %s AND originator_version = %s",
                (tamper(bytes(state)), originator, target),
            )
    else:
        import sqlite3

        with sqlite3.connect(url) as conn:
            (state,) = conn.execute(
                "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                (originator.hex, target),
            ).fetchone()
            conn.execute(
                "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (tamper(state), originator.hex, target),
            )
    body = get(client, game, "/verify")
    assert body == {
        "game_id": game.game_id,
        "ok": False,
        "checked": target - 1,
        "first_broken": {"version": target, "reason": "hash_mismatch"},
        "problems": [
            {
                "row": "event",
                "version": target,
                "reason": "hash_mismatch",
                "detail": "its fields do not give its hash",
            }
        ],
        "head": body["head"],
        "dealing": {"mode": "table", "ok": True, "first_mismatch": None},  # a table's game
    }


def tamper(state: bytes) -> bytes:
    """The stored event (eventsourcing's JSON transcoding, uncompressed) with its
    ``received_at`` moved by a second: the smallest edit a cheat could want."""
    data = json.loads(state)
    stamp = data["received_at"]
    data["received_at"] = stamp[:17] + ("1" if stamp[17] != "1" else "2") + stamp[18:]
    return json.dumps(data, separators=(",", ":")).encode()


# ---------------------------------------------------------------------------- viewer page


@pytest.mark.storage_agnostic
def test_the_viewer_page_is_served_with_its_script_and_style(
    client: FlaskClient, game: DemoResult
) -> None:
    page = client.get(f"/games/{game.game_id}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert 'src="/static/viewer.js"' in html and 'href="/static/viewer.css"' in html
    # the viewer's own verifier (issue #25), before the viewer that uses it
    assert html.index('src="/static/dealing.js"') < html.index('src="/static/chain.js"')
    assert html.index('src="/static/chain.js"') < html.index('src="/static/viewer.js"')
    # the board module both game pages draw with (boards.js, on pages.js), before the viewer
    places = [
        html.index(f'src="/static/{name}"') for name in ("pages.js", "boards.js", "viewer.js")
    ]
    assert places == sorted(places)
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers["Referrer-Policy"] == "no-referrer"
    for asset in ("viewer.js", "viewer.css", "dealing.js", "chain.js"):
        response = client.get(f"/static/{asset}")
        assert response.status_code == 200
        text = response.get_data(as_text=True)
        assert "https://" not in text and "http://" not in text.replace("http://www.w3.org", "")
    error(client.get("/games/00000000-0000-0000-0000-000000000000"), 404, "game/not_found")


@pytest.mark.storage_agnostic
def test_the_judge_routes_are_in_the_openapi_document(client: FlaskClient) -> None:
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path in (
        "/api/games/{game_id}/timeline",
        "/api/games/{game_id}/turns/{turn}",
        "/api/games/{game_id}/events/{version}",
        "/api/games/{game_id}/disputes",
        "/api/games/{game_id}/disputes/{dispute_id}/ruling",
        "/api/games/{game_id}/verify",
    ):
        assert path in paths, path
