"""A decklist as text at registration (issue #38): ``decklist_text`` is one ``<count> <card
name>`` a line and ``Hero: <name>``, blank lines and ``#`` comments ignored; the CCG reads it
(``domain.ccg.hosting``), and a mistake is a 400 naming the line and why, nothing registered.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.ccg.cards import sample_catalog
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event

pytestmark = pytest.mark.storage_agnostic


def neutral_names() -> list[str]:
    cards = sample_catalog().cards.values()
    return [c["name"] for c in cards if c["type"] != "hero" and c["class"] == "neutral"]


def draft_text(copies: int = 3) -> str:
    """A legal 30-card draft list as text, ten names three times each, with noise."""
    lines = ["# Friday's list", "Hero: Sample Orc Warrior", ""]
    lines += [f"{copies} {name}  # a comment" for name in neutral_names()[:10]]
    return "\n".join(lines)


def post(client: FlaskClient, eid: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/events/{eid}/players", json=body, headers=bearer(ORGANIZER_TOKEN))


def test_a_list_as_text_registers_as_the_same_list_as_entries(client: FlaskClient) -> None:
    eid = open_event(client, format="draft")["event_id"]
    as_text = post(client, eid, {"player": "ann", "decklist_text": draft_text()})
    assert as_text.status_code == 201, as_text.get_json()
    entries = [{"name": n, "count": 3} for n in neutral_names()[:10]]
    as_entries = post(
        client, eid, {"player": "bob", "hero": {"name": "Sample Orc Warrior"}, "decklist": entries}
    )
    assert as_entries.status_code == 201
    shown = client.get(f"/api/events/{eid}", headers=bearer(ORGANIZER_TOKEN)).get_json()
    ann, bob = shown["players"]
    assert ann["decklist"] == bob["decklist"] and len(ann["decklist"]) == 10
    assert ann["hero"] == {"name": "Sample Orc Warrior"}


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("Hero: Sample Orc Warrior\n3 Sample Nope\n1 No Such Card", 3, "unknown card"),
        ("Hero: Sample Orc Warrior\n2 Sample Nope\n\n2 Sample Nope", 4, "over 3 copies"),
        ("Hero: Sample Orc Warrior\nthree Sample Nope", 2, "is not '<count> <card name>'"),
        ("# x\nHero: Sample Orc Warrior\nHero: Sample Gnome Thief", 3, "a second Hero"),
        ("Hero: Nobody At All\n1 Sample Nope", 1, "unknown card 'Nobody At All'"),
        ("Hero: Sample Orc Warrior\n0 Sample Nope", 2, "a count is 1 to 60"),
    ],
)
def test_a_mistake_names_its_line_and_registers_nobody(
    client: FlaskClient, text: str, line: int, reason: str
) -> None:
    eid = open_event(client, format="draft")["event_id"]
    refused = post(client, eid, {"player": "ann", "decklist_text": text})
    assert refused.status_code == 400, refused.get_json()
    error = refused.get_json()["error"]
    assert error["code"] == "request/decklist_text"
    assert error["message"].startswith(f"line {line}: ") and reason in error["message"]
    assert client.get(f"/api/events/{eid}").get_json()["players"] == []


def test_text_and_entries_together_no_hero_and_a_short_deck_are_refused(
    client: FlaskClient,
) -> None:
    eid = open_event(client, format="draft")["event_id"]
    both = post(
        client,
        eid,
        {"player": "ann", "decklist_text": draft_text(), "hero": {"name": "Sample Orc Warrior"}},
    )
    assert both.get_json()["error"]["code"] == "request/two_decklists"
    no_hero = post(client, eid, {"player": "ann", "decklist_text": "3 Sample Nope"})
    assert no_hero.status_code == 400 and "Hero" in no_hero.get_json()["error"]["message"]
    short = post(client, eid, {"player": "ann", "decklist_text": draft_text(copies=2)})
    assert short.status_code == 422 and short.get_json()["error"]["code"] == "rule/deck_size"
    assert client.get(f"/api/events/{eid}").get_json()["players"] == []


def test_a_classic_player_brings_no_list_as_text_either(client: FlaskClient) -> None:
    eid = open_event(client, ruleset="munchkin-deluxe")["event_id"]
    refused = post(client, eid, {"player": "ann", "decklist_text": "1 Sample Nope"})
    assert refused.status_code == 400
    assert refused.get_json()["error"]["code"] == "request/no_decklist_here"
