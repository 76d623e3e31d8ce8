"""Classic Munchkin card definitions as data (docs/rules.md B.1, B.2, B.11, B.12).

Every definition has ``name``, ``text``, ``deck`` (``"door"`` or ``"treasure"``) and ``kind``;
each kind adds its own fields (the contract of issue #14, listed in :data:`KINDS`). A few card
powers the rules need are small optional fields (``powers`` on a character card, ``when`` on a
monster, ``bonus_with`` on an item, ``doses``/``removes`` on a one-shot,
``escape_bad_stuff`` and ``chased_by`` on a monster, ``adds_tags`` on an enhancer, ``next_combat`` on a Curse or Trap,
``removes_curse``, ``forces_help`` and ``cheat`` on an ``other`` card): docs/rules.md B.7, B.8,
B.10, B.11, B.12 list them. Every field added after the first
release is optional with a default, so older games and catalogs still load. :func:`normalize_card` fills the defaults and refuses a malformed card with
``request/invalid_card`` naming each bad field.

>>> normalize_card({"name": "Sample Rat", "deck": "door", "kind": "monster", "level": 1,
...                 "treasures": 1}, "munchkin-deluxe")["levels"]
1
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from domain.classic.sets import ALL_TRAIT_KINDS, SETS, SetRules
from domain.errors import InvalidCommand

CardDef = dict[str, Any]

#: Largest number a card or a command may carry (levels, bonuses, gold pieces, dice).
MAX_NUMBER = 99_999
SLOTS = ("headgear", "armor", "footgear", "1hand", "2hands")
HELPER_KINDS = ("hireling", "sidekick", "steed")
KINDS = (
    "monster",
    "curse",
    "trap",
    "race",
    "class",
    "army",
    "enhancer",
    "item",
    "one_shot",
    "level_up",
    *HELPER_KINDS,
    "other",
)
#: Effects of Bad Stuff, Curses and Traps: name -> what its value may be (docs/rules.md B.9).
EFFECTS: dict[str, tuple[str, ...]] = {
    "lose_levels": ("number",),
    "lose_item": (*SLOTS, "big", "any", "all"),
    "lose_trait": ALL_TRAIT_KINDS,
    "discard_hand": ("true",),
    "die": ("true",),
}
#: Character card powers (docs/rules.md B.11): name -> kind of value.
POWERS = {
    "wins_ties": bool,
    "discard_bonus": int,
    "bonus": int,
    "bonus_per_other": int,
    "helper_levels": int,
    "run_away": int,
    "backstab": int,  # discard a card: -N to a fighter, once per victim per combat (B.2)
    "steal": int,  # discard a card to try to steal a Small Item: a roll of N or more (B.2)
    "steal_penalty": int,  # the levels a failed steal costs the Thief (B.2)
}


class _Errors:
    def __init__(self) -> None:
        self.fields: dict[str, list[str]] = {}

    def add(self, key: str, message: str) -> None:
        self.fields.setdefault(key, []).append(message)


def _is_int(value: Any, lo: int = -MAX_NUMBER) -> bool:
    return type(value) is int and lo <= value <= MAX_NUMBER


def _int(raw: Mapping[str, Any], key: str, errors: _Errors, default: int = 0, lo: int = 0) -> int:
    value = raw.get(key, default)
    if value is None:
        value = default
    if not _is_int(value, lo):
        errors.add(key, f"a whole number from {lo} to {MAX_NUMBER}")
        return default
    return int(value)


def _flag(raw: Mapping[str, Any], key: str, errors: _Errors, what: str = "true or false") -> bool:
    """``raw[key]``, a boolean (false when absent)."""
    value = raw.get(key, False)
    if not isinstance(value, bool):
        errors.add(key, what)
    return value is True


def _strings(raw: Mapping[str, Any], key: str, errors: _Errors) -> list[str]:
    value = raw.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        errors.add(key, "a list of non-empty strings")
        return []
    return list(value)


def normalize_effects(value: Any, key: str, errors: _Errors) -> list[dict[str, Any]]:
    """A list of effects ``{name: value}`` (docs/rules.md B.9), each with one known name."""
    if value is None:
        return []
    if not isinstance(value, list):
        errors.add(key, "a list of effects")
        return []
    out: list[dict[str, Any]] = []
    for effect in value:
        if not isinstance(effect, Mapping) or len(effect) != 1:
            errors.add(key, "each effect is an object with one key")
            continue
        ((name, arg),) = effect.items()
        allowed = EFFECTS.get(name)
        if allowed is None:
            errors.add(key, f"unknown effect {name!r}; known: {', '.join(EFFECTS)}")
        elif allowed == ("number",) and not _is_int(arg, 1):
            errors.add(key, f"{name}: a whole number from 1")
        elif allowed == ("true",) and arg is not True:
            errors.add(key, f"{name}: true")
        elif allowed not in (("number",), ("true",)) and arg not in allowed:
            errors.add(key, f"{name}: one of {', '.join(allowed)}")
        else:
            out.append({name: arg})
    return out


def _bonuses(raw: Mapping[str, Any], key: str, errors: _Errors, by: str) -> list[dict[str, Any]]:
    """``raw[key]``, a list of bonuses ``{<by>: string, bonus: whole number}`` (none when
    absent): a monster's against a trait (``vs``) or in a condition (``when``)."""
    value = raw.get(key) or []
    out = []
    if isinstance(value, list):
        for v in value:
            if isinstance(v, Mapping) and isinstance(v.get(by), str) and _is_int(v.get("bonus")):
                out.append({by: v[by], "bonus": v["bonus"]})
            else:
                errors.add(key, f"each entry is {{{by}: string, bonus: whole number}}")
    else:
        errors.add(key, f"a list of {{{by}, bonus}}")
    return out


