"""An event's export over HTTP and its offline check (issue #27, "Exports"; docs/events.md):
``GET /api/events/<id>/export?format=json|text`` for each viewer, and ``munchlog verify`` on a
good export and on tampered ones.

The events are played over the API by their players (``tests/api/test_events.py``'s helpers):
each game ends by a concession in its setup, so no card of any deck is ever revealed, and a
name of a player's decklist found in someone else's export can only have leaked from the list.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.cli.main import main
from domain.ccg.cards import sample_catalog
from domain.tournament import rules
from domain.tournament.pairing import round_one
from projections.exports.event_check import check_event_export, recompute_standings
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_penalties import rule
from tests.api.test_events import (
    concede,
    my_game,
    open_event,
    pair,
    play_round,
    register,
    standings,
)

pytestmark = pytest.mark.storage_agnostic

PLAYERS = ("ann", "bob", "cid", "dee", "eve")


def decks() -> dict[str, list[dict[str, Any]]]:
    """A decklist of its own for each player: no card name in two lists (a casual event takes
    any list)."""
    names = sorted(c["name"] for c in sample_catalog().cards.values() if c["type"] != "hero")
    size = len(names) // len(PLAYERS)
    return {
        p: [{"name": n, "count": 2} for n in names[i * size : (i + 1) * size]]
        for i, p in enumerate(PLAYERS)
    }


def small_event(client: FlaskClient, *, played: int = 2, **settings: Any) -> dict[str, Any]:
    """Five players, two Swiss rounds: ``played`` of them played to the end (at each table
    every seat but the first concedes); the next one, if any, paired."""
    event = open_event(client, rounds=2, **settings)
    eid = event["event_id"]
    lists = decks()
    tokens = {p: register(client, eid, p, decklist=lists[p]) for p in PLAYERS}
    for number in (1, 2):
        if number > played + 1:
            break
        paired = pair(client, eid)
        if number <= played:
            play_round(client, eid, number, tokens, paired)
    return {"eid": eid, "judge": event["judge_token"], "tokens": tokens, "decks": lists}


def export(client: FlaskClient, eid: str, token: str | None, fmt: str = "json") -> Any:
    response = client.get(f"/api/events/{eid}/export?format={fmt}", headers=bearer(token))
    assert response.status_code == 200, response.get_data(as_text=True)
    if fmt == "json":
        assert response.mimetype == "application/json"
        assert response.headers["Content-Disposition"] == f'attachment; filename="event-{eid}.json"'
        return response.get_json()
    assert response.mimetype == "text/plain"
    return response.get_data(as_text=True)


def viewers(event: dict[str, Any]) -> dict[str, str | None]:
    return {
        "judge": event["judge"],
        "organizer": ORGANIZER_TOKEN,
        "spectator": None,
        **event["tokens"],
    }


# ---------------------------------------------------------------------------- the export


def test_each_viewer_exports_the_event_as_it_may_see_it(client: FlaskClient) -> None:
    event = small_event(client)
    eid = event["eid"]
    shown = {who: export(client, eid, token) for who, token in viewers(event).items()}
    summary = client.get(f"/api/events/{eid}").get_json()
    for who, obj in shown.items():
        role = who if who in ("judge", "organizer", "spectator") else "player"
        assert obj["format"] == "munchlog-event" and obj["event_id"] == eid
        assert obj["viewer"] == {"role": role, "player": who if role == "player" else None}
        assert obj["commitment"] == summary["commitment"]
        assert [r["round"] for r in obj["rounds"]] == [1, 2]
        assert [[p["seats"] for p in r["pairings"]] for r in obj["rounds"]] == [
            [p["seats"] for p in r["pairings"]] for r in summary["rounds"]
        ]
        # the standings are the route's, for that caller (a spectator delay would differ)
        route = client.get(f"/api/events/{eid}/standings", headers=bearer(viewers(event)[who]))
        assert obj["standings"] == route.get_json()
        assert len(obj["results"]) == 4  # two tables a round, two rounds
        # decklists: every list to the judge and the organizer, its own to a player
        with_list = {p["player"] for p in obj["players"] if "decklist" in p}
        expected = set(PLAYERS) if role in ("judge", "organizer") else {who} & set(PLAYERS)
        assert with_list == expected, who
        # the games: all of them, seen as this viewer may
        game_ids = [g for r in obj["rounds"] for p in r["pairings"] for g in p["games"]]
        assert [g["game_id"] for g in obj["games"]] == game_ids and obj["omitted"] == []
        for round_ in obj["rounds"]:
            for pairing in round_["pairings"]:
                game = next(g for g in obj["games"] if g["game_id"] == pairing["games"][0])
                seat = next((s for s, p in pairing["seats"].items() if p == who), None)
                want = {"judge": "judge", "organizer": "organizer"}.get(who, seat or "spectator")
                assert game["viewer"] == want
                assert game["complete"] is (want == "judge")


def test_a_decklist_never_reaches_the_opponent_spectators_or_another_player(
    client: FlaskClient,
) -> None:
    event = small_event(client)
    eid = event["eid"]
    texts = {
        who: {
            "json": json.dumps(export(client, eid, token)),
            "text": export(client, eid, token, "text"),
        }
        for who, token in viewers(event).items()
    }
    judge = export(client, eid, event["judge"])
    salts = {p["player"]: p["salt"] for p in judge["players"]}
    met = {
        p: {
            q
            for r in judge["rounds"]
            for x in r["pairings"]
            for q in x["seats"].values()
            if p in x["seats"].values()
        }
        - {p}
        for p in PLAYERS
    }
    assert all(met[p] for p in PLAYERS)  # everybody had an opponent
    for owner, deck in event["decks"].items():
        secrets = [salts[owner]] + [entry["name"] for entry in deck]
        for who, text in texts.items():
            for fmt, body in text.items():
                found = [s for s in secrets if s in body]
                if who in ("judge", "organizer", owner):
                    assert found, (owner, who, fmt)  # the list is there for them
                else:  # an opponent, another player, a spectator
                    assert found == [], (owner, who, fmt, "opponent" if who in met[owner] else "")


def test_the_text_report_has_a_heading_a_round_and_a_standings_table(
    client: FlaskClient,
) -> None:
    event = small_event(client)
    eid = event["eid"]
    text = export(client, eid, event["tokens"]["ann"], "text")
    obj = export(client, eid, event["tokens"]["ann"])
    lines = text.splitlines()
    assert lines[0] == "Friday Night Munchkin" and set(lines[1]) == {"="}
    for number in (1, 2):
        at = lines.index(f"Round {number}")
        assert set(lines[at + 1]) == {"-"}
        round_ = obj["rounds"][number - 1]
        for pairing in round_["pairings"]:
            a, b = pairing["seats"]["A"], pairing["seats"]["B"]
            assert f"  Table {pairing['table']}: {a} (A) v {b} (B)" in lines
            assert f"    {a} won 1-0; game(s) {pairing['games'][0]}" in lines
        assert f"  Bye: {round_['byes'][0]}" in lines
    at = lines.index("Standings after the Swiss rounds")
    assert lines[at + 2].split() == ["Rank", "Player", "Points", "W-L-D", "OMW%", "GW%", "OGW%"]
    for offset, row in enumerate(obj["standings"], start=3):
        cells = lines[at + offset].split()
        assert cells[:4] == [
            str(row["rank"]),
            row["player"],
            str(row["points"]),
            f"{row['wins']}-{row['losses']}-{row['draws']}",
        ]
        assert cells[4] == f"{100 * row['omw']:.2f}"
    # ann's own list, nobody else's; then every game's transcript
    assert "Decklists" in lines and "  ann: hero Sample Orc Warrior; salt " in text
    assert "  bob: hero" not in text
    assert text.count('[Game "') == len(obj["games"]) == 4


def test_the_export_refuses_what_it_cannot_give(client: FlaskClient) -> None:
    event = small_event(client, played=0)
    eid = event["eid"]
    assert client.get(f"/api/events/{eid}/export?format=csv").status_code == 400
    refused = client.get(f"/api/events/{eid}/export", headers={"Accept": "text/csv"})
    assert refused.status_code == 406
    asked = client.get(f"/api/events/{eid}/export", headers={"Accept": "text/plain"})
    assert asked.status_code == 200 and asked.mimetype == "text/plain"
    assert client.get(f"/api/events/{eid}/export", headers=bearer("nope")).status_code == 401
    missing = client.get("/api/events/00000000-0000-0000-0000-000000000000/export")
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "event/not_found"
    lean = client.get(f"/api/events/{eid}/export?games=false").get_json()
    assert lean["games"] == [] and len(lean["rounds"]) == 1  # round 1 paired, not played
    checked = check_event_export(lean)
    assert lean["results"] == [] and lean["games_left_out"] is True and checked.ok
    assert checked.notes[0].startswith("this export leaves the games out (games=false)")


# ---------------------------------------------------------------------------- verify


def verify(
    tmp_path: Path, obj: Any, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, list[str]]:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    code = main(["verify", str(path), *flags])
    out, err = capsys.readouterr()
    assert err == ""
    return code, out.splitlines()


def problems(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("problem: ")]


def test_verify_checks_a_judges_export_and_every_game_in_it(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = small_event(client)
    obj = export(client, event["eid"], event["judge"])
    code, lines = verify(tmp_path, obj, capsys)
    assert code == 0, lines
    assert lines[-1] == f"event {event['eid']}: verified"
    assert "ok: 4 game(s) verified: hash chains, every event replayed, the dealing" in lines
    assert "ok: 5 decklist(s) hashed again: each must give its decklist_hash" in lines
    assert "ok: 4 result(s) agree with their games" in lines
    assert "ok: 8 deck(s) in the games are the lists registered" in lines
    assert any(line.startswith("ok: round 1's draw") for line in lines)
    assert problems(lines) == [] and not [x for x in lines if x.startswith("note: ")]
    assert lines[0] == (
        "this is the judge's export: complete: every game whole, with its hidden cards and its "
        "hash chain"
    )
    # a spectator's export checks the same, and says what it could not and that it is partial
    spectator = export(client, event["eid"], None)
    code, lines = verify(tmp_path, spectator, capsys)
    assert code == 0 and problems(lines) == []
    assert lines[0].startswith(
        "this is a spectator's (the public one) export: it leaves out the games' hidden cards, "
        "their hashes (so no game's chain can be checked), the decklists"
    )
    assert lines[0].endswith("; only the judge's export is complete")
    assert (
        "note: 4 games' chains were not checked: this is a spectator's (the public one) export, "
        "whose games carry no hashes; only the judge's export is complete"
    ) in lines
    assert lines[-1] == (
        f"event {event['eid']}: no problem in what a spectator's (the public one) export holds; "
        "only the judge's export is complete"
    )


def test_verify_finds_a_changed_result(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = small_event(client)
    obj = export(client, event["eid"], event["judge"])
    bad = copy.deepcopy(obj)
    result = bad["results"][0]
    a, b = result["players"]
    result["games"] = {a: 0, b: 1}  # the loser wins
    code, lines = verify(tmp_path, bad, capsys)
    assert code == 1
    table = next(
        p["table"] for p in obj["rounds"][0]["pairings"] if list(p["seats"].values()) == [a, b]
    )
    where = f"problem: round {result['round']}, table {table}: the export's result"
    assert [x for x in problems(lines) if x.startswith(where)] == [
        f"{where} (games won {a} 0, {b} 1) is not its games' (games won {a} 1, {b} 0)"
    ]
    assert lines[-1].endswith("problem(s)")
    # the standings that went with the true result no longer follow from the changed one
    assert any(x.startswith("problem: standings, rank ") for x in problems(lines))


def test_verify_finds_a_changed_round_one_pairing(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = small_event(client)
    obj = export(client, event["eid"], event["judge"])
    # the draw, redone by hand from the revealed secret (what verify must find again)
    key = rules.round_one_key(event["eid"], bytes.fromhex(obj["revealed_secret"]))
    drawn = round_one(list(PLAYERS), key)
    first = obj["rounds"][0]
    assert [tuple(p["seats"].values()) for p in first["pairings"]] == list(drawn.pairs)
    bad = copy.deepcopy(obj)
    one, two = bad["rounds"][0]["pairings"]
    one["seats"]["B"], two["seats"]["B"] = two["seats"]["B"], one["seats"]["B"]
    code, lines = verify(tmp_path, bad, capsys)
    assert code == 1
    for table, pairing in ((1, one), (2, two)):
        want = ", ".join(drawn.pairs[table - 1])
        shown = f"{pairing['seats']['A']}, {pairing['seats']['B']}"
        assert f"problem: round 1, table {table}: seats {shown}; the draw seats {want}" in lines
    assert sum(1 for x in problems(lines) if x.startswith("problem: round 1, table 1: seats")) == 1


def test_verify_finds_a_changed_decklist(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = small_event(client)
    obj = export(client, event["eid"], event["judge"])
    bad = copy.deepcopy(obj)
    ann = next(p for p in bad["players"] if p["player"] == "ann")
    ann["decklist"][0]["count"] += 1  # one more copy than registered
    code, lines = verify(tmp_path, bad, capsys)
    assert code == 1
    found = problems(lines)
    assert found[0] == (
        "problem: decklist of ann: does not hash to its published decklist_hash (with its salt "
        "and hero)"
    )
    # and the games ann played hold one copy fewer than the changed list (the deck check)
    name = ann["decklist"][0]["name"]
    assert found[1:] and all(
        "(ann) plays a deck that is not the list registered: -1 " + name in x for x in found[1:]
    )


def test_verify_finds_a_game_played_with_another_deck_than_the_list(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The deck check: a registered list changed and hashed again (its hash then checks out)
    is no longer the deck its player's games were created with."""
    event = small_event(client)
    obj = export(client, event["eid"], event["judge"])
    bad = copy.deepcopy(obj)
    ann = next(p for p in bad["players"] if p["player"] == "ann")
    first = ann["decklist"][0]
    first["count"] -= 1  # one copy fewer registered than the games hold
    ann["decklist_hash"] = rules.decklist_hash(
        bytes.fromhex(ann["salt"]), rules.canonical_decklist(ann["decklist"]), ann["hero"]["name"]
    )
    code, lines = verify(tmp_path, bad, capsys)
    assert code == 1
    found = problems(lines)
    played = [
        (r["round"], p["table"], g, next(s for s, n in p["seats"].items() if n == "ann"))
        for r in obj["rounds"]
        for p in r["pairings"]
        if "ann" in p["seats"].values()
        for g in p["games"]
    ]
    assert played and found == [
        f"problem: round {n}, table {t}, game {g}: seat {s} (ann) plays a deck that is not the "
        f"list registered: +1 {first['name']}"
        for n, t, g, s in played
    ]


