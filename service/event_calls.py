"""Judge calls (issue #39, docs/rules.md F.8): ``POST /api/events/<id>/calls`` from a player's
event token or from a seat token of the table's game; the list, by age; a judge's claim,
escalation and resolution (``domain.tournament.calls``).

Who may see a call: the event's staff (its judges and scorekeepers) and the organizer every
call with its note; a player its own calls (not the judges' notes on them, but the
resolution's); nobody else any (a call's note may name a card in a hand).
"""

from __future__ import annotations

import secrets
from typing import Any
from uuid import UUID

from domain.errors import NotFound
from domain.fair import moment
from domain.game import token_hash
from domain.tournament import calls, staff
from domain.tournament.aggregate import Tournament
from service.errors import NotAllowedError
from service.games import utc_now
from service.tournaments import Caller, Tournaments

#: Who sees every call with its notes.
OFFICIALS = ("organizer", "judge", "scorekeeper")


class EventCalls:
    """The judge calls' use cases, over :class:`~service.tournaments.Tournaments`."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.log = tournaments.log

    # ------------------------------------------------------------------ writing

    def raise_call(
        self, event_id: UUID, token: str, caller: Caller | None, table: int, note: str
    ) -> dict[str, Any]:
        """A call from ``table`` of the current round: ``caller`` is who the token is to the
        event (``None``: none of its tokens, perhaps a seat token of the table's game). The
        game is the table's latest and its version the one it has now."""
        hashed = token_hash(token)
        call_id = "call-" + secrets.token_hex(6)

        def change(event: Tournament) -> tuple[list[Any], dict[str, Any]]:
            pairing = _table(event, table)
            player, via = self._who(event, pairing, hashed, caller)
            game_id = pairing["games"][-1]
            # the answer: the call, and the game and version the judge comes to
            raised = {
                "call_id": call_id,
                "game_id": game_id,
                "version": self.log.current_version(UUID(game_id)),
            }
            calls.raise_call(
                event, table=table, raised_by=player, via=via, note=note, at=utc_now(), **raised
            )
            return [], raised

        return self.tournaments._update(event_id, change)

    def _who(
        self,
        event: Tournament,
        pairing: dict[str, Any],
        hashed: str,
        caller: Caller | None,
    ) -> tuple[str, str]:
        """The player calling (its name) and how (``player``, ``seat``); 403
        ``auth/not_your_table`` for a player or a seat of another table, 403
        ``auth/players_only`` for the staff and the organizer."""
        seated = pairing["seats"]
        if caller is not None and caller.role == "player":
            if caller.player not in seated.values():
                raise NotAllowedError("auth/not_your_table", "you do not play at this table")
            return str(caller.player), "player"
        if caller is not None:
            raise NotAllowedError("auth/players_only", "a player of the table calls a judge")
        for game_id in pairing["games"]:
            seat = self.log.access(UUID(game_id)).role_for(hashed)
            if seat in seated:
                return str(seated[seat]), "seat"
        raise NotAllowedError(
            "auth/not_your_table", "only a token of this table's players calls a judge to it"
        )

    def seat_of_round(self, event: Tournament, token: str) -> bool:
        """Whether ``token`` is a seat token of a game of the event's current round."""
        hashed = token_hash(token)
        pairings = event.round_at(event.round)["pairings"] if event.rounds else []
        return any(
            self.log.access(UUID(g)).role_for(hashed) in p["seats"]
            for p in pairings
            for g in p["games"]
        )

    def act(self, event_id: UUID, caller: Caller, call_id: str, body: dict[str, Any]) -> dict:
        """A judge claims, escalates or resolves a call; the call as the judge then sees it.
        403 ``auth/judges_only`` for anyone but a judge (a scorekeeper rules on nothing); a
        ``dispute_id`` the call's game does not have: 404 ``dispute/not_found``."""
        if caller.role != "judge" or caller.staff_id is None:
            raise NotAllowedError("auth/judges_only", "only a judge of the event handles calls")
        dispute_id = body.get("dispute_id")

        def change(event: Tournament) -> tuple[list[Any], dict[str, Any]]:
            found = calls.calls_of(event).get(call_id)
            if dispute_id is not None and found is not None and body["action"] == "resolve":
                disputes = self.log.game(UUID(found["game_id"])).state.get("disputes") or {}
                if dispute_id not in disputes:
                    raise NotFound("dispute/not_found", f"the call's game has no {dispute_id}")
            calls.act(
                event,
                call_id,
                body["action"],
                by=str(caller.staff_id),
                head=caller.staff_role == "head_judge",
                note=body.get("note"),
                dispute_id=dispute_id,
                at=utc_now(),
            )
            return [], shown(event, calls.calls_of(event)[call_id], utc_now(), officials=True)

        return self.tournaments._update(event_id, change)

    # ------------------------------------------------------------------ reading

    def listed(self, event: Tournament, caller: Caller, now: str | None = None) -> list[dict]:
        """The calls ``caller`` may see, oldest open first (then the resolved ones, oldest
        first): every call to the staff and the organizer, its own to a player, none to
        anyone else."""
        now = now or utc_now()
        every = list(calls.calls_of(event).values())
        if caller.role in OFFICIALS:
            mine, officials = every, True
        elif caller.role == "player":
            mine, officials = [c for c in every if c["raised_by"] == caller.player], False
        else:
            return []
        ordered = sorted(mine, key=lambda c: (c["state"] == "resolved", c["opened_at"]))
        return [shown(event, c, now, officials=officials) for c in ordered]


def _table(event: Tournament, table: int) -> dict[str, Any]:
    """Table ``table`` of the event's current round (404 ``event/table_not_found``)."""
    if not event.rounds:
        raise NotFound("event/table_not_found", "no round has been paired yet")
    for pairing in event.round_at(event.round)["pairings"]:
        if pairing["table"] == table:
            return dict(pairing)
    raise NotFound("event/table_not_found", f"round {event.round} has no table {table}")


def shown(event: Tournament, call: dict[str, Any], now: str, *, officials: bool) -> dict:
    """A call as listed: who did what named (``{staff_id, name}``), its age in seconds (to
    its resolution, or to ``now``); to a player (``officials`` false) without the judges'
    notes on it."""
    resolution = call["resolution"]
    end = resolution["at"] if resolution else now
    age = max(0, int((moment(end) - moment(call["opened_at"])).total_seconds()))
    actions = [
        {**a, "by": _member(event, a["by"]), **({} if officials else {"note": None})}
        for a in call["actions"]
    ]
    return {
        "call_id": call["call_id"],
        "round": call["round"],
        "table": call["table"],
        "game_id": call["game_id"],
        "version": call["version"],
        "raised_by": call["raised_by"],
        "via": call["via"],
        "note": call["note"],
        "state": call["state"],
        "escalated": call["escalated"],
        "claimed_by": _member(event, call["claimed_by"]),
        "opened_at": call["opened_at"],
        "age_s": age,
        "resolution": (
            None if resolution is None else {**resolution, "by": _member(event, resolution["by"])}
        ),
        "actions": actions,
    }


def _member(event: Tournament, staff_id: str | None) -> dict[str, Any] | None:
    if staff_id is None:
        return None
    return {"staff_id": staff_id, "name": staff.name_of(event, staff_id)}
