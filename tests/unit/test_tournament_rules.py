"""A tournament's own rules (docs/rules.md F): settings, decklists, round 1's key, seat tokens,
a match's result from its games, a classic table's places, a reported result."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import InvalidCommand, RuleViolation
from domain.tournament import rules

BODY = {"name": "n", "ruleset": "munchkin-ccg", "format": "casual", "round_minutes": 35}


def test_every_classic_ruleset_runs_tables() -> None:
    assert set(rules.TABLE_RULESETS) == {
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
        ({**BODY, "ruleset": "test-trio"}, "request/unknown_ruleset"),
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
    assert rules.table_places(state) == {"C": 1, "A": 2, "B": 2, "E": 4, "D": 5}


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
