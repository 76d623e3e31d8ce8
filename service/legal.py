"""What may I do now: the commands each seat a caller may act for may issue, and whom the game
waits on (``GET /api/games/<id>/legal``, issue #26).

The commands are the ruleset's legal moves (``Ruleset.legal_commands(state, seat)``: they never
name a card the seat may not see, docs/rules.md A.4; in a server-dealt game they take the forms
without a card or a value, E.1), each a body ``POST /actions`` takes, with its ``type`` and
``seat`` first. Whom the game waits on is the family's to say (``Family.waiting_for``).

Who may act for which seats is the recording rule (``service.games._check_seats``): a seat's
token for itself, the table's and the judge's for every seat. A finished game offers nothing.

Two kinds of command are offered as forms to fill rather than as they would be sent:

* a contributor's seed commands (docs/rules.md E.2) come without their ``commitment`` and
  ``seed``: the legal moves fill them with a seed anyone can compute (``domain.seeding``,
  for play-outs), and a client must commit to random bytes of its own instead;
* in a table-dealt classic game a draw comes without the cards it draws (known to no seat
  yet, B.1): the table fills in what it drew. Only the table and the judge are offered it
  (a seat's token cannot name the cards, ``auth/names_need_the_table``): for them, who may tell those
  cards by their names (docs/rules.md E.4, ``service.commands``), such a draw carries
  ``draws``: ``{field: {"deck": "door" | "treasure", "count"?}}``, each field it wants told,
  the deck it draws from and, for a list field, how many cards (``count``; a field without it
  takes one card); e.g. ``{"type": "kick_door", "seat": "A", "draws": {"card": {"deck":
  "door"}}}``, sent as ``{"type": "kick_door", "seat": "A", "card": {"name": "..."}}``. Never
  which cards a deck holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from domain import fair
from domain.family import family_named, family_of
from domain.fold import State
from domain.ruleset import find_ruleset
from service.commands import NAMERS
from service.games import GAME_ROLES, GameLog

#: Fields of the seed commands that hold a client's own secret (or its commitment): left out.
SEED_VALUES = {"commit_seed": "commitment", "reveal_seed": "seed"}


def acting_seats(viewer: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """The seats ``viewer`` may act for: a seat itself, the table and the judge every seat,
    anyone else none.

    >>> acting_seats("B", ("A", "B")), acting_seats("judge", ("A", "B"))
    (('B',), ('A', 'B'))
    >>> acting_seats("spectator", ("A", "B"))
    ()
    """
    if viewer in GAME_ROLES:
        return seats
    return (viewer,) if viewer in seats else ()


def offered(command: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """One legal command as ``GET /legal`` offers it: ``type`` and ``seat`` first, a seed
    command without the value only its client may choose.

    >>> offered({"type": "commit_seed", "seat": "A", "commitment": "ab"}, "A")
    {'type': 'commit_seed', 'seat': 'A'}
    >>> offered({"seat": "B", "type": "pass"}, "B")
    {'type': 'pass', 'seat': 'B'}
    """
    kind = command["type"]
    secret = SEED_VALUES.get(kind)
    rest = {k: v for k, v in command.items() if k not in ("type", "seat", secret)}
    return {"type": kind, "seat": command.get("seat", seat), **rest}


def marked(state: State, command: dict[str, Any], viewer: str) -> dict[str, Any] | None:
    """``command`` as ``viewer`` is offered it: a draw offered without its cards (the family's
    ``draws_wanted``) with ``draws``, what it wants told by name, when ``viewer`` may name
    drawn cards (the table's or the judge's token), and ``None`` (not offered) when it may
    not: a seat cannot post it, the table draws it (issue #40); any other as it is."""
    draws = family_named(state.get("ruleset")).draws_wanted(state, command)
    if not draws:
        return command
    return {**command, "draws": draws} if viewer in NAMERS else None


def legal_view(state: State, viewer: str) -> dict[str, Any]:
    """``{"version", "waiting_for", "commands", "deadline"}`` of ``state`` for ``viewer``:
    every seat it may act for with the commands that seat may issue now (none in a finished
    game), and the server's pending deadline (``domain.fair.awaited``: a server-dealt game's
    seeds due by then, recorded as withheld after it by the server itself), else ``None``."""
    seats = tuple(state.get("seats") or ())
    version = int(state.get("version") or 0)
    if state.get("status") == "finished":
        return {"version": version, "waiting_for": [], "commands": {}, "deadline": None}
    ruleset = find_ruleset(str(state["ruleset"]))
    commands = {
        seat: [
            told
            for c in ruleset.legal_commands(state, seat)
            if (told := marked(state, offered(c, seat), viewer)) is not None
        ]
        for seat in acting_seats(viewer, seats)
    }
    waiting = family_of(ruleset).waiting_for(state)
    return {
        "version": version,
        "waiting_for": list(waiting),
        "commands": commands,
        "deadline": fair.awaited(state),
    }


def legal_moves(log: GameLog, game_id: UUID, viewer: str) -> dict[str, Any]:
    """What ``viewer`` may do now in the game (:func:`legal_view` of its current state)."""
    return legal_view(log.game(game_id).state, viewer)
