"""``kill -9`` under load (issue 12: "0 acknowledged actions lost over >= 5 rounds per back end;
re-sent keys never doubled"), on SQLite and PostgreSQL.

One store, :data:`ROUNDS` rounds. In each, ``munchlog serve --workers 2`` (granian) records
:data:`TABLES` games at once (``bench/record_bench.py``'s games: ``activate`` and ``resolve``
alternate forever), every batch with its own ``Idempotency-Key``; after a random 0.5-1.5 s the
master and its workers get SIGKILL together. The server starts again on the same store and each
table sends its last unacknowledged batch again with the same key: the answer must be 201,
either the first response read back (``Idempotent-Replayed: true``: it had been stored) or a
fresh one (it had not). Then, per game: every acknowledged event is stored at its version,
unchanged; the 201s (acknowledged, replayed, fresh) and the setup cover the stored versions
exactly once each (nothing stored twice, nothing stored that no answer names); ``/verify`` is
ok. Each round prints its figures (``kill-9 <back end> round <n>: ...``) under ``-v``; under
``-q`` they stay in the captured output (``-rP`` shows them).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.live import munchlog_serve, stored_events

ROUNDS = 5
TABLES = 4
LOAD_SECONDS = (0.5, 1.5)


@dataclass
class Table:
    """One game's recording client: batch ``n`` is ``bodies[n % 2]`` under key ``<game>:<n>``."""

    game_id: str
    token: str
    bodies: tuple[str, str]
    setup_version: int  #: the game's version before the first batch
    next: int = 0  #: the batch to send next
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)  #: batch -> its 201 body
    acknowledged: set[int] = field(default_factory=set)  #: answered 201 while under load
    unexpected: list[str] = field(default_factory=list)

    def last_version(self) -> int:
        """The game's version after the last batch answered 201."""
        return self.answers[self.next - 1]["version"] if self.next else self.setup_version

    def key(self, n: int) -> str:
        return f"{self.game_id}:{n}"

    def post(self, conn: http.client.HTTPConnection, n: int) -> tuple[int, dict[str, Any], bool]:
        conn.request(
            "POST",
            f"/api/games/{self.game_id}/actions",
            body=self.bodies[n % 2],
            headers={
                "Authorization": f"Bearer {self.token}",
                "Content-Type": "application/json",
                "Idempotency-Key": self.key(n),
            },
        )
        response = conn.getresponse()
        body = json.loads(response.read())
        return response.status, body, response.getheader("Idempotent-Replayed") == "true"

    def record(self, port: int, killed: threading.Event) -> None:
        """Send batches until the server is gone; an error before the kill (a keep-alive
        connection closed) sends the same batch again, with the same key."""
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            while True:
                n = self.next
                try:
                    status, body, _ = self.post(conn, n)
                except (OSError, http.client.HTTPException, ValueError):
                    conn.close()
                    if killed.is_set():
                        return
                    time.sleep(0.01)
                    continue
                if status != 201:
                    self.unexpected.append(f"batch {n}: {status} {body}")
                    return
                self.answers[n] = body
                self.acknowledged.add(n)
                self.next = n + 1
        finally:
            conn.close()


def descendants(pid: int) -> list[int]:
    """``pid``'s children, their children, ... (``/proc/<pid>/task/*/children``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found += [child, *descendants(child)]
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def kill_dash_9(process: Any) -> int:
    """SIGKILL the server's master and every process under it; returns how many."""
    # The master listens before its workers are all spawned (a loaded machine may take a
    # while): wait for both, so that every process of the server is killed.
    deadline = time.monotonic() + 20
    workers = descendants(process.pid)
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
        workers = descendants(process.pid)
    assert len(workers) >= 2, f"expected 2 workers under {process.pid}: {workers}"
    for pid in [process.pid, *workers]:  # the master first: it would respawn a dead worker
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    process.wait(10)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker survived SIGKILL"
        time.sleep(0.01)
    return 1 + len(workers)


class Server:
    """``munchlog serve --workers 2`` on the test's store (``start``: once it answers HTTP)."""

    def __init__(self, tmp_path: Path, token: str, backend: dict[str, str]) -> None:
        self.args = (tmp_path, token)
        self.backend = backend
        self.running: Any = None

    def start(self) -> None:
        self.running = munchlog_serve(*self.args, workers=2, extra_env=self.backend)
        port, self.env = self.running.__enter__()
        self.base = f"http://127.0.0.1:{port}"
        self.port = port
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(f"{self.base}/api/games?limit=1", timeout=5).raise_for_status()
                return
            except requests.RequestException:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.running is not None:
            self.running.__exit__(None, None, None)
            self.running = None


