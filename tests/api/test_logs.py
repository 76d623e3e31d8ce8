"""munchlog's own logs (issue 12, item 4): JSON or text, and never a token.

Recording, failing (every kind of refusal, a 500) and exporting (each format and viewer, the
event export, the command line) with every kind of token -- organizer, seats, table, judge,
and one that is no one's -- leaves none in any log record, raw or as either format writes it,
nor in the access log; the check itself sees a token that is logged, and both formats redact
it. ``munchlog serve`` does not print an organizer token it was given.
"""

from __future__ import annotations

import io
import json
import logging
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from api.cli.main import main
from api.ops import serving
from api.ops.logs import JsonFormatter, TextFormatter, configure_logging, redact
from service.games import GameLog
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, post_actions
from tests.api.test_operations import _setup_actions
from tests.live import munchlog_serve


def _leaks(records: list[logging.LogRecord], secrets: list[str]) -> list[str]:
    """Every place a secret shows in ``records``: raw, and as each formatter writes them."""
    found = []
    text, as_json = TextFormatter(), JsonFormatter()
    for record in records:
        raw = " ".join(
            [record.getMessage(), str(record.args), repr(vars(record)), record.exc_text or ""]
        )
        for shown in (raw, text.format(record), as_json.format(record)):
            found += [f"{record.name}: {shown[:200]}" for s in secrets if s in shown]
    return found


