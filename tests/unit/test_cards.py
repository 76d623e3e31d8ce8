"""Card definitions and deck checks (docs/rules.md A.5, A.6, D.15)."""

from __future__ import annotations

from typing import Any

import pytest

from domain import InvalidCommand, RuleViolation
from domain.ccg.cards import MAX_NUMBER, check_deck, normalize_card, sample_catalog
from tests.builders import (
    BARD,
    RS,
    THIEF,
    WARRIOR,
    card_def,
    class_names,
    game_spec,
    new_game,
    prime_deck,
)


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


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"name": "X", "type": "ally", "life": 1, "keywords": "ab"}, "keywords"),
        ({"name": "X", "type": "ally", "life": 1, "keywords": [["a", 1]]}, "keywords"),
        ({"name": "X", "type": "ally", "life": 1, "class": 0}, "class"),
        ({"name": "X", "type": "ally", "life": 1, "subtype": ["a"]}, "subtype"),
        ({"name": "X", "type": "ally", "life": 1, "text": []}, "text"),
        ({"name": "X", "type": "ally", "life": 1, "custom": 1}, "custom"),
        ({"name": {"a": 1}, "type": "ally", "life": 1}, "name"),
        ({"name": "X", "type": {"a": 1}, "life": 1}, "type"),
        ({"name": "X", "type": "ally", "life": 1, "abilities": [{"trigger": []}]}, "abilities.0.trigger"),
        ({"name": "X", "type": "ally", "life": 1, "abilities": [{"cost": 0}]}, "abilities.0.cost"),
        (
            {"name": "X", "type": "ally", "life": 1, "abilities": [{"conditions": [["x"]]}]},
            "abilities.0.conditions",
        ),
        (
            {"name": "X", "type": "ally", "life": 1, "abilities": [{"effects": [{"op": {}}]}]},
            "abilities.0.effects.0.op",
        ),
        (
            {"name": "X", "type": "ally", "life": 1, "abilities": [{"effects": [{"op": "heal", "index": 2.5}]}]},
            "abilities.0.effects.0.index",
        ),
        (
            {"name": "X", "type": "ally", "life": 1, "abilities": [{"targets": [{"types": [[]]}], "effects": [{"op": "damage"}]}]},
            "abilities.0.targets.0.types",
        ),
    ],
)  # fmt: skip
def test_malformed_shapes_are_invalid_cards_naming_the_field(
    raw: dict[str, Any], field: str
) -> None:
    """Any malformed definition is ``request/invalid_card`` (a 400), never a crash (a 500)."""
    with pytest.raises(InvalidCommand) as info:
        normalize_card(raw)
    assert info.value.code == "request/invalid_card"
    assert field in info.value.fields, info.value.fields


# ---------------------------------------------------------------------------- catalog integrity
#
# docs/rules.md A.6, docs/cards.md "Catalog integrity": prime and draft games play the catalog's
# cards exactly (checked in both modes: a deck is registered before play); casual games may
# bring their own, marked ``custom`` by the engine.

GOBLIN = "Sample Goblin Horde"
CATALOG_FORMATS = [("prime", 40), ("draft", 30)]


def _spec(fmt: str, size: int, mode: str) -> dict[str, Any]:
    decks = {"A": prime_deck(WARRIOR, size), "B": prime_deck(THIEF, size)}
    return game_spec(mode=mode, fmt=fmt, decks=decks)


def _first(spec: dict[str, Any], name: str) -> dict[str, Any]:
    card: dict[str, Any] = next(c for c in spec["seats"][0]["deck"] if c["name"] == name)
    return card


@pytest.mark.parametrize(("fmt", "size"), CATALOG_FORMATS)
@pytest.mark.parametrize("mode", ["strict", "record"])
def test_catalog_cards_are_accepted_as_they_are(fmt: str, size: int, mode: str) -> None:
    _, events = new_game(_spec(fmt, size, mode))
    created = events[0].to_dict()
    assert not any(c.get("custom") for s in created["seats"] for c in [s["hero"], *s["deck"]])


CHANGES: list[tuple[str, dict[str, Any], dict[str, list[str]]]] = [
    ("type", {"type": "ally"}, {"type": ['catalog: "monster", given: "ally"']}),
    ("subtype", {"subtype": "orc"}, {"subtype": ['catalog: "goblin", given: "orc"']}),
    ("class", {"class": "thief"}, {"class": ['catalog: "neutral", given: "thief"']}),
    ("cost", {"cost": 0}, {"cost": ["catalog: 2, given: 0"]}),
    ("rank", {"rank": 1}, {"rank": ["catalog: null, given: 1"]}),
    ("power", {"power": 9}, {"power": ["catalog: 3, given: 9"]}),
    ("life", {"life": 7}, {"life": ["catalog: 2, given: 7"]}),
    ("defense", {"defense": 1}, {"defense": ["catalog: null, given: 1"]}),
    ("keywords", {"keywords": {"stealthy": True}}, {"keywords.stealthy": ["catalog: absent, given: true"]}),
    ("text", {"text": "Hired: nothing."}, {"text": ['catalog: "Hired: deal 1 damage to the defending Hero.", given: "Hired: nothing."']}),
    ("abilities (not encoded)", {"abilities": None}, {"abilities": ["catalog: 1 entry, given: null"]}),
    ("abilities (no key)", {"abilities": ...}, {"abilities": ["catalog: 1 entry, given: absent"]}),
    ("abilities (none)", {"abilities": []}, {"abilities": ["catalog: 1 entry, given: []"]}),
    (
        "an ability's amount",
        {"abilities": [{"trigger": "hired", "effects": [{"op": "damage", "amount": 5, "to": "defending_hero"}]}]},
        {"abilities.0.effects.0.amount": ["catalog: 1, given: 5"]},
    ),
    (
        "an ability's trigger",
        {"abilities": [{"trigger": "survivor", "effects": [{"op": "damage", "amount": 1, "to": "defending_hero"}]}]},
        {"abilities.0.trigger": ['catalog: "hired", given: "survivor"']},
    ),
]  # fmt: skip


