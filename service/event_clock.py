"""A round's clock (issue #38, docs/rules.md F.6): the staff's actions on it
(``POST /api/events/<id>/clock``), the clock as ``GET /api/events/<id>`` shows it, and time called
at a table whose time ran out, by the server with no request (the events' keeper's due check,
``service.event_keeper``).

Calling time at a table records, in each of its games not over, the kernel's ``TimeCalled``
(``domain.round_time``: the table's deadline, the extra turns the family counts from the event's
``extra_turns``, the event's ``time_result``), then the event's ``TableTimeCalled`` (the games it
was called in). Each write is versioned: with several recording processes the first commits,
the others decide again on the stored game or event, find time called already and record
nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from domain import round_time
from domain.tournament import clock
from domain.tournament.aggregate import Tournament
from service import games
from service.event_keeper import due_check
from service.games import Game, GameLog
from service.tournaments import Tournaments


class EventClock:
    """The clock's use cases over a :class:`~service.tournaments.Tournaments`."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.log: GameLog = tournaments.log

    def over(self, event: Tournament) -> bool:
        """Whether every match of the current round has its result."""
        if not event.rounds:
            return False
        service = self.tournaments
        return service.round_over(event, event.round, service.results(event))

    def view(self, event: Tournament, now: str | None = None) -> dict[str, Any]:
        """``GET /api/events/<id>``'s ``clock`` (``domain.tournament.clock.view``), with
        ``turns_left``: at each table time was called at, the turns its game still plays (the
        one in progress included; 0 once over), as a spectator sees the game (a spectator
        delay holds it back)."""
        shown = clock.view(event, now or games.utc_now(), over=self.over(event))
        turns: dict[str, int] = {}
        for table, called in clock.called(event, event.round).items():
            for game_id in called["games"]:
                gid = UUID(game_id)
                seen = self.log.delays.version_for(gid, "spectator")
                state = self.log.game(gid, version=seen).state
                left = round_time.turns_left(state)
                if state.get("status") == "finished":
                    left = 0
                if left is not None:
                    turns[table] = max(turns.get(table, 0), left)
        shown["turns_left"] = turns
        return shown

    def act(self, event_id: UUID, body: Mapping[str, Any], by: str) -> dict[str, Any]:
        """Start, pause, resume the current round's clock, or extend one table's time (``by``:
        the organizer or a judge); the clock after it. Refusals change nothing."""

        def change(event: Tournament) -> tuple[list[Any], dict[str, Any]]:
            now = games.utc_now()
            cls, fields = clock.decide(event, body, now, by=by, over=self.over(event))
            event.record(cls, **fields)
            return [], clock.view(event, now, over=False)

        return self.tournaments._update(event_id, change)

    # ------------------------------------------------------------------ time called

    def due(self, event_id: UUID, now: str) -> str | None:
        """Call time at every table of the current round whose time ran out by ``now``; the
        next table deadline still to come (``None``: none until the clock changes)."""
        event = self.tournaments.load(event_id)
        number = event.round
        for table, deadline in clock.tables_due(event, number, now):
            self._call_table(event, number, table, deadline)
        event = self.tournaments.load(event_id)
        if not number or clock.is_paused(event, number):
            return None
        called = clock.called(event, number)
        tables = [int(p["table"]) for p in event.round_at(number)["pairings"]]
        upcoming = [
            found
            for table in tables
            if str(table) not in called
            and (found := clock.table_deadline(event, number, table, now)) is not None
        ]
        return clock.iso(min(upcoming)) if upcoming else None

    def _call_table(self, event: Tournament, number: int, table: int, deadline: str) -> None:
        pairing = next(p for p in event.round_at(number)["pairings"] if p["table"] == table)
        settings = event.settings
        extra = settings.get("extra_turns")
        result = settings.get("time_result")
        called_in = [
            game_id
            for game_id in pairing["games"]
            if self.call_in_game(UUID(game_id), deadline, extra, result)
            or self.log.game(UUID(game_id)).state.get("time") is not None
        ]

        def change(event: Tournament) -> tuple[list[Any], None]:
            fields = clock.call_time(event, number, table, deadline, called_in, games.utc_now())
            if fields is not None:
                event.record(clock.TableTimeCalled, **fields)
            return [], None

        self.tournaments._update(event.id, change)

    def call_in_game(
        self, game_id: UUID, deadline: str, extra: int | None, result: str | None
    ) -> bool:
        """Record ``TimeCalled`` in one game unless it is over or has it; whether this call
        recorded it (another process may have been first)."""
        if not round_time.call_time(self.log.game(game_id).state, deadline, extra, result):
            return False

        def decide(game: Game, received_at: str) -> None:
            steps = round_time.call_time(game.state, deadline, extra, result)
            game.record_judge(steps, received_at=received_at, secrets=self.log.secrets_of(game))

        return self.log._record_due(game_id, decide, "clock")


#: The keeper's check: time called at each table whose time ran out.
TIME_CALLED = due_check(
    "time_called",
    (clock.ClockStarted, clock.ClockResumed, clock.ClockPaused, clock.TimeExtended),
    EventClock,
)
