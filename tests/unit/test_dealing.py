"""Fair dealing's core (issue #25, ``domain/dealing.py``): known answers, properties, uniformity.

The known-answer vectors are docs/dealing.md's (a test holds the document to them); a second
implementation (the viewer's JavaScript, later) must give the same bytes.
"""

from __future__ import annotations

import ast
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import dealing
from domain.dealing import (
    Dealer,
    Draw,
    block,
    draw,
    first_mismatch,
    game_key,
    key_message,
    randbelow,
    rekey,
    roll,
    seat_commitment,
    seat_seed_matches,
    server_commitment,
    server_secret_matches,
    shuffle,
)

ROOT = Path(__file__).resolve().parents[2]

# ----------------------------------------------------------------------------- known answers

GAME = "11111111-2222-4333-8444-555555555555"
SECRET = bytes(range(32))  # 00 01 02 ... 1f
SEED_A = b"A" * 32  # 0x41 x 32
SEED_B = b"B" * 32  # 0x42 x 32
SEEDS = [("A", SEED_A), ("B", SEED_B), ("C", None)]  # C withheld
IDS = [f"c{n:02d}" for n in range(10)]
SECRET_1 = bytes(range(32, 64))  # 20 21 ... 3f: the server's secret of epoch 1
SEEDS_1 = [("A", b"a" * 32), ("B", None), ("C", b"c" * 32)]

VECTORS = {
    "server commitment": "552f79b7193202912fe7e39a09c6ba8d481dcbf24bece30c5d15c5c184f20d86",
    "seat A commitment": "686638e2794ecd631e032e94f37edd18e821947b5604d0692d2cd2d153ddc908",
    "seat B commitment": "be474f9a4116e4c0256a1b2f06abbc5326daba0b9f26239fd9ddc839c4d05447",
    "game key": "41aa5ec8888c8d7f214d72d0df73d63e9ed1c9ddeb846bc01f69823486849693",
    "server-only key": "ee601df45c87758e0f6e6ef3a0b7810366a9ad9fb3a85fa0ceeb2af681e15d7d",
    "block 0 of counter 0": "46c399f647abc1f18964ab42c4fc645b3b6206c3c88c7f800f8b189f5cc5abd4",
    "epoch 1 server commitment": "9bfd854d556a9a2f781b04b0feb0ea6bbc147f61d5e077ea78b119ae9e5a47f3",
    "epoch 1 key": "f363136c56e921906011fcc78f197763a887f1a349c6ec4d50e8aa86f7ae28b5",
}
KEY_MESSAGE = "".join(
    [
        "6d756e63686c6f672d72616e642d76317c6b65797c",  # "munchlog-rand-v1|key|"
        "00000000",  # u32 epoch 0
        "00" * 32,  # no previous key
        "0024",  # u16 36, the game id's length
        "31313131313131312d323232322d343333332d383434342d353535353535353535353535",
        "0003",  # three contributors
        "00014101" + "41" * 32,  # "A", revealed, its seed
        "00014201" + "42" * 32,  # "B", revealed, its seed
        "00014300",  # "C", withheld
    ]
)
ROLLS = [4, 3, 6, 6, 2, 1, 3, 6, 3, 3]  # counters 0..9, d6
RANDBELOW_10 = 555540  # counter 10, n = 1,000,000
SHUFFLE_11 = ["c06", "c05", "c00", "c01", "c03", "c08", "c04", "c07", "c09", "c02"]
ROLLS_1 = [5, 5, 5, 6, 2]  # epoch 1 key, counters 12..16


def key() -> bytes:
    return game_key(SECRET, GAME, SEEDS)


def test_the_known_answers() -> None:
    k = key()
    k1 = rekey(k, 1, SECRET_1, GAME, SEEDS_1)
    assert {
        "server commitment": server_commitment(GAME, SECRET),
        "seat A commitment": seat_commitment(GAME, "A", SEED_A),
        "seat B commitment": seat_commitment(GAME, "B", SEED_B),
        "game key": k.hex(),
        "server-only key": game_key(SECRET, GAME, []).hex(),
        "block 0 of counter 0": block(k, 0, 0).hex(),
        "epoch 1 server commitment": server_commitment(GAME, SECRET_1),
        "epoch 1 key": k1.hex(),
    } == VECTORS
    assert key_message(GAME, SEEDS).hex() == KEY_MESSAGE
    assert [roll(k, c) for c in range(10)] == ROLLS
    assert randbelow(k, 10, 1_000_000) == RANDBELOW_10
    assert shuffle(k, 11, IDS) == SHUFFLE_11
    assert [roll(k1, c) for c in range(12, 17)] == ROLLS_1


