"""Tournaments (issue #27, docs/rules.md F): ``/api/events``.

An event is opened by the organizer, who registers its players (each gets a token) and pairs
its rounds; each pairing creates its game(s), whose seats each player fetches with its own
token (``GET …/rounds/<n>/my-game``). The event's judge token is a judge of every game of the
event. Results come from the games; a judge or the organizer reports a match its games did not
finish. Anyone may read the event and its standings; a decklist only its player, the judges and
the organizer.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast
from uuid import UUID

import marshmallow as ma
from flask import current_app, g, request
from flask.views import MethodView
from marshmallow import fields, validate

from api.json_api.auth import any_viewer, bearer_token, gamelog
from api.json_api.errors import Forbidden, Unauthorized
from api.json_api.routes.games import OPTIONAL_BEARER, ApiBlueprint
from api.json_api.schemas import (
    FORMATS,
    MODES,
    SpectatorDelaySchema,
    Strict,
    answer_schema,
    described,
    family_entry_aliases,
    family_entry_fields,
    family_event_fields,
    up_to_max,
    whole,
)
from domain import fair
from domain.errors import NotFound
from domain.game import token_hash
from domain.tournament import checkin, clock, rules
from domain.tournament.aggregate import Tournament
from service.event_clock import EventClock
from service.event_staff import EventStaff
from service.mirror_events import is_mirrored
from service.tournaments import Caller, Tournaments

blp = ApiBlueprint(
    "events",
    __name__,
    url_prefix="/api/events",
    description="Tournaments: registration, decklists, rounds, results, standings "
    "(docs/rules.md F). An event a venue publishes here (`munchlog publish`, /api/mirrors) is a "
    "read-only copy: every caller reads it as a spectator (the organizer too), a token of the "
    "venue's is 401 `auth/invalid_token`, and every write to it is 403 `mirror/read_only`.",
)

PLAYER_NAME = fields.String(
    required=True,
    validate=validate.Length(min=1, max=100),
    metadata={"description": "the player's name, unique in the event"},
)


class RegisteredRuleset(validate.OneOf):
    """One of the rulesets an event may run (``rules.event_rulesets``: every registered
    family), read when a body is checked: a family registered after this module was imported
    (``MUNCHLOG_RULESETS``) hosts events too."""

    def __init__(self) -> None:
        super().__init__(())

    @property  # type: ignore[override]
    def choices(self) -> tuple[str, ...]:
        return rules.event_rulesets()

    @choices.setter
    def choices(self, value: Any) -> None:
        """The registry says them (``OneOf.__init__`` sets none)."""

    @property
    def choices_text(self) -> str:
        return ", ".join(self.choices)

    @choices_text.setter
    def choices_text(self, value: Any) -> None:
        """Read from :attr:`choices`."""


class CheckInOptionSchema(Strict):
    opens = whole(0, 240, "minutes before a round's start its check-in opens", required=True)
    no_show = whole(
        1, 60, "minutes after a round's start a player not checked in is late", required=True
    )


#: What each event setting means, said once for the body that opens an event and the event
#: it shows (``GET /api/events/<id>``).
SETTING = {
    "name": "the event's name, shown on its page and the home page (several events may share "
    "one: `munchlog export --event` takes the id)",
    "ruleset": "the game system of every game of the event",
    "format": "the deck format every registered list is checked against (docs/rules.md A.6: "
    "`prime` 40 catalog cards, `draft` 30, `casual` unchecked)",
    "match": "a match is one game (`bo1`) or first to two (`bo3`, CCG)",
    "round_minutes": "each round's time on its clock, in minutes (`POST …/clock`; at a "
    "table's deadline time is called in its games, docs/rules.md F.6)",
    "top_cut": "single elimination after the Swiss rounds: 0, 4 or 8",
    "table_size": "classic events: players a table (default 4)",
    "spectator_delay": "the event's games show spectators (and the organizer) the game this "
    "far behind: results and standings too; the judges see them live (docs/api.md)",
    "mode": "`strict` (the rules refuse an illegal move) or `record` (a physical game "
    "transcribed: an illegal move is recorded and flagged, docs/rules.md)",
    "dealing": "how the event's games are dealt (docs/dealing.md)",
}


class _EventSettings(Strict):
    name = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),
        metadata={"description": SETTING["name"]},
    )
    ruleset = fields.String(
        required=True,
        validate=RegisteredRuleset(),
        metadata={"description": SETTING["ruleset"]},
    )
    format = fields.String(
        required=True, validate=validate.OneOf(FORMATS), metadata={"description": SETTING["format"]}
    )
    match = fields.String(
        load_default="bo1",
        validate=validate.OneOf(rules.MATCHES),
        metadata={"description": SETTING["match"]},
    )
    round_minutes = whole(1, 600, SETTING["round_minutes"], required=True)
    rounds = whole(1, 20, "Swiss rounds (default: by the entrants, the MTR's table)")
    top_cut = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.OneOf(rules.TOP_CUTS),
        metadata={"description": SETTING["top_cut"]},
    )
    table_size = whole(3, 6, SETTING["table_size"])
    spectator_delay = fields.Nested(
        SpectatorDelaySchema, metadata={"description": SETTING["spectator_delay"]}
    )
    check_in = fields.Nested(
        CheckInOptionSchema,
        metadata={
            "description": "players check in for each round (`POST …/check-in`); one not "
            "checked in `no_show` minutes after the round's clock started gets a game loss, "
            "two rounds missed in a row drop it (docs/rules.md F.7)"
        },
    )
    mode = fields.String(
        load_default="strict",
        validate=validate.OneOf(MODES),
        metadata={"description": SETTING["mode"]},
    )
    dealing = fields.String(
        load_default="server",
        validate=validate.OneOf(fair.MODES),
        metadata={"description": SETTING["dealing"]},
    )
    results = fields.String(
        load_default="games",
        validate=validate.OneOf(("games", "reported")),
        metadata={
            "description": "what decides a match: its recorded `games`, or the results the "
            "players `reported` (games played on paper; docs/rules.md F.3)"
        },
    )
    extra_turns = whole(
        0,
        20,
        "turns played after the one in progress when time is called "
        "(default: the CCG 5, the MTR's; classic: the round of turns finishes; F.6)",
    )
    time_result = fields.String(
        validate=validate.OneOf(clock.TIME_RESULTS),
        metadata={
            "description": "events that seat tables: how a game nobody won at time ends, "
            "`draw` (default: every player still in shares first place) or `highest_level`"
        },
    )


#: ``POST /api/events``: the settings, then the card fields the families' tables may be
#: given (``Family.event_card_fields``).
CreateEventSchema = _EventSettings.from_dict(family_event_fields(), name="CreateEventSchema")


EventCreatedSchema = answer_schema(
    "EventCreatedSchema",
    {
        "event_id": fields.String,
        "judge_token": described(fields.String, "a judge of every game of the event; shown once"),
    },
)


#: A registration's entry as text, for every family (instead of ``Family.entry_fields``).
DECKLIST_TEXT = fields.String(
    validate=validate.Length(min=1, max=20000),
    metadata={
        "description": "the entry as text instead of its fields: one `<count> <card name>` "
        "a line and `Hero: <name>` (a family with heroes), blank lines and `#` comments "
        "ignored; a mistake is a 400 naming the line and why"
    },
)


class _Registration(Strict):
    @ma.pre_load
    def _aliases(self, data: Any, **_: Any) -> Any:
        """A field given by its seat field's name (``deck`` for ``decklist``) is that field;
        both at once is a 400."""
        if not isinstance(data, dict):
            return data
        out = dict(data)
        for alias, name in family_entry_aliases().items():
            if alias in out:
                if name in out:
                    raise ma.ValidationError(f"give {name} or {alias}, not both", alias)
                out[name] = out.pop(alias)
        return out


#: A registration: the player's name, then what the families' players bring
#: (``Family.entry_fields``; each also by its seat field's name, ``deck`` for ``decklist``),
#: or it as text.
RegisterSchema = _Registration.from_dict(
    {"player": PLAYER_NAME, **family_entry_fields(), "decklist_text": DECKLIST_TEXT},
    name="RegisterSchema",
)


RegisteredSchema = answer_schema(
    "RegisteredSchema",
    {
        "player": fields.String,
        "token": described(fields.String, "the player's event token; shown once"),
    },
)
#: A player's name to another's (a pairing's seats, a game's opponents).
_NAMES = fields.Dict(keys=fields.String(), values=fields.String())
PairingSchema = answer_schema(
    "PairingSchema",
    {
        "table": fields.Integer,
        "seats": _NAMES,
        "game_id": described(fields.String, "the match's first game"),
        "games": fields.List(fields.String()),
    },
)
RoundSchema = answer_schema(
    "RoundSchema",
    {
        "round": fields.Integer,
        "pairings": fields.List(fields.Nested(PairingSchema)),
        "byes": fields.List(fields.String()),
    },
)
MyGameSchema = answer_schema(
    "MyGameSchema",
    {
        "round": fields.Integer,
        "table": fields.Integer,
        "game_id": fields.String,
        "game_number": fields.Integer,
        "seat": fields.String,
        "token": described(fields.String, "the player's seat token"),
        "opponents": _NAMES,
    },
)


class DropSchema(Strict):
    player = PLAYER_NAME


DroppedSchema = answer_schema(
    "DroppedSchema", {"player": fields.String, "after_round": fields.Integer}
)


PLACES = fields.Dict(
    keys=fields.String(validate=validate.Length(min=1, max=100)),
    values=fields.Integer(strict=True, validate=validate.Range(1, 6)),
    metadata={"description": "a table's places by player, 1 first (equals share a place)"},
)


class ReportSchema(Strict):
    table = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10000))
    games = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=100)),
        values=fields.Integer(strict=True, validate=validate.Range(0, 3)),
        metadata={"description": "games won by each player of the match"},
    )
    drawn_games = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 3))
    places = PLACES


ReportedSchema = answer_schema(
    "ReportedSchema",
    {
        "round": fields.Integer,
        "table": fields.Integer,
        "games": fields.Dict(keys=fields.String(), values=fields.Integer()),
        "drawn_games": fields.Integer,
        "places": fields.Dict(keys=fields.String(), values=fields.Integer()),
    },
    optional=("games", "drawn_games", "places"),
)


#: A player's line of the standings (docs/rules.md F.3).
StandingSchema = answer_schema(
    "StandingSchema",
    {
        "rank": fields.Integer,
        "player": fields.String,
        "points": fields.Integer,
        "wins": fields.Integer,
        "losses": fields.Integer,
        "draws": fields.Integer,
        "omw": described(fields.Float, "opponents' match-win, 0 to 1"),
        "gw": described(fields.Float, "game-win, 0 to 1"),
        "ogw": described(fields.Float, "opponents' game-win, 0 to 1"),
        "dropped": fields.Boolean,
    },
)

#: A finished event's winner (``domain.tournament.rounds.winner``).
WINNER = described(
    fields.String,
    "a finished event's winner: its top cut's final's, else the first of the standings "
    "(null until it is finished, or while a spectator delay holds back its last results)",
    allow_none=True,
)


#: ``GET /api/events/<id>``: the settings, the state, the players and the rounds.
EventSchema = answer_schema(
    "EventSchema",
    {
        "event_id": fields.String,
        "name": described(fields.String, SETTING["name"]),
        "ruleset": described(fields.String, SETTING["ruleset"]),
        "format": described(fields.String, SETTING["format"]),
        "match": described(fields.String, SETTING["match"]),
        "round_minutes": described(fields.Integer, SETTING["round_minutes"]),
        "rounds_setting": described(
            fields.Integer,
            "the Swiss rounds the organizer set (null: by the entrants)",
            allow_none=True,
        ),
        "top_cut": described(fields.Integer, SETTING["top_cut"]),
        "table_size": described(fields.Integer, SETTING["table_size"], allow_none=True),
        "spectator_delay": described(fields.Dict, SETTING["spectator_delay"], allow_none=True),
        "mode": described(fields.String, SETTING["mode"]),
        "dealing": described(fields.String, SETTING["dealing"]),
        "results": fields.String(
            dump_default="games", metadata={"description": "`games` or `reported` (F.3)"}
        ),
        "planned_rounds": described(
            fields.Integer,
            "Swiss rounds plus the top cut's; the round being played when the Swiss rounds "
            "stopped there (`end_note`)",
        ),
        "cut_size": described(
            fields.Integer,
            "the top cut as it stands: `top_cut`, or the largest of 8, 4, 2 the active players "
            "fill when fewer are left, 0 for none (docs/rules.md F.4)",
        ),
        "cut_note": described(
            fields.String, "why `cut_size` is not `top_cut` (null when it is)", allow_none=True
        ),
        "end_note": described(
            fields.String,
            "why the event ends before its Swiss rounds are over: fewer active players left "
            "than a round needs, so the round paired is the last and the event is `finished` "
            "on the standings once it is complete (null otherwise; docs/rules.md F.2)",
            allow_none=True,
        ),
        "state": described(fields.String, "`registration`, `running` or `finished`"),
        "winner": WINNER,
        "round": described(fields.Integer, "the last round paired"),
        "commitment": described(fields.String, "SHA-256 commitment to round 1's secret"),
        "revealed_secret": described(
            fields.String, "round 1's secret, once round 1 is paired", allow_none=True
        ),
        "players": fields.List(fields.Dict()),
        "rounds": fields.List(fields.Dict()),
        "staff": described(
            fields.List,
            "the staff (to the staff and the organizer only): F.8",
            cls_or_instance=fields.Dict(),
        ),
        "staff_member": described(
            fields.Dict, "`{staff_id, name, role}`: the staff member asking (to them only): F.8"
        ),
        "extra_turns": described(
            fields.Integer, "turns after the one in progress at time", allow_none=True
        ),
        "time_result": described(
            fields.String, "a table's end at time (`draw`, `highest_level`)", allow_none=True
        ),
        "clock": described(
            fields.Dict, "the current round's clock (`POST …/clock`, docs/rules.md F.6)"
        ),
        "check_in": described(
            fields.Dict,
            "the event's check-in (`opens`, `no_show` minutes, `opened`) and by round who has "
            "checked in, the no-shows and when they are counted (null: no check-in; F.7)",
            allow_none=True,
        ),
        "version": described(fields.Integer, "the event's version: its stream's last `id` so far"),
    },
    optional=("results", "clock", "version", "staff", "staff_member", "extra_turns", "time_result"),
)


class EventListQuerySchema(Strict):
    cursor = fields.Integer(
        validate=up_to_max(0),
        metadata={"description": "next_cursor of the previous page; omit for the first page"},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


#: An event's line in ``GET /api/events``: what anyone reads in its GET.
EventEntrySchema = answer_schema(
    "EventEntrySchema",
    {
        "event_id": fields.String,
        "name": fields.String,
        "ruleset": fields.String,
        "format": fields.String,
        "opened_at": fields.String,
        "players": described(fields.Integer, "players registered"),
        "round": described(fields.Integer, "the last round paired (0: none yet)"),
        "planned_rounds": fields.Integer,
        "state": described(fields.String, "`registration`, `running` or `finished`"),
        "winner": WINNER,
    },
)
EventListSchema = answer_schema(
    "EventListSchema",
    {
        "events": fields.List(fields.Nested(EventEntrySchema)),
        "next_cursor": described(
            fields.Integer, "pass as ?cursor= for the next page; null: no more", allow_none=True
        ),
    },
)


# ---------------------------------------------------------------------------- helpers


def tournaments() -> Tournaments:
    found = current_app.extensions.get("munchlog_tournaments")
    if found is None:
        found = current_app.extensions["munchlog_tournaments"] = Tournaments(gamelog())
    return cast(Tournaments, found)


def parse_event_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise NotFound("event/not_found", f"no event {raw}") from None


def caller_of(event: Tournament) -> Caller:
    """Who the request's bearer token is for ``event`` (401 for a token that is not one)."""
    token = bearer_token(request.headers.get("Authorization"))
    organizer = current_app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"]
    found = Tournaments.caller(event, None if token is None else token_hash(token), organizer)
    if found is None:
        raise Unauthorized("auth/invalid_token", "this token is not valid here")
    return found


