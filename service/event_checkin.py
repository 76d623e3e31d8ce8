"""Check-in and no-shows (issue #38, docs/rules.md F.7): a player's check-in
(``POST /api/events/<id>/check-in``) and what the server records on its own when a round's
players are due: each one not checked in ``no_show`` minutes after the round's clock started
gets a game loss ruled in its game (IPG 3.1 Tardiness), once; two rounds missed in a row drop
it (the events' keeper's due check, ``service.event_keeper``).

Each write is versioned and decided again on what is stored, so with several recording
processes the first one records and the others find it done: the game's ruling is found again
by its dispute's statement (``domain.tournament.checkin.statement``), the event's no-show by
``NoShowRecorded``. The game is written first: a process that stops between the two writes
leaves a ruling the next look finds and records in the event, never a second ruling.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.errors import RuleViolation
from domain.judge import Claim, decide_dispute, decide_ruling
from domain.ruleset import Step
from domain.tournament import checkin, clock
from domain.tournament.aggregate import Tournament
from service import games
from service.event_keeper import due_check
from service.games import Game
from service.tournaments import Tournaments


class EventCheckIn:
    """Check-in's use cases over a :class:`~service.tournaments.Tournaments`."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.log = tournaments.log

    def check_in(self, event_id: UUID, player: str, now: str | None = None) -> dict[str, Any]:
        """``player`` checks in for the next or current round (its own token)."""

        def change(event: Tournament) -> tuple[list[Any], dict[str, Any]]:
            over = not event.round or self.tournaments.round_over(
                event, event.round, self.tournaments.results(event)
            )
            if over and event.round and event.round >= self.tournaments.planned_rounds(event):
                raise RuleViolation(
                    "rule/event_finished", "every round of this event has been played", "F.2"
                )
            at = now or games.utc_now()
            return [], checkin.check_in(event, player, at, current_over=over)

        return self.tournaments._update(event_id, change)

    def view(self, event: Tournament) -> dict[str, Any] | None:
        return checkin.view(event)

    def due(self, event_id: UUID, now: str) -> str | None:
        """What is due at ``now``: check-in opened (:meth:`open_due`), then the no-shows of
        the round being played once its deadline has passed; the next moment something is
        due (``None``: nothing until the clock or the rounds change)."""
        opening = self.open_due(event_id, now)
        deadline = self.no_shows_due(event_id, now)
        later = [m for m in (opening, deadline) if m is not None]
        return min(later, key=clock.moment) if later else None

    def open_due(self, event_id: UUID, now: str) -> str | None:
        """Record ``CheckInOpened`` for the round being played and the next one once their
        check-in is open at ``now`` (once each; none past the event's last round); the next
        opening still to come."""
        event = self.tournaments.load(event_id)
        if not event.settings.get("check_in"):
            return None
        last = self.tournaments.planned_rounds(event) if event.round else None
        pending: list[str] = []
        for number in (event.round, event.round + 1):
            if number < 1 or number in checkin.opened(event) or (last and number > last):
                continue
            at = checkin.opens_at(event, number, now)
            if at is None:
                continue
            if clock.moment(now) < clock.moment(at):
                pending.append(at)
                continue

            def change(event: Tournament, *, number: int = number) -> tuple[list[Any], None]:
                if number not in checkin.opened(event):
                    event.record(checkin.CheckInOpened, round=number, at=games.utc_now())
                return [], None

            self.tournaments._update(event_id, change)
        return min(pending, key=clock.moment) if pending else None

    def no_shows_due(self, event_id: UUID, now: str) -> str | None:
        """Record the no-shows of the round being played once its deadline has passed at
        ``now``; the deadline still to come (``None``: nothing until its clock starts)."""
        event = self.tournaments.load(event_id)
        number = event.round
        deadline = checkin.no_show_deadline(event, number) if number else None
        if deadline is None:
            return None
        if clock.moment(now) < clock.moment(deadline):
            return deadline
        minutes = int(event.settings["check_in"]["no_show"])
        for table, seat, player, game_id in checkin.absent(event, number):
            self.game_loss(UUID(game_id), seat, checkin.statement(player, number, minutes))

            def change(
                event: Tournament,
                *,
                table: int = table,
                seat: str = seat,
                player: str = player,
                game_id: str = game_id,
            ) -> tuple[list[Any], bool]:
                done = checkin.record_no_show(
                    event, number, table, seat, player, game_id, games.utc_now()
                )
                return [], done

            self.tournaments._update(event_id, change)
        return None

    def game_loss(self, game_id: UUID, seat: str, statement: str) -> None:
        """A game loss for ``seat`` in the game, ruled on a dispute the server opens with
        ``statement``, unless the game has that dispute already (recorded once)."""

        def decide(game: Game) -> tuple[list[Step], Any]:
            state = game.state
            disputes = state.get("disputes") or {}
            if any(d.get("note") == statement for d in disputes.values()):
                return [], None
            opened = decide_dispute(state, Claim(raised_by="judge", statement=statement))
            dispute = str(opened[-1].event.dispute)  # type: ignore[attr-defined]
            ruling = {
                "ruling": statement,
                "penalty": {"kind": "game_loss", "seat": seat, "infraction": checkin.TARDINESS},
            }

            def no_backup(point: int) -> Any:
                raise AssertionError("a no-show's ruling backs nothing up")

            ruled = decide_ruling(opened[-1].state, dispute, ruling, no_backup)
            return opened + ruled, self.log.secrets_of(game)

        if any(
            d.get("note") == statement
            for d in (self.log.game(game_id).state.get("disputes") or {}).values()
        ):
            return
        self.log._judge(game_id, decide)


#: The keeper's check: no-shows once a round's check-in deadline has passed.
NO_SHOWS = due_check(
    "no_shows",
    (Tournament.Paired, clock.ClockStarted, clock.ClockPaused, clock.ClockResumed),
    EventCheckIn,
)
