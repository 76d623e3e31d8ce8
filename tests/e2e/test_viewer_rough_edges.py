"""The replay viewer's rough edges of issue #28 (item 11), each checked in Debian's chromium:

- a seat sees its own face-down stash by name (the API sends it the names);
- the judge's first screen (event 1, every deck) reads as lines, not JSON; the raw event only
  behind a "details" disclosure; no ``null``, ``[]``, snake_case or CamelCase shown anywhere;
- the sign-in page shows no replay behind the form, and a spectator (no token) can watch;
- six seats on a 1366x768 laptop: the combat above the fold, a turn bar that keeps every one of
  ~90 turns' numbers, a chart with a legend that picks one seat out;
- a phone (390x844): card names break between words only, nothing of a card or a stat is cut;
- a dispute's pin sits on the turn it contests, not on the dispute's own version.

Games: the CCG (2 seats), classic Deluxe with 3 and 6 seats (the 6-seat one plays over 100 turns),
played by the demo's commands (through the GameLog: ``tests.api.helpers.demo_game``) into the
store of a live ``munchlog serve``, each with a dispute about one of its turns (over HTTP).
Screenshots of every game, viewer and screen go to ``$MUNCHLOG_SCREENSHOTS`` (else the test's
temporary folder).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from api.cli.demo import DemoResult, FlaskTransport, file_demo_dispute
from tests.api.helpers import demo_game
from tests.live import munchlog_serve

pytestmark = pytest.mark.e2e

ORGANIZER = "e2e-rough-edges-organizer-token"
TIMEOUT_MS = 15_000
LAPTOP = (1366, 768)
PHONE = (390, 844)
#: game key -> (ruleset, seats, seed, disputed turn, the seat that looks)
GAMES = {
    "ccg": ("munchkin-ccg", 2, 3, 3, "A"),
    "three": ("munchkin-deluxe", 3, 1, 4, "B"),
    "six": ("munchkin-deluxe", 6, 4, 40, "B"),  # seed 4: 107 turns (the rules of #24)
}
#: what must never be shown to people: raw values and identifiers
RAW = re.compile(
    r"\bnull\b|\bundefined\b|\bNaN\b|\[\]|[{}]|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b"
)


def _get(transport: Any, path: str, token: str | None) -> dict[str, Any]:
    status, body = transport("GET", path, token=token)
    assert status == 200, body
    result: dict[str, Any] = body
    return result


def _combat_version(transport: Any, game: DemoResult, seat: str) -> int:
    """A version with a combat on the table in which ``seat`` does not fight (its second half)."""
    path = f"/api/games/{game.game_id}/events/"
    for version in range(game.version // 2, game.version):
        state = _get(transport, path + str(version), game.tokens["judge"])["state"]
        combat = state["combat"]
        if combat and combat["player"] != seat and combat["monsters"]:
            return version
    raise AssertionError("the demo game had no combat")


def _stash_version(transport: Any, game: DemoResult) -> int:
    """A CCG version at which A's stash holds face-down cards (A is told their names)."""
    for version in range(1, game.version):
        state = _get(transport, f"/api/games/{game.game_id}/events/{version}", game.tokens["A"])
        stash = state["state"]["seats"]["A"]["stash"]
        if len(stash) >= 2 and all(c.get("face") == "down" and c.get("name") for c in stash):
            return version
    raise AssertionError("A never stashed two cards")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder: Path = tmp_path_factory.mktemp("rough-edges")
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
        games: dict[str, dict[str, Any]] = {}
        for key, (ruleset, seats, seed, turn, seat) in GAMES.items():
            options: dict[str, Any] = {} if ruleset == "munchkin-ccg" else {"seats": seats}
            game = demo_game(app, seed=seed, ruleset=ruleset, **options)
            dispute = file_demo_dispute(transport, game, turn=turn)
            timeline = _get(transport, f"/api/games/{game.game_id}/timeline", game.tokens["judge"])
            entry = next(d for d in timeline["disputes"] if d["dispute_id"] == dispute)
            shown = (
                _stash_version(transport, game)
                if key == "ccg"
                else _combat_version(transport, game, seat)
            )
            games[key] = {
                "game": game,
                "seat": seat,
                "turn": turn,
                "dispute": entry,
                "turns": len(timeline["turns"]),
                "shown": shown,
                "last": timeline["version"],
            }
        yield {"base": f"http://127.0.0.1:{port}", "transport": transport, "games": games}
    finally:
        served.close()
        app.extensions["munchlog"].close()


