"""Check-in and no-shows (issue #38, docs/rules.md F.7): a player checks in for the next or
current round; one not checked in ``no_show`` minutes after its round started (its clock's
start, ``domain.tournament.clock.round_started_at``) gets a game loss recorded as a ruling in
its game, by the server on its own, once (IPG 3.1 Tardiness); a player who misses two rounds in a
row is dropped, with the reason.

The event's option ``check_in: {"opens": m, "no_show": n}`` (no option: nobody checks in, and
no one is a no-show). Check-in for the round being played is open from its pairing to its end;
for the next round from ``opens`` minutes before the round being played ends by its clock (the
earliest the next one can start), and at once when no round is being played.

The events are defined here, at module level, and triggered through ``Tournament.record``.
Nothing here reads a clock: the moment asked about comes in (``now``, ISO 8601 UTC).

>>> options({"check_in": {"opens": 30, "no_show": 10}})
{'opens': 30, 'no_show': 10}
>>> options({}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from domain.errors import InvalidCommand, RuleViolation
from domain.tournament import clock
from domain.tournament.aggregate import Tournament

#: The rules section of check-in (docs/rules.md).
SECTION = "F.7"
#: The penalty guide's infraction a no-show is given (``domain.penalties.INFRACTIONS``).
TARDINESS = "tournament_error.tardiness"
#: Rounds missed in a row that drop a player.
MISSED_TO_DROP = 2


def options(body: Mapping[str, Any]) -> dict[str, int] | None:
    """The event's ``check_in`` option (``POST /api/events``), ``None`` for none: ``opens``
    (minutes before a round's start, 0 to 240) and ``no_show`` (minutes after it, 1 to 60)."""
    given = body.get("check_in")
    if given is None:
        return None
    bad = {
        key: [f"{lo} to {hi}"]
        for key, lo, hi in (("opens", 0, 240), ("no_show", 1, 60))
        if not isinstance(given.get(key), int) or not lo <= int(given[key]) <= hi
    }
    if bad:
        raise InvalidCommand("request/invalid_check_in", "check_in is {opens, no_show}", bad)
    return {"opens": int(given["opens"]), "no_show": int(given["no_show"])}


def _rounds(event: Any, name: str) -> dict[int, dict[str, Any]]:
    """``event``'s ``name`` by round (created on first use: an event stored before check-in
    has none)."""
    found: dict[int, dict[str, Any]] | None = event.__dict__.get(name)
    if found is None:
        found = event.__dict__[name] = {}
    return found


def checked_in(event: Any) -> dict[int, dict[str, Any]]:
    """``{round: {player: when}}``: who checked in for each round."""
    return _rounds(event, "checked_in")


def opened(event: Any) -> dict[int, Any]:
    """``{round: when}``: the rounds whose check-in the server said had opened."""
    return _rounds(event, "check_in_opened")


def no_shows(event: Any) -> dict[int, dict[str, Any]]:
    """``{round: {player: {table, seat, game_id}}}``: the no-shows recorded in each round."""
    return _rounds(event, "no_shows")


# ---------------------------------------------------------------------------- the events


class CheckedIn(Tournament.Event):
    """``player`` checked in for round ``round`` (with its own token) at ``at``."""

    round: int
    player: str
    at: str

    def apply(self, aggregate: Any) -> None:
        checked_in(aggregate).setdefault(self.round, {})[self.player] = self.at


class NoShowRecorded(Tournament.Event):
    """``player`` (``seat`` at ``table``) had not checked in ``no_show`` minutes after round
    ``round`` started: the server gave it a game loss in ``game_id`` (IPG 3.1 Tardiness)."""

    round: int
    table: int
    player: str
    seat: str
    game_id: str
    at: str

    def apply(self, aggregate: Any) -> None:
        no_shows(aggregate).setdefault(self.round, {})[self.player] = {
            "table": self.table,
            "seat": self.seat,
            "game_id": self.game_id,
            "at": self.at,
        }


class DroppedForNoShows(Tournament.Event):
    """``player`` missed ``rounds`` in a row: dropped after round ``after_round``, with the
    ``reason`` (never paired again, keeping the rounds played, as a drop)."""

    player: str
    after_round: int
    rounds: list[int]
    reason: str
    at: str

    def apply(self, aggregate: Any) -> None:
        aggregate.out_after(self.player, self.after_round)["drop_reason"] = self.reason


class CheckInOpened(Tournament.Event):
    """Check-in for round ``round`` opened (recorded by the server at ``at``, for the event's
    stream: the round paired, or ``opens`` minutes before the round being played ends)."""

    round: int
    at: str

    def apply(self, aggregate: Any) -> None:
        opened(aggregate)[self.round] = self.at


#: Every event class of check-in, as the event's stream names them.
EVENTS: dict[str, type[Tournament.Event]] = {
    "check_in_opened": CheckInOpened,
    "checked_in": CheckedIn,
    "no_show_recorded": NoShowRecorded,
    "dropped_for_no_shows": DroppedForNoShows,
}


# ---------------------------------------------------------------------------- deciding


def _needs_check_in(event: Any) -> dict[str, int]:
    found = event.settings.get("check_in")
    if not found:
        raise RuleViolation("rule/no_check_in", "this event has no check-in", SECTION)
    return dict(found)


def round_for(event: Any, player: str, now: str, *, current_over: bool) -> int:
    """The round ``player`` checks in for at ``now``: the round being played (paired, not over:
    ``current_over``) unless it checked in for it already, else the next one, from ``opens``
    minutes before the round being played ends by its clock (``rule/check_in_not_open``)."""
    opts = _needs_check_in(event)
    number = int(event.round)
    if number and not current_over and player not in checked_in(event).get(number, {}):
        return number
    if number and not current_over:
        end = clock.round_end(event, number, now)
        if end is None:
            raise RuleViolation(
                "rule/check_in_not_open",
                f"{player} is checked in for round {number}; check-in for round {number + 1} "
                f"opens {opts['opens']} minute(s) before round {number} ends by its clock, "
                "which has not started",
                SECTION,
            )
        opens = end - timedelta(minutes=opts["opens"])
        if clock.moment(now) < opens:
            raise RuleViolation(
                "rule/check_in_not_open",
                f"check-in for round {number + 1} opens at {clock.iso(opens)} ({opts['opens']} "
                f"minute(s) before round {number} ends)",
                SECTION,
            )
    return number + 1


def check_in(event: Any, player: str, now: str, *, current_over: bool) -> dict[str, Any]:
    """``player`` checks in (:func:`round_for`): a dropped player may not
    (``rule/already_dropped``), nor one checked in for that round already
    (``rule/already_checked_in``)."""
    if event.players[player]["dropped_after"] is not None:
        raise RuleViolation("rule/already_dropped", f"{player!r} has dropped", "F.3")
    number = round_for(event, player, now, current_over=current_over)
    if player in checked_in(event).get(number, {}):
        raise RuleViolation(
            "rule/already_checked_in", f"{player} is checked in for round {number}", SECTION
        )
    event.record(CheckedIn, round=number, player=player, at=now)
    return {"round": number, "player": player, "at": now}


def opens_at(event: Any, number: int, now: str) -> str | None:
    """When check-in for round ``number`` opens (ISO 8601 UTC), as :func:`round_for` reads it:
    the round being played's at its pairing, the next one's ``opens`` minutes before the round
    being played ends by its clock (``None``: no check-in, or that clock has not started)."""
    opts = event.settings.get("check_in")
    if not opts or number < 1:
        return None
    if number == event.round:
        return str(event.round_at(number)["paired_at"])
    end = clock.round_end(event, event.round, now) if event.round else None
    if number != event.round + 1 or end is None:
        return None
    return clock.iso(end - timedelta(minutes=int(opts["opens"])))


def no_show_deadline(event: Any, number: int) -> str | None:
    """When round ``number``'s players not checked in become no-shows (``None``: no check-in,
    or its clock has not started)."""
    opts = event.settings.get("check_in")
    started = clock.round_started_at(event, number)
    if not opts or started is None:
        return None
    return clock.iso(clock.moment(started) + timedelta(minutes=int(opts["no_show"])))


def absent(event: Any, number: int) -> list[tuple[int, str, str, str]]:
    """``(table, seat, player, game_id)`` of every player seated in round ``number`` who has
    not checked in for it, has no no-show recorded in it and is still in (its current game:
    the pairing's last)."""
    here = checked_in(event).get(number, {})
    recorded = no_shows(event).get(number, {})
    return [
        (int(pairing["table"]), seat, player, str(pairing["games"][-1]))
        for pairing in event.round_at(number)["pairings"]
        for seat, player in pairing["seats"].items()
        if player not in here
        and player not in recorded
        and event.players[player]["dropped_after"] is None
    ]


def statement(player: str, number: int, minutes: int) -> str:
    """The dispute a no-show's game loss is ruled on: how the server finds it again."""
    return (
        f"No-show: {player} had not checked in {minutes} minute(s) after round {number} "
        "started (IPG 3.1 Tardiness; recorded by the server)"
    )


def record_no_show(
    event: Any, number: int, table: int, seat: str, player: str, game_id: str, at: str
) -> bool:
    """Record ``player``'s no-show in round ``number`` (its game loss is in the game already),
    then, a no-show in the round before too, its drop (:data:`MISSED_TO_DROP` in a row);
    whether anything was recorded (a no-show is recorded once)."""
    if player in no_shows(event).get(number, {}):
        return False
    event.record(
        NoShowRecorded, round=number, table=table, player=player, seat=seat, game_id=game_id, at=at
    )
    rounds = list(range(number - MISSED_TO_DROP + 1, number + 1))
    missed = all(player in no_shows(event).get(n, {}) for n in rounds)
    if missed and event.players[player]["dropped_after"] is None:
        event.record(
            DroppedForNoShows,
            player=player,
            after_round=number,
            rounds=rounds,
            reason=f"did not check in for rounds {rounds[0]} and {rounds[-1]} in a row "
            "(a no-show in each: IPG 3.1 Tardiness)",
            at=at,
        )
    return True


def view(event: Any) -> dict[str, Any] | None:
    """``GET /api/events/<id>``'s ``check_in``: the option, and by round who has checked in
    and who was a no-show (``None``: the event has no check-in)."""
    opts = event.settings.get("check_in")
    if not opts:
        return None
    here, missed = checked_in(event), no_shows(event)
    numbers = sorted(set(here) | set(missed) | ({event.round} if event.round else set()))
    return {
        **opts,
        "opened": {str(n): at for n, at in sorted(opened(event).items())},
        "rounds": {
            str(n): {
                "checked_in": sorted(here.get(n, {})),
                "no_shows": sorted(missed.get(n, {})),
                "no_show_at": no_show_deadline(event, n) if n <= event.round else None,
            }
            for n in numbers
        },
    }
