"""The floor of an event (issue #39, docs/rules.md F.8): its staff with tokens of their own,
judge calls from the tables and who did what, over HTTP on both back ends.

A round of a 9-player event with two floor judges and a scorekeeper (the event's own judge
token is the head judge): calls from a player's token and from a seat's token, claimed,
escalated and resolved with a ruling; every refusal a 4xx with its code and nothing changed.
"""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from api.pages.prints import qr_svg
from domain.penalties import INFRACTIONS, PENALTIES
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import my_game, open_event, pair, register

PLAYERS = ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy"]


def code(response: Any, status: int, expected: str) -> None:
    assert response.status_code == status, response.get_json()
    assert response.get_json()["error"]["code"] == expected, response.get_json()


def add_staff(client: FlaskClient, event_id: str, name: str, role: str) -> dict[str, Any]:
    response = client.post(
        f"/api/events/{event_id}/staff",
        json={"name": name, "role": role},
        headers=bearer(ORGANIZER_TOKEN),
    )
    assert response.status_code == 201, response.get_json()
    found: dict[str, Any] = response.get_json()
    return found


def calls(client: FlaskClient, event_id: str, token: str | None) -> list[dict[str, Any]]:
    response = client.get(f"/api/events/{event_id}/calls", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    rows: list[dict[str, Any]] = response.get_json()
    return rows


def act(client: FlaskClient, event_id: str, call_id: str, token: str, **body: Any) -> Any:
    return client.post(f"/api/events/{event_id}/calls/{call_id}", json=body, headers=bearer(token))


class Floor:
    """A 9-player event, round 1 paired, with its staff's tokens and its players' games."""

    def __init__(self, client: FlaskClient) -> None:
        created = open_event(client)
        self.id, self.head = created["event_id"], created["judge_token"]
        self.tokens = {p: register(client, self.id, p) for p in PLAYERS}
        self.jo = add_staff(client, self.id, "Jo", "judge")
        self.kim = add_staff(client, self.id, "Kim", "judge")
        self.sam = add_staff(client, self.id, "Sam", "scorekeeper")
        self.round = pair(client, self.id)
        self.games: dict[str, dict[str, Any]] = {}
        for pairing in self.round["pairings"]:
            for player in pairing["seats"].values():
                self.games[player] = my_game(client, self.id, 1, self.tokens[player])

    def at_table(self, table: int) -> list[str]:
        (pairing,) = [p for p in self.round["pairings"] if p["table"] == table]
        return list(pairing["seats"].values())


def test_the_organizer_names_the_staff_and_only_the_staff_sees_it(client: FlaskClient) -> None:
    event = open_event(client)
    eid = event["event_id"]
    ann = register(client, eid, "ann")
    jo = add_staff(client, eid, "Jo", "judge")
    assert jo["staff_id"] and len(jo["token"]) >= 32
    path, body = f"/api/events/{eid}/staff", {"name": "Kim", "role": "judge"}
    code(client.post(path, json=body), 401, "auth/missing_token")
    code(client.post(path, json=body, headers=bearer(ann)), 403, "auth/forbidden")
    code(client.post(path, json=body, headers=bearer(jo["token"])), 403, "auth/forbidden")
    code(client.post(path, json=body, headers=bearer("nope")), 401, "auth/invalid_token")
    bad = client.post(path, json={"name": "Kim", "role": "boss"}, headers=bearer(ORGANIZER_TOKEN))
    code(bad, 400, "request/invalid_body")
    again = client.post(
        path, json={"name": "Jo", "role": "scorekeeper"}, headers=bearer(ORGANIZER_TOKEN)
    )
    code(again, 422, "rule/staff_named")
    roster = [{"staff_id": "event-judge", "name": "head judge", "role": "head_judge"}]
    roster.append({"staff_id": jo["staff_id"], "name": "Jo", "role": "judge"})
    for token, member in (
        (ORGANIZER_TOKEN, None),
        (jo["token"], roster[1]),
        (event["judge_token"], roster[0]),
    ):
        shown = client.get(f"/api/events/{eid}", headers=bearer(token)).get_json()
        assert shown["staff"] == roster  # nothing the refusals above tried was added
        assert shown.get("staff_member") == member  # who is asking (the judge's page)
    for token in (ann, None):
        shown = client.get(f"/api/events/{eid}", headers=bearer(token)).get_json()
        assert "staff" not in shown and "staff_member" not in shown
    assert jo["token"] not in str(
        client.get(f"/api/events/{eid}/export", headers=bearer(jo["token"])).get_data()
    )


def test_a_staff_judge_judges_every_game_and_a_scorekeeper_rules_on_nothing(
    client: FlaskClient,
) -> None:
    floor = Floor(client)
    game = floor.games[floor.at_table(1)[0]]
    gid = game["game_id"]
    opened = client.post(
        f"/api/games/{gid}/disputes",
        json={"statement": "was that legal?"},
        headers=bearer(game["token"]),
    )
    assert opened.status_code == 201, opened.get_json()
    did = opened.get_json()["dispute"]["dispute_id"]
    ruling = {"ruling": "legal: play on", "penalty": {"kind": "warning", "seat": game["seat"]}}
    sam = client.post(
        f"/api/games/{gid}/disputes/{did}/ruling", json=ruling, headers=bearer(floor.sam["token"])
    )
    code(sam, 403, "auth/judge_only")
    state = client.get(f"/api/games/{gid}/state", headers=bearer(floor.jo["token"]))
    assert state.status_code == 200
    hidden = client.get(f"/api/games/{gid}/state", headers=bearer(floor.sam["token"]))
    assert hidden.status_code == 200 and hidden.get_json() != state.get_json()
    ruled = client.post(
        f"/api/games/{gid}/disputes/{did}/ruling", json=ruling, headers=bearer(floor.kim["token"])
    )
    assert ruled.status_code == 201, ruled.get_json()
    version = ruled.get_json()["dispute"]["rulings"][0]["version"]
    kim = {"staff_id": floor.kim["staff_id"], "name": "Kim"}
    (penalty,) = client.get(
        f"/api/events/{floor.id}/penalties", headers=bearer(floor.head)
    ).get_json()
    assert (penalty["version"], penalty["ruled_by"]) == (version, kim)
    exported = client.get(
        f"/api/events/{floor.id}/export?games=false", headers=bearer(floor.sam["token"])
    ).get_json()
    assert [
        (r["game_id"], r["version"], r["dispute"], r["by"]) for r in exported["staff_rulings"]
    ] == [(gid, version, did, kim)]
    public = client.get(f"/api/events/{floor.id}/export?games=false").get_json()
    assert public["staff_rulings"] == []
    # A staff judge records for any seat, as the event's judge token does (the hot path hands
    # a token that is none of the game's own to Flask, which finds the staff); a scorekeeper not.
    concede = {"actions": [{"type": "concede", "seat": "A"}]}
    refused = client.post(
        f"/api/games/{gid}/actions", json=concede, headers=bearer(floor.sam["token"])
    )
    code(refused, 403, "auth/forbidden")
    conceded = client.post(
        f"/api/games/{gid}/actions", json=concede, headers=bearer(floor.jo["token"])
    )
    assert conceded.status_code == 201, conceded.get_json()
    # A staff judge is the judge of this event's games only.
    other = open_event(client)
    kim_elsewhere = client.get(
        f"/api/events/{other['event_id']}/calls", headers=bearer(floor.kim["token"])
    )
    code(kim_elsewhere, 401, "auth/invalid_token")


def test_calls_are_claimed_escalated_and_resolved_and_say_who_did_what(
    client: FlaskClient,
) -> None:
    floor = Floor(client)
    eid = floor.id
    one, two = floor.at_table(1), floor.at_table(2)
    ann, bob = one[0], two[1]
    path = f"/api/events/{eid}/calls"
    first = client.post(
        path, json={"table": 1, "note": "my hand is wrong"}, headers=bearer(floor.tokens[ann])
    )
    assert first.status_code == 201, first.get_json()
    raised = first.get_json()
    game = floor.games[ann]
    assert raised["game_id"] == game["game_id"] and raised["version"] >= 1
    seat = floor.games[bob]
    second = client.post(
        path, json={"table": 2, "note": "seat call"}, headers=bearer(seat["token"])
    )
    assert second.status_code == 201, second.get_json()
    c1, c2 = raised["call_id"], second.get_json()["call_id"]

    # Refusals: each a 4xx with its code, nothing changed.
    refusals = [
        (client.post(path, json={"table": 1}), 401, "auth/missing_token"),
        (client.post(path, json={"table": 1}, headers=bearer("nope")), 401, "auth/invalid_token"),
        (
            client.post(path, json={"table": 2}, headers=bearer(floor.tokens[ann])),
            403,
            "auth/not_your_table",
        ),
        (
            client.post(path, json={"table": 1}, headers=bearer(seat["token"])),
            403,
            "auth/not_your_table",
        ),
        (
            client.post(path, json={"table": 1}, headers=bearer(floor.jo["token"])),
            403,
            "auth/players_only",
        ),
        (
            client.post(path, json={"table": 99}, headers=bearer(floor.tokens[ann])),
            404,
            "event/table_not_found",
        ),
        (
            client.post(path, json={"table": "1"}, headers=bearer(floor.tokens[ann])),
            400,
            "request/invalid_body",
        ),
        (
            client.post(
                path, json={"table": 1, "note": "x" * 2001}, headers=bearer(floor.tokens[ann])
            ),
            400,
            "request/invalid_body",
        ),
        (act(client, eid, c1, floor.sam["token"], action="claim"), 403, "auth/forbidden"),
        (act(client, eid, c1, floor.tokens[ann], action="claim"), 403, "auth/forbidden"),
        (act(client, eid, c1, floor.jo["token"], action="rule"), 400, "request/invalid_body"),
        (
            act(client, eid, "call-none", floor.jo["token"], action="claim"),
            404,
            "event/call_not_found",
        ),
        (
            act(client, eid, c1, floor.jo["token"], action="claim", dispute_id="d"),
            400,
            "request/invalid_field",
        ),
    ]
    for response, status, expected in refusals:
        code(response, status, expected)
    every = calls(client, eid, floor.jo["token"])
    assert [c["call_id"] for c in every] == [c1, c2]
    assert all(c["state"] == "open" and c["actions"] == [] for c in every)

    # A player sees its own calls only; a spectator none.
    assert [c["call_id"] for c in calls(client, eid, floor.tokens[ann])] == [c1]
    assert [c["call_id"] for c in calls(client, eid, floor.tokens[bob])] == [c2]
    assert calls(client, eid, floor.tokens[one[1]]) == []
    code(client.get(path), 401, "auth/missing_token")

    assert act(client, eid, c1, floor.jo["token"], action="claim").status_code == 200
    code(act(client, eid, c1, floor.kim["token"], action="claim"), 422, "rule/call_claimed")
    code(act(client, eid, c1, floor.jo["token"], action="claim"), 422, "rule/call_claimed")
    escalated = act(client, eid, c2, floor.kim["token"], action="escalate", note="head, please")
    assert escalated.status_code == 200 and escalated.get_json()["state"] == "escalated"
    code(
        act(client, eid, c2, floor.jo["token"], action="claim"),
        422,
        "rule/escalated_to_head_judges",
    )
    code(act(client, eid, c2, floor.head, action="escalate"), 422, "rule/call_escalated")
    taken = act(client, eid, c2, floor.head, action="claim")
    assert taken.get_json()["claimed_by"] == {"staff_id": "event-judge", "name": "head judge"}

    # Resolved with a ruling in the call's game (a dispute a seat opened there).
    opened = client.post(
        f"/api/games/{seat['game_id']}/disputes",
        json={"statement": "seat call"},
        headers=bearer(seat["token"]),
    )
    did = opened.get_json()["dispute"]["dispute_id"]
    code(
        act(client, eid, c2, floor.head, action="resolve", dispute_id="nope"),
        404,
        "dispute/not_found",
    )
    done = act(client, eid, c2, floor.head, action="resolve", note="warning", dispute_id=did)
    assert done.status_code == 200, done.get_json()
    assert (
        act(client, eid, c1, floor.jo["token"], action="resolve", note="fixed").status_code == 200
    )
    code(act(client, eid, c1, floor.head, action="claim"), 422, "rule/call_resolved")

    listed = {c["call_id"]: c for c in calls(client, eid, floor.sam["token"])}
    assert listed[c1]["state"] == "resolved" and listed[c1]["via"] == "player"
    assert listed[c1]["claimed_by"] == {"staff_id": floor.jo["staff_id"], "name": "Jo"}
    assert listed[c1]["resolution"]["by"]["name"] == "Jo"
    assert listed[c2]["via"] == "seat" and listed[c2]["raised_by"] == bob
    assert [(a["action"], a["by"]["name"]) for a in listed[c2]["actions"]] == [
        ("escalate", "Kim"),
        ("claim", "head judge"),
        ("resolve", "head judge"),
    ]
    assert listed[c2]["resolution"]["dispute_id"] == did and listed[c2]["escalated"]
    assert all(isinstance(c["age_s"], int) and c["age_s"] >= 0 for c in listed.values())
    # The player sees the resolution but not the judges' notes on the way.
    (own,) = calls(client, eid, floor.tokens[bob])
    assert own["resolution"]["note"] == "warning" and own["actions"][0]["note"] is None

    # The event's export: the calls and who did what, as each may see them.
    exported = client.get(
        f"/api/events/{eid}/export?games=false", headers=bearer(floor.jo["token"])
    )
    body = exported.get_json()
    assert [c["call_id"] for c in body["calls"]] == [c1, c2]
    assert {s["name"] for s in body["staff"]} == {"head judge", "Jo", "Kim", "Sam"}
    mine = client.get(f"/api/events/{eid}/export?games=false", headers=bearer(floor.tokens[ann]))
    assert [c["call_id"] for c in mine.get_json()["calls"]] == [c1]
    public = client.get(f"/api/events/{eid}/export?games=false").get_json()
    assert public["calls"] == [] and public["staff"] == []
    report = client.get(f"/api/events/{eid}/export?format=text", headers=bearer(floor.jo["token"]))
    text = report.get_data(True)
    assert (
        "Judge calls" in text
        and "my hand is wrong" in text
        and "escalate by Kim: head, please" in text
        and f"resolve by head judge with the ruling in dispute {did}: warning" in text
        and "resolve by Jo: fixed" in text
    )
    theirs = client.get(f"/api/events/{eid}/export?format=text", headers=bearer(floor.tokens[bob]))
    assert "seat call" in theirs.get_data(True) and "my hand is wrong" not in theirs.get_data(True)


def test_a_scorekeeper_reports_results_and_drops_and_is_named_for_it(client: FlaskClient) -> None:
    floor = Floor(client)
    eid = floor.id
    table = floor.at_table(3)
    result = {"table": 3, "games": {table[0]: 0, table[1]: 0}, "drawn_games": 1}
    reported = client.post(
        f"/api/events/{eid}/rounds/1/results", json=result, headers=bearer(floor.sam["token"])
    )
    assert reported.status_code == 201, reported.get_json()
    dropped = client.post(
        f"/api/events/{eid}/drops", json={"player": table[0]}, headers=bearer(floor.sam["token"])
    )
    assert dropped.status_code == 201, dropped.get_json()
    exported = client.get(f"/api/events/{eid}/export?games=false", headers=bearer(ORGANIZER_TOKEN))
    (row,) = [p for p in exported.get_json()["rounds"][0]["pairings"] if p["table"] == 3]
    assert row["reported"]["by"] == f"scorekeeper:{floor.sam['staff_id']}"
    (gone,) = [p for p in exported.get_json()["players"] if p["player"] == table[0]]
    assert gone["dropped_by"] == f"scorekeeper:{floor.sam['staff_id']}"
    assert gone["dropped_after"] == 1


def test_the_print_pages_show_the_round_and_the_lists_only_to_the_judges(
    client: FlaskClient,
) -> None:
    floor = Floor(client)
    base = f"/events/{floor.id}/print"
    by_name = client.get(f"{base}/pairings?by=name")
    assert by_name.status_code == 200 and "no-store" in by_name.headers["Cache-Control"]
    text = by_name.get_data(True)
    assert [p for p in sorted(PLAYERS) if p in text] == sorted(PLAYERS)
    positions = [text.index(f"<tr><td>{p}</td>") for p in sorted(PLAYERS)]
    assert positions == sorted(positions)  # alphabetical
    (bye,) = floor.round["byes"]
    assert "bye" in text
    by_table = client.get(f"{base}/pairings?by=table").get_data(True)
    assert all(f"{p} (" in by_table for p in PLAYERS if p != bye)
    slips = client.get(f"{base}/slips").get_data(True)
    assert slips.count('class="slip"') == len(floor.round["pairings"]) == 4
    qr = str(qr_svg(f"http://localhost/events/{floor.id}"))  # the event page's QR code
    assert slips.count("<svg") == 4 and slips.count(qr) == 4
    behind_tls = client.get(f"{base}/slips", headers={"X-Forwarded-Proto": "https"})
    assert str(qr_svg(f"https://localhost/events/{floor.id}")) in behind_tls.get_data(True)
    # three a sheet in cutting order: two sheets, tables 1 and 3 on the first, 2 and 4 on the next
    sheets = slips.split('class="sheet"')[1:]
    assert [[t for t in (1, 2, 3, 4) if f"Table {t}<" in s] for s in sheets] == [[1, 3], [2, 4]]
    standings = client.get(f"{base}/standings").get_data(True)
    assert all(p in standings for p in PLAYERS)
    card = "Sample"  # every decklist of the tests' players holds sample cards
    shell = client.get(f"{base}/decklists")
    assert shell.status_code == 200 and card not in shell.get_data(True)
    for token, status in [
        (floor.tokens["ann"], 403),
        (floor.sam["token"], 403),
        ("nope", 401),
    ]:
        assert client.get(f"{base}/decklists", headers=bearer(token)).status_code == status
    for token in (floor.jo["token"], floor.head, ORGANIZER_TOKEN):
        sheets = client.get(f"{base}/decklists", headers=bearer(token)).get_data(True)
        assert sheets.count('class="sheet decklist"') == len(PLAYERS) and card in sheets
    assert client.get(f"/events/{floor.id}/print/nothing").status_code == 404


def test_the_judges_page_offers_the_penalty_guide_in_words(client: FlaskClient) -> None:
    """The ruling form's choices (api/static/judge-ruling.js) are written into the judge's page
    from ``domain.penalties``: every penalty a ruling may give and every infraction of the guide,
    each shown in words (no key, no underscore), sent as the key the API takes."""
    eid = open_event(client)["event_id"]
    page = client.get(f"/events/{eid}/judge")
    assert page.status_code == 200
    choices = page.get_data(True).split('<template id="ruling-choices">')[1].split("</template>")[0]
    shown = dict(re.findall(r'<option value="([^"]*)">([^<]*)</option>', choices))
    assert set(PENALTIES) | set(INFRACTIONS) | {""} == set(shown)
    assert shown["game_loss"] == "Game loss: loses this game now"
    assert shown["tournament_error.slow_play"] == "Slow Play (IPG 3.3)"
    assert not [text for text in shown.values() if "_" in text or "." in text.split(" (IPG")[0]]
    assert '<optgroup label="Unsporting conduct">' in choices
