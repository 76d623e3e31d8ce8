"""The OpenAPI document, the offline docs page, and the ``munchlog`` command."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.cli import main
from api.schemas import BatchResultSchema
from tests.api.helpers import create_game, post_actions

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
