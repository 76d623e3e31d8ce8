"""Events as stored facts: round trips, reprs, permanent names, upcasting (DESIGN.md, STYLE 2.2)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from domain import EVENT_TYPES, Event, InvalidCommand, event_from_dict, evolve
from domain.ccg import events as ev
from domain.events import slot_init
from tests.builders import RandomGame, cmd, give, play, started_game

#: Stored topics: renaming one breaks every stored game (add a new class + upcaster instead).
PERMANENT_NAMES = {
    "AbilityActivated", "AbilityCanceled", "AbilityResolved", "AllyPlayed", "AttackCardCommitted",
    "AttackCardRevealed", "CardDiscarded", "CardDrawn", "CardMoved", "CardRemoved",
    "CardRevealed", "CardSquished", "CardStashed", "CardStuck", "CardUnzapped", "CardZapped",
    "CardsSpilled", "CardsUnzapped", "CaughtCheating", "CheatingChecked", "CommittedGoldReturned",
    "DamageAllocated", "DamageDealt", "DefenderCardsCommitted", "DefenderCardsReturned",
    "DefenderFaced", "DefenderReady", "FightEnded", "FightStarted", "FirstPlayerChosen",
    "FirstPlayerRolled", "GameCreated", "GameEnded", "GoldCommitted", "GoldGranted",
    "GoldRefilled", "GoldStolen", "GoldTaken", "Healed", "HireGoldSpent", "LevelIncreased",
    "LocationPlayed", "LootPlayed", "MischiefPlayed", "MonsterCostModified", "MonsterDiscarded",
    "MonsterHired", "MonsterStashedFaceUp", "MulliganDeclined", "MulliganTaken",
    "OpeningHandDrawn", "PhaseStarted", "PlayerConceded", "PlayerEliminated", "PriorityPassed",
    "RanAway", "ResponseWindowClosed", "RunAwayMarkerFlipped", "StashUnstashed", "TokensCollected",
    "TurnEnded", "TurnStarted",
}  # fmt: skip


def example(cls: type[Event]) -> Event:
    """An instance of ``cls`` with a plausible value in every field."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in ("seat", "cause", "violation"):
            continue
        t = str(f.type)
        if t.startswith("list"):
            values[f.name] = ["c1", "c2"]
        elif t.startswith("dict[str, int]"):
            values[f.name] = {"A": 3, "B": 4}
        elif t.startswith("dict"):
            values[f.name] = {"k": 1}
        elif t.startswith("int") or t == "int | None":
            values[f.name] = 2
        elif t == "bool":
            values[f.name] = True
        else:
            values[f.name] = "c1"
    return cls(seat="A", cause=7, violation="rule/x", **values)


ALL = sorted((n, c) for n, c in EVENT_TYPES.items() if n in PERMANENT_NAMES)


def test_the_event_class_names_are_the_permanent_stored_topics() -> None:
    """New event types may be added; a stored one may never disappear or be renamed."""
    assert set(EVENT_TYPES) >= PERMANENT_NAMES


@pytest.mark.parametrize(("name", "cls"), ALL, ids=[n for n, _ in ALL])
def test_every_event_survives_a_json_round_trip(name: str, cls: type[Event]) -> None:
    event = example(cls)
    data = json.loads(json.dumps(event.to_dict()))
    assert data["type"] == name and data["v"] == cls.class_version
    assert event_from_dict(data) == event


@pytest.mark.parametrize(("name", "cls"), ALL, ids=[n for n, _ in ALL])
def test_every_event_repr_is_runnable_code(name: str, cls: type[Event]) -> None:
    event = example(cls)
    assert eval(repr(event), vars(ev)) == event


@pytest.mark.parametrize(("name", "cls"), ALL, ids=[n for n, _ in ALL])
def test_events_are_frozen(name: str, cls: type[Event]) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        example(cls).seat = "B"  # type: ignore[misc]


def dataclass_twin(cls: type[Event]) -> type[Event]:
    """``cls`` as ``@dataclass`` alone builds it, without :func:`register_event`'s faster
    ``__init__`` (same fields, defaults and base classes)."""
    twin = type(cls.__name__, cls.__bases__, {"__annotations__": {}, "__module__": cls.__module__})
    names = {f.name for b in cls.__bases__ for f in dataclasses.fields(b)}
    own = [f for f in dataclasses.fields(cls) if f.name not in names]
    return dataclasses.make_dataclass(
        cls.__name__,
        [(f.name, f.type, dataclasses.field(default=f.default, default_factory=f.default_factory))
         for f in own],
        bases=twin.__bases__, frozen=True, slots=True, kw_only=True,
    )  # fmt: skip


