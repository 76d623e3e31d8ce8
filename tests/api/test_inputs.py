"""Every input validated at the edge (issue 12): nesting, numbers, strings, encodings, ranges,
credentials before bodies. Each refusal is a 4xx with its code, and nothing is stored.

Refused at the edge, a request never reaches the store: these tests are ``storage_agnostic``
(SQLite only), but for those where what is stored, or could be, is the point (a NUL, a
surrogate pair, the store's own encoding, junk and poison that must never be stored)."""

from __future__ import annotations

import copy
import json
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from api.cli.demo import demo_spec
from api.json_api import inputs
from api.json_api.schemas import MAX_VERSION
from domain.ccg import COMMAND_TYPES
from domain.ccg.cards import MAX_NUMBER
from domain.ccg.corrections import JUDGE_EFFECTS
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, post_import, version_of

pytestmark = pytest.mark.storage_agnostic

JSON = "application/json"


@dataclass
class Table:
    """A created game and its tokens."""

    client: FlaskClient
    game: dict[str, Any]
    dispute_id: str = "d1"

    @property
    def gid(self) -> str:
        return str(self.game["game_id"])

    def token(self, role: str) -> str:
        if role == "organizer":
            return ORGANIZER_TOKEN
        if role in ("table", "judge"):
            return str(self.game[f"{role}_token"])
        return str(self.game["seats"][role]["token"])

    def post(self, path: str, body: bytes | str, role: str | None) -> Any:
        """POST raw ``body`` as JSON to ``path`` (``{game}`` is this game's URL)."""
        headers = {"Content-Type": JSON, **bearer(self.token(role) if role else None)}
        url = path.format(game=f"/api/games/{self.gid}")
        return self.client.post(url, data=body, headers=headers)

    def version(self) -> int:
        return version_of(self.client, self.gid)

    def game_count(self) -> int:
        log = self.client.application.extensions["munchlog"]
        return len(log.list_games(limit=200)[0])


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client, create_game(client))


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    body = response.get_json()
    assert response.status_code == status, body
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    error: dict[str, Any] = body["error"]
    return error


#: The JSON write endpoints and who may call them: (path, role).
WRITES = [
    ("/api/games", "organizer"),
    ("{game}/actions", "table"),
    ("{game}/disputes", "table"),
    ("{game}/disputes/d1/ruling", "judge"),
    ("/api/games/import", "organizer"),
]
WRITE_IDS = ["create", "actions", "disputes", "ruling", "import"]


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True)


# ----------------------------------------------------------------------------- nesting


@pytest.mark.parametrize(("path", "role"), WRITES, ids=WRITE_IDS)
def test_json_nested_a_thousand_deep_is_400_too_deep_and_stores_nothing(
    table: Table, path: str, role: str
) -> None:
    before, games = table.version(), table.game_count()
    for deep in ("[" * 1000 + "]" * 1000, '{"actions": ' + "[" * 5000):
        assert_error(table.post(path, deep, role), 400, "request/too_deep")
    assert (table.version(), table.game_count()) == (before, games)


def test_the_depth_limit_counts_brackets_not_characters_in_strings() -> None:
    at_limit = b"[" * inputs.MAX_DEPTH + b"]" * inputs.MAX_DEPTH
    assert inputs.loads(at_limit) == json.loads(at_limit)
    in_strings = _dump({"statement": "[" * 500, "x": ['"[[[\\"', "{{{{"] * 50}).encode()
    assert inputs.loads(in_strings) == json.loads(in_strings)
    with pytest.raises(inputs.InvalidInput) as raised:
        inputs.loads(b"[" + at_limit + b"]")
    assert raised.value.code == "request/too_deep"
    text = rb'{"a": [{"b": "\"[[[["}], "c\\": [[]]}'
    assert json.loads(text) == {"a": [{"b": '"[[[['}], "c\\": [[]]}
    assert inputs.nesting_depth(text) == 3


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


bracket_text = st.text(st.sampled_from('[]{}"\\ax\u00e9\U0001f409'), max_size=8)
json_values = st.recursive(
    st.none() | st.integers() | bracket_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(bracket_text, inner, max_size=3),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values, ascii_only=st.booleans())
def test_the_measured_depth_is_the_depth_of_the_parsed_value(value: Any, ascii_only: bool) -> None:
    """Strings full of brackets, quotes and backslashes never count, escaped or not."""
    text = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert inputs.nesting_depth(text) == _depth(value)


# ----------------------------------------------------------------------------- numbers


