"""An event's penalties over HTTP (issue #27, docs/rules.md F.5): a judge's rulings in the
event's games, a repeated infraction upgraded to a game loss that ends the game, the player's
record at ``GET /api/events/<id>/penalties`` linked to the games, and who may read it."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import concede, my_game, open_event, pair, register, standings

pytestmark = pytest.mark.storage_agnostic

SLOW_PLAY = "tournament_error.slow_play"


def rule(
    client: FlaskClient, judge: str, game_id: str, statement: str, penalty: dict[str, Any]
) -> dict[str, Any]:
    """The judge opens a dispute in ``game_id`` and rules on it with ``penalty``: the 201 body."""
    opened = client.post(
        f"/api/games/{game_id}/disputes", json={"statement": statement}, headers=bearer(judge)
    )
    assert opened.status_code == 201, opened.get_json()
    dispute = opened.get_json()["dispute"]["dispute_id"]
    ruled = client.post(
        f"/api/games/{game_id}/disputes/{dispute}/ruling",
        json={"ruling": statement, "penalty": penalty},
        headers=bearer(judge),
    )
    assert ruled.status_code == 201, ruled.get_json()
    body: dict[str, Any] = ruled.get_json()
    return body


def status(client: FlaskClient, game_id: str) -> tuple[str, Any]:
    game = client.get(f"/api/games/{game_id}").get_json()
    return game["status"], game.get("winner")


def penalties(client: FlaskClient, eid: str, token: str | None) -> Any:
    return client.get(f"/api/events/{eid}/penalties", headers=bearer(token))


def test_a_second_slow_play_warning_in_another_game_is_a_game_loss_that_ends_it(
    client: FlaskClient,
) -> None:
    event = open_event(client, rounds=2)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}

    # round 1: the player in seat A of table 1 is warned for slow play; the game goes on
    first = pair(client, eid)
    table = first["pairings"][0]
    slow, opponent = table["seats"]["A"], table["seats"]["B"]
    warned = rule(
        client,
        judge,
        table["game_id"],
        "slow play",
        {"kind": "warning", "seat": "A", "infraction": SLOW_PLAY},
    )
    assert [e["type"] for e in warned["events"]] == ["RulingRecorded"]
    (first_ruling,) = warned["dispute"]["rulings"]
    assert first_ruling["penalty"] == {
        "kind": "warning",
        "seat": "A",
        "infraction": SLOW_PLAY,
        "infraction_name": "Slow Play",  # the penalty guide's name and section (IPG 3.3)
        "ipg_section": "3.3",
    }
    assert status(client, table["game_id"])[0] != "finished"  # a new game, in setup
    # and the opponent gets a caution (no infraction named) in the same game
    rule(client, judge, table["game_id"], "shuffled loosely", {"kind": "caution", "seat": "B"})
    for pairing in first["pairings"]:  # seat B concedes every table: A wins
        concede(client, my_game(client, eid, 1, tokens[pairing["seats"]["B"]]))

    # round 2: a second slow play warning, in another game, is a game loss (IPG section 3)
    second = pair(client, eid)
    mine = my_game(client, eid, 2, tokens[slow])
    upgraded = rule(
        client,
        judge,
        mine["game_id"],
        "slow play again",
        {"kind": "warning", "seat": mine["seat"], "infraction": SLOW_PLAY},
    )
    types = [e["type"] for e in upgraded["events"]]
    assert types == ["RulingRecorded", "PlayerConceded", "PlayerEliminated", "GameEnded"]
    (ruling,) = upgraded["dispute"]["rulings"]
    assert ruling["penalty"] == {
        "kind": "game_loss",
        "seat": mine["seat"],
        "infraction": SLOW_PLAY,
        "escalated_from": "warning",
        "infraction_name": "Slow Play",
        "ipg_section": "3.3",
        "repeat_at_least": 2,  # IPG 3: a Warning after one Warning, so at least the 2nd
    }
    assert all(e["seat"] == "rules" for e in upgraded["events"][1:])
    other_seat = "B" if mine["seat"] == "A" else "A"
    assert status(client, mine["game_id"]) == ("finished", other_seat)
    # a first warning for the same infraction to someone else is not upgraded
    others = [p for p in second["pairings"] if slow not in p["seats"].values()]
    (other_table,) = others
    fresh = rule(
        client,
        judge,
        other_table["game_id"],
        "slow play",
        {"kind": "warning", "seat": "A", "infraction": SLOW_PLAY},
    )
    assert fresh["dispute"]["rulings"][0]["penalty"]["kind"] == "warning"
    concede(client, my_game(client, eid, 2, tokens[other_table["seats"]["B"]]))

    # the game loss counts in the standings: the round-2 match is lost
    rows = {r["player"]: r for r in standings(client, eid)}
    assert (rows[slow]["wins"], rows[slow]["losses"]) == (1, 1)

    # the record, linked to the games and the versions that caused each penalty
    listed = penalties(client, eid, judge)
    assert listed.status_code == 200, listed.get_json()
    record = listed.get_json()
    of_slow = [p for p in record if p["player"] == slow]
    assert [(p["round"], p["game_id"], p["kind"]) for p in of_slow] == [
        (1, table["game_id"], "warning"),
        (2, mine["game_id"], "game_loss"),
    ]
    assert of_slow[1]["escalated_from"] == "warning" and "escalated_from" not in of_slow[0]
    assert {p["infraction"] for p in of_slow} == {SLOW_PLAY}
    assert of_slow[0]["dispute"] == "d1" and of_slow[1]["table"] == next(
        p["table"] for p in second["pairings"] if slow in p["seats"].values()
    )
    for entry, ruled in zip(of_slow, (warned, upgraded), strict=True):
        assert entry["version"] == ruled["dispute"]["rulings"][0]["version"]
        linked = client.get(
            f"/api/games/{entry['game_id']}/events/{entry['version']}", headers=bearer(judge)
        ).get_json()["event"]
        assert linked["type"] == "RulingRecorded" and linked["data"]["ruling"] == entry["ruling"]
    caution = next(p for p in record if p["player"] == opponent)
    assert caution["kind"] == "caution" and "infraction" not in caution
    assert len(record) == 4  # two for the slow player, a caution, the other table's warning
    # each entry whole: the infraction by the guide's name and section, and the upgrade's count,
    # as the game's own disputes give them (no infraction named: none of the three)
    where = {k: of_slow[1][k] for k in ("round", "table", "version", "dispute")}
    assert of_slow[1] == {
        "player": slow,
        **where,
        "game_id": mine["game_id"],
        "kind": "game_loss",
        "ruling": "slow play again",
        "infraction": SLOW_PLAY,
        "escalated_from": "warning",
        "infraction_name": "Slow Play",
        "ipg_section": "3.3",
        "repeat_at_least": 2,
        "ruled_by": {"staff_id": "event-judge", "name": "head judge"},  # F.8: who ruled
    }
    assert {k: of_slow[0].get(k) for k in ("infraction_name", "ipg_section")} == {
        "infraction_name": "Slow Play",
        "ipg_section": "3.3",
    }
    assert "repeat_at_least" not in of_slow[0]
    named = ("infraction_name", "ipg_section", "repeat_at_least")
    assert not [k for k in named if k in caution]
    for entry, ruled in zip(of_slow, (warned, upgraded), strict=True):  # the disputes' words
        penalty = ruled["dispute"]["rulings"][0]["penalty"]
        assert {k: entry[k] for k in named if k in entry} == {
            k: penalty[k] for k in named if k in penalty
        }


def test_the_record_is_the_officials_and_each_players_own(client: FlaskClient) -> None:
    event = open_event(client, rounds=1)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    first, second = pair(client, eid)["pairings"]
    given = {
        first["seats"]["A"]: ("warning", first, "A"),
        first["seats"]["B"]: ("caution", first, "B"),
        second["seats"]["A"]: ("game_loss", second, "A"),
    }
    for kind, pairing, seat in given.values():
        named = {"infraction": SLOW_PLAY} if kind == "warning" else {}  # its name and section
        penalty = {"kind": kind, "seat": seat, **named}
        rule(client, judge, pairing["game_id"], f"{kind} for {seat}", penalty)
    everyone = penalties(client, eid, judge).get_json()
    assert sorted(p["player"] for p in everyone) == sorted(given)
    assert [(p["kind"], p.get("infraction_name"), p.get("ipg_section")) for p in everyone] == [
        ("warning", "Slow Play", "3.3"),
        ("caution", None, None),
        ("game_loss", None, None),
    ]
    assert penalties(client, eid, ORGANIZER_TOKEN).get_json() == everyone
    for player, token in tokens.items():
        own = penalties(client, eid, token)
        assert own.status_code == 200
        assert own.get_json() == [p for p in everyone if p["player"] == player]
    clean = second["seats"]["B"]  # given nothing: sees nothing, not the others'
    assert penalties(client, eid, tokens[clean]).get_json() == []
    spectator = penalties(client, eid, None)
    assert spectator.status_code == 401
    assert spectator.get_json()["error"]["code"] == "auth/missing_token"
    stranger = penalties(client, eid, "not-a-token")
    assert stranger.status_code == 401
    assert stranger.get_json()["error"]["code"] == "auth/invalid_token"
    missing = penalties(client, "00000000-0000-0000-0000-000000000000", judge)
    assert missing.status_code == 404


def words(text: str) -> str:
    """``text`` with its line breaks as spaces (a transcript is wrapped at 100 columns)."""
    return " ".join(text.split())


def test_every_viewer_of_the_game_reads_the_infraction_and_its_upgrade_in_words(
    client: FlaskClient,
) -> None:
    """The game's rulings are public to its viewers (docs/rules.md A.14): the timeline's and
    the disputes' penalty name the infraction as the guide does and say it was upgraded, with
    the guide's count (the count itself is not recorded); so do the event's narration (the
    viewer's), the game's transcript and the event's report."""
    event = open_event(client, rounds=1)
    eid, judge = event["event_id"], event["judge_token"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    table = pair(client, eid)["pairings"][0]
    gid, slow = table["game_id"], table["seats"]["A"]
    warning = {"kind": "warning", "seat": "A", "infraction": SLOW_PLAY}
    rule(client, judge, gid, "slow play", warning)
    upgraded = rule(client, judge, gid, "slow play again", warning)
    version = upgraded["version"] - 3  # its RulingRecorded, before the concession's three
    assert upgraded["events"][0]["version"] == version
    seats = {s: my_game(client, eid, 1, tokens[table["seats"][s]]) for s in "AB"}
    said = (
        "slow play again (game_loss for A: Slow Play (IPG 3.3); upgraded from warning as a "
        "repeat: at least the 2nd warning for it in the event)"
    )
    for who, token in {"judge": judge, **{s: g["token"] for s, g in seats.items()}}.items():
        for path in ("timeline", "disputes"):
            body = client.get(f"/api/games/{gid}/{path}", headers=bearer(token)).get_json()
            first, second = (d["rulings"][0]["penalty"] for d in body["disputes"])
            assert first == {**warning, "infraction_name": "Slow Play", "ipg_section": "3.3"}
            assert second == {
                **first,
                "kind": "game_loss",
                "escalated_from": "warning",
                "repeat_at_least": 2,
            }, (who, path)
        detail = client.get(f"/api/games/{gid}/events/{version}", headers=bearer(token))
        assert detail.get_json()["narration"] == [f"Judge: rules on d2: {said}"], who
        text = client.get(f"/api/games/{gid}/export?format=text", headers=bearer(token))
        assert text.status_code == 200 and said in words(text.get_data(as_text=True)), who
    spectator = client.get(f"/api/games/{gid}/timeline").get_json()
    assert spectator["viewer"] == "spectator"
    assert spectator["disputes"][1]["rulings"][0]["penalty"]["repeat_at_least"] == 2
    report = client.get(f"/api/events/{eid}/export?format=text", headers=bearer(judge))
    assert (
        f"{slow}, game_loss (Slow Play (IPG 3.3); upgraded from warning as a repeat: at least "
        "the 2nd warning for it in the event): slow play again"
    ) in words(report.get_data(as_text=True))
