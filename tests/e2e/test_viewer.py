"""The replay viewer in a real browser: Playwright (sync API) driving Debian's
chromium (the ``browser`` fixture of ``tests/e2e/conftest.py``) against a live munchlog on
127.0.0.1 with a temporary SQLite store.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from api.cli.demo import DemoResult, FlaskTransport
from domain import event_from_dict
from projections.exports import export_json_text
from tests.api.helpers import demo_game
from tests.live import munchlog_serve
from tests.marked import HOME_BREW, holds_everything, marked_game
from tests.unit.seeded_games import records_for

pytestmark = pytest.mark.e2e

ORGANIZER = "e2e-organizer-token"
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live ``munchlog serve`` (the production server, another process) on a free 127.0.0.1
    port, with a recorded game, a dispute on turn 1 and the judge's ruling on it (recorded
    through an app in this process on the same store, as another worker would)."""
    folder: Path = tmp_path_factory.mktemp("viewer")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER,
            "MUNCHLOG_DATABASE_URL": str(folder / "munchlog.sqlite"),
        }
    )
    served = ExitStack()
    port, _ = served.enter_context(
        munchlog_serve(
            folder, ORGANIZER, extra_env={"MUNCHLOG_DATABASE_URL": str(folder / "munchlog.sqlite")}
        )
    )
    try:
        transport = FlaskTransport(app)
        game = demo_game(app, seed=3, max_actions=60)
        status, body = transport(
            "GET", f"/api/games/{game.game_id}/timeline", token=game.tokens["judge"]
        )
        assert status == 200, body
        turn = body["turns"]["1"]
        status, opened = transport(
            "POST",
            f"/api/games/{game.game_id}/disputes",
            token=game.tokens["A"],
            json={"turn": 1, "statement": "B's gold looks wrong"},
        )
        assert status == 201, opened
        status, ruled = transport(
            "POST",
            f"/api/games/{game.game_id}/disputes/{opened['dispute']['dispute_id']}/ruling",
            token=game.tokens["judge"],
            json={
                "ruling": "one gold back to A",
                "penalty": {"kind": "warning", "seat": "B"},
                "corrections": [
                    {"type": "take_gold", "player": "A", "amount": 1, "corrects": turn["last"]}
                ],
            },
        )
        assert status == 201, ruled
        yield {
            "base": f"http://127.0.0.1:{port}",
            "game": game,
            "transport": transport,
            "contested": turn["last"],
            "dispute": opened["dispute"]["dispute_id"],
            "ruling_version": ruled["version"],
        }
    finally:
        served.close()
        app.extensions["munchlog"].close()


def api_state(live: dict[str, Any], version: int, who: str) -> dict[str, Any]:
    game: DemoResult = live["game"]
    status, body = live["transport"](
        "GET", f"/api/games/{game.game_id}/events/{version}", token=game.tokens[who]
    )
    assert status == 200, body
    state: dict[str, Any] = body["state"]
    return state


def names_in(page: Any, zone: str) -> list[str]:
    return list(
        page.locator(f'[data-zone="{zone}"] .c[data-name]').evaluate_all(
            "els => els.map(e => e.dataset.name)"
        )
    )


def open_page(
    browser: Any, live: dict[str, Any], who: str, fragment: str
) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    game: DemoResult = live["game"]
    page.goto(f"{live['base']}/games/{game.game_id}#token={game.tokens[who]}&{fragment}")
    return context, page, requests


def wait_for_version(page: Any, version: int) -> None:
    page.wait_for_selector(f'#version[data-version="{version}"]')


