"""The judge's tools over HTTP: replay any moment as any viewer, disputes and rulings
as events, backups, tamper evidence, and the replay viewer page. Every test runs on SQLite and
PostgreSQL (``backend`` fixture)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.demo import DemoResult, FlaskTransport, record_demo_game
from api.schemas import StateViewSchema
from tests.api.helpers import ORGANIZER_TOKEN, bearer, version_of

ACTIONS = 40


@pytest.fixture
def game(app: Flask) -> DemoResult:
    """A demo game recorded over HTTP and stopped in play after ``ACTIONS`` actions."""
    return record_demo_game(FlaskTransport(app), ORGANIZER_TOKEN, seed=1, max_actions=ACTIONS)


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


def strip(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "version"}


def dumped(state: dict[str, Any]) -> Any:
    """A full state view as ``GET /state`` shows it (its schema keeps the documented fields)."""
    return StateViewSchema().dump(state)


def hand_names(state: dict[str, Any], seat: str) -> set[str]:
    return {c["name"] for c in state["seats"][seat]["hand"]}


# ---------------------------------------------------------------------------- replay


def test_the_state_at_a_turn_is_the_state_after_its_last_event(
    client: FlaskClient, game: DemoResult
) -> None:
    turns = played_turns(client, game)
    assert set(turns) >= {0, 1, 2}
    for turn, r in turns.items():
        assert get(client, game, f"/state?turn={turn}") == get(
            client, game, f"/state?at={r['last']}"
        )
    as_b = get(client, game, "/state?turn=1&as=B")["seats"]
    assert "hand" not in as_b["A"] and "hand" in as_b["B"]
    error(client.get(f"/api/games/{game.game_id}/state?turn=99"), 404, "game/turn_not_found")
    error(client.get(f"/api/games/{game.game_id}/state?turn=1&at=3"), 400, "request/invalid_query")


def test_a_turn_shows_its_events_the_states_around_it_and_what_changed(
    client: FlaskClient, game: DemoResult
) -> None:
    turns = played_turns(client, game)
    first, last = turns[1]["first"], turns[1]["last"]
    body = get(client, game, "/turns/1")
    assert body["versions"] == list(range(first, last + 1))
    assert [e["version"] for e in body["events"]] == body["versions"]
    assert body["events"][0]["type"] == "TurnStarted"
    assert dumped(body["before"]) == get(client, game, f"/state?at={first - 1}")
    assert dumped(body["after"]) == get(client, game, f"/state?at={last}")
    diff = body["diff"]
    active = body["events"][0]["data"]["player"]
    before, after = body["before"]["seats"][active], body["after"]["seats"][active]
    assert diff["seats"][active]["level"] == [before["level"], after["level"]]
    if before["gold"] != after["gold"]:
        assert diff["seats"][active]["gold"] == [before["gold"], after["gold"]]
    assert {"moved", "damage", "zapped", "tokens", "seats", "table", "fight"} <= set(diff)
    assert all(m["from"] != m["to"] or m["face"][0] != m["face"][1] for m in diff["moved"])
    setup = get(client, game, "/turns/0")
    assert setup["before"] is None and setup["versions"][0] == 1
    error(client.get(f"/api/games/{game.game_id}/turns/99"), 404, "game/turn_not_found")


def test_an_event_comes_with_its_causes_and_what_it_caused(
    client: FlaskClient, game: DemoResult
) -> None:
    timeline = get(client, game, "/timeline")["timeline"]
    caused = [e for e in timeline if e["cause"] is not None]
    assert caused, "the demo game has engine steps caused by actions"
    entry = caused[-1]
    body = get(client, game, f"/events/{entry['version']}")
    assert body["event"]["version"] == entry["version"]
    assert body["turn"] == entry["turn"]
    assert body["causes"][0]["version"] == entry["cause"]
    assert body["causes"][-1]["cause"] is None  # the chain ends at a player's own action
    root = get(client, game, f"/events/{body['causes'][-1]['version']}")
    assert entry["version"] in [e["version"] for e in root["effects"]]
    assert root["causes"] == []
    assert dumped(body["state"]) == get(client, game, f"/state?at={entry['version']}")
    assert body["diff"]["versions"] == [entry["version"] - 1, entry["version"]]
    error(
        client.get(f"/api/games/{game.game_id}/events/{len(timeline) + 1}"),
        404,
        "game/version_not_found",
    )


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


def test_the_timeline_outlines_every_event_and_the_heroes_over_the_turns(
    client: FlaskClient, game: DemoResult
) -> None:
    body = get(client, game, "/timeline", who="B")
    assert body["viewer"] == "B" and body["version"] == game.version
    assert [e["version"] for e in body["timeline"]] == list(range(1, game.version + 1))
    last = body["series"][-1]
    now = get(client, game, "/state")
    for seat in "AB":
        assert last[seat] == {
            "level": now["seats"][seat]["level"],
            "damage": now["seats"][seat]["damage"],
            "gold": now["seats"][seat]["gold"],
        }


# ---------------------------------------------------------------------------- disputes


def test_a_seat_opens_a_dispute_and_the_judge_rules_with_a_penalty_and_a_correction(
    client: FlaskClient, game: DemoResult
) -> None:
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

    hero_b = get(client, game, "/state")["seats"]["B"]
    version = version_of(client, game.game_id)
    ruling = {
        "ruling": "B's hero took 1 damage in error; B warned",
        "penalty": {"kind": "warning", "seat": "B"},
        "corrections": [
            {"type": "damage", "target": "B", "amount": 2, "corrects": turns[1]["last"]},
            {"type": "heal", "target": "B", "amount": 1, "corrects": turns[1]["last"]},
            {"type": "take_gold", "player": "A", "amount": 3, "corrects": 2},
        ],
    }
    ruled = post(client, game, f"/disputes/{did}/ruling", ruling, "judge")
    assert ruled.status_code == 201, ruled.get_json()
    events = ruled.get_json()["events"]
    assert [e["version"] for e in events] == list(range(version + 1, version + 5))
    forced = events[:3]
    assert [e["type"] for e in forced] == ["JudgeDamageDealt", "JudgeHealed", "JudgeGoldTaken"]
    assert all(e["seat"] == "judge" and e["data"]["forced_by_judge"] for e in forced)
    assert [e["data"]["corrects"] for e in forced] == [turns[1]["last"], turns[1]["last"], 2]
    assert events[-1]["type"] == "RulingRecorded"
    now = get(client, game, "/state")
    assert now["seats"]["B"]["damage"] == hero_b["damage"] + 1
    assert now["seats"]["A"]["gold"] >= 3

    (entry,) = get(client, game, "/disputes", who="A")["disputes"]
    assert entry["status"] == "ruled"
    (r,) = entry["rulings"]
    assert r["penalty"] == {"kind": "warning", "seat": "B"}
    assert r["corrections"] == [version + 1, version + 2, version + 3]
    corrected = get(client, game, f"/events/{turns[1]['last']}")
    assert corrected["corrected_by"] == [version + 1, version + 2]
    played = get(client, game, "/state?played=true")
    assert played["seats"]["B"]["damage"] == hero_b["damage"]

    again = post(client, game, f"/disputes/{did}/ruling", {"ruling": "again"}, "judge")
    error(again, 422, "dispute/already_ruled")
    error(
        post(client, game, "/disputes/d9/ruling", {"ruling": "?"}, "judge"),
        404,
        "dispute/not_found",
    )


def test_a_backup_undoes_every_later_event_newest_first_and_keeps_the_originals(
    client: FlaskClient, game: DemoResult
) -> None:
    turns = played_turns(client, game)
    point = turns[2]["first"] + 2
    before_log = client.get(
        f"/api/games/{game.game_id}/events?limit=1000", headers=bearer(game.tokens["judge"])
    ).get_json()["events"]
    at_point = get(client, game, f"/state?at={point}")
    opened = post(
        client, game, "/disputes", {"from_version": point + 1, "statement": "back up"}, "judge"
    )
    assert opened.status_code == 201
    did = opened.get_json()["dispute"]["dispute_id"]
    now = version_of(client, game.game_id)
    ruled = post(
        client,
        game,
        f"/disputes/{did}/ruling",
        {"ruling": "backed up", "backup_to": point},
        "judge",
    )
    assert ruled.status_code == 201, ruled.get_json()
    body = ruled.get_json()
    (r,) = body["dispute"]["rulings"]
    assert r["backup_to"] == point
    assert r["undone"] == list(range(now, point, -1))  # newest first, skipping nothing
    restorations = body["events"][:-1]
    undoes = [e["data"]["undoes"] for e in restorations]
    assert undoes == sorted(undoes, reverse=True)
    assert set(undoes) <= set(r["undone"]) and now not in undoes  # the dispute changes no table
    assert all(e["seat"] == "judge" for e in body["events"])

    after = get(client, game, "/state")
    assert strip(after) == strip(at_point)
    for viewer in ("A", "B"):
        assert strip(get(client, game, "/state", who=viewer)) == strip(
            get(client, game, f"/state?at={point}", who=viewer)
        )
    log = client.get(
        f"/api/games/{game.game_id}/events?limit=1000", headers=bearer(game.tokens["judge"])
    ).get_json()["events"]
    assert log[: len(before_log)] == before_log  # nothing deleted or edited
    assert get(client, game, "/verify")["ok"] is True
    assert get(client, game, f"/events/{now - 1}")["undone_by"]
    timeline = get(client, game, "/timeline")
    assert timeline["turns"][str(at_point["turn"])]["last"] == timeline["version"]


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


def test_a_bad_correction_records_nothing(client: FlaskClient, game: DemoResult) -> None:
    did = post(client, game, "/disputes", {"statement": "x"}, "B").get_json()["dispute"][
        "dispute_id"
    ]
    version = version_of(client, game.game_id)
    cases = [
        ({"type": "explode", "corrects": 2}, 400, "request/unknown_correction"),
        ({"type": "damage", "target": "A", "amount": 1}, 400, "request/invalid_number"),
        ({"type": "discard", "card": "nope", "corrects": 2}, 422, "command/unknown_card"),
        (
            {"type": "heal", "target": "A", "amount": 1, "corrects": 10_000},
            404,
            "game/version_not_found",
        ),
        ({"type": "move", "card": "x", "to": "moon", "corrects": 1}, 422, "command/unknown_card"),
    ]
    for correction, status, code in cases:
        body = {
            "ruling": "fix",
            "corrections": [
                {"type": "heal", "target": "A", "amount": 1, "corrects": 2},
                correction,
            ],
        }
        error(post(client, game, f"/disputes/{did}/ruling", body, "judge"), status, code)
    error(
        post(
            client, game, f"/disputes/{did}/ruling", {"ruling": "x", "backup_to": 10_000}, "judge"
        ),
        404,
        "game/version_not_found",
    )
    assert version_of(client, game.game_id) == version


# ---------------------------------------------------------------------------- tamper evidence


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
    }


def tamper(state: bytes) -> bytes:
    """The stored event (eventsourcing's JSON transcoding, uncompressed) with its
    ``received_at`` moved by a second: the smallest edit a cheat could want."""
    data = json.loads(state)
    stamp = data["received_at"]
    data["received_at"] = stamp[:17] + ("1" if stamp[17] != "1" else "2") + stamp[18:]
    return json.dumps(data, separators=(",", ":")).encode()


# ---------------------------------------------------------------------------- viewer page


def test_the_viewer_page_is_served_with_its_script_and_style(
    client: FlaskClient, game: DemoResult
) -> None:
    page = client.get(f"/games/{game.game_id}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert 'src="/static/viewer.js"' in html and 'href="/static/viewer.css"' in html
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers["Referrer-Policy"] == "no-referrer"
    for asset in ("viewer.js", "viewer.css"):
        response = client.get(f"/static/{asset}")
        assert response.status_code == 200
        text = response.get_data(as_text=True)
        assert "https://" not in text and "http://" not in text.replace("http://www.w3.org", "")
    error(client.get("/games/00000000-0000-0000-0000-000000000000"), 404, "game/not_found")


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
