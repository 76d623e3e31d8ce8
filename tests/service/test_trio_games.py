"""A second ruleset's games as use cases (moved from tests/api/test_second_ruleset.py):
``test-trio`` (three seats, tests/rulesets/trio.py): who records what, a winner, concessions.
What only HTTP shows of it (its body's schema, the OpenAPI, leaks through every route,
``?as=``, exports over HTTP) stays there."""

from __future__ import annotations

from typing import Any

from domain.errors import ImpossibleCommand, RuleViolation
from projections.replay import diff_view, state_diff
from service.errors import NotAllowedError
from service.games import GameLog
from service.histories import MatchHistory
from tests.rulesets.trio import TARGET, trio_card, trio_spec
from tests.service.helpers import events_as, refused, start, state_as


def test_seats_record_their_own_actions_the_table_any_seat_and_the_rules_decide(
    log: GameLog,
) -> None:
    gid = start(log, trio_spec()).game_id
    drawn = log.record(gid, [{"type": "draw", "seat": "A"}] * 2, actor="A")
    events = drawn.response["events"]
    assert [e["type"] for e in events] == ["TrioCardDrawn", "TrioCardDrawn"]
    hand = [e["data"]["card"] for e in events]
    assert all(hand)  # A sees its own cards

    with refused(NotAllowedError, "auth/wrong_seat"):
        log.record(gid, [{"type": "draw", "seat": "A"}], actor="B")
    with refused(RuleViolation, "rule/not_your_turn") as raised:
        log.record(gid, [{"type": "draw", "seat": "B"}], actor="B")
    assert raised.value.rule == "T.1"
    with refused(NotAllowedError, "auth/wrong_seat"):
        log.record(gid, [{"type": "draw", "seat": "D"}], actor="C")

    log.record(gid, [{"type": "play", "seat": "A", "card": hand[0]}], actor="A")
    seen_by_c = events_as(log, gid, "C", after=3)
    assert seen_by_c[0]["data"]["card"] == hand[0]  # played face up: public
    # the table records for any seat of the game
    log.record(gid, [{"type": "end_turn", "seat": "A"}], actor="table")
    assert state_as(log, gid, "C")["active_seat"] == "B"
    state = state_as(log, gid, "C")
    assert state["seats"]["A"]["table"][0]["id"] == hand[0]
    assert state["seats"]["A"]["hand_count"] == 1 and "hand" not in state["seats"]["A"]
    assert state["seats"]["A"]["points"] >= 1


def test_a_game_ends_with_a_winner_and_takes_no_more_actions(log: GameLog) -> None:
    spec = trio_spec(deck_size=4)
    for seat in spec["seats"]:
        seat["gems"] = [trio_card(f"Big {seat['seat']}{i}", points=TARGET) for i in range(4)]
    gid = start(log, spec).game_id
    log.record(gid, [{"type": "draw", "seat": "A"}], actor="table")
    card = state_as(log, gid)["seats"]["A"]["hand"][0]["id"]
    won = log.record(gid, [{"type": "play", "seat": "A", "card": card}], actor="table")
    assert [e["type"] for e in won.response["events"]] == ["TrioCardPlayed", "TrioGameWon"]
    summary = log.overview(gid)
    assert summary["status"] == "finished" and summary["winner"] == "A"
    with refused(ImpossibleCommand, "command/game_over"):
        log.record(gid, [{"type": "end_turn", "seat": "A"}], actor="table")
    state = state_as(log, gid, "spectator")
    assert state["winner"] == "A"
    assert {s: v["eliminated"] for s, v in state["seats"].items()} == {
        "A": None,
        "B": "outscored",
        "C": "outscored",
    }


def test_concessions_end_the_game_when_one_seat_is_left(log: GameLog) -> None:
    gid = start(log, trio_spec()).game_id
    log.record(gid, [{"type": "concede", "seat": "B"}], actor="B")
    conceded = log.record(gid, [{"type": "concede", "seat": "A"}], actor="judge")
    assert [e["type"] for e in conceded.response["events"]] == ["TrioConceded", "TrioGameWon"]
    assert log.overview(gid)["winner"] == "C"


def test_the_trio_says_which_card_fields_its_diffs_list_and_whom_its_rows_name(
    log: GameLog,
) -> None:
    """A family's judge's diff lists its own card fields (the trio's ``scored``, none of the
    CCG's) and its history rows name its own heroes (the champions), with no change above
    ``domain/`` (``Family.diff_card_fields``, ``Family.history_hero``; test_second_ruleset.py
    checks that nothing there names the trio)."""
    gid = start(log, trio_spec()).game_id
    log.record(gid, [{"type": "draw", "seat": "A"}], actor="A")  # v2
    card = state_as(log, gid)["seats"]["A"]["hand"][0]
    log.record(gid, [{"type": "play", "seat": "A", "card": card["id"]}], actor="A")  # v3
    played = state_as(log, gid, "C")["seats"]["A"]["table"][0]
    assert played["scored"] == card["points"] > 0  # the card shows it (T.2)

    def diff(version: int, viewer: str) -> dict[str, Any]:
        seen = log.replays.event(gid, version)
        return diff_view(state_diff(seen.before, seen.after), seen.before, seen.after, viewer)

    scored = diff(3, "C")["scored"]
    assert scored == [
        {
            "card": card["id"],
            "name": card["name"],
            "owner": "A",
            "from": None,
            "to": played["scored"],
        }
    ]
    assert not {"damage", "tokens", "zapped"} & set(diff(3, "judge"))
    assert diff(2, "C")["scored"] == [] and diff(2, "C")["moved"][0]["card"] is None  # A's draw

    games = MatchHistory(log).player("bob")["games"]
    assert [(g["hero"], g["opponent_hero"]) for g in games] == [
        ("Trio Champion B", "Trio Champion C")
    ]
    assert [o["hero"] for o in games[0]["opponents"]] == ["Trio Champion A", "Trio Champion C"]
