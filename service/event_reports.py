"""Results the players report, and a judge's correction of a past round (issue #38,
docs/rules.md F.3): the use cases over :mod:`domain.tournament.reports`.

A report is checked against what the event's games recorded when the event's results come
from its games (``results: "games"``): read here, from the games, as the event's results always
are; an event played on paper (``"reported"``) reads no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from domain.tournament import reports, rules
from domain.tournament.aggregate import Tournament
from service.games import utc_now
from service.tournaments import Tournaments

#: What a "games" event's games recorded of one pairing: the result they decided (``None``:
#: undecided), the game wins by player and the drawn games so far.
Recorded = tuple[Mapping[str, Any] | None, Mapping[str, int], int]


class EventReports:
    """Players' reports and judges' corrections, over a :class:`~service.tournaments.Tournaments`."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments

    def report(
        self, event_id: UUID, number: int, player: str, given: Mapping[str, Any]
    ) -> dict[str, Any]:
        """``player`` reports its pairing's result in round ``number``
        (``POST …/rounds/<n>/report``)."""

        def change(event: Tournament) -> tuple[list[Any], dict[str, Any]]:
            recorded = None
            if reports.mode(event.settings) == "games":
                recorded = self.recorded(event, number, player)
            out = reports.report(event, number, player, given, recorded=recorded, at=utc_now())
            pairing = event.pairing_of(number, player)
            if pairing is not None and "reported" in pairing:  # the reports agreed: it stands
                self.tournaments.close_games(event, number, pairing["table"], "players")
            return [], out

        return self.tournaments._update(event_id, change)

    def correct(
        self, event_id: UUID, number: int, body: Mapping[str, Any], by: str
    ) -> dict[str, Any]:
        """A judge corrects the result that stands at ``body["table"]`` of round ``number``
        (``POST …/rounds/<n>/correction``), with ``body["reason"]``."""

        def change(event: Tournament) -> tuple[list[Any], dict[str, Any]]:
            out = reports.correct(
                event,
                number,
                int(body["table"]),
                body,
                reason=str(body.get("reason") or ""),
                by=by,
                at=utc_now(),
            )
            return [], out

        return self.tournaments._update(event_id, change)

    def recorded(self, event: Tournament, number: int, player: str) -> Recorded | None:
        """What the games of ``player``'s pairing in round ``number`` recorded (``None``: not
        paired, which the report names)."""
        pairing = event.pairing_of(number, player)
        if pairing is None:
            return None
        unreported = {k: v for k, v in pairing.items() if k != "reported"}
        settings = event.settings
        if rules.is_table_game(settings["ruleset"]):
            facts, state = self.tournaments._game_facts(UUID(pairing["games"][-1]), "judge")
            return rules.pairing_result(settings, unreported, [facts], state), {}, 0
        games = [self.tournaments._game_facts(UUID(g), "judge")[0] for g in pairing["games"]]
        decided = rules.pairing_result(settings, unreported, games, None)
        wins, drawn, _ = rules.two_player_score(pairing["seats"], games)
        return decided, wins, drawn