def test_an_integer_of_5000_digits_is_400_naming_its_field(table: Table) -> None:
    before = table.version()
    body = '{"actions": [{"type": "end_turn", "seat": "B", "gold": ' + "9" * 5000 + "}]}"
    error = assert_error(table.post("{game}/actions", body, "table"), 400, "request/invalid_body")
    assert error["fields"] == {"actions": {"0": {"gold": [inputs.BAD_NUMBER]}}}
    assert table.version() == before


@pytest.mark.parametrize("number", [str(2**63), str(-(2**63) - 1), "1e400", "-1e999"])
def test_numbers_beyond_64_bits_or_infinite_are_400_naming_their_field(
    table: Table, number: str
) -> None:
    spec = _dump(demo_spec(seed=0)).replace('"round": 1', f'"round": {number}')
    assert f'"round": {number}' in spec
    error = assert_error(table.post("/api/games", spec, "organizer"), 400, "request/invalid_body")
    assert error["fields"] == {"labels": {"round": [inputs.BAD_NUMBER]}}


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(table: Table, constant: str) -> None:
    body = '{"actions": [{"type": "end_turn", "seat": "B", "gold": ' + constant + "}]}"
    assert_error(table.post("{game}/actions", body, "table"), 400, "request/invalid_json")


# ----------------------------------------------------------------------------- strings


def _spec_with(path: tuple[Any, ...], value: Any) -> str:
    spec: Any = demo_spec(seed=0)
    node = spec
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return _dump(spec)


BAD_STRINGS = {"NUL": "Ann\x00", "a lone high surrogate": "\ud800", "a lone low": "x\udfff"}


@pytest.mark.parametrize("bad", BAD_STRINGS.values(), ids=BAD_STRINGS.keys())
def test_a_bad_player_name_or_label_is_400_naming_its_field(table: Table, bad: str) -> None:
    games = table.game_count()
    response = table.post("/api/games", _spec_with(("seats", 1, "player"), bad), "organizer")
    error = assert_error(response, 400, "request/invalid_body")
    assert error["fields"] == {"seats": {"1": {"player": [inputs.BAD_STRING]}}}
    response = table.post("/api/games", _spec_with(("labels", "event"), bad), "organizer")
    error = assert_error(response, 400, "request/invalid_body")
    assert error["fields"] == {"labels": {"event": [inputs.BAD_STRING]}}
    assert table.game_count() == games


@pytest.mark.parametrize("bad", BAD_STRINGS.values(), ids=BAD_STRINGS.keys())
def test_bad_strings_in_statements_actions_and_keys_are_400(table: Table, bad: str) -> None:
    before = table.version()
    statement = _dump({"statement": f"B lied {bad}"})
    error = assert_error(table.post("{game}/disputes", statement, "A"), 400, "request/invalid_body")
    assert error["fields"] == {"statement": [inputs.BAD_STRING]}
    action = _dump({"actions": [{"type": "end_turn", "seat": "B", "note": [1, bad]}]})
    error = assert_error(table.post("{game}/actions", action, "table"), 400, "request/invalid_body")
    assert error["fields"] == {"actions": {"0": {"note": {"1": [inputs.BAD_STRING]}}}}
    keyed = _dump({"actions": [{"type": "end_turn", "seat": "B", bad: 1}]})
    error = assert_error(table.post("{game}/actions", keyed, "table"), 400, "request/invalid_body")
    assert error["fields"] == {"actions": {"0": {"_schema": [inputs.BAD_KEY]}}}
    assert table.version() == before


@pytest.mark.storage_agnostic(False)
def test_a_surrogate_pair_is_a_character_and_welcome(table: Table) -> None:
    body = _spec_with(("seats", 0, "player"), "Ann \U0001f409")
    assert "\\ud83d\\udc09" in body  # sent as a JSON surrogate pair
    response = table.post("/api/games", body, "organizer")
    assert response.status_code == 201, response.get_json()
    gid = response.get_json()["game_id"]
    assert table.client.get(f"/api/games/{gid}").get_json()["players"]["A"] == "Ann \U0001f409"


@pytest.mark.storage_agnostic(False)
def test_a_nul_in_a_player_name_never_reaches_storage_and_reads_keep_working(
    table: Table,
) -> None:
    """The 201 that broke every PostgreSQL history read: now a 400, and the reads answer."""
    response = table.post("/api/games", _spec_with(("seats", 0, "player"), "Ann\x00"), "organizer")
    assert_error(response, 400, "request/invalid_body")
    history = table.client.get("/api/players/Alice/games")
    assert history.status_code == 200
    assert [g["game_id"] for g in history.get_json()["games"]] == [table.gid]
    assert table.client.get("/api/games?player=Alice").status_code == 200
    exported = table.client.get(
        "/api/exports?event=munchlog demo&format=ndjson", headers=bearer(ORGANIZER_TOKEN)
    )
    assert exported.status_code == 200