def _monster(raw: Mapping[str, Any], card: CardDef, errors: _Errors) -> None:
    card["level"] = _int(raw, "level", errors, default=-1)
    if "level" not in raw:
        errors.add("level", "a monster has a level")
    card["treasures"] = _int(raw, "treasures", errors)
    card["levels"] = _int(raw, "levels", errors, default=1)
    card["tags"] = [t.lower() for t in _strings(raw, "tags", errors)]
    card["bad_stuff"] = normalize_effects(raw.get("bad_stuff"), "bad_stuff", errors)
    card["vs"] = _bonuses(raw, "vs", errors, by="trait")
    # Traits that chase it away (`chase_away`, the player or the helper, B.7): none by default.
    card["chased_by"] = _strings(raw, "chased_by", errors)
    card["run_away"] = _int(raw, "run_away", errors, lo=-MAX_NUMBER)
    # Bad Stuff even for those who escape (docs/rules.md B.8): optional, none by default.
    card["escape_bad_stuff"] = normalize_effects(
        raw.get("escape_bad_stuff"), "escape_bad_stuff", errors
    )
    card["when"] = _bonuses(raw, "when", errors, by="condition")


def _trait(raw: Mapping[str, Any], card: CardDef, errors: _Errors) -> None:
    trait = raw.get("trait")
    if not isinstance(trait, str) or not trait.strip():
        errors.add("trait", "the trait this card gives (e.g. 'Elf')")
    card["trait"] = trait
    powers = raw.get("powers") or {}
    card["powers"] = {}
    if not isinstance(powers, Mapping):
        errors.add("powers", "an object")
        return
    for name, value in powers.items():
        kind = POWERS.get(name)
        if kind is None:
            errors.add("powers", f"unknown power {name!r}; known: {', '.join(POWERS)}")
        elif (kind is bool and not isinstance(value, bool)) or (kind is int and not _is_int(value)):
            errors.add("powers", f"{name}: a {kind.__name__}")
        else:
            card["powers"][name] = value


def _item(raw: Mapping[str, Any], card: CardDef, errors: _Errors) -> None:
    slot = raw.get("slot")
    if slot is not None and slot not in SLOTS:
        errors.add("slot", f"one of {', '.join(SLOTS)} or null")
    card["slot"] = slot
    card["big"] = _flag(raw, "big", errors)
    card["bonus"] = _int(raw, "bonus", errors, lo=-MAX_NUMBER)
    card["value"] = _int(raw, "value", errors)
    card["usable_by"] = _strings(raw, "usable_by", errors)
    card["not_usable_by"] = _strings(raw, "not_usable_by", errors)
    card["bonus_with"] = _bonuses(raw, "bonus_with", errors, by="trait")
    card["run_away"] = _int(raw, "run_away", errors, lo=-MAX_NUMBER)


