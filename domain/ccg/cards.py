"""Cards as data: definitions, the sample catalog, and deck checks (docs/rules.md A.5, A.6).

A card definition is a plain dict::

    {"name", "type": hero|ally|location|loot|mischief|monster, "subtype", "class",
     "cost", "rank", "power", "life", "defense", "keywords": {...}, "text",
     "abilities": [...] or null, "custom"?: true}

``abilities`` is the card's text as data (docs/cards.md): ``null`` (or no key, as in games
stored before abilities were data) means not encoded, and such a card is ``unchecked`` (what
is recorded for it is kept as told). ``custom`` marks a card that is not the catalog's (casual
games only, see :func:`check_catalog`).

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


#: The fields of a card definition (docs/cards.md); an instance in a game adds its ``id``.
CARD_FIELDS = (
    "name",
    "type",
    "subtype",
    "class",
    "cost",
    "rank",
    "power",
    "life",
    "defense",
    "keywords",
    "text",
    "abilities",
    "custom",
)
#: The longest name, subtype or class a card may print.
MAX_NAME = 120


def normalize_card(raw: Mapping[str, Any]) -> CardDef:
    """Return a complete card definition, or raise :class:`InvalidCommand`
    (``request/invalid_card``) with a message per malformed field (docs/cards.md).

    Fields it does not know are left out (a catalog file may carry more); ``custom: true`` is
    kept as given (a recorded game's mark): :func:`check_catalog` decides it for a new game.

    >>> normalize_card({"name": "X", "type": "ally", "cost": 1, "life": 1})["class"]
    'neutral'
    >>> normalize_card({"name": "X", "type": "ally", "life": 1, "keywords": "ab"})
    Traceback (most recent call last):
    ...
    domain.errors.InvalidCommand: invalid card definition 'X'
    """
    errors: dict[str, list[str]] = {}
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        errors["name"] = [f"a non-empty string of at most {MAX_NAME} characters"]
    ctype = raw.get("type")
    if not isinstance(ctype, str) or ctype not in CARD_TYPES:
        errors["type"] = [f"one of {', '.join(CARD_TYPES)}"]
    keywords = raw.get("keywords")
    if keywords is None:
        keywords = {}
    elif not isinstance(keywords, Mapping):
        errors["keywords"] = ["an object: keyword -> true or a whole number"]
        keywords = {}
    text = raw.get("text")
    card: CardDef = {
        "name": name,
        "type": ctype,
        "subtype": raw.get("subtype"),
        "class": "neutral" if raw.get("class") in (None, "") else raw.get("class"),
        "keywords": dict(keywords),
        "text": "" if text is None else text,
    }
    if "abilities" in raw:
        card["abilities"] = normalize_abilities(raw["abilities"], ctype, errors)
    # else: not encoded, like ``null``; the key stays absent so that a game stored before
    # abilities were data re-creates exactly its own ``GameCreated`` (an import's check).
    custom = raw.get("custom")
    if custom is True:
        card["custom"] = True
    elif custom not in (None, False):
        errors["custom"] = ["true or false"]
    for key in NUMBER_FIELDS:
        value = raw.get(key)
        if value is not None and not is_card_number(value):
            errors[key] = [f"a whole number from 0 to {MAX_NUMBER} (docs/rules.md A.1)"]
        card[key] = value
    for key in ("class", "subtype"):
        value = card[key]
        if value is not None and (not isinstance(value, str) or len(value) > MAX_NAME):
            errors[key] = [f"a string of at most {MAX_NAME} characters"]
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
        shown = name if isinstance(name, str) else None
        raise InvalidCommand(
            "request/invalid_card", f"invalid card definition {shown!r}", fields=errors
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


#: Formats whose cards are the catalog's (docs/rules.md A.6): ``casual`` may bring its own.
CATALOG_FORMATS = ("prime", "draft")


def check_catalog(fmt: str, card: CardDef, catalog: Catalog, where: str) -> CardDef:
    """A new game's card (normalized) as its ``GameCreated`` records it (docs/rules.md A.6;
    docs/cards.md "Catalog integrity"); ``where`` names it in messages ("seat A's Hero").

    * ``prime`` and ``draft``: exactly the catalog's card. A name the catalog does not have is
      :class:`RuleViolation` ``rule/unknown_card``; a definition that differs in any field is
      ``rule/not_the_catalog_card``, its ``fields`` naming each difference
      (:func:`card_differences`). Checked in both modes: a deck is registered before play.
    * ``casual``: as given, marked ``custom: true`` when it is not exactly a catalog card.

    The ``custom`` mark is the engine's: a client's is dropped. A recorded game re-created
    (an import) is not checked again: its definitions are the record's, marks included
    (the check belongs to deciding a new game, never to its fold).
    """
    given = {k: v for k, v in card.items() if k != "custom"}
    known = catalog.cards.get(card["name"])
    differences = None if known is None else card_differences(known, given)
    if fmt in CATALOG_FORMATS:
        if known is None:
            raise RuleViolation(
                "rule/unknown_card",
                f"{where} {card['name']!r} is not a card of the {catalog.name} "
                f"(a {fmt} game plays catalog cards)",
                "A.6",
                fields={"name": [f"not in the {catalog.name}"]},
            )
        if differences:
            raise RuleViolation(
                "rule/not_the_catalog_card",
                f"{where} {card['name']!r} is not the {catalog.name}'s card: "
                f"{', '.join(differences)} {'differs' if len(differences) == 1 else 'differ'}",
                "A.6",
                fields=differences,
            )
        return given
    if differences is None or differences:
        return {**given, "custom": True}
    return given


#: A field one definition has and the other does not (:func:`card_differences`).
_ABSENT: Any = object()


def card_differences(
    catalog_card: Mapping[str, Any], given: Mapping[str, Any]
) -> dict[str, list[str]]:
    """Each field where ``given`` is not ``catalog_card`` (both normalized), by its path
    (``cost``, ``keywords.give_blood``, ``abilities.0.cost.gold``), with both values:
    ``{"cost": ["catalog: 3, given: 0"]}``. ``true`` and ``1`` differ.

    >>> card_differences({"cost": 3, "keywords": {}}, {"cost": 0, "keywords": {"x": True}})
    {'cost': ['catalog: 3, given: 0'], 'keywords.x': ['catalog: absent, given: true']}
    """
    out: dict[str, list[str]] = {}
    for key in CARD_FIELDS:
        if key != "custom":
            _differences(key, catalog_card.get(key, _ABSENT), given.get(key, _ABSENT), out)
    return out


def _differences(path: str, theirs: Any, ours: Any, out: dict[str, list[str]]) -> None:
    if isinstance(theirs, Mapping) and isinstance(ours, Mapping):
        for key in sorted(set(theirs) | set(ours), key=str):
            _differences(f"{path}.{key}", theirs.get(key, _ABSENT), ours.get(key, _ABSENT), out)
    elif isinstance(theirs, list) and isinstance(ours, list) and len(theirs) == len(ours):
        for i, (a, b) in enumerate(zip(theirs, ours, strict=True)):
            _differences(f"{path}.{i}", a, b, out)
    elif type(theirs) is not type(ours) or theirs != ours:
        out[path] = [f"catalog: {_shown(theirs)}, given: {_shown(ours)}"]


def _shown(value: Any) -> str:
    """A value in a difference's message: compact JSON, cut at 80 characters."""
    if value is _ABSENT:
        return "absent"
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        return f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}"
    text = json.dumps(value, sort_keys=True, separators=(", ", ": "))
    return text if len(text) <= 80 else text[:79] + "…"