def test_no_token_is_logged_while_recording_failing_and_exporting(
    app: Flask,
    client: FlaskClient,
    backend: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    caplog.set_level(logging.DEBUG)
    access = io.StringIO()
    app.wsgi_app = serving.AccessLog(app.wsgi_app, stream=access, interval=3600)  # type: ignore[method-assign]
    fake = "token-that-is-no-ones-" + uuid.uuid4().hex
    game = create_game(client, labels={"event": "Leak Cup"})
    gid = game["game_id"]
    seats = {s: game["seats"][s]["token"] for s in "AB"}
    secrets = [ORGANIZER_TOKEN, fake, game["table_token"], game["judge_token"], *seats.values()]
    setup = _setup_actions(game)
    # recording: the hot path, Flask's route (Idempotency-Key), a seat for itself
    assert post_actions(client, gid, game["table_token"], setup[:1]).status_code == 201
    assert post_actions(client, gid, seats["B"], setup[1:], key="k").status_code == 201
    # failing: every kind of refusal, with every kind of token
    assert post_actions(client, gid, seats["A"], [{"type": "keep", "seat": "B"}]).status_code == 403
    assert post_actions(client, gid, fake, setup).status_code == 401
    assert post_actions(client, gid, ORGANIZER_TOKEN, setup).status_code == 403
    assert post_actions(client, gid, game["judge_token"], setup).status_code == 422
    assert (
        post_actions(client, gid, game["table_token"], setup, expected_version=1).status_code == 409
    )
    malformed = {"Authorization": f"Bearer {fake} {fake}"}
    assert client.get(f"/api/games/{gid}/state", headers=malformed).status_code == 401
    assert (
        client.get(f"/api/games/{gid}/events?token={fake}", headers=bearer(fake)).status_code == 401
    )
    # a public read of no game answers any token as a spectator's: logged all the same
    assert client.get(f"/api/games?token={fake}", headers=bearer(fake)).status_code == 200
    with monkeypatch.context() as patch:

        def crash(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug")

        patch.setattr(GameLog, "overview", crash)
        assert (
            client.get(f"/api/games/{gid}", headers=bearer(game["judge_token"])).status_code == 500
        )
    # exporting: each format, each viewer, the event export, the command line
    for token, fmt in (
        (game["judge_token"], "json"),
        (seats["A"], "ndjson"),
        (game["table_token"], "text"),
    ):
        response = client.get(f"/api/games/{gid}/export?format={fmt}", headers=bearer(token))
        assert response.status_code == 200
        response.get_data()
    event = client.get("/api/exports?event=Leak+Cup&format=ndjson", headers=bearer(ORGANIZER_TOKEN))
    assert event.status_code == 200 and gid in event.get_data(as_text=True)
    assert client.get("/api/players/Alice/games").status_code == 200
    out = tmp_path / "export.txt"
    db = backend["MUNCHLOG_DATABASE_URL"]
    assert (
        main(["export", "--event", "Leak Cup", "--format", "text", "-o", str(out), "--db", db]) == 0
    )
    app.wsgi_app.flush()  # type: ignore[attr-defined]

    records = caplog.records
    assert any(r.levelno >= logging.ERROR for r in records)  # the 500 was logged
    assert _leaks(records, secrets) == []
    assert "GET /api/games " in access.getvalue() or 'GET /api/games"' in access.getvalue()
    assert [s for s in secrets if s in access.getvalue()] == []
    # the check itself sees a token when one is logged; the formatters redact it
    logged = logging.makeLogRecord(
        {"name": "x", "msg": "got Authorization: Bearer %s", "args": (seats["A"],)}
    )
    assert _leaks([logged], secrets)
    assert seats["A"] not in JsonFormatter().format(logged)
    assert seats["A"] not in TextFormatter().format(logged)


def test_the_json_log_format() -> None:
    stream = io.StringIO()
    handler = configure_logging("json", "DEBUG", stream=stream)
    try:
        log = logging.getLogger("munchlog.test")
        log.info("position %d", 7, extra={"position": 7, "lag": 0})
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("failed with table_token=abc123")
    finally:
        logging.getLogger().removeHandler(handler)
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["message"] == "position 7" and first["level"] == "INFO"
    assert first["logger"] == "munchlog.test" and first["time"].endswith("Z")
    assert (first["position"], first["lag"]) == (7, 0)
    assert second["message"] == "failed with table_token=[redacted]"
    assert "ValueError: boom" in second["exception"]
    with pytest.raises(ValueError, match="MUNCHLOG_LOG_FORMAT"):
        configure_logging("xml")


def test_redaction_of_anything_that_looks_like_a_credential() -> None:
    assert redact("Authorization: Bearer abc.DEF-1") == "Authorization: Bearer [redacted]"
    assert (
        redact("{'HTTP_AUTHORIZATION': 'Bearer q'}")
        == "{'HTTP_AUTHORIZATION': 'Bearer [redacted]'}"
    )
    assert redact('{"judge_token": "zz", "n": 1}') == '{"judge_token": "[redacted]", "n": 1}'
    assert redact("/api/games?token=abc&x=1") == "/api/games?token=[redacted]&x=1"
    assert redact("game 7f3c: 12 events") == "game 7f3c: 12 events"


def test_the_access_log_as_json() -> None:
    stream = io.StringIO()

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("201 CREATED", [])
        return [b"{}"]

    log = serving.AccessLog(app, stream=stream, interval=3600, as_json=True)
    environ = {
        "REMOTE_ADDR": "10.0.0.7",
        "REQUEST_METHOD": "POST",
        "PATH_INFO": '/api/games/g"x/actions',
        "QUERY_STRING": "token=secret",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_AUTHORIZATION": "Bearer secret",
    }
    b"".join(log(environ, lambda *a: None))
    log.flush()
    line = json.loads(stream.getvalue())
    assert line["path"] == '/api/games/g"x/actions' and line["status"] == 201
    assert line["logger"] == "munchlog.access" and line["ms"] >= 0
    assert "secret" not in stream.getvalue()


def test_munchlog_serve_prints_no_organizer_token_it_was_given(tmp_path: Path) -> None:
    """... nor any warning at a normal start (issue #44): granian's line about "up to 260 Python
    threads" (the threads that may wait for request bodies, intended) opened every start."""
    token = "given-organizer-token-" + uuid.uuid4().hex
    with munchlog_serve(tmp_path, token, log=True) as (port, _env):
        assert requests.get(f"http://127.0.0.1:{port}/healthz").ok
    printed = (tmp_path / "serve.log").read_text()
    assert "organizer token (from MUNCHLOG_ORGANIZER_TOKEN; not printed)" in printed
    assert token not in printed
    assert "Started worker-1" in printed  # granian's own lines are there
    started = printed.split("Shutting down", 1)[0]  # the start, up to the first stop's line
    assert [line for line in started.splitlines() if "WARN" in line.upper()] == []
