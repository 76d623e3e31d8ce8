"""A tournament's own rules (docs/rules.md F): settings, decklists, round 1's key, seat tokens,
a match's result from its games, a classic table's places, a reported result, the top cut's
size and when the Swiss rounds stop."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.classic import CLASSIC
from domain.classic.hosting import table_places
from domain.errors import ImpossibleCommand, InvalidCommand, RuleViolation
from domain.tournament import rules

BODY = {"name": "n", "ruleset": "munchkin-ccg", "format": "casual", "round_minutes": 35}


def test_every_classic_ruleset_runs_tables() -> None:
    assert set(CLASSIC) <= set(rules.table_rulesets())
    assert set(CLASSIC) == {
        "munchkin-deluxe",
        "munchkin-old-west",
        "munchkin-age-of-sigmar",
    }


def test_settings_fill_the_defaults_and_refuse_what_the_rules_do_not_allow() -> None:
    ccg = rules.settings_of(BODY)
    assert (ccg["match"], ccg["top_cut"], ccg["table_size"], ccg["rounds"]) == (
        "bo1",
        0,
        None,
        None,
    )
    assert (ccg["dealing"], ccg["mode"]) == ("server", "strict")
    classic = rules.settings_of({**BODY, "ruleset": "munchkin-age-of-sigmar"})
    assert classic["table_size"] == 4
    for body, code in (
        ({**BODY, "ruleset": "munchkin-deluxe", "match": "bo3"}, "request/invalid_match"),
        ({**BODY, "table_size": 5}, "request/invalid_table_size"),
        ({**BODY, "ruleset": "munchkin-deluxe", "top_cut": 4}, "request/invalid_top_cut"),
        ({**BODY, "ruleset": "no-such-ruleset"}, "request/unknown_ruleset"),
    ):
        with pytest.raises(InvalidCommand) as refused:
            rules.settings_of(body)
        assert refused.value.code == code


def test_the_default_number_of_swiss_rounds_follows_the_mtr_table() -> None:
    # MTR Appendix E: 3 rounds for 5-8 players, 4 for 9-16, 5 for 17-32 ...; below 5, one
    # undefeated player: 1 round for 2, 2 for 3 or 4
    assert [rules.swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 500)] == [
        1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 10
    ]  # fmt: skip


@given(
    st.lists(
        st.fixed_dictionaries({"name": st.sampled_from("abcde"), "count": st.integers(1, 3)}),
        max_size=12,
    ),
    st.randoms(use_true_random=False),
)
def test_a_decklist_canonical_form_ignores_order_and_grouping(entries: list, rng) -> None:  # type: ignore[no-untyped-def,type-arg]
    shuffled = entries[:]
    rng.shuffle(shuffled)
    split = [{"name": e["name"]} for e in shuffled for _ in range(e["count"])]
    canonical = rules.canonical_decklist(entries)
    assert rules.canonical_decklist(shuffled) == canonical == rules.canonical_decklist(split)
    assert [n for n, _ in canonical] == sorted({e["name"] for e in entries})
    assert sum(c for _, c in canonical) == sum(e["count"] for e in entries)


def test_a_decklist_hash_is_salted_sha256_over_the_hero_and_the_canonical_list() -> None:
    salt = bytes(range(16))
    canonical = [["a", 2], ["b", 1]]
    body = json.dumps({"hero": "H", "deck": canonical}, separators=(",", ":")).encode()
    assert rules.decklist_hash(salt, canonical, "H") == hashlib.sha256(salt + body).hexdigest()
    assert rules.decklist_hash(bytes(16), canonical, "H") != rules.decklist_hash(
        salt, canonical, "H"
    )
    assert rules.decklist_hash(salt, [["a", 3], ["b", 1]], "H") != rules.decklist_hash(
        salt, canonical, "H"
    )


def test_round_one_key_and_seat_tokens_are_the_documented_hmacs() -> None:
    secret = bytes(32)
    expected = hmac.new(secret, b"munchlog-pairing-v1|e|round-1", hashlib.sha256).digest()
    assert rules.round_one_key("e", secret) == expected
    token = rules.seat_token(b"k" * 32, "g", "A", "h")
    assert (
        token == hmac.new(b"k" * 32, b"munchlog-pairing-v1|seat|g|A|h", hashlib.sha256).hexdigest()
    )
    assert len({rules.seat_token(b"k" * 32, "g", s, "h") for s in "AB"}) == 2


def game(status: str, winner: str | None = None) -> dict[str, str | None]:
    return {"status": status, "winner": winner}


SEATS = {"A": "ann", "B": "bob"}


def test_a_match_result_comes_from_its_games() -> None:
    score = rules.two_player_score
    assert score(SEATS, [game("playing")]) == ({"ann": 0, "bob": 0}, 0, False)
    assert score(SEATS, [game("finished", "B")]) == ({"ann": 0, "bob": 1}, 0, True)
    assert score(SEATS, [game("finished", None)]) == ({"ann": 0, "bob": 0}, 1, True)
    two = [game("finished", "A"), game("playing")]
    assert score(SEATS, two) == ({"ann": 1, "bob": 0}, 0, False)
    decided = rules.match_decided
    assert decided("bo1", {"ann": 1, "bob": 0}, 0, 1) and decided("bo1", {"ann": 0, "bob": 0}, 1, 1)
    assert not decided("bo3", {"ann": 1, "bob": 0}, 0, 1)
    assert not decided("bo3", {"ann": 1, "bob": 1}, 0, 2)
    assert decided("bo3", {"ann": 2, "bob": 1}, 0, 3) and decided("bo3", {"ann": 1, "bob": 1}, 1, 3)
    assert decided("bo3", {"ann": 2, "bob": 0}, 0, 2)


def test_a_classic_table_places_winners_then_levels_then_those_out() -> None:
    state = {
        "winners": ["C"],
        "seats": {
            "A": {"level": 7, "eliminated": None},
            "B": {"level": 7, "eliminated": None},
            "C": {"level": 10, "eliminated": None},
            "D": {"level": 9, "eliminated": "conceded"},
            "E": {"level": 3, "eliminated": None},
        },
    }
    assert table_places(state) == {"C": 1, "A": 2, "B": 2, "E": 4, "D": 5}


def test_a_reported_result_names_the_match_players_and_fits_the_match() -> None:
    ok = rules.check_report({"games": {"ann": 1, "bob": 1}, "drawn_games": 1}, SEATS, "bo3")
    assert ok == {"games": {"ann": 1, "bob": 1}, "drawn_games": 1}
    assert rules.check_report({"games": {"ann": 1}}, SEATS, "bo1")["games"] == {"ann": 1, "bob": 0}
    with pytest.raises(InvalidCommand):
        rules.check_report({"games": {"cid": 1}}, SEATS, "bo1")
    for games in ({"ann": 2}, {"ann": 1, "bob": 1}):
        with pytest.raises(RuleViolation) as refused:
            rules.check_report({"games": games}, SEATS, "bo1")
        assert refused.value.code == "rule/impossible_result" and refused.value.rule == "F.3"
    with pytest.raises(RuleViolation):
        rules.check_report({"games": {"ann": 2, "bob": 2}}, SEATS, "bo3")


def test_a_pairing_result_is_reported_or_read_from_its_games() -> None:
    ccg = {"ruleset": "munchkin-ccg", "match": "bo3"}
    pairing = {"seats": SEATS}
    two = [game("finished", "A"), game("finished", "A")]
    assert rules.pairing_result(ccg, pairing, two, None) == {
        "games": {"ann": 2, "bob": 0},
        "drawn_games": 0,
    }
    assert rules.pairing_result(ccg, pairing, two[:1], None) is None  # one game of three
    reported = {**pairing, "reported": {"games": {"ann": 1, "bob": 1}, "drawn_games": 0}}
    assert rules.pairing_result(ccg, reported, [], None) == {
        "games": {"ann": 1, "bob": 1},
        "drawn_games": 0,
    }
    classic = {"ruleset": "munchkin-deluxe", "match": "bo1"}
    table = {"seats": {"A": "ann", "B": "bob", "C": "cy"}}
    state = {
        "status": "finished",
        "winners": ["B"],
        "seats": {s: {"level": 2, "eliminated": None} for s in "ABC"},
    }
    assert rules.pairing_result(classic, table, [], state) == {
        "places": {"bob": 1, "ann": 2, "cy": 2}
    }
    assert rules.pairing_result(classic, table, [], {**state, "status": "playing"}) is None


def ruled(status: str, winner: str | None, *rulings: tuple[str, str, bool]) -> dict[str, object]:
    """A game as a match's result reads it, with its match-ending rulings ``(seat, penalty,
    live)`` in order (``live``: the game was not over when it was given)."""
    ends = [{"seat": s, "penalty": p, "live": live} for s, p, live in rulings]
    return {"status": status, "winner": winner, "ends_match": ends}


BO1 = {"ruleset": "munchkin-ccg", "match": "bo1"}
BO3 = {"ruleset": "munchkin-ccg", "match": "bo3"}


def test_a_match_loss_loses_the_match_not_only_its_game() -> None:
    pairing = {"seats": SEATS}
    # game 1: ann is given a match loss; the ruling ends the game (bob wins it) and the match:
    # 0-2, bob having the games a best-of-three is won with, and no game 2
    first = [ruled("finished", "B", ("A", "match_loss", True))]
    assert rules.pairing_result(BO3, pairing, first, None) == {
        "games": {"ann": 0, "bob": 2},
        "drawn_games": 0,
    }
    assert not rules.next_game_due(BO3, pairing, first)
    # a game loss is a game: game 2 follows
    lost = [{"status": "finished", "winner": "B"}]
    assert rules.pairing_result(BO3, pairing, lost, None) is None
    assert rules.next_game_due(BO3, pairing, lost)
    # ann won game 1, then is disqualified in game 2: her game win is not kept (0-2)
    won_then_out = [game("finished", "A"), ruled("finished", "B", ("A", "disqualification", True))]
    assert rules.pairing_result(BO3, pairing, won_then_out, None) == {
        "games": {"ann": 0, "bob": 2},
        "drawn_games": 0,
    }
    # a best-of-one is lost 0-1
    assert rules.pairing_result(BO1, pairing, first, None) == {
        "games": {"ann": 0, "bob": 1},
        "drawn_games": 0,
    }
    # given in game 1 once it was over, the match still undecided (game 2 being played):
    # the match is lost, game 2 unfinished
    late = [ruled("finished", "A", ("B", "match_loss", False)), game("playing")]
    assert rules.pairing_result(BO3, pairing, late, None) == {
        "games": {"ann": 2, "bob": 0},
        "drawn_games": 0,
    }
    assert not rules.next_game_due(BO3, pairing, late)
    # a game created for a match still going (setup) where a match loss ends it
    assert rules.lost_by_penalty("bo3", SEATS, [ruled("setup", None, ("B", "match_loss", True))])
    assert (
        rules.lost_by_penalty("bo3", SEATS, [ruled("finished", None, ("X", "match_loss", True))])
        is None
    )


def test_a_match_loss_after_the_match_is_over_changes_nothing() -> None:
    """IPG 1.1: a match already over is not changed (the guide applies the penalty to the
    player's next match); the first ruling that finds the match undecided decides it."""
    pairing = {"seats": SEATS}
    over = [game("finished", "A"), ruled("finished", "A", ("A", "match_loss", False))]
    assert rules.pairing_result(BO3, pairing, over, None) == {
        "games": {"ann": 2, "bob": 0},
        "drawn_games": 0,
    }
    bo1 = [ruled("finished", None, ("A", "disqualification", False))]  # a drawn game, then
    assert rules.pairing_result(BO1, pairing, bo1, None) == {
        "games": {"ann": 0, "bob": 0},
        "drawn_games": 1,
    }
    both = [ruled("finished", "A", ("B", "match_loss", True), ("A", "match_loss", False))]
    assert rules.pairing_result(BO3, pairing, both, None) == {
        "games": {"ann": 2, "bob": 0},
        "drawn_games": 0,
    }


def test_a_reported_result_stands_over_a_penalty() -> None:
    reported = {"seats": SEATS, "reported": {"games": {"ann": 1, "bob": 1}, "drawn_games": 0}}
    games = [ruled("finished", "B", ("A", "match_loss", True))]
    assert rules.pairing_result(BO3, reported, games, None) == {
        "games": {"ann": 1, "bob": 1},
        "drawn_games": 0,
    }


def test_a_match_loss_or_disqualification_at_a_classic_table_places_its_player_last() -> None:
    state = {
        "status": "finished",
        "winners": ["C"],
        "seats": {
            "A": {"level": 9, "eliminated": "conceded"},  # the ruling took A out at level 9
            "B": {"level": 2, "eliminated": "conceded"},
            "C": {"level": 10, "eliminated": None},
            "D": {"level": 8, "eliminated": "conceded"},
        },
    }
    assert table_places(state) == {"C": 1, "A": 2, "D": 3, "B": 4}  # by level
    assert table_places(state, {"A"}) == {"C": 1, "D": 2, "B": 3, "A": 4}
    assert table_places(state, {"A", "D"}) == {"C": 1, "B": 2, "A": 3, "D": 3}
    classic = {"ruleset": "munchkin-deluxe", "match": "bo1"}
    table = {"seats": {"A": "ann", "B": "bob", "C": "cy", "D": "dee"}}
    live = [ruled("finished", None, ("A", "disqualification", True))]
    assert rules.pairing_result(classic, table, live, state) == {
        "places": {"cy": 1, "dee": 2, "bob": 3, "ann": 4}
    }
    after = [ruled("finished", None, ("A", "match_loss", False))]  # the table was over
    assert rules.pairing_result(classic, table, after, state)["places"]["ann"] == 2


def test_a_top_cut_shrinks_to_the_largest_bracket_the_active_players_fill() -> None:
    assert [rules.cut_size(8, n) for n in (9, 8, 7, 4, 3, 2, 1, 0)] == [8, 8, 4, 4, 2, 2, 0, 0]
    assert [rules.cut_size(4, n) for n in (9, 4, 3, 2, 1)] == [4, 4, 2, 2, 0]
    assert rules.cut_size(0, 9) == 0
    assert [rules.cut_rounds(n) for n in (0, 2, 4, 8)] == [0, 1, 2, 3]
    assert {size: len(order) for size, order in rules.CUT_SEEDING.items()} == {2: 2, 4: 4, 8: 8}


def test_the_swiss_rounds_stop_when_fewer_active_players_are_left_than_a_round_needs() -> None:
    """docs/rules.md F.2: after a round is paired and before the last Swiss round, fewer
    active players than a game seats (2) or a classic table (3) make that round the last."""
    assert rules.seats_needed("munchkin-ccg") == 2
    assert {rules.seats_needed(r) for r in CLASSIC} == {3}
    # round 1 of 3 paired: 1 player left of a two-player event, 2 of a classic one
    assert rules.swiss_stopped(1, 3, 1, 2) and rules.swiss_stopped(1, 3, 2, 3)
    assert rules.swiss_stopped(2, 3, 0, 2)
    assert not rules.swiss_stopped(1, 3, 2, 2)  # two players are a round
    assert not rules.swiss_stopped(1, 3, 3, 3)  # three are a classic table
    # nothing paired yet (round 1 refuses too few: rule/too_few_players), or the last Swiss
    # round paired (the event ends there anyway, F.4 says what of its top cut)
    assert not rules.swiss_stopped(0, 3, 1, 2)
    assert not rules.swiss_stopped(3, 3, 1, 2) and not rules.swiss_stopped(4, 3, 1, 2)


def test_a_disqualification_drops_the_player_once_and_keeps_an_earlier_drop() -> None:
    from uuid import uuid4

    from domain.tournament.aggregate import Tournament

    event = Tournament.open(
        uuid4(), rules.settings_of(BODY), commitment="c", judge_token_hash="j", at="t"
    )
    for name in ("ann", "bob", "cy"):
        event.register(name, f"h-{name}", hero=None, decklist=None, decklist_hash=None, at="t")
    event.pair([{"table": 1, "seats": SEATS, "games": ["g1"]}], ["cy"], revealed=None, at="t")
    assert event.disqualify("ann", game_id="g1", version=7, at="t")
    assert event.players["ann"]["dropped_after"] == 1 and event.active() == ["bob", "cy"]
    assert event.players["ann"]["disqualified"] == {"game_id": "g1", "version": 7}
    assert not event.disqualify("ann", game_id="g1", version=9, at="t")  # once
    with pytest.raises(RuleViolation) as again:
        event.drop("ann", at="t")
    assert again.value.code == "rule/already_dropped" and "disqualified" in again.value.message
    event.drop("cy", at="t")
    event.pair([], [], revealed=None, at="t")
    assert event.disqualify("cy", game_id="g1", version=8, at="t")
    assert event.players["cy"]["dropped_after"] == 1  # its own drop stands
    with pytest.raises(ImpossibleCommand):
        event.disqualify("zed", game_id="g1", version=8, at="t")
    kinds = [type(e).__name__ for e in event.collect_events()]
    assert kinds.count("Disqualified") == 2
