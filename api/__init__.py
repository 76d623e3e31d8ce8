"""The HTTP edge of munchlog: parse, call the GameLog, dump. No rules here.

The app registers the installed game families first, before any route's schema reads their
fields (``domain.family.load_families``; the kernel imports none).

>>> from api import create_app  # doctest: +SKIP
"""

from domain.family import load_families

load_families()

from api.app import create_app  # noqa: E402  (after the families: the routes read their fields)

__all__ = ["create_app"]
