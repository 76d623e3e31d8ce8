"""Shared fixtures: the app on each storage back end, a client, and an organizer token.

``backend`` is parametrised: ``sqlite`` (a fresh file per test) and ``postgres`` (a fresh
schema per test in ``$MUNCHLOG_TEST_DATABASE_URL``, default ``postgresql://postgres@127.0.0.1:5432/test``).
The postgres case is marked ``postgres``; it skips with the reason when the server cannot be
reached, and FAILS instead when ``MUNCHLOG_REQUIRE_POSTGRES=1``. A test (or module) marked
``storage_agnostic`` -- what it checks is HTTP's, the same on any store -- runs on SQLite only;
``storage_agnostic(False)`` takes a module's mark back for one test.

The installed game families are registered first, as the app does at start.

The tests' databases do not wait for the disk (:func:`fast_storage`): temporary folders (so every
SQLite file) are on ``/dev/shm`` when it is there, and PostgreSQL commits with
``synchronous_commit=off``. Nothing a test can observe changes (a killed server process loses
nothing either way: only a crash of the machine or of PostgreSQL could), only the ``fsync``
waits go. ``MUNCHLOG_TEST_DURABLE=1`` keeps them (as in production).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from domain.family import load_families

if TYPE_CHECKING:  # Flask is imported lazily, so tests/unit runs without it
    from flask import Flask
    from flask.testing import FlaskClient

# The kernel imports no game family: the tests register the installed ones first, as the app
# does at start (``domain.family.load_families``).
load_families()

ORGANIZER_TOKEN = "test-organizer-token"
PG_URL = os.environ.get("MUNCHLOG_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
RAM = Path("/dev/shm")


def fast_storage(environ: MutableMapping[str, str] = os.environ) -> None:
    """Let the tests' databases skip the waits for the disk, unless ``MUNCHLOG_TEST_DURABLE=1``
    (or the variables are already set): pytest's temporary folders go to ``/dev/shm`` (a RAM
    file system; ``PYTEST_DEBUG_TEMPROOT``, pytest's documented variable for it) and PostgreSQL
    connections, in this process and in the servers it starts, commit without waiting for the
    WAL to be flushed (``PGOPTIONS``). Set when this module is imported: before any temporary
    folder or connection is made."""
    if environ.get("MUNCHLOG_TEST_DURABLE") == "1":
        return
    if RAM.is_dir() and os.access(RAM, os.W_OK):
        environ.setdefault("PYTEST_DEBUG_TEMPROOT", str(RAM))
    environ.setdefault("PGOPTIONS", "-c synchronous_commit=off")


fast_storage()


def postgres_unavailable() -> str | None:
    """Why PostgreSQL cannot be used for tests, or ``None`` when it can."""
    try:
        import psycopg

        with psycopg.connect(PG_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # any failure means "not available"
        return f"PostgreSQL not reachable at {PG_URL}: {exc.__class__.__name__}: {exc}"
    return None


def require_postgres() -> None:
    reason = postgres_unavailable()
    if reason is None:
        return
    if os.environ.get("MUNCHLOG_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"MUNCHLOG_REQUIRE_POSTGRES=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session", autouse=True)
def no_real_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test touches the user's munchlog data: for the session, the default instance folder
    (``api.cli.main.instance_path``: ``$MUNCHLOG_INSTANCE``, else ``$XDG_DATA_HOME/munchlog``) is a
    temporary one, and no ``$MUNCHLOG_DATABASE_URL`` of the shell leaks into a test."""
    home = tmp_path_factory.mktemp("data-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(home))
        mp.setenv("MUNCHLOG_INSTANCE", str(home / "munchlog"))
        mp.delenv("MUNCHLOG_DATABASE_URL", raising=False)
        yield


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` (ten seconds or more: real servers, browsers, long property
    runs) start first on every worker, so that none is left alone at the end.

    With one process they simply go first. Under pytest-xdist's ``worksteal`` (the README's
    command) the workers take the collection in equal consecutive shares and steal from each
    other's tails, so the order is made of one share per worker (``PYTEST_XDIST_WORKER_COUNT``),
    each starting with its part of the slow modules (whole modules, dealt in turn from the
    largest, so a module's fixtures are set up once) and filled with the others in their own
    order; all workers order alike, as xdist requires."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    rest = [item for item in items if item.get_closest_marker("slow") is None]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    if workers <= 1 or not slow:
        items[:] = slow + rest
        return
    modules: dict[str, list[pytest.Item]] = {}
    for item in slow:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for group in sorted(modules.values(), key=len, reverse=True):
        min(heads, key=len).extend(group)
    share, extra = divmod(len(items), workers)
    ordered: list[pytest.Item] = []
    for number, head in enumerate(heads):
        size = share + (1 if number >= workers - extra else 0)
        fill = max(0, size - len(head))
        ordered += head + rest[:fill]
        del rest[:fill]
    items[:] = ordered + rest


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``backend``'s parameters: both back ends, SQLite only for ``storage_agnostic`` tests (a
    module's mark is taken back for one test by ``@pytest.mark.storage_agnostic(False)``)."""
    if "backend" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("storage_agnostic")
        agnostic = marker is not None and marker.args[:1] != (False,)
        metafunc.parametrize("backend", BACKENDS[:1] if agnostic else BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """Storage settings for one test: a new SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield {"MUNCHLOG_DATABASE_URL": str(tmp_path / "munchlog.sqlite")}
        return
    require_postgres()
    from tests.live import pg_schema

    with pg_schema(PG_URL) as schema:
        yield {"MUNCHLOG_DATABASE_URL": f"{PG_URL}?schema={schema}"}


@pytest.fixture
def make_app(backend: dict[str, Any], tmp_path: Path) -> Iterator[Callable[[], Flask]]:
    """Make apps on this test's store (each one like another server process); closed at teardown."""
    from api.app import create_app

    made: list[Flask] = []

    def make() -> Flask:
        config = {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
            **backend,
        }
        made.append(create_app(config))
        return made[-1]

    try:
        yield make
    finally:
        for app in reversed(made):
            app.extensions["munchlog"].close()


@pytest.fixture
def app(make_app: Callable[[], Flask]) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], str]:
    """Set the service's clock: ``now(minutes)`` after ``tests.fake_clock.T0`` (at 0 first)."""
    from tests.fake_clock import at

    def set_to(minutes: float) -> str:
        moment = at(minutes)
        monkeypatch.setattr("service.games.utc_now", lambda: moment)
        return moment

    set_to(0)
    return set_to
