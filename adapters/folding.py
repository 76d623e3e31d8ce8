"""Folding a stored game: the check each stored event passes before it is folded
(:func:`check_next`: it follows the game's head and its fields give its hash), a snapshot's
(:func:`snapshot_problem`), and the projectors eventsourcing's repository folds with
(:func:`forward`, :func:`forward_all`, :func:`project`). Used by
:class:`adapters.eventstore.EventStore`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from adapters.record_mapper import GAME_TOPIC, CountedEvents
from domain.envelope import chain_hash
from domain.fold import FOLD_VERSION
from domain.game import Game, stored_record

#: A game is snapshotted whenever a save takes its version past a multiple of this.
SNAPSHOT_INTERVAL = 100
#: A cached game more than this many events behind the store is folded again from its latest
#: snapshot rather than fast-forwarded one event at a time (:meth:`EventStore._fast_forward`).
FAST_FORWARD_LIMIT = SNAPSHOT_INTERVAL


class Broken(Exception):
    """A stored event that does not continue the game being folded (the caller then names
    the damage from the whole stored chain)."""

    def __init__(self, version: int, why: str) -> None:
        super().__init__(f"event {version}: {why}")


class Cold(Exception):
    """The game left the cache between the look-up and the fast-forward."""


class FarBehind(Exception):
    """The cached game is more than :data:`FAST_FORWARD_LIMIT` events behind the store."""


def check_next(game: Game, event: Any, *, hashes: bool = True) -> None:
    """``event`` is the game's next stored event: a ``Game.Recorded`` that follows the game's
    head hash and (with ``hashes``) whose fields give its own hash (eventsourcing checks the
    version)."""
    if not isinstance(event, Game.Recorded):
        raise Broken(event.originator_version, "not a recorded game event")
    if event.prev_hash != game.head_hash:
        raise Broken(event.originator_version, "it does not follow the game's head")
    if hashes and chain_hash(stored_record(event), event.prev_hash) != event.hash:
        raise Broken(event.originator_version, "its fields do not give its hash")


def snapshot_problem(snapshot: Any) -> str | None:
    """Why a decoded snapshot is not a game's state at its version, or None."""
    state = snapshot.state
    if snapshot.topic != GAME_TOPIC or not isinstance(state, dict):
        return "it is not a game's snapshot"
    inner = state.get("state")
    if not isinstance(inner, dict) or inner.get("version") != snapshot.originator_version:
        return "its state is not at its version"
    if not isinstance(state.get("head_hash"), str):
        return "it has no head hash"
    return None


def forward(aggregate: Any, events: Iterable[Any]) -> Any:
    """Fast-forward a cached game (eventsourcing's projector): each event checked by
    :func:`check_next` before it is folded; :class:`FarBehind` (before anything is decoded
    or folded) if there are more than :data:`FAST_FORWARD_LIMIT` of them."""
    if aggregate is None:
        raise Cold()
    if isinstance(events, CountedEvents) and len(events) > FAST_FORWARD_LIMIT:
        raise FarBehind()
    return forward_all(aggregate, events)


def forward_all(aggregate: Any, events: Iterable[Any]) -> Any:
    """:func:`forward` however many events there are."""
    if aggregate is None:
        raise Cold()
    for event in events:
        check_next(aggregate, event)
        aggregate = event.mutate(aggregate)
    return aggregate


def project(aggregate: Any, events: Iterable[Any]) -> Any:
    """eventsourcing's ``project_aggregate`` without its per-event Protocol ``isinstance``
    assertion (slow on Python 3.11); every stored event of a game is a mutating event."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


def read_snapshot(mapper: Any, row: Any) -> tuple[Any | None, str | None]:
    """A stored snapshot row decoded: ``(snapshot, None)`` when it is a game's state at its
    version, ``(None, None)`` when an older fold took it (:data:`domain.fold.FOLD_VERSION`:
    stale, not damaged), ``(None, why)`` when it does not decode or is not a game's state."""
    try:
        snapshot: Any = mapper.to_domain_event(row)
        why = snapshot_problem(snapshot)
    except Exception as exc:
        return None, f"it does not decode ({type(exc).__name__})"
    if why is not None:
        return None, why
    if snapshot.state.get("fold") != FOLD_VERSION:
        return None, None
    return snapshot, None


def stored_snapshots(snapshots: Any, game_id: Any) -> list[tuple[int, dict[str, Any] | None, str]]:
    """Every stored snapshot of a game (``snapshots``: eventsourcing's snapshot store), oldest
    first, read one by one: ``(version, state, "")``, or ``(version, None, why)`` when it does
    not decode or is not a game's state (``state`` is the game's domain state and
    ``head_hash``, as the aggregate had them); an older fold's are left out."""
    out: list[tuple[int, dict[str, Any] | None, str]] = []
    for row in snapshots.recorder.select_events(game_id):
        snapshot, why = read_snapshot(snapshots.mapper, row)
        if snapshot is None and why is None:
            continue  # an older fold's snapshot: never used, nothing to check
        state = None if snapshot is None else dict(snapshot.state)
        out.append((int(row.originator_version), state, why or ""))
    return out
