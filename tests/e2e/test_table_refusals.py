"""The table page (issue #26 item 2) when a post does not simply succeed, in Debian's chromium:

* a refusal by the rules shown inline with its code, rule section and message: a tablet that
  lost the network while the seeds were being revealed comes back after the deadline, reveals
  its seed by itself and is told ``rule/seed_withheld (E.2)`` (this server keeps no deadline
  by itself, ``MUNCHLOG_DEADLINE_INTERVAL=0``: the late reveal reaches the rules, as one sent in
  the keeper's half second would; the keeper's own: tests/e2e/test_table_lost_seed.py);
* a stale page (the game moved on while the page did not hear of it): 409, the page refreshes
  and says so, and the move then goes through;
* a double click records once (the buttons are disabled while a post is under way), and an
  automatic retry after a lost answer sends the same ``Idempotency-Key``: the server replays
  its answer (``Idempotent-Replayed: true``) and the move is recorded once.

The route's own headers and 404: tests/api/test_table_route.py.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from api.cli.demo import demo_spec
from domain.dealing import seat_commitment
from tests.e2e.tablepage import TIMEOUT_MS, JudgeView, act, auth, ready_at
from tests.live import munchlog_serve

pytestmark = pytest.mark.e2e

ORGANIZER = "e2e-table-refusals-organizer"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("table-refusals")
    keeper_off = {"MUNCHLOG_DEADLINE_INTERVAL": "0"}  # the late reveal meets the rules
    with munchlog_serve(folder, ORGANIZER, extra_env=keeper_off) as (port, _env):
        yield f"http://127.0.0.1:{port}"


def create(base: str, **dealing: Any) -> dict[str, Any]:
    body = {**demo_spec(seed=0), "dealing": "server", **dealing}
    response = requests.post(f"{base}/api/games", json=body, headers=auth(ORGANIZER), timeout=30)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def post(base: str, game: dict[str, Any], seat: str, action: dict[str, Any]) -> None:
    response = requests.post(
        f"{base}/api/games/{game['game_id']}/actions",
        json={"actions": [{**action, "seat": seat}]},
        headers=auth(game["seats"][seat]["token"]),
        timeout=30,
    )
    assert response.status_code == 201, response.text


def open_page(
    browser: Any, base: str, game: dict[str, Any], seat: str, *, deaf: bool = False
) -> tuple[Any, Any]:
    """A page of ``seat``; ``deaf``: one that never hears of new events (no stream, no poll)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    if deaf:
        for path in ("**/stream-tickets", "**/events?**", "**/stream?**"):
            page.route(path, lambda route: route.abort())
    page.goto(f"{base}/games/{game['game_id']}/play#token={game['seats'][seat]['token']}")
    page.wait_for_selector(f'#acting-one[data-seat="{seat}"]')
    return context, page


def test_a_late_reveal_shows_its_rule_inline(served: str, browser: Any) -> None:
    game = create(served, reveal_timeout=1)
    judge = JudgeView(served, game["game_id"], game["judge_token"])
    context, page = open_page(browser, served, game, "A")
    try:
        judge.wait_past(1)  # the page committed A's seed by itself
        assert judge.types[-1] == "SeedCommitted"
        context.set_offline(True)  # the tablet loses the network
        seed = os.urandom(32)
        commitment = seat_commitment(game["game_id"], "B", seed)
        post(served, game, "B", {"type": "commit_seed", "commitment": commitment})
        post(served, game, "B", {"type": "reveal_seed", "seed": seed.hex()})
        time.sleep(1.5)  # A's reveal is due within a second of B's commitment
        context.set_offline(False)
        refusal = page.locator('#controls [data-refusal="rule/seed_withheld"]')
        refusal.wait_for(timeout=TIMEOUT_MS)
        assert refusal.get_attribute("data-rule") == "E.2"
        said = refusal.inner_text()  # the rule's words and its section, not its code
        assert said.startswith("Not allowed: seat A's seed") and said.endswith(
            "(rules, section E.2)"
        )
        judge.catch_up()
        assert judge.types.count("SeedWithheld") == 1 and "SeedRevealed" in judge.types
    finally:
        context.close()


