"""The examples in the code's docstrings run as tests: a docstring that drifts from the code fails.

Every module of the product's packages is imported and its doctests run (``doctest`` as in
python-chess: the examples are the first documentation a reader meets).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("domain", "projections", "api", "adapters", "service")


def modules() -> list[str]:
    names = []
    for package in PACKAGES:
        names.append(package)
        for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            names.append(info.name)
    return sorted(names)


def test_the_packages_have_examples() -> None:
    found = sum(
        len(doctest.DocTestFinder().find(importlib.import_module(name))) for name in modules()
    )
    assert found > 30


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
