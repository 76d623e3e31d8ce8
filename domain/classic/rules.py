"""Readers of a classic state: traits, combat strength, run-away modifiers, levels.

Pure functions of the state (the fold and the decisions both use them); nothing here changes
anything. Sections: docs/rules.md B.5 (strength), B.6 (monsters), B.8 (running away), B.11
(traits), B.12 (items).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.classic.sets import ALL_TRAIT_KINDS, SETS

State = Mapping[str, Any]
MAX_LEVEL = 10
ESCAPE_ON = 5


def card_def(state: State, cid: str) -> Mapping[str, Any]:
    d: Mapping[str, Any] = state["cards"][cid]["def"]
    return d


def is_item(state: State, cid: str) -> bool:
    """Whether ``cid`` is an Item, a card that may be given or traded (docs/rules.md B.12: DX
    and AoS *Items, Trading*, "You may trade Items (but no other cards)")."""
    return card_def(state, cid)["kind"] in SETS[state["ruleset"]].item_kinds


def living(state: State) -> list[str]:
    """Seats still in the game (not conceded), in seating order."""
    return [s for s, st in state["seats"].items() if st["eliminated"] is None]


def alive(state: State) -> list[str]:
    """Seats in the game whose character is alive (docs/rules.md B.9)."""
    return [s for s in living(state) if not state["seats"][s]["dead"]]


def trait_cards(state: State, seat: str) -> list[Mapping[str, Any]]:
    zones = state["seats"][seat]["zones"]
    return [card_def(state, cid) for kind in ALL_TRAIT_KINDS for cid in zones[kind]]


def card_traits(state: State, seat: str) -> set[str]:
    """The Race, Class and Army names the character cards in front of ``seat`` give."""
    cards, zones = state["cards"], state["seats"][seat]["zones"]
    have = set()
    for kind in ALL_TRAIT_KINDS:
        for cid in zones[kind]:
            trait = cards[cid]["def"].get("trait")
            if trait:
                have.add(trait)
    return have


def traits(state: State, seat: str) -> set[str]:
    """The Race, Class and Army names ``seat`` has now (docs/rules.md B.11): its cards', and
    the set's race without a card (DX *Race*: "If you have no Race card in front of you, you
    are human")."""
    have = card_traits(state, seat)
    default = SETS[state["ruleset"]].default_race
    if default and not state["seats"][seat]["zones"]["race"]:
        have.add(default)
    return have


def shielded(state: State, seat: str) -> set[str]:
    """The traits ``seat`` holds with a multi card as the only card of their kind: all their
    advantages and none of their disadvantages (DX *Super Munchkin and Half-Breed*: "you can
    equip Items forbidden to that Class, and monsters do not get bonuses because of your
    Class"; AoS *Alliance*; docs/rules.md B.11)."""
    zones = state["seats"][seat]["zones"]
    out: set[str] = set()
    for kind in ALL_TRAIT_KINDS:
        defs = [card_def(state, cid) for cid in zones[kind]]
        real = [c for c in defs if c["kind"] != "other"]
        if len(real) == 1 and len(defs) > 1 and real[0].get("trait"):
            out.add(real[0]["trait"])
    return out


def exposed(state: State, seat: str, have: set[str] | None = None) -> set[str]:
    """The traits of ``seat`` that count against it: all but the :func:`shielded` ones."""
    return (traits(state, seat) if have is None else have) - shielded(state, seat)


def usable(item: Mapping[str, Any], have: set[str], against: set[str] | None = None) -> bool:
    """Whether an Item's bonus counts for a character with traits ``have`` (B.12), of which
    ``against`` (all by default) are the ones an Item's ``not_usable_by`` reads (B.11)."""
    only = item.get("usable_by")
    if only and not any(trait in have for trait in only):
        return False
    barred = have if against is None else against
    return not any(trait in barred for trait in item.get("not_usable_by") or ())


def usable_by(state: State, seat: str, item: Mapping[str, Any]) -> bool:
    """Whether ``item`` counts for ``seat`` now (its traits, B.11, B.12)."""
    have = traits(state, seat)
    return usable(item, have, exposed(state, seat, have))


