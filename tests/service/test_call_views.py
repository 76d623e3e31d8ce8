"""What an event's stream shows of the judge calls (issue #39, ``service.event_views``): every
step whole to the staff and the organizer, a call to its caller, a step on a call to a player
without its note, nothing of a call to a spectator; never a token or its hash."""

from __future__ import annotations

import service.event_views  # noqa: F401  (registers the views under test)
from domain.tournament import calls, staff
from service.event_stream import caller_named, message, viewer_name
from service.tournaments import Caller
from tests.service.test_report_views import ANN, BOB, T0, event

OFFICIALS = (Caller("judge"), Caller("organizer"), Caller("scorekeeper"))


def test_a_call_reaches_the_staff_whole_its_caller_and_no_one_else() -> None:
    made = event()
    calls.raise_call(
        made,
        call_id="call-1",
        table=1,
        game_id="g",
        version=99,
        raised_by="ann",
        via="seat",
        note="bob has 11 cards in hand",
        at=T0,
    )
    calls.act(
        made, "call-1", "claim", by="jo", head=False, note="on my way", dispute_id=None, at=T0
    )
    calls.act(made, "call-1", "resolve", by="jo", head=False, note="ruled", dispute_id=None, at=T0)
    raised, claimed, resolved = made.collect_events()
    # The stream names its viewers as tickets do: a scorekeeper is one of the officials there.
    for caller in OFFICIALS:
        staff = caller_named(viewer_name(caller))
        seen = message(raised, staff)
        assert seen is not None and seen["type"] == "call_raised"
        assert seen["note"] == "bob has 11 cards in hand"
        # the message's version is the event's (the stream resumes after it), not the game's
        assert seen["version"] == raised.originator_version != 99 and seen["game_version"] == 99
        assert (message(claimed, staff) or {})["note"] == "on my way"
        assert (message(resolved, staff) or {})["note"] == "ruled"
    assert (message(raised, ANN) or {})["note"] == "bob has 11 cards in hand"
    assert message(raised, BOB) is None  # the other player of the table
    assert message(raised, Caller("spectator")) is None
    for step in (claimed, resolved):
        assert message(step, BOB) == {
            "version": step.originator_version,
            "type": step_type(step),
            "call_id": "call-1",
            "at": T0,
        }
        assert message(step, Caller("spectator")) is None
    for step in (raised, claimed, resolved):
        for caller in (*OFFICIALS, ANN, BOB, Caller("spectator")):
            text = repr(message(step, caller))
            assert "hash" not in text and "token" not in text


def step_type(step: object) -> str:
    return {"CallClaimed": "call_claimed", "CallResolved": "call_resolved"}[type(step).__name__]


def test_a_ruling_keeps_the_messages_version_the_events() -> None:
    """A stored ``version`` (the game's) goes as ``game_version``: were it the message's, the
    pages would drop the message as one they have (its version below the event's)."""
    made = event()
    made.record(staff.RulingMade, game_id="g", version=3, dispute="d1", by="jo", at=T0)
    (ruling,) = made.collect_events()
    seen = message(ruling, Caller("judge"))
    assert seen is not None
    assert seen["version"] == ruling.originator_version == 7 and seen["game_version"] == 3