def resend(port: int, table: Table, n: int) -> bool:
    """Batch ``n`` again with its key; True when it was replayed (it had been stored)."""
    for _ in range(50):  # the workers may still be starting
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            status, body, replayed = table.post(conn, n)
            break
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)
        finally:
            conn.close()
    assert status == 201, (table.game_id, n, status, body)
    table.answers[n] = body
    table.next = n + 1
    return replayed


def stored_head(base: str, table: Table) -> int:
    info = requests.get(f"{base}/api/games/{table.game_id}", timeout=30).json()
    return int(info["version"])


def check(base: str, table: Table) -> tuple[int, int]:
    """The checks of the module docstring for one game; returns (acknowledged events lost,
    events stored)."""
    stored = stored_events(base, table.game_id, table.token)
    lost = sum(
        stored.get(event["version"]) != event
        for n in table.acknowledged
        for event in table.answers[n]["events"]
    )
    covered = list(range(1, table.setup_version + 1))
    for answer in table.answers.values():
        covered += [event["version"] for event in answer["events"]]
        assert stored[answer["version"]] == answer["events"][-1], table.game_id
    assert sorted(covered) == sorted(stored), (
        f"{table.game_id}: the answers cover {len(covered)} versions, "
        f"{len(set(covered))} distinct; {len(stored)} stored"
    )
    verified = requests.get(
        f"{base}/api/games/{table.game_id}/verify",
        headers={"Authorization": f"Bearer {table.token}"},
        timeout=30,
    ).json()
    assert verified["ok"] is True and verified["problems"] == [], verified
    return lost, len(stored)


@pytest.mark.slow
def test_kill_dash_9_under_load_loses_no_acknowledged_batch_and_doubles_no_resent_one(
    tmp_path: Path,
    backend: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
) -> None:
    import bench.record_bench as record_bench
    from bench.record_bench import bodies, new_game

    kind = "postgres" if "postgres" in backend["MUNCHLOG_DATABASE_URL"] else "sqlite"
    rng = random.Random()
    totals = dict.fromkeys(("acknowledged", "stored", "resent", "replayed", "lost"), 0)

    def say(line: str) -> None:
        # the figures are for whoever asks (-v, or -rP's captured output): ``pytest -q``
        # printed a dozen of these lines between its progress dots
        if request.config.get_verbosity() > 0:
            with capsys.disabled():
                print(f"\n{line}")
        else:
            print(line)

    server = Server(tmp_path, record_bench.TOKEN, backend)
    server.start()
    try:
        tables = []
        for i in range(TABLES):
            gid, table_token, hero = new_game(server.base, i)
            info = requests.get(f"{server.base}/api/games/{gid}", timeout=30).json()
            tables.append(Table(gid, table_token, bodies(hero), info["version"]))
        for round_no in range(1, ROUNDS + 1):
            before = sum(len(t.acknowledged) for t in tables)
            killed = threading.Event()
            threads = [
                threading.Thread(target=t.record, args=(server.port, killed)) for t in tables
            ]
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(*LOAD_SECONDS))
            killed.set()
            processes = kill_dash_9(server.env.process)
            for thread in threads:
                thread.join(30)
                assert not thread.is_alive()
            for table in tables:
                assert not table.unexpected, table.unexpected
            server.stop()
            server.start()
            pending = [(t, t.next) for t in tables]
            # Was the unacknowledged batch stored before the kill? The store says so, and the
            # re-sent key must agree: replayed exactly when it was.
            was_stored = [stored_head(server.base, t) > t.last_version() for t, _ in pending]
            answers = [resend(server.port, t, n) for t, n in pending]
            assert answers == was_stored, (answers, was_stored)
            replayed = sum(answers)
            checked = [check(server.base, t) for t in tables]
            lost = sum(x for x, _ in checked)
            acknowledged = sum(len(t.acknowledged) for t in tables) - before
            figures = {
                "acknowledged": acknowledged,
                "stored": acknowledged + replayed,
                "resent": len(pending),
                "replayed": replayed,
                "lost": lost,
            }
            for name, value in figures.items():
                totals[name] += value
            say(
                f"kill-9 {kind} round {round_no}: {processes} processes killed; "
                f"{acknowledged} batches acknowledged, {acknowledged + replayed} stored before it; "
                f"{len(pending)} re-sent: {replayed} replayed, {len(pending) - replayed} "
                f"fresh; {lost} acknowledged events lost; {sum(n for _, n in checked)} "
                "events stored in all"
            )
            assert lost == 0
        say(
            f"kill-9 {kind}: {ROUNDS} rounds x {TABLES} tables: "
            + ", ".join(f"{name} {value}" for name, value in totals.items())
        )
        assert totals["acknowledged"] >= ROUNDS * TABLES, "every round recorded"
    finally:
        server.stop()
