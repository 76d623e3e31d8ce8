"""The domain commands a batch of actions stands for (``GameLog.record``): each action without
its client time, an ``attack`` salted, and in a table-dealt game the cards a draw tells by name
made into ids (docs/rules.md E.4: the game's family says which commands may, and how,
``Family.names_drawn_cards`` and ``Family.resolve_names``; classic's draws do).

Naming a drawn card by its name is the table's and the judge's (``NAMERS``). A refusal says
whether a deck still holds a card of that name, i.e. something of what the seats hold: the
table and the judge see every hand (``projections.views``), a seat does not (A.4). So a seat's
token that sends a name is refused before anything of the game is looked at (403
``auth/names_need_the_table``): its answer is the same whatever the decks hold.

What is stored is what the rules decided with (ids, as for any draw); the ``Idempotency-Key``'s
fingerprint is of what the client sent (``GameLog.record`` computes it before this runs), so a
retry of the same body with the same key replays the first answer.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from domain import fair
from domain.errors import InvalidCommand
from domain.family import family_named
from domain.fold import State
from domain.game import decide_commands
from domain.ruleset import find_ruleset
from service.errors import NotAllowedError

#: The roles that may name a drawn card by its name: those that see every hand (the service's
#: ``GAME_ROLES``).
NAMERS = frozenset({"table", "judge"})

Commands = list[tuple[dict[str, Any], str | None]]


def commands_of(
    state: State, actor: str, actions: Sequence[Mapping[str, Any]], received_at: str
) -> Commands:
    """``(command, client time)`` of each action, to be decided from ``state`` (the game's,
    before the batch) in order: :func:`split`, then :func:`named_draws`."""
    return named_draws(state, actor, split(actions), received_at)


def split(actions: Sequence[Mapping[str, Any]]) -> Commands:
    """Split each action into the domain command and its client time; salt ``attack``."""
    out: Commands = []
    for index, action in enumerate(actions):
        command = {k: v for k, v in action.items() if k != "at"}
        if "salt" in command:
            raise InvalidCommand(
                "request/salt_not_allowed",
                "the server chooses an attack's salt; do not send one",
                fields={f"actions.{index}.salt": ["not allowed"]},
            )
        if command.get("type") == "attack":
            command["salt"] = secrets.token_hex(16)
        client_at = action.get("at")
        out.append((command, None if client_at is None else str(client_at)))
    return out


def named_draws(state: State, actor: str, commands: Commands, received_at: str) -> Commands:
    """``commands`` with the cards their draws tell by name made into ids (the family's
    ``resolve_names``), each against the state the commands before it in the batch leave
    (decided here as the game decides them, their steps thrown away).

    Unchanged when none tells a card so (a family whose draws take ids only has none: its
    rules refuse a name as any malformed card). A seat's token: 403
    ``auth/names_need_the_table`` (the module's docstring). A server-dealt game's commands
    stay as sent: its rules refuse a card named in any way (``rule/server_deals``, E.1)."""
    family = family_named(state.get("ruleset"))
    named = {i for i, (command, _) in enumerate(commands) if family.names_drawn_cards(command)}
    if not named:
        return commands
    if actor not in NAMERS:
        raise NotAllowedError(
            "auth/names_need_the_table",
            "only the table's and the judge's tokens may name a drawn card by its name "
            "(what is left in a deck is not a seat's to know); name it by id",
        )
    if fair.server_deals(state):
        return commands
    rules, last = find_ruleset(str(state["ruleset"])), max(named)
    out: Commands = []
    for index, (command, client_at) in enumerate(commands):
        if index in named:
            command = family.resolve_names(state, command)
        out.append((command, client_at))
        if index < last:  # a later draw names cards: decide this one to see the state after
            steps = decide_commands(rules, state, [(command, client_at)], received_at=received_at)
            if steps:
                state = steps[-1][0].state
    return out
