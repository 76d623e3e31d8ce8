"""Classic Munchkin (docs/rules.md B): Deluxe, Old West and Age of Sigmar as three rulesets of
one core, their differences (B.2) read from :mod:`domain.classic.sets`.

``decide(state, command)`` checks a command and returns its steps; the modules follow the
rules' sections: :mod:`~domain.classic.play` (setup B.1, the turn B.4, cards B.3, B.10-B.14),
:mod:`~domain.classic.combat` (B.5-B.9), :mod:`~domain.classic.rules` (strength and the other
readers), :mod:`~domain.classic.state` (the fold, C.2), :mod:`~domain.classic.moves` (legal
commands) and :mod:`~domain.classic.cards` (card data).

:func:`register_classic` registers the three rulesets in ``domain.RULESETS``; importing
:mod:`domain` does (after the Munchkin CCG), so that the HTTP API, the views, the exports and
the demo carry classic games (issue #14). ``service.games`` resolves a seat's ``doors`` and
``treasures`` with :meth:`ClassicRuleset.resolve_entry`; an import re-creates a game's first
event from :meth:`ClassicRuleset.creation_spec`.

>>> DELUXE.name, DELUXE.seat_names, DELUXE.min_seats, DELUXE.max_seats
('munchkin-deluxe', ('A', 'B', 'C', 'D', 'E', 'F'), 3, 6)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from domain.classic import corrections, hosting, named, schema
from domain.classic import state as _state  # noqa: F401  (registers the fold handlers)
from domain.classic import time_out as _time
from domain.classic.cards import resolve_cards, sample_catalog
from domain.classic.combat import random_uses
from domain.classic.deciding import COMMAND_TYPES, decide
from domain.classic.demo import CLASSIC_ACTIONS, classic_choice, classic_demo_spec
from domain.classic.events import ClassicGameCreated
from domain.classic.history import HISTORY_UPDATES, RESULT_UPDATES
from domain.classic.moves import driver_commands, legal_commands, waiting_for
from domain.classic.narration import ClassicNarrator
from domain.classic.sets import SETS, SetRules
from domain.classic.views import DIFF_CARD_FIELDS, classic_seat, classic_table
from domain.envelope import Record
from domain.errors import InvalidCommand
from domain.event_bases import creating_fields
from domain.events import Event
from domain.fair import RandomUse
from domain.family import Family, ResultUpdate
from domain.fold import State, evolve, initial_state
from domain.history import HistoryUpdate
from domain.narration import Narrator
from domain.ruleset import RULESETS, Ruleset, Step, register

SEATS = ("A", "B", "C", "D", "E", "F")
MIN_SEATS, MAX_SEATS = 3, 6

#: The optional rules (docs/rules.md B.15): the rulesheets' *Faster Play Rules*, and
#: ``strict_steed_discard`` (AoS *Steeds* read to the letter, B.2).
OPTIONS = ("listen_at_door", "shared_victory", "strict_steed_discard")


def create(rules: SetRules, spec: Mapping[str, Any]) -> list[Step]:
    """The step that sets a game up: one ``ClassicGameCreated`` (docs/rules.md B.1).

    ``spec``: ``mode``, ``format``, ``labels``, ``options`` ({``listen_at_door``,
    ``shared_victory``, ``strict_steed_discard``}: booleans) and ``seats``: 3-6 entries ``{seat, player, doors,
    treasures}`` in seating order, seats ``A``… consecutive; the seats' cards (definitions with
    an ``id``, or catalog names) together make the two decks.
    """
    mode = spec.get("mode", "strict")
    if mode not in ("strict", "record"):
        raise InvalidCommand("request/invalid_mode", "mode must be 'strict' or 'record'")
    seats = spec.get("seats")
    n = len(seats) if isinstance(seats, list) else 0
    if not isinstance(seats, list) or not MIN_SEATS <= n <= MAX_SEATS:
        raise InvalidCommand("request/invalid_seats", f"{MIN_SEATS} to {MAX_SEATS} seats")
    if [s.get("seat") if isinstance(s, Mapping) else None for s in seats] != list(SEATS[:n]):
        raise InvalidCommand(
            "request/invalid_seats", f"seats {', '.join(SEATS[:n])} in seating order"
        )
    options = spec.get("options") or {}
    if not isinstance(options, Mapping) or not all(
        k in OPTIONS and isinstance(v, bool) for k, v in options.items()
    ):
        raise InvalidCommand("request/invalid_options", f"options: {', '.join(OPTIONS)} (booleans)")
    seen: set[str] = set()
    out_seats: list[dict[str, Any]] = []
    doors: list[dict[str, Any]] = []
    treasures: list[dict[str, Any]] = []
    for seat in seats:
        player = seat.get("player")
        if not isinstance(player, str) or not player.strip():
            raise InvalidCommand("request/invalid_player", "each seat needs a player name")
        out_seats.append({"seat": seat["seat"], "player": player})
        for field, deck, into in (("doors", "door", doors), ("treasures", "treasure", treasures)):
            raw = seat.get(field) or []
            cards = resolve_cards(raw, rules.name, deck, field)
            for card, entry in zip(cards, raw, strict=False):
                if isinstance(entry, Mapping) and "id" in entry:
                    card["id"] = str(entry["id"])
            for card in cards:
                cid = card.get("id")
                if not isinstance(cid, str) or cid in seen:
                    raise InvalidCommand(
                        "request/duplicate_ids", f"card id {cid!r} missing or used twice"
                    )
                seen.add(cid)
                into.append(card)
    fmt = str(spec.get("format", "casual"))
    header = creating_fields(
        spec, ruleset=rules.name, rules_version=rules.rules_version, mode=mode, fmt=fmt
    )
    created = ClassicGameCreated(
        **header,
        options={k: bool(options.get(k, False)) for k in OPTIONS},
        seats=out_seats,
        doors=doors,
        treasures=treasures,
    )
    return [Step(created, evolve(initial_state(), created))]


class ClassicRuleset(Family):
    """One classic set as a ruleset (docs/rules.md B), and its read side (``domain.family``):
    its narrator, views, card schema, options, results and demo policy."""

    family = "classic"
    seat_names: tuple[str, ...] = SEATS
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    command_types: tuple[str, ...] = COMMAND_TYPES
    card_fields: Mapping[str, str] = {"doors": "many", "treasures": "many"}
    #: The optional rules a game may turn on (docs/rules.md B.16): ``{name: bool}``.
    options: tuple[str, ...] = OPTIONS
    #: Time at an event: the round of turns finishes, then ``time_result`` (docs/rules.md F.6).
    time_rules: ClassVar[Any] = _time

    def __init__(self, rules: SetRules) -> None:
        self.rules = rules
        self.name = rules.name
        self.rules_version = rules.rules_version

    def create(self, spec: Mapping[str, Any]) -> list[Step]:
        return create(self.rules, spec)

    def resolve_entry(
        self, field: str, entry: Any, *, catalog: Any = None, where: str | None = None
    ) -> list[dict[str, Any]]:
        """The card definitions one entry of a seat's ``doors`` or ``treasures`` stands for:
        a definition of this set, or ``{"name", "count"?}`` from its sample catalog (B.1).
        The service calls it (``service.games``) before giving each card its id; errors name
        the entry's place in the request, ``where`` (``catalog``, the CCG's, is not read)."""
        deck = {"doors": "door", "treasures": "treasure"}[field]
        if isinstance(entry, Mapping) and "id" in entry:
            entry = {k: v for k, v in entry.items() if k != "id"}
        try:
            return resolve_cards([entry], self.name, deck, field)
        except InvalidCommand as exc:
            if where is None:
                raise
            raise InvalidCommand(
                exc.code,
                exc.message,
                fields={where if k == field else f"{where}.{k}": v for k, v in exc.fields.items()}
                or {where: [exc.message]},
            ) from None

    def creation_spec(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The ``create`` spec that makes the ``ClassicGameCreated`` ``data`` again (an import
        checks a game's creation so, ``projections.exports.importing``): the decks, in their
        order, brought by the first seat."""
        seats = [{**seat, "doors": [], "treasures": []} for seat in data["seats"]]
        if seats:
            seats[0].update(doors=list(data["doors"]), treasures=list(data["treasures"]))
        keys = ("game_id", "mode", "format", "labels", "options")
        return {**{k: data[k] for k in keys}, "seats": seats}

    def decide(self, state: State, command: Mapping[str, Any]) -> list[Step]:
        return decide(state, command)

    def legal_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        """What ``seat`` may do now, naming no card it may not see (a draw without its cards:
        :func:`domain.classic.moves.legal_commands`, docs/rules.md A.4)."""
        return legal_commands(state, seat)

    def driver_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        """INTERNAL, never to be shown to a seat: every legal command with the cards a draw
        takes from the decks (:func:`domain.classic.moves.driver_commands`)."""
        return driver_commands(state, seat)

    def waiting_for(self, state: State) -> list[str]:
        """The combat's pending help, passes, Bad Stuff or runs, else the active player
        (:func:`domain.classic.moves.waiting_for`)."""
        return waiting_for(state)

    def names_drawn_cards(self, command: Mapping[str, Any]) -> bool:
        """A draw (``deal``, ``kick_door``, ``loot``, ``take_treasure``) with a card told by
        its name (docs/rules.md E.4, :mod:`domain.classic.named`)."""
        return bool(named.named_fields(command))

    def resolve_names(self, state: State, command: Mapping[str, Any]) -> dict[str, Any]:
        """Each card told by name made into an id of the deck drawn from (E.4)."""
        return named.resolve_names(state, command)

    def draws_wanted(self, state: State, command: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """A table-dealt draw's fields to fill: each one's deck and count (E.4)."""
        return named.wanted(state, command)

    def card_names(self) -> list[dict[str, Any]]:
        """The set's sample catalog (``domain/data/classic_catalog.json``): Doors then
        Treasures, by name."""
        cards = sorted(
            sample_catalog(self.name).values(),
            key=lambda c: (c["deck"] != "door", str(c["name"]).casefold()),
        )
        return [{"name": c["name"], "deck": c["deck"], "kind": c["kind"]} for c in cards]

    def decide_correction(self, state: State, command: Mapping[str, Any]) -> Event:
        """The judge's forced effect (docs/rules.md B.17): :mod:`domain.classic.corrections`."""
        return corrections.decide_correction(state, command)

    def backup(
        self, point: State, current: State, later: Sequence[Record]
    ) -> list[tuple[int, list[Step]]]:
        """Undo every event of ``later``, newest first (docs/rules.md B.17)."""
        return corrections.undo_steps(point, current, later)

    # -- the read side (domain.family) ----------------------------------------------------

    narrator: ClassVar[type[Narrator]] = ClassicNarrator
    #: A draw's reshuffle of a deck's discards, between its ``Dealt`` events and their use.
    draw_bookkeeping: ClassVar[frozenset[str]] = frozenset({"DiscardReshuffled"})

    def random_uses(self, state: State, data: Mapping[str, Any]) -> list[RandomUse]:
        """A draw's deck (or discards) in no known order, a roll's dice
        (``domain.classic.combat``)."""
        return random_uses(state, data)

    #: ``driver_commands`` offer the server-dealt forms and the seed commands (docs/rules.md E).
    demo_deals_by_server: ClassVar[bool] = True
    correction_types: ClassVar[frozenset[str]] = frozenset(
        c.__name__ for c in (*corrections.RESTORATIONS, *corrections.JUDGE_EFFECTS.values())
    )
    seat_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = schema.SEAT_FIELDS
    view_table_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = schema.VIEW_TABLE_FIELDS
    view_seat_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = schema.VIEW_SEAT_FIELDS
    history_updates: ClassVar[Mapping[str, HistoryUpdate]] = HISTORY_UPDATES
    result_updates: ClassVar[Mapping[str, ResultUpdate]] = RESULT_UPDATES
    option_fields: ClassVar[Mapping[str, str]] = schema.OPTION_FIELDS
    options_description: ClassVar[str] = schema.OPTIONS_DESCRIPTION
    demo_seats: ClassVar[int | None] = 4
    demo_max_actions: ClassVar[int] = CLASSIC_ACTIONS

    def card_components(self) -> dict[str, dict[str, Any]]:
        return dict(schema.CARD_COMPONENTS)

    table_view = staticmethod(classic_table)
    seat_view = staticmethod(classic_seat)
    diff_card_fields: ClassVar[tuple[str, ...]] = DIFF_CARD_FIELDS

    def results(self, state: State) -> dict[str, str | int | None]:
        """Each seat's finishing place once the game is over (docs/rules.md B.16, F.3:
        :meth:`places`); ``None`` before the end."""
        seats = state.get("seats") or {}
        if state.get("status") != "finished":
            return dict.fromkeys(seats)
        return dict(self.places(state))

    # -- its events (domain.family, docs/rules.md F) ------------------------------------

    event_card_fields: ClassVar[tuple[str, ...]] = hosting.DECK_FIELDS

    def places(self, state: Mapping[str, Any], last: Iterable[str] = ()) -> dict[str, int]:
        """The winners 1st, then by level, those out after those still in (F.3)."""
        return hosting.table_places(state, last)

    def event_seats(
        self, settings: Mapping[str, Any], seats: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The first seat brings the event's decks, the set's sample decks by default."""
        return hosting.event_seats(self.name, settings, seats)

    def demo_spec(self, *, seed: int, seats: int, catalog: Any = None) -> dict[str, Any] | None:
        return classic_demo_spec(self.name, seed=seed, seats=seats)

    def demo_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        """Every legal command with the cards a draw takes (:meth:`driver_commands`)."""
        return driver_commands(state, seat)

    def demo_choice(
        self, state: State, options: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        return classic_choice(state, options, rng)


DELUXE = ClassicRuleset(SETS["munchkin-deluxe"])
OLD_WEST = ClassicRuleset(SETS["munchkin-old-west"])
AGE_OF_SIGMAR = ClassicRuleset(SETS["munchkin-age-of-sigmar"])
CLASSIC: dict[str, ClassicRuleset] = {r.name: r for r in (DELUXE, OLD_WEST, AGE_OF_SIGMAR)}


def register_classic() -> None:
    """Register the three classic rulesets in ``domain.RULESETS``."""
    for ruleset in CLASSIC.values():
        if ruleset.name not in RULESETS:
            rs: Ruleset = ruleset
            register(rs)


__all__ = [
    "AGE_OF_SIGMAR",
    "CLASSIC",
    "COMMAND_TYPES",
    "DELUXE",
    "OLD_WEST",
    "SEATS",
    "ClassicRuleset",
    "create",
    "decide",
    "register_classic",
]
