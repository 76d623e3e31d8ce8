"""Both entrances of ``POST /api/games/<id>/actions`` -- the hot path (``api.json_api.hotpath``) and
the Flask route (``api.json_api.routes.games.GameActions.post``) -- record through one function,
``api.json_api.recording.record_actions``, which passes every parameter of ``GameLog.record``: a field
or header added there is handled by both, and one entrance cannot skip what the other does."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import api.json_api.recording
from api.json_api.hotpath import RecordHotPath
from api.json_api.recording import RECORD_HEADER_KEYS, RECORD_HEADERS, record_actions
from bench.record_bench import setup_actions
from service.games import BatchOutcome, GameLog
from tests.api.test_hotpath import Twins, hot_path, twins  # noqa: F401 (the fixture)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every call of ``api.json_api.recording.record_actions``: its arguments (defaults included) but
    the log and the game id."""
    calls: list[dict[str, Any]] = []
    real = api.json_api.recording.record_actions
    signature = inspect.signature(real)

    def spying(*args: Any, **kw: Any) -> Any:
        bound = signature.bind(*args, **kw)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments["log"], arguments["game_id"]
        calls.append({**arguments, "body": dict(arguments["body"])})
        return real(*args, **kw)

    monkeypatch.setattr(api.json_api.recording, "record_actions", spying)
    return calls


@pytest.mark.parametrize("entrance", ["hot", "flask"])
def test_each_entrance_records_through_record_actions(
    twins: Twins,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    entrance: str,
) -> None:
    """The same request (with an ``expected_version``) through either entrance is one call
    of ``record_actions`` with the same arguments, and nothing else records it."""
    calls = _spy(monkeypatch)
    app = twins.apps[entrance]
    hot = hot_path(twins.apps["hot"])
    assert isinstance(hot, RecordHotPath)
    body = {"actions": setup_actions(twins.created), "expected_version": 1}
    response = app.test_client().post(
        f"/api/games/{twins.game_id}/actions",
        json=body,
        headers={"Authorization": f"Bearer {twins.tokens[entrance]['table']}"},
    )
    assert response.status_code == 201, response.get_json()
    assert hot.served == (1 if entrance == "hot" else 0)  # the entrance it says
    assert calls == [{"body": body, "actor": "table", "idempotency_key": None}]


@pytest.mark.parametrize("header", RECORD_HEADERS)
def test_a_request_with_a_recording_header_goes_to_the_flask_route(
    twins: Twins,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    header: str,
) -> None:
    """The hot path passes any request carrying a header recording reads to the Flask route,
    which hands it to ``record_actions``."""
    calls = _spy(monkeypatch)
    hot = hot_path(twins.apps["hot"])
    response = (
        twins.apps["hot"]
        .test_client()
        .post(
            f"/api/games/{twins.game_id}/actions",
            json={"actions": setup_actions(twins.created)},
            headers={"Authorization": f"Bearer {twins.tokens['hot']['table']}", header: "key-1"},
        )
    )
    assert response.status_code == 201, response.get_json()
    assert hot.served == 0
    assert calls == [
        {
            "body": {"actions": setup_actions(twins.created)},
            "actor": "table",
            header.lower().replace("-", "_"): "key-1",
        }
    ]
    assert (
        tuple(f"HTTP_{h.upper().replace('-', '_')}" for h in RECORD_HEADERS) == RECORD_HEADER_KEYS
    )


def test_record_actions_passes_every_parameter_of_gamelog_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A parameter added to ``GameLog.record`` must be passed by ``record_actions`` (so by both
    entrances): each one is passed explicitly, none left to its default."""
    passed: list[set[str]] = []

    def record(self: Any, game_id: Any, actions: Any, **kw: Any) -> BatchOutcome:
        passed.append({"game_id", "actions", *kw})
        return BatchOutcome(response={}, replayed=False)

    monkeypatch.setattr(GameLog, "record", record)
    log: Any = object.__new__(GameLog)
    record_actions(log, object(), {"actions": []}, actor="table")  # type: ignore[arg-type]
    monkeypatch.undo()
    wanted = set(inspect.signature(GameLog.record).parameters) - {"self"}
    assert passed == [wanted]
