"""Classic Swiss tables (issue #27): how many tables of which size, and who sits where.

Classic Munchkin seats three to six (docs/rules.md, classic *Introduction*: "Three to six can
play"), so a classic event cuts its players into tables of its ``table_size`` (4 by default),
one off that size where the count needs it (:func:`table_sizes`). Round 1 cuts the drawn order
(:func:`domain.tournament.pairing.round_one`); later rounds group players by standing
(:func:`swiss_tables`): players with close points together, repeat meetings avoided where that
costs the points-grouping nothing, and each table's first seat to whoever has had it least.

Everything here is a pure function of its arguments: the same inputs give the same tables.

>>> table_sizes(14), table_sizes(7), table_sizes(5), table_sizes(12, 6)
([5, 5, 4], [4, 3], [5], [6, 6])
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from itertools import combinations, product

from domain.errors import ImpossibleCommand, InvalidCommand

#: The fewest and most players at a classic table (docs/rules.md: "Three to six can play").
MIN_TABLE, MAX_TABLE = 3, 6
#: The default table size of a classic event (issue #27).
DEFAULT_TABLE = 4
#: :func:`swiss_tables` searches every seating exhaustively while there are at most this many
#: (12 players at tables of 4: 5,775); above, it improves the rank cut by swaps.
EXACT_LIMIT = 6000

#: A table's fewest and most players (a family's seats: ``Family`` ``min_seats``, ``max_seats``).
Seats = tuple[int, int]

#: A seating's objective (:func:`swiss_tables`), compared lexicographically.
Key = tuple[int, int, int, int]


@dataclass(frozen=True)
class TablePairing:
    """A classic round's tables, best table first (the caller numbers them from 1 in this
    order), each table's players in seat order (first seat first)."""

    tables: tuple[tuple[str, ...], ...]


def check_players(players: Sequence[str], points: Mapping[str, int] | None = None) -> None:
    """Refuse a list of players that names someone twice (``request/duplicate_player``: a
    pairing seats each player once) or, given ``points``, someone without points
    (``request/missing_points``)."""
    seen = Counter(players)
    twice = sorted(p for p, count in seen.items() if count > 1)
    if twice:
        raise InvalidCommand("request/duplicate_player", f"listed more than once: {twice}")
    missing = [p for p in players if p not in points] if points is not None else []
    if missing:
        raise InvalidCommand("request/missing_points", f"no points for {missing}")


# ----------------------------------------------------------------------------- table sizes


def table_sizes(
    n: int, table_size: int = DEFAULT_TABLE, seats: Seats = (MIN_TABLE, MAX_TABLE)
) -> list[int]:
    """The sizes of the tables that seat ``n`` players, largest first.

    The rule, each step deciding only among the ties of the one before:

    1. every table seats 3 to 6 (:data:`MIN_TABLE`, :data:`MAX_TABLE`; a family's table its
       ``seats``, fewest and most: ``command/unseatable_players`` when none seat ``n``);
    2. the largest distance of a table's size from ``table_size`` is as small as it can be:
       0 when ``n`` allows, else 1 (tables of ``table_size`` ± 1 "where the count needs
       it"); 2 or 3 only for the counts nothing nearer seats (5 players at tables of 3 sit at
       one table of 5; 7 at tables of 6 sit at 4 and 3);
    3. as few tables off ``table_size`` as possible;
    4. as few tables as possible (14 at tables of 4: 5, 5 and 4 rather than 4, 4, 3 and 3,
       the issue's example).

    For every ``n`` and size these leave one multiset (tests/unit/test_pairing.py checks it by
    enumeration for 3 to 60 players and sizes 3 to 6): the off-size tables at the chosen
    distance can take only two sizes, one either side, and their count and sum fix how many
    of each.

    >>> table_sizes(3), table_sizes(6), table_sizes(9), table_sizes(10), table_sizes(15)
    ([3], [3, 3], [5, 4], [5, 5], [4, 4, 4, 3])
    >>> table_sizes(5, 3), table_sizes(7, 6)
    ([5], [4, 3])
    """
    fewest, most = seats
    if not isinstance(table_size, int) or not fewest <= table_size <= most:
        raise InvalidCommand(
            "request/invalid_table_size",
            f"a table seats {fewest} to {most} players, not {table_size!r}",
        )
    if n < fewest:
        raise ImpossibleCommand(
            "command/too_few_players",
            f"a table seats at least {fewest} players; {n} cannot fill one",
        )
    for distance in range(most - fewest + 1):
        allowed = [s for s in range(fewest, most + 1) if abs(s - table_size) <= distance]
        sizes = _fewest_off_size(n, table_size, allowed)
        if sizes is not None:
            return sizes
    raise ImpossibleCommand(  # never for 3..6, which seat every n >= 3
        "command/unseatable_players",
        f"{n} players cannot sit at tables of {fewest} to {most}",
    )


