"""record_bench: actions recorded per second over HTTP, under gunicorn (2 workers, SQLite).

Measured in the same run, with the same gunicorn settings and the same load generator (wrk):

1. munchlog, one game, one connection;
2. munchlog, 8 concurrent games, one connection each;
3. the practical limit: a bare Flask endpoint inserting the same JSON bodies into SQLite
   (``bench/bare_app.py``), concurrency 8 -- plain, and with munchlog's writer lock
   (``adapters/sqlite_writer.py``); the ratio is taken against the faster of the two;
4. latency as a game grows: one game driven sequentially to ``--latency-actions`` actions; the
   median latency of the actions around #10 and around #2,000.

Each munchlog request is a one-action batch, alternately ``activate`` (the active hero's ability)
and ``resolve``: legal forever in strict mode, so games can be as long as we like.

Usage: ``python bench/record_bench.py [--seconds 10] [--write]`` (needs ``wrk``: ``apt-get
install wrk``). ``--write`` replaces the record section of ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench-organizer-token"
#: munchlog's production settings (api/gunicorn_conf.py); BENCH_WORKERS and BENCH_THREADS
#: override them for experiments.
GUNICORN = [
    sys.executable,
    "-m",
    "gunicorn",
    "--config",
    "python:api.gunicorn_conf",
    *(["--workers", os.environ["BENCH_WORKERS"]] if os.environ.get("BENCH_WORKERS") else []),
    *(["--threads", os.environ["BENCH_THREADS"]] if os.environ.get("BENCH_THREADS") else []),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(app: str, env: dict[str, str]):  # type: ignore[no-untyped-def]
    """gunicorn serving ``app`` on a free port, once it answers HTTP; its log goes to a temporary
    file that is printed if it dies."""
    port = free_port()
    log = tempfile.NamedTemporaryFile("w+", suffix=".log")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [*GUNICORN, "--bind", f"127.0.0.1:{port}", app],
        cwd=ROOT,
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"gunicorn did not start ({app}):\n{log.read()[-3000:]}")
            try:
                requests.get(f"{base}/", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def deck(names: list[str], n: int) -> list[dict[str, Any]]:
    return [{"name": names[i % len(names)]} for i in range(n)]


def new_game(base: str, i: int) -> tuple[str, str, str]:
    """A game in munchkining, turn 1, seat A active. Returns (game_id, table_token, hero_id)."""
    from domain import sample_catalog

    cat = sample_catalog()
    names = [c["name"] for c in cat.cards.values() if c["type"] != "hero"]
    body = {
        "ruleset": "munchkin-ccg",
        "mode": "strict",
        "format": "casual",
        "seats": [
            {"seat": s, "player": f"bench-{i}-{s}", "hero": {"name": h}, "deck": deck(names, 20)}
            for s, h in (("A", "Sample Orc Warrior"), ("B", "Sample Gnome Thief"))
        ],
        "labels": {"event": "record-bench"},
    }
    hdr = {"Authorization": f"Bearer {TOKEN}"}
    r = requests.post(f"{base}/api/games", json=body, headers=hdr, timeout=30)
    r.raise_for_status()
    created = r.json()
    gid, table = created["game_id"], created["table_token"]
    cards = {s: [c["id"] for c in created["seats"][s]["cards"]] for s in "AB"}
    actions = [
        {"type": "draw_opening", "seat": "A", "cards": cards["A"][:6]},
        {"type": "draw_opening", "seat": "B", "cards": cards["B"][:6]},
        {"type": "roll_first", "seat": "A", "rolls": {"A": 6, "B": 1}},
        {"type": "choose_first", "seat": "A", "first": "A"},
        {"type": "keep", "seat": "A"},
        {"type": "keep", "seat": "B"},
        {"type": "draw", "seat": "A", "card": cards["A"][6]},
    ]
    hdr = {"Authorization": f"Bearer {table}"}
    r = requests.post(
        f"{base}/api/games/{gid}/actions", json={"actions": actions}, headers=hdr, timeout=30
    )
    r.raise_for_status()
    state = requests.get(f"{base}/api/games/{gid}/state", headers=hdr, timeout=30).json()
    assert state["phase"] == "munchkining", state
    return gid, table, state["seats"]["A"]["hero"]["id"]


def bodies(hero: str) -> tuple[str, str]:
    activate = {"actions": [{"type": "activate", "seat": "A", "card": hero}]}
    resolve = {"actions": [{"type": "resolve", "seat": "A"}]}
    return json.dumps(activate, separators=(",", ":")), json.dumps(resolve, separators=(",", ":"))


def wrk(base: str, games_file: Path, connections: int, seconds: int) -> dict[str, float]:
    proc = subprocess.run(
        [
            "wrk",
            f"-t{connections}",
            f"-c{connections}",
            f"-d{seconds}s",
            "-s",
            str(ROOT / "bench" / "record.lua"),
            base,
        ],
        env={**os.environ, "GAMES_FILE": str(games_file)},
        capture_output=True,
        text=True,
        check=True,
    )
    if proc.stderr.strip():
        print(proc.stderr.strip(), file=sys.stderr)
    out = proc.stdout
    m = re.search(
        r"RESULT requests=(\d+) seconds=([\d.]+) non201=(\d+) p50_ms=([\d.]+) p99_ms=([\d.]+)", out
    )
    assert m, out
    req, sec, bad, p50, p99 = (float(x) for x in m.groups())
    return {
        "requests": req,
        "seconds": sec,
        "non201": bad,
        "rate": req / sec,
        "p50_ms": p50,
        "p99_ms": p99,
    }


def settle(base: str, games: list[tuple[str, str, str]]) -> None:
    """Leave no ability on the stack, so the next wrk run (which starts with ``activate``) is
    legal: a run may stop between an ``activate`` and its ``resolve``. Requests wrk sent just
    before it stopped may still be in the server: wait for them first."""
    time.sleep(0.5)
    for gid, table, hero in games:
        _, resolve = bodies(hero)
        r = requests.post(
            f"{base}/api/games/{gid}/actions",
            data=resolve,
            headers={"Authorization": f"Bearer {table}", "Content-Type": "application/json"},
            timeout=30,
        )
        assert r.status_code in (201, 422), r.text  # 422: nothing was left to resolve


def latency_run(base: str, actions: int) -> dict[str, float]:
    gid, table, hero = new_game(base, 999)
    b1, b2 = bodies(hero)
    session = requests.Session()
    session.headers.update({"Authorization": f"Bearer {table}", "Content-Type": "application/json"})
    url = f"{base}/api/games/{gid}/actions"
    lat: list[float] = []
    for i in range(actions):
        t0 = time.perf_counter()
        r = session.post(url, data=b1 if i % 2 == 0 else b2, timeout=30)
        lat.append(time.perf_counter() - t0)
        assert r.status_code == 201, (i, r.status_code, r.text)

    def around(n: int, w: int = 10) -> float:
        return statistics.median(lat[max(0, n - w) : n + w]) * 1000

    late = around(min(2000, actions - 10))
    return {"at_10_ms": around(10), "at_2000_ms": late, "ratio": late / around(10)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--latency-actions", type=int, default=2010)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the 8-way runs")
    ap.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    ap.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        print("record_bench needs wrk (apt-get install wrk)", file=sys.stderr)
        return 2
    results: dict[str, Any] = {"rounds": {"eight_games": [], "bare": [], "bare_locked": []}}
    rounds = results["rounds"]
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        env = {"MUNCHLOG_INSTANCE": tmp, "MUNCHLOG_ORGANIZER_TOKEN": TOKEN}
        base = stack.enter_context(server("api.app:create_app()", env))
        bare_bases = {
            name: stack.enter_context(
                server(
                    "bench.bare_app:create_app()",
                    {"BARE_DB": str(Path(tmp) / f"{name}.sqlite"), **extra},
                )
            )
            for name, extra in (("bare", {}), ("bare_locked", {"BARE_LOCK": "1"}))
        }
        games = [new_game(base, i) for i in range(9)]  # game 0 alone, then 1-8
        lines = []
        for gid, table, hero in games:
            b1, b2 = bodies(hero)
            lines.append(f"/api/games/{gid}/actions {table} {b1} {b2}")
        one = Path(tmp) / "one.txt"
        one.write_text(lines[0] + "\n")
        eight = Path(tmp) / "eight.txt"
        eight.write_text("\n".join(lines[1:]) + "\n")
        b1, b2 = bodies("x")
        bare = Path(tmp) / "bare.txt"
        bare.write_text("\n".join(f"/bare none {b1} {b2}" for _ in range(8)) + "\n")
        print("munchlog, 1 game ...", flush=True)
        results["one_game"] = wrk(base, one, 1, args.seconds)
        # Interleaved rounds, so that all three see the same machine (load, disk, page cache).
        for n in range(1, args.rounds + 1):
            print(f"round {n}/{args.rounds}: munchlog 8 games, bare, bare+lock ...", flush=True)
            rounds["eight_games"].append(wrk(base, eight, 8, args.seconds))
            settle(base, games[1:])
            for name, bare_base in bare_bases.items():
                rounds[name].append(wrk(bare_base, bare, 8, args.seconds))
        print(f"latency over {args.latency_actions} actions ...", flush=True)
        results["latency"] = latency_run(base, args.latency_actions)
    for name, runs in rounds.items():
        results[name] = sorted(runs, key=lambda r: r["rate"])[len(runs) // 2]  # the median run
    best_bare = max(results["bare"]["rate"], results["bare_locked"]["rate"])
    results["ratio_to_bare"] = results["eight_games"]["rate"] / best_bare
    results["round_ratios"] = [
        m["rate"] / max(b["rate"], bl["rate"])
        for m, b, bl in zip(
            rounds["eight_games"], rounds["bare"], rounds["bare_locked"], strict=True
        )
    ]
    print(json.dumps(results, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    if args.write:
        write_results(results, args)
    return 0


def write_results(r: dict[str, Any], args: argparse.Namespace) -> None:
    path = ROOT / "bench" / "RESULTS.md"
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    when = datetime.now(UTC).strftime("%Y-%m-%d")
    rounds = r["rounds"]

    def spread(name: str) -> str:
        rates = sorted(run["rate"] for run in rounds[name])
        return f"{rates[0]:,.0f}-{rates[-1]:,.0f}"

    def row(label: str, name: str, runs: str) -> str:
        x = r[name]
        return (
            f"| {label} | **{x['rate']:,.0f}** | {runs} | {x['p50_ms']:.2f} | {x['p99_ms']:.2f} "
            f"| {x['non201']:.0f} |"
        )

    ratios = ", ".join(f"{x:.2f}" for x in r["round_ratios"])
    from api import gunicorn_conf as conf

    workers = os.environ.get("BENCH_WORKERS") or conf.workers
    threads = os.environ.get("BENCH_THREADS") or conf.threads
    overridden = (
        " (BENCH_WORKERS/BENCH_THREADS overriding)"
        if os.environ.get("BENCH_WORKERS") or os.environ.get("BENCH_THREADS")
        else ""
    )
    section = f"""## Recording over HTTP (issue #3) — `bench/record_bench.py`

