"""Storage that refuses (issue #28 item 4): a full disk, a database that was read-only at start.

A write that storage refuses is ``503 storage/unavailable`` with ``Retry-After`` (the hot path
and the Flask route answer the same), nothing acknowledged is lost, ``/readyz`` reports it, and
the server recovers by itself when storage does: no restart.

The disk is real: a 8 MiB tmpfs mounted for the test, filled with a file and emptied again, and
a database file made immutable (``chattr +i``: read-only even for root) and writable again. Both
need root (``CAP_SYS_ADMIN``); where the test cannot mount it skips, saying why.
``test_a_refused_write_is_503_on_either_back_end`` needs no mount: it makes the store's insert
raise what the driver raises for a full disk (SQLite) or a lost connection (PostgreSQL).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.app import create_app
from api.cli.demo import DemoResult
from service.games import GameLog
from tests.api.helpers import ORGANIZER_TOKEN, bearer, demo_spec
from tests.api.test_damaged_storage import a_legal_action, demo
from tests.api.test_hotpath import hot_path
from tests.api.test_operations import Proxy, postgres_behind_proxy

# ---------------------------------------------------------------------------- a small disk


@contextlib.contextmanager
def small_disk(where: Path, size: str = "8M") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (skips the test when it cannot be mounted)."""
    where.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Write a file until the filesystem has not one byte left; returns it."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    chunk = 1 << 16
    try:
        while True:
            try:
                os.write(fd, b"\0" * chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                if chunk == 1:
                    break
                chunk //= 2
    finally:
        os.close(fd)
    return filler


def app_on(db: Path | str, instance: Path, hotpath: str = "1") -> Flask:
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(instance),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
            "MUNCHLOG_DATABASE_URL": str(db),
            "MUNCHLOG_HOTPATH": hotpath,
        }
    )


# ---------------------------------------------------------------------------- what is checked


class Ledger:
    """Every batch the server acknowledged (201): its game, version and events' hashes."""

    def __init__(self) -> None:
        self.acked: list[tuple[str, int, list[str]]] = []

    def post(self, app: Flask, game: DemoResult, action: dict[str, Any]) -> Any:
        response = app.test_client().post(
            f"/api/games/{game.game_id}/actions",
            json={"actions": [action]},
            headers=bearer(game.tokens["table"]),
        )
        if response.status_code == 201:
            body = response.get_json()
            self.acked.append((game.game_id, body["version"], [e["hash"] for e in body["events"]]))
        return response

    def all_there(self, app: Flask, game: DemoResult) -> None:
        """Every acknowledged event is stored, in an unbroken chain, as this process reads it."""
        client = app.test_client()
        judge = bearer(game.tokens["judge"])
        verify = client.get(f"/api/games/{game.game_id}/verify", headers=judge).get_json()
        assert verify["ok"] is True, verify
        events = client.get(f"/api/games/{game.game_id}/events?limit=1000", headers=judge)
        stored = {e["version"]: e["hash"] for e in events.get_json()["events"]}
        assert sorted(stored) == list(range(1, len(stored) + 1))
        for game_id, version, hashes in self.acked:
            if game_id != game.game_id:
                continue
            first = version - len(hashes) + 1
            assert [stored.get(v) for v in range(first, version + 1)] == hashes, version


def refused(response: Any) -> dict[str, Any]:
    """The one answer to a write storage refused; its error."""
    assert response.status_code == 503, (response.status_code, response.get_data(as_text=True))
    assert response.headers.get("Retry-After") == "5"
    error: dict[str, Any] = response.get_json()["error"]
    assert error["code"] == "storage/unavailable", error
    assert "nothing was recorded" in error["message"]
    return error


def ready(app: Flask) -> int:
    return int(app.test_client().get("/readyz").status_code)


# ---------------------------------------------------------------------------- a full disk