@pytest.mark.parametrize(("fmt", "size"), CATALOG_FORMATS)
@pytest.mark.parametrize("mode", ["strict", "record"])
@pytest.mark.parametrize(("what", "change", "fields"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_card_that_differs_from_the_catalogs_is_refused_naming_the_field(
    fmt: str, size: int, mode: str, what: str, change: dict[str, Any], fields: dict[str, Any]
) -> None:
    spec = _spec(fmt, size, mode)
    card = _first(spec, GOBLIN)
    for key, value in change.items():
        if value is ...:
            del card[key]
        else:
            card[key] = value
    with pytest.raises(RuleViolation) as info:
        new_game(spec)
    assert (info.value.code, info.value.rule) == ("rule/not_the_catalog_card", "A.6")
    assert info.value.fields == fields
    assert GOBLIN in info.value.message and "seat A" in info.value.message


@pytest.mark.parametrize(("fmt", "size"), CATALOG_FORMATS)
@pytest.mark.parametrize("mode", ["strict", "record"])
def test_a_changed_hero_is_refused(fmt: str, size: int, mode: str) -> None:
    spec = _spec(fmt, size, mode)
    spec["seats"][1]["hero"]["life"] = 40
    with pytest.raises(RuleViolation) as info:
        new_game(spec)
    assert info.value.code == "rule/not_the_catalog_card"
    assert info.value.fields == {"life": ["catalog: 18, given: 40"]}
    assert "seat B's Hero" in info.value.message


@pytest.mark.parametrize(("fmt", "size"), CATALOG_FORMATS)
@pytest.mark.parametrize("mode", ["strict", "record"])
def test_a_card_the_catalog_lacks_is_refused(fmt: str, size: int, mode: str) -> None:
    spec = _spec(fmt, size, mode)
    _first(spec, GOBLIN)["name"] = "Sample Homebrew Horde"
    with pytest.raises(RuleViolation) as info:
        new_game(spec)
    assert (info.value.code, info.value.rule) == ("rule/unknown_card", "A.6")
    assert set(info.value.fields) == {"name"}


def test_a_definition_that_leaves_out_defaults_is_the_catalog_card() -> None:
    """Definitions are compared complete: what a client leaves out is the default."""
    spec = _spec("prime", 40, "strict")
    card = _first(spec, GOBLIN)
    card.pop("class")  # neutral
    card.pop("rank")  # null
    card["abilities"] = [
        {"trigger": "hired", "effects": [{"op": "damage", "to": "defending_hero"}]}
    ]
    new_game(spec)  # amount 1 is the default


def test_a_keyword_of_true_is_not_a_keyword_of_1() -> None:
    spec = _spec("prime", 40, "strict")
    bandage = {**card_def("Sample Cursed Bandage"), "id": "bandage"}
    assert bandage["keywords"] == {"bleeding": 1}
    spec["seats"][0]["deck"][0] = {**bandage, "keywords": {"bleeding": True}}
    with pytest.raises(RuleViolation) as info:
        new_game(spec)
    assert info.value.fields == {"keywords.bleeding": ["catalog: 1, given: true"]}


def test_casual_games_mark_cards_that_are_not_the_catalogs_custom() -> None:
    spec = _spec("casual", 40, "strict")
    _first(spec, GOBLIN)["cost"] = 0
    homebrew = {"name": "Homebrew", "type": "ally", "life": 1, "abilities": [], "id": "brew"}
    exact = {**card_def("Sample Plant Pot"), "custom": True, "id": "pot"}  # the client's mark
    spec["seats"][1]["deck"] += [homebrew, exact]
    spec["seats"][1]["hero"]["abilities"] = None  # not encoded: not the catalog's
    _, events = new_game(spec)
    created = events[0].to_dict()
    marked = {
        (s["seat"], c["id"] if c["name"] != GOBLIN else GOBLIN)
        for s in created["seats"]
        for c in [s["hero"], *s["deck"]]
        if c.get("custom")
    }
    assert marked == {("A", GOBLIN), ("B", "brew"), ("B", spec["seats"][1]["hero"]["id"])}
    goblins = [c for c in created["seats"][0]["deck"] if c["name"] == GOBLIN]
    assert [c.get("custom", False) for c in goblins] == [True] + [False] * (len(goblins) - 1)


def test_a_recorded_game_is_re_created_as_recorded() -> None:
    """Re-creating a ``GameCreated`` (an import's check, projections/exports/importing.py) takes
    its definitions as recorded, ``custom`` marks included, and consults no catalog: a game
    stored before the catalog check (or from a server with another catalog) still imports."""
    spec = _spec("casual", 40, "strict")
    _first(spec, GOBLIN)["cost"] = 0
    _, events = new_game(spec)
    data = events[0].to_dict()
    again = RS.create({k: data[k] for k in ("game_id", "mode", "format", "labels", "seats")})
    assert again[0].event.to_dict() == data
    # a prime game recorded with a card the sample catalog does not have (an older game)
    legacy = _spec("prime", 40, "strict")
    _first(legacy, GOBLIN)["cost"] = 0
    recorded = RS.create(legacy)[0].event.to_dict()  # no catalog: as recorded
    assert not any(c.get("custom") for s in recorded["seats"] for c in s["deck"])
    with pytest.raises(RuleViolation):
        new_game(legacy)  # a new game with it is refused
