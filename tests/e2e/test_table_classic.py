"""The table page (issue #26 item 2) at a classic Munchkin table (docs/rules.md B), in Debian's
chromium.

* One tablet in the middle of the table (one browser context, the table's token, which acts
  for every seat) records a 4-seat server-dealt Deluxe game through a combat with help, a run
  away and charity. The page commits and reveals a seed for each of the four seats by itself;
  the moves are the demo's choices (``Family.demo_next``, its classic policy) made on the page:
  the seat switcher ("acting for") picked when the move is not the waited-on seat's, then the
  button or the picker's option that sends that very command.
* The page laid out at 3 and 6 seats on two tablets (1024x768, 820x1180) and a phone
  (390x844): no horizontal overflow, every seat's panel on the page and reachable by
  scrolling, the moves in sight first on a phone; a screenshot of each is saved under the
  test's tmp folder (and was looked at when this test was written).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import requests

from api.app import create_app
from api.cli.demo import _family_spec
from domain.family import family_named
from domain.seeding import seeds_due
from tests.api.helpers import demo_game
from tests.e2e.tablepage import (
    JudgeView,
    act,
    act_by_keys,
    auth,
    choose_by_keys,
    no_horizontal_overflow,
    ready_at,
    show_hand,
)
from tests.live import munchlog_serve

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ORGANIZER = "e2e-table-classic-organizer"
#: What the 4-seat game must go through before the test stops it (the events that say so).
#: The moves made with the keyboard only (Tab, the arrow keys, Enter) before the mouse.
KEYBOARD_MOVES = 20
MILESTONES = {"HelpAccepted", "RunAwayRolled", "CharityResolved"}
#: A cap far past the moves the milestones took in the games seen (56 to 142).
MAX_MOVES = 500
#: Games the table records at most to see the milestones (a game may end before them).
GAMES = 3
#: The laid-out tables: seats -> ruleset (the viewer's tests use the same two).
TABLES = {3: "munchkin-deluxe", 4: "munchkin-old-west", 6: "munchkin-age-of-sigmar"}
VIEWPORTS = {"tablet": (1024, 768), "tablet-portrait": (820, 1180), "phone": (390, 844)}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live server, and a 3-seat and a 6-seat game played by the demo (in this process, on
    the same SQLite file) for the layouts."""
    folder: Path = tmp_path_factory.mktemp("table-classic")
    db = str(folder / "munchlog.sqlite")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER,
            "MUNCHLOG_DATABASE_URL": db,
        }
    )
    with ExitStack() as stack:
        stack.callback(app.extensions["munchlog"].close)
        port, _ = stack.enter_context(
            munchlog_serve(folder, ORGANIZER, extra_env={"MUNCHLOG_DATABASE_URL": db})
        )
        games: dict[Any, Any] = {
            seats: demo_game(app, seed=1, ruleset=ruleset, seats=seats, max_actions=60)
            for seats, ruleset in TABLES.items()
        }
        for seats, ruleset in TABLES.items():  # and each played to its end
            games[f"{seats}-end"] = demo_game(app, seed=1, ruleset=ruleset, seats=seats)
        yield {"base": f"http://127.0.0.1:{port}", "games": games}


def test_a_table_device_records_a_classic_game_with_help_a_run_and_charity(
    served: dict[str, Any], browser: Any
) -> None:
    """The table's page records a server-dealt Deluxe game until a combat had a helper, a seat
    ran away and charity was given. The deal takes the seeds the page sends for each seat
    (random, as on a real table), so a game may end before all three happened: then the next
    game is played on the same page (at most :data:`GAMES`)."""
    base = served["base"]
    ruleset = "munchkin-deluxe"
    spec = {**_family_spec(ruleset, seed=2, seats=4, catalog=None), "dealing": "server"}
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        for _ in range(GAMES):
            judge = _play_to_the_milestones(page, base, spec, ruleset)
            if judge is not None:
                break
        assert judge is not None, f"{GAMES} games each ended before {sorted(MILESTONES)}"
        # the page shows what the log holds: the combat's helper and the charity happened
        page.wait_for_selector(f'#version[data-version="{judge.version}"]', state="attached")
        no_horizontal_overflow(page)
    finally:
        context.close()
    assert not errors, errors


def _play_to_the_milestones(
    page: Any, base: str, spec: dict[str, Any], ruleset: str
) -> JudgeView | None:
    """A new game played on ``page`` until :data:`MILESTONES` (its judge's view), or ``None``
    when it ended before them."""
    created = requests.post(f"{base}/api/games", json=spec, headers=auth(ORGANIZER), timeout=30)
    game = created.json()
    gid = game["game_id"]
    judge = JudgeView(base, gid, game["judge_token"])
    page.goto(f"{base}/games/{gid}/play#token={game['table_token']}")
    # the table acts for every seat: a switcher, defaulting to the seat the game waits on
    page.wait_for_selector("#acting-wrap:not([hidden])")
    assert page.locator("#acting option").count() == 5  # "whom the game waits on" + 4

    family = family_named(ruleset)
    rng = random.Random(2)
    state = judge.catch_up()
    moves = 0
    followed = 0  # moves made on the seat the page chose by itself
    while not set(judge.types) >= MILESTONES:
        if state["status"] == "finished":
            return None
        if seeds_due(state):  # the page sends a seed for each seat by itself
            state = judge.wait_past(judge.version)
            continue
        command = family.demo_next(state, rng)
        assert command is not None, f"no legal move at version {judge.version}"
        seat = command["seat"]
        ready_at(page, judge.version)
        keys = moves < KEYBOARD_MOVES  # the first moves with the keyboard only
        if page.locator("#controls").get_attribute("data-seat") == seat:
            followed += 1
        elif keys:
            choose_by_keys(page, "#acting", seat)
            ready_at(page, judge.version, seat)
        else:
            page.select_option("#acting", seat)
            ready_at(page, judge.version, seat)
        if keys:
            act_by_keys(page, command)
        else:
            act(page, command)
        state = judge.wait_past(judge.version)
        moves += 1
        assert moves < MAX_MOVES, f"no {MILESTONES - set(judge.types)} in {moves} moves"
        if moves % 10 == 0:  # back to "whom the game waits on" now and then
            page.select_option("#acting", "")

    assert judge.types.count("SeedCommitted") == 4  # one per seat, from the one page
    assert followed > 0, "the switcher never followed the game by itself"
    return judge


