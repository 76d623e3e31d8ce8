"""marshmallow schemas: request bodies, query strings and response bodies (OpenAPI from these).

Request schemas check the *shape*; the rules engine checks everything else (a command's own
fields are passed through to ``decide``, which raises ``InvalidCommand`` -> 400).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from domain import DEFAULT_RULESET, RULESETS, DomainError, fair, find_ruleset
from domain.family import Family, families, family_named
from domain.schemas import NO_NUL
from projections.views import SEAT_NAMES
from service.delay import MAX_EVENTS, MAX_SECONDS
from service.streams import stream_position

MODES = ("strict", "record")
FORMATS = ("prime", "draft", "casual")
STATUSES = ("setup", "playing", "finished")
MAX_ACTIONS = 200
#: The largest version, turn, cursor or label number a request may name: JSON's largest exact
#: integer, far beyond any game and inside every store's integers (SQLite's end at 2**63 - 1;
#: a cursor of 2**63 was an OverflowError there).
MAX_VERSION = 2**53 - 1


def up_to_max(low: int) -> validate.Range:
    """``validate.Range(low, MAX_VERSION)``: every integer a request names has both bounds."""
    return validate.Range(min=low, max=MAX_VERSION)


class Position(fields.Integer):
    """A version a client starts after (``?after=``): ASCII digits only
    (:func:`service.streams.stream_position`); ``fields.Integer`` alone would take full-width
    digits, ``+1`` and ``1_0`` (``int`` does)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and stream_position(value) is None:
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE


def answer_schema(
    name: str,
    table: Mapping[str, fields.Field | type[fields.Field]],
    *,
    optional: Iterable[str] = (),
) -> type[ma.Schema]:
    """The schema of a response body, from its ``table`` (``{field: a marshmallow field, or
    its class}``, in the order the document lists them): every field is always in the answer
    (``required`` in the document), but a nullable one and those named in ``optional``."""
    sometimes = set(optional)
    made: dict[str, fields.Field] = {}
    for key, given in table.items():
        field = given() if isinstance(given, type) else given
        field.required = not field.allow_none and key not in sometimes
        made[key] = field
    return ma.Schema.from_dict(made, name=name)


def described(kind: type[fields.Field], description: str, **options: Any) -> fields.Field:
    """A field of ``kind`` with its ``description`` in the document."""
    return kind(metadata={"description": description}, **options)


def whole(low: int, high: int, description: str, **options: Any) -> fields.Field:
    """A whole number (``strict``: never ``"3"`` or ``3.0``) from ``low`` to ``high``, with its
    ``description`` in the document."""
    return described(
        fields.Integer, description, strict=True, validate=validate.Range(low, high), **options
    )