def _trait_bonus(state: State, seat: str, have: set[str]) -> int:
    total = 0
    for card in trait_cards(state, seat):
        powers = card.get("powers") or {}
        total += powers.get("bonus", 0)
        per_other = powers.get("bonus_per_other", 0)
        if per_other:
            others = sum(1 for s in alive(state) if s != seat and card["trait"] in traits(state, s))
            total += per_other * others
    return total


def cheated(state: State, seat: str) -> set[str]:
    """The equipped Items of ``seat`` a Cheat! card in front of it holds (docs/rules.md B.2)."""
    zones = state["seats"][seat]["zones"]
    cheats = state.get("cheats") or {}
    return {cheats[c] for c in zones["helpers"] if cheats.get(c) in zones["equipped"]}


def character_strength(state: State, seat: str, have: set[str] | None = None) -> int:
    """Level + equipped Items that count (and one a Hireling carries, B.2) + trait, helper and
    Curse bonuses (B.5, B.10); ``have``: ``seat``'s traits, when the caller knows them."""
    st = state["seats"][seat]
    if have is None:
        have = traits(state, seat)
    against = exposed(state, seat, have)
    total = st["level"] + _trait_bonus(state, seat, have)
    cheat = cheated(state, seat) if state.get("cheats") else set()
    for cid in [*st["zones"]["equipped"], *st["zones"]["helpers"], *st["zones"]["curses"]]:
        card = card_def(state, cid)
        if card.get("kind") != "item":  # a helper, a Cheat! or a Curse
            total += card.get("bonus", 0)
        elif cid in cheat or usable(
            card, have, against
        ):  # equipped, or carried by a Hireling (docs/rules.md B.2)
            total += card.get("bonus", 0)
            total += sum(b["bonus"] for b in card.get("bonus_with") or () if b["trait"] in have)
    return total


def has_power(state: State, seat: str, power: str) -> Any:
    """The value of a character power ``seat`` has now (first trait card with it), else None."""
    for card in trait_cards(state, seat):
        value = (card.get("powers") or {}).get(power)
        if value:
            return value
    return None


def fighters(combat: Mapping[str, Any]) -> list[str]:
    return [combat["player"]] + ([combat["helper"]] if combat["helper"] else [])


def side_has_power(state: State, combat: Mapping[str, Any], power: str) -> bool:
    """Whether the player or the helper has ``power``: a fighter's powers count in the combat
    it fights, as the player or the helper ("and vice versa", docs/rules.md B.7)."""
    return any(has_power(state, seat, power) for seat in fighters(combat))


def can_chase(state: State, seat: str, monster: str) -> str | None:
    """The trait of ``seat`` that chases ``monster`` away (its card's ``chased_by``), if any:
    the monster's vulnerability applies to the helper too (docs/rules.md B.7)."""
    have = traits(state, seat)
    return next((t for t in card_def(state, monster).get("chased_by") or () if t in have), None)


def monster_strength_of(state: State, entry: Mapping[str, Any], against: Iterable[str]) -> int:
    """One monster's strength: level, enhancers, declared conditions and its bonuses against
    the fighters' traits (a shared trait counted once), times its copies (B.5, B.6)."""
    have: set[str] = set()
    bare: set[str] = set()
    for seat in against:
        own = traits(state, seat)
        have |= own
        bare |= exposed(state, seat, own)
    return _monster_strength(state, entry, have, bare)


def _monster_strength(
    state: State, entry: Mapping[str, Any], have: set[str], bare: set[str]
) -> int:
    """``have``: the fighters' traits; ``bare``: those a monster's bonus reads (a penalty
    reads them all, a bonus not a trait a multi card shields, B.11)."""
    m = card_def(state, entry["card"])
    one = m.get("level", 0) + sum(card_def(state, e).get("bonus", 0) for e in entry["enhancers"])
    one += sum(w["bonus"] for w in m.get("when") or () if w["condition"] in entry["conditions"])
    one += sum(
        v["bonus"] for v in m.get("vs") or () if v["trait"] in (bare if v["bonus"] > 0 else have)
    )
    return one * (1 + entry["copies"])


