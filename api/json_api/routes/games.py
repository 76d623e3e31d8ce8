"""Games: create, list, summary, state (per viewer), the log (per viewer), and actions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, TypeVar

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import missing

from api.json_api import recording
from api.json_api.auth import (
    actor_of_game,
    any_viewer,
    current_viewer,
    gamelog,
    idempotency_key,
    organizer_only,
    parse_game_id,
    recorder_of_game,
    viewer_of_game,
)
from api.json_api.errors import Parser, error_response
from api.json_api.judge_schemas import ReplayStateQuerySchema
from api.json_api.judging import replay_state
from api.json_api.schemas import (
    ActionBatchSchema,
    BatchResultSchema,
    CreateGameSchema,
    EventPageSchema,
    EventsQuerySchema,
    GameCreatedSchema,
    GameListQuerySchema,
    GameListSchema,
    GameSummarySchema,
    LegalSchema,
    StateViewSchema,
)
from projections.views import event_view
from service.games import StartedGame
from service.legal import legal_moves

#: The OpenAPI ``security`` of an operation that needs a token, and of one anyone may call (a
#: token, if sent, chooses what the caller sees: the empty requirement means "none").
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]

F = TypeVar("F", bound=Callable[..., Any])


class ApiBlueprint(Blueprint):
    """flask-smorest Blueprint whose request validation errors use our error shape."""

    ARGUMENTS_PARSER = Parser()

    def arguments(self, schema: Any, *args: Any, **kwargs: Any) -> Any:
        """Like flask-smorest's, but a schema class is instantiated once, here: webargs would
        build a new instance (and deep-copy every field) on each request."""
        instance = schema() if isinstance(schema, type) else schema
        return super().arguments(instance, *args, **kwargs)

    def json_endpoint(
        self,
        schema: Any,
        status_code: int,
        response_schema: Any,
        *,
        headers: dict[str, Any] | None = None,
        **doc: Any,
    ) -> Any:
        """``arguments(schema)``, ``response(status_code, response_schema, headers=headers)``
        and ``doc(**doc)`` for a hot path.

        The OpenAPI document is exactly theirs (their decorators are applied to record it), and
        the body is parsed by the same webargs parser and schema, so errors are the same. What
        is left out is their per-request wrapping: three more wrapper layers (each asking
        ``inspect`` whether the view is a coroutine) and the response schema's ``dump``, so the
        view must return data already in ``response_schema``'s shape (a test checks it). The
        view returns ``body`` or ``(body, headers)``; the status is ``status_code``. A schema
        with a ``quick_load(data)`` (see ``ActionBatchSchema``) gets the decoded JSON first and
        is loaded in full only when ``quick_load`` returns ``None``.
        """
        instance = schema() if isinstance(schema, type) else schema
        parser = self.ARGUMENTS_PARSER
        quick_load = getattr(instance, "quick_load", None)

        def load_body() -> Any:
            if quick_load is not None:
                raw = parser.load_json(request, instance)  # our 400 for invalid JSON
                loaded = None if raw is missing else quick_load(raw)
                if loaded is not None:
                    return loaded
            return parser.parse(instance, request, location="json")

        def decorator(view: Any) -> Any:
            documented = self.response(status_code, response_schema, headers=headers)(
                self.arguments(instance)(self.doc(**doc)(view))
            )

            @wraps(view)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                body = load_body()
                result = view(*args, body, **kwargs)  # after ``self``, as webargs passes it
                data, headers = result if isinstance(result, tuple) else (result, None)
                response = current_app.json.response(data)
                response.status_code = status_code
                if headers:
                    response.headers.extend(headers)
                return response

            wrapper._apidoc = documented._apidoc  # type: ignore[attr-defined]
            return wrapper

        return decorator

    def errors(self, *statuses: int) -> Callable[[F], F]:
        """Document the error responses a view can send: ``alt_response(status,
        "Error<status>")`` for each (``api.json_api.errors.ERROR_RESPONSES``, the error schema). Only
        the document changes: the view is returned as it is, without ``alt_response``'s
        wrapper, so this costs a request nothing (the actions endpoint is hot)."""

        def decorator(view: F) -> F:
            documented: Any = view
            for status in statuses:
                documented = self.alt_response(status, response=error_response(status))(documented)
            view._apidoc = documented._apidoc  # type: ignore[attr-defined]
            return view

        return decorator

    def endpoint(
        self,
        response_schema: Any = None,
        *,
        who: Callable[[Any], Any] | None = None,
        query: Any = None,
        body: Any = None,
        status_code: int = 200,
        errors: Iterable[int] = (),
        security: list[dict[str, list[str]]] = BEARER,
        **doc: Any,
    ) -> Any:
        """The decorators of a view, outermost first: ``who`` (who may call it, checked
        before anything is parsed), ``errors(*errors)``, ``arguments(query,
        location="query")`` and/or ``arguments(body)`` when given, ``response(status_code,
        response_schema)`` when given and ``doc(security=security, **doc)``."""

        def decorator(view: Any) -> Any:
            view = self.doc(security=security, **doc)(view)
            if response_schema is not None:
                view = self.response(status_code, response_schema)(view)
            if body is not None:
                view = self.arguments(body)(view)
            if query is not None:
                view = self.arguments(query, location="query")(view)
            view = self.errors(*errors)(view)
            return view if who is None else who(view)

        return decorator

    def creation(self, body: Any, response_schema: Any, *errors: int) -> Any:
        """:meth:`endpoint` of a ``POST`` with the organizer's token that creates something (a
        game, an event) from ``body``: 201 ``response_schema``; 400, 401, 403, 413 and
        ``errors``."""
        return self.endpoint(
            response_schema,
            who=organizer_only,
            body=body,
            status_code=201,
            errors=(400, 401, 403, 413, *errors),
        )

    def game_view(
        self,
        response_schema: Any,
        *,
        query: Any = None,
        body: Any = None,
        status_code: int = 200,
        who: Callable[[Any], Any] = viewer_of_game,
        errors: Iterable[int] = (),
        **doc: Any,
    ) -> Any:
        """The decorators of a view of one game, outermost first: ``who`` (``viewer_of_game``:
        404 for no game, 401 for a bad token; or a stricter one of ``api.json_api.auth``, before
        anything is parsed), ``arguments(query, location="query")`` and/or
        ``arguments(body)``, ``response(status_code, response_schema)`` and ``doc(**doc)``.

        The document follows the stack: a read anyone may make (``viewer_of_game``) has an
        optional bearer token, a stricter ``who`` a required one (unless ``doc`` says
        ``security``); the errors are 401, 404 and 503 (``storage/damaged``: the game's
        stored rows), 400 with a query or a body, 413 with a body, and ``errors`` (what the
        view itself adds: 403, 409, 422).
        """
        anyone = who is viewer_of_game
        doc = {"security": OPTIONAL_BEARER if anyone else BEARER, **doc}
        statuses = {401, 404, 503, *errors}
        if query is not None or body is not None:
            statuses.add(400)
        if body is not None:
            statuses.add(413)

        def decorator(view: Any) -> Any:
            view = self.errors(*sorted(statuses))(self.doc(**doc)(view))
            view = self.response(status_code, response_schema)(view)
            if body is not None:
                view = self.arguments(body)(view)
            if query is not None:
                view = self.arguments(query, location="query")(view)
            return who(view)

        return decorator


blp = ApiBlueprint(
    "games",
    __name__,
    url_prefix="/api/games",
    description="Record Munchkin CCG games and read them back as each viewer may see them.",
)


def created_body(started: StartedGame) -> dict[str, Any]:
    """The 201 body of a created (or imported) game: the only place tokens are ever shown."""
    seats = {
        seat: {"token": started.tokens[seat], **cards} for seat, cards in started.cards.items()
    }
    return {
        "game_id": str(started.game_id),
        "version": started.version,
        "seats": seats,
        "table_token": started.tokens["table"],
        "judge_token": started.tokens["judge"],
    }


IDEMPOTENCY_HEADER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[!-~]+$"},
    "description": "Repeat a batch safely: the same key returns the first response and "
    "records nothing new (scoped to the game). Printable ASCII, no spaces (400 "
    "request/invalid_idempotency_key).",
}


#: The 201 of a batch answered again for its ``Idempotency-Key``.
REPLAYED_HEADER = {
    "Idempotent-Replayed": {
        "description": "`true` when this 201 is the first answer to the same "
        "Idempotency-Key, sent again (nothing new was recorded); absent otherwise",
        "schema": {"type": "string", "enum": ["true"]},
    }
}


@blp.route("")
class Games(MethodView):
    @blp.creation(CreateGameSchema, GameCreatedSchema, 422)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a game (organizer token)

        Deck entries are card definitions or `{name, count?}` looked up in the server's
        catalog. Every card gets a random opaque instance id. The response is the only place
        the seat, table and judge tokens are ever shown.
        """
        return created_body(gamelog().start_game(body))

    @any_viewer
    @blp.errors(400, 401)
    @blp.arguments(GameListQuerySchema, location="query")
    @blp.response(200, GameListSchema)
    @blp.doc(security=OPTIONAL_BEARER)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """List games

        In creation order, filtered by `player` (either seat, case-insensitive), `status` and
        `event` label. Cursor pagination: pass the `next_cursor` of a page as `?cursor=` to
        get the next one; `next_cursor` null means there were no more games. Cursors stay
        valid while games are being created.
        """
        games, next_cursor = gamelog().list_games(
            player=query.get("player"),
            status=query.get("status"),
            event=query.get("event"),
            cursor=query.get("cursor"),
            limit=query["limit"],
            viewer=current_viewer(),
        )
        return {"games": games, "next_cursor": next_cursor}


