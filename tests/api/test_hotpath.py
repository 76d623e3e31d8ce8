"""api/json_api/hotpath.py: the recording hot path answers exactly as the Flask route does.

Two apps hold the same game (one imported export), one with the hot path and one without
(``MUNCHLOG_HOTPATH=0``); every request goes to both, in the same order, with the server's
clock frozen, and the answers (status, headers, body) must be equal byte for byte -- for the
everyday request the hot path serves and for every request it hands to Flask or answers with an
error.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.json_api.hotpath import RecordHotPath
from api.ops.metrics import RequestMetrics
from bench.record_bench import game_body, setup_actions
from tests.api.helpers import bearer
from tests.conftest import ORGANIZER_TOKEN

NOW = "2026-11-23T12:00:00.000000+00:00"


class Twins:
    """The same game in two apps: ``hot`` (hot path on) and ``flask`` (off)."""

    def __init__(self, hot: Flask, flask: Flask, source: Flask) -> None:
        self.apps = {"hot": hot, "flask": flask}
        created = source.test_client().post(
            "/api/games", json=game_body("hot"), headers=bearer(ORGANIZER_TOKEN)
        )
        assert created.status_code == 201
        self.game_id = created.get_json()["game_id"]
        judge = created.get_json()["judge_token"]
        export = source.test_client().get(
            f"/api/games/{self.game_id}/export?format=json", headers=bearer(judge)
        )
        self.tokens: dict[str, dict[str, str]] = {}
        self.created: dict[str, Any] = {}  # an import's 201 body: the seats' card ids
        for name, app in self.apps.items():
            imported = app.test_client().post(
                "/api/games/import",
                data=export.data,
                content_type="application/json",
                headers=bearer(ORGANIZER_TOKEN),
            )
            assert imported.status_code == 201, imported.get_json()
            body = imported.get_json()
            self.tokens[name] = {
                "table": body["table_token"],
                "judge": body["judge_token"],
                "A": body["seats"]["A"]["token"],
                "B": body["seats"]["B"]["token"],
                "organizer": ORGANIZER_TOKEN,
            }
            self.created = body  # the same cards in both imports

    def post(
        self,
        who: str | None,
        body: Any,
        *,
        raw: bytes | None = None,
        path: str | None = None,
        headers: dict[str, str] | None = None,
        content_type: str = "application/json",
    ) -> tuple[int, dict[str, str], bytes]:
        """POST to both apps; assert equal answers; return the hot app's."""
        answers = []
        for name, app in self.apps.items():
            hdrs = dict(headers or {})
            if who is not None:
                hdrs["Authorization"] = f"Bearer {self.tokens[name][who]}"
            data = raw if raw is not None else json.dumps(body).encode()
            response = app.test_client().post(
                path or f"/api/games/{self.game_id}/actions",
                data=data,
                content_type=content_type,
                headers=hdrs,
            )
            answers.append((response.status_code, dict(response.headers), response.data))
        assert answers[0] == answers[1]
        return answers[0]


def hot_path(app: Flask) -> Any:
    """The app's :class:`RecordHotPath`, under the request metrics' middleware
    (``api.ops.metrics.RequestMetrics``, the outermost), or the first WSGI callable that is not
    a middleware when there is none."""
    wsgi: Any = app.wsgi_app
    while not isinstance(wsgi, RecordHotPath) and isinstance(wsgi, RequestMetrics):
        wsgi = wsgi.app
    return wsgi


@pytest.fixture
def twins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Twins]:
    import service.games
    from api.app import create_app

    monkeypatch.setattr(service.games, "utc_now", lambda: NOW)

    def make(name: str, hotpath: str) -> Flask:
        return create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": str(tmp_path / "instance"),
                "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
                "MUNCHLOG_DATABASE_URL": str(tmp_path / f"{name}.sqlite"),
                "MUNCHLOG_HOTPATH": hotpath,
            }
        )

    apps = [make("source", "1"), make("hot", "1"), make("flask", "0")]
    assert isinstance(hot_path(apps[1]), RecordHotPath)
    assert not isinstance(hot_path(apps[2]), RecordHotPath)
    try:
        yield Twins(apps[1], apps[2], apps[0])
    finally:
        for app in apps:
            app.extensions["munchlog"].close()


def _hero(t: Twins) -> str:
    app = t.apps["hot"]
    state = app.test_client().get(
        f"/api/games/{t.game_id}/state", headers=bearer(t.tokens["hot"]["table"])
    )
    return str(state.get_json()["seats"]["A"]["hero"]["id"])


def test_the_everyday_request_is_served_by_the_hot_path_and_answers_as_flask(
    twins: Twins,
) -> None:
    hot = hot_path(twins.apps["hot"])
    assert isinstance(hot, RecordHotPath)
    status, _, _ = twins.post("table", {"actions": setup_actions(twins.created)})
    assert status == 201 and hot.served == 1
    hero = _hero(twins)
    for who in ("A", "table", "judge"):
        status, headers, body = twins.post(
            who, {"actions": [{"type": "activate", "seat": "A", "card": hero}]}
        )
        assert status == 201 and headers["Content-Type"] == "application/json"
        status, _, _ = twins.post(who, {"actions": [{"type": "resolve", "seat": "A"}]})
        assert status == 201
    assert hot.served == 7
    assert json.loads(body)["events"]  # the caller's view of the new events


