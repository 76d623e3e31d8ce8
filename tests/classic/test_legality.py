"""The classic legality table: each row is a command in a position of each set, with what
strict mode answers (the ``rule/…`` code and its docs/rules.md B section, or a ``command/…`` /
``request/…`` code) and what record mode does (records it with its ``violation``, or refuses it
as physically impossible). A row with ``None`` is legal: both modes accept it unflagged.

The positions are reached by commands from the sample catalogs (``roles`` names the cards a
position needs in each set).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from domain.errors import DomainError, ImpossibleCommand, InvalidCommand, RuleViolation
from tests.classic.helpers import Game, new_game, ready_all, started, top_door, top_treasures

SETS = ("munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar")
ROLES: dict[str, dict[str, str]] = {
    "munchkin-deluxe": {
        "trait1": "Sample Warrior",
        "trait2": "Sample Wizard",
        "traitB": "Sample Thief",
        "curse": "Sample Curse: Lose a Level",
        "enhancer": "Sample Furious",
        "wandering": "Sample Wandering Beast",
        "undead": "Sample Zombie Intern",
        "plain": "Sample Sock Golem",
        "big": "Sample Huge Club",
        "big2": "Sample Tall Ladder",
        "onehand": "Sample Small Dagger",
        "hat": "Sample Pointy Hat",
        "restricted": "Sample Kite Shield",
        "oneshot": "Sample Flaming Potion",
        "levelup": "Sample Bribe the Game Master",
        "persist": "Sample Curse: Duck Feet",
        "nextcombat": "Sample Curse: Stage Fright",
        "remover": "Sample Curse Eraser",
        "hurts": "Sample Sticky Ooze",
        "forcer": "Sample Press-Gang Order",
        "cheat": "Sample Cheat Sheet",
        "multi": "Sample Super Munchkin",
    },
    "munchkin-old-west": {
        "trait1": "Sample Cowboy",
        "trait2": "Sample Outlaw",
        "traitB": "Sample Dude",
        "curse": "Sample Trap: Rattlesnake",
        "enhancer": "Sample Riled Up",
        "wandering": "Sample Stampede",
        "undead": "Sample Zombie Intern",
        "plain": "Sample Sock Golem",
        "big": "Sample Buffalo Rifle",
        "big2": "Sample Wagon Wheel",
        "onehand": "Sample Six-Shooter",
        "hat": "Sample Ten-Gallon Hat",
        "restricted": "Sample Peace Pipe",
        "oneshot": "Sample Snake Oil",
        "levelup": "Sample Saloon Brawl",
        "persist": "Sample Trap: Bear Trap",
        "nextcombat": "Sample Trap: Saddle Burr",
        "remover": "Sample Snake Charm",
        "hurts": "Sample Cactus Cat",
        "forcer": "Sample Posse Summons",
        "cheat": "Sample Cheat Sheet",
        "multi": "Sample Double Trouble",
        "steed": "Sample Old Mule",
    },
    "munchkin-age-of-sigmar": {
        "trait1": "Sample Stormcast Recruit",
        "trait2": "Sample Skaven Scurrier",
        "traitB": "Sample Nighthaunt Wisp",
        "curse": "Sample Curse: Bad Omen",
        "enhancer": "Sample Banner Bearer",
        "wandering": "Sample Wandering Warband",
        "undead": "Sample Zombie Intern",
        "plain": "Sample Sock Golem",
        "big": "Sample Great Hammer",
        "big2": "Sample Siege Ladder",
        "onehand": "Sample Tower Shield",
        "hat": "Sample Sigmarite Helm",
        "restricted": "Sample Grot Stabba",
        "oneshot": "Sample War Cry",
        "levelup": "Sample Glorious Victory",
        "persist": "Sample Curse: Itching Rash",
        "nextcombat": "Sample Curse: Cold Feet",
        "remover": "Sample Cleansing Rite",
        "hurts": "Sample Gheist Hound",
        "forcer": "Sample Call to Arms",
        "cheat": "Sample Cheat Sheet",
        "multi": "Sample Alliance",
        "steed": "Sample Gryph-Hound",
    },
}
TOAD, SLUG = "Sample Grumpy Toad", "Sample Lava Slug"


def catalog_cards(rs: str) -> tuple[list[Any], list[Any]]:
    from domain.classic.cards import sample_catalog

    cat = sample_catalog(rs)
    doors = [c for c in cat.values() if c["deck"] == "door"]
    treasures = [c for c in cat.values() if c["deck"] == "treasure"]
    return doors * 10, treasures * 10


def hands(rs: str) -> dict[str, tuple[list[str], list[str]]]:
    r = ROLES[rs]
    return {
        "A": (
            [r["trait1"], r["trait2"], r["curse"], r["plain"]],
            [r["big"], r["onehand"], r["big2"], r["levelup"]],
        ),
        "B": (
            [r["enhancer"], r["wandering"], r["undead"], r["traitB"]],
            [r["oneshot"], r["levelup"], r["hat"], r["restricted"]],
        ),
        "C": (
            [r["plain"], r["enhancer"], r["curse"], r["undead"]],
            [r["levelup"], r["levelup"], r["oneshot"], r["hat"]],
        ),
    }


@cache
def position(rs: str, name: str) -> Game:
    """The game ``name`` of set ``rs`` (see each branch)."""
    r = ROLES[rs]
    doors, treasures = catalog_cards(rs)
    if name == "setup0":  # created, nobody dealt
        return new_game(rs, doors, treasures)
    if name == "setup1":  # everyone dealt, no roll yet
        g = new_game(rs, doors, treasures)
        for seat in "ABC":
            g.do(
                seat,
                "deal",
                doors=g.state["decks"]["door"][:4],
                treasures=g.state["decks"]["treasure"][:4],
            )
        return g
    if name in ("cursed", "hurt"):  # B.8, B.10: A cursed by B (a Curse that stays) / hurt
        g = started(
            rs,
            doors,
            treasures,
            3,
            hands={
                "A": ([r["plain"]], [r["remover"]]),
                "B": ([r["persist"], r["nextcombat"]], []),
                "C": ([], [r["remover"]]),
            },
        )
        ready_all(g)
        if name == "cursed":
            g.do("B", "play", card=g.id(r["persist"]), target="A")
        else:  # A (Level 1) against a monster that hurts even those who escape
            g.do("A", "kick_door", card=top_door(g, r["hurts"]))
        return g
    if name in ("force1", "force9", "forced", "forced_win", "helped9"):  # D.C7, against Level 10
        ups = [r["levelup"]] * 4
        g = started(
            rs,
            doors,
            treasures,
            3,
            hands={"A": ([r["forcer"], r["plain"]], []), "B": ([], ups), "C": ([], ups)},
        )
        ready_all(g)
        lift = {"force9": 8, "helped9": 8, "forced_win": 7}.get(name, 0)
        for i in range(lift):
            g.do("BC"[i // 4], "play", card=_own(g, "BC"[i // 4], r["levelup"]), target="A")
        g.do("A", "kick_door", card=top_door(g, SLUG))
        if name in ("forced", "forced_win"):
            g.do("A", "play", card=g.id(r["forcer"]), target="B")
        if name == "forced_win":  # the fight becomes one for the win
            g.do("C", "play", card=_own(g, "C", r["levelup"]), target="A")
        if name == "helped9":
            g.do("A", "ask_help", helper="B")
            g.do("B", "accept_help")
        return g
    if name.startswith("backstab"):  # Deluxe (B.2): B a Thief, A fighting a Level 10
        thief, plain = "Sample Thief", r["plain"]
        g = started(
            rs,
            doors,
            treasures,
            3,
            hands={"B": ([thief, plain, plain], []), "C": ([plain], [])},
        )
        g.do("B", "play", card=_own(g, "B", thief))
        ready_all(g)
        g.do("A", "kick_door", card=top_door(g, SLUG))
        if name == "backstabbed":
            g.do("B", "discard", card=_own(g, "B", plain), target="A")
        return g
    if name.startswith("thief"):  # Deluxe (B.2, D.C17): B a Thief; A's Items in play
        thief, plain = "Sample Thief", r["plain"]
        g = started(
            rs,
            doors,
            treasures,
            3,
            hands={
                "A": ([], [r["onehand"], r["big"]]),
                "B": ([thief, plain, plain], []),
                "C": ([plain], []),
            },
        )
        g.do("A", "play", card=g.id(r["onehand"]))
        g.do("A", "play", card=g.id(r["big"]))
        g.do("B", "play", card=_own(g, "B", thief))
        ready_all(g)
        if name == "thief_fight":
            g.do("A", "kick_door", card=top_door(g, SLUG))
        return g
    if name.startswith("cheat"):  # B.2: A's Item it may not use, carried; two Cheat! cards
        g = started(
            rs,
            doors,
            treasures,
            3,
            hands={"A": ([], [r["cheat"], r["cheat"], r["restricted"]])},
        )
        g.do("A", "play", card=g.id(r["restricted"]))  # carried: not usable by A
        ready_all(g)
        if name == "cheated":
            g.do("A", "play", card=_own(g, "A", r["cheat"]), target=g.id(r["restricted"]))
        if name == "cheat_fight":
            g.do("A", "kick_door", card=top_door(g, SLUG))
        return g
    if name.startswith("multi"):  # B.11: A holds a multi card and a character card
        g = started(rs, doors, treasures, 3, hands={"A": ([r["multi"], r["trait1"]], [])})
        if name == "multi_attached":
            g.do("A", "play", card=g.id(r["trait1"]))
        ready_all(g)
        return g
    if name.startswith("halfbreed"):  # Deluxe (B.11): A an Elf, an Item forbidden to Elves
        elf, half, ladder = "Sample Elf", "Sample Half-Breed", "Sample Tall Ladder"
        g = started(rs, doors, treasures, 3, hands={"A": ([elf, half], [ladder])})
        g.do("A", "play", card=g.id(elf))
        g.do("A", "play", card=g.id(ladder))  # carried: forbidden to Elves
        if name == "halfbreed_played":
            g.do("A", "play", card=g.id(half))  # a lone Elf with Half-Breed: no disadvantages
        ready_all(g)
        return g
    if name.startswith("dust"):  # B.6: B holds a plain monster and a card making it Undead
        dust = {"name": "Grave Dust", "deck": "door", "kind": "enhancer", "text": "Undead."}
        dust = {**dust, "bonus": 1, "adds_tags": ["undead"]}
        g = started(rs, [*doors, dust], treasures, 3, hands={"B": ([r["plain"], "Grave Dust"], [])})
        ready_all(g)
        g.do("A", "kick_door", card=top_door(g, r["undead"] if name == "dust" else SLUG))
        return g
    if name in ("steeds", "steed_strict"):  # B.2: A has a Steed; a second one, a Cheat!
        steed = r["steed"]
        options = {"strict_steed_discard": name == "steed_strict"}  # B.15
        hand = {"A": ([], [steed, steed, r["cheat"]])}
        g = started(rs, doors, treasures, 3, hands=hand, options=options)
        ready_all(g)
        g.do("A", "play", card=_own(g, "A", steed))
        return g
    if name.startswith("hireling"):  # Deluxe (B.2): A's Hireling, its Items; B holds one
        squire = "Sample Hired Squire"
        g = started(
            rs,
            doors,
            treasures,
            3,
            hands={"A": ([], [squire, r["big"], r["onehand"], r["hat"]]), "B": ([], [squire])},
        )
        ready_all(g)
        g.do("A", "play", card=_own(g, "A", squire))
        g.do("A", "play", card=g.id(r["big"]))
        g.do("A", "play", card=g.id(r["onehand"]))  # carried: the big weapon takes both hands
        if name == "hireling_full":
            g.do("A", "equip", card=g.id(r["onehand"]), hireling=_value(rs, g, "A", "@squire"))
        if name == "hireling_fight":
            g.do("A", "kick_door", card=top_door(g, SLUG))
        return g
    if name in ("warrior_helped", "count"):  # Deluxe (B.7): B a Warrior / a Cleric, helping A
        trait = "Sample Warrior" if name == "warrior_helped" else "Sample Cleric"
        monster = SLUG if name == "warrior_helped" else "Sample Garlic-Shy Count"
        g = started(rs, doors, treasures, 3, hands={"B": ([trait, r["plain"], r["plain"]], [])})
        g.do("B", "play", card=_own(g, "B", trait))
        ready_all(g)
        g.do("A", "kick_door", card=top_door(g, monster))
        g.do("A", "ask_help", helper="B")
        g.do("B", "accept_help")
        return g
    if name.startswith("tabled"):  # B.12: A put a one-shot on the table; another in hand
        shot = r["oneshot"]
        g = started(rs, doors, treasures, 3, hands={"A": ([], [shot, shot]), "B": ([], [shot])})
        ready_all(g)
        g.do("A", "play", card=_own(g, "A", shot))
        if name == "tabled_fight":
            g.do("A", "kick_door", card=top_door(g, SLUG))
        return g
    if name == "nine":  # A at Level 9, its turn, kick phase
        up = [r["levelup"]] * 4
        g = started(
            rs,
            doors,
            treasures,
            3,
            hands={
                "A": ([], [r["big"], r["onehand"], r["big2"], r["levelup"]]),
                "B": ([], up),
                "C": ([], up),
            },
        )
        ready_all(g)
        for seat in "BC":
            for cid in list(g.seat(seat)["zones"]["hand"]):
                if g.state["cards"][cid]["def"]["kind"] == "level_up":
                    g.do(seat, "play", card=cid, target="A")
        assert g.seat("A")["level"] == 9
        return g
    options = {"listen_at_door": name.startswith("listen")}  # B.15: the listen comes first
    g = started(rs, doors, treasures, 3, hands=hands(rs), options=options)
    g.do("A", "play", card=g.id(r["trait1"]))
    g.do("A", "play", card=g.id(r["big"]))
    g.do("A", "play", card=g.id(r["onehand"]))  # carried: both hands hold the big weapon
    g.do("B", "play", card=g.id(r["restricted"]))  # carried: not usable by B
    if name == "setup_ready":
        g.do("A", "ready")
        return g
    ready_all(g)
    if name in ("kick", "listen"):  # A's first turn, before the door (and the listen)
        return g
    if name == "listened":  # Listen At The Door: A listened, before the door
        g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
        return g
    if name == "received":  # B.2: B gave A an Item in play on A's turn
        g.do("B", "give", to="A", cards=[g.id(r["restricted"])])
        return g
    if name == "gift":  # B.14: C gave B an Item from its hand on A's turn
        g.do("C", "give", to="B", cards=[_own(g, "C", r["hat"])])
        return g
    if name == "lft":  # a harmless door kicked: look for trouble or loot
        g.do("A", "kick_door", card=top_door(g, "Sample Blank Door"))
        return g
    if name == "charity":  # the door to the hand, the room looted: 10 cards
        g.do("A", "kick_door", card=top_door(g, "Sample Blank Door"))
        g.do("A", "loot", card=top_door(g, "Sample Blank Door"))
        return g
    if name in ("fight_win", "treasure"):  # A (1 + its big weapon) against a Level 1 monster
        g.do("A", "kick_door", card=top_door(g, TOAD))
        if name == "treasure":
            g.do("B", "pass")
            g.do("C", "pass")
        return g
    g.do("A", "kick_door", card=top_door(g, SLUG))  # fight_lose: Level 10
    if name == "asked":
        g.do("A", "ask_help", helper="B")
    if name == "helped":  # B helps, the side still losing (B.7, B.8)
        g.do("A", "ask_help", helper="B")
        g.do("B", "accept_help")
    if name == "passed":
        g.do("B", "pass")
    if name == "caught":
        g.do("A", "run_away", monster=g.id(SLUG), roll=1)
    if name == "caught2":  # B.8: two monsters; A caught by the first, its Bad Stuff unpaid
        g.do("B", "play", card=g.id(r["wandering"]), target=g.id(r["undead"]))
        g.do("A", "run_away", monster=g.id(SLUG), roll=1)
    if name in ("gift_fight", "gift_helper"):  # B.14, D.C21: C gives B an Item in A's combat
        if name == "gift_helper":
            g.do("A", "ask_help", helper="B")
            g.do("B", "accept_help")
        g.do("C", "give", to="B", cards=[_own(g, "C", r["hat"])])
    return g


def _own(g: Game, seat: str, name: str) -> str:
    hand = g.seat(seat)["zones"]["hand"]
    return next(c for c in hand if g.state["cards"][c]["def"]["name"] == name)


def card(rs: str, role: str, n: int = 0) -> Callable[[Game], str]:
    return lambda g: g.id(ROLES[rs][role], n) if role in ROLES[rs] else g.id(role, n)


# (position, seat, command type, fields (role names as ``@role``), strict code, section, record)
# record: "violation" (recorded, flagged) or the code refusing it in both modes; None: legal.
ROWS: list[tuple[str, str, str, dict[str, Any], str | None, str | None, str | None]] = [
    (
        "setup0",
        "A",
        "deal",
        {"doors": "@3doors", "treasures": "@4treasures"},
        "rule/deal_size",
        "B.1",
        "violation",
    ),
    (
        "setup1",
        "A",
        "deal",
        {"doors": "@4doors", "treasures": "@4treasures"},
        "rule/already_dealt",
        "B.1",
        "violation",
    ),
    (
        "setup1",
        "A",
        "roll_first",
        {"rolls": {"A": 6, "B": 2}},
        "rule/wrong_rollers",
        "B.1",
        "violation",
    ),
    ("setup0", "A", "ready", {}, "rule/out_of_order", "B.1", "violation"),
    ("setup_ready", "A", "play", {"card": "@levelup"}, "rule/already_ready", "B.1", "violation"),
    ("setup_ready", "B", "play", {"card": "@enhancer"}, "rule/not_now", "B.1", "command/no_combat"),
    ("setup_ready", "A", "ready", {}, "rule/already_ready", "B.1", "violation"),
    ("kick", "B", "kick_door", {"card": "@door"}, "rule/not_your_turn", "B.14", "violation"),
    ("kick", "A", "look_for_trouble", {"card": "@plain"}, "rule/wrong_phase", "B.4", "violation"),
    ("kick", "A", "end_turn", {}, "rule/wrong_phase", "B.4", "violation"),
    ("kick", "A", "play", {"card": "@plain"}, "rule/wrong_phase", "B.4", "command/no_combat"),
    ("kick", "A", "play", {"card": "@trait2"}, "rule/trait_limit", "B.11", "violation"),
    ("kick", "B", "play", {"card": "@traitB"}, "rule/not_your_turn", "B.14", "violation"),
    ("kick", "A", "play", {"card": "@big2"}, "rule/big_limit", "B.12", "violation"),
    ("kick", "A", "equip", {"card": "@onehand"}, "rule/slot_full", "B.12", "violation"),
    ("kick", "B", "equip", {"card": "@restricted"}, "rule/not_usable", "B.12", "violation"),
    ("kick", "A", "sell", {"cards": ["@onehand"]}, "rule/sell_too_little", "B.12", "violation"),
    ("kick", "B", "sell", {"cards": ["@restricted"]}, "rule/not_your_turn", "B.14", "violation"),
    ("kick", "A", "discard", {"card": "@onehand"}, "rule/cannot_discard", "B.12", "violation"),
    (
        "kick",
        "A",
        "deal",
        {"doors": "@4doors", "treasures": "@4treasures"},
        "rule/already_dealt",
        "B.9",
        "violation",
    ),
    ("kick", "B", "play", {"card": "@enhancer"}, "command/no_combat", None, "command/no_combat"),
    ("kick", "B", "pass", {}, "command/no_combat", None, "command/no_combat"),
    (
        "kick",
        "A",
        "run_away",
        {"monster": "@plain", "roll": 6},
        "command/no_combat",
        None,
        "command/no_combat",
    ),
    (
        "kick",
        "A",
        "take_treasure",
        {"cards": []},
        "command/no_treasure",
        None,
        "command/no_treasure",
    ),
    ("kick", "A", "loot_body", {"card": "@plain"}, "command/no_body", None, "command/no_body"),
    ("kick", "B", "accept_trade", {}, "command/no_trade", None, "command/no_trade"),
    (
        "kick",
        "A",
        "kick_door",
        {"card": "@big2"},
        "command/card_not_there",
        None,
        "command/card_not_there",
    ),
    (
        "kick",
        "A",
        "play",
        {"card": "@enhancer"},
        "command/card_not_there",
        None,
        "command/card_not_there",
    ),
    ("kick", "A", "play", {"card": "@curse", "target": "B"}, None, None, None),
    ("kick", "B", "play", {"card": "@levelup", "target": "A"}, None, None, None),
    ("kick", "A", "kick_door", {"card": "@door"}, None, None, None),
    ("listen", "A", "kick_door", {"card": "@door"}, "rule/listen_first", "B.15", "violation"),
    ("listen", "A", "play", {"card": "@levelup"}, "rule/listen_first", "B.15", "violation"),
    (
        "listen",
        "A",
        "play",
        {"card": "@curse", "target": "B"},
        "rule/listen_first",
        "B.15",
        "violation",
    ),
    ("listen", "A", "end_turn", {}, "rule/listen_first", "B.15", "violation"),
    ("listen", "B", "play", {"card": "@levelup", "target": "A"}, None, None, None),
    ("listen", "A", "loot", {"card": "@door"}, None, None, None),
    (
        "listen",
        "A",
        "loot",
        {"card": "@treasure"},
        "command/card_not_there",
        None,
        "command/card_not_there",
    ),
    ("listened", "A", "play", {"card": "@levelup"}, None, None, None),
    ("listened", "A", "kick_door", {"card": "@door"}, None, None, None),
    ("listened", "A", "loot", {"card": "@door"}, "rule/wrong_phase", "B.4", "violation"),
    ("lft", "A", "kick_door", {"card": "@door"}, "rule/wrong_phase", "B.4", "violation"),
    ("lft", "A", "look_for_trouble", {"card": "@trait2"}, "rule/not_a_monster", "B.4", "violation"),
    ("lft", "A", "loot", {"card": "@treasure"}, "rule/wrong_deck", "B.15", "violation"),
    ("lft", "A", "end_turn", {}, "rule/wrong_phase", "B.4", "violation"),
    ("lft", "A", "look_for_trouble", {"card": "@plain"}, None, None, None),
    ("charity", "A", "end_turn", {}, "rule/charity_first", "B.13", "violation"),
    ("charity", "A", "charity", {"gifts": "@gifts1A"}, "rule/charity_count", "B.13", "violation"),
    (
        "charity",
        "A",
        "charity",
        {"gifts": "@gifts2B"},
        "rule/charity_recipient",
        "B.13",
        "violation",
    ),
    ("charity", "A", "charity", {"gifts": "@gifts2A"}, None, None, None),
    ("fight_lose", "A", "pass", {}, "rule/own_combat", "B.5", "violation"),
    ("passed", "B", "pass", {}, "rule/already_passed", "B.5", "violation"),
    ("fight_lose", "B", "ask_help", {"helper": "C"}, "rule/not_your_combat", "B.7", "violation"),
    ("fight_lose", "A", "ask_help", {"helper": "A"}, "rule/invalid_helper", "B.7", "violation"),
    ("asked", "A", "ask_help", {"helper": "C"}, "rule/help_pending", "B.7", "violation"),
    ("asked", "C", "accept_help", {}, "command/not_asked", None, "command/not_asked"),
    ("asked", "B", "accept_help", {}, None, None, None),
    (
        "fight_lose",
        "B",
        "run_away",
        {"monster": "@slug", "roll": 6},
        "command/not_fighting",
        None,
        "command/not_fighting",
    ),
    (
        "fight_lose",
        "A",
        "run_away",
        {"monster": "@slug", "roll": 7},
        "request/invalid_number",
        None,
        "request/invalid_number",
    ),
    ("fight_lose", "A", "run_away", {"monster": "@slug", "roll": 5}, None, None, None),
    (
        "fight_win",
        "A",
        "run_away",
        {"monster": "@toad", "roll": 6},
        "rule/winning_combat",
        "B.8",
        "violation",
    ),
    ("fight_lose", "A", "unequip", {"card": "@big"}, "rule/in_combat", "B.12", "violation"),
    ("fight_lose", "A", "play", {"card": "@big2"}, "rule/in_combat", "B.14", "violation"),
    (
        "fight_lose",
        "A",
        "sell",
        {"cards": ["@big", "@onehand", "@big2"]},
        "rule/in_combat",
        "B.12",
        "violation",
    ),
    (
        "fight_lose",
        "A",
        "end_turn",
        {},
        "rule/combat_in_progress",
        "B.5",
        "command/combat_in_progress",
    ),
    (
        "fight_lose",
        "A",
        "kick_door",
        {"card": "@door"},
        "rule/combat_in_progress",
        "B.5",
        "command/combat_in_progress",
    ),
    ("fight_lose", "C", "play", {"card": "@plain"}, "rule/needs_wandering", "B.6", "violation"),
    ("fight_lose", "B", "play", {"card": "@undead"}, "rule/needs_wandering", "B.6", "violation"),
    (
        "fight_lose",
        "B",
        "play",
        {"card": "@wandering", "target": "@enhancer"},
        "rule/not_a_monster",
        "B.6",
        "violation",
    ),
    ("fight_lose", "B", "play", {"card": "@wandering", "target": "@undead"}, None, None, None),
    (
        "fight_lose",
        "B",
        "play",
        {"card": "@wandering", "target": "@wandering"},
        "command/card_not_there",
        None,
        "command/card_not_there",
    ),
    (
        "fight_lose",
        "A",
        "look_for_trouble",
        {"card": "@plain"},
        "rule/combat_in_progress",
        "B.5",
        "command/combat_in_progress",
    ),
    (
        "fight_lose",
        "B",
        "discard",
        {"card": "@enhancer"},
        "rule/cannot_discard",
        "B.12",
        "violation",
    ),
    (
        "fight_lose",
        "C",
        "play",
        {"card": "@enhancer", "target": "@plain"},
        "command/card_not_there",
        None,
        "command/card_not_there",
    ),
    ("fight_lose", "C", "play", {"card": "@enhancer"}, None, None, None),
    ("fight_lose", "B", "play", {"card": "@oneshot", "target": "monster"}, None, None, None),
    (
        "caught",
        "A",
        "run_away",
        {"monster": "@slug", "roll": 6},
        "rule/already_ran",
        "B.8",
        "violation",
    ),
    (
        "caught",
        "B",
        "bad_stuff",
        {"monster": "@slug"},
        "command/not_caught",
        None,
        "command/not_caught",
    ),
    ("caught", "C", "pass", {}, "rule/combat_decided", "B.5", "violation"),
    (
        "caught2",
        "A",
        "run_away",
        {"monster": "@undead", "roll": 6},
        "rule/bad_stuff_first",
        "B.8",
        "violation",
    ),
    (
        "caught2",
        "A",
        "run_away",
        {"monster": "@slug", "roll": 6},
        "rule/already_ran",
        "B.8",
        "violation",
    ),
    (
        "treasure",
        "A",
        "take_treasure",
        {"cards": "@2treasures"},
        "rule/treasure_count",
        "B.7",
        "violation",
    ),
    (
        "treasure",
        "B",
        "take_treasure",
        {"cards": "@1treasures"},
        "rule/not_your_combat",
        "B.7",
        "violation",
    ),
    ("treasure", "A", "take_treasure", {"cards": "@1treasures"}, None, None, None),
    (
        "treasure",
        "A",
        "run_away",
        {"monster": "@toad", "roll": 6},
        "rule/combat_decided",
        "B.8",
        "command/combat_decided",
    ),
    ("nine", "A", "play", {"card": "@levelup"}, "rule/winning_level", "B.3", "violation"),
    (
        "nine",
        "A",
        "sell",
        {"cards": ["@big", "@onehand", "@big2"]},
        "rule/sell_to_ten",
        "B.12",
        "violation",
    ),
    ("cursed", "A", "discard", {"card": "@incurses"}, "rule/cannot_discard", "B.10", "violation"),
    ("cursed", "C", "play", {"card": "@remover", "target": "@incurses"}, None, None, None),
    ("cursed", "A", "play", {"card": "@remover", "target": "@incurses"}, None, None, None),
    (
        "cursed",
        "C",
        "play",
        {"card": "@remover", "target": "@plain"},
        "command/card_not_there",
        None,
        "command/card_not_there",
    ),
    ("cursed", "B", "play", {"card": "@nextcombat", "target": "C"}, None, None, None),
    ("hurt", "B", "play", {"card": "@nextcombat", "target": "A"}, None, None, None),
    ("hurt", "A", "run_away", {"monster": "@fighting", "roll": 6}, None, None, None),
    ("hurt", "A", "run_away", {"monster": "@fighting", "roll": 1}, None, None, None),
    ("cheat", "A", "play", {"card": "@hand:cheat", "target": "@restricted"}, None, None, None),
    (
        "cheated",
        "A",
        "play",
        {"card": "@hand:cheat", "target": "@restricted"},
        "rule/already_cheated",
        "B.2",
        "violation",
    ),
    (
        "cheat_fight",
        "A",
        "play",
        {"card": "@hand:cheat", "target": "@restricted"},
        "rule/in_combat",
        "B.12",
        "violation",
    ),
    (
        "cheat",
        "A",
        "play",
        {"card": "@hand:cheat", "target": "@hand:cheat"},
        "command/card_not_there",
        None,
        "command/card_not_there",
    ),
    ("force1", "A", "play", {"card": "@forcer", "target": "B"}, None, None, None),
    (
        "force1",
        "A",
        "play",
        {"card": "@forcer", "target": "A"},
        "rule/invalid_helper",
        "B.7",
        "violation",
    ),
    (
        "force9",
        "A",
        "play",
        {"card": "@forcer", "target": "B"},
        "rule/help_for_the_win",
        "D.C7",
        "violation",
    ),
    ("forced", "B", "decline_help", {}, "rule/not_for_the_win", "D.C7", "violation"),
    ("forced", "C", "decline_help", {}, "command/not_asked", None, "command/not_asked"),
    ("forced", "A", "ask_help", {"helper": "C"}, "rule/already_helped", "B.7", "violation"),
    ("forced_win", "B", "decline_help", {}, None, None, None),
    ("helped9", "B", "decline_help", {}, "rule/voluntary_helper", "D.C7", "violation"),
    # issue #24: the helper's powers (B.7), either fighter runs first (B.8), one-shots on the
    # table (B.12)
    ("helped", "B", "discard", {"card": "@enhancer"}, "rule/cannot_discard", "B.12", "violation"),
    ("helped", "B", "run_away", {"monster": "@slug", "roll": 6}, None, None, None),
    ("helped", "B", "run_away", {"monster": "@slug", "roll": 1}, None, None, None),
    ("helped", "A", "chase_away", {"monster": "@slug"}, "rule/cannot_chase", "B.7", "violation"),
    (
        "helped",
        "C",
        "chase_away",
        {"monster": "@slug"},
        "command/not_fighting",
        None,
        "command/not_fighting",
    ),
    (
        "kick",
        "A",
        "chase_away",
        {"monster": "@plain"},
        "command/no_combat",
        None,
        "command/no_combat",
    ),
    ("kick", "B", "play", {"card": "@oneshot"}, "rule/not_your_turn", "B.14", "violation"),
    ("tabled", "A", "play", {"card": "@hand:oneshot"}, None, None, None),
    ("tabled", "B", "play", {"card": "@hand:oneshot"}, "rule/not_your_turn", "B.14", "violation"),
    (
        "tabled",
        "A",
        "equip",
        {"card": "@tabled"},
        "command/not_playable",
        None,
        "command/not_playable",
    ),
    ("tabled", "A", "play", {"card": "@tabled"}, "command/no_combat", None, "command/no_combat"),
    ("tabled_fight", "A", "play", {"card": "@tabled"}, None, None, None),
    ("tabled_fight", "A", "play", {"card": "@hand:oneshot"}, None, None, None),
    # issue #24, the trace: a multi card needs a card to attach to (B.11)
    ("multi", "A", "play", {"card": "@multi"}, "rule/nothing_to_attach", "B.11", "violation"),
    ("multi_attached", "A", "play", {"card": "@multi"}, None, None, None),
    # issue #24, the trace: a card that makes a monster Undead brings it into an Undead fight
    ("dust", "B", "play", {"card": "@Grave Dust", "target": "@B:plain"}, None, None, None),
    (
        "dust_slug",
        "B",
        "play",
        {"card": "@Grave Dust", "target": "@B:plain"},
        "rule/needs_wandering",
        "B.6",
        "violation",
    ),
    # issue #24, the trace: a card just received is played at once (B.14)
    ("gift", "B", "play", {"card": "@got"}, None, None, None),
    ("gift", "B", "play", {"card": "@hand:hat"}, "rule/not_your_turn", "B.14", "violation"),
    # issue #42: a card just received is played by a seat not in the combat (B.14, D.C21)
    ("gift_fight", "B", "play", {"card": "@got"}, None, None, None),
    ("gift_helper", "B", "play", {"card": "@got"}, "rule/in_combat", "B.14", "violation"),
    # issue #42: only Items are given (B.12, D.C19)
    ("kick", "A", "give", {"to": "B", "cards": ["@plain"]}, "rule/only_items", "B.12", "violation"),
    ("kick", "A", "give", {"to": "B", "cards": ["@curse"]}, "rule/only_items", "B.12", "violation"),
    (
        "kick",
        "A",
        "give",
        {"to": "B", "cards": ["@levelup"]},
        "rule/only_items",
        "B.12",
        "violation",
    ),
    ("kick", "A", "give", {"to": "B", "cards": ["@onehand"]}, None, None, None),
]


#: Rows of one set only (per-set differences, docs/rules.md B.2), in the same format.
SET_ROWS: dict[
    str, list[tuple[str, str, str, dict[str, Any], str | None, str | None, str | None]]
] = {
    "munchkin-old-west": [
        ("steeds", "A", "play", {"card": "@hand:steed"}, "rule/helper_limit", "B.12", "violation"),
        ("steeds", "A", "play", {"card": "@hand:cheat", "target": "@hand:steed"}, None, None, None),
        (  # D.C19: no Steed rules in the Old West copy; a Steed is a helper card, not an Item
            "steeds",
            "A",
            "give",
            {"to": "B", "cards": ["@hand:steed"]},
            "rule/only_items",
            "B.12",
            "violation",
        ),
        (
            "received",
            "A",
            "sell",
            {"cards": ["@restricted", "@big"]},
            "rule/received_this_turn",
            "B.2",
            "violation",
        ),
    ],
    "munchkin-deluxe": [
        ("received", "A", "sell", {"cards": ["@restricted", "@big"]}, None, None, None),
        (
            "halfbreed",
            "A",
            "equip",
            {"card": "@Sample Tall Ladder"},
            "rule/not_usable",
            "B.12",
            "violation",
        ),
        ("halfbreed_played", "A", "equip", {"card": "@Sample Tall Ladder"}, None, None, None),
        ("hireling", "A", "equip", {"card": "@onehand", "hireling": "@squire"}, None, None, None),
        ("hireling", "B", "play", {"card": "@squire"}, None, None, None),
        (
            "hireling_full",
            "A",
            "equip",
            {"card": "@big", "hireling": "@squire"},
            "rule/hireling_full",
            "B.2",
            "violation",
        ),
        (
            "hireling_fight",
            "A",
            "equip",
            {"card": "@onehand", "hireling": "@squire"},
            "rule/in_combat",
            "B.2",
            "violation",
        ),
        ("hireling_fight", "B", "play", {"card": "@squire"}, None, None, None),
        ("backstab", "B", "discard", {"card": "@plain", "target": "A"}, None, None, None),
        ("warrior_helped", "B", "discard", {"card": "@plain"}, None, None, None),
        ("warrior_helped", "B", "discard", {"card": "@Sample Warrior"}, None, None, None),
        (
            "hireling_fight",
            "A",
            "discard",
            {"card": "@squire"},
            "rule/cannot_discard",
            "B.12",
            "violation",
        ),
        (
            "warrior_helped",
            "A",
            "discard",
            {"card": "@Sample Blank Door"},
            "rule/cannot_discard",
            "B.12",
            "violation",
        ),
        ("count", "B", "chase_away", {"monster": "@Sample Garlic-Shy Count"}, None, None, None),
        (
            "count",
            "A",
            "chase_away",
            {"monster": "@Sample Garlic-Shy Count"},
            "rule/cannot_chase",
            "B.7",
            "violation",
        ),
        (
            "backstab",
            "C",
            "discard",
            {"card": "@plain", "target": "A"},
            "rule/no_backstab",
            "B.2",
            "violation",
        ),
        (
            "backstabbed",
            "B",
            "discard",
            {"card": "@plain", "target": "A"},
            "rule/already_backstabbed",
            "B.2",
            "violation",
        ),
        (
            "backstab",
            "B",
            "discard",
            {"card": "@plain", "target": "C"},
            "command/not_fighting",
            None,
            "command/not_fighting",
        ),
        (
            "thief",
            "B",
            "discard",
            {"card": "@plain", "steal": "@A:onehand", "roll": 4},
            None,
            None,
            None,
        ),
        (
            "thief",
            "B",
            "discard",
            {"card": "@plain", "steal": "@A:onehand", "roll": 1},
            None,
            None,
            None,
        ),
        (
            "thief",
            "B",
            "discard",
            {"card": "@plain", "steal": "@A:big", "roll": 6},
            "rule/steal_big",
            "B.2",
            "violation",
        ),
        (
            "thief",
            "C",
            "discard",
            {"card": "@plain", "steal": "@A:onehand", "roll": 6},
            "rule/no_steal",
            "B.2",
            "violation",
        ),
        (
            "thief_fight",
            "B",
            "discard",
            {"card": "@plain", "steal": "@A:onehand", "roll": 6},
            "rule/in_combat",
            "B.2",
            "violation",
        ),
        (
            "thief",
            "B",
            "discard",
            {"card": "@plain", "steal": "@C:plain", "roll": 6},
            "command/card_not_there",
            None,
            "command/card_not_there",
        ),
    ],
    "munchkin-age-of-sigmar": [
        ("received", "A", "sell", {"cards": ["@restricted", "@big"]}, None, None, None),
        ("steeds", "A", "discard", {"card": "@A:steed"}, None, None, None),
        (
            "steed_strict",
            "A",
            "discard",
            {"card": "@A:steed"},
            "rule/steed_stays",
            "B.2",
            "violation",
        ),
        ("steeds", "A", "play", {"card": "@hand:steed"}, "rule/helper_limit", "B.12", "violation"),
        ("steeds", "A", "play", {"card": "@hand:cheat", "target": "@hand:steed"}, None, None, None),
        ("steeds", "A", "give", {"to": "B", "cards": ["@hand:steed"]}, None, None, None),  # D.C19
    ],
}


def rows_of(
    rs: str,
) -> list[tuple[str, str, str, dict[str, Any], str | None, str | None, str | None]]:
    return ROWS + SET_ROWS.get(rs, [])


def _value(rs: str, g: Game, seat: str, value: Any) -> Any:
    if isinstance(value, list):
        return [_value(rs, g, seat, v) for v in value]
    if not isinstance(value, str) or not value.startswith("@"):
        return value
    key = value[1:]
    decks = g.state["decks"]
    special = {
        "door": lambda: top_door(g, "Sample Blank Door"),
        "3doors": lambda: decks["door"][:3],
        "4doors": lambda: decks["door"][:4],
        "4treasures": lambda: decks["treasure"][:4],
        "2treasures": lambda: top_treasures(g, 2),
        "1treasures": lambda: top_treasures(g, 1),
        "treasure": lambda: decks["treasure"][0],
        "slug": lambda: g.id(SLUG),
        "incurses": lambda: next(
            c for st in g.state["seats"].values() for c in st["zones"]["curses"]
        ),
        "fighting": lambda: g.state["combat"]["monsters"][0]["card"],
        "squire": lambda: _value(rs, g, seat, "@Sample Hired Squire"),
        "toad": lambda: g.id(TOAD),
        "tabled": lambda: g.seat("A")["zones"]["carried"][0],
        "got": lambda: g.state["got"][0],
    }
    if key in special:
        return special[key]()
    if key[:2] in ("A:", "B:", "C:"):  # a card of that role that seat holds or has in play
        name = ROLES[rs][key[2:]]
        return next(c for c in g.ids(name) if g.state["cards"][c]["owner"] == key[0])
    if key.startswith("hand:"):
        name = ROLES[rs][key[5:]]
        hand = g.seat(seat)["zones"]["hand"]
        return next(c for c in hand if g.state["cards"][c]["def"]["name"] == name)
    if key.startswith("gifts"):
        hand = g.seat(seat)["zones"]["hand"]
        n, to = int(key[5]), key[6]
        return dict.fromkeys(hand[:n], to)
    name = ROLES[rs].get(key, key)
    ids = g.ids(name)
    mine = [c for c in ids if g.state["cards"][c]["owner"] == seat]
    shared = [c for c in ids if g.state["cards"][c]["zone"] == "combat"]
    return (mine or shared or ids)[0]


def _command(rs: str, row: tuple[Any, ...]) -> tuple[Game, dict[str, Any]]:
    pos, seat, kind, fields = row[:4]
    g = position(rs, pos)
    cmd = {"type": kind, "seat": seat, **{k: _value(rs, g, seat, v) for k, v in fields.items()}}
    return g, cmd


CASES = [(rs, i) for rs in SETS for i in range(len(rows_of(rs)))]
IDS = [f"{rs[8:]}-{i}-{rows_of(rs)[i][2]}" for rs, i in CASES]


def test_the_table_is_big_enough() -> None:
    assert len(CASES) >= 60
    assert sum(1 for r in ROWS if r[4] and r[4].startswith("rule/")) >= 30


@pytest.mark.parametrize(("rs", "i"), CASES, ids=IDS)
def test_strict(rs: str, i: int) -> None:
    row = rows_of(rs)[i]
    g, cmd = _command(rs, row)
    code, section = row[4], row[5]
    if code is None:
        steps = g.rs.decide(g.state, cmd)
        assert steps and all(s.event.violation is None for s in steps)
        return
    with pytest.raises(DomainError) as err:
        g.rs.decide(g.state, cmd)
    assert err.value.code == code, err.value
    if code.startswith("rule/"):
        assert isinstance(err.value, RuleViolation) and err.value.rule == section
    elif code.startswith("command/"):
        assert isinstance(err.value, ImpossibleCommand)
    else:
        assert isinstance(err.value, InvalidCommand)


@pytest.mark.parametrize(("rs", "i"), CASES, ids=IDS)
def test_record(rs: str, i: int) -> None:
    row = rows_of(rs)[i]
    g, cmd = _command(rs, row)
    state = {**g.state, "mode": "record"}
    record = row[6]
    if record is None or record == "violation":
        steps = g.rs.decide(state, cmd)
        assert steps
        flagged = steps[0].event.violation
        if record is None:
            assert flagged is None
        else:
            assert flagged is not None and row[4] in flagged.split(","), flagged
        return
    with pytest.raises(DomainError) as err:
        g.rs.decide(state, cmd)
    assert err.value.code == record