def test_a_full_disk_is_503_storage_unavailable_and_the_server_recovers_when_it_empties(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "munchlog.sqlite"
        app = app_on(db, tmp_path / "instance")
        flask_only = app_on(db, tmp_path / "instance", hotpath="0")
        try:
            ledger = Ledger()
            game = demo(app, seed=1, actions=20)
            for _ in range(3):
                assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
            assert ready(app) == 200 and ready(flask_only) == 200

            filler = fill(disk)
            action = a_legal_action(app, game)
            served = hot_path(app).served
            hot = refused(ledger.post(app, game, action))
            assert hot_path(app).served == served  # answered by the app's handlers, not a 201
            slow = refused(ledger.post(flask_only, game, action))
            assert hot == slow
            assert hot["message"] == (
                "storage refused the write: database or disk is full; nothing was recorded"
            )
            created = app.test_client().post(
                "/api/games", json=demo_spec(seed=2), headers=bearer(ORGANIZER_TOKEN)
            )
            refused(created)
            # the instance reports it is not ready (it stays alive), and reads go on
            for each in (app, flask_only):
                response = each.test_client().get("/readyz")
                assert response.status_code == 503, response.get_data(as_text=True)
                assert response.get_json()["error"]["code"] == "storage/unavailable"
                assert response.headers.get("Retry-After") == "5"
                assert each.test_client().get("/healthz").status_code == 200
            state = app.test_client().get(
                f"/api/games/{game.game_id}/state", headers=bearer(game.tokens["judge"])
            )
            assert state.status_code == 200

            filler.unlink()  # the disk empties: ready again without a write, then writes work
            assert ready(app) == 200 and ready(flask_only) == 200
            assert ledger.post(app, game, action).status_code == 201
            assert ledger.post(flask_only, game, a_legal_action(app, game)).status_code == 201
            assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
            assert len(ledger.acked) == 6

            for each in (app, flask_only):
                ledger.all_there(each, game)
        finally:
            for each in (app, flask_only):
                each.extensions["munchlog"].close()
        restarted = app_on(db, tmp_path / "instance")
        try:
            ledger.all_there(restarted, game)
        finally:
            restarted.extensions["munchlog"].close()


def test_a_disk_full_again_and_again_loses_nothing_acknowledged(tmp_path: Path) -> None:
    """Writes that fill the disk themselves: recording goes on until the disk is full, each
    refused batch is 503 (never a 500), and after the disk empties every 201 is there."""
    with small_disk(tmp_path / "disk", size="2M") as disk:
        db = disk / "munchlog.sqlite"
        app = app_on(db, tmp_path / "instance")
        try:
            ledger = Ledger()
            game = demo(app, seed=3, actions=10)
            filler = fill(disk)
            filler.unlink()
            with open(filler, "wb") as f:  # leave about 256 KiB free
                f.write(b"\0" * (os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize - 2**18))
            statuses = []
            for _ in range(200):
                response = ledger.post(app, game, a_legal_action(app, game))
                statuses.append(response.status_code)
                if response.status_code != 201:
                    refused(response)
                if statuses[-3:] == [503, 503, 503]:
                    break
            assert 201 in statuses and statuses[-1] == 503, statuses
            assert ready(app) == 503
            filler.unlink()
            assert ready(app) == 200
            assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
            ledger.all_there(app, game)
        finally:
            app.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- read-only at start


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[Callable[[], None]]:
    """``chattr +i`` on ``path`` (read-only even for root); yields the function that lifts it."""
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot make a file immutable here: {done.stderr.strip()}")

    def lift() -> None:
        subprocess.run(["chattr", "-i", str(path)], check=True)

    try:
        yield lift
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=False)


def test_a_database_read_only_at_start_takes_writes_once_it_is_writable(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "munchlog.sqlite"
        first = app_on(db, tmp_path / "instance")
        ledger = Ledger()
        game = demo(first, seed=4, actions=10)
        action = a_legal_action(first, game)
        first.extensions["munchlog"].close()

        with immutable(db) as lift:
            app = app_on(db, tmp_path / "instance")
            flask_only = app_on(db, tmp_path / "instance", hotpath="0")
            try:
                judge = bearer(game.tokens["judge"])
                state = app.test_client().get(f"/api/games/{game.game_id}/state", headers=judge)
                assert state.status_code == 200  # reads work
                hot = refused(ledger.post(app, game, action))
                assert hot == refused(ledger.post(flask_only, game, action))
                assert "readonly database" in hot["message"]
                assert ready(app) == 503

                lift()  # writable again: no restart
                assert ledger.post(app, game, action).status_code == 201
                assert ready(app) == 200
                follow = a_legal_action(app, game)
                assert ledger.post(flask_only, game, follow).status_code == 201
                ledger.all_there(app, game)
                ledger.all_there(flask_only, game)
            finally:
                for each in (app, flask_only):
                    each.extensions["munchlog"].close()


@contextlib.contextmanager
def read_only_view(of: Path, at: Path) -> Iterator[Callable[[], None]]:
    """``of`` mounted again at ``at``, read-only (a bind mount: what an operator's read-only
    volume or a file system remounted read-only after errors looks like to the server); yields
    the function that makes the view writable again."""
    at.mkdir(parents=True, exist_ok=True)
    bound = subprocess.run(["mount", "--bind", str(of), str(at)], capture_output=True, text=True)
    if bound.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {bound.stderr.strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(at)], check=True)
        yield lambda: subprocess.run(["mount", "-o", "remount,bind,rw", str(at)], check=True)
    finally:
        subprocess.run(["umount", "-l", str(at)], check=False)


