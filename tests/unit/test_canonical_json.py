"""The hash chain's bytes (``domain.envelope.canonical_bytes``): orjson writes them when it can,
and they are exactly :mod:`json`'s ``sort_keys=True, separators=(",", ":"),
ensure_ascii=False`` output, for any JSON value -- floats, integers past 64 bits, any text, keys
that are not strings -- so that every chain stored before (and every export) still verifies."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.envelope import GENESIS_HASH, canonical_bytes, canonical_json, chain_hash

STDLIB = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)

# Text as the API lets it in (api.json_api.inputs: no U+0000, no lone surrogate), with the characters
# JSON escapes and the ones it must not.
text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
scalars = (
    st.none()
    | st.booleans()
    | st.integers()  # past 64 bits too
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e-05, 1e-07, 0.0001, 1e16, 1e22, -0.0, 5e-324, 1.7976931348623157e308])
    | text
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(text, inner, max_size=4)
        | st.dictionaries(st.integers(), inner, max_size=3)  # json writes 1 as "1"; orjson refuses
        | st.tuples(inner, inner)
    ),
    max_leaves=30,
)


@settings(max_examples=2000, suppress_health_check=[HealthCheck.too_slow])
@given(values)
def test_canonical_bytes_are_the_stdlibs(value: Any) -> None:
    assert canonical_bytes(value) == STDLIB.encode(value).encode("utf-8")
    assert canonical_json(value) == STDLIB.encode(value)


@pytest.mark.parametrize(
    "value",
    [
        {"x": 1e-05},  # orjson: 0.00001
        [1e-07, 2.5e-09],  # orjson: 1e-7
        {"b": 2**64, "a": -(2**70)},  # past orjson's integers
        {1: "one", 20: "two", -3: None},  # keys that are not strings
        {"name": "One-Eyed Jack e-mail"},  # the bytes orjson's floats give way to, in a string
        '\x01\x1f\x7f\u2028\u2029"\\/\t\n\r\b\f é 日本 🎲',
    ],
)
def test_where_orjson_gives_way_the_bytes_are_still_the_stdlibs(value: Any) -> None:
    assert canonical_bytes(value) == STDLIB.encode(value).encode("utf-8")


def test_orjson_writes_the_everyday_record() -> None:
    """Not only the fallback: a plain record is written by orjson (if it is installed)."""
    record = {"version": 3, "event": {"type": "Zapped", "seat": "A", "card": "c1"}, "n": 0.5}
    assert canonical_bytes(record) == orjson.dumps(record, option=orjson.OPT_SORT_KEYS)


def test_the_chain_hash_is_over_the_stdlibs_bytes() -> None:
    record = {
        "version": 1,
        "event": {"type": "GameEnded", "winner": "A", "x": 1e-05},
        "received_at": "2024-01-01T00:00:00+00:00",
        "client_at": None,
        "visible_to": {},
    }
    body = STDLIB.encode(record) + GENESIS_HASH
    assert chain_hash(record, GENESIS_HASH) == hashlib.sha256(body.encode()).hexdigest()
