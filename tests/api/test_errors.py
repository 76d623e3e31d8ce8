"""Malformed, unauthorized and illegal requests: status, error code, the one error shape, and
nothing changed. What HTTP answers is the same on any store: ``storage_agnostic`` (SQLite
only)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.cli.demo import demo_spec
from domain import find_ruleset
from domain.ccg.cards import sample_catalog
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, judge_state, post_actions

pytestmark = pytest.mark.storage_agnostic


@dataclass
class Ctx:
    """A game in setup with A's opening hand drawn, plus a second game and known commands."""

    client: FlaskClient
    game: dict[str, Any]
    other: dict[str, Any]
    state: dict[str, Any]
    next_b: dict[str, Any]
    used_key: str = "already-used"
    tokens: dict[str, str] = field(default_factory=dict)

    def url(self, suffix: str = "") -> str:
        return f"/api/games/{self.game['game_id']}{suffix}"


def _deck_b(ctx: Ctx) -> list[str]:
    return list(ctx.state["seats"]["B"]["zones"]["deck"])


def _spec(**changes: Any) -> dict[str, Any]:
    return {**demo_spec(seed=0), **changes}


def _seats(mutate: Callable[[list[dict[str, Any]]], None]) -> dict[str, Any]:
    spec = demo_spec(seed=0)
    mutate(spec["seats"])
    return spec


def _one_card_defined(**changes: Any) -> Callable[[list[dict[str, Any]]], None]:
    """Seat A's first deck card sent as a full definition (the catalog's, with ``changes``)
    instead of by name: the deck keeps its size (docs/rules.md A.6)."""

    def mutate(seats: list[dict[str, Any]]) -> None:
        entry = seats[0]["deck"][0]
        entry["count"] -= 1
        seats[0]["deck"].append({**sample_catalog().get(entry["name"]), **changes})

    return mutate


def _card_appended(card: dict[str, Any]) -> Callable[[list[dict[str, Any]]], None]:
    return lambda seats: seats[0]["deck"].append(card)


Case = tuple[str, Callable[[Ctx], Any], int, str]


def _act(token: str, actions: Any, **extra: Any) -> Callable[[Ctx], Any]:
    """POST actions with a token role (``A``, ``B``, ``table``, ``judge``, ``organizer``...)."""

    def call(ctx: Ctx) -> Any:
        body = {"actions": actions(ctx) if callable(actions) else actions, **extra}
        headers = bearer(ctx.tokens.get(token, token) if token else None)
        return ctx.client.post(ctx.url("/actions"), json=body, headers=headers)

    return call


def _create(token: str | None, body: Any, *, raw: str | None = None) -> Callable[[Ctx], Any]:
    def call(ctx: Ctx) -> Any:
        headers = bearer(ORGANIZER_TOKEN if token == "organizer" else token)
        if raw is not None:
            headers["Content-Type"] = "application/json"
            return ctx.client.post("/api/games", data=raw, headers=headers)
        return ctx.client.post("/api/games", json=body, headers=headers)

    return call


def _get(path: str, token: str | None = None) -> Callable[[Ctx], Any]:
    def call(ctx: Ctx) -> Any:
        return ctx.client.get(
            path.format(game=ctx.url()), headers=bearer(ctx.tokens.get(token or "", token))
        )

    return call


END_TURN_B = [{"type": "end_turn", "seat": "B"}]


def _b_draw(ctx: Ctx) -> list[dict[str, Any]]:
    return [ctx.next_b]


