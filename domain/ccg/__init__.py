"""The Munchkin Collectible Card Game (docs/rules.md A, indexed in docs/rules.md), as a ruleset.

``decide(state, command)`` checks the command and returns its steps: the events with the state
after each. Steps the rules perform on their own (warmup, the cheating check, hire gold,
strikes, end-of-fight moves, cooldown, eliminations) are emitted too, by the engine
(``seat="rules"``). The modules follow the rules' sections: :mod:`~domain.ccg.setup` (A.7),
:mod:`~domain.ccg.turn` (A.8), :mod:`~domain.ccg.fights` (A.9), :mod:`~domain.ccg.damage`
(A.10), :mod:`~domain.ccg.abilities` (A.11-A.12), :mod:`~domain.ccg.effects` (effect
commands), :mod:`~domain.ccg.stack` (resolving, passing), :mod:`~domain.ccg.end` (A.13),
:mod:`~domain.ccg.moves` (legal commands) and :mod:`~domain.ccg.corrections` (the judge's
corrections, A.14). They import one another one way, every import at the top (tests/test_layers.py).

>>> CCG.name, CCG.rules_version, CCG.seat_names
('munchkin-ccg', 'ccg-2018-07', ('A', 'B'))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from domain.arguments import seat_arg
from domain.ccg import abilities, effects, end, fights, hosting, schema, setup, stack, turn
from domain.ccg import fold_fights as _fold_fights  # noqa: F401  (registers the fight handlers)
from domain.ccg import time_out as _time
from domain.ccg.cards import EFFECT_OPS, Catalog, resolve_entry, sample_catalog
from domain.ccg.corrections import JUDGE_EFFECTS, RESTORATIONS, decide_correction, undo_steps
from domain.ccg.decision import Command, Decision, random_uses
from domain.ccg.demo import demo_spec
from domain.ccg.fights import commitment
from domain.ccg.history import HISTORY_UPDATES, RESULT_UPDATES, hero_name
from domain.ccg.invariants import invariant_violations
from domain.ccg.moves import legal_commands, waiting_for
from domain.ccg.narration import CcgNarrator
from domain.ccg.state import SEATS
from domain.ccg.views import (
    DIFF_CARD_FIELDS,
    DIFF_PARTS,
    ccg_card,
    ccg_seat,
    ccg_table,
    diff_part_view,
)
from domain.envelope import Record
from domain.events import Event
from domain.fair import RandomUse
from domain.family import EntryResolver, EventEntry, Family, ResultUpdate
from domain.fold import State
from domain.history import HistoryUpdate
from domain.narration import Narrator
from domain.ruleset import Step, handler_for, register

HANDLERS: dict[str, Callable[[Decision, Command], None]] = {
    "draw_opening": setup.decide_draw_opening,
    "roll_first": setup.decide_roll_first,
    "choose_first": setup.decide_choose_first,
    "keep": setup.decide_keep,
    "mulligan": setup.decide_mulligan,
    "draw": turn.decide_draw,
    "play": turn.decide_play,
    "squish": turn.decide_squish,
    "zap": effects.decide_zap,
    "unzap": effects.decide_unzap,
    "activate": abilities.decide_activate,
    "resolve": stack.decide_resolve,
    "target": stack.decide_target,
    "cancel": effects.decide_cancel,
    "pass": stack.decide_pass,
    "end_turn": turn.decide_end_turn,
    "concede": end.decide_concede,
    "attack": fights.decide_attack,
    "run_away": fights.decide_run_away,
    "face": fights.decide_face,
    "commit": fights.decide_commit,
    "ready": fights.decide_ready,
    "reveal": fights.decide_reveal,
    "modify_cost": effects.decide_modify_cost,
    "allocate": fights.decide_allocate,
    "damage": effects.decide_damage,
    "heal": effects.decide_heal,
    "steal": effects.decide_steal,
    "take_gold": effects.decide_take_gold,
    "collect": effects.decide_collect,
    "stick": effects.decide_stick,
    "stash": effects.decide_stash,
    "spill": effects.decide_spill,
    "discard": effects.decide_discard,
    "reveal_card": effects.decide_reveal_card,
    "remove": effects.decide_remove,
    "move": effects.decide_move,
    "prevent": effects.decide_prevent,
    "gain_level": effects.decide_gain_level,
    "lose_level": effects.decide_lose_level,
}
#: What may be recorded while an ability resolves (docs/rules.md A.11): its controller's
#: effects and resolution, interrupts, and conceding. Anything else waits for the stack.
WHILE_RESOLVING = frozenset(
    {"activate", "play", "resolve", "target", "pass", "concede"}
    | {command for command, _ in EFFECT_OPS.values()}
)
COMMAND_TYPES = tuple(HANDLERS)


def decide(state: State, command: Command) -> list[Step]:
    """The steps ``command`` produces in ``state``, or a :class:`domain.errors.DomainError`.

    The engine's own steps that follow (warmup, checks, strikes, cooldown, eliminations) are
    included, so the returned list is everything that happens until a player must act again.
    """
    handler = handler_for(state, command, HANDLERS)
    seat_arg(state, command)
    decision = Decision(state, command)
    if state.get("stack") and command["type"] not in WHILE_RESOLVING:
        decision.check(
            False,
            "rule/ability_resolving",
            f"'{command['type']}' waits until the stack is empty: only interrupts while "
            "something resolves",
            "A.11",
        )
    handler(decision, command)
    return decision.steps


class MunchkinCCG(Family):
    """The Munchkin CCG ruleset (docs/rules.md A), registered as ``munchkin-ccg``, and its
    read side (``domain.family``): its narrator, views, invariants, counters, card schema and
    demo game."""

    name = setup.NAME
    family = "ccg"
    rules_version = setup.RULES_VERSION
    seat_names: tuple[str, ...] = SEATS
    min_seats = len(SEATS)
    max_seats = len(SEATS)
    command_types: tuple[str, ...] = COMMAND_TYPES
    card_fields: Mapping[str, str] = {"hero": "one", "deck": "many"}
    #: ``legal_commands`` offer the server-dealt forms and the seed commands (docs/rules.md E).
    demo_deals_by_server: ClassVar[bool] = True
    #: Time at an event: 5 extra turns after turn 0, then a draw (docs/rules.md F.6).
    time_rules: ClassVar[Any] = _time

    def create(self, spec: Mapping[str, Any]) -> list[Step]:
        return setup.create(spec)

    def decide(self, state: State, command: Mapping[str, Any]) -> list[Step]:
        return decide(state, command)

    def legal_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        return legal_commands(state, seat)

    def decide_correction(self, state: State, command: Mapping[str, Any]) -> Event:
        return decide_correction(state, command)

    def backup(
        self, point: State, current: State, later: Sequence[Record]
    ) -> list[tuple[int, list[Step]]]:
        return undo_steps(point, current, later)

    # -- the read side (domain.family) ----------------------------------------------------

    narrator: ClassVar[type[Narrator]] = CcgNarrator
    #: ``GET /state`` shows exactly the documented fields (tests/test_legacy_store.py).
    documented_view_only: ClassVar[bool] = True
    correction_types: ClassVar[frozenset[str]] = frozenset(
        c.__name__ for c in (*RESTORATIONS, *JUDGE_EFFECTS.values())
    )
    seat_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = schema.SEAT_FIELDS
    view_table_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = schema.VIEW_TABLE_FIELDS
    view_seat_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = schema.VIEW_SEAT_FIELDS
    history_updates: ClassVar[Mapping[str, HistoryUpdate]] = HISTORY_UPDATES
    result_updates: ClassVar[Mapping[str, ResultUpdate]] = RESULT_UPDATES

    def load_catalog(self, setting: Any = None) -> Catalog:
        """``MUNCHLOG_CATALOG``: a catalog JSON file (or a :class:`Catalog`); by default the
        sample catalog munchlog ships (A.6, A.7)."""
        if setting is None or setting == "":
            return sample_catalog()
        if isinstance(setting, Catalog):
            return setting
        return Catalog.load(str(setting))

    def resolve_entry(
        self, field: str, entry: Any, *, catalog: Any = None, where: str | None = None
    ) -> list[dict[str, Any]]:
        """A definition or ``{name, count?}`` from its ``catalog`` (:meth:`load_catalog`) (A.7)."""
        return resolve_entry(entry, catalog, where or field)

    def card_components(self) -> dict[str, dict[str, Any]]:
        return dict(schema.CARD_COMPONENTS)

    table_view = staticmethod(ccg_table)
    seat_view = staticmethod(ccg_seat)
    card_view = staticmethod(ccg_card)

    def invariants(self, state: State, *, max_level: int = 10) -> list[str]:
        return invariant_violations(state, max_level=max_level)

    def random_uses(self, state: State, data: Mapping[str, Any]) -> list[RandomUse]:
        """A draw's deck in no known order, the roll's dice (``domain.ccg.decision``)."""
        return random_uses(state, data)

    diff_card_fields: ClassVar[tuple[str, ...]] = DIFF_CARD_FIELDS
    diff_parts: ClassVar[tuple[str, ...]] = DIFF_PARTS

    def diff_part_view(self, key: str, value: Any, sees: Callable[[Any], bool]) -> Any:
        return diff_part_view(key, value, sees)

    def history_hero(self, seat: Mapping[str, Any]) -> str | None:
        return hero_name(seat)

    # -- its events (domain.family, docs/rules.md F) ------------------------------------

    entry_fields: ClassVar[Mapping[str, str]] = hosting.ENTRY_FIELDS

    def event_entry(
        self, body: Mapping[str, Any], fmt: str, resolve: EntryResolver
    ) -> EventEntry | None:
        """A hero and a decklist, checked against the event's format (A.6, F.1)."""
        return hosting.event_entry(body, fmt, resolve)

    def entry_seat(self, registered: Mapping[str, Any]) -> dict[str, Any]:
        return hosting.entry_seat(registered)

    def deck_played(
        self, state: Mapping[str, Any], seat: str
    ) -> tuple[str | None, list[list[Any]]] | None:
        return hosting.deck_played(state, seat)

    def waiting_for(self, state: State) -> list[str]:
        """The stack's controller, a window's seats still to pass, a fight's side to act
        (``domain.ccg.moves.waiting_for``)."""
        return waiting_for(state)

    def counters(self, state: State) -> dict[str, dict[str, int]]:
        """Each Hero Zone's level, damage and gold (docs/rules.md A.4)."""
        return {
            seat: {
                "level": int(st["level"]),
                "damage": int(state["cards"][st["hero"]]["damage"]),
                "gold": int(st["gold"]),
            }
            for seat, st in state["seats"].items()
        }

    def demo_spec(self, *, seed: int, seats: int, catalog: Any = None) -> dict[str, Any] | None:
        return demo_spec(catalog, seed=seed, ruleset=self.name)


CCG = MunchkinCCG()
register(CCG)

__all__ = ["CCG", "COMMAND_TYPES", "HANDLERS", "SEATS", "commitment", "decide"]