@pytest.mark.parametrize(
    "url",
    ["/api/games?player=Ann%00", "/api/games?event=%00", "/api/players/Ann%00/games"],
)
def test_a_nul_in_a_query_or_a_path_is_400_naming_it(client: FlaskClient, url: str) -> None:
    error = assert_error(client.get(url), 400, "request/invalid_body")
    name = "event" if "event=" in url else "player"
    where = "query" if "?" in url else "path"
    assert error["fields"] == {where: {name: [inputs.BAD_STRING]}}


def test_a_nul_in_an_event_export_query_is_400(client: FlaskClient) -> None:
    response = client.get("/api/exports?event=x%00y", headers=bearer(ORGANIZER_TOKEN))
    error = assert_error(response, 400, "request/invalid_body")
    assert error["fields"] == {"query": {"event": [inputs.BAD_STRING]}}


# ----------------------------------------------------------------------------- encodings

LATIN_1 = '{"actions": [{"type": "end_turn", "seat": "B", "note": "Gnôme"}]}'.encode("latin-1")


@pytest.mark.parametrize(("path", "role"), WRITES, ids=WRITE_IDS)
def test_a_body_that_is_not_utf8_is_400_invalid_encoding(
    table: Table, path: str, role: str
) -> None:
    before, games = table.version(), table.game_count()
    assert_error(table.post(path, LATIN_1, role), 400, "request/invalid_encoding")
    assert_error(table.post(path, b"\xed\xa0\x80", role), 400, "request/invalid_encoding")
    assert (table.version(), table.game_count()) == (before, games)


def test_an_import_with_a_bad_string_on_an_ndjson_line_is_400(table: Table) -> None:
    exported = table.client.get(
        f"/api/games/{table.gid}/export?format=ndjson", headers=bearer(table.token("judge"))
    ).get_data(as_text=True)
    header, *events = exported.splitlines()
    doc = json.loads(header)
    doc["viewer"] = "judge\x00"
    response = post_import(table.client, "\n".join([_dump(doc), *events]))
    error = assert_error(response, 400, "request/invalid_body")
    assert error["fields"] == {"viewer": [inputs.BAD_STRING]}
    deep = "\n".join([header, *events, "[" * 100 + "]" * 100])
    assert_error(post_import(table.client, deep), 400, "request/too_deep")


def test_unknown_game_ids_with_bad_bytes_are_404(client: FlaskClient) -> None:
    assert_error(client.get("/api/games/%00"), 404, "game/not_found")
    assert_error(client.get(f"/api/games/{uuid.uuid4()}%ff/state"), 404, "game/not_found")


# ----------------------------------------------------------------------------- ranges

TOO_BIG = [MAX_VERSION + 1, 2**63, 2**64, 10**30]


@pytest.mark.parametrize("number", TOO_BIG)
@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/api/games?cursor={n}", "cursor"),
        ("/api/events?cursor={n}", "cursor"),
        ("{game}/events?after={n}", "after"),
        ("{game}/state?at={n}", "at"),
        ("{game}/state?turn={n}", "turn"),
    ],
)
def test_query_numbers_beyond_the_largest_version_are_400_naming_them(
    table: Table, url: str, name: str, number: int
) -> None:
    """A cursor or ``after`` of 2**63 was an OverflowError 500 on SQLite."""
    response = table.client.get(url.format(game=f"/api/games/{table.gid}", n=number))
    error = assert_error(response, 400, "request/invalid_query")
    assert list(error["fields"]) == [name]
    assert "body" not in error["message"] and name in error["message"], error


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/api/games?limit=5000", "limit"),
        ("/api/games?status=bogus", "status"),
        ("{game}/events?limit=0", "limit"),
        ("{game}/export?format=pdf", "format"),
    ],
)
def test_a_bad_query_parameter_is_named_as_a_query_parameter(
    table: Table, url: str, name: str
) -> None:
    """``?limit=5000`` answered "the request body is not valid" (a GET has no body)."""
    response = table.client.get(url.format(game=f"/api/games/{table.gid}"))
    error = assert_error(response, 400, "request/invalid_query")
    assert list(error["fields"]) == [name]
    assert error["message"].startswith(f"the query string is not valid: {name}: "), error


@pytest.mark.parametrize("role", ["A", "table", "judge", "garbage"])
@pytest.mark.parametrize(
    "path", ["/api/games", "/api/games?player=alice", "/api/players/alice/games"]
)
def test_public_reads_take_any_token(table: Table, role: str, path: str) -> None:
    """A seat's token on the game list or a player's history (public, of no game) got 401: a
    client that sends its token everywhere gets the public answer, as a spectator would."""
    token = "not-a-token" if role == "garbage" else table.token(role)
    public = table.client.get(path)
    response = table.client.get(path, headers=bearer(token))
    assert public.status_code == 200, public.get_json()
    assert (response.status_code, response.get_json()) == (200, public.get_json())


