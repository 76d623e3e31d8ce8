"""Every word on the table page and the viewer is a player's (issue #40): three games (the CCG
dealt by the server, classic Deluxe at four seats dealt by the table, classic Old West at
three dealt by the server), played to their end by the demo's commands through the service
(``tests.api.helpers.demo_game``) into the store of a live ``munchlog serve``, in Debian's
chromium at a phone's size. What the pages show (their text, and what a screen reader reads
of their labels) holds no version number ("#31"), error code ("game/version_conflict"),
snake_case, CamelCase, ``null``/``[]``/``{}``, ability index ("ability 0"), bare "L" or
abbreviation ("P2", "1hand", "3g", "2 tr", "300 gp", "dmg 1"); a finished game says who won
and offers the replay and the export, and no longer "to play" or "you may not act".

Every step of each game is looked at, on both pages:

- the viewer at every step of the game (every event: its scrubber dragged through the game in
  the page itself);
- the table page after every move (the game's creation, then the last event of each command:
  what the page of a live game shows between moves): its ``/state`` asked at that version
  (``?at=``, the API's own replay) and its ``/legal`` answered with what the API answered
  then (``service.legal.legal_view`` of the judge's state then, as its route dumps it).

Every step is looked at as at least one viewer (each seat, the table, the judge; on the viewer
also a spectator): the first step of each event type as every viewer, each other step as one
viewer, the viewers in turn (``shared_out``), rather than every viewer at every step (five to
seven times the cost: the viewer's ``/events/<v>`` takes the server about 60 ms as a seat).
That covers every page state as far as words go: the words are made by the same code whichever
the viewer (boards.js, table.js, viewer.js and the server's narration), from the type of the
event, the phase, the kinds of the cards and the moves offered, and each event type is seen as
every viewer; what differs by viewer is which cards are names and which are backs ("?",
"face-down card"), whose hand and moves are listed (a seat: its own; the table and the judge:
every seat's, the tablet's hidden until "show my hand", shown here at every step it hides them)
and the lines of one viewer ("you are B", "viewing as spectator", the judge's "see the game
as"), which every viewer's share holds. What it leaves out: a viewer's words for a card or a
move that shows only at a step of a type it has seen before and that falls to another viewer.

The page's text of each is written to ``$MUNCHLOG_SCREENSHOTS`` (else the test's temporary
folder), with screenshots of the finished game's table page, to be looked at.
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
from api.cli.demo import domain_event_from_view
from api.json_api.schemas import LegalSchema
from domain import evolve, initial_state
from service.legal import legal_view
from tests.api.helpers import demo_game
from tests.e2e.tablepage import TIMEOUT_MS, JudgeView, no_horizontal_overflow
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
STAGES = {"ccg": (40, None), "deluxe": (0, 40, None), "west": (None,)}
#: what a player never reads: raw values and identifiers, version numbers, codes, indexes,
#: abbreviations
JARGON = re.compile(
    r"\bnull\b|\bundefined\b|\bNaN\b|\[\]|[{}]|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b|#\d|\bversions? \d|\b[a-z]+/[a-z_]+\b"
    r"|\bability \d|\bindex\b|\bL\s?\d"
    # abbreviations: "P2" (power), "R1" (rank), "1hand", "3g", "2 tr", "300 gp", "dmg 1"
    r"|\b[A-Z]\d+\b|\b\d+(?!st\b|nd\b|rd\b|th\b)[a-z]+\b"
    r"|\b\d+\s?(?:g|gp|tr|pts?|hp|xp|dmg|lvl|lv)\b|\b(?:gp|tr|dmg|lvl|pts|hp|xp|atk)\b"
)
#: what a finished game no longer says
OVER = re.compile(r"\bto play\b|may not act|waits? (?:on|for)", re.I)


#: an address shown for people to type (the room's screen's link to the event page): its id's
#: pieces ("34dd") are not words
ADDRESS = re.compile(r"\bhttps?://\S+")


def jargon_in(text: str) -> list[str]:
    return sorted({m.group(0) for m in JARGON.finditer(ADDRESS.sub(" ", text))})


def jargon_found(texts: dict[str, str], folder: Path, key: str, page: str) -> dict[str, list[str]]:
    """The jargon in what each viewer's ``page`` showed of game ``key`` (each text kept in
    ``folder`` as ``words-<key>-<viewer>-<page>.txt``), by ``"<key> <viewer> <page>"``."""
    found = {}
    for who, text in texts.items():
        (folder / f"words-{key}-{who}-{page}.txt").write_text(text)
        words = jargon_in(text)
        if words:
            found[f"{key} {who} {page}"] = words
    return found


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
            for stage in STAGES[key]:
                options: dict[str, Any] = {} if ruleset == "munchkin-ccg" else {"seats": seats}
                game = demo_game(
                    app, seed=seed, ruleset=ruleset, max_actions=stage, dealing=dealing, **options
                )
                games[f"{key}-{stage if stage is not None else 'end'}"] = game
        yield {"base": f"http://127.0.0.1:{port}", "games": games}


#: What a player reads or hears of the page: its text, and the labels of its controls.
SHOWN_JS = """() => document.body.innerText + "\\n" + Array.from(
    document.querySelectorAll("[aria-label]:not([hidden]), [title]"))
    .filter((e) => e.offsetParent !== null)
    .map((e) => (e.getAttribute("aria-label") || "") + " " + (e.title || "")).join("\\n")"""


def shown(page: Any) -> str:
    """What a player reads or hears of the page (``SHOWN_JS``)."""
    text: str = page.evaluate(SHOWN_JS)
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


#: Waits (in the page) until ``done()`` holds, 10 s at most for one step.
UNTIL_JS = """async (done, what) => {
  const by = Date.now() + 10000;
  while (!done()) {
    if (Date.now() > by) throw new Error("the page never showed " + what);
    await new Promise((ok) => setTimeout(ok, 0));
  }
}"""


#: The viewer scrubbed through every step of the game in the page itself (its scrubber's
#: input, as a player drags it; one round trip to the browser for the whole game): every
#: line it showed, each once.
def each_version_js(body: str) -> str:
    """``async (versions) => {...}`` running ``body`` with ``shownNow`` (:data:`SHOWN_JS`),
    ``until`` (:data:`UNTIL_JS`) and ``seen`` (a set of lines) in scope; it returns ``seen``."""
    return (
        "async (versions) => {\n  const shownNow = "
        + SHOWN_JS
        + ";\n  const until = "
        + UNTIL_JS
        + ";\n  const seen = new Set();\n"
        + body
        + "\n  return [...seen];\n}"
    )


SCRUB_JS = each_version_js(
    """  const scrubber = document.getElementById("scrubber");
  const at = document.getElementById("version");
  for (const v of versions) {
    scrubber.value = String(v);
    scrubber.dispatchEvent(new Event("input"));
    await until(() => at.dataset.version === String(v), "step " + v);
    for (const line of shownNow().split("\\n")) seen.add(line.trim());
  }"""
)
#: The table page shown the game as it stood after each move: its ``GET /state`` asked
#: ``?at=`` that version (the API's own replay), its ``GET /legal`` answered with what the API
#: answered then (``window.munchlogReplay.legal``), the seeds it commits and reveals by itself
#: answered as recorded (kept from the server). Everything else it reads is the server's.
REPLAY_JS = """(() => {
  const real = window.fetch.bind(window);
  const answer = (body, status) => Promise.resolve(new Response(JSON.stringify(body),
    { status: status, headers: { "Content-Type": "application/json" } }));
  window.fetch = (input, init) => {
    const r = window.munchlogReplay;
    const url = typeof input === "string" ? input : input.url;
    const path = new URL(url, location.href).pathname;
    if (!r || !path.startsWith("/api/games/")) return real(input, init);
    if (path.endsWith("/state")) return real(url + "?at=" + r.at, init);
    if (path.endsWith("/legal")) return answer(r.legal[String(r.at)], 200);
    if (path.endsWith("/actions")) return answer({}, 201);
    return real(input, init);
  };
})();"""
#: Each version of ``versions`` in turn (a refresh, as the page does when it comes back
#: online), and on the shared tablet its hand shown too: every line shown, each once.
MOVES_JS = each_version_js(
    """  const take = () => { for (const line of shownNow().split("\\n")) seen.add(line.trim()); };
  const at = document.getElementById("version");
  for (const v of versions) {
    window.munchlogReplay.at = v;
    window.dispatchEvent(new Event("online"));
    await until(() => at.dataset.version === String(v), "version " + v);
    take();
    const show = document.getElementById("show-hand");
    if (show && show.offsetParent !== null) { show.click(); take(); }
  }"""
)


def steps_of(live: dict[str, Any], game: Any) -> list[dict[str, Any]]:
    """The game's events, as its judge sees them."""
    judge = JudgeView(live["base"], game.game_id, game.tokens["judge"])
    judge.catch_up()
    return judge.views


