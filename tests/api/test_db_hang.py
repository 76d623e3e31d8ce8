"""A database that stops answering without closing its connections (issue 36, items 3 and 4).

* Behind a proxy that holds every connection (accepts, forwards nothing) and on a private
  PostgreSQL cluster whose processes are stopped (SIGSTOP; never the shared one on 5432),
  reads, writes and ``/readyz`` answer ``503 storage/unavailable`` within the bound
  (``MUNCHLOG_DB_QUERY_TIMEOUT`` + 1 s; the statement's own ``statement_timeout`` cannot fire
  on a server that does not run), the next ones at once; once it answers again, everything is
  back and every acknowledged batch is stored.
* After an outage (the proxy cut, then restored) the service is back within about a second of
  the database's return, not at the pool's next reconnection try (before: 10.8 s after 20 s).
* SQLite: a writer locked out by another connection's transaction is 503 within the busy
  timeout (before: 30 s).
* ``/healthz`` has app threads of its own (:class:`api.ops.serving.WholeBody`).

The figures (8, 20 and 60 s outages; /healthz under a hung database) are bench/outage_bench.py's.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.ops import serving
from tests.api.test_damaged_storage import a_legal_action, demo
from tests.api.test_operations import postgres_behind_proxy
from tests.api.test_storage_refusals import Ledger, app_on
from tests.live import free_port

#: The bound the tests run with (seconds): a statement 1 s, a silent server 1 s more.
QUERY_TIMEOUT = "1"
#: What "at once" and "within the bound" are held to here (generous: a shared, loaded machine).
WITHIN = 5.0


@pytest.fixture
def bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUNCHLOG_DB_QUERY_TIMEOUT", QUERY_TIMEOUT)


def _hung_requests(
    app: Flask, ledger: Ledger, game: Any, action: dict[str, Any]
) -> list[tuple[str, int, float]]:
    """Reads, a write and /readyz at once on a database that does not answer: ``(what,
    status, seconds)`` each; then one more read (at once: the pool knows)."""
    judge = {"Authorization": f"Bearer {game.tokens['judge']}"}
    path = f"/api/games/{game.game_id}/state"

    def timed(what: str, call: Callable[[], Any]) -> tuple[str, int, float]:
        started = time.monotonic()
        response = call()
        return what, response.status_code, time.monotonic() - started

    calls: list[tuple[str, Callable[[], Any]]] = [
        *[("read", lambda: app.test_client().get(path, headers=judge))] * 3,
        ("write", lambda: ledger.post(app, game, action)),
        ("readyz", lambda: app.test_client().get("/readyz")),
    ]
    with ThreadPoolExecutor(len(calls)) as pool:
        answers = list(pool.map(lambda c: timed(*c), calls))
    answers.append(timed("read again", lambda: app.test_client().get(path, headers=judge)))
    return answers


def _through_a_hang(app: Flask, hang: Callable[[], None], resume: Callable[[], None]) -> None:
    ledger = Ledger()
    game = demo(app, seed=11, actions=4)
    assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
    action = a_legal_action(app, game)
    hang()
    try:
        answers = _hung_requests(app, ledger, game, action)
    finally:
        resume()
    for _what, status, seconds in answers:
        assert status == 503, answers
        assert seconds < WITHIN, answers
    assert answers[-1][2] < 1.0, answers  # the pool knew: at once
    deadline = time.monotonic() + 30
    while app.test_client().get("/readyz").status_code != 200:
        assert time.monotonic() < deadline, "not ready again after the database answered"
        time.sleep(0.05)
    assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
    ledger.all_there(app, game)


@pytest.mark.postgres
def test_a_proxy_that_holds_every_connection_is_503_within_the_bound(
    tmp_path: Path, bounded: None
) -> None:
    with postgres_behind_proxy() as (proxy, url):
        app = app_on(url, tmp_path)
        try:
            _through_a_hang(app, proxy.hold, proxy.release)
        finally:
            with contextlib.suppress(Exception):
                app.extensions["munchlog"].close()


@pytest.mark.postgres
def test_a_statement_that_waits_on_a_live_server_is_cancelled_and_not_tried_again(
    tmp_path: Path, bounded: None
) -> None:
    """Another session holds the events table's lock (a migration, a long ``LOCK TABLE``):
    the server cancels a read at ``lock_timeout`` and a write at ``lock_timeout``; both are 503
    at once, not tried 10 times by eventsourcing (the read) and not taken for an unreachable
    server: reads are 200 again the moment the lock is released."""
    import psycopg

    from tests.conftest import PG_URL

    with postgres_behind_proxy() as (_proxy, url):
        app = app_on(url, tmp_path)
        try:
            ledger = Ledger()
            game = demo(app, seed=14, actions=4)
            judge = {"Authorization": f"Bearer {game.tokens['judge']}"}
            path = f"/api/games/{game.game_id}/state"
            action = a_legal_action(app, game)
            app.extensions["munchlog"].store.forget(uuid.UUID(game.game_id))  # read the store
            schema = url.rsplit("schema=", 1)[1]
            with psycopg.connect(PG_URL) as locker:
                locker.execute(f'LOCK TABLE "{schema}".gamelog_events IN ACCESS EXCLUSIVE MODE')
                started = time.monotonic()
                read = app.test_client().get(path, headers=judge)
                read_took = time.monotonic() - started
                started = time.monotonic()
                write = ledger.post(app, game, action)
                write_took = time.monotonic() - started
                locker.rollback()
            assert (read.status_code, write.status_code) == (503, 503)
            assert read.get_json()["error"]["code"] == "storage/unavailable"
            assert read_took < 3 * float(QUERY_TIMEOUT) + 1, read_took  # once, not 10 times
            assert write_took < WITHIN, write_took
            assert app.test_client().get(path, headers=judge).status_code == 200  # at once
            assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
            ledger.all_there(app, game)
        finally:
            with contextlib.suppress(Exception):
                app.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- a stopped cluster


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@contextlib.contextmanager
def private_cluster() -> Iterator[tuple[str, list[int]]]:
    """A PostgreSQL cluster of this test's own (initdb into a temporary folder, as the
    ``postgres`` user when run as root; a free port): ``(url, pids)`` where ``pids`` gives
    its processes now. Skipped with the reason when initdb is missing, unless
    ``MUNCHLOG_REQUIRE_POSTGRES=1``."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        reason = "no initdb here: a private PostgreSQL cluster (to stop) cannot be made"
        if os.environ.get("MUNCHLOG_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"MUNCHLOG_REQUIRE_POSTGRES=1 but {reason}")
        pytest.skip(reason)
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="munchlog-pg-"))
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data, port = folder / "data", free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    run: Callable[..., Any] = lambda *cmd: subprocess.run(  # noqa: E731
        [*as_user, *map(str, cmd)], check=True, capture_output=True, env=env, timeout=120
    )
    try:
        run(bin_dir / "initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        run(bin_dir / "pg_ctl", "-D", data, "-o", options, "-l", folder / "log", "-w", "start")
    except (subprocess.SubprocessError, OSError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"a private PostgreSQL cluster could not be started: {exc}")
    postmaster = int((data / "postmaster.pid").read_text().split()[0])

    def pids() -> list[int]:
        kids = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(postmaster)], capture_output=True, text=True
        ).stdout.split()
        return [postmaster, *map(int, kids)]

    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres", pids  # type: ignore[misc]
    finally:
        for pid in pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        with contextlib.suppress(Exception):
            run(bin_dir / "pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.postgres
def test_a_stopped_postgresql_cluster_is_503_within_the_bound(
    tmp_path: Path, bounded: None
) -> None:
    with private_cluster() as (url, pids):
        app = app_on(url, tmp_path)
        stopped: list[int] = []

        def stop() -> None:
            stopped.extend(pids())
            for pid in stopped:
                os.kill(pid, signal.SIGSTOP)

        def resume() -> None:
            for pid in stopped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)

        try:
            _through_a_hang(app, stop, resume)
        finally:
            resume()
            with contextlib.suppress(Exception):
                app.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- recovery