@contextmanager
def viewer(
    browser: Any,
    live: dict[str, Any],
    key: str,
    who: str,
    version: int | None,
    size: tuple[int, int] = LAPTOP,
) -> Iterator[tuple[Any, list[str]]]:
    """The viewer of game ``key`` as ``who`` ("judge", a seat, or "spectator": the sign-in
    page's button), open at ``version`` (the last when None); yields the page and the page's
    errors."""
    game: DemoResult = live["games"][key]["game"]
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=size == PHONE
    )
    errors: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        fragment = f"v={version}" if version else ""
        if who == "spectator":
            page.goto(f"{live['base']}/games/{game.game_id}#{fragment}")
            page.locator("#watch").click()
        else:
            page.goto(f"{live['base']}/games/{game.game_id}#token={game.tokens[who]}&{fragment}")
        page.wait_for_selector(f"#viewer-label[data-viewer='{who}']")
        wanted = version or live["games"][key]["last"]
        page.wait_for_selector(f'#version[data-version="{wanted}"]')
        yield page, errors
    finally:
        context.close()


def goto_version(page: Any, version: int) -> None:
    page.locator("#scrubber").fill(str(version))
    page.wait_for_selector(f'#version[data-version="{version}"]')


def names_in(page: Any, zone: str) -> list[str]:
    return list(
        page.locator(f'[data-zone="{zone}"] .c[data-name]').evaluate_all(
            "els => els.map(e => e.dataset.name)"
        )
    )


def raw_in(text: str) -> list[str]:
    return sorted({m.group(0) for m in RAW.finditer(text)})


# ---------------------------------------------------------------------------- the stash


def test_a_seat_sees_its_own_face_down_stash_by_name(browser: Any, live: dict[str, Any]) -> None:
    ccg = live["games"]["ccg"]
    game: DemoResult = ccg["game"]
    path = f"/api/games/{game.game_id}/events/{ccg['shown']}"
    mine = _get(live["transport"], path, game.tokens["A"])["state"]["seats"]
    theirs = _get(live["transport"], path, game.tokens["B"])["state"]["seats"]
    stash = [c["name"] for c in mine["A"]["stash"]]
    with viewer(browser, live, "ccg", "A", ccg["shown"]) as (page, errors):
        assert names_in(page, "A-stash") == stash
        assert page.locator('[data-zone="A-stash"] .c.back').count() == 0
        marked = page.locator('[data-zone="A-stash"] .c.face-down').count()
        assert marked == len(stash)  # still marked face down
        # what the API does not name for A stays a back
        unnamed = [c for c in mine["B"]["stash"] if not c.get("name")]
        assert page.locator('[data-zone="B-stash"] .c.back').count() == len(unnamed)
        assert not errors, errors
    # and B sees of A's stash only the names it is told (cards it saw face up), the rest backs
    told = [c["name"] for c in theirs["A"]["stash"] if c.get("name")]
    assert len(told) < len(stash)
    with viewer(browser, live, "ccg", "B", ccg["shown"]) as (page, _):
        assert names_in(page, "A-stash") == told
        backs = page.locator('[data-zone="A-stash"] .c.back').count()
        assert backs == len(stash) - len(told)