def test_the_hot_path_encodes_with_the_apps_json_settings_as_they_are(twins: Twins) -> None:
    """The hot path keeps an encoder made with the app's JSON provider's settings: when they
    change, its answers change with Flask's."""
    hot = hot_path(twins.apps["hot"])
    twins.post("table", {"actions": setup_actions(twins.created)})
    hero = _hero(twins)
    _, _, before = twins.post(
        "table", {"actions": [{"type": "activate", "seat": "A", "card": hero}]}
    )
    assert before.startswith(b'{"events":')  # Flask's default: sorted keys
    for app in twins.apps.values():
        app.json.sort_keys = False  # type: ignore[attr-defined]
    status, _, after = twins.post("table", {"actions": [{"type": "resolve", "seat": "A"}]})
    assert status == 201 and after.startswith(b'{"version":')  # as the service made it
    assert hot.served == 3


def test_errors_and_unusual_requests_answer_as_flask(twins: Twins) -> None:
    hot = hot_path(twins.apps["hot"])
    assert isinstance(hot, RecordHotPath)
    twins.post("table", {"actions": setup_actions(twins.created)})
    hero = _hero(twins)
    activate = {"actions": [{"type": "activate", "seat": "A", "card": hero}]}
    resolve = {"actions": [{"type": "resolve", "seat": "A"}]}
    served = hot.served
    cases: list[tuple[int, Any, dict[str, Any]]] = [
        (422, "table", {"body": resolve}),  # nothing to resolve: a rule
        (403, "B", {"body": activate}),  # a seat acting for another
        (403, "organizer", {"body": activate}),  # the organizer may not record
        (401, None, {"body": activate}),  # no token
        (400, "table", {"body": {"actions": []}}),
        (400, "table", {"body": {"actions": [{"type": "activate"}]}}),
        (400, "table", {"body": [1, 2]}),
        (400, "table", {"body": None, "raw": b"{not json"}),
        (400, "table", {"body": None, "raw": b'{"actions": "\xff"}'}),
        (409, "table", {"body": {**activate, "expected_version": 1}}),
        (400, "table", {"body": {**activate, "expected_version": -1}}),
        (
            404,
            "table",
            {
                "body": activate,
                "path": "/api/games/" + "0" * 8 + "-0000-4000-8000-" + "0" * 12 + "/actions",
            },
        ),
        (404, "table", {"body": activate, "path": "/api/games/not-a-game/actions"}),
    ]
    for status, who, kwargs in cases:
        body = kwargs.pop("body")
        got, _, answer = twins.post(who, body, **kwargs)
        assert got == status, (status, who, body, answer)
        assert "error" in json.loads(answer)
    # unknown token, lower-case scheme, another content type, a query string, an
    # Idempotency-Key: all to Flask, same answers
    for kwargs in (
        {"headers": {"Authorization": "Bearer nope"}},
        {"headers": {"Authorization": "bearer x y"}},
    ):
        got, _, _ = twins.post(None, activate, **kwargs)
        assert got == 401
    got, _, _ = twins.post("table", activate, content_type="text/plain")
    assert got == 400
    got, _, _ = twins.post("table", activate, path=f"/api/games/{twins.game_id}/actions?x=1")
    assert got == 201
    got, _, _ = twins.post("table", resolve, headers={"Idempotency-Key": "k-1"})
    again, headers_again, _ = twins.post("table", resolve, headers={"Idempotency-Key": "k-1"})
    assert got == again == 201 and headers_again.get("Idempotent-Replayed") == "true"
    assert hot.served == served  # none of these was served on the hot path as a success


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=12),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=8,
    )
    | st.fixed_dictionaries(
        {
            "actions": st.lists(
                st.fixed_dictionaries(
                    {
                        "type": st.sampled_from(["activate", "resolve", "end_turn", "draw", "x"]),
                        "seat": st.sampled_from(["A", "B", "C", ""]),
                    }
                ),
                max_size=3,
            )
        }
    ),
    who=st.sampled_from(["table", "A", "B", "judge", "organizer"]),
)
def test_any_body_gets_the_same_answer_on_both_paths(twins: Twins, body: Any, who: str) -> None:
    status, _, answer = twins.post(who, body)
    assert status < 500, answer


def test_a_content_length_of_non_ascii_digits_goes_to_flask(twins: Twins) -> None:
    """``²`` is a digit to ``str.isdigit`` (a WSGI header value is Latin-1 text) but no number
    to ``int``: the hot path leaves such a request to Flask, which answers it as any other
    unreadable body (it raised ``ValueError``, a 500, before)."""
    hot = hot_path(twins.apps["hot"])
    twins.post("table", {"actions": setup_actions(twins.created)})
    served = hot.served
    answers = []
    for name in ("hot", "flask"):
        response = (
            twins.apps[name]
            .test_client()
            .post(
                f"/api/games/{twins.game_id}/actions",
                data=b'{"actions": []}',
                content_type="application/json",
                headers={"Authorization": f"Bearer {twins.tokens[name]['table']}"},
                environ_overrides={"CONTENT_LENGTH": "\u00b2"},
            )
        )
        answers.append((response.status_code, response.get_json()["error"]["code"]))
    assert answers[0] == answers[1] and answers[0][0] == 400, answers
    assert hot.served == served
