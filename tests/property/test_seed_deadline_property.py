"""A server-dealt game never waits on nobody (issue #43): over random server-dealt games of
both families, with random contributors, reveal timeouts, seeds that are lost after their
commitment (a page gone: nobody can reveal them) and contributors that never commit, **at every
version** either some caller has a move it can send (a lost seed's ``reveal_seed`` form is not
one: no device holds the seed; a concession is not one either), or the server has a deadline
pending and ``/legal`` shows it to every caller (``deadline``: when, whom, what), naming the
seats the game waits on. And that deadline is kept with no request: once the clock passes it,
the keeper (``service.deadlines.DeadlineKeeper.expire_due``) records the withholding and the
game moves on.

The driver plays what a caller may send, by a seeded choice; when nothing can be sent it only
moves the clock past the deadline and asks the keeper (never a request).
"""

from __future__ import annotations

import contextlib
import random
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.dealing import seat_commitment
from domain.errors import DomainError
from domain.seeding import seeds_pending
from service.deadlines import DeadlineKeeper
from service.legal import legal_view
from tests.service.helpers import demo_spec, new_log, start

#: (ruleset, seats): the CCG and two classic sets.
GAMES = [("munchkin-ccg", 2), ("munchkin-deluxe", 4), ("munchkin-old-west", 3)]
#: Moves played after the seeds are in (the property holds there too; the random-games
#: properties play whole games).
AFTER_SEEDS = 6


def clock_at(seconds: float) -> str:
    whole = int(seconds)
    return f"2030-01-01T{whole // 3600:02d}:{whole // 60 % 60:02d}:{whole % 60:02d}.{int(seconds % 1 * 1e6):06d}+00:00"


def sendable(views: dict[str, dict[str, Any]], lost: set[str]) -> list[dict[str, Any]]:
    """The moves some caller can send: every command offered, but a concession and the reveal
    of a seed nobody holds."""
    out = []
    for view in views.values():
        for commands in view["commands"].values():
            for c in commands:
                if c["type"] == "concede" or (c["type"] == "reveal_seed" and c["seat"] in lost):
                    continue
                if c not in out:
                    out.append(c)
    return out


@settings(max_examples=45, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32 - 1),
    timeout=st.integers(1, 120),
    data=st.data(),
)
def test_at_every_version_some_caller_has_a_move_or_a_deadline_is_shown(
    game: tuple[str, int], seed: int, timeout: int, data: st.DataObject
) -> None:
    ruleset, count = game
    log = new_log()
    now = [0.0]
    rng = random.Random(seed)
    with mock.patch("service.games.utc_now", lambda: clock_at(now[0])):
        spec = demo_spec(seed=seed % 1000, ruleset=ruleset, seats=count)
        seats = [str(s["seat"]) for s in spec["seats"]]
        contributors = data.draw(st.lists(st.sampled_from(seats), unique=True), "contributors")
        contributors = [s for s in seats if s in contributors]
        lost = set(data.draw(st.sets(st.sampled_from(seats)), "lost")) & set(contributors)
        silent = set(data.draw(st.sets(st.sampled_from(seats)), "silent")) & set(contributors)
        gid = start(
            log, spec, dealing="server", contributors=contributors, reveal_timeout=timeout
        ).game_id
        keeper = DeadlineKeeper(log)
        seeds = {seat: rng.randbytes(32) for seat in seats}
        after_seeds = 0
        while after_seeds < AFTER_SEEDS:
            state = log.game(gid).state
            if state.get("status") == "finished":
                break
            after_seeds += not seeds_pending(state)
            views = {viewer: legal_view(state, viewer) for viewer in (*seats, "table", "judge")}
            moves = sendable(views, lost)
            deadline = views["judge"]["deadline"]
            assert all(v["deadline"] == deadline for v in views.values())
            if deadline is not None:  # shown: when, whom, what; the seats are waited on
                assert deadline["at"] and deadline["step"] in ("commit_seed", "reveal_seed")
                assert set(deadline["seats"]) <= set(views["judge"]["waiting_for"])
            assert moves or deadline is not None, (state["version"], state["dealing"])
            # the driver: a contributor that stays silent never commits while it need not
            willing = [m for m in moves if not (m["type"] == "commit_seed" and m["seat"] in silent)]
            if deadline is not None and (not willing or rng.random() < 0.2):
                version = state["version"]
                now[0] = seconds_of(deadline["at"]) + rng.choice(
                    (0.001, 0.3, 1.0)
                )  # no request: the keeper's look
                assert keeper.expire_due(clock_at(now[0])) == [gid]
                assert log.game(gid).state["version"] > version
                continue
            move = dict(rng.choice(willing or moves))
            if move["type"] == "commit_seed":
                move["commitment"] = seat_commitment(str(gid), move["seat"], seeds[move["seat"]])
            elif move["type"] == "reveal_seed":
                move["seed"] = seeds[move["seat"]].hex()
            now[0] += rng.choice((0.01, 0.2))
            with contextlib.suppress(DomainError):  # a reveal a moment too late: it moved on
                log.record(gid, [move], actor="judge")
        assert not seeds_pending(log.game(gid).state)
    log.close()


def seconds_of(iso: str) -> float:
    clock = iso.split("T", 1)[1].rstrip("Z").split("+", 1)[0]
    hours, minutes, rest = clock.split(":")
    return int(hours) * 3600 + int(minutes) * 60 + float(rest)
