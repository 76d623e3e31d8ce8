"""Streaming NDJSON export of many recorded games, against reading the raw notification log.

Setup (not timed): ``--distinct`` seeded random games are played with the domain
(``tests/unit/seeded_games.play``) and recorded ``--games`` times in all, each under a new
game id, directly through ``GameLog.import_game`` (not HTTP), all labelled ``event: Bench
Cup``. The match-history projection is then caught up (timed separately: its fold rate).

Timed, in the same run, ``--repeat`` times each (median reported):

* **raw**: ``recorder.select_notifications`` over the whole log in pages of 1,000 (the game
  events' topics), decoding each notification's JSON (``json.loads``): the floor of any reader;
* **export (HTTP)**: ``GET /api/exports?event=Bench Cup&format=ndjson`` through Flask's test
  client with the organizer token, reading the whole streamed body (every game, public view);
* **export (judge, no HTTP)**: each game's ``GameLog.records`` through ``export_ndjson`` as the
  judge (the complete, importable export), no Flask.

Rates are events per second (an export's header lines are not counted). Run from the
repository root::

    PYTHONPATH=. python bench/export_bench.py            # 1,000 games, SQLite in a temp dir
    PYTHONPATH=. python bench/export_bench.py --db postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adapters.eventstore import GAME_TOPICS
from api.app import create_app
from api.json_api.routes.exports import history
from domain import event_from_dict
from projections.exports import export_ndjson
from service.games import GameLog
from tests.unit.seeded_games import play, records_for

TOKEN = "bench-organizer-token"
EVENT = "Bench Cup"


def record_games(log: GameLog, games: int, distinct: int, seed: int) -> int:
    """Record ``games`` games (``distinct`` different ones); the number of events stored."""
    rng = random.Random(seed)
    played = [play(seed * 1000 + n)[1] for n in range(distinct)]
    total = 0
    for index in range(games):
        events = played[index % distinct]
        created = events[0].to_dict()
        created["game_id"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        created["labels"] = {**created["labels"], "event": EVENT, "round": str(index)}
        records = records_for([event_from_dict(created), *events[1:]])
        log.import_game(records)
        total += len(records)
    return total


def read_raw(log: GameLog) -> int:
    """Read and decode every game notification; the number read."""
    count, position = 0, 0
    while True:
        page = log.store.recorder.select_notifications(
            position, 1000, topics=list(GAME_TOPICS), inclusive_of_start=False
        )
        if not page:
            return count
        for notification in page:
            json.loads(notification.state)
        count += len(page)
        position = page[-1].id


def export_http(client: Any) -> int:
    response = client.get(
        f"/api/exports?event={EVENT}&format=ndjson",
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    assert response.status_code == 200, response.status_code
    lines = headers = 0
    for chunk in response.response:
        text = chunk.decode("utf-8") if isinstance(chunk, bytes) else chunk
        lines += text.count("\n")
        headers += text.count('"format":"munchlog-game"')
    response.close()
    return lines - headers


def export_judge(log: GameLog, game_ids: list[uuid.UUID]) -> int:
    count = 0
    for gid in game_ids:
        for _line in export_ndjson(log.all_records(gid), "judge"):
            count += 1
        count -= 1  # the header line
    return count


def timed(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    """Median seconds over ``repeat`` runs, and the count the function returned."""
    times, count = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--distinct", type=int, default=25)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--db", help="postgresql:// URL (a fresh schema is made); default SQLite")
    args = parser.parse_args(argv)

    workdir = tempfile.mkdtemp(prefix="export-bench-")
    schema = None
    if args.db:
        import psycopg

        schema = f"export_bench_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(args.db, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        url = f"{args.db}?schema={schema}"
    else:
        url = os.path.join(workdir, "bench.sqlite")
    app = create_app(
        {"INSTANCE_PATH": workdir, "MUNCHLOG_ORGANIZER_TOKEN": TOKEN, "MUNCHLOG_DATABASE_URL": url}
    )
    log: GameLog = app.extensions["munchlog"]
    try:
        start = time.perf_counter()
        events = record_games(log, args.games, args.distinct, args.seed)
        print(f"recorded {args.games} games, {events} events in {time.perf_counter() - start:.1f}s")
        with app.app_context():
            start = time.perf_counter()
            folded = history().catch_up()
            fold_s = time.perf_counter() - start
            game_ids = [uuid.UUID(row["game_id"]) for row in history().event_games(EVENT)]
        print(f"history projection: {folded} events folded in {fold_s:.2f}s")
        client = app.test_client()
        raw_s, raw_n = timed(lambda: read_raw(log), args.repeat)
        http_s, http_n = timed(lambda: export_http(client), args.repeat)
        judge_s, judge_n = timed(lambda: export_judge(log, game_ids), args.repeat)
        assert raw_n == http_n == judge_n == events, (raw_n, http_n, judge_n, events)
        raw_rate = raw_n / raw_s
        print(f"{'backend':<28}{'sqlite' if not args.db else 'postgres'}")
        for name, seconds, n in (
            ("raw notifications", raw_s, raw_n),
            ("export ndjson (HTTP)", http_s, http_n),
            ("export ndjson (judge)", judge_s, judge_n),
        ):
            rate = n / seconds
            print(
                f"{name:<28}{rate:>12,.0f} events/s  {seconds:6.2f}s  {rate / raw_rate:5.2f}x raw"
            )
        print(f"{'history fold':<28}{folded / fold_s:>12,.0f} events/s")
    finally:
        log.close()
        if schema is not None:
            import psycopg

            with psycopg.connect(args.db or "", autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    return 0


if __name__ == "__main__":
    sys.exit(main())
