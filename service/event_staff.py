"""An event's staff (issue #39, docs/rules.md F.8): the organizer names head judges, judges
and scorekeepers, each with a token of its own (shown once, kept as a hash).

A staff judge judges every game of the event as the event's judge token does. A game's access
record (``domain.game.GameAccess``) is written once, when the game is created, and names the
event's judge token only; a staff member's token is found through the event instead
(:meth:`EventStaff.game_role`): the game's ``event_id`` label names the event, and the event's
pairings must list the game (a label alone makes no game an event's). A scorekeeper is the
organizer to a game: it sees what the organizer sees and records and rules on nothing.
"""

from __future__ import annotations

import secrets
from typing import Any
from uuid import UUID

from domain.errors import NotFound
from domain.game import token_hash
from domain.tournament import staff, tokens
from domain.tournament.aggregate import Tournament
from service.games import utc_now
from service.tournaments import Caller, Tournaments


def game_ids(event: Tournament) -> set[str]:
    """Every game the event's pairings list."""
    return {g for r in event.rounds for p in r["pairings"] for g in p["games"]}


class EventStaff:
    """The staff use cases, over :class:`~service.tournaments.Tournaments`."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.log = tournaments.log

    def add(self, event_id: UUID, name: str, role: str) -> tuple[str, str]:
        """Name a staff member (the organizer): its id and its token (shown once)."""
        token = secrets.token_urlsafe(32)
        staff_id = "st-" + secrets.token_hex(6)

        def change(event: Tournament) -> tuple[list[Any], tuple[str, str]]:
            staff.add(event, staff_id, name, role, token_hash(token), utc_now())
            return [], (staff_id, token)

        return self.tournaments._update(event_id, change)

    def reissue(self, event_id: UUID, holder: str, who: str, by: str) -> str:
        """A new token for player ``who`` (``holder`` ``player``) or staff member ``who``
        (``staff``), the old one nobody's from now on (``domain.tournament.tokens``): the new
        token, shown once; the event keeps its hash only."""
        token = secrets.token_urlsafe(32)
        reissue = tokens.reissue_player if holder == "player" else tokens.reissue_staff

        def change(event: Tournament) -> tuple[list[Any], str]:
            reissue(event, who, token_hash(token), by, utc_now())
            return [], token

        return self.tournaments._update(event_id, change)

    def game_role(self, game_id: UUID, hashed: str) -> str | None:
        """What a token that is none of the game's own is to an event's game: ``judge`` for a
        judge of the event's staff, ``organizer`` for its scorekeeper, ``None`` otherwise (no
        event, a game the event does not list, a token not of its staff)."""
        member = self.member_in_game(game_id, hashed)
        if member is None:
            return None
        return "judge" if member["role"] in staff.JUDGES else "organizer"

    def member_in_game(self, game_id: UUID, hashed: str) -> dict[str, Any] | None:
        """The staff member (the event's judge token too) a token is in one of its event's
        games; ``None`` for a game of no event or a token not of its staff."""
        try:
            labels = self.log.summary(game_id).get("labels") or {}
            event = self.tournaments.load(UUID(str(labels.get("event_id"))))
        except (NotFound, ValueError):
            return None
        member = staff.member_for(event, hashed)
        if member is None or str(game_id) not in game_ids(event):
            return None
        return member

    @staticmethod
    def roster(event: Tournament, caller: Caller) -> list[dict[str, Any]] | None:
        """The staff as ``GET /api/events/<id>`` shows it: to the staff and the organizer
        (names, roles, ids), to no one else (``None``)."""
        if caller.role not in ("organizer", "judge", "scorekeeper"):
            return None
        return staff.roster(event)

    @staticmethod
    def member_of(event: Tournament, caller: Caller) -> dict[str, Any] | None:
        """The staff member ``caller`` is, as the roster shows it (``GET /api/events/<id>``'s
        ``staff_member``: the judge's page tells a head judge from a floor judge by it);
        ``None`` for anyone not of the staff."""
        if caller.staff_id is None:
            return None
        return next((m for m in staff.roster(event) if m["staff_id"] == caller.staff_id), None)

    @staticmethod
    def rulings(event: Tournament, caller: Caller) -> list[dict[str, Any]]:
        """Who made each ruling in the event's games, as recorded (docs/rules.md F.8):
        ``{game_id, version, dispute, by: {staff_id, name}, at}``, to the staff and the
        organizer; ``[]`` to anyone else."""
        if caller.role not in ("organizer", "judge", "scorekeeper"):
            return []
        return [
            {**row, "by": {"staff_id": row["by"], "name": staff.name_of(event, row["by"])}}
            for row in staff.rulings_of(event)
        ]
