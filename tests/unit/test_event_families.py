"""Event names are namespaced by family (issue #23, item 3; domain.events).

Each family (the CCG, classic, the tests' trio) registers its events in its own namespace and a
game's stored events load in its family's (plus the shared kernel's, the judge's): two families
may both have a ``CardDrawn``, each game folding with its own class. A second class under a name
already taken in a namespace, or by the kernel, raises at import time instead of silently
replacing the first (which would fold stored games with the wrong handler and redact them with
the wrong card fields)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import pytest

from domain import RULESETS, InvalidCommand, find_ruleset, initial_state
from domain import events as registry
from domain.ccg import events as ev
from domain.classic import events as classic_ev
from domain.envelope import GENESIS_HASH, seal, verify_records
from domain.events import (
    EVENT_TYPES,
    KERNEL,
    NAMESPACES,
    Event,
    EventNameTaken,
    event_from_dict,
    family_events,
    register_event,
)
from domain.fold import CopyOnWriteState, apply_record, handles, load_event
from domain.judge import DisputeOpened
from domain.ruleset import Ruleset, register
from projections.views import event_view
from tests.builders import game_spec, new_game

SCRATCH = "scratch"
SCRATCH_RULESET = "scratch-game"
AT = "2026-01-01T00:00:00Z"


@pytest.fixture
def scratch() -> Iterator[None]:
    """The registry as it is, put back after the test (the scratch family's classes vanish)."""
    saved = {
        "NAMESPACES": {k: dict(v) for k, v in NAMESPACES.items()},
        "_LOADABLE": {k: dict(v) for k, v in registry._LOADABLE.items()},
        "EVENT_TYPES": dict(EVENT_TYPES),
        "RULESET_FAMILIES": dict(registry.RULESET_FAMILIES),
    }
    try:
        yield
    finally:
        for name, content in saved.items():
            table = getattr(registry, name)
            table.clear()
            table.update(content)


def scratch_card_drawn() -> Any:
    """A scratch family's own ``CardDrawn`` (the CCG's name, another shape: it names the pile
    the card came from), and its fold handler; games of ``scratch-game`` load it."""

    @family_events(SCRATCH)
    @dataclass(frozen=True, slots=True, kw_only=True)
    class CardDrawn(Event):
        card: str
        pile: str
        card_fields: ClassVar[tuple[str, ...]] = ("card", "pile")

    @handles(CardDrawn)
    def _(e: CardDrawn, draft: CopyOnWriteState) -> None:
        draft.state["drawn"] = [*draft.state.get("drawn", []), e.card]

    registry.bind_ruleset(SCRATCH_RULESET, SCRATCH)
    return CardDrawn


def test_a_second_class_under_a_taken_name_raises(scratch: None) -> None:
    """Registering another class under a name its namespace has, or the kernel has, raises and
    changes nothing (before: the second silently replaced the first)."""
    before = (dict(EVENT_TYPES), {k: dict(v) for k, v in NAMESPACES.items()})

    @dataclass(frozen=True, slots=True, kw_only=True)
    class GameEnded(Event):  # the CCG's name, in the CCG's namespace
        winner: str

    with pytest.raises(EventNameTaken, match=r"'GameEnded' of family 'ccg'.*domain\.ccg\.events"):
        family_events("ccg")(GameEnded)

    @dataclass(frozen=True, slots=True, kw_only=True)
    class DisputeOpened(Event):  # a kernel name: every family loads the judge's
        note: str

    with pytest.raises(EventNameTaken, match=r"'DisputeOpened'.*'kernel'.*domain\.judge"):
        family_events(SCRATCH)(DisputeOpened)
    with pytest.raises(EventNameTaken, match="'DisputeOpened'"):
        register_event(DisputeOpened)

    @dataclass(frozen=True, slots=True, kw_only=True)
    class CardDrawn(Event):  # a kernel event would load in every family: the CCG's is taken
        card: str

    with pytest.raises(EventNameTaken, match=r"'CardDrawn'.*'ccg'"):
        register_event(CardDrawn)
    assert (dict(EVENT_TYPES), {k: dict(v) for k, v in NAMESPACES.items()}) == before
    assert EVENT_TYPES["GameEnded"] is ev.GameEnded


def test_a_name_reused_by_another_family_loads_and_folds_with_each_familys_class(
    scratch: None,
) -> None:
    ScratchDrawn = scratch_card_drawn()
    assert ScratchDrawn is not ev.CardDrawn and NAMESPACES["ccg"]["CardDrawn"] is ev.CardDrawn

    # a CCG game: its CardDrawn folds with the CCG's class (the card goes to the hand)
    ccg_state, _ = new_game(game_spec())
    card = ccg_state["seats"]["A"]["zones"]["deck"][0]
    drawn = ev.CardDrawn(player="A", card=card, seat="A").to_dict()
    assert load_event(ccg_state, drawn) == ev.CardDrawn(player="A", card=card, seat="A")
    after = apply_record(ccg_state, {"event": drawn})
    assert card in after["seats"]["A"]["zones"]["hand"]

    # a scratch game: the same stored name folds with the scratch family's class
    created = classic_created()
    scratch_state = {**initial_state(), "ruleset": SCRATCH_RULESET, "version": 1}
    data = {"type": "CardDrawn", "v": 1, "seat": "A", "card": "s1", "pile": "p1"}
    assert load_event(scratch_state, data) == ScratchDrawn(seat="A", card="s1", pile="p1")
    assert apply_record(scratch_state, {"event": data})["drawn"] == ["s1"]
    assert event_from_dict(data, SCRATCH) == ScratchDrawn(seat="A", card="s1", pile="p1")
    assert event_from_dict(drawn, "ccg") == ev.CardDrawn(player="A", card=card, seat="A")
    # the first event's family is its own ruleset's (the state before it has none)
    assert load_event(initial_state(), created).type == "ClassicGameCreated"

    # by name alone a reused name is not guessed at
    with pytest.raises(InvalidCommand, match=r"'CardDrawn' is defined by several families"):
        event_from_dict(data)
    assert "CardDrawn" not in EVENT_TYPES
    # nor is another family's event taken for this family's
    with pytest.raises(
        InvalidCommand, match=r"'GameEnded' is not of family 'scratch' \(it is ccg's\)"
    ):
        event_from_dict(ev.GameEnded(winner="A").to_dict(), SCRATCH)
    # a kernel event still loads in every family
    dispute = DisputeOpened(seat="judge", dispute="d1", raised_by="B").to_dict()
    assert event_from_dict(dispute, SCRATCH) == event_from_dict(dispute, "ccg")


def test_a_view_of_a_reused_name_hides_every_familys_card_fields(scratch: None) -> None:
    """A view does not know the game's family: it hides the card fields of every class stored
    under the name, so a card the viewer may not see never shows."""
    scratch_card_drawn()
    data = {"type": "CardDrawn", "v": 1, "seat": "A", "card": "s1", "pile": "p1", "player": "A"}
    record = {
        "version": 3,
        "event": data,
        "received_at": AT,
        "client_at": None,
        "visible_to": {"s1": ["A"], "p1": ["A"]},
    }
    view = event_view(record, "B", ["A", "B"])
    assert view["data"]["card"] is None and view["data"]["pile"] is None
    assert event_view(record, "A", ["A", "B"])["data"]["pile"] == "p1"


def test_a_chain_of_a_family_reusing_a_name_verifies(scratch: None) -> None:
    """The chain check loads each event in its game's family (the creating record's ruleset)."""
    ScratchDrawn = scratch_card_drawn()
    created = {**classic_created(), "ruleset": SCRATCH_RULESET}

    @family_events(SCRATCH)
    @dataclass(frozen=True, slots=True, kw_only=True)
    class ScratchCreated(Event):
        ruleset: str

    events = [ScratchCreated(ruleset=created["ruleset"]), ScratchDrawn(card="s1", pile="p1")]
    records, head = [], GENESIS_HASH
    for version, event in enumerate(events, 1):
        record = seal(version, event.to_dict(), received_at=AT, visible_to={}, prev_hash=head)
        records.append(record)
        head = record["hash"]
    assert verify_records(records)["ok"], verify_records(records)
    # by name alone the reused name would not load
    assert not verify_records(records[1:], records[0]["hash"])["ok"]


def test_every_family_registers_in_its_own_namespace() -> None:
    """Today's families and the rulesets that load in them; no stored name is used twice."""
    assert NAMESPACES["ccg"]["GameCreated"] is ev.GameCreated
    assert NAMESPACES["classic"]["ClassicGameCreated"] is classic_ev.ClassicGameCreated
    assert NAMESPACES[KERNEL]["DisputeOpened"] is DisputeOpened
    assert registry.RULESET_FAMILIES["munchkin-ccg"] == "ccg"
    for name in ("munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar"):
        assert find_ruleset(name).family == "classic"
    for ruleset in RULESETS.values():
        assert registry.RULESET_FAMILIES[ruleset.name] == ruleset.family
    assert len(EVENT_TYPES) == sum(len(types) for types in NAMESPACES.values())
    with pytest.raises(ValueError, match="registers no events"):
        registry.bind_ruleset("no-such-game", "no-such-family")


def test_a_ruleset_names_its_family(scratch: None) -> None:
    """A ruleset without a ``family``, or with one that registers no events, is refused when it
    registers (a plugin's typo would otherwise load its games by name alone)."""

    class Nameless:
        name = "nameless-game"

    class Typo:
        name = "typo-game"
        family = "clasic"

    with pytest.raises(TypeError, match="'nameless-game' names no event family"):
        register(cast(Ruleset, Nameless()))
    with pytest.raises(ValueError, match="'typo-game': family 'clasic' registers no events"):
        register(cast(Ruleset, Typo()))
    assert "nameless-game" not in RULESETS and "typo-game" not in RULESETS


def classic_created() -> dict[str, Any]:
    """A classic game's stored ``ClassicGameCreated`` (no cards: only its type matters here)."""
    created = classic_ev.ClassicGameCreated(
        game_id="g",
        ruleset="munchkin-deluxe",
        rules_version="deluxe",
        mode="strict",
        format="casual",
        options={},
        seats=[],
        doors=[],
        treasures=[],
    )
    return created.to_dict()
