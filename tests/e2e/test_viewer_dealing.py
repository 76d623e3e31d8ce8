"""The replay viewer checks a server-dealt game itself (issue #25): in Chromium, against a live
``munchlog serve``, the judge asks the page to check the game's export or loads an export file,
and the page's own JavaScript (``api/static/chain.js``, ``dealing.js``, on WebCrypto) recomputes
the hash chain and re-derives the dealing, never calling ``/verify``.

An honest export says "dealing verified"; a forged one (a Dealt result or counter rewritten and
the chain re-sealed, tests/dealt.py) is named by its event, version and type, and that event is
one click away; a rewrite that was not re-sealed is named by the chain. Screenshots at a
phone's and a laptop's width go to ``$MUNCHLOG_SCREENSHOTS`` (else the test's folder).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from tests import dealt
from tests.api.helpers import ORGANIZER_TOKEN as ORGANIZER  # create_game posts with it
from tests.live import munchlog_serve

pytestmark = pytest.mark.e2e

TIMEOUT_MS = 30_000
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live ``munchlog serve`` on 127.0.0.1 (a secure context: WebCrypto is there) holding a
    finished server-dealt CCG game, played through an app in this process on the same store."""
    folder: Path = tmp_path_factory.mktemp("viewer-dealing")
    database = str(folder / "munchlog.sqlite")
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER,
            "MUNCHLOG_DATABASE_URL": database,
        }
    )
    served = ExitStack()
    port, _ = served.enter_context(
        munchlog_serve(folder, ORGANIZER, extra_env={"MUNCHLOG_DATABASE_URL": database})
    )
    try:
        played = dealt.play_server_dealt(app)
        yield {"base": f"http://127.0.0.1:{port}", "folder": folder, **played}
    finally:
        served.close()
        app.extensions["munchlog"].close()


@contextmanager
def viewer(
    browser: Any, live: dict[str, Any], who: str, size: dict[str, int]
) -> Iterator[tuple[Any, list[str]]]:
    """The game's viewer opened as ``who`` (``judge`` or a seat): the page and the URLs it
    requested."""
    game = live["game"]
    token = game["judge_token"] if who == "judge" else game["seats"][who]["token"]
    context = browser.new_context(viewport=size, is_mobile=size is PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(f"{live['base']}/games/{game['game_id']}#token={token}")
        page.wait_for_selector(f"#viewer-label[data-viewer='{who}']")
        yield page, requests
    finally:
        context.close()


def checked(page: Any) -> dict[str, str]:
    """Wait for the check to end; ``{"chain": result, "dealing": result, "text": ...}``."""
    page.wait_for_selector('#check-result[data-state="done"], #check-result[data-state="error"]')
    box = page.locator("#check-result")
    out = {"text": box.inner_text(), "state": box.get_attribute("data-state") or ""}
    for kind in ("chain", "dealing"):
        line = box.locator(f'[data-check="{kind}"]')
        out[kind] = line.get_attribute("data-result") if line.count() else ""
    return out


def load_file(page: Any, path: Path) -> dict[str, str]:
    page.evaluate("document.getElementById('check-result').dataset.state = ''")
    page.locator("#check-file").set_input_files(str(path))
    return checked(page)


def shot(page: Any, live: dict[str, Any], name: str) -> None:
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or live["folder"])
    page.locator("#check-panel").scroll_into_view_if_needed()
    page.screenshot(path=str(folder / f"dealing-{name}.png"))


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_judge_sees_dealing_verified_for_the_games_own_export(
    browser: Any, live: dict[str, Any], device: str
) -> None:
    size = PHONE if device == "phone" else LAPTOP
    with viewer(browser, live, "judge", size) as (page, requests):
        page.locator("#check-export").click()
        found = checked(page)
        assert (found["chain"], found["dealing"]) == ("verified", "verified"), found["text"]
        operations = len(dealt.versions_of(live["export"], "Dealt"))
        assert f"dealing verified: {operations} random operations re-derived" in found["text"]
        assert (
            f"hash chain verified: {len(dealt.records_of(live['export']))} events" in found["text"]
        )
        assert not [url for url in requests if "/verify" in url], requests  # never asked
        assert all(url.startswith(live["base"]) for url in requests)
        if device == "phone":
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, overflow
        shot(page, live, f"verified-{device}")


@pytest.mark.parametrize(
    ("what", "change", "words"),
    [
        ("result", dealt.other_card, "the recorded result is not the one the key gives"),
        ("counter", dealt.next_counter, "skips"),
    ],
)
@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_a_forged_export_is_named_by_its_event(
    browser: Any,
    live: dict[str, Any],
    tmp_path: Path,
    what: str,
    change: Any,
    words: str,
    device: str,
) -> None:
    version = dealt.versions_of(live["export"], "Dealt")[1]
    path = tmp_path / f"forged-{what}.json"
    path.write_text(dealt.forged(live["export"], version, change), encoding="utf-8")
    size = PHONE if device == "phone" else LAPTOP
    with viewer(browser, live, "judge", size) as (page, _):
        found = load_file(page, path)
        assert (found["chain"], found["dealing"]) == ("verified", "mismatch"), found["text"]
        named = page.locator('#check-result [data-check="dealing"] [data-version]')
        assert named.get_attribute("data-version") == str(version)
        assert named.get_attribute("data-type") == "Dealt"
        assert f"dealing does not verify at step {version}: Dealt: " in found["text"]
        assert words in found["text"]
        assert "dealing verified" not in found["text"]
        if device == "phone":
            overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, overflow
        shot(page, live, f"forged-{what}-{device}")
        named.click()  # the named event, shown
        page.wait_for_selector(f'#version[data-version="{version}"]')
        assert page.locator("#event .ev-type").get_attribute("data-type") == "Dealt"


def test_a_rewrite_not_resealed_is_named_by_the_chain(
    browser: Any, live: dict[str, Any], tmp_path: Path
) -> None:
    version = dealt.versions_of(live["export"], "Dealt")[2]
    path = tmp_path / "clumsy.json"
    path.write_text(
        dealt.forged(live["export"], version, dealt.other_die, reseal=False), encoding="utf-8"
    )
    with viewer(browser, live, "judge", LAPTOP) as (page, _):
        found = load_file(page, path)
        assert found["chain"] == "broken", found["text"]
        assert (
            f"hash chain broken at step {version}: Dealt: its fields do not give its hash"
            in (found["text"])
        )
        # the dealing of the events before the break checks, and says it is only that far
        assert found["dealing"] == "pending", found["text"]
        assert "before the break" in found["text"]
        page.locator("#check-file").set_input_files(
            {"name": "junk.json", "mimeType": "application/json", "buffer": b"{not json"}
        )
        page.wait_for_selector('#check-result[data-state="error"]')
        assert "cannot check the file junk.json" in page.locator("#check-result").inner_text()


def test_a_seat_checks_what_its_export_shows(browser: Any, live: dict[str, Any]) -> None:
    """A seat's export has no hashes and not every card: the page says what it could check,
    never "verified"."""
    with viewer(browser, live, "A", LAPTOP) as (page, _):
        page.locator("#check-export").click()
        found = checked(page)
        assert found["chain"] == "absent", found["text"]
        assert found["dealing"] == "partial", found["text"]  # B's opening hand is not A's
        assert "not shown to A" in found["text"]
        shot(page, live, "seat-A")
