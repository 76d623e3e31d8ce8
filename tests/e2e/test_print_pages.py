"""The event's paper (issue #39, docs/events.md "Paper"), printed to PDF in Chromium: each
print page's PDF turned into images (pdftoppm), a slip a table on sheets of three, and nothing
drawn in the page's outer margin (nothing cut at the page edge). The page is served from the
app in this process through Playwright's routing: any request to another origin fails the test.

``MUNCHLOG_PRINT_DIR`` keeps the images for a person to look at.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_events import open_event, pair, register

pytestmark = pytest.mark.e2e

ORIGIN = "http://munchlog.test"
PLAYERS = [f"player{n:02d}" for n in range(1, 22)]  # 21: ten tables and a bye


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm is missing (apt-get install poppler-utils)")
    from api.app import create_app

    folder = tmp_path_factory.mktemp("print")
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
            "MUNCHLOG_DATABASE_URL": str(folder / "munchlog.sqlite"),
        }
    )
    client = app.test_client()
    event = open_event(client, name="Saturday Munchkin Open")
    tokens = {player: register(client, event["event_id"], player) for player in PLAYERS}
    paired = pair(client, event["event_id"])
    try:
        yield {
            "client": client,
            "eid": event["event_id"],
            "round": paired,
            "folder": folder,
            "tokens": tokens,
            "judge": event["judge_token"],
        }
    finally:
        app.extensions["munchlog"].close()


def routed(browser: Any, scene: dict[str, Any], elsewhere: list[str], **headers: str) -> Any:
    """A browser context whose requests the app in this process answers (the live stream,
    another process's, refused); a request to another origin is refused and listed in
    ``elsewhere``."""
    client = scene["client"]

    def serve(route: Any) -> None:
        url = route.request.url
        if not url.startswith(ORIGIN):
            elsewhere.append(url)
            route.abort()
            return
        if "/stream" in url:
            route.abort()
            return
        got = client.open(
            url[len(ORIGIN) :],
            method=route.request.method,
            headers=route.request.headers,
            data=route.request.post_data_buffer,
        )
        route.fulfill(status=got.status_code, headers=dict(got.headers), body=got.get_data())

    context = browser.new_context(extra_http_headers=headers)
    context.route("**/*", serve)
    return context


def printed(
    browser: Any, scene: dict[str, Any], path: str, name: str, **headers: str
) -> list[Path]:
    """``path`` printed to PDF and its pages as images (50 dpi, PNG to look at and PGM to
    check), the PGM ones in page order."""
    elsewhere: list[str] = []
    context = routed(browser, scene, elsewhere, **headers)
    try:
        page = context.new_page()
        page.goto(ORIGIN + path)
        pdf = scene["folder"] / f"{name}.pdf"
        page.pdf(path=str(pdf), format="A4", print_background=True, prefer_css_page_size=True)
    finally:
        context.close()
    assert elsewhere == []
    keep = Path(os.environ.get("MUNCHLOG_PRINT_DIR") or scene["folder"])
    keep.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "50", "-png", str(pdf), str(keep / name)], check=True)
    subprocess.run(["pdftoppm", "-r", "50", "-gray", str(pdf), str(keep / name)], check=True)
    return sorted(keep.glob(f"{name}-*.pgm"))


def margin_is_blank(image: Path) -> bool:
    """Whether the outer 8 mm of a page (a binary PGM; the @page margin is 12 mm) holds no
    ink."""
    data = image.read_bytes()
    magic, width, height, depth, pixels = data.split(maxsplit=4)
    assert magic == b"P5" and depth == b"255"
    w, h = int(width), int(height)
    edge = round(8 / 25.4 * 50)
    rows = [pixels[y * w : (y + 1) * w] for y in range(h)]
    outer = rows[:edge] + rows[h - edge :] + [r[:edge] + r[w - edge :] for r in rows]
    return all(min(row) >= 200 for row in outer)


def test_slips_a_table_three_to_a_sheet_nothing_at_the_edge(
    browser: Any, scene: dict[str, Any]
) -> None:
    tables = len(scene["round"]["pairings"])
    pages = printed(browser, scene, f"/events/{scene['eid']}/print/slips", "slips")
    assert len(pages) == math.ceil(tables / 3)
    assert all(margin_is_blank(p) for p in pages)


@pytest.mark.parametrize("kind", ["pairings?by=name", "pairings?by=table", "standings"])
def test_the_public_pages_print_inside_the_margins(
    browser: Any, scene: dict[str, Any], kind: str
) -> None:
    name = kind.replace("?by=", "-")
    pages = printed(browser, scene, f"/events/{scene['eid']}/print/{kind}", name)
    assert pages and all(margin_is_blank(p) for p in pages)


def test_decklists_print_a_sheet_a_player_for_the_organizer(
    browser: Any, scene: dict[str, Any]
) -> None:
    auth = {"Authorization": f"Bearer {ORGANIZER_TOKEN}"}
    pages = printed(browser, scene, f"/events/{scene['eid']}/print/decklists", "decklists", **auth)
    assert len(pages) >= len(PLAYERS)
    assert all(margin_is_blank(p) for p in pages)


def test_the_table_page_calls_a_judge(browser: Any, scene: dict[str, Any]) -> None:
    """The table page's "Call a judge" (api/static/table-call.js), with a seat's token."""
    client, eid = scene["client"], scene["eid"]
    pairing = scene["round"]["pairings"][0]
    player = pairing["seats"]["B"]
    seat = client.get(
        f"/api/events/{eid}/rounds/1/my-game", headers=bearer(scene["tokens"][player])
    ).get_json()
    elsewhere: list[str] = []
    context = routed(browser, scene, elsewhere)
    try:
        page = context.new_page()
        page.goto(f"{ORIGIN}/games/{seat['game_id']}/play#token={seat['token']}")
        page.wait_for_selector("#judge-call:not([hidden])")
        page.fill("#judge-call-note", "is this legal?")
        page.click("#judge-call-form button")
        page.wait_for_selector("#judge-call-status[data-call-id]")
        call_id = page.get_attribute("#judge-call-status", "data-call-id")
    finally:
        context.close()
    assert elsewhere == []
    listed = client.get(f"/api/events/{eid}/calls", headers=bearer(scene["judge"])).get_json()
    (call,) = [c for c in listed if c["call_id"] == call_id]
    assert (call["table"], call["raised_by"], call["via"]) == (pairing["table"], player, "seat")
    assert call["note"] == "is this legal?" and call["game_id"] == seat["game_id"]


def test_the_decklists_shell_asks_again_with_the_tabs_event_token(
    browser: Any, scene: dict[str, Any]
) -> None:
    """A browser opens the decklists page without a header: the shell's script
    (api/static/print-auth.js) asks again with the event page's token from the tab; a
    player's token is refused and shows no list."""
    eid = scene["eid"]
    for token, sheets in [(scene["judge"], len(PLAYERS)), (scene["tokens"][PLAYERS[0]], 0)]:
        elsewhere: list[str] = []
        context = routed(browser, scene, elsewhere)
        key = f"munchlog-event-token:{eid}"
        context.add_init_script(f"sessionStorage.setItem({key!r}, {token!r})")
        try:
            page = context.new_page()
            page.goto(f"{ORIGIN}/events/{eid}/print/decklists")
            if sheets:
                page.wait_for_selector(".sheet.decklist")
            else:
                # a locator's wait: polling a string predicate is an eval the page's CSP
                # refuses ("EvalError ... 'unsafe-eval'" when the refusal came late)
                refused = re.compile(r"^Refused")
                page.locator("#print-status", has_text=refused).wait_for()
            assert page.locator(".sheet.decklist").count() == sheets
            assert token not in page.url
        finally:
            context.close()
        assert elsewhere == []