def test_a_judge_scrubs_to_the_contested_turn_and_sees_the_table_as_the_api_does(
    browser: Any, live: dict[str, Any]
) -> None:
    context, page, requests = open_page(browser, live, "judge", "")
    try:
        game: DemoResult = live["game"]
        page.wait_for_selector("#viewer-label[data-viewer='judge']")
        last = int(page.locator("#last-version").inner_text())
        wait_for_version(page, last)
        assert game.tokens["judge"] not in page.url  # the token left the address bar

        contested = live["contested"]
        page.locator("#scrubber").fill(str(contested))
        wait_for_version(page, contested)
        state = api_state(live, contested, "judge")
        for seat in "AB":
            for zone in ("hand", "hoard", "stash", "discard"):
                assert names_in(page, f"{seat}-{zone}") == [
                    c["name"] for c in state["seats"][seat][zone]
                ], (seat, zone)
            level = page.locator(f'[data-seat="{seat}"] [data-stat="level"]').inner_text()
            assert level == f"level {state['seats'][seat]['level']}"
        assert "v=" + str(contested) in page.url

        page.locator("#scrubber").focus()
        page.keyboard.press("ArrowLeft")
        wait_for_version(page, contested - 1)
        page.keyboard.press("ArrowRight")
        wait_for_version(page, contested)
        page.locator("#next").click()
        wait_for_version(page, contested + 1)

        page.locator(f'.pin.ruling[data-ruling="{live["dispute"]}"]').click()
        wait_for_version(page, live["ruling_version"])
        head = page.locator("#event .ev-type")
        assert head.get_attribute("data-type") == "RulingRecorded"
        assert head.inner_text() == "Ruling recorded"
        assert page.locator("#chart svg[data-chart='gold'] path[data-seat='A']").count() == 1
        assert all(url.startswith(live["base"]) for url in requests), requests
    finally:
        context.close()


def test_seat_b_never_sees_seat_a_hand(browser: Any, live: dict[str, Any]) -> None:
    contested = live["contested"]
    judge_view = api_state(live, contested, "judge")
    b_view = json.dumps(api_state(live, contested, "B"))
    a_hand = judge_view["seats"]["A"]["hand"]
    assert a_hand
    context, page, _ = open_page(browser, live, "B", f"v={contested}")
    try:
        page.wait_for_selector("#viewer-label[data-viewer='B']")
        wait_for_version(page, contested)
        html = page.content()
        for card in a_hand:
            assert card["id"] not in html
            if card["name"] not in b_view:  # a name B may legitimately see elsewhere
                assert card["name"] not in html, card["name"]
        backs = page.locator('[data-zone="A-hand"] .c.back').count()
        assert backs == len(a_hand) and names_in(page, "A-hand") == []
        assert page.locator("#as-wrap").is_hidden()  # a seat may not look as anyone else
    finally:
        context.close()


