"""adapters.sqlite_writer: SQLite writers queue on a lock file (processes) and a thread lock (threads)."""

from __future__ import annotations

import multiprocessing
import sys
import threading
from pathlib import Path

import pytest

from adapters.sqlite_writer import WriterLock, writer_lock_for

ROUNDS = 300


def _bump(lock: WriterLock, counter: Path, rounds: int) -> None:
    """Read-modify-write a counter file ``rounds`` times, each under the lock."""
    for _ in range(rounds):
        with lock():
            value = int(counter.read_text())
            counter.write_text(str(value + 1))


def test_an_sqlite_file_gets_a_lock_file_beside_it() -> None:
    lock = writer_lock_for(
        {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "/data/m.sqlite"}
    )
    assert lock is not None and lock.path == "/data/m.sqlite.lock"
    uri = writer_lock_for(
        {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "file:/d/m.db?cache=x"}
    )
    assert uri is not None and uri.path == "/d/m.db.lock"


@pytest.mark.parametrize(
    "env",
    [
        {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": ":memory:"},
        {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "file:x?mode=memory"},
        {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "test"},
        {},
    ],
)
def test_no_lock_where_there_is_no_shared_file(env: dict[str, str]) -> None:
    assert writer_lock_for(env) is None


def test_threads_of_one_process_take_turns(tmp_path: Path) -> None:
    lock = WriterLock(str(tmp_path / "db.lock"))
    counter = tmp_path / "n"
    counter.write_text("0")
    threads = [threading.Thread(target=_bump, args=(lock, counter, ROUNDS)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert int(counter.read_text()) == 4 * ROUNDS


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")
def test_forked_processes_take_turns_even_with_a_lock_made_before_the_fork(
    tmp_path: Path,
) -> None:
    lock = WriterLock(str(tmp_path / "db.lock"))
    counter = tmp_path / "n"
    counter.write_text("0")
    _bump(lock, counter, 1)  # the parent opens the lock file before forking, as gunicorn would
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_bump, args=(lock, counter, ROUNDS)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert int(counter.read_text()) == 1 + 4 * ROUNDS