def test_public_reads_still_refuse_a_malformed_authorization_header(table: Table) -> None:
    response = table.client.get("/api/games", headers={"Authorization": "Basic abc"})
    assert_error(response, 401, "auth/malformed_header")


@pytest.mark.parametrize("number", TOO_BIG)
@pytest.mark.parametrize("path", ["events", "turns"])
def test_path_numbers_beyond_the_largest_version_are_404(
    table: Table, path: str, number: int
) -> None:
    response = table.client.get(f"/api/games/{table.gid}/{path}/{number}")
    assert_error(response, 404, "request/not_found")


@pytest.mark.parametrize("path", ["events", "turns"])
def test_path_numbers_up_to_the_largest_version_are_not_reached_yet(
    table: Table, path: str
) -> None:
    response = table.client.get(f"/api/games/{table.gid}/{path}/{MAX_VERSION}")
    code = "game/version_not_found" if path == "events" else "game/turn_not_found"
    assert_error(response, 404, code)


def test_the_largest_cursor_and_after_are_valid_and_empty(table: Table) -> None:
    listed = table.client.get(f"/api/games?cursor={MAX_VERSION}")
    assert listed.status_code == 200 and listed.get_json()["games"] == []
    page = table.client.get(f"/api/games/{table.gid}/events?after={MAX_VERSION}")
    assert page.status_code == 200 and page.get_json()["events"] == []
    events = table.client.get(f"/api/events?cursor={MAX_VERSION}")
    assert events.status_code == 200 and events.get_json()["events"] == []


def test_every_integer_a_request_names_has_a_largest_value(table: Table) -> None:
    """The fuzzer found ``GET /api/events?cursor=8e35`` a 500 (SQLite's integers end at 2**63 - 1):
    every integer in a query, a path or a body the OpenAPI describes has a ``maximum`` (or an
    ``enum``)."""
    spec = table.client.get("/api/openapi.json").get_json()
    unbounded = []

    def walk(schema: dict, where: str) -> None:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            if name in seen:
                return
            seen.add(name)
            schema = spec["components"]["schemas"][name]
        if schema.get("type") == "integer" and not {"maximum", "enum"} & schema.keys():
            unbounded.append(where)
        for key, sub in schema.get("properties", {}).items():
            if not sub.get("readOnly"):
                walk(sub, f"{where}.{key}")
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                walk(schema[key], f"{where}[]")

    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            if not isinstance(operation, dict):
                continue
            seen: set[str] = set()
            for parameter in operation.get("parameters", []):
                walk(parameter.get("schema", {}), f"{method} {path} ?{parameter['name']}")
            body = operation.get("requestBody", {}).get("content", {})
            for media in body.values():
                walk(media.get("schema", {}), f"{method} {path} body")
    assert unbounded == [], unbounded


@pytest.mark.parametrize(("path", "role"), WRITES[1:4], ids=WRITE_IDS[1:4])
def test_an_expected_version_beyond_the_largest_is_400(table: Table, path: str, role: str) -> None:
    body = {
        "actions": [{"type": "end_turn", "seat": "B"}],
        "statement": "s",
        "ruling": "r",
        "expected_version": MAX_VERSION + 1,
    }
    keys = {"actions": ("actions",), "disputes": ("statement",), "ruling": ("ruling",)}
    kind = path.rsplit("/", 1)[-1]
    sent = {k: v for k, v in body.items() if k in (*keys[kind], "expected_version")}
    error = assert_error(table.post(path, _dump(sent), role), 400, "request/invalid_body")
    assert list(error["fields"]) == ["expected_version"]


def _opened_dispute(table: Table) -> str:
    response = table.post("{game}/disputes", _dump({"statement": "gold"}), "table")
    assert response.status_code == 201, response.get_json()
    return str(response.get_json()["dispute"]["dispute_id"])