# ============================================================================ abilities as data
#
# A card's ``abilities`` (docs/cards.md): ``None`` when its text is not encoded (the card is
# ``unchecked``: what a client records for it is kept but not checked), else a list of
# abilities, each ``{"trigger", "cost", "conditions", "interrupt", "targets", "effects"}``.

#: When an ability happens (docs/rules.md A.9, A.11): ``activated`` by paying its cost,
#: ``played`` (a Mischief's text, when it is played), and the mandatory triggers the engine puts
#: on the stack itself (``level_gained``: when its controller gains a level, never from level 10,
#: docs/rules.md A.8).
TRIGGERS = (
    "activated",
    "played",
    "hired",
    "survivor",
    "reckoning",
    "end_of_fight",
    "level_gained",
)
MANDATORY_TRIGGERS = ("hired", "survivor", "reckoning", "end_of_fight", "level_gained")
#: An ability's cost parts (docs/rules.md A.11): zap the card, pay gold, discard cards.
COST_PARTS = ("zap", "gold", "discard")
#: Conditions (docs/rules.md A.12 Sketchy, A.12 Smack / D.14 "on your turn").
CONDITIONS = ("sketchy", "own_turn", "in_fight")
#: The effect vocabulary: op -> (the command that records it, whether ``amount`` applies).
EFFECT_OPS: dict[str, tuple[str, bool]] = {
    "damage": ("damage", True),
    "heal": ("heal", True),
    "draw": ("draw", True),
    "put_on_bottom": ("move", True),
    "put_on_top": ("move", True),
    "take_gold": ("take_gold", True),
    "steal_gold": ("steal", True),
    "cancel": ("cancel", False),
    "stick": ("stick", False),
    "modify_cost": ("modify_cost", True),
    "collect": ("collect", True),
    "spill": ("spill", True),
    "prevent": ("prevent", True),
    "unzap": ("unzap", False),
    "zap": ("zap", False),
    "discard": ("discard", False),
    "stash": ("stash", False),
    "remove": ("remove", False),
    "reveal": ("reveal_card", False),
    "gain_level": ("gain_level", True),
    "lose_level": ("lose_level", True),
}
#: Who an effect applies to, when it is not one of the ability's targets (``"target"`` with
#: ``"index"``): ``self`` (the ability's card), ``your_hero`` / ``opposing_hero`` (the
#: controller's and the other seat's Hero), ``defending_hero`` (in a fight), ``monster`` (the
#: fight's attack card), ``your_hand`` (a card the controller chooses from its hand),
#: ``ability`` (an ability on the stack below), ``none`` (the effect names no card),
#: ``each_hero`` (both Heroes at once: ``damage`` only, one command, docs/rules.md D.9).
REFERENTS = (
    "target",
    "self",
    "your_hero",
    "opposing_hero",
    "defending_hero",
    "monster",
    "your_hand",
    "ability",
    "none",
    "each_hero",
)
#: The referent an op uses when the effect names none.
DEFAULT_REFERENT = {
    "damage": "target",
    "heal": "your_hero",
    "draw": "none",
    "put_on_bottom": "your_hand",
    "put_on_top": "your_hand",
    "take_gold": "none",
    "steal_gold": "none",
    "cancel": "ability",
    "stick": "target",
    "modify_cost": "monster",
    "collect": "self",
    "spill": "none",
    "prevent": "none",
    "unzap": "self",
    "zap": "target",
    "discard": "target",
    "stash": "target",
    "remove": "target",
    "reveal": "target",
    "gain_level": "your_hero",
    "lose_level": "opposing_hero",
}
#: The referents a level effect may name: a Hero (a level is its player's, docs/rules.md A.2).
LEVEL_REFERENTS = ("target", "your_hero", "opposing_hero", "defending_hero")
#: Target filter fields: card ``types``, ``controller`` (``you``/``opponent``/``any``),
#: ``zones`` (``in_play`` by default, or a list of zones), ``damaged`` (has damage on it).
FILTER_ZONES = ("in_play", "hero", "hoard", "stash", "dmz", "hand", "stack")
#: Keywords that stand for an ability (docs/rules.md A.12): the engine adds it to the card.
KEYWORD_ABILITIES = ("smack",)


