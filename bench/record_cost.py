"""record_cost: CPU instructions per recorded action, counted by callgrind (not timed).

A count of instructions does not move with the machine's load, so two commits can be compared
on a busy machine, and a bisection can follow it commit by commit (issue #45). The workload is
``bench/inprocess_bench.py``'s (taken from the tree measured, so each commit runs its own
``setup`` and ``run``): one game on SQLite in a temporary folder, one-action batches
(``activate`` / ``resolve``) sent to the app's WSGI callable in one thread. Callgrind runs with
its instrumentation off through the imports, the app's start, the game's setup and a warm-up of
``--warmup`` requests; the driver then switches it on (``callgrind_control -i on``), sends
``--requests`` requests, and switches it off: the total divided by ``--requests`` is the cost of
one recorded action, every thread of the process counted.

Usage: ``python bench/record_cost.py [--tree CHECKOUT] [--requests 300] [--stack app|worker]
[--out FILE]``: prints the instructions per request (``callgrind_annotate FILE`` shows where
they go). ``--tree`` measures another checkout (a ``git worktree add --detach``; the venv's
packages serve both, the checkout's own code is imported first). ``--stack worker`` wraps the
app in the middlewares ``munchlog serve``'s workers put around it (``api.ops.serving``'s access
log, keep-alive spread and whole-body reader, when the tree has them), as granian calls it.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _worker_stack(app: Any) -> Any:
    """``app`` wrapped as the tree's ``worker_app`` wraps it (no threads started, no process
    settings changed): the keep-alive spread, the access log, the whole-body reader."""
    import importlib

    split = (Path.cwd() / "api" / "ops" / "serving.py").exists()  # api/ split by program
    serving = importlib.import_module("api.ops.serving" if split else "api.serving")
    app.wsgi_app = serving.SpreadKeepAlive(app.wsgi_app)
    if hasattr(serving, "AccessLog"):
        app.wsgi_app = serving.AccessLog(app.wsgi_app, as_json=False)
    if hasattr(serving, "_whole_body"):
        os.environ.setdefault("MUNCHLOG_THREADS", "4")
        app = serving._whole_body(app)
    return app


def inner(tree: Path, requests: int, warmup: int, stack: str) -> None:
    """Runs inside callgrind: set up, warm up, count ``requests`` requests."""
    sys.path.insert(0, str(tree))
    os.chdir(tree)
    import api
    from bench import inprocess_bench as ib  # the tree's own workload

    assert Path(api.__file__).resolve().is_relative_to(tree), api.__file__

    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as d:
        app, gid, table, hero = ib.setup(d)
        if stack == "worker":
            app = _worker_stack(app)
        ib.run(app, gid, table, hero, warmup)
        pid = str(os.getpid())
        subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
        ib.run(app, gid, table, hero, requests)
        subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)
        if hasattr(app, "extensions"):
            app.extensions["munchlog"].close()


def count(tree: Path, requests: int, warmup: int, stack: str, out: Path) -> int:
    """Run :func:`inner` under callgrind; return the instructions counted."""
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out}",
        sys.executable,
        str(Path(__file__).resolve()),
        "--inner",
        "--tree",
        str(tree),
        "--requests",
        str(requests),
        "--warmup",
        str(warmup),
        "--stack",
        stack,
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    done = subprocess.run(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    if done.returncode:
        raise SystemExit(f"callgrind run failed:\n{done.stderr[-4000:]}")
    text = out.read_text()
    match = re.search(r"^totals: (\d+)", text, re.MULTILINE)
    assert match, f"no total in {out}"
    return int(match.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", type=Path, default=ROOT)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--stack", choices=("app", "worker"), default="app")
    ap.add_argument("--out", type=Path, help="keep callgrind's profile here")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    tree = args.tree.resolve()
    if args.inner:
        inner(tree, args.requests, args.warmup, args.stack)
        return 0
    with tempfile.TemporaryDirectory() as d:
        out = args.out or Path(d) / "callgrind.out"
        total = count(tree, args.requests, args.warmup, args.stack, out)
    print(
        f"{total / args.requests:,.0f} instructions per request ({args.stack}; {args.requests} requests)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
