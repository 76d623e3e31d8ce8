"""The OpenAPI document, the offline docs page, and the ``munchlog`` command."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from api.cli.main import build_parser, main
from api.json_api.schemas import BatchResultSchema
from tests.api.helpers import create_game, post_actions

pytestmark = pytest.mark.storage_agnostic

METHODS = {"get", "put", "post", "delete", "patch", "options", "head", "trace"}


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _resolve(spec: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = spec
    for part in ref[2:].split("/"):
        assert isinstance(node, dict) and part in node, f"unresolvable $ref {ref}"
        node = node[part]
    return node


def test_the_openapi_document_is_served_and_valid(client: FlaskClient) -> None:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    spec = response.get_json()

    assert re.fullmatch(r"3\.\d+\.\d+", spec["openapi"])
    assert spec["info"]["title"] and spec["info"]["version"]
    expected = {
        "/api/games": {"get", "post"},
        "/api/games/{game_id}": {"get"},
        "/api/games/{game_id}/state": {"get"},
        "/api/games/{game_id}/events": {"get"},
        "/api/games/{game_id}/actions": {"post"},
        "/api/games/{game_id}/legal": {"get"},
    }
    for path, methods in expected.items():
        assert methods <= set(spec["paths"][path]), path
    operation_ids = []
    for path, item in spec["paths"].items():
        assert path.startswith("/")
        templated = set(re.findall(r"{(\w+)}", path))
        for method, op in item.items():
            if method not in METHODS:
                continue
            assert op["responses"], (path, method)
            for status in op["responses"]:
                assert status == "default" or re.fullmatch(r"[1-5]\d\d", str(status))
            params = [
                p if "$ref" not in p else _resolve(spec, p["$ref"])
                for p in item.get("parameters", []) + op.get("parameters", [])
            ]
            declared = {p["name"] for p in params if p["in"] == "path"}
            assert templated == declared, (path, method)
            for p in params:
                assert p["in"] in {"path", "query", "header", "cookie"}
                assert p["in"] != "path" or p.get("required") is True
            if "operationId" in op:
                operation_ids.append(op["operationId"])
    assert len(operation_ids) == len(set(operation_ids))
    for ref in _refs(spec):
        _resolve(spec, ref)

    # The documented error payload is ours: {"error": {code, message, ...}}.
    error = spec["components"]["schemas"]["Error"]
    assert set(error["properties"]) == {"error"}
    detail = _resolve(spec, error["properties"]["error"]["$ref"])
    assert {"code", "message", "rule", "current_version", "fields"} <= set(detail["properties"])
    post = spec["paths"]["/api/games/{game_id}/actions"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in post["parameters"])
    assert "201" in post["responses"]
    # Documented by ApiBlueprint.json_endpoint exactly as arguments()/response()/doc() would.
    body_ref = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body_ref.endswith("/ActionBatch")
    created = post["responses"]["201"]["content"]["application/json"]["schema"]["$ref"]
    assert created.endswith("/BatchResult")
    assert post["security"] == [{"bearerAuth": []}]


def test_the_actions_response_is_in_its_documented_shape(client: FlaskClient) -> None:
    """The actions endpoint skips flask-smorest's response dump (``json_endpoint``), so the
    view's body must already be what dumping it through ``BatchResultSchema`` gives."""
    game = create_game(client)
    cards = [c["id"] for c in game["seats"]["A"]["cards"][:6]]
    response = post_actions(
        client,
        game["game_id"],
        game["table_token"],
        [{"type": "draw_opening", "seat": "A", "cards": cards}],
    )
    assert response.status_code == 201
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert BatchResultSchema().validate(body) == {}
    assert BatchResultSchema().dump(body) == body
    assert body["version"] == game["version"] + len(body["events"]) > game["version"]
    assert "Idempotent-Replayed" not in response.headers


def test_the_docs_page_works_offline(client: FlaskClient) -> None:
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "openapi.json" in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert "cdn" not in html.lower()