def test_the_first_roll_worked_by_hand() -> None:
    """docs/dealing.md works the first roll out: a d6 keeps 3 bits of each byte; block 0 starts
    0x46 (low bits 6: rejected), then 0xc3 (3: accepted), so the die shows 4."""
    first, second = block(key(), 0, 0)[:2]
    assert (first, first & 7, second, second & 7) == (0x46, 6, 0xC3, 3)
    assert roll(key(), 0) == 1 + 3


def test_the_document_carries_the_vectors() -> None:
    doc = (ROOT / "docs" / "dealing.md").read_text(encoding="utf-8")
    for value in VECTORS.values():
        assert value in doc, value
    assert KEY_MESSAGE in doc.replace("\n", "").replace(" ", "")
    for answer in (ROLLS, SHUFFLE_11, ROLLS_1):
        assert str(answer) in doc, answer
    assert str(RANDBELOW_10) in doc
    assert "domain/fair.py" in doc and "## In a game" in doc  # how a game uses the scheme
    for figure in CHI_SQUARE.values():
        assert f"is {figure:.2f}" in doc, figure


# ----------------------------------------------------------------------------- commitments


def test_a_seed_opens_only_its_own_commitment() -> None:
    commitment = seat_commitment(GAME, "A", SEED_A)
    seed = SEED_A.hex()
    assert seat_seed_matches(GAME, "A", seed, commitment)
    assert not seat_seed_matches(GAME, "B", seed, commitment)
    assert not seat_seed_matches("11111111-2222-4333-8444-555555555556", "A", seed, commitment)
    assert not seat_seed_matches(GAME, "A", SEED_B.hex(), commitment)
    assert not seat_seed_matches(GAME, "A", seed[:-2], commitment)
    assert not seat_seed_matches(GAME, "A", seed, commitment.upper())
    assert not seat_seed_matches(GAME, "A", "é" * 64, commitment)
    assert server_secret_matches(GAME, SECRET.hex(), VECTORS["server commitment"])
    assert not server_secret_matches(GAME, SECRET.hex(), VECTORS["seat A commitment"])
    assert not server_secret_matches(GAME, SECRET.hex().upper(), VECTORS["server commitment"])


def test_the_labels_keep_server_and_seat_apart() -> None:
    assert server_commitment(GAME, SEED_A) != seat_commitment(GAME, "A", SEED_A)


@pytest.mark.parametrize("name", ["", "a|b", "é", "A|"])
def test_a_name_that_could_read_two_ways_is_refused(name: str) -> None:
    with pytest.raises(ValueError):
        seat_commitment(GAME, name, SEED_A)
    with pytest.raises(ValueError):
        server_commitment(name, SECRET)


def test_secrets_and_seeds_are_32_bytes() -> None:
    with pytest.raises(ValueError):
        seat_commitment(GAME, "A", b"short")
    with pytest.raises(ValueError):
        game_key(SECRET[:31], GAME, [])
    with pytest.raises(ValueError):
        game_key(SECRET, GAME, [("A", SEED_A[:31])])
    assert len(dealing.new_secret()) == 32 and dealing.new_secret() != dealing.new_secret()


# ----------------------------------------------------------------------------- the key

seats = st.text(alphabet="ABCDEFGHxyz-_0", min_size=1, max_size=3)
seed32 = st.binary(min_size=32, max_size=32)
contributors = st.lists(st.tuples(seats, st.none() | seed32), max_size=4, unique_by=lambda s: s[0])


@given(contributors, contributors, st.integers(0, 3), st.integers(0, 3))
def test_the_key_message_reads_one_way(
    one: list[tuple[str, bytes | None]], two: list[tuple[str, bytes | None]], e1: int, e2: int
) -> None:
    """Two different lists of contributors (or epochs) never give the same bytes."""
    if (one, e1) != (two, e2):
        assert key_message(GAME, one, epoch=e1) != key_message(GAME, two, epoch=e2)


def test_a_seat_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        key_message(GAME, [("A", SEED_A), ("A", None)])


def test_withholding_and_order_change_the_key() -> None:
    assert game_key(SECRET, GAME, SEEDS) != game_key(SECRET, GAME, SEEDS[:2])
    assert game_key(SECRET, GAME, SEEDS) != game_key(SECRET, GAME, SEEDS[::-1])
    assert game_key(SECRET, GAME, [("A", None)]) != game_key(SECRET, GAME, [])


