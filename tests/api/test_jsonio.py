"""``api.json_api.jsonio.FastJSONProvider`` writes exactly what Flask's default provider writes."""

from __future__ import annotations

import dataclasses
import decimal
import uuid
from datetime import UTC, date, datetime
from typing import Any

import orjson
import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from hypothesis import given, settings
from hypothesis import strategies as st

from api.json_api.jsonio import FastJSONProvider

APP = Flask(__name__)
FAST, FLASK = FastJSONProvider(APP), DefaultJSONProvider(APP)

text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | text,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(text, inner, max_size=4)
        | st.dictionaries(st.integers(), inner, max_size=3)
    ),
    max_leaves=30,
)


@settings(max_examples=1500)
@given(values, st.sampled_from([{"separators": (",", ":")}, {}, {"indent": 2}]))
def test_the_same_text_as_flasks_provider(value: Any, kwargs: dict[str, Any]) -> None:
    assert FAST.dumps(value, **kwargs) == FLASK.dumps(value, **kwargs)


@pytest.mark.parametrize("value", ["\x7f", {"k\x7f": ["a\x7fb"]}, "~", "\x1f"])
def test_delete_and_control_characters_are_escaped_as_flask_escapes_them(value: Any) -> None:
    """DEL (U+007F) is ASCII, but ``json.dumps`` escapes it (``\\u007f``); orjson writes it
    raw, so such output goes to the stdlib (hypothesis found it once, rarely)."""
    compact = {"separators": (",", ":")}
    assert FAST.dumps(value, **compact) == FLASK.dumps(value, **compact)


@dataclasses.dataclass
class Seat:
    seat: str
    level: int


@pytest.mark.parametrize(
    "value",
    [
        {"when": datetime(2024, 5, 1, 10, 0, tzinfo=UTC), "day": date(2024, 5, 1)},
        {"id": uuid.UUID(int=7), "cost": decimal.Decimal("1.50"), "seat": Seat("A", 3)},
        {"name": "Sample Gnome é", "n": 1e-05},
        {"responses": [{"version": 12, "events": []}]},
    ],
)
def test_flasks_default_types_and_the_fallbacks(value: Any) -> None:
    compact = {"separators": (",", ":")}
    assert FAST.dumps(value, **compact) == FLASK.dumps(value, **compact)


def test_orjson_writes_the_plain_compact_response() -> None:
    value = {"version": 3, "events": [{"type": "Zapped", "seat": "A"}]}
    expected = orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    assert FAST.dumps(value, separators=(",", ":")) == expected


def test_a_type_neither_knows_is_still_a_type_error() -> None:
    with pytest.raises(TypeError):
        FAST.dumps({"x": object()}, separators=(",", ":"))