def _fewest_off_size(n: int, table_size: int, allowed: list[int]) -> list[int] | None:
    """The sizes from ``allowed`` that sum to ``n`` with the fewest off ``table_size``, then
    the fewest tables (steps 3 and 4 of :func:`table_sizes`); ``None`` when none sum to ``n``.
    A dynamic programme over the players seated so far, its cost ``(off-size, tables)``
    added component-wise (a lexicographic order is kept under addition)."""
    best: list[tuple[int, int] | None] = [None] * (n + 1)
    choice = [0] * (n + 1)
    best[0] = (0, 0)
    for m in range(1, n + 1):
        for size in sorted(allowed, reverse=True):
            before = best[m - size] if m >= size else None
            if before is None:
                continue
            cost = (before[0] + (size != table_size), before[1] + 1)
            current = best[m]
            if current is None or cost < current:
                best[m], choice[m] = cost, size
    if best[n] is None:
        return None
    sizes, m = [], n
    while m:
        sizes.append(choice[m])
        m -= choice[m]
    return sorted(sizes, reverse=True)


# ----------------------------------------------------------------------------- Swiss tables


@dataclass(frozen=True)
class _Scores:
    """What a seating is judged on, by rank index (0 the best): each player's points, the rank
    indices of the players it already met at a table, and its first seats so far."""

    points: tuple[int, ...]
    met: tuple[frozenset[int], ...]
    firsts: tuple[int, ...]

    def table_key(self, table: Sequence[int]) -> Key:
        """``(spread, repeats, first seats, rank spread)`` of one table (see
        :func:`swiss_tables`)."""
        spread = repeats = ranks = 0
        for a, b in combinations(table, 2):
            spread += (self.points[a] - self.points[b]) ** 2
            repeats += b in self.met[a]
            ranks += (a - b) ** 2
        return spread, repeats, min(self.firsts[i] for i in table), ranks

    def key(self, tables: Sequence[Sequence[int]]) -> Key:
        """The objective of a whole seating: its tables' keys added component-wise."""
        keys = [self.table_key(t) for t in tables]
        return (
            sum(k[0] for k in keys),
            sum(k[1] for k in keys),
            sum(k[2] for k in keys),
            sum(k[3] for k in keys),
        )