@pytest.mark.parametrize("lock_file", ["there", "missing"])
def test_a_read_only_file_system_at_start_is_503_never_500_and_writes_resume(
    tmp_path: Path, lock_file: str
) -> None:
    """The whole file system read-only when the server starts (issue #36 item 5): the writer
    lock's file cannot be opened for writing (or, missing, created). Writes and game creation
    are 503 ``storage/unavailable``, reads go on, and once the file system is writable again
    writes are taken without a restart."""
    with small_disk(tmp_path / "disk") as disk:
        first = app_on(disk / "munchlog.sqlite", tmp_path / "instance")  # keeps its WAL open
        try:
            game = demo(first, seed=5, actions=10)
            action = a_legal_action(first, game)
            if lock_file == "missing":
                (disk / "munchlog.sqlite.lock").unlink()
            with read_only_view(disk, tmp_path / "view") as writable:
                db = tmp_path / "view" / "munchlog.sqlite"
                app = app_on(db, tmp_path / "instance")
                flask_only = app_on(db, tmp_path / "instance", hotpath="0")
                try:
                    ledger = Ledger()
                    judge = bearer(game.tokens["judge"])
                    state = app.test_client().get(f"/api/games/{game.game_id}/state", headers=judge)
                    assert state.status_code == 200  # reads work
                    hot = refused(ledger.post(app, game, action))
                    assert hot == refused(ledger.post(flask_only, game, action))
                    created = app.test_client().post(
                        "/api/games", json=demo_spec(seed=6), headers=bearer(ORGANIZER_TOKEN)
                    )
                    assert refused(created) == hot
                    assert ready(app) == 503

                    writable()  # no restart
                    assert ledger.post(app, game, action).status_code == 201
                    assert ready(app) == 200
                    follow = a_legal_action(app, game)
                    assert ledger.post(flask_only, game, follow).status_code == 201
                    ledger.all_there(app, game)
                finally:
                    for each in (app, flask_only):
                        each.extensions["munchlog"].close()
        finally:
            first.extensions["munchlog"].close()


# ---------------------------------------------------------------------------- either back end