class LabelField(fields.Field):
    """A label value: a string, or a whole number kept as given (``round: 3``)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["metadata"] = {
            "oneOf": [
                {"type": "string", "maxLength": 120, "pattern": NO_NUL},
                {"type": "integer", "minimum": -MAX_VERSION, "maximum": MAX_VERSION},
            ],
            **kwargs.get("metadata", {}),
        }
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise ma.ValidationError("a string or a whole number")
        if isinstance(value, str) and len(value) > 120:
            raise ma.ValidationError("at most 120 characters")
        if isinstance(value, int) and not -MAX_VERSION <= value <= MAX_VERSION:
            raise ma.ValidationError(f"a whole number from {-MAX_VERSION} to {MAX_VERSION}")
        return value


class LabelsSchema(Strict):
    event = LabelField(metadata={"description": "event name", "example": "Store Champs"})
    round = LabelField(metadata={"example": 3})
    table = LabelField(metadata={"example": 12})


class DelayCount(fields.Integer):
    """A whole number of events or seconds (never a boolean, a float or a string)."""

    def __init__(self, most: int, **kwargs: Any) -> None:
        super().__init__(strict=True, validate=validate.Range(min=0, max=most), **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool):
            raise ma.ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kwargs)


class SpectatorDelaySchema(Strict):
    events = DelayCount(
        MAX_EVENTS,
        metadata={"description": "spectators see the game this many events behind"},
    )
    seconds = DelayCount(
        MAX_SECONDS,
        metadata={"description": "spectators see the game as it stood this many seconds ago"},
    )


#: What ``spectator_delay`` means (docs/api.md; ``service.delay``).
SPECTATOR_DELAY_DOC = (
    "a broadcast delay for spectators (no token) and the organizer, enforced on every read "
    "of the game (state, events, export, turns, timeline, the summary and the list, player "
    "histories, event exports, verify): with `events` they see it as at the version that many "
    "events behind the current one, with `seconds` as at the last version recorded at least "
    "that long ago, with both the earlier of the two (never before version 1). Seats, the "
    "table and the judge see it live (the game list and player histories are public: "
    "delayed for every caller). The events rule ends when the game ends (spectators "
    "then see it whole); the seconds rule `seconds` after the game finished. 0 or absent: no "
    "such rule"
)


def seat_card_fields() -> list[str]:
    """The card fields a seat of some registered ruleset has, in registration order (each
    ruleset's ``card_fields`` are some of them)."""
    return list(dict.fromkeys(name for rs in RULESETS.values() for name in rs.card_fields))


def known_ruleset(name: str) -> None:
    """A ruleset registered in this process (``domain.find_ruleset``)."""
    try:
        find_ruleset(name)
    except DomainError:
        raise ma.ValidationError(f"Must be one of: {', '.join(sorted(RULESETS))}.") from None


# ---------------------------------------------------------------------------- card definitions
#
# Game creation's cards are checked by the rules engine (each family's ``resolve_entry`` and
# ``create``: 400 ``request/invalid_card`` with ``fields``), not by marshmallow; the OpenAPI
# still shows their schema (docs/cards.md): each family's components
# (``Family.card_components``), built from the engine's own vocabulary. A seat's card fields
# and a game's options are the families' too (``Family.seat_fields``, ``Family.option_fields``).


def card_components() -> dict[str, dict[str, Any]]:
    """``components/schemas`` of every registered family's card definitions (registered by
    ``api.json_api.openapi.install``); the first family to name a component gives it."""
    out: dict[str, dict[str, Any]] = {}
    for family in families().values():
        for name, component in family.card_components().items():
            out.setdefault(name, component)
    return out


def _seat_field(spec: Mapping[str, Any], arity: str) -> fields.Field:
    """The marshmallow field of a family's seat field ``spec`` (``Family.seat_fields``)."""
    entry = dict(spec["entry"])
    if arity == "one":
        return fields.Dict(metadata={"description": spec["description"], **entry})
    return fields.List(
        fields.Dict(metadata=entry),
        validate=validate.Length(min=spec.get("min_items"), max=spec.get("max_items")),
        metadata={"description": spec["description"]},
    )


def family_seat_fields(
    named: Callable[[Family], Mapping[str, str]] | None = None,
) -> dict[str, fields.Field]:
    """Every registered family's seat fields, as marshmallow fields (the first family to
    name a field gives it); ``named(family)``: which, each ``{field: the seat field it
    takes}`` (default all of them, by their own names)."""
    out: dict[str, fields.Field] = {}
    for family in families().values():
        arity: Mapping[str, str] = getattr(family, "card_fields", {})
        which = {f: f for f in family.seat_fields} if named is None else named(family)
        for name, seat_field in which.items():
            if name not in out:
                spec = family.seat_fields[seat_field]
                out[name] = _seat_field(spec, arity.get(seat_field, "many"))
    return out


def family_event_fields() -> dict[str, fields.Field]:
    """The card fields the families' event tables take (``POST /api/events``,
    ``Family.event_card_fields``), as their seat fields."""
    return family_seat_fields(lambda family: {name: name for name in family.event_card_fields})


def family_entry_fields() -> dict[str, fields.Field]:
    """The fields of the families' registrations (``POST /api/events/<id>/players``,
    ``Family.entry_fields``), as the seat fields they take."""
    return family_seat_fields(lambda family: family.entry_fields)


def family_entry_aliases() -> dict[str, str]:
    """Each registration field's other name (issue #44): the seat field it takes, where that
    is named otherwise (the CCG's ``deck`` for ``decklist``), ``{alias: field}``."""
    out: dict[str, str] = {}
    for family in families().values():
        named: Mapping[str, str] = family.entry_fields
        for name, seat_field in named.items():
            if seat_field != name and seat_field not in named:
                out.setdefault(seat_field, name)
    return out


def family_option_fields() -> dict[str, fields.Field]:
    """Every registered family's options, as marshmallow booleans."""
    out: dict[str, fields.Field] = {}
    for family in families().values():
        for name, description in family.option_fields.items():
            out.setdefault(name, fields.Boolean(metadata={"description": description}))
    return out


def _options_description() -> str:
    found = [f.options_description for f in families().values() if f.option_fields]
    return found[0] if found else "a ruleset's optional rules"


class _FamilyFields(Strict):
    """A schema whose fields are the registered families': an instance made before a family
    was registered (a nested schema is made once, at its first load) takes its fields on."""

    @ma.pre_load
    def _the_families_fields(self, data: Any, **_: Any) -> Any:
        refresh_family_fields()
        if self._declared_fields.keys() - self.declared_fields.keys():
            self.declared_fields = copy.deepcopy(self._declared_fields)
            self._init_fields()
        return data


class _SeatSpecBase(_FamilyFields):
    seat = fields.String(
        required=True,
        metadata={"description": "the seat's name, one of those the ruleset allows"},
        validate=validate.OneOf(SEAT_NAMES),
    )
    player = fields.String(required=True, validate=validate.Length(min=1, max=80))


#: A seat of ``POST /api/games``: its name and player, and the families' seat fields.
SeatSpecSchema = _SeatSpecBase.from_dict(family_seat_fields(), name="SeatSpecSchema")


class _OptionsDoc(_FamilyFields):
    """A classic game's optional rules (docs/rules.md B.16)."""


#: A game's optional rules: the families' (``Family.option_fields``).
OptionsSchema = type(
    "OptionsSchema", (_OptionsDoc,), {**family_option_fields(), "__doc__": _OptionsDoc.__doc__}
)


#: The registered rulesets :func:`refresh_family_fields` last saw.
_REFRESHED: list[tuple[int, ...]] = []


def refresh_family_fields() -> None:
    """Add the seat fields and options of families registered since this module was
    imported (``MUNCHLOG_RULESETS``) to :data:`SeatSpecSchema` and :data:`OptionsSchema`
    (cheap when none was: one look at the registry)."""
    key = tuple(map(id, RULESETS.values()))
    if _REFRESHED and _REFRESHED[0] == key:
        return
    _REFRESHED[:] = [key]
    pairs: tuple[tuple[Any, dict[str, fields.Field]], ...] = (
        (SeatSpecSchema, family_seat_fields()),
        (OptionsSchema, family_option_fields()),
    )
    for schema, found in pairs:
        for name, field in found.items():
            if name not in schema._declared_fields:
                schema._declared_fields[name] = field


class CreateGameSchema(Strict):
    ruleset = fields.String(
        required=True,
        validate=known_ruleset,
        metadata={"description": f"a ruleset this server knows, e.g. {DEFAULT_RULESET}"},
    )
    mode = fields.String(required=True, validate=validate.OneOf(MODES))
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    seats = fields.List(
        fields.Nested(SeatSpecSchema),
        required=True,
        validate=validate.Length(min=1, max=len(SEAT_NAMES)),
        metadata={
            "description": "one per seat the ruleset sets up (the CCG: A and B, each with "
            "hero and deck; the classic rulesets: 3 to 6 seats A... in seating order, each "
            "with doors and treasures)"
        },
    )
    labels = fields.Nested(LabelsSchema)
    spectator_delay = fields.Nested(
        SpectatorDelaySchema, metadata={"description": SPECTATOR_DELAY_DOC}
    )
    options = fields.Nested(
        OptionsSchema,
        metadata={"description": _options_description()},
    )
    dealing = fields.String(
        validate=validate.OneOf(fair.MODES),
        metadata={
            "description": "who deals and rolls (docs/dealing.md): `table` (default; every "
            "draw names its card and every roll its value, as told at the table) or `server` "
            "(the server deals by `munchlog-rand-v1` from its secret and the contributors' "
            "seeds: commands that draw or roll name no card and no value, else 422 "
            "`rule/server_deals`)"
        },
    )
    contributors = fields.List(
        fields.String(validate=validate.Length(min=1, max=10)),
        validate=validate.Length(max=len(SEAT_NAMES)),
        metadata={
            "description": 'with `"dealing": "server"`: the seats that contribute a seed '
            "(`commit_seed`, then `reveal_seed`); default every seat, `[]` for a game the "
            "server deals alone"
        },
    )
    reveal_timeout = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=fair.MAX_REVEAL_TIMEOUT),
        metadata={
            "description": 'with `"dealing": "server"`: seconds a contributor has to reveal '
            "its seed once every contributor has committed, after which it is recorded as "
            f"withholding (default {fair.DEFAULT_REVEAL_TIMEOUT})"
        },
    )

    @ma.validates_schema
    def _the_rulesets_seats(self, data: dict[str, Any], **_: Any) -> None:
        """As many seats as the ruleset allows, named by its first seat names, once each."""
        if "ruleset" not in data or "seats" not in data:
            return
        rs = find_ruleset(data["ruleset"])
        low, high = rs.min_seats, rs.max_seats
        seats = [s.get("seat") for s in data["seats"]]
        if not low <= len(seats) <= high:
            wanted = f"{low}" if low == high else f"between {low} and {high}"
            raise ma.ValidationError(f"Length must be {wanted}.", "seats")
        names = rs.seat_names[: len(seats)]
        if sorted(seats) != sorted(names):
            raise ma.ValidationError(" and ".join(f"one seat {n}" for n in names), "seats")
        wanted_fields = set(rs.card_fields)
        errors: dict[int, dict[str, list[str]]] = {}
        for index, seat in enumerate(data["seats"]):
            for name in seat_card_fields():
                if name in wanted_fields and name not in seat:
                    errors.setdefault(index, {})[name] = ["Missing data for required field."]
                elif name not in wanted_fields and name in seat:
                    errors.setdefault(index, {})[name] = [f"Not a field of {rs.name}."]
        if errors:
            raise ma.ValidationError({"seats": errors})
        if "options" in data and not getattr(rs, "options", ()):
            raise ma.ValidationError(f"{rs.name} has no options.", "options")


