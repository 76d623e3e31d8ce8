"""What a refused batch may tell in a server-dealt game (issue #35, docs/rules.md E.1): a draw or
a die ends its batch, and a command that draws or rolls carries no card and no value at all.

A refused batch records nothing and uses up no counter: a refusal decided after a draw would
tell the card drawn (or the die) before it is recorded, as often as a seat cares to ask
(issue #35's findings 4 and 5, replayed here). The property over random batches of both
families and dealings is tests/property/test_refusals_tell_nothing.py.
"""

from __future__ import annotations

import copy
from typing import Any
from uuid import UUID

import pytest

from domain.errors import DomainError, ImpossibleCommand, RuleViolation
from domain.fair import DEALT_FIELDS
from domain.game import decide_commands
from domain.ruleset import find_ruleset
from service.games import GameLog
from tests.service.helpers import refused, start
from tests.service.test_dealing import act, seeded, started

#: A value for each field a command could tell a card drawn or a value rolled in.
TOLD = {
    "card": "x",
    "cards": ["x"],
    "doors": ["x"],
    "treasures": ["y"],
    "roll": 6,
    "rolls": {"A": 6, "B": 1},
    "value": 6,
    "values": [6],
}
#: The CCG's commands that draw or roll (docs/rules.md E.1): none takes a field of ``TOLD``.
CCG_DRAWS = ("draw_opening", "roll_first", "mulligan", "draw", "spill")
NOW = "2026-12-07T12:00:00Z"


def where(log: GameLog, gid: UUID) -> tuple[int, int]:
    """The game's version and its dealing counter."""
    state = log.game(gid).state
    return log.game(gid).version, state["dealing"]["next_counter"]


def answer_to(log: GameLog, gid: UUID, batch: list[dict[str, Any]]) -> tuple[Any, ...]:
    """The refusal of the table's ``batch`` (it must be refused), which changes nothing."""
    before = where(log, gid)
    with pytest.raises(DomainError) as raised:
        log.record(gid, batch, actor="table")
    assert where(log, gid) == before
    error = raised.value
    return type(error), error.code, error.message, error.rule


def test_the_roll_for_first_player_ends_its_batch(log: GameLog) -> None:
    """Finding 4: ``[roll_first, choose_first, end_turn]`` was refused ``rule/not_roll_winner``
    for the seat that lost the roll and ``command/not_playing`` for the winner: the refusal
    told the dice. Now both get the same answer, decided before the dice are rolled."""
    gid, _ = seeded(log)
    act(log, gid, "A", "draw_opening")
    act(log, gid, "B", "draw_opening")
    answers = {
        answer_to(
            log,
            gid,
            [
                {"type": "roll_first", "seat": "A"},
                {"type": "choose_first", "seat": seat, "first": seat},
                {"type": "end_turn", "seat": seat},
            ],
        )
        for seat in "AB"
    }
    ((kind, code, message, rule),) = answers
    assert (kind, code, rule) == (ImpossibleCommand, "command/random_not_last", None)
    assert message.startswith("action 1 of 3 (roll_first) draws or rolls")
    counter = where(log, gid)[1]
    events = act(log, gid, "A", "roll_first")["events"]
    assert events[0]["type"] == "Dealt" and events[0]["data"]["counter"] == counter


def test_the_draw_ends_its_batch_whatever_card_is_named_after_it(log: GameLog) -> None:
    """Finding 5: ``[draw A, play A X, end_turn B]`` for each card X of A's deck was
    ``command/card_not_there`` but for the card about to be drawn. Now one answer for all."""
    gid, _ = seeded(log)
    started(log, gid)
    deck = log.game(gid).state["seats"]["A"]["zones"]["deck"]
    answers = {
        answer_to(
            log,
            gid,
            [
                {"type": "draw", "seat": "A"},
                {"type": "play", "seat": "A", "card": cid},
                {"type": "end_turn", "seat": "B"},
            ],
        )
        for cid in deck
    }
    assert len(deck) > 1 and len(answers) == 1
    assert next(iter(answers))[1] == "command/random_not_last"
    drawn = act(log, gid, "A", "draw")["events"]  # alone it is dealt, at the same counter
    assert [e["type"] for e in drawn][:2] == ["Dealt", "CardDrawn"]


