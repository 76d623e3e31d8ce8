"""No refusal tells a random result not yet recorded (issue #35, docs/rules.md E.1).

In a server-dealt game a refused batch records nothing and uses up no counter, so whatever its
answer says of a card or a die that was to come, a seat could ask again and again before the
next random operation, and then choose what to do. The property: over random batches of random
positions, in both families (the CCG and classic's three sets), both dealings (server and
table) and both modes (strict and record), a batch the rules refuse is refused with the same class (the HTTP status, ``tests/service/helpers``), code,
message, section and fields whatever the server's secret; and, recorded through the service, a
refused batch leaves the game's version and its dealing counter as they were.

The positions are the demo's games, stopped where some seat may draw or roll; the batches are
legal commands of that position followed by probes (a play of a card still in a deck, the
first player's choice, an end of turn ...), the shape of issue #35's findings 4 and 5: after
``roll_first`` or a ``draw``, what follows was refused in words that told the die or the card.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch
from uuid import UUID

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.fair import Dealt
from domain.family import family_named
from domain.fold import State
from domain.game import decide_commands
from domain.ruleset import find_ruleset
from service.commands import commands_of
from service.games import GameLog, utc_now
from tests.service.helpers import new_log, play_demo

RULESETS = ("munchkin-ccg", "munchkin-deluxe", "munchkin-old-west", "munchkin-age-of-sigmar")
DEALINGS = ("server", "table")
#: Two server secrets (by epoch) to decide the same batch with.
SECRETS = ({0: bytes(32)}, {0: bytes(range(32))})
#: The commands that draw or roll, in one family or the other (docs/rules.md E.1).
RANDOM_TYPES = frozenset(
    {"draw", "draw_opening", "mulligan", "roll_first", "spill"}
    | {"deal", "kick_door", "loot", "take_treasure", "run_away"}
)
#: Probes naming a card: a play of it (both families), and classic's other uses of a hand card.
CARD_PROBES = {"ccg": ("play",), "classic": ("play", "equip", "discard")}
#: Probes naming no card, each for every seat.
PLAIN_PROBES = (
    "end_turn",
    "draw",
    "keep",
    "ready",
    "kick_door",
    "loot",
    "take_treasure",
    "look_for_trouble",
)

Answer = tuple[Any, ...] | None  # None: accepted


def at_a_draw(state: State) -> bool:
    """Whether some seat may draw or roll now (the demo's legal commands say)."""
    family = family_named(state["ruleset"])
    return any(
        c["type"] in RANDOM_TYPES for s in state["seats"] for c in family.demo_commands(state, s)
    )


def legal(state: State) -> list[dict[str, Any]]:
    """Every seat's legal commands but the seeds' and a concession, without ``salt``."""
    family = family_named(state["ruleset"])
    return [
        {"seat": seat, **{k: v for k, v in c.items() if k != "salt"}}
        for seat in state["seats"]
        for c in family.demo_commands(state, seat)
        if c["type"] not in ("concede", "commit_seed", "reveal_seed")
    ]


def deck_cards(state: State, seat: str) -> list[str]:
    """The cards ``seat`` could draw next: its deck (CCG), the Door and Treasure decks
    (classic)."""
    if "decks" in state:
        return [*state["decks"]["door"], *state["decks"]["treasure"]]
    return list(state["seats"][seat]["zones"]["deck"])


def card_probes(state: State, seats: list[str], cards: list[str]) -> list[dict[str, Any]]:
    kinds = CARD_PROBES["classic" if "decks" in state else "ccg"]
    return [{"type": k, "seat": s, "card": cid} for s in seats for cid in cards for k in kinds]


def probes(state: State) -> list[dict[str, Any]]:
    seats = list(state["seats"])
    out: list[dict[str, Any]] = []
    for seat in seats:
        out += [{"type": kind, "seat": seat} for kind in PLAIN_PROBES]
        out += [{"type": "choose_first", "seat": seat, "first": first} for first in seats]
        out += card_probes(state, [seat], deck_cards(state, seat))
    return out


@contextmanager
def repeatable(seed: int) -> Iterator[None]:
    """The game's id, its cards' ids, the server's secret and the seats' seeds (and an
    attack's salt) drawn from ``seed``: the same
    position each time Hypothesis plays an example (it draws its batch from the position)."""
    rng = random.Random(seed)
    with (
        patch("service.games.uuid4", lambda: UUID(bytes=rng.randbytes(16), version=4)),
        patch("service.games.new_secret", lambda: rng.randbytes(32)),
        patch("domain.dealing.new_secret", lambda: rng.randbytes(32)),
        patch("secrets.token_hex", lambda n=32: rng.randbytes(n).hex()),  # card ids, salts
    ):
        yield


def answer(error: DomainError) -> tuple[Any, ...]:
    return (type(error), error.code, error.message, error.rule, getattr(error, "fields", None))


def decided(
    state: State, batch: list[dict[str, Any]], secrets: dict[int, bytes]
) -> tuple[Answer, list[str]]:
    """What the table's batch gets from ``state`` under the server's ``secrets``, as
    ``GameLog.record`` decides it (``commands_of``, then the game's decision), and the cards
    it would deal."""
    now = utc_now()
    try:
        commands = commands_of(state, "table", batch, now)
        steps = decide_commands(
            find_ruleset(state["ruleset"]), state, commands, received_at=now, secrets=secrets
        )
    except DomainError as error:
        return answer(error), []
    return None, [c for step, _ in steps if isinstance(step.event, Dealt) for c in step.event.cards]


def counter(log: GameLog, gid: UUID) -> tuple[int, int | None]:
    game = log.game(gid)
    dealing = game.state.get("dealing")
    return game.version, None if dealing is None else dealing["next_counter"]


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    ruleset=st.sampled_from(RULESETS),
    dealing=st.sampled_from(DEALINGS),
    mode=st.sampled_from(("strict", "record")),
    seed=st.integers(0, 2**16),
    prefix=st.integers(0, 60),
    data=st.data(),
)
def test_a_refused_batch_says_the_same_whatever_the_secret(
    ruleset: str, dealing: str, mode: str, seed: int, prefix: int, data: st.DataObject
) -> None:
    log = new_log()
    try:
        with repeatable(seed):
            gid = play_demo(
                log,
                seed=seed,
                max_actions=prefix,
                ruleset=ruleset,
                dealing=dealing,
                extra={"mode": mode},
                until=at_a_draw,
            ).game_id
        state = log.game(gid).state
        moves = legal(state)
        draws = [m for m in moves if m["type"] in RANDOM_TYPES]
        head = data.draw(st.lists(st.sampled_from(moves), max_size=1)) if moves else []
        if draws and data.draw(st.booleans()):
            head.append(data.draw(st.sampled_from(draws)))
        # The probes a seat would send after a draw: a play of each card it might have drawn.
        # The test asks the rules which cards the draw gives under each secret, to name them.
        dealt = sorted({c for secrets in SECRETS for c in decided(state, head, secrets)[1]})
        probe = st.sampled_from(probes(state))
        if dealt:
            probe = st.one_of(
                st.sampled_from(card_probes(state, list(state["seats"]), dealt)), probe
            )
        tail = data.draw(st.lists(probe, min_size=0 if head else 1, max_size=3))
        batch = head + tail
        answers = [decided(state, batch, secrets)[0] for secrets in SECRETS]
        assert answers[0] == answers[1], batch
        before = counter(log, gid)
        try:
            log.record(gid, batch, actor="table")
        except DomainError as error:
            assert answer(error) == answers[0], batch  # the server's own secret says the same
            assert counter(log, gid) == before
        else:
            assert answers[0] is None, batch
    finally:
        log.close()
