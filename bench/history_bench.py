"""history_bench: a match-history read on PostgreSQL while the record bench's load writes.

``munchlog serve`` (its production settings: 2 workers, 4 threads) on a fresh PostgreSQL schema,
``MUNCHLOG_PROJECTIONS`` as given (default: the default, inline); 8 games recorded flat out by
wrk over 8 connections, as ``bench/record_bench.py``'s 8-way run does; meanwhile one client
reads ``GET /api/players/<player>/games`` in a loop (a pause of ``--pause`` seconds between
two reads), the player of a game being recorded, so every read has new events to show. Prints
the reads' p50 / p99 / max and the actions per second recorded, per round; with
``--rebuild``, ``munchlog rebuild-projections`` runs once in the middle of each round and the
reads that saw fewer games than before are counted (they must be 0).

Usage: ``PYTHONPATH=. python bench/history_bench.py [--seconds 20] [--rounds 3]
[--projections inline] [--postgres URL] [--rebuild]`` (needs ``wrk``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record_bench import (
    PG_DEFAULT,
    ROOT,
    TOKEN,
    create_schema,
    drop_schemas,
    eight_games_file,
    postgres_schema_url,
    server,
    settle,
    wrk,
)


def reader(url: str, pause: float, stop: threading.Event, out: dict[str, Any]) -> None:
    """Read ``url`` until ``stop``: latencies (ms), and (a player's history) reads that listed
    fewer games than the one before (a history seen emptied)."""
    session = requests.Session()
    seen = 0
    while not stop.is_set():
        started = time.perf_counter()
        r = session.get(url, timeout=120)
        out["ms"].append((time.perf_counter() - started) * 1000)
        if r.status_code != 200:
            out["errors"] += 1
        elif "/players/" in url:
            games = len(r.json()["games"])
            if games < seen:
                out["fewer"] += 1
            seen = max(seen, games)
        stop.wait(pause)


def rebuild(url: str, instance: str) -> float:
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "api.cli.main", "rebuild-projections", "--db", url],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "MUNCHLOG_INSTANCE": instance},
        check=True,
        capture_output=True,
    )
    return time.monotonic() - started


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pause", type=float, default=0.1, help="seconds between two reads")
    ap.add_argument("--projections", default="inline", choices=["inline", "worker"])
    ap.add_argument("--postgres", default=os.environ.get("BENCH_POSTGRES", PG_DEFAULT))
    ap.add_argument("--rebuild", action="store_true", help="rebuild-projections mid-round")
    ap.add_argument("--verbose", action="store_true", help="print every read's latency")
    args = ap.parse_args()

    schema = f"history_bench_{uuid.uuid4().hex[:8]}"
    create_schema(args.postgres, schema)
    url = postgres_schema_url(args.postgres, schema)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            env = {
                "MUNCHLOG_ORGANIZER_TOKEN": TOKEN,
                "MUNCHLOG_INSTANCE": tmp,
                "MUNCHLOG_DATABASE_URL": url,
                "MUNCHLOG_PROJECTIONS": args.projections,
            }
            with server("granian", "api.ops.serving:worker_app", env) as base:
                eight, games = eight_games_file(base, tmp, "eight", 1)
                player = "bench-1-A"
                for n in range(1, args.rounds + 1):
                    out: dict[str, Any] = {"ms": [], "errors": 0, "fewer": 0}
                    state: dict[str, Any] = {"ms": [], "errors": 0, "fewer": 0}
                    stop = threading.Event()
                    history_url = f"{base}/api/players/{player}/games"
                    gid = games[1][0]
                    state_url = f"{base}/api/games/{gid}/state"  # a spectator's
                    readers = [
                        threading.Thread(target=reader, args=(u, args.pause, stop, o))
                        for u, o in ((history_url, out), (state_url, state))
                    ]
                    for t in readers:
                        t.start()
                    rebuilt = None
                    if args.rebuild:
                        timer = threading.Timer(
                            args.seconds / 3,
                            lambda out=out: out.update(rebuild_s=rebuild(url, tmp)),
                        )
                        timer.start()
                    recorded = wrk(base, eight, 8, args.seconds)
                    stop.set()
                    for t in readers:
                        t.join()
                    if args.rebuild:
                        timer.join()
                        rebuilt = out.get("rebuild_s")
                    settle(base, games)
                    ms = out["ms"]
                    print(
                        f"round {n}: {args.projections}: {len(ms)} reads, p50 "
                        f"{statistics.median(ms):.1f} ms, p99 {pct(ms, 0.99):.1f} ms, max "
                        f"{max(ms):.1f} ms, errors {out['errors']}, fewer games than before "
                        f"{out['fewer']}; recording {recorded['rate']:.0f} actions/s"
                        + (f"; rebuild {rebuilt:.1f} s" if rebuilt is not None else "")
                        + f"; beside it a game's state: p50 {statistics.median(state['ms']):.1f} "
                        f"ms, p99 {pct(state['ms'], 0.99):.1f} ms"
                        + (
                            f"; reads in order, ms: {[round(x) for x in ms]}"
                            if args.verbose
                            else ""
                        ),
                        flush=True,
                    )
    finally:
        drop_schemas(args.postgres, [schema])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