def test_verify_finds_a_game_whose_chain_is_broken(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = small_event(client)
    bad = export(client, event["eid"], event["judge"])
    game = bad["games"][0]
    game["events"][-1]["data"]["winner"] = "B" if game["result"] == "A" else "A"
    code, lines = verify(tmp_path, bad, capsys)
    assert code == 1
    found = [x for x in problems(lines) if game["game_id"] in x and "own verification" in x]
    last = game["events"][-1]["version"]
    assert found == [
        f"problem: round 1, table 1, game {game['game_id']}: fails its own verification: "
        f"hash_mismatch at event {last}"
    ], lines


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["verify", "/no/such/event.json"], "munchlog: cannot read /no/such/event.json"),
        (["verify", "EVENT", "--game", "x"], "munchlog: verify takes an export FILE or --game ID"),
    ],
)
def test_verify_with_a_wrong_argument_says_so_in_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"format": "munchlog-event", "format_version": 1}), "utf-8")
    code = main([str(path) if a == "EVENT" else a for a in argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(message), err


def test_verify_reads_a_truncated_event_export_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = verify(tmp_path, {"format": "munchlog-event", "format_version": 1}, capsys)
    assert code == 1
    assert lines[0].startswith("this is an unnamed viewer's export: it leaves out ")
    assert all(x.startswith(("problem: ", "event ")) for x in lines[1:]), lines
    assert "problem: games: cannot be read from this export (KeyError: 'event_id')" in lines
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({"format": "munchlog-event", "format_version": 9}), "utf-8")
    assert main(["verify", str(newer)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == (
        f"munchlog: {newer} is not an event export this version reads: unsupported "
        "format_version 9\n"
    )


# ---------------------------------------------------------------------------- other events


def test_a_best_of_three_with_a_reported_draw_and_a_drop_verifies(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = open_event(client, rounds=2, match="bo3")
    eid = event["event_id"]
    tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
    paired = pair(client, eid)
    first, second = paired["pairings"]
    # table 1: A wins two games; table 2: one game each, then a draw at time, reported
    for _ in range(2):
        concede(client, my_game(client, eid, 1, tokens[first["seats"]["B"]]))
    a, b = second["seats"]["A"], second["seats"]["B"]
    concede(client, my_game(client, eid, 1, tokens[b]))
    concede(client, my_game(client, eid, 1, tokens[a]))
    third = my_game(client, eid, 1, tokens[a])  # game 3 is made; time runs out before it ends
    assert third["game_number"] == 3
    reported = client.post(
        f"/api/events/{eid}/rounds/1/results",
        json={"table": 2, "games": {a: 1, b: 1}},
        headers=bearer(event["judge_token"]),
    )
    assert reported.status_code == 201, reported.get_json()
    dropped = client.post(f"/api/events/{eid}/drops", json={"player": a}, headers=bearer(tokens[a]))
    assert dropped.status_code == 201
    obj = export(client, eid, event["judge_token"])
    assert len(obj["games"]) == 2 + 3  # table 2's third game was created, never played
    assert {tuple(r["players"]): r["games"] for r in obj["results"]}[(a, b)] == {a: 1, b: 1}
    assert obj["standings"] == standings(client, eid)
    assert recompute_standings(obj) == obj["standings"]
    code, lines = verify(tmp_path, obj, capsys)
    assert code == 0, lines
    assert (
        "ok: 2 result(s) agree with their games (1 reported by a judge or the organizer)" in lines
    )


def test_a_classic_events_places_are_checked_against_its_games(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = open_event(client, ruleset="munchkin-deluxe", rounds=1)
    eid = event["event_id"]
    names = [f"m{i}" for i in range(7)]
    tokens = {p: register(client, eid, p, hero=None, decklist=None) for p in names}
    paired = pair(client, eid)
    assert sorted(len(p["seats"]) for p in paired["pairings"]) == [3, 4]
    play_round(client, eid, 1, tokens, paired)
    obj = export(client, eid, event["judge_token"])
    code, lines = verify(tmp_path, obj, capsys)
    assert code == 0, lines
    assert "ok: 2 result(s) agree with their games" in lines
    bad = copy.deepcopy(obj)
    places = bad["results"][0]["places"]
    winner = next(p for p, n in places.items() if n == 1)
    loser = next(p for p, n in places.items() if n != 1)
    places[winner], places[loser] = places[loser], places[winner]
    code, lines = verify(tmp_path, bad, capsys)
    assert code == 1
    assert any("the export's result (places " in x for x in problems(lines)), lines


def test_the_cli_verify_of_a_game_export_is_unchanged(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = small_event(client, played=1)
    game = export(client, event["eid"], event["judge"])["games"][0]
    code, lines = verify(tmp_path, game, capsys)
    seats = {s["seat"]: s["player"] for s in game["seats"]}
    assert code == 0 and lines == [
        f"game {game['game_id']} ({seats['A']} v {seats['B']}; Friday Night Munchkin, round 1, "
        f"table {game['labels']['table']}; won by {seats[game['result']]}): verified: "
        f"{len(game['events'])} events, hash chain intact, every event replayed through its rules"
    ]
    code, lines = verify(tmp_path, game, capsys, "--json")
    report = json.loads(lines[0])
    assert code == 0 and report["ok"] is True and report["game_id"] == game["game_id"]


# ---------------------------------------------------------------------------- the page


def test_the_event_page_is_served_with_the_pages_headers(client: FlaskClient) -> None:
    """``/events/<id>``: the shell names the event and nothing secret, its own script and style
    from this server, the same headers as every page (the browser: tests/e2e/test_event_page.py)."""
    event = open_event(client, name="Friday <Night> Munchkin")
    eid = event["event_id"]
    for player in ("ann", "bob"):
        register(client, eid, player)
    page = client.get(f"/events/{eid}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert f'data-event-id="{eid}"' in html
    assert "Friday &lt;Night&gt; Munchkin" in html and "<Night>" not in html
    places = [html.index(f'src="/static/{name}"') for name in ("pages.js", "event.js")]
    assert places == sorted(places) and 'href="/static/event.css"' in html
    assert "http://" not in html and "https://" not in html
    viewer = client.get(f"/games/{pair(client, eid)['pairings'][0]['game_id']}")
    for header in ("Content-Security-Policy", "Referrer-Policy", "X-Content-Type-Options"):
        assert page.headers[header] == viewer.headers[header], header
    assert page.headers["Cache-Control"] == "no-store"
    for asset in ("event.js", "event.css"):
        text = client.get(f"/static/{asset}").get_data(as_text=True)
        assert "https://" not in text and "http://" not in text
    for missing in ("00000000-0000-0000-0000-000000000000", "nope"):
        response = client.get(f"/events/{missing}")
        assert response.status_code == 404
        assert response.get_json()["error"]["code"] == "event/not_found"


# ---------------------------------------------------------------------------- penalties


def test_penalties_are_exported_to_whom_they_may_be_and_checked_against_their_games(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = small_event(client, played=1)  # round 2 paired, its games going on
    eid, judge = event["eid"], event["judge"]
    table = client.get(f"/api/events/{eid}").get_json()["rounds"][1]["pairings"][0]
    warned, other = table["seats"]["B"], table["seats"]["A"]
    ruled = rule(client, judge, table["game_id"], "slow play", {"kind": "warning", "seat": "B"})
    route = client.get(f"/api/events/{eid}/penalties", headers=bearer(judge)).get_json()
    assert [(p["player"], p["kind"], p["version"]) for p in route] == [
        (warned, "warning", ruled["version"])
    ]
    for who, token in viewers(event).items():
        shown = export(client, eid, token)
        sees = who in ("judge", "organizer", warned)
        assert shown["penalties"] == (route if sees else []), who
        text = export(client, eid, token, "text")
        if who == "spectator":
            assert "Penalties\n" not in text
        else:
            line = f"  Round 2, table {table['table']}: {warned}, warning: slow play"
            assert (line in text) is sees, who
    obj = export(client, eid, judge)
    code, lines = verify(tmp_path, obj, capsys)
    assert code == 0, lines
    assert "ok: 1 penalty(ies) found as their games' rulings record them" in lines
    where = f"penalty of {warned} (round 2, table {table['table']})"
    # a penalty changed, moved to the other player, or left out: each found
    changed = copy.deepcopy(obj)
    changed["penalties"][0]["kind"] = "game_loss"
    code, lines = verify(tmp_path, changed, capsys)
    assert code == 1
    assert problems(lines) == [
        f"problem: {where}: game {table['game_id']}'s ruling at event {ruled['version']} gives "
        f"warning to B on dispute {route[0]['dispute']}; the export says game_loss to B on "
        f"dispute {route[0]['dispute']}"
    ]
    moved = copy.deepcopy(obj)
    moved["penalties"][0]["player"] = other
    code, lines = verify(tmp_path, moved, capsys)
    assert code == 1 and len(problems(lines)) == 1 and "gives warning to B" in lines[-2]
    dropped = copy.deepcopy(obj)
    dropped["penalties"] = []
    code, lines = verify(tmp_path, dropped, capsys)
    assert problems(lines) == [
        f"problem: game {table['game_id']}, event {ruled['version']}: a penalty (warning to "
        f"{warned}) the export's penalties do not list"
    ]