@pytest.mark.parametrize(
    ("amount", "code", "fields"),
    [
        (2**70, "request/invalid_body", {"corrections": {"0": {"amount": [inputs.BAD_NUMBER]}}}),
        (
            MAX_NUMBER + 1,
            "request/invalid_number",
            {"corrections.0.amount": [f"a whole number 1..{MAX_NUMBER}"]},
        ),
        (
            0,
            "request/invalid_number",
            {"corrections.0.amount": [f"a whole number 1..{MAX_NUMBER}"]},
        ),
    ],
)
def test_a_judges_take_gold_beyond_the_rules_is_400_naming_the_amount(
    table: Table, amount: int, code: str, fields: dict[str, Any]
) -> None:
    """A take_gold of 2**70 was recorded."""
    dispute = _opened_dispute(table)
    before = table.version()
    correction = {"type": "take_gold", "player": "A", "amount": amount, "corrects": 1}
    body = _dump({"ruling": "gold back", "corrections": [correction]})
    response = table.post(f"{{game}}/disputes/{dispute}/ruling", body, "judge")
    assert assert_error(response, 400, code)["fields"] == fields
    assert table.version() == before
    correction["amount"] = MAX_NUMBER
    body = _dump({"ruling": "gold back", "corrections": [correction]})
    response = table.post(f"{{game}}/disputes/{dispute}/ruling", body, "judge")
    assert response.status_code == 201, response.get_json()


def _casual_spec_with_card(**numbers: Any) -> str:
    spec = demo_spec(seed=0)
    spec["format"] = "casual"
    spec["seats"][0]["deck"].append({"name": "Huge Ally", "type": "ally", "life": 1, **numbers})
    return _dump(spec)


@pytest.mark.parametrize(
    ("numbers", "code", "field"),
    [
        ({"cost": 10**300}, "request/invalid_body", None),
        ({"cost": MAX_NUMBER + 1}, "request/invalid_card", "cost"),
        ({"life": 2**40}, "request/invalid_card", "life"),
        ({"keywords": {"monstrous": 10**6}}, "request/invalid_card", "keywords"),
    ],
)
def test_card_numbers_beyond_the_rules_are_400_at_game_creation(
    table: Table, numbers: dict[str, Any], code: str, field: str | None
) -> None:
    """Card costs of 10**300 were accepted."""
    games = table.game_count()
    response = table.post("/api/games", _casual_spec_with_card(**numbers), "organizer")
    error = assert_error(response, 400, code)
    deck = len(demo_spec(seed=0)["seats"][0]["deck"])
    if field is None:
        assert error["fields"] == {
            "seats": {"0": {"deck": {str(deck): {"cost": [inputs.BAD_NUMBER]}}}}
        }
    else:
        assert list(error["fields"]) == [f"seats.0.deck.{deck}.{field}"]
    assert table.game_count() == games
    response = table.post("/api/games", _casual_spec_with_card(cost=MAX_NUMBER), "organizer")
    assert response.status_code == 201, response.get_json()


def test_label_numbers_beyond_the_largest_are_400(table: Table) -> None:
    response = table.post(
        "/api/games", _spec_with(("labels", "round"), -MAX_VERSION - 1), "organizer"
    )
    error = assert_error(response, 400, "request/invalid_body")
    assert list(error["fields"]["labels"]) == ["round"]


# ----------------------------------------------------------------------------- credentials

#: Every endpoint that needs credentials: (method, path, {role: (status, code)}); ``None`` is
#: no token, ``garbage`` a token of nobody. Each is called with bodies and queries that would
#: be 400 if they were looked at: credentials come first.
NEEDS_CREDENTIALS: list[tuple[str, str, dict[str | None, tuple[int, str]]]] = [
    (
        "POST",
        "/api/games",
        {None: (401, "auth/missing_token"), "garbage": (401, "auth/invalid_token"),
         "table": (401, "auth/invalid_token")},
    ),
    (
        "POST",
        "{game}/actions",
        {None: (401, "auth/missing_token"), "garbage": (401, "auth/invalid_token"),
         "organizer": (403, "auth/forbidden")},
    ),
    (
        "POST",
        "{game}/disputes",
        {None: (401, "auth/missing_token"), "garbage": (401, "auth/invalid_token"),
         "organizer": (403, "auth/forbidden")},
    ),
    (
        "POST",
        "{game}/disputes/d1/ruling",
        {None: (401, "auth/missing_token"), "garbage": (401, "auth/invalid_token"),
         "A": (403, "auth/judge_only"), "table": (403, "auth/judge_only"),
         "organizer": (403, "auth/judge_only")},
    ),
    (
        "POST",
        "/api/games/import",
        {None: (401, "auth/missing_token"), "garbage": (401, "auth/invalid_token"),
         "judge": (401, "auth/invalid_token")},
    ),
    (
        "GET",
        "/api/exports?format=csv",
        {None: (401, "auth/missing_token"), "garbage": (401, "auth/invalid_token"),
         "B": (401, "auth/invalid_token")},
    ),
    # reads of a game anyone may make: a token, if sent, must be one the game knows (public
    # reads of no game answer any token as a spectator: test_public_reads_take_any_token)
    ("GET", "{game}/state?at=0", {"garbage": (401, "auth/invalid_token")}),
    ("GET", "{game}/events?limit=0", {"garbage": (401, "auth/invalid_token")}),
    ("GET", "{game}/timeline?as=nobody", {"garbage": (401, "auth/invalid_token")}),
    ("GET", "{game}/export?format=pdf", {"garbage": (401, "auth/invalid_token")}),
]  # fmt: skip
CREDENTIAL_CASES = [
    (method, path, role, expected)
    for method, path, roles in NEEDS_CREDENTIALS
    for role, expected in roles.items()
]


