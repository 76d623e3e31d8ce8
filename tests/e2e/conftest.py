"""The browser the viewer's end-to-end tests drive: Playwright (sync API) with Debian's
chromium, one per test process (a pytest-xdist worker: a launch is 1.5-2.5 s), each module
handed it as it was: the contexts a module left open are closed after it.

A page a test acts on is brought to the front first (:func:`_front_page_first`): in one
context only the page opened last is in front, and Chromium gives a page behind it about one
animation frame a second and one timer wake-up a second, so each click on it (Playwright waits
for two frames in which the element holds still) took about 2 s instead of 0.05 s, and the
page's own timers ran late: 54 of test_event_run's 58 s were such waits.

The browser is Debian's Chromium: its headless shell (``chromium-headless-shell``, the build
of the same Chromium for headless runs that Playwright itself uses by default) when installed,
else ``/usr/bin/chromium``; ``MUNCHLOG_E2E_CHROMIUM`` names another (``/usr/bin/chromium`` to
run every page test in the full browser). The shell does the same pages' work with about 40 %
less CPU (the viewer's word scan: 25-30 s of the browser's and the server's CPU against 43-44 s
with ``/usr/bin/chromium``), and the suite is CPU-bound on 2 cores.

Skipped with the reason when Playwright or the browser is missing, unless
``MUNCHLOG_REQUIRE_E2E=1`` (CI), which turns that into a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM = "/usr/bin/chromium"


def chromium_path(environ: Mapping[str, str] = os.environ) -> str:
    """The browser the page tests drive (module docstring)."""
    named = environ.get("MUNCHLOG_E2E_CHROMIUM")
    if named:
        return named
    return HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else FULL_CHROMIUM


CHROMIUM = chromium_path()
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _unavailable() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "python playwright is not installed (pip install playwright)"
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing (apt-get install chromium-headless-shell, or chromium)"
    return None


#: The Page and Locator methods that act on a page or wait on its rendering or timers.
_ACTING = (
    "check",
    "click",
    "dblclick",
    "dispatch_event",
    "evaluate",
    "fill",
    "focus",
    "hover",
    "press",
    "screenshot",
    "select_option",
    "set_checked",
    "tap",
    "type",
    "uncheck",
    "wait_for",
    "wait_for_function",
    "wait_for_selector",
)


def _front_page_first() -> None:
    """Wrap Playwright's acting methods (module docstring): the page acted on is brought to the
    front of its context first, when it is not there already (one round trip, only on a switch)."""
    from playwright.sync_api import _generated as api

    if getattr(api.Page, "_munchlog_front", False):
        return
    front: dict[int, Any] = {}

    def bring(page: Any) -> None:
        key = id(page.context)
        if front.get(key) is not page and not page.is_closed():
            page.bring_to_front()
            front[key] = page

    def wrapped(method: Any, page_of: Any) -> Any:
        def act(self: Any, *args: Any, **kwargs: Any) -> Any:
            bring(page_of(self))
            return method(self, *args, **kwargs)

        return act

    for cls, page_of in ((api.Page, lambda p: p), (api.Locator, lambda loc: loc.page)):
        for name in _ACTING:
            if hasattr(cls, name):
                setattr(cls, name, wrapped(getattr(cls, name), page_of))
    new_page = api.BrowserContext.new_page

    def opened(self: Any, *args: Any, **kwargs: Any) -> Any:
        page = new_page(self, *args, **kwargs)
        front[id(self)] = page  # a new page opens in front
        return page

    api.BrowserContext.new_page = opened  # type: ignore[method-assign]
    api.Page._munchlog_front = True  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    reason = _unavailable()
    if reason is not None:
        if os.environ.get("MUNCHLOG_REQUIRE_E2E") == "1":
            pytest.fail(f"MUNCHLOG_REQUIRE_E2E=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    _front_page_first()
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Iterator[Any]:
    """The process's chromium for one module; the contexts (and their pages) the module left
    open are closed after it (they went with the module's own browser before)."""
    yield chromium
    for context in list(chromium.contexts):
        context.close()
