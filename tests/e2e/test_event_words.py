"""The event's newer pages speak a player's words too (issue #40: "the event pages (and the new
event pages as they come)"): the home page, the event page as the organizer (its console), a
staff judge, a player and a spectator, the judge's page, the room's screen and the print pages,
for a CCG event with round 1 paired, its clock running, a judge call open and one report in.
What each shows holds no code, version number, snake_case or raw value (the table page's scan,
``tests/e2e/test_player_words.jargon_in``), and axe-core finds no WCAG 2.1 AA violation on the
pages people use on a screen (the print pages are read on paper), at a phone's size.

The page text of each is written to ``$MUNCHLOG_SCREENSHOTS`` (else the test's tmp folder).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_floor import add_staff
from tests.api.test_events import my_game, open_event, pair, register
from tests.e2e.tablepage import watched_page
from tests.live import serve_beside_app

pytestmark = pytest.mark.e2e

PHONE = (390, 844)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder: Path = tmp_path_factory.mktemp("event-words")
    with serve_beside_app(folder, ORGANIZER_TOKEN) as (port, app):
        client = app.test_client()
        event = open_event(
            client, name="Sunday Munchkin Cup", check_in={"opens": 30, "no_show": 10}
        )
        eid, judge = event["event_id"], event["judge_token"]
        tokens = {name: register(client, eid, name) for name in ("Ann", "Bob", "Cy", "Di")}
        paired = pair(client, eid)
        jo = add_staff(client, eid, "Jo", "judge")
        for token in tokens.values():
            client.post(f"/api/events/{eid}/check-in", headers=bearer(token))
        assert (
            client.post(
                f"/api/events/{eid}/clock", json={"action": "start"}, headers=bearer(judge)
            ).status_code
            == 201
        )
        first = paired["pairings"][0]
        caller = first["seats"]["A"]
        call = client.post(
            f"/api/events/{eid}/calls",
            json={"table": first["table"], "note": "is this card legal here?"},
            headers=bearer(tokens[caller]),
        )
        assert call.status_code == 201, call.get_json()
        my_game(client, eid, 1, tokens[caller])
        yield {
            "base": f"http://127.0.0.1:{port}",
            "eid": eid,
            "judge": jo["token"],
            "player": tokens[caller],
        }


def pages(served: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
    """``(label, path with its token, a selector it is ready at, axe it)``."""
    eid = served["eid"]
    event = f"/events/{eid}"
    return [
        ("home", "/", "main", True),
        ("event spectator", event, "#app:not([hidden]) #rounds *", True),
        ("event player", f"{event}#token={served['player']}", "#app:not([hidden]) #rounds *", True),
        ("event judge", f"{event}#token={served['judge']}", "#app:not([hidden]) #rounds *", True),
        (
            "event organizer",
            f"{event}#token={ORGANIZER_TOKEN}",
            "#app:not([hidden]) #rounds *",
            True,
        ),
        ("judge's page", f"{event}/judge#token={served['judge']}", "#app:not([hidden])", True),
        ("room's screen", f"{event}/tv", "#clock:not([hidden])", True),
        ("pairings by name", f"{event}/print/pairings?by=name", "body", False),
        ("pairings by table", f"{event}/print/pairings?by=table", "body", False),
        ("slips", f"{event}/print/slips", "body", False),
        ("standings", f"{event}/print/standings", "body", False),
    ]


def test_the_event_pages_and_the_floor_speak_a_players_words(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    from tests.e2e.test_player_words import WCAG_AA, jargon_in

    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    found: dict[str, Any] = {}
    for label, path, ready, axe in pages(served):
        context, page, _, errors = watched_page(browser, *PHONE)
        try:
            page.goto(served["base"] + path)
            page.wait_for_selector(ready, state="attached")
            page.wait_for_timeout(400)  # the stream's first messages, the last redraw
            text = page.inner_text("body")
            stem = label.replace(" ", "-").replace("'", "")
            (folder / f"event-words-{stem}.txt").write_text(text)
            page.screenshot(path=str(folder / f"event-words-{stem}.png"), full_page=True)
            if jargon_in(text):
                found[label] = jargon_in(text)
            if axe:
                violations = Axe().run(page, options=WCAG_AA).response["violations"]
                if violations:
                    found[label + " axe"] = [v["id"] for v in violations]
            if errors:
                found[label + " errors"] = errors
        finally:
            context.close()
    assert not found, found
