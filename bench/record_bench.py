"""record_bench: actions recorded per second over HTTP, against the practical limit and the peer.

Measured in one run, under the server ``munchlog serve`` runs (``api/ops/serving.py``; ``--server``
picks another), with the same load generator (wrk) for munchlog and the bare endpoints:

1. munchlog, one game, one connection;
2. munchlog, 8 concurrent games, one connection each;
3. the practical limit: a bare Flask endpoint inserting the same JSON bodies into SQLite
   (``bench/bare_app.py``) under the same server, concurrency 8 -- plain, and with munchlog's
   writer lock (``adapters/sqlite_writer.py``); the ratio is taken against the faster of the two;
4. the peer (``--peer DIR``: the boardgame.io benchmark folder with its ``server.js`` and
   ``bench.js``): boardgame.io's own server, in memory, 8 concurrent matches, moves over its
   socket.io transport, run in the same rounds;
5. PostgreSQL (``--postgres URL``, default the local test database; ``--postgres ''`` skips):
   munchlog on PostgreSQL against the bare endpoint inserting into PostgreSQL, same server;
6. latency as a game grows: one game driven sequentially to ``--latency-actions`` actions; the
   median latency of the actions around #10 and around #2,000.

The 8-way runs are interleaved rounds (munchlog, bare, bare + lock, peer, then the PostgreSQL
pair; each round starts one run later than the one before, so that no run always follows the
same one), so that all of them see the same machine; each figure is the median round.

Each munchlog request is a one-action batch, alternately ``activate`` (the active hero's ability)
and ``resolve``: legal forever in strict mode, so games can be as long as we like.

Usage: ``python bench/record_bench.py [--seconds 10] [--rounds 3] [--peer DIR] [--write]``
(needs ``wrk``: ``apt-get install wrk``; the peer needs node and its ``npm install``).
``--write`` replaces the record section of ``bench/RESULTS.md``.
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
PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"
#: Overrides for experiments (default: munchlog's production settings, api/ops/serving.py).
WORKERS = os.environ.get("BENCH_WORKERS")
THREADS = os.environ.get("BENCH_THREADS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def launched(name: str, cmd: list[str], cwd: Path, env: dict[str, str], probe: str):  # type: ignore[no-untyped-def]
    """Run ``cmd`` with its output in a temporary log, until ``probe`` (a URL) answers HTTP;
    stop it after (SIGTERM, then SIGKILL). The log is printed when it fails to start, when it
    died while in use, or when the ``with`` block raised."""
    log = tempfile.NamedTemporaryFile("w+", suffix=".log")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)

    def tail() -> str:  # the log without access-log lines
        log.seek(0)
        return "\n".join(x for x in log.read().splitlines() if "HTTP/1.1" not in x)[-8000:]

    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start:\n{tail()}")
            try:
                requests.get(probe, timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        try:
            yield
        except BaseException:
            print(f"{name}:\n{tail()}", file=sys.stderr)
            raise
        if proc.poll() is not None:  # it died under load: say why
            print(f"{name} exited with {proc.returncode}:\n{tail()}", file=sys.stderr)
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()


@contextmanager
def server(kind: str, app: str, env: dict[str, str]):  # type: ignore[no-untyped-def]
    """``kind`` (granian or gunicorn, with munchlog's settings: ``python -m api.ops.serving``)
    serving the app factory ``app`` on a free port, once it answers HTTP (:func:`launched`)."""
    port = free_port()
    cmd = [sys.executable, "-m", "api.ops.serving", "--server", kind, "--port", str(port), app]
    cmd += ["--workers", WORKERS] if WORKERS else []
    cmd += ["--threads", THREADS] if THREADS else []
    base = f"http://127.0.0.1:{port}"
    full_env = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
    with launched(f"{kind} serving {app}", cmd, ROOT, full_env, f"{base}/"):
        yield base


def deck(names: list[str], n: int) -> list[dict[str, Any]]:
    return [{"name": names[i % len(names)]} for i in range(n)]


def game_body(player_prefix: str, labels: dict[str, Any] | None = None) -> dict[str, Any]:
    """A strict casual CCG game of two sample heroes (their text unchecked) and 20-card decks
    from the sample catalog."""
    from domain.ccg.cards import sample_catalog

    names = [c["name"] for c in sample_catalog().cards.values() if c["type"] != "hero"]
    body: dict[str, Any] = {
        "ruleset": "munchkin-ccg",
        "mode": "strict",
        "format": "casual",
        "seats": [
            {
                "seat": s,
                "player": f"{player_prefix}-{s}",
                # The Hero's text is left unchecked (abilities: null, a casual custom card) so
                # the workload can activate and resolve it again and again, as before #13.
                "hero": {**sample_catalog().get(h), "abilities": None},
                "deck": deck(names, 20),
            }
            for s, h in (("A", "Sample Orc Warrior"), ("B", "Sample Gnome Thief"))
        ],
    }
    if labels is not None:
        body["labels"] = labels
    return body


def setup_actions(created: dict[str, Any]) -> list[dict[str, Any]]:
    """The setup (A.7) that takes the game of :func:`game_body` (its 201 body or an import's)
    to munchkining, turn 1, seat A active."""
    cards = {s: [c["id"] for c in created["seats"][s]["cards"]] for s in "AB"}
    return [
        {"type": "draw_opening", "seat": "A", "cards": cards["A"][:6]},
        {"type": "draw_opening", "seat": "B", "cards": cards["B"][:6]},
        {"type": "roll_first", "seat": "A", "rolls": {"A": 6, "B": 1}},
        {"type": "choose_first", "seat": "A", "first": "A"},
        {"type": "keep", "seat": "A"},
        {"type": "keep", "seat": "B"},
        {"type": "draw", "seat": "A", "card": cards["A"][6]},
    ]


def set_up_game(base: str, i: int, event: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game of :func:`game_body` taken through its setup to munchkining, turn 1, seat A
    active: its ``201`` body and the table's view of its state."""
    body = game_body(f"bench-{i}", {"event": event})
    hdr = {"Authorization": f"Bearer {TOKEN}"}
    r = requests.post(f"{base}/api/games", json=body, headers=hdr, timeout=30)
    r.raise_for_status()
    created = r.json()
    gid, table = created["game_id"], created["table_token"]
    hdr = {"Authorization": f"Bearer {table}"}
    r = requests.post(
        f"{base}/api/games/{gid}/actions",
        json={"actions": setup_actions(created)},
        headers=hdr,
        timeout=30,
    )
    r.raise_for_status()
    state = requests.get(f"{base}/api/games/{gid}/state", headers=hdr, timeout=30).json()
    assert state["phase"] == "munchkining", state
    return created, state


def new_game(base: str, i: int) -> tuple[str, str, str]:
    """A game in munchkining, turn 1, seat A active. Returns (game_id, table_token, hero_id)."""
    created, state = set_up_game(base, i, "record-bench")
    return created["game_id"], created["table_token"], state["seats"]["A"]["hero"]["id"]


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


@contextmanager
def peer_server(peer: Path):  # type: ignore[no-untyped-def]
    """boardgame.io's own server (the peer's ``server.js``), in memory, on a free port."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "STORAGE": "memory", "NODE_ENV": "production"}
    probe = f"http://127.0.0.1:{port}/games"
    with launched("the peer", ["node", "server.js"], peer, env, probe):
        peer_run(peer, port, "seq", moves=200)  # warm up, as the peer's own run.sh does
        yield port


def peer_run(peer: Path, port: int, mode: str, **opts: int) -> dict[str, Any]:
    """One run of the peer's load client (``bench.js``); its RESULT line as a dict."""
    args = [x for k, v in opts.items() for x in (f"--{k}", str(v))]
    proc = subprocess.run(
        ["node", "bench.js", "--port", str(port), "--mode", mode, *args],
        cwd=peer,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
    return dict(json.loads(line.removeprefix("RESULT ")))


def peer_conc(peer: Path, port: int, matches: int, moves: int, reps: int) -> dict[str, float]:
    """The peer at ``matches`` concurrent matches: the median of ``reps`` runs (its own run.sh
    makes 3 runs of 8 matches x 250 moves)."""
    runs = sorted(
        (peer_run(peer, port, "conc", matches=matches, moves=moves) for _ in range(reps)),
        key=lambda r: r["moves_per_s"],
    )
    mid = runs[len(runs) // 2]
    return {
        "rate": mid["moves_per_s"],
        "p50_ms": mid["p50_ms"],
        "p99_ms": mid["p99_ms"],
        "moves": mid["moves"],
        "runs": [r["moves_per_s"] for r in runs],
    }


def postgres_schema_url(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}schema={schema}"


def create_schema(url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')


def drop_schemas(url: str, schemas: list[str]) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for schema in schemas:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def postgres_reachable(url: str) -> str | None:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3):
            return None
    except Exception as exc:  # any failure means: skip, and say why
        return f"{exc.__class__.__name__}: {exc}"


def eight_games_file(base: str, tmp: str, name: str, first: int) -> tuple[Path, list[Any]]:
    games = [new_game(base, first + i) for i in range(8)]
    lines = []
    for gid, table, hero in games:
        b1, b2 = bodies(hero)
        lines.append(f"/api/games/{gid}/actions {table} {b1} {b2}")
    path = Path(tmp) / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, games


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return sorted(runs, key=lambda r: r["rate"])[len(runs) // 2]


def main() -> int:
    from api.ops import serving

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--latency-actions", type=int, default=2010)
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of the 8-way runs")
    ap.add_argument("--server", choices=serving.SERVERS, default=serving.DEFAULT_SERVER)
    ap.add_argument("--peer", type=Path, help="the boardgame.io peer benchmark's folder")
    ap.add_argument("--peer-moves", type=int, default=250, help="moves per match per peer run")
    ap.add_argument("--peer-reps", type=int, default=3, help="peer runs per round")
    ap.add_argument(
        "--postgres",
        default=os.environ.get("MUNCHLOG_TEST_DATABASE_URL", PG_DEFAULT),
        help="PostgreSQL URL for the PostgreSQL pair ('' to skip)",
    )
    ap.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    ap.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        print("record_bench needs wrk (apt-get install wrk)", file=sys.stderr)
        return 2
    if args.peer and not (args.peer / "bench.js").exists():
        print(f"--peer {args.peer}: no bench.js there", file=sys.stderr)
        return 2
    pg_url = args.postgres or None
    if pg_url and (why := postgres_reachable(pg_url)):
        print(f"PostgreSQL pair skipped: {why}", file=sys.stderr)
        pg_url = None
    names = ["eight_games", "bare", "bare_locked"]
    names += ["peer"] if args.peer else []
    names += ["pg_eight_games", "pg_bare"] if pg_url else []
    results: dict[str, Any] = {
        "server": args.server,
        "workers": WORKERS or serving.WORKERS,
        "threads": THREADS or serving.THREADS,
        "seconds": args.seconds,
        "rounds": {name: [] for name in names},
        "when": datetime.now(UTC).strftime("%Y-%m-%d"),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
    }
    rounds = results["rounds"]
    tag = f"bench_{os.getpid()}"
    schemas = [f"{tag}_munchlog", f"{tag}_bare"]
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        if pg_url:
            stack.callback(drop_schemas, pg_url, schemas)
            create_schema(pg_url, schemas[0])
        env = {"MUNCHLOG_INSTANCE": tmp, "MUNCHLOG_ORGANIZER_TOKEN": TOKEN}
        kind = args.server
        app = serving.TARGET
        base = stack.enter_context(server(kind, app, env))
        bare_app = "bench.bare_app:create_app"
        bare_bases = {
            name: stack.enter_context(
                server(kind, bare_app, {"BARE_DB": str(Path(tmp) / f"{name}.sqlite"), **extra})
            )
            for name, extra in (("bare", {}), ("bare_locked", {"BARE_LOCK": "1"}))
        }
        one_game = new_game(base, 0)
        b1, b2 = bodies(one_game[2])
        one = Path(tmp) / "one.txt"
        one.write_text(f"/api/games/{one_game[0]}/actions {one_game[1]} {b1} {b2}\n")
        eight, games = eight_games_file(base, tmp, "eight", 1)
        b1, b2 = bodies("x")
        bare = Path(tmp) / "bare.txt"
        bare.write_text("\n".join(f"/bare none {b1} {b2}" for _ in range(8)) + "\n")
        peer_port = stack.enter_context(peer_server(args.peer)) if args.peer else None
        if pg_url:
            pg_base = stack.enter_context(
                server(
                    kind,
                    app,
                    {
                        **env,
                        "MUNCHLOG_INSTANCE": str(Path(tmp) / "pg"),
                        "MUNCHLOG_DATABASE_URL": postgres_schema_url(pg_url, schemas[0]),
                    },
                )
            )
            pg_bare = stack.enter_context(
                server(kind, bare_app, {"BARE_PG": pg_url, "BARE_PG_SCHEMA": schemas[1]})
            )
            pg_eight, pg_games = eight_games_file(pg_base, tmp, "pg_eight", 1)
        print(f"munchlog ({kind}), 1 game ...", flush=True)
        results["one_game"] = wrk(base, one, 1, args.seconds)

        def eight_games() -> dict[str, Any]:
            result = wrk(base, eight, 8, args.seconds)
            settle(base, games)
            return result

        def pg_eight_games() -> dict[str, Any]:
            result = wrk(pg_base, pg_eight, 8, args.seconds)
            settle(pg_base, pg_games)
            return result

        runs: dict[str, Any] = {"eight_games": eight_games}
        for name, bare_base in bare_bases.items():
            runs[name] = lambda bare_base=bare_base: wrk(bare_base, bare, 8, args.seconds)
        if peer_port is not None:
            runs["peer"] = lambda: peer_conc(
                args.peer, peer_port, 8, args.peer_moves, args.peer_reps
            )
        if pg_url:
            runs["pg_eight_games"] = pg_eight_games
            runs["pg_bare"] = lambda: wrk(pg_bare, bare, 8, args.seconds)
        for n in range(1, args.rounds + 1):
            # Each round starts one run later (a rotation), so that no run always follows the
            # same one: PostgreSQL's runs leave its server writing for a while, and whichever
            # run came next would always pay for it.
            order = names[(n - 1) % len(names) :] + names[: (n - 1) % len(names)]
            print(f"round {n}/{args.rounds}: {', '.join(order)} ...", flush=True)
            for name in order:
                rounds[name].append(runs[name]())
        print(f"latency over {args.latency_actions} actions ...", flush=True)
        results["latency"] = latency_run(base, args.latency_actions)
        if peer_port is not None:
            long = peer_run(args.peer, peer_port, "longlog", moves=2000)
            results["peer_latency"] = {
                "at_10_ms": long["first_k_p50_ms"],
                "at_2000_ms": long["last_k_p50_ms"],
                "ratio": long["last_k_p50_ms"] / long["first_k_p50_ms"],
            }
    for name, runs in rounds.items():
        results[name] = median_run(runs)
    best_bare = max(results["bare"]["rate"], results["bare_locked"]["rate"])
    results["ratio_to_bare"] = results["eight_games"]["rate"] / best_bare
    results["round_ratios"] = [
        m["rate"] / max(b["rate"], bl["rate"])
        for m, b, bl in zip(
            rounds["eight_games"], rounds["bare"], rounds["bare_locked"], strict=True
        )
    ]
    if args.peer:
        results["ratio_to_peer"] = results["eight_games"]["rate"] / results["peer"]["rate"]
        results["round_peer_ratios"] = [
            m["rate"] / p["rate"]
            for m, p in zip(rounds["eight_games"], rounds["peer"], strict=True)
        ]
    if pg_url:
        results["pg_ratio"] = results["pg_eight_games"]["rate"] / results["pg_bare"]["rate"]
        results["round_pg_ratios"] = [
            m["rate"] / b["rate"]
            for m, b in zip(rounds["pg_eight_games"], rounds["pg_bare"], strict=True)
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
    rounds = r["rounds"]

    def spread(name: str) -> str:
        rates = sorted(run["rate"] for run in rounds[name])
        return f"{rates[0]:,.0f}-{rates[-1]:,.0f}"

    def row(label: str, name: str) -> str:
        if name not in r:
            return ""
        x = r[name]
        return (
            f"| {label} | **{x['rate']:,.0f}** | {spread(name)} | {x['p50_ms']:.2f} "
            f"| {x['p99_ms']:.2f} | {x.get('non201', 0):.0f} |\n"
        )

    def ratios(key: str) -> str:
        return ", ".join(f"{x:.2f}" for x in r.get(key, []))

    command = f"python bench/record_bench.py --seconds {args.seconds} --rounds {args.rounds}"
    command += " --peer <boardgame.io peer folder>" if args.peer else ""
    command += "" if "pg_bare" in r else " --postgres ''"
    command += " --write"
    overridden = " (BENCH_WORKERS/BENCH_THREADS overriding)" if WORKERS or THREADS else ""
    lines = [
        "## Recording over HTTP (issues #3, #11) — `bench/record_bench.py`",
        "",
        f"Command: `{command}` ({r['when']}; {r['cores']} cores, Python {r['python']}; server "
        f"**{r['server']}** as `munchlog serve` runs it (`api/ops/serving.py`){overridden}: "
        f"{r['workers']} workers x {r['threads']} threads, access log on, SQLite with "
        "`synchronous=FULL` (every commit fsynced); load from `wrk` on the same cores). Each "
        "munchlog request is a one-action batch (`activate` / `resolve`, alternating). The 8-way "
        f"runs are {args.rounds} interleaved rounds of {args.seconds} s, each starting one run "
        "later than the one before; the table shows the "
        "median round and the range. The peer is boardgame.io 0.50.2's own server in memory "
        f"(nothing kept), 8 matches, moves over socket.io, {args.peer_reps} runs of "
        f"8 x {args.peer_moves} moves per round (its median).",
        "",
        "| run | actions/s (median) | range | p50 ms | p99 ms | non-201 |",
        "|---|---|---|---|---|---|",
        f"| munchlog, 1 game, 1 connection | **{r['one_game']['rate']:,.0f}** | one run "
        f"| {r['one_game']['p50_ms']:.2f} | {r['one_game']['p99_ms']:.2f} "
        f"| {r['one_game']['non201']:.0f} |",
    ]
    table = (
        row("munchlog, 8 games, 8 connections", "eight_games")
        + row("bare Flask + SQLite insert, 8 connections", "bare")
        + row("bare, inserting under munchlog's writer lock", "bare_locked")
        + row("boardgame.io in memory, 8 matches", "peer")
        + row("munchlog on PostgreSQL, 8 games", "pg_eight_games")
        + row("bare Flask + PostgreSQL insert, 8 connections", "pg_bare")
    )
    lines.append(table.rstrip("\n"))
    lines.append("")
    lines.append(
        f"- 8 games against the faster bare endpoint: **{r['ratio_to_bare']:.2f}** (goal ≥ 0.9; "
        f"per round: {ratios('round_ratios')})."
    )
    if "ratio_to_peer" in r:
        lines.append(
            f"- 8 games against boardgame.io in memory at 8 matches: "
            f"**{r['ratio_to_peer']:.2f}x** (goal ≥ 1.5; per round: {ratios('round_peer_ratios')});"
            f" p99 {r['eight_games']['p99_ms']:.1f} ms against the peer's "
            f"{r['peer']['p99_ms']:.1f} ms."
        )
    if "pg_ratio" in r:
        lines.append(
            f"- PostgreSQL: munchlog against the bare PostgreSQL endpoint: **{r['pg_ratio']:.2f}** "
            f"(goal ≥ 0.6; per round: {ratios('round_pg_ratios')})."
        )
    lat = r["latency"]
    lines.append(
        f"- Latency as a game grows (one game, sequential): median around action 10 = "
        f"{lat['at_10_ms']:.2f} ms, around action 2,000 = {lat['at_2000_ms']:.2f} ms, ratio "
        f"**{lat['ratio']:.2f}** (goal ≤ 1.5)."
        + (
            f" The peer (2,000 moves, median of the first and last 100): "
            f"{r['peer_latency']['at_10_ms']:.2f} -> {r['peer_latency']['at_2000_ms']:.2f} ms, "
            f"ratio {r['peer_latency']['ratio']:.2f}."
            if "peer_latency" in r
            else ""
        )
    )
    section = "\n".join(lines) + "\n"
    notes = ROOT / "bench" / "record_notes.md"
    if notes.exists():
        section += "\n" + notes.read_text()
    pattern = re.compile(r"## Recording over HTTP.*?(?=\n## |\Z)", re.S)
    text = (
        pattern.sub(lambda _: section.strip() + "\n", text)
        if pattern.search(text)
        else text.rstrip() + "\n\n" + section
    )
    path.write_text(text)


if __name__ == "__main__":
    raise SystemExit(main())
