"""The floor's pages (issue #39): the room's screen and the judge's page, in Debian's chromium
against a real ``munchlog serve`` (its event stream included), for a 40-player CCG event with
round 1 paired and a staff judge, Jo.

* The screen at 1920x1080 shows the 40 players by name with their tables, more than fit, and
  scrolls by itself until every one of them has been in view; a QR code is drawn, no request
  leaves the server.
* A call from another table is claimed, ruled on and resolved from the judge's page: a dispute
  raised at the call's version, the ruling with a penalty, the call resolved with that
  dispute, as the call list and the event's export then say; a scorekeeper's phone is told in
  words that it does not rule.
* A call made on one phone's table page (its "Call a judge" button) appears on the judge's
  page, on another phone, within 1 s and without a reload; the judge claims it with a note,
  and its replay link opens the viewer at the call's version as the judge sees the game. The
  seat's page never receives the judge's token or note.

Screenshots go to ``$MUNCHLOG_SCREENSHOTS`` or the test's tmp folder.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.api.helpers import ORGANIZER_TOKEN
from tests.api.test_event_floor import add_staff
from tests.api.test_events import concede, my_game, open_event, pair, register
from tests.e2e.tablepage import auth, watched_page
from tests.live import serve_beside_app

pytestmark = pytest.mark.e2e

PLAYERS = [f"{first} {n:02d}" for n, first in enumerate(["Zed", "amy", "Bo", "cy"] * 10, 1)]
PHONE = (390, 844)
LOCAL = "http://127.0.0.1:"  # the server and its stream process (the next port up)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder: Path = tmp_path_factory.mktemp("floor-pages")
    with serve_beside_app(folder, ORGANIZER_TOKEN) as (port, app):
        client = app.test_client()
        event = open_event(client, name="Saturday Munchkin Open")
        eid = event["event_id"]
        tokens = {name: register(client, eid, name) for name in PLAYERS}
        paired = pair(client, eid)
        jo = add_staff(client, eid, "Jo", "judge")
        sam = add_staff(client, eid, "Sam", "scorekeeper")
        kim = add_staff(client, eid, "Kim", "judge")
        first, second = paired["pairings"][:2]
        caller = first["seats"]["A"]
        yield {
            "client": client,
            "base": f"http://127.0.0.1:{port}",
            "eid": eid,
            "jo": jo["token"],
            "table": first["table"],
            "seat": my_game(client, eid, 1, tokens[caller]),
            "player": tokens[caller],
            "sam": sam["token"],
            "kim": kim["token"],
            "head": event["judge_token"],
            "second": (second, my_game(client, eid, 1, tokens[second["seats"]["B"]])),
        }


def shoot(page: Any, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    shot = folder / f"floor-{name}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000


IN_VIEW = """() => {
  const box = document.getElementById('board').getBoundingClientRect();
  return [...document.querySelectorAll('#rows li')].filter((li) => {
    const r = li.getBoundingClientRect();
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  }).map((li) => li.dataset.player);
}"""


def test_the_screen_scrolls_through_every_pairing(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    context, page, requested, errors = watched_page(browser, 1920, 1080)
    try:
        page.goto(f"{served['base']}/events/{served['eid']}/tv")
        page.locator("#rows li").nth(39).wait_for()  # a locator: no eval under the CSP
        assert page.locator("#rows li").count() == 40
        names = page.eval_on_selector_all("#rows li", "els => els.map((e) => e.dataset.player)")
        assert names == sorted(PLAYERS, key=lambda n: (n.casefold(), n))
        assert page.inner_text("#rows li:first-child .table").startswith("table ")
        assert page.locator(".tv-qr svg").count() == 1
        page.wait_for_selector("#clock:not([hidden])")
        first = set(page.evaluate(IN_VIEW))
        assert 8 <= len(first) < 40, first  # more than fit: it has to scroll
        shoot(page, tmp_path, "tv-top")
        seen = set(first)
        deadline = time.monotonic() + 60
        while seen != set(PLAYERS) and time.monotonic() < deadline:
            page.wait_for_timeout(250)
            seen |= set(page.evaluate(IN_VIEW))
        assert seen == set(PLAYERS), sorted(set(PLAYERS) - seen)
        shoot(page, tmp_path, "tv-bottom")
        assert page.get_attribute("#live", "data-live") == "live"
        assert all(u.startswith(LOCAL) for u in requested), requested  # the stream: port + 1
        assert not errors, errors
    finally:
        context.close()


def test_a_call_from_a_table_reaches_the_judges_phone_at_once(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    seat = served["seat"]
    judge_ctx, judge, judge_requested, judge_errors = watched_page(browser, *PHONE)
    seat_ctx, phone, seat_requested, seat_errors = watched_page(browser, *PHONE)
    seat_bodies: list[str] = []

    def keep(response: Any) -> None:
        if "/stream" not in response.url:
            with contextlib.suppress(Exception):  # a redirect or an aborted request: no body
                seat_bodies.append(response.text())

    seat_ctx.on("response", keep)
    try:
        judge.goto(f"{served['base']}/events/{served['eid']}/judge#token={served['jo']}")
        judge.wait_for_selector("#app:not([hidden])")
        judge.wait_for_selector("#live[data-live='live']")
        assert "token" not in judge.url
        assert judge.locator("#tables li").count() == 20
        phone.goto(f"{served['base']}/games/{seat['game_id']}/play#token={seat['token']}")
        phone.wait_for_selector("#judge-call:not([hidden])")
        phone.fill("#judge-call-note", "is this card legal here?")
        clicked = time.monotonic()
        phone.click("#judge-call-form button")
        card = judge.wait_for_selector(".call", timeout=5_000)
        took = time.monotonic() - clicked
        assert took < 1.0, f"the call took {took:.2f} s to reach the judge's page"
        phone.wait_for_selector("#judge-call-status[data-call-id]")
        call_id = phone.get_attribute("#judge-call-status", "data-call-id")
        assert card.get_attribute("data-call-id") == call_id
        assert f"Table {served['table']}" in card.inner_text()
        assert "is this card legal here?" in card.inner_text()
        judge.wait_for_selector(f"#tables li[data-table='{served['table']}'][data-status='call']")
        shoot(judge, tmp_path, "judge-call")
        # a tap to claim, with a note only the staff see
        judge.fill(".call input[type='text']", "judge-only: on my way")
        # the table's time extended meanwhile (by another judge's phone, say): the call's card
        # shows it at once, and what the judge typed stays
        extended = requests.post(
            f"{served['base']}/api/events/{served['eid']}/clock",
            json={"action": "extend", "table": served["table"], "minutes": 2, "reason": "call"},
            headers={"Authorization": f"Bearer {served['jo']}"},
            timeout=30,
        )
        assert extended.status_code == 201, extended.text
        judge.wait_for_selector(".call .clock-note:has-text('+2 min')")
        assert judge.input_value(".call input[type='text']") == "judge-only: on my way"
        judge.click(".call button[data-action='claim']")
        judge.wait_for_selector(".call[data-state='claimed']:has-text('Jo has it')")
        # the game goes on after the call; the replay opens at the call's version, as the judge
        # sees the game
        conceded = requests.post(
            f"{served['base']}/api/games/{seat['game_id']}/actions",
            json={"actions": [{"type": "concede", "seat": seat["seat"]}]},
            headers={"Authorization": f"Bearer {seat['token']}"},
            timeout=30,
        )
        assert conceded.status_code == 201, conceded.text
        link = judge.locator(".call a.replay")
        version = link.get_attribute("data-version")
        with judge_ctx.expect_page() as opened:
            link.click()
        replay = opened.value
        replay.wait_for_selector("#viewer-label[data-viewer='judge']")
        replay.wait_for_selector(f"#version:text-is('{version}')")
        assert int(replay.inner_text("#last-version")) > int(version)
        assert "token" not in replay.url
        shoot(replay, tmp_path, "judge-replay")
        # the seat's page never received the judge's token or note
        phone.wait_for_timeout(500)
        for body in [*seat_bodies, phone.content()]:
            assert served["jo"] not in body and "judge-only" not in body
        assert all(served["jo"] not in u for u in seat_requested)
        assert all(u.startswith(LOCAL) for u in judge_requested + seat_requested)
        assert not judge_errors, judge_errors
        assert all("404" in e for e in seat_errors), seat_errors
    finally:
        judge_ctx.close()
        seat_ctx.close()


def test_after_the_round_the_screen_shows_the_standings(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    client = served["client"]
    event = open_event(client, name="Sunday Munchkin Open")
    eid = event["event_id"]
    tokens = {name: register(client, eid, name) for name in ("ann", "bob", "cat", "dan")}
    pair(client, eid)
    context, page, _requested, errors = watched_page(browser, 1920, 1080)
    try:
        page.goto(f"{served['base']}/events/{eid}/tv")
        page.wait_for_selector("#rows.pairings li[data-player='ann']")
        losers = set()
        for token in tokens.values():
            game = my_game(client, eid, 1, token)
            if game["game_id"] not in losers:  # one concession a table
                losers.add(game["game_id"])
                concede(client, game)
        # a game's result is not an event of the event: the screen reads it again within 10 s
        page.wait_for_selector("#rows.standings li", timeout=20_000)
        assert "standings" in page.inner_text("#board-title")
        assert page.locator("#rows.standings li").count() == 4
        assert page.get_attribute("#clock", "data-state") == "over"
        shoot(page, tmp_path, "tv-standings")
        assert not errors, errors
    finally:
        context.close()


def test_the_judges_page_takes_only_a_staff_token(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    context, page, _requested, errors = watched_page(browser, *PHONE)
    try:
        base = f"{served['base']}/events/{served['eid']}/judge"
        for token, said in (
            (served["player"], "not one of this event's staff"),
            (served["seat"]["token"], "not valid for this event"),
        ):
            page.goto("about:blank")  # a new load, not a change of fragment
            page.goto(f"{base}#token={token}")
            page.wait_for_selector(f'#signin-error:has-text("{said}")')
            assert page.locator("#app").is_hidden() and page.locator(".call").count() == 0
            assert page.evaluate("() => sessionStorage.length") == 0
        shoot(page, tmp_path, "judge-refused")
        assert all("401" in e for e in errors), errors  # the refused read, in the console
    finally:
        context.close()


def disputes_of(api: str, game_id: str) -> list[dict[str, Any]]:
    """The game's disputes with their rulings (public: no token)."""
    found = requests.get(f"{api}/games/{game_id}/disputes", timeout=30)
    assert found.status_code == 200, found.text
    rows: list[dict[str, Any]] = found.json()["disputes"]
    return rows


