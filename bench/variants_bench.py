"""variants_bench: munchlog's recording rate under several code versions or settings, side by side.

An A/B harness for changes to the recording path: each VARIANT is
``FOLDER[:THREADS[:WORKERS[:NAME=VALUE,...]]]``, a checkout of munchlog (a ``git worktree``, say)
served as ``munchlog serve`` serves it (granian, ``python -m api.ops.serving`` from that folder,
``api.serving`` in a checkout from before ``api/`` was split), with the environment variables
given (e.g. ``MUNCHLOG_BODY_READERS=0``) and 8 games each, against the bare endpoint with
munchlog's writer lock (``bench/bare_app.py``, this checkout); wrk drives 8 connections at each
in turn, for ``--rounds`` interleaved rounds of ``--seconds``. Prints each round and, per
variant, the median rate and its ratio to the bare endpoint's median -- the figure
``record_bench.py`` reports as "to the bare endpoint".

With ``--cpu`` it also reads, from ``/proc``, the CPU the server's processes used per request in
each run (user and system), their threads' context switches per request (voluntary: a wait, for
the GIL, a lock, a socket; involuntary: preempted), and how idle the machine was.

Usage: ``python bench/variants_bench.py [--seconds 8] [--rounds 3] [--cpu] . ../other-checkout:6``
(needs ``wrk``). The results of session 10 are in ``bench/RESULTS.md`` ("Session 10").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import record_bench as rb

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (from ``/proc/*/stat``)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(parents.get(p, []))
    return found


def cpu_of(pids: list[int]) -> tuple[float, float]:
    """(user, system) seconds used so far by ``pids``."""
    user = system = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        user += int(fields[11]) / TICKS
        system += int(fields[12]) / TICKS
    return user, system


def switches_of(pids: list[int]) -> tuple[int, int]:
    """(voluntary, involuntary) context switches so far of every thread of ``pids``."""
    vol = invol = 0
    for pid in pids:
        for status in Path(f"/proc/{pid}/task").glob("*/status"):
            try:
                text = status.read_text()
            except OSError:
                continue
            for line in text.splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    vol += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches:"):
                    invol += int(line.split()[1])
    return vol, invol


def machine() -> list[int]:
    return [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]


def measured(base: str, games_file: Path, seconds: int, server_pid: int | None) -> dict[str, Any]:
    """One wrk run of 8 connections; with ``server_pid``, the server's CPU per request too."""
    pids = descendants(server_pid) if server_pid else []
    before, m0, s0 = cpu_of(pids), machine(), switches_of(pids)
    run = rb.wrk(base, games_file, 8, seconds)
    after, m1, s1 = cpu_of(pids), machine(), switches_of(pids)
    if server_pid:
        n = run["requests"]
        run["user_us"] = (after[0] - before[0]) / n * 1e6
        run["system_us"] = (after[1] - before[1]) / n * 1e6
        run["switches"] = tuple((b - a) / n for a, b in zip(s0, s1, strict=True))
        delta = [b - a for a, b in zip(m0, m1, strict=True)]
        run["idle"] = (delta[3] + delta[4]) / sum(delta)
    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("variants", nargs="+", help="FOLDER[:THREADS[:WORKERS[:NAME=VALUE,...]]]")
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", action="store_true", help="server CPU per request, from /proc")
    args = ap.parse_args()
    names = [*args.variants, "bare, writer lock"]
    rates: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        targets: dict[str, tuple[str, Path, list[Any], int | None]] = {}
        for i, variant in enumerate(args.variants):
            folder, _, rest = variant.partition(":")
            threads, _, rest = rest.partition(":")
            workers, _, settings = rest.partition(":")
            root = Path(folder).resolve()
            instance = Path(tmp) / f"v{i}"
            instance.mkdir()
            port = rb.free_port()
            split = (root / "api" / "ops" / "serving.py").exists()
            cmd = [sys.executable, "-m", "api.ops.serving" if split else "api.serving"]
            cmd += ["--port", str(port), "--threads", threads or "4", "--workers", workers or "2"]
            env = {
                **os.environ,
                **dict(x.split("=", 1) for x in settings.split(",") if x),
                "PYTHONPATH": str(root),
                "MUNCHLOG_INSTANCE": str(instance),
                "MUNCHLOG_ORGANIZER_TOKEN": rb.TOKEN,
            }
            base = f"http://127.0.0.1:{port}"
            pid = stack.enter_context(_serving(variant, cmd, root, env, base))
            games_file, games = rb.eight_games_file(base, tmp, f"v{i}", 1)
            targets[variant] = (base, games_file, games, pid)
        port = rb.free_port()
        bare_env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "BARE_DB": str(Path(tmp) / "bare.sqlite"),
            "BARE_LOCK": "1",
        }
        cmd = [
            sys.executable,
            "-m",
            "api.ops.serving",
            "--port",
            str(port),
            "bench.bare_app:create_app",
        ]
        base = f"http://127.0.0.1:{port}"
        pid = stack.enter_context(_serving("bare", cmd, ROOT, bare_env, base))
        b1, b2 = rb.bodies("x")
        bare = Path(tmp) / "bare.txt"
        bare.write_text("\n".join(f"/bare none {b1} {b2}" for _ in range(8)) + "\n")
        targets["bare, writer lock"] = (base, bare, [], pid)
        for n in range(1, args.rounds + 1):
            for name, (base, games_file, games, pid) in targets.items():
                run = measured(base, games_file, args.seconds, pid if args.cpu else None)
                rates[name].append(run["rate"])
                cpu = (
                    f"  user {run['user_us']:.0f} + system {run['system_us']:.0f} µs a request,"
                    f" {run['switches'][0]:.1f} + {run['switches'][1]:.1f} context switches"
                    f" (voluntary + not), machine idle {run['idle']:.0%}"
                    if args.cpu
                    else ""
                )
                print(f"round {n}: {name}: {run['rate']:,.0f}/s{cpu}", flush=True)
                if games:
                    rb.settle(base, games)
    bare_median = statistics.median(rates["bare, writer lock"])
    for name in names:
        median = statistics.median(rates[name])
        rounds = ", ".join(f"{r:,.0f}" for r in rates[name])
        print(f"{name}: median {median:,.0f}/s, {median / bare_median:.3f} of the bare ({rounds})")
    return 0


@contextmanager
def _serving(
    name: str, cmd: list[str], root: Path, env: dict[str, str], base: str
) -> Iterator[int | None]:
    """:func:`record_bench.launched`, yielding the server's pid."""
    before = set(descendants(os.getpid()))
    with rb.launched(name, cmd, root, env, f"{base}/"):
        mine = [p for p in descendants(os.getpid()) if p not in before]
        yield min(mine) if mine else None


if __name__ == "__main__":
    raise SystemExit(main())