def test_a_draw_last_in_its_batch_is_dealt(log: GameLog) -> None:
    """What comes before a draw is decided as ever; the draw, last, is dealt."""
    gid, _ = seeded(log)
    act(log, gid, "A", "draw_opening")
    with refused(ImpossibleCommand, "command/random_not_last") as caught:
        log.record(
            gid,
            [{"type": "draw_opening", "seat": "B"}, {"type": "roll_first", "seat": "A"}],
            actor="table",
        )
    assert "action 1 of 2 (draw_opening)" in caught.value.message  # type: ignore[attr-defined]
    act(log, gid, "B", "draw_opening")
    while True:
        rolled = act(log, gid, "A", "roll_first")["events"][-1]["data"]
        if not rolled["tie"]:
            break
    winner = max(rolled["rolls"], key=rolled["rolls"].get)
    batch = [
        {"type": "choose_first", "seat": winner, "first": winner},
        {"type": "mulligan", "seat": winner},
    ]
    events = log.record(gid, batch, actor="table").response["events"]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "FirstPlayerChosen" and kinds[-2:] == ["Dealt", "MulliganTaken"]


def test_a_draw_without_chance_does_not_end_its_batch(log: GameLog) -> None:
    """D.20: a card known to be on top is drawn without the key, so the turn's draw may be
    followed in its batch; the same draw from a deck in no known order ends it."""
    gid, _ = seeded(log)
    started(log, gid)
    rules, state = find_ruleset("munchkin-ccg"), log.game(gid).state
    batch = [({"type": "draw", "seat": "A"}, None), ({"type": "end_turn", "seat": "A"}, None)]
    with refused(ImpossibleCommand, "command/random_not_last"):
        decide_commands(rules, state, batch, received_at=NOW, secrets=log.secrets_of(log.game(gid)))
    known = copy.deepcopy(state)
    known["seats"]["A"]["deck_known_top"] = 1  # as a card put on top leaves it
    steps = decide_commands(rules, known, batch, received_at=NOW, secrets=None)  # no key needed
    events = [step.event for step, _ in steps]
    assert events[0].type == "CardDrawn" and "Dealt" not in [e.type for e in events]
    assert events[0].card == state["seats"]["A"]["zones"]["deck"][0]  # type: ignore[attr-defined]
    assert "TurnEnded" in [e.type for e in events]


def test_the_record_mode_ends_the_batch_at_a_draw_too(log: GameLog) -> None:
    gid = start(log, dealing="server", contributors=[], mode="record").game_id
    batch = [{"type": "draw_opening", "seat": "A"}, {"type": "draw_opening", "seat": "B"}]
    with refused(ImpossibleCommand, "command/random_not_last"):
        log.record(gid, batch, actor="table")
    assert log.game(gid).version == 1


def test_a_table_dealt_game_batches_its_draws_as_before(log: GameLog) -> None:
    started_game = start(log)
    state = log.game(started_game.game_id).state
    batch = [
        {"type": "draw_opening", "seat": seat, "cards": state["seats"][seat]["zones"]["deck"][:6]}
        for seat in "AB"
    ]
    events = log.record(started_game.game_id, batch, actor="table").response["events"]
    assert [e["type"] for e in events] == ["OpeningHandDrawn", "OpeningHandDrawn"]


@pytest.mark.parametrize("kind", CCG_DRAWS)
@pytest.mark.parametrize("name", DEALT_FIELDS)
def test_every_card_or_value_field_of_a_draw_is_refused(log: GameLog, kind: str, name: str) -> None:
    """E.1: whether the command would read the field or not (``draw_opening`` with ``card``,
    ``draw`` with ``roll`` ...), before anything else is checked, naming the field."""
    gid, _ = seeded(log)
    before = where(log, gid)
    with refused(RuleViolation, "rule/server_deals") as caught:
        act(log, gid, "A", kind, **{name: TOLD[name]})
    assert caught.value.rule == "E.1"  # type: ignore[attr-defined]
    assert caught.value.message.endswith(f"send no {name}")  # type: ignore[attr-defined]
    assert where(log, gid) == before