class SeatCardsSchema(ma.Schema):
    token = fields.String(required=True, metadata={"description": "bearer token of this seat"})
    hero = fields.Dict(metadata={"description": "{id, name} of the hero card"})
    cards = fields.List(fields.Dict(), metadata={"description": "[{id, name}] deck card ids"})


class GameCreatedSchema(ma.Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seats = fields.Dict(keys=fields.String(), values=fields.Nested(SeatCardsSchema))
    table_token = fields.String(required=True)
    judge_token = fields.String(required=True)


class ActionSchema(ma.Schema):
    """One command: ``type`` and ``seat`` plus the command's own fields (passed through).

    A client may not send ``salt`` (the server draws it for ``attack``): 400
    ``request/salt_not_allowed``.
    """

    class Meta:
        unknown = ma.INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=60))
    seat = fields.String(required=True, validate=validate.Length(min=1, max=10))
    at = fields.String(
        metadata={
            "format": "date-time",
            "description": "client time, an RFC 3339 date-time (any ISO 8601 form Python's "
            "datetime.fromisoformat reads is taken too); stored verbatim as client_at",
        },
    )

    @ma.validates("at")
    def _iso_time(self, value: str, **_: Any) -> None:
        if not is_iso_time(value):
            raise ma.ValidationError("an ISO 8601 date-time")