@pytest.mark.parametrize(
    "body", ["{nope", _dump({"bogus": [1]}), "[" * 100], ids=["not JSON", "unknown field", "deep"]
)
@pytest.mark.parametrize(
    ("method", "path", "role", "expected"),
    CREDENTIAL_CASES,
    ids=[f"{m} {p} as {r}" for m, p, r, _ in CREDENTIAL_CASES],
)
def test_credentials_are_checked_before_the_body_or_the_query(
    table: Table,
    method: str,
    path: str,
    role: str | None,
    expected: tuple[int, str],
    body: str,
) -> None:
    """``POST .../disputes`` without a token was 400 (its body was read first)."""
    before, games = table.version(), table.game_count()
    token = role if role in (None, "garbage") else table.token(role)
    headers = {"Content-Type": JSON, **bearer(token)}
    url = path.format(game=f"/api/games/{table.gid}")
    response = table.client.open(url, method=method, data=body, headers=headers)
    assert_error(response, *expected)
    assert response.status_code != 401 or response.headers["WWW-Authenticate"] == "Bearer"
    assert (table.version(), table.game_count()) == (before, games)


# ----------------------------------------------------------------------------- property

SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)
#: Text with anything in it: NUL, lone surrogates, controls, astral characters.
any_text = st.text(st.characters(codec=None, exclude_categories=()) | SURROGATES, max_size=12)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    any_text,
)
junk = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner, max_size=4),
    max_leaves=12,
)
#: Junk the reader lets through, to reach the schemas, the rules and the store.
clean_text = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"))
clean_junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 1000)
    | st.integers(inputs.MIN_INT, inputs.MAX_INT)
    | st.floats(allow_nan=False, allow_infinity=False)
    | clean_text
    | st.sampled_from(["A", "B", "end_turn", "take_gold", "2026-11-23T10:00:00"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(clean_text, inner, max_size=3),
    max_leaves=6,
)
#: A value no request may hold anywhere: a string with U+0000 or a lone surrogate (between
#: characters that cannot pair with it), an integer past 64 bits.
BAD_CHARS = ["\x00", "\ud800", "\udbff", "\udc00", "\udfff"]
poison = st.one_of(
    st.tuples(clean_text, st.sampled_from(BAD_CHARS), clean_text).map("".join),
    st.integers(2**63, 2**80) | st.integers(-(2**80), -(2**63) - 1),
)

FIELDS = ["card", "cards", "gold", "amount", "target", "rolls", "first", "damage", "costs"]
FIELDS += ["face", "to", "from", "player", "level", "side", "corrects", "give_blood", "at"]


def commands(types: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    """A command of a known type whose other fields are junk (the rules' argument checks)."""
    return st.builds(
        lambda kind, seat, rest: {**rest, "type": kind, "seat": seat},
        st.sampled_from(types),
        st.sampled_from(["A", "B"]),
        st.dictionaries(st.sampled_from(FIELDS), clean_junk, max_size=4),
    )


#: Near-valid bodies of the write endpoints (what a client sends, give or take).
BODIES: dict[str, Any] = {
    "/api/games": lambda: demo_spec(seed=0),
    "{game}/actions": lambda: {"actions": [{"type": "end_turn", "seat": "B"}]},
    "{game}/disputes": lambda: {"statement": "B lied", "turn": 1},
    "{game}/disputes/{dispute}/ruling": lambda: {
        "ruling": "no",
        "corrections": [{"type": "take_gold", "player": "A", "amount": 1, "corrects": 1}],
    },
    "/api/games/import": lambda: {"format": "munchlog-game", "format_version": 1, "events": []},
}
#: What the OpenAPI documents for each (tests/api/test_openapi_and_cli.py holds it to that).
DOCUMENTED = {
    "/api/games": {201, 400, 401, 403, 413, 422},
    "{game}/actions": {201, 400, 401, 403, 404, 409, 413, 422},
    "{game}/disputes": {201, 400, 401, 403, 404, 409, 413, 422},
    "{game}/disputes/{dispute}/ruling": {201, 400, 401, 403, 404, 409, 413, 422},
    "/api/games/import": {201, 400, 401, 403, 409, 413, 422},
}
ROLES = {
    "/api/games": "organizer",
    "{game}/actions": "table",
    "{game}/disputes": "A",
    "{game}/disputes/{dispute}/ruling": "judge",
    "/api/games/import": "organizer",
}


@st.composite
def planted(draw: st.DrawFn, body: Any, values: st.SearchStrategy[Any]) -> Any:
    """``body`` with one of ``values`` planted somewhere: replacing a value or a list item,
    added to a list, or under a new key (a string value may become the key itself)."""
    body = copy.deepcopy(body)
    containers: list[Any] = []

    def collect(node: Any) -> None:
        if isinstance(node, dict | list):
            containers.append(node)
            for child in node.values() if isinstance(node, dict) else node:
                collect(child)

    collect(body)
    node = draw(st.sampled_from(containers))
    bad = draw(values)
    replace = bool(node) and draw(st.booleans())
    if isinstance(node, list):
        index = draw(st.integers(0, len(node) - 1 if replace else len(node)))
        node[index : index + replace] = [bad]
    elif replace:
        node[draw(st.sampled_from(sorted(node)))] = bad
    elif isinstance(bad, str) and draw(st.booleans()):  # as a key
        node[bad] = draw(clean_junk)
    else:
        node[draw(clean_text)] = bad
    return body


@st.composite
def poisoned(draw: st.DrawFn, body: Any) -> Any:
    """``body`` with a poison planted in it, or the whole body 33 to 200 levels deep."""
    if draw(st.integers(0, 9)) == 0:
        return _Deep(draw(st.integers(inputs.MAX_DEPTH + 1, 200)), body)
    return draw(planted(body, poison))


@dataclass
class _Deep:
    depth: int
    body: Any

    def text(self) -> str:
        return "[" * self.depth + _dump(self.body) + "]" * self.depth


def _send(table: Table, path: str, body: Any) -> Any:
    text = body.text() if isinstance(body, _Deep) else body
    if not isinstance(text, str | bytes):
        text = _dump(text)
    if isinstance(text, str):  # a JSON string body may hold a raw surrogate: not UTF-8 then
        text = text.encode("utf-8", "surrogatepass")
    return table.post(path.replace("{dispute}", table.dispute_id), text, ROLES[path])


@pytest.fixture
def disputed(table: Table) -> Table:
    """The game with an open dispute (a ruling's body is checked before the dispute is found,
    but with one the junk reaches every layer)."""
    table.dispute_id = _opened_dispute(table)
    return table


PROPERTY = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.storage_agnostic(False)
@PROPERTY
@given(data=st.data())
def test_a_poisoned_body_is_always_400_and_changes_nothing(disputed: Table, data: Any) -> None:
    """A NUL, a lone surrogate or a 65-bit integer anywhere in a write's body (value, key or
    list item), or a body nested too deep, is 400 with a code, and nothing is stored."""
    table = disputed
    before, games = table.version(), table.game_count()
    path = data.draw(st.sampled_from(sorted(BODIES)), label="path")
    body = data.draw(poisoned(BODIES[path]()), label="body")
    response = _send(table, path, body)
    error = assert_error(response, 400, response.get_json()["error"]["code"])
    assert error["code"] in ("request/invalid_body", "request/too_deep"), error
    assert (table.version(), table.game_count()) == (before, games)


@pytest.mark.slow
@pytest.mark.storage_agnostic(False)
@PROPERTY
@given(data=st.data())
def test_junk_into_the_write_endpoints_is_never_a_server_error(disputed: Table, data: Any) -> None:
    """Any JSON-ish value, any bytes, a near-valid body with junk planted in it: never a 5xx,
    always a status the OpenAPI lists for the operation, and a 4xx stores nothing."""
    table = disputed
    before, games = table.version(), table.game_count()
    path = data.draw(st.sampled_from(sorted(BODIES)), label="path")
    rules = st.builds(lambda c: {"actions": c}, st.lists(commands(COMMAND_TYPES), min_size=1))
    fixes = st.builds(
        lambda c: {"ruling": "r", "corrections": c}, st.lists(commands(tuple(JUDGE_EFFECTS)))
    )
    body = data.draw(
        st.one_of(
            junk,
            st.binary(max_size=64),
            planted(BODIES[path](), clean_junk),
            rules if "actions" in path else fixes if "ruling" in path else st.nothing(),
        ),
        label="body",
    )
    response = _send(table, path, body)
    event(f"{path}: {response.status_code}")
    assert response.status_code < 500, response.get_data()
    assert response.status_code in DOCUMENTED[path], response.get_json()
    if response.status_code >= 400:
        assert set(response.get_json()) == {"error"}
        assert (table.version(), table.game_count()) == (before, games)


@pytest.mark.storage_agnostic(False)
@pytest.mark.parametrize(
    "body",
    [
        {
            "actions": [
                {"type": "end_turn", "seat": "A", "x": {"_type_": "uuid_hex", "_data_": "0"}}
            ]
        },
        {
            "actions": [{"type": "end_turn", "seat": "A"}],
            "extra": [{"_data_": 1, "_type_": "nope"}],
        },
    ],
)
def test_an_object_shaped_as_the_stores_own_encoding_is_400(table: Table, body: Any) -> None:
    """``{"_type_", "_data_"}`` is how eventsourcing's JSON transcoder stores a value it encodes
    itself; stored from a request, the game's events would decode it as that type (or fail to
    decode: the whole game damaged). Refused at the edge, wherever it sits in a body."""
    before = table.version()
    error = assert_error(
        table.post("{game}/actions", _dump(body), "table"), 400, "request/invalid_body"
    )
    assert "reserved" in json.dumps(error["fields"])
    assert table.version() == before


def test_the_reserved_keys_alone_or_with_others_are_welcome() -> None:
    assert inputs.loads('{"_type_": 1, "_data_": 2, "x": 3}') == {"_type_": 1, "_data_": 2, "x": 3}
    assert inputs.loads('{"name": "_type_ and _data_"}') == {"name": "_type_ and _data_"}


@pytest.mark.parametrize("raw", [b'"\\u0000"', b'"\\ud800"'])
def test_a_bare_string_body_with_a_nul_or_lone_surrogate_is_one_400(raw: bytes) -> None:
    """The problem is the body itself (no field path): ``_schema`` names it (was an
    IndexError, a 500, found by the hot path's property test)."""
    with pytest.raises(inputs.InvalidInput) as caught:
        inputs.loads(raw)
    assert list(caught.value.fields) == ["_schema"]


# ----------------------------------------------------------------------------- the floor (#39)


@pytest.mark.parametrize("bad", BAD_STRINGS.values(), ids=BAD_STRINGS.keys())
def test_bad_strings_in_a_staff_name_a_call_note_or_a_judge_note_are_400(
    client: FlaskClient, bad: str
) -> None:
    """Staff, calls and their actions: a bad string is 400 naming its field; nothing stored."""
    from tests.api.test_events import open_event, pair, register

    event = open_event(client)
    eid = event["event_id"]
    ann = register(client, eid, "ann")
    register(client, eid, "bob")
    pair(client, eid)
    organizer = {"Authorization": f"Bearer {ORGANIZER_TOKEN}", "Content-Type": JSON}
    staff = client.post(
        f"/api/events/{eid}/staff", data=_dump({"name": bad, "role": "judge"}), headers=organizer
    )
    assert assert_error(staff, 400, "request/invalid_body")["fields"] == {
        "name": [inputs.BAD_STRING]
    }
    player = {"Authorization": f"Bearer {ann}", "Content-Type": JSON}
    note = client.post(
        f"/api/events/{eid}/calls", data=_dump({"table": 1, "note": bad}), headers=player
    )
    assert assert_error(note, 400, "request/invalid_body")["fields"] == {
        "note": [inputs.BAD_STRING]
    }
    made = client.post(f"/api/events/{eid}/calls", json={"table": 1}, headers=bearer(ann))
    call_id = made.get_json()["call_id"]
    judge = {"Authorization": f"Bearer {event['judge_token']}", "Content-Type": JSON}
    action = client.post(
        f"/api/events/{eid}/calls/{call_id}",
        data=_dump({"action": "claim", "note": bad}),
        headers=judge,
    )
    assert assert_error(action, 400, "request/invalid_body")["fields"] == {
        "note": [inputs.BAD_STRING]
    }
    shown = client.get(f"/api/events/{eid}", headers=bearer(ORGANIZER_TOKEN)).get_json()
    assert [s["staff_id"] for s in shown["staff"]] == ["event-judge"]
    (call,) = client.get(f"/api/events/{eid}/calls", headers=bearer(ann)).get_json()
    assert call["state"] == "open" and call["actions"] == []


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("pairings?by=seat", 400, "request/invalid_by"),
        ("pairings?round=x", 400, "request/invalid_round"),
        ("slips?round=%C2%B2", 400, "request/invalid_round"),
        ("slips?round=9", 404, "event/round_not_found"),
    ],
)
def test_a_print_page_refuses_a_bad_query(
    client: FlaskClient, query: str, status: int, code: str
) -> None:
    from tests.api.test_events import open_event, pair, register

    eid = open_event(client)["event_id"]
    for name in ("ann", "bob"):
        register(client, eid, name)
    pair(client, eid)
    assert_error(client.get(f"/events/{eid}/print/{query}"), status, code)