def test_rekeying_needs_the_new_secret() -> None:
    """What a judge learns of epoch 0 (its secret, so its key) and the new public seeds do
    not give epoch 1's key: it changes with the new secret alone."""
    k = key()
    other = bytes(reversed(SECRET_1))
    assert rekey(k, 1, SECRET_1, GAME, SEEDS_1) != rekey(k, 1, other, GAME, SEEDS_1)
    assert rekey(k, 1, SECRET_1, GAME, SEEDS_1) != rekey(k, 2, SECRET_1, GAME, SEEDS_1)
    assert rekey(k, 1, SECRET_1, GAME, SEEDS_1) != game_key(SECRET_1, GAME, SEEDS_1)
    with pytest.raises(ValueError):
        rekey(k, 0, SECRET_1, GAME, SEEDS_1)


# ----------------------------------------------------------------------------- no single party


@given(seed32, st.lists(st.tuples(seed32, seed32), min_size=4, max_size=4, unique=True))
def test_one_seats_seed_alone_does_not_fix_the_order(
    mine: bytes, others: list[tuple[bytes, bytes]]
) -> None:
    """For any seed of seat A, the server's secret and seat B's seed change the order."""
    orders = {
        tuple(shuffle(game_key(secret, GAME, [("A", mine), ("B", theirs)]), 0, IDS))
        for secret, theirs in others
    }
    assert len(orders) > 1


@given(seed32, st.lists(seed32, min_size=4, max_size=4, unique=True))
def test_the_other_seat_alone_changes_the_order(mine: bytes, theirs: list[bytes]) -> None:
    """A seat colluding with the server (both fixed) still meets an honest seat's seed."""
    orders = {
        tuple(shuffle(game_key(SECRET, GAME, [("A", mine), ("B", t)]), 0, IDS)) for t in theirs
    }
    assert len(orders) > 1


@given(seed32, st.lists(seed32, min_size=4, max_size=4, unique=True))
def test_the_server_alone_changes_the_order(mine: bytes, secrets: list[bytes]) -> None:
    orders = {tuple(shuffle(game_key(s, GAME, [("A", mine)]), 0, IDS)) for s in secrets}
    assert len(orders) > 1


# ----------------------------------------------------------------------------- sampling

keys = st.binary(min_size=32, max_size=32)
counters = st.integers(0, 2**64 - 1)


@given(keys, counters, st.integers(1, 2**80))
def test_randbelow_stays_in_range(k: bytes, counter: int, n: int) -> None:
    assert 0 <= randbelow(k, counter, n) < n


@given(keys, counters, st.integers(1, 120))
def test_a_die_shows_one_of_its_faces(k: bytes, counter: int, sides: int) -> None:
    assert 1 <= roll(k, counter, sides) <= sides


def reference_below(k: bytes, counter: int, n: int) -> int:
    """The documented rule, written again: ``ceil(k/8)`` bytes at a time, the low ``k`` bits,
    the first below ``n``."""
    bits = (n - 1).bit_length()
    width = (bits + 7) // 8
    stream = draw(k, counter, 64 * width)
    for at in range(0, len(stream), width):
        candidate = int.from_bytes(stream[at : at + width], "big") & ((1 << bits) - 1)
        if candidate < n:
            return candidate
    raise AssertionError("64 rejections in a row")


@given(keys, counters, st.integers(2, 2**40))
def test_randbelow_is_the_documented_rejection_sampling(k: bytes, counter: int, n: int) -> None:
    assert randbelow(k, counter, n) == reference_below(k, counter, n)


def test_a_value_out_of_range_is_rejected_not_folded() -> None:
    """Counter 0 of the vectors' key: a d6 reads 0x46, whose low 3 bits (6) are out of range;
    it is thrown away (a modulo would have made it 0, a 1 on the die) and 0xc3 gives 3."""
    assert randbelow(key(), 0, 6) == 3 != (block(key(), 0, 0)[0] & 7) % 6


def test_nothing_in_the_module_uses_modulo() -> None:
    tree = ast.parse((ROOT / "domain" / "dealing.py").read_text(encoding="utf-8"))
    folds = [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Mod))
        or (isinstance(node, ast.Name) and node.id == "divmod")
    ]
    assert folds == []


def test_randbelow_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        randbelow(key(), 0, 0)
    assert randbelow(key(), 0, 1) == 0


@given(keys, counters, st.lists(st.text(min_size=1, max_size=4), max_size=30, unique=True))
def test_a_shuffle_is_a_permutation_of_a_canonical_order(
    k: bytes, counter: int, items: list[str]
) -> None:
    out = shuffle(k, counter, items)
    assert sorted(out) == sorted(items)
    assert shuffle(k, counter, reversed(items)) == out


