"""The judge's tools (docs/rules.md A.14): replay any moment, disputes and rulings as
events, tamper evidence.

Replay (any viewer of the game; ``?as=`` per :func:`api.json_api.judging.view_as`):

* ``GET /api/games/<id>/timeline`` -- every event's public outline, the turns, the Heroes'
  level/damage/gold over the turns and the disputes (what the replay viewer draws);
* ``GET /api/games/<id>/turns/<n>`` -- turn ``n``'s events, the state before and after it and a
  structured diff (``projections.replay.state_diff``);
* ``GET /api/games/<id>/events/<version>`` -- one event, its chain of causes, what it caused,
  the judge events that correct or undo it, its diff and the state after it.
  (``GET /api/games/<id>/state`` takes ``?at=``, ``?turn=``, ``?played=`` and ``?as=`` too.)

A turn or version the game has not reached is 404 ``game/turn_not_found`` /
``game/version_not_found``; one beyond ``api.json_api.schemas.MAX_VERSION`` (2**53 - 1, the path's
documented maximum) can never exist and matches no route (404 ``request/not_found``).

Disputes and rulings (stored in the game's stream as events with ``seat="judge"``, never
editing or deleting one):

* ``POST /api/games/<id>/disputes`` -- a seat, the table or the judge opens one;
* ``GET /api/games/<id>/disputes`` -- every dispute with its ruling (any viewer: disputes,
  rulings and penalties are public, docs/rules.md C.1 "JudgeRuling");
* ``POST /api/games/<id>/disputes/<dispute_id>/ruling`` -- judge token only: a note, a penalty,
  forced corrections and/or a backup, recorded together (all or nothing).

Tamper evidence: ``GET /api/games/<id>/verify`` reads the game's stored rows one by one and
recomputes the hash chain (``GameLog.verify_game``); it answers for a damaged game too, which
every other route refuses with 503 ``storage/damaged``. Any viewer of the game may call it:
``ok``, ``checked``, ``first_broken`` and ``problems`` reveal nothing hidden; the ``head`` hash
(computed over hidden content) is shown only to judge and table, as ``projections.views`` does
for every hash.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.json_api.auth import (
    current_viewer,
    game_seats,
    gamelog,
    judge_of_game,
    parse_game_id,
    party_of_game,
)
from api.json_api.judge_schemas import (
    DisputeCreateSchema,
    DisputeListSchema,
    EventDetailSchema,
    RecordedSchema,
    RulingCreateSchema,
    TimelineSchema,
    TurnSchema,
    VerifySchema,
    ViewQuerySchema,
)
from api.json_api.judging import (
    view_as,
)
from api.json_api.routes.event_penalties import event_penalties
from api.json_api.routes.games import ApiBlueprint
from api.json_api.schemas import MAX_VERSION
from domain.envelope import Record
from domain.judge import Claim
from domain.penalties import described
from projections.exports.narration import narrate
from projections.replay import diff_view, state_diff
from projections.views import event_view, sees_whole_log, state_view

blp = ApiBlueprint(
    "judge",
    __name__,
    url_prefix="/api",
    description="Judge tools: replay any moment as any viewer, disputes and rulings, "
    "tamper evidence (docs/rules.md A.14).",
)

# ---------------------------------------------------------------------------- replay


@dataclass(frozen=True, slots=True)
class Lens:
    """One game as one viewer may see it (the caller, or ``?as=`` per
    :func:`api.json_api.judging.view_as`): renders the replay's events, states and diffs for it."""

    gid: UUID
    viewer: str
    seats: tuple[str, ...]

    @classmethod
    def of(cls, game_id: str, query: Mapping[str, Any]) -> Lens:
        gid = parse_game_id(game_id)
        return cls(gid, view_as(gid, query.get("as_")), game_seats(gid))

    def event(self, record: Record) -> dict[str, Any]:
        return event_view(record, self.viewer, self.seats)

    def events(self, records: Iterable[Record]) -> list[dict[str, Any]]:
        return [self.event(r) for r in records]

    def state(self, state: dict[str, Any]) -> dict[str, Any]:
        return state_view(state, self.viewer)

    def diff(self, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
        return diff_view(state_diff(before, after), before, after, self.viewer)


@blp.route("/games/<game:game_id>/timeline")
class Timeline(MethodView):
    @blp.game_view(TimelineSchema, query=ViewQuerySchema, errors=[403])
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """The whole game in outline: events, turns, Heroes' counters, disputes

        Only public fields of each event (version, turn, type, seat, cause, `corrects`,
        `undoes`, `dispute`); the cards an event names come with `GET .../events/<version>`.
        """
        gid = parse_game_id(game_id)
        viewer = view_as(gid, query.get("as_"))
        index = gamelog().delays.index(gid, current_viewer(gid))
        waits = index.seat_clock.per_turn()
        return {
            "game_id": str(gid),
            "version": index.version,
            "viewer": viewer,
            "turns": {
                str(turn): {
                    "first": vs[0],
                    "last": vs[-1],
                    "count": len(vs),
                    "seat_time": waits.get(turn, {}),
                }
                for turn, vs in sorted(index.turns.items())
            },
            "seat_time": index.seat_clock.totals(),
            "timeline": [dict(entry) for entry in index.timeline],
            "series": [dict(point) for point in index.series if point],
            "disputes": disputes_of(index.state),
        }


@blp.route(f"/games/<game:game_id>/turns/<int(max={MAX_VERSION}):turn>")
class Turn(MethodView):
    @blp.game_view(TurnSchema, query=ViewQuerySchema, errors=[403])
    def get(self, query: dict[str, Any], game_id: str, turn: int) -> dict[str, Any]:
        """One turn: its events, the state before and after it, and what changed

        Setup is turn 0. A turn the judge backed up to and that was played again keeps all its
        events (`versions`); `before` is the state before its first event, `after` the state
        after its last.
        """
        lens = Lens.of(game_id, query)
        played = gamelog().delays.turn(lens.gid, current_viewer(lens.gid), turn)
        before, after = played.before, played.after
        return {
            "game_id": str(lens.gid),
            "turn": turn,
            "viewer": lens.viewer,
            "versions": played.versions,
            "events": lens.events(played.records),
            "before": lens.state(before) if before.get("seats") else None,
            "after": lens.state(after),
            "diff": lens.diff(before, after),
        }


@blp.route(f"/games/<game:game_id>/events/<int(max={MAX_VERSION}):version>")
class EventDetail(MethodView):
    @blp.game_view(EventDetailSchema, query=ViewQuerySchema, errors=[403])
    def get(self, query: dict[str, Any], game_id: str, version: int) -> dict[str, Any]:
        """One event with the chain of causes that led to it and what it caused

        `narration` is the event in words, as in the transcript (only the names the viewer
        may see; `[unchecked]` ends an event recorded from a card whose text is not encoded,
        a custom card is named with `[custom]`). `causes` runs from the nearest cause (e.g.
        the ability resolving) to the player's own action; `effects` lists every event it
        caused, directly or not. `corrected_by` and `undone_by` name the judge's events that
        correct or undo it.
        """
        lens = Lens.of(game_id, query)
        seen = gamelog().delays.event(lens.gid, current_viewer(lens.gid), version)
        event = lens.event(seen.record)
        return {
            "game_id": str(lens.gid),
            "viewer": lens.viewer,
            "turn": seen.turn,
            "event": event,
            "narration": narrate(event, seen.after),
            "causes": lens.events(seen.causes),
            "effects": lens.events(seen.effects),
            "corrected_by": seen.corrected_by,
            "undone_by": seen.undone_by,
            "diff": lens.diff(seen.before, seen.after),
            "state": lens.state(seen.after),
        }


# ---------------------------------------------------------------------------- disputes


def disputes_of(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The disputes in ``state["disputes"]`` as the API shows them, oldest first."""
    out = [dispute_entry(did, d) for did, d in (state.get("disputes") or {}).items()]
    return sorted(out, key=lambda d: (d["opened_at"] or 0, d["dispute_id"]))


def dispute_entry(dispute_id: str, d: dict[str, Any]) -> dict[str, Any]:
    rulings = [
        {
            "version": r["version"],
            "ruling": r["ruling"],
            "penalty": penalty_of(r),
            "backup_to": r.get("backup_to"),
            "undone": list(r.get("undone") or []),
            "corrections": list(r.get("corrections") or []),
        }
        for r in d.get("rulings") or []
    ]
    return {
        "dispute_id": dispute_id,
        "status": "ruled" if rulings else "open",
        "raised_by": d.get("raised_by"),
        "statement": d.get("note", ""),
        "turn": d.get("turn"),
        "from_version": d.get("from_version"),
        "to_version": d.get("to_version"),
        "opened_at": d.get("opened_at"),
        "rulings": rulings,
    }


def penalty_of(ruling: Mapping[str, Any]) -> dict[str, Any] | None:
    """A recorded ruling's penalty as the API shows it: ``{kind, seat, infraction?,
    escalated_from?}`` (those two only when the ruling has them), or ``None``; with an
    infraction the penalty guide has, its ``infraction_name`` and ``ipg_section``, and for an
    upgraded penalty the guide's ``repeat_at_least`` (:func:`domain.penalties.described`: the
    ruling does not store the count, only that the guide's was reached)."""
    if ruling.get("penalty") is None:
        return None
    shown = {"kind": ruling["penalty"], "seat": ruling.get("player")}
    shown |= {k: ruling[k] for k in ("infraction", "escalated_from") if ruling.get(k)}
    return shown | described(ruling)


def _recorded(gid: UUID, records: list[Record], dispute_id: str, viewer: str) -> dict[str, Any]:
    state = gamelog().replays.index(gid).state
    seats = tuple(state["seats"])
    return {
        "version": records[-1]["version"],
        "dispute": dispute_entry(dispute_id, state["disputes"][dispute_id]),
        "events": [event_view(r, viewer, seats) for r in records],
    }


@blp.route("/games/<game:game_id>/disputes")
class Disputes(MethodView):
    @blp.game_view(DisputeListSchema)
    def get(self, game_id: str) -> dict[str, Any]:
        """Every dispute of the game with its ruling (open ones have none yet)"""
        gid = parse_game_id(game_id)
        index = gamelog().delays.index(gid, current_viewer(gid))
        return {"game_id": str(gid), "disputes": disputes_of(index.state)}

    @blp.game_view(
        RecordedSchema,
        body=DisputeCreateSchema,
        status_code=201,
        who=party_of_game("open a dispute"),
        errors=[403, 409, 422],
    )
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Call the judge: open a dispute (seat, table or judge token)

        `turn`, or `from_version`..`to_version`, is the contested range (optional); `statement`
        is what is claimed. The dispute stays open until the judge rules. It is stored as a
        `DisputeOpened` event (`seat: "judge"`, `raised_by`: the caller).
        """
        gid = parse_game_id(game_id)
        viewer = current_viewer(gid)
        claim = Claim(
            raised_by=viewer,
            statement=body["statement"],
            turn=body.get("turn"),
            from_version=body.get("from_version"),
            to_version=body.get("to_version"),
        )
        dispute_id, records = gamelog().open_dispute(
            gid, claim, expected_version=body.get("expected_version")
        )
        return _recorded(gid, records, dispute_id, viewer)


@blp.route("/games/<game:game_id>/disputes/<dispute_id>/ruling")
class Ruling(MethodView):
    @blp.game_view(
        RecordedSchema,
        body=RulingCreateSchema,
        status_code=201,
        who=judge_of_game,
        errors=[403, 409, 422],
    )
    def post(self, body: dict[str, Any], game_id: str, dispute_id: str) -> dict[str, Any]:
        """Rule on a dispute (judge token only)

        Recorded together, all or nothing, after the dispute: first the **backup** when
        `backup_to` names an event (every event after it is undone, newest first, one undo per
        event, each restoration carrying `undoes`; the originals stay), then the
        **corrections** (effect commands, each with `corrects: <version>`; recorded with seat
        `judge`, `forced_by_judge: true`, no rule checked), then the `RulingRecorded` event
        with the note and the penalty. A `game_loss`, `match_loss` or `disqualification`
        ends the game for the penalised seat: its concession follows, recorded by the rules
        (the other player wins a two-player game; a classic table plays on without the seat).
        In one of an event's games a penalty naming an `infraction` is upgraded when the
        player's earlier penalties for it in the event reach the penalty guide's count
        (`penalty.escalated_from` then names the one given; docs/rules.md F.5).
        The corrections are the game's ruleset's: the CCG's `damage`, `heal`, `move`, `stash`,
        `discard`, `remove`, `zap`, `unzap`, `reveal_card`, `collect`, `take_gold`,
        `lose_gold`, `steal`, `set_level`, `set_marker` (docs/rules.md A.14); classic
        Munchkin's `set_level`, `move`, `give_curse`, `take_curse`, `set_dead`, `end_combat`,
        `set_turn` (docs/rules.md B.17). A malformed correction is 400, a `corrects` or
        `backup_to` version the game has not reached 404, one the table cannot be in 422.

        `"rekey": true` re-keys a server-dealt game (docs/rules.md E.3, docs/dealing.md): a
        `DealingRekeyed` event (the next `epoch`, the commitment to a new server secret) comes
        before the `RulingRecorded`, this response alone gives the judge the secret of the
        epoch that ends (`dealing_secret`), and the contributors commit and reveal new seeds
        before the next draw or roll (422 `rule/seeds_pending` until then). A table-dealt game:
        422 `rule/table_deals`; a game over: 422 `command/game_over`; an imported game, whose
        secret is not on this server: 422 `command/no_dealer`. A `backup_to` that takes a
        finished server-dealt game back into play re-keys it unasked (its secret was revealed
        at the end): the same `DealingRekeyed`, without `dealing_secret`.
        """
        gid = parse_game_id(game_id)
        viewer = current_viewer(gid)
        ruled = event_penalties().rule(gid, dispute_id, body)
        out = _recorded(gid, ruled.records, dispute_id, viewer)
        if ruled.dealing_secret is not None:  # the judge's token only: see judge_of_game
            out["dealing_secret"] = ruled.dealing_secret
        return out


# ---------------------------------------------------------------------------- verify


@blp.route("/games/<game:game_id>/verify")
class Verify(MethodView):
    @blp.game_view(VerifySchema)
    def get(self, game_id: str) -> dict[str, Any]:
        """Check every stored row of the game (tamper evidence, damaged storage)

        Each stored event is read on its own and the hash chain recomputed; `problems` lists
        everything found, each with its `row` (`event` or `snapshot`), `version`, `reason` and
        `detail`: an event that does not decode (`undecodable`), a missing version
        (`version_gap`), an event whose fields no longer give its hash (`hash_mismatch`), that
        does not follow the previous hash (`prev_hash_mismatch`), that is another version's
        (`out_of_order`, `duplicate_version`) or does not load (`bad_event`); a snapshot that
        does not decode, does not end with its event's hash or does not hold the state the
        events fold to. `first_broken` is the first damaged event, `checked` counts the events
        that verified before it. While an event is damaged every other route of the game
        answers 503 `storage/damaged`; this one keeps answering. Any viewer of the game may ask.
        """
        gid = parse_game_id(game_id)
        viewer = current_viewer(gid)
        result = gamelog().delays.verify_head(gid, viewer, gamelog().verify_game(gid))
        out = {
            "game_id": str(gid),
            "ok": result["ok"],
            "checked": result["checked"],
            "first_broken": result["first_broken"],
            "problems": result["problems"],
            "dealing": result["dealing"],
        }
        if sees_whole_log(viewer):
            out["head"] = result["head"]
        return out