# ---------------------------------------------------------------------------- readable events


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_judge_first_screen_reads_as_lines_not_json(
    browser: Any, live: dict[str, Any], key: str
) -> None:
    with viewer(browser, live, key, "judge", 1) as (page, errors):
        shown = page.locator("#event").inner_text()
        assert len(shown) < 2000, len(shown)  # every deck summed up, not printed
        assert '"' not in shown and not raw_in(shown), raw_in(shown)
        assert "by the rules" in shown
        assert re.search(r"\d+ cards: Sample [A-Z]", shown), shown  # decks: counted, by name
        head = page.locator("#event .ev-type")
        assert head.get_attribute("data-type") in ("GameCreated", "ClassicGameCreated")
        assert head.inner_text() in ("Game created", "Classic game created")
        raw = page.locator("#event details")
        assert raw.count() == 1 and raw.get_attribute("open") is None
        assert page.locator("#event details pre").is_hidden()
        raw.locator("summary").click()
        assert page.locator("#event details pre").inner_text().lstrip().startswith("{")
        assert not errors, errors


def _first_of_each_type(live: dict[str, Any], key: str) -> list[int]:
    game: DemoResult = live["games"][key]["game"]
    timeline = _get(live["transport"], f"/api/games/{game.game_id}/timeline", game.tokens["judge"])
    first: dict[str, int] = {}
    for entry in timeline["timeline"]:
        first.setdefault(entry["type"], entry["version"])
    return sorted(first.values())


@pytest.mark.parametrize("who", ["judge", "seat", "spectator"])
@pytest.mark.parametrize("key", sorted(GAMES))
def test_no_raw_value_is_shown_for_any_kind_of_event(
    browser: Any, live: dict[str, Any], key: str, who: str
) -> None:
    """The first event of every type the game holds, and the table after it: no ``null``,
    ``[]``, ``{}``, snake_case or CamelCase in anything the page shows."""
    viewer_name = live["games"][key]["seat"] if who == "seat" else who
    versions = _first_of_each_type(live, key)
    assert len(versions) > 20
    with viewer(browser, live, key, viewer_name, versions[0]) as (page, errors):
        found: dict[int, list[str]] = {}
        for version in versions:
            goto_version(page, version)
            text = page.evaluate("document.body.innerText")
            if raw_in(text):
                found[version] = raw_in(text)
        assert not found, found
        assert not errors, errors


# ---------------------------------------------------------------------------- sign in, spectator


def test_the_sign_in_page_shows_no_replay_and_a_spectator_can_watch(
    browser: Any, live: dict[str, Any]
) -> None:
    three = live["games"]["three"]
    game: DemoResult = three["game"]
    context = browser.new_context(viewport={"width": LAPTOP[0], "height": LAPTOP[1]})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        sent: list[str | None] = []
        page.on("request", lambda r: sent.append(r.headers.get("authorization")))
        page.goto(f"{live['base']}/games/{game.game_id}#v={three['shown']}")
        page.wait_for_selector("#signin:not([hidden])")
        assert page.locator("#signin").is_visible()
        for hidden in ("#app", ".timeline", "#scrubber", "#turnbar", "#event", "#fight"):
            assert page.locator(hidden).is_hidden(), hidden
        assert page.locator("#app").bounding_box() is None

        watch = page.locator("#watch")
        assert watch.is_visible() and "spectator" in watch.inner_text()
        watch.click()
        page.wait_for_selector("#viewer-label[data-viewer='spectator']")
        page.wait_for_selector(f'#version[data-version="{three["shown"]}"]')
        assert page.locator("#signin").is_hidden() and page.locator("#app").is_visible()
        assert sent and not any(sent), sent  # no token, no Authorization header
        # a spectator sees every hand as backs only
        judge = _get(
            live["transport"],
            f"/api/games/{game.game_id}/events/{three['shown']}",
            game.tokens["judge"],
        )["state"]
        for seat, s in judge["seats"].items():
            assert names_in(page, f"{seat}-hand") == []
            assert page.locator(f'[data-zone="{seat}-hand"] .c.back').count() == len(s["hand"])
        # the tab stays a spectator's on reload, until it signs in
        page.reload()
        page.wait_for_selector("#viewer-label[data-viewer='spectator']")
        assert page.locator("#sign-out").inner_text() == "sign in"
        page.locator("#sign-out").click()
        page.wait_for_selector("#signin:not([hidden])")
        assert page.locator("#app").is_hidden()
    finally:
        context.close()


