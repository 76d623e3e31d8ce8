"""The Munchkin CCG's cards as the OpenAPI document shows them (``Family.card_components``,
docs/cards.md), built from the engine's own vocabulary (:mod:`domain.ccg.cards`), and its
seat fields of ``POST /api/games``.

Game creation's cards are checked by the rules engine (:func:`domain.ccg.cards.normalize_card`:
400 ``request/invalid_card`` with ``fields``), not by the schema; the schema is never stricter
than the engine: what it refuses, the engine refuses.
"""

from __future__ import annotations

from typing import Any

from domain.ccg import cards
from domain.schemas import NO_NUL, entry_of, ref, text


def _number(description: str, low: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "type": "integer",
        "minimum": low,
        "maximum": cards.MAX_NUMBER,
        "description": description,
        **extra,
    }


#: ``components/schemas`` of a card definition (``Family.card_components``).
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
            "name": text(cards.MAX_NAME, "the card's name", minLength=1),
            "type": {"type": "string", "enum": list(cards.CARD_TYPES)},
            "subtype": text(
                cards.MAX_NAME,
                "Loot: "
                + ", ".join(cards.LOOT_SUBTYPES)
                + "; Mischief: "
                + ", ".join(cards.MISCHIEF_SUBTYPES)
                + "; a Monster's kind",
                nullable=True,
            ),
            "class": text(
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
            "text": text(2000, "the printed text", nullable=True),
            "abilities": {
                "type": "array",
                "nullable": True,
                "maxItems": 8,
                "items": ref("Ability"),
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
            "cost": {**ref("Cost"), "nullable": True},
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
                "items": ref("TargetFilter"),
                "description": "one filter per target the controller names",
            },
            "effects": {
                "type": "array",
                "nullable": True,
                "maxItems": 8,
                "items": ref("Effect"),
                "description": "in the order they are recorded; at least one unless unchecked",
            },
            "unchecked": {"type": "boolean", "description": "the effects are not encoded"},
            "text": text(500, "the ability's own wording"),
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


#: A seat's Hero or deck entry: a full definition or a catalog card by name.
CARD_ENTRY = entry_of("CardDefinition", "CardByName")

#: The CCG's seat fields of ``POST /api/games`` (``Family.seat_fields``).
SEAT_FIELDS: dict[str, dict[str, Any]] = {
    "hero": {
        "entry": CARD_ENTRY,
        "description": "munchkin-ccg (required there): a card definition, or {name} "
        "resolved against the server's catalog",
    },
    "deck": {
        "entry": CARD_ENTRY,
        "description": "munchkin-ccg (required there): each entry a card definition or "
        "{name, count?} from the catalog",
        "min_items": 1,
        "max_items": 200,
    },
}

#: The documented fields of a CCG seat in ``GET /state`` (``Family.view_seat_fields``): its
#: body shows exactly these (``documented_view_only``), each a JSON Schema property.
VIEW_SEAT_FIELDS: dict[str, dict[str, Any]] = {
    "player": {"type": "string"},
    "hero": {"nullable": True},
    "level": {"type": "integer"},
    "gold": {"type": "integer"},
    "damage": {"type": "integer"},
    "life": {"type": "integer", "nullable": True},
    "marker": {"type": "string"},
    "hand_count": {"type": "integer"},
    "deck_count": {"type": "integer"},
    "deck_known_top": {
        "type": "integer",
        "description": "how many cards on top of the deck are at a place the table knows "
        "(put there by an effect; docs/rules.md D.20): counts only, never which cards",
    },
    "deck_known_bottom": {
        "type": "integer",
        "description": "how many cards at the bottom of the deck are at a known place",
    },
    "hand": {"type": "array", "description": "only for a viewer who sees it"},
    "hoard": {"type": "array"},
    "stash": {"type": "array"},
    "discard": {"type": "array"},
}
#: The documented fields of the CCG's table in ``GET /state`` (``Family.view_table_fields``).
VIEW_TABLE_FIELDS: dict[str, dict[str, Any]] = {
    "fight": {"nullable": True},
    "window": {
        "type": "object",
        "nullable": True,
        "description": "munchkin-ccg: null, or the open response window (docs/rules.md A.11): "
        "{kind (cost, hire, damage), waiting_for: the seats still to pass, passed, damage?: "
        "{target, source, amount, prevented, reason}, its cards only as the viewer may see them}",
    },
    "stack": {
        "type": "array",
        "items": {"type": "object"},
        "description": "munchkin-ccg: what resolves, bottom first (A.11): each {ref, kind "
        "(ability, mischief), player, card (as the viewer may see it), canceled, unchecked?}",
    },
}