#: An RFC 3339 date-time (section 5.6), which ``datetime.fromisoformat`` does not always read:
#: a lower-case ``t`` or ``z``, a leap second, year 0000.
RFC3339 = re.compile(
    r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)"
    r"(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)",
    re.ASCII,
)


def is_iso_time(value: str) -> bool:
    """Whether an action's ``at`` is an ISO 8601 date-time as Python reads one, or an RFC 3339
    date-time (what the OpenAPI's ``format: date-time`` promises).

    >>> [is_iso_time(v) for v in ("2024-05-01T10:00:00Z", "2024-05-01t10:00:00z", "noon")]
    [True, True, False]
    """
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return RFC3339.fullmatch(value) is not None
    return True


class ActionBatchSchema(Strict):
    expected_version = fields.Integer(
        strict=True,
        validate=up_to_max(0),
        metadata={"description": "409 game/version_conflict unless the game is at this version"},
    )
    actions = fields.List(
        fields.Nested(ActionSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_ACTIONS),
    )

    @staticmethod
    def quick_load(data: Any) -> dict[str, Any] | None:
        """What ``load(data)`` returns, for the everyday batch only; ``None`` for anything else.

        Recording a game is the hot path, and marshmallow's load of a one-action batch costs
        about as much as deciding the action. This accepts only the plainest shape (a JSON
        object with ``actions``, a list of 1..MAX_ACTIONS objects whose ``type`` and ``seat``
        are strings of the allowed lengths and whose ``at``, if any, is an ISO 8601 string, and
        an optional whole ``expected_version`` from 0 to ``MAX_VERSION``) and returns exactly
        what ``load`` would (a property test holds it to that). Everything else, including every invalid body, goes
        to ``load``, which remains the definition and the only source of error messages.
        """
        if type(data) is not dict or not data.keys() <= _BATCH_KEYS:
            return None
        actions = data.get("actions")
        if type(actions) is not list or not 1 <= len(actions) <= MAX_ACTIONS:
            return None
        loaded = []
        for action in actions:
            if type(action) is not dict:
                return None
            if "at" in action and not (type(action["at"]) is str and is_iso_time(action["at"])):
                return None
            kind, seat = action.get("type"), action.get("seat")
            if type(kind) is not str or type(seat) is not str:
                return None
            if not (1 <= len(kind) <= 60 and 1 <= len(seat) <= 10):
                return None
            loaded.append(dict(action))
        out: dict[str, Any] = {"actions": loaded}
        if "expected_version" in data:
            version = data["expected_version"]
            if type(version) is not int or not 0 <= version <= MAX_VERSION:
                return None
            out["expected_version"] = version
        return out