def swiss_tables(
    players: Sequence[str],
    points: Mapping[str, int],
    met: Set[frozenset[str]],
    first_seats: Mapping[str, int],
    table_size: int = DEFAULT_TABLE,
    seats: Seats = (MIN_TABLE, MAX_TABLE),
) -> TablePairing:
    """A classic Swiss round: ``players`` (the active ones, in standings order, best first)
    at tables of :func:`table_sizes`, each table's seats in order.

    The objective, minimised lexicographically over every way of seating the players at
    tables of those sizes:

    1. *points-grouping*: the sum over the tables of ``(points[a] - points[b]) ** 2`` for
       every two players ``a``, ``b`` at the same table (close points together);
    2. *repeat meetings*: the number of pairs at a table that are in ``met``;
    3. *first seats*: the sum over the tables of the fewest ``first_seats`` at the table
       (what the players who sit first this round have had before): this round's first
       seats to those who have had fewest, as far as 1 and 2 leave the choice;
    4. *rank spread*: the same sum as 1 over rank indices (0 the best): best-ranked together.

    "Repeat meetings as a secondary goal where it does not cost points-grouping much" is read
    as *costs it nothing*: a repeat is avoided by exchanging players whose exchange leaves 1
    as it was (players of equal points, typically), never by seating points further apart
    (any tolerance would be an arbitrary exchange rate between points and repeats). While
    there are at most :data:`EXACT_LIMIT` seatings (12 players at tables of 4) every one is
    tried and the first best in enumeration order kept; above, the problem holds graph
    partitioning (NP-hard), so the best cut of the standings into consecutive tables (the
    sizes in any order) is improved by exchanging two players of different tables while
    some exchange improves the objective: a local optimum, at least as good as any cut of
    the standings.

    Tables come best first (by their best-ranked player); at each table the player with the
    fewest ``first_seats`` so far sits first, the others after by the same order (fewest
    first seats, then rank), so a first seat goes to whoever at the table has had it least.
    That holds at every table; across the event the counts can still differ by 2, not 1:
    the grouping puts points and repeats first, so a table whose players have all sat first
    gives one of them a second first seat while a player elsewhere has had none (tests'
    simulated events of up to 12 rounds never saw more than 2).

    Here ``a`` (4 points) sits with two of the four players on 3, not ``b`` whom it met;
    ``d`` has had no first seat, ``a`` and ``c`` one each:

    >>> result = swiss_tables(
    ...     ["a", "b", "c", "d", "e", "f"], dict(a=4, b=3, c=3, d=3, e=3, f=0),
    ...     {frozenset("ab")}, {"a": 1, "c": 1}, table_size=3)
    >>> result.tables
    (('d', 'a', 'c'), ('b', 'e', 'f'))
    """
    check_players(players, points)
    sizes = table_sizes(len(players), table_size, seats)
    index = {p: i for i, p in enumerate(players)}
    met_by: list[set[int]] = [set() for _ in players]
    for pair in met:
        if len(pair) == 2 and all(p in index for p in pair):
            a, b = (index[p] for p in pair)
            met_by[a].add(b)
            met_by[b].add(a)
    scores = _Scores(
        tuple(points[p] for p in players),
        tuple(frozenset(m) for m in met_by),
        tuple(first_seats.get(p, 0) for p in players),
    )
    if _seatings(sizes) <= EXACT_LIMIT:
        grouped = _exact(scores, sizes)
    else:
        grouped = _improve(scores, _best_cut(scores, sizes))
    ordered = sorted((sorted(t) for t in grouped), key=lambda t: t[0])
    seated = [sorted(t, key=lambda i: (first_seats.get(players[i], 0), i)) for t in ordered]
    return TablePairing(tuple(tuple(players[i] for i in t) for t in seated))


def _seatings(sizes: Sequence[int]) -> int:
    """How many ways there are to seat ``sum(sizes)`` players at tables of ``sizes`` (tables
    unnumbered): ``n! / (prod size! * prod (tables of a size)!)``."""
    count = math.factorial(sum(sizes))
    for size in sizes:
        count //= math.factorial(size)
    for same in Counter(sizes).values():
        count //= math.factorial(same)
    return count


def _best_cut(scores: _Scores, sizes: Sequence[int]) -> list[list[int]]:
    """The best seating that cuts the standings into consecutive tables, the sizes in any
    order (points 3, 3, 1, 0, 0, 0, 0 at a table of 4 and one of 3: the 3 on top, spread 8
    against 27).

    A dynamic programme over how many tables of each size are cut so far (which fixes how
    many players are seated): each state keeps its least key, the tables' keys added
    component-wise (a lexicographic order is kept under addition), the larger size tried
    first and kept on a tie."""
    kinds = sorted(set(sizes), reverse=True)
    wanted = tuple(sizes.count(k) for k in kinds)
    # state -> (its least key, the state before, the size of the table between)
    best: dict[tuple[int, ...], tuple[Key, tuple[int, ...], int]] = {
        (0,) * len(kinds): ((0, 0, 0, 0), (), 0)
    }
    for state in sorted(product(*(range(c + 1) for c in wanted)), key=sum):
        if state not in best:
            continue
        key = best[state][0]
        seated = sum(c * k for c, k in zip(state, kinds, strict=True))
        for x, size in enumerate(kinds):
            if state[x] == wanted[x]:
                continue
            table = scores.table_key(range(seated, seated + size))
            total = (key[0] + table[0], key[1] + table[1], key[2] + table[2], key[3] + table[3])
            after = (*state[:x], state[x] + 1, *state[x + 1 :])
            if after not in best or total < best[after][0]:
                best[after] = (total, state, size)
    cut, state = [], wanted
    while any(state):
        _, state, size = best[state]
        cut.append(size)
    tables, seated = [], 0
    for size in reversed(cut):
        tables.append(list(range(seated, seated + size)))
        seated += size
    return tables


