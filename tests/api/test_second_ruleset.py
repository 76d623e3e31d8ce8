"""A second ruleset through the public HTTP API: ``test-trio``, three seats.

``tests/rulesets/trio.py`` lives in the tests only; nothing in api/, projections/ or the viewer
knows it. A trio game is created (three seat tokens, table, judge), recorded, redacted per
viewer (a leak property), replayed, exported in every format, imported again and verified.
Who records what, a winner and concessions are use cases (tests/service/test_trio_games.py).
What HTTP shows is the same on any store: ``storage_agnostic`` (SQLite only).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, assert_hidden, bearer, leak_property, post_import
from tests.rulesets.trio import NAME, SEATS, TARGET, trio_card, trio_spec

pytestmark = pytest.mark.storage_agnostic

FORMATS = {
    "json": "application/json",
    "ndjson": "application/x-ndjson",
    "csv": "text/csv; charset=utf-8",
    "text": "text/plain; charset=utf-8",
}


def create(client: FlaskClient, spec: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post("/api/games", json=spec or trio_spec(), headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def act(client: FlaskClient, game: dict[str, Any], token: str, *actions: dict[str, Any]) -> Any:
    return client.post(
        f"/api/games/{game['game_id']}/actions",
        json={"actions": list(actions)},
        headers=bearer(token),
    )


def get(client: FlaskClient, game: dict[str, Any], path: str, token: str | None = None) -> Any:
    response = client.get(f"/api/games/{game['game_id']}{path}", headers=bearer(token))
    assert response.status_code == 200, (path, response.get_json())
    return response.get_json()


def seat_token(game: dict[str, Any], seat: str) -> str:
    return str(game["seats"][seat]["token"])


def judge_view(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = get(client, game, "/state", game["judge_token"])
    return state


def options(state: dict[str, Any]) -> list[dict[str, Any]]:
    """What each seat may do, read from the judge's view of the state (no domain call)."""
    if state["status"] != "playing":
        return []
    out: list[dict[str, Any]] = []
    for seat, view in state["seats"].items():
        if view["eliminated"] is not None:
            continue
        out.append({"type": "concede", "seat": seat})
        if state["active_seat"] == seat:
            if view["deck_count"]:
                out.append({"type": "draw", "seat": seat})
            out += [{"type": "play", "seat": seat, "card": c["id"]} for c in view["hand"]]
            out.append({"type": "end_turn", "seat": seat})
    return out


def play_out(client: FlaskClient, game: dict[str, Any], rng: random.Random, limit: int) -> None:
    """Random legal actions (rarely a concession) posted by the table, up to ``limit``."""
    for _ in range(limit):
        state = judge_view(client, game)
        choices = options(state)
        if not choices:
            return
        keep = [c for c in choices if c["type"] != "concede"]
        command = rng.choice(keep if keep and rng.random() > 0.05 else choices)
        response = act(client, game, game["table_token"], command)
        assert response.status_code == 201, response.get_json()


# ---------------------------------------------------------------------------- creation


def test_a_trio_game_is_created_with_three_seat_tokens_a_table_and_a_judge(
    client: FlaskClient,
) -> None:
    game = create(client)
    assert set(game["seats"]) == set(SEATS)
    tokens = [seat_token(game, s) for s in SEATS] + [game["table_token"], game["judge_token"]]
    assert len(set(tokens)) == 5
    for seat in SEATS:
        assert len(game["seats"][seat]["cards"]) == 8
        champion = judge_view(client, game)["seats"][seat]["champion"]
        assert [c["name"] for c in champion] == [f"Trio Champion {seat}"]
    summary = get(client, game, "")
    assert summary["ruleset"] == NAME and summary["status"] == "playing"
    assert summary["players"] == {"A": "ann", "B": "bob", "C": "cyd"}
    assert summary["active_seat"] == "A"
    listed = client.get("/api/games?player=cyd").get_json()["games"]
    assert [g["game_id"] for g in listed] == [game["game_id"]]
    # each seat token is its own seat's viewer
    for seat in SEATS:
        assert get(client, game, "/state", seat_token(game, seat))["viewer"] == seat


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: s["seats"].pop(), "seats"),
        (lambda s: s["seats"][2].update(seat="D"), "seats"),
        (lambda s: s["seats"][2].update(seat="Z"), "seats"),
        (lambda s: s["seats"].append({**s["seats"][0], "seat": "D"}), "seats"),
        (lambda s: s.update(ruleset="test-quartet"), "ruleset"),
    ],
)
def test_the_ruleset_decides_how_many_seats_and_which(
    client: FlaskClient, change: Any, field: str
) -> None:
    spec = trio_spec()
    change(spec)
    response = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["code"] == "request/invalid_body" and field in error["fields"], error