F = TypeVar("F", bound=Callable[..., Any])


def event_role(*roles: str) -> Callable[[F], F]:
    """A decorator: only a token of one of ``roles`` for the event in the route may call the
    view, checked before the body is parsed: 401 ``auth/missing_token`` without a token (before
    anything else), 404 for no event, 401 for a token that is not one here, 403 for another
    role, 403 ``mirror/read_only`` for a write to a venue's copy (``service.mirror_events``).
    The view finds the event and its caller with :func:`current`."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if bearer_token(request.headers.get("Authorization")) is None:
                raise Unauthorized(
                    "auth/missing_token", f"this needs a token: {' or '.join(roles)}"
                )
            event, caller = _load(kwargs["event_id"])
            if request.method != "GET" and is_mirrored(event):
                raise Forbidden("mirror/read_only", "this event is a venue's copy: read only")
            if caller.role not in roles:
                raise Forbidden("auth/forbidden", f"only the {' or the '.join(roles)} may do this")
            return view(*args, **kwargs)

        return cast(F, wrapper)

    return decorate


#: What an event action with a JSON body may answer besides its own (:func:`event_endpoint`).
ACTION_ERRORS = (400, 401, 403, 404, 409, 413, 422, 503)


def event_endpoint(
    blp: ApiBlueprint,
    roles: tuple[str, ...],
    response_schema: Any,
    *,
    body: Any = None,
    status_code: int = 201,
    errors: tuple[int, ...] = ACTION_ERRORS,
) -> Callable[[F], F]:
    """The decorators of an event's view that needs a token, outermost first:
    :func:`event_role` (``roles``), ``errors(*errors)``, ``arguments(body)`` when it has one,
    ``response(status_code, response_schema)`` and ``doc(security=BEARER)``. The view finds
    the event and its caller with :func:`current`."""

    return cast(
        Callable[[F], F],
        blp.endpoint(
            response_schema,
            who=event_role(*roles),
            body=body,
            status_code=status_code,
            errors=errors,
        ),
    )


def public_event(
    blp: ApiBlueprint,
    response_schema: Any = None,
    *,
    query: Any = None,
    status_code: int = 200,
    errors: tuple[int, ...] = (401, 404, 503),
    **doc: Any,
) -> Callable[[F], F]:
    """The decorators of an event's view anyone may call (a token, if sent, says who the
    caller is), outermost first: ``errors(*errors)``, ``arguments(query, location="query")``
    when it has one, ``response(status_code, response_schema)`` when it has one and
    ``doc(security=OPTIONAL_BEARER, **doc)``; then, the query parsed, the event (404) and
    its caller (401 for a token that is not one here), which the view finds with
    :func:`current`."""

    def decorator(view: F) -> F:
        @wraps(view)
        def loaded(*args: Any, **kwargs: Any) -> Any:
            _load(kwargs["event_id"])
            return view(*args, **kwargs)

        return cast(
            F,
            blp.endpoint(
                response_schema,
                query=query,
                status_code=status_code,
                errors=errors,
                security=OPTIONAL_BEARER,
                **doc,
            )(loaded),
        )

    return decorator


def _load(event_id: str) -> tuple[Tournament, Caller]:
    """The event in the route (404) and who the request's token is to it (401), kept for
    :func:`current`."""
    event = tournaments().load(parse_event_id(event_id))
    g.munchlog_event = (event, caller_of(event))
    return current()


def current() -> tuple[Tournament, Caller]:
    """The event and the caller :func:`event_role` checked for this request."""
    return cast(tuple[Tournament, Caller], g.munchlog_event)


def shown_round(round_: dict[str, Any]) -> dict[str, Any]:
    return {
        "round": round_["round"],
        "pairings": [{**p, "game_id": p["games"][0]} for p in round_["pairings"] if "games" in p],
        "byes": round_["byes"],
    }


# ---------------------------------------------------------------------------- routes


@blp.route("")
class Events(MethodView):
    @blp.creation(CreateEventSchema, EventCreatedSchema, 503)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Open a tournament (the organizer)

        Round 1 will be drawn from a secret committed now (`commitment` in the event) and
        revealed once round 1 is paired, so anyone can check the draw (docs/rules.md F.2).
        """
        event_id, judge_token = tournaments().create(body)
        return {"event_id": str(event_id), "judge_token": judge_token}

    @any_viewer
    @blp.errors(400, 401, 503)
    @blp.arguments(EventListQuerySchema, location="query")
    @blp.response(200, EventListSchema)
    @blp.doc(security=OPTIONAL_BEARER)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """List the events, in the order they were opened

        Every event is public: its GET, its standings and its page (`/events/<id>`) answer
        anyone, with decklists only to whom they may be shown and results after a spectator
        delay. So this list holds every event, for the organizer's token and without one
        alike, each line what anyone reads in its GET. Cursor pagination as `GET /api/games`.
        """
        events, next_cursor = tournaments().listing(query.get("cursor", 0), query["limit"])
        return {"events": events, "next_cursor": next_cursor}