def after_each_move(
    game: Any, views: list[dict[str, Any]]
) -> tuple[list[tuple[int, str]], dict[str, Any]]:
    """The versions the game stood at between its moves (its creation, then the last event each
    command recorded: the events of one command share its ``received_at``) with the type of
    that event, and at each what ``GET /legal`` answered each viewer
    (``service.legal.legal_view`` of the judge's state then, as the route dumps it)."""
    state = initial_state()
    moves: list[tuple[int, str]] = []
    legal: dict[str, dict[str, Any]] = {who: {} for who in viewers_of(game)}
    for i, view in enumerate(views):
        state = evolve(state, domain_event_from_view(view))
        if i + 1 < len(views) and views[i + 1]["received_at"] == view["received_at"]:
            continue
        moves.append((view["version"], view["type"]))
        for who in legal:
            legal[who][str(view["version"])] = LegalSchema().dump(legal_view(state, who))
    return moves, legal


def signed_in(page: Any, url: str, token: str | None, ready: str) -> None:
    page.goto("about:blank")
    page.goto(url + (f"#token={token}" if token else ""))
    if token is None:
        page.locator("#watch").click()
    page.wait_for_selector(ready, state="attached")
    page.wait_for_timeout(150)  # the live line and the last redraw


def scanned(pages: dict[str, Any], shares: dict[str, list[int]], scan: str) -> dict[str, str]:
    """Each viewer's page run through its share of the versions at once (``scan`` in each
    page, all pages side by side in the one browser): what each showed."""
    for who, page in pages.items():
        page.evaluate("(vs) => { window.munchlogScan = (" + scan + ")(vs); }", shares[who])
    return {
        who: "\n".join(page.evaluate("() => window.munchlogScan")) for who, page in pages.items()
    }