@pytest.mark.parametrize(("name", "cls"), ALL, ids=[n for n, _ in ALL])
def test_the_fast_init_builds_what_the_dataclass_init_builds(name: str, cls: type[Event]) -> None:
    """register_event's ``__init__`` (domain.events.slot_init) is the dataclass's, faster."""
    assert "_set_seat" in cls.__init__.__code__.co_names  # it is the one in use
    twin = dataclass_twin(cls)
    event = example(cls)
    given = {f.name: getattr(event, f.name) for f in dataclasses.fields(cls)}
    required = {
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    for kwargs in (given, {k: v for k, v in given.items() if k in required}):
        fast, slow = cls(**kwargs), twin(**kwargs)
        assert [getattr(fast, f.name) for f in dataclasses.fields(cls)] == [
            getattr(slow, f.name) for f in dataclasses.fields(twin)
        ]
        if not kwargs:
            continue
        with pytest.raises(TypeError):
            cls(**{**kwargs, "no_such_field": 1})
        if required:
            missing = dict(kwargs)
            missing.pop(sorted(required)[0])
            with pytest.raises(TypeError):
                cls(**missing)
    defaults = [
        f.name for f in dataclasses.fields(cls) if f.default_factory is not dataclasses.MISSING
    ]
    if defaults:  # a default factory gives each instance its own value
        only = {k: v for k, v in given.items() if k in required}
        assert getattr(cls(**only), defaults[0]) is not getattr(cls(**only), defaults[0])


def test_slot_init_keeps_the_dataclass_init_of_what_it_cannot_copy() -> None:
    @dataclass(frozen=True, slots=True, kw_only=True)
    class Checked(Event):
        amount: int

        def __post_init__(self) -> None:
            assert self.amount >= 0

    @dataclass(frozen=True, slots=True)
    class Positional(Event):
        amount: int = 0

    assert slot_init(Checked) is None and slot_init(Positional) is None


@pytest.mark.parametrize(("name", "cls"), ALL, ids=[n for n, _ in ALL])
def test_every_class_version_has_its_upcasters(name: str, cls: type[Event]) -> None:
    for v in range(1, cls.class_version):
        assert callable(getattr(cls, f"upcast_v{v}_v{v + 1}", None)), (name, v)


def test_an_old_payload_is_upcast_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    @dataclass(frozen=True, slots=True, kw_only=True)
    class Renamed(Event):
        """v1 had ``who``; v2 renamed it ``player``; v3 added ``note``."""

        player: str
        note: str
        class_version: ClassVar[int] = 3

        @staticmethod
        def upcast_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
            data = dict(data)
            data["player"] = data.pop("who")
            return data

        @staticmethod
        def upcast_v2_v3(data: dict[str, Any]) -> dict[str, Any]:
            return {**data, "note": "none"}

    monkeypatch.setitem(EVENT_TYPES, "Renamed", Renamed)
    old = {"type": "Renamed", "v": 1, "seat": "A", "cause": None, "violation": None, "who": "B"}
    assert event_from_dict(old) == Renamed(seat="A", player="B", note="none")
    no_version = {k: v for k, v in old.items() if k != "v"}
    assert event_from_dict(no_version) == Renamed(seat="A", player="B", note="none")
    current = Renamed(seat="A", player="B", note="n").to_dict()
    assert event_from_dict(current) == Renamed(seat="A", player="B", note="n")


def test_an_unknown_event_type_is_an_invalid_command() -> None:
    with pytest.raises(InvalidCommand) as info:
        event_from_dict({"type": "NoSuchEvent"})
    assert info.value.code == "request/unknown_event"


def test_card_ids_lists_every_card_an_event_names() -> None:
    assert ev.MulliganTaken(player="A", returned=["a"], cards=["b"]).card_ids() == ["a", "b"]
    alloc = ev.DamageAllocated(player="B", allocation={"x": 1, "hero": 2})
    assert alloc.card_ids() == ["x"]
    assert ev.DamageDealt(source=None, target="t", amount=1).card_ids() == ["t"]


def test_engine_events_name_the_version_of_the_command_event_that_caused_them() -> None:
    s, _ = started_game()
    s, pot = give(s, "A", "Sample Plant Pot")
    version = s["version"]
    s, events = play(s, cmd("attack", "A", card=pot, gold=0), cmd("run_away", "B"))
    assert [e.cause for e in events[:3]] == [None, version + 1, version + 1]
    ran = version + 4
    assert events[3].cause is None and events[3].seat == "B"
    assert all(e.cause == ran and e.seat == "rules" for e in events[4:])


def test_evolve_never_mutates_its_input_and_counts_versions() -> None:
    game = RandomGame(seed=5)
    game.run()
    state = {"version": 0, "status": "new"}
    for event in game.events:
        frozen = json.dumps(state, sort_keys=True)
        new = evolve(state, event)
        assert json.dumps(state, sort_keys=True) == frozen
        assert new["version"] == state["version"] + 1
        state = new
    assert state == game.state