def strengths(state: State, combat: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """``(player side, monster side)`` of the combat (docs/rules.md B.5)."""
    player, monster, _ = combat_strengths(state, combat if combat is not None else state["combat"])
    return player, monster


def combat_strengths(state: State, combat: Mapping[str, Any]) -> tuple[int, int, list[int]]:
    """``(player side, monster side, each monster's own strength)`` of ``combat`` (B.5, B.6),
    each fighter's traits read once (the fold keeps all three, :mod:`domain.classic.state`)."""
    side = fighters(combat)
    have = {s: traits(state, s) for s in side}
    player = sum(character_strength(state, s, have[s]) for s in side)
    player += sum(combat["discard_bonus"].values())
    both = set().union(*have.values())
    bare = set().union(*(exposed(state, s, have[s]) for s in side))
    each = [_monster_strength(state, e, both, bare) for e in combat["monsters"]]
    monster = sum(each)
    player += sum(b["bonus"] for b in combat.get("backstabs", ()))  # Deluxe Thief (B.2)
    for shot in combat["one_shots"]:
        if shot["side"] == "player":
            player += shot["bonus"]
        else:
            monster += shot["bonus"]
    return player, monster, each


def player_wins(state: State, combat: Mapping[str, Any] | None = None) -> bool:
    """Strictly higher, or tied with a wins-ties power of the player or the helper (B.5, B.7:
    "if a Warrior helps you, you will win if your combined total ties that of the monster")."""
    c = combat if combat is not None else state["combat"]
    player, monster = strengths(state, c)
    return player > monster or (player == monster and side_has_power(state, c, "wins_ties"))


def reward_treasures(state: State, entries: Iterable[Mapping[str, Any]]) -> int:
    """Treasures for ``entries``: each monster's count plus its enhancers', per copy (B.7)."""
    total = 0
    for e in entries:
        one = card_def(state, e["card"]).get("treasures", 0)
        one += sum(card_def(state, x).get("treasures", 0) for x in e["enhancers"])
        total += max(0, one) * (1 + e["copies"])
    return total


def reward_levels(state: State, entries: Iterable[Mapping[str, Any]]) -> int:
    return sum(card_def(state, e["card"]).get("levels", 1) * (1 + e["copies"]) for e in entries)


def run_modifier(state: State, seat: str, monster: str) -> int:
    """What ``seat`` adds to a run-away roll from ``monster``: Items, traits, helpers, the
    monster's own modifier and the one-shots it played (docs/rules.md B.8)."""
    st = state["seats"][seat]
    have = traits(state, seat)
    against = exposed(state, seat, have)
    total = card_def(state, monster).get("run_away", 0)
    helpers = [card_def(state, cid) for cid in st["zones"]["helpers"]]
    # AoS: "If a Steed has a Run Away bonus or penalty, that bonus or penalty replaces any
    # others you might have" (B.2): a Steed's 0 is neither, and replaces nothing.
    steeds = [h for h in helpers if h["kind"] == "steed" and h.get("run_away")]
    if steeds and SETS[state["ruleset"]].steed_replaces_run_away:
        total += sum(h["run_away"] for h in steeds)  # replaces the character's own (B.2)
    else:
        total += sum((c.get("powers") or {}).get("run_away", 0) for c in trait_cards(state, seat))
        cheat = cheated(state, seat) if state.get("cheats") else set()
        for cid in st["zones"]["equipped"]:
            item = card_def(state, cid)
            if cid in cheat or usable(item, have, against):
                total += item.get("run_away", 0)
        total += sum(
            h.get("run_away", 0)
            for h in helpers
            if h.get("kind") != "item" or usable(h, have, against)
        )
    total += sum(card_def(state, cid).get("run_away", 0) for cid in st["zones"]["curses"])
    combat = state.get("combat")
    if combat:
        total += sum(s["run_away"] for s in combat["one_shots"] if s["by"] == seat)
    return int(total)


def hands_used(state: State, ids: Iterable[str]) -> int:
    return sum(
        {"1hand": 1, "2hands": 2}.get(card_def(state, cid).get("slot") or "", 0) for cid in ids
    )


def lowest_levels(state: State, among: Iterable[str]) -> list[str]:
    seats = list(among)
    if not seats:
        return []
    low = min(state["seats"][s]["level"] for s in seats)
    return [s for s in seats if state["seats"][s]["level"] == low]
