"""Tournament pairing (issue #27, ``domain/tournament/pairing.py`` and ``tables.py``): small
cases checked by hand, and the table-size rule checked by enumeration.

The properties over random events, checked against brute force, are in
``tests/property/test_pairing_properties.py``.
"""

from __future__ import annotations

from itertools import combinations, product

import pytest

from domain.dealing import shuffle
from domain.errors import ImpossibleCommand, InvalidCommand
from domain.tournament.pairing import ROUND_ONE_COUNTER, Pairing, round_one, swiss
from domain.tournament.tables import TablePairing, swiss_tables, table_sizes

KEY = bytes(range(32))


def met(*pairs: str) -> set[frozenset[str]]:
    """``met("ab", "cd")``: a met b, c met d."""
    return {frozenset(p) for p in pairs}


# ----------------------------------------------------------------------------- round 1


def test_round_one_pairs_neighbours_of_the_events_shuffle() -> None:
    players = [f"p{i}" for i in range(8)]
    order = shuffle(KEY, ROUND_ONE_COUNTER, players)
    pairing = round_one(players, KEY)
    assert pairing == Pairing(
        ((order[0], order[1]), (order[2], order[3]), (order[4], order[5]), (order[6], order[7])),
        None,
    )


def test_round_one_does_not_depend_on_registration_order() -> None:
    players = [f"p{i}" for i in range(9)]
    assert round_one(players, KEY) == round_one(players[::-1], KEY)
    assert round_one(players, KEY, 3) == round_one(players[::-1], KEY, 3)


def test_round_one_depends_on_the_key() -> None:
    players = [f"p{i}" for i in range(12)]
    assert round_one(players, KEY) != round_one(players, bytes(32))


def test_round_one_odd_count_gives_the_last_drawn_the_bye() -> None:
    players = ["ann", "bob", "cy", "dee", "eve"]
    order = shuffle(KEY, ROUND_ONE_COUNTER, players)
    pairing = round_one(players, KEY)
    assert pairing.bye == order[4]
    assert pairing.pairs == ((order[0], order[1]), (order[2], order[3]))


def test_round_one_with_no_one_or_one_player() -> None:
    assert round_one([], KEY) == Pairing((), None)
    assert round_one(["solo"], KEY) == Pairing((), "solo")


def test_round_one_classic_cuts_the_draw_into_tables() -> None:
    players = [f"p{i:02d}" for i in range(14)]
    order = shuffle(KEY, ROUND_ONE_COUNTER, players)
    tables = round_one(players, KEY, 4)
    assert isinstance(tables, TablePairing)
    assert [len(t) for t in tables.tables] == [5, 5, 4]
    assert [p for t in tables.tables for p in t] == order


def test_round_one_refuses_a_player_twice_and_too_few_for_a_table() -> None:
    with pytest.raises(InvalidCommand) as error:
        round_one(["a", "b", "a"], KEY)
    assert error.value.code == "request/duplicate_player"
    with pytest.raises(ImpossibleCommand):
        round_one(["a", "b"], KEY, 4)


# ----------------------------------------------------------------------------- Swiss, small


def test_no_players_no_pairs() -> None:
    assert swiss([], {}, set(), set()) == Pairing((), None)


def test_one_player_gets_the_bye_even_a_second_one() -> None:
    assert swiss(["a"], {"a": 0}, set(), set()) == Pairing((), "a")
    assert swiss(["a"], {"a": 3}, set(), {"a"}) == Pairing((), "a")


def test_two_players_who_met_play_again() -> None:
    assert swiss(["a", "b"], {"a": 3, "b": 0}, met("ab"), set()) == Pairing((("a", "b"),), None)


def test_three_players_the_last_takes_the_bye() -> None:
    # No rematch, no bye yet: c is the lowest-ranked eligible player.
    pairing = swiss(["a", "b", "c"], {"a": 3, "b": 3, "c": 0}, set(), set())
    assert pairing == Pairing((("a", "b"),), "c")


def test_the_bye_moves_up_to_avoid_a_rematch() -> None:
    # c taking the bye would make a-b a rematch; b taking it leaves a-c, no rematch.
    pairing = swiss(["a", "b", "c"], {"a": 3, "b": 3, "c": 0}, met("ab"), set())
    assert pairing == Pairing((("a", "c"),), "b")


def test_the_lowest_ranked_player_without_a_bye_gets_it() -> None:
    # e (lowest) and d had one: c is the lowest-ranked eligible; a-b, d-e are rematch-free.
    points = {"a": 6, "b": 6, "c": 3, "d": 3, "e": 0}
    pairing = swiss(list("abcde"), points, set(), {"d", "e"})
    assert pairing.bye == "c"
    assert pairing.pairs == (("a", "b"), ("d", "e"))


def test_when_everyone_had_a_bye_the_lowest_ranked_takes_another() -> None:
    pairing = swiss(list("abc"), {"a": 3, "b": 3, "c": 3}, set(), {"a", "b", "c"})
    assert pairing == Pairing((("a", "b"),), "c")


