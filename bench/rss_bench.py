"""rss_bench: does recording grow the workers' memory without bound?

``munchlog serve`` (2 granian workers, the stream process beside them, SQLite on /dev/shm) is
driven in rounds: each round creates 8 new CCG games and records into them flat out for
``--seconds`` (stream_bench's workload and client, ``bench/stream_record.js``), then prints each
server process's resident memory (``VmRSS``). A leak grows by about the same each round; caches
filling up grow less and less, up to their bounds (the game cache: ``MUNCHLOG_GAME_CACHE_MB``).

Usage: ``PYTHONPATH=. python bench/rss_bench.py [--rounds 8] [--seconds 30]`` (needs node).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stream_bench import SERVER, descendants, munchlog, new_game, record


def rss_mb(pids: list[int]) -> dict[int, int]:
    """Each live process's resident memory, MB."""
    found = {}
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS"):
                    found[pid] = int(line.split()[1]) // 1024
        except FileNotFoundError:
            pass
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=30)
    args = ap.parse_args(argv)
    base_dir = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    tmp = Path(tempfile.mkdtemp(prefix="munchlog-rss-", dir=base_dir))
    try:
        with munchlog(tmp) as (base, _stream_port):
            pids = [
                p
                for p in descendants(SERVER[0])
                if b"api.streams.process" not in Path(f"/proc/{p}/cmdline").read_bytes()
            ]
            print(f"start: RSS MB by process {rss_mb(pids)}", flush=True)
            total = 0.0
            for n in range(args.rounds):
                games = [new_game(base, n * 8 + i) for i in range(8)]
                record(base, games, args.seconds, 0, tmp).wait()
                rate = float(json.loads((tmp / "recorded.json").read_text())["rate"])
                total += rate * args.seconds
                print(
                    f"round {n + 1}: {rate:,.0f} actions/s, {total:,.0f} actions in all; "
                    f"RSS MB by process {rss_mb(pids)}",
                    flush=True,
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