_BATCH_KEYS = frozenset({"actions", "expected_version"})


#: How every event is shown (``projections.views.event_view``), for the schemas' descriptions.
EVENT_VIEW = (
    "`{version, type, v, seat, cause, violation, unchecked?, received_at, client_at, data, "
    "hash?, prev_hash?}`: `v` is the event's stored class version (`data` holds that "
    "version's fields); a card the viewer may not see is `null` in `data`; `unchecked: true` "
    "marks an event recorded from a card whose text is not encoded (docs/cards.md), shown only "
    "to a viewer who may see that card (absent otherwise, as on a checked event); `hash` and "
    "`prev_hash` only for judge and table."
)


class BatchResultSchema(ma.Schema):
    version = fields.Integer(required=True)
    events = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "the new events, each as the caller may see it " + EVENT_VIEW},
    )


class ProgressSchema(ma.Schema):
    """Where a game stands, in its summary and in its state: status, winner, turn, phase."""

    status = fields.String()
    winner = fields.String(allow_none=True)
    turn = fields.Integer(allow_none=True)
    active_seat = fields.String(allow_none=True)
    phase = fields.String(allow_none=True)


class DeadlineSchema(ma.Schema):
    """A server deadline pending (docs/dealing.md, "When a seed is lost")."""

    at = fields.String(
        required=True,
        metadata={
            "description": "ISO 8601, UTC: past it the server records the seeds of `seats` as "
            "withheld by itself (`SeedWithheld`, within about a second, with no request) and "
            "the game goes on without them"
        },
    )
    seats = fields.List(
        fields.String(), required=True, metadata={"description": "the contributors it waits on"}
    )
    step = fields.String(
        required=True,
        metadata={"description": "what they owe: `commit_seed` (a commitment), then `reveal_seed`"},
    )


