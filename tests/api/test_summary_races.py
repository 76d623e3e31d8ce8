"""One summary per game on every worker (issue #35, item 7): a write that loses its race leaves
no trace in any worker's cache.

Two apps on one store are two workers, each with its own cache. A write through the first is
made to lose its race: just before its save, the second records something (``race``). The
lost write is decided again on the stored game and saved; its first attempt must not have
changed the first worker's cached summary. Before the fix (``EventStore.load`` handed the
cached ``GameSummary`` itself to ``GameLog._write``, whose ``summary.follow`` changed it before
the save that failed), the first worker went on answering the status of the failed attempt
(``finished`` while the store said ``setup``), and a later change of status saved the summary's
next version after a gap: ``GET /api/games/<id>`` then failed (``OriginatorVersionError``) on
any worker that read the summary from the store.

The same, forced with real processes on PostgreSQL: tests/api/test_summary_workers.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import RecordConflictError
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.folding import project
from domain.game import GameSummary
from tests.api.helpers import ORGANIZER_TOKEN, bearer, create_game, judge_state, post_actions

Write = Callable[[], Any]


@contextmanager
def race(app: Flask, interloper: Write) -> Iterator[list[Any]]:
    """While inside, ``app``'s next save first lets ``interloper`` (another worker's write)
    record: the save then conflicts, and the write is decided again. Yields what the
    interloper answered (once it has run)."""
    store = app.extensions["munchlog"].store
    real = store.save
    answered: list[Any] = []

    def save(*objs: Any, **kwargs: Any) -> Any:
        if not answered:
            answered.append(interloper())
        return real(*objs, **kwargs)

    store.save = save
    try:
        yield answered
    finally:
        del store.save  # the class's own again


class Table:
    """One game, written and read through several workers (apps on one store)."""

    def __init__(self, apps: list[Flask]) -> None:
        self.apps = apps
        self.clients = [app.test_client() for app in apps]
        self.game = create_game(self.clients[0])
        self.gid = self.game["game_id"]
        self.finished_at: list[int] = []  # the version before each concession that ended it

    def concede(self, worker: int, seat: str) -> Any:
        token = self.game["seats"][seat]["token"]
        response = post_actions(self.clients[worker], self.gid, token, [concede(seat)])
        if response.status_code == 201:
            self.finished_at.append(response.get_json()["events"][0]["version"] - 1)
        return response

    def dispute(self, worker: int) -> str:
        response = self.clients[worker].post(
            f"/api/games/{self.gid}/disputes",
            json={"statement": "a look at the last turn"},
            headers=bearer(self.game["judge_token"]),
        )
        assert response.status_code == 201, response.get_json()
        return str(response.get_json()["dispute"]["dispute_id"])

    def rule(self, worker: int, dispute: str, backup_to: int | None) -> Any:
        return self.clients[worker].post(
            f"/api/games/{self.gid}/disputes/{dispute}/ruling",
            json={"ruling": "backed up", "backup_to": backup_to},
            headers=bearer(self.game["judge_token"]),
        )

    def backup(self, worker: int) -> Any:
        """A judge's ruling that backs the game up to before its last concession (none: a
        ruling without a backup), the dispute opened through the same worker."""
        dispute = self.dispute(worker)
        return self.rule(worker, dispute, self.finished_at[-1] if self.finished_at else None)

    def answers(self) -> list[Any]:
        """``GET /api/games/<id>`` through every worker (status and body)."""
        return [
            (r.status_code, r.get_json())
            for r in (c.get(f"/api/games/{self.gid}") for c in self.clients)
        ]

    def check(self) -> None:
        """Every worker answers the same, what the game's log folds to, and lists the game
        under its status; the summary's stored events fold to the same status."""
        state = judge_state(self.clients[0], self.game)
        folded = (state["status"], state.get("winner"))
        answers = self.answers()
        assert all(status == 200 for status, _ in answers), answers
        assert all(body == answers[0][1] for _, body in answers), answers
        assert (answers[0][1]["status"], answers[0][1]["winner"]) == folded
        for client in self.clients:
            listed = client.get(
                f"/api/games?status={folded[0]}&limit=100", headers=bearer(ORGANIZER_TOKEN)
            ).get_json()["games"]
            assert self.gid in [g["game_id"] for g in listed]
        assert stored_summary(self.apps[0], UUID(self.gid)) == folded


