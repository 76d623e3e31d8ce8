"""The replay viewer laying out a classic table of 3 and 6 seats (docs/rules.md B; issue #14):
as the judge and as one seat, on a phone and on a desktop, in Debian's chromium.

Each page must load without a console error, show one panel per seat in seating order with the
active seat marked, show the combat with both strengths, never show another seat's hand to a
seat (docs/rules.md A.4: the API gives it only the count, and the page shows only that), fit a
phone's width, and leave a screenshot that is not blank.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from api.cli.demo import DemoResult, FlaskTransport
from tests.api.helpers import demo_game
from tests.live import munchlog_serve

pytestmark = pytest.mark.e2e

ORGANIZER = "e2e-classic-organizer-token"
TIMEOUT_MS = 15_000

#: The tables laid out in full: seats -> ruleset; the six-seat one is Age of Sigmar (armies as
#: traits). :data:`GRIDS` are the other table sizes, whose grid alone is checked.
TABLES = {3: "munchkin-deluxe", 6: "munchkin-age-of-sigmar"}
GRIDS = {4: "munchkin-old-west", 5: "munchkin-deluxe"}
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 800)}
#: The seat that looks at the table in the one-seat views.
ONE_SEAT = "B"


def names_in(page: Any, zone: str) -> list[str]:
    return list(
        page.locator(f'[data-zone="{zone}"] .c[data-name]').evaluate_all(
            "els => els.map(e => e.dataset.name)"
        )
    )


def wait_for_version(page: Any, version: int) -> None:
    page.wait_for_selector(f'#version[data-version="{version}"]')


def _get(transport: Any, path: str, token: str) -> dict[str, Any]:
    status, body = transport("GET", path, token=token)
    assert status == 200, body
    result: dict[str, Any] = body
    return result


def _shown_version(transport: Any, game: DemoResult) -> int:
    """The last version with a combat on the table, the seat looking not the one fighting, and
    a hand hidden from that seat that holds cards: where the page has the most to show and the
    most to hide."""
    for version in range(game.version, 0, -1):
        state = _get(
            transport, f"/api/games/{game.game_id}/events/{version}", game.tokens["judge"]
        )["state"]
        combat = state["combat"]
        hidden = [s for s in state["seats"] if s != ONE_SEAT and state["seats"][s]["hand"]]
        if combat and combat["player"] != ONE_SEAT and state["active_seat"] and hidden:
            return version
    raise AssertionError("the demo game never had a combat with a hidden hand")


@pytest.fixture(scope="module")
def classic_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live ``munchlog serve`` with a 3-seat Deluxe and a 6-seat Age of Sigmar game played
    by the demo, and for each the version the pages open at."""
    folder: Path = tmp_path_factory.mktemp("classic-viewer")
    db = str(folder / "munchlog.sqlite")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER,
            "MUNCHLOG_DATABASE_URL": db,
        }
    )
    served = ExitStack()
    port, _ = served.enter_context(
        munchlog_serve(folder, ORGANIZER, extra_env={"MUNCHLOG_DATABASE_URL": db})
    )
    try:
        transport = FlaskTransport(app)
        games: dict[int, tuple[DemoResult, int]] = {}
        for seats, ruleset in {**TABLES, **GRIDS}.items():
            game = demo_game(app, seed=1, ruleset=ruleset, seats=seats, max_actions=150)
            games[seats] = (game, _shown_version(transport, game))
        yield {"base": f"http://127.0.0.1:{port}", "transport": transport, "games": games}
    finally:
        served.close()
        app.extensions["munchlog"].close()


#: Counts the distinct colours of a PNG (every 3rd pixel each way) in a blank page's canvas.
COLOURS_JS = """async (url) => {
  const img = new Image();
  await new Promise((ok, bad) => { img.onload = ok; img.onerror = bad; img.src = url; });
  const c = document.createElement("canvas");
  c.width = img.width; c.height = img.height;
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0);
  const px = g.getImageData(0, 0, c.width, c.height).data;
  const seen = new Set();
  for (let y = 0; y < c.height; y += 3)
    for (let x = 0; x < c.width; x += 3) {
      const i = (y * c.width + x) * 4;
      seen.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    }
  return seen.size;
}"""


