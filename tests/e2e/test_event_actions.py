"""A player checks in and reports from its phone (issue #38, ``api/static/event_actions.js``)
in Debian's chromium against a real ``munchlog serve``: a four-player Deluxe table on paper
(``results: "reported"``) with check-in, at 390x844 and 1280x800. The first player checks in
and reports the places; the page says it waits for the others; once every player has reported
the same places (over the API) the page shows the result standing. The page's phone layout never
scrolls sideways; a screenshot of each is saved (``$MUNCHLOG_SCREENSHOTS`` or the test's tmp
folder; looked at when this test was written).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event, pair, register
from tests.e2e.tablepage import no_horizontal_overflow, watched_page
from tests.live import serve_beside_app

pytestmark = pytest.mark.e2e

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
PLAYERS = ("ann", "bob", "cid", "dee")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder: Path = tmp_path_factory.mktemp("event-actions")
    with serve_beside_app(folder, ORGANIZER_TOKEN) as (port, app):
        client = app.test_client()
        events = {}
        for size in SIZES:
            event = open_event(
                client,
                name=f"Paper Deluxe ({size})",
                ruleset="munchkin-deluxe",
                rounds=1,
                results="reported",
                check_in={"opens": 10, "no_show": 10},
            )
            eid = event["event_id"]
            tokens = {p: register(client, eid, p, hero=None, decklist=None) for p in PLAYERS}
            table = pair(client, eid)["pairings"][0]
            events[size] = {"eid": eid, "tokens": tokens, "seats": table["seats"]}
        corrected = open_event(client, name="Corrected", rounds=2, results="reported")
        cid, judge = corrected["event_id"], corrected["judge_token"]
        players = {p: register(client, cid, p) for p in PLAYERS}
        for table in pair(client, cid)["pairings"]:
            a, b = table["seats"]["A"], table["seats"]["B"]
            for who, wins in ((a, 1), (b, 0)):
                body = {"wins": wins, "losses": 1 - wins}
                told = client.post(
                    f"/api/events/{cid}/rounds/1/report", json=body, headers=bearer(players[who])
                )
                assert told.status_code == 201, told.get_json()
        pair(client, cid)
        first = client.get(f"/api/events/{cid}").get_json()["rounds"][0]["pairings"][0]
        fix = {
            "table": 1,
            "games": {first["seats"]["A"]: 0, first["seats"]["B"]: 1},
            "reason": "the slip was filled in reversed",
        }
        fixed = client.post(
            f"/api/events/{cid}/rounds/1/correction", json=fix, headers=bearer(judge)
        )
        assert fixed.status_code == 201, fixed.get_json()
        yield {
            "base": f"http://127.0.0.1:{port}",
            "events": events,
            "client": client,
            "corrected": cid,
        }


@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_checks_in_and_reports_its_tables_places(
    browser: Any, served: dict[str, Any], size: str, tmp_path: Path
) -> None:
    event = served["events"][size]
    eid, tokens, seats = event["eid"], event["tokens"], event["seats"]
    order = [seats[s] for s in sorted(seats)]  # the places reported: seat order
    me = order[0]
    context, page, _, errors = watched_page(browser, *SIZES[size])
    try:
        page.goto(f"{served['base']}/events/{eid}#token={tokens[me]}")
        page.wait_for_selector("#my-actions .check-in")
        assert "Not checked in yet." in page.inner_text("#my-actions .check-in")
        page.click("#check-in")
        page.wait_for_selector("#my-actions .check-in[data-checked-in='1']")
        for place, player in enumerate(order, start=1):
            page.select_option(f"form.report select[name='{player}']", str(place))
        page.click("form.report button[type=submit]")
        page.wait_for_selector(".report-state[data-state=waiting]")
        waiting = page.inner_text(".report-state[data-state=waiting]")
        assert all(p in waiting for p in order[1:]) and me not in waiting.split("waiting for")[1]
        if size == "phone":
            no_horizontal_overflow(page)
        shoot(page, tmp_path, f"{size}-waiting")
        places = {p: n for n, p in enumerate(order, start=1)}
        for other in order[1:]:
            reported = served["client"].post(
                f"/api/events/{eid}/rounds/1/report",
                json={"places": places},
                headers=bearer(tokens[other]),
            )
            assert reported.status_code == 201, reported.get_json()
        page.click("#refresh")
        try:
            page.wait_for_selector(".report-state[data-state=stands]")
        except Exception:
            print("ACTIONS", page.inner_text("#my-actions"), page.inner_text("#status"))
            raise
        assert "reported by the players" in page.inner_text(".report-state[data-state=stands]")
        assert page.locator("form.report").count() == 0
        shoot(page, tmp_path, f"{size}-stands")
        assert not errors, errors
    finally:
        context.close()


def test_the_page_says_a_correction_and_the_pairings_made_before_it(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    context, page, _, errors = watched_page(browser, *SIZES["desktop"])
    try:
        page.goto(f"{served['base']}/events/{served['corrected']}")
        page.wait_for_selector(".round .pairing")
        corrected = page.locator(".round[data-round='1'] .note.corrected").all_inner_texts()
        assert corrected == ["Corrected by a judge: the slip was filled in reversed"]
        assert page.locator(".round[data-round='1'] .note.paired-before").count() == 0
        before = page.locator(".round[data-round='2'] .note.paired-before").all_inner_texts()
        assert len(before) == 2 and all("before a correction" in t for t in before)
        shoot(page, tmp_path, "corrected")
        assert not errors, errors
    finally:
        context.close()


def shoot(page: Any, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    page.evaluate("window.scrollTo(0, 0)")
    shot = folder / f"event-actions-{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
