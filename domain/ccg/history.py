"""The Munchkin CCG's events in a game's history row (``Family.history_updates``): its turns,
fights started (``FightStarted``), attackers caught cheating, eliminations, its end and the
judge's ``TableRestored`` (which can reopen a finished game or move it back a turn); and the
row's ``hero`` of each seat, its Hero's name (``Family.history_hero``).

>>> hero_name({"seat": "A", "player": "Ann", "hero": {"id": "h1", "name": "Orc"}})
'Orc'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.history import HistoryUpdate, Row, counted, turn_started


def _eliminated(row: Row, event: Mapping[str, Any]) -> dict[str, Any]:
    return {"end": f"{event['player']} eliminated ({event['reason']})"}


def _ended(row: Row, event: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "status": "finished",
        "winner": str(event["winner"]),
        "end": row["end"] or ("draw" if event["winner"] == "draw" else "game ended"),
    }


def _restored(row: Row, event: Mapping[str, Any]) -> dict[str, Any]:
    finished = event.get("status") == "finished"
    return {
        "turns": int(event.get("turn", row["turns"])),
        "status": str(event.get("status") or row["status"]),
        "winner": str(event["winner"]) if finished and event.get("winner") else None,
        "end": row["end"] if finished else None,
    }


def hero_name(seat: Mapping[str, Any]) -> str | None:
    """The name of the Hero a seat of ``GameCreated`` brings (``None`` without one)."""
    hero = seat.get("hero")
    return str(hero["name"]) if isinstance(hero, Mapping) and "name" in hero else None


HISTORY_UPDATES: dict[str, HistoryUpdate] = {
    "TurnStarted": turn_started,
    "FightStarted": counted("fights", "attacker"),
    "CaughtCheating": counted("caught_cheating", "player"),
    "PlayerEliminated": _eliminated,
    "GameEnded": _ended,
    "TableRestored": _restored,
}


#: How the CCG's events set an export's result (``Family.result_updates``).
RESULT_UPDATES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "GameEnded": lambda event: str(event["winner"]),
    "TableRestored": lambda event: (
        str(event["winner"]) if event.get("status") == "finished" else "*"
    ),
}
