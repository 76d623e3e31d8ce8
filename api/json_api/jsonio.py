"""The app's JSON provider: Flask's, writing the same bytes faster.

Flask's :class:`~flask.json.provider.DefaultJSONProvider` calls :func:`json.dumps` (a new
encoder each time: sorted keys, ASCII only). :class:`FastJSONProvider` lets orjson write a
compact response (``separators=(",", ":")``, what Flask's ``response`` asks for out of debug
mode) whenever orjson's bytes are exactly the stdlib's: all ASCII (as ``ensure_ascii`` would
make them), no float :mod:`json` spells differently (``domain.envelope.spelled_as_json``), and
nothing orjson refuses (a key that is not a string, an integer past 64 bits). Anything else --
another separator, an indent, a non-ASCII character, a float such as ``1e-05`` -- is
:func:`json.dumps`'s, as before. Dates, dataclasses, decimals and UUIDs still go through
Flask's ``default``. ``tests/api/test_jsonio.py`` holds the two to the same bytes.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

from domain.envelope import spelled_as_json

COMPACT = (",", ":")


class FastJSONProvider(DefaultJSONProvider):
    """Flask's default provider; compact output by orjson when the bytes are the same."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.keys() == {"separators"} and kwargs["separators"] == COMPACT:
            option = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
            if self.sort_keys:
                option |= orjson.OPT_SORT_KEYS
            try:
                out: bytes = orjson.dumps(obj, default=self.default, option=option)
            except TypeError:  # orjson.JSONEncodeError: json.dumps writes it (or says why not)
                pass
            else:
                if spelled_as_json(out) and (
                    (out.isascii() and b"\x7f" not in out) or not self.ensure_ascii
                ):
                    return out.decode()
        return super().dumps(obj, **kwargs)