CASES: list[Case] = [
    # --- creating games
    ("create without a token", _create(None, _spec()), 401, "auth/missing_token"),
    ("create with an unknown token", _create("nope", _spec()), 401, "auth/invalid_token"),
    ("create with a seat token", _create("seat-token", _spec()), 401, "auth/invalid_token"),
    (
        "create with a Basic header",
        lambda c: c.client.post(
            "/api/games", json=_spec(), headers={"Authorization": "Basic Zm9vOmJhcg=="}
        ),
        401,
        "auth/malformed_header",
    ),
    (
        "create with invalid JSON",
        _create("organizer", None, raw="{nope"),
        400,
        "request/invalid_json",
    ),
    ("create with a JSON list", _create("organizer", [1, 2]), 400, "request/invalid_body"),
    (
        "create without seats",
        _create("organizer", {"ruleset": "munchkin-ccg", "mode": "strict", "format": "prime"}),
        400,
        "request/invalid_body",
    ),
    (
        "create with an unknown ruleset",
        _create("organizer", _spec(ruleset="chess")),
        400,
        "request/invalid_body",
    ),
    (
        "create with an unknown mode",
        _create("organizer", _spec(mode="lenient")),
        400,
        "request/invalid_body",
    ),
    (
        "create with an unknown field",
        _create("organizer", _spec(colour="red")),
        400,
        "request/invalid_body",
    ),
    (
        "create with two seats A",
        _create("organizer", _seats(lambda s: s[1].update(seat="A"))),
        400,
        "request/invalid_body",
    ),
    (
        "create with three seats",
        _create("organizer", _seats(lambda s: s.append(dict(s[0])))),
        400,
        "request/invalid_body",
    ),
    (
        "create with an unknown card name",
        _create("organizer", _seats(lambda s: s[0]["deck"].append({"name": "No Such Card"}))),
        400,
        "request/unknown_card_name",
    ),
    (
        "create with a count of 0",
        _create("organizer", _seats(lambda s: s[0]["deck"][0].update(count=0))),
        400,
        "request/invalid_card",
    ),
    (
        "create with a malformed card definition",
        _create(
            "organizer", _seats(lambda s: s[0]["deck"].append({"name": "X", "type": "dragon"}))
        ),
        400,
        "request/invalid_card",
    ),
    (
        "create with a card whose keywords are a string",
        _create(
            "organizer",
            _seats(_card_appended({"name": "X", "type": "ally", "life": 1, "keywords": "ab"})),
        ),
        400,
        "request/invalid_card",
    ),
    (
        "create with an unknown card definition field",
        _create(
            "organizer", _seats(_card_appended({"name": "X", "type": "ally", "life": 1, "lif": 1}))
        ),
        400,
        "request/invalid_card",
    ),
    (
        "create a prime deck with a catalog card whose cost was changed",
        _create("organizer", _seats(_one_card_defined(cost=99))),
        422,
        "rule/not_the_catalog_card",
    ),
    (
        "create a prime deck with a card the catalog does not have",
        _create("organizer", _seats(_one_card_defined(name="Sample Homebrew"))),
        422,
        "rule/unknown_card",
    ),
    (
        "create a 41-card prime deck",
        _create(
            "organizer", _seats(lambda s: s[0]["deck"].append({"name": s[0]["deck"][-1]["name"]}))
        ),
        422,
        "rule/deck_size",
    ),
    (
        "create with a non-hero as hero",
        _create("organizer", _seats(lambda s: s[0].update(hero={"name": s[0]["deck"][0]["name"]}))),
        422,
        "rule/not_a_hero",
    ),
    # --- who may record
    ("actions without a token", _act("", END_TURN_B), 401, "auth/missing_token"),
    ("actions with the organizer token", _act("organizer", END_TURN_B), 403, "auth/forbidden"),
    (
        "actions with another game's token",
        _act("other-table", END_TURN_B),
        401,
        "auth/invalid_token",
    ),
    ("actions with a garbage token", _act("garbage", END_TURN_B), 401, "auth/invalid_token"),
    ("seat A acting for seat B", _act("A", END_TURN_B), 403, "auth/wrong_seat"),
    (
        "seat B acting for seat A in a batch",
        _act("B", lambda c: [c.next_b, {"type": "keep", "seat": "A"}]),
        403,
        "auth/wrong_seat",
    ),
    (
        "the table acting for the judge",
        _act("table", [{"type": "pass", "seat": "judge"}]),
        403,
        "auth/wrong_seat",
    ),
    (
        "actions on an unknown game",
        lambda c: post_actions(c.client, str(uuid.uuid4()), c.tokens["table"], END_TURN_B),
        404,
        "game/not_found",
    ),
    (
        "actions on a malformed game id",
        lambda c: post_actions(c.client, "not-a-uuid", c.tokens["table"], END_TURN_B),
        404,
        "game/not_found",
    ),
    # --- malformed batches
    ("an empty batch", _act("table", []), 400, "request/invalid_body"),
    ("actions is not a list", _act("table", {"type": "keep"}), 400, "request/invalid_body"),
    ("an action without a type", _act("table", [{"seat": "B"}]), 400, "request/invalid_body"),
    (
        "an action with a bad client time",
        _act("table", lambda c: [{**c.next_b, "at": "yesterday"}]),
        400,
        "request/invalid_body",
    ),
    (
        "a client-sent salt",
        _act("table", [{"type": "attack", "seat": "B", "card": "x", "gold": 0, "salt": "00"}]),
        400,
        "request/salt_not_allowed",
    ),
    (
        "expected_version as a string",
        _act("table", _b_draw, expected_version="2"),
        400,
        "request/invalid_body",
    ),
    (
        "a negative expected_version",
        _act("table", _b_draw, expected_version=-1),
        400,
        "request/invalid_body",
    ),
    (
        "an unknown command type",
        _act("table", [{"type": "fly", "seat": "B"}]),
        400,
        "request/unknown_command",
    ),
    (
        "a too-long Idempotency-Key",
        lambda c: post_actions(
            c.client, c.game["game_id"], c.tokens["table"], [c.next_b], key="k" * 201
        ),
        400,
        "request/invalid_idempotency_key",
    ),
    (
        "a reused Idempotency-Key with another body",
        lambda c: post_actions(
            c.client, c.game["game_id"], c.tokens["table"], [c.next_b], key=c.used_key
        ),
        422,
        "request/idempotency_key_reused",
    ),
    # --- stale or illegal
    (
        "a stale expected_version",
        _act("table", _b_draw, expected_version=1),
        409,
        "game/version_conflict",
    ),
    (
        "a future expected_version",
        _act("table", _b_draw, expected_version=999),
        409,
        "game/version_conflict",
    ),
    (
        "an opening hand of five",
        _act("table", lambda c: [{**c.next_b, "cards": _deck_b(c)[:5]}]),
        422,
        "rule/opening_hand_size",
    ),
    (
        "drawing A's opening hand twice",
        _act(
            "A",
            lambda c: [
                {
                    "type": "draw_opening",
                    "seat": "A",
                    "cards": c.state["seats"]["A"]["zones"]["deck"][:6],
                }
            ],
        ),
        422,
        "rule/already_drawn",
    ),
    (
        "drawing cards that are not in the deck",
        _act("table", lambda c: [{**c.next_b, "cards": c.state["seats"]["A"]["zones"]["hand"]}]),
        422,
        "command/",
    ),
    (
        "a batch whose second action is illegal",
        _act("table", lambda c: [c.next_b, {**c.next_b}]),
        422,
        "rule/already_drawn",
    ),
    # --- reads and HTTP errors
    ("state at version 0", _get("{game}/state?at=0"), 400, "request/invalid_query"),
    ("state at a future version", _get("{game}/state?at=9999"), 404, "game/version_not_found"),
    ("events with limit 0", _get("{game}/events?limit=0"), 400, "request/invalid_query"),
    (
        "events after a negative version",
        _get("{game}/events?after=-1"),
        400,
        "request/invalid_query",
    ),
    ("a summary with a bad token", _get("{game}", "garbage"), 401, "auth/invalid_token"),
    ("state of an unknown game", _get(f"/api/games/{uuid.uuid4()}/state"), 404, "game/not_found"),
    (
        "a list with an unknown status",
        _get("/api/games?status=bogus"),
        400,
        "request/invalid_query",
    ),
    ("an unknown route", _get("/api/nothing-here"), 404, "request/not_found"),
    ("DELETE a game", lambda c: c.client.delete(c.url()), 405, "request/method_not_allowed"),
    (
        "a body over the size limit",
        lambda c: c.client.post(
            c.url("/actions"),
            data=b"x" * (1024 * 1024 + 10),
            headers={**bearer(c.tokens["table"]), "Content-Type": "application/json"},
        ),
        413,
        "request/too_large",
    ),
]


