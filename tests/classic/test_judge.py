"""The judge's classic corrections and backups (docs/rules.md B.17, A.14), with no service.

One test per correction (its event, its fold, its refusals), then backups: for random classic
games of 3-6 seats (the generator of ``test_random_games``), undoing every event after a point
gives the state at that point, version by version, and no restoring event names a card to a
seat that knew it neither before nor after (a hand put back stays hidden, A.4).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import event_from_dict, evolve, initial_state
from domain.classic import CLASSIC
from domain.classic.corrections import (
    RESTORATIONS,
    BackupImpossible,
    ClassicJudgeCardMoved,
    ClassicJudgeCombatEnded,
    ClassicJudgeDeathSet,
    ClassicJudgeLevelSet,
    ClassicJudgeTurnSet,
    backup_events,
    undo_steps,
)
from domain.errors import DomainError, ImpossibleCommand, InvalidCommand, UnknownVersion
from domain.events import Event
from domain.fold import State
from domain.visibility import knowledge
from projections.views import event_view, state_view
from tests.classic.helpers import Game, ready_all, started, top_door
from tests.classic.test_random_games import check_position, check_views, play

RS = "munchkin-deluxe"
RAT = {
    "name": "Rat",
    "deck": "door",
    "kind": "monster",
    "level": 1,
    "treasures": 1,
    "text": "A rat.",
    "bad_stuff": [{"lose_levels": 1}],
}
CURSE = {
    "name": "Sticky Curse",
    "deck": "door",
    "kind": "curse",
    "text": "Stays.",
    "effects": [],
    "persistent": True,
}
HAT = {
    "name": "Hat",
    "deck": "treasure",
    "kind": "item",
    "slot": "headgear",
    "bonus": 1,
    "value": 200,
    "text": "A hat.",
}


def game(seats: int = 4) -> Game:
    """A started 4-seat Deluxe game, A to play, a Rat and a Curse on top of the Doors."""
    g = started(RS, [RAT, CURSE], [HAT], seats, hands={"A": ([], ["Hat"])})
    ready_all(g)
    return g


def correct(g: Game, **command: Any) -> Event:
    """Decide one correction (``corrects`` the last version unless given) and fold it."""
    command.setdefault("corrects", g.state["version"])
    event = g.rs.decide_correction(g.state, command)
    g.state = evolve(g.state, event)
    g.events.append(event)
    assert event.seat == "judge" and event.forced_by_judge  # type: ignore[attr-defined]
    assert event.corrects == command["corrects"]  # type: ignore[attr-defined]
    assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event
    assert g.refold() == g.state
    return event


def refused(g: Game, **command: Any) -> DomainError:
    command.setdefault("corrects", g.state["version"])
    with pytest.raises(DomainError) as info:
        g.rs.decide_correction(g.state, command)
    return info.value


# ---------------------------------------------------------------------------- corrections


def test_set_level() -> None:
    g = game()
    event = correct(g, type="set_level", player="C", level=7)
    assert isinstance(event, ClassicJudgeLevelSet)
    assert g.seat("C")["level"] == 7
    for bad in (0, 11, "3", True, None):
        err = refused(g, type="set_level", player="C", level=bad)
        assert isinstance(err, InvalidCommand) and err.code == "request/invalid_number"
    err = refused(g, type="set_level", player="F", level=3)  # a 4-seat game has no F
    assert isinstance(err, InvalidCommand) and err.code == "request/invalid_seat"


def test_move_a_hand_card_to_another_seat_and_back_to_the_deck() -> None:
    g = game()
    hat = g.id("Hat")
    assert g.state["cards"][hat]["zone"] == "hand" and g.state["cards"][hat]["owner"] == "A"
    event = correct(g, type="move", card=hat, to="hand", player="B")
    assert isinstance(event, ClassicJudgeCardMoved)
    assert hat in g.seat("B")["zones"]["hand"] and hat not in g.seat("A")["zones"]["hand"]
    assert g.state["cards"][hat]["known"] == ["A", "B"]  # A saw it go
    correct(g, type="move", card=hat, to="treasure")
    card = g.state["cards"][hat]
    assert (card["zone"], card["owner"], card["known"]) == ("treasure", None, [])
    assert hat in g.state["decks"]["treasure"] and hat not in g.seat("B")["zones"]["hand"]
    check_position(g.state)


def test_move_to_play_zones_and_discards_is_public() -> None:
    g = game()
    hat = g.id("Hat")
    correct(g, type="move", card=hat, to="equipped", player="D")
    assert hat in g.seat("D")["zones"]["equipped"]
    assert g.state["cards"][hat]["known"] == ["A", "B", "C", "D"]
    assert g.state["cards"][hat]["face"] == "up"
    correct(g, type="move", card=hat, to="treasure_discard")
    assert g.state["decks"]["treasure_discard"][-1] == hat
    check_position(g.state)


def test_move_refusals() -> None:
    g = game()
    hat, rat = g.id("Hat"), g.id("Rat")
    cases = [
        ({"card": "nope", "to": "hand", "player": "A"}, "command/unknown_card"),
        ({"to": "hand", "player": "A"}, "request/missing_field"),
        ({"card": hat, "to": "pocket", "player": "A"}, "request/invalid_zone"),
        ({"card": hat, "to": "hand"}, "request/invalid_seat"),
        ({"card": hat, "to": "treasure", "player": "A"}, "request/invalid_seat"),
        ({"card": hat, "to": "door"}, "command/wrong_zone"),  # a Treasure in the Doors
        ({"card": rat, "to": "equipped", "player": "A"}, "command/wrong_zone"),
        ({"card": hat, "to": "race", "player": "A"}, "command/wrong_zone"),
    ]
    for fields, code in cases:
        assert refused(g, type="move", **fields).code == code, fields


def test_a_card_in_the_combat_moves_only_after_the_combat() -> None:
    g = game()
    g.do("A", "kick_door", card=top_door(g, "Rat"))
    rat = g.id("Rat")
    err = refused(g, type="move", card=rat, to="door_discard")
    assert isinstance(err, ImpossibleCommand) and err.code == "command/card_in_combat"
    assert refused(g, type="set_turn", phase="charity").code == "command/combat_on"
    # without a phase the table's ("combat") is kept: the combat is what refuses it, not the body
    assert refused(g, type="set_turn", player="B").code == "command/combat_on"
    event = correct(g, type="end_combat")
    assert isinstance(event, ClassicJudgeCombatEnded)
    assert g.state["combat"] is None and g.state["phase"] == "charity"
    assert rat in g.state["decks"]["door_discard"]
    assert refused(g, type="end_combat").code == "command/no_combat"
    check_position(g.state)


def test_give_and_take_a_curse() -> None:
    g = game()
    curse, hat = g.id("Sticky Curse"), g.id("Hat")
    correct(g, type="give_curse", card=curse, player="B")
    assert g.seat("B")["zones"]["curses"] == [curse]
    assert g.state["cards"][curse]["face"] == "up"
    assert refused(g, type="give_curse", card=hat, player="B").code == "command/wrong_zone"
    assert refused(g, type="take_curse", card=hat).code == "command/card_not_there"
    correct(g, type="take_curse", card=curse)
    assert g.seat("B")["zones"]["curses"] == []
    assert g.state["decks"]["door_discard"][-1] == curse
    assert refused(g, type="take_curse", card=curse).code == "command/card_not_there"
    check_position(g.state)


def test_mark_dead_and_alive() -> None:
    g = game()
    event = correct(g, type="set_dead", player="C", dead=True)
    assert isinstance(event, ClassicJudgeDeathSet) and g.seat("C")["dead"] is True
    correct(g, type="set_dead", player="C", dead=False)
    assert g.seat("C")["dead"] is False
    assert refused(g, type="set_dead", player="C", dead="yes").code == "request/invalid_flag"


def test_set_the_active_seat_and_phase() -> None:
    g = game()
    event = correct(g, type="set_turn", player="C", phase="look_for_trouble")
    assert isinstance(event, ClassicJudgeTurnSet)
    assert (g.state["active"], g.state["phase"]) == ("C", "look_for_trouble")
    correct(g, type="set_turn", phase="charity")
    assert (g.state["active"], g.state["phase"]) == ("C", "charity")
    # the game goes on from there: C's turn ends (its charity first), A has no turn to end
    ends = ("charity", "end_turn")
    assert any(c["type"] in ends for c in g.rs.legal_commands(g.state, "C"))
    assert not any(c["type"] in ends for c in g.rs.legal_commands(g.state, "A"))
    assert refused(g, type="set_turn").code == "request/missing_field"
    assert refused(g, type="set_turn", phase="combat").code == "request/invalid_phase"


def test_set_turn_needs_a_game_being_played() -> None:
    g = started(RS, [], [], 3)  # in setup: nobody is ready
    assert refused(g, type="set_turn", player="B", phase="kick_door").code == "command/not_playing"


def test_unknown_corrections_and_versions() -> None:
    g = game()
    assert refused(g, type="damage", target="A", amount=1).code == "request/unknown_correction"
    err = refused(g, type="set_level", player="A", level=2, corrects=g.state["version"] + 1)
    assert isinstance(err, UnknownVersion)
    assert refused(g, type="set_level", player="A", level=2, corrects=0).code == (
        "request/invalid_number"
    )


# ---------------------------------------------------------------------------- backups


def records(events: list[Event]) -> list[dict[str, Any]]:
    return [{"version": i + 1, "event": e.to_dict()} for i, e in enumerate(events)]


def states_of(events: list[Event]) -> list[State]:
    states = [initial_state()]
    for event in events:
        states.append(evolve(states[-1], event))
    return states


def restorable(state: State) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("version", "disputes")}


def card_ids_in(value: Any, cards: State) -> set[str]:
    if isinstance(value, dict):
        return {i for k, v in value.items() for i in card_ids_in(k, cards) | card_ids_in(v, cards)}
    if isinstance(value, list):
        return {i for v in value for i in card_ids_in(v, cards)}
    return {value} if isinstance(value, str) and value in cards else set()


def check_no_leak(before: State, after: State, event: Event, version: int) -> None:
    """No seat's view of ``event`` names a card that seat knew neither before nor after."""
    record = {
        "version": version,
        "event": event.to_dict(),
        "visible_to": knowledge(before, after, event),
    }
    for viewer in after["seats"]:
        shown = card_ids_in(event_view(record, viewer)["data"], after["cards"])
        for cid in shown:
            known = {*before["cards"][cid]["known"], *after["cards"][cid]["known"]}
            assert viewer in known, (viewer, cid, event)