def normalize_abilities(raw: Any, card_type: Any, errors: dict[str, list[str]]) -> Any:
    """Validate a card's ``abilities`` (``None``, or a list of abilities; docs/cards.md) and
    return them complete (defaults filled in); problems go to ``errors``."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) > 8:
        errors["abilities"] = ["null (not encoded) or a list of at most 8 abilities"]
        return None
    out = []
    for i, ability in enumerate(raw):
        where = f"abilities.{i}"
        if not isinstance(ability, Mapping):
            errors[where] = ["an object"]
            continue
        unknown = set(ability) - {
            "trigger",
            "cost",
            "conditions",
            "interrupt",
            "targets",
            "effects",
            "unchecked",
            "text",
        }
        if unknown:
            errors[where] = [f"unknown fields: {', '.join(sorted(map(str, unknown)))}"]
            continue
        trigger = ability.get("trigger", "played" if card_type == "mischief" else "activated")
        if not isinstance(trigger, str) or trigger not in TRIGGERS:
            errors[f"{where}.trigger"] = [f"one of {', '.join(TRIGGERS)}"]
        if trigger == "played" and card_type != "mischief":
            errors[f"{where}.trigger"] = ["'played' is a Mischief's trigger"]
        raw_cost = ability.get("cost")
        cost = _normalize_cost({} if raw_cost is None else raw_cost, f"{where}.cost", errors)
        if trigger != "activated" and any(cost.values()):
            errors[f"{where}.cost"] = ["only an activated ability has a cost"]
        conditions = ability.get("conditions")
        if conditions is None:
            conditions = []
        if not isinstance(conditions, list) or not all(
            isinstance(c, str) and c in CONDITIONS for c in conditions
        ):
            errors[f"{where}.conditions"] = [f"a list of {', '.join(CONDITIONS)}"]
            conditions = []
        interrupt = ability.get("interrupt", False)
        if not isinstance(interrupt, bool):
            errors[f"{where}.interrupt"] = ["true or false"]
        targets = [
            _normalize_filter(f, f"{where}.targets.{j}", errors)
            for j, f in enumerate(_list(ability.get("targets"), f"{where}.targets", errors))
        ]
        effects = [
            _normalize_effect(x, f"{where}.effects.{j}", len(targets), errors)
            for j, x in enumerate(_list(ability.get("effects"), f"{where}.effects", errors))
        ]
        unchecked = ability.get("unchecked", False)
        if not isinstance(unchecked, bool):
            errors[f"{where}.unchecked"] = ["true or false"]
        text = ability.get("text", "")
        if not isinstance(text, str) or len(text) > 500:
            errors[f"{where}.text"] = ["a string of at most 500 characters"]
        if not effects and not unchecked:
            errors[f"{where}.effects"] = ["at least one effect (or mark it unchecked)"]
        out.append(
            {
                "trigger": trigger,
                "cost": cost,
                "conditions": sorted(set(conditions)),
                "interrupt": bool(interrupt),
                "targets": targets,
                "effects": effects,
                "unchecked": bool(unchecked),
                "text": text if isinstance(text, str) else "",
            }
        )
    return out


def _list(value: Any, where: str, errors: dict[str, list[str]]) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 8:
        errors[where] = ["a list of at most 8 entries"]
        return []
    return value


def _normalize_cost(raw: Any, where: str, errors: dict[str, list[str]]) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or set(raw) - set(COST_PARTS):
        errors[where] = [f"an object with {', '.join(COST_PARTS)}"]
        return {"zap": False, "gold": 0, "discard": 0}
    zap = raw.get("zap", False)
    gold = raw.get("gold", 0)
    discard = raw.get("discard", 0)
    if not isinstance(zap, bool):
        errors[f"{where}.zap"] = ["true or false"]
    for key, value in (("gold", gold), ("discard", discard)):
        if not is_card_number(value):
            errors[f"{where}.{key}"] = [f"a whole number 0-{MAX_NUMBER}"]
    return {
        "zap": zap is True,
        "gold": gold if is_card_number(gold) else 0,
        "discard": discard if is_card_number(discard) else 0,
    }


def _normalize_filter(raw: Any, where: str, errors: dict[str, list[str]]) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or set(raw) - {"types", "controller", "zones", "damaged"}:
        errors[where] = ["an object with types, controller, zones, damaged"]
        return {
            "types": list(CARD_TYPES),
            "controller": "any",
            "zones": ["in_play"],
            "damaged": False,
        }
    types = raw.get("types", list(CARD_TYPES))
    if not isinstance(types, list) or not types or not all(t in CARD_TYPES for t in types):
        errors[f"{where}.types"] = [f"a non-empty list of {', '.join(CARD_TYPES)}"]
        types = list(CARD_TYPES)
    controller = raw.get("controller", "any")
    if controller not in ("you", "opponent", "any"):
        errors[f"{where}.controller"] = ["you, opponent or any"]
    zones = raw.get("zones", ["in_play"])
    if not isinstance(zones, list) or not zones or not all(z in FILTER_ZONES for z in zones):
        errors[f"{where}.zones"] = [f"a non-empty list of {', '.join(FILTER_ZONES)}"]
        zones = ["in_play"]
    damaged = raw.get("damaged", False)
    if not isinstance(damaged, bool):
        errors[f"{where}.damaged"] = ["true or false"]
    return {
        "types": sorted(set(types), key=CARD_TYPES.index),
        "controller": controller,
        "zones": list(dict.fromkeys(zones)),
        "damaged": damaged is True,
    }


def _normalize_effect(
    raw: Any, where: str, n_targets: int, errors: dict[str, list[str]]
) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or set(raw) - {"op", "amount", "to", "index", "if"}:
        errors[where] = ["an object with op, amount, to, index, if"]
        return {"op": "take_gold", "amount": 0, "to": "none", "index": 0, "if": None}
    op = raw.get("op")
    if not isinstance(op, str) or op not in EFFECT_OPS:
        errors[f"{where}.op"] = [f"one of {', '.join(EFFECT_OPS)}"]
        op = "take_gold"
    has_amount = EFFECT_OPS[op][1]
    amount = raw.get("amount", 1 if has_amount else None)
    if has_amount and op != "modify_cost" and not is_card_number(amount):
        errors[f"{where}.amount"] = [f"a whole number 0-{MAX_NUMBER}"]
    if op == "modify_cost" and (type(amount) is not int or not -MAX_NUMBER <= amount <= MAX_NUMBER):
        errors[f"{where}.amount"] = ["a whole number (the change to the cost)"]
    elif not has_amount and raw.get("amount") is not None:
        errors[f"{where}.amount"] = [f"'{op}' takes no amount"]
    to = raw.get("to", DEFAULT_REFERENT[op])
    if to not in REFERENTS:
        errors[f"{where}.to"] = [f"one of {', '.join(REFERENTS)}"]
    elif to == "each_hero" and op != "damage":
        errors[f"{where}.to"] = ["'each_hero' is for 'damage' only"]
    elif op in ("gain_level", "lose_level") and to not in LEVEL_REFERENTS:
        errors[f"{where}.to"] = [f"a Hero: one of {', '.join(LEVEL_REFERENTS)}"]
    index = raw.get("index")
    if index is None:
        index = 0
    if type(index) is not int or not 0 <= index < max(n_targets, 1):
        errors[f"{where}.index"] = [f"the index of one of the ability's {n_targets} targets"]
    if to == "target" and n_targets == 0:
        errors[f"{where}.to"] = ["'target' needs the ability to have targets"]
    cond = raw.get("if")
    if cond not in (None, "give_blood"):
        errors[f"{where}.if"] = ["null or 'give_blood'"]
    return {
        "op": op,
        "amount": amount if has_amount else None,
        "to": to,
        "index": index if to == "target" else None,
        "if": cond,
    }


def keyword_abilities(card: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Abilities a card has by its keywords (docs/rules.md A.12 Smack: zap this Weapon on your
    turn: 1 damage to a target Hero or a stashed Monster)."""
    if card.get("keywords", {}).get("smack") and card.get("subtype") == "weapon":
        return [
            {
                "trigger": "activated",
                "cost": {"zap": True, "gold": 0, "discard": 0},
                "conditions": ["own_turn"],
                "interrupt": False,
                "targets": [
                    {
                        "types": ["hero", "monster"],
                        "controller": "any",
                        "zones": ["hero", "stash"],
                        "damaged": False,
                    }
                ],
                "effects": [{"op": "damage", "amount": 1, "to": "target", "index": 0, "if": None}],
                "unchecked": False,
                "text": "Smack",
                "keyword": "smack",
            }
        ]
    return []


