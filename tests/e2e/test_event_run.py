"""A whole event run from the pages (issue #44), in Debian's chromium against a real ``munchlog
serve``: no action is an API call written by hand (the test reads the API only to check what
the pages did).

* At 1280x800: the organizer opens a 6-player CCG event on the home page, registers the six
  by pasting their lists, adds a head judge, gives a player who lost its link a new one, drops
  a player and brings it back, then plays 3 Swiss rounds: pairs each, starts its clock, gives a
  table more time, and the results come from two players' report forms (each from its own
  link) and from the console; the head judge corrects one from its own link; the
  event ends with its winner and final standings.
* At 390x844 (a phone): the round's actions: pair, start the clock, report every table, and a
  judge's correction; nothing wider than the screen.

Screenshots are saved in ``$MUNCHLOG_SCREENSHOTS`` or the test's tmp folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event, register
from tests.e2e.tablepage import watched_page
from tests.e2e.test_event_console import listed
from tests.live import serve_beside_app

pytestmark = pytest.mark.e2e

PLAYERS = ["ann", "bob", "cy", "dee", "eve", "fay"]


def shots(tmp_path: Path) -> Path:
    return Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)


def said(page: Any, selector: str, words: str) -> str:
    """The text of ``selector`` once it says ``words``."""
    page.locator(selector, has_text=words).wait_for()
    text: str = page.inner_text(selector)
    return text


def event(client: FlaskClient, eid: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(
        f"/api/events/{eid}", headers=bearer(ORGANIZER_TOKEN)
    ).get_json()
    return found


def tables(client: FlaskClient, eid: str, number: int) -> list[tuple[int, list[str]]]:
    pairings = event(client, eid)["rounds"][number - 1]["pairings"]
    return [(p["table"], [p["seats"][s] for s in sorted(p["seats"])]) for p in pairings]


def report_in_console(page: Any, table: int, wins: dict[str, int]) -> None:
    form = f".console-result[data-table='{table}']"
    for player, won in wins.items():
        page.fill(f"{form} input[name='{player}']", str(won))
    page.click(f"{form} button[type=submit]")
    page.locator(form).wait_for(state="detached")


def correct(page: Any, number: int, table: int, wins: dict[str, int], reason: str) -> None:
    page.select_option("#console-correct-which", f"{number}:{table}")
    for player, won in wins.items():
        page.fill(f"#console-correct input[name='{player}']", str(won))
    page.fill("#console-correct-reason", reason)
    page.click("#console-correct button[type=submit]")
    said(page, "#console-corrected", "corrected")


def no_overflow(page: Any) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the screen"


def test_an_organizer_runs_a_whole_event_from_the_pages(browser: Any, tmp_path: Path) -> None:
    with serve_beside_app(tmp_path / "served", ORGANIZER_TOKEN) as (port, app):
        client, base = app.test_client(), f"http://127.0.0.1:{port}"
        context, page, _, errors = watched_page(browser, 1280, 800)
        other = context.new_page()  # the players' and the judge's links, opened in turn
        other.set_default_timeout(15_000)
        try:
            page.goto(base + "/")
            page.click("#open-event summary")
            page.fill("#open-token", ORGANIZER_TOKEN)
            page.fill("#open-form input[name=name]", "Saturday Swiss")
            page.select_option("#open-form select[name=ruleset]", "munchkin-ccg")
            page.fill("#open-form input[name=rounds]", "3")
            page.click("#open-form button[type=submit]")
            page.click("#opened-console")
            eid = page.evaluate("document.body.dataset.eventId")
            page.fill("#console-players", "\n\n".join(listed(p) for p in PLAYERS))
            page.click("#console-register button[type=submit]")
            page.locator("#console-links li.registered").nth(5).wait_for()
            links = dict(
                page.locator("#console-links li.registered a").evaluate_all(
                    "as => as.map(a => [a.closest('li').dataset.player, a.href])"
                )
            )
            assert sorted(links) == sorted(PLAYERS)
            # a head judge, its link shown once
            page.fill("#console-staff-name", "Jo")
            page.select_option("#console-staff-role", "head_judge")
            page.click("#console-staff button[type=submit]")
            jo = page.locator("#console-staff-said a").get_attribute("href")
            assert jo and "#token=" in jo
            # fay lost her link: a new one, the old one refused from now on
            old = links["fay"].split("#token=")[1]
            page.fill("#console-reissue-player", "fay")
            page.click("#console-reissue button[type=submit]")
            said(page, "#console-reissue-said", "the old link no longer works")
            links["fay"] = page.locator("#console-reissue-said a").get_attribute("href")
            assert client.get(f"/api/events/{eid}", headers=bearer(old)).status_code == 401
            handouts = page.locator("#console-links li.registered a").all_inner_texts()
            assert page.locator("#console-links li.replaced[data-player=fay]").count() == 1
            assert handouts[-1] == links["fay"] and len(handouts) == 6  # the new one to print
            # eve dropped by mistake and brought back before round 1
            page.fill("#console-drop-player", "eve")
            page.click("#console-drop button[type=submit]")
            said(page, "#console-dropped", "eve dropped before round 1")
            page.fill("#console-readmit-player", "eve")
            page.click("#console-readmit button[type=submit]")
            said(page, "#console-readmit-said", "paired again from round 1")

            for number in (1, 2, 3):
                page.click("#console-pair")
                said(page, "#console-paired", f"Round {number} paired: 3 table(s)")
                page.click(".clock-action[data-action=start]")
                said(page, "#console-paired", "Clock: started")
                (_, p1), (t2, p2), (t3, p3) = tables(client, eid, number)
                if number == 1:
                    page.click("#console-pair")  # too soon: said in words where asked
                    said(page, "#console-paired", "Not paired")
                    page.select_option("#console-extend-table", str(t2))
                    page.fill("#console-extend-reason", "deck check")
                    page.click("#console-extend button[type=submit]")
                    said(page, "#console-extended", f"Table {t2}: 3 more minute(s)")
                # table 1's players report it, each from its own page
                for player, (won, lost) in zip(p1, ((1, 0), (0, 1)), strict=True):
                    other.goto("about:blank")  # a link differs from the last by its # only
                    other.goto(links[player])
                    other.fill("form.report input[name=wins]", str(won))
                    other.fill("form.report input[name=losses]", str(lost))
                    other.click("form.report button[type=submit]")
                    other.locator(".report-state").wait_for()
                report_in_console(page, t2, {p2[0]: 1, p2[1]: 0})
                report_in_console(page, t3, {p3[0]: 0, p3[1]: 0, "drawn_games": 1})
                page.locator("#console-results", has_text="Every result of round").wait_for()
                if number == 2:  # the head judge corrects round 1's draw from its own link
                    other.goto("about:blank")
                    other.goto(jo)
                    first = tables(client, eid, 1)[2]
                    correct(other, 1, first[0], {first[1][0]: 1, first[1][1]: 0}, "slip misread")
                    other.screenshot(path=str(shots(tmp_path) / "run-judge.png"), full_page=True)
            said(page, "#state", "Finished: won by")
            rows = page.locator("#standings tbody tr").all_inner_texts()
            assert len(rows) == 6
            shown = event(client, eid)
            assert shown["state"] == "finished" and shown["winner"] in PLAYERS
            assert rows[0].split("\t")[1].startswith(shown["winner"])
            corrected = shown["rounds"][0]["pairings"][2]["reported"]["corrected"]
            assert corrected["reason"] == "slip misread"
            page.screenshot(path=str(shots(tmp_path) / "run-organizer.png"), full_page=True)
            # the one refusal asked for (a round paired too soon) and nothing else
            assert len(errors) == 1 and "422" in errors[0], errors
        finally:
            context.close()


def test_the_rounds_actions_on_a_phone(browser: Any, tmp_path: Path) -> None:
    with serve_beside_app(tmp_path / "served", ORGANIZER_TOKEN) as (port, app):
        client = app.test_client()
        created = open_event(client, name="Phone Cup", rounds=3)
        eid = created["event_id"]
        for player in PLAYERS:
            register(client, eid, player)
        context, page, _, errors = watched_page(browser, 390, 844)
        try:
            page.goto(f"http://127.0.0.1:{port}/events/{eid}#token={ORGANIZER_TOKEN}")
            page.click("#console-pair")
            said(page, "#console-paired", "Round 1 paired")
            page.click(".clock-action[data-action=start]")
            said(page, "#console-paired", "Clock: started")
            page.locator(".console-result").nth(2).wait_for()
            page.locator("#console").screenshot(path=str(shots(tmp_path) / "phone-round.png"))
            no_overflow(page)
            played = tables(client, eid, 1)
            for table, (a, b) in played:
                report_in_console(page, table, {a: 1, b: 0})
            said(page, "#console-results", "Every result of round 1 is in")
            said(page, "#clock", "round 1 is over")  # the clock follows the results
            assert page.inner_text("#clock").count("round 1") == 1  # said once
            page.goto("about:blank")  # the judge's link differs by its # only
            page.goto(f"http://127.0.0.1:{port}/events/{eid}#token={created['judge_token']}")
            table, (a, b) = played[0]
            correct(page, 1, table, {a: 0, b: 1}, "the players swapped the slip")
            page.locator("#console").screenshot(path=str(shots(tmp_path) / "phone-judge.png"))
            no_overflow(page)
            # the event's judge is a head judge: it gives a player a new token; a floor judge
            # corrects results but is not offered that form
            assert page.locator("#console-reissue").count() == 1
            floor = client.post(
                f"/api/events/{eid}/staff",
                json={"name": "Kim", "role": "judge"},
                headers=bearer(ORGANIZER_TOKEN),
            ).get_json()
            page.goto("about:blank")
            page.goto(f"http://127.0.0.1:{port}/events/{eid}#token={floor['token']}")
            page.locator("#console-correct").wait_for()
            assert page.locator("#console-reissue").count() == 0
            assert event(client, eid)["rounds"][0]["pairings"][0]["reported"]["games"] == {
                a: 0,
                b: 1,
            }
            assert errors == []
        finally:
            context.close()
