"""What is wrong with a game's stored snapshots (``GameLog.verify_game``, ``GET /verify``):
each must decode, end with the hash of the event at its version and hold the state the events
fold to at that version."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from adapters.eventstore import EventStore
from domain.envelope import Record
from domain.fold import apply_record, initial_state


def snapshot_problems(
    store: EventStore, game_id: UUID, sound: Sequence[Record]
) -> list[dict[str, Any]]:
    """What is wrong with each stored snapshot of the game, given its ``sound`` records
    (versions 1 .. n, verified)."""
    out: list[dict[str, Any]] = []
    state, folded = initial_state(), 0
    for version, snapshot, why in store.stored_snapshots(game_id):
        found: tuple[str, str] | None = None
        if snapshot is None:
            found = ("undecodable", why)
        elif version > len(sound):
            if version <= (store.last_game_version(game_id) or 0):
                continue  # after the damaged events: nothing to compare it with
            found = ("hash_mismatch", "it is ahead of the stored events")
        elif sound[version - 1]["hash"] != snapshot.get("head_hash"):
            found = ("hash_mismatch", "its head is not the hash of the event at its version")
        else:
            while folded < version:
                state, folded = apply_record(state, sound[folded]), folded + 1
            if snapshot.get("state") != state:
                found = ("state_mismatch", "its state is not the events folded to its version")
        if found is not None:
            out.append(
                {"row": "snapshot", "version": version, "reason": found[0], "detail": found[1]}
            )
    return out
