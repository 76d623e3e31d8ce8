"""A ruling's penalty in the replay viewer (docs/rules.md F.5), in Debian's chromium against a real
``munchlog serve``: a tournament game in which the judge gives the opponent a caution and the
slow player a second slow-play warning of the event, which the penalty guide upgrades to a game
loss (IPG 3). The viewer's history of disputes and rulings, the ruling's pin on the timeline and
the ruling's own event show the penalty, the infraction by the guide's name and section, and
the upgrade with the guide's count ("at least the 2nd warning": the ruling records that it was
upgraded, not the count).

A game's rulings are public to every viewer of the game (docs/rules.md A.14), so the opponent's
seat and a spectator read the same words as the judge; they never see the slow player's hand,
nor anything of the round-1 ruling in another game (the event's record of penalties is the
player's own and the officials', ``GET /api/events/<id>/penalties``). Keyboard: Tab reaches the
ruling's link with a visible focus and Enter opens the ruling. No request leaves the server.
Screenshots at phone (390x844) and desktop (1280x800) size go to ``$MUNCHLOG_SCREENSHOTS`` or
the test's tmp folder (looked at when this test was written).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_penalties import SLOW_PLAY, rule
from tests.api.test_events import concede, my_game, open_event, pair, register
from tests.e2e.tablepage import no_horizontal_overflow, watched_page
from tests.live import serve_beside_app

pytestmark = pytest.mark.e2e

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
ROUND_ONE = "round one: four minutes over a single block"
INFRACTION = "Slow Play (IPG 3.3)"
UPGRADE = (
    "upgraded from warning as a repeat: at least the 2nd warning for this infraction in the event"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live server and, through an app in this process on the same SQLite file, a two-round
    event: in round 1 the slow player is warned for slow play; in round 2 it draws its opening
    hand, the judge cautions its opponent (no infraction named) and warns it for slow play
    again, which the guide upgrades to a game loss that ends the game."""
    folder: Path = tmp_path_factory.mktemp("viewer-penalties")
    with serve_beside_app(folder, ORGANIZER_TOKEN) as (port, app):
        client = app.test_client()
        event = open_event(client, name="Tuesday Munchkin Cup", rounds=2)
        eid, judge = event["event_id"], event["judge_token"]
        tokens = {p: register(client, eid, p) for p in ("ann", "bob", "cid", "dee")}
        first = pair(client, eid)["pairings"][0]
        slow = first["seats"]["A"]
        warning = {"kind": "warning", "seat": "A", "infraction": SLOW_PLAY}
        rule(client, judge, first["game_id"], ROUND_ONE, warning)
        for token in tokens.values():  # seat B concedes every round-1 game
            game = my_game(client, eid, 1, token)
            if game["seat"] == "B":
                concede(client, game)
        pair(client, eid)
        mine = my_game(client, eid, 2, tokens[slow])
        gid, seat = mine["game_id"], mine["seat"]
        other = next(
            {**game, "player": player}
            for player, token in tokens.items()
            if player != slow
            for game in [my_game(client, eid, 2, token)]
            if game["game_id"] == gid
        )
        # the slow player draws its opening hand (the table deals: it names its cards)
        created = client.get(f"/api/games/{gid}/events/1", headers=bearer(judge)).get_json()
        deck = next(s for s in created["event"]["data"]["seats"] if s["seat"] == seat)["deck"]
        hand = [c["id"] for c in deck[:6]]
        drawn = client.post(
            f"/api/games/{gid}/actions",
            json={"actions": [{"type": "draw_opening", "seat": seat, "cards": hand}]},
            headers=bearer(mine["token"]),
        )
        assert drawn.status_code == 201, drawn.get_json()
        caution = {"kind": "caution", "seat": other["seat"]}
        rule(client, judge, gid, "shuffled loosely", caution)
        ruled = rule(client, judge, gid, "slow play again", {**warning, "seat": seat})
        recorded = ruled["events"][0]
        assert recorded["type"] == "RulingRecorded"
        assert (recorded["data"]["penalty"], recorded["data"]["escalated_from"]) == (
            "game_loss",
            "warning",
        )
        yield {
            "base": f"http://127.0.0.1:{port}",
            "port": port,
            "gid": gid,
            "slow": (slow, seat),
            "other": other,
            "tokens": {"judge": judge, seat: mine["token"], other["seat"]: other["token"]},
            "hand": hand,
            "ruling": recorded["version"],
        }


def open_viewer(
    browser: Any, served: dict[str, Any], size: str, who: str
) -> tuple[Any, Any, list[str], list[str]]:
    """The game's viewer as ``who`` (a token's viewer, or ``spectator``: no token, the page's
    "watch" button), at the last event."""
    context, page, requested, errors = watched_page(browser, *SIZES[size])
    if who == "spectator":
        page.goto(f"{served['base']}/games/{served['gid']}")
        page.locator("#watch").click()
    else:
        page.goto(f"{served['base']}/games/{served['gid']}#token={served['tokens'][who]}")
    page.wait_for_selector(f"#viewer-label[data-viewer='{who}']")
    last = page.locator("#last-version").inner_text()
    page.wait_for_selector(f'#version[data-version="{last}"]')
    return context, page, requested, errors


