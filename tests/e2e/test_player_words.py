"""Every word on the table page and the viewer is a player's (issue #40): three games (the CCG
dealt by the server, classic Deluxe at four seats dealt by the table, classic Old West at
three dealt by the server), each at every stage (just created, early, in the middle, finished),
opened as every viewer (each seat, the table, the judge; the viewer also as a spectator), in
Debian's chromium at a phone's size. What the page shows (its text, and what a screen reader
reads of its labels) holds no version number ("#31"), error code ("game/version_conflict"),
snake_case, CamelCase, ``null``/``[]``/``{}``, ability index ("ability 0") or a bare "L"; a
finished game says who won and offers the replay and the export, and no longer "to play" or
"you may not act". The games are played by the demo's commands through the service
(``tests.api.helpers.demo_game``) into the store of a live ``munchlog serve``.

The page's text of each is written to ``$MUNCHLOG_SCREENSHOTS`` (else the test's temporary
folder) with a screenshot, to be looked at.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from tests.api.helpers import demo_game
from tests.e2e.tablepage import TIMEOUT_MS, no_horizontal_overflow
from tests.live import munchlog_serve

pytestmark = pytest.mark.e2e

ORGANIZER = "e2e-player-words-organizer"
PHONE = (390, 844)
#: key -> (ruleset, seats, seed, dealing)
GAMES = {
    "ccg": ("munchkin-ccg", 2, 3, "server"),
    "deluxe": ("munchkin-deluxe", 4, 1, "table"),
    "west": ("munchkin-old-west", 3, 2, "server"),
}
#: the stages each game is opened at: the demo's actions played (None: to its end)
STAGES = (0, 6, 40, None)
#: what a player never reads: raw values and identifiers, version numbers, codes, indexes
JARGON = re.compile(
    r"\bnull\b|\bundefined\b|\bNaN\b|\[\]|[{}]|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b|#\d|\bversions? \d|\b[a-z]+/[a-z_]+\b"
    r"|\bability \d|\bindex\b|\bL\s?\d"
)
#: what a finished game no longer says
OVER = re.compile(r"\bto play\b|may not act|waits? (?:on|for)", re.I)


def jargon_in(text: str) -> list[str]:
    return sorted({m.group(0) for m in JARGON.finditer(text)})


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder: Path = tmp_path_factory.mktemp("player-words")
    db = str(folder / "munchlog.sqlite")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER,
            "MUNCHLOG_DATABASE_URL": db,
        }
    )
    with ExitStack() as served:
        port, _ = served.enter_context(
            munchlog_serve(folder, ORGANIZER, extra_env={"MUNCHLOG_DATABASE_URL": db})
        )
        games: dict[str, Any] = {}
        for key, (ruleset, seats, seed, dealing) in GAMES.items():
            for stage in STAGES:
                options: dict[str, Any] = {} if ruleset == "munchkin-ccg" else {"seats": seats}
                game = demo_game(
                    app, seed=seed, ruleset=ruleset, max_actions=stage, dealing=dealing, **options
                )
                games[f"{key}-{stage if stage is not None else 'end'}"] = game
        yield {"base": f"http://127.0.0.1:{port}", "games": games}


def shown(page: Any) -> str:
    """What a player reads or hears of the page: its text, and the labels of its controls."""
    text: str = page.evaluate(
        """() => document.body.innerText + "\\n" + Array.from(
            document.querySelectorAll("[aria-label]:not([hidden]), [title]"))
            .filter((e) => e.offsetParent !== null)
            .map((e) => (e.getAttribute("aria-label") || "") + " " + (e.title || "")).join("\\n")"""
    )
    return text


def end_said(page: Any) -> list[str]:
    """What the table page of a finished game fails to say: who won, the replay, the export;
    and what it says that no longer holds ("A to play", "you may not act")."""
    said = page.locator("#where").inner_text()
    wrong = [] if re.search(r"\bwon\b", said) else [f"no winner in {said!r}"]
    over = OVER.search(said + " " + page.locator("#moves").inner_text())
    wrong += [f"says {over.group(0)!r}"] if over else []
    for link in ("replay", "export"):
        if page.locator(f"#moves a[data-{link}]").count() != 1:
            wrong.append(f"no {link} link")
    return wrong


def viewers_of(game: Any) -> list[str]:
    return [*sorted(k for k in game.tokens if k not in ("table", "judge")), "table", "judge"]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_page_at_every_stage_speaks_a_players_words(
    browser: Any, live: dict[str, Any], key: str, tmp_path: Path
) -> None:
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    found: dict[str, list[str]] = {}
    ending: list[str] = []
    errors: list[str] = []
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, is_mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda e: errors.append(str(e)))
        for name, game in live["games"].items():
            if not name.startswith(key + "-"):
                continue
            finished = game.status == "finished"
            for who in viewers_of(game):
                where = f"{name} {who}"
                for path, ready in (
                    ("/play", "#controls[data-version]:not([data-version=''])"),
                    ("", "#version[data-version]:not([data-version=''])"),
                ):
                    page.goto("about:blank")
                    page.goto(f"{live['base']}/games/{game.game_id}{path}#token={game.tokens[who]}")
                    page.wait_for_selector(ready, state="attached")
                    page.wait_for_timeout(150)  # the live line and the last redraw
                    hidden = page.locator("#show-hand")
                    if hidden.count() and hidden.is_visible():  # the tablet: its moves too
                        hidden.click()
                    text = shown(page)
                    label = f"{where} {'table' if path else 'viewer'}"
                    stem = label.replace(" ", "-")
                    (folder / f"words-{stem}.txt").write_text(text)
                    if who == "A" or (who == "table" and finished):
                        page.screenshot(path=str(folder / f"words-{stem}.png"), full_page=True)
                    if jargon_in(text):
                        found[label] = jargon_in(text)
                    if finished and path:
                        ending.extend(f"{label}: {e}" for e in end_said(page))
    finally:
        context.close()
    assert not found, found
    assert not ending, ending
    assert not errors, errors


def test_the_shared_tablet_hides_the_hand_until_its_player_asks(
    browser: Any, live: dict[str, Any]
) -> None:
    """The table's token (a tablet passed round the table): the hand of the seat it acts for,
    and the moves naming its cards, hidden until "show my hand", hidden again for the next
    seat; a seat's own phone shows its hand always. Concede sits apart, after the moves."""
    game = live["games"]["deluxe-40"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        # a seat's phone before the table deals: no dead button, told the table deals
        dealt = live["games"]["deluxe-0"]
        page.goto(f"{live['base']}/games/{dealt.game_id}/play#token={dealt.tokens['A']}")
        page.wait_for_selector('#controls [data-table-draws="A"]')
        assert page.locator("#controls .act").count() == 0
        page.goto("about:blank")
        base = f"{live['base']}/games/{game.game_id}/play"
        page.goto(f"{base}#token={game.tokens['A']}")
        page.wait_for_selector("#hand-box .c[data-name]")
        assert page.locator("#show-hand").count() == 0
        page.goto("about:blank")
        page.goto(f"{base}#token={game.tokens['table']}")
        page.wait_for_selector("#show-hand")
        acting = page.locator("#show-hand").get_attribute("data-show-hand")
        assert page.locator("#hand-box .c").count() == 0
        assert not page.locator("#controls").is_visible()
        page.locator("#show-hand").click()
        page.wait_for_selector("#hand-box .c[data-name]")
        assert page.locator("#controls").is_visible()
        groups = page.locator("#controls .group").evaluate_all(
            "els => els.map(e => e.dataset.type)"
        )
        assert groups and groups[0] != "concede", groups
        assert groups.count("concede") <= 1 and groups[-1] == "concede", groups
        other = next(s for s in ("A", "B", "C", "D") if s != acting)
        page.locator("#acting").select_option(other)
        page.wait_for_selector(f'#show-hand[data-show-hand="{other}"]')
        assert page.locator("#hand-box .c").count() == 0
        page.locator("#acting").select_option(acting)
        page.wait_for_selector(f'#show-hand[data-show-hand="{acting}"]')
    finally:
        context.close()


#: axe-core's rules of WCAG 2.1 A and AA
WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_axe_finds_no_wcag_aa_violation(browser: Any, live: dict[str, Any], size: str) -> None:
    """axe-core (``axe-playwright-python``) in the suite's chromium: the table page and the
    viewer of a CCG game, a 4-seat classic game in its middle and a finished classic game, as
    a seat, the table (its hand shown and not) and the judge, and the viewer as a spectator."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    width, height = SIZES[size]
    found: dict[str, list[str]] = {}
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        for name in ("ccg-40", "deluxe-40", "west-end"):
            game = live["games"][name]
            base = f"{live['base']}/games/{game.game_id}"
            for who in ("A", "table", "judge", "spectator"):
                for path in ("/play", ""):
                    if who == "spectator" and path:
                        continue
                    if who == "spectator":  # a new tab: no token kept from the last
                        page.close()
                        page = context.new_page()
                        page.set_default_timeout(TIMEOUT_MS)
                    page.goto("about:blank")
                    token = "" if who == "spectator" else f"#token={game.tokens[who]}"
                    page.goto(f"{base}{path}{token}")
                    if who == "spectator":
                        page.locator("#watch").click()
                    page.wait_for_selector(
                        "[data-version]:not([data-version=''])", state="attached"
                    )
                    page.wait_for_timeout(200)
                    label = f"{name} {who} {'table' if path else 'viewer'}"
                    shows = [page.locator("#show-hand")] if path and who == "table" else []
                    for step in [None, *shows]:
                        if step is not None:
                            if not step.count() or not step.is_visible():
                                continue
                            step.click()
                            label += " (hand shown)"
                        result = axe.run(page, options=WCAG_AA)
                        bad = [
                            f"{v['id']}: {', '.join(n['target'][0] for n in v['nodes'][:3])}"
                            for v in result.response["violations"]
                        ]
                        if bad:
                            found[label] = bad
    finally:
        context.close()
    assert not found, found


def test_the_viewer_at_200_percent_text_on_a_phone(
    browser: Any, live: dict[str, Any], tmp_path: Path
) -> None:
    """A larger text setting (twice the size) on a phone: the viewer of a 4-seat game in its
    middle is no wider than the screen and its scrubber still in the first screenful."""
    game = live["games"]["deluxe-40"]
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{live['base']}/games/{game.game_id}#token={game.tokens['A']}")
        page.wait_for_selector("#version[data-version]:not([data-version=''])", state="attached")
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        page.wait_for_timeout(100)
        folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
        page.screenshot(path=str(folder / "viewer-200pc.png"), full_page=True)
        no_horizontal_overflow(page)
        scrubber = page.locator("#scrubber").bounding_box()
        assert scrubber is not None and scrubber["y"] < PHONE[1], scrubber
    finally:
        context.close()