def test_munchlog_demo_records_a_game_and_prints_tokens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MUNCHLOG_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("MUNCHLOG_ORGANIZER_TOKEN", raising=False)
    monkeypatch.delenv("MUNCHLOG_DATABASE_URL", raising=False)

    assert main(["demo", "--seed", "2"]) == 0

    out = capsys.readouterr().out
    assert re.search(r"game [0-9a-f-]{36}: finished, winner [AB]", out), out
    assert "/api/games/" in out and "/state" in out and "/events" in out
    for role in ("A", "B", "table", "judge"):
        assert re.search(rf"^  {role}\s+\S{{40,}}$", out, re.M), role
    token_file = tmp_path / "instance" / "organizer_token"
    assert token_file.exists()
    assert (token_file.stat().st_mode & 0o777) == 0o600
    assert (tmp_path / "instance" / "munchlog.sqlite").exists()
    assert token_file.read_text().strip() not in out
    assert os.environ["MUNCHLOG_INSTANCE"] == str(tmp_path / "instance")
    assert "/play#token=" not in out  # a finished game: nothing left to play


def test_a_demo_stopped_early_prints_each_seats_table_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``munchlog demo --actions 0``: a game to play in the browser (README, three steps): the
    table page's link for each seat and for the table, never for the judge."""
    monkeypatch.setenv("MUNCHLOG_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("MUNCHLOG_ORGANIZER_TOKEN", raising=False)
    assert main(["demo", "--actions", "0", "--ruleset", "munchkin-deluxe", "--seats", "4"]) == 0
    out = capsys.readouterr().out
    tokens = dict(re.findall(r"^  (\w+)\s+(\S{40,})$", out, re.M))
    links = dict(
        re.findall(r"^  play (\w+)\s+http://\S+/games/[0-9a-f-]{36}/play#token=(\S+)$", out, re.M)
    )
    assert links == {role: tokens[role] for role in ("A", "B", "C", "D", "table")}, out


def test_munchlog_demo_records_a_game_the_server_deals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``munchlog demo --dealing server`` (issue #25): every seat commits to random bytes and
    reveals them, the server deals and rolls, and the demo prints ``/verify``'s verdict on the
    dealing once the game is over (its secret revealed); stopped early, it says the secret
    comes at the end."""
    monkeypatch.setenv("MUNCHLOG_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("MUNCHLOG_ORGANIZER_TOKEN", raising=False)
    monkeypatch.delenv("MUNCHLOG_DATABASE_URL", raising=False)

    assert main(["demo", "--seed", "2", "--dealing", "server"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"game [0-9a-f-]{36}: finished, winner [AB]", out), out
    found = re.search(r"/verify  \(the server dealt: verified, (\d+) of (\d+) shuffles", out)
    assert found and found[1] == found[2] and int(found[1]) > 3, out
    game_id = re.search(r"game ([0-9a-f-]{36})", out)[1]  # type: ignore[index]
    db = str(tmp_path / "instance" / "munchlog.sqlite")
    app = create_app({"MUNCHLOG_DATABASE_URL": db, "MUNCHLOG_ORGANIZER_TOKEN": "x" * 40})
    summary = app.test_client().get(f"/api/games/{game_id}").get_json()
    assert summary["dealing"]["mode"] == "server"
    assert summary["dealing"]["revealed"] == ["A", "B"]

    assert main(["demo", "--seed", "2", "--dealing", "server", "--actions", "6"]) == 0
    out = capsys.readouterr().out
    assert "/verify  (the server deals: its secret is revealed at the end)" in out


def test_every_command_and_option_of_munchlog_says_what_it_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue #28 item 13: ``munchlog --help`` says what munchlog is and where its data lives;
    every option and argument has a help, defaults included."""
    import argparse

    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "console script" not in out and "``" not in out
    assert "Record, replay and export Munchkin games" in out
    assert "~/.local/share/munchlog" in out and "$MUNCHLOG_INSTANCE" in out
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {action.dest}"
        for name, command in sub.choices.items()
        for action in command._actions
        if not isinstance(action, argparse._HelpAction) and not action.help
    ]
    assert missing == []
    export = sub.choices["export"]
    viewer = next(a for a in export._actions if a.dest == "viewer")
    assert viewer.help is not None and "default judge" in viewer.help
    assert "default 0" in str(
        next(a for a in sub.choices["demo"]._actions if a.dest == "seed").help
    )


#: Who may call each operation and which errors it can send (issue 12: "the OpenAPI says which
#: reads are anonymous, lists each operation's errors").
OPERATIONS = {
    ("get", "/api/games"): ("anyone", {400, 401}),
    ("post", "/api/games"): ("token", {400, 401, 403, 413, 422}),
    ("get", "/api/games/{game_id}"): ("anyone", {401, 404, 503}),
    ("get", "/api/games/{game_id}/state"): ("anyone", {400, 401, 403, 404, 503}),
    ("get", "/api/games/{game_id}/events"): ("anyone", {400, 401, 404, 503}),
    ("post", "/api/games/{game_id}/actions"): ("token", {400, 401, 403, 404, 409, 413, 422, 503}),
    ("get", "/api/games/{game_id}/legal"): ("token", {401, 403, 404, 503}),
    ("get", "/api/games/{game_id}/stream"): ("anyone", {400, 401, 404, 503}),
    ("post", "/api/games/{game_id}/stream-tickets"): ("anyone", {401, 404, 503}),
    ("get", "/api/games/{game_id}/timeline"): ("anyone", {400, 401, 403, 404, 503}),
    ("get", "/api/games/{game_id}/turns/{turn}"): ("anyone", {400, 401, 403, 404, 503}),
    ("get", "/api/games/{game_id}/events/{version}"): ("anyone", {400, 401, 403, 404, 503}),
    ("get", "/api/games/{game_id}/disputes"): ("anyone", {401, 404, 503}),
    ("post", "/api/games/{game_id}/disputes"): ("token", {400, 401, 403, 404, 409, 413, 422, 503}),
    ("post", "/api/games/{game_id}/disputes/{dispute_id}/ruling"): (
        "token",
        {400, 401, 403, 404, 409, 413, 422, 503},
    ),
    ("get", "/api/games/{game_id}/verify"): ("anyone", {401, 404, 503}),
    ("get", "/api/games/{game_id}/export"): ("anyone", {400, 401, 404, 406, 503}),
    ("post", "/api/games/import"): ("token", {400, 401, 403, 409, 413, 422}),
    ("get", "/api/players/{player}/games"): ("anyone", {400, 401}),
    ("get", "/api/exports"): ("token", {400, 401, 403, 406}),
    # mirrors (issue #41)
    ("post", "/api/mirrors"): ("token", {401, 403, 503}),
    ("get", "/api/mirrors/{mirror_id}"): ("token", {401, 403, 404, 503}),
    ("post", "/api/mirrors/{mirror_id}/batches"): ("token", {400, 401, 403, 404, 409, 413, 503}),
    # tournaments (issue #27)
    ("get", "/api/events"): ("anyone", {400, 401, 503}),
    ("post", "/api/events"): ("token", {400, 401, 403, 413, 503}),
    ("get", "/api/events/{event_id}"): ("anyone", {401, 404, 503}),
    ("post", "/api/events/{event_id}/players"): ("token", {400, 401, 403, 404, 409, 413, 422, 503}),
    ("post", "/api/events/{event_id}/rounds"): ("token", {401, 403, 404, 409, 422, 503}),
    ("get", "/api/events/{event_id}/rounds/{number}/my-game"): ("token", {401, 403, 404, 409, 503}),
    ("post", "/api/events/{event_id}/rounds/{number}/results"): (
        "token",
        {400, 401, 403, 404, 409, 413, 422, 503},
    ),
    ("post", "/api/events/{event_id}/drops"): ("token", {400, 401, 403, 404, 409, 413, 422, 503}),
    ("post", "/api/events/{event_id}/check-in"): (
        "token",
        {400, 401, 403, 404, 409, 413, 422, 503},
    ),
    ("post", "/api/events/{event_id}/rounds/{number}/report"): (
        "token",
        {400, 401, 403, 404, 409, 413, 422, 503},
    ),
    ("post", "/api/events/{event_id}/rounds/{number}/correction"): (
        "token",
        {400, 401, 403, 404, 409, 413, 422, 503},
    ),
    ("get", "/api/events/{event_id}/standings"): ("anyone", {401, 404, 503}),
    ("get", "/api/events/{event_id}/penalties"): ("token", {401, 404, 503}),
    ("post", "/api/events/{event_id}/clock"): ("token", {400, 401, 403, 404, 409, 413, 422, 503}),
    ("post", "/api/events/{event_id}/stream-tickets"): ("anyone", {401, 404, 503}),
    ("get", "/api/events/{event_id}/stream"): ("anyone", {400, 401, 404, 503}),
    # the floor (issue #39)
    ("post", "/api/events/{event_id}/staff"): ("token", {400, 401, 403, 404, 409, 413, 422, 503}),
    ("post", "/api/events/{event_id}/calls"): ("token", {400, 401, 403, 404, 409, 413, 503}),
    ("get", "/api/events/{event_id}/calls"): ("token", {401, 403, 404, 503}),
    ("post", "/api/events/{event_id}/calls/{call_id}"): (
        "token",
        {400, 401, 403, 404, 409, 413, 422, 503},
    ),
    ("get", "/api/events/{event_id}/export"): ("anyone", {400, 401, 404, 406, 503}),
    # the organizer's console (issue #44)
    ("post", "/api/events/{event_id}/players/{player}/token"): ("token", {401, 403, 404, 409, 503}),
    ("post", "/api/events/{event_id}/staff/{staff_id}/token"): (
        "token",
        {401, 403, 404, 409, 422, 503},
    ),
    ("post", "/api/events/{event_id}/readmissions"): (
        "token",
        {400, 401, 403, 404, 409, 413, 422, 503},
    ),
    # public data: no token is read at all (security: [])
    ("get", "/api/rulesets/{ruleset}/cards"): ("open", {404}),
    # the operator's: no token is read at all (security: [])
    ("get", "/healthz"): ("open", set()),
    ("get", "/readyz"): ("open", {503}),
    ("get", "/metrics"): ("open", set()),
}


def _operations(spec: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): op
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if method in METHODS
    }


