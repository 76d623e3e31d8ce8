"""The event page (issue #27, "A page for an event") in Debian's chromium, against a real
``munchlog serve``: a five-player CCG event with round 1 played and round 2 paired, opened as a
spectator and as a player (its event token in the URL fragment), on a phone (390x844) and a
desktop (1280x800); and a three-player event that two left after round 1 of 3, finished early
(docs/rules.md F.2).

It checks what each may see (the player's own decklist and penalties and nobody else's, each
penalty's infraction by the penalty guide's name and section and an upgrade in the replay
viewer's words; the spectator neither),
that every game links to its replay and table page, the player's own game with its seat token
(the one ``my-game`` hands out) and every other as a spectator, that the token never appears
in a URL the page requests and the page asks nothing of another server, that a phone never
scrolls sideways, and that Tab reaches the game links with a visible focus. A screenshot of
each is saved (``$MUNCHLOG_SCREENSHOTS`` or the test's tmp folder; looked at when this test was
written).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.api.test_event_exports import PLAYERS, decks, rule
from tests.api.test_event_penalties import SLOW_PLAY
from tests.api.test_events import open_event, pair, play_round, register
from tests.e2e.tablepage import no_horizontal_overflow, watched_page
from tests.live import serve_beside_app

pytestmark = pytest.mark.e2e

ORGANIZER = ORGANIZER_TOKEN  # the one the API tests' helpers send
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live server and, through an app in this process on the same SQLite file, the event:
    round 1 played (every seat but the first concedes), round 2 paired and not played. The
    player the page is opened as (one of round 2's first table who played round 1) is warned
    for slow play in round 2, then warned again for it in its round-1 game, over by then: the
    guide upgrades that one to a game loss, which changes no result. And a second event,
    finished after round 1 of 3: two of its three players dropped."""
    folder: Path = tmp_path_factory.mktemp("event-page")
    with serve_beside_app(folder, ORGANIZER) as (port, app):
        client = app.test_client()
        event = open_event(client, name="Thursday Munchkin League", rounds=2)
        eid = event["event_id"]
        lists = decks()
        tokens = {p: register(client, eid, p, decklist=lists[p]) for p in PLAYERS}
        first = pair(client, eid)
        play_round(client, eid, 1, tokens, first)
        second = pair(client, eid)
        warned = second["pairings"][0]  # a seat of it that played round 1 is warned
        seat = "B" if warned["seats"]["B"] not in first["byes"] else "A"
        player = warned["seats"][seat]
        slow = {"kind": "warning", "seat": seat, "infraction": SLOW_PLAY}
        ruled = rule(client, event["judge_token"], warned["game_id"], "slow play", slow)
        before = next(p for p in first["pairings"] if player in p["seats"].values())
        earlier_seat = next(s for s, p in before["seats"].items() if p == player)
        upgraded = rule(
            client,
            event["judge_token"],
            before["game_id"],
            "slow play again",
            {**slow, "seat": earlier_seat},
        )
        assert upgraded["dispute"]["rulings"][0]["penalty"]["kind"] == "game_loss"
        ended = open_event(client, name="Three Left Early", rounds=3)
        ended_tokens = {p: register(client, ended["event_id"], p) for p in PLAYERS[:3]}
        ended_first = pair(client, ended["event_id"])
        play_round(client, ended["event_id"], 1, ended_tokens, ended_first)
        for name in ended_first["byes"] + [ended_first["pairings"][0]["seats"]["B"]]:
            dropped = client.post(
                f"/api/events/{ended['event_id']}/drops",
                json={"player": name},
                headers=bearer(ORGANIZER),
            )
            assert dropped.status_code == 201, dropped.get_json()
        yield {
            "base": f"http://127.0.0.1:{port}",
            "port": port,
            "eid": eid,
            "tokens": tokens,
            "decks": lists,
            "second": second,
            "player": player,
            "seat": seat,
            "ruling": ruled["version"],
            "upgraded": (before["game_id"], upgraded["version"]),
            "ended": ended["event_id"],
            "judge": event["judge_token"],
            "client": app.test_client(),
        }


