"""Pairing a tournament's rounds (issue #27): round 1 drawn, later rounds Swiss.

Round 1 is drawn from randomness committed before registration closed (:func:`round_one`:
the event's key shuffles the players by ``munchlog-rand-v1``, so anyone holding the revealed
key can re-draw it). Every later round of a two-player event is one global maximum-weight
matching over all active players (:func:`swiss`), its priorities encoded as edge weights;
classic events seat tables (:mod:`domain.tournament.tables`).

Everything here is a pure function of its arguments (no clock, no randomness but the key
given): the same inputs give the same pairing.

>>> pairing = swiss(["a", "b", "c"], {"a": 3, "b": 3, "c": 0}, {frozenset("ab")}, set())
>>> pairing.pairs, pairing.bye
((('a', 'c'),), 'b')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from typing import overload

import rustworkx

from domain import dealing
from domain.errors import InvalidCommand
from domain.tournament.tables import (
    MAX_TABLE,
    MIN_TABLE,
    Seats,
    TablePairing,
    check_players,
    table_sizes,
)

__all__ = ["ROUND_ONE_COUNTER", "Pairing", "TablePairing", "round_one", "swiss"]

#: The counter of round 1's shuffle under the event's key (``domain.dealing.shuffle``): the
#: event draws nothing else from its key, so the first number.
ROUND_ONE_COUNTER = 0
#: The largest weight :func:`swiss` gives an edge: rustworkx adds weights as 128-bit
#: integers, and this leaves room for the sums and the doubled duals of its algorithm.
MAX_WEIGHT = 2**100


@dataclass(frozen=True)
class Pairing:
    """A two-player round: its pairs, best-ranked pair first, each pair's better-ranked player
    first (round 1: the drawn order), and the player with the bye (``None`` when there is
    none)."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None


# ----------------------------------------------------------------------------- round 1


@overload
def round_one(
    players: Sequence[str], key: bytes, table_size: None = None, seats: Seats = ...
) -> Pairing: ...
@overload
def round_one(
    players: Sequence[str], key: bytes, table_size: int, seats: Seats = ...
) -> TablePairing: ...
def round_one(
    players: Sequence[str],
    key: bytes,
    table_size: int | None = None,
    seats: Seats = (MIN_TABLE, MAX_TABLE),
) -> Pairing | TablePairing:
    """Round 1, drawn: ``players`` sorted (registration order changes nothing), shuffled by
    :func:`domain.dealing.shuffle` under ``key`` at :data:`ROUND_ONE_COUNTER`, then cut.

    * Two-player events (``table_size`` ``None``): neighbours in the shuffled order play
      (first and second, third and fourth, ...); with an odd count the last has the bye.
    * Classic events: the shuffled order cut into tables of :func:`table_sizes` in its order,
      each table's seats in the shuffled order (``seats``: a table's fewest and most).

    The caller derives ``key`` from the event's secret committed before registration closed;
    once the secret is revealed anyone re-checks round 1 by calling this again.

    >>> key = bytes(32)
    >>> order = dealing.shuffle(key, ROUND_ONE_COUNTER, ["c", "a", "b"])
    >>> pairing = round_one(["c", "a", "b"], key)
    >>> pairing.pairs == ((order[0], order[1]),) and pairing.bye == order[2]
    True
    >>> [len(t) for t in round_one([f"p{i}" for i in range(14)], key, 4).tables]
    [5, 5, 4]
    """
    check_players(players)
    order = dealing.shuffle(key, ROUND_ONE_COUNTER, sorted(players))
    if table_size is not None:
        tables, start = [], 0
        for size in table_sizes(len(order), table_size, seats):
            tables.append(tuple(order[start : start + size]))
            start += size
        return TablePairing(tuple(tables))
    pairs = tuple((order[i], order[i + 1]) for i in range(0, len(order) - 1, 2))
    return Pairing(pairs, order[-1] if len(order) % 2 else None)


# ----------------------------------------------------------------------------- Swiss