def shared_out(steps: list[tuple[int, str]], viewers: list[str]) -> dict[str, list[int]]:
    """Which viewer looks at which step (``(version, type of its event)``): the first step of
    each event type every viewer, each other step one viewer, the viewers in turn."""
    shares: dict[str, list[int]] = {who: [] for who in viewers}
    looked: dict[str, set[str]] = {}
    turn = 0
    for version, kind in steps:
        seen = looked.setdefault(kind, set())
        chosen = [who for who in viewers if who not in seen]
        if not chosen:
            chosen, turn = [viewers[turn % len(viewers)]], turn + 1
        for who in chosen:
            shares[who].append(version)
            seen.add(who)
    return shares


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_viewer_at_every_step_speaks_a_players_words(
    browser: Any, live: dict[str, Any], key: str, tmp_path: Path
) -> None:
    """The viewer of the finished game at every step of it, as each seat, the table, the
    judge and a spectator in turn (``SCRUB_JS``): no jargon (``JARGON``) in what it showed."""
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    game = live["games"][f"{key}-end"]
    viewers = [*viewers_of(game), "spectator"]
    errors: list[str] = []
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, is_mobile=True)
    try:
        pages = {}
        for who in viewers:
            page = pages[who] = context.new_page()  # a tab each: its own token
            page.set_default_timeout(TIMEOUT_MS)
            page.on("pageerror", lambda e: errors.append(str(e)))
            token = None if who == "spectator" else game.tokens[who]
            url = f"{live['base']}/games/{game.game_id}"
            signed_in(page, url, token, "#version[data-version]:not([data-version=''])")
        steps = [(view["version"], view["type"]) for view in steps_of(live, game)]
        shares = shared_out(steps, viewers)
        texts = scanned(pages, shares, SCRUB_JS)
    finally:
        context.close()
    found = jargon_found(texts, folder, key, "viewer")
    assert not found, found
    assert not errors, errors


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_table_page_after_every_move_speaks_a_players_words(
    browser: Any, live: dict[str, Any], key: str, tmp_path: Path
) -> None:
    """The table page after every move of the game, as each seat, the table (the hand hidden,
    then shown) and the judge in turn (``REPLAY_JS``, ``MOVES_JS``): no jargon in what it
    showed; the finished game says who won and offers the replay and the export."""
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    game = live["games"][f"{key}-end"]
    moves, legal = after_each_move(game, steps_of(live, game))
    viewers = viewers_of(game)
    ending: list[str] = []
    errors: list[str] = []
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, is_mobile=True)
    context.add_init_script(REPLAY_JS)
    try:
        pages = {}
        for who in viewers:
            page = pages[who] = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.on("pageerror", lambda e: errors.append(str(e)))
            url = f"{live['base']}/games/{game.game_id}/play"
            signed_in(page, url, game.tokens[who], "#controls[data-version]:not([data-version=''])")
            ending.extend(f"{key} {who} table: {e}" for e in end_said(page))
            if who in ("A", "table"):
                shot = folder / f"words-{key}-{who}-table-end.png"
                page.screenshot(path=str(shot), full_page=True)
            page.evaluate("(l) => { window.munchlogReplay = { at: null, legal: l }; }", legal[who])
        texts = scanned(pages, shared_out(moves, viewers), MOVES_JS)
    finally:
        context.close()
    found = jargon_found(texts, folder, key, "table")
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


