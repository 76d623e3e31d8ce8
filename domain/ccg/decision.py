"""The CCG's decision in progress: the kernel's (:class:`domain.decision.DecisionCore`, which
folds each emitted event at once) plus what this ruleset adds to every event.

A seat's own event while an unchecked card's ability resolves is ``unchecked`` too
(docs/cards.md), and after each event the state check runs (:func:`check_eliminations`,
docs/rules.md A.13, D.9), unless the decision holds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.ccg import events as ev
from domain.ccg.state import SEATS
from domain.decision import Command, DecisionCore
from domain.fair import DICE, RandomUse, deal_use
from domain.fold import State

__all__ = ["Command", "Decision", "check_eliminations", "end_if_decided", "hero_of"]


class Decision(DecisionCore):
    """One decision in progress (:class:`domain.decision.DecisionCore`) and what this ruleset
    adds to its events."""

    __slots__ = ("held",)

    def __init__(self, state: State, command: Command) -> None:
        super().__init__(state, command)
        #: While set, the state check waits: one atomic event recorded as several stored
        #: events (damage to each Hero at once) is checked once, after all of them (D.9).
        self.held = False

    def stamp(self, fields: dict[str, Any]) -> None:
        """An effect of an unchecked card is unchecked (docs/cards.md)."""
        if "unchecked" not in fields:
            stack = self.state.get("stack")
            if stack and stack[-1]["player"] == self.seat and stack[-1].get("unchecked"):
                fields["unchecked"] = True

    def settle(self, cls: type[Any] | None = None) -> None:
        """docs/rules.md A.13 / D.9: after every event (an ability's too), unless held, a Hero
        whose damage reaches its life is out; the last Hero wins. Not after the events this
        check emits itself."""
        if self.held or cls is ev.PlayerEliminated or cls is ev.GameEnded:
            return
        s = self.state
        if s.get("status") != "playing":
            return
        seats, cards = s["seats"], s["cards"]
        out = []
        for seat in SEATS:  # after every event: kept lean
            st = seats[seat]
            if not st["eliminated"]:
                hero = cards[st["hero"]]
                if hero["damage"] >= (hero["def"].get("life") or 0):
                    out.append(seat)
        if not out:
            return
        for seat in out:
            self.emit(ev.PlayerEliminated, actor="rules", player=seat, reason="life")
        end_if_decided(self)


# ============================================================================ the state check


def check_eliminations(decision: Decision) -> None:
    """The state check now (:meth:`Decision.settle`), e.g. once a held check is released."""
    decision.settle()


def end_if_decided(decision: Decision) -> None:
    alive = [seat for seat in SEATS if not decision.state["seats"][seat]["eliminated"]]
    if len(alive) <= 1:
        if decision.state.get("fight") is not None:  # an elimination mid-fight ends the fight too
            decision.emit(ev.FightEnded, actor="rules", outcome="game_over")
        decision.emit(ev.GameEnded, actor="rules", winner=alive[0] if alive else "draw")


def hero_of(s: State, seat: str) -> dict[str, Any]:
    card: dict[str, Any] = s["cards"][s["seats"][seat]["hero"]]
    return card


def dealt_from_top(decision: Decision, seat: str, n: int) -> list[str]:
    """The top ``n`` cards of ``seat``'s deck as the server deals them (docs/rules.md D.20,
    E.1): the cards known to be on top first, then cards drawn by the game's key from those in
    no known order, then the known bottom ones. Only the part in no known order is random."""
    deck = decision.state["seats"][seat]["zones"]["deck"]
    known_top, middle, wanted = deck_draw(decision.state, seat, n)
    drawn = decision.deal(f"{seat}:deck", middle, wanted) if wanted else []
    bottom = decision.state["seats"][seat].get("deck_known_bottom", 0)
    rest = deck[len(deck) - bottom :][: min(n, len(deck)) - len(known_top) - len(drawn)]
    return [*known_top, *drawn, *rest]


def deck_draw(s: State, seat: str, n: int) -> tuple[list[str], list[str], int]:
    """A draw of ``n`` cards from the top of ``seat``'s deck (docs/rules.md D.20, E.1): the
    cards known to be on top it takes without chance, the deck's cards in no known order, and
    how many of those it takes by chance (the rest come from the known bottom)."""
    st = s["seats"][seat]
    deck = st["zones"]["deck"]
    n = min(n, len(deck))
    top, bottom = st.get("deck_known_top", 0), st.get("deck_known_bottom", 0)
    known_top = list(deck[: min(top, n)])
    middle = list(deck[top : len(deck) - bottom])
    return known_top, middle, min(n - len(known_top), len(middle))


#: The CCG's draws, by event type: the field that holds the cards drawn from the player's deck.
DRAWS = {"OpeningHandDrawn": "cards", "CardDrawn": "card", "CardsSpilled": "cards"}


def random_uses(s: State, data: Mapping[str, Any]) -> list[RandomUse]:
    """What a CCG event takes by chance in a server-dealt game (``Family.random_uses``): an
    opening hand, a draw or a spill the cards of the player's deck in no known order (D.20's
    known top card by none), a mulligan the deck with the hand shuffled into it, the roll for
    first its dice."""
    kind, player = data.get("type"), data.get("player")
    if kind == "FirstPlayerRolled":
        return [DICE]
    if kind not in (*DRAWS, "MulliganTaken") or not isinstance(player, str):
        return []
    if player not in s.get("seats", {}):
        return []
    zones = s["seats"][player]["zones"]
    drawn = data.get(DRAWS.get(str(kind), "cards"))
    n = 1 if isinstance(drawn, str) else len(drawn) if isinstance(drawn, list) else 0
    if kind == "MulliganTaken":
        return [deal_use(f"{player}:deck", [*zones["deck"], *zones["hand"]], n)]
    _, middle, wanted = deck_draw(s, str(player), n)
    return [deal_use(f"{player}:deck", middle, wanted)]