def test_a_shuffle_refuses_repeated_ids() -> None:
    with pytest.raises(ValueError):
        shuffle(key(), 0, ["a", "a"])


def test_each_counter_has_its_own_order() -> None:
    assert len({tuple(shuffle(key(), c, IDS)) for c in range(20)}) == 20


# ----------------------------------------------------------------------------- the dealer


def test_the_dealer_hands_out_the_counter_it_used() -> None:
    dealer = Dealer(key())
    value, counter = dealer.roll()
    assert (value, counter) == (ROLLS[0], 0)
    dealer = dealer.after(counter)
    assert dealer.randbelow(1_000_000) == (randbelow(key(), 1, 1_000_000), 1)
    assert Dealer(key(), 11).shuffle(IDS) == (SHUFFLE_11, 11)
    assert key().hex() not in repr(dealer) and "next_counter=1" in repr(dealer)


# ----------------------------------------------------------------------------- the verifier

OPS = st.lists(st.sampled_from(["roll", "randbelow", "shuffle"]), min_size=1, max_size=10)


def honest(k: bytes, operations: Sequence[str], start: int) -> list[Draw]:
    """What a game would record: each operation at the dealer's next counter."""
    dealer, out = Dealer(k, start), []
    for n, operation in enumerate(operations):
        args: tuple[object, ...]
        if operation == "roll":
            args = (6,)
            value, counter = dealer.roll(6)
        elif operation == "randbelow":
            args = (n + 2,)
            value, counter = dealer.randbelow(n + 2)
        else:
            args = (IDS[: n + 2],)
            value, counter = dealer.shuffle(IDS[: n + 2])
        out.append(Draw(counter, operation, args, value))
        dealer = dealer.after(counter)
    return out


def tampered(recorded: Draw) -> Draw:
    """``recorded`` with another result its operation could have given."""
    if recorded.operation == "shuffle":
        first, second, *rest = recorded.result
        return recorded._replace(result=[second, first, *rest])
    if recorded.operation == "roll":
        return recorded._replace(result=recorded.result % 6 + 1)
    return recorded._replace(result=(recorded.result + 1) % recorded.args[0])


@given(keys, OPS, st.integers(0, 1000))
def test_an_honest_record_checks(k: bytes, operations: list[str], start: int) -> None:
    assert first_mismatch(k, honest(k, operations, start), start=start) is None


@given(keys, OPS, st.integers(1, 1000), st.sampled_from(["result", "skip", "repeat"]), st.data())
def test_the_verifier_names_the_first_tampered_operation(
    k: bytes, operations: list[str], start: int, how: str, data: st.DataObject
) -> None:
    draws = honest(k, operations, start)
    at = data.draw(st.integers(0, len(draws) - 1))
    original = draws[at]
    if how == "result":
        draws[at] = tampered(original)
        word = "recorded"
    elif how == "skip":
        draws[at] = original._replace(counter=original.counter + 1)
        word = "skips"
    else:
        draws[at] = original._replace(counter=original.counter - 1)
        word = "repeats"
    mismatch = first_mismatch(k, draws, start=start)
    assert mismatch is not None
    assert (mismatch.position, mismatch.counter) == (at, draws[at].counter)
    assert word in mismatch.reason


def test_the_verifier_names_what_it_cannot_run() -> None:
    k = key()
    assert first_mismatch(k, [Draw(0, "coin", (), 1)]) is not None
    assert first_mismatch(k, [Draw(0, "roll", (0,), 1)]) is not None
    assert first_mismatch(k, [Draw(True, "roll", (6,), ROLLS[0])]) is not None
    assert first_mismatch(k, [Draw(0, "roll", (6,), float(ROLLS[0]))]) is not None
    gap = first_mismatch(k, [Draw(3, "roll", (6,), ROLLS[3])])
    assert gap is not None and gap.reason == "counter 3 skips 0 to 2"
    as_tuple = Draw(11, "shuffle", (IDS,), tuple(SHUFFLE_11))
    assert first_mismatch(k, [as_tuple], start=11) is None  # JSON gives lists; either reads


# ----------------------------------------------------------------------------- uniformity
#
# Pearson's chi-square over 10,000 operations of the vectors' key (counters 0..9999, so every
# run sees the same numbers), against the upper 0.001 critical value for its degrees of
# freedom: df 5 -> 20.515, df 9 -> 27.877 (NIST/SEMATECH e-Handbook of Statistical Methods,
# section 1.3.6.7.4, "Critical Values of the Chi-Square Distribution", upper-tail 0.001
# column; checked against the regularized incomplete gamma function to 1e-7).