#: axe-core's rules of WCAG 2.1 A and AA, the violations only in its answer
WCAG_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
#: The games axe looks at: a CCG game, a 4-seat classic game in its middle, a finished one.
AXED = ("ccg-40", "deluxe-40", "west-end")


def axe_violations(pages: dict[str, Any], script: str) -> dict[str, list[str]]:
    """axe-core's WCAG 2.1 AA violations on each page as it is, run in all of them at once
    (axe put in once a page load), by label."""
    for page in pages.values():
        if not page.evaluate("() => !!window.axe"):
            page.evaluate(script)
        page.evaluate("(o) => { window.munchlogAxe = axe.run(document, o); }", WCAG_AA)
    found = {}
    for label, page in pages.items():
        bad = page.evaluate("() => window.munchlogAxe")["violations"]
        if bad:
            found[label] = [
                f"{v['id']}: {', '.join(n['target'][0] for n in v['nodes'][:3])}" for v in bad
            ]
    return found


def test_axe_finds_no_wcag_aa_violation(browser: Any, live: dict[str, Any]) -> None:
    """axe-core (``axe-playwright-python``'s script) in the suite's chromium: the table page
    and the viewer of a CCG game, a 4-seat classic game in its middle and a finished classic
    game, as every viewer: each seat, the table (its hand shown and not), the judge, and the
    viewer as a spectator, each at a phone's size and a desktop's. A tab each viewer of a
    game, each page loaded once and looked at in both sizes (the window resized), axe run in
    the tabs side by side."""
    from axe_playwright_python.sync_playwright import Axe

    script = Axe().axe_script
    found: dict[str, list[str]] = {}
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})

    def in_both_sizes(pages: dict[str, Any]) -> None:
        for size, (width, height) in SIZES.items():
            for page in pages.values():
                page.set_viewport_size({"width": width, "height": height})
            bad = axe_violations(pages, script)
            found.update({f"{label} {size}": b for label, b in bad.items()})

    try:
        for name in AXED:
            game = live["games"][name]
            base = f"{live['base']}/games/{game.game_id}"
            tabs = {who: context.new_page() for who in [*viewers_of(game), "spectator"]}
            for path in ("/play", ""):
                pages = {}
                for who, page in tabs.items():
                    token = None if who == "spectator" else game.tokens[who]
                    if token is None and path:
                        continue  # the table page needs a token
                    page.set_default_timeout(TIMEOUT_MS)
                    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
                    signed_in(page, base + path, token, "[data-version]:not([data-version=''])")
                    pages[f"{name} {who} {'table' if path else 'viewer'}"] = page
                in_both_sizes(pages)
                shown = tabs["table"].locator("#show-hand")
                if path and shown.count() and shown.is_visible():
                    shown.click()
                    in_both_sizes({f"{name} table table (hand shown)": tabs["table"]})
            for page in tabs.values():
                page.close()
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