def concede(seat: str) -> dict[str, Any]:
    return {"type": "concede", "seat": seat}


def stored_summary(app: Flask, gid: UUID) -> tuple[str, str | None]:
    """The summary folded from its stored events alone (no cache): a gap in its versions
    raises, as it made ``GET`` answer 500."""
    store = app.extensions["munchlog"].store
    summary = project(None, store.events.get(GameSummary.id_for(gid)))
    return summary.status, summary.winner


def test_a_concession_that_loses_its_race_leaves_every_worker_one_status(
    make_app: Callable[[], Flask],
) -> None:
    table = Table([make_app(), make_app()])
    table.check()  # both workers have the summary cached
    with race(table.apps[0], lambda: table.dispute(1)):
        conceded = table.concede(0, "A")
    assert conceded.status_code == 201, conceded.get_json()
    table.check()
    assert table.answers()[0][1]["status"] == "finished"
    # a later change of status through the same worker is stored after the one before
    assert table.backup(0).status_code == 201
    table.check()
    assert table.answers()[0][1]["status"] == "setup"


def test_a_backup_that_loses_its_race_leaves_every_worker_one_status(
    make_app: Callable[[], Flask],
) -> None:
    table = Table([make_app(), make_app()])
    assert table.concede(1, "B").status_code == 201
    table.check()
    dispute = table.dispute(0)
    with race(table.apps[0], lambda: table.dispute(1)):
        ruled = table.rule(0, dispute, table.finished_at[-1])
    assert ruled.status_code == 201, ruled.get_json()
    table.check()
    assert table.answers()[0][1]["status"] == "setup"
    assert table.concede(0, "A").status_code == 201
    table.check()


@pytest.mark.storage_agnostic
def test_a_worker_answers_no_status_before_it_is_stored(make_app: Callable[[], Flask]) -> None:
    """A write changes a copy of the summary: until it is saved, the worker's readers (other
    threads of the same process) see the stored one."""
    table = Table([make_app()])
    table.check()
    with race(table.apps[0], lambda: table.answers()[0][1]["status"]) as seen:
        assert table.concede(0, "A").status_code == 201
    assert seen == ["setup"]
    table.check()


@pytest.mark.storage_agnostic
def test_a_failed_save_drops_the_cached_copy_it_changed(make_app: Callable[[], Flask]) -> None:
    """The guard behind the copies: a writer that changed the cached aggregate itself and
    failed to save it leaves it out of the cache (the next read folds what is stored)."""
    table = Table([make_app(), make_app()])
    store = table.apps[0].extensions["munchlog"].store
    sid = GameSummary.id_for(UUID(table.gid))
    cached: Any = store.repository.get(sid, deepcopy_from_cache=False)
    cached.trigger_event(
        GameSummary.StatusChanged, status="finished", winner="B", changed_at="2026-01-01"
    )
    assert table.concede(1, "B").status_code == 201  # the other worker stores version 2
    with pytest.raises(RecordConflictError):
        store.save(cached)
    with pytest.raises(KeyError):
        store.repository.cache.get(sid)
    table.check()


#: A step: (worker, what it writes, what the other worker writes first to make it lose its
#: race, or None).
KINDS = ("concede A", "concede B", "backup", "dispute")
steps = st.lists(
    st.tuples(st.sampled_from((0, 1)), st.sampled_from(KINDS), st.sampled_from((*KINDS, None))),
    min_size=1,
    max_size=6,
)


def write(table: Table, worker: int, kind: str) -> Any:
    if kind == "dispute":
        return table.dispute(worker)
    if kind == "backup":
        return table.backup(worker)
    return table.concede(worker, kind[-1])


@pytest.mark.storage_agnostic
def test_any_raced_writes_leave_every_worker_answering_the_fold_of_the_log(
    make_app: Callable[[], Flask],
) -> None:
    """A property: whatever writes race, through whichever worker, after each one every
    worker answers what the log folds to (a new game per example, on the same two workers)."""
    apps = [make_app(), make_app()]

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(steps=steps)
    def raced(steps: list[tuple[int, str, str | None]]) -> None:
        table = Table(apps)
        table.check()
        for worker, kind, first in steps:
            if first is None:
                write(table, worker, kind)
            else:
                with race(apps[worker], lambda w=1 - worker, k=first: write(table, w, k)):
                    write(table, worker, kind)
            table.check()

    raced()
