"""Issue #44's small ones: every event setting described in the API; ``deck`` accepted for
``decklist`` at registration."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import HERO, deck, open_event


def _schema(spec: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = spec["components"]["schemas"][name]
    return found


def test_every_event_setting_is_described(client: FlaskClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    opened = _schema(spec, "CreateEvent")["properties"]
    assert {"round_minutes", "format", "match", "name", "mode"} <= set(opened)
    undescribed = [k for k, v in opened.items() if not v.get("description")]
    assert undescribed == []
    shown = _schema(spec, "Event")["properties"]
    for key in (opened.keys() & shown.keys()) - {"rounds"}:  # shown as rounds_setting
        assert shown[key].get("description"), key
    assert shown["rounds_setting"]["description"]
    assert "minutes" in opened["round_minutes"]["description"]


def test_deck_is_taken_for_decklist(client: FlaskClient) -> None:
    eid = open_event(client)["event_id"]

    def register(body: dict[str, Any]) -> Any:
        return client.post(f"/api/events/{eid}/players", json=body, headers=bearer(ORGANIZER_TOKEN))

    took = register({"player": "ann", "hero": HERO, "deck": deck()})
    assert took.status_code == 201, took.get_json()
    judge_view = client.get(f"/api/events/{eid}", headers=bearer(ORGANIZER_TOKEN)).get_json()
    (ann,) = judge_view["players"]
    assert sum(e["count"] for e in ann["decklist"]) == 20
    both = register({"player": "bob", "hero": HERO, "deck": deck(), "decklist": deck()})
    assert both.status_code == 400 and "deck" in str(both.get_json())
    assert len(client.get(f"/api/events/{eid}").get_json()["players"]) == 1
