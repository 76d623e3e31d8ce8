"""The judge's tools over HTTP for a classic game (docs/rules.md B.17, A.14): disputes, rulings
with classic corrections recorded as new events, backups, per-seat views and errors, on a
4-seat Munchkin Deluxe game played through the API until a combat is on in turn 2 or later.
What HTTP shows is the same on any store: ``storage_agnostic`` (SQLite only).

Per-seat views after each ruling: no seat finds, in anything it may fetch (state, log,
timeline, turns, events, disputes, exports), the id or the name of a card in another seat's hand
that it never knew (docs/rules.md A.4, B.1). The cards have unique secret names, so a name is as
telling as an id.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.cli.demo import domain_event_from_view
from domain import evolve, initial_state
from tests.api.helpers import assert_hidden, bearer, judge_state, version_of
from tests.api.test_classic_api import create, play_out
from tests.builders import classic_spec

pytestmark = pytest.mark.storage_agnostic

SEATS = "ABCD"
FORMATS = ("json", "ndjson", "csv", "text")


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    """A 4-seat Deluxe game, played by random legal commands until a combat is on in turn 2+."""
    rng = random.Random(14)
    game = create(client, classic_spec("munchkin-deluxe", 4, copies=2, secret=rng))
    for _ in range(400):
        state = play_out(client, game, rng, 1)
        if state["status"] == "playing" and state["turn"] >= 2 and state.get("combat"):
            return game
    raise AssertionError("the seeded game never reached a combat in turn 2")


def get(client: FlaskClient, game: dict[str, Any], path: str, who: str = "judge") -> Any:
    response = client.get(f"/api/games/{game['game_id']}{path}", headers=bearer(token(game, who)))
    assert response.status_code == 200, (path, response.get_json())
    return response.get_json()


def token(game: dict[str, Any], who: str) -> str | None:
    if who in ("judge", "table"):
        return str(game[f"{who}_token"])
    return str(game["seats"][who]["token"]) if who in game["seats"] else None


def post(client: FlaskClient, game: dict[str, Any], path: str, body: Any, who: str) -> Any:
    return client.post(
        f"/api/games/{game['game_id']}{path}", json=body, headers=bearer(token(game, who))
    )


def error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.get_json()
    assert response.get_json()["error"]["code"] == code, response.get_json()


def strip(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "version"}


def open_dispute(client: FlaskClient, game: dict[str, Any], body: dict[str, Any], who: str) -> str:
    opened = post(client, game, "/disputes", body, who)
    assert opened.status_code == 201, opened.get_json()
    dispute = opened.get_json()["dispute"]
    assert dispute["status"] == "open" and dispute["raised_by"] == who
    return str(dispute["dispute_id"])


def everything(client: FlaskClient, game: dict[str, Any], who: str) -> str:
    """All that ``who`` may fetch about the game, now and at every turn."""
    gid, h = game["game_id"], bearer(token(game, who))
    paths = ["/state", "/state?played=true", "/events?limit=1000", "", "/disputes", "/verify"]
    timeline = client.get(f"/api/games/{gid}/timeline", headers=h).get_json()
    paths += ["/timeline", f"/events/{timeline['version']}"]
    paths += [f"/turns/{turn}" for turn in timeline["turns"]]
    paths += [f"/state?turn={turn}" for turn in timeline["turns"]]
    paths += [f"/export?format={fmt}" for fmt in FORMATS]
    parts = []
    for path in paths:
        response = client.get(f"/api/games/{gid}{path}", headers=h)
        assert response.status_code == 200, (who, path, response.get_data(as_text=True)[:300])
        parts.append(response.get_data(as_text=True))
    return "\n".join(parts)


def assert_no_hand_leaks(client: FlaskClient, game: dict[str, Any]) -> int:
    """Every seat's view hides the cards in the other seats' hands it never knew; returns how
    many such cards were checked (the test must check some)."""
    folded = initial_state()
    ever: dict[str, set[str]] = {}
    page = get(client, game, "/events?limit=1000")
    assert page["next_after"] is None
    for view in page["events"]:
        before, folded = folded, evolve(folded, domain_event_from_view(view))
        for cid, card in folded["cards"].items():
            was = before.get("cards", {}).get(cid, card)
            ever.setdefault(cid, set()).update(card["known"], was["known"])
    assert strip(folded) == strip(judge_state(client, game))
    checked = 0
    for seat in SEATS:
        hidden = {
            cid: folded["cards"][cid]["def"]["name"]
            for other in SEATS
            if other != seat
            for cid in folded["seats"][other]["zones"]["hand"]
            if seat not in ever[cid]
        }
        assert_hidden(everything(client, game, seat), seat, hidden)
        checked += len(hidden)
    return checked


# ---------------------------------------------------------------------------- rulings


def test_a_ruling_records_classic_corrections_as_new_events_that_correct_the_game(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    """set_level, move (a hand card to another hand), give_curse, end_combat and set_turn,
    recorded together after the dispute, each with ``corrects`` (docs/rules.md B.17)."""
    assert assert_no_hand_leaks(client, game)
    turns = {int(t): r for t, r in get(client, game, "/timeline")["turns"].items()}
    corrected = turns[1]["last"]
    did = open_dispute(client, game, {"turn": 1, "statement": "B's level?"}, "B")
    listed = get(client, game, "/disputes", "C")["disputes"]
    assert [d["dispute_id"] for d in listed] == [did] and listed[0]["rulings"] == []
    assert (listed[0]["from_version"], listed[0]["to_version"]) == (
        turns[1]["first"],
        turns[1]["last"],
    )

    state = judge_state(client, game)
    assert state["combat"] is not None
    level_b = state["seats"]["B"]["level"]
    moved = state["seats"]["A"]["zones"]["hand"][0]
    curse = next(
        cid
        for cid, card in state["cards"].items()
        if card["def"]["kind"] == "curse" and card["zone"] == "door"
    )
    new_level = 3 if level_b != 3 else 4
    corrections = [
        {"type": "set_level", "player": "B", "level": new_level, "corrects": corrected},
        {"type": "move", "card": moved, "to": "hand", "player": "B", "corrects": corrected},
        {"type": "give_curse", "card": curse, "player": "C", "corrects": corrected},
        {"type": "end_combat", "corrects": state["version"]},
        {"type": "set_turn", "player": "B", "phase": "kick_door", "corrects": state["version"]},
    ]
    body = {
        "ruling": "B's level and A's card were wrong",
        "penalty": {"kind": "warning", "seat": "A"},
        "corrections": corrections,
    }
    for who in ("A", "table"):  # only the judge rules
        error(post(client, game, f"/disputes/{did}/ruling", body, who), 403, "auth/judge_only")
    version = version_of(client, game["game_id"])
    ruled = post(client, game, f"/disputes/{did}/ruling", body, "judge")
    assert ruled.status_code == 201, ruled.get_json()
    events = ruled.get_json()["events"]
    assert [e["version"] for e in events] == list(range(version + 1, version + 7))
    forced, last = events[:5], events[5]
    assert [e["type"] for e in forced] == [
        "ClassicJudgeLevelSet",
        "ClassicJudgeCardMoved",
        "ClassicJudgeCardMoved",
        "ClassicJudgeCombatEnded",
        "ClassicJudgeTurnSet",
    ]
    assert all(e["seat"] == "judge" and e["data"]["forced_by_judge"] for e in forced)
    assert [e["data"]["corrects"] for e in forced] == [c["corrects"] for c in corrections]
    assert last["type"] == "RulingRecorded"

    now = judge_state(client, game)
    assert now["seats"]["B"]["level"] == new_level
    assert moved in now["seats"]["B"]["zones"]["hand"]
    assert moved not in now["seats"]["A"]["zones"]["hand"]
    assert set(now["cards"][moved]["known"]) >= {"A", "B"}
    assert curse in now["seats"]["C"]["zones"]["curses"]
    assert now["combat"] is None and (now["active"], now["phase"]) == ("B", "kick_door")
    shown = get(client, game, "/state")
    assert shown["active_seat"] == "B" and shown["phase"] == "kick_door"
    assert moved in {c["id"] for c in get(client, game, "/state", "B")["seats"]["B"]["hand"]}
    played = get(client, game, "/state?played=true")
    assert played["seats"]["B"]["level"] == level_b  # the game as played, without the ruling

    (entry,) = get(client, game, "/disputes", "D")["disputes"]
    assert entry["status"] == "ruled"
    (r,) = entry["rulings"]
    assert r["corrections"] == list(range(version + 1, version + 6))
    assert r["penalty"] == {"kind": "warning", "seat": "A"}
    assert get(client, game, f"/events/{corrected}")["corrected_by"] == [
        version + 1,
        version + 2,
        version + 3,
    ]
    assert get(client, game, "/verify")["ok"] is True

    # the card moved between hands: B and A know it, C and D see only that a card moved
    for seat in "CD":
        seen = get(client, game, f"/events/{version + 2}", seat)["event"]
        assert moved not in str(seen)
    assert moved in str(get(client, game, f"/events/{version + 2}", "A")["event"])
    assert assert_no_hand_leaks(client, game)

    again = post(client, game, f"/disputes/{did}/ruling", {"ruling": "again"}, "judge")
    error(again, 422, "dispute/already_ruled")


def test_a_backup_sets_the_table_back_to_an_earlier_version_for_every_viewer(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    turns = {int(t): r for t, r in get(client, game, "/timeline")["turns"].items()}
    point = turns[1]["first"] + 2
    before_log = get(client, game, "/events?limit=1000")["events"]
    at_point = {who: get(client, game, f"/state?at={point}", who) for who in ("judge", *SEATS)}
    did = open_dispute(client, game, {"from_version": point + 1, "statement": "back up"}, "A")
    now = version_of(client, game["game_id"])
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
    assert r["backup_to"] == point and r["undone"] == list(range(now, point, -1))
    restorations = body["events"][:-1]
    assert restorations and body["events"][-1]["type"] == "RulingRecorded"
    assert {e["type"] for e in restorations} <= {
        "ClassicCardRestored",
        "ClassicTableRestored",
        "ClassicSeatRestored",
    }
    undoes = [e["data"]["undoes"] for e in restorations]
    assert undoes == sorted(undoes, reverse=True) and set(undoes) <= set(r["undone"])
    assert all(e["seat"] == "judge" for e in body["events"])

    for who, then in at_point.items():
        assert strip(get(client, game, "/state", who)) == strip(then), who
    log = get(client, game, "/events?limit=1000")["events"]
    assert log[: len(before_log)] == before_log  # nothing deleted or edited
    assert get(client, game, "/verify")["ok"] is True
    assert get(client, game, f"/events/{now - 1}")["undone_by"]
    assert assert_no_hand_leaks(client, game)

    # the game goes on from the restored table: the judge corrects it again
    did = open_dispute(client, game, {"statement": "and a level"}, "judge")
    fix = {"type": "set_level", "player": "D", "level": 2, "corrects": point}
    ruled = post(
        client, game, f"/disputes/{did}/ruling", {"ruling": "x", "corrections": [fix]}, "judge"
    )
    assert ruled.status_code == 201, ruled.get_json()
    assert get(client, game, "/state")["seats"]["D"]["level"] == 2


# ---------------------------------------------------------------------------- errors


def test_a_bad_classic_correction_is_refused_clearly_and_records_nothing(
    client: FlaskClient, game: dict[str, Any]
) -> None:
    did = open_dispute(client, game, {"statement": "x"}, "C")
    state = judge_state(client, game)
    version = version_of(client, game["game_id"])
    in_hand = state["seats"]["A"]["zones"]["hand"][0]
    treasure = next(c for c, card in state["cards"].items() if card["def"]["deck"] == "treasure")
    in_combat = state["combat"]["monsters"][0]["card"]
    ok = {"type": "set_level", "player": "A", "level": 2, "corrects": 2}
    cases = [
        ({"type": "explode", "corrects": 2}, 400, "request/unknown_correction"),
        ({"type": "set_level", "player": "A", "level": 11, "corrects": 2}, 400, "request/invalid_number"),
        ({"type": "set_level", "player": "A", "level": 2}, 400, "request/invalid_number"),
        ({"type": "set_level", "player": "G", "level": 2, "corrects": 2}, 400, "request/invalid_seat"),
        ({"type": "move", "card": in_hand, "to": "moon", "corrects": 2}, 400, "request/invalid_zone"),
        ({"type": "set_dead", "player": "B", "dead": "yes", "corrects": 2}, 400, "request/invalid_flag"),
        ({"type": "set_turn", "phase": "nap", "corrects": 2}, 400, "request/invalid_phase"),
        ({"type": "move", "corrects": 2, "to": "hand", "player": "B"}, 400, "request/missing_field"),
        ({**ok, "corrects": 10_000}, 404, "game/version_not_found"),
        ({"type": "move", "card": "nope", "to": "hand", "player": "B", "corrects": 2}, 422, "command/unknown_card"),
        ({"type": "give_curse", "card": in_hand, "player": "B", "corrects": 2}, 422, "command/wrong_zone")
        if state["cards"][in_hand]["def"]["kind"] not in ("curse", "trap")
        else ({"type": "take_curse", "card": in_hand, "corrects": 2}, 422, "command/card_not_there"),
        ({"type": "move", "card": treasure, "to": "door_discard", "corrects": 2}, 422, "command/wrong_zone"),
        ({"type": "take_curse", "card": treasure, "corrects": 2}, 422, "command/card_not_there"),
        ({"type": "move", "card": in_combat, "to": "hand", "player": "A", "corrects": 2}, 422, "command/card_in_combat"),
        ({"type": "set_turn", "player": "B", "corrects": 2}, 422, "command/combat_on"),
    ]  # fmt: skip
    for correction, status, code in cases:
        body = {"ruling": "fix", "corrections": [ok, correction]}
        error(post(client, game, f"/disputes/{did}/ruling", body, "judge"), status, code)
    second = {"ruling": "fix", "corrections": [{"type": "end_combat", "corrects": 2}] * 2}
    error(post(client, game, f"/disputes/{did}/ruling", second, "judge"), 422, "command/no_combat")
    not_a_list = {"ruling": "fix", "corrections": {"type": "end_combat"}}
    error(
        post(client, game, f"/disputes/{did}/ruling", not_a_list, "judge"),
        400,
        "request/invalid_body",
    )
    far = {"ruling": "x", "backup_to": 10_000}
    error(
        post(client, game, f"/disputes/{did}/ruling", far, "judge"), 404, "game/version_not_found"
    )
    error(
        post(client, game, "/disputes/d99/ruling", {"ruling": "x"}, "judge"),
        404,
        "dispute/not_found",
    )
    for who in (*SEATS, "table"):
        for body in ({"ruling": "x", "corrections": [ok]}, {"ruling": "x", "backup_to": 2}):
            error(post(client, game, f"/disputes/{did}/ruling", body, who), 403, "auth/judge_only")
    seat_as_judge = client.get(
        f"/api/games/{game['game_id']}/state?as=judge", headers=bearer(token(game, "B"))
    )
    error(seat_as_judge, 403, "auth/forbidden_view")
    error(
        post(client, game, "/disputes", {"statement": "x", "turn": 99}, "B"),
        404,
        "game/turn_not_found",
    )
    assert version_of(client, game["game_id"]) == version
    assert judge_state(client, game) == state
