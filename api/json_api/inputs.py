"""What any request may hold, checked before a schema sees it: one reader for every JSON body
and one check for every query string (``api.json_api.errors.Parser`` and ``POST /games/import`` use them).

* **UTF-8**: a body that does not decode is 400 ``request/invalid_encoding``.
* **Nesting**: at most :data:`MAX_DEPTH` arrays and objects inside each other, measured on the
  text before ``json`` recurses into it: 400 ``request/too_deep``.
* **Numbers**: integers from :data:`MIN_INT` to :data:`MAX_INT` (a 64-bit integer, what every
  store and client can hold), finite floats, no ``NaN`` or ``Infinity`` (not JSON):
  400 ``request/invalid_body`` naming the field (schemas and rules bound them further).
* **Strings**: no U+0000 and no lone surrogate (U+D800..U+DFFF), in values and in keys: PostgreSQL
  cannot store either in text and UTF-8 cannot encode a lone surrogate. 400
  ``request/invalid_body`` naming the field.

The checks cost almost nothing on the everyday body: the depth is measured only when the text
holds more than :data:`MAX_DEPTH` opening brackets, and the strings are walked only when the text
holds an escape that could be U+0000 or a surrogate (raw ones are not valid JSON or UTF-8).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from itertools import accumulate, repeat
from math import isinf
from operator import sub
from typing import Any

MAX_DEPTH = 32
MAX_INT = 2**63 - 1
MIN_INT = -(2**63)
BAD_STRING = "no U+0000 and no lone surrogate (U+D800 to U+DFFF)"
BAD_KEY = "a key with U+0000 or a lone surrogate"
BAD_NUMBER = f"a number from {MIN_INT} to {MAX_INT}"

_INT_CHARS = len(str(MIN_INT))
_ESCAPE = re.compile(rb"\\.", re.DOTALL)
#: Every byte but brackets and quotes (``bytes.translate`` deletes them).
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
#: Openers become 2 and closers 0, so ``byte - 1`` is the change in depth.
_DEPTH_STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
#: An escape that may decode to U+0000 or a surrogate (a valid pair is checked after decoding).
_SUSPECT_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")
_BAD_CHAR = re.compile("[\x00\ud800-\udfff]")


class InvalidInput(Exception):
    """An input that breaks a rule of this module (``api.json_api.errors`` answers 400 with ``code``,
    ``message`` and ``fields``)."""

    def __init__(self, code: str, message: str, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields


class _OutOfRange(ValueError):
    """A number in the body that no field may hold (raised while decoding, then located)."""


class _Unlocated:
    """Stands for an out-of-range number while the body is decoded again to find it."""

    __slots__ = ()


_UNLOCATED = _Unlocated()


def _bounded_int(text: str) -> int:
    if len(text) > _INT_CHARS:  # before int(): a 5,000-digit literal exceeds Python's limit
        raise _OutOfRange(text)
    value = int(text)
    if not MIN_INT <= value <= MAX_INT:
        raise _OutOfRange(text)
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if isinf(value):  # 1e400
        raise _OutOfRange(text)
    return value


def _not_json(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not JSON", name, 0)


def _marked_int(text: str) -> Any:
    try:
        return _bounded_int(text)
    except _OutOfRange:
        return _UNLOCATED


def _marked_float(text: str) -> Any:
    try:
        return _finite_float(text)
    except _OutOfRange:
        return _UNLOCATED


_DECODER = json.JSONDecoder(
    parse_int=_bounded_int, parse_float=_finite_float, parse_constant=_not_json
)
_LOCATING_DECODER = json.JSONDecoder(
    parse_int=_marked_int, parse_float=_marked_float, parse_constant=_not_json
)


def decode_utf8(data: bytes) -> str:
    """The body as text; 400 ``request/invalid_encoding`` unless it is UTF-8.

    >>> decode_utf8("Gnöme".encode())
    'Gnöme'
    >>> decode_utf8("Gnöme".encode("latin-1"))
    Traceback (most recent call last):
    api.json_api.inputs.InvalidInput: the request body is not UTF-8 (byte 2)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            "request/invalid_encoding", f"the request body is not UTF-8 (byte {exc.start})"
        ) from None


def nesting_depth(data: bytes) -> int:
    r"""How deep arrays and objects nest in JSON text (brackets inside strings do not count).

    Escapes out, then everything but brackets and quotes, then the strings: all ``bytes``
    methods, then one pass over the brackets. A string without brackets is two adjacent quotes
    by then; only when some string holds a bracket is the text cut at every quote.

    >>> nesting_depth(rb'{"a": [1, {"b": "[[[[\"]"}], "c\\": []}')
    3
    """
    if b"\\" in data:
        data = _ESCAPE.sub(b"", data)
    kept = data.translate(None, _NOT_STRUCTURE)
    outside = kept.replace(b'""', b"")
    if b'"' in outside:  # a bracket inside a string: keep what is between strings
        outside = b"".join(kept.split(b'"')[::2])
    steps = outside.translate(_DEPTH_STEPS)
    return max(accumulate(map(sub, steps, repeat(1))), default=0)


