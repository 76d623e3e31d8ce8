"""The browser the viewer's end-to-end tests drive: Playwright (sync API) with Debian's
chromium, one per test process (a pytest-xdist worker: a launch is 1.5-2.5 s), each module
handed it as it was: the contexts a module left open are closed after it.

Skipped with the reason when Playwright or ``/usr/bin/chromium`` is missing, unless
``MUNCHLOG_REQUIRE_E2E=1`` (CI), which turns that into a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
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
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    return None


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    reason = _unavailable()
    if reason is not None:
        if os.environ.get("MUNCHLOG_REQUIRE_E2E") == "1":
            pytest.fail(f"MUNCHLOG_REQUIRE_E2E=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

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
