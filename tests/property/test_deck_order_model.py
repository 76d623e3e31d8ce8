"""The deck's known order against a plain model (docs/rules.md D.20), as a hypothesis state machine.

The model of one deck is three parts: the cards known on top (the top one first), the cards of
unknown place, and the cards known at the bottom (the bottom one last). Random sequences of
cards put on the top or the bottom (from the hand, the discard or inside the deck), draws of an allowed
card, draws of a card the model says is not on top, and spills of the top X are recorded through
``decide`` while A's Hero ability resolves (its text not encoded, so any effect may be recorded:
``tests.builders.resolving``); after each step the state must agree with the model: which cards
a draw may take, and the known top and bottom cards. A draw of a card the model forbids must be
refused in strict mode with ``rule/not_the_top_card``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from domain import RuleViolation
from domain.ccg.state import drawable, known_bottom, known_top, takes_from_top
from projections.replay import invariant_violations
from tests.builders import RS, State, cmd, hero, play, resolving

SCALE = 10 if os.environ.get("MUNCHLOG_HYPOTHESIS") == "heavy" else 1


class DeckOrder(RuleBasedStateMachine):
    """Seat A's deck against ``top`` + ``unknown`` + ``bottom``."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State = resolving("A")
        self.top: list[str] = []
        self.bottom: list[str] = []
        self.unknown: set[str] = set(self.deck)

    # -- helpers

    @property
    def deck(self) -> list[str]:
        return list(self.state["seats"]["A"]["zones"]["deck"])

    @property
    def hand(self) -> list[str]:
        return list(self.state["seats"]["A"]["zones"]["hand"])

    @property
    def discard(self) -> list[str]:
        return list(self.state["seats"]["A"]["zones"]["discard"])

    def allowed(self) -> list[str]:
        """The cards a draw may take, by the model."""
        if self.top:
            return [self.top[0]]
        if self.unknown:
            return sorted(self.unknown)
        return self.bottom[:1]

    def forget(self, cid: str) -> None:
        self.unknown.discard(cid)
        self.top = [c for c in self.top if c != cid]
        self.bottom = [c for c in self.bottom if c != cid]

    def record(self, **command: object) -> None:
        kind = str(command.pop("type"))
        self.state, events = play(
            self.state, cmd(kind, "A", source=hero(self.state, "A"), **command)
        )
        assert events and all(e.violation is None for e in events), events

    # -- rules

    @precondition(lambda self: self.hand)
    @rule(index=st.integers(0, 100), to=st.sampled_from(["deck_top", "deck_bottom"]))
    def put_from_hand(self, index: int, to: str) -> None:
        card = self.hand[index % len(self.hand)]
        self.record(type="move", card=card, to=to)
        if to == "deck_top":
            self.top.insert(0, card)
        else:
            self.bottom.append(card)

    @precondition(lambda self: self.discard)
    @rule(index=st.integers(0, 100), to=st.sampled_from(["deck_top", "deck_bottom"]))
    def put_from_the_discard(self, index: int, to: str) -> None:
        card = self.discard[index % len(self.discard)]
        self.record(type="move", card=card, to=to)
        if to == "deck_top":
            self.top.insert(0, card)
        else:
            self.bottom.append(card)

    @precondition(lambda self: self.deck)
    @rule(index=st.integers(0, 100), to=st.sampled_from(["deck_top", "deck_bottom"]))
    def put_from_the_deck(self, index: int, to: str) -> None:
        card = self.deck[index % len(self.deck)]
        self.record(type="move", card=card, to=to)
        self.forget(card)
        if to == "deck_top":
            self.top.insert(0, card)
        else:
            self.bottom.append(card)

    @precondition(lambda self: self.deck)
    @rule(index=st.integers(0, 100))
    def draw_an_allowed_card(self, index: int) -> None:
        options = self.allowed()
        card = options[index % len(options)]
        self.record(type="draw", card=card)
        self.forget(card)
        assert card in self.hand

    @precondition(lambda self: len(self.deck) > len(self.allowed()))
    @rule(index=st.integers(0, 100))
    def draw_a_card_not_on_top(self, index: int) -> None:
        wrong = [c for c in self.deck if c not in self.allowed()]
        card = wrong[index % len(wrong)]
        with pytest.raises(RuleViolation) as info:
            RS.decide(self.state, cmd("draw", "A", source=hero(self.state, "A"), card=card))
        assert (info.value.code, info.value.rule) == ("rule/not_the_top_card", "D.20")

    @precondition(lambda self: self.deck)
    @rule(size=st.integers(1, 6), index=st.integers(0, 100))
    def spill_the_top(self, size: int, index: int) -> None:
        size = min(size, len(self.deck))
        spilled = self.top[:size]
        unknown = sorted(self.unknown)
        if len(spilled) < size:  # then cards of unknown place, from any of them
            start = index % len(unknown) if unknown else 0
            picked = (unknown[start:] + unknown[:start])[: size - len(spilled)]
            spilled += picked
        spilled += self.bottom[: size - len(spilled)]
        assert takes_from_top(self.state, "A", spilled)
        self.record(type="spill", cards=spilled)
        for card in spilled:
            self.forget(card)

    # -- invariants

    @invariant()
    def the_state_knows_what_the_model_knows(self) -> None:
        assert set(drawable(self.state, "A")) == set(self.allowed())
        if self.unknown:
            assert known_top(self.state, "A") == self.top
            assert known_bottom(self.state, "A") == self.bottom
        else:  # nothing of unknown place: the whole deck is known from the top
            assert known_top(self.state, "A") == self.top + self.bottom
            assert known_bottom(self.state, "A") == []
        assert set(self.deck) == self.unknown | set(self.top) | set(self.bottom)
        assert invariant_violations(self.state) == []


DeckOrder.TestCase.settings = settings(
    max_examples=40 * SCALE,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
test_the_deck_order_follows_the_model = DeckOrder.TestCase
