"""Fair dealing, scheme ``munchlog-rand-v1``: randomness no single party chooses (issue #25).

The server commits to a 32-byte secret before any seat shows anything; each contributing seat
commits to 32 random bytes of its own, then reveals them; the *game key* is an HMAC of the
revealed seeds under the server's secret, and every random operation of the game (a shuffle,
a die, a draw) takes the next number of a gapless counter and draws from the key with it.
When the game ends the server reveals its secret, and anyone can re-derive every commitment,
the key and every operation offline (docs/dealing.md has the threat model and test vectors).

This module is the scheme only: pure functions of bytes, no I/O, no clock, nothing about a
game family. Every hashed byte string is spelled out on the function that hashes it; in them
``||`` is concatenation, ``u16``/``u32``/``u64`` an unsigned big-endian integer of 2/4/8
bytes, and text is ASCII.

>>> secret, seed = bytes(32), bytes([0x41]) * 32
>>> game = "11111111-2222-4333-8444-555555555555"
>>> seat_seed_matches(game, "A", seed.hex(), seat_commitment(game, "A", seed))
True
>>> dealer = Dealer(game_key(secret, game, [("A", seed)]))
>>> value, counter = dealer.roll()
>>> 1 <= value <= 6, counter
(True, 0)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

#: The scheme's name and version, recorded in the events that use it.
SCHEME = "munchlog-rand-v1"
#: Bytes in a server secret, a seat seed and a game key.
SECRET_BYTES = 32
#: The previous key of epoch 0 (there is none): 32 zero bytes.
NO_PREVIOUS_KEY = bytes(SECRET_BYTES)
#: Bytes in one block of a random stream (one HMAC-SHA256 output).
BLOCK_BYTES = 32

_HEX = frozenset("0123456789abcdef")
_MAX_COUNTER = 2**64 - 1
_MAX_EPOCH = 2**32 - 1


# ----------------------------------------------------------------------------- encodings


def _name(text: str, what: str) -> bytes:
    """``text`` as ASCII bytes; refused when empty, not ASCII or holding ``|`` (the labels'
    separator: with none inside a field, a commitment's prefix reads one way only)."""
    if not text or not text.isascii() or "|" in text:
        raise ValueError(f"{what} must be non-empty ASCII without '|': {text!r}")
    return text.encode("ascii")


def _bytes32(value: bytes, what: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != SECRET_BYTES:
        raise ValueError(f"{what} must be {SECRET_BYTES} bytes")
    return value


def _u(value: int, width: int) -> bytes:
    return value.to_bytes(width, "big")


def _prefixed(data: bytes) -> bytes:
    """``u16(len(data)) || data``."""
    if len(data) > 0xFFFF:
        raise ValueError("a length-prefixed field is at most 65,535 bytes")
    return _u(len(data), 2) + data


def is_hex32(text: object) -> bool:
    """Whether ``text`` is 32 bytes written as 64 lowercase hex characters (a seed, a secret or
    a commitment as the API carries them).

    >>> is_hex32("ab" * 32), is_hex32("AB" * 32), is_hex32("ab" * 31)
    (True, False, False)
    """
    return isinstance(text, str) and len(text) == 2 * SECRET_BYTES and _HEX.issuperset(text)


def parse_hex32(text: str) -> bytes:
    """The 32 bytes of a 64-character lowercase hex string; ``ValueError`` for anything else
    (upper case included: one spelling per value).

    >>> parse_hex32("00" * 31 + "ff")[-1]
    255
    """
    if not is_hex32(text):
        raise ValueError("expected 64 lowercase hex characters")
    return bytes.fromhex(text)


def new_secret() -> bytes:
    """32 bytes from the operating system's CSPRNG (:func:`secrets.token_bytes`): a server
    secret or a seat seed. The only function here that is not deterministic; the rules never
    call it (the service draws the server's secret, a seat's client its seed)."""
    return secrets.token_bytes(SECRET_BYTES)


# ----------------------------------------------------------------------------- commitments


def server_commitment(game_id: str, secret: bytes) -> str:
    """The commitment to the server's secret, published in the game's first event: lowercase
    hex of ``SHA-256("munchlog-rand-v1|server|" || game_id || "|" || secret)``, the secret's
    32 bytes raw.

    >>> server_commitment("g", bytes(32))[:16]
    'c7e6b76dad72690f'
    """
    prefix = f"{SCHEME}|server|".encode("ascii") + _name(game_id, "game id") + b"|"
    return hashlib.sha256(prefix + _bytes32(secret, "the server secret")).hexdigest()


def seat_commitment(game_id: str, seat: str, seed: bytes) -> str:
    """A seat's commitment to its seed (issue #25's contract, byte for byte): lowercase hex of
    ``SHA-256("munchlog-rand-v1|seat|" || game_id || "|" || seat || "|" || seed)``, the game id
    exactly as the API returns it and the seed's 32 bytes raw.

    >>> seat_commitment("g", "A", bytes(32))[:16]
    '71428bc8ab1223e2'
    """
    prefix = (
        f"{SCHEME}|seat|".encode("ascii")
        + _name(game_id, "game id")
        + b"|"
        + _name(seat, "seat")
        + b"|"
    )
    return hashlib.sha256(prefix + _bytes32(seed, "a seat seed")).hexdigest()


def _opens(commitment: str, revealed_hex: str, commit: Callable[[bytes], str]) -> bool:
    if not (is_hex32(commitment) and is_hex32(revealed_hex)):
        return False
    derived = commit(bytes.fromhex(revealed_hex))
    return hmac.compare_digest(derived.encode("ascii"), commitment.encode("ascii"))


def seat_seed_matches(game_id: str, seat: str, seed_hex: str, commitment: str) -> bool:
    """Whether a revealed seed (64 lowercase hex characters) opens ``seat``'s ``commitment``,
    compared in constant time. A malformed seed or commitment does not match (never raises for
    them: they come from clients).

    >>> c = seat_commitment("g", "A", bytes(32))
    >>> seat_seed_matches("g", "A", "00" * 32, c), seat_seed_matches("g", "B", "00" * 32, c)
    (True, False)
    """
    return _opens(commitment, seed_hex, lambda seed: seat_commitment(game_id, seat, seed))


def server_secret_matches(game_id: str, secret_hex: str, commitment: str) -> bool:
    """Whether a revealed server secret (64 lowercase hex characters) opens the game's
    ``commitment`` (:func:`server_commitment`), compared in constant time.

    >>> server_secret_matches("g", "00" * 32, server_commitment("g", bytes(32)))
    True
    """
    return _opens(commitment, secret_hex, lambda secret: server_commitment(game_id, secret))


# ----------------------------------------------------------------------------- the game key


def key_message(
    game_id: str,
    seeds: Sequence[tuple[str, bytes | None]],
    *,
    epoch: int = 0,
    previous: bytes = NO_PREVIOUS_KEY,
) -> bytes:
    """The bytes the game key is the HMAC of::

        "munchlog-rand-v1|key|" || u32(epoch) || previous (32 bytes)
        || u16(len(game_id)) || game_id || u16(number of contributors)
        || for each contributor, in the game's seat order:
             u16(len(seat)) || seat || 0x01 || seed (32 bytes)    -- revealed
             u16(len(seat)) || seat || 0x00                       -- withheld

    ``seeds`` lists the contributors in the game's seat order, each with its revealed seed or
    ``None`` when it withheld it (a server-only game has none). Every variable field is
    length-prefixed or of fixed length, so two different lists never encode alike.
    ``previous`` is the key of the epoch before (:func:`rekey`), 32 zero bytes at epoch 0.

    >>> key_message("g", [("A", None)]).hex()[-14:]
    '67000100014100'
    """
    if not 0 <= epoch <= _MAX_EPOCH:
        raise ValueError(f"epoch out of range: {epoch}")
    names = [seat for seat, _ in seeds]
    if len(set(names)) != len(names):
        raise ValueError(f"a seat is listed twice: {names}")
    out = [
        f"{SCHEME}|key|".encode("ascii"),
        _u(epoch, 4),
        _bytes32(previous, "the previous key"),
        _prefixed(_name(game_id, "game id")),
        _u(len(seeds), 2),
    ]
    for seat, seed in seeds:
        out.append(_prefixed(_name(seat, "seat")))
        out.append(b"\x00" if seed is None else b"\x01" + _bytes32(seed, f"seat {seat}'s seed"))
    return b"".join(out)


def game_key(
    secret: bytes,
    game_id: str,
    seeds: Sequence[tuple[str, bytes | None]],
    *,
    epoch: int = 0,
    previous: bytes = NO_PREVIOUS_KEY,
) -> bytes:
    """The game key: ``HMAC-SHA256(key=secret, msg=key_message(game_id, seeds, epoch,
    previous))`` (:func:`key_message` gives the bytes). Nobody but the server knows it before
    the secret is revealed; nobody, the server included, knew it before the last seed was in.

    >>> len(game_key(bytes(32), "g", [("A", bytes(32)), ("B", None)]))
    32
    """
    message = key_message(game_id, seeds, epoch=epoch, previous=previous)
    return hmac.new(_bytes32(secret, "the server secret"), message, hashlib.sha256).digest()


def rekey(
    previous: bytes,
    epoch: int,
    secret: bytes,
    game_id: str,
    seeds: Sequence[tuple[str, bytes | None]],
) -> bytes:
    """The key of ``epoch`` (1, 2, ...) after a judge's ruling saw the secret of the epoch
    before: :func:`game_key` under the *new* server secret, over the *new* seeds, with the
    epoch and the previous key inside the message. The new secret and seeds are committed and
    revealed as at the start (the server first), so what the judge learned of epoch ``n`` (its
    secret, hence its key) says nothing of epoch ``n + 1``'s key: that is an HMAC under a
    secret the judge has not seen. The previous key inside binds the epochs into one chain.

    >>> k0 = game_key(bytes(32), "g", [])
    >>> rekey(k0, 1, bytes([1]) * 32, "g", []) != game_key(bytes([1]) * 32, "g", [])
    True
    """
    if epoch < 1:
        raise ValueError("re-keying starts at epoch 1 (epoch 0 is the game_key)")
    return game_key(secret, game_id, seeds, epoch=epoch, previous=_bytes32(previous, "the key"))


# ----------------------------------------------------------------------------- random streams


def block(key: bytes, counter: int, index: int) -> bytes:
    """Block ``index`` of operation ``counter``'s random stream:
    ``HMAC-SHA256(key, "munchlog-rand-v1|draw|" || u64(counter) || u32(index))``, 32 bytes.
    An operation reads its blocks 0, 1, 2 ... as one byte string, from the start.

    >>> block(bytes(32), 0, 0) != block(bytes(32), 0, 1) != block(bytes(32), 1, 0)
    True
    """
    if not 0 <= counter <= _MAX_COUNTER:
        raise ValueError(f"counter out of range: {counter}")
    message = f"{SCHEME}|draw|".encode("ascii") + _u(counter, 8) + _u(index, 4)
    return hmac.new(_bytes32(key, "the key"), message, hashlib.sha256).digest()


def draw(key: bytes, counter: int, nbytes: int) -> bytes:
    """The first ``nbytes`` bytes of operation ``counter``'s stream (:func:`block` 0, 1, ...
    concatenated).

    >>> draw(bytes(32), 7, 40) == block(bytes(32), 7, 0) + block(bytes(32), 7, 1)[:8]
    True
    """
    return _Stream(key, counter).take(nbytes)


class _Stream:
    """One operation's random stream, read front to back (:func:`block`): the blocks read so
    far in one buffer and the position of the next unread byte."""

    def __init__(self, key: bytes, counter: int) -> None:
        self.key = key
        self.counter = counter
        self.index = 0
        self.buffer = bytearray()
        self.pos = 0

    def _fill(self, end: int) -> None:
        """Read blocks until the buffer holds ``end`` bytes."""
        while len(self.buffer) < end:
            self.buffer += block(self.key, self.counter, self.index)
            self.index += 1

    def take(self, nbytes: int) -> bytes:
        end = self.pos + nbytes
        if len(self.buffer) < end:
            self._fill(end)
        out = bytes(self.buffer[self.pos : end])
        self.pos = end
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling: with ``k`` the bit length of
        ``n - 1``, read ``ceil(k / 8)`` bytes as a big-endian integer, keep its low ``k`` bits;
        accept the value if it is below ``n``, else read the next bytes and try again. No
        value is ever folded into range (no modulo, so no bias); each try succeeds with
        probability above 1/2. ``n == 1`` reads nothing and gives 0."""
        if n < 1:
            raise ValueError(f"nothing to draw below {n}")
        bits = (n - 1).bit_length()
        if bits == 0:
            return 0
        width, mask = (bits + 7) // 8, (1 << bits) - 1
        buffer = self.buffer
        while True:
            end = self.pos + width
            if len(buffer) < end:
                self._fill(end)
            if width == 1:  # most draws (a pile of up to 256 cards, a die): no slice
                candidate = buffer[self.pos] & mask
            else:
                candidate = int.from_bytes(buffer[self.pos : end], "big") & mask
            self.pos = end
            if candidate < n:
                return candidate


def randbelow(key: bytes, counter: int, n: int) -> int:
    """A uniform integer in ``[0, n)`` from operation ``counter``'s stream, by rejection
    sampling (:meth:`_Stream.below`: the low bits of the stream's next bytes, rejected until
    below ``n``).

    >>> all(0 <= randbelow(bytes(32), c, 3) < 3 for c in range(50))
    True
    """
    return _Stream(key, counter).below(n)


def roll(key: bytes, counter: int, sides: int = 6) -> int:
    """A die of ``sides`` faces: ``1 + randbelow(key, counter, sides)``.

    >>> sorted({roll(bytes(32), c) for c in range(100)})
    [1, 2, 3, 4, 5, 6]
    """
    return 1 + randbelow(key, counter, sides)


def shuffle(key: bytes, counter: int, items: Iterable[str]) -> list[str]:
    """``items`` (distinct ids) in a random order, with one counter for the whole shuffle.

    The starting order is canonical: the ids sorted (by code point, byte order for ASCII ids),
    so the caller's order changes nothing. Fisher-Yates (Durstenfeld's form) then runs on one
    stream: for ``i`` from ``len - 1`` down to 1, ``j = below(i + 1)`` from the stream
    (:meth:`_Stream.below`, each draw reading on where the last stopped) and items ``i`` and
    ``j`` swap. The first of the result is the top of a pile.

    >>> shuffle(bytes(32), 0, ["b", "a", "c"]) == shuffle(bytes(32), 0, ["c", "a", "b"])
    True
    """
    deck = sorted(items)
    if len(set(deck)) != len(deck):
        raise ValueError("the ids to shuffle must be distinct")
    stream = _Stream(key, counter)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(key: bytes, counter: int, items: Iterable[str], take: int) -> list[str]:
    """The first ``take`` ids of :func:`shuffle` (``items`` shuffled at ``counter``): the cards a
    draw of ``take`` from a pile in no known order gets. Only those are recorded, never the rest
    of the order, so nothing of the pile's order outlives the draw.

    >>> deal(bytes(32), 3, ["a", "b", "c"], 2) == shuffle(bytes(32), 3, ["c", "b", "a"])[:2]
    True
    """
    pile = list(items)
    if not 0 <= take <= len(pile):
        raise ValueError(f"cannot take {take} of {len(pile)} cards")
    return shuffle(key, counter, pile)[:take]


def dice(key: bytes, counter: int, sides: int, count: int) -> list[int]:
    """``count`` dice of ``sides`` faces from one operation's stream, in order: each is
    ``1 + below(sides)`` read where the previous stopped. One die is :func:`roll`.

    >>> dice(bytes(32), 5, 6, 1) == [roll(bytes(32), 5)]
    True
    """
    if sides < 1 or count < 1:
        raise ValueError(f"cannot roll {count} dice of {sides} sides")
    stream = _Stream(key, counter)
    return [1 + stream.below(sides) for _ in range(count)]


# ----------------------------------------------------------------------------- the dealer


@dataclass(frozen=True)
class Dealer:
    """A game's key and the next number of its gapless counter.

    Each operation returns ``(value, counter)``: the caller records ``counter`` on the event
    that carries the value, and the dealer after it is :meth:`after` that counter (a fold
    sets it from the event; a command that draws twice asks for the second from
    ``dealer.after(first_counter)``). The key never shows in a ``repr``.

    >>> dealer = Dealer(bytes(32), next_counter=4)
    >>> _, counter = dealer.shuffle(["x", "y"])
    >>> counter, dealer.after(counter).next_counter, "key" in repr(dealer)
    (4, 5, False)
    """

    key: bytes = field(repr=False)
    next_counter: int = 0

    def randbelow(self, n: int) -> tuple[int, int]:
        """:func:`randbelow` at the next counter."""
        return randbelow(self.key, self.next_counter, n), self.next_counter

    def roll(self, sides: int = 6) -> tuple[int, int]:
        """:func:`roll` at the next counter."""
        return roll(self.key, self.next_counter, sides), self.next_counter

    def shuffle(self, items: Iterable[str]) -> tuple[list[str], int]:
        """:func:`shuffle` at the next counter."""
        return shuffle(self.key, self.next_counter, items), self.next_counter

    def deal(self, items: Iterable[str], take: int) -> tuple[list[str], int]:
        """:func:`deal` at the next counter."""
        return deal(self.key, self.next_counter, items, take), self.next_counter

    def dice(self, sides: int, count: int) -> tuple[list[int], int]:
        """:func:`dice` at the next counter."""
        return dice(self.key, self.next_counter, sides, count), self.next_counter

    def after(self, counter: int) -> Dealer:
        """The dealer once an operation with ``counter`` is recorded: its next counter is
        ``counter + 1``. Never fails (a fold applies facts); a gap or a repeat is for
        :func:`first_mismatch` to name."""
        return replace(self, next_counter=counter + 1)


# ----------------------------------------------------------------------------- verifying


class Draw(NamedTuple):
    """One recorded random operation: its counter, its operation (a key of
    :data:`OPERATIONS`), the arguments after key and counter, and the recorded result."""

    counter: int
    operation: str
    args: tuple[Any, ...]
    result: Any


#: The operations a :class:`Draw` may name, each called as ``f(key, counter, *args)``.
OPERATIONS: dict[str, Callable[..., Any]] = {
    "randbelow": randbelow,
    "roll": roll,
    "shuffle": shuffle,
    "deal": deal,
    "dice": dice,
}


@dataclass(frozen=True)
class Mismatch:
    """The first recorded operation that does not check: its place in the list, its counter
    and why."""

    position: int
    counter: int
    reason: str


def first_mismatch(key: bytes, draws: Iterable[Draw], *, start: int = 0) -> Mismatch | None:
    """Re-derive every recorded operation in order and name the first that is wrong: a counter
    skipped or repeated (they must run ``start``, ``start + 1``, ... with no gap), an unknown
    operation or bad arguments, or a result other than the one the key gives. ``None`` when
    every one checks.

    >>> key = bytes(32)
    >>> good = Draw(0, "roll", (6,), roll(key, 0))
    >>> first_mismatch(key, [good]) is None
    True
    >>> first_mismatch(key, [good, good._replace(counter=2)]).reason
    'counter 2 skips 1'
    """
    expected = start
    for position, recorded in enumerate(draws):
        counter = recorded.counter
        problem = _counter_problem(counter, expected)
        if problem is None:
            problem = _result_problem(key, recorded)
        if problem is not None:
            return Mismatch(position, counter, problem)
        expected = counter + 1
    return None


def _counter_problem(counter: object, expected: int) -> str | None:
    if not isinstance(counter, int) or isinstance(counter, bool) or counter < 0:
        return f"counter {counter!r} is not a counter"
    if counter < expected:
        return f"counter {counter} repeats (expected {expected})"
    if counter > expected:
        gap = f"{expected}" if counter == expected + 1 else f"{expected} to {counter - 1}"
        return f"counter {counter} skips {gap}"
    return None


def _result_problem(key: bytes, recorded: Draw) -> str | None:
    operation = OPERATIONS.get(recorded.operation)
    if operation is None:
        return f"unknown operation {recorded.operation!r}"
    try:
        derived = operation(key, recorded.counter, *recorded.args)
    except (TypeError, ValueError, AttributeError) as error:  # a forged "sides": 6.0 included
        return f"{recorded.operation} cannot run on {recorded.args!r}: {error}"
    result = (
        list(recorded.result) if isinstance(recorded.result, (list, tuple)) else recorded.result
    )
    if result != derived or type(result) is not type(derived):
        return f"{recorded.operation} gave {derived!r}, recorded {recorded.result!r}"
    return None
