"""A stream ticket is accepted once -- across restarts and across stream processes (issue #36
item 6; ``adapters/used_tickets.py``). The used tickets lived in one stream process's memory:
a ticket used before a restart was accepted again after it, and one used at one stream process
at another. Each app here is another process on the same store (the same SQLite file, the same
PostgreSQL schema)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import pytest
from flask import Flask

from adapters.used_tickets import UsedInDatabase, used_tickets
from service.streams import TICKET_SECONDS, Tickets, ticket_key
from tests.api.helpers import bearer
from tests.service.helpers import play_demo
from tests.streams import AsgiServer


@pytest.fixture
def stream_processes(make_app: Callable[[], Flask]) -> Iterator[Callable[[], AsgiServer]]:
    """Start stream processes (each on an app of its own) on the test's store."""
    started: list[AsgiServer] = []

    def start() -> AsgiServer:
        server = AsgiServer(make_app(), poll=0.01)
        started.append(server)
        return server

    yield start
    for server in started:
        if server.thread.is_alive():  # not closed by the test
            server.close()


def a_ticket(app: Flask, gid: Any, token: str) -> str:
    made = app.test_client().post(f"/api/games/{gid}/stream-tickets", headers=bearer(token))
    assert made.status_code == 201, made.get_json()
    return str(made.get_json()["ticket"])


def opened(server: AsgiServer, gid: Any, ticket: str) -> int:
    stream = server.open(gid, query=f"ticket={ticket}")
    if stream.status == 200:
        stream.close()
    else:
        assert '"auth/invalid_ticket"' in stream.wait(lambda s: s.ended).text
        assert "already used" in stream.text
    return int(stream.status or 0)


def test_a_ticket_used_at_one_stream_process_is_refused_at_another(
    app: Flask, stream_processes: Callable[[], AsgiServer]
) -> None:
    game = play_demo(app.extensions["munchlog"], seed=7, max_actions=4)
    first, second = stream_processes(), stream_processes()
    ticket = a_ticket(app, game.game_id, game.tokens["A"])
    assert opened(first, game.game_id, ticket) == 200
    assert opened(second, game.game_id, ticket) == 401
    other = a_ticket(app, game.game_id, game.tokens["B"])
    assert opened(second, game.game_id, other) == 200
    assert opened(first, game.game_id, other) == 401


def test_a_ticket_used_before_a_restart_is_refused_after_it(
    app: Flask, stream_processes: Callable[[], AsgiServer]
) -> None:
    game = play_demo(app.extensions["munchlog"], seed=8, max_actions=4)
    ticket = a_ticket(app, game.game_id, game.tokens["A"])
    before = stream_processes()
    assert opened(before, game.game_id, ticket) == 200
    before.close()
    before.app.hub.app.extensions["munchlog"].close()  # the process is gone
    assert opened(stream_processes(), game.game_id, ticket) == 401


def test_the_used_tickets_are_forgotten_as_they_expire(app: Flask) -> None:
    """The table holds only the tickets that have not expired yet: bounded by a minute's."""
    store = app.extensions["munchlog"].store
    used = used_tickets(store)
    assert isinstance(used, UsedInDatabase)
    now = [1_000_000.0]
    tickets = Tickets(ticket_key("x" * 64), clock=lambda: now[0], used=used)
    gid = UUID(int=9)
    made = [tickets.make(gid, "A") for _ in range(20)]
    for ticket in made:
        assert tickets.redeem(ticket, gid) == "A"
    assert used.count() == 20
    now[0] += TICKET_SECONDS + 1
    fresh = tickets.make(gid, "B")
    assert tickets.redeem(fresh, gid) == "B"
    assert used.count() == 1  # the 20 expired ones were deleted
