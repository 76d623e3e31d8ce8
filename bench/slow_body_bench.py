"""Slow request bodies (issue #28, item 3): does a normal request wait behind them?

Run from the repository root::

    PYTHONPATH=. python bench/slow_body_bench.py                  # 8, 32, 128 slow clients
    PYTHONPATH=. python bench/slow_body_bench.py --clients 8 600  # any counts

For each count N: ``munchlog serve`` (its production settings: 2 workers, granian) on a free
port, with a fresh instance; N clients send an authorized ``POST /api/games``'s headers with
``Content-Length: 100000``, then a byte a second each (the app would read their bodies); once
they have all reached the server, ``--samples`` times in turn a ``GET /healthz`` and a normal
``POST /api/games`` (a new game) on new connections, each timed from connect to its last byte.
Printed: the median and the slowest of each, in ms, or ``timeout`` (``--timeout`` seconds).
The slow clients are still waiting for their answers when the samples end (checked).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.record_bench import free_port, game_body, launched  # noqa: E402

TOKEN = "slow-body-bench"


def timed(port: int, method: str, path: str, body: bytes | None, timeout: float) -> float | None:
    """Seconds from connect to the last byte of the answer, or None on a timeout."""
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(
            method,
            path,
            body=body,
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        )
        response = conn.getresponse()
        response.read()
        assert response.status in (200, 201), (method, path, response.status)
    except TimeoutError:
        return None
    finally:
        conn.close()
    return time.monotonic() - started


def one_count(clients: int, samples: int, timeout: float) -> dict[str, list[float | None]]:
    port = free_port()
    with tempfile.TemporaryDirectory() as instance:
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "MUNCHLOG_INSTANCE": instance,
            "MUNCHLOG_ORGANIZER_TOKEN": TOKEN,
        }
        cmd = [
            sys.executable,
            "-m",
            "api.cli.main",
            "serve",
            "--port",
            str(port),
            "--no-access-log",
        ]
        with launched("munchlog serve", cmd, ROOT, env, f"http://127.0.0.1:{port}/healthz"):
            head = (
                "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Authorization: Bearer {TOKEN}\r\nContent-Length: 100000\r\n\r\n{{"
            ).encode()
            slow: list[socket.socket] = []
            stop = threading.Event()

            def drip() -> None:
                while not stop.wait(1.0):
                    for s in slow:
                        with suppress(OSError):
                            s.sendall(b" ")

            try:
                for _ in range(clients):
                    s = socket.create_connection(("127.0.0.1", port), timeout=10)
                    s.sendall(head)
                    slow.append(s)
                threading.Thread(target=drip, daemon=True).start()
                time.sleep(2.0)
                body = json.dumps(game_body("quick", {"event": "slow-body-bench"})).encode()
                figures: dict[str, list[float | None]] = {"GET /healthz": [], "POST /api/games": []}
                for _ in range(samples):
                    figures["GET /healthz"].append(timed(port, "GET", "/healthz", None, timeout))
                    figures["POST /api/games"].append(
                        timed(port, "POST", "/api/games", body, timeout)
                    )
                for s in slow:  # still waiting: not answered, not dropped
                    s.settimeout(0.05)
                    with suppress(TimeoutError):
                        assert s.recv(1) == b"", "a slow client was answered"
                        raise AssertionError("a slow client was dropped")
                return figures
            finally:
                stop.set()
                for s in slow:
                    s.close()


def show(values: list[float | None]) -> str:
    done = [v * 1000 for v in values if v is not None]
    if len(done) < len(values):
        return f"{len(values) - len(done)} of {len(values)} timed out"
    return f"median {statistics.median(done):.1f} ms, slowest {max(done):.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, nargs="+", default=[8, 32, 128])
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    for clients in args.clients:
        figures = one_count(clients, args.samples, args.timeout)
        for name, values in figures.items():
            print(f"{clients:4d} slow bodies  {name:16s} {show(values)}", flush=True)


if __name__ == "__main__":
    main()
