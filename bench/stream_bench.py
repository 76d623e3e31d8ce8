"""stream_bench: 1,000 open streams while 8 tables record (issue #26, docs/streams.md).

``munchlog serve`` (2 granian workers, the stream process beside them, SQLite on /dev/shm)
with 8 CCG games recording flat out, one connection each (the record bench's workload:
``activate`` then ``resolve`` the active hero's ability, forever legal; driven by
``bench/stream_record.js``, node: Python threads starved of CPU by the streams would measure
the client, not the server), in alternated runs:

* **without streams**: the 8 tables alone: actions recorded per second;
* **with streams**: first ``--streams`` streams opened (split over the games, mixed viewers:
  per 125, 50 spectators, 30 seat A, 30 seat B, 5 each table, judge, organizer), by a client
  process of their own (``bench/stream_client.js``, node: Python's parsing of 1,000 streams
  would take a core of the two the server is measured on); then the same 8 tables.

Measured in each run: the recording rate; in the runs with streams, for every event on every
stream, the time from the ``201`` that recorded it (taken by the recording client) to its
arrival on that stream (taken by the stream client; both read ``CLOCK_MONOTONIC``, the same
clock in both processes), and that every stream got every event after its start once, in
order; ``/healthz`` of the workers every 50 ms throughout (by a third small process).

Goals: p99 from a 201 to the event on every stream <= 250 ms; the recording rate with
streams >= 0.8 of the rate without; ``/healthz`` p99 <= 50 ms throughout.

Usage: ``python bench/stream_bench.py [--streams 1000] [--tables 8] [--seconds 15]
[--rounds 2] [--pace 0] [--write]`` (``--pace N``: each table records at most N actions a
second, instead of flat out).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record_bench import ROOT, TOKEN, bodies, free_port, set_up_game

#: The pid of ``munchlog serve`` (its processes' CPU time is read from /proc).
SERVER = [0]
#: Viewers of every 125 streams of a game.
MIX = (("spectator", 50), ("A", 30), ("B", 30), ("table", 5), ("judge", 5), ("organizer", 5))


# ---------------------------------------------------------------------- the server
@contextmanager
def munchlog(tmp: Path):  # type: ignore[no-untyped-def]
    port, stream_port = free_port(), free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "MUNCHLOG_INSTANCE": str(tmp),
        "MUNCHLOG_ORGANIZER_TOKEN": TOKEN,
    }
    cmd = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)]
    cmd += ["--stream-port", str(stream_port), "--no-access-log"]
    log = open(tmp / "serve.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    SERVER[0] = proc.pid
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                requests.get(f"{base}/healthz", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        yield base, stream_port
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()


def new_game(base: str, i: int) -> dict[str, Any]:
    created, state = set_up_game(base, i, "stream-bench")
    table = created["table_token"]
    return {
        "game_id": created["game_id"],
        "hero": state["seats"]["A"]["hero"]["id"],
        "tokens": {
            "A": created["seats"]["A"]["token"],
            "B": created["seats"]["B"]["token"],
            "table": table,
            "judge": created["judge_token"],
            "organizer": TOKEN,
            "spectator": None,
        },
    }


def settle(base: str, games: list[dict[str, Any]]) -> None:
    time.sleep(0.5)
    for g in games:
        _, resolve = bodies(g["hero"])
        r = requests.post(
            f"{base}/api/games/{g['game_id']}/actions",
            data=resolve,
            headers={
                "Authorization": f"Bearer {g['tokens']['table']}",
                "Content-Type": "application/json",
            },
            timeout=30,
        )
        assert r.status_code in (201, 422), r.text


def version_of(base: str, gid: str) -> int:
    return int(requests.get(f"{base}/api/games/{gid}", timeout=30).json()["version"])


# ---------------------------------------------------------------------- CPU time
def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_by_role(pids: list[int]) -> dict[str, float]:
    """CPU seconds so far of each process, by role (what its command line says)."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for p in pids:
        try:
            stat = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cmd = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        role = (
            "streams"
            if "api.streams.process" in cmd
            else "node client"
            if "stream_client.js" in cmd
            else "healthz probe"
            if "--healthz" in cmd
            else "node recorders"
            if "stream_record.js" in cmd
            else "workers"
        )
        out[role] = out.get(role, 0.0) + (int(stat[11]) + int(stat[12])) / tick
    return out


