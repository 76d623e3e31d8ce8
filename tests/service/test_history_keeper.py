"""The match histories' keeping-up thread stops before its store closes (service.histories):
SQLite's connection closed under the thread's running query crashed a test process
(``Fatal Python error: Segmentation fault`` in ``max_notification_id``, seen once in CI)."""

from __future__ import annotations

from pathlib import Path

from service.games import GameLog
from service.histories import MatchHistory


def test_closing_the_log_stops_and_joins_the_histories_keeper(tmp_path: Path) -> None:
    log = GameLog(
        {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(tmp_path / "munchlog.sqlite"),
        }
    )
    history = MatchHistory(log, keep_up=True)
    history.rows()  # a read starts the thread
    keeper = history._keeper
    assert keeper is not None and keeper.is_alive()
    log.close()
    assert not keeper.is_alive()  # stopped and joined before the store closed
    history._keep_up_while_read()  # a read after the close starts no thread again
    assert history._keeper is keeper
