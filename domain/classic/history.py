"""Classic Munchkin's events in a game's history row (``Family.history_updates``): its turns
(B.4), each combat as the seat's fight (B.5), a concession, and the win: one winner, or a
shared victory ``"A+C"`` (B.16), a win for each of them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.history import HistoryUpdate, Row, counted, turn_started


def _conceded(row: Row, event: Mapping[str, Any]) -> dict[str, Any]:
    return {"end": f"{event['player']} conceded"}


def _won(row: Row, event: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "status": "finished",
        "winner": "+".join(str(w) for w in event.get("winners") or ()),
        "end": f"Level 10 ({event.get('reason')})",
    }


HISTORY_UPDATES: dict[str, HistoryUpdate] = {
    "TurnBegan": turn_started,
    "CombatStarted": counted("fights", "player"),
    "ClassicConceded": _conceded,
    "GameWon": _won,
}


#: How classic events set an export's result (``Family.result_updates``): a shared victory
#: (B.16) is ``"A+C"``.
RESULT_UPDATES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "GameWon": lambda event: "+".join(str(w) for w in event.get("winners") or ()),
}
