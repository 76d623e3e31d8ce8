"""Cards as data: definitions, the sample catalog, and deck checks (docs/rules.md A.5, A.6).

A card definition is a plain dict::

    {"name", "type": hero|ally|location|loot|mischief|monster, "subtype", "class",
     "cost", "rank", "power", "life", "defense", "keywords": {...}, "text"}

After creation a game never reads a catalog again: ``GameCreated`` carries the definitions.

>>> cat = sample_catalog()
>>> cat.get("Sample Goblin Horde")["type"]
'monster'
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from domain.errors import InvalidCommand, RuleViolation

CARD_TYPES = ("hero", "ally", "location", "loot", "mischief", "monster")
LOOT_SUBTYPES = ("weapon", "armor", "trinket")
MISCHIEF_SUBTYPES = ("curse", "treachery", "interrupt")
#: Keywords the engine implements (docs/rules.md A.12); other keys are kept as data only.
KEYWORDS = (
    "monstrous",
    "stealthy",
    "encore",
    "regenerate",
    "life_o_suction",
    "sketchy",
    "bleeding",
    "give_blood",
    "interrupt",
    "smack",
)
NUMBER_FIELDS = ("cost", "rank", "power", "life", "defense")
#: The largest number a card may print (cost, rank, power, life, defense, a keyword's X) and a
#: command or a judge's correction may move at once (gold, damage, tokens). The rules bound the
#: game far below it: levels 1-10, a six-sided die, about 50 tokens on the table (docs/rules.md
#: A.1, A.2); the bound keeps a typing slip (or 2**70) out of a game's record.
MAX_NUMBER = 999
#: Format parameters (docs/rules.md A.6, D.15).
FORMATS: dict[str, dict[str, int | None]] = {
    "prime": {"deck_size": 40, "max_copies": 3},
    "draft": {"deck_size": 30, "max_copies": 3},
    "casual": {"deck_size": None, "max_copies": None},
}

CardDef = dict[str, Any]


def normalize_card(raw: Mapping[str, Any]) -> CardDef:
    """Return a complete card definition, or raise :class:`InvalidCommand` naming the problem.

    >>> normalize_card({"name": "X", "type": "ally", "cost": 1, "life": 1})["class"]
    'neutral'
    """
    errors: dict[str, list[str]] = {}
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 120:
        errors["name"] = ["a non-empty string of at most 120 characters"]
    ctype = raw.get("type")
    if ctype not in CARD_TYPES:
        errors["type"] = [f"one of {', '.join(CARD_TYPES)}"]
    card: CardDef = {
        "name": name,
        "type": ctype,
        "subtype": raw.get("subtype"),
        "class": raw.get("class") or "neutral",
        "keywords": dict(raw.get("keywords") or {}),
        "text": raw.get("text") or "",
    }
    for key in NUMBER_FIELDS:
        value = raw.get(key)
        if value is not None and not is_card_number(value):
            errors[key] = [f"a whole number from 0 to {MAX_NUMBER} (docs/rules.md A.1)"]
        card[key] = value
    if not isinstance(card["class"], str):
        errors["class"] = ["a string"]
    if card["subtype"] is not None and not isinstance(card["subtype"], str):
        errors["subtype"] = ["a string"]
    if not isinstance(card["text"], str) or len(card["text"]) > 2000:
        errors["text"] = ["a string of at most 2000 characters"]
    for kw, value in card["keywords"].items():
        if not isinstance(kw, str) or not (value is True or is_card_number(value)):
            errors.setdefault("keywords", []).append(f"{kw}: true or a whole number 0-{MAX_NUMBER}")
    if (
        ctype in ("hero", "ally", "monster")
        and card["life"] is None
        and "monstrous" not in card["keywords"]
    ):
        errors["life"] = [f"a {ctype} needs life"]
    if errors:
        raise InvalidCommand(
            "request/invalid_card", f"invalid card definition {name!r}", fields=errors
        )
    return card


def is_card_number(value: Any) -> bool:
    """A number a card may print: a whole number from 0 to :data:`MAX_NUMBER`.

    >>> [is_card_number(v) for v in (0, 3, 1000, -1, True, 2.0)]
    [True, True, False, False, False, False]
    """
    return type(value) is int and 0 <= value <= MAX_NUMBER


@dataclass(frozen=True)
class Catalog:
    """Card definitions by name (a catalog file is only read at game creation)."""

    name: str
    cards: dict[str, CardDef]

    def get(self, name: str) -> CardDef:
        try:
            return self.cards[name]
        except KeyError:
            raise InvalidCommand(
                "request/unknown_card_name",
                f"no card named {name!r} in the {self.name}",
                fields={"name": [name]},
            ) from None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Catalog:
        cards = {c["name"]: normalize_card(c) for c in data["cards"]}
        return cls(name=str(data.get("catalog", "catalog")), cards=cards)

    @classmethod
    def load(cls, path: str | Path) -> Catalog:
        with open(path, encoding="utf-8") as fh:
            return cls.from_json(json.load(fh))


def sample_catalog() -> Catalog:
    """The SAMPLE catalog shipped with munchlog: invented cards, not the real card list."""
    text = resources.files("domain").joinpath("data/sample_catalog.json").read_text("utf-8")
    return Catalog.from_json(json.loads(text))


def is_monster_like(card: Mapping[str, Any]) -> bool:
    """A Monster, or a card with Monstrous X that may be committed as one (docs/rules.md A.12)."""
    return card["type"] == "monster" or "monstrous" in card["keywords"]


def check_deck(fmt: str, hero: Mapping[str, Any], deck: Iterable[Mapping[str, Any]]) -> None:
    """Raise :class:`RuleViolation` if the deck is illegal for the format (docs/rules.md A.6).

    prime: exactly 40 cards, at most 3 per name, no Hero cards, neutral or the hero's class
    (a Wanderer hero: any single class); draft: 30 cards, at most 3 per name; casual: unchecked.
    """
    if fmt not in FORMATS:
        raise InvalidCommand("request/invalid_format", f"unknown format {fmt!r}")
    if hero["type"] != "hero":
        raise RuleViolation("rule/not_a_hero", f"{hero['name']!r} is not a Hero card", "A.6")
    params = FORMATS[fmt]
    if params["deck_size"] is None:
        return
    cards = list(deck)
    if len(cards) != params["deck_size"]:
        raise RuleViolation(
            "rule/deck_size",
            f"a {fmt} deck has exactly {params['deck_size']} cards, not {len(cards)}",
            "A.6",
        )
    if any(c["type"] == "hero" for c in cards):
        raise RuleViolation("rule/hero_in_deck", "Hero cards may not be in the deck", "A.6")
    counts = Counter(c["name"] for c in cards)
    too_many = sorted(n for n, k in counts.items() if k > (params["max_copies"] or 0))
    if too_many:
        raise RuleViolation(
            "rule/too_many_copies",
            f"at most {params['max_copies']} copies per name: {', '.join(too_many)}",
            "A.6",
        )
    if fmt == "prime":
        classes = {c["class"] for c in cards} - {"neutral"}
        hero_class = hero["class"]
        if hero_class == "wanderer":
            if len(classes) > 1:
                raise RuleViolation(
                    "rule/off_class",
                    f"a Wanderer deck's class cards must share one class, not {sorted(classes)}",
                    "A.6",
                )
        elif classes - {hero_class}:
            raise RuleViolation(
                "rule/off_class",
                f"off-class cards for a {hero_class} hero: {sorted(classes - {hero_class})}",
                "A.6",
            )