def _exact(scores: _Scores, sizes: Sequence[int]) -> list[list[int]]:
    """The best seating by exhaustive search: the best-ranked player not yet seated takes, in
    turn, each remaining size of table and each set of companions among the players after it
    (each seating once: tables unnumbered, a table's players unordered); the first seating of
    the least key wins."""
    best: list[tuple[Key, list[list[int]]]] = []

    def place(left: list[int], remaining: Counter[int], tables: list[list[int]]) -> None:
        if not left:
            key = scores.key(tables)
            if not best or key < best[0][0]:
                best[:] = [(key, [list(t) for t in tables])]
            return
        head, rest = left[0], left[1:]
        for size in sorted(remaining, reverse=True):
            if remaining[size] == 0:
                continue
            remaining[size] -= 1
            for companions in combinations(rest, size - 1):
                taken = set(companions)
                tables.append([head, *companions])
                place([p for p in rest if p not in taken], remaining, tables)
                tables.pop()
            remaining[size] += 1

    place(list(range(len(scores.points))), Counter(sizes), [])
    return best[0][1]


def _improve(scores: _Scores, tables: list[list[int]]) -> list[list[int]]:
    """``tables`` improved by exchanges: for each two tables in order, the first exchange of a
    player of one with a player of the other that lowers the objective is made, and the two
    tables are searched again; rounds over every two tables repeat until one makes none.
    Every exchange lowers the key, so the search ends.

    Each exchange is priced by its change alone: for points (the same for ranks), swapping
    ``a`` of table ``A`` (size ``sA``, points summing to ``SA``) with ``b`` of ``B`` changes
    the spread by ``(pb - pa) * ((sA - sB) * (pa + pb) - 2 * (SA - pa) + 2 * (SB - pb))``
    (expand ``sum((pb - px) ** 2 - (pa - px) ** 2)`` over the others at ``A``, and the
    mirror at ``B``); the repeats and first seats only when the spread does not change."""
    sums = [sum(scores.points[i] for i in t) for t in tables]
    ranks = [sum(t) for t in tables]
    changed = True
    while changed:
        changed = False
        for x in range(len(tables)):
            for y in range(x + 1, len(tables)):
                while _exchange(scores, tables, x, y, sums, ranks):
                    changed = True
    return tables


def _exchange(
    scores: _Scores, tables: list[list[int]], x: int, y: int, sums: list[int], ranks: list[int]
) -> bool:
    """Make the first exchange between tables ``x`` and ``y`` that lowers the objective (see
    :func:`_improve`); whether there was one. ``sums`` and ``ranks`` hold each table's sum of
    points and of rank indices, kept up to date."""
    pts = scores.points
    A, B = tables[x], tables[y]
    size_gap = len(A) - len(B)
    for i, a in enumerate(A):
        pa, others_a = pts[a], sums[x] - pts[a]
        for j, b in enumerate(B):
            pb = pts[b]
            spread = (pb - pa) * (size_gap * (pa + pb) - 2 * others_a + 2 * (sums[y] - pb))
            if spread > 0:
                continue
            if spread == 0 and not _better_tie(scores, A, B, a, b, size_gap, ranks[x], ranks[y]):
                continue
            A[i], B[j] = b, a
            sums[x] += pb - pa
            sums[y] += pa - pb
            ranks[x] += b - a
            ranks[y] += a - b
            return True
    return False


def _better_tie(
    scores: _Scores, A: list[int], B: list[int], a: int, b: int, size_gap: int, ra: int, rb: int
) -> bool:
    """Whether exchanging ``a`` of ``A`` with ``b`` of ``B``, which leaves the points spread
    as it is, lowers the rest of the objective: the repeats, then the first seats, then the
    rank spread (``ra``, ``rb``: the tables' sums of rank indices)."""
    met, firsts = scores.met, scores.firsts
    repeats = sum((c in met[b]) - (c in met[a]) for c in A if c != a) + sum(
        (c in met[a]) - (c in met[b]) for c in B if c != b
    )
    if repeats:
        return repeats < 0
    before = min(firsts[c] for c in A) + min(firsts[c] for c in B)
    after = min(firsts[c] for c in (*A, b) if c != a) + min(firsts[c] for c in (*B, a) if c != b)
    if after != before:
        return after < before
    return (b - a) * (size_gap * (a + b) - 2 * (ra - a) + 2 * (rb - b)) < 0
