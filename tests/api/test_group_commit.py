"""Group commit: batches queued in one process share a transaction, each all or nothing.

``adapters.sqlite_writer.GroupCommit`` on SQLite, ``adapters.pg_writer.PostgresGroupCommit`` on
PostgreSQL (under eventsourcing's table lock). These run on real stores (eventsourcing's
recorders), so they live with the API tests.
"""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import RecordConflictError, StoredEvent

from adapters.pg_writer import PostgresGroupCommit
from adapters.sqlite_writer import GroupCommit
from service.games import GameLog


@pytest.fixture
def log(backend: dict[str, Any], tmp_path: Path) -> Any:
    from api.app import database_env

    app = GameLog(database_env(backend["MUNCHLOG_DATABASE_URL"], str(tmp_path)))
    expected = (
        PostgresGroupCommit if "postgresql" in backend["MUNCHLOG_DATABASE_URL"] else GroupCommit
    )
    assert type(app.store._group_commit) is expected
    yield app
    app.close()


def _batch(stream: uuid.UUID, first: int, n: int) -> list[StoredEvent]:
    return [
        StoredEvent(originator_id=stream, originator_version=v, topic="t", state=b"{}")
        for v in range(first, first + n)
    ]


def _versions(log: Any, stream: uuid.UUID) -> list[int]:
    return [e.originator_version for e in log.store.recorder.select_events(stream)]


def _queue_while_locked(group: GroupCommit, batches: list[list[StoredEvent]]) -> list[Any]:
    """Start one thread per batch while the writer lock is held elsewhere, wait until every
    batch is queued, then release: the first thread to get the lock writes them all."""
    results: list[Any] = [None] * len(batches)

    def run(i: int) -> None:
        try:
            results[i] = group.insert(batches[i])
        except RecordConflictError as exc:
            results[i] = exc

    with group.lock():
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(batches))]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while len(group._queue) < len(batches):
            assert time.monotonic() < deadline, "the batches did not queue"
            time.sleep(0.001)
    for t in threads:
        t.join(10)
    return results


def test_batches_that_queue_up_are_written_in_one_transaction(log: Any) -> None:
    group = log.store._group_commit
    assert isinstance(group, GroupCommit)
    streams = [uuid.uuid4() for _ in range(4)]
    results = _queue_while_locked(group, [_batch(s, 1, 3) for s in streams])
    assert group.transactions == 1 and group.batches == 4
    ids = [i for r in results for i in r]
    assert len(ids) == 12 == len(set(ids))  # every event got its own notification id
    for s in streams:
        assert _versions(log, s) == [1, 2, 3]


def test_a_conflicting_batch_is_rolled_back_alone(log: Any) -> None:
    group = log.store._group_commit
    taken, free = uuid.uuid4(), uuid.uuid4()
    group.insert(_batch(taken, 1, 2))  # versions 1-2 of `taken` exist
    before = group.transactions
    results = _queue_while_locked(
        group,
        [_batch(free, 1, 2), _batch(taken, 2, 2), _batch(free, 3, 1)],  # the middle one conflicts
    )
    assert group.transactions == before + 1
    assert isinstance(results[1], RecordConflictError)
    assert not isinstance(results[0], Exception) and not isinstance(results[2], Exception)
    assert _versions(log, taken) == [1, 2]  # nothing of the conflicting batch (not even v3)
    assert _versions(log, free) == [1, 2, 3]


def test_a_single_conflicting_batch_raises_a_record_conflict(log: Any) -> None:
    stream = uuid.uuid4()
    log.store._group_commit.insert(_batch(stream, 1, 1))
    with pytest.raises(RecordConflictError):
        log.store._group_commit.insert(_batch(stream, 1, 1))
    assert _versions(log, stream) == [1]


def _write_in_child(log: Any, stream: uuid.UUID, parent_conn_id: int, out: Any) -> None:
    group = log.store._group_commit
    fresh = group._conn is None  # the parent's connection was dropped at the fork
    group.insert(_batch(stream, 2, 2))
    out.put((fresh, id(group._conn) != parent_conn_id))


def test_a_forked_worker_writes_on_its_own_connection(log: Any) -> None:
    """A server may fork after the store is opened: the child must not write on (or close) the
    parent's SQLite connection, and both keep writing afterwards."""
    import multiprocessing

    if isinstance(log.store._group_commit, PostgresGroupCommit):
        pytest.skip("SQLite only: PostgresGroupCommit has no connection of its own")

    stream = uuid.uuid4()
    group = log.store._group_commit
    group.insert(_batch(stream, 1, 1))  # the parent's connection exists before the fork
    parent_conn = group._conn
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_write_in_child, args=(log, stream, id(parent_conn), out))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    assert out.get(timeout=5) == (True, True)
    assert group._conn is parent_conn  # the parent's is untouched
    group.insert(_batch(stream, 4, 1))
    assert _versions(log, stream) == [1, 2, 3, 4]


def test_a_forked_child_gets_a_new_thread_lock_on_postgres(log: Any) -> None:
    """On PostgreSQL the group's lock is a thread lock: a child forked while a thread of the
    parent held it must not inherit it held. (The child does not write: a PostgreSQL pool is
    not to be used across a fork, and the servers build each worker's app after forking.)"""
    group = log.store._group_commit
    if not isinstance(group, PostgresGroupCommit):
        pytest.skip("PostgreSQL only")
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    with group.lock():  # held by this thread at the fork
        child = ctx.Process(target=_take_lock_in_child, args=(group, out))
        child.start()
        child.join(30)
    assert child.exitcode == 0
    assert out.get(timeout=5) is True


def _take_lock_in_child(group: Any, out: Any) -> None:
    out.put(group.lock._lock.acquire(timeout=5))