# ---------------------------------------------------------------------------- six seats


@pytest.mark.parametrize("who", ["judge", "B", "spectator"])
def test_six_seats_on_a_laptop_show_the_combat_above_the_fold(
    browser: Any, live: dict[str, Any], who: str
) -> None:
    six = live["games"]["six"]
    with viewer(browser, live, "six", who, six["shown"], LAPTOP) as (page, errors):
        assert page.locator(".seat[data-seat]").count() == 6
        for part in ("[data-combat]", '[data-strength="player"]', '[data-strength="monsters"]'):
            box = page.locator(part).bounding_box()
            assert box is not None and box["y"] + box["height"] <= LAPTOP[1], (part, box)
        monster = page.locator("[data-combat] [data-monster]").first.bounding_box()
        assert monster is not None and monster["y"] < LAPTOP[1] - 40, monster
        assert page.evaluate("window.scrollY") == 0
        assert not errors, errors


def test_ninety_turns_each_keep_their_number_on_the_turn_bar(
    browser: Any, live: dict[str, Any]
) -> None:
    six = live["games"]["six"]
    assert six["turns"] >= 80  # the demo's six-seat game is a long one
    with viewer(browser, live, "six", "judge", None, LAPTOP) as (page, _):
        bars = page.locator(".tb-turn").evaluate_all(
            """els => els.map(e => ({turn: e.dataset.turn, text: e.textContent,
                width: e.getBoundingClientRect().width, fits: e.scrollWidth <= e.clientWidth}))"""
        )
        assert len(bars) >= six["turns"]
        assert all(b["text"] == b["turn"] for b in bars), [
            b for b in bars if b["text"] != b["turn"]
        ]
        assert all(b["fits"] and b["width"] >= 18 for b in bars), min(b["width"] for b in bars)
        # the last turn is in sight at the last version, the first at the first
        for version, turn in ((six["last"], None), (1, "0")):
            goto_version(page, version)
            current = page.locator(".tb-turn.current").first
            if turn is not None:
                assert current.get_attribute("data-turn") == turn
            box = current.bounding_box()
            wrap = page.locator("#track-wrap").bounding_box()
            assert box is not None and wrap is not None
            assert (
                wrap["x"] <= box["x"] and box["x"] + box["width"] <= wrap["x"] + wrap["width"] + 1
            )
        # a turn's stretch is a way in: click turn 80
        page.locator('.tb-turn[data-turn="80"]').first.click()
        page.wait_for_selector("#turn:text-is('80')")


def test_the_six_seat_chart_has_a_legend_that_picks_a_seat_out(
    browser: Any, live: dict[str, Any]
) -> None:
    with viewer(browser, live, "six", "judge", None, LAPTOP) as (page, _):
        legend = page.locator("#chart [data-legend]")
        assert legend.evaluate_all("els => els.map(e => e.dataset.legend)") == list("ABCDEF")
        assert "Erin" in page.locator('#chart [data-legend="E"]').inner_text()
        paths = page.locator("#chart svg[data-chart='level'] path[data-seat]")
        assert paths.count() == 6
        assert page.locator("#chart path[data-dim]").count() == 0
        page.locator('#chart [data-legend="E"]').click()
        dim = page.locator("#chart svg[data-chart='level'] path[data-dim]")
        assert dim.evaluate_all("els => els.map(e => e.dataset.seat)") == list("ABCDF")
        picked = page.locator("#chart svg[data-chart='level'] path[data-focus]")
        assert picked.get_attribute("data-seat") == "E"
        assert page.locator('#chart [data-legend="E"]').get_attribute("aria-pressed") == "true"
        # equal values do not hide each other: no two seats' lines are drawn the same
        drawn = paths.evaluate_all("els => els.map(e => e.getAttribute('d'))")
        assert len(set(drawn)) == 6
        page.locator('#chart [data-legend="E"]').click()
        assert page.locator("#chart path[data-dim]").count() == 0


# ---------------------------------------------------------------------------- every screen

