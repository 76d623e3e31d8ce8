"""Domain benchmark: what ``decide`` costs per event (it folds each event it emits, once, and
returns the states with the events), and whether that cost stays flat as a game grows.

Run from the repository root::

    PYTHONPATH=. python bench/domain_bench.py            # the figures in bench/RESULTS.md
    PYTHONPATH=. python bench/domain_bench.py --quick    # a smoke run (CI-sized)

Two seeded workloads, both driven by ``legal_commands`` (the policy's own cost is not timed):

1. **random games**: uniformly random legal commands, as the property tests play them. They end
   by damage after a few hundred events, so their cost is bucketed by event index.
2. **long game**: one legal game kept going until a deck runs out. The policy never deals
   damage (no damage effects, no Curses; attacks only when the defender can run away for free
   and then it does), and in each munchkining the active player also activates and resolves
   its Hero's ability ``--loops`` times. That reaches more than 5,000 events in one game.

Per command, the time of ``decide(state, command)`` (the ``Game`` aggregate adopts the states it
returns, folding nothing again) is spread evenly over its events and charged to their indices. Each workload runs ``--repeat`` times; the table reports the median.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.long_game import ability_loop, loop_due, peaceful
from tests.builders import RS, RandomGame, random_policy

Command = dict[str, Any]
BUCKETS: list[tuple[str, int, int]] = [
    ("0-100", 0, 100),
    ("100-300", 100, 300),
    ("300-900", 300, 900),
    ("~1000 (500-1500)", 500, 1500),
    ("~5000 (4500-5500)", 4500, 5500),
    ("~9000 (8500-9500)", 8500, 9500),
]


class Timer:
    """Cost per event index: ``ns[i]`` is the time charged to event ``i`` (1-based version)."""

    def __init__(self) -> None:
        self.ns: dict[int, float] = {}

    def run(self, game: RandomGame, seat: str, command: Command) -> None:
        t0 = time.perf_counter_ns()
        steps = RS.decide(game.state, command)
        t1 = time.perf_counter_ns()
        start = len(game.events)
        if steps:
            share = (t1 - t0) / len(steps)
            for i in range(start + 1, start + len(steps) + 1):
                self.ns[i] = self.ns.get(i, 0.0) + share
            game.state = steps[-1].state
        game.events.extend(step.event for step in steps)


def bucket_means(samples: list[dict[int, float]]) -> dict[str, tuple[float, int]]:
    """µs/event per bucket, pooled over games: (mean, number of events)."""
    out: dict[str, tuple[float, int]] = {}
    for label, lo, hi in BUCKETS:
        values = [v for ns in samples for i, v in ns.items() if lo < i <= hi]
        if values:
            out[label] = (sum(values) / len(values) / 1000, len(values))
    values = [v for ns in samples for v in ns.values()]
    out["overall"] = (sum(values) / len(values) / 1000, len(values))
    return out


# ---------------------------------------------------------------------------- workloads


def random_games(games: int, seed: int) -> list[dict[int, float]]:
    samples = []
    for n in range(games):
        game = RandomGame(seed=seed * 100_003 + n)
        timer = Timer()
        while not game.finished:
            seat, command = game.choose()
            timer.run(game, seat, command)
        samples.append(timer.ns)
    return samples


def long_game(seed: int, loops: int) -> tuple[RandomGame, Timer]:
    game = RandomGame(seed=seed, policy=random_policy(0.0), max_events=10**9)
    rng = random.Random(seed)
    timer = Timer()
    looped_turn = -1
    while not game.finished:
        s = game.state
        if loop_due(s, looped_turn):
            looped_turn = s["turn"]
            for command in ability_loop(s, loops):
                timer.run(game, s["active"], command)
            continue
        seat, command = rng.choice(peaceful(s))
        if command["type"] == "attack":
            command = {**command, "salt": f"{rng.getrandbits(128):032x}"}
        timer.run(game, seat, command)
    return game, timer


# ---------------------------------------------------------------------------- report


def median_buckets(runs: list[dict[str, tuple[float, int]]]) -> dict[str, tuple[float, int]]:
    labels = [label for label in runs[0] if all(label in r for r in runs)]
    return {
        label: (statistics.median(r[label][0] for r in runs), runs[0][label][1]) for label in labels
    }


def table(title: str, buckets: dict[str, tuple[float, int]]) -> str:
    lines = [
        f"**{title}**",
        "",
        "| events (index) | µs/event | events measured |",
        "|---|---:|---:|",
    ]
    for label, (us, n) in buckets.items():
        lines.append(f"| {label} | {us:.1f} | {n:,} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--games", type=int, default=300, help="random games per repeat")
    parser.add_argument("--loops", type=int, default=40, help="Hero ability loops per turn")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="20 games, 1 repeat")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.repeat = 20, 1

    gc.collect()
    started = time.perf_counter()
    rand_runs, long_runs = [], []
    long_events = 0
    for _ in range(args.repeat):
        samples = random_games(args.games, args.seed)
        rand_runs.append(bucket_means(samples))
        game, ltimer = long_game(args.seed, args.loops)
        long_runs.append(bucket_means([ltimer.ns]))
        long_events = len(game.events)
        end = game.state
    elapsed = time.perf_counter() - started

    elim = {seat: end["seats"][seat]["eliminated"] for seat in ("A", "B")}
    print(
        f"machine: nproc={os.cpu_count()}, Python {platform.python_version()}, "
        f"{platform.machine()} {platform.system()}; date {dt.date.today().isoformat()}"
    )
    print(f"command: PYTHONPATH=. python bench/domain_bench.py {' '.join(argv or sys.argv[1:])}")
    print(
        f"seed {args.seed}, {args.games} random games x {args.repeat} repeats, "
        f"long game {long_events:,} events ({end['turn']} turns, ended {elim}, "
        f"winner {end['winner']}); wall {elapsed:.1f} s"
    )
    print()
    print(table("Random games (median of repeats)", median_buckets(rand_runs)))
    print()
    print(
        table(f"Long game, {long_events:,} events (median of repeats)", median_buckets(long_runs))
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