Command: `python bench/record_bench.py --seconds {args.seconds} --rounds {args.rounds} --write`
({when}; {os.cpu_count()} cores, Python {platform.python_version()}, gunicorn as `api/gunicorn_conf.py` sets it{overridden}:
{workers} gthread workers x {threads} threads, at most {conf.KEEPALIVE_REQUESTS} requests per keep-alive connection;
SQLite with `synchronous=FULL` (its default: every commit is fsynced); load from `wrk` on the
same {os.cpu_count()} cores). Each request is a one-action batch (`activate` / `resolve`, alternating). The
8-way runs are {args.rounds} interleaved rounds of {args.seconds} s (munchlog, bare, bare + lock);
the table shows the median round and the range.

| run | req/s (median) | range | p50 ms | p99 ms | non-201 |
|---|---|---|---|---|---|
| munchlog, 1 game, 1 connection | **{r["one_game"]["rate"]:,.0f}** | one run | {r["one_game"]["p50_ms"]:.2f} | {r["one_game"]["p99_ms"]:.2f} | {r["one_game"]["non201"]:.0f} |
{row("munchlog, 8 games, 8 connections", "eight_games", spread("eight_games"))}
{row("bare Flask + SQLite insert, 8 connections", "bare", spread("bare"))}
{row("bare, inserting under munchlog's writer lock", "bare_locked", spread("bare_locked"))}

- 8 games: **{r["eight_games"]["rate"]:,.0f}** actions/s (goal ≥ 1,000); against the faster bare
  endpoint: **{r["ratio_to_bare"]:.2f}** (goal ≥ 0.6; per round: {ratios}).
- Latency as a game grows (one game, sequential): median around action 10 = {r["latency"]["at_10_ms"]:.2f} ms,
  around action 2,000 = {r["latency"]["at_2000_ms"]:.2f} ms, ratio **{r["latency"]["ratio"]:.2f}** (goal ≤ 1.5).
"""
    notes = ROOT / "bench" / "record_notes.md"
    if notes.exists():
        section += "\n" + notes.read_text()
    pattern = re.compile(r"## Recording over HTTP.*?(?=\n## |\Z)", re.S)
    text = (
        pattern.sub(section.strip() + "\n", text)
        if pattern.search(text)
        else text.rstrip() + "\n\n" + section
    )
    path.write_text(text)


if __name__ == "__main__":
    raise SystemExit(main())