@blp.route("/<event_id>")
class Event(MethodView):
    @public_event(blp, EventSchema)
    def get(self, event_id: str) -> dict[str, Any]:
        """An event: settings, players (decklists only to whom they may be shown), rounds"""
        service = tournaments()
        event, caller = current()
        summary = service.summary(event, caller)
        summary["rounds"] = [shown_round(r) for r in summary["rounds"]]
        summary["clock"] = EventClock(service).view(event)  # the round's clock (F.6)
        summary["check_in"] = checkin.view(event)  # who has checked in, the no-shows (F.7)
        summary["version"] = event.version  # its stream's position (GET …/stream)
        roster = EventStaff.roster(event, caller)
        if roster is not None:
            summary["staff"] = roster
        member = EventStaff.member_of(event, caller)
        if member is not None:
            summary["staff_member"] = member
        return summary


@blp.route("/<event_id>/players")
class Players(MethodView):
    @event_endpoint(blp, ("organizer",), RegisteredSchema, body=RegisterSchema)
    def post(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        """Register a player (the organizer), before the next round is paired

        A CCG event's player brings `hero` and `decklist` (a game seat's `hero` and `deck`;
        `deck` is accepted for `decklist`, not both),
        checked against the event's format (docs/rules.md A.6, 422 with the rule otherwise).
        The public sees only `decklist_hash`, a salted SHA-256 of the list.
        """
        event, _ = current()
        player, token = tournaments().register(event.id, body)
        return {"player": player, "token": token}


@blp.route("/<event_id>/rounds")
class Rounds(MethodView):
    @event_endpoint(blp, ("organizer",), RoundSchema, errors=(401, 403, 404, 409, 422, 503))
    def post(self, event_id: str) -> dict[str, Any]:
        """Pair the next round and create its games (the organizer)

        Round 1 is drawn from the committed secret; later rounds are Swiss (points first, no
        rematch while a rematch-free pairing exists, one bye when the count is odd, to the
        lowest-ranked player without one); then the top cut (docs/rules.md F.2, F.4).
        """
        event, _ = current()
        return shown_round(tournaments().pair_next(event.id))


@blp.route("/<event_id>/rounds/<int:number>/my-game")
class MyGame(MethodView):
    @event_endpoint(
        blp, ("player",), MyGameSchema, status_code=200, errors=(401, 403, 404, 409, 503)
    )
    def get(self, event_id: str, number: int) -> dict[str, Any]:
        """The caller's game in round `number`, with its seat token (the player's token)

        A best-of-three's next game is created once the last one is over and the match is
        not; ask again for it.
        """
        event, caller = current()
        assert caller.player is not None
        return tournaments().my_game(event.id, number, caller.player)


@blp.route("/<event_id>/rounds/<int:number>/results")
class Results(MethodView):
    @event_endpoint(blp, ("judge", "organizer", "scorekeeper"), ReportedSchema, body=ReportSchema)
    def post(self, body: dict[str, Any], event_id: str, number: int) -> dict[str, Any]:
        """Report a match's result that its games did not decide (a judge or the organizer)

        E.g. a match unfinished at time, reported as a draw: `{"table": 3, "games": {"ann":
        1, "bob": 1}, "drawn_games": 0}`. CCG events only (a classic table's places come from
        its game). A match its games decided (a game won; a best-of-three's two wins or three
        games; a match loss or a disqualification ruled in one of them) is refused with 422
        `rule/match_decided_by_games` (docs/rules.md F.3), in any round, also one whose next
        round is paired: a game and its match never disagree, and a decided game is corrected
        by a judge's ruling in that game.
        """
        event, caller = current()
        return tournaments().report(event.id, number, body["table"], body, caller.by)


@blp.route("/<event_id>/drops")
class Drops(MethodView):
    @event_endpoint(blp, ("organizer", "player", "scorekeeper"), DroppedSchema, body=DropSchema)
    def post(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        """Drop a player (the organizer, or the player itself): never paired again, keeping
        the rounds played"""
        event, caller = current()
        if caller.role == "player" and caller.player != body["player"]:
            raise Forbidden("auth/forbidden", "a player may drop only itself")
        return tournaments().drop(event.id, body["player"], caller.by)


ReadmittedSchema = answer_schema(
    "ReadmittedSchema",
    {"player": fields.String, "from_round": described(fields.Integer, "paired again from it")},
)


@blp.route("/<event_id>/readmissions")
class Readmissions(MethodView):
    @event_endpoint(blp, ("organizer", "scorekeeper"), ReadmittedSchema, body=DropSchema)
    def post(self, body: dict[str, Any], event_id: str) -> dict[str, Any]:
        """Bring a dropped player back (the organizer or a scorekeeper), before the next
        round is paired

        Paired again from the next round, its rounds kept (`Readmitted`). A round paired
        since the drop: 422 `rule/round_paired_since_drop`; disqualified: `rule/disqualified`;
        not dropped: `rule/not_dropped` (docs/rules.md F.3).
        """
        event, caller = current()
        return tournaments().readmit(event.id, body["player"], caller.by)


@blp.route("/<event_id>/standings")
class Standings(MethodView):
    @public_event(blp, StandingSchema(many=True))
    def get(self, event_id: str) -> list[dict[str, Any]]:
        """The standings after the Swiss rounds so far (the Magic Tournament Rules' Appendix C
        for CCG events; docs/rules.md F.4)

        With a spectator delay, only the event's judges see the games' results live: everyone
        else sees each game as its spectators do (a player is a spectator of other tables).
        """
        event, caller = current()
        return tournaments().standings(event.id, "judge" if caller.role == "judge" else "spectator")