#: For each card name on the page: the places where a line ends inside a word ("Munch|kin").
MID_WORD_JS = """els => els.flatMap(n => {
  const node = n.firstChild;
  if (!node || node.nodeType !== 3) return [];
  const text = node.textContent, bad = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
    const rects = r.getClientRects();
    if (!rects.length || text[i] === " ") continue;
    const t = Math.round(rects[0].top);
    if (top !== null && t > top + 2 && !/[\\s\\-]/.test(text[i - 1])) bad.push(text.slice(0, i) + "|" + text.slice(i));
    top = t;
  }
  return bad;
})"""
#: Every card, and every stat of a seat's head, whose text does not fit its box (cut off).
CUT_JS = """() => {
  const out = [];
  for (const c of document.querySelectorAll('#app .c:not(.back)'))
    if (c.scrollHeight > c.clientHeight + 1 || c.scrollWidth > c.clientWidth + 1) out.push(c.dataset.name);
  for (const s of document.querySelectorAll('#app .seat-head > *')) {
    const r = s.getBoundingClientRect(), box = s.closest('.seat').getBoundingClientRect();
    if (r.right > box.right + 1 || s.scrollWidth > s.clientWidth + 1) out.push(s.textContent);
  }
  return out;
}"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("who", ["judge", "seat", "spectator"])
@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_viewer_and_screen_shows_whole_names_and_stats(
    browser: Any, live: dict[str, Any], tmp_path: Path, key: str, who: str, device: str
) -> None:
    """2, 3 and 6 seats, as judge, a seat and a spectator, on a laptop and a phone: card names
    wrap between words only, no card's text and no stat is cut, a phone never scrolls
    sideways; a screenshot of each."""
    entry = live["games"][key]
    viewer_name = entry["seat"] if who == "seat" else who
    size = PHONE if device == "phone" else LAPTOP
    with viewer(browser, live, key, viewer_name, entry["shown"], size) as (page, errors):
        names = page.locator("#app .c .n")
        assert names.count() > 3
        assert names.evaluate_all(MID_WORD_JS) == []
        assert page.evaluate(CUT_JS) == []
        styles = names.evaluate_all(
            "els => [...new Set(els.map(e => { const s = getComputedStyle(e);"
            " return [s.wordBreak, s.overflowWrap, s.hyphens].join(' '); }))]"
        )
        assert styles == ["normal normal manual"], styles
        if device == "phone":
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, overflow
        assert not errors, errors
        folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
        page.screenshot(path=str(folder / f"rough-{key}-{who}-{device}.png"))


# ---------------------------------------------------------------------------- dispute pins


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_dispute_pin_sits_on_the_turn_it_contests(
    browser: Any, live: dict[str, Any], key: str
) -> None:
    entry = live["games"][key]
    dispute = entry["dispute"]
    assert dispute["turn"] == entry["turn"] and dispute["from_version"] < dispute["opened_at"]
    with viewer(browser, live, key, "judge", None, LAPTOP) as (page, _):
        pin = page.locator(f'.pin.open[data-dispute="{dispute["dispute_id"]}"]')
        assert pin.get_attribute("data-version") == str(dispute["from_version"])
        assert pin.get_attribute("data-turn") == str(entry["turn"])
        pin.scroll_into_view_if_needed()
        turn = page.locator(f'.tb-turn[data-turn="{entry["turn"]}"]').first.bounding_box()
        box = pin.bounding_box()
        assert turn is not None and box is not None
        middle = box["x"] + box["width"] / 2
        assert turn["x"] <= middle <= turn["x"] + turn["width"], (middle, turn)
        pin.click()
        page.wait_for_selector(f'#version[data-version="{dispute["from_version"]}"]')
        assert page.locator("#turn").inner_text() == str(entry["turn"])
        # the list names the contested turn too, and leads there
        page.locator("#last").click()
        page.locator(f'[data-contested="{dispute["dispute_id"]}"]').click()
        page.wait_for_selector(f'#version[data-version="{dispute["from_version"]}"]')
