"""A lost token replaced and a dropped player brought back (issue #44, docs/rules.md F.3, F.8).

**Reissuing a token.** The organizer (a head judge too, for a player) gives a player or a staff
member a new token: the event records the new token's hash only (:class:`PlayerTokenReissued`,
:class:`StaffTokenReissued`, with who did it), and from that event on the old token is nobody's
here (401). A player's seat tokens stay derived from the hash it registered with
(:func:`seat_basis`): the games' access records are written once, when a game is created, so a
game created before the new token keeps its seats' tokens and one created after gets the same
kind; the old event token no longer fetches any (``my-game`` answers only the new one). The
event's own judge token is written into every game's access record as its judge, so it cannot
be replaced (``rule/event_judge_token``): the organizer names another head judge instead.

**Bringing a dropped player back** (:class:`Readmitted`): the organizer or a scorekeeper takes
a drop back before the next round is paired (``rule/round_paired_since_drop`` after), so every
round paired so far had the player in it or before its drop, and the one reading of who was in
each round (``dropped_after``) stays true for ``munchlog verify``. A disqualified player does
not come back (``rule/disqualified``); a player still in is ``rule/not_dropped``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import NotFound, RuleViolation
from domain.tournament.aggregate import Tournament
from domain.tournament.staff import EVENT_JUDGE, drops_by, staff_of


class PlayerTokenReissued(Tournament.Event):
    """``by`` gave ``player`` a new event token, hashing to ``token_hash``."""

    player: str
    token_hash: str
    by: str
    at: str

    def apply(self, aggregate: Tournament) -> None:
        info = aggregate.players[self.player]
        info.setdefault("seat_hash", info["token_hash"])
        info["token_hash"] = self.token_hash


class StaffTokenReissued(Tournament.Event):
    """The organizer gave staff member ``staff_id`` a new token, hashing to ``token_hash``."""

    staff_id: str
    token_hash: str
    by: str
    at: str

    def apply(self, aggregate: Tournament) -> None:
        staff_of(aggregate)[self.staff_id]["token_hash"] = self.token_hash


class Readmitted(Tournament.Event):
    """``by`` brought ``player``, who had dropped, back into the event (paired again from
    the next round)."""

    player: str
    by: str
    at: str

    def apply(self, aggregate: Tournament) -> None:
        info = aggregate.players[self.player]
        info["dropped_after"] = None
        info.pop("drop_reason", None)
        drops_by(aggregate).pop(self.player, None)


def seat_basis(info: Mapping[str, Any]) -> str:
    """The hash a player's seat tokens are derived from: the one it registered with."""
    return str(info.get("seat_hash", info["token_hash"]))


def _player(event: Tournament, player: str) -> dict[str, Any]:
    if player not in event.players:
        raise NotFound("event/player_not_found", f"no player named {player!r} here")
    return event.players[player]


def reissue_player(event: Tournament, player: str, token_hash: str, by: str, at: str) -> None:
    """A new token for ``player`` (a dropped one too: it still reads its own games)."""
    _player(event, player)
    event.record(PlayerTokenReissued, player=player, token_hash=token_hash, by=by, at=at)


def reissue_staff(event: Tournament, staff_id: str, token_hash: str, by: str, at: str) -> None:
    """A new token for staff member ``staff_id``; not the event's own judge token."""
    if staff_id == EVENT_JUDGE:
        raise RuleViolation(
            "rule/event_judge_token",
            "the event's own judge token is every game's judge and cannot be replaced: "
            "name another head judge instead",
            "F.8",
        )
    if staff_id not in staff_of(event):
        raise NotFound("event/staff_not_found", f"no staff member {staff_id!r} here")
    event.record(StaffTokenReissued, staff_id=staff_id, token_hash=token_hash, by=by, at=at)


def readmit(event: Tournament, player: str, by: str, at: str) -> None:
    """``player`` dropped and comes back, before the next round is paired."""
    info = _player(event, player)
    if info.get("disqualified"):
        raise RuleViolation("rule/disqualified", f"{player!r} was disqualified", "F.3")
    if info["dropped_after"] is None:
        raise RuleViolation("rule/not_dropped", f"{player!r} has not dropped", "F.3")
    if info["dropped_after"] != event.round:
        raise RuleViolation(
            "rule/round_paired_since_drop",
            f"{player!r} dropped after round {info['dropped_after']} and round {event.round} "
            "has been paired since: a dropped player comes back only before the next round "
            "is paired",
            "F.3",
        )
    event.record(Readmitted, player=player, by=by, at=at)
