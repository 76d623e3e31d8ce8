"""Replay benchmark (issue #4): how fast the judge's replay API answers on a long game.

Run from the repository root::

    PYTHONPATH=. python bench/replay_bench.py             # the figures in bench/RESULTS.md
    PYTHONPATH=. python bench/replay_bench.py --quick     # a smoke run

Workload (seeded, reproducible): one legal game of at least ``--events`` events (default 5,000)
recorded through ``GameLog.handle`` into a fresh SQLite file (snapshots every 100 events, as in
production): ``bench/long_game.py``'s game (as ``bench/domain_bench.py``'s long game), a strict
casual game of the sample catalog's encoded cards, ``--deck`` cards a seat, in which every turn
each seat uses the abilities of its cards in play and no damage is dealt.

Then, through the Flask test client with the judge's token (the whole HTTP stack: routing, auth,
schema dump, JSON), ``--samples`` requests each, at seeded random points:

* ``GET /api/games/<id>/state?at=<v>`` -- the state at a random version (goal: median < 10 ms);
* ``GET /api/games/<id>/turns/<n>`` -- a random turn with its events, the states before and
  after it and the diff (goal: median < 20 ms);
* ``GET /api/games/<id>/events/<v>`` -- one event with causes, effects, diff and state;
* ``GET /api/games/<id>/timeline`` -- the whole game in outline.

The per-process state cache (``service.replays.Replays``) is emptied before every timed request,
so each one rebuilds its states from the nearest snapshot: these are the uncached figures (a
viewer scrubbing back and forth does better). The replay index (turns, causes, timeline) stays
cached, as in a running server; the first request of a game builds it (one fold of the whole
game) and is timed separately.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.app import create_app
from bench.long_game import api_spec, choose

ORGANIZER = "bench-organizer"


def record_long_game(app: Any, seed: int, events: int, deck: int) -> tuple[str, str]:
    """Record a game of at least ``events`` events (or until it ends); return
    ``(game_id, judge_token)``."""
    log = app.extensions["munchlog"]
    started = log.start_game(api_spec(deck))
    gid = started.game_id
    rng = random.Random(seed)
    while True:
        state = log.game(gid).state
        if state["status"] == "finished" or state["version"] >= events:
            break
        _, command = choose(state, rng)
        log.record(gid, [{k: v for k, v in command.items() if k != "salt"}], actor="table")
    return str(gid), started.tokens["judge"]


def timed(client: Any, path: str, token: str) -> float:
    """One request's wall time in ms, with the per-process state cache emptied first."""
    client.application.extensions["munchlog"].replays.forget_states()
    start = time.perf_counter()
    response = client.get(path, headers={"Authorization": f"Bearer {token}"})
    elapsed = (time.perf_counter() - start) * 1000
    if response.status_code != 200:
        raise SystemExit(f"{path}: HTTP {response.status_code} {response.get_json()}")
    return elapsed


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median": statistics.median(ordered),
        "p90": ordered[int(0.9 * (len(ordered) - 1))],
        "max": ordered[-1],
        "n": len(ordered),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument(
        "--deck", type=int, default=60, help="cards in each deck (60: about 5,500 events)"
    )
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--quick", action="store_true", help="800 events, 40 samples")
    args = parser.parse_args(argv)
    if args.quick:
        args.events, args.samples, args.deck = 800, 40, 40
    folder = tempfile.mkdtemp(prefix="replay-bench-")
    app = create_app(
        {
            "INSTANCE_PATH": os.path.join(folder, "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER,
            "MUNCHLOG_DATABASE_URL": os.path.join(folder, "bench.sqlite"),
        }
    )
    t0 = time.perf_counter()
    gid, judge = record_long_game(app, args.seed, args.events, args.deck)
    recorded = time.perf_counter() - t0
    client = app.test_client()
    base = f"/api/games/{gid}"
    first = timed(client, f"{base}/timeline", judge)  # builds the replay index
    body = client.get(f"{base}/timeline", headers={"Authorization": f"Bearer {judge}"}).get_json()
    version, turns = body["version"], sorted(int(t) for t in body["turns"])
    rng = random.Random(args.seed)
    versions = rng.sample(range(1, version + 1), min(args.samples, version))
    picked_turns = [rng.choice(turns) for _ in range(args.samples)]
    results = {
        "state?at": summary([timed(client, f"{base}/state?at={v}", judge) for v in versions]),
        "turns/<n>": summary([timed(client, f"{base}/turns/{n}", judge) for n in picked_turns]),
        "events/<v>": summary(
            [
                timed(client, f"{base}/events/{v}", judge)
                for v in rng.sample(versions, len(versions))
            ]
        ),
        "timeline": summary([timed(client, f"{base}/timeline", judge) for _ in range(20)]),
    }
    app.extensions["munchlog"].close()
    print(f"# replay bench: {version} events, {len(turns)} turns (recorded in {recorded:.1f} s)")
    print(
        f"# {platform.python_version()} {platform.machine()} nproc={os.cpu_count()} "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d}; first timeline (builds the index): {first:.1f} ms"
    )
    print("| request | median ms | p90 ms | max ms | requests |")
    print("|---|---:|---:|---:|---:|")
    for name, r in results.items():
        print(f"| `{name}` | {r['median']:.2f} | {r['p90']:.2f} | {r['max']:.2f} | {r['n']:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