class DealingSchema(ma.Schema):
    """How a game is dealt (docs/dealing.md): public, the same for every viewer."""

    mode = fields.String(required=True, metadata={"description": "`table` or `server`"})
    scheme = fields.String(allow_none=True, metadata={"description": "`munchlog-rand-v1`"})
    contributors = fields.List(fields.String(), required=True)
    revealed = fields.List(
        fields.String(), required=True, metadata={"description": "contributors that revealed"}
    )
    withheld = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "contributors recorded as withholding their seed"},
    )
    committed = fields.List(fields.String())
    ready = fields.Boolean(
        metadata={"description": "every contributor revealed or withheld: the key is fixed"}
    )
    epoch = fields.Integer(metadata={"description": "0, then one more per re-keying ruling"})
    server_commitment = fields.String(metadata={"description": "this epoch's, lowercase hex"})
    reveal_timeout = fields.Integer()
    reveal_deadline = fields.String(allow_none=True)
    deadline = fields.Nested(
        DeadlineSchema,
        allow_none=True,
        metadata={"description": "whom the seeds wait on and until when; null when nothing is"},
    )
    next_counter = fields.Integer(metadata={"description": "the next random operation's"})
    server_secrets = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "by epoch, once revealed (at the end of the game)"},
    )


class GameSummarySchema(ProgressSchema):
    game_id = fields.String(required=True)
    ruleset = fields.String()
    mode = fields.String()
    format = fields.String()
    labels = fields.Dict()
    players = fields.Dict(keys=fields.String(), values=fields.String())
    version = fields.Integer()
    created_at = fields.String()
    finished_at = fields.String(allow_none=True)
    dealing = fields.Nested(DealingSchema)


