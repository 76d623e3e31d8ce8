"""Exports as a use case (moved from tests/api/test_export_api.py): a seat's export hides the
opponent's hidden cards, a judge's is complete. The formats' bytes, negotiation and streaming
are HTTP's (tests/api/test_export_api.py); the formats themselves tests/unit/test_export.py."""

from __future__ import annotations

import json

from projections.exports import export_json, export_json_text
from service.games import GameLog
from tests.service.helpers import start


def test_a_seat_export_hides_the_opponents_hidden_cards(log: GameLog) -> None:
    started = start(log)
    records = log.all_records(started.game_id)
    text = export_json_text(records, "A", exported_at="2024-05-02T09:00:00+00:00")
    export = json.loads(text)
    assert export["viewer"] == "A" and export["complete"] is False
    created = export["events"][0]["data"]
    deck_b = next(s for s in created["seats"] if s["seat"] == "B")["deck"]
    assert deck_b and all(card == {"hidden": True} for card in deck_b)
    assert all("hash" not in e for e in export["events"])
    b_ids = {c["id"] for c in started.cards["B"]["cards"]}
    assert not any(cid in text for cid in b_ids)
    judge = export_json(records, "judge")
    assert judge["complete"] is True
    assert all(cid in json.dumps(judge) for cid in b_ids)