def check_penalties(page: Any, served: dict[str, Any]) -> None:
    """The history of rulings and the ruling's pin tell both penalties in words."""
    slow, seat = served["slow"]
    other = served["other"]
    assert page.locator("#disputes > li").count() == 2
    caution = page.locator('#disputes li[data-dispute="d1"] .penalty')
    assert caution.get_attribute("data-penalty") == "caution"
    assert caution.inner_text() == f"Caution for {other['seat']} ({other['player']})"
    assert caution.locator(".pen-infraction, .pen-upgrade").count() == 0  # none named
    upgraded = page.locator('#disputes li[data-dispute="d2"] .penalty')
    assert upgraded.get_attribute("data-penalty") == "game_loss"
    assert upgraded.locator(".pen-kind").inner_text() == "Game loss"
    assert f"for {seat} ({slow})" in upgraded.inner_text()
    assert upgraded.locator(".pen-infraction").inner_text() == INFRACTION
    assert upgraded.locator(".pen-infraction").get_attribute("data-infraction") == SLOW_PLAY
    assert upgraded.locator(".pen-upgrade").inner_text() == UPGRADE
    pin = page.locator('.pin.ruling[data-ruling="d2"]')
    assert "penalty" in (pin.get_attribute("class") or "")
    assert f"{INFRACTION} · {UPGRADE}" in (pin.get_attribute("title") or "")
    # nothing of the event's other games: not the round-1 ruling, not an exact count
    text = page.inner_text("body")
    assert ROUND_ONE not in text and "round one" not in text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), "an identifier shown as it is stored"


def open_the_ruling_with_the_keyboard(page: Any, served: dict[str, Any]) -> None:
    """Tab reaches the ruling's link in the history (a visible focus); Enter opens the ruling,
    whose event tells the penalty in words."""
    for _ in range(400):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.rulingLink === 'd2'"):
            break
    else:
        raise AssertionError("the ruling's link is not reached with Tab")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none")
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#version[data-version="{served["ruling"]}"]')
    assert page.locator("#event .ev-type").get_attribute("data-type") == "RulingRecorded"
    keys = page.locator("#event dl dt").all_inner_texts()
    facts = dict(zip(keys, page.locator("#event dl dd").all_inner_texts(), strict=True))
    assert keys[:4] == ["ruling", "penalty", "infraction", "upgraded"]  # the note, then its penalty
    slow, seat = served["slow"]
    assert facts["penalty"] == f"game loss for {seat} ({slow})"
    assert facts["infraction"] == INFRACTION
    assert facts["upgraded"] == UPGRADE.removeprefix("upgraded ")
    assert "escalated from" not in facts and "player" not in facts
    narration = page.locator("#event .narration").inner_text()
    assert f"game loss for {seat}: {INFRACTION}; upgraded from warning as a repeat" in narration


def shoot(page: Any, tmp_path: Path, name: str) -> None:
    """The whole page, and the history of rulings on its own (``…-rulings.png``)."""
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    page.evaluate("window.scrollTo(0, 0)")
    shot = folder / f"viewer-penalties-{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    panel = page.locator("#disputes").locator("xpath=..")
    panel.screenshot(path=str(folder / f"viewer-penalties-{name}-rulings.png"))


def check_common(
    page: Any, requested: list[str], errors: list[str], served: dict[str, Any], size: str
) -> None:
    assert all(urlsplit(u).port == served["port"] for u in requested if u.startswith("http"))
    assert not errors, errors
    if size == "phone":
        no_horizontal_overflow(page)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_judge_sees_the_infraction_and_its_upgrade_in_the_rulings(
    browser: Any, served: dict[str, Any], size: str, tmp_path: Path
) -> None:
    context, page, requested, errors = open_viewer(browser, served, size, "judge")
    try:
        check_penalties(page, served)
        open_the_ruling_with_the_keyboard(page, served)
        check_common(page, requested, errors, served, size)
        shoot(page, tmp_path, f"judge-{size}")
    finally:
        context.close()


@pytest.mark.parametrize(
    ("who", "size"), [("other", "phone"), ("other", "desktop"), ("spectator", "desktop")]
)
def test_the_opponent_and_a_spectator_read_the_same_penalty_and_no_hidden_card(
    browser: Any, served: dict[str, Any], who: str, size: str, tmp_path: Path
) -> None:
    viewer = served["other"]["seat"] if who == "other" else who
    context, page, requested, errors = open_viewer(browser, served, size, viewer)
    try:
        check_penalties(page, served)
        open_the_ruling_with_the_keyboard(page, served)
        html = page.content()
        assert not [cid for cid in served["hand"] if cid in html]  # the slow player's hand
        _, seat = served["slow"]
        assert page.locator(f'[data-zone="{seat}-hand"] .c.back').count() == len(served["hand"])
        assert page.locator("#as-wrap").is_hidden()
        check_common(page, requested, errors, served, size)
        shoot(page, tmp_path, f"{who}-{size}")
    finally:
        context.close()
