"""What an event's stream shows of the players' reports, a dispute, a correction and check-in
(issue #38, ``service.event_views``): a pending report only to the staff and its reporter, a
dispute's reports only to the staff, the rest public; never a token or its hash."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import service.event_views  # noqa: F401  (registers the views under test)
from domain.family import load_families
from domain.tournament import checkin, reports
from domain.tournament.aggregate import Tournament
from service.event_stream import message
from service.tournaments import Caller

load_families()
T0 = "2030-01-01T10:00:00Z"
SETTINGS = {
    "name": "x",
    "ruleset": "munchkin-ccg",
    "match": "bo1",
    "round_minutes": 30,
    "results": "reported",
    "check_in": {"opens": 10, "no_show": 5},
}
ANN, BOB, CID = Caller("player", "ann"), Caller("player", "bob"), Caller("player", "cid")
VIEWERS = (Caller("judge"), Caller("organizer"), Caller("spectator"), ANN, BOB, CID)


def event() -> Tournament:
    made = Tournament.open(uuid4(), SETTINGS, commitment="c" * 64, judge_token_hash="j" * 64, at=T0)
    for name in ("ann", "bob", "cid", "dee"):
        made.register(name, f"{name}-hash", hero=None, decklist=None, decklist_hash=None, at=T0)
    pairings = [
        {"table": 1, "seats": {"A": "ann", "B": "bob"}, "games": [str(uuid4())]},
        {"table": 2, "seats": {"A": "cid", "B": "dee"}, "games": [str(uuid4())]},
    ]
    made.pair(pairings, [], revealed=None, at=T0)
    made.collect_events()
    return made


def shown(made: Tournament) -> dict[str, list[dict[str, Any] | None]]:
    """Each new event's message as each viewer sees it, by type."""
    out: dict[str, list[dict[str, Any] | None]] = {}
    for stored in made.collect_events():
        for viewer in VIEWERS:
            found = message(stored, viewer)
            assert "hash" not in repr(found) and "token" not in repr(found)
            out.setdefault(type(stored).__name__, []).append(found)
    return out


def test_a_pending_report_and_a_dispute_are_the_staffs_and_the_reporters() -> None:
    made = event()
    reports.report(made, 1, "ann", {"wins": 1, "losses": 0}, recorded=None, at=T0)
    reports.report(made, 1, "bob", {"wins": 1, "losses": 0}, recorded=None, at=T0)
    views = shown(made)
    judge, organizer, spectator, ann, bob, cid = views["PlayerReported"][:6]  # ann's report
    assert judge is not None and "result" in judge and organizer == judge and ann == judge
    for other in (spectator, bob, cid):
        assert other is not None and "result" not in other and other["player"] == "ann"
    judge, organizer, spectator, ann, bob, cid = views["ReportDisputed"]
    assert judge is not None and set(judge["reports"]) == {"ann", "bob"}
    assert all(v is not None and "reports" not in v for v in (spectator, ann, bob, cid))


def test_a_result_that_stands_a_correction_and_check_in_are_public() -> None:
    made = event()
    checkin.check_in(made, "cid", T0, current_over=False)
    reports.report(made, 1, "ann", {"wins": 1, "losses": 0}, recorded=None, at=T0)
    reports.report(made, 1, "bob", {"wins": 0, "losses": 1}, recorded=None, at=T0)
    result = {"games": {"ann": 0, "bob": 1}, "drawn_games": 0}
    reports.correct(made, 1, 1, result, reason="reversed", by="judge", at=T0)
    views = shown(made)
    for name in ("CheckedIn", "ReportsAgreed", "ResultCorrected"):
        assert len({repr(v) for v in views[name]}) == 1, name  # everyone sees the same
    assert views["ResultCorrected"][2]["reason"] == "reversed"  # type: ignore[index]
