"""``GET /legal`` offers each caller only what that caller can post as it is (issue #40): over
random games of every family (the CCG and the three classic sets), dealt by the table and by
the server, at every position, every command each caller is offered (a seat's token, the
table's, the judge's), posted by that caller with its fields to fill filled from what it is
told (a seed command's commitment or seed from the seat's own seed, a table-dealt draw's
``draws`` by the names of cards the deck holds), is accepted.

"Accepted" is decided as ``GameLog.record`` decides a batch (its seat check, the names made
into ids, the rules: ``domain.game.decide_commands``, what ``Game.execute`` decides before it
stores anything) on the game loaded from the store, nothing saved; the game is
driven on by one such command of a random caller, posted for real.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain import dealing
from domain.errors import InvalidCommand
from domain.family import family_named
from domain.game import Game, decide_commands
from domain.ruleset import find_ruleset
from service.commands import commands_of
from service.games import GameLog, _check_seats, utc_now
from service.legal import legal_moves
from tests.builders import classic_spec
from tests.service.helpers import new_log

FAMILIES = ("munchkin-ccg", "munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar")
STEPS = 50


def spec_of(ruleset: str, seats: int, dealing: str, contributors: bool) -> dict[str, Any]:
    rs = find_ruleset(ruleset)
    if rs.min_seats == rs.max_seats:
        spec = family_named(ruleset).demo_spec(seed=0, seats=rs.min_seats, catalog=None)
    else:
        spec = classic_spec(ruleset, seats)
    assert spec is not None
    if dealing == "server":
        spec = {**spec, "dealing": "server"}
        if not contributors:
            spec["contributors"] = []
    return spec


def filled(
    state: dict[str, Any], command: dict[str, Any], seeds: dict[str, bytes], rng: random.Random
) -> dict[str, Any]:
    """``command`` as its caller sends it: the seed commands with the seat's own seed, a
    table-dealt draw with the names of cards its deck holds (the table draws real cards)."""
    if command["type"] in ("commit_seed", "reveal_seed"):
        seat, game = command["seat"], str(state["game_id"])
        seed = seeds.setdefault(seat, rng.randbytes(32))
        if command["type"] == "reveal_seed":
            return {**command, "seed": seed.hex()}
        return {**command, "commitment": dealing.seat_commitment(game, seat, seed)}
    draws = command.get("draws")
    if not draws:
        return command
    out = {k: v for k, v in command.items() if k != "draws"}
    cards = state["cards"]
    for field, want in draws.items():
        deck = want["deck"]
        n = want.get("count", 1)
        pile = list(state["decks"][deck])
        if len(pile) < n:
            pile += list(state["decks"][f"{deck}_discard"])
        names = [{"name": cards[c]["def"]["name"]} for c in rng.sample(pile, min(n, len(pile)))]
        out[field] = names if "count" in want else names[0]
    return out


def accepted(log: GameLog, game: Game, actor: str, command: dict[str, Any]) -> dict[str, Any]:
    """Decide ``command`` posted by ``actor`` as ``GameLog.record`` does on
    ``game``, saving nothing; the command as accepted. A kicked Curse whose victim must choose
    what it takes is answered ``request/missing_choice`` with the cards to choose from (its
    ``fields``), and sent again with one of them, as the table page does."""
    _check_seats(actor, [command], tuple(game.state["seats"]))
    now = utc_now()
    commands = commands_of(game.state, actor, [command], now)
    try:
        decide_commands(
            find_ruleset(game.ruleset),
            game.state,
            commands,
            received_at=now,
            secrets=log.secrets_of(game),
        )  # what Game.execute decides before it stores anything; the game is left as it was
    except InvalidCommand as e:
        pool = (e.fields or {}).get("choices") if e.code == "request/missing_choice" else None
        if not pool:
            raise
        return accepted(
            log, game, actor, {**command, "choices": [*command.get("choices", []), pool[0]]}
        )
    return command


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(
    family=st.sampled_from(FAMILIES),
    dealing=st.sampled_from(["table", "server"]),
    contributors=st.booleans(),
    seats=st.integers(min_value=3, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_every_offered_command_is_accepted_from_its_caller(
    family: str, dealing: str, contributors: bool, seats: int, seed: int
) -> None:
    rng = random.Random(seed)
    log = new_log()
    try:
        gid = log.start_game(spec_of(family, seats, dealing, contributors)).game_id
        seeds: dict[str, bytes] = {}  # each seat's own seed, as its phone keeps it
        for _ in range(STEPS):
            game = log.game(gid)
            state = game.state
            if state["status"] == "finished":
                break
            callers = [*state["seats"], "table", "judge"]
            offers: list[tuple[str, dict[str, Any]]] = []
            for caller in callers:
                for commands in legal_moves(log, gid, caller)["commands"].values():
                    for command in commands:
                        sent = filled(state, command, seeds, rng)
                        try:
                            sent = accepted(log, game, caller, sent)
                        except Exception as e:
                            raise AssertionError(
                                f"{caller} was offered {command}, sent {sent}: refused {e!r}"
                            ) from e
                        if command["type"] != "concede":
                            offers.append((caller, sent))
            if not offers:
                break
            caller, command = rng.choice(offers)
            log.record(gid, [command], actor=caller)
    finally:
        log.close()
