"""Which browser the page tests drive (tests/e2e/conftest.py): a named one, else Debian's
headless shell when installed, else the full Chromium."""

from __future__ import annotations

import pytest

from tests.e2e import conftest


def test_a_named_browser_wins() -> None:
    assert conftest.chromium_path({"MUNCHLOG_E2E_CHROMIUM": "/opt/c"}) == "/opt/c"


@pytest.mark.parametrize("installed", [True, False])
def test_the_headless_shell_when_installed_else_chromium(
    installed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = conftest.os.path.exists
    monkeypatch.setattr(
        conftest.os.path,
        "exists",
        lambda path: installed if path == conftest.HEADLESS_SHELL else real(path),
    )
    want = conftest.HEADLESS_SHELL if installed else conftest.FULL_CHROMIUM
    assert conftest.chromium_path({}) == want
