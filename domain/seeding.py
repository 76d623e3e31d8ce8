"""The seed commands a contributing seat may send now (docs/rules.md E.2), for a family's
``legal_commands``, and the seeds a client keeps between its commitment and its reveal.

``legal_commands`` is a pure function of the state, so the seed it offers is one anyone can
compute (:func:`play_seed`: SHA-256 over a label, the game id, the seat and the epoch). That is
right for what drives games by their legal commands (random play-outs, property tests,
benchmarks) and for nothing else: a real client commits to fresh random bytes and keeps them
until its reveal (:class:`SeatSeeds`, as ``munchlog demo`` does).

>>> state = {"game_id": "g", "status": "setup", "dealing": {
...     "contributors": ["A", "B"], "commitments": {}, "revealed": {}, "withheld": [],
...     "epoch": 0}}
>>> [c["type"] for c in seed_commands(state, "A")], seed_commands(state, "C")
(['commit_seed'], [])
>>> seeds_pending(state), seeds_pending({"status": "setup"})
(True, False)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from domain import dealing, fair

Cmd = dict[str, Any]

#: The label of :func:`play_seed`'s hash (not the scheme's: these seeds are public).
PLAY_SEED_LABEL = "munchlog-play-seed"


def play_seed(game_id: str, seat: str, epoch: int) -> bytes:
    """The public seed :func:`seed_commands` offers ``seat`` in ``epoch``: SHA-256 over
    ``munchlog-play-seed|<game_id>|<seat>|<epoch>``. Anyone can compute it, so it adds no
    unpredictability: for play-outs only."""
    return hashlib.sha256(f"{PLAY_SEED_LABEL}|{game_id}|{seat}|{epoch}".encode()).digest()


def seeds_pending(state: Mapping[str, Any]) -> bool:
    """Whether the game is dealt by the server and a contributor's seed is still due (nothing
    is dealt or rolled until none is: ``rule/seeds_pending``, E.2)."""
    d = fair.of(state)
    return d is not None and not fair.ready(d)


def seed_commands(state: Mapping[str, Any], seat: str) -> list[Cmd]:
    """What ``seat`` may send for the dealing now: its ``commit_seed`` while it has not
    committed, its ``reveal_seed`` once every contributor has committed and until it reveals
    (with :func:`play_seed`), else nothing (a table-dealt game, a seat that contributes
    nothing, a finished game)."""
    d = fair.of(state)
    if d is None or state.get("status") == "finished" or seat not in d["contributors"]:
        return []
    if seat in d["revealed"] or seat in d["withheld"]:
        return []
    game_id, epoch = str(state["game_id"]), int(d["epoch"])
    seed = play_seed(game_id, seat, epoch)
    if seat not in d["commitments"]:
        commitment = dealing.seat_commitment(game_id, seat, seed)
        return [{"type": "commit_seed", "seat": seat, "commitment": commitment}]
    if fair.uncommitted(d):
        return []  # no seed is revealed before every contributor has committed or is withheld
    return [{"type": "reveal_seed", "seat": seat, "seed": seed.hex()}]


def seeds_due(state: Mapping[str, Any]) -> list[str]:
    """The seats whose seed command is due now (:func:`seed_commands`), in seating order: whom
    a server-dealt game waits on while its seeds are pending (E.2); none otherwise."""
    if not seeds_pending(state):
        return []
    return [seat for seat in state.get("seats") or () if seed_commands(state, seat)]


class SeatSeeds:
    """A client's seeds for the seats it plays in one game (``munchlog demo``): :meth:`fill`
    gives a ``commit_seed`` a commitment to 32 fresh random bytes
    (:func:`domain.dealing.new_secret`) and the ``reveal_seed`` after it those bytes; any
    other command passes unchanged.

    >>> seeds = SeatSeeds("g")
    >>> committed = seeds.fill({"type": "commit_seed", "seat": "A", "commitment": "x"})
    >>> revealed = seeds.fill({"type": "reveal_seed", "seat": "A", "seed": "x"})
    >>> dealing.seat_seed_matches("g", "A", revealed["seed"], committed["commitment"])
    True
    """

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self._seeds: dict[str, bytes] = {}

    def __repr__(self) -> str:  # never a seed in a log line before its reveal
        return f"SeatSeeds(game_id={self.game_id!r}, seats={sorted(self._seeds)})"

    def fill(self, command: Mapping[str, Any]) -> Cmd:
        kind, seat = command.get("type"), str(command.get("seat"))
        if kind == "commit_seed":
            seed = self._seeds[seat] = dealing.new_secret()
            return {**command, "commitment": dealing.seat_commitment(self.game_id, seat, seed)}
        if kind == "reveal_seed" and seat in self._seeds:
            return {**command, "seed": self._seeds[seat].hex()}
        return dict(command)
