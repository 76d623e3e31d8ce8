"""marshmallow schemas: request bodies, query strings and response bodies (OpenAPI from these).

Request schemas check the *shape*; the rules engine checks everything else (a command's own
fields are passed through to ``decide``, which raises ``InvalidCommand`` -> 400).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.openapi import NO_NUL
from domain import RULESETS, DomainError, find_ruleset
from domain.ccg import cards
from domain.classic import cards as classic_cards
from projections.views import SEAT_NAMES

MODES = ("strict", "record")
FORMATS = ("prime", "draft", "casual")
STATUSES = ("setup", "playing", "finished")
MAX_ACTIONS = 200
#: The card fields a seat of some ruleset has (each ruleset's ``card_fields`` are some of them).
SEAT_CARD_FIELDS = ("hero", "deck", "doors", "treasures")
#: The largest version, turn, cursor or label number a request may name: JSON's largest exact
#: integer, far beyond any game and inside every store's integers (SQLite's end at 2**63 - 1;
#: a cursor of 2**63 was an OverflowError there).
MAX_VERSION = 2**53 - 1


def up_to_max(low: int) -> validate.Range:
    """``validate.Range(low, MAX_VERSION)``: every integer a request names has both bounds."""
    return validate.Range(min=low, max=MAX_VERSION)


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE


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


def known_ruleset(name: str) -> None:
    """A ruleset registered in this process (``domain.find_ruleset``)."""
    try:
        find_ruleset(name)
    except DomainError:
        raise ma.ValidationError(f"Must be one of: {', '.join(sorted(RULESETS))}.") from None


# ---------------------------------------------------------------------------- card definitions
#
# Game creation's cards are checked by the rules engine (``domain.ccg.cards.normalize_card``:
# 400 ``request/invalid_card`` with ``fields``), not by marshmallow; the OpenAPI still shows
# their schema (docs/cards.md), as components built from the engine's own vocabulary. The
# schema is never stricter than the engine: what it refuses, the engine refuses.


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _text(max_length: int, description: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "string",
        "maxLength": max_length,
        "pattern": NO_NUL,
        "description": description,
        **extra,
    }


def _number(description: str, low: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "type": "integer",
        "minimum": low,
        "maximum": cards.MAX_NUMBER,
        "description": description,
        **extra,
    }


#: ``components/schemas`` of a card definition (registered by ``api.openapi.install``).
CARD_COMPONENTS: dict[str, dict[str, Any]] = {
    "CardDefinition": {
        "type": "object",
        "description": "a card definition (docs/cards.md): what is printed on the card and "
        "its abilities as data. In prime and draft games it must be the server's catalog card "
        "exactly (422 rule/unknown_card, rule/not_the_catalog_card with the fields that "
        "differ); a casual game records other cards with custom: true.",
        "required": ["name", "type"],
        "additionalProperties": False,
        "properties": {
            "name": _text(cards.MAX_NAME, "the card's name", minLength=1),
            "type": {"type": "string", "enum": list(cards.CARD_TYPES)},
            "subtype": _text(
                cards.MAX_NAME,
                "Loot: "
                + ", ".join(cards.LOOT_SUBTYPES)
                + "; Mischief: "
                + ", ".join(cards.MISCHIEF_SUBTYPES)
                + "; a Monster's kind",
                nullable=True,
            ),
            "class": _text(
                cards.MAX_NAME, "neutral (default), a class, or a Hero's wanderer", nullable=True
            ),
            **{
                key: _number(f"the printed {key}; null when not printed", nullable=True)
                for key in cards.NUMBER_FIELDS
            },
            "keywords": {
                "type": "object",
                "nullable": True,
                "description": "keyword -> true, or its X; the engine reads "
                + ", ".join(cards.KEYWORDS),
                "additionalProperties": {
                    "oneOf": [
                        {"type": "boolean", "enum": [True]},
                        _number("the keyword's X"),
                    ]
                },
            },
            "text": _text(2000, "the printed text", nullable=True),
            "abilities": {
                "type": "array",
                "nullable": True,
                "maxItems": 8,
                "items": _ref("Ability"),
                "description": "the text as data; null or absent: not encoded (the card is "
                "unchecked: what is recorded for it is kept as told and marked unchecked)",
            },
            "custom": {
                "type": "boolean",
                "nullable": True,
                "description": "ignored: the engine marks a casual game's cards that are not "
                "the catalog's",
            },
        },
    },
    "CardByName": {
        "type": "object",
        "description": "the server catalog's card of that name (400 "
        "request/unknown_card_name if it has none), count times",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "pattern": NO_NUL},
            "count": {"type": "integer", "minimum": 1, "maximum": 60, "default": 1},
        },
    },
    "Ability": {
        "type": "object",
        "description": "one ability of a card (docs/cards.md#abilities)",
        "additionalProperties": False,
        "properties": {
            "trigger": {
                "type": "string",
                "enum": list(cards.TRIGGERS),
                "description": "default: played for a Mischief, else activated; the engine "
                "puts " + ", ".join(cards.MANDATORY_TRIGGERS) + " on the stack itself",
            },
            "cost": {**_ref("Cost"), "nullable": True},
            "conditions": {
                "type": "array",
                "nullable": True,
                "items": {"type": "string", "enum": list(cards.CONDITIONS)},
            },
            "interrupt": {"type": "boolean", "description": "usable while something resolves"},
            "targets": {
                "type": "array",
                "nullable": True,
                "maxItems": 8,
                "items": _ref("TargetFilter"),
                "description": "one filter per target the controller names",
            },
            "effects": {
                "type": "array",
                "nullable": True,
                "maxItems": 8,
                "items": _ref("Effect"),
                "description": "in the order they are recorded; at least one unless unchecked",
            },
            "unchecked": {"type": "boolean", "description": "the effects are not encoded"},
            "text": _text(500, "the ability's own wording"),
        },
    },
    "Cost": {
        "type": "object",
        "description": "what activating the ability costs, paid exactly (an activated ability "
        "only)",
        "additionalProperties": False,
        "properties": {
            "zap": {"type": "boolean", "description": "zap this card"},
            "gold": _number("gold paid to the stockpile"),
            "discard": _number("cards discarded from the hand"),
        },
    },
    "TargetFilter": {
        "type": "object",
        "description": "what a target may be: its type, controller, zone, damage",
        "additionalProperties": False,
        "properties": {
            "types": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "string", "enum": list(cards.CARD_TYPES)},
                "description": "default: any type",
            },
            "controller": {"type": "string", "enum": ["you", "opponent", "any"]},
            "zones": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "string", "enum": list(cards.FILTER_ZONES)},
                "description": "default: in_play",
            },
            "damaged": {"type": "boolean", "description": "only a card with damage on it"},
        },
    },
    "Effect": {
        "type": "object",
        "description": "one effect: recorded, in order, by the command the op names "
        "(docs/cards.md#effect-vocabulary)",
        "required": ["op"],
        "additionalProperties": False,
        "properties": {
            "op": {
                "type": "string",
                "enum": list(cards.EFFECT_OPS),
                "description": "; ".join(
                    f"{op}: command {command}" + (", amount" if amount else "")
                    for op, (command, amount) in cards.EFFECT_OPS.items()
                ),
            },
            "amount": _number(
                "how much (default 1), for ops that take an amount; modify_cost: the change",
                low=-cards.MAX_NUMBER,
                nullable=True,
            ),
            "to": {
                "type": "string",
                "enum": list(cards.REFERENTS),
                "description": "who it applies to; default: the op's own",
            },
            "index": {
                "type": "integer",
                "minimum": 0,
                "maximum": 7,
                "nullable": True,
                "description": "with to: target, which of the ability's targets (default 0)",
            },
            "if": {
                "type": "string",
                "enum": ["give_blood", None],
                "nullable": True,
                "description": "give_blood: only when Give Blood was paid",
            },
        },
    },
}


def _classic_card() -> dict[str, Any]:
    """``ClassicCardDefinition``: a card of a classic set (docs/rules.md B, issue #14's
    fields and the optional ones the rules added since, each with its default;
    ``domain.classic.cards.normalize_card`` checks it, per set and kind)."""

    top = classic_cards.MAX_NUMBER

    def whole(description: str, low: int = -top) -> dict[str, Any]:
        return {"type": "integer", "minimum": low, "maximum": top, "description": description}

    def number(description: str, low: int = -top) -> dict[str, Any]:
        return {**whole(description, low), "nullable": True}

    def flag(description: str) -> dict[str, Any]:
        return {"type": "boolean", "description": description}

    def nullable_array(description: str, items: dict[str, Any]) -> dict[str, Any]:
        return {"type": "array", "nullable": True, "description": description, "items": items}

    def effects(description: str) -> dict[str, Any]:
        return nullable_array(
            description,
            {
                "type": "object",
                "description": "one effect {name: value}: "
                + "; ".join(
                    f"{name}: {', '.join(values)}" for name, values in classic_cards.EFFECTS.items()
                ),
                "minProperties": 1,
                "maxProperties": 1,
            },
        )

    def strings(description: str) -> dict[str, Any]:
        return nullable_array(description, _text(120, "a trait or tag"))

    def trait_bonus(description: str) -> dict[str, Any]:
        return nullable_array(
            description,
            {
                "type": "object",
                "required": ["trait", "bonus"],
                "properties": {
                    "trait": _text(120, "a trait"),
                    "bonus": whole("+/-", low=-top),
                },
            },
        )

    powers = {
        "wins_ties": {"type": "boolean", "description": "the player wins ties (B.5)"},
        "discard_bonus": whole(
            "up to N cards discarded in a combat one fights, as the player or the helper, "
            "+1 each, once per combat (B.11, B.7)"
        ),
        "bonus": whole("combat bonus (B.11)", low=-top),
        "bonus_per_other": whole("bonus per other living seat with the trait (B.11)"),
        "helper_levels": whole("levels a helper gains for a kill, Deluxe Elf (B.7)"),
        "run_away": whole("Run Away modifier (B.8)", low=-top),
        "backstab": whole(
            "Deluxe Thief: discard a card (`discard {card, target: seat}`) to give a fighter "
            "-N for the combat, once per victim per combat (B.2)",
        ),
        "steal": whole(
            "Deluxe Thief: discard a card (`discard {card, steal: an Item, roll}`) to try to "
            "steal a Small Item in play of another seat; a roll of N or more takes it (B.2, "
            "D.C17)"
        ),
        "steal_penalty": whole("the levels a failed steal costs the Thief (B.2, D.C17)"),
    }
    return {
        "type": "object",
        "description": "a classic Munchkin card (docs/rules.md B): name, text, deck, kind and "
        "the kind's own fields (monster: level, treasures, levels, tags, bad_stuff, vs, "
        "run_away, escape_bad_stuff, when, chased_by; curse/trap: effects, persistent, next_combat, "
        "bonus, run_away; race/class/army: trait, powers; enhancer: bonus, treasures, copy, adds_tags; "
        "item: slot, big, bonus, value, usable_by, not_usable_by, bonus_with, run_away; "
        "one_shot: bonus, value, run_away, doses, removes; hireling/sidekick/steed: bonus, "
        "run_away, value; other: wandering, multi, removes_curse, forces_help, cheat). Every "
        "field but name, deck and kind is optional, with the default its description gives. "
        "A set has its own kinds (400 request/invalid_card otherwise)",
        "required": ["name", "deck", "kind"],
        "properties": {
            "name": _text(120, "the card's name", minLength=1),
            "text": _text(2000, "the printed text", nullable=True),
            "deck": {"type": "string", "enum": ["door", "treasure"]},
            "kind": {"type": "string", "enum": list(classic_cards.KINDS)},
            "level": number("monster: its level (required for a monster)", low=0),
            "treasures": number(
                "monster: the Treasures it gives (default 0); enhancer: the Treasures it adds "
                "or takes away (B.7)"
            ),
            "levels": number("monster: the levels its kill gives (default 1)", low=0),
            "run_away": number(
                "monster, curse/trap, item, one_shot, hireling/sidekick/steed: Run Away "
                "modifier (default 0, B.8; an AoS Steed's replaces the others, a 0 none, B.2)"
            ),
            "bonus": number(
                "enhancer, curse/trap (a staying one), item, one_shot, helper: combat bonus "
                "(default 0)"
            ),
            "value": number("item, one_shot, helper: gold pieces (default 0, B.12)", low=0),
            "tags": strings("monster: tags such as undead or chaos (B.6; default none)"),
            "usable_by": strings("item: only these traits use it (default: anyone, B.12)"),
            "not_usable_by": strings("item: these traits cannot use it (default none, B.12)"),
            "bad_stuff": effects("monster: its Bad Stuff (B.9; default none)"),
            "effects": effects("curse/trap: what it does to its victim (B.10; default none)"),
            "escape_bad_stuff": effects(
                "monster: effects that hit each fighter who escapes it by a roll, as Bad "
                "Stuff; the run names the victim's `choices` (B.8; default none)"
            ),
            "vs": trait_bonus(
                "monster: bonus against a trait of the player or the helper, counted once, "
                "e.g. +5 against Elves (B.5, B.7)"
            ),
            "chased_by": strings(
                "monster: traits that chase it away: a fighter with one, the player or the "
                "helper, may `chase_away {monster}` (a removal, no level; B.7; default none)"
            ),
            "bonus_with": trait_bonus("item: extra bonus for a trait (B.12; default none)"),
            "when": {
                "type": "array",
                "nullable": True,
                "description": "monster: bonuses that count when the player declares the "
                "condition (`conditions` on the command, D.C13; default none)",
                "items": {
                    "type": "object",
                    "required": ["condition", "bonus"],
                    "properties": {
                        "condition": _text(120, "a condition outside the game, e.g. night"),
                        "bonus": whole("+/-", low=-top),
                    },
                },
            },
            "trait": _text(120, "the trait a race, class or army card gives", nullable=True),
            "powers": {
                "type": "object",
                "nullable": True,
                "additionalProperties": False,
                "description": "race/class/army: the character card's powers (B.11, B.2; "
                "default none)",
                "properties": powers,
            },
            "slot": {
                "type": "string",
                "enum": [*classic_cards.SLOTS, None],
                "nullable": True,
                "description": "item: where it is equipped (null: no slot, B.12)",
            },
            "big": flag("item: a Big Item (default false, B.12)"),
            "persistent": flag(
                "curse/trap: stays in front of its victim with its bonus and run_away until a "
                "card removes it (default false, B.10)"
            ),
            "next_combat": flag(
                "curse/trap: stays with its victim only until the end of its next combat, as "
                "player or helper (default false, B.10)"
            ),
            "copy": flag("enhancer: a Mate or a Twin, doubling its monster (default false, B.6)"),
            "adds_tags": strings(
                "enhancer: tags it gives its monster, e.g. undead: `play {card, target: a "
                "monster in one's hand}` brings that monster into a fight of the tag (B.6; "
                "default none)"
            ),
            "doses": {
                "type": "object",
                "nullable": True,
                "required": ["max"],
                "description": "one_shot: played with `choice` 1..max doses, each adding bonus "
                "and run_away (default: no doses, B.12)",
                "properties": {
                    "max": whole("most doses", low=1),
                    "bonus": whole("bonus per dose", low=-top),
                    "run_away": whole("Run Away modifier per dose", low=-top),
                },
            },
            "removes": {
                "type": "string",
                "enum": ["enhancer", "monster", None],
                "nullable": True,
                "description": "one_shot: removes an enhancer or a monster from the combat "
                "(default null, B.6)",
            },
            "wandering": flag(
                "other: a Wandering Monster, bringing a monster from the hand into a combat "
                "(default false, B.6)"
            ),
            "multi": {
                "type": "string",
                "enum": [*classic_cards.ALL_TRAIT_KINDS, None],
                "nullable": True,
                "description": "other: a multi card (Super Munchkin, Half-Breed, Alliance) "
                "allowing one more trait of this kind (default null, B.11)",
            },
            "removes_curse": flag(
                "other: takes a staying Curse or Trap off any seat, at any time "
                "(`play {card, target: the Curse}`; default false, B.10)"
            ),
            "forces_help": flag(
                "other: compels a seat to help in one's own combat, never in a fight for the "
                "win (`play {card, target: seat}`; default false, D.C7)"
            ),
            "cheat": flag(
                "other: Cheat!, one's Item in play equipped past the slot, Big and trait limits "
                "(`play {card, target: the Item}`; default false, B.2)"
            ),
        },
    }


CARD_COMPONENTS["ClassicCardDefinition"] = _classic_card()
#: A seat's Hero or deck entry: a full definition or a catalog card by name.
CARD_ENTRY = {"anyOf": [_ref("CardDefinition"), _ref("CardByName")]}
#: A classic seat's Door or Treasure entry: a definition of the set or a sample card by name.
CLASSIC_ENTRY = {"anyOf": [_ref("ClassicCardDefinition"), _ref("CardByName")]}


class SeatSpecSchema(Strict):
    seat = fields.String(
        required=True,
        metadata={"description": "the seat's name, one of those the ruleset allows"},
        validate=validate.OneOf(SEAT_NAMES),
    )
    player = fields.String(required=True, validate=validate.Length(min=1, max=80))
    hero = fields.Dict(
        metadata={
            "description": "munchkin-ccg (required there): a card definition, or {name} "
            "resolved against the server's catalog",
            **CARD_ENTRY,
        },
    )
    deck = fields.List(
        fields.Dict(metadata=CARD_ENTRY),
        validate=validate.Length(min=1, max=200),
        metadata={
            "description": "munchkin-ccg (required there): each entry a card definition or "
            "{name, count?} from the catalog"
        },
    )
    doors = fields.List(
        fields.Dict(metadata=CLASSIC_ENTRY),
        validate=validate.Length(max=400),
        metadata={
            "description": "the classic rulesets (required there, instead of hero and deck): "
            "Door cards this seat brings, each a card definition of the set or {name, count?} "
            "from its sample catalog; every seat's cards together make the Door deck"
        },
    )
    treasures = fields.List(
        fields.Dict(metadata=CLASSIC_ENTRY),
        validate=validate.Length(max=400),
        metadata={"description": "the classic rulesets (required there): Treasure cards, as doors"},
    )


class OptionsSchema(Strict):
    """A classic game's optional rules (docs/rules.md B.16)."""

    listen_at_door = fields.Boolean(metadata={"description": "Listen at the Door"})
    shared_victory = fields.Boolean(metadata={"description": "shared victories"})
    strict_steed_discard = fields.Boolean(
        metadata={"description": "AoS: only a Steed with a Run Away penalty is abandoned"}
    )


