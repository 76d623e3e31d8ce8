"""The service's errors: each has a stable ``code``; :mod:`api.json_api.errors` maps them to HTTP.

Storage that refuses (a full disk, a read-only file, a database that went away) is
:class:`StorageUnavailable` (``storage/unavailable``), whichever layer meets it;
:func:`storage_refusal` tells such an error from a bug.

A version or a dispute a game does not have is the domain's :class:`~domain.errors.NotFound`
(``UnknownVersion``): the service raises the same errors for its look-ups.
"""

from __future__ import annotations

from adapters.storage import StorageUnavailable, storage_refusal
from domain.errors import CodedError

__all__ = [
    "DoesNotExtend",
    "GameAlreadyExistsError",
    "GameNotFoundError",
    "IdempotencyKeyReusedError",
    "NotAllowedError",
    "StorageUnavailable",
    "VersionConflictError",
    "storage_refusal",
]


class GameNotFoundError(CodedError, LookupError):
    """No game has this id."""

    code = "game/not_found"

    def __init__(self, game_id: object) -> None:
        super().__init__(f"no game {game_id}")


class DoesNotExtend(CodedError):
    """A mirror's batch that does not extend the copy held here (HTTP 409, ``service.mirrors``
    for a game's part, ``service.mirror_events`` for an event's): ``version`` is the version of
    the copy held here, ``at`` the batch's version at fault and ``reason`` why; ``named`` the
    copy's id under its kind (``game_id`` or ``event_id``)."""

    code = "mirror/does_not_extend"

    def __init__(
        self,
        copy_id: object,
        version: int,
        at: int,
        reason: str,
        detail: str = "",
        *,
        kind: str = "game",
    ) -> None:
        super().__init__(
            f"{kind} {copy_id} is held here at version {version}; the batch's version {at} "
            f"does not extend it ({reason}{': ' + detail if detail else ''})"
        )
        self.named = {f"{kind}_id": str(copy_id)}
        self.version = version
        self.at = at
        self.reason = reason


class VersionConflictError(CodedError):
    """The game is not at the version the client expected (or another write won a race)."""

    code = "game/version_conflict"

    def __init__(self, current_version: int, expected: int | None = None) -> None:
        if expected is None:
            message = f"the game changed concurrently; it is now at version {current_version}"
        else:
            message = f"expected version {expected}, the game is at version {current_version}"
        super().__init__(message)
        self.current_version = current_version


class IdempotencyKeyReusedError(CodedError):
    """An ``Idempotency-Key`` already used for a different request on this game."""

    code = "request/idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__("this Idempotency-Key was already used for a different request")


class GameAlreadyExistsError(CodedError):
    """An imported game's id is already taken here (a game keeps its id when imported)."""

    code = "game/already_exists"

    def __init__(self, game_id: object) -> None:
        super().__init__(f"game {game_id} already exists")


class NotAllowedError(CodedError):
    """The caller's role may not do this (``auth/...``); HTTP 403."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
