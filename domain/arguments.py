"""The readers of a command's arguments, the same for every ruleset (and a judge's corrections).

Each returns the argument ``key`` of ``command`` as the rules read it, or raises
:class:`InvalidCommand` (HTTP 400) naming the field: ``request/missing_field``,
``request/invalid_number``, ``request/invalid_list``, ``request/duplicate_ids``,
``request/invalid_face`` or ``request/invalid_seat``. A number's bounds are the caller's: each
ruleset has its own largest number (``MAX_NUMBER`` in its ``cards`` module).

>>> int_arg({"roll": 4}, "roll", lo=1, hi=6)
4
>>> ids_arg({}, "choices", required=False)
[]
>>> seat_arg({"seats": {"A": {}, "B": {}}}, {"to": "C"}, "to")
Traceback (most recent call last):
...
domain.errors.InvalidCommand: 'to' must be a seat of this game (A, B)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import InvalidCommand

Command = Mapping[str, Any]


def str_arg(command: Command, key: str) -> str:
    """A non-empty string."""
    value = command.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidCommand(
            "request/missing_field", f"'{key}' is required", {key: ["a non-empty string"]}
        )
    return value


def int_arg(
    command: Command, key: str, default: int | None = None, *, lo: int = 0, hi: int | None
) -> int:
    """A whole number from ``lo`` to ``hi`` (``hi`` None: no upper bound); ``default`` when the
    command gives none (else the number is required)."""
    value = command.get(key, default)
    if type(value) is not int or value < lo or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise InvalidCommand(
            "request/invalid_number",
            f"'{key}' must be a whole number {bounds}",
            {key: [f"a whole number {bounds}"]},
        )
    return value


def ids_arg(command: Command, key: str, *, required: bool = True) -> list[str]:
    """A list of distinct card ids (non-empty strings); ``[]`` for none given when not
    ``required``."""
    value = command.get(key)
    if type(value) is list and not value:  # the usual case (no targets, no discards): quick
        return []
    if value is None and not required:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InvalidCommand(
            "request/invalid_list", f"'{key}' must be a list of card ids", {key: ["list of ids"]}
        )
    if len(set(value)) != len(value):
        raise InvalidCommand(
            "request/duplicate_ids", f"'{key}' names a card twice", {key: ["distinct ids"]}
        )
    return list(value)


def face_arg(command: Command, default: str) -> str:
    """A card's ``face``, ``"up"`` or ``"down"`` (``default`` when the command gives none)."""
    face = command.get("face", default)
    if face not in ("up", "down"):
        raise InvalidCommand("request/invalid_face", "'face' must be 'up' or 'down'")
    return str(face)


def seat_arg(state: Mapping[str, Any], command: Command, key: str = "seat") -> str:
    """A seat of the game in ``state``."""
    value = command.get(key)
    seats = state.get("seats") or {}
    if not isinstance(value, str) or value not in seats:
        names = ", ".join(seats)
        raise InvalidCommand(
            "request/invalid_seat",
            f"'{key}' must be a seat of this game ({names})",
            {key: [f"one of {names}"]},
        )
    return value
