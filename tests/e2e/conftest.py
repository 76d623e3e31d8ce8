"""The browser the viewer's end-to-end tests drive: Playwright (sync API) with Debian's
chromium, one per test module.

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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
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