def test_the_ccg_keeps_its_two_seats_and_its_messages(client: FlaskClient) -> None:
    from api.cli.demo import demo_spec

    spec = demo_spec(seed=0)
    spec["seats"].append({**spec["seats"][0], "seat": "C"})
    error = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    assert error["error"]["fields"] == {"seats": ["Length must be 2."]}
    spec = demo_spec(seed=0)
    spec["seats"][1]["seat"] = "A"
    error = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    assert error["error"]["fields"] == {"seats": ["one seat A and one seat B"]}


# ---------------------------------------------------------------------------- leaks


def _secret_spec(rng: random.Random) -> dict[str, Any]:
    spec = trio_spec(deck_size=10)
    for seat in spec["seats"]:
        for i, card in enumerate(seat["gems"]):
            card["name"] = f"Secret{seat['seat']}{i:02d}x{rng.getrandbits(40):010x}"
            card["text"] = ""
    return spec


def _everything(client: FlaskClient, game: dict[str, Any], token: str | None) -> str:
    """All a viewer may fetch about the game, plus an error caused on purpose."""
    gid, h = game["game_id"], bearer(token)
    paths = ["/state", "/events?limit=1000", "", "/timeline", "/verify"]
    parts = [client.get(f"/api/games/{gid}{p}", headers=h).get_data(as_text=True) for p in paths]
    timeline = client.get(f"/api/games/{gid}/timeline", headers=h).get_json()
    last = timeline["version"]
    parts.append(client.get(f"/api/games/{gid}/events/{last}", headers=h).get_data(as_text=True))
    for turn in timeline["turns"]:
        parts.append(client.get(f"/api/games/{gid}/turns/{turn}", headers=h).get_data(as_text=True))
    for fmt in FORMATS:
        export = client.get(f"/api/games/{gid}/export?format={fmt}", headers=h)
        parts.append(export.get_data(as_text=True))
    if token is not None:
        state = client.get(
            f"/api/games/{gid}/state", headers=bearer(game["judge_token"])
        ).get_json()
        viewer = client.get(f"/api/games/{gid}/state", headers=h).get_json()["viewer"]
        for seat, view in state["seats"].items():
            for card in view["hand"] if seat != viewer else []:
                bad = {"type": "play", "seat": viewer, "card": card["id"]}
                parts.append(act(client, game, token, bad).get_data(as_text=True))
    return "\n".join(parts)


@pytest.mark.slow
@leak_property(max_examples=4)
def test_no_card_hidden_in_a_seat_reaches_another_seat_or_a_spectator(
    app: Flask, seed: int
) -> None:
    rng = random.Random(seed)
    client = app.test_client()
    game = create(client, _secret_spec(rng))
    names = {c["id"]: c["name"] for s in SEATS for c in game["seats"][s]["cards"]}
    owner = {c["id"]: s for s in SEATS for c in game["seats"][s]["cards"]}
    hidden_seen = 0
    for _ in range(6):
        play_out(client, game, rng, 4)
        state = judge_view(client, game)
        public = {c["id"] for v in state["seats"].values() for c in v["table"]}
        hidden_seen += sum(len(v["hand"]) + v["deck_count"] for v in state["seats"].values())
        for viewer in (*SEATS, "spectator"):
            token = seat_token(game, viewer) if viewer in SEATS else None
            text = _everything(client, game, token)
            hidden = {c: n for c, n in names.items() if c not in public and owner[c] != viewer}
            assert_hidden(text, viewer, hidden)
        if state["status"] == "finished":
            break
    assert hidden_seen  # the property did exercise hidden cards


# ---------------------------------------------------------------------------- replay