# ---------------------------------------------------------------------- recording
def record(
    base: str, games: list[dict[str, Any]], seconds: float, pace: float, tmp: Path
) -> subprocess.Popen[bytes]:
    """Start every table recording flat out (or at ``pace`` actions a second) for ``seconds``
    (``bench/stream_record.js``, its process returned); :func:`recorded` reads what it did."""
    out = tmp / "recorded.json"
    spec = tmp / "record.json"
    tables = []
    for g in games:
        activate, resolve = bodies(g["hero"])
        tables.append(
            {
                "game_id": g["game_id"],
                "table": g["tokens"]["table"],
                "activate": activate,
                "resolve": resolve,
            }
        )
    port = int(base.rsplit(":", 1)[1])
    spec.write_text(
        json.dumps(
            {"port": port, "seconds": seconds, "pace": pace, "out": str(out), "games": tables}
        )
    )
    return subprocess.Popen(["node", str(ROOT / "bench" / "stream_record.js"), str(spec)])


def recorded(tmp: Path) -> tuple[float, dict[str, dict[str, float]]]:
    """The recording's rate and, per game, the monotonic time of the 201 that recorded each
    version."""
    found = json.loads((tmp / "recorded.json").read_text())
    return float(found["rate"]), found["stamps"]


# ---------------------------------------------------------------------- /healthz
def healthz_main(base: str, seconds: float) -> None:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    times = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        t0 = time.monotonic()
        conn.request("GET", "/healthz")
        conn.getresponse().read()
        times.append((time.monotonic() - t0) * 1000)
        time.sleep(0.05)
    print(json.dumps(pct(times)))


