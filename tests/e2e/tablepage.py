"""Driving the table page (``/games/<id>/play``, issue #26) from the end-to-end tests: a live
server, the judge's state folded from its log, and the page's controls found by the command
they send.

Every control of the page carries ``data-body``: the command's body as canonical JSON (keys
sorted, no spaces), so a test finds the button (or the picker's option and its button) that
sends exactly the command it chose, e.g. the demo's pick (``Family.demo_next``) among the
legal moves.
"""

from __future__ import annotations

import json
import time
from typing import Any

import requests

from api.cli.demo import domain_event_from_view
from domain import evolve, initial_state
from domain.fold import State

TIMEOUT_MS = 15_000


def canon(body: dict[str, Any]) -> str:
    """A command as the page spells it in ``data-body`` (table.js ``canon``)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class JudgeView:
    """The game as its judge sees it over HTTP, folded into the domain state (as the demo
    does): what the test decides from."""

    def __init__(self, base: str, game_id: str, judge_token: str) -> None:
        self.base, self.game_id, self.token = base, game_id, judge_token
        self.state: State = initial_state()
        self.version = 0
        self.types: list[str] = []
        self.views: list[dict[str, Any]] = []  # each event as the judge sees it

    def catch_up(self) -> State:
        while True:
            page = requests.get(
                f"{self.base}/api/games/{self.game_id}/events",
                params={"after": self.version, "limit": 1000},
                headers=auth(self.token),
                timeout=30,
            ).json()
            for view in page["events"]:
                self.state = evolve(self.state, domain_event_from_view(view))
                self.version = view["version"]
                self.types.append(view["type"])
                self.views.append(view)
            if page["next_after"] is None:
                return self.state

    def events_since(self, version: int) -> list[dict[str, Any]]:
        """The events after ``version`` caught up so far, as the judge sees them."""
        return [v for v in self.views if v["version"] > version]

    def wait_past(self, version: int, timeout: float = 15.0) -> State:
        """The state once the log has gone past ``version``."""
        deadline = time.monotonic() + timeout
        while True:
            self.catch_up()
            if self.version > version:
                return self.state
            if time.monotonic() > deadline:
                raise AssertionError(f"the game stayed at version {version}")
            time.sleep(0.05)


def ready_at(page: Any, version: int, seat: str | None = None) -> None:
    """Wait until ``page`` shows the moves of ``version`` (for ``seat``, if given)."""
    where = f'#controls[data-version="{version}"]'
    if seat is not None:
        where += f'[data-seat="{seat}"]'
    page.wait_for_selector(where, state="attached", timeout=TIMEOUT_MS)


def show_hand(page: Any) -> None:
    """On the shared tablet (the table's token), tap "show my hand" if the acting seat's hand
    and moves are hidden, as its player does."""
    shown = page.locator("#show-hand")
    if shown.count() and shown.is_visible():
        shown.click()
        page.wait_for_selector("#controls:not([hidden])")


def control(page: Any, body: dict[str, Any]) -> Any:
    """The page's control that sends ``body``: a button, or a picker's option."""
    found = page.locator("#controls").locator(f"[data-body='{canon(body)}']")
    assert found.count() == 1, f"the page offers no single control for {body}"
    return found


def tab_to(page: Any, selector: str, limit: int = 200) -> None:
    """Press Tab until the focused element matches ``selector`` (the keyboard only)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => !!document.activeElement?.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reaches {selector}")


def choose_by_keys(page: Any, selector: str, value: str) -> None:
    """Choose ``value`` in the <select> ``selector`` with the keyboard: Tab to it, then the
    arrow keys."""
    tab_to(page, selector)
    for _ in range(200):
        now = page.evaluate("(s) => document.querySelector(s).value", selector)
        if now == value:
            return
        index = page.evaluate(
            "([s, v]) => [...document.querySelector(s).options].findIndex((o) => o.value === v)",
            [selector, value],
        )
        at = page.evaluate("(s) => document.querySelector(s).selectedIndex", selector)
        page.keyboard.press("ArrowDown" if index > at else "ArrowUp")
    raise AssertionError(f"{value!r} never chosen in {selector}")


def act_by_keys(page: Any, body: dict[str, Any]) -> None:
    """Send ``body`` from ``page`` with the keyboard only: Tab to the control (tapping "show
    my hand" first on the shared tablet), the arrow keys in a picker, Enter."""
    shown = page.locator("#show-hand")
    if shown.count() and shown.is_visible():
        tab_to(page, "#show-hand")
        page.keyboard.press("Enter")
        page.wait_for_selector("#controls:not([hidden])")
    found = control(page, body)
    if found.evaluate("e => e.tagName") == "OPTION":
        kind = body["type"]
        choose_by_keys(
            page, f'#controls select[data-picker="{kind}"]', found.get_attribute("value")
        )
        tab_to(page, f'#controls button[data-picked="{kind}"]')
    else:
        tab_to(page, f"#controls [data-body='{canon(body)}']")
    page.keyboard.press("Enter")


def act(page: Any, body: dict[str, Any], *, double: bool = False) -> None:
    """Send ``body`` from ``page`` as a person would: pick it (a picker's option) and press
    its button (twice at once with ``double``)."""
    show_hand(page)
    found = control(page, body)
    if found.evaluate("e => e.tagName") == "OPTION":
        picker = page.locator(f'#controls select[data-picker="{body["type"]}"]')
        picker.select_option(found.get_attribute("value"))
        button = page.locator(f'#controls button[data-picked="{body["type"]}"]')
    else:
        button = found
    if double:
        button.dblclick()
    else:
        button.click()


def no_horizontal_overflow(page: Any) -> None:
    """The page is no wider than its viewport (nothing to scroll sideways)."""
    wide = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide[0] <= wide[1], f"the page is {wide[0]} px wide in a {wide[1]} px viewport"


def watched_page(browser: Any, width: int, height: int) -> tuple[Any, Any, list[str], list[str]]:
    """A new browser context at ``width`` x ``height`` and its page, watched: ``(context, page,
    requested, errors)``, the URLs it asks for (no request may leave the server) and its
    console errors and uncaught exceptions, as they come."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    requested: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, requested, errors
