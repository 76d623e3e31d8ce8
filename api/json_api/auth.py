"""Who is asking: the viewer behind ``Authorization: Bearer <token>``.

Viewers: each seat of the game (``"A"``, ``"B"``, ...: seat tokens), ``"table"`` (records
every seat), ``"judge"``, ``"organizer"`` (the service-wide token that creates games) and
``"spectator"`` (no token). The seats are the game's own, as its ruleset set it up.
Seat, table and judge tokens belong to one game; they are stored only as SHA-256 hashes
(:class:`domain.game.GameAccess`). The organizer token comes from
``MUNCHLOG_ORGANIZER_TOKEN`` or is generated once into the instance folder (mode 0600); the app
keeps only its hash.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast
from uuid import UUID

from flask import current_app, g, request

from api.json_api.errors import BadRequest, Forbidden, Unauthorized
from domain.game import GameAccess, token_hash
from service.errors import GameNotFoundError
from service.event_staff import EventStaff
from service.games import GameLog
from service.tournaments import Tournaments

F = TypeVar("F", bound=Callable[..., Any])


def gamelog() -> GameLog:
    """The process's GameLog (made by ``create_app``)."""
    return cast(GameLog, current_app.extensions["munchlog"])


def parse_game_id(raw: str) -> UUID:
    """A game id from the URL; anything that is not a UUID is simply not a game."""
    try:
        return UUID(raw)
    except ValueError:
        raise GameNotFoundError(raw) from None


def game_seats(game_id: UUID) -> tuple[str, ...]:
    """The game's seats, in seating order: the roles of its seat tokens (404 for no game)."""
    return gamelog().seats(game_id)


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (``None``: no header); 401
    ``auth/malformed_header`` for any other shape."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        raise Unauthorized("auth/malformed_header", "use 'Authorization: Bearer <token>'")
    return token


def viewer_for(
    access: GameAccess | None, token: str | None, organizer_hash: str, log: GameLog | None = None
) -> str:
    """Who a bearer ``token`` is (``spectator`` for none): one of the game's roles (``access``
    is the game's, or ``None`` off a game's routes), what a staff member of the game's event is
    to it (``service.event_staff``, with the ``log``) or the organizer; 401 for any other."""
    if token is None:
        return "spectator"
    hashed = token_hash(token)
    role = access.role_for(hashed) if access is not None else None
    if role is not None:
        return role
    if hmac.compare_digest(hashed, organizer_hash):
        return "organizer"
    if access is not None and log is not None:  # read only for a token none of the above
        role = EventStaff(Tournaments(log)).game_role(access.game_id, hashed)
        if role is not None:
            return role
    raise Unauthorized("auth/invalid_token", "this token is not valid here")


def current_viewer(game_id: UUID | None = None) -> str:
    """The viewer for this request (cached on ``flask.g``); 401 for an unknown token.

    For a game route the game must exist (404 first), and the token may be one of that
    game's tokens or the organizer's.
    """
    cached = getattr(g, "munchlog_viewer", None)
    if cached is not None:
        return cast(str, cached)
    access = gamelog().access(game_id) if game_id is not None else None  # GameNotFoundError
    viewer = viewer_for(
        access,
        bearer_token(request.headers.get("Authorization")),
        current_app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"],
        gamelog(),
    )
    g.munchlog_viewer = viewer
    return viewer


def role_only(role: str, forbidden: str, *, of_game: bool) -> Callable[[F], F]:
    """A decorator: only ``role``'s token may call the view (401 ``auth/missing_token``
    without a token, 403 ``forbidden`` with another). ``of_game``: the role is one of the
    game in the route (its ``game_id``, 404 for no game), checked before the body is parsed."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            viewer = current_viewer(parse_game_id(kwargs["game_id"]) if of_game else None)
            if viewer == "spectator":
                raise Unauthorized("auth/missing_token", f"this needs the {role}'s token")
            if viewer != role:
                raise Forbidden(forbidden, f"only the {role} may do this")
            return view(*args, **kwargs)

        return cast(F, wrapper)

    return decorate


#: Only the organizer (401 without a token, 403 with another).
organizer_only = role_only("organizer", "auth/forbidden", of_game=False)


def any_viewer(view: F) -> F:
    """A public route of no game: the same answer for everyone, so a token that is not the
    organizer's (a seat's token belongs to its game, and a client may send it everywhere)
    reads as a spectator's instead of a 401. A malformed ``Authorization`` header is still
    401, checked before anything is parsed."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            current_viewer(None)
        except Unauthorized as error:
            if error.code != "auth/invalid_token":
                raise
            g.munchlog_viewer = "spectator"
        return view(*args, **kwargs)

    return cast(F, wrapper)


def viewer_of_game(view: F) -> F:
    """Resolve the game (404) and the viewer (401) before the body is parsed."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        current_viewer(parse_game_id(kwargs["game_id"]))
        return view(*args, **kwargs)

    return cast(F, wrapper)


def party_of_game(action: str) -> Callable[[F], F]:
    """Only a seat, table or judge token of this game may ``action`` (e.g. "record actions"):
    404 for no game, 401 without a token or with a token not of this game, 403 for the
    organizer, all before the body is parsed."""

    def decorator(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            viewer = current_viewer(parse_game_id(kwargs["game_id"]))
            if viewer == "spectator":
                raise Unauthorized(
                    "auth/missing_token", f"a seat, table or judge token is needed to {action}"
                )
            if viewer == "organizer":
                raise Forbidden("auth/forbidden", f"the {viewer} may not {action}")
            return view(*args, **kwargs)

        return cast(F, wrapper)

    return decorator


recorder_of_game = party_of_game("record actions")
#: ``GET /legal``: a seat, table or judge token of this game (401 without, 403 the organizer's).
actor_of_game = party_of_game("see what may be done")


#: Only this game's judge token: 404 for no game, 401 without a token or with a token not of
#: this game, 403 for any other of its tokens, all before the body is parsed.
judge_of_game = role_only("judge", "auth/judge_only", of_game=True)


def idempotency_key() -> str | None:
    """The ``Idempotency-Key`` header, checked: 1-200 printable ASCII characters."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= 200 or not all(33 <= ord(ch) <= 126 for ch in key):
        raise BadRequest(
            "request/invalid_idempotency_key",
            "Idempotency-Key must be 1 to 200 printable ASCII characters without spaces",
        )
    return key
