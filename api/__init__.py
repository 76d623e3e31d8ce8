"""The HTTP edge of munchlog: parse, call the GameLog, dump. No rules here.

The installed game families are registered first, before any route's schema reads their
fields (``domain.family.load_families``; the kernel imports none): importing any module of
``api`` imports this package first. ``create_app`` is imported when first asked for, so that a
command which needs no app (``munchlog export``, ``verify``, ...) does not load Flask and every
route (:mod:`api.settings` holds what they share).

>>> from api import create_app  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from domain.family import load_families

load_families()

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from api.app import create_app

        return create_app
    raise AttributeError(f"module 'api' has no attribute {name!r}")
