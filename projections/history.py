"""Match histories: one row per game, folded from its stored records.

Pure functions, no I/O (the store that keeps the rows up to date from the notification log is
:mod:`projections.history_store`). A *history row* is plain JSON data::

    {"game_id", "created_at", "last_at", "labels", "seats": {"A": {"player", "hero"}, ...},
     "status": "setup"|"playing"|"finished", "winner": None|seat|"draw"|"A+C", "end": None|str,
     "turns", "events", "fights": {seat: n}, "caught_cheating": {seat: n}}

The seats are the game's own (its creation event's, in seating order); ``hero`` is what the
game's family names as the seat's character (``Family.history_hero``: the CCG's Hero card's
name), or ``None`` in a family without one. A classic game's shared victory (docs/rules.md
B.16) is a winner ``"A+C"``: a win for each of them.

Everything in it is public information (docs/rules.md A.4): who played which hero, turn numbers,
fights started, seats caught cheating, how the game ended. ``fold_history(None, record)``
starts a row from a game's ``GameCreated`` record, every later record is folded in with
``fold_history(row, record)``: each family says how its events change the row
(``Family.history_updates``; a CCG judge's ``TableRestored`` can reopen a finished game or
move it back to an earlier turn).

:func:`player_games` turns rows into one player's history (hero, opponent, result from their
side), and :func:`totals` sums such entries (per player, or per hero with :func:`hero_totals`).

>>> from domain import DEFAULT_RULESET
>>> created = {"version": 1, "received_at": "2024-05-01T10:00:00+00:00", "event": {
...     "type": "GameCreated", "ruleset": DEFAULT_RULESET, "labels": {"event": "Cup"}, "seats": [
...     {"seat": "A", "player": "Ann", "hero": {"name": "Orc"}},
...     {"seat": "B", "player": "Bob", "hero": {"name": "Gnome"}}]}}
>>> row = fold_history(None, created, game_id="g1")
>>> row = fold_history(row, {"version": 2, "received_at": "2024-05-01T10:30:00+00:00",
...     "event": {"type": "GameEnded", "winner": "B"}}, game_id="g1")
>>> [(e["hero"], e["opponent"], e["result"], e["length_seconds"]) for e in player_games([row], "bob")]
[('Gnome', 'Ann', 'win', 1800)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from domain import DEFAULT_RULESET
from domain.family import family_named, history_updates

HistoryRow = dict[str, Any]
RESULTS = ("win", "loss", "draw", "unfinished")


def fold_history(
    row: Mapping[str, Any] | None, record: Mapping[str, Any], *, game_id: str
) -> HistoryRow:
    """The history row after ``record`` (a stored record, ``domain.game.Record``).

    ``row`` is ``None`` for the game's first record, which must be its ``GameCreated``. Never
    mutates ``row``; returns a new one.
    """
    event = record["event"]
    etype = event.get("type")
    at = str(record.get("received_at") or "")
    if row is None:
        if not isinstance(event.get("seats"), list):
            raise ValueError(f"a game's history starts with the event creating it, not {etype}")
        seats = [str(s["seat"]) for s in event["seats"]]
        family = family_named(event.get("ruleset", DEFAULT_RULESET))
        return {
            "game_id": game_id,
            "created_at": at,
            "last_at": at,
            "labels": dict(event.get("labels") or {}),
            "seats": {
                s["seat"]: {"player": str(s["player"]), "hero": family.history_hero(s)}
                for s in event["seats"]
            },
            "status": "setup",
            "winner": None,
            "end": None,
            "turns": 0,
            "events": int(record.get("version") or 1),
            "fights": dict.fromkeys(seats, 0),
            "caught_cheating": dict.fromkeys(seats, 0),
        }
    new: HistoryRow = {
        **row,
        "last_at": at or row["last_at"],
        "events": int(record.get("version") or row["events"] + 1),
    }
    update = history_updates().get(str(etype))
    if update is not None:
        new.update(update(row, event))
    return new


def seconds_between(start: str, end: str) -> int | None:
    """Whole seconds from ``start`` to ``end`` (ISO 8601), or ``None`` if either is unreadable.

    >>> seconds_between("2024-05-01T10:00:00+00:00", "2024-05-01T10:02:03.5+00:00")
    123
    """
    try:
        return int((datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds())
    except (TypeError, ValueError):
        return None


def seat_of(row: Mapping[str, Any], player: str) -> str | None:
    """The seat ``player`` (case-insensitive) had in the game, or ``None``."""
    wanted = player.casefold()
    for seat in row["seats"]:
        if str(row["seats"][seat]["player"]).casefold() == wanted:
            return seat
    return None


def result_for(row: Mapping[str, Any], seat: str) -> str:
    """``win``, ``loss``, ``draw`` or ``unfinished`` from ``seat``'s side."""
    winner = row["winner"]
    if row["status"] != "finished" or winner is None:
        return "unfinished"
    if winner == "draw":
        return "draw"
    return "win" if seat in str(winner).split("+") else "loss"