def test_a_rematch_rather_than_a_second_bye() -> None:
    # Only a is without a bye. With a's bye, b..e pair among c, d, e who all met: one
    # rematch whatever the pairing (b takes one of them, the other two met). A second bye to
    # c would have allowed a rematch-free round (a-d, b-e) but the bye goes to a player
    # without one while there is one: the contract's order (see swiss's docstring).
    points = {p: 3 for p in "abcde"}
    history = met("cd", "ce", "de", "ab")
    pairing = swiss(list("abcde"), points, history, {"b", "c", "d", "e"})
    assert pairing.bye == "a"
    rematches = [p for p in pairing.pairs if frozenset(p) in history]
    assert len(rematches) == 1


def test_every_opponent_a_rematch_still_pairs_everyone() -> None:
    everyone = {frozenset(p) for p in combinations("abcde", 2)}
    points = {"a": 9, "b": 6, "c": 6, "d": 3, "e": 0}
    pairing = swiss(list("abcde"), points, everyone, {"e"})
    # Two rematches whatever happens; the bye to d (lowest eligible); then a-b (diff 9) and
    # c-e (36) = 45 against a-c + b-e (9 + 36) = 45 too, a-e + b-c (81) worse: the ranks
    # decide, a-b + c-e: 1 + 4 = 5 against a-c + b-e: 4 + 9 = 13.
    assert pairing == Pairing((("a", "b"), ("c", "e")), "d")


def test_points_before_ranks_and_a_score_groups_odd_player_floats_down() -> None:
    points = {"a": 3, "b": 3, "c": 3, "d": 0, "e": 0, "f": 0}
    pairing = swiss(list("abcdef"), points, set(), set())
    # One pair must cross the groups (3 and 3 players); the ranks pick c-d.
    assert pairing == Pairing((("a", "b"), ("c", "d"), ("e", "f")), None)


def test_rematch_avoidance_beats_points() -> None:
    points = {"a": 6, "b": 6, "c": 3, "d": 3}
    pairing = swiss(list("abcd"), points, met("ab"), set())
    assert pairing == Pairing((("a", "c"), ("b", "d")), None)