SAMPLES = 10_000
CRITICAL_0_001 = {5: 20.515, 9: 27.877}
#: The statistics these seeded runs give (docs/dealing.md quotes them).
CHI_SQUARE = {"top card": 9.138, "position of c00": 7.522, "d6": 3.2864}


def chi_square(counts: Counter[object], cells: Sequence[object]) -> float:
    expected = sum(counts.values()) / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def test_the_statistic() -> None:
    assert chi_square(Counter({"a": 10, "b": 20, "c": 30}), "abc") == 10.0


def test_shuffles_are_uniform() -> None:
    began = time.perf_counter()
    k = key()
    orders = [shuffle(k, counter, IDS) for counter in range(SAMPLES)]
    tops = Counter(order[0] for order in orders)
    where = Counter(order.index("c00") for order in orders)
    first, position = chi_square(tops, IDS), chi_square(where, range(10))
    assert first < CRITICAL_0_001[9], (first, tops)
    assert position < CRITICAL_0_001[9], (position, where)
    assert (first, position) == pytest.approx(
        (CHI_SQUARE["top card"], CHI_SQUARE["position of c00"])
    )
    assert time.perf_counter() - began < 2


def test_rolls_are_uniform() -> None:
    began = time.perf_counter()
    k = key()
    faces = Counter(roll(k, counter) for counter in range(SAMPLES))
    statistic = chi_square(faces, range(1, 7))
    assert statistic < CRITICAL_0_001[5], (statistic, faces)
    assert statistic == pytest.approx(CHI_SQUARE["d6"])
    assert time.perf_counter() - began < 2


@settings(max_examples=20)
@given(keys)
def test_rolls_of_any_key_cover_every_face(k: bytes) -> None:
    assert set(Counter(roll(k, c) for c in range(200))) == set(range(1, 7))


# ----------------------------------------------------------------------------- deal and dice


@given(
    keys, counters, st.lists(st.text(min_size=1, max_size=4), max_size=30, unique=True), st.data()
)
def test_a_deal_is_the_top_of_the_shuffle(
    k: bytes, counter: int, items: list[str], data: st.DataObject
) -> None:
    take = data.draw(st.integers(0, len(items)))
    dealt = dealing.deal(k, counter, items, take)
    assert dealt == dealing.shuffle(k, counter, list(reversed(items)))[:take]
    assert len(set(dealt)) == take and set(dealt) <= set(items)


def test_a_deal_takes_no_more_than_the_pile() -> None:
    with pytest.raises(ValueError, match="cannot take 3 of 2"):
        dealing.deal(bytes(32), 0, ["a", "b"], 3)


@given(keys, counters, st.integers(1, 20), st.integers(1, 5))
def test_dice_are_read_in_turn_from_one_stream(
    k: bytes, counter: int, sides: int, count: int
) -> None:
    values = dealing.dice(k, counter, sides, count)
    assert len(values) == count and all(1 <= v <= sides for v in values)
    assert values[0] == dealing.roll(k, counter, sides)  # the first die is the roll


def test_dice_need_a_side_and_a_die() -> None:
    for sides, count in ((0, 1), (6, 0)):
        with pytest.raises(ValueError):
            dealing.dice(bytes(32), 0, sides, count)


def test_the_verifier_checks_deals_and_dice() -> None:
    k = bytes(range(32))
    honest = [
        dealing.Draw(0, "deal", (["c", "a", "b"], 2), dealing.deal(k, 0, ["a", "b", "c"], 2)),
        dealing.Draw(1, "dice", (6, 2), dealing.dice(k, 1, 6, 2)),
    ]
    assert dealing.first_mismatch(k, honest) is None
    bad = [honest[0], honest[1]._replace(result=[7 - v for v in honest[1].result])]
    found = dealing.first_mismatch(k, bad)
    assert found is not None and (found.position, found.counter) == (1, 1)


def test_the_dealer_deals_and_rolls_at_its_counter() -> None:
    dealer = dealing.Dealer(bytes(32), next_counter=9)
    (cards, c1), (values, c2) = dealer.deal(["x", "y", "z"], 1), dealer.dice(6, 3)
    assert (c1, c2) == (9, 9)
    assert cards == dealing.deal(bytes(32), 9, ["x", "y", "z"], 1)
    assert values == dealing.dice(bytes(32), 9, 6, 3)
