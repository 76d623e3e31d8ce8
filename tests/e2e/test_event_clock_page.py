"""The round's clock on the event page and the table page (issue #38), in Debian's chromium
against a real ``munchlog serve``: a four-player CCG event whose round-1 clock has run 29 min 57
s of its 30 and whose table 2 a judge extended by 3 minutes. With no request from anyone the
server calls time at table 1 (its game's table page then shows the turns left) while table 2's
page still counts its extension down; the event page, following the event's stream, shows
time called at table 1 as it happens. On a phone (390x844) and a desktop (1280x800); a
screenshot of each page is saved (``$MUNCHLOG_SCREENSHOTS`` or the test's tmp folder).

The start is recorded in the server's store 29 min 57 s ago by an app in this process (what
``POST …/clock`` records, at another time), not to wait half an hour.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.tournament import clock
from service.tournaments import Tournaments
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event, pair, register
from tests.e2e.tablepage import no_horizontal_overflow, watched_page
from tests.live import serve_beside_app

pytestmark = pytest.mark.e2e

ORGANIZER = ORGANIZER_TOKEN  # the one the API tests' helpers send
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder: Path = tmp_path_factory.mktemp("event-clock-page")
    with serve_beside_app(folder, ORGANIZER) as (port, app):
        client = app.test_client()
        event = open_event(client, name="Saturday Munchkin Open", round_minutes=30)
        eid, judge = event["event_id"], event["judge_token"]
        for name in ("ann", "bob", "cat", "dan"):
            register(client, eid, name)
        paired = pair(client, eid)
        extended = client.post(
            f"/api/events/{eid}/clock",
            json={"action": "extend", "table": 2, "minutes": 3, "reason": "deck check"},
            headers=bearer(judge),
        )
        assert extended.status_code == 201, extended.get_json()
        started = clock.iso(datetime.now(UTC) - timedelta(minutes=29, seconds=57))

        def start(event: Any) -> tuple[list[Any], None]:
            event.record(clock.ClockStarted, round=1, by="judge", at=started)
            return [], None

        Tournaments(app.extensions["munchlog"])._update(UUID(eid), start)
        yield {
            "base": f"http://127.0.0.1:{port}",
            "eid": eid,
            "judge": judge,
            "games": {p["table"]: p["game_id"] for p in paired["pairings"]},
        }


def shoot(page: Any, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    page.evaluate("window.scrollTo(0, 0)")
    shot = folder / f"clock-{name}.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 10_000


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_event_page_shows_the_clock_and_time_called_live(
    browser: Any, served: dict[str, Any], size: str, tmp_path: Path
) -> None:
    context, page, _requested, errors = watched_page(browser, *SIZES[size])
    try:
        page.goto(f"{served['base']}/events/{served['eid']}")
        page.wait_for_selector("#clock:not([hidden])")
        page.wait_for_selector(
            "#clock .clock-note:has-text('time called at table 1 (6 turns left)')", timeout=20_000
        )
        text = page.inner_text("#clock")
        assert "table 2: +3 min (2:" in text or "table 2: +3 min (3:" in text, text
        assert page.get_attribute("#clock", "data-state") == "time"
        if size == "phone":
            no_horizontal_overflow(page)
        shoot(page, tmp_path, f"event-{size}")
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_table_pages_show_their_time_and_the_turns_left(
    browser: Any, served: dict[str, Any], size: str, tmp_path: Path
) -> None:
    context, page, _requested, errors = watched_page(browser, *SIZES[size])
    try:
        missing: list[str] = []
        context.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
        page.goto(f"{served['base']}/games/{served['games'][1]}/play#token={served['judge']}")
        page.wait_for_selector("#clock[data-state='time']", timeout=20_000)
        page.wait_for_selector("#clock:has-text('turns left')", timeout=20_000)
        assert "6 turns left" in page.inner_text("#clock"), page.inner_text("#clock")
        if size == "phone":
            no_horizontal_overflow(page)
        shoot(page, tmp_path, f"table-time-{size}")
        other = context.new_page()
        other.goto(f"{served['base']}/games/{served['games'][2]}/play#token={served['judge']}")
        other.wait_for_selector("#clock[data-state='running']")
        shown = other.inner_text("#clock")
        assert "table 2" in shown and "+3 min" in shown and " left" in shown, shown
        minutes = int(shown.split(":")[0])
        assert 1 <= minutes <= 3, shown
        shoot(other, tmp_path, f"table-running-{size}")
        # the table page asks a CCG game for the classic sets' card names (404: not this
        # change's; it names them for a classic table)
        assert [u for u in missing if "/api/rulesets/" not in u] == []
        assert all("404" in e for e in errors), (errors, missing)
    finally:
        context.close()
