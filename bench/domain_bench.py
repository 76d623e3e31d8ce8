"""Domain benchmark: what ``decide`` costs per event (it folds each event it emits, once, and
returns the states with the events), and whether that cost stays flat as a game grows.

Run from the repository root::

    PYTHONPATH=. python bench/domain_bench.py --clock cpu   # the figures in bench/RESULTS.md
    PYTHONPATH=. python bench/domain_bench.py --quick       # a smoke run (CI-sized)

Seeded workloads (``--workloads``, default ``ccg,classic``), all strict games driven by
``legal_commands`` (the policy's own cost is not timed). The CCG ones play the sample catalog's
encoded cards (every activation, cost, effect and trigger checked against its card, issue #13):

1. **random games**: uniformly random legal commands, as the property tests play them
   (``tests.builders.RandomGame``: prime format, 40-card decks). They end by damage after a few
   hundred events, so their cost is bucketed by event index.
2. **long game**: one legal casual game of ``--deck`` cards a seat, kept going until the Gnome
   Thief's deck runs out (``bench/long_game.py``): no damage, and every turn each seat uses the
   abilities its cards in play offer (Hero, ten Piggy Banks, a Location) with the card's exact
   cost and effects. The default deck takes it past 10,000 events.

The classic one (issue #14) plays 6-seat strict ``munchkin-deluxe`` games
(``bench/classic_game.py``): a seeded uniform choice among every seat's legal commands, no
concession, from setup on.

3. **classic games**: ``--classic-games`` games, each until a seat wins or
   ``--classic-cap`` events, bucketed by event index;
4. **classic long game**: one game whose seed runs on without a winner, stopped at
   ``--classic-long`` events (default 10,000);
5. **classic long game replayed**: the last repeat's long game, its ``(state, command)`` pairs
   kept, then ``decide`` timed over them ``--classic-passes`` times with nothing in between,
   forward and in reverse order in turn. A cost that depends on the state alone (what the
   product pays) gives the same buckets both ways; a drift of the process or of the machine
   over a pass (a quiet machine getting busy, a cache that cools) shows up reversed.

``--workloads dealing`` (not in the default run) compares a server-dealt game's cost with a
table-dealt one's (issue #25, docs/rules.md E: the goal is within 1.2x per event):

6. **dealing**: ``--games`` random CCG games dealt by the server (both seats contributing the
   seeds ``legal_commands`` offer), each played untimed, then decided again, timed, twice: as
   a server-dealt game, and as the same game dealt by the table (its commands carrying the
   cards and values the server dealt, less the seeds' commands; the same spec and card ids),
   the variant timed first alternating from game to game. So the two differ only by the
   dealing: its seed commands, the ``Dealt`` events and the shuffles and rolls behind them.
   ``--dealing-live`` instead has each variant play its own random game, timed as it is
   played. Every command is timed through ``domain.game.decide_commands``, the decision
   ``Game.execute`` records (the ruleset's or ``domain.fair``'s steps, the withholding check
   first and the secret's reveal at the end, with the server's secrets at hand). Reported: µs
   per event, per command and per game, and per command type.

The games keep no event objects (:class:`Timer` counts them; ``--keep-events`` keeps them), as
the product keeps none in memory (the service stores them and keeps one state per game): an earlier
version kept every game's events, a heap that grew through the run. The garbage collector is
not what made the long game's single-pass buckets rise with its length on a quiet machine:
no full collection runs during it, and no collection lands in a timed ``decide`` (checked with
``gc.callbacks``); the replayed passes show the cost flat, forward and backward, while a live
pass also times ``decide`` with caches cooled by the policy (``legal_commands`` for six seats,
about 1 ms of other work before each command), which costs more and drifts with the machine.

Per command, the time of ``decide(state, command)`` (the ``Game`` aggregate adopts the states it
returns, folding nothing again) is spread evenly over its events and charged to their indices.
``--clock wall`` (the default) times with ``perf_counter``; ``--clock cpu`` with the process's
CPU time (``process_time``), which other processes on a busy machine disturb much less (each
reading is a system call, about 1 µs here, half of it inside the timed span). ``--best-of N``
times each command N times on the same state (``decide`` is pure) and keeps the fastest: on a
shared machine, a floor that other processes hardly move (the repeated call finds its data in the
caches, so it is a little optimistic). Each workload runs ``--repeat`` times; the table reports
the median. The machine's load average is printed before and after, since a shared machine moves
the figures. The events decided are counted, not kept in memory (the service does not hold a
game's events either); ``--keep-events`` keeps them in the game's list as the test drivers do.

Between two timed calls the harness runs the policy (``legal_commands``), untimed, whose work
grows as the long game's table fills; what it leaves in the processor's caches is paid by the
next timed call, so late buckets rise although ``decide`` itself does not (bench/RESULTS.md).
``--replay`` plays each CCG game untimed first, then times the same commands again with nothing
run between them: ``decide``'s own cost by game length.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import classic_game
from bench.long_game import DEFAULT_DECK, HEROES, choose, decks
from domain.classic import CLASSIC
from domain.family import load_families
from domain.fold import State
from domain.game import decide_commands
from tests.builders import AT, RS, RandomGame, game_spec, random_policy
from tests.classic.helpers import Game

load_families()  # the kernel imports no family: register the installed ones, as the app does

Command = dict[str, Any]
BUCKETS: list[tuple[str, int, int]] = [
    ("0-100", 0, 100),
    ("100-300", 100, 300),
    ("300-900", 300, 900),
    ("~1000 (500-1500)", 500, 1500),
    ("~3000 (2500-3500)", 2500, 3500),
    ("~5000 (4500-5500)", 4500, 5500),
    ("~7000 (6500-7500)", 6500, 7500),
    ("~9000 (8500-9500)", 8500, 9500),
    ("~10000 (9500-10500)", 9500, 10500),
]
CLOCKS: dict[str, Callable[[], int]] = {"wall": time.perf_counter_ns, "cpu": time.process_time_ns}
WORKLOADS = ("ccg", "classic", "dealing")
#: What runs when ``--workloads`` is not given.
DEFAULT_WORKLOADS = ("ccg", "classic")
#: The dealing workload's variants (``POST /api/games``'s ``dealing``).
DEALINGS = ("table", "server")
#: The command types the dealing table lists on their own (the rest are "other").
DEALT_TYPES = (
    "draw_opening",
    "roll_first",
    "mulligan",
    "draw",
    "spill",
    "commit_seed",
    "reveal_seed",
)


class Timer:
    """Cost per event index: ``ns[i]`` is the time charged to event ``i`` (1-based version).

    The events decided are counted (:attr:`count`), not kept: the service does not hold a
    game's events in memory either (the store does, the aggregate keeps its state). With
    ``keep_events`` they are appended to ``game.events`` as the test drivers do: the bench's
    own memory then grows with the game (10,900 events of the long game), which costs the
    last buckets a little (bench/RESULTS.md), though the garbage collector hardly runs.
    """

    def __init__(self, clock: Callable[[], int], best_of: int = 1, keep_events: bool = False):
        self.ns: dict[int, float] = {}
        self.clock = clock
        self.best_of = max(1, best_of)
        self.keep_events = keep_events
        self.count: int | None = None

    def index(self, game: RandomGame | Game) -> int:
        """The events of ``game`` so far (its setup's, then every one decided here)."""
        return len(game.events) if self.count is None else self.count

    def run(
        self,
        game: RandomGame | Game,
        seat: str,
        command: Command,
        decide: Callable[[Any, Command], list[Any]] = RS.decide,
    ) -> float:
        """Decide ``command`` on ``game``'s state (timed), adopt the steps; the time taken."""
        clock = self.clock
        best = None
        for _ in range(self.best_of):  # decide is a pure function: the same steps each time
            t0 = clock()
            steps = decide(game.state, command)
            t1 = clock()
            best = t1 - t0 if best is None else min(best, t1 - t0)
        start = self.index(game)
        if steps and best is not None:
            share = best / len(steps)
            for i in range(start + 1, start + len(steps) + 1):
                self.ns[i] = self.ns.get(i, 0.0) + share
            game.state = steps[-1].state
        self.count = start + len(steps)
        if self.keep_events:
            game.events.extend(step.event for step in steps)
        return float(best or 0)


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


def replayed(game: RandomGame, choose: Callable[[], tuple[str, Command]], timer: Timer) -> None:
    """``--replay``: play ``game`` to its end untimed (``choose`` gives each command), then
    decide its commands again from its first state, timed, with nothing run between them."""
    start, commands = game.state, []
    while not game.finished:
        seat, command = choose()
        commands.append((seat, command))
        game.state = RS.decide(game.state, command)[-1].state
    game.state = start
    for seat, command in commands:
        timer.run(game, seat, command)


def random_games(
    games: int,
    seed: int,
    clock: Callable[[], int],
    best_of: int = 1,
    keep: bool = False,
    replay: bool = False,
) -> list[dict[int, float]]:
    samples = []
    for n in range(games):
        game = RandomGame(seed=seed * 100_003 + n)
        timer = Timer(clock, best_of, keep)
        if replay:
            replayed(game, game.choose, timer)
        while not game.finished:
            seat, command = game.choose()
            timer.run(game, seat, command)
        samples.append(timer.ns)
    return samples


def long_game(
    seed: int,
    deck: int,
    clock: Callable[[], int],
    best_of: int = 1,
    keep: bool = False,
    replay: bool = False,
) -> tuple[RandomGame, Timer]:
    spec = game_spec(seed, fmt="casual", heroes=(HEROES["A"], HEROES["B"]), decks=decks(deck))
    game = RandomGame(seed=seed, spec=spec, policy=random_policy(0.0), max_events=10**9)
    rng = random.Random(seed)
    timer = Timer(clock, best_of, keep)
    if replay:
        replayed(game, lambda: choose(game.state, rng), timer)
    while not game.finished:
        seat, command = choose(game.state, rng)
        timer.run(game, seat, command)
    return game, timer


def play_classic(
    seed: int,
    cap: int,
    clock: Callable[[], int],
    best_of: int = 1,
    keep: bool = False,
    record: list[tuple[State, Command]] | None = None,
) -> tuple[Game, Timer]:
    """One classic game (``bench/classic_game.py``) until a seat wins or ``cap`` events;
    ``record`` (a list) receives each ``(state, command)`` decided, for :func:`replay`."""
    game = classic_game.classic_game(seed)
    rng = random.Random(seed)
    timer = Timer(clock, best_of, keep)
    while game.state["status"] != "finished" and timer.index(game) < cap:
        command = classic_game.choose(game, rng)
        if command is None:
            break
        if record is not None:
            record.append((game.state, command))
        timer.run(game, command["seat"], command, game.rs.decide)
    return game, timer


def replay(
    played: list[tuple[State, Command]], clock: Callable[[], int], reverse: bool
) -> dict[int, float]:
    """One timed pass of ``decide`` over a played game's ``(state, command)`` pairs, with no
    policy in between, in order or ``reverse`` order; the cost charged to event indices as
    :class:`Timer` does. A cost that depends on the state alone gives the same buckets both
    ways; a drift of the process or the machine over the pass shows reversed."""
    ns: dict[int, float] = {}
    ruleset = CLASSIC[classic_game.RULESET]
    order = reversed(played) if reverse else iter(played)
    for state, command in order:
        t0 = clock()
        steps = ruleset.decide(state, command)
        t1 = clock()
        share = (t1 - t0) / len(steps)
        for i in range(state["version"] + 1, state["version"] + len(steps) + 1):
            ns[i] = share
        del steps  # freed outside the next timed span
    return ns


def classic_games(
    games: int, seed: int, cap: int, clock: Callable[[], int], best_of: int = 1, keep: bool = False
) -> tuple[list[dict[int, float]], list[tuple[Game, int]]]:
    """The samples, and each game with its number of events."""
    samples, played = [], []
    for n in range(games):
        game, timer = play_classic(seed * 100_003 + n, cap, clock, best_of, keep)
        samples.append(timer.ns)
        played.append((game, timer.index(game)))
    return samples, played


class Dealing:
    """One variant of the dealing workload over a repeat: the time charged to each event index
    of every game, and per command type ``[ns, commands]``."""

    def __init__(self) -> None:
        self.samples: list[dict[int, float]] = []
        self.by_type: dict[str, list[float]] = {}
        self.events = 0

    def add(self, kind: str, ns: float) -> None:
        slot = self.by_type.setdefault(kind if kind in DEALT_TYPES else "other", [0.0, 0])
        slot[0] += ns
        slot[1] += 1

    def per_event(self) -> float:
        """µs per event, over every event of every game."""
        return sum(sum(ns.values()) for ns in self.samples) / max(1, self.events) / 1000

    def per_game(self) -> float:
        """µs per game (every command of it)."""
        return sum(sum(ns.values()) for ns in self.samples) / max(1, len(self.samples)) / 1000

    def per_command(self) -> float:
        total = sum(ns for ns, _ in self.by_type.values())
        return total / max(1, sum(n for _, n in self.by_type.values())) / 1000


def product_decide(game: RandomGame) -> Callable[[State, Command], list[Any]]:
    """``game``'s commands decided as ``Game.execute`` decides them (its server secrets, if
    it is server-dealt), one command a batch."""
    secrets = game.secrets

    def decide(state: State, command: Command) -> list[Any]:
        decided = decide_commands(RS, state, [(command, None)], received_at=AT, secrets=secrets)
        return [step for step, _ in decided]

    return decide


#: What a table-dealt game's command tells that a server-dealt one's leaves to the server: the
#: field, from the family event the server-dealt command emitted (docs/rules.md E.1).
TOLD_BY = {
    "draw_opening": ("OpeningHandDrawn", "cards"),
    "roll_first": ("FirstPlayerRolled", "rolls"),
    "mulligan": ("MulliganTaken", "cards"),
    "draw": ("CardDrawn", "card"),
    "spill": ("CardsSpilled", "cards"),
}


def as_told(command: Command, before: State, events: list[Any]) -> Command | None:
    """The table-dealt form of a server-dealt ``command`` decided in ``before`` that gave
    ``events``: with the card or value the server dealt (``None`` for a seed's command, which a
    table-dealt game has not). A ``cancel``'s ``ref`` (a version: the table-dealt game's differ)
    becomes the position on the stack it names, for :func:`table_ref`."""
    if command["type"] in ("commit_seed", "reveal_seed"):
        return None
    if command.get("ref") is not None:
        refs = [entry["ref"] for entry in before["stack"]]
        return {**command, "ref": ("stack", refs.index(command["ref"]))}
    told = TOLD_BY.get(command["type"])
    if told is None:
        return command
    kind, name = told
    event = next(e for e in events if type(e).__name__ == kind)
    return {**command, name: getattr(event, name)}


def table_ref(state: State, command: Command) -> Command:
    """``command`` with a stack position (:func:`as_told`) back to the ``ref`` it has there."""
    ref = command.get("ref")
    if isinstance(ref, tuple):
        return {**command, "ref": state["stack"][ref[1]]["ref"]}
    return command


def dealing_games(
    games: int,
    seed: int,
    clock: Callable[[], int],
    best_of: int = 1,
    keep: bool = False,
    live: bool = False,
) -> dict[str, Dealing]:
    """``games`` pairs of random CCG games, table- and server-dealt, each pair from one seed and
    the variant timed first alternating. By default a pair is **one game**: the server-dealt
    game is played untimed, then its commands are decided again, timed, in a new server-dealt
    game and, with the cards and values the server dealt, in a table-dealt game from the same
    spec (the same game but its seeds' commands and ``Dealt`` events), nothing run between
    two commands. ``live``: each variant plays its own random game, timed as it is played
    (the policy runs between two commands)."""
    out = {variant: Dealing() for variant in DEALINGS}
    for n in range(games):
        game_seed = seed * 100_003 + n
        order = DEALINGS if n % 2 == 0 else DEALINGS[::-1]
        played: list[tuple[str, Command, Command | None]] = []
        if not live:
            game = RandomGame(seed=game_seed, dealing=True)
            while not game.finished:
                seat, command = game.choose()
                move = game.apply(seat, command)
                played.append((seat, command, as_told(command, move.before, move.events)))
        for variant in order:
            server = variant == "server"
            game = RandomGame(seed=game_seed, dealing=server)
            timer = Timer(clock, best_of, keep)
            decide = product_decide(game)
            if live:
                while not game.finished:
                    seat, command = game.choose()
                    out[variant].add(command["type"], timer.run(game, seat, command, decide))
            for seat, command, told in played:
                chosen = command if server else told
                if chosen is not None:
                    chosen = table_ref(game.state, chosen)
                    out[variant].add(chosen["type"], timer.run(game, seat, chosen, decide))
            assert game.finished, (variant, game_seed)
            out[variant].samples.append(timer.ns)
            out[variant].events += len(timer.ns)
    return out


def dealing_table(runs: list[dict[str, Dealing]], clock: str, games: int, live: bool) -> str:
    """The dealing workload's figures: medians of the repeats (each repeat listed)."""

    def cells(figure: Callable[[Dealing], float]) -> list[str]:
        out = []
        for variant in DEALINGS:
            values = [figure(run[variant]) for run in runs]
            each = ", ".join(f"{v:.1f}" for v in values)
            out.append(f"{statistics.median(values):.1f} ({each})")
        ratios = [figure(run["server"]) / figure(run["table"]) for run in runs]
        out.append(f"{statistics.median(ratios):.2f} ({', '.join(f'{r:.2f}' for r in ratios)})")
        return out

    lines = [
        f"**Server-dealt and table-dealt CCG random games, {games} "
        + (
            "of each, each its own game, timed live"
            if live
            else "played once, each decided in both"
        )
        + " per repeat, alternated (median of repeats; each repeat)**",
        "",
        f"| µs ({clock} clock) | table | server | server / table |",
        "|---|---:|---:|---:|",
        f"| per event | {' | '.join(cells(Dealing.per_event))} |",
        f"| per command | {' | '.join(cells(Dealing.per_command))} |",
        f"| per game | {' | '.join(cells(Dealing.per_game))} |",
    ]
    first = runs[-1]
    for variant in DEALINGS:
        d = first[variant]
        commands = sum(n for _, n in d.by_type.values())
        lines.append(
            f"| {variant}: events, commands a game (last repeat) | "
            f"{d.events / games:.0f}, {commands / games:.0f} | | |"
        )
    lines += [
        "",
        "| command (last repeat) | table µs/command (commands) | server µs/command (commands) |",
        "|---|---:|---:|",
    ]
    for kind in (*DEALT_TYPES, "other"):
        row = []
        for variant in DEALINGS:
            ns, n = first[variant].by_type.get(kind, [0.0, 0])
            row.append(f"{ns / n / 1000:.1f} ({int(n):,})" if n else "-")
        lines.append(f"| {kind} | {' | '.join(row)} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- report


def median_buckets(runs: list[dict[str, tuple[float, int]]]) -> dict[str, tuple[float, int]]:
    labels = [label for label in runs[0] if all(label in r for r in runs)]
    return {
        label: (statistics.median(r[label][0] for r in runs), runs[0][label][1]) for label in labels
    }


def passes_table(title: str, runs: list[dict[str, tuple[float, int]]], clock: str) -> str:
    """One column per replay pass (forward, reverse, forward...) and their median."""
    names = [f"pass {i + 1} ({'reverse' if i % 2 else 'forward'})" for i in range(len(runs))]
    lines = [
        f"**{title}**",
        "",
        f"| events (index) | {' | '.join(names)} | median | events measured |",
        "|---|" + "---:|" * (len(runs) + 2),
    ]
    for label, (us, n) in median_buckets(runs).items():
        cells = " | ".join(f"{r[label][0]:.1f}" for r in runs)
        lines.append(f"| {label} | {cells} | {us:.1f} | {n:,} |")
    return "\n".join(lines) + f"\n\n(µs/event, {clock} clock)"


def table(title: str, buckets: dict[str, tuple[float, int]], clock: str) -> str:
    lines = [
        f"**{title}**",
        "",
        f"| events (index) | µs/event ({clock}) | events measured |",
        "|---|---:|---:|",
    ]
    for label, (us, n) in buckets.items():
        lines.append(f"| {label} | {us:.1f} | {n:,} |")
    return "\n".join(lines)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--games", type=int, default=300, help="random games per repeat")
    parser.add_argument(
        "--deck", type=int, default=DEFAULT_DECK, help="long game: cards in each seat's deck"
    )
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    parser.add_argument(
        "--best-of",
        type=int,
        default=1,
        help="time each command N times on the same state and keep the fastest (a noisy machine)",
    )
    parser.add_argument(
        "--workloads",
        default=",".join(DEFAULT_WORKLOADS),
        help=f"comma-separated, among {', '.join(WORKLOADS)} (default "
        f"{','.join(DEFAULT_WORKLOADS)})",
    )
    parser.add_argument(
        "--classic-games", type=int, default=12, help="classic games per repeat (6 seats)"
    )
    parser.add_argument(
        "--classic-cap", type=int, default=3000, help="classic games: events at most a game"
    )
    parser.add_argument(
        "--classic-long", type=int, default=10_000, help="classic long game: events it runs"
    )
    parser.add_argument(
        "--classic-long-seed",
        type=int,
        default=classic_game.LONG_SEED,
        help="classic long game: its seed (the default runs on with no winner)",
    )
    parser.add_argument(
        "--classic-passes",
        type=int,
        default=4,
        help="classic long game: timed replays of its decisions, forward and reverse in turn",
    )
    parser.add_argument(
        "--keep-events",
        action="store_true",
        help="keep every decided event in the game's list, as the test drivers do "
        "(by default they are counted, not kept: the service does not hold them either)",
    )
    parser.add_argument(
        "--replay",
        action="store_true",
        help="CCG workloads: play each game untimed first, then time its commands again with "
        "nothing between them (the policy's own work, growing with the game, stays out)",
    )
    parser.add_argument(
        "--dealing-live",
        action="store_true",
        help="dealing workload: each variant plays its own random game, timed live (default: "
        "one game a pair, the server-dealt one, decided again in both variants)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="20 games, deck 60; classic: 4 games of 600 events at most, long 1,500; 1 repeat",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.deck, args.repeat = 20, 60, 1
        args.classic_games, args.classic_cap, args.classic_long = 4, 600, 1500
    clock = CLOCKS[args.clock]
    workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    unknown = sorted(set(workloads) - set(WORKLOADS))
    if unknown or not workloads:
        parser.error(f"--workloads: unknown {unknown}; choose among {', '.join(WORKLOADS)}")

    load_before = load()
    gc.collect()
    rand_runs, long_runs, classic_runs, classic_long_runs, replays = [], [], [], [], []
    dealing_runs: list[dict[str, Dealing]] = []
    recorded: list[tuple[State, Command]] = []
    long_events = clong_events = 0
    played: list[tuple[Game, int]] = []
    keep = args.keep_events
    walls = dict.fromkeys(WORKLOADS, 0.0)
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        if "dealing" in workloads:
            dealing_runs.append(
                dealing_games(args.games, args.seed, clock, args.best_of, keep, args.dealing_live)
            )
            walls["dealing"] += time.perf_counter() - t0
            t0 = time.perf_counter()
        if "ccg" in workloads:
            samples = random_games(args.games, args.seed, clock, args.best_of, keep, args.replay)
            rand_runs.append(bucket_means(samples))
            game, ltimer = long_game(args.seed, args.deck, clock, args.best_of, keep, args.replay)
            long_runs.append(bucket_means([ltimer.ns]))
            long_events = ltimer.index(game)
            end = game.state
        t1 = time.perf_counter()
        walls["ccg"] += t1 - t0
        if "classic" in workloads:
            csamples, played = classic_games(
                args.classic_games, args.seed, args.classic_cap, clock, args.best_of, keep
            )
            classic_runs.append(bucket_means(csamples))
            last = len(classic_long_runs) == args.repeat - 1
            clong, ctimer = play_classic(
                args.classic_long_seed,
                args.classic_long,
                clock,
                args.best_of,
                keep,
                recorded if last else None,
            )
            clong_events = ctimer.index(clong)
            classic_long_runs.append(bucket_means([ctimer.ns]))
        walls["classic"] += time.perf_counter() - t1
    t1 = time.perf_counter()
    for n in range(args.classic_passes if recorded else 0):
        replays.append(bucket_means([replay(recorded, clock, reverse=n % 2 == 1)]))
    walls["classic"] += time.perf_counter() - t1
    recorded.clear()

    print(
        f"machine: nproc={os.cpu_count()}, Python {platform.python_version()}, "
        f"{platform.machine()} {platform.system()}; date {dt.date.today().isoformat()}; "
        f"load average (1, 5, 15 min) before {load_before}, after {load()}"
    )
    print(f"command: PYTHONPATH=. python bench/domain_bench.py {' '.join(argv or sys.argv[1:])}")
    if "ccg" in workloads:
        elim = {seat: end["seats"][seat]["eliminated"] for seat in ("A", "B")}
        print(
            f"seed {args.seed}, clock {args.clock}, best of {args.best_of}, "
            f"events {'kept' if keep else 'counted'}{', replayed' if args.replay else ''}, "
            f"{args.games} random games x {args.repeat} "
            f"repeats; long game: deck {args.deck} a seat, {long_events:,} events "
            f"({end['turn']} turns, ended {elim}, winner {end['winner']}); wall {walls['ccg']:.1f} s"
        )
    if "classic" in workloads:
        won = sum(1 for g, _ in played if g.state["status"] == "finished")
        lengths = sorted(n for _, n in played)
        print(
            f"classic ({classic_game.RULESET}, {classic_game.SEATS} seats, strict): seed "
            f"{args.seed}, clock {args.clock}, best of {args.best_of}, {args.classic_games} "
            f"games x {args.repeat} repeats, cap {args.classic_cap:,} events: {won} won, "
            f"{sum(lengths):,} events (from {lengths[0]:,} to {lengths[-1]:,}); long game: seed "
            f"{args.classic_long_seed}, {clong_events:,} events ({clong.state['turn']} "
            f"turns, {clong.state['status']}, winners {clong.state['winners']})"
            + f"; wall {walls['classic']:.1f} s"
        )
    if "ccg" in workloads:
        print()
        print(table("Random games (median of repeats)", median_buckets(rand_runs), args.clock))
        print()
        print(
            table(
                f"Long game, {long_events:,} events (median of repeats)",
                median_buckets(long_runs),
                args.clock,
            )
        )
    if "dealing" in workloads:
        print(
            f"dealing: seed {args.seed}, clock {args.clock}, best of {args.best_of}, "
            f"{args.games} games x {args.repeat} repeats"
            f"{', live' if args.dealing_live else ', the same games'}; "
            f"wall {walls['dealing']:.1f} s"
        )
        print()
        print(dealing_table(dealing_runs, args.clock, args.games, args.dealing_live))
    if "classic" in workloads:
        print()
        print(
            table(
                f"Classic games, {classic_game.SEATS} seats (median of repeats)",
                median_buckets(classic_runs),
                args.clock,
            )
        )
        print()
        print(
            table(
                f"Classic long game, {classic_game.SEATS} seats, {clong_events:,} events "
                "(median of repeats)",
                median_buckets(classic_long_runs),
                args.clock,
            )
        )
        if replays:
            print()
            print(
                passes_table(
                    f"Classic long game replayed: decide over its {clong_events:,} events' "
                    "states, no policy in between",
                    replays,
                    args.clock,
                )
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