class _Read:
    """What the engine reads from one card definition, worked out once (see :func:`_read`)."""

    __slots__ = ("abilities", "by_trigger", "card", "plans")

    def __init__(self, card: Mapping[str, Any]) -> None:
        self.card = card  # kept, so that its id is not reused while this entry lives
        own = card.get("abilities")
        self.abilities: tuple[dict[str, Any], ...] | None = (
            None if own is None else (*own, *keyword_abilities(card))
        )
        self.by_trigger: dict[str, tuple[int, ...]] = {}
        self.plans: dict[tuple[int | None, bool], tuple[dict[str, Any], ...] | None] = {}


#: Per card definition (by identity), what :func:`abilities_of`, :func:`ability_index` and
#: :func:`effect_plan` return. A game's definitions never change after ``GameCreated`` (a fold
#: copies a card, never its ``def``), so these are computed once per definition instead of on
#: every command and fold; the memo is emptied when it grows past :data:`_READ_MAX` entries.
_READS: dict[int, _Read] = {}
_READ_MAX = 4096


def _read(card: Mapping[str, Any]) -> _Read:
    read = _READS.get(id(card))
    if read is None or read.card is not card:
        if len(_READS) >= _READ_MAX:
            _READS.clear()
        read = _READS[id(card)] = _Read(card)
    return read


