"""Classic Munchkin's cards as the OpenAPI document shows them (``Family.card_components``,
docs/rules.md B), and its seat fields and options of ``POST /api/games``.

:func:`domain.classic.cards.normalize_card` checks a card, per set and kind; the schema is
never stricter.
"""

from __future__ import annotations

from typing import Any

from domain.classic import cards
from domain.schemas import entry_of, text


def classic_card() -> dict[str, Any]:
    """``ClassicCardDefinition``: a card of a classic set (docs/rules.md B, issue #14's
    fields and the optional ones the rules added since, each with its default;
    ``domain.classic.cards.normalize_card`` checks it, per set and kind)."""

    top = cards.MAX_NUMBER

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
                    f"{name}: {', '.join(values)}" for name, values in cards.EFFECTS.items()
                ),
                "minProperties": 1,
                "maxProperties": 1,
            },
        )

    def strings(description: str) -> dict[str, Any]:
        return nullable_array(description, text(120, "a trait or tag"))

    def trait_bonus(description: str) -> dict[str, Any]:
        return nullable_array(
            description,
            {
                "type": "object",
                "required": ["trait", "bonus"],
                "properties": {
                    "trait": text(120, "a trait"),
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
            "name": text(120, "the card's name", minLength=1),
            "text": text(2000, "the printed text", nullable=True),
            "deck": {"type": "string", "enum": ["door", "treasure"]},
            "kind": {"type": "string", "enum": list(cards.KINDS)},
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
                        "condition": text(120, "a condition outside the game, e.g. night"),
                        "bonus": whole("+/-", low=-top),
                    },
                },
            },
            "trait": text(120, "the trait a race, class or army card gives", nullable=True),
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
                "enum": [*cards.SLOTS, None],
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
                "enum": [*cards.ALL_TRAIT_KINDS, None],
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


#: ``components/schemas`` of a classic card definition.
CARD_COMPONENTS: dict[str, dict[str, Any]] = {"ClassicCardDefinition": classic_card()}
#: A classic seat's Door or Treasure entry: a definition of the set or a sample card by name.
CLASSIC_ENTRY = entry_of("ClassicCardDefinition", "CardByName")

#: Classic seat fields of ``POST /api/games`` (``Family.seat_fields``).
SEAT_FIELDS: dict[str, dict[str, Any]] = {
    "doors": {
        "entry": CLASSIC_ENTRY,
        "description": "the classic rulesets (required there, instead of hero and deck): "
        "Door cards this seat brings, each a card definition of the set or {name, count?} "
        "from its sample catalog; every seat's cards together make the Door deck",
        "max_items": 400,
    },
    "treasures": {
        "entry": CLASSIC_ENTRY,
        "description": "the classic rulesets (required there): Treasure cards, as doors",
        "max_items": 400,
    },
}

#: The optional rules of ``POST /api/games`` (``Family.option_fields``, docs/rules.md B.16).
OPTION_FIELDS: dict[str, str] = {
    "listen_at_door": "Listen at the Door",
    "shared_victory": "shared victories",
    "strict_steed_discard": "AoS: only a Steed with a Run Away penalty is abandoned",
}
#: How ``POST /api/games`` describes the options.
OPTIONS_DESCRIPTION = "the classic rulesets' optional rules; not for munchkin-ccg"

#: The documented fields of a classic seat in ``GET /state`` (``Family.view_seat_fields``).
VIEW_SEAT_FIELDS: dict[str, dict[str, Any]] = {
    "traits": {
        "type": "object",
        "additionalProperties": {"type": "array"},
        "description": "classic: {race, class, army}: the cards giving them",
    },
    "equipped": {"type": "array", "description": "classic: equipped Items"},
    "carried": {"type": "array", "description": "classic: carried Items"},
    "curses": {"type": "array", "description": "classic: Curses/Traps that stay"},
    "helpers": {"type": "array", "description": "classic: Hirelings, Sidekicks, Steeds"},
    "dead": {"type": "boolean", "description": "classic: dead, the body being looted"},
}
#: The documented fields of a classic table in ``GET /state`` (``Family.view_table_fields``).
VIEW_TABLE_FIELDS: dict[str, dict[str, Any]] = {
    "winners": {
        "type": "array",
        "items": {"type": "string"},
        "description": "classic: the winners (a shared victory)",
    },
    "decks": {
        "type": "object",
        "description": "classic: {door, treasure: counts; door_discard, treasure_discard: cards}",
    },
    "combat": {
        "nullable": True,
        "description": "classic: null or {player, helper, bribe, monsters: [{card, level, "
        "enhancers, strength}], player_strength, monster_strength, stage, ...}",
    },
}