def test_swiss_is_deterministic_whatever_the_containers_order() -> None:
    players = [f"p{i:02d}" for i in range(21)]
    points = {p: (21 - i) // 4 for i, p in enumerate(players)}
    pairs = [frozenset((players[i], players[(i * 7 + 3) % 21])) for i in range(21)]
    history = {p for p in pairs if len(p) == 2}
    first = swiss(players, points, history, {"p20", "p03"})
    again = swiss(
        players,
        dict(reversed(list(points.items()))),
        frozenset(sorted(history, key=sorted, reverse=True)),
        frozenset({"p03", "p20"}),
    )
    assert first == again


def test_swiss_refuses_a_player_twice_or_without_points() -> None:
    with pytest.raises(InvalidCommand) as error:
        swiss(["a", "a"], {"a": 0}, set(), set())
    assert error.value.code == "request/duplicate_player"
    with pytest.raises(InvalidCommand) as error:
        swiss(["a", "b"], {"a": 0}, set(), set())
    assert error.value.code == "request/missing_points"


# ----------------------------------------------------------------------------- table sizes


def rule_key(sizes: tuple[int, ...], table_size: int) -> tuple[int, int, int]:
    """table_sizes's documented rule: the largest distance from the size, the tables off it,
    the tables."""
    return (
        max(abs(s - table_size) for s in sizes),
        sum(s != table_size for s in sizes),
        len(sizes),
    )


def every_seating(n: int) -> list[tuple[int, ...]]:
    """Every multiset of table sizes 3..6 that sums to ``n``, largest first."""
    found = []
    for sixes, fives, fours in product(range(n // 6 + 1), range(n // 5 + 1), range(n // 4 + 1)):
        rest = n - 6 * sixes - 5 * fives - 4 * fours
        if rest >= 0 and rest % 3 == 0:
            found.append((6,) * sixes + (5,) * fives + (4,) * fours + (3,) * (rest // 3))
    return found


@pytest.mark.parametrize("table_size", [3, 4, 5, 6])
def test_table_sizes_follow_the_rule_for_3_to_60_players(table_size: int) -> None:
    for n in range(3, 61):
        seatings = every_seating(n)
        best = min(rule_key(s, table_size) for s in seatings)
        winners = [s for s in seatings if rule_key(s, table_size) == best]
        assert len(winners) == 1, (n, winners)  # the rule leaves one multiset
        assert table_sizes(n, table_size) == list(winners[0]), n


def test_table_sizes_examples() -> None:
    assert table_sizes(14) == [5, 5, 4]  # the "tables of 4, 5 and 5"
    assert table_sizes(7) == [4, 3]
    assert table_sizes(5) == [5]
    assert table_sizes(3) == [3]
    assert table_sizes(16) == [4, 4, 4, 4]
    assert table_sizes(5, 3) == [5]  # 3 and 4 cannot seat 5
    assert table_sizes(7, 6) == [4, 3]  # nothing from 4 to 6 seats 7


@pytest.mark.parametrize("n", [-1, 0, 1, 2])
def test_too_few_players_for_a_table(n: int) -> None:
    with pytest.raises(ImpossibleCommand) as error:
        table_sizes(n)
    assert error.value.code == "command/too_few_players"


@pytest.mark.parametrize("size", [2, 7, 0])
def test_a_table_size_out_of_3_to_6_is_refused(size: int) -> None:
    with pytest.raises(InvalidCommand) as error:
        table_sizes(12, size)
    assert error.value.code == "request/invalid_table_size"


# ----------------------------------------------------------------------------- Swiss tables


def test_tables_group_by_points_best_first() -> None:
    players = list("abcdefgh")
    points = dict(zip(players, [9, 8, 8, 7, 3, 2, 2, 1], strict=True))
    result = swiss_tables(players, points, set(), {}, 4)
    assert result.tables == (tuple("abcd"), tuple("efgh"))


def test_tables_avoid_a_repeat_among_equal_points() -> None:
    # 7 players at tables of 3 sit at 4 and 3. The best grouping puts a with three of the
    # four 5s (spread 3 * 2 ** 2 = 12, the 5-5 pairs nothing) and the fourth 5 with the two
    # 0s (2 * 5 ** 2 = 50): 62; anything else costs more (a with the 0s: 2 * 49 = 98).
    # a met b and c: one of them must sit with a, not both (the rank cut seats both). Of
    # {a, b, d, e} and {a, c, d, e}, the rank spread picks the first: ranks {0, 1, 3, 4} and
    # {2, 5, 6} give 40 + 26 = 66, ranks {0, 2, 3, 4} and {1, 5, 6} 35 + 42 = 77.
    players = list("abcdefg")
    points = dict(zip(players, [7, 5, 5, 5, 5, 0, 0], strict=True))
    result = swiss_tables(players, points, met("ab", "ac"), {}, 3)
    assert result.tables == (("a", "b", "d", "e"), ("c", "f", "g"))


def test_tables_keep_points_grouping_over_repeats() -> None:
    # a met b: avoiding it would seat a 9 with the 0s; the repeat stays.
    players = list("abcdef")
    points = dict(zip(players, [9, 9, 9, 0, 0, 0], strict=True))
    result = swiss_tables(players, points, met("ab"), {}, 3)
    assert result.tables == (tuple("abc"), tuple("def"))


def test_the_fewest_first_seats_sit_first_ties_by_rank() -> None:
    players = list("abcdefgh")
    points = dict.fromkeys(players, 0)
    firsts = {"a": 2, "b": 1, "c": 1, "d": 1, "e": 0, "f": 0}
    result = swiss_tables(players, points, set(), firsts, 4)
    # Equal points, no repeats: the rank cut {a, b, c, d} would give its first seat to a
    # player with one already (b), while e..h have none. Each table gets one of e..h
    # (first seats 0 + 0); of those seatings the rank spread picks ranks {0, 1, 2, 4} and
    # {3, 5, 6, 7} (35 + 35 = 70; {0, 1, 3, 4} and {2, 5, 6, 7} give 40 + 56 = 96).
    # Seats: fewest first seats first, then rank.
    assert result.tables == (("e", "b", "c", "a"), ("f", "g", "h", "d"))


def test_swiss_tables_with_too_few_players() -> None:
    with pytest.raises(ImpossibleCommand):
        swiss_tables(["a", "b"], {"a": 0, "b": 0}, set(), {}, 4)


def test_swiss_tables_refuses_a_player_twice_or_without_points() -> None:
    with pytest.raises(InvalidCommand) as error:
        swiss_tables(list("abca"), dict.fromkeys("abc", 0), set(), {}, 3)
    assert error.value.code == "request/duplicate_player"
    with pytest.raises(InvalidCommand) as error:
        swiss_tables(list("abcd"), dict.fromkeys("abc", 0), set(), {}, 3)
    assert error.value.code == "request/missing_points"


def test_the_smaller_table_goes_where_it_groups_points_best() -> None:
    # 15 players at tables of 4 sit at 4, 4, 4 and 3 (too many seatings to try them all).
    # Three players on 9, twelve on 0: only the table of 3 seats the 9s alone (spread 0);
    # the standings cut in the order 4, 4, 4, 3 would seat a 0 with them (3 * 81 = 243),
    # and no exchange of two players mends that.
    players = [chr(ord("a") + i) for i in range(15)]
    points = {p: 9 if i < 3 else 0 for i, p in enumerate(players)}
    result = swiss_tables(players, points, set(), {}, 4)
    assert result.tables == (tuple("abc"), tuple("defg"), tuple("hijk"), tuple("lmno"))