def check_backup(g: Game, point: int) -> int:
    """Back ``g`` up to ``point``: every undo leads to the state before the event it undoes.
    Returns the number of restoring events."""
    states = states_of(g.events)
    later = records(g.events)[point:]
    undone = undo_steps(states[point], g.state, later)
    assert [v for v, _ in undone] == list(range(len(g.events), point, -1))
    work, count = g.state, 0
    for version, steps in undone:
        for step in steps:
            assert isinstance(step.event, RESTORATIONS)
            assert step.event.undoes == version  # type: ignore[attr-defined]
            assert event_from_dict(json.loads(json.dumps(step.event.to_dict()))) == step.event
            after = evolve(work, step.event)
            assert after == step.state
            check_no_leak(work, after, step.event, int(work["version"]) + 1)
            work = after
            count += 1
        assert restorable(work) == restorable(states[version - 1]), version
    check_position(work)
    check_views(work)
    return count


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rs=st.sampled_from(sorted(CLASSIC)),
    seats=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    mode=st.sampled_from(["strict", "record"]),
    back=st.floats(0.0, 1.0),
)
def test_a_backup_restores_the_state_at_the_point(
    rs: str, seats: int, seed: int, mode: str, back: float
) -> None:
    g = play(rs, seats, seed, mode, limit=120)
    point = max(1, int(len(g.events) * back))
    check_backup(g, point)


