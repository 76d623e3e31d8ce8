"""The organizer's console on the event page (issue #44, ``api/static/console.js``) in Debian's
chromium against a real ``munchlog serve``, at 1280x800: the organizer signs in with its token,
registers three players by pasting them (two with their lists as text, one a name already
registered: refused in words where it was pasted), gets each one's link to hand out, and pairs
round 1, starts its clock, drops a player (one unknown: refused in words) and reports a draw. A screenshot is saved (``$MUNCHLOG_SCREENSHOTS`` or the test's tmp folder)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.api.helpers import ORGANIZER_TOKEN
from tests.api.test_events import deck, open_event
from tests.e2e.tablepage import watched_page
from tests.live import serve_beside_app

pytestmark = pytest.mark.e2e


def listed(name: str) -> str:
    counts: dict[str, int] = {}
    for entry in deck():
        counts[entry["name"]] = counts.get(entry["name"], 0) + 1
    cards = "\n".join(f"{n} {card}" for card, n in counts.items())
    return f"{name}\nHero: Sample Orc Warrior\n{cards}"


def test_the_organizer_registers_by_pasting_and_pairs(browser: Any, tmp_path: Path) -> None:
    with serve_beside_app(tmp_path / "served", ORGANIZER_TOKEN) as (port, app):
        client = app.test_client()
        eid = open_event(client, name="Console Cup", rounds=1)["event_id"]
        context, page, _, errors = watched_page(browser, 1280, 800)
        try:
            page.goto(f"http://127.0.0.1:{port}/events/{eid}#token={ORGANIZER_TOKEN}")
            page.wait_for_selector("#console-register")
            pasted = "\n\n".join([listed("ann"), listed("bob"), listed("ann")])
            page.fill("#console-players", pasted)
            page.click("#console-register button[type=submit]")
            page.wait_for_selector("#console-links li.refused")
            registered = page.locator("#console-links li.registered").all_inner_texts()
            assert [t.split(":")[0] for t in registered] == ["ann", "bob"]
            assert all(f"/events/{eid}#token=" in t for t in registered)
            refused = page.inner_text("#console-links li.refused")
            assert refused.startswith("ann: refused:") and "already registered" in refused
            shown = client.get(f"/api/events/{eid}").get_json()
            assert [p["player"] for p in shown["players"]] == ["ann", "bob"]
            # the handouts printed: the players' links alone, the refusal and the rest hidden
            page.evaluate("document.body.classList.add('printing-handouts')")
            page.emulate_media(media="print")
            assert page.locator("#console-links li.registered").first.is_visible()
            for hidden in ("#console-links li.refused", "#console-players", ".top h1"):
                assert not page.locator(hidden).first.is_visible(), hidden
            page.emulate_media(media="screen")
            page.evaluate("document.body.classList.remove('printing-handouts')")
            page.click("#console-pair")
            page.locator("#console-paired", has_text="paired").wait_for()
            assert "Round 1 paired: 1 table(s)" in page.inner_text("#console-paired")
            # a second round is refused in words where it was asked (the event has one)
            page.click("#console-pair")
            page.locator("#console-paired", has_text="Not paired").wait_for()
            assert len(page.locator("#console-links li").all()) == 3  # kept over the reloads
            page.click(".clock-action[data-action=start]")
            page.locator("#console-paired", has_text="Clock: started").wait_for()
            assert client.get(f"/api/events/{eid}").get_json()["clock"]["state"] == "running"
            page.fill("#console-drop-player", "bob")
            page.click("#console-drop button[type=submit]")
            page.locator("#console-dropped", has_text="dropped").wait_for()
            assert page.inner_text("#console-dropped") == "bob dropped after round 1."
            page.fill("#console-drop-player", "nobody")
            page.click("#console-drop button[type=submit]")
            page.locator("#console-dropped", has_text="Not dropped").wait_for()
            # a draw at time reported from the console: it stands and closes the open game
            page.click(".console-result[data-table='1'] button[type=submit]")
            page.locator("#console-results", has_text="Every result of round 1 is in").wait_for()
            shown = client.get(f"/api/events/{eid}").get_json()
            assert shown["state"] == "finished"
            game = shown["rounds"][0]["pairings"][0]["game_id"]
            assert client.get(f"/api/games/{game}").get_json()["status"] == "finished"
            page.locator("#state", has_text="Finished: won by").wait_for()  # the standings' first
            folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
            page.screenshot(path=str(folder / "event-console.png"), full_page=True)
            # the refusals asked for (the name twice, a second round, nobody) and nothing else
            assert len(errors) == 3 and all("422" in e or "404" in e for e in errors), errors
        finally:
            context.close()


def test_the_organizer_opens_an_event_from_the_home_page(browser: Any, tmp_path: Path) -> None:
    with serve_beside_app(tmp_path / "served", ORGANIZER_TOKEN) as (port, app):
        client = app.test_client()
        context, page, _, errors = watched_page(browser, 1280, 800)
        try:
            page.goto(f"http://127.0.0.1:{port}/")
            page.click("#open-event summary")
            assert "minutes" in page.inner_text("#open-form")  # each setting explained
            page.fill("#open-token", "not-the-token")
            page.fill("#open-form input[name=name]", "Home Cup")
            page.fill("#open-form input[name=round_minutes]", "40")
            page.click("#open-form button[type=submit]")
            page.wait_for_selector("#opened .refused")
            assert page.inner_text("#opened .refused").startswith("Not opened:")
            assert client.get("/api/events").get_json()["events"] == []
            page.fill("#open-token", ORGANIZER_TOKEN)
            page.click("#open-form button[type=submit]")
            page.wait_for_selector("#opened-console")
            (event,) = client.get("/api/events").get_json()["events"]
            assert event["name"] == "Home Cup"
            shown = client.get(f"/api/events/{event['event_id']}").get_json()
            assert shown["round_minutes"] == 40 and shown["rounds_setting"] is None
            folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
            page.screenshot(path=str(folder / "home-opened.png"), full_page=True)
            page.click("#opened-console")
            page.wait_for_selector("#console-register")  # signed in as the organizer
            assert len(errors) == 1 and "401" in errors[0], errors  # the wrong token's refusal
        finally:
            context.close()
