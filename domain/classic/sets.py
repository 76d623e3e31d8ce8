"""What differs between the three classic sets (docs/rules.md B.2), as data.

One classic core reads these values; nothing else in :mod:`domain.classic` names a set.

>>> SETS["munchkin-old-west"].bad_door, SETS["munchkin-old-west"].trait_kinds
('trap', ('class',))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SetRules:
    """One classic set's differences from the common core (docs/rules.md B.2)."""

    #: The ruleset's registered name and the rules version its games record.
    name: str
    rules_version: str
    #: Character card kinds this set has: one of each may be in front of a player (B.11).
    trait_kinds: tuple[str, ...]
    #: The card kind of the bad Door cards: ``"curse"`` or ``"trap"`` (B.10).
    bad_door: str
    #: Helper card kinds this set has (hirelings, sidekicks, steeds) (B.2).
    helper_kinds: tuple[str, ...]
    #: Monster tags that let a monster join a fight of the same tag from a hand (B.6).
    join_tags: tuple[str, ...]
    #: Treasure after a monster is removed without a kill (D.C2).
    non_lethal_treasure: bool
    #: A Steed's Run Away modifier replaces the character's own, and a Steed may be abandoned
    #: (AoS, docs/rules.md B.2).
    steed_replaces_run_away: bool = False
    #: A fighter may sacrifice its Sidekick to escape every monster (Old West, B.2, D.C12).
    sidekick_sacrifice: bool = False
    #: An Item received (trade or gift) on your own turn is sold from your next turn only
    #: (Old West, docs/rules.md B.2).
    received_items_wait: bool = False
    #: The race of a character with no Race card (DX *Race*: "you are human"), if any (B.11).
    default_race: str | None = None
    #: The optional rules this set's rulesheet offers (B.15; D.C9 lets Old West opt in too).
    options: tuple[str, ...] = ("listen_at_door", "shared_victory")
    #: The card kinds that are Items, the only cards given or traded (docs/rules.md B.12): the
    #: Items and the one-shot Items of every set; in AoS a Steed too (*Items, Steeds*).
    item_kinds: tuple[str, ...] = ("item", "one_shot")


DELUXE = SetRules(
    name="munchkin-deluxe",
    rules_version="deluxe-1.72",
    trait_kinds=("race", "class"),
    bad_door="curse",
    helper_kinds=("hireling",),
    join_tags=("undead",),
    non_lethal_treasure=False,
    default_race="Human",
)
OLD_WEST = SetRules(
    name="munchkin-old-west",
    rules_version="old-west-1",
    trait_kinds=("class",),
    bad_door="trap",
    helper_kinds=("sidekick", "steed"),
    join_tags=("undead",),
    non_lethal_treasure=True,
    sidekick_sacrifice=True,
    received_items_wait=True,
)
AGE_OF_SIGMAR = SetRules(
    name="munchkin-age-of-sigmar",
    rules_version="aos-1",
    trait_kinds=("army",),
    bad_door="curse",
    helper_kinds=("steed",),
    join_tags=("undead", "chaos"),
    non_lethal_treasure=False,
    steed_replaces_run_away=True,
    item_kinds=("item", "one_shot", "steed"),
)

SETS: dict[str, SetRules] = {s.name: s for s in (DELUXE, OLD_WEST, AGE_OF_SIGMAR)}
#: Every trait kind of any set, in the order the state lists them.
ALL_TRAIT_KINDS = ("race", "class", "army")
