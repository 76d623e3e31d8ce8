"""Classic Munchkin through the public HTTP API (issue #14; docs/rules.md B).

The three classic rulesets are registered by default. A game of 3 to 6 seats is created with
``doors`` and ``treasures`` per seat (catalog names or definitions; the body's schema and the
OpenAPI here), redacted per viewer through every route (a leak property for 3-6 seats: a hand,
a face-down loot or treasure, a charity gift are known only to those who saw them; the
creation's decks to no seat), and played by the demo, an HTTP client. Creation, the rules
checking cards and commands, exports and imports are use cases:
``tests/service/test_classic_games.py``. These tests are ``storage_agnostic`` (SQLite only),
but for the demo's whole games read back from each store.

Commands are picked from the domain's ``driver_commands`` on the judge's state, folded from the
judge's view of the log (no API offers legal commands; a driver's name deck tops, a seat's own
``legal_commands`` leave them out).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.cli.demo import domain_event_from_view
from domain import evolve, initial_state
from domain.classic import CLASSIC
from tests.api.helpers import (
    ORGANIZER_TOKEN,
    assert_hidden,
    bearer,
    judge_state,
    leak_property,
)
from tests.builders import classic_spec, random_classic_command

RULESETS = tuple(CLASSIC)
SEATS = "ABCDEF"
FORMATS = ("json", "ndjson", "csv", "text")


def create(client: FlaskClient, spec: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def get(client: FlaskClient, game: dict[str, Any], path: str, token: str | None = None) -> Any:
    token = game["judge_token"] if token == "judge" else token
    response = client.get(f"/api/games/{game['game_id']}{path}", headers=bearer(token))
    assert response.status_code == 200, (path, response.get_json())
    return response.get_json()


def act(client: FlaskClient, game: dict[str, Any], token: str, *actions: dict[str, Any]) -> Any:
    return client.post(
        f"/api/games/{game['game_id']}/actions",
        json={"actions": list(actions)},
        headers=bearer(token),
    )


def play_out(
    client: FlaskClient, game: dict[str, Any], rng: random.Random, limit: int
) -> dict[str, Any]:
    """Random legal commands (rarely a concession) posted by the table; the judge's state."""
    state = judge_state(client, game)
    rs = CLASSIC[state["ruleset"]]
    for _ in range(limit):
        if state["status"] == "finished":
            break
        command = random_classic_command(rs, state, rng)
        response = act(client, game, game["table_token"], command)
        assert response.status_code == 201, (command, response.get_json())
        state = judge_state(client, game)
    return state


# ---------------------------------------------------------------------------- creation


@pytest.mark.storage_agnostic
@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda s: s["seats"].pop() and s["seats"].pop(), "seats"),  # 2 seats
        (lambda s: s["seats"].extend([{**s["seats"][1], "seat": x} for x in "EFG"]), "seats"),
        (lambda s: s["seats"][0].update(hero={"name": "Sample Orc Warrior"}), "seats"),
        (lambda s: s["seats"][1].pop("treasures"), "seats"),
        (lambda s: s.update(options={"listen_at_doors": True}), "options"),
    ],
)
def test_the_classic_body_is_checked(client: FlaskClient, change: Any, where: str) -> None:
    spec = classic_spec("munchkin-deluxe", 4)
    change(spec)
    response = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN))
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "request/invalid_body" and where in error["fields"], error


@pytest.mark.storage_agnostic
def test_the_ccg_keeps_its_body_and_its_messages(client: FlaskClient) -> None:
    from api.cli.demo import demo_spec

    spec = demo_spec(seed=0)
    del spec["seats"][0]["hero"]
    spec["seats"][1]["doors"] = []
    error = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    assert error["error"]["fields"] == {
        "seats": {
            "0": {"hero": ["Missing data for required field."]},
            "1": {"doors": ["Not a field of munchkin-ccg."]},
        }
    }
    spec = {**demo_spec(seed=0), "options": {"shared_victory": True}}
    error = client.post("/api/games", json=spec, headers=bearer(ORGANIZER_TOKEN)).get_json()
    assert error["error"]["fields"] == {"options": ["munchkin-ccg has no options."]}


