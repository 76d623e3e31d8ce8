"""What the engine reads from a card definition (domain/ccg/cards.py: ``abilities_of``,
``ability_index``, ``effect_plan``) is worked out once per definition and kept (docs/cards.md):
the memo must give exactly what reading the card afresh gives, and hand out nothing a caller
could change for the next reader."""

from __future__ import annotations

import copy

import pytest

from domain.ccg import cards
from domain.ccg.cards import COUNTED_OPS, abilities_of, ability_index, effect_plan
from tests.builders import CATALOG, card_def


def fresh_plan(d: dict, ability: int, give_blood: int) -> list[dict] | None:
    """The plan read from the card's data directly, without the memo (docs/cards.md)."""
    own = d.get("abilities")
    if own is None:
        return None
    abilities = [*own, *cards.keyword_abilities(d)]
    chosen = abilities[ability]
    if chosen.get("unchecked"):
        return None
    plan = []
    for e in chosen["effects"]:
        if e.get("if") == "give_blood" and not give_blood:
            continue
        step = {"op": e["op"], "amount": e["amount"], "to": e["to"], "index": e["index"]}
        count = int(e["amount"] or 0) if e["op"] in COUNTED_OPS else 1
        amount = None if e["op"] in COUNTED_OPS else e["amount"]
        plan += [{**step, "amount": amount} for _ in range(count)]
    return plan


@pytest.mark.parametrize("name", sorted(CATALOG.cards))
def test_every_sample_card_reads_as_its_data(name: str) -> None:
    d = card_def(name)
    own = d["abilities"]
    expected = [*own, *cards.keyword_abilities(d)]
    for _ in range(2):  # the first read fills the memo, the second reads it
        assert abilities_of(d) == expected
        for trigger in cards.TRIGGERS:
            assert ability_index(d, trigger) == [
                i for i, a in enumerate(expected) if a["trigger"] == trigger
            ]
        for i in range(len(expected)):
            for blood in (0, 2):
                assert effect_plan(d, i, blood) == fresh_plan(d, i, blood)
        assert effect_plan(d, None) is None
        assert effect_plan(d, len(expected)) is None


def test_give_blood_and_counted_effects() -> None:
    pact = card_def("Sample Blood Pact")
    assert [s["amount"] for s in effect_plan(pact, 0, 0) or []] == [2]
    assert [s["amount"] for s in effect_plan(pact, 0, 2) or []] == [2, 2]
    thief = card_def("Sample Gnome Thief")
    assert [s["op"] for s in effect_plan(thief, 0) or []] == ["draw", "draw", "put_on_bottom"]


def test_what_a_caller_changes_is_not_the_next_readers() -> None:
    d = card_def("Sample Gnome Thief")
    plan = effect_plan(d, 0)
    assert plan is not None
    plan[0]["op"] = "heal"
    plan.append({"op": "win"})
    abilities = abilities_of(d)
    assert abilities is not None
    abilities.append({"trigger": "activated"})
    index = ability_index(d, "activated")
    index.append(7)
    assert [s["op"] for s in effect_plan(d, 0) or []] == ["draw", "draw", "put_on_bottom"]
    assert len(abilities_of(d) or []) == 1
    assert ability_index(d, "activated") == [0]


def test_an_equal_copy_and_an_unchecked_card_are_read_on_their_own() -> None:
    d = card_def("Sample Sneaky Dagger")  # Smack: a keyword ability
    twin = copy.deepcopy(d)
    assert abilities_of(twin) == abilities_of(d)
    assert abilities_of(twin)[0]["keyword"] == "smack"  # type: ignore[index]
    blank = card_def("Sample Sneaky Dagger", abilities=None)
    assert abilities_of(blank) is None
    assert ability_index(blank, "activated") == []
    assert effect_plan(blank, 0) is None


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cards, "_READ_MAX", 3)
    monkeypatch.setattr(cards, "_READS", {})
    defs = [{**card_def("Sample Tavern"), "name": f"Tavern {i}"} for i in range(10)]
    for d in defs:
        assert [s["op"] for s in effect_plan(d, 0) or []] == ["take_gold"]
        assert len(cards._READS) <= 3
    for d in defs:  # read again after being dropped: the same answer
        assert ability_index(d, "activated") == [0]