def test_replay_at_a_version_as_a_viewer_by_turn_and_as_a_timeline(client: FlaskClient) -> None:
    game = create(client)
    a, table, judge = seat_token(game, "A"), game["table_token"], game["judge_token"]
    act(client, game, a, {"type": "draw", "seat": "A"})  # v2
    hand = judge_view(client, game)["seats"]["A"]["hand"]
    act(client, game, a, {"type": "play", "seat": "A", "card": hand[0]["id"]})  # v3
    act(client, game, a, {"type": "draw", "seat": "A"}, {"type": "end_turn", "seat": "A"})  # v5
    act(client, game, table, {"type": "draw", "seat": "B"}, {"type": "end_turn", "seat": "B"})

    at2 = get(client, game, "/state?at=2", judge)
    assert at2["version"] == 2 and at2["seats"]["A"]["hand"] == hand
    played = get(client, game, "/state?at=3", judge)["seats"]["A"]["table"]
    assert [(c["id"], c["face"]) for c in played] == [(hand[0]["id"], "up")]
    as_b = get(client, game, "/state?at=2&as=B", judge)
    assert as_b["viewer"] == "B" and "hand" not in as_b["seats"]["A"]
    assert hand[0]["id"] not in json.dumps(as_b)
    assert get(client, game, "/state?as=C", table)["viewer"] == "C"
    forbidden = client.get(
        f"/api/games/{game['game_id']}/state?as=A", headers=bearer(seat_token(game, "B"))
    )
    assert forbidden.status_code == 403
    assert forbidden.get_json()["error"]["code"] == "auth/forbidden_view"

    timeline = get(client, game, "/timeline", judge)
    assert timeline["version"] == 7
    assert [e["type"] for e in timeline["timeline"]][:3] == [
        "TrioGameCreated",
        "TrioCardDrawn",
        "TrioCardPlayed",
    ]
    assert {p["active"] for p in timeline["series"]} >= {"A", "B"}
    assert set(timeline["series"][-1]) >= {"A", "B", "C"}
    assert set(timeline["turns"]) == {"1", "2", "3"}  # a turn starts with the event passing it
    turn = get(client, game, "/turns/2", judge)
    assert [e["type"] for e in turn["events"]] == ["TrioTurnPassed", "TrioCardDrawn"]
    assert turn["before"]["active_seat"] == "A" and turn["after"]["active_seat"] == "B"
    detail = get(client, game, "/events/3", seat_token(game, "C"))
    assert detail["event"]["data"]["card"] == hand[0]["id"]
    assert detail["state"]["seats"]["A"]["table"][0]["name"] == hand[0]["name"]
    hidden = get(client, game, "/events/2", seat_token(game, "C"))
    assert hidden["event"]["data"]["card"] is None


# ---------------------------------------------------------------------------- export, import


def test_every_export_format_and_an_import_round_trip(client: FlaskClient) -> None:
    game = create(client)
    play_out(client, game, random.Random(7), 30)
    judge = game["judge_token"]
    for fmt, media in FORMATS.items():
        for token in (judge, seat_token(game, "B"), None):
            response = client.get(
                f"/api/games/{game['game_id']}/export?format={fmt}", headers=bearer(token)
            )
            body = response.get_data(as_text=True)
            assert response.status_code == 200, (fmt, body[:300])
            assert response.headers["Content-Type"] == media
            assert body.strip()
    exported = client.get(
        f"/api/games/{game['game_id']}/export?format=json", headers=bearer(judge)
    ).get_data()
    assert [s["seat"] for s in json.loads(exported)["seats"]] == list(SEATS)

    state_before = judge_view(client, game)
    # importing it where it already is is refused whole (its id is taken); importing it into
    # another server is the next test
    again = post_import(client, exported)
    assert again.status_code == 409, again.get_json()
    verify = get(client, game, "/verify")
    assert verify["ok"] is True and verify["checked"] == state_before["version"]


def test_an_exported_trio_game_imports_into_another_server(
    app: Flask, client: FlaskClient, tmp_path: Any
) -> None:
    from api.app import create_app

    game = create(client)
    play_out(client, game, random.Random(11), 40)
    judge = game["judge_token"]
    before = judge_view(client, game)
    for fmt in ("json", "ndjson"):
        exported = client.get(
            f"/api/games/{game['game_id']}/export?format={fmt}", headers=bearer(judge)
        ).get_data()
        other = create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": str(tmp_path / fmt),
                "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
                "MUNCHLOG_DATABASE_URL": str(tmp_path / f"{fmt}.sqlite"),
            }
        )
        try:
            there = other.test_client()
            response = post_import(there, exported)
            assert response.status_code == 201, response.get_json()
            body = response.get_json()
            assert body["game_id"] == game["game_id"] and set(body["seats"]) == set(SEATS)
            state = there.get(
                f"/api/games/{body['game_id']}/state", headers=bearer(body["judge_token"])
            ).get_json()
            assert state == before
            assert there.get(f"/api/games/{body['game_id']}/verify").get_json()["ok"] is True
            seat_c = there.get(
                f"/api/games/{body['game_id']}/state", headers=bearer(body["seats"]["C"]["token"])
            ).get_json()
            assert seat_c["viewer"] == "C"
        finally:
            other.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- its own read side
#
# issue #23 item 8: the trio's seat fields, option, card schema, table view, narration and
# results are its own (``domain.family.Family``), and nothing above ``domain/`` was changed for
# them: the layers above find them through the registered ruleset.