@pytest.mark.slow
@pytest.mark.postgres
def test_back_within_a_second_or_so_of_the_databases_return(tmp_path: Path) -> None:
    """A 20 s outage (the proxy refusing connections), then the proxy back: the first read
    that succeeds comes well before the pool's next reconnection try (it doubled from 1 s:
    10.8 s after 20 s before). bench/outage_bench.py measures 8, 20 and 60 s."""
    with postgres_behind_proxy() as (proxy, url):
        app = app_on(url, tmp_path)
        try:
            game = demo(app, seed=12, actions=4)
            judge = {"Authorization": f"Bearer {game.tokens['judge']}"}
            path = f"/api/games/{game.game_id}/state"
            client = app.test_client()
            assert client.get(path, headers=judge).status_code == 200
            proxy.cut()
            gone_until = time.monotonic() + 20
            while time.monotonic() < gone_until:
                assert client.get(path, headers=judge).status_code == 503
                time.sleep(0.1)
            proxy.start()
            back = time.monotonic()
            while client.get(path, headers=judge).status_code != 200:
                assert time.monotonic() - back < 30, "reads did not resume"
                time.sleep(0.02)
            took = time.monotonic() - back
            assert took < 3.0, took  # (measured: 0.0-0.3 s; before: 10.8 s)
        finally:
            with contextlib.suppress(Exception):
                app.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- SQLite