class CreateGameSchema(Strict):
    ruleset = fields.String(
        required=True,
        validate=known_ruleset,
        metadata={"description": "a ruleset this server knows, e.g. munchkin-ccg"},
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
    options = fields.Nested(
        OptionsSchema,
        metadata={"description": "the classic rulesets' optional rules; not for munchkin-ccg"},
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
            for name in SEAT_CARD_FIELDS:
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


#: Rulesets whose ``GET /state`` body is exactly the documented fields below: the Munchkin
#: CCG's contract predates other rulesets (tests/test_legacy_store.py holds it to its bytes).
DOCUMENTED_FIELDS_ONLY = frozenset({"munchkin-ccg"})


class SeatViewSchema(ma.Schema):
    """A seat (``projections.views.seat_view``): the fields below are the CCG's; another
    ruleset's seat has its own scalars and zones."""

    player = fields.String()
    hero = fields.Raw(allow_none=True)
    level = fields.Integer()
    gold = fields.Integer()
    damage = fields.Integer()
    life = fields.Integer(allow_none=True)
    marker = fields.String()
    hand_count = fields.Integer()
    deck_count = fields.Integer()
    deck_known_top = fields.Integer(
        metadata={
            "description": "how many cards on top of the deck are at a place the table knows "
            "(put there by an effect; docs/rules.md D.20): counts only, never which cards"
        }
    )
    deck_known_bottom = fields.Integer(
        metadata={"description": "how many cards at the bottom of the deck are at a known place"}
    )
    hand = fields.List(fields.Raw(), metadata={"description": "only for a viewer who sees it"})
    hoard = fields.List(fields.Raw())
    stash = fields.List(fields.Raw())
    discard = fields.List(fields.Raw())
    traits = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Raw()),
        metadata={"description": "classic: {race, class, army}: the cards giving them"},
    )
    equipped = fields.List(fields.Raw(), metadata={"description": "classic: equipped Items"})
    carried = fields.List(fields.Raw(), metadata={"description": "classic: carried Items"})
    curses = fields.List(fields.Raw(), metadata={"description": "classic: Curses/Traps that stay"})
    helpers = fields.List(
        fields.Raw(), metadata={"description": "classic: Hirelings, Sidekicks, Steeds"}
    )
    dead = fields.Boolean(metadata={"description": "classic: dead, the body being looted"})