def test_a_refused_write_is_503_on_either_back_end(
    make_app: Callable[[], Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the driver raises when storage refuses, raised by the store's insert: SQLite's
    ``database or disk is full`` (its code SQLITE_FULL), PostgreSQL's lost connection."""
    app = make_app()
    log: GameLog = app.extensions["munchlog"]
    ledger = Ledger()
    game = demo(app, seed=5, actions=10)
    assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
    if "postgres" in type(log.store.recorder).__module__:
        import psycopg

        error: Exception = psycopg.OperationalError("consuming input failed: server closed")
    else:
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorcode = sqlite3.SQLITE_FULL
        error.sqlite_errorname = "SQLITE_FULL"
    group = log.store._group_commit
    assert group is not None
    real = type(group)._insert_together

    def refuse(self: Any, conn: Any, pending: Any) -> None:
        raise error

    monkeypatch.setattr(type(group), "_insert_together", refuse)
    action = a_legal_action(app, game)
    served = hot_path(app).served
    hot = refused(ledger.post(app, game, action))
    assert hot_path(app).served == served
    # the Flask route (an Idempotency-Key sends the request there) answers the same
    slow = app.test_client().post(
        f"/api/games/{game.game_id}/actions",
        json={"actions": [action]},
        headers={**bearer(game.tokens["table"]), "Idempotency-Key": "k1"},
    )
    assert refused(slow) == hot
    assert log.store.write_health.refused is not None
    monkeypatch.setattr(type(group), "_insert_together", real)
    # the storage itself is fine: the readiness probe's write succeeds, and the refusal is over
    assert ready(app) == 200
    assert log.store.write_health.refused is None
    assert ledger.post(app, game, action).status_code == 201
    ledger.all_there(app, game)


@pytest.mark.postgres
def test_a_write_while_postgresql_is_gone_is_503_and_writes_resume_when_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real outage: the connections go through a proxy that is cut and started again. Each
    process decides on its cached game (it trusts it longer than a test takes), so the write is
    all that meets the outage (a read meets eventsourcing's retries and pool timeout first)."""
    import service.games

    monkeypatch.setattr(service.games, "TRUST_CACHE_FOR", 3600.0)
    with postgres_behind_proxy() as (proxy, url):
        _write_through_an_outage(proxy, url, tmp_path)


def _write_through_an_outage(proxy: Proxy, url: str, tmp_path: Path) -> None:
    app = app_on(url, tmp_path / "instance")
    flask_only = app_on(url, tmp_path / "instance", hotpath="0")
    try:
        ledger = Ledger()
        game = demo(app, seed=6, actions=10)
        assert ledger.post(app, game, a_legal_action(app, game)).status_code == 201
        assert ledger.post(flask_only, game, a_legal_action(app, game)).status_code == 201
        action = a_legal_action(flask_only, game)
        assert ready(app) == 200
        app.extensions["munchlog"].store.forget(uuid.UUID(game.game_id))  # as flask_only has it
        assert a_legal_action(app, game) == action
        proxy.cut()
        hot = refused(ledger.post(app, game, action))
        assert hot == refused(ledger.post(flask_only, game, action))
        assert hot["message"] == (
            "storage refused the write: the database server is unavailable "
            "(OperationalError); nothing was recorded"
        )
        assert ready(app) == 503
        proxy.start()
        deadline = time.monotonic() + 30
        while ready(app) != 200:
            assert time.monotonic() < deadline, "not ready again after the database came back"
            time.sleep(0.2)
        assert ledger.post(app, game, action).status_code == 201
        assert ledger.post(flask_only, game, a_legal_action(app, game)).status_code == 201
        ledger.all_there(app, game)
    finally:
        for each in (app, flask_only):
            with contextlib.suppress(Exception):
                each.extensions["munchlog"].close()


@pytest.mark.postgres
def test_reads_while_postgresql_is_gone_fail_fast_and_resume_when_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read during an outage is 503 within the pool's wait (here 2 s), not after
    eventsourcing's 10 tries of it (before: 10 x 30 s by default); the next ones at once
    (``adapters.pg_writer.Reachability``, until its probe reaches the server again); and reads
    resume by themselves once it is back.
    (A network that drops packets rather than refusing them is measured in bench/RESULTS.md,
    "A PostgreSQL network outage": it needs a network namespace.)"""
    monkeypatch.setenv("POSTGRES_CONNECT_TIMEOUT", "2")
    with postgres_behind_proxy() as (proxy, url):
        _read_through_an_outage(proxy, url, tmp_path)


def _read_through_an_outage(proxy: Proxy, url: str, tmp_path: Path) -> None:
    app = app_on(url, tmp_path)
    client = app.test_client()
    try:
        game = demo(app, seed=7, actions=4)
        path = f"/api/games/{game.game_id}/state"
        judge = bearer(game.tokens["judge"])
        assert client.get(path, headers=judge).status_code == 200
        proxy.cut()
        took = []
        for _ in range(3):
            started = time.monotonic()
            response = client.get(path, headers=judge)
            took.append(time.monotonic() - started)
            assert response.status_code == 503, response.get_json()
            assert response.get_json()["error"]["code"] == "storage/unavailable"
            assert response.headers.get("Retry-After") == "5"
        assert took[0] < 10, took  # the pool's wait and a few quick tries, not 10 waits
        assert max(took[1:]) < 0.5, took  # at once while it was unreachable a moment ago
        proxy.start()
        deadline = time.monotonic() + 30
        while client.get(path, headers=judge).status_code != 200:
            assert time.monotonic() < deadline, "reads did not resume"
            time.sleep(0.2)
    finally:
        with contextlib.suppress(Exception):
            app.extensions["munchlog"].close()