def cut_labels(page: Any) -> list[str]:
    """The words the page cuts: a move's, a picker's, a zone's or a card's text wider than its
    box, and a picker whose chosen move is not written out in full beside it."""
    found: list[str] = page.evaluate(
        """() => {
        const out = [];
        for (const e of document.querySelectorAll(
            "#controls .act, #controls label, .picked-text, .zone-name, .stat, .c .n, .c .t, #where span")) {
          if (e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1) out.push(e.textContent);
        }
        for (const s of document.querySelectorAll("#controls select[data-picker]")) {
          const line = document.querySelector(`[data-picked-text="${s.dataset.picker}"]`);
          if (!line || line.textContent !== s.selectedOptions[0].textContent) out.push(s.id);
        }
        return out;
      }"""
    )
    return found


@pytest.mark.parametrize("seats", sorted(TABLES))
@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_the_table_lays_out_on_a_tablet_and_a_phone(
    served: dict[str, Any], browser: Any, tmp_path: Path, seats: int, size: str
) -> None:
    game = served["games"][seats]
    width, height = VIEWPORTS[size]
    # a phone is a player's own (a seat's token), a tablet the table's
    token = game.tokens["B"] if size == "phone" else game.tokens["table"]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(f"{served['base']}/games/{game.game_id}/play#token={token}")
        page.wait_for_selector(f'#version[data-version="{game.version}"]', state="attached")
        page.wait_for_selector("#controls[data-version]", state="attached")
        show_hand(page)  # the tablet: the acting seat's player taps "show my hand"
        assert page.locator("#seats [data-seat]").count() == seats
        no_horizontal_overflow(page)
        for panel in page.locator("#seats [data-seat]").all():
            box = panel.bounding_box()
            assert box is not None and box["width"] > 150 and box["height"] > 40
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1
            panel.scroll_into_view_if_needed()
            assert panel.is_visible()
        page.evaluate("window.scrollTo(0, 0)")
        moves = page.locator("#moves").bounding_box()
        assert moves is not None
        if size == "phone":  # the moves first, in the first screenful
            assert moves["y"] < height / 2
        else:  # the board and the moves side by side, or the moves in the first screenful
            assert moves["y"] < height
        # keyboard reachable: Tab from the top reaches a move's button, focus drawn around it
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.matches('#controls .act')"):
                break
        else:
            raise AssertionError("no move's button is reached with Tab")
        outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("", "none")
        assert not cut_labels(page), cut_labels(page)
        page.evaluate("window.scrollTo(0, 0)")
        shot = tmp_path / f"table-{seats}-seats-{size}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
    finally:
        context.close()


@pytest.mark.parametrize("seats", sorted(TABLES))
def test_at_200_percent_text_and_at_the_end_on_a_phone(
    served: dict[str, Any], browser: Any, tmp_path: Path, seats: int
) -> None:
    """The phone at twice the text size (a player's larger text setting): nothing wider than
    the screen, no label cut, the moves in the first screenful; the finished game shorter than
    two screens on a phone, saying who won."""
    width, height = VIEWPORTS["phone"]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        game = served["games"][seats]
        page.goto(f"{served['base']}/games/{game.game_id}/play#token={game.tokens['B']}")
        page.wait_for_selector("#controls[data-version]", state="attached")
        page.evaluate("document.documentElement.style.fontSize = '200%'")  # CSSOM: CSP allows it
        page.wait_for_timeout(100)
        no_horizontal_overflow(page)
        assert not cut_labels(page), cut_labels(page)
        moves = page.locator("#moves").bounding_box()
        assert moves is not None and moves["y"] < height, moves
        page.screenshot(path=str(tmp_path / f"table-{seats}-200pc.png"), full_page=True)
        end = served["games"][f"{seats}-end"]
        assert end.status == "finished"
        page.goto("about:blank")
        page.goto(f"{served['base']}/games/{end.game_id}/play#token={end.tokens['B']}")
        page.wait_for_selector("[data-the-end]")
        tall = page.evaluate("() => document.documentElement.scrollHeight")
        page.screenshot(path=str(tmp_path / f"table-{seats}-end-phone.png"), full_page=True)
        assert tall < 2 * height, f"the finished game is {tall} px tall on a {height} px phone"
    finally:
        context.close()