def _one_shot(raw: Mapping[str, Any], card: CardDef, errors: _Errors) -> None:
    card["bonus"] = _int(raw, "bonus", errors, lo=-MAX_NUMBER)
    card["value"] = _int(raw, "value", errors)
    card["run_away"] = _int(raw, "run_away", errors, lo=-MAX_NUMBER)
    doses = raw.get("doses")
    if doses is not None:
        ok = isinstance(doses, Mapping) and _is_int(doses.get("max"), 1)
        ok = ok and _is_int(doses.get("bonus", 0)) and _is_int(doses.get("run_away", 0))
        if not ok:
            errors.add("doses", "{max: whole number from 1, bonus, run_away} per dose")
            doses = None
        else:
            doses = {"max": doses["max"], "bonus": doses.get("bonus", 0)}
            doses["run_away"] = raw["doses"].get("run_away", 0)
    card["doses"] = doses
    removes = raw.get("removes")
    if removes not in (None, "enhancer", "monster"):
        errors.add("removes", "'enhancer', 'monster' or null")
    card["removes"] = removes


def _curse(raw: Mapping[str, Any], card: CardDef, errors: _Errors) -> None:
    """A Curse or Trap: its effects now; a ``persistent`` one stays in front of its victim with
    a combat ``bonus`` and a ``run_away`` modifier until removed; a ``next_combat`` one stays
    with them only until the end of the victim's next combat (docs/rules.md B.10)."""
    card["effects"] = normalize_effects(raw.get("effects"), "effects", errors)
    card["persistent"] = _flag(raw, "persistent", errors)
    card["next_combat"] = _flag(raw, "next_combat", errors)
    card["bonus"] = _int(raw, "bonus", errors, lo=-MAX_NUMBER)
    card["run_away"] = _int(raw, "run_away", errors, lo=-MAX_NUMBER)


def _enhancer(raw: Mapping[str, Any], card: CardDef, errors: _Errors) -> None:
    card["bonus"] = _int(raw, "bonus", errors, lo=-MAX_NUMBER)
    card["treasures"] = _int(raw, "treasures", errors, lo=-MAX_NUMBER)
    card["copy"] = _flag(raw, "copy", errors, "true or false (a Mate or a Twin)")
    # Tags it gives its monster (DX: "a card that can be used to make a monster Undead"; AoS:
    # Undead or Chaos): with it a monster from a hand joins a fight of that tag (B.6).
    card["adds_tags"] = [t.lower() for t in _strings(raw, "adds_tags", errors)]


def _helper(raw: Mapping[str, Any], card: CardDef, errors: _Errors) -> None:
    card["bonus"] = _int(raw, "bonus", errors, lo=-MAX_NUMBER)
    card["run_away"] = _int(raw, "run_away", errors, lo=-MAX_NUMBER)
    card["value"] = _int(raw, "value", errors)


def _other(raw: Mapping[str, Any], card: CardDef, errors: _Errors) -> None:
    card["wandering"] = _flag(raw, "wandering", errors)
    multi = raw.get("multi")
    if multi is not None and multi not in ALL_TRAIT_KINDS:
        errors.add("multi", f"one of {', '.join(ALL_TRAIT_KINDS)} or null")
    card["multi"] = multi
    card["removes_curse"] = _flag(raw, "removes_curse", errors)  # a Curse or Trap in play (B.10)
    card["forces_help"] = _flag(raw, "forces_help", errors)  # another seat must help (D.C7)
    card["cheat"] = _flag(raw, "cheat", errors)  # Cheat!: one Item past every limit (B.2)


_KIND_FIELDS = {
    "monster": _monster,
    "curse": _curse,
    "race": _trait,
    "class": _trait,
    "army": _trait,
    "enhancer": _enhancer,
    "item": _item,
    "one_shot": _one_shot,
    "level_up": lambda raw, card, errors: None,
    "hireling": _helper,
    "sidekick": _helper,
    "steed": _helper,
    "other": _other,
}
_KIND_FIELDS["trap"] = _KIND_FIELDS["curse"]