def player_entry(row: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """One game of a player's history, from ``seat``'s side.

    ``opponent`` and ``opponent_hero`` name the next seat in seating order (the only other one
    in a two-seat game); ``opponents`` lists every other seat's ``{seat, player, hero}``;
    ``bluffs_caught`` counts the other seats caught cheating.
    """
    others = [s for s in row["seats"] if s != seat]
    order = list(row["seats"])
    other = order[(order.index(seat) + 1) % len(order)] if others else seat
    labels = row["labels"]
    return {
        "game_id": row["game_id"],
        "date": str(row["created_at"])[:10],
        "created_at": row["created_at"],
        "event": labels.get("event"),
        "round": labels.get("round"),
        "table": labels.get("table"),
        "labels": dict(labels),
        "seat": seat,
        "player": row["seats"][seat]["player"],
        "hero": row["seats"][seat]["hero"],
        "opponent": row["seats"][other]["player"],
        "opponent_hero": row["seats"][other]["hero"],
        "opponents": [{"seat": s, **row["seats"][s]} for s in others],
        "result": result_for(row, seat),
        "end": row["end"],
        "turns": row["turns"],
        "events": row["events"],
        "length_seconds": seconds_between(row["created_at"], row["last_at"]),
        "fights": row["fights"][seat],
        "bluffs_caught": sum(row["caught_cheating"].get(s, 0) for s in others),
        "caught_cheating": row["caught_cheating"][seat],
    }


def player_games(rows: Iterable[Mapping[str, Any]], player: str) -> list[dict[str, Any]]:
    """``player``'s games (case-insensitive name), in the order of ``rows``."""
    out = []
    for row in rows:
        seat = seat_of(row, player)
        if seat is not None:
            out.append(player_entry(row, seat))
    return out


def totals(entries: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Games, results, averages (over finished games), fights and bluffs caught.

    >>> totals([{"result": "win", "length_seconds": 60, "turns": 4, "fights": 3,
    ...          "bluffs_caught": 1, "caught_cheating": 0}])["average_length_seconds"]
    60.0
    """
    entries = list(entries)
    finished = [e for e in entries if e["result"] != "unfinished"]
    lengths = [e["length_seconds"] for e in finished if e["length_seconds"] is not None]
    out: dict[str, Any] = {"games": len(entries), "finished": len(finished)}
    for result in ("win", "loss", "draw"):
        out[f"{result}s" if result != "loss" else "losses"] = sum(
            1 for e in finished if e["result"] == result
        )
    out["average_length_seconds"] = round(sum(lengths) / len(lengths), 1) if lengths else None
    out["average_turns"] = (
        round(sum(e["turns"] for e in finished) / len(finished), 1) if finished else None
    )
    out["fights"] = sum(e["fights"] for e in entries)
    out["bluffs_caught"] = sum(e["bluffs_caught"] for e in entries)
    out["caught_cheating"] = sum(e["caught_cheating"] for e in entries)
    return out


def hero_totals(entries: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """:func:`totals` per hero played, heroes sorted by name."""
    by_hero: dict[str, list[Mapping[str, Any]]] = {}
    for entry in entries:
        by_hero.setdefault(str(entry["hero"]), []).append(entry)
    return {hero: totals(by_hero[hero]) for hero in sorted(by_hero)}