class StateViewSchema(ProgressSchema):
    """``projections.views.state_view``: the fields below, and for a ruleset not in
    :data:`DOCUMENTED_FIELDS_ONLY` every other field of its view as it is (its own table,
    seat fields and zones)."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    fight = fields.Raw(allow_none=True)
    winners = fields.List(
        fields.String(), metadata={"description": "classic: the winners (a shared victory)"}
    )
    decks = fields.Dict(
        metadata={
            "description": "classic: {door, treasure: counts; door_discard, treasure_discard: "
            "cards}"
        }
    )
    combat = fields.Raw(
        allow_none=True,
        metadata={
            "description": "classic: null or {player, helper, bribe, monsters: [{card, level, "
            "enhancers, strength}], player_strength, monster_strength, stage, ...}"
        },
    )
    seats = fields.Dict(keys=fields.String(), values=fields.Nested(SeatViewSchema))

    @ma.post_dump(pass_original=True)
    def _the_rulesets_fields(self, data: dict[str, Any], original: Any, **_: Any) -> dict[str, Any]:
        if not isinstance(original, dict) or original.get("ruleset") in DOCUMENTED_FIELDS_ONLY:
            return data
        return {**original, **{k: v for k, v in data.items() if k != "seats"}}


class EventsQuerySchema(Strict):
    after = fields.Integer(load_default=0, validate=up_to_max(0))
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
