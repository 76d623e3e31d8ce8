"""The table page tells a table-dealt classic game's draws by name (docs/rules.md E.4), in
Debian's chromium.

A 4-seat Deluxe game the table deals itself (no ``"dealing": "server"``): a tablet in the
middle of the table (the table's token) records the four deals, each card typed into a name
field that suggests the set's sample card names (a ``<datalist>`` per deck); a name the deck
does not hold is refused inline with its code and the names typed stay. Then the roll for the
first player and the seats' ``ready`` (buttons, as in tests/e2e/test_table_classic.py), and the
first player's kick from a recorder's phone, by keyboard only: Tab to the name field, type,
Enter. Each card stored is one of the deck's of the name typed (the judge's log says so).
Screenshots of the deal's form on the tablet (1024x768) and of the kick's on the phone
(390x844) are saved under the test's tmp folder (and were looked at when this test was
written): no horizontal overflow, the fields in the first screenful.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from api.cli.demo import _family_spec
from domain.classic.cards import sample_catalog
from tests.e2e.tablepage import (
    TIMEOUT_MS,
    JudgeView,
    act,
    auth,
    no_horizontal_overflow,
    ready_at,
    show_hand,
)
from tests.live import munchlog_serve

pytestmark = pytest.mark.e2e

ORGANIZER = "e2e-table-named-organizer"
RULESET = "munchkin-deluxe"
SEATS = "ABCD"
#: Seat A's two Items, and the Curse kicked that takes one of them (the victim chooses, B.10).
ITEMS = ["Sample Pointy Hat", "Sample Running Shoes"]
CURSE = "Sample Curse: Butterfingers"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("table-named")
    with munchlog_serve(folder, ORGANIZER) as (port, _):
        yield f"http://127.0.0.1:{port}"


def deck_names(state: dict[str, Any], deck: str, n: int, *, kind: str | None = None) -> list[str]:
    """The names of ``n`` cards of ``deck`` (of ``kind``, if given), as the judge knows them."""
    cards = state["cards"]
    names = [
        cards[c]["def"]["name"]
        for c in state["decks"][deck]
        if kind is None or cards[c]["def"]["kind"] == kind
    ]
    return names[:n]


def stored_names(judge: JudgeView, ids: list[str]) -> list[str]:
    return [judge.state["cards"][c]["def"]["name"] for c in ids]


def legal(base: str, gid: str, token: str, seat: str) -> list[dict[str, Any]]:
    body = requests.get(f"{base}/api/games/{gid}/legal", headers=auth(token), timeout=30).json()
    commands: list[dict[str, Any]] = body["commands"][seat]
    return commands


def acting_for(page: Any, judge: JudgeView, seat: str) -> None:
    """Show the moves of ``seat`` at the judge's version (the switcher if needed)."""
    ready_at(page, judge.version)
    if page.locator("#controls").get_attribute("data-seat") != seat:
        page.select_option("#acting", seat)
        ready_at(page, judge.version, seat)
    show_hand(page)