def test_a_link_opens_one_event_and_the_page_fits_a_phone(
    browser: Any, live: dict[str, Any]
) -> None:
    game: DemoResult = live["game"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{live['base']}/games/{game.game_id}#v=7")
        page.wait_for_selector("#signin:not([hidden])")
        page.locator("#token-input").fill(game.tokens["table"])
        page.locator("#signin-form button").click()
        wait_for_version(page, 7)
        width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert width <= 1, width
    finally:
        context.close()


# ---------------------------------------------------------------------------- issue #13's marks


@pytest.fixture(scope="module")
def marked_live(live: dict[str, Any]) -> dict[str, Any]:
    """A game of ``tests/marked.py`` (triggers, announced and prevented damage, unchecked and
    custom cards) imported into the live server's store: its records, versions of interest
    and tokens."""
    game = marked_game(1)
    assert holds_everything(game.events)
    created = game.events[0].to_dict()
    created["game_id"] = "00000000-0000-4000-8000-000000001313"
    records = records_for([event_from_dict(created), *game.events[1:]])
    status, body = live["transport"](
        "POST",
        "/api/games/import",
        token=ORGANIZER,
        json=json.loads(export_json_text(records, "judge")),
    )
    assert status == 201, body
    events = [r["event"] for r in records]
    unchecked = next(i + 1 for i, e in enumerate(events) if e.get("unchecked"))
    checked = next(i + 1 for i, e in enumerate(events) if i > 0 and not e.get("unchecked"))
    prevented = next(i + 1 for i, e in enumerate(events) if e["type"] == "DamagePrevented")
    brew = {c["id"] for s in created["seats"] for c in s["deck"] if c.get("custom")}
    custom = next(
        i + 1 for i, e in enumerate(events) if e["type"] == "LocationPlayed" and e["card"] in brew
    )
    return {
        "game_id": body["game_id"],
        "tokens": {"judge": body["judge_token"], **{s: body["seats"][s]["token"] for s in "AB"}},
        "unchecked": unchecked,
        "checked": checked,
        "prevented": prevented,
        "custom": custom,
        # every card the engine marked custom: the Tavern, and A's Hero whose abilities the
        # marked game takes away (not exactly the catalog's card: docs/cards.md)
        "customs": sorted(
            c["id"] for s in created["seats"] for c in [s["hero"], *s["deck"]] if c.get("custom")
        ),
    }


def test_the_viewer_badges_unchecked_events_and_custom_cards(
    browser: Any, live: dict[str, Any], marked_live: dict[str, Any]
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        gid, token = marked_live["game_id"], marked_live["tokens"]["judge"]
        page.goto(f"{live['base']}/games/{gid}#token={token}&v={marked_live['unchecked']}")
        wait_for_version(page, marked_live["unchecked"])
        badge = page.locator('#event [data-badge="unchecked"]')
        assert badge.count() == 1 and badge.is_visible()
        assert "[unchecked]" in page.locator("#event .narration").inner_text()

        page.locator("#scrubber").fill(str(marked_live["checked"]))
        wait_for_version(page, marked_live["checked"])
        assert page.locator('#event [data-badge="unchecked"]').count() == 0
        assert "[unchecked]" not in page.locator("#event").inner_text()

        page.locator("#scrubber").fill(str(marked_live["prevented"]))
        wait_for_version(page, marked_live["prevented"])
        assert "prevents 1 damage" in page.locator("#event .narration").inner_text()

        page.locator("#scrubber").fill(str(marked_live["custom"]))
        wait_for_version(page, marked_live["custom"])
        played = page.locator(f'.c[data-name="{HOME_BREW}"] [data-badge="custom"]')
        assert played.count() >= 1 and played.first.is_visible()
        shown = page.locator(".c[data-card-id]").evaluate_all(
            "els => els.map(e => [e.dataset.cardId, !!e.querySelector('[data-badge=custom]')])"
        )
        others = [badged for cid, badged in shown if cid not in marked_live["customs"]]
        assert others and not any(others)  # the catalog's own cards carry no badge
        assert all(badged for cid, badged in shown if cid in marked_live["customs"])
    finally:
        context.close()


# ---------------------------------------------------------------------------- a second ruleset


@pytest.fixture(scope="module")
def trio_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live ``munchlog serve`` that loads ``test-trio`` through ``MUNCHLOG_RULESETS``, with a
    three-seat game played a few turns."""
    folder: Path = tmp_path_factory.mktemp("trio")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER,
            "MUNCHLOG_DATABASE_URL": str(folder / "munchlog.sqlite"),
            "MUNCHLOG_RULESETS": "tests.rulesets.trio",
        }
    )
    from tests.rulesets.trio import trio_spec

    served = ExitStack()
    port, _ = served.enter_context(
        munchlog_serve(
            folder,
            ORGANIZER,
            extra_env={
                "MUNCHLOG_DATABASE_URL": str(folder / "munchlog.sqlite"),
                "MUNCHLOG_RULESETS": "tests.rulesets.trio",
            },
        )
    )
    try:
        transport = FlaskTransport(app)
        status, game = transport("POST", "/api/games", token=ORGANIZER, json=trio_spec())
        assert status == 201, game
        path = f"/api/games/{game['game_id']}"
        for seat in ("A", "B", "C", "A"):
            token = game["seats"][seat]["token"]
            draw = {"type": "draw", "seat": seat}
            status, body = transport(
                "POST", f"{path}/actions", token=token, json={"actions": [draw, draw]}
            )
            assert status == 201, body
            status, state = transport("GET", f"{path}/state", token=token)
            card = state["seats"][seat]["hand"][0]["id"]
            play = {"type": "play", "seat": seat, "card": card}
            end = {"type": "end_turn", "seat": seat}
            status, body = transport(
                "POST", f"{path}/actions", token=token, json={"actions": [play, end]}
            )
            assert status == 201, body
        yield {
            "base": f"http://127.0.0.1:{port}",
            "game": game,
            "transport": transport,
        }
    finally:
        served.close()
        app.extensions["munchlog"].close()


@contextmanager
def trio_viewer(browser: Any, trio_live: dict[str, Any], who: str) -> Iterator[tuple[Any, int]]:
    """The trio game's viewer opened as ``who`` and caught up with the last version: yields the
    page and that version; the browser context is closed after."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        game = trio_live["game"]
        token = game["judge_token"] if who == "judge" else game["seats"][who]["token"]
        page.goto(f"{trio_live['base']}/games/{game['game_id']}#token={token}")
        page.wait_for_selector(f"#viewer-label[data-viewer='{who}']")
        last = int(page.locator("#last-version").inner_text())
        wait_for_version(page, last)
        yield page, last
    finally:
        context.close()


def trio_state(trio_live: dict[str, Any], who: str, version: int) -> dict[str, Any]:
    game = trio_live["game"]
    token = game["judge_token"] if who == "judge" else game["seats"][who]["token"]
    status, body = trio_live["transport"](
        "GET", f"/api/games/{game['game_id']}/events/{version}", token=token
    )
    assert status == 200, body
    state: dict[str, Any] = body["state"]
    return state


def test_a_three_seat_game_is_laid_out_from_its_state(
    browser: Any, trio_live: dict[str, Any]
) -> None:
    with trio_viewer(browser, trio_live, "judge") as (page, last):
        state = trio_state(trio_live, "judge", last)
        assert page.locator(".seat[data-seat]").count() == 3
        for seat in "ABC":
            for zone in ("hand", "table", "champion"):
                assert names_in(page, f"{seat}-{zone}") == [
                    c["name"] for c in state["seats"][seat][zone]
                ], (seat, zone)
            points = page.locator(f'[data-seat="{seat}"] [data-stat="points"]').inner_text()
            assert points == f"points {state['seats'][seat]['points']}"
        options = page.locator("#as-select option").evaluate_all("os => os.map(o => o.value)")
        assert options == ["judge", "A", "B", "C", "table", "spectator"]
        assert page.locator("#chart svg[data-chart='points'] path[data-seat='C']").count() == 1
        page.screenshot(
            path=str(Path(os.environ.get("MUNCHLOG_SCREENSHOTS", "/tmp")) / "trio-judge.png")
        )


def test_a_trio_seat_sees_the_others_hands_only_as_backs(
    browser: Any, trio_live: dict[str, Any]
) -> None:
    with trio_viewer(browser, trio_live, "B") as (page, last):
        judge = trio_state(trio_live, "judge", last)
        html = page.content()
        for seat in "AC":
            hand = judge["seats"][seat]["hand"]
            assert hand
            for card in hand:
                assert card["id"] not in html and card["name"] not in html
            assert page.locator(f'[data-zone="{seat}-hand"] .c.back').count() == len(hand)
        assert names_in(page, "B-hand") == [c["name"] for c in judge["seats"]["B"]["hand"]]
        assert page.locator("#as-wrap").is_hidden()
        page.screenshot(
            path=str(Path(os.environ.get("MUNCHLOG_SCREENSHOTS", "/tmp")) / "trio-seat-b.png")
        )