def kinds_of(rules: SetRules) -> tuple[str, ...]:
    """The card kinds a set has (docs/rules.md B.2)."""
    skip = {"curse", "trap", "race", "class", "army", *HELPER_KINDS}
    own = {rules.bad_door, *rules.trait_kinds, *rules.helper_kinds}
    return tuple(k for k in KINDS if k not in skip or k in own)


def normalize_card(raw: Any, ruleset: str) -> CardDef:
    """A complete card definition of ``ruleset``'s set, or ``request/invalid_card`` naming
    each bad field (docs/rules.md B.2: a set's own kinds only)."""
    if not isinstance(raw, Mapping):
        raise InvalidCommand("request/invalid_card", "a card definition is an object")
    rules = SETS[ruleset]
    errors = _Errors()
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 120:
        errors.add("name", "a non-empty string of at most 120 characters")
    text = raw.get("text", "")
    if not isinstance(text, str) or len(text) > 2000:
        errors.add("text", "a string of at most 2000 characters")
    deck = raw.get("deck")
    if deck not in ("door", "treasure"):
        errors.add("deck", "'door' or 'treasure'")
    kind = raw.get("kind")
    card: CardDef = {"name": name, "text": text, "deck": deck, "kind": kind}
    if kind not in kinds_of(rules):
        errors.add("kind", f"one of {', '.join(kinds_of(rules))} in {ruleset}")
    else:
        _KIND_FIELDS[str(kind)](raw, card, errors)
    if errors.fields:
        raise InvalidCommand(
            "request/invalid_card",
            f"card {name!r} is not a valid {ruleset} card: "
            + "; ".join(f"{k}: {', '.join(v)}" for k, v in errors.fields.items()),
            errors.fields,
        )
    return card


def sample_catalog(ruleset: str) -> dict[str, CardDef]:
    """The SAMPLE catalog of ``ruleset``'s set: invented cards, every name starting 'Sample'
    (a copy of its own: :func:`_sample_catalog` reads and normalizes each set's once)."""
    return copy.deepcopy(_sample_catalog(ruleset))


@functools.cache
def _sample_catalog(ruleset: str) -> dict[str, CardDef]:
    """``ruleset``'s sample catalog, read and normalized once per process (never changed: its
    readers copy what they hand out)."""
    text = resources.files("domain").joinpath("data/classic_catalog.json").read_text("utf-8")
    data = json.loads(text)
    return {c["name"]: normalize_card(c, ruleset) for c in data["sets"][ruleset]}


def resolve_cards(entries: Any, ruleset: str, deck: str, field: str) -> list[CardDef]:
    """A creation body's ``doors`` or ``treasures``: card definitions or ``{"name", "count"?}``
    from the sample catalog, each card of the right deck (docs/rules.md B.1)."""
    if not isinstance(entries, list):
        raise InvalidCommand(
            "request/invalid_cards", f"'{field}' is a list of cards", {field: ["a list"]}
        )
    catalog: dict[str, CardDef] | None = None
    out: list[CardDef] = []
    for entry in entries:
        if isinstance(entry, Mapping) and set(entry) <= {"name", "count", "id"} and "name" in entry:
            catalog = catalog if catalog is not None else _sample_catalog(ruleset)
            name = entry["name"]
            found = catalog.get(name) if isinstance(name, str) else None
            count = entry.get("count", 1)
            if found is None or not _is_int(count, 1) or count > 200:
                raise InvalidCommand(
                    "request/unknown_card_name",
                    f"no card named {entry['name']!r} in the {ruleset} sample catalog "
                    "(or a bad count)",
                    {field: [str(entry["name"])]},
                )
            card = copy.deepcopy(found)
            out.extend(dict(card) for _ in range(count))
        else:
            out.append(normalize_card(entry, ruleset))
    wrong = [c["name"] for c in out if c["deck"] != deck]
    if wrong:
        raise InvalidCommand(
            "request/invalid_card",
            f"'{field}' holds {deck} cards only; not: {', '.join(wrong[:5])}",
            {field: [f"{deck} cards"]},
        )
    return out


def trait_names(cards: Iterable[Mapping[str, Any]]) -> set[str]:
    """The traits the character cards ``cards`` give."""
    return {c["trait"] for c in cards if c.get("trait")}