def test_every_operation_says_who_may_call_it_and_lists_its_errors(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    operations = _operations(spec)
    assert set(operations) == set(OPERATIONS)
    for key, op in operations.items():
        who, errors = OPERATIONS[key]
        if who == "anyone":  # a token is optional: it chooses what the caller sees
            assert op["security"] == [{}, {"bearerAuth": []}], key
        elif who == "open":
            assert op["security"] == [], key
        else:
            assert op["security"] == [{"bearerAuth": []}], key
        documented = {int(s) for s in op["responses"] if s != "default" and int(s) >= 400}
        assert documented == errors, key
        for status in errors:
            response = _resolve(spec, op["responses"][str(status)]["$ref"])
            schema = response["content"]["application/json"]["schema"]["$ref"]
            assert schema == "#/components/schemas/Error", (key, status)
            assert response["description"], (key, status)


#: What an anonymous call answers where it is not "200, or 404 for what the game lacks".
ANONYMOUS = {
    ("post", "/api/games/{game_id}/stream-tickets"): (201,),
    ("get", "/api/games/{game_id}/stream"): (503,),
}


def test_the_operations_that_need_a_token_are_exactly_those_that_answer_401_without_one(
    client: FlaskClient,
) -> None:
    """The document and the server agree: anonymous reads answer without a token (200 or a
    404 for what the game lacks), the rest answer 401 before they look at anything else."""
    game = create_game(client)
    values = {
        "game_id": game["game_id"],
        "turn": "0",
        "version": "1",
        "dispute_id": "d1",
        "number": "1",
    }
    spec = client.get("/api/openapi.json").get_json()
    for (method, path), op in _operations(spec).items():
        url = re.sub(r"{(\w+)}", lambda m: values.get(m.group(1), "Alice"), path)
        response = client.open(url, method=method.upper(), json={})
        if op["security"] == [{"bearerAuth": []}]:
            assert response.status_code == 401, (method, path)
            assert response.get_json()["error"]["code"] == "auth/missing_token"
        else:
            # a spectator's stream ticket is made (201); the stream itself is the stream
            # process's, which this in-process app does not have (503 stream/unavailable)
            allowed = ANONYMOUS.get((method, path), (200, 404))
            assert response.status_code in allowed, (method, path, response.get_json())


def _strings(node: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every ``{"type": "string", ...}`` schema under ``node``, with where it is."""
    found = []
    if isinstance(node, dict):
        if node.get("type") == "string":
            found.append((where, node))
        for key, value in node.items():
            found += _strings(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _strings(value, f"{where}/{index}")
    return found


def test_the_document_states_the_checks_the_server_makes(client: FlaskClient) -> None:
    """What schemathesis (tests/api/test_schemathesis.py) found the server checking and the
    document not saying: no U+0000 in a string, a ruleset of this server, a label's shape, an
    action's time, game ids, and the headers of some answers."""
    from api.json_api.openapi import NO_NUL
    from domain import RULESETS

    spec = client.get("/api/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    parameters = [
        p
        for item in spec["paths"].values()
        for key, value in item.items()
        for p in (value if key == "parameters" else value.get("parameters", []))
    ]
    for where, string in _strings(schemas) + _strings(parameters):
        assert string.get("pattern") in (NO_NUL, "^[!-~]+$") or {"enum", "format"} & set(string), (
            where
        )
    game_ids = [p for p in parameters if p["name"] == "game_id"]
    assert game_ids and all(p["schema"] == {"type": "string", "format": "uuid"} for p in game_ids)
    assert schemas["CreateGame"]["properties"]["ruleset"]["enum"] == sorted(RULESETS)
    label = schemas["Labels"]["properties"]["round"]["oneOf"]
    assert {"type": "string", "maxLength": 120, "pattern": NO_NUL} in label
    assert {"type": "integer", "minimum": -(2**53 - 1), "maximum": 2**53 - 1} in label
    assert schemas["Action"]["properties"]["at"]["format"] == "date-time"

    unauthorized = spec["components"]["responses"]["Error401"]["headers"]["WWW-Authenticate"]
    assert unauthorized["required"] is True
    created = spec["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]["201"]
    assert created["headers"]["Idempotent-Replayed"]["schema"]["enum"] == ["true"]
    export = spec["paths"]["/api/games/{game_id}/export"]["get"]["responses"]["200"]
    assert export["headers"]["Content-Disposition"]["required"] is True


def test_an_action_time_in_any_rfc_3339_form_is_taken(client: FlaskClient) -> None:
    """``at`` is documented as an RFC 3339 date-time: its lower-case ``t`` and ``z`` and a leap
    second are taken (stored verbatim) besides what Python's ``fromisoformat`` reads."""
    game = create_game(client)
    cards = {s: [c["id"] for c in game["seats"][s]["cards"]] for s in "AB"}
    times = ["2024-05-01t10:00:00z", "2016-12-31T23:59:60Z", "2024-05-01 10:00"]
    for seat, at in zip("AB", times[:2], strict=True):
        response = post_actions(
            client,
            game["game_id"],
            game["table_token"],
            [{"type": "draw_opening", "seat": seat, "cards": cards[seat][:6], "at": at}],
        )
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["events"][0]["client_at"] == at
    response = post_actions(
        client,
        game["game_id"],
        game["table_token"],
        [{"type": "roll_first", "seat": "A", "rolls": {"A": 6, "B": 1}, "at": "noon"}],
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["fields"] == {
        "actions": {"0": {"at": ["an ISO 8601 date-time"]}}
    }


def test_the_import_route_answers_for_its_own_methods_only(client: FlaskClient) -> None:
    """``/api/games/import`` is not a game id: ``OPTIONS`` lists POST alone (it listed GET, the
    game summary's method) and GET is 405, not 404 ``game/not_found``."""
    allowed = client.options("/api/games/import").headers["Allow"]
    assert sorted(allowed.split(", ")) == ["OPTIONS", "POST"]
    response = client.get("/api/games/import")
    assert response.status_code == 405
    assert response.headers["Allow"] == "OPTIONS, POST"
    assert response.get_json()["error"]["code"] == "request/method_not_allowed"
    assert client.get("/api/games/imported").get_json()["error"]["code"] == "game/not_found"
