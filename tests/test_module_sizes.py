"""Every module of the product (``api``, ``service``, ``adapters``, ``projections``, ``domain``)
stays under :data:`MAX_LINES` lines (issue #23: one job per module, each readable in a
sitting), and so does the pages' JavaScript (``api/**/*.js``, issue #37). :data:`LEFT` names the modules still over it, with their size today: one of them may
shrink, none may grow, and any other module over the limit fails the test."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("domain", "service", "adapters", "projections", "api")
#: The pages' scripts, wherever they are served from under ``api``.
SCRIPTS = "api"
MAX_LINES = 800
#: Modules over the limit, each with the most lines it may have (its size when listed): to be
#: split, then taken off this list.
LEFT: dict[str, int] = {}


def sizes() -> dict[str, int]:
    paths = [path for layer in LAYERS for path in sorted((ROOT / layer).rglob("*.py"))]
    paths += sorted((ROOT / SCRIPTS).rglob("*.js"))
    return {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in paths
    }


def test_every_product_module_is_under_the_limit() -> None:
    found = sizes()
    assert len(found) > 50  # the walk sees the product
    assert len([name for name in found if name.endswith(".js")]) >= 5  # and the pages' scripts
    over = {name: n for name, n in found.items() if n >= MAX_LINES and name not in LEFT}
    assert over == {}, f"modules of {MAX_LINES} lines or more: split them by job"


def test_the_modules_left_over_the_limit_do_not_grow() -> None:
    found = sizes()
    grown = {name: found.get(name) for name, most in LEFT.items() if found.get(name, 0) > most}
    assert grown == {}


def test_the_list_of_modules_left_holds_only_modules_still_over() -> None:
    """A module split below the limit comes off :data:`LEFT` (so it cannot grow back)."""
    found = sizes()
    assert {name for name in LEFT if found.get(name, 0) < MAX_LINES} == set()