def swiss(
    players: Sequence[str],
    points: Mapping[str, int],
    met: Set[frozenset[str]],
    had_bye: Set[str],
) -> Pairing:
    """A Swiss round of a two-player event: ``players`` are the active ones in standings
    order (best first), ``points`` their points, ``met`` the pairs that already played,
    ``had_bye`` who already had a bye.

    One maximum-weight matching over every active player decides, by these priorities, each
    one counting only among the ties of those before it:

    0. *the bye is legal* (a rule, never traded): with an odd count exactly one bye, to a
       player without one; only when every active player has had one may anyone take it.
       Nobody is paired against the bye and there is never a second one.
    a. *as few rematches as possible*: none while a rematch-free pairing exists;
    b. *the bye to the lowest-ranked* eligible player;
    c. *close points*: the least sum of ``(points[a] - points[b]) ** 2`` over the pairs;
    d. *pairing by rank*: the least sum of ``(rank[a] - rank[b]) ** 2`` (rank indices, 0 the
       best): within a group of equal points the best two play, then the next two, and a
       group's odd player out is its lowest-ranked, who meets the next group's best.

    Priority 0 comes before (a): the issue's contract gives the bye "to the lowest-ranked
    player without one", so a rematch is accepted rather than a second bye, in the rare
    event where only a second bye would avoid it. Ties left after (d) (rare) go to the
    matching algorithm, deterministic for a graph built in the same order (rustworkx's
    blossom algorithm walks vectors and insertion-ordered maps; its result, a set, is
    sorted here).

    0 players give no pairs; 1 a bye. Rematches are allowed when unavoidable: every two
    players are joined by an edge.

    >>> swiss(["a", "b", "c", "d"], dict(a=3, b=3, c=0, d=0), set(), set()).pairs
    (('a', 'b'), ('c', 'd'))
    >>> swiss(["a", "b", "c", "d"], dict(a=3, b=3, c=0, d=0), {frozenset("ab")}, set()).pairs
    (('a', 'c'), ('b', 'd'))
    >>> swiss(["a", "b", "c"], dict(a=3, b=0, c=0), set(), {"c"}).bye
    'b'
    """
    check_players(players, points)
    n = len(players)
    if n == 0:
        return Pairing((), None)
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(n + n % 2))
    graph.add_edges_from(_edges(players, points, met, had_bye))
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    pairs, bye = [], None
    for u, v in matching:
        low, high = min(u, v), max(u, v)
        if high == n:  # the bye's node
            bye = players[low]
        else:
            pairs.append((low, high))
    pairs.sort()
    return Pairing(tuple((players[a], players[b]) for a, b in pairs), bye)


def _edges(
    players: Sequence[str],
    points: Mapping[str, int],
    met: Set[frozenset[str]],
    had_bye: Set[str],
) -> list[tuple[int, int, int]]:
    """The weighted edges of :func:`swiss`'s graph: node ``i`` the player of rank index ``i``,
    node ``n`` the bye (with an odd count ``n``), joined only to the players who may take it.

    Each edge's *cost*:

    * between players ``i < j``: ``R * met + P * (points[i] - points[j]) ** 2 + (j - i) ** 2``
      (``met`` 1 for a rematch, else 0);
    * between player ``i`` and the bye: ``B * (n - 1 - i)``, 0 for the lowest-ranked.

    Its weight is ``R + B * n - cost``, positive, and every perfect matching has the same
    number of edges (the matching is asked for at maximum cardinality, and every graph here
    has a perfect matching: every two players are joined, and the bye to at least one), so
    the heaviest matching is the one of least total cost

        T = R * X + B * Y + P * Z + Q

    with ``X`` the rematches, ``Y`` the bye's distance from the bottom of the standings, ``Z``
    the sum of squared point differences and ``Q`` the sum of squared rank differences.

    Weight separation. Over the perfect matchings, with ``D`` the spread of the active
    players' points and ``h = n // 2`` the pairs: ``0 <= Q <= Qmax = h * (n - 1) ** 2``,
    ``0 <= Z <= Zmax = h * D ** 2``, ``0 <= Y <= n - 1``. With ``P = Qmax + 1``,
    ``B = P * (Zmax + 1)`` and ``R = B * n``:

    * everything below the points weighs at most ``Qmax = P - 1 < P``;
    * everything below the bye at most ``P * Zmax + Qmax <= P * Zmax + P - 1 = B - 1 < B``;
    * everything below the rematches at most ``B * (n - 1) + B - 1 = R - 1 < R``.

    So one more rematch costs more than any change in the bye, points and ranks can give
    back; one step of the bye more than any change in points and ranks; and one unit of
    points more than any change in ranks: comparing ``T`` is comparing ``(X, Y, Z, Q)``
    lexicographically, which is the order of :func:`swiss`'s priorities (a) to (d).
    """
    n = len(players)
    pts = [points[p] for p in players]
    half = n // 2
    q_max = half * (n - 1) ** 2
    z_max = half * (max(pts) - min(pts)) ** 2
    p_unit = q_max + 1
    b_unit = p_unit * (z_max + 1)
    r_unit = b_unit * n
    ceiling = r_unit + b_unit * n
    if ceiling > MAX_WEIGHT:
        raise InvalidCommand(
            "request/points_out_of_range", "the points are too far apart to weigh exactly"
        )
    edges = []
    for i in range(n):
        for j in range(i + 1, n):
            rematch = frozenset((players[i], players[j])) in met
            cost = r_unit * rematch + p_unit * (pts[i] - pts[j]) ** 2 + (j - i) ** 2
            edges.append((i, j, ceiling - cost))
    if n % 2:
        fresh = [i for i, p in enumerate(players) if p not in had_bye]
        for i in fresh or range(n):
            edges.append((i, n, ceiling - b_unit * (n - 1 - i)))
    return edges