class GameListQuerySchema(Strict):
    player = fields.String(validate=validate.Length(min=1, max=80))
    status = fields.String(validate=validate.OneOf(STATUSES))
    event = fields.String(validate=validate.Length(min=1, max=120))
    cursor = fields.Integer(
        validate=up_to_max(0),
        metadata={"description": "next_cursor of the previous page; omit for the first page"},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class GameListSchema(ma.Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    next_cursor = fields.Integer(
        allow_none=True,
        metadata={"description": "pass as ?cursor= for the next page; null: no more games"},
    )


def view_field(spec: Mapping[str, Any]) -> fields.Field:
    """The marshmallow field of a family's documented view field (``Family.view_seat_fields``,
    ``Family.view_table_fields``: a JSON Schema property)."""
    kind = spec.get("type")
    options: dict[str, Any] = {}
    if spec.get("nullable"):
        options["allow_none"] = True
    if "description" in spec:
        options["metadata"] = {"description": spec["description"]}
    if kind == "array":
        return fields.List(view_field(spec.get("items") or {}), **options)
    if kind == "object" and "additionalProperties" in spec:
        values = view_field(spec["additionalProperties"])
        return fields.Dict(keys=fields.String(), values=values, **options)
    simple = {"integer": fields.Integer, "string": fields.String, "boolean": fields.Boolean}
    return {**simple, "object": fields.Dict}.get(str(kind), fields.Raw)(**options)


def family_view_fields(part: str) -> dict[str, fields.Field]:
    """Every registered family's documented ``table`` or ``seat`` view fields (the first
    family to name a field gives it)."""
    out: dict[str, fields.Field] = {}
    for family in families().values():
        specs = family.view_table_fields if part == "table" else family.view_seat_fields
        for name, spec in specs.items():
            if name not in out:
                out[name] = view_field(spec)
    return out


class _SeatViewDoc(ma.Schema):
    """A seat (``projections.views.seat_view``): the fields below are the families' documented
    ones (the CCG's, classic's); another ruleset's seat has its own scalars and zones."""


SeatViewSchema = type(
    "SeatViewSchema",
    (_SeatViewDoc,),
    {**family_view_fields("seat"), "__doc__": _SeatViewDoc.__doc__},
)


class _StateViewBase(ProgressSchema):
    """``projections.views.state_view``: the fields below, and for a family that is not
    ``documented_view_only`` (``domain.family``; the Munchkin CCG's contract predates the
    other families, tests/test_legacy_store.py holds it to its bytes) every other field of its
    view as it is (its own table, seat fields and zones)."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)

    @ma.post_dump(pass_original=True)
    def _the_rulesets_fields(self, data: dict[str, Any], original: Any, **_: Any) -> dict[str, Any]:
        if (
            not isinstance(original, dict)
            or family_named(original.get("ruleset")).documented_view_only
        ):
            return data
        return {**original, **{k: v for k, v in data.items() if k != "seats"}}


#: ``GET /state``: the families' documented table fields, then the seats.
StateViewSchema = type(
    "StateViewSchema",
    (_StateViewBase,),
    {
        **family_view_fields("table"),
        "seats": fields.Dict(keys=fields.String(), values=fields.Nested(SeatViewSchema)),
        "__doc__": _StateViewBase.__doc__,
    },
)


class LegalSchema(ma.Schema):
    """``GET /legal`` (``service.legal``): what each seat the caller may act for may do now."""

    version = fields.Integer(
        required=True, metadata={"description": "the game's version these commands are for"}
    )
    waiting_for = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "the seats the game waits on, in seating order: an open response "
            "window's seats still to pass, the controller of what resolves, a combat's pending "
            "help, passes or Bad Stuff, the active player; empty once finished"
        },
    )
    commands = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Dict()),
        required=True,
        metadata={
            "description": "{seat: [command]} for each seat the caller may act for (a seat "
            "token: itself; the table and the judge: every seat; none once finished): each an "
            "action of POST /actions with its `type`, `seat` and choices (cards by id, targets, "
            "amounts), naming no card that seat may not see. In a table-dealt classic game a "
            "draw (`deal`, `kick_door`, `loot`, `take_treasure`) comes without the cards it "
            "draws; for the table's and the judge's tokens, which may tell them by name "
            '(`{"name": …}` for each card, docs/rules.md E.4), it carries `draws`: '
            '`{field: {"deck": "door" | "treasure", "count"?}}`, each field to fill, the deck '
            "it draws from and, for a list field, how many cards (`count`; without it the field "
            'takes one card), e.g. `{"type": "kick_door", "seat": "A", "draws": {"card": '
            '{"deck": "door"}}}`, sent as `{"type": "kick_door", "seat": "A", "card": {"name": '
            '"Sample Grumpy Toad"}}` (without `draws`); never which cards a deck holds'
        },
    )
    deadline = fields.Nested(
        DeadlineSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "a server deadline pending, else null: in a server-dealt game the "
            "contributors whose seed the game waits on (`seats`, also in `waiting_for`), what "
            "they owe (`step`) and until when (`at`). A seed committed from a page that is gone "
            "(another browser, a closed tab) can be revealed by no one: past `at` the server "
            "records it as withheld by itself and the game goes on (docs/dealing.md)"
        },
    )


class EventsQuerySchema(Strict):
    after = Position(load_default=0, validate=up_to_max(0))
    limit = fields.Integer(load_default=200, validate=validate.Range(min=1, max=1000))


class EventPageSchema(ma.Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the game's current version"})
    events = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "each event as the caller may see it " + EVENT_VIEW},
    )
    next_after = fields.Integer(
        allow_none=True, metadata={"description": "pass as ?after= for more; null: up to date"}
    )
