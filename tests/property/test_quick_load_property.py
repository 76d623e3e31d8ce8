"""``ActionBatchSchema.quick_load`` (the recording hot path) never disagrees with marshmallow.

``quick_load`` may decline anything (``None``: the schema's ``load`` then decides and reports
errors), but whatever it accepts, ``load`` must accept with an equal result. The bodies below
are drawn near the valid shape on purpose (type/seat lengths around their limits, ``at``,
booleans, negatives and versions past ``MAX_VERSION``, extra keys, non-objects), where a fast path would go wrong.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from hypothesis import event, given, settings
from hypothesis import strategies as st

from api.json_api.schemas import MAX_ACTIONS, MAX_VERSION, ActionBatchSchema

SCHEMA = ActionBatchSchema()

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=5),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=4),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
# Strings of every length around the limits (type: 1..60, seat: 1..10), and non-strings.
near_strings = st.one_of(
    st.text(min_size=0, max_size=2),
    st.text(min_size=9, max_size=11),
    st.text(min_size=59, max_size=61),
    json_scalars,
)
action_keys = st.sampled_from(["type", "seat", "at", "card", "cards", "gold", "salt", "x"])


@st.composite
def actions(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)  # not an object at all
    action: dict[str, Any] = {}
    if draw(st.booleans()):  # half of them well-formed, as a table's app sends them
        action["type"] = draw(st.text(min_size=1, max_size=60))
        action["seat"] = draw(st.sampled_from(["A", "B"]) | st.text(min_size=1, max_size=10))
    else:
        if draw(st.integers(0, 9)):
            action["type"] = draw(near_strings)
        if draw(st.integers(0, 9)):
            action["seat"] = draw(near_strings)
    for key in draw(st.lists(action_keys, max_size=2)):
        action[key] = draw(
            st.one_of(json_values, st.just("2024-05-01T10:00:00+00:00"), st.just("nope"))
        )
    return action


@st.composite
def batches(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 19)) == 0:
        return draw(json_values)
    body: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        size = draw(st.sampled_from([0, 1, 1, 1, 2, 3, MAX_ACTIONS, MAX_ACTIONS + 1]))
        one = draw(actions())
        rest = draw(st.lists(actions(), max_size=2))
        body["actions"] = (
            ([one, *rest] * size)[:size] if size else draw(st.one_of(st.just([]), json_values))
        )
    if draw(st.booleans()):
        body["expected_version"] = draw(
            st.one_of(
                st.sampled_from([-1, 0, 1, MAX_VERSION, MAX_VERSION + 1, 2**63]),
                st.integers(-3, 10**12),
                st.booleans(),
                st.none(),
                st.floats(),
                st.text(),
            )
        )
    if draw(st.integers(0, 9)) == 0:
        body[draw(st.sampled_from(["extra", "Actions", "at"]))] = draw(json_values)
    return body


@settings(max_examples=1500)
@given(batches())
def test_quick_load_accepts_only_what_the_schema_accepts_and_returns_the_same(body: Any) -> None:
    quick = ActionBatchSchema.quick_load(body)
    event("quick path" if quick is not None else "schema path")
    if quick is None:
        return
    try:
        loaded = SCHEMA.load(body)
    except ma.ValidationError as exc:  # pragma: no cover - the failure this test exists for
        raise AssertionError(
            f"quick_load accepted a body the schema refuses: {exc.messages}"
        ) from exc
    assert quick == loaded


def test_the_everyday_batches_take_the_quick_path() -> None:
    """The fast path is not dead code: the batches a table's app sends are taken by it."""
    everyday = [
        {"actions": [{"type": "activate", "seat": "A", "card": "0123456789abcdef"}]},
        {"actions": [{"type": "resolve", "seat": "A"}], "expected_version": 41},
        {
            "actions": [
                {"type": "draw_opening", "seat": "A", "cards": ["a1", "a2"]},
                {"type": "roll_first", "seat": "A", "rolls": {"A": 6, "B": 1}},
            ]
        },
    ]
    for body in everyday:
        assert ActionBatchSchema.quick_load(body) == SCHEMA.load(body)


def test_the_quick_path_copies_the_actions() -> None:
    """Like ``load``, the result does not share the action objects of the request body."""
    body = {"actions": [{"type": "resolve", "seat": "A"}]}
    quick = ActionBatchSchema.quick_load(body)
    assert quick is not None
    quick["actions"][0]["type"] = "changed"
    assert body["actions"][0]["type"] == "resolve"


def test_client_times_take_the_quick_path_too() -> None:
    """A table's app may send ``at`` with every action: a valid one stays on the quick path."""
    body = {"actions": [{"type": "resolve", "seat": "A", "at": "2024-05-01T10:00:00+00:00"}]}
    assert ActionBatchSchema.quick_load(body) == SCHEMA.load(body)


def test_bodies_the_quick_path_declines_still_get_the_schema_errors() -> None:
    """Declined bodies are left to ``load``: an invalid ``at`` gets its ISO 8601 error."""
    body = {"actions": [{"type": "resolve", "seat": "A", "at": "yesterday"}]}
    assert ActionBatchSchema.quick_load(body) is None
    try:
        SCHEMA.load(body)
    except ma.ValidationError as exc:
        assert exc.messages == {"actions": {0: {"at": ["an ISO 8601 date-time"]}}}
    else:  # pragma: no cover
        raise AssertionError("an invalid 'at' was accepted")
