"""An event's staff (issue #39, docs/rules.md F.8): the head judges, the floor judges and the
scorekeepers the organizer names, each with a token of its own, so a ruling, a result or a
call's handling says which of them made it.

The event's own judge token (``Tournament.Opened``'s ``judge_token_hash``) stays what it was, a
head judge (:data:`EVENT_JUDGE`). A judge or head judge judges every game of the event; a
scorekeeper enters results and drops and rules on nothing. Tokens are kept as hashes only.

:class:`StaffAdded` is an event of the :class:`~domain.tournament.aggregate.Tournament`,
decided here (:func:`add`) and triggered by its ``record``; it applies to the aggregate's ``staff`` (read through
:func:`staff_of`, which an event stored before staff existed never set).
"""

from __future__ import annotations

import hmac
from typing import Any

from domain.errors import RuleViolation
from domain.tournament.aggregate import Tournament, own_fields

#: The roles a staff member may have.
ROLES = ("head_judge", "judge", "scorekeeper")
#: The roles that judge the event's games (and are ``judge`` to them and to the event).
JUDGES = ("head_judge", "judge")
#: The staff id of the event's own judge token: a head judge since the event opened.
EVENT_JUDGE = "event-judge"


class StaffAdded(Tournament.Event):
    """The organizer named ``name`` a ``role`` of the event, with a token hashing to
    ``token_hash``."""

    staff_id: str
    name: str
    role: str
    token_hash: str
    at: str

    def apply(self, aggregate: Tournament) -> None:
        row = own_fields(self)
        row["added_at"] = row.pop("at")
        staff_of(aggregate)[self.staff_id] = row


def staff_of(aggregate: Any) -> dict[str, dict[str, Any]]:
    """The event's staff by id, in the order they were named (the event's own judge token is
    not among them: :data:`EVENT_JUDGE`)."""
    found: dict[str, dict[str, Any]] = vars(aggregate).setdefault("staff", {})
    return found


def member_for(aggregate: Any, hashed: str) -> dict[str, Any] | None:
    """The staff member whose token hashes to ``hashed`` (constant-time comparisons), the
    event's judge token as :data:`EVENT_JUDGE`'s head judge; ``None`` for none."""
    found: dict[str, Any] | None = None
    if hmac.compare_digest(aggregate.judge_token_hash, hashed):
        found = event_judge()
    for member in staff_of(aggregate).values():
        if hmac.compare_digest(member["token_hash"], hashed):
            found = member
    return found


def event_judge() -> dict[str, Any]:
    """The event's own judge token as a staff member: a head judge."""
    return {"staff_id": EVENT_JUDGE, "name": "head judge", "role": "head_judge"}


def shown(member: dict[str, Any]) -> dict[str, Any]:
    """A staff member as the event shows it to its staff and the organizer (no token hash)."""
    return {k: member[k] for k in ("staff_id", "name", "role")}


def roster(aggregate: Any) -> list[dict[str, Any]]:
    """Every staff member as shown: the event's judge token first, then in the order named."""
    return [shown(event_judge())] + [shown(m) for m in staff_of(aggregate).values()]


def name_of(aggregate: Any, staff_id: str | None) -> str | None:
    """The name of staff member ``staff_id`` (``None`` for none or one unknown)."""
    if staff_id == EVENT_JUDGE:
        return str(event_judge()["name"])
    member = staff_of(aggregate).get(staff_id or "")
    return None if member is None else str(member["name"])


def add(event: Tournament, staff_id: str, name: str, role: str, token_hash: str, at: str) -> None:
    """Name a staff member (the organizer): a name no other staff member of the event has
    (``rule/staff_named``, F.8)."""
    if any(m["name"] == name for m in staff_of(event).values()):
        raise RuleViolation("rule/staff_named", f"{name!r} is on the staff already", "F.8")
    event.record(StaffAdded, staff_id=staff_id, name=name, role=role, token_hash=token_hash, at=at)


class RulingMade(Tournament.Event):
    """Staff member ``by`` made the ruling recorded at ``version`` of ``game_id``, one of the
    event's games, on its dispute ``dispute``: saved in the same save as the ruling (a game's
    own events name no judge: its ``judge`` token is the game's one judge role)."""

    game_id: str
    version: int
    dispute: str
    by: str
    at: str

    def apply(self, aggregate: Tournament) -> None:
        rulings_of(aggregate).append(
            {
                "game_id": self.game_id,
                "version": self.version,
                "dispute": self.dispute,
                "by": self.by,
                "at": self.at,
            }
        )


def rulings_of(aggregate: Any) -> list[dict[str, Any]]:
    """Who made each ruling in the event's games (``RulingMade``), in the order made."""
    found: list[dict[str, Any]] = vars(aggregate).setdefault("staff_rulings", [])
    return found


def ruled(event: Tournament, game_id: str, version: int, dispute: str, by: str, at: str) -> None:
    """Record that staff member ``by`` made the ruling at ``version`` of ``game_id``."""
    event.record(RulingMade, game_id=game_id, version=version, dispute=dispute, by=by, at=at)


def ruled_by(aggregate: Any, game_id: str, version: int) -> str | None:
    """The staff id of whoever made the ruling at ``version`` of ``game_id`` (``None``: not
    recorded, e.g. a ruling made before staff existed)."""
    for row in rulings_of(aggregate):
        if row["game_id"] == game_id and row["version"] == version:
            return str(row["by"])
    return None


class DropMade(Tournament.Event):
    """``by`` (a role, or ``<staff role>:<staff id>``) dropped ``player``: saved with its
    ``Dropped`` (whose shape stays as stored)."""

    player: str
    by: str
    at: str

    def apply(self, aggregate: Tournament) -> None:
        drops_by(aggregate)[self.player] = self.by


def drops_by(aggregate: Any) -> dict[str, str]:
    """Who dropped each player dropped since drops named who (``DropMade``)."""
    found: dict[str, str] = vars(aggregate).setdefault("drops_by", {})
    return found


def dropped(event: Tournament, player: str, by: str, at: str) -> None:
    """Record who dropped ``player`` (after ``Tournament.drop``, in the same save)."""
    event.record(DropMade, player=player, by=by, at=at)