@blp.route("/<game:game_id>")
class GameResource(MethodView):
    @blp.game_view(GameSummarySchema)
    def get(self, game_id: str) -> dict[str, Any]:
        """Game summary (public information)

        Spectators and the organizer see a game with a `spectator_delay` as at the version
        they may see (its `version`, `status`, `winner`, turn and phase).
        """
        gid = parse_game_id(game_id)
        return gamelog().delays.overview(gid, current_viewer(gid))


@blp.route("/<game:game_id>/state")
class GameState(MethodView):
    @blp.game_view(StateViewSchema, query=ReplayStateQuerySchema, errors=[403])
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """The table as the caller may see it (now, `?at=<version>` or at the end of `?turn=<n>`)

        `?as=` shows it as another viewer saw it (a judge: anyone; a seat: only itself);
        `?played=true` leaves out the judge's corrections (the game as played).
        """
        return replay_state(parse_game_id(game_id), query)


@blp.route("/<game:game_id>/legal")
class GameLegal(MethodView):
    @blp.game_view(LegalSchema, who=actor_of_game, errors=[403])
    def get(self, game_id: str) -> dict[str, Any]:
        """What may be done now (seat, table or judge token)

        For each seat the caller may act for (a seat token: itself; the table's and the
        judge's: every seat, as they may record for every seat), the commands it may issue
        now, from the rules' legal moves: each a ready action body for `POST /actions`, with
        its `type`, `seat` and choices (cards by id, targets, amounts within their bounds),
        never naming a card that seat may not see. `waiting_for` names the seats the game
        waits on. A finished game: no commands, no one waited on.

        Forms to fill: a contributor's `commit_seed` and `reveal_seed` (server dealing)
        come without `commitment` and `seed`, which only its client may choose; in a
        table-dealt classic game a draw comes without the cards drawn, which the table names;
        for the table and the judge it carries `draws` (the fields to fill, each one's deck
        and how many cards: see the schema), to fill with the cards' names.
        The answer is for `version`: send it as `expected_version` with the command.
        """
        gid = parse_game_id(game_id)
        return legal_moves(gamelog(), gid, current_viewer(gid))


