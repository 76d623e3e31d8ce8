"""Pairing benchmark (issue #27): the time to pair the next round of a large event.

Run from the repository root::

    PYTHONPATH=. python bench/pairing_bench.py            # 512 players, 5 runs each
    PYTHONPATH=. python bench/pairing_bench.py --players 1024 --runs 3

The issue's goal: 512 players paired in under 5 s on this machine.

Each event is played untimed for ``--rounds`` rounds (4 by default) with seeded random
results, as an event would be: round 1 drawn (:func:`round_one`), the next rounds paired by
the code under test, then the next round's pairing is timed ``--runs`` times on the same
inputs (wall clock, ``time.perf_counter``), the median and the range printed.

* **two-player** (:func:`swiss`): each game a win (3 points) or, one in ten, a draw (1
  each), the bye a win; the standings by points (ties by name: the tiebreakers are not
  this module's).
* **classic** (:func:`swiss_tables`, tables of ``--table-size``): each table's finishing
  order random, places scored 3, 2, 1 and 0 after; the first seat counted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from itertools import combinations

from domain.tournament.pairing import Pairing, round_one, swiss
from domain.tournament.tables import TablePairing, swiss_tables


class Event:
    def __init__(self, n: int) -> None:
        self.players = [f"player-{i:04d}" for i in range(n)]
        self.points = dict.fromkeys(self.players, 0)
        self.met: set[frozenset[str]] = set()
        self.had_bye: set[str] = set()
        self.first_seats = dict.fromkeys(self.players, 0)

    def standings(self) -> list[str]:
        return sorted(self.players, key=lambda p: (-self.points[p], p))


def two_player_event(n: int, rounds: int, rnd: random.Random) -> Event:
    event = Event(n)
    for number in range(rounds):
        if number == 0:
            pairing = round_one(event.players, rnd.randbytes(32))
        else:
            pairing = swiss(event.standings(), event.points, event.met, event.had_bye)
        if pairing.bye is not None:
            event.had_bye.add(pairing.bye)
            event.points[pairing.bye] += 3
        for a, b in pairing.pairs:
            event.met.add(frozenset((a, b)))
            if rnd.random() < 0.1:
                event.points[a] += 1
                event.points[b] += 1
            else:
                event.points[rnd.choice((a, b))] += 3
    return event


def classic_event(n: int, rounds: int, table_size: int, rnd: random.Random) -> Event:
    event = Event(n)
    for number in range(rounds):
        if number == 0:
            result = round_one(event.players, rnd.randbytes(32), table_size)
        else:
            result = swiss_tables(
                event.standings(), event.points, event.met, event.first_seats, table_size
            )
        for table in result.tables:
            event.first_seats[table[0]] += 1
            event.met.update(frozenset(pair) for pair in combinations(table, 2))
            order = list(table)
            rnd.shuffle(order)
            for place, player in enumerate(order):
                event.points[player] += max(0, 3 - place)
    return event


def timed(run: Callable[[], object], runs: int) -> tuple[list[float], object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return times, result


def report(label: str, times: list[float]) -> None:
    print(
        f"{label}: median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}, {len(times)} runs)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=4, help="rounds played before the timed one")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    n = args.players

    event = two_player_event(n, args.rounds, random.Random(args.seed))
    players = event.standings()
    times, result = timed(lambda: swiss(players, event.points, event.met, event.had_bye), args.runs)
    assert isinstance(result, Pairing)
    rematches = sum(frozenset(p) in event.met for p in result.pairs)
    report(f"swiss, {n} players after {args.rounds} rounds", times)
    print(f"  {len(result.pairs)} pairs, bye {result.bye}, {rematches} rematches")

    event = classic_event(n, args.rounds, args.table_size, random.Random(args.seed))
    players = event.standings()
    times, tables = timed(
        lambda: swiss_tables(players, event.points, event.met, event.first_seats, args.table_size),
        args.runs,
    )
    assert isinstance(tables, TablePairing)
    repeats = sum(
        frozenset(pair) in event.met for t in tables.tables for pair in combinations(t, 2)
    )
    report(
        f"swiss_tables, {n} players at tables of {args.table_size}, after {args.rounds} rounds",
        times,
    )
    print(f"  {len(tables.tables)} tables, {repeats} repeat meetings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
