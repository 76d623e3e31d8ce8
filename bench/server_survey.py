"""server_survey: which HTTP server records munchlog's games fastest (issue #11's choice).

Every candidate that serves a Flask (WSGI) app and installs from wheels with no compiler, each
with munchlog's settings where it has them (2 worker processes x 4 threads; one process x 8
threads where the server has no processes), serving:

* munchlog (``api.ops.serving:worker_app``), 8 games, 8 connections (``record_bench``'s load);
* the bare Flask + SQLite insert under munchlog's writer lock (``bench/bare_app.py``);
* a bare Flask JSON echo (``/``), the server's own ceiling.

Candidates: granian (Rust, WSGI interface), gunicorn gthread, uWSGI (``pyuwsgi`` wheels: C,
``--http`` router, threads), waitress (pure Python; one process). The runs are interleaved in
rounds so every server sees the same machine. Servers not installed are skipped with a note
(``pip install granian gunicorn pyuwsgi waitress``).

Usage: ``python bench/server_survey.py [--seconds 8] [--rounds 2] [--servers a,b] [--json F]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record_bench import (
    TOKEN,
    bodies,
    eight_games_file,
    free_port,
    launched,
    settle,
    wrk,
)

ROOT = Path(__file__).resolve().parents[1]
WORKERS, THREADS = 2, 4


def command(server: str, target: str, port: int) -> list[str]:
    """The command serving the app factory ``target`` ("module:function") on ``port``."""
    py = sys.executable
    module, _, factory = target.partition(":")
    if server in ("granian", "gunicorn"):
        return [py, "-m", "api.ops.serving", "--server", server, "--port", str(port), target]
    if server == "uwsgi":
        return [
            os.path.join(os.path.dirname(py), "uwsgi"),
            "--http",
            f"127.0.0.1:{port}",
            "--master",
            "--processes",
            str(WORKERS),
            "--threads",
            str(THREADS),
            "--lazy-apps",  # the app is built in each worker, after the fork
            "--module",
            f"{module}:{factory}()",
            "--disable-logging",
            "--die-on-term",
            "--http-keepalive",
        ]
    if server == "waitress":
        return [
            py,
            "-m",
            "waitress",
            "--listen",
            f"127.0.0.1:{port}",
            "--threads",
            str(WORKERS * THREADS),
            "--call",
            target,
        ]
    raise ValueError(server)


def installed(server: str) -> bool:
    return importlib.util.find_spec({"uwsgi": "pyuwsgi"}.get(server, server)) is not None


@contextmanager
def serve(server: str, target: str, env: dict[str, str]):  # type: ignore[no-untyped-def]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    full_env = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
    with launched(
        f"{server} serving {target}", command(server, target, port), ROOT, full_env, f"{base}/"
    ):
        yield base


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--servers", default="granian,gunicorn,uwsgi,waitress")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    servers = [s for s in args.servers.split(",") if s]
    for s in [s for s in servers if not installed(s)]:
        print(f"{s}: not installed, skipped", file=sys.stderr)
        servers.remove(s)
    results: dict[str, dict[str, list[float]]] = {
        s: {"munchlog": [], "bare_locked": [], "echo": [], "munchlog_p99": []} for s in servers
    }
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        setups = []
        for s in servers:
            folder = Path(tmp) / s
            folder.mkdir()
            env = {"MUNCHLOG_INSTANCE": str(folder), "MUNCHLOG_ORGANIZER_TOKEN": TOKEN}
            base = stack.enter_context(serve(s, "api.ops.serving:worker_app", env))
            eight, games = eight_games_file(base, str(folder), "eight", 1)
            bare = stack.enter_context(
                serve(
                    s,
                    "bench.bare_app:create_app",
                    {"BARE_DB": str(folder / "bare.sqlite"), "BARE_LOCK": "1"},
                )
            )
            setups.append((s, base, eight, games, bare))
        b1, b2 = bodies("x")
        bare_file = Path(tmp) / "bare.txt"
        bare_file.write_text("\n".join(f"/bare none {b1} {b2}" for _ in range(8)) + "\n")
        echo_file = Path(tmp) / "echo.txt"
        echo_file.write_text("\n".join(f"/echo none {b1} {b2}" for _ in range(8)) + "\n")
        for n in range(1, args.rounds + 1):
            for s, base, eight, games, bare in setups:
                print(f"round {n}: {s} ...", flush=True)
                m = wrk(base, eight, 8, args.seconds)
                settle(base, games)
                results[s]["munchlog"].append(m["rate"])
                results[s]["munchlog_p99"].append(m["p99_ms"])
                results[s]["bare_locked"].append(wrk(bare, bare_file, 8, args.seconds)["rate"])
                results[s]["echo"].append(wrk(bare, echo_file, 8, args.seconds)["rate"])
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    print("\n| server | munchlog, 8 games /s | p99 ms | bare + lock /s | echo /s |")
    print("|---|---|---|---|---|")
    for s, r in results.items():

        def fmt(xs: list[float]) -> str:
            return " / ".join(f"{x:,.0f}" for x in xs)

        p99 = " / ".join(f"{x:.1f}" for x in r["munchlog_p99"])
        print(
            f"| {s} | {fmt(r['munchlog'])} | {p99} | {fmt(r['bare_locked'])} | {fmt(r['echo'])} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
