"""Card definitions and deck checks (docs/rules.md A.5, A.6, D.15)."""

from __future__ import annotations

from typing import Any

import pytest

from domain import InvalidCommand, RuleViolation, check_deck, normalize_card, sample_catalog
from domain.ccg.cards import MAX_NUMBER
from tests.builders import BARD, RS, THIEF, WARRIOR, card_def, class_names, game_spec, prime_deck


def deck(names: list[str]) -> list[dict[str, Any]]:
    return [card_def(n) for n in names]


def test_the_sample_catalog_is_marked_as_invented_cards() -> None:
    cat = sample_catalog()
    assert cat.cards and all(name.startswith("Sample ") for name in cat.cards)
    assert {d["type"] for d in cat.cards.values()} == {
        "hero", "ally", "location", "loot", "mischief", "monster",
    }  # fmt: skip


@pytest.mark.parametrize("hero", [WARRIOR, THIEF, BARD])
def test_a_prime_deck_of_40_neutral_and_class_cards_is_legal(hero: str) -> None:
    check_deck("prime", card_def(hero), deck(prime_deck(hero)))


@pytest.mark.parametrize("size", [39, 41])
def test_a_prime_deck_has_exactly_40_cards(size: int) -> None:
    names = prime_deck(WARRIOR, 41)[:size]
    with pytest.raises(RuleViolation) as info:
        check_deck("prime", card_def(WARRIOR), deck(names))
    assert (info.value.code, info.value.rule) == ("rule/deck_size", "A.6")


def test_a_draft_deck_has_30_cards() -> None:
    check_deck("draft", card_def(BARD), deck(prime_deck(WARRIOR, 30)))
    with pytest.raises(RuleViolation) as info:
        check_deck("draft", card_def(BARD), deck(prime_deck(WARRIOR, 40)))
    assert info.value.code == "rule/deck_size"


def test_no_more_than_3_copies_of_a_name() -> None:
    names = prime_deck(WARRIOR)
    names[:4] = ["Sample Plant Pot"] * 4
    assert names.count("Sample Plant Pot") >= 4
    with pytest.raises(RuleViolation) as info:
        check_deck("prime", card_def(WARRIOR), deck(names))
    assert info.value.code == "rule/too_many_copies"
    assert "Sample Plant Pot" in info.value.message


def test_no_hero_in_the_deck() -> None:
    names = prime_deck(WARRIOR)
    names[0] = THIEF
    with pytest.raises(RuleViolation) as info:
        check_deck("prime", card_def(WARRIOR), deck(names))
    assert info.value.code == "rule/hero_in_deck"


def test_no_off_class_cards() -> None:
    names = prime_deck(WARRIOR)
    names[0] = "Sample Shifty Henchman"  # thief
    with pytest.raises(RuleViolation) as info:
        check_deck("prime", card_def(WARRIOR), deck(names))
    assert info.value.code == "rule/off_class"


def test_a_wanderer_deck_may_hold_one_class_but_not_two() -> None:
    warrior_only = (class_names("warrior") * 3)[:40]
    check_deck("prime", card_def(BARD), deck(warrior_only))
    mixed = list(warrior_only)
    mixed[-1] = "Sample Shifty Henchman"
    with pytest.raises(RuleViolation) as info:
        check_deck("prime", card_def(BARD), deck(mixed))
    assert info.value.code == "rule/off_class"


def test_the_hero_must_be_a_hero_card() -> None:
    with pytest.raises(RuleViolation) as info:
        check_deck("prime", card_def("Sample Plant Pot"), deck(prime_deck(WARRIOR)))
    assert info.value.code == "rule/not_a_hero"


def test_casual_decks_are_not_checked_and_unknown_formats_are_refused() -> None:
    check_deck("casual", card_def(WARRIOR), deck(["Sample Plant Pot"] * 7 + [THIEF]))
    with pytest.raises(InvalidCommand):
        check_deck("sealed", card_def(WARRIOR), [])


@pytest.mark.parametrize("mode", ["strict", "record"])
def test_create_checks_the_decks_in_both_modes(mode: str) -> None:
    spec = game_spec(mode=mode, decks={"B": prime_deck(THIEF, 39)})
    with pytest.raises(RuleViolation) as info:
        RS.create(spec)
    assert info.value.code == "rule/deck_size"


def test_create_refuses_a_card_id_used_twice() -> None:
    spec = game_spec()
    spec["seats"][1]["deck"][0]["id"] = spec["seats"][0]["deck"][0]["id"]
    with pytest.raises(InvalidCommand) as info:
        RS.create(spec)
    assert info.value.code == "request/duplicate_ids"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"mode": "lenient"}, "request/invalid_mode"),
        ({"seats": []}, "request/invalid_seats"),
    ],
)
def test_create_refuses_malformed_specs(change: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidCommand) as info:
        RS.create({**game_spec(), **change})
    assert info.value.code == code


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"name": "X", "type": "ally", "cost": -1, "life": 1}, "cost"),
        ({"name": "X", "type": "ally", "cost": 1}, "life"),
        ({"name": "", "type": "ally", "life": 1}, "name"),
        ({"name": "X", "type": "wizard"}, "type"),
        ({"name": "X", "type": "loot", "rank": True}, "rank"),
        ({"name": "X", "type": "ally", "cost": MAX_NUMBER + 1, "life": 1}, "cost"),
        ({"name": "X", "type": "ally", "life": 10**300}, "life"),
        ({"name": "X", "type": "monster", "power": 2**70, "life": 1}, "power"),
        ({"name": "X", "type": "mischief", "keywords": {"monstrous": 1000}}, "keywords"),
    ],
)
def test_invalid_card_definitions_name_the_field(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidCommand) as info:
        normalize_card(raw)
    assert field in info.value.fields


def test_card_numbers_run_from_0_to_max_number() -> None:
    """docs/rules.md A.1 (no negative values); 999 is the house bound (``MAX_NUMBER``)."""
    card = normalize_card({"name": "X", "type": "ally", "cost": MAX_NUMBER, "life": 0})
    assert (card["cost"], card["life"]) == (MAX_NUMBER, 0)


def test_monstrous_cards_need_no_life() -> None:
    card = normalize_card({"name": "Rock", "type": "mischief", "keywords": {"monstrous": 3}})
    assert card["keywords"] == {"monstrous": 3}