def test_the_table_tells_its_deals_and_a_kicked_door_by_name(
    base: str, browser: Any, tmp_path: Path
) -> None:
    spec = _family_spec(RULESET, seed=4, seats=len(SEATS), catalog=None)  # dealt by the table
    game = requests.post(f"{base}/api/games", json=spec, headers=auth(ORGANIZER), timeout=30).json()
    gid, table = game["game_id"], game["table_token"]
    judge = JudgeView(base, gid, game["judge_token"])
    judge.catch_up()
    errors: list[str] = []
    catalog = sample_catalog(RULESET).values()
    tablet = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = tablet.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{base}/games/{gid}/play#token={table}")
        page.wait_for_selector("#acting-wrap:not([hidden])")
        for seat in SEATS:
            acting_for(page, judge, seat)
            form = page.locator('#controls form[data-draws="deal"]')
            assert form.count() == 1
            doors = form.locator('input[data-field="doors"]')
            treasures = form.locator('input[data-field="treasures"]')
            assert (doors.count(), treasures.count()) == (4, 4)
            assert doors.first.get_attribute("list") == "names-door"
            door_names = deck_names(judge.state, "door", 4)
            treasure_names = deck_names(judge.state, "treasure", 4)
            if seat == "A":  # two Items to put in play, for the Curse kicked later
                treasure_names[:2] = ITEMS
            for i in range(4):
                doors.nth(i).fill(door_names[i])
                treasures.nth(i).fill(treasure_names[i])
            if seat == "A":  # the names suggested are the catalog's, one per card
                suggested = page.locator("#names-door option").evaluate_all(
                    "os => os.map(o => o.value)"
                )
                assert sorted(suggested) == sorted(
                    c["name"] for c in catalog if c["deck"] == "door"
                )
                # a name the deck does not hold: refused inline, the names typed kept
                doors.nth(3).fill("Sample Nothing")
                form.locator("button[data-drawn]").click()
                refusal = page.locator('#controls form[data-draws="deal"] [data-refusal]')
                refusal.wait_for(timeout=TIMEOUT_MS)
                assert refusal.get_attribute("data-refusal") == "command/card_not_there"
                assert (
                    "no card named 'Sample Nothing' left in the door deck" in refusal.inner_text()
                )
                form = page.locator('#controls form[data-draws="deal"]')
                doors = form.locator('input[data-field="doors"]')
                assert doors.nth(0).input_value() == door_names[0]
                doors.nth(3).fill(door_names[3])
                no_horizontal_overflow(page)
                page.evaluate("window.scrollTo(0, 0)")
                shot = tmp_path / "named-deal-tablet.png"
                page.screenshot(path=str(shot), full_page=True)
                assert shot.stat().st_size > 10_000
                box = form.bounding_box()
                assert box is not None and box["y"] + box["height"] <= 768
            version = judge.version
            form.locator("button[data-drawn]").click()
            judge.wait_past(version)
            (dealt,) = [e for e in judge.events_since(version) if e["type"] == "CardsDealt"]
            assert stored_names(judge, dealt["data"]["doors"]) == door_names
            assert stored_names(judge, dealt["data"]["treasures"]) == treasure_names
            assert judge.state["seats"][seat]["dealt"]

        # A puts its two Items in play; the roll for first (A starts) and the seats' ready:
        # the buttons and pickers /legal offers
        hand = judge.state["seats"]["A"]["zones"]["hand"]
        for item in ITEMS:
            acting_for(page, judge, "A")
            cid = next(c for c in hand if judge.state["cards"][c]["def"]["name"] == item)
            version = judge.version
            act(page, {"type": "play", "seat": "A", "card": cid})
            judge.wait_past(version)
        while judge.state["status"] == "setup":
            seat = next(
                s
                for s in SEATS
                if any(c["type"] in ("roll_first", "ready") for c in legal(base, gid, table, s))
            )
            command = next(
                c for c in legal(base, gid, table, seat) if c["type"] in ("roll_first", "ready")
            )
            acting_for(page, judge, seat)
            version = judge.version
            act(page, command)
            judge.wait_past(version)
        assert judge.state["status"] == "playing"
    finally:
        tablet.close()

    # the kick, from a recorder's phone, by keyboard: a Curse that takes one of A's two Items,
    # which A chooses once the refusal (request/missing_choice) lists them
    assert judge.state["active"] == "A"
    in_play = [*judge.state["seats"]["A"]["zones"]["equipped"]]
    in_play += judge.state["seats"]["A"]["zones"]["carried"]
    assert sorted(judge.state["cards"][c]["def"]["name"] for c in in_play) == sorted(ITEMS)
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = phone.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{base}/games/{gid}/play#token={table}")
        acting_for(page, judge, "A")
        form = '#controls form[data-draws="kick_door"]'
        field = page.locator(f'{form} input[data-field="card"]')
        assert field.count() == 1
        assert field.get_attribute("list") == "names-door"
        for _ in range(60):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.matches('input[data-field=\"card\"]')"):
                break
        else:
            raise AssertionError("Tab never reaches the kicked card's name field")
        page.keyboard.type(CURSE.upper())  # case does not count
        no_horizontal_overflow(page)
        page.evaluate("window.scrollTo(0, 0)")
        shot = tmp_path / "named-kick-phone.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        box = page.locator(form).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844
        version = judge.version
        page.keyboard.press("Enter")
        refusal = page.locator(f"{form} [data-refusal]")
        refusal.wait_for(timeout=TIMEOUT_MS)
        assert refusal.get_attribute("data-refusal") == "request/missing_choice"
        assert all(ITEMS[i] in refusal.inner_text() for i in (0, 1))  # by name, not by id
        choice = page.locator(f"{form} select[data-choice]")
        options = choice.locator("option")
        shown = options.evaluate_all("os => os.map(o => [o.value, o.textContent])")
        assert sorted(shown) == sorted([c, judge.state["cards"][c]["def"]["name"]] for c in in_play)
        assert page.locator(f'{form} input[data-field="card"]').input_value() == CURSE.upper()
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(tmp_path / "named-kick-choice-phone.png"), full_page=True)
        chosen = shown[1][0]  # not the first: the choice is the one sent
        choice.select_option(chosen)
        page.locator(f'{form} input[data-field="card"]').focus()
        page.keyboard.press("Enter")
        judge.wait_past(version)
        events = judge.events_since(version)
        (kicked,) = [e for e in events if e["type"] == "DoorKicked"]
        assert stored_names(judge, [kicked["data"]["card"]]) == [CURSE]
        (cursed,) = [e for e in events if e["type"] == "CurseApplied"]
        assert cursed["data"]["lost"] == [chosen]
        page.wait_for_selector(f'#version[data-version="{judge.version}"]', state="attached")
    finally:
        phone.close()
    # the two refusals the test asked for are the browser's failed requests, and nothing else
    refused = "Failed to load resource: the server responded with a status of "
    assert sorted(errors) == [f"{refused}400 (Bad Request)", f"{refused}422 (Unprocessable Entity)"]
