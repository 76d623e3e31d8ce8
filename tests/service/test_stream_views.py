"""What a stream renders once for several viewers is what each of them would be shown
(``projections.views.hides_nothing`` against ``event_view``), over whole demo games of every
family, dealt by the table and by the server; and the chunks a stream sends are exactly the
events ``GET /events`` shows each viewer (``service.streams.next_chunks``)."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from domain import DEFAULT_RULESET
from projections.views import event_view, hides_nothing, view_class
from service.games import GameLog
from service.streams import next_chunks
from tests.service.helpers import play_demo

CASES = [
    (DEFAULT_RULESET, "table", 1),
    (DEFAULT_RULESET, "server", 2),
    ("munchkin-deluxe", "table", 3),
    ("munchkin-old-west", "server", 4),
    ("munchkin-age-of-sigmar", "table", 5),
]


def viewers(seats: tuple[str, ...]) -> list[str]:
    return [*seats, "table", "judge", "spectator", "organizer"]


@pytest.mark.parametrize(("ruleset", "dealing", "seed"), CASES)
def test_viewers_of_one_class_are_shown_the_same_event(
    log: GameLog, ruleset: str, dealing: str, seed: int
) -> None:
    game = play_demo(log, seed=seed, ruleset=ruleset, dealing=dealing, max_actions=120)
    seats = log.seats(game.game_id)
    shared = 0
    for record in log.records(game.game_id):
        views = defaultdict(set)
        for viewer in viewers(seats):
            shown = json.dumps(event_view(record, viewer, seats), sort_keys=True)
            views[view_class(viewer, hides_nothing(record, seats))].add(shown)
        assert all(len(v) == 1 for v in views.values()), (record["version"], dict(views))
        shared += len(views) < len(viewers(seats))
    assert shared, "no event was shared: the property did not exercise the shortcut"


@pytest.mark.parametrize(("ruleset", "dealing", "seed"), CASES[:3])
def test_a_chunk_is_what_events_shows_each_viewer(
    log: GameLog, ruleset: str, dealing: str, seed: int
) -> None:
    game = play_demo(log, seed=seed, ruleset=ruleset, dealing=dealing, max_actions=40)
    seats = log.seats(game.game_id)
    wanted = [(v, after) for v in viewers(seats) for after in (0, 7)]
    chunks = next_chunks(log, game.game_id, wanted, json.dumps, limit=1000)
    for viewer, after in wanted:
        chunk = chunks[(viewer, after)]
        expected = "".join(
            f"id: {r['version']}\ndata: {json.dumps(event_view(r, viewer, seats))}\n\n"
            for r in log.records(game.game_id, after=after)
        )
        assert chunk.data.decode() == expected, (viewer, after)
        assert chunk.last == game.version and not chunk.more
    # a limit leaves the rest for the next read
    small = next_chunks(log, game.game_id, [("A", 0)], json.dumps, limit=5)[("A", 0)]
    assert small.last == 5 and small.more
