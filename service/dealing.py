"""The server's secrets of the server-dealt games, as the service keeps them (docs/dealing.md):
read by the rules only (:class:`Secrets`), and the judge's re-keying ruling (docs/rules.md E.3).

``domain.judge.decide_ruling`` decides the ruling with a new server secret (its
``DealingRekeyed`` step records only the commitment); here the secret is added to the game's
:class:`~domain.game.GameSecrets` (saved in the same ``save`` as the ruling's events) and the
secret of the epoch that ends is kept for the judge's response alone: no event, no log line
and no other route ever carries it (it is revealed to everyone at the end, as every epoch's).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from adapters.eventstore import EventStore
from domain.envelope import Record
from domain.errors import ImpossibleCommand
from domain.game import Game, GameSecrets
from service.errors import GameNotFoundError

#: Games whose secrets are kept in memory.
CACHE_SIZE = 10_000


class Secrets:
    """The server's secrets of each server-dealt game, by epoch, read from its
    :class:`GameSecrets` and kept in memory (at most :data:`CACHE_SIZE` games)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._cache: dict[UUID, dict[int, bytes]] = {}

    def __repr__(self) -> str:  # never a secret in a log line or a traceback
        return f"Secrets(games={len(self._cache)})"

    def of(self, game: Game) -> dict[int, bytes] | None:
        """The secrets of ``game`` (``None`` for a table-dealt one; ``{}`` for one imported
        from an export, whose secret is not here: nothing is dealt in it)."""
        dealing = game.state.get("dealing")
        if dealing is None:
            return None
        cached = self._cache.get(game.id)
        if cached is not None and max(cached) >= int(dealing["epoch"]):
            return cached  # a re-keying ruling adds an epoch: then it is read again
        found: Any = self.store.load(GameSecrets.id_for(game.id), of_game=(game.id, "secrets"))
        if found is None:
            return {}
        if not isinstance(found, GameSecrets) or found.game_id != game.id:
            raise GameNotFoundError(game.id)
        secrets = found.by_epoch()
        if len(self._cache) >= CACHE_SIZE:
            self._cache.pop(next(iter(self._cache)))
        self._cache[game.id] = secrets
        return secrets


@dataclass(frozen=True)
class Ruled:
    """What recording a ruling returns: its stored records and, for a re-keying ruling, the
    secret of the epoch it ended (``{"epoch", "secret"}``, the secret as 64 lowercase hex), for
    the judge's response only (never in a ``repr``)."""

    records: list[Record]
    dealing_secret: dict[str, Any] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Rekeyed:
    """One decided re-keying: the game's secrets with the new epoch's added (to save with the
    ruling), the secrets to decide with, and what the judge is told."""

    stored: GameSecrets = field(repr=False)
    secrets: dict[int, bytes] = field(repr=False)
    disclosed: dict[str, Any] | None = field(repr=False)


def deals_here(game: Game, secrets: Mapping[int, bytes] | None) -> bool:
    """Whether this server deals ``game`` (``secrets``: :meth:`Secrets.of`): it holds the
    secret of the game's current epoch."""
    dealing = game.state.get("dealing")
    return dealing is not None and secrets is not None and int(dealing["epoch"]) in secrets


def rekeyed(
    store: EventStore,
    game: Game,
    secrets: Mapping[int, bytes] | None,
    new: bytes,
    *,
    disclose: bool = True,
) -> Rekeyed:
    """Add ``new`` as the secret of the epoch after the game's current one (to a copy of the
    stored :class:`GameSecrets`: the cached aggregate changes only once the ruling is saved).
    A game whose secret is not on this server (imported from an export) cannot be re-keyed:
    422 ``command/no_dealer``. The judge is told the secret of the epoch that ends when the
    ruling asked for the re-keying (``disclose``); not when a backup re-keys a game reopened
    after its end, whose secret everyone has seen."""
    epoch = int(game.state["dealing"]["epoch"])
    old = (secrets or {}).get(epoch)
    found: Any = store.load(GameSecrets.id_for(game.id), of_game=(game.id, "secrets"))
    if old is None or not isinstance(found, GameSecrets):
        raise ImpossibleCommand(
            "command/no_dealer",
            "the server's secret of this game is not on this server (a game imported from an "
            "export): it cannot be re-keyed",
        )
    stored: GameSecrets = copy.deepcopy(found)
    stored.add(epoch + 1, new)
    return Rekeyed(
        stored=stored,
        secrets={**(secrets or {}), epoch + 1: new},
        disclosed={"epoch": epoch, "secret": old.hex()} if disclose else None,
    )
