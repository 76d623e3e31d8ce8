"""outage_bench: PostgreSQL going away and hanging, as a client of munchlog sees it.

1. **Back after an outage**: an app (``create_app``, Flask's test client) on the test
   PostgreSQL through a TCP proxy (``tests/api/test_operations.Proxy``); a demo game; the proxy
   cut (connections closed, new ones refused) for each of ``--outages`` seconds while a read is
   tried every 0.1 s (all 503), then restored: the seconds until the first read answers 200,
   the first write 201 and ``/readyz`` 200.
2. **A database that hangs**: ``munchlog serve`` (2 workers, 4 threads each) on the same
   proxy, held (every connection kept, nothing forwarded); 16 requests at once (reads and
   writes): each one's status and seconds; ``/readyz``'s; and ``/healthz`` asked every 20 ms
   meanwhile (p50, p99, max); then released, and the seconds until a read is 200 again.

Usage: ``PYTHONPATH=. python bench/outage_bench.py [--outages 8 20 60] [--hang 20]``.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record_bench import TOKEN, new_game, server
from tests.api.helpers import ORGANIZER_TOKEN
from tests.api.test_damaged_storage import a_legal_action, demo
from tests.api.test_operations import postgres_behind_proxy
from tests.api.test_storage_refusals import Ledger, app_on


def until(ok: Any, limit: float = 120.0) -> float:
    """Seconds until ``ok()`` is true (tried every 10 ms)."""
    started = time.monotonic()
    while not ok():
        if time.monotonic() - started > limit:
            return float("inf")
        time.sleep(0.01)
    return time.monotonic() - started


def outage(seconds: float) -> dict[str, Any]:
    with postgres_behind_proxy() as (proxy, url), tempfile.TemporaryDirectory() as tmp:
        app = app_on(url, Path(tmp))
        try:
            ledger = Ledger()
            game = demo(app, seed=3, actions=4)
            judge = {"Authorization": f"Bearer {game.tokens['judge']}"}
            path = f"/api/games/{game.game_id}/state"
            client = app.test_client()
            action = a_legal_action(app, game)
            proxy.cut()
            answers: set[int] = set()
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                answers.add(client.get(path, headers=judge).status_code)
                time.sleep(0.1)
            proxy.start()
            read = until(lambda: client.get(path, headers=judge).status_code == 200)
            write = until(lambda: ledger.post(app, game, action).status_code == 201)
            ready = until(lambda: client.get("/readyz").status_code == 200)
            ledger.all_there(app, game)
            return {
                "outage": seconds,
                "during": sorted(answers),
                "read": read,
                "write": write,
                "ready": ready,
            }
        finally:
            with contextlib.suppress(Exception):
                app.extensions["munchlog"].close()


def hang(seconds: float) -> dict[str, Any]:
    with postgres_behind_proxy() as (proxy, url), tempfile.TemporaryDirectory() as tmp:
        env = {
            "MUNCHLOG_ORGANIZER_TOKEN": TOKEN,
            "MUNCHLOG_INSTANCE": tmp,
            "MUNCHLOG_DATABASE_URL": url,
        }
        with server("granian", "api.ops.serving:worker_app", env) as base:
            games = [new_game(base, i) for i in range(4)]
            session = requests.Session()

            def request(i: int) -> tuple[str, int, float]:
                gid, table, hero = games[i % 4]
                started = time.monotonic()
                if i % 2:
                    r = requests.get(f"{base}/api/games/{gid}/state", timeout=120)
                    what = "read"
                else:
                    body = {"actions": [{"type": "activate", "seat": "A", "card": hero}]}
                    r = requests.post(
                        f"{base}/api/games/{gid}/actions",
                        json=body,
                        headers={"Authorization": f"Bearer {table}"},
                        timeout=120,
                    )
                    what = "write"
                return what, r.status_code, time.monotonic() - started

            health: list[float] = []
            stop = threading.Event()

            def probe() -> None:
                while not stop.is_set():
                    started = time.perf_counter()
                    r = session.get(f"{base}/healthz", timeout=120)
                    assert r.status_code == 200
                    health.append((time.perf_counter() - started) * 1000)
                    stop.wait(0.02)

            prober = threading.Thread(target=probe)
            proxy.hold()
            held = time.monotonic()
            prober.start()
            with ThreadPoolExecutor(17) as pool:
                ready = pool.submit(
                    lambda: (
                        lambda t: (
                            requests.get(f"{base}/readyz", timeout=120).status_code,
                            time.monotonic() - t,
                        )
                    )(time.monotonic())
                )
                answers = list(pool.map(request, range(16)))
            time.sleep(max(0.0, seconds - (time.monotonic() - held)))
            stop.set()
            prober.join()
            proxy.release()
            gid = games[0][0]
            back = until(
                lambda: (
                    requests.get(f"{base}/api/games/{gid}/state", timeout=120).status_code == 200
                )
            )
            ordered = sorted(health)
            return {
                "requests": answers,
                "readyz": ready.result(),
                "healthz_ms": {
                    "n": len(ordered),
                    "p50": statistics.median(ordered),
                    "p99": ordered[int(0.99 * (len(ordered) - 1))],
                    "max": ordered[-1],
                },
                "back": back,
            }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outages", type=float, nargs="*", default=[8, 20, 60])
    ap.add_argument("--hang", type=float, default=20, help="seconds the proxy holds (0: skip)")
    args = ap.parse_args()
    assert ORGANIZER_TOKEN
    for seconds in args.outages:
        r = outage(seconds)
        print(
            f"outage {r['outage']:g} s (answers during it: {r['during']}): back after: read "
            f"{r['read']:.2f} s, write {r['write']:.2f} s, /readyz {r['ready']:.2f} s",
            flush=True,
        )
    if args.hang:
        r = hang(args.hang)
        statuses = sorted({(w, s) for w, s, _ in r["requests"]})
        slowest = max(t for _, _, t in r["requests"])
        h = r["healthz_ms"]
        print(
            f"hang {args.hang:g} s: 16 requests at once: {statuses}, slowest {slowest:.2f} s; "
            f"/readyz {r['readyz'][0]} in {r['readyz'][1]:.2f} s; /healthz ({h['n']} asked) "
            f"p50 {h['p50']:.1f} ms, p99 {h['p99']:.1f} ms, max {h['max']:.1f} ms; a read "
            f"200 again {r['back']:.2f} s after the release",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