def distinct_colours(context: Any, png: bytes) -> int:
    page = context.new_page()
    try:
        url = "data:image/png;base64," + base64.b64encode(png).decode()
        return int(page.evaluate(COLOURS_JS, url))
    finally:
        page.close()


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
@pytest.mark.parametrize("who", ["judge", ONE_SEAT])
@pytest.mark.parametrize("seats", sorted(TABLES))
def test_a_classic_table_is_laid_out_for_each_viewer_and_screen(
    browser: Any,
    classic_live: dict[str, Any],
    tmp_path: Path,
    seats: int,
    who: str,
    device: str,
) -> None:
    game, version = classic_live["games"][seats]
    transport = classic_live["transport"]
    path = f"/api/games/{game.game_id}/events/{version}"
    judge = _get(transport, path, game.tokens["judge"])["state"]
    seen = _get(transport, path, game.tokens[who])
    mine = seen["state"]
    # every card id the API itself tells this viewer (its leak properties check the API): a card
    # in a hand may be one the whole table saw, e.g. rewards drawn face up (docs/rules.md B.7)
    told = json.dumps(
        [seen, _get(transport, f"/api/games/{game.game_id}/events?limit=1000", game.tokens[who])]
    )
    order = list("ABCDEF"[:seats])
    assert list(judge["seats"]) == order

    width, height = VIEWPORTS[device]
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=device == "phone"
    )
    errors: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        token = game.tokens[who]
        page.goto(f"{classic_live['base']}/games/{game.game_id}#token={token}&v={version}")
        page.wait_for_selector(f"#viewer-label[data-viewer='{who}']")
        wait_for_version(page, version)

        # one panel per seat, in seating order, each with its player and level
        panels = page.locator(".seat[data-seat]")
        assert panels.evaluate_all("els => els.map(e => e.dataset.seat)") == order
        for seat in order:
            head = page.locator(f'.seat[data-seat="{seat}"] .seat-head').inner_text()
            assert judge["seats"][seat]["player"] in head
            level = page.locator(f'[data-seat="{seat}"] [data-stat="level"]').inner_text()
            assert level == f"level {judge['seats'][seat]['level']}"
            equipped = [c["name"] for c in judge["seats"][seat]["equipped"]]
            assert names_in(page, f"{seat}-equipped") == equipped, seat
            traits = [
                c["name"]
                for k in ("race", "class", "army")
                for c in mine["seats"][seat]["traits"][k]
            ]
            assert names_in(page, f"{seat}-traits") == traits, seat
            assert (page.locator(f'.seat[data-seat="{seat}"] [data-dead]').count() == 1) == bool(
                judge["seats"][seat]["dead"]
            )

        # the active seat is marked, and only it
        active = page.locator(".seat.active")
        assert active.count() == 1
        assert active.get_attribute("data-seat") == judge["active_seat"]
        assert page.locator("[data-active-mark]").count() == 1

        # the combat: the fighter against each monster, with both strengths
        combat = judge["combat"]
        assert page.locator('[data-strength="player"]').inner_text() == str(
            combat["player_strength"]
        )
        assert page.locator('[data-strength="monsters"]').inner_text() == str(
            combat["monster_strength"]
        )
        shown = page.locator("[data-combat] [data-monster]").evaluate_all(
            "els => els.map(e => e.dataset.monster)"
        )
        assert shown == [m["card"]["id"] for m in combat["monsters"]]
        decks = page.locator("[data-decks]").inner_text()
        assert f"door deck {judge['decks']['door']}" in decks
        assert f"treasure deck {judge['decks']['treasure']}" in decks
        assert page.locator("#event .narration").count() == 1  # the event told as table talk

        # hands: the judge sees every card; a seat its own, and the others only as backs
        html = page.content()
        text = page.locator("body").inner_text()
        visible = json.dumps(mine)
        for seat in order:
            hand = judge["seats"][seat]["hand"]
            if who == "judge" or seat == who:
                assert names_in(page, f"{seat}-hand") == [c["name"] for c in hand], seat
                continue
            assert "hand" not in mine["seats"][seat]
            assert names_in(page, f"{seat}-hand") == []
            assert page.locator(f'[data-zone="{seat}-hand"] .c.back').count() == len(hand)
            for c in hand:
                if c["id"] in told:  # the seat knows this card (seen face up): no secret
                    continue
                assert c["id"] not in html, (seat, c["id"])
                if c["name"] not in visible:  # a name the seat may see elsewhere (a copy)
                    assert c["name"] not in text, (seat, c["name"])
        if who != "judge":
            hidden = [c for s in order if s != who for c in judge["seats"][s]["hand"]]
            assert hidden  # the check above had something to hide

        # the layout: a phone stacks the seats and never scrolls sideways; a desktop a grid
        boxes = panels.evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y]; })"
        )
        columns = len({round(x) for x, _ in boxes})
        if device == "phone":
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, overflow
            assert columns == 1
        else:
            assert columns == (2 if seats == 4 else 3)
            assert len({round(y) for _, y in boxes}) == -(-seats // columns)
        assert not errors, errors

        folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
        shot = folder / f"classic-{seats}-{who}-{device}.png"
        png = page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        assert distinct_colours(context, png) > 20
    finally:
        context.close()


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
@pytest.mark.parametrize("seats", sorted(GRIDS))
def test_four_and_five_seats_fill_the_grid(
    browser: Any, classic_live: dict[str, Any], seats: int, device: str
) -> None:
    """Four seats sit two by two on a desktop, five three and two; a phone stacks them all."""
    game, version = classic_live["games"][seats]
    width, height = VIEWPORTS[device]
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=device == "phone"
    )
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        token = game.tokens["judge"]
        page.goto(f"{classic_live['base']}/games/{game.game_id}#token={token}&v={version}")
        wait_for_version(page, version)
        boxes = page.locator(".seat[data-seat]").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [e.dataset.seat, Math.round(r.x), Math.round(r.y)]; })"
        )
        assert [seat for seat, _, _ in boxes] == list("ABCDEF"[:seats])
        rows: dict[int, list[str]] = {}
        for seat, _, y in boxes:
            rows.setdefault(y, []).append(seat)
        if device == "phone":
            assert len(rows) == seats
            assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
        else:
            assert list(rows.values()) == (
                [["A", "B"], ["C", "D"]] if seats == 4 else [["A", "B", "C"], ["D", "E"]]
            )
    finally:
        context.close()