def test_a_stale_page_refreshes_and_says_so(served: str, browser: Any) -> None:
    game = create(served, contributors=[])  # the server deals alone: no seeds
    judge = JudgeView(served, game["game_id"], game["judge_token"])
    context, page = open_page(browser, served, game, "A", deaf=True)
    try:
        ready_at(page, 1, "A")  # and there it stays: the page hears of no event
        post(served, game, "B", {"type": "draw_opening"})  # B's own device moves meanwhile
        act(page, {"type": "draw_opening", "seat": "A"})
        stale = page.locator('#controls [data-refusal="game/version_conflict"]')
        stale.wait_for(timeout=TIMEOUT_MS)
        assert stale.inner_text() == "someone moved first: here is the table now, choose again"
        ready_at(page, 3, "A")  # refreshed: the same move, now at the new version
        act(page, {"type": "draw_opening", "seat": "A"})
        judge.wait_past(3)
        assert judge.types.count("OpeningHandDrawn") == 2
    finally:
        context.close()


def test_a_double_click_and_a_retry_record_once(served: str, browser: Any) -> None:
    game = create(served, contributors=[])
    judge = JudgeView(served, game["game_id"], game["judge_token"])
    context, page = open_page(browser, served, game, "A")
    posts: list[dict[str, str]] = []
    page.on(
        "request",
        lambda r: posts.append(r.headers) if r.method == "POST" and "/actions" in r.url else None,
    )
    try:
        ready_at(page, 1, "A")
        act(page, {"type": "draw_opening", "seat": "A"}, double=True)
        ready_at(page, 3, "A")
        judge.catch_up()
        assert judge.types.count("OpeningHandDrawn") == 1
        assert len(posts) == 1, "the second click of a double click was posted"

        # B draws on its own device; A rolls for first, and the answer is lost on its way back
        post(served, game, "B", {"type": "draw_opening"})
        judge.catch_up()
        before = judge.version
        ready_at(page, before, "A")
        # the second click of a double click, however late it comes (after the answer, on
        # the button drawn since in the same place), presses nothing
        late = page.locator("#controls button").first
        late.dispatch_event("click", {"detail": 2})
        pressed = "b => b.disabled || b.dataset.armed === 'yes'"  # posting, or a concede armed
        assert not late.evaluate(pressed), "the second click of a double click pressed a button"
        lost: list[int] = []

        def lose_first_answer(route: Any) -> None:
            if not lost:
                lost.append(1)
                route.fetch()  # the server records the roll
                route.abort("connectionreset")
            else:
                route.continue_()

        page.route("**/actions", lose_first_answer)
        act(page, {"type": "roll_first", "seat": "A"})
        page.wait_for_selector("#moves-note:has-text('once: the server had it already')")
        judge.catch_up()
        assert judge.types.count("FirstPlayerRolled") == 1, "the retry recorded again"
        retried = posts[1:]
        assert len(retried) == 2, "no automatic retry after the lost answer"
        assert retried[0]["idempotency-key"] == retried[1]["idempotency-key"]
    finally:
        context.close()


def test_a_game_with_no_draw_told_by_name_asks_for_no_card_names(served: str, browser: Any) -> None:
    """The card names (``GET /api/rulesets/<ruleset>/cards``) are asked for when the first draw
    form is drawn: a server-dealt CCG game opened with the table's and the judge's tokens asks
    nothing that answers 404 (it asked for the CCG's names, which it does not ship, at start)."""
    game = create(served, contributors=[])
    for token in (game["table_token"], game["judge_token"]):
        context = browser.new_context(viewport={"width": 1024, "height": 768})
        page = context.new_page()
        asked: list[str] = []
        failed: list[str] = []
        page.on("request", lambda request, a=asked: a.append(request.url))
        page.on("response", lambda r, f=failed: f.append(r.url) if r.status >= 400 else None)
        try:
            page.goto(f"{served}/games/{game['game_id']}/play#token={token}")
            page.wait_for_selector("#who[data-viewer]", state="attached", timeout=TIMEOUT_MS)
            page.wait_for_selector("#controls button", state="attached", timeout=TIMEOUT_MS)
            assert asked and not [u for u in asked if "/api/rulesets/" in u], asked
            assert failed == []
        finally:
            context.close()