def check_depth(data: bytes) -> None:
    """400 ``request/too_deep`` when JSON text nests deeper than :data:`MAX_DEPTH`.

    A text with at most ``MAX_DEPTH`` opening brackets cannot nest deeper: that (two
    ``bytes.count``) is all the everyday body costs.
    """
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return
    if nesting_depth(data) > MAX_DEPTH:
        raise InvalidInput(
            "request/too_deep", f"arrays and objects nest at most {MAX_DEPTH} deep in a request"
        )


def loads(data: bytes | str) -> Any:
    r"""A JSON request body (or a line of one), with every rule of this module checked.

    Raises :class:`json.JSONDecodeError` when it is not JSON (the caller's 400
    ``request/invalid_json``), :class:`InvalidInput` for the rest.

    >>> loads(b'{"player": "Ann", "round": 3}')
    {'player': 'Ann', 'round': 3}
    >>> try:
    ...     loads(rb'{"seats": [{"player": "A\u0000"}], "round": 1e999}')
    ... except InvalidInput as exc:
    ...     print(exc.code, exc.fields)
    request/invalid_body {'seats': {0: {'player': ['no U+0000 and no lone surrogate (U+D800 to U+DFFF)']}}, 'round': ['a number from -9223372036854775808 to 9223372036854775807']}
    """
    if isinstance(data, str):
        text, data = data, data.encode("utf-8", "surrogatepass")
    else:
        text = decode_utf8(data)
    check_depth(data)
    try:
        value = _DECODER.decode(text)
    except _OutOfRange:
        located = _LOCATING_DECODER.decode(text)
        raise _invalid(dict(_problems(located))) from None
    except RecursionError:  # pragma: no cover - check_depth keeps json far from the limit
        raise InvalidInput("request/too_deep", "the request nests too deep") from None
    if _SUSPECT_ESCAPE.search(text):
        problems = dict(_problems(value))
        if problems:
            raise _invalid(problems)
    if "_type_" in text:  # rare: only then walk the value
        reserved = dict(_reserved(value))
        if reserved:
            raise _invalid(reserved)
    return value


#: The form eventsourcing's JSON transcoder gives a value it encodes itself (a datetime, a
#: UUID): an object of exactly these two keys. Stored in an event, such an object from a
#: request would be decoded as that type when the game is read back, or fail to decode and
#: leave the game damaged (503 for everyone); so no request may hold one.
RESERVED_KEYS = frozenset({"_type_", "_data_"})
RESERVED = "an object of exactly the keys _type_ and _data_ is reserved"


def _reserved(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[Any, str]]:
    """``(path, message)`` for each object in ``value`` shaped as the transcoder's own."""
    if isinstance(value, Mapping):
        if value.keys() == RESERVED_KEYS:
            yield (*path, "_schema"), RESERVED
        for key, item in value.items():
            yield from _reserved(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _reserved(item, (*path, index))


def check_query(args: Iterable[tuple[str, str]]) -> None:
    """400 ``request/invalid_body`` when a query parameter's name or value holds U+0000 or a
    lone surrogate (``%00`` decodes to U+0000); ``fields`` under ``query``, as webargs puts
    the schema's errors."""
    problems: dict[tuple[str | int, ...], str] = {}
    for key, value in args:
        if _BAD_CHAR.search(key):
            problems[("query", "_schema")] = BAD_KEY
        elif _BAD_CHAR.search(value):
            problems[("query", key)] = BAD_STRING
    if problems:
        raise _invalid(problems)


def check_text(value: str, name: str) -> str:
    """``value`` of a path parameter ``name``, refused (400, ``fields`` under ``path``) if it
    holds U+0000 or a lone surrogate."""
    if _BAD_CHAR.search(value):
        raise _invalid({("path", name): BAD_STRING})
    return value


def _problems(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[Any, str]]:
    """``(path, message)`` for each string, key or number in ``value`` that breaks a rule."""
    if isinstance(value, str):
        if _BAD_CHAR.search(value):
            yield path, BAD_STRING
    elif value is _UNLOCATED:
        yield path, BAD_NUMBER
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if _BAD_CHAR.search(key):
                yield (*path, "_schema"), BAD_KEY
            else:
                yield from _problems(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _problems(item, (*path, index))


def _invalid(problems: Mapping[tuple[str | int, ...], str]) -> InvalidInput:
    """One 400 ``request/invalid_body`` whose ``fields`` nest as marshmallow's do:
    ``{"seats": {0: {"player": [message]}}}`` (a bad key: ``_schema`` of its object)."""
    fields: dict[Any, Any] = {}
    for path, message in problems.items():
        node = fields
        for part in path[:-1]:
            node = node.setdefault(part, {})
        # the body itself (a bare string, say): marshmallow's key for the whole input
        node.setdefault(path[-1] if path else "_schema", []).append(message)
    return InvalidInput("request/invalid_body", "the request is not valid", fields)
