"""inprocess_bench: munchlog's own CPU per recorded action, without an HTTP server.

Calls the app's WSGI callable directly, in one thread, with the same one-action batches
``record_bench.py`` sends (``activate`` / ``resolve`` of the active hero), on SQLite in a
temporary folder (``--dir``; put it on tmpfs, e.g. ``/dev/shm``, to take ``fsync`` out). What
it times is everything munchlog does for a request after the HTTP server has parsed it: Flask,
authentication, the body's parsing and validation, the rules, the envelope, encoding, the
insert and commit, the response.

Usage: ``PYTHONPATH=. python bench/inprocess_bench.py [--requests 4000] [--repeat 5]
[--profile out.prof] [--collapsed out.txt] [--clock wall|cpu]``. ``--profile`` writes a cProfile of one repeat
(``python -m pstats``, or snakeviz); ``--collapsed`` writes its stacks in the folded format
flame graph tools read (``flamegraph.pl``, speedscope).
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TOKEN = "inprocess-organizer"


def setup(folder: str) -> tuple[Any, str, str, str]:
    """An app on SQLite in ``folder`` and a game in munchkining: (app, game_id, token, hero)."""
    from api.app import create_app
    from api.cli.demo import FlaskTransport
    from bench.record_bench import game_body, setup_actions

    app = create_app({"INSTANCE_PATH": folder, "MUNCHLOG_ORGANIZER_TOKEN": TOKEN})
    transport = FlaskTransport(app)
    status, created = transport("POST", "/api/games", token=TOKEN, json=game_body("p"))
    assert status == 201, created
    gid, table = created["game_id"], created["table_token"]
    actions = setup_actions(created)
    status, out = transport(
        "POST", f"/api/games/{gid}/actions", token=table, json={"actions": actions}
    )
    assert status == 201, out
    status, state = transport("GET", f"/api/games/{gid}/state", token=table)
    return app, gid, table, state["seats"]["A"]["hero"]["id"]


def environ(path: str, token: str, body: bytes) -> dict[str, Any]:
    return {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "HTTP_AUTHORIZATION": f"Bearer {token}",
        "HTTP_HOST": "127.0.0.1:8000",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "wsgi.input_terminated": True,
    }


def run(app: Any, gid: str, table: str, hero: str, n: int, clock: Any = time.perf_counter) -> float:
    """Send ``n`` requests; return µs per request (by ``clock``: wall or this process's CPU)."""
    bodies = [
        json.dumps({"actions": [{"type": "activate", "seat": "A", "card": hero}]}).encode(),
        json.dumps({"actions": [{"type": "resolve", "seat": "A"}]}).encode(),
    ]
    path = f"/api/games/{gid}/actions"
    statuses: list[str] = []

    def start_response(status: str, headers: Any, exc_info: Any = None) -> None:
        statuses.append(status)

    t0 = clock()
    for i in range(n):
        b"".join(app(environ(path, table, bodies[i % 2]), start_response))
    elapsed = clock() - t0
    bad = [s for s in statuses if not s.startswith("201")]
    assert not bad, bad[:3]
    return elapsed / n * 1e6


def collapsed(stats: Any) -> str:
    """cProfile stats as folded stacks (caller chains weighted by inline time), for flame
    graphs. cProfile keeps only caller -> callee pairs, so each function's own time is spread
    over its callers in proportion to the calls they made (an approximation)."""
    entries = stats.stats  # (file, line, name) -> (cc, nc, tt, ct, callers)

    def label(key: tuple[str, int, str]) -> str:
        file, line, name = key
        return f"{name} ({Path(file).name}:{line})" if line else name

    memo: dict[Any, list[tuple[list[str], float]]] = {}

    def chains(key: Any, depth: int = 0) -> list[tuple[list[str], float]]:
        """Caller chains reaching ``key``, with the share of ``key``'s calls each carries."""
        if key in memo:
            return memo[key]
        callers = entries[key][4]
        if not callers or depth > 40:
            memo[key] = [([label(key)], 1.0)]
            return memo[key]
        total = sum(v[0] for v in callers.values()) or 1
        out = []
        for caller, v in callers.items():
            if caller == key or caller not in entries:
                continue
            for chain, share in chains(caller, depth + 1):
                out.append(([*chain, label(key)], share * v[0] / total))
        memo[key] = out or [([label(key)], 1.0)]
        return memo[key]

    lines = []
    for key, (_cc, _nc, tt, _ct, _callers) in entries.items():
        for chain, share in chains(key):
            weight = int(tt * share * 1e6)
            if weight:
                lines.append(f"{';'.join(chain)} {weight}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", help="folder for the SQLite file (default: a temporary folder)")
    ap.add_argument("--profile", type=Path)
    ap.add_argument("--collapsed", type=Path)
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall time, or the process's CPU time (steadier on a busy machine; leaves out "
        "time spent waiting, e.g. for fsync)",
    )
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        app, gid, table, hero = setup(folder)
        run(app, gid, table, hero, 200)  # warm up
        times = [run(app, gid, table, hero, args.requests, clock) for _ in range(args.repeat)]
        print(
            f"{statistics.median(times):.1f} µs per request ({args.clock} clock; median of {args.repeat} x "
            f"{args.requests}; runs: {', '.join(f'{t:.1f}' for t in times)})"
        )
        if args.profile or args.collapsed:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            run(app, gid, table, hero, args.requests)
            prof.disable()
            if args.profile:
                prof.dump_stats(args.profile)
            if args.collapsed:
                args.collapsed.write_text(collapsed(pstats.Stats(prof)))
        app.extensions["munchlog"].close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