def open_page(
    browser: Any, served: dict[str, Any], size: str, token: str | None, event: str = "eid"
) -> tuple[Any, Any, list[str], list[str]]:
    context, page, requested, errors = watched_page(browser, *SIZES[size])
    fragment = f"#token={token}" if token else ""
    page.goto(f"{served['base']}/events/{served[event]}{fragment}")
    page.wait_for_selector("#viewer-label[data-role]:not([data-role=''])")
    page.wait_for_selector(".round .pairing")
    return context, page, requested, errors


def links(page: Any) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.locator(".pairing a[data-game]").evaluate_all(
        "els => els.map(a => ({href: a.getAttribute('href'), kind: a.dataset.kind,"
        " game: a.dataset.game}))"
    )
    return found


def tab_to_a_game_link(page: Any) -> None:
    """Tab from the top reaches a game's link, with a focus ring drawn around it."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('a[data-game]')"):
            break
    else:
        raise AssertionError("no game link is reached with Tab")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none")


def shoot(page: Any, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("MUNCHLOG_SCREENSHOTS") or tmp_path)
    page.evaluate("window.scrollTo(0, 0)")
    shot = folder / f"event-{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def on_this_server(url: str, served: dict[str, Any]) -> bool:
    """A request to this server: its port, or its stream process's for the event's stream (the
    page follows it, issue #38)."""
    parts = urlsplit(url)
    return parts.port == served["port"] or (
        parts.hostname == "127.0.0.1" and parts.path.endswith("/stream")
    )


def check_common(
    page: Any, requested: list[str], errors: list[str], served: dict[str, Any]
) -> None:
    assert page.locator(".round").count() == 2  # round 2 first: the one being played
    assert page.locator(".round h3").all_inner_texts() == ["Round 2", "Round 1"]
    assert page.locator("#standings tbody tr").count() == len(PLAYERS)
    results = page.locator(".round[data-round='1'] .result").all_inner_texts()
    assert len(results) == 2 and all(" won 1-0" in r for r in results)
    assert page.locator(".round[data-round='2'] .result").all_inner_texts() == ["not over"] * 2
    pairs = served["second"]["pairings"]
    games = {p["game_id"] for p in pairs}
    shown = links(page)
    assert {x["game"] for x in shown} >= games
    for link in shown:
        path = link["href"].split("#")[0]
        want = f"/games/{link['game']}" + ("/play" if link["kind"] == "table" else "")
        assert path == want
    assert all(on_this_server(u, served) for u in requested if u.startswith("http"))
    assert not errors, errors


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_spectator_sees_pairings_results_standings_and_no_decklist(
    browser: Any, served: dict[str, Any], size: str, tmp_path: Path
) -> None:
    context, page, requested, errors = open_page(browser, served, size, None)
    try:
        assert page.inner_text("#viewer-label") == "viewing as a spectator"
        check_common(page, requested, errors, served)
        assert page.locator(".decklist").count() == 0
        assert page.locator("#penalties-panel").is_hidden()
        assert page.locator("#mine").is_hidden()
        assert all("#" not in x["href"] for x in links(page))  # every game as a spectator
        body = page.inner_text("body")
        for deck in served["decks"].values():
            assert not [e["name"] for e in deck if e["name"] in body]
        if size == "phone":
            no_horizontal_overflow(page)
        tab_to_a_game_link(page)
        shoot(page, tmp_path, f"spectator-{size}")
    finally:
        context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_player_sees_its_decklist_and_plays_its_game_with_its_seat_token(
    browser: Any, served: dict[str, Any], size: str, tmp_path: Path
) -> None:
    pairing = served["second"]["pairings"][0]  # the player was warned for slow play here
    player = served["player"]
    token = served["tokens"][player]
    own = {  # its game of each round, with the seat token my-game hands out
        game["game_id"]: game["token"]
        for game in (
            served["client"]
            .get(f"/api/events/{served['eid']}/rounds/{n}/my-game", headers=bearer(token))
            .get_json()
            for n in (1, 2)
        )
        if "game_id" in game  # a bye has none
    }
    mine = pairing["game_id"]
    context, page, requested, errors = open_page(browser, served, size, token)
    try:
        assert page.inner_text("#viewer-label") == f"viewing as player {player}"
        assert token not in page.url  # gone from the address bar at once
        check_common(page, requested, errors, served)
        # its own list, and nobody else's
        assert page.locator(".decklist").count() == 1
        assert page.locator(f'#players li[data-player="{player}"] .decklist').count() == 1
        page.locator(".decklist summary").click()
        listed = page.locator(".decklist li").all_inner_texts()
        assert listed == [f"{e['count']} \u00d7 {e['name']}" for e in served["decks"][player]]
        # its own games link with their seat tokens; every other game as a spectator
        for link in links(page):
            if link["game"] in own:
                assert link["href"].endswith(f"#token={own[link['game']]}"), link
            else:
                assert "#" not in link["href"], link
        assert page.locator("#mine").is_visible()
        table = page.locator(f'#my-games a[data-game="{mine}"][data-kind="table"]')
        assert table.get_attribute("href") == f"/games/{mine}/play#token={own[mine]}"
        assert not [u for u in requested if token in u or any(t in u for t in own.values())]
        # its own penalties, linked to the rulings in its games' replays (seen from its
        # seat), the infraction by the guide's name and section, the upgrade as the replay
        # viewer words it; round 1's first (the page's order: round, table, game, version)
        assert page.locator("#penalties-panel").is_visible()
        earlier, upgraded = served["upgraded"]
        listed = page.locator("#penalties > li")
        assert listed.count() == 2
        assert [listed.nth(i).get_attribute("data-player") for i in (0, 1)] == [player] * 2
        first_line, second_line = (listed.nth(i).inner_text().splitlines() for i in (0, 1))
        assert first_line[:2] == [
            f"{player} · game loss · Slow Play (IPG 3.3)",
            "Upgraded from warning as a repeat: at least the 2nd warning for this infraction "
            "in the event",
        ]
        assert second_line[0] == f"{player} · warning · Slow Play (IPG 3.3)"
        assert "tournament_error" not in page.inner_text("#penalties")
        ruling = page.locator(f'#penalties li[data-game="{mine}"] a[data-kind="ruling"]')
        assert ruling.get_attribute("href") == (
            f"/games/{mine}#token={own[mine]}&v={served['ruling']}"
        )
        before = page.locator(f'#penalties li[data-game="{earlier}"] a[data-kind="ruling"]')
        assert before.get_attribute("href") == (
            f"/games/{earlier}#token={own[earlier]}&v={upgraded}"
        )
        if size == "phone":
            no_horizontal_overflow(page)
            box = page.locator("#mine").bounding_box()
            assert box is not None and box["y"] < SIZES["phone"][1]  # its game in sight first
        tab_to_a_game_link(page)
        shoot(page, tmp_path, f"player-{size}")
        # the link opens its table page, signed in as its seat
        table.click()
        page.wait_for_selector(f"#who[data-viewer='{served['seat']}']")
    finally:
        context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_an_event_two_of_three_left_after_round_one_says_it_ended_early(
    browser: Any, served: dict[str, Any], size: str, tmp_path: Path
) -> None:
    context, page, requested, errors = open_page(browser, served, size, None, "ended")
    try:
        state = page.inner_text("#state")  # the winner named (issue #44): first of the standings
        assert state.startswith("Finished: won by ") and state.endswith(
            " · round 1 of 1 · 3 players"
        )
        note = page.locator("#end-note")
        assert note.is_visible()
        assert note.inner_text() == (
            "Ends early: 1 active player(s) left in round 1 of 3, fewer than a round needs "
            "(2): the event ends on the standings after round 1 (the rules, section F.2)"
        )
        assert page.locator(".round h3").all_inner_texts() == ["Round 1"]
        assert page.locator("#standings tbody tr.dropped").count() == 2
        assert page.inner_text("#standings-note").startswith("After the Swiss rounds (")
        assert all(on_this_server(u, served) for u in requested if u.startswith("http"))
        assert not errors, errors
        if size == "phone":
            no_horizontal_overflow(page)
        shoot(page, tmp_path, f"ended-{size}")
    finally:
        context.close()
    # the other event, still running, shows no such note
    context, page, requested, errors = open_page(browser, served, size, None)
    try:
        assert page.locator("#end-note").is_hidden()
    finally:
        context.close()


def test_the_export_links_say_which_export_is_complete(
    browser: Any, served: dict[str, Any], tmp_path: Path
) -> None:
    """Issue #44: next to the export links, each viewer reads what its export holds; only the
    judge's is complete, every other says what it leaves out, in words."""
    hidden = "the games' hidden cards"
    hashes = "their hashes (so no game's chain can be checked)"
    only = ". Only the judge's export is complete."
    player = served["player"]
    seen = {
        "spectator": (
            None,
            f"This export (the public one) leaves out {hidden}, {hashes}, the decklists, the "
            f"penalties, the judge calls and the staff{only}",
        ),
        "organizer": (ORGANIZER, f"Your export leaves out {hidden} and {hashes}{only}"),
        "player": (
            served["tokens"][player],
            "Your export leaves out the other players' hidden cards, every game's hashes (so no "
            "game's chain can be checked), the other players' decklists, their penalties, their "
            f"judge calls and the staff{only}",
        ),
        "judge": (
            served["judge"],
            "Your export is the complete one: every game whole, with its hidden cards and its "
            "hash chain.",
        ),
    }
    for who, (token, words) in seen.items():
        context, page, _, errors = open_page(browser, served, "desktop", token)
        try:
            assert page.inner_text("#export-note") == words, who
            assert not errors, errors
            if who == "organizer":
                page.locator("#summary").screenshot(path=str(tmp_path / "summary.png"))
                shoot(page, tmp_path, "organizer-export-note")
        finally:
            context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_event_pages_speak_a_players_words_and_pass_axe(
    browser: Any, served: dict[str, Any], size: str
) -> None:
    """Issue #40: both events' pages, as a spectator and as a player, hold no code, version
    number, snake_case or raw value (the table page's scan, tests/e2e/test_player_words.py),
    axe-core finds no WCAG 2.1 AA violation, and places read 1st, 2nd, 11th, 21st, 111th."""
    from axe_playwright_python.sync_playwright import Axe

    from tests.e2e.test_player_words import WCAG_AA, jargon_in

    found: dict[str, Any] = {}
    for event in ("eid", "ended"):
        for token in (None, served["tokens"][served["player"]]):
            if event == "ended" and token:
                continue
            context, page, _, errors = open_page(browser, served, size, token, event)
            try:
                label = f"{event} {'player' if token else 'spectator'}"
                text = page.inner_text("body")
                if jargon_in(text):
                    found[label] = jargon_in(text)
                violations = Axe().run(page, options=WCAG_AA).response["violations"]
                if violations:
                    found[label + " axe"] = [v["id"] for v in violations]
                ordinals = page.evaluate(
                    "() => [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map("
                    "window.munchlogPages.ordinal)"
                )
                assert ordinals == [
                    "1st", "2nd", "3rd", "4th", "11th", "12th", "13th",
                    "21st", "22nd", "23rd", "101st", "111th",
                ]  # fmt: skip
                assert not errors, errors
            finally:
                context.close()
    assert not found, found