def test_the_game_goes_on_after_a_backup() -> None:
    """Backed up to a point, the game accepts the same commands it did then."""
    g = play(RS, 4, 5, "strict", strays=0, limit=80)
    point = len(g.events) // 2
    states = states_of(g.events)
    work = g.state
    for _, steps in undo_steps(states[point], g.state, records(g.events)[point:]):
        work = steps[-1].state if steps else work
    for seat in work["seats"]:
        assert g.rs.legal_commands(work, seat) == g.rs.legal_commands(states[point], seat)


def test_a_hand_put_back_stays_hidden() -> None:
    """Cards dealt after the point go back to the deck; a seat other than their holder never
    sees their ids in the restoring events or in its view (docs/rules.md A.4)."""
    g = started(RS, [], [], 4)
    point = 1  # the game's creation: every hand goes back to the decks
    dealt = list(g.seat("B")["zones"]["hand"])
    assert len(dealt) == 8
    states = states_of(g.events)
    undone = undo_steps(states[point], g.state, records(g.events)[point:])
    work = g.state
    for _, steps in undone:
        for step in steps:
            record = {
                "version": int(work["version"]) + 1,
                "event": step.event.to_dict(),
                "visible_to": knowledge(work, step.state, step.event),
            }
            for viewer in ("A", "C", "D", "spectator"):
                view = event_view(record, viewer, seats=list(work["seats"]))
                assert not card_ids_in(view["data"], work["cards"]) & set(dealt), viewer
            work = step.state
    assert restorable(work) == restorable(states[point])
    assert state_view(work, "B")["seats"]["B"]["hand_count"] == 0


def test_backup_of_a_correction_and_of_nothing() -> None:
    g = game()
    before = g.state
    hat = g.id("Hat")
    correct(g, type="move", card=hat, to="carried", player="C")
    correct(g, type="set_level", player="C", level=5)
    steps = backup_events(before, g.state)
    state = g.state
    for step in steps:
        state = evolve(state, step.event)
    assert restorable(state) == restorable(before)
    assert backup_events(g.state, g.state) == []


def test_a_backup_needs_the_same_game() -> None:
    a, b = game(), game(3)
    with pytest.raises(BackupImpossible):
        backup_events(a.state, b.state)
    with pytest.raises(BackupImpossible):
        backup_events(initial_state(), a.state)
    later = records(a.events)[3:]
    with pytest.raises(BackupImpossible):
        undo_steps(states_of(a.events)[1], a.state, later)  # skips versions 2 and 3


def test_several_random_games_back_up_to_their_start() -> None:
    """Whole games undone to their creation (every event kind the generator makes)."""
    rng = random.Random(14)
    total = 0
    for rs in sorted(CLASSIC):
        g = play(rs, rng.randint(3, 6), rng.randrange(2**32), "record", limit=100)
        total += check_backup(g, 1)
    assert total > 100
