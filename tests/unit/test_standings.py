"""Standings (issue #27, ``domain/tournament/standings.py``): small events checked against tables
computed by hand, the arithmetic in the comments, then properties over random events.

Every expected fraction is written out here, never computed by the code under test. ``MW`` is a
player's match-win percentage (classic: points percentage), ``GW`` game-win (classic:
head-to-head); each is floored at 0.33 = 33/100 before opponents' are averaged. The rows are
``(rank, player, points, wins, losses, draws, omw, gw, ogw)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import astuple
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournament.standings import (
    FLOOR,
    Bye,
    Match,
    Standing,
    Table,
    records,
    standings,
    table_records,
    table_standings,
)

Row = tuple[int, str, int, int, int, int, F, F, F]


def rows(table: list[Standing]) -> list[Row]:
    return [astuple(standing) for standing in table]


def m(round_: int, a: str, b: str, won: int, lost: int, drawn: int = 0) -> Match:
    """``a`` against ``b`` in ``round_``: ``a`` won ``won`` games, ``b`` won ``lost``."""
    return Match(round_, (a, b), (won, lost), drawn)


# ----------------------------------------------------------------------------- 1. odd count

ODD = [
    m(1, "A", "B", 2, 0), m(1, "C", "D", 2, 1),  # E has the bye
    m(2, "A", "C", 2, 1), m(2, "D", "E", 2, 0),  # B has the bye
    m(3, "E", "A", 2, 1), m(3, "B", "D", 2, 0),  # C has the bye
]  # fmt: skip
ODD_BYES = [Bye(1, "E"), Bye(2, "B"), Bye(3, "C")]


def test_an_odd_count_with_byes() -> None:
    """Five players, three bo3 rounds, a bye each round.

    Records (a bye is a win, 6 game points and 2 games):
      A  W 2-0 B, W 2-1 C, L 1-2 E   6 pts  MW 6/9 = 2/3  GW (6+6+3)/(3*8)  = 15/24 = 5/8
      B  L 0-2 A, bye,     W 2-0 D   6 pts  MW 2/3        GW (0+6+6)/(3*6)  = 12/18 = 2/3
      C  W 2-1 D, L 1-2 A, bye       6 pts  MW 2/3        GW (6+3+6)/(3*8)  = 15/24 = 5/8
      D  L 1-2 C, W 2-0 E, L 0-2 B   3 pts  MW 3/9 = 1/3  GW (3+6+0)/(3*7)  = 9/21  = 3/7
      E  bye,     L 0-2 D, W 2-1 A   6 pts  MW 2/3        GW (6+0+6)/(3*7)  = 12/21 = 4/7
    (D's 1/3 is above the 0.33 floor: it stays 1/3.)

    Opponents (byes ignored):
      A  B C E  OMW (2/3+2/3+2/3)/3 = 2/3  OGW (2/3+5/8+4/7)/3 = (112+105+96)/168/3 = 313/504
      B  A D    OMW (2/3+1/3)/2     = 1/2  OGW (5/8+3/7)/2     = (35+24)/56/2       = 59/112
      C  D A    OMW 1/2                    OGW (3/7+5/8)/2                          = 59/112
      D  C E B  OMW 2/3                    OGW (5/8+4/7+2/3)/3                      = 313/504
      E  D A    OMW 1/2                    OGW 59/112
    A leads the 6s on OMW; B, C, E tie on 6 and OMW 1/2 and are split by GW: 2/3 > 5/8 > 4/7.
    """
    assert rows(standings("ABCDE", ODD, ODD_BYES)) == [
        (1, "A", 6, 2, 1, 0, F(2, 3), F(5, 8), F(313, 504)),
        (2, "B", 6, 2, 1, 0, F(1, 2), F(2, 3), F(59, 112)),
        (3, "C", 6, 2, 1, 0, F(1, 2), F(5, 8), F(59, 112)),
        (4, "E", 6, 2, 1, 0, F(1, 2), F(4, 7), F(59, 112)),
        (5, "D", 3, 1, 2, 0, F(2, 3), F(3, 7), F(313, 504)),
    ]


# ----------------------------------------------------------------------------- 2. drops

DROPS = [
    m(1, "A", "B", 1, 0), m(1, "C", "D", 1, 0), m(1, "F", "E", 1, 0),
    m(2, "A", "C", 1, 0), m(2, "B", "F", 1, 0), m(2, "D", "E", 1, 0),
    # F drops after round 2: five players, a bye each round
    m(3, "D", "A", 1, 0), m(3, "C", "B", 1, 0),  # E has the bye
    m(4, "E", "A", 1, 0), m(4, "B", "D", 1, 0),  # C has the bye
]  # fmt: skip
DROPS_BYES = [Bye(3, "E"), Bye(4, "C")]


def test_drops() -> None:
    """Six players, four bo1 rounds, F drops after round 2.

    Records:
      A  W B, W C, L D, L E       6 pts over 4  MW 6/12 = 1/2  GW 6/12          = 1/2
      B  L A, W F, L C, W D       6 pts         MW 1/2         GW 1/2
      C  W D, L A, W B, bye       9 pts         MW 9/12 = 3/4  GW (3+0+3+6)/15  = 4/5
      D  L C, W E, W A, L B       6 pts         MW 1/2         GW 1/2
      E  L F, L D, bye, W A       6 pts         MW 1/2         GW (0+0+6+3)/15  = 3/5
      F  W E, L B (dropped)       3 pts over 2  MW 3/6 = 1/2   GW 3/6           = 1/2
    F's MW is over the two rounds F played: over the event's four it would be 3/12, 0.33.

    Opponents (F still counts for E and B):
      A  B C D E  OMW (1/2+3/4+1/2+1/2)/4 = 9/16  OGW (1/2+4/5+1/2+3/5)/4 = 3/5
      B  A F C D  OMW (1/2+1/2+3/4+1/2)/4 = 9/16  OGW (1/2+1/2+4/5+1/2)/4 = 23/40
      C  D A B    OMW 1/2                        OGW 1/2
      D  C E A B  OMW 9/16                       OGW (4/5+3/5+1/2+1/2)/4 = 3/5
      E  F D A    OMW 1/2                        OGW 1/2
      F  E B      OMW 1/2                        OGW (3/5+1/2)/2         = 11/20
    A and D are equal on every tiebreaker: the name puts A first.
    """
    table = standings("ABCDEF", DROPS, DROPS_BYES)
    assert rows(table) == [
        (1, "C", 9, 3, 1, 0, F(1, 2), F(4, 5), F(1, 2)),
        (2, "A", 6, 2, 2, 0, F(9, 16), F(1, 2), F(3, 5)),
        (3, "D", 6, 2, 2, 0, F(9, 16), F(1, 2), F(3, 5)),
        (4, "B", 6, 2, 2, 0, F(9, 16), F(1, 2), F(23, 40)),
        (5, "E", 6, 2, 2, 0, F(1, 2), F(3, 5), F(1, 2)),
        (6, "F", 3, 1, 1, 0, F(1, 2), F(1, 2), F(11, 20)),
    ]
    dropped = records("ABCDEF", DROPS, DROPS_BYES)["F"]
    assert (dropped.rounds, dropped.mw, dropped.opponents) == (2, F(1, 2), ("E", "B"))


def test_a_caller_supplied_order_breaks_what_the_tiebreakers_leave() -> None:
    """The same event with an order that puts D before A: only that pair moves."""
    table = standings("ABCDEF", DROPS, DROPS_BYES, order="FEDCBA")
    assert [s.player for s in table] == ["C", "D", "A", "B", "E", "F"]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="every player once"):
        standings("ABCDEF", DROPS, DROPS_BYES, order="ABCDE")


# ----------------------------------------------------------------------------- 3. bo3 draws

BO3 = [
    m(1, "A", "B", 1, 1, 1), m(1, "C", "D", 2, 1),
    m(2, "A", "C", 2, 0), m(2, "B", "D", 1, 2),
    m(3, "A", "D", 0, 2), m(3, "B", "C", 1, 1),  # time called after two games
]  # fmt: skip


def test_a_bo3_event_with_drawn_matches() -> None:
    """Four players, three bo3 rounds: a 1-1-1 draw, a 1-1 draw at time, 2-1s and 2-0s.

    Records (a drawn game is 1 game point):
      A  D 1-1-1 B, W 2-0 C, L 0-2 D  4 pts  MW 4/9              GW (4+6+0)/(3*7) = 10/21
      B  D 1-1-1 A, L 1-2 D, D 1-1 C  2 pts  MW 2/9 -> 0.33      GW (4+3+3)/(3*8) = 5/12
      C  W 2-1 D,   L 0-2 A, D 1-1 B  4 pts  MW 4/9              GW (6+0+3)/(3*7) = 3/7
      D  L 1-2 C,   W 2-1 B, W 2-0 A  6 pts  MW 6/9 = 2/3        GW (3+6+6)/(3*8) = 5/8

    Opponents (MW in 900ths: 0.33 = 297, 4/9 = 400, 2/3 = 600; GW in 168ths: 5/12 = 70,
    3/7 = 72, 10/21 = 80, 5/8 = 105):
      A  B C D  OMW (297+400+600)/900/3 = 1297/2700  OGW (70+72+105)/168/3 = 247/504
      B  A D C  OMW (4/9+2/3+4/9)/3     = 14/27      OGW (80+105+72)/168/3 = 257/504
      C  D A B  OMW 1297/2700                        OGW (105+80+70)/168/3 = 85/168
      D  C B A  OMW (400+297+400)/900/3 = 1097/2700  OGW (72+70+80)/168/3  = 37/84
    With a floor of 1/3 instead of 0.33, A's OMW would be 13/27 = 1300/2700. A and C tie on
    points and OMW; GW 10/21 > 9/21 puts A first.
    """
    assert rows(standings("ABCD", BO3, [])) == [
        (1, "D", 6, 2, 1, 0, F(1097, 2700), F(5, 8), F(37, 84)),
        (2, "A", 4, 1, 1, 1, F(1297, 2700), F(10, 21), F(247, 504)),
        (3, "C", 4, 1, 1, 1, F(1297, 2700), F(3, 7), F(85, 168)),
        (4, "B", 2, 0, 1, 2, F(14, 27), F(5, 12), F(257, 504)),
    ]


def test_who_won_a_match() -> None:
    """More game wins win (MTR 2.1); equal game wins are a draw, with or without drawn games."""
    assert m(1, "A", "B", 2, 1).winner == "A"
    assert m(1, "A", "B", 0, 1).winner == "B"
    assert [m(1, "A", "B", *games).winner for games in [(1, 1, 1), (0, 0, 1), (0, 0, 0)]] == [
        None,
        None,
        None,
    ]


# ----------------------------------------------------------------------------- 4. the MTR's


def results(name: str, line: str, against: dict[int, str]) -> list[Match]:
    """``name``'s matches from a line of results, one letter a round from round 1 (W, L, D):
    against ``against[round]`` where given (from ``name``'s side), else a filler player."""
    games = {"W": (1, 0, 0), "L": (0, 1, 0), "D": (0, 0, 1)}
    out = []
    for round_, result in enumerate(line, 1):
        won, lost, drawn = games[result]
        out.append(m(round_, name, against.get(round_, f"{name}-{round_}"), won, lost, drawn))
    return out


def players_of(matches: Sequence[Match], byes: Sequence[Bye] = ()) -> list[str]:
    return sorted({p for match in matches for p in match.players} | {b.player for b in byes})


def test_the_mtr_match_win_examples() -> None:
    """MTR Appendix C, *Match-win percentage*: "These three players competed in an 8-round
    tournament, although only the first player completed all rounds."

      5-2-1                                               16 pts, 8 rounds  16/(8*3) = 0.667
      1-3-0, then withdraws                                3 pts, 4 rounds  3/(4*3) = 0.25,
                                                                            so 0.33 is used
      3-2-0, including a first-round bye, then withdraws   9 pts, 5 rounds  9/(5*3) = 0.60
    """
    matches = [
        *results("P", "WWWWWLLD", {}),
        *results("Q", "WLLL", {}),
        *[match for match in results("R", "WWLWL", {}) if match.round > 1],  # round 1: the bye
    ]
    byes = [Bye(1, "R")]
    found = records(players_of(matches, byes), matches, byes)
    got = [
        (r.wins, r.losses, r.draws, r.points, r.rounds, r.mw) for r in map(found.__getitem__, "PQR")
    ]
    assert got == [
        (5, 2, 1, 16, 8, F(2, 3)),
        (1, 3, 0, 3, 4, F(33, 100)),
        (3, 2, 0, 9, 5, F(3, 5)),
    ]


def test_the_mtr_game_win_examples() -> None:
    """MTR Appendix C, *Game-win percentage* (its numbers as two independent open-source
    implementations' tests reproduce them; the page excerpts read here stop before them):
    2-0, 2-1, 1-2, 2-0 is 21 game points in 10 games, 21/30 = 0.70; 1-2, 1-2, 0-2, 1-2 is 9 in
    11, 9/33 = 0.27, below 0.33, so 0.33."""
    matches = [
        m(1, "G", "g1", 2, 0), m(2, "G", "g2", 2, 1), m(3, "G", "g3", 1, 2), m(4, "G", "g4", 2, 0),
        m(1, "H", "h1", 1, 2), m(2, "H", "h2", 1, 2), m(3, "H", "h3", 0, 2), m(4, "H", "h4", 1, 2),
    ]  # fmt: skip
    found = records(players_of(matches), matches, [])
    assert [(found[p].game_points, found[p].games, found[p].gw) for p in "GH"] == [
        (21, 10, F(7, 10)),
        (9, 11, F(33, 100)),
    ]


#: The opponents of MTR Appendix C's *Opponents' match-win percentage* example, a 6-2-0 player
#: in an 8-round event, one line of results each (round 1 first; the round against the player
#: in the map below). The third and fourth withdrew: 1-3-1 over 5 rounds, 3-3-1 over 7.
OPPONENTS = {
    "O1": "LWLWLWWL",  # 4-4-0  12/24       lost to the player in round 1
    "O2": "LWWWWWWW",  # 7-1-0  21/24       beat the player in round 2
    "O3": "WDLLL",  #    1-3-1   4/15 = 0.27 -> 0.33, lost in round 3
    "O4": "WWDLLWL",  #  3-3-1  10/21       lost in round 4
    "O5": "WWWWLWWL",  # 6-2-0  18/24       lost in round 5
    "O6": "WWWDWLWL",  # 5-2-1  16/24       lost in round 6
    "O7": "WLWDWLLW",  # 4-3-1  13/24       lost in round 7
    "O8": "WWLWDWWW",  # 6-1-1  19/24       beat the player in round 8
}


def omw_event(first_round_bye: bool) -> tuple[list[str], list[Match], list[Bye]]:
    hero = "WLWWWWWL"  # the player's side; with the bye, round 1 is the bye instead
    opponents = {n: name for n, name in enumerate(OPPONENTS, 1)}
    if first_round_bye:
        del opponents[1]
    matches = [match for match in results("Hero", hero, opponents) if match.round in opponents]
    for n, name in opponents.items():
        matches += [match for match in results(name, OPPONENTS[name], {}) if match.round != n]
    byes = [Bye(1, "Hero")] if first_round_bye else []
    return players_of(matches, byes), matches, byes


def test_the_mtr_opponents_match_win_examples() -> None:
    """MTR Appendix C, *Opponents' match-win percentage* (numbers as in the game-win test's
    note): a 6-2-0 player whose opponents went 4-4-0, 7-1-0, 1-3-1, 3-3-1, 6-2-0, 5-2-1, 4-3-1
    and 6-1-1 has 12/24 + 21/24 + 0.33 + 10/21 + 18/24 + 16/24 + 13/24 + 19/24, over 8 = 0.62.
    Exactly, in 4200ths: 2100 + 3675 + 1386 + 2000 + 3150 + 2800 + 2275 + 3325 = 20711, so
    20711/4200/8 = 20711/33600 (0.6164).

    The same player with a bye in round 1 instead of the first opponent: the bye is ignored, and
    the seven others give (20711 - 2100)/4200/7 = 18611/29400 = 0.633, the MTR's 0.63.
    """
    players, matches, byes = omw_event(first_round_bye=False)
    found = records(players, matches, byes)
    assert [(found[o].wins, found[o].losses, found[o].draws) for o in OPPONENTS] == [
        (4, 4, 0), (7, 1, 0), (1, 3, 1), (3, 3, 1), (6, 2, 0), (5, 2, 1), (4, 3, 1), (6, 1, 1),
    ]  # fmt: skip
    hero = next(s for s in standings(players, matches, byes) if s.player == "Hero")
    assert (hero.points, hero.wins, hero.losses, hero.omw) == (18, 6, 2, F(20711, 33600))
    assert round(float(hero.omw), 2) == 0.62

    players, matches, byes = omw_event(first_round_bye=True)
    hero = next(s for s in standings(players, matches, byes) if s.player == "Hero")
    assert (hero.points, hero.wins, hero.losses, hero.omw) == (18, 6, 2, F(18611, 29400))
    assert round(float(hero.omw), 2) == 0.63


# ----------------------------------------------------------------------------- 5. classic

CLASSIC = [
    Table(1, {"A": 1, "B": 2, "C": 3}),
    Table(1, {"D": 1, "E": 2, "F": 3, "G": 4, "H": 5}),
    Table(2, {"D": 1, "A": 2, "G": 3, "B": 4}),
    Table(2, {"E": 1, "C": 2, "H": 2, "F": 4}),  # C and H share second place
]


def test_a_classic_event_with_tables_of_3_4_and_5() -> None:
    """Eight players, two rounds: tables of 3 and 5, then two of 4. Points 3/2/1/0 by place.

    Points and MW = points/(3*2) (in 300ths for the averages):
      A 3+2 = 5  5/6 (250)          B 2+0 = 2  1/3 (100)   C 1+2 = 3  1/2 (150)
      D 3+3 = 6  1 (300)            E 2+3 = 5  5/6 (250)   F 1+0 = 1  1/6 -> 0.33 (99)
      G 0+1 = 1  1/6 -> 0.33 (99)   H 0+2 = 2  1/3 (100)
    GW, one game a table-mate (3 ahead, 1 same place, 0 behind) over 3 x table-mates:
      A 6/6 + 6/9 = 12/15 = 4/5      B 3/6 + 0/9 = 3/15 -> 0.33    C 0/6 + 4/9 = 4/15 -> 0.33
      D 12/12 + 9/9 = 1              E 9/12 + 9/9 = 18/21 = 6/7    F 6/12 + 0/9 = 6/21 -> 0.33
      G 3/12 + 3/9 = 6/21 -> 0.33    H 0/12 + 4/9 = 4/21 -> 0.33
    (in 700ths for the averages: 4/5 = 560, 0.33 = 231, 1 = 700, 6/7 = 600)

    Opponents, one per table-mate per table:
      A  B C | D G B        OMW (100+150+300+99+100)/300/5         = 749/1500
                            OGW (231+231+700+231+231)/700/5 = 1624/3500 = 58/125
      B  A C | D A G        OMW (250+150+300+250+99)/1500          = 1049/1500
                            OGW (560+231+700+560+231)/3500 = 2282/3500 = 163/250
      C  A B | E H F        OMW (250+100+250+100+99)/1500          = 799/1500
                            OGW (560+231+600+231+231)/3500         = 1853/3500
      D  E F G H | A G B    OMW (250+99+99+100+250+99+100)/300/7   = 997/2100
                            OGW (600+231*3+560+231*2)/700/7 = 2315/4900 = 463/980
      E  D F G H | C H F    OMW (300+99+99+100+150+100+99)/2100    = 947/2100
                            OGW (700+231*6)/4900 = 2086/4900       = 149/350
      F  D E G H | E C H    OMW (300+250+99+100+250+150+100)/2100  = 1249/2100
                            OGW (700+600+600+231*4)/4900 = 2824/4900 = 706/1225
      G  D E F H | D A B    OMW (300+250+99+100+300+250+100)/2100  = 1399/2100
                            OGW (700+600+700+560+231*3)/4900       = 3253/4900
      H  D E F G | E C F    OMW (300+250+99+99+250+150+99)/2100    = 1247/2100
                            OGW (700+600+600+231*4)/4900           = 706/1225
    Ties on points: A (749/1500 = 0.499) over E (0.451), B (0.699) over H (0.594), G (0.666)
    over F (0.595).
    """
    assert rows(table_standings("ABCDEFGH", CLASSIC)) == [
        (1, "D", 6, 2, 0, 0, F(997, 2100), F(1), F(463, 980)),
        (2, "A", 5, 1, 1, 0, F(749, 1500), F(4, 5), F(58, 125)),
        (3, "E", 5, 1, 1, 0, F(947, 2100), F(6, 7), F(149, 350)),
        (4, "C", 3, 0, 2, 0, F(799, 1500), F(33, 100), F(1853, 3500)),
        (5, "B", 2, 0, 2, 0, F(1049, 1500), F(33, 100), F(163, 250)),
        (6, "H", 2, 0, 2, 0, F(1247, 2100), F(33, 100), F(706, 1225)),
        (7, "G", 1, 0, 2, 0, F(1399, 2100), F(33, 100), F(3253, 4900)),
        (8, "F", 1, 0, 2, 0, F(1249, 2100), F(33, 100), F(706, 1225)),
    ]


def test_two_winners_share_first_place() -> None:
    """Two winners both score 3 and both win; their game against each other is a draw (1): each
    has (1+3)/6 = 2/3 head-to-head, the third 0/6 -> 0.33 and 1 point."""
    found = table_records("ABC", [Table(1, {"A": 1, "B": 1, "C": 3})])
    assert [(r.points, r.wins, r.losses, r.gw) for r in map(found.__getitem__, "ABC")] == [
        (3, 1, 0, F(2, 3)),
        (3, 1, 0, F(2, 3)),
        (1, 0, 1, F(33, 100)),
    ]


# ----------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Match(0, ("A", "B"), (1, 0)), "numbered from 1"),
        (lambda: Match(1, ("A", "A"), (1, 0)), "two different players"),
        (lambda: Match(1, ("A", "B"), (-1, 0)), "0 or more"),
        (lambda: Match(1, ("A", "B"), (1, 0), -1), "0 or more"),
        (lambda: Bye(0, "A"), "numbered from 1"),
        (lambda: Table(1, {"A": 1, "B": 2}), "3 to 6"),
        (lambda: Table(1, {p: 1 for p in "ABCDEFG"}), "3 to 6"),
        (lambda: Table(1, {"A": 1, "B": 1, "C": 2}), "competition ranks"),
        (lambda: Table(1, {"A": 1, "B": 3, "C": 4}), "competition ranks"),
        (lambda: Table(1, {"A": 0, "B": 1, "C": 2}), "competition ranks"),
    ],
)
def test_malformed_inputs_are_refused(make: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def test_an_unknown_or_double_seated_player_is_refused() -> None:
    with pytest.raises(ValueError, match="not one of the event's players"):
        standings("AB", [m(1, "A", "Z", 1, 0)], [])
    with pytest.raises(ValueError, match="twice in round 1"):
        standings("ABC", [m(1, "A", "B", 1, 0)], [Bye(1, "A")])
    with pytest.raises(ValueError, match="twice in round 2"):
        table_standings(
            "ABCDE", [Table(2, {"A": 1, "B": 2, "C": 3}), Table(2, dict(A=1, D=2, E=3))]
        )
    with pytest.raises(ValueError, match="listed twice"):
        standings("ABA", [], [])


def test_a_player_yet_to_play_is_listed_at_the_floor() -> None:
    """A player with no round (a late entry) is in the standings with nothing and the floors."""
    assert rows(standings("AZ", [], [Bye(1, "A")]))[1] == (2, "Z", 0, 0, 0, 0, FLOOR, FLOOR, FLOOR)


# ----------------------------------------------------------------------------- properties

RESULTS = [(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (0, 0, 1), (0, 0, 0), (1, 0, 0)]


@st.composite
def events(draw: st.DrawFn) -> tuple[list[str], list[Match], list[Bye]]:
    """A random two-player event: up to 9 players, 1 to 5 rounds, a bye when the count is odd,
    and players dropping between rounds."""
    players = [f"p{n}" for n in range(draw(st.integers(2, 9)))]
    active, matches, byes = list(players), [], []
    for round_ in range(1, draw(st.integers(1, 5)) + 1):
        seated = draw(st.permutations(active))
        for a, b in zip(seated[::2], seated[1::2], strict=False):
            won, lost, drawn = draw(st.sampled_from(RESULTS))
            matches.append(m(round_, a, b, won, lost, drawn))
        if len(seated) % 2:
            byes.append(Bye(round_, seated[-1]))
        if len(active) > 2 and draw(st.booleans()):
            active.remove(draw(st.sampled_from(active)))
    return players, matches, byes


@st.composite
def classic_events(draw: st.DrawFn) -> tuple[list[str], list[Table]]:
    """A random classic event: 3 to 14 players, 1 to 3 rounds, tables of 3 to 6 (the few left
    over sit out), places drawn from random scores so that some are shared."""
    players = [f"p{n}" for n in range(draw(st.integers(3, 14)))]
    tables = []
    for round_ in range(1, draw(st.integers(1, 3)) + 1):
        seated = draw(st.permutations(players))
        while len(seated) >= 3:
            size = draw(st.integers(3, min(6, len(seated))))
            seats, seated = seated[:size], seated[size:]
            score = {p: draw(st.integers(0, 3)) for p in seats}
            places = {p: 1 + sum(s > score[p] for s in score.values()) for p in seats}
            tables.append(Table(round_, places))
    return players, tables


def key(s: Standing) -> tuple[int, F, F, F, str]:
    return (-s.points, -s.omw, -s.gw, -s.ogw, s.player)


def check_shape(table: list[Standing], players: list[str]) -> None:
    """Every player once, ranks 1..n, sorted by the documented key, percentages in [0.33, 1]."""
    assert sorted(s.player for s in table) == sorted(players)
    assert [s.rank for s in table] == list(range(1, len(players) + 1))
    assert table == sorted(table, key=key)
    for s in table:
        assert FLOOR <= s.omw <= 1 and FLOOR <= s.gw <= 1 and FLOOR <= s.ogw <= 1


@settings(max_examples=200, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_two_player_properties(
    event: tuple[list[str], list[Match], list[Bye]], shuffler: random.Random
) -> None:
    players, matches, byes = event
    table = standings(players, matches, byes)
    check_shape(table, players)
    played = {p: sum(p in match.players for match in matches) for p in players}
    byes_of = {p: sum(bye.player == p for bye in byes) for p in players}
    for s in table:
        assert s.points == 3 * s.wins + s.draws
        assert s.wins + s.losses + s.draws == played[s.player] + byes_of[s.player]
    # every match hands out 3 points (2 when drawn), every bye 3
    drawn = sum(match.winner is None for match in matches)
    assert sum(s.points for s in table) == 3 * (len(matches) - drawn) + 2 * drawn + 3 * len(byes)
    # a bye adds no opponent: one opponent per match played
    found = records(players, matches, byes)
    assert all(len(found[p].opponents) == played[p] for p in players)
    # the inputs' order, and the side each player of a match is written on, change nothing
    flipped = [Match(x.round, x.players[::-1], x.games[::-1], x.drawn_games) for x in matches]
    shuffler.shuffle(flipped)
    shuffled_byes, shuffled_players = list(byes), list(players)
    shuffler.shuffle(shuffled_byes)
    shuffler.shuffle(shuffled_players)
    assert standings(shuffled_players, flipped, shuffled_byes) == table


@settings(max_examples=100, deadline=None)
@given(events())
def test_a_bye_player_without_opponents_averages_the_floor(
    event: tuple[list[str], list[Match], list[Bye]],
) -> None:
    """A player who only ever had byes is a 3-points-a-round record with floored averages."""
    players, matches, byes = event
    last = max([x.round for x in matches] + [b.round for b in byes])
    lonely = [Bye(round_, "lonely") for round_ in range(1, last + 2)]
    table = standings([*players, "lonely"], matches, [*byes, *lonely])
    row = next(s for s in table if s.player == "lonely")
    assert (row.points, row.wins, row.omw, row.gw, row.ogw) == (
        3 * len(lonely), len(lonely), FLOOR, 1, FLOOR,
    )  # fmt: skip
    others = {s.player: s for s in standings(players, matches, byes)}
    assert all(astuple(s)[2:] == astuple(others[s.player])[2:] for s in table if s.player in others)


@settings(max_examples=150, deadline=None)
@given(classic_events(), st.randoms(use_true_random=False))
def test_classic_properties(event: tuple[list[str], list[Table]], shuffler: random.Random) -> None:
    players, tables = event
    table = table_standings(players, tables)
    check_shape(table, players)
    expected = dict.fromkeys(players, 0)
    seated = dict.fromkeys(players, 0)
    for t in tables:
        for p, place in t.places.items():
            expected[p] += {1: 3, 2: 2, 3: 1}.get(place, 0)
            seated[p] += 1
    for s in table:
        assert s.points == expected[s.player]
        assert (s.wins + s.losses, s.draws) == (seated[s.player], 0)
    shuffled_tables = [Table(t.round, dict(reversed(list(t.places.items())))) for t in tables]
    shuffler.shuffle(shuffled_tables)
    shuffled_players = list(players)
    shuffler.shuffle(shuffled_players)
    assert table_standings(shuffled_players, shuffled_tables) == table


def test_sequences_from_json_are_read_as_tuples() -> None:
    """A match built from JSON lists equals the one built from tuples (and ranks the same)."""
    from_json = Match(1, ["A", "B"], [2, 1])  # type: ignore[arg-type]
    assert from_json == m(1, "A", "B", 2, 1) and from_json.players == ("A", "B")