def abilities_of(card: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """A card definition's abilities, its keyword abilities included; ``None`` if unchecked."""
    abilities = _read(card).abilities
    return None if abilities is None else list(abilities)


def is_unchecked(card: Mapping[str, Any]) -> bool:
    """A card whose text is not (fully) encoded: its abilities are recorded as told."""
    own = card.get("abilities")
    return own is None or any(a.get("unchecked") for a in own)


#: Ops recorded once per card (``draw 2`` is two ``draw`` commands).
COUNTED_OPS = ("draw", "put_on_bottom", "put_on_top")


def effect_plan(
    card: Mapping[str, Any], ability: int | None, give_blood: int = 0
) -> list[dict[str, Any]] | None:
    """The effect commands an ability's resolution must record, in order (docs/cards.md):
    ``None`` when the card or the ability is unchecked. ``draw 2`` becomes two steps; effects
    marked ``if: give_blood`` are kept only when Give Blood was paid."""
    read = _read(card)
    key = (ability, bool(give_blood))
    try:
        steps = read.plans[key]
    except KeyError:
        steps = read.plans[key] = _plan(read.abilities, ability, bool(give_blood))
    return None if steps is None else [dict(step) for step in steps]


def _plan(
    abilities: tuple[dict[str, Any], ...] | None, ability: int | None, give_blood: bool
) -> tuple[dict[str, Any], ...] | None:
    if abilities is None or ability is None or not 0 <= ability < len(abilities):
        return None
    chosen = abilities[ability]
    if chosen.get("unchecked"):
        return None
    plan: list[dict[str, Any]] = []
    for effect in chosen["effects"]:
        if effect.get("if") == "give_blood" and not give_blood:
            continue
        step = {
            "op": effect["op"],
            "amount": effect["amount"],
            "to": effect["to"],
            "index": effect["index"],
        }
        if effect["op"] in COUNTED_OPS:
            plan.extend({**step, "amount": None} for _ in range(int(effect["amount"] or 0)))
        else:
            plan.append(step)
    return tuple(plan)


def ability_index(card: Mapping[str, Any], trigger: str) -> list[int]:
    """Indexes of the card's abilities with ``trigger`` (``[]`` for an unchecked card)."""
    read = _read(card)
    found = read.by_trigger.get(trigger)
    if found is None:
        found = read.by_trigger[trigger] = tuple(
            i for i, a in enumerate(read.abilities or ()) if a["trigger"] == trigger
        )
    return list(found)


def resolve_entry(entry: Any, catalog: Catalog, where: str) -> list[CardDef]:
    """The card definitions one entry of a seat's ``hero`` or ``deck`` stands for: a full
    definition (checked, :func:`normalize_card`) or ``{name, count?}`` from ``catalog``.
    Errors name the entry's place in the request, ``where`` (an unknown name: the catalog's
    own ``name`` field)."""
    if isinstance(entry, Mapping) and entry.keys() <= {"name", "count"}:
        name = entry.get("name")
        count = entry.get("count", 1)
        if not isinstance(name, str):
            raise InvalidCommand(
                "request/invalid_card", "a card name is a string", fields={where: ["name"]}
            )
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 60:
            raise InvalidCommand(
                "request/invalid_card",
                "count is a whole number from 1 to 60",
                fields={where: ["count: 1..60"]},
            )
        return [dict(catalog.get(name)) for _ in range(count)]
    if isinstance(entry, Mapping):
        unknown = sorted(str(k) for k in entry if k not in CARD_FIELDS)
        if unknown:
            raise InvalidCommand(
                "request/invalid_card",
                f"unknown card definition fields: {', '.join(unknown)}",
                fields={f"{where}.{k}": ["not a card definition field"] for k in unknown},
            )
        try:
            return [normalize_card(entry)]
        except InvalidCommand as exc:
            raise InvalidCommand(
                exc.code,
                exc.message,
                fields={f"{where}.{k}": v for k, v in exc.fields.items()},
            ) from None
    raise InvalidCommand(
        "request/invalid_card",
        "a card is a definition or {name, count}",
        fields={where: ["a card definition or {name, count}"]},
    )
