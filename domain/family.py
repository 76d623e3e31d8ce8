"""A game family's whole contract, the read side included: how it shows itself.

A ruleset (``domain.ruleset.Ruleset``) decides; a :class:`Family` is what a ruleset adds so
that every layer above the domain can show its games without knowing it, as python-chess's
variant classes and boardgame.io's ``Game`` carry all their differences: its card entries and
card schema, its options, its table and seat views, its narration, its import invariants, its
replay counters, its results per seat, its judge's corrections and its demo policy. A family's
ruleset class subclasses :class:`Family` and overrides what it has to say; every method and
attribute has a default, so a ruleset that says nothing is shown generically (the state
conventions of docs/DESIGN.md).

Nothing above ``domain/`` imports a family package or names a ruleset: it finds the family of
a game by the ruleset's registered name (:func:`family_named`, :func:`family_of`).

>>> family_named("no-such-ruleset") is DEFAULT
True
>>> DEFAULT.results({"status": "finished", "winner": "B", "seats": {"A": {}, "B": {}}})
{'A': 'loss', 'B': 'win'}
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, ClassVar, TypeVar

from domain.errors import InvalidCommand
from domain.fair import RandomUse
from domain.fold import State
from domain.history import HistoryUpdate
from domain.narration import Narrator
from domain.ruleset import RULESETS, Step
from domain.seeding import seeds_due
from domain.viewing import card_view, seat_view

#: ``result(event)``: the game's result after one event (``Family.result_updates``).
ResultUpdate = Callable[[Mapping[str, Any]], str]
#: ``resolve(entry, where, field)``: the card definitions of one card entry of a registration.
EntryResolver = Callable[[Any, str, str], list[dict[str, Any]]]


@dataclass(frozen=True)
class EventEntry:
    """What a player registers at an event (``Family.event_entry``): its ``hero`` as given
    (stored), the hero's name and the list's card definitions (their names and counts are
    stored, their salted hash published: ``domain.tournament.rules.registered``)."""

    hero: Mapping[str, Any]
    hero_name: str
    cards: list[dict[str, Any]]


class Family:
    """The read side of a game family, with the defaults of a ruleset that has nothing to say.

    Attributes a family sets:

    * :attr:`narrator` -- its events in words (a :class:`domain.narration.Narrator`);
    * :attr:`documented_view_only` -- its ``GET /state`` body is exactly the documented fields
      (the CCG's, a contract older than the other families); others show their view whole;
    * :attr:`correction_types` -- the stored event types of its judge's corrections (left out
      of the game as played);
    * :attr:`seat_fields` -- the per-seat card fields of ``POST /api/games`` as documented
      (``{name: {"entry": a JSON schema of one entry, "description", "min_items"?,
      "max_items"?}}``; the ruleset's ``card_fields`` say which it takes, one card or many);
    * :attr:`options` -- the optional rules a game may turn on, :attr:`option_fields` --
      each with its description (``{name: description}``), :attr:`options_description` --
      how the API describes them;
    * :attr:`demo_seats` -- the seats of a demo game (``None``: its fewest).
    """

    narrator: ClassVar[type[Narrator]] = Narrator
    documented_view_only: ClassVar[bool] = False
    correction_types: ClassVar[frozenset[str]] = frozenset()
    seat_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    options: tuple[str, ...] = ()
    option_fields: ClassVar[Mapping[str, str]] = {}
    options_description: ClassVar[str] = ""
    demo_seats: ClassVar[int | None] = None
    #: How each of the family's events changes a game's history row (``projections.history``,
    #: ``domain.history``): ``{event type: update(row, event) -> changed fields}``.
    history_updates: ClassVar[Mapping[str, HistoryUpdate]] = {}
    #: How each of the family's events sets a game's result in an export's header
    #: (``projections.exports.walk.game_result``): ``{event type: result(event)}``, the
    #: winning seat(s) ``"A"``/``"A+C"``, ``"draw"``, or ``"*"`` (not over).
    result_updates: ClassVar[Mapping[str, ResultUpdate]] = {}

    # -- creation --------------------------------------------------------------------------

    def resolve_entry(
        self, field: str, entry: Any, *, catalog: Any = None, where: str | None = None
    ) -> list[dict[str, Any]]:
        """The card definitions one entry of a seat's card ``field`` stands for (the service
        gives each its id). ``catalog`` is the family's own (:meth:`load_catalog`); ``where`` is the entry's place in the request (default ``field``), which errors
        name (400 ``request/invalid_card`` with ``fields``). Default: a definition as it is
        (the family's ``create`` checks it)."""
        if not isinstance(entry, Mapping):
            raise InvalidCommand(
                "request/invalid_card",
                "a card is a definition",
                fields={where or field: ["a card definition"]},
            )
        return [dict(entry)]

    def load_catalog(self, setting: Any = None) -> Any:
        """The card catalog this family's new games resolve names against and are checked
        against (``resolve_entry``'s ``catalog``), from the server's ``MUNCHLOG_CATALOG``
        setting (a file path, a loaded catalog, or ``None``: the family's own sample). Each
        family owns its catalog and reads the setting or not; default none (``None``)."""
        return None

    def creation_spec(self, data: Mapping[str, Any]) -> dict[str, Any] | None:
        """The ``create`` spec that makes the creation event ``data`` again (an import checks
        a game's creation so); ``None``: the creation event's data is that spec."""
        return None

    def card_components(self) -> dict[str, dict[str, Any]]:
        """The OpenAPI ``components/schemas`` of this family's card definitions (by name)."""
        return {}

    # -- views -----------------------------------------------------------------------------

    #: The documented fields of the family's ``GET /state`` table and seats (``{name: JSON
    #: Schema property}``: ``type`` integer, string, boolean, array (of ``items``, default any)
    #: or object (of ``additionalProperties``); ``nullable``; ``description``). The API lists
    #: them in its document; a ``documented_view_only`` family's body is exactly these.
    view_table_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    view_seat_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    def table_view(
        self, state: Mapping[str, Any], viewer: str, seats: tuple[str, ...]
    ) -> dict[str, Any]:
        """The family's own table parts of ``GET /state`` for ``viewer`` (default none)."""
        return {}

    def seat_view(
        self, state: Mapping[str, Any], seat: str, viewer: str, seats: tuple[str, ...]
    ) -> dict[str, Any]:
        """One seat of ``GET /state`` for ``viewer`` (default: the state conventions,
        :func:`domain.viewing.seat_view`, each card shown by :meth:`card_view`)."""
        return seat_view(state, seat, viewer, seats, card=self.card_view)

    def card_view(
        self, state: Mapping[str, Any], cid: str, viewer: str, seats: tuple[str, ...]
    ) -> dict[str, Any]:
        """One card as ``viewer`` may see it (default: its definition, owner, face and scalar
        fields, :func:`domain.viewing.card_view`); a family whose cards carry more (the CCG's
        modified cost and stuck Curses) shows it here."""
        return card_view(state, cid, viewer, seats)

    # -- what the game waits on (GET /legal) --------------------------------------------------

    def waiting_for(self, state: State) -> list[str]:
        """The seats the game waits on now, in seating order (``GET /api/games/<id>/legal``):
        none once it is finished; the contributors whose seed is due while a server-dealt
        game's seeds are pending (docs/rules.md E.2); else (the default) the active seat, or,
        in a game without one, every seat with a legal command other than ``concede``. A
        family whose game waits on others (a response window, a combat's help) says so."""
        if state.get("status") == "finished":
            return []
        due = seeds_due(state)
        if due:
            return due
        seats = list(state.get("seats") or ())
        active = state.get("active")
        if active in seats:
            return [str(active)]
        legal = getattr(self, "legal_commands", None)
        if legal is None:
            return []
        return [s for s in seats if any(c.get("type") != "concede" for c in legal(state, s))]

    # -- a drawn card told by its name (docs/rules.md E.4) -----------------------------------

    def names_drawn_cards(self, command: Mapping[str, Any]) -> bool:
        """Whether ``command`` is a draw that tells a card it draws by its name (``{"name":
        ...}``) instead of its id. Default: never (a family whose draws take ids only; a name
        is then malformed, as any card that is not an id)."""
        return False

    def resolve_names(self, state: State, command: Mapping[str, Any]) -> dict[str, Any]:
        """``command`` with each card it draws by name made into the id of such a card where
        it draws from in ``state``, for the rules to decide (they never see a name); the
        domain's errors when none is there. Default: as it is."""
        return dict(command)

    def draws_wanted(self, state: State, command: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """What a draw ``GET /legal`` offers without its cards wants told by name:
        ``{field: {"deck", "count"?}}`` (``count``: a list field's number of cards), never
        which cards are there. Default: nothing."""
        return {}

    # -- a server-dealt game's random operations (docs/dealing.md "What verify checks") ------

    #: The event types the rules record between a draw's ``Dealt`` events and the event that
    #: uses them, as part of that draw (classic's ``DiscardReshuffled``).
    draw_bookkeeping: ClassVar[frozenset[str]] = frozenset()

    def random_uses(self, state: State, data: Mapping[str, Any]) -> list[RandomUse]:
        """What the stored event ``data`` takes from random operations, ``state`` being the game
        before the draw (before its ``Dealt`` events and :attr:`draw_bookkeeping`): each pile it
        draws from and the cards there in no known order, each roll (``domain.fair.RandomUse``).
        ``domain.fair_check`` holds every ``Dealt`` to it. Default: nothing."""
        return []

    def card_names(self) -> list[dict[str, Any]] | None:
        """The cards of the catalog munchlog ships for this ruleset, each ``{name, deck,
        kind}`` (public data a client may suggest names from); ``None`` (the default): none."""
        return None

    # -- the judge's tools and histories ----------------------------------------------------

    #: The fields of the family's cards a judge's diff lists when they change, each as a list
    #: of ``{card, name, owner, from, to}`` (``projections.replay.state_diff``; besides the
    #: cards moved and ``known``, which every family's diff has). Default: none.
    diff_card_fields: ClassVar[tuple[str, ...]] = ()
    #: The parts of the family's table (top-level state keys) a judge's diff compares whole
    #: (``projections.replay.state_diff``); each is shown through :meth:`diff_part_view`.
    diff_parts: ClassVar[tuple[str, ...]] = ()

    def diff_part_view(self, key: str, value: Any, sees: Callable[[Any], bool]) -> Any:
        """One side of the diff part ``key`` as a viewer may see it: ``sees(card_id)`` says
        whether the viewer may see a card. Default: nothing of it (a family that declares a
        part says how it is redacted)."""
        return None

    def history_hero(self, seat: Mapping[str, Any]) -> str | None:
        """What a game's history row names as a seat's ``hero`` (``projections.history``),
        from the seat as the creating event has it: the character it plays, for a family
        whose seats bring one (the CCG's Hero). Default ``None``."""
        return None

    def invariants(self, state: State, *, max_level: int = 10) -> list[str]:
        """What is wrong with a state of this family (an import refuses it); default
        nothing: the family's fold is its only check."""
        return []

    def counters(self, state: State) -> dict[str, dict[str, int]]:
        """``{seat: {counter: value}}``: each seat's public counters, for the replay's chart
        (default: the whole numbers among the seat's fields)."""
        return {
            seat: {
                k: int(v) for k, v in st.items() if isinstance(v, int) and not isinstance(v, bool)
            }
            for seat, st in state["seats"].items()
        }

    def results(self, state: State) -> dict[str, str | int | None]:
        """Each seat's result once the game is finished: ``"win"``/``"loss"``/``"draw"``,
        or a finishing place (1 first) for a family that ranks every seat; ``None`` before
        the end. Default: the state's ``winner`` (a seat, ``"A+C"``, or ``"draw"``)."""
        seats = list(state.get("seats") or ())
        winner = state.get("winner")
        if state.get("status") != "finished" or winner is None:
            return dict.fromkeys(seats)
        if winner == "draw":
            return dict.fromkeys(seats, "draw")
        winners = str(winner).split("+")
        return {seat: "win" if seat in winners else "loss" for seat in seats}

    # -- events (docs/rules.md F) -----------------------------------------------------------
    #
    # What an event (``domain.tournament``, ``service.tournaments``) asks a family: nothing
    # there names a family. Every registered family hosts events with these defaults.

    @property
    def plays_tables(self) -> bool:
        """Whether an event seats this family's games as tables (3 or more players, ranked by
        finishing places, one game a round) rather than two-player matches (F.2, F.3): from
        its seats, more than two."""
        return int(getattr(self, "max_seats", 2)) > 2

    #: The creation card fields an event's settings may give its tables (``POST /api/events``:
    #: classic's ``doors`` and ``treasures``), each one of its :attr:`seat_fields`; default none.
    event_card_fields: ClassVar[tuple[str, ...]] = ()
    #: The fields a player's registration brings besides its ``player`` (``POST
    #: /api/events/<id>/players``, read by :meth:`event_entry`), each with the seat field whose
    #: entries it takes (``{field: seat field}``: the CCG's ``hero`` and ``decklist``, a seat's
    #: ``hero`` and ``deck``); default none.
    entry_fields: ClassVar[Mapping[str, str]] = {}

    def event_entry(
        self, body: Mapping[str, Any], fmt: str, resolve: EntryResolver
    ) -> EventEntry | None:
        """A player's entry from its registration ``body``, checked against the event's
        format ``fmt`` (the CCG's hero and decklist, docs/rules.md A.6): ``resolve(entry,
        where, field)`` gives the card definitions of one card entry (``resolve_entry`` with
        the server's catalog). Default: no entry, and 400 ``request/no_decklist_here`` for a
        body that brings anything but its ``player``."""
        given = sorted(k for k, v in body.items() if k != "player" and v is not None)
        if given:
            name = getattr(self, "name", "this ruleset")
            raise InvalidCommand(
                "request/no_decklist_here",
                f"a {name} event's players bring no hero or decklist (its tables share decks)",
                {k: [f"not for {name}"] for k in given},
            )
        return None

    def entry_seat(self, registered: Mapping[str, Any]) -> dict[str, Any]:
        """The creation fields of a seat whose player registered as ``registered`` (the
        event's player row: ``hero``, ``decklist``), default none."""
        return {}

    def event_seats(
        self, settings: Mapping[str, Any], seats: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The creation ``seats`` of an event's game (``{seat, player}`` and each one's
        :meth:`entry_seat`) with the cards the table plays with (default: as they are)."""
        return seats

    def places(self, state: Mapping[str, Any], last: Iterable[str] = ()) -> dict[str, int]:
        """Each seat's finishing place (1 first) in a finished game, the one reading a table's
        result and the event's places take (docs/rules.md F.3); the seats in ``last`` (a match
        loss or a disqualification in the game, F.5) come after everyone else and share the
        last place. Default: :meth:`results` (a place as it is, a win 1st, a draw or a loss
        after the winners)."""
        results = self.results(dict(state))
        winners = sum(1 for r in results.values() if r == "win")

        def place(result: Any) -> int:
            if isinstance(result, int) and not isinstance(result, bool):
                return result
            return 1 if result in ("win", "draw") else winners + 1

        penalised = set(last)
        places = {seat: place(r) for seat, r in results.items() if seat not in penalised}
        if penalised:
            after = len(places) + 1
            places.update(dict.fromkeys((s for s in results if s in penalised), after))
        return places

    def deck_played(
        self, state: Mapping[str, Any], seat: str
    ) -> tuple[str | None, list[list[Any]]] | None:
        """``(hero name, canonical list)`` of the deck ``seat`` plays in a game's ``state``,
        checked against its player's registered list (F.1); ``None`` (default): no list."""
        return None

    # -- time at an event (domain.round_time, docs/rules.md F.6) -----------------------------

    #: The family's module of its rules at time (``turn_now``, ``extra_turns``, ``time_out``,
    #: as the methods below; ``domain/ccg/time_out.py``): ``None``, it counts no turns.
    time_rules: ClassVar[Any] = None

    def turn_now(self, state: Mapping[str, Any]) -> int | None:
        """The number of the turn in progress, which time counts extra turns from; ``None``
        (default): the family counts no turns, and time called ends nothing."""
        return None if self.time_rules is None else int(self.time_rules.turn_now(state))

    def extra_turns(self, state: Mapping[str, Any], asked: int | None) -> int:
        """The turns that follow the one in progress once time is called: the event's
        ``extra_turns`` option (``asked``), else the family's default (here none)."""
        if self.time_rules is None:
            return int(asked or 0)
        return int(self.time_rules.extra_turns(state, asked))

    def time_out(self, state: State, time_result: str) -> list[Step]:
        """The rules' steps ending a game whose extra turns are played and nobody won, by the
        family's time-out rule (``time_result``: the event's option); default none."""
        return [] if self.time_rules is None else list(self.time_rules.time_out(state, time_result))

    # -- the demo ---------------------------------------------------------------------------

    def demo_spec(self, *, seed: int, seats: int, catalog: Any = None) -> dict[str, Any] | None:
        """A ``POST /api/games`` body for ``munchlog demo`` (``None``: no demo of this family)."""
        return None

    def demo_commands(self, state: State, seat: str) -> list[dict[str, Any]]:
        """The commands the demo, holding the judge's state, may send for ``seat``."""
        legal = getattr(self, "legal_commands", None)
        return [] if legal is None else list(legal(state, seat))

    def demo_choice(
        self, state: State, options: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        """The demo's pick among every seat's ``options`` (default: a seeded random one)."""
        return rng.choice(options)

    def demo_next(self, state: State, rng: random.Random) -> dict[str, Any] | None:
        """The demo's next command (``None`` when no seat has one): :meth:`demo_choice` among
        every seat's :meth:`demo_commands` (each naming its seat), never a concession, without
        the ``salt`` the server adds itself."""
        options = [
            cmd if "seat" in cmd else {**cmd, "seat": seat}
            for seat in state["seats"]
            for cmd in self.demo_commands(state, seat)
            if cmd["type"] != "concede"
        ]
        if not options:
            return None
        return {k: v for k, v in self.demo_choice(state, options, rng).items() if k != "salt"}

    #: The demo's cap on actions when none is asked for.
    demo_max_actions: ClassVar[int] = 5000
    #: Whether ``munchlog demo --dealing server`` plays this family: in a server-dealt game
    #: its commands that draw or roll name no card and no value (docs/rules.md E.1) and its
    #: :meth:`demo_commands` say so, with the seed commands while a seed is due
    #: (``domain.seeding``, E.2).
    demo_deals_by_server: ClassVar[bool] = False

    @property
    def plays_demo(self) -> bool:
        """Whether ``munchlog demo`` plays this family's games (it has a :meth:`demo_spec`)."""
        return type(self).demo_spec is not Family.demo_spec


#: The family of a ruleset that is not a :class:`Family`: every default.
DEFAULT = Family()


def family_of(ruleset: Any) -> Family:
    """The read side of ``ruleset``: itself when it is a :class:`Family`, else the defaults."""
    return ruleset if isinstance(ruleset, Family) else DEFAULT


def family_named(name: Any) -> Family:
    """The family of the ruleset registered as ``name`` (the defaults for an unknown one)."""
    return family_of(RULESETS.get(str(name)))


def families() -> dict[str, Family]:
    """Every registered ruleset's family, by ruleset name, in registration order."""
    return {name: family_of(rs) for name, rs in RULESETS.items()}


#: The entry-point group a game family is installed under (``pyproject.toml``): each entry
#: names the module whose import registers the family's rulesets (``domain.ruleset.register``).
FAMILY_GROUP = "munchlog.families"


def load_families(extra: str | None = None) -> None:
    """Register every installed game family, the app's first step (``api.app.create_app``, the
    CLI, the tests' ``conftest``): the kernel imports none, as python-chess's core never
    imports its variants. The families are the entry points of :data:`FAMILY_GROUP`, by name;
    then each module named in ``extra`` (comma-separated, ``MUNCHLOG_RULESETS``). Importing a
    family twice registers it once."""
    installed = sorted(entry_points(group=FAMILY_GROUP), key=lambda ep: ep.name)
    if not installed:
        raise RuntimeError(
            f"no game family is installed (entry points {FAMILY_GROUP!r}): "
            "reinstall munchlog (pip install -e .)"
        )
    for entry in installed:
        importlib.import_module(entry.value)
    for name in (extra or "").split(","):
        if name.strip():
            importlib.import_module(name.strip())


T = TypeVar("T")


def per_registry(build: Callable[[], T]) -> Callable[[], T]:
    """``build()``'s answer, kept until a ruleset is registered or replaced (the key is the
    registered rulesets' identities): what every family contributes is gathered once, not on
    each call."""
    kept: dict[tuple[int, ...], T] = {}

    @functools.wraps(build)
    def cached() -> T:
        key = tuple(map(id, RULESETS.values()))
        found = kept.get(key)
        if found is None:
            found = build()
            kept.clear()
            kept[key] = found
        return found

    return cached


@per_registry
def correction_types() -> frozenset[str]:
    """The stored event types of every registered family's judge's corrections."""
    return frozenset().union(*(f.correction_types for f in families().values()))


def _by_event_type(part: Callable[[Family], Mapping[str, T]]) -> dict[str, T]:
    """Every registered family's ``part`` (a mapping by event type) in one dict; a type two
    families name keeps the first family's (event types are global)."""
    found: dict[str, T] = {}
    for family in families().values():
        for etype, value in part(family).items():
            found.setdefault(etype, value)
    return found


@per_registry
def history_updates() -> dict[str, HistoryUpdate]:
    """Every registered family's history updates, by event type."""
    return _by_event_type(lambda family: family.history_updates)


@per_registry
def result_updates() -> dict[str, ResultUpdate]:
    """Every registered family's result updates, by event type."""
    return _by_event_type(lambda family: family.result_updates)
