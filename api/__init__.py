"""The HTTP edge of munchlog: parse, call the GameLog, dump. No rules here.

>>> from api import create_app  # doctest: +SKIP
"""

from api.app import create_app

__all__ = ["create_app"]