def test_a_call_is_ruled_on_and_resolved_from_the_judges_phone(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    pairing, seat = served["second"]
    table, api = pairing["table"], f"{served['base']}/api"
    jo_ctx, judge, _requested, judge_errors = watched_page(browser, *PHONE)
    sam_ctx, sam, _sam_requested, sam_errors = watched_page(browser, *PHONE)
    seat_ctx, phone, _seat_requested, _seat_errors = watched_page(browser, *PHONE)
    try:
        judge.goto(f"{served['base']}/events/{served['eid']}/judge#token={served['jo']}")
        judge.wait_for_selector("#live[data-live='live']")
        phone.goto(f"{served['base']}/games/{seat['game_id']}/play#token={seat['token']}")
        phone.fill("#judge-call-note", "they played a Curse on my turn")
        phone.click("#judge-call-form button")
        phone.wait_for_selector("#judge-call-status[data-call-id]")
        call_id = phone.get_attribute("#judge-call-status", "data-call-id")
        card = f".call[data-call-id='{call_id}']"
        judge.click(f"{card} button[data-action='claim']")
        judge.wait_for_selector(f"{card}[data-state='claimed']")
        # a scorekeeper's phone is told it does not rule (the API would refuse it: 403)
        sam.goto(f"{served['base']}/events/{served['eid']}/judge#token={served['sam']}")
        sam.click(f"{card} button[data-action='rule']")
        sam.wait_for_selector(f"{card} [data-ruling='refused']:has-text('does not rule')")
        assert sam.locator(f"{card} form.ruling").count() == 0
        shoot(sam, tmp_path, "ruling-scorekeeper")
        # the judge: no dispute in the game yet, so the ruling raises one at the call's version
        judge.click(f"{card} button[data-action='rule']")
        form = f"{card} form.ruling"
        judge.wait_for_selector(f"{form} select[name='dispute']")
        assert judge.input_value(f"{form} select[name='dispute']") == ""
        judge.fill(f"{form} input[name='statement']", "a Curse played out of turn")
        judge.fill(f"{form} textarea[name='ruling']", "Curses go on your own turn: it stays")
        judge.select_option(f"{form} select[name='penalty']", "warning")
        judge.select_option(f"{form} select[name='seat']", "A")
        judge.select_option(
            f"{form} select[name='infraction']", "game_play_error.game_rule_violation"
        )
        judge.fill(f"{card} .call-actions input[type='text']", "warning given, play on")
        judge.eval_on_selector(form, "e => e.scrollIntoView()")
        shoot(judge, tmp_path, "ruling-form")
        judge.eval_on_selector(f"{form} button[type='submit']", "e => e.scrollIntoView(false)")
        shoot(judge, tmp_path, "ruling-form-end")
        judge.click(f"{form} button[type='submit']")
        judge.wait_for_selector(card, state="detached")
        assert (
            judge.inner_text("#calls-said")
            == f"The call at table {table} is resolved with the ruling."
        )
        shoot(judge, tmp_path, "ruling-resolved")
        listed = requests.get(
            f"{api}/events/{served['eid']}/calls", headers=auth(served["jo"]), timeout=30
        )
        (call,) = [c for c in listed.json() if c["call_id"] == call_id]
        (dispute,) = disputes_of(api, seat["game_id"])
        assert call["state"] == "resolved" and call["claimed_by"]["name"] == "Jo"
        assert call["table"] == table
        assert call["resolution"]["dispute_id"] == dispute["dispute_id"]
        assert call["resolution"]["by"]["name"] == "Jo"
        assert call["resolution"]["note"] == "warning given, play on"
        assert (dispute["from_version"], dispute["to_version"]) == (call["version"],) * 2
        assert (
            dispute["statement"] == "a Curse played out of turn" and dispute["raised_by"] == "judge"
        )
        (ruled,) = dispute["rulings"]
        assert ruled["ruling"] == "Curses go on your own turn: it stays"
        assert ruled["penalty"]["kind"] == "warning" and ruled["penalty"]["seat"] == "A"
        assert ruled["penalty"]["infraction"] == "game_play_error.game_rule_violation"
        exported = requests.get(
            f"{api}/events/{served['eid']}/export?format=json&games=false",
            headers=auth(served["jo"]),
            timeout=30,
        ).json()
        (row,) = [c for c in exported["calls"] if c["call_id"] == call_id]
        assert row["resolution"]["dispute_id"] == dispute["dispute_id"]
        ruled_by = [(r["dispute"], r["by"]["name"]) for r in exported["staff_rulings"]]
        assert (dispute["dispute_id"], "Jo") in ruled_by
        assert not judge_errors and not sam_errors, judge_errors + sam_errors
    finally:
        for context in (jo_ctx, sam_ctx, seat_ctx):
            context.close()


def test_a_ruling_refused_is_said_in_words_and_the_call_resolved_with_the_one_made(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    """A call Kim holds: Jo's phone says Jo may not rule on it; the head judge's takes it over,
    and while the head judge types, Jo rules on the dispute the seat raised. The form says so
    in words, shows that ruling and resolves the call with it."""
    pairing, seat = served["second"]
    api, jo = f"{served['base']}/api", auth(served["jo"])
    called = requests.post(
        f"{api}/events/{served['eid']}/calls",
        json={"table": pairing["table"], "note": "too many cards drawn"},
        headers=auth(seat["token"]),
        timeout=30,
    )
    assert called.status_code == 201, called.text
    call_id = called.json()["call_id"]
    raised = requests.post(
        f"{api}/games/{seat['game_id']}/disputes",
        json={"statement": "they drew three"},
        headers=auth(seat["token"]),
        timeout=30,
    )
    dispute_id = raised.json()["dispute"]["dispute_id"]
    claimed = requests.post(
        f"{api}/events/{served['eid']}/calls/{call_id}",
        json={"action": "claim"},
        headers=auth(served["kim"]),
        timeout=30,
    )
    assert claimed.status_code == 200, claimed.text
    card = f".call[data-call-id='{call_id}']"
    jo_ctx, jo_page, _jo_requested, jo_errors = watched_page(browser, *PHONE)
    context, judge, _requested, errors = watched_page(browser, *PHONE)
    try:
        jo_page.goto(f"{served['base']}/events/{served['eid']}/judge#token={served['jo']}")
        jo_page.click(f"{card} button[data-action='rule']")
        jo_page.wait_for_selector(f"{card} [data-ruling='refused']:has-text('Kim has this call')")
        assert jo_page.locator(f"{card} form.ruling").count() == 0 and not jo_errors
        judge.goto(f"{served['base']}/events/{served['eid']}/judge#token={served['head']}")
        judge.click(f"{card} button[data-action='rule']")
        form = f"{card} form.ruling"
        judge.wait_for_selector(f"{form} textarea[name='ruling']")
        assert judge.input_value(f"{form} select[name='dispute']") == dispute_id  # the open one
        judge.fill(f"{form} textarea[name='ruling']", "shuffle the extra card back")
        other = requests.post(  # Jo's, first
            f"{api}/games/{seat['game_id']}/disputes/{dispute_id}/ruling",
            json={"ruling": "the extra card goes back on top"},
            headers=jo,
            timeout=30,
        )
        assert other.status_code == 201, other.text
        judge.click(f"{form} button[type='submit']")
        judge.wait_for_selector(f"{form} .ruling-error:has-text('ruled on this dispute meanwhile')")
        judge.wait_for_selector(f"{form} .ruled:has-text('the extra card goes back on top')")
        said = judge.inner_text(f"{form} .ruling-error")
        assert dispute_id not in said and "/" not in said, said
        judge.eval_on_selector(f"{form} button[type='submit']", "e => e.scrollIntoView(false)")
        shoot(judge, tmp_path, "ruling-refused")
        assert (
            judge.inner_text(f"{form} button[type='submit']") == "Resolve the call with this ruling"
        )
        judge.click(f"{form} button[type='submit']")
        judge.wait_for_selector(card, state="detached")
        listed = requests.get(f"{api}/events/{served['eid']}/calls", headers=jo, timeout=30)
        (call,) = [c for c in listed.json() if c["call_id"] == call_id]
        assert call["resolution"]["dispute_id"] == dispute_id
        assert call["resolution"]["by"]["name"] == "head judge"
        (ruled,) = [d for d in disputes_of(api, seat["game_id"]) if d["dispute_id"] == dispute_id]
        assert [r["ruling"] for r in ruled["rulings"]] == ["the extra card goes back on top"]
        assert all("422" in e for e in errors), errors  # the refused ruling, in the console
    finally:
        jo_ctx.close()
        context.close()
