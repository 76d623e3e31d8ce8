"""The examples in the classic modules' docstrings run (docs/rules.md B)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "domain.classic",
    "domain.classic.cards",
    "domain.classic.corrections",
    "domain.classic.sets",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted and not result.failed