@blp.route("/<game:game_id>/events")
class GameEvents(MethodView):
    @blp.game_view(EventPageSchema, query=EventsQuerySchema)
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """The log as the caller may see it, from version `after + 1`"""
        gid = parse_game_id(game_id)
        viewer = current_viewer(gid)
        page = gamelog().delays.page(gid, viewer, after=query["after"], limit=query["limit"])
        return {
            "game_id": str(gid),
            "version": page.version,
            "events": [event_view(r, viewer, page.seats) for r in page.records],
            "next_after": page.next_after,
        }


@blp.route("/<game:game_id>/actions")
class GameActions(MethodView):
    @recorder_of_game
    @blp.errors(400, 401, 403, 404, 409, 413, 422, 503)
    @blp.json_endpoint(
        ActionBatchSchema,
        201,
        BatchResultSchema,
        headers=REPLAYED_HEADER,
        security=BEARER,
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Record a batch of actions (seat, table or judge token)

        All or nothing: every action is decided by the rules after the previous one's events;
        if one is refused, nothing is recorded. A seat token may only act for its own seat.
        `attack` gets a server-drawn `salt`; a client may not send one. `at` (ISO 8601) is
        kept as the client's time beside the server's. The response holds the new events as
        the caller may see them.

        A server-dealt game (`"dealing": "server"`, docs/dealing.md) takes the contributors'
        seeds as actions: `{"type": "commit_seed", "seat", "commitment"}` (64 lowercase hex:
        SHA-256 of `munchlog-rand-v1|seat|<game_id>|<seat>|` and 32 random bytes), then, once
        every contributor has committed, `{"type": "reveal_seed", "seat", "seed"}` (the 32
        bytes as 64 lowercase hex). Its commands that draw or roll name no card and no value
        (422 `rule/server_deals` if they carry `card`, `cards`, `doors`, `treasures`, `roll`,
        `rolls`, `value` or `values`, but a field the command takes for something else, such
        as a discard's `card`); each random operation is a `Dealt` event. A draw or a die ends
        its batch: an action that would draw or roll with more actions after it is refused
        (422 `command/random_not_last`, decided before anything is drawn, so the answer tells
        no card and no value); send the actions after it in a batch of their own.

        A table-dealt classic game's draws (`deal`, `kick_door`, `loot`, `take_treasure`) name
        the cards drawn by id, or, with the table's or the judge's token, by name: `{"name":
        "Sample Grumpy Toad"}` for a card, one such object per card in `doors`, `treasures`,
        `cards` (docs/rules.md E.4). Each is made into the id of a card of that name in the
        deck drawn from (the lowest id not named already; a deck too short for the draw is
        rebuilt from its discards first, as the rules rebuild it); none left: 422
        `command/card_not_there`. The event stores the id. A seat's token may not send names
        (403 `auth/names_need_the_table`: the answer would tell it what the decks hold).
        """
        outcome = recording.record_actions(
            gamelog(),
            parse_game_id(game_id),
            body,
            actor=current_viewer(),
            idempotency_key=idempotency_key(),
        )
        if outcome.replayed:
            return outcome.response, {"Idempotent-Replayed": "true"}
        return outcome.response
