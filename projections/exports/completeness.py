"""What an export holds, in words (issue #44, "Exports say what they hold").

Only the judge's export is complete: every game whole (its hidden cards and its hash chain,
which ``munchlog verify`` checks and ``munchlog import`` needs), every decklist, penalty and
judge call, the results live. Every other export is a view that leaves some of it out; these
functions say whose view an export is and what it leaves out, for the event's export (its
``complete`` and ``leaves_out``: ``service.event_exports``), its report, the event page,
``munchlog export`` and ``munchlog verify``. They read only what the export itself says (its
viewer and settings), so an export made before these fields existed is described the same way.

>>> whose_event_export({"role": "organizer", "player": None})
"the organizer's"
>>> event_leaves_out({"role": "judge"}, delayed=True)
[]
>>> event_leaves_out({"role": "organizer"}, delayed=False)
["the games' hidden cards", "their hashes (so no game's chain can be checked)"]
>>> export_line("the organizer's", event_leaves_out({"role": "organizer"}, delayed=True))
"this is the organizer's export: it leaves out the games' hidden cards, their hashes (so no game's chain can be checked) and the results the spectator delay still holds back; only the judge's export is complete"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: What every partial export's description ends with.
ONLY_THE_JUDGES = "only the judge's export is complete"
#: What the complete export holds (the judge's, of an event or a game).
COMPLETE = "complete: every game whole, with its hidden cards and its hash chain"
#: What a game export without hashes costs.
NO_HASHES = "so no game's chain can be checked"
#: The viewers of a game whose export is complete (``projections.views.sees_whole_log``).
WHOLE = ("judge", "table")
#: The staff roles of an event that see every game whole (a staff judge is a ``judge``).
EVENT_JUDGES = ("judge",)


def mapping(value: Any) -> Mapping[str, Any]:
    """``value`` if it is an object, else an empty one (a part of a damaged export)."""
    return value if isinstance(value, Mapping) else {}


def whose_event_export(viewer: Mapping[str, Any]) -> str:
    """Whose an event export is, from its ``viewer`` (``{"role", "player"}``)."""
    role = viewer.get("role") if isinstance(viewer, Mapping) else None
    if role == "player":
        return f"player {viewer.get('player')}'s"
    if role == "spectator":
        return "a spectator's (the public one)"
    return f"the {role}'s" if isinstance(role, str) and role else "an unnamed viewer's"


def event_leaves_out(viewer: Mapping[str, Any], *, delayed: bool) -> list[str]:
    """What an event export read as ``viewer`` leaves out of the judge's, one phrase each
    (``[]``: the judge's, complete); ``delayed``: the event has a spectator delay, which holds
    results back from everyone but the judges."""
    role = str(viewer.get("role"))
    if role in EVENT_JUDGES:
        return []
    if role == "player":
        out = ["the other players' hidden cards", f"every game's hashes ({NO_HASHES})"]
        out += ["the other players' decklists", "their penalties", "their judge calls"]
    else:
        out = ["the games' hidden cards", f"their hashes ({NO_HASHES})"]
        if role == "scorekeeper":
            out.append("the decklists")
        elif role != "organizer":
            out += ["the decklists", "the penalties", "the judge calls"]
    if role not in ("organizer", "scorekeeper"):
        out.append("the staff")
    if delayed:
        out.append("the results the spectator delay still holds back")
    return out


def event_view(export: Mapping[str, Any]) -> tuple[str, list[str]]:
    """Whose an event export is and what it leaves out: its own ``leaves_out`` when it has
    one, else read from its viewer and settings (an export made before it had one)."""
    viewer = mapping(export.get("viewer"))
    whose = whose_event_export(viewer)
    said = export.get("leaves_out")
    if isinstance(said, list) and all(isinstance(x, str) for x in said):
        return whose, list(said)
    settings = mapping(export.get("settings"))
    return whose, event_leaves_out(viewer, delayed=bool(settings.get("spectator_delay")))


def listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> listed(["a"]), listed(["a", "b", "c"])
    ('a', 'a, b and c')
    """
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)


def export_line(whose: str, leaves_out: Sequence[str]) -> str:
    """One sentence saying whose an export is and what it leaves out (or that it is
    complete)."""
    if not leaves_out:
        return f"this is {whose} export: {COMPLETE}"
    return f"this is {whose} export: it leaves out {listed(leaves_out)}; {ONLY_THE_JUDGES}"


def whose_game_export(viewer: str) -> str:
    """Whose a game's export is, from its header's ``viewer``.

    >>> whose_game_export("B"), whose_game_export("table")
    ("seat B's", "the table's")
    """
    if _is_seat(viewer):
        return f"seat {viewer}'s"
    if viewer == "spectator":
        return "a spectator's (the public one)"
    return f"the {viewer}'s"


def game_leaves_out(viewer: str) -> list[str]:
    """What a game's export seen as ``viewer`` leaves out (``[]``: the judge's or the table's,
    complete).

    >>> game_leaves_out("A")
    ["the other seats' hidden cards", 'the hashes (so no chain can be checked and no game imported)']
    """
    if viewer in WHOLE:
        return []
    hidden = "the other seats' hidden cards" if _is_seat(viewer) else "the hidden cards"
    return [hidden, "the hashes (so no chain can be checked and no game imported)"]


def _is_seat(viewer: str) -> bool:
    return len(viewer) == 1 and viewer.isupper()