def test_the_trio_brings_its_seat_fields_option_and_card_schema(client: FlaskClient) -> None:
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert schemas["TrioCard"]["required"] == ["name", "kind"]
    seat = schemas["SeatSpec"]["properties"]
    assert seat["champion"]["anyOf"] == [{"$ref": "#/components/schemas/TrioCard"}]
    assert seat["gems"]["items"]["anyOf"] == [{"$ref": "#/components/schemas/TrioCard"}]
    assert "short_game" in schemas["Options"]["properties"]
    # the CCG's fields are not the trio's
    spec = trio_spec()
    spec["seats"][0]["hero"] = spec["seats"][0].pop("champion")
    error = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    assert error["error"]["fields"]["seats"]["0"] == {
        "champion": ["Missing data for required field."],
        "hero": ["Not a field of test-trio."],
    }, error
    # its cards are checked by the trio, where they are in the request
    spec = trio_spec()
    spec["seats"][1]["gems"][2]["points"] = 12
    error = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    assert error["error"]["code"] == "request/invalid_card"
    assert error["error"]["fields"] == {"seats.1.gems.2.points": ["1..9"]}
    # its option: the short game is won at 3 points
    spec = trio_spec()
    spec["options"] = {"short_game": True}
    game = create(client, spec)
    state = judge_view(client, game)
    assert (state["options"], state["target"]) == ({"short_game": True}, 3)
    assert create(client)["game_id"] and judge_view(client, create(client))["target"] == TARGET
    spec["options"] = {"listen_at_door": True}  # another family's option is not the trio's
    response = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN))
    assert response.get_json()["error"]["code"] == "request/invalid_options"


def test_the_trio_shows_its_table_tells_its_game_and_ranks_its_seats(
    client: FlaskClient,
) -> None:
    from domain.family import family_named

    spec = trio_spec(deck_size=4)
    for seat in spec["seats"]:
        seat["gems"] = [trio_card(f"Gem {seat['seat']}{i}", points=3) for i in range(4)]
    game = create(client, spec)
    table = game["table_token"]
    for seat in ("A", "B"):  # A and B score 3, then A reaches 6
        act(client, game, table, {"type": "draw", "seat": seat})
        card = judge_view(client, game)["seats"][seat]["hand"][0]["id"]
        act(client, game, table, {"type": "play", "seat": seat, "card": card})
        act(client, game, table, {"type": "end_turn", "seat": seat})
    act(client, game, table, {"type": "end_turn", "seat": "C"})
    act(client, game, table, {"type": "draw", "seat": "A"})
    card = judge_view(client, game)["seats"]["A"]["hand"][0]["id"]
    assert act(client, game, table, {"type": "play", "seat": "A", "card": card}).status_code == 201
    spectator = get(client, game, "/state")
    assert (spectator["target"], spectator["scores"]) == (TARGET, {"A": 6, "B": 3, "C": 0})
    transcript = client.get(
        f"/api/games/{game['game_id']}/export?format=text", headers=bearer(game["judge_token"])
    ).get_data(as_text=True)
    assert "T1 A: draws Gem A0 · lays Gem A0 for 3 points" in transcript
    assert "A wins the trio" in transcript and transcript.endswith("\nA\n")  # its result
    assert family_named(NAME).results(judge_view(client, game)) == {"A": 1, "B": 2, "C": 3}


def test_nothing_above_the_domain_names_the_trio_or_its_parts() -> None:
    """The trio's name, seat fields, option, card schema, table parts and words are found
    nowhere above ``domain/`` (the server's docs only name ``tests.rulesets.trio`` as an
    example of ``MUNCHLOG_RULESETS``)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    words = (NAME, "TrioCard", "champion", "gems", "short_game", "scores", "wins the trio")
    for layer in ("api", "service", "adapters", "projections"):
        for path in (root / layer).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".js", ".html", ".css"):
                text = path.read_text(encoding="utf-8")
                assert not [w for w in words if w in text], path


def test_a_family_registered_after_the_first_creation_is_accepted() -> None:
    """The nested seat schema of ``POST /api/games`` is made at its first load; a family
    registered after that (an app made later with ``MUNCHLOG_RULESETS``) has its seat fields
    accepted all the same (they were refused as unknown fields)."""
    from api.cli.demo import demo_spec
    from api.json_api.schemas import CreateGameSchema, SeatSpecSchema
    from domain.ruleset import RULESETS
    from domain.schemas import entry_of
    from tests.rulesets.trio import Trio

    class LateTrio(Trio):
        name = "test-trio-late"
        card_fields: Mapping[str, str] = {"runes": "many"}
        seat_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {
            "runes": {"entry": entry_of("TrioCard"), "description": "late runes"}
        }

    schema = CreateGameSchema()
    schema.load(demo_spec(seed=0))  # the nested seat schema is made now
    RULESETS[LateTrio.name] = LateTrio()
    try:
        seats = [{"seat": s, "player": s.lower(), "runes": [trio_card("Rune")]} for s in SEATS]
        body = {"ruleset": LateTrio.name, "mode": "strict", "format": "casual", "seats": seats}
        assert schema.load(body)["seats"][2]["runes"] == [trio_card("Rune")]
    finally:
        del RULESETS[LateTrio.name]
        SeatSpecSchema._declared_fields.pop("runes", None)