@pytest.mark.storage_agnostic
def test_the_openapi_describes_the_classic_seat(client: FlaskClient) -> None:
    doc = client.get("/api/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    seat = schemas["SeatSpec"]["properties"]
    ref = {"$ref": "#/components/schemas/ClassicCardDefinition"}
    assert ref in seat["doors"]["items"]["anyOf"] and ref in seat["treasures"]["items"]["anyOf"]
    assert "required" not in schemas["SeatSpec"] or "hero" not in schemas["SeatSpec"]["required"]
    assert set(RULESETS) <= set(schemas["CreateGame"]["properties"]["ruleset"]["enum"])
    card = schemas["ClassicCardDefinition"]
    assert card["properties"]["kind"]["enum"][0] == "monster"
    options = {"listen_at_door", "shared_victory", "strict_steed_discard"}
    assert options <= set(schemas["Options"]["properties"])  # and any other family's loaded


# ---------------------------------------------------------------------------- leaks


def _everything(client: FlaskClient, game: dict[str, Any], token: str | None) -> str:
    """All a viewer may fetch about the game."""
    gid, h = game["game_id"], bearer(token)
    paths = ["/state", "/events?limit=1000", "", "/timeline", "/verify"]
    parts = [client.get(f"/api/games/{gid}{p}", headers=h).get_data(as_text=True) for p in paths]
    timeline = client.get(f"/api/games/{gid}/timeline", headers=h).get_json()
    last = timeline["version"]
    parts.append(client.get(f"/api/games/{gid}/events/{last}", headers=h).get_data(as_text=True))
    for turn in list(timeline["turns"])[-2:]:
        parts.append(client.get(f"/api/games/{gid}/turns/{turn}", headers=h).get_data(as_text=True))
    for fmt in FORMATS:
        export = client.get(f"/api/games/{gid}/export?format={fmt}", headers=h)
        parts.append(export.get_data(as_text=True))
    return "\n".join(parts)


@pytest.mark.storage_agnostic
@leak_property(max_examples=4)
def test_no_hidden_classic_card_reaches_another_seat_or_a_spectator(app: Flask, seed: int) -> None:
    """Hands, face-down loot and treasures, charity gifts and the decks (docs/rules.md A.4, B):
    a viewer never sees the id or the name of a card it never knew."""
    rng = random.Random(seed)
    client = app.test_client()
    ruleset = RULESETS[seed % 3]
    n = 3 + seed % 4
    game = create(client, classic_spec(ruleset, n, copies=2, secret=rng))
    state = judge_state(client, game)
    names = {cid: card["def"]["name"] for cid, card in state["cards"].items()}
    seats = tuple(state["seats"])
    ever: dict[str, set[str]] = {cid: set() for cid in names}
    public: set[str] = set()
    folded, hidden_seen = initial_state(), 0
    for _ in range(4):
        state = play_out(client, game, rng, 12)
        # who knew each card before or after each event (what an event may show: A.4)
        page = get(client, game, f"/events?after={folded['version']}&limit=1000", "judge")
        for view in page["events"]:
            before, folded = folded, evolve(folded, domain_event_from_view(view))
            for cid, card in folded["cards"].items():
                knew = set(card["known"]) | set(before.get("cards", {}).get(cid, card)["known"])
                ever[cid] |= knew
                if knew >= set(seats):
                    public.add(cid)
        hidden_seen += sum(1 for cid in names if not set(seats) <= ever[cid])
        for viewer in (*seats, "spectator"):
            token = game["seats"][viewer]["token"] if viewer in seats else None
            text = _everything(client, game, token)
            if viewer == "spectator":
                hidden = {c: n for c, n in names.items() if c not in public}
            else:
                hidden = {c: n for c, n in names.items() if viewer not in ever[c]}
            assert_hidden(text, viewer, hidden)
        if state["status"] == "finished":
            break
    assert hidden_seen


@pytest.mark.storage_agnostic
def test_face_down_rewards_and_charity_gifts_are_known_to_giver_and_receiver_only(
    client: FlaskClient,
) -> None:
    """A wins alone against a Level 1 monster: its Treasures are drawn face down (B.7); with
    nine cards at the end of its turn, it gives four to B and C, the lowest levels (B.13): each
    gift is known to A and its receiver only (D.C11), through every endpoint."""
    rat = {"name": "Rat Zzq", "deck": "door", "kind": "monster", "level": 1, "treasures": 2}
    sword = {"name": "Sword Zzq", "deck": "treasure", "kind": "item", "slot": "2hands"}
    blank_door = {"deck": "door", "kind": "other", "text": ""}
    gem = {"deck": "treasure", "kind": "item", "slot": None, "value": 100, "text": ""}
    doors = [rat, *({**blank_door, "name": f"Door Zzq{i:02d}"} for i in range(20))]
    treasures = [
        {**sword, "bonus": 5, "value": 600, "big": True, "text": ""},
        *({**gem, "name": f"Gem Zzq{i:02d}"} for i in range(20)),
    ]
    spec = classic_spec("munchkin-deluxe", 3)
    spec["seats"][0].update(doors=doors, treasures=treasures)
    game = create(client, spec)
    table = game["table_token"]
    state = judge_state(client, game)
    ids = {c["def"]["name"]: cid for cid, c in state["cards"].items()}
    first = [ids["Door Zzq00"], ids["Door Zzq01"], ids["Door Zzq02"], ids["Door Zzq03"]]
    mine = [ids["Sword Zzq"], ids["Gem Zzq00"], ids["Gem Zzq01"], ids["Gem Zzq02"]]
    steps: list[dict[str, Any]] = [{"type": "deal", "seat": "A", "doors": first, "treasures": mine}]
    for n, seat in enumerate("BC"):
        d = [ids[f"Door Zzq{4 + 4 * n + i:02d}"] for i in range(4)]
        t = [ids[f"Gem Zzq{3 + 4 * n + i:02d}"] for i in range(4)]
        steps.append({"type": "deal", "seat": seat, "doors": d, "treasures": t})
    steps += [
        {"type": "roll_first", "seat": "A", "rolls": {"A": 6, "B": 2, "C": 1}},
        {"type": "play", "seat": "A", "card": ids["Sword Zzq"]},
        *({"type": "ready", "seat": s} for s in "ABC"),
        {"type": "kick_door", "seat": "A", "card": ids["Rat Zzq"]},
        {"type": "pass", "seat": "B"},
        {"type": "pass", "seat": "C"},
        {"type": "take_treasure", "seat": "A", "cards": [ids["Gem Zzq19"], ids["Gem Zzq18"]]},
    ]
    response = act(client, game, table, *steps)
    assert response.status_code == 201, response.get_json()
    state = judge_state(client, game)
    assert state["phase"] == "charity" and state["seats"]["A"]["level"] == 2
    hand = state["seats"]["A"]["zones"]["hand"]
    gifts = {cid: "BC"[i % 2] for i, cid in enumerate(hand[: len(hand) - 5])}
    charity = {"type": "charity", "seat": "A", "gifts": gifts}
    response = act(client, game, table, charity, {"type": "end_turn", "seat": "A"})
    assert response.status_code == 201, response.get_json()
    names = {cid: c["def"]["name"] for cid, c in state["cards"].items()}
    rewards = {ids["Gem Zzq19"], ids["Gem Zzq18"]}
    for viewer in ("B", "C", "spectator"):
        token = game["seats"][viewer]["token"] if viewer in "BC" else None
        text = _everything(client, game, token)
        secret = {cid: names[cid] for cid in [*rewards, *gifts] if gifts.get(cid) != viewer}
        assert secret
        assert_hidden(text, viewer, secret)
        for cid, to in gifts.items():
            if to == viewer:
                assert names[cid] in text  # the receiver sees its gift
    assert all(names[c] in _everything(client, game, game["seats"]["A"]["token"]) for c in rewards)


# ---------------------------------------------------------------------------- demo


@pytest.mark.storage_agnostic
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_demo_records_a_classic_game(app: Flask, ruleset: str) -> None:
    """``munchlog demo --ruleset …`` (api/cli/demo.py): a seeded classic game over the API."""
    from api.cli.demo import FlaskTransport, record_demo_game
    from api.cli.main import build_parser

    args = build_parser().parse_args(["demo", "--ruleset", ruleset, "--seats", "5"])
    assert (args.ruleset, args.seats, args.actions) == (ruleset, 5, None)
    result = record_demo_game(
        FlaskTransport(app), ORGANIZER_TOKEN, seed=3, ruleset=ruleset, seats=5, max_actions=40
    )
    assert result.actions == 40 and result.version > 40
    assert set(result.tokens) == {*"ABCDE", "table", "judge"}
    client = app.test_client()
    game = {"game_id": result.game_id, "judge_token": result.tokens["judge"]}
    state = get(client, game, "/state", "judge")
    assert state["ruleset"] == ruleset and state["options"]["shared_victory"] is True
    assert state["turn"] >= 1 and len(state["seats"]) == 5
    again = record_demo_game(
        FlaskTransport(app), ORGANIZER_TOKEN, seed=3, ruleset=ruleset, seats=5, max_actions=40
    )
    other = {"game_id": again.game_id, "judge_token": again.tokens["judge"]}
    events = [
        (e["type"], e["seat"]) for e in get(client, game, "/events?limit=1000", "judge")["events"]
    ]
    assert events == [
        (e["type"], e["seat"]) for e in get(client, other, "/events?limit=1000", "judge")["events"]
    ]  # the same seed, the same game


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_demo_plays_a_classic_game_to_a_winner(
    make_app: Callable[[], Flask], ruleset: str
) -> None:
    """``munchlog demo --ruleset …`` with its defaults (seed 0, 4 seats) plays strict legal
    commands until a seat wins (``domain.classic.demo.classic_choice``; docs/rules.md B.3, B.16), and
    the stored log folds to the state the server shows, in this app and in a new one."""
    from api.cli.demo import FlaskTransport, record_demo_game
    from projections.views import state_view

    app = make_app()
    result = record_demo_game(FlaskTransport(app), ORGANIZER_TOKEN, ruleset=ruleset)
    assert result.status == "finished" and result.winner
    game = {"game_id": result.game_id, "judge_token": result.tokens["judge"]}
    folded = judge_state(app.test_client(), game)
    assert folded["status"] == "finished" and folded["winners"]
    assert "+".join(folded["winners"]) == result.winner == folded["winner"]
    assert result.version == folded["version"]
    tens = [s for s in folded["winners"] if folded["seats"][s]["level"] == 10]
    assert tens, "a classic game is won at Level 10"  # the demo never concedes (B.16)
    for after in range(0, result.version, 1000):
        page = get(app.test_client(), game, f"/events?after={after}&limit=1000", "judge")
        assert all(e["violation"] is None for e in page["events"])  # strict: all legal
    shown = get(app.test_client(), game, "/state", "judge")
    assert shown == state_view(folded, "judge")
    assert get(make_app().test_client(), game, "/state", "judge") == shown  # from the store


# ---------------------------------------------------------------------------- histories


def test_a_classic_history_row_counts_turns_combats_and_shared_victories() -> None:
    """projections/history.py reads the classic events (docs/rules.md B.4, B.5, B.16)."""
    from projections.history import fold_history, player_games, totals

    seats = [{"seat": s, "player": p} for s, p in zip("ABC", ("Ann", "Bob", "Cyd"), strict=True)]
    events = [
        {"type": "ClassicGameCreated", "ruleset": "munchkin-deluxe", "seats": seats},
        {"type": "TurnBegan", "player": "A", "turn": 1},
        {"type": "CombatStarted", "player": "A", "monster": "m1"},
        {"type": "TurnBegan", "player": "B", "turn": 2},
        {"type": "CombatStarted", "player": "B", "monster": "m2"},
        {"type": "CombatStarted", "player": "B", "monster": "m3"},
        {"type": "GameWon", "winners": ["A", "C"], "reason": "shared_victory"},
    ]
    row = None
    for version, event in enumerate(events, 1):
        at = f"2026-01-01T10:{version:02d}:00+00:00"
        row = fold_history(
            row, {"version": version, "event": event, "received_at": at}, game_id="g"
        )
    assert row is not None
    assert row["status"] == "finished" and row["winner"] == "A+C" and row["turns"] == 2
    assert row["fights"] == {"A": 1, "B": 2, "C": 0}
    results = {p: player_games([row], p)[0]["result"] for p in ("Ann", "Bob", "Cyd")}
    assert results == {"Ann": "win", "Bob": "loss", "Cyd": "win"}
    assert totals(player_games([row], "Cyd"))["wins"] == 1


@pytest.mark.storage_agnostic
def test_the_openapi_documents_every_classic_card_field(client: FlaskClient) -> None:
    """Every field ``normalize_card`` fills, for every kind of every set, is in the
    ``ClassicCardDefinition`` schema with a description (docs/rules.md B.2, B.8, B.10, B.11,
    D.C7: the optional fields of the added rules among them), and so is every power."""
    from domain.classic.cards import POWERS, kinds_of, normalize_card

    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    card = schemas["ClassicCardDefinition"]
    props = card["properties"]
    filled: set[str] = set()
    for ruleset, rs in CLASSIC.items():
        for kind in kinds_of(rs.rules):
            raw = {"name": "x", "deck": "door", "kind": kind, "level": 1, "trait": "T"}
            filled |= set(normalize_card(raw, ruleset))
    added = {"next_combat", "removes_curse", "escape_bad_stuff", "forces_help", "cheat", "when"}
    assert added <= filled
    assert filled <= set(props), filled - set(props)
    for name in filled - {"deck", "kind", "name"}:
        assert props[name].get("description"), name
        assert name in card["description"] or name == "text", name
    powers = props["powers"]["properties"]
    assert set(powers) == set(POWERS) and all(p["description"] for p in powers.values())
    assert "discard" in powers["backstab"]["description"]
    for flag in ("next_combat", "removes_curse", "forces_help", "cheat", "persistent", "big"):
        assert props[flag]["type"] == "boolean" and not props[flag].get("nullable"), flag