def healthz_probe(base: str, seconds: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, __file__, "--healthz", base, str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def pct(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    s = sorted(values)
    return {
        "n": len(s),
        "p50": round(s[len(s) // 2], 1),
        "p99": round(s[min(len(s) - 1, int(len(s) * 0.99))], 1),
        "max": round(s[-1], 1),
    }


# ---------------------------------------------------------------------- a run
def run(
    base: str,
    stream_port: int,
    games: list[dict[str, Any]],
    args: argparse.Namespace,
    streams: bool,
    tmp: Path,
) -> dict[str, Any]:
    settle(base, games)
    client = None
    if streams:
        per_game = args.streams // len(games)
        spec_streams = []
        for g in games:
            after = version_of(base, g["game_id"])
            mix = [v for v, n in MIX for _ in range(n)]
            for k in range(per_game):
                viewer = mix[k % len(mix)]
                spec_streams.append((g["game_id"], g["tokens"][viewer], after))
        spec = tmp / "client.json"
        spec.write_text(json.dumps({"stream_port": stream_port, "streams": spec_streams}))
        client = subprocess.Popen(
            ["node", str(ROOT / "bench" / "stream_client.js"), str(spec)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert client.stdout is not None and client.stdin is not None
        assert client.stdout.readline().strip() == "READY"
    probe = healthz_probe(base, args.seconds)
    recorder = record(base, games, args.seconds, args.pace, tmp)
    watched = [recorder.pid, *descendants(SERVER[0])] + ([client.pid] if client else [])
    before, t0 = cpu_by_role(watched), time.monotonic()
    time.sleep(args.seconds * 0.9)
    after, t1 = cpu_by_role(watched), time.monotonic()
    recorder.wait()
    rate, stamps = recorded(tmp)
    health = json.loads(probe.communicate()[0])
    result: dict[str, Any] = {"streams": args.streams if streams else 0, "rate": rate}
    result["healthz_ms"] = health
    result["cpu_share"] = {  # cores busy, on average, while the tables recorded
        role: round((after.get(role, 0.0) - before.get(role, 0.0)) / (t1 - t0), 2)
        for role in sorted(after)
    }
    if client is not None:
        time.sleep(2.0)  # the last events reach every stream
        last = {g["game_id"]: version_of(base, g["game_id"]) for g in games}
        stamp_file = tmp / "stamps.json"
        stamp_file.write_text(json.dumps({"stamps": stamps, "last": last}))
        assert client.stdin is not None and client.stdout is not None
        client.stdin.write(f"DONE {stamp_file}\n")
        client.stdin.flush()
        result.update(json.loads(client.stdout.readline()))
        client.terminate()
        client.wait(30)
        time.sleep(1.0)  # the server notices the closed streams
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--streams", type=int, default=1000)
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument(
        "--pace", type=float, default=0, help="actions a second per table (0: flat out)"
    )
    ap.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    ap.add_argument("--healthz", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.healthz:
        healthz_main(args.healthz[0], float(args.healthz[1]))
        return 0
    shm = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=shm) as d, munchlog(Path(d)) as (base, stream_port):
        tmp = Path(d)
        games = [new_game(base, i) for i in range(args.tables)]
        runs: list[dict[str, Any]] = []
        for r in range(args.rounds):
            order = (False, True) if r % 2 == 0 else (True, False)
            for streams in order:
                result = run(base, stream_port, games, args, streams, tmp)
                result["round"] = r + 1
                runs.append(result)
                print(json.dumps(result), flush=True)
    summary = summarize(runs, args)
    print(json.dumps(summary, indent=1))
    if args.write:
        write_results(summary, runs, args)
    return 0


def summarize(runs: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    without = [r["rate"] for r in runs if not r["streams"]]
    with_ = [r for r in runs if r["streams"]]
    return {
        "rate_without": round(statistics.median(without), 1),
        "rate_with": round(statistics.median(r["rate"] for r in with_), 1),
        "ratio": round(statistics.median(r["rate"] for r in with_) / statistics.median(without), 3),
        "latency_p99_ms": max(r["latency_ms"]["p99"] for r in with_),
        "latency_p50_ms": max(r["latency_ms"]["p50"] for r in with_),
        "deliveries": sum(r["latency_ms"]["n"] for r in with_),
        "faults": {k: sum(r["faults"][k] for r in with_) for k in with_[0]["faults"]},
        "healthz_p99_ms": max(r["healthz_ms"]["p99"] for r in runs),
        "pace": args.pace,
    }


def write_results(
    summary: dict[str, Any], runs: list[dict[str, Any]], args: argparse.Namespace
) -> None:
    path = ROOT / "bench" / "RESULTS.md"
    text = path.read_text()
    pace = f"each table at most {args.pace:g} actions/s" if args.pace else "tables flat out"
    lines = [
        f"### `stream_bench.py --streams {args.streams} --tables {args.tables} --seconds {args.seconds:g} "
        f"--rounds {args.rounds}{f' --pace {args.pace:g}' if args.pace else ''}` ({datetime.now(UTC):%Y-%m-%d}, {pace})",
        "",
        "| run | streams | actions/s | p50 / p99 201→stream, ms | deliveries | faults | /healthz p50 / p99, ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        lat = r.get("latency_ms", {})
        faults = r.get("faults")
        lines.append(
            f"| {r['round']} | {r['streams']} | {r['rate']:.0f} | "
            f"{lat.get('p50', '-')} / {lat.get('p99', '-')} | {lat.get('n', '-')} | "
            f"{'-' if faults is None else sum(faults.values())} | "
            f"{r['healthz_ms']['p50']} / {r['healthz_ms']['p99']} |"
        )
    lines += [
        "",
        f"Recording with streams / without: **{summary['ratio']}** (goal >= 0.8); p99 from a 201 "
        f"to the event on every stream: **{summary['latency_p99_ms']} ms** (goal <= 250); "
        f"/healthz p99: **{summary['healthz_p99_ms']} ms** (goal <= 50); faults (missing, "
        f"repeated, out of order): {summary['faults']}.",
        "",
    ]
    marker = "## Live streams (issue #26)"
    block = "\n".join(lines)
    if marker in text:
        head, _, rest = text.partition(marker)
        nxt = rest.find("\n## ")
        body = rest if nxt < 0 else rest[:nxt]
        tail = "" if nxt < 0 else rest[nxt:]
        text = head + marker + body.rstrip("\n") + "\n\n" + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + marker + "\n\n" + block
    path.write_text(text)


if __name__ == "__main__":
    raise SystemExit(main())