@pytest.fixture
def ctx(client: FlaskClient) -> Ctx:
    game = create_game(client)
    other = create_game(client)
    rs = find_ruleset("munchkin-ccg")
    state = judge_state(client, game)
    (draw_a, *_) = rs.legal_commands(state, "A")
    used = post_actions(client, game["game_id"], game["table_token"], [draw_a], key="already-used")
    assert used.status_code == 201
    state = judge_state(client, game)
    (next_b, *_) = rs.legal_commands(state, "B")
    tokens = {
        "A": game["seats"]["A"]["token"],
        "B": game["seats"]["B"]["token"],
        "table": game["table_token"],
        "judge": game["judge_token"],
        "organizer": ORGANIZER_TOKEN,
        "other-table": other["table_token"],
        "seat-token": game["seats"]["A"]["token"],
    }
    return Ctx(client, game, other, state, next_b, tokens=tokens)


def test_there_are_at_least_thirty_cases() -> None:
    assert len(CASES) >= 30
    assert len({name for name, *_ in CASES}) == len(CASES)


@pytest.mark.parametrize(("name", "call", "status", "code"), CASES, ids=[c[0] for c in CASES])
def test_a_rejected_request_gets_one_error_shape_and_changes_nothing(
    ctx: Ctx, name: str, call: Callable[[Ctx], Any], status: int, code: str
) -> None:
    log = ctx.client.application.extensions["munchlog"]
    games_before = len(log.list_games(limit=200)[0])
    versions_before = {
        g: log.current_version(uuid.UUID(g)) for g in (ctx.game["game_id"], ctx.other["game_id"])
    }

    response = call(ctx)

    body = response.get_json()
    assert response.status_code == status, body
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"].startswith(code), error
    assert isinstance(error["message"], str) and error["message"]
    assert set(error) <= {"code", "message", "rule", "current_version", "fields"}
    if code.startswith("rule/"):
        assert error["rule"].startswith("A.")
    if status == 409:
        assert error["current_version"] == versions_before[ctx.game["game_id"]]
    if status == 401:
        assert response.headers.get("WWW-Authenticate") == "Bearer"
    assert len(log.list_games(limit=200)[0]) == games_before
    for game_id, version in versions_before.items():
        assert log.current_version(uuid.UUID(game_id)) == version