def test_an_sqlite_writer_locked_out_is_503_within_the_bound(tmp_path: Path, bounded: None) -> None:
    """Another connection holds SQLite's write lock (a ``sqlite3`` shell in a transaction, a
    backup): a write waits the busy timeout (``MUNCHLOG_DB_QUERY_TIMEOUT`` less 1 s, at least
    1) and is 503, reads still answer (WAL), and writes go on once the lock is released."""
    db = tmp_path / "locked.sqlite"
    app = app_on(db, tmp_path / "instance")
    try:
        ledger = Ledger()
        game = demo(app, seed=13, actions=4)
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            started = time.monotonic()
            refused = ledger.post(app, game, a_legal_action(app, game))
            took = time.monotonic() - started
            read = app.test_client().get(
                f"/api/games/{game.game_id}/state",
                headers={"Authorization": f"Bearer {game.tokens['judge']}"},
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert refused.status_code == 503, refused.get_json()
        assert refused.get_json()["error"]["code"] == "storage/unavailable"
        assert took < WITHIN, took
        assert read.status_code == 200
        assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
        ledger.all_there(app, game)
    finally:
        app.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- /healthz


def test_healthz_has_app_threads_of_its_own() -> None:
    """Every app thread of a worker waits (on a database that does not answer, here an event):
    ``/healthz`` is still answered, in a thread kept for it; another request waits."""
    release = threading.Event()

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        if environ["PATH_INFO"] != "/healthz":
            release.wait(30)
        start_response("200 OK", [])
        return [b"ok"]

    gate = serving.WholeBody(app, 2, lambda path: 100)
    answered: list[str] = []

    def call(path: str) -> None:
        gate({"PATH_INFO": path}, lambda *a: None)
        answered.append(path)

    busy = [threading.Thread(target=call, args=("/api/x",)) for _ in range(3)]
    for t in busy:
        t.start()
    time.sleep(0.2)
    health = threading.Thread(target=call, args=("/healthz",))
    health.start()
    health.join(WITHIN)
    assert answered == ["/healthz"]  # the three others wait: two in the app, one for a slot
    release.set()
    for t in busy:
        t.join(WITHIN)
    assert sorted(answered) == ["/api/x"] * 3 + ["/healthz"]


# ---------------------------------------------------------------------------- Reachability


def test_reachability_fails_fast_until_its_probe_reaches_the_server() -> None:
    """After a failure every use fails at once, whatever the pause since; a background probe
    tries the server until it answers; then the pool is renewed and uses go on."""
    from adapters.pg_writer import Reachability
    from adapters.storage import StorageUnavailable

    answering = threading.Event()
    tries: list[float] = []
    renewed = threading.Event()

    def probe() -> None:
        tries.append(time.monotonic())
        if not answering.is_set():
            raise OSError("connection refused")

    reach = Reachability(probe, recovered=renewed.set, every=0.01)
    reach.check()  # nothing failed yet
    reach.failed()
    time.sleep(0.2)
    with pytest.raises(StorageUnavailable):
        reach.check()
    assert len(tries) > 3 and not renewed.is_set()
    answering.set()
    deadline = time.monotonic() + WITHIN
    while reach.down:
        assert time.monotonic() < deadline, "the probe did not notice the server's return"
        time.sleep(0.01)
    assert renewed.is_set()
    reach.check()
