"""A whole Munchkin CCG game played on the table page (issue #26 item 2): two browser contexts,
seat A's and seat B's, each signed in with its own seat token, a server-dealt game
(``"dealing": "server"``: each page commits and reveals a random seed of its own, by itself),
played to its natural end (a seat eliminated) in Debian's chromium.

Which move is made is the demo's choice (``Family.demo_next``, seeded) among the legal moves of
the judge's state; the test makes it the way a person using the keyboard only would (Tab to
the control, the arrow keys in a picker, Enter), on the page of the seat whose move it is: it finds the control that sends that very command (a button, or a picker's option
and its button), so every move of the game must be offered by the page, labelled, and recorded
from it. The other page must follow live (``live.js``) to be ready for its next move. At the
end the dealing verifies (the server re-derives every shuffle and roll from the seeds the pages
sent) and both pages say the game is over.

How long it takes depends on the cards the server deals (random each run): a hundred to three
hundred moves; about 0.1 s each.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import requests

from api.cli.demo import demo_spec
from domain.family import family_named
from domain.seeding import seeds_due
from tests.e2e.tablepage import JudgeView, act_by_keys, auth, ready_at
from tests.live import munchlog_serve

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ORGANIZER = "e2e-table-ccg-organizer"
#: The demo's choices are seeded; the cards are not (the server deals from the seeds the pages
#: draw), so a game's length varies: this many moves is far past any game seen (110 to 280).
MAX_MOVES = 600


def bad(message: Any) -> bool:
    """A console error, but for the browser's note of a 409: the two pages' seeds race (each
    commits as soon as it opens), the loser is told the game moved on and sends it again."""
    return bool(message.type == "error" and "status of 409" not in message.text)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("table-ccg")
    with munchlog_serve(folder, ORGANIZER) as (port, _env):
        yield f"http://127.0.0.1:{port}"


def test_two_seats_play_a_server_dealt_ccg_game_to_its_end(
    served: str, browser: Any, tmp_path: Path
) -> None:
    spec = {**demo_spec(seed=3), "dealing": "server"}
    created = requests.post(
        f"{served}/api/games", json=spec, headers=auth(ORGANIZER), timeout=30
    ).json()
    gid = created["game_id"]
    judge = JudgeView(served, gid, created["judge_token"])
    errors: list[str] = []
    with ExitStack() as stack:
        pages: dict[str, Any] = {}
        for seat in ("A", "B"):
            context = browser.new_context(viewport={"width": 1024, "height": 768})
            stack.callback(context.close)
            page = context.new_page()
            page.on("pageerror", lambda e, s=seat: errors.append(f"{s}: {e}"))
            page.on(
                "console", lambda m, s=seat: errors.append(f"{s}: {m.text}") if bad(m) else None
            )
            page.goto(f"{served}/games/{gid}/play#token={created['seats'][seat]['token']}")
            page.wait_for_selector(f'#acting-one[data-seat="{seat}"]')
            # the token left the address bar at once (a copied link never carries it)
            assert "token" not in page.url
            pages[seat] = page

        family = family_named(spec["ruleset"])
        rng = random.Random(3)
        state = judge.catch_up()
        moves = 0
        shots: dict[str, Path] = {}  # the first fight, response window and stack on a page
        while state["status"] != "finished":
            if seeds_due(state):  # the pages commit and reveal their seeds by themselves
                state = judge.wait_past(judge.version)
                continue
            command = family.demo_next(state, rng)
            assert command is not None, f"no legal move at version {judge.version}"
            seat = command["seat"]
            ready_at(pages[seat], judge.version, seat)
            for part in ("fight", "window", "stack"):  # the first of each, as it was shown
                if part not in shots and pages[seat].locator(f"[data-{part}]").count():
                    shots[part] = tmp_path / f"ccg-{part}-{seat}.png"
                    pages[seat].screenshot(path=str(shots[part]), full_page=True)
            act_by_keys(pages[seat], command)  # the whole game with the keyboard only
            state = judge.wait_past(judge.version)
            moves += 1
            assert moves < MAX_MOVES, "the game did not end"

        # the seeds came from the pages: one commitment and one reveal per seat
        assert judge.types.count("SeedCommitted") == 2
        assert judge.types.count("SeedRevealed") == 2
        assert "GameEnded" in judge.types
        verified = requests.get(
            f"{served}/api/games/{gid}/verify", headers=auth(created["judge_token"]), timeout=30
        ).json()
        assert verified["dealing"]["ok"] and verified["dealing"]["complete"], verified["dealing"]
        for seat, page in pages.items():
            page.wait_for_selector("#waiting:has-text('the game is over')")
            assert page.locator("[data-winner]").count() == 1
            assert page.locator("#controls .act").count() == 0, f"{seat} is offered moves"
        assert "fight" in shots and "window" in shots, "the game had no fight to show"
    assert not errors, errors
