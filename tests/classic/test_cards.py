"""Classic card definitions: the contract's fields, defaults, per-set kinds and the
``request/invalid_card`` refusals with their fields (docs/rules.md B.2, B.9-B.12); the sample
catalogs; game creation (B.1)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.classic import CLASSIC, DELUXE, SEATS, register_classic
from domain.classic.cards import normalize_card, resolve_cards, sample_catalog
from domain.errors import InvalidCommand
from domain.ruleset import RULESETS
from tests.classic.helpers import spec

SETS = sorted(CLASSIC)


def refused(raw: Any, ruleset: str = "munchkin-deluxe") -> InvalidCommand:
    with pytest.raises(InvalidCommand) as err:
        normalize_card(raw, ruleset)
    assert err.value.code == "request/invalid_card"
    return err.value


def test_a_monster_gets_its_defaults() -> None:
    card = normalize_card(
        {"name": "M", "deck": "door", "kind": "monster", "level": 3, "treasures": 1}, SETS[0]
    )
    assert card == {
        "name": "M",
        "text": "",
        "deck": "door",
        "kind": "monster",
        "level": 3,
        "treasures": 1,
        "levels": 1,
        "tags": [],
        "bad_stuff": [],
        "vs": [],
        "run_away": 0,
        "escape_bad_stuff": [],
        "when": [],
        "chased_by": [],
    }


def test_an_item_has_its_slot_and_traits() -> None:
    raw = {
        "name": "Hat",
        "deck": "treasure",
        "kind": "item",
        "slot": "headgear",
        "bonus": 2,
        "value": 400,
        "usable_by": ["Wizard"],
        "big": False,
    }
    card = normalize_card(raw, "munchkin-deluxe")
    assert (card["slot"], card["bonus"], card["value"], card["usable_by"]) == (
        "headgear",
        2,
        400,
        ["Wizard"],
    )
    assert card["not_usable_by"] == [] and card["big"] is False


@pytest.mark.parametrize(
    ("raw", "fields"),
    [
        ({"deck": "door", "kind": "monster", "level": 1}, {"name"}),
        ({"name": "X", "deck": "attic", "kind": "other"}, {"deck"}),
        ({"name": "X", "deck": "door", "kind": "dragon"}, {"kind"}),
        ({"name": "X", "deck": "door", "kind": "monster"}, {"level"}),
        ({"name": "X", "deck": "door", "kind": "monster", "level": -2}, {"level"}),
        ({"name": "X", "deck": "treasure", "kind": "item", "slot": "tail"}, {"slot"}),
        ({"name": "X", "deck": "treasure", "kind": "item", "big": "yes"}, {"big"}),
        ({"name": "X", "deck": "door", "kind": "curse", "effects": [{"explode": 1}]}, {"effects"}),
        (
            {"name": "X", "deck": "door", "kind": "curse", "effects": [{"lose_levels": 0}]},
            {"effects"},
        ),
        (
            {"name": "X", "deck": "door", "kind": "curse", "effects": [{"lose_item": "nose"}]},
            {"effects"},
        ),
        (
            {"name": "X", "deck": "door", "kind": "monster", "level": 1, "bad_stuff": [{"die": 1}]},
            {"bad_stuff"},
        ),
        ({"name": "X", "deck": "door", "kind": "class"}, {"trait"}),
        (
            {"name": "X", "deck": "door", "kind": "class", "trait": "T", "powers": {"fly": 1}},
            {"powers"},
        ),
        (
            {"name": "X", "deck": "door", "kind": "monster", "level": 1, "vs": [{"trait": "Elf"}]},
            {"vs"},
        ),
        ({"name": "X", "deck": "treasure", "kind": "one_shot", "doses": {"max": 0}}, {"doses"}),
        ({"name": "X", "deck": "treasure", "kind": "one_shot", "removes": "all"}, {"removes"}),
    ],
)
def test_a_malformed_card_names_its_fields(raw: dict[str, Any], fields: set[str]) -> None:
    assert set(refused(raw).fields) == fields


@pytest.mark.parametrize(
    ("ruleset", "kind"),
    [
        ("munchkin-old-west", "curse"),
        ("munchkin-old-west", "race"),
        ("munchkin-deluxe", "trap"),
        ("munchkin-deluxe", "army"),
        ("munchkin-age-of-sigmar", "class"),
        ("munchkin-age-of-sigmar", "hireling"),
        ("munchkin-deluxe", "steed"),
    ],
)
def test_each_set_has_its_own_kinds(ruleset: str, kind: str) -> None:
    """B.2: Traps only in Old West, Armies only in AoS, Hirelings only in Deluxe, and so on."""
    raw = {"name": "X", "deck": "door", "kind": kind, "trait": "T", "effects": []}
    assert set(refused(raw, ruleset).fields) == {"kind"}


@pytest.mark.parametrize("ruleset", SETS)
def test_the_sample_catalogs_are_invented_and_valid(ruleset: str) -> None:
    cat = sample_catalog(ruleset)
    assert len(cat) >= 30
    assert all(name.startswith("Sample ") for name in cat)
    kinds = {c["kind"] for c in cat.values()}
    assert {"monster", "enhancer", "item", "one_shot", "level_up", "other"} <= kinds
    assert CLASSIC[ruleset].rules.bad_door in kinds
    assert set(CLASSIC[ruleset].rules.trait_kinds) <= kinds


def test_catalog_names_resolve_with_counts() -> None:
    cards = resolve_cards(
        [{"name": "Sample Grumpy Toad", "count": 3}], "munchkin-deluxe", "door", "doors"
    )
    assert [c["name"] for c in cards] == ["Sample Grumpy Toad"] * 3
    with pytest.raises(InvalidCommand) as err:
        resolve_cards([{"name": "Sample Tin Armor"}], "munchkin-deluxe", "door", "doors")
    assert err.value.code == "request/invalid_card"  # a Treasure among the Doors
    with pytest.raises(InvalidCommand) as err:
        resolve_cards([{"name": "Sample Nothing"}], "munchkin-deluxe", "door", "doors")
    assert err.value.code == "request/unknown_card_name"


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_three_to_six_seats_named_in_order(n: int) -> None:
    steps = DELUXE.create(spec("munchkin-deluxe", [], [], n))
    state = steps[-1].state
    assert list(state["seats"]) == list(SEATS[:n])
    assert all(s["level"] == 1 and s["zones"]["hand"] == [] for s in state["seats"].values())
    assert state["status"] == "setup" and state["phase"] == "setup"


@pytest.mark.parametrize("n", [2, 7])
def test_too_few_or_too_many_seats(n: int) -> None:
    body = spec("munchkin-deluxe", [], [], 6)
    body["seats"] = (body["seats"] * 2)[:n]
    with pytest.raises(InvalidCommand) as err:
        DELUXE.create(body)
    assert err.value.code == "request/invalid_seats"


def test_seats_must_be_in_seating_order_and_options_known() -> None:
    body = spec("munchkin-deluxe", [], [], 3)
    body["seats"][0]["seat"], body["seats"][1]["seat"] = "B", "A"
    with pytest.raises(InvalidCommand):
        DELUXE.create(body)
    with pytest.raises(InvalidCommand) as err:
        DELUXE.create({**spec("munchkin-deluxe", [], [], 3), "options": {"fast": True}})
    assert err.value.code == "request/invalid_options"


def test_the_three_sets_are_registered_with_the_ccg() -> None:
    """Importing ``domain`` registers the classic rulesets next to the CCG (issue #14);
    registering them again changes nothing."""
    from domain import ruleset

    assert set(CLASSIC) | {"munchkin-ccg"} <= set(RULESETS)
    before = dict(RULESETS)
    register_classic()
    assert before == RULESETS
    assert ruleset.find_ruleset("munchkin-old-west") is CLASSIC["munchkin-old-west"]
