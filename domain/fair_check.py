"""Checking a server-dealt game's dealing from its records alone (docs/dealing.md, docs/rules.md
E): what ``GET /api/games/<id>/verify``, ``munchlog verify FILE`` and an import run, and what the
replay viewer's JavaScript does again in a judge's browser.

:func:`verify` reads the records in order: every commitment against its reveal, every
commitment before every reveal and the first random operation, a gapless counter, each
operation's result used by the event that follows it, and, once the server's secrets are
revealed (the game is over), the game key of every epoch and every operation re-derived.
It folds the records as it reads them (``domain.fold``: a fold never fails), so that each
``Dealt`` is held to the pile the log holds at that point (the family's ``random_uses``), and
every event that takes a card or a die by chance to a ``Dealt`` right before it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from domain import dealing
from domain.dealing import SCHEME
from domain.events import event_from_dict, family_of
from domain.fair import RandomUse, seeds_of
from domain.family import Family, family_named
from domain.fold import State, evolve, initial_state, load_event

#: A problem, named at the version of the event that does not match.
Problem = tuple[int, str]


class _Epoch:
    """What a verifier has seen of one epoch: its server commitment, the seeds, the first
    operation."""

    def __init__(self, number: int, commitment: str) -> None:
        self.number = number
        self.commitment = commitment
        self.commitments: dict[str, str] = {}
        self.revealed: dict[str, str] = {}
        self.withheld: list[str] = []
        self.operations = 0
        self.secret: str | None = None

    def seeds(self, contributors: Sequence[str]) -> list[tuple[str, bytes | None]]:
        return seeds_of(contributors, self.revealed, self.withheld)


class _Verifier:
    """One pass over a game's records, in order (:func:`verify`)."""

    def __init__(
        self, game_id: str, opened: Mapping[str, Any], created: Mapping[str, Any] | None = None
    ) -> None:
        created = created or {}
        self.game_id = game_id
        self.family = family_of(created.get("ruleset"))
        self.rules: Family = family_named(created.get("ruleset"))
        #: The game as the log holds it before the event being read (``None`` once an event
        #: does not load: the replay names that one), and before the draw being read (its
        #: ``Dealt`` events and the rules' bookkeeping of it).
        self.state: State | None = self._folded(initial_state(), created)
        self.before_draw: State | None = None
        #: The operations whose result the next event of the game must use (``_uses``).
        self.awaiting: list[tuple[int, Mapping[str, Any]]] = []
        self.contributors = [str(c) for c in opened.get("contributors", [])]
        self.epochs = [_Epoch(0, str(opened.get("server_commitment")))]
        self.used: set[str] = set()
        #: The ``Dealt`` events the event being read takes its cards and dice from.
        self.drawn: list[tuple[int, Mapping[str, Any]]] = []
        self.counter = 0
        self.operations: list[tuple[int, int, dealing.Draw]] = []
        self.hidden = 0

    @property
    def epoch(self) -> _Epoch:
        return self.epochs[-1]

    def check(self, version: int, data: Mapping[str, Any]) -> Problem | None:
        """The problem with the event ``data`` at ``version`` (or an earlier ``Dealt`` it shows
        wrong), if any; then the event folded."""
        kind = data.get("type")
        drawing = kind == "Dealt" or (  # a draw's own: the rules' reshuffle, not a judge's
            kind in self.rules.draw_bookkeeping and data.get("seat") == "rules"
        )
        if drawing and self.before_draw is None:
            self.before_draw = self.state
        handler = getattr(self, f"on_{kind}", None)
        problem: Problem | None
        if handler is None:
            problem = self._uses(version, data)
            if not drawing:
                problem = _first(problem, self._piles(version, data))
        else:
            found: str | None = handler(version, data)
            problem = None if found is None else (version, found)
            if found is None and kind == "Dealt":
                self.awaiting.append((version, data))
        if not drawing:
            self.before_draw = None
            self.drawn = []
        if self.state is not None:
            self.state = self._folded(self.state, data)
        return problem

    def _folded(self, state: State, data: Mapping[str, Any]) -> State | None:
        try:
            return evolve(state, load_event(state, data))
        except Exception:  # an event that does not load or fold: the replay names it
            return None

    def _uses(self, version: int, data: Mapping[str, Any]) -> Problem | None:
        """Whether ``data``, the first event after random operations that is not one, uses
        their results: names every card dealt, holds the dice in their order."""
        awaiting = self.awaiting
        if not awaiting:
            return None
        try:
            fields = _card_fields(event_from_dict(data, self.family))
        except Exception:  # a stored event that does not load: the hash chain's business
            self.awaiting = []
            return None
        named = set().union(*fields)
        cards_dealt = {c for _, op in awaiting for c in op.get("cards") or [] if isinstance(c, str)}
        only_deals = all(op.get("op") == "deal" for _, op in awaiting)
        if data.get("seat") == "rules" and only_deals and not cards_dealt & named:
            return None  # the rules' bookkeeping between a draw and the next (a reshuffle)
        self.awaiting = []
        self.drawn = awaiting
        numbers = list(_numbers({k: v for k, v in data.items() if k not in _NOT_RESULTS}))
        for at, dealt in awaiting:
            cards = {c for c in dealt.get("cards") or [] if isinstance(c, str)}
            if cards and not any(cards <= ids for ids in fields):  # all in one card field
                return version, f"does not draw the cards the server dealt at version {at}"
            if dealt.get("op") == "dice" and not _in_order(dealt.get("values") or [], numbers):
                return version, f"does not use the dice the server rolled at version {at}"
        return None

    def _piles(self, version: int, data: Mapping[str, Any]) -> Problem | None:
        """Whether the ``Dealt`` events right before ``data`` are the ones it takes by chance
        (``Family.random_uses`` of the game before the draw): one for each pile it draws
        from by chance, from the cards the log holds there in no known order, and one for each
        roll. A ``Dealt`` that deals from another pile is named; an event with no ``Dealt``
        for its chance, or one for another pile, is named itself."""
        state = self.before_draw if self.before_draw is not None else self.state
        if state is None:
            return None
        uses: list[RandomUse] = self.rules.random_uses(state, data)
        deals = [(at, op) for at, op in self.drawn if op.get("op") == "deal"]
        rolls = [(at, op) for at, op in self.drawn if op.get("op") == "dice"]
        for use in uses:
            if use.op == "dice":
                if not rolls:
                    return version, "holds a roll without a Dealt of its dice right before it"
                rolls.pop(0)
                continue
            if use.take <= 0:
                continue  # drawn without chance (D.20's known top card, a deck that ran out)
            match = next(((at, op) for at, op in deals if op.get("pile") == use.pile), None)
            if match is None:
                if deals:
                    at, op = deals[0]
                    return version, (
                        f"draws from {use.pile}, but the Dealt at version {at} deals from "
                        f"{op.get('pile')}"
                    )
                return version, f"draws from {use.pile} by chance without a Dealt right before it"
            deals.remove(match)
            problem = _pile_problem(use, match[1])
            if problem is not None:
                return match[0], problem
        if deals and any(use.op == "deal" for use in uses):  # a Dealt the draw has no use for
            at, op = deals[0]
            return at, (
                f"deals from {op.get('pile')}, but the draw at version {version} takes nothing "
                "there by chance"
            )
        return None

    def _contributor(self, data: Mapping[str, Any]) -> str | None:
        seat = data.get("contributor")
        return str(seat) if seat in self.contributors else None

    def on_SeedCommitted(self, version: int, data: Mapping[str, Any]) -> str | None:
        seat, ep = self._contributor(data), self.epoch
        if seat is None:
            return f"{data.get('contributor')!r} is not a contributor"
        if data.get("epoch") != ep.number:
            return f"a commitment for epoch {data.get('epoch')} in epoch {ep.number}"
        if seat in ep.commitments:
            return f"seat {seat} commits twice"
        if ep.revealed or ep.withheld or ep.operations:
            return "a commitment after a reveal or a random operation"
        commitment = str(data.get("commitment"))
        if commitment in self.used:
            return "a commitment used before in this game"
        self.used.add(commitment)
        ep.commitments[seat] = commitment
        return None

    def on_SeedRevealed(self, version: int, data: Mapping[str, Any]) -> str | None:
        seat, ep = self._contributor(data), self.epoch
        if seat is None:
            return f"{data.get('contributor')!r} is not a contributor"
        if any(c not in ep.commitments and c not in ep.withheld for c in self.contributors):
            return "a seed revealed before every contributor committed (or was withheld)"
        if seat in ep.revealed or seat in ep.withheld or ep.operations:
            return f"seat {seat}'s seed revealed twice, after withholding or after an operation"
        seed = str(data.get("seed"))
        if not dealing.seat_seed_matches(self.game_id, seat, seed, ep.commitments[seat]):
            return f"seat {seat}'s seed does not open its commitment"
        ep.revealed[seat] = seed
        return None

    def on_SeedWithheld(self, version: int, data: Mapping[str, Any]) -> str | None:
        seat, ep = self._contributor(data), self.epoch
        if seat is None or seat in ep.revealed or seat in ep.withheld or ep.operations:
            return f"{data.get('contributor')!r} cannot withhold here"
        if seat not in ep.commitments and ep.revealed:
            return f"seat {seat} withheld its commitment after the reveals began"
        ep.withheld.append(seat)
        return None

    def on_Dealt(self, version: int, data: Mapping[str, Any]) -> str | None:
        ep = self.epoch
        counter = data.get("counter")
        problem = dealing._counter_problem(counter, self.counter)
        if problem is not None:
            return problem
        if data.get("epoch") != ep.number:
            return f"an operation of epoch {data.get('epoch')} in epoch {ep.number}"
        waiting = [c for c in self.contributors if c not in ep.revealed and c not in ep.withheld]
        if waiting:
            return f"a random operation before {', '.join(waiting)} revealed or withheld"
        if data.get("scheme") != SCHEME:
            return f"unknown scheme {data.get('scheme')!r}"
        assert isinstance(counter, int)
        self.counter = counter + 1
        ep.operations += 1
        op = data.get("op")
        if op == "deal":
            among, cards = data.get("among") or [], data.get("cards") or []
            if not all(isinstance(c, str) for c in [*among, *cards]):
                self.hidden += 1  # a viewer's export: the cards are not all shown
                return None
            draw = dealing.Draw(counter, "deal", (list(among), data.get("take")), list(cards))
        elif op == "dice":
            args = (data.get("sides"), len(data.get("values") or []))
            draw = dealing.Draw(counter, "dice", args, list(data.get("values") or []))
        else:
            return f"unknown operation {op!r}"
        self.operations.append((version, ep.number, draw))
        return None

    def on_DealingRekeyed(self, version: int, data: Mapping[str, Any]) -> str | None:
        if data.get("epoch") != self.epoch.number + 1:
            return f"epoch {data.get('epoch')} does not follow {self.epoch.number}"
        if any(ep.commitment == data.get("server_commitment") for ep in self.epochs):
            return "a server commitment used before in this game"
        self.epochs.append(_Epoch(self.epoch.number + 1, str(data.get("server_commitment"))))
        return None

    def on_ServerSecretRevealed(self, version: int, data: Mapping[str, Any]) -> str | None:
        number = data.get("epoch")
        ep = next((e for e in self.epochs if e.number == number), None)
        if ep is None or ep.secret is not None:
            return f"a secret for epoch {number!r}, unknown or revealed already"
        secret = str(data.get("secret"))
        if not dealing.server_secret_matches(self.game_id, secret, ep.commitment):
            return f"the secret does not open epoch {number}'s server commitment"
        ep.secret = secret
        return None

    def results(self) -> tuple[int, Problem | None]:
        """How many operations were re-derived, and the first that does not match."""
        keys: dict[int, bytes] = {}
        previous = b""
        for ep in self.epochs:
            if ep.secret is None:
                break
            seeds = ep.seeds(self.contributors)
            secret = bytes.fromhex(ep.secret)
            previous = (
                dealing.game_key(secret, self.game_id, seeds)
                if ep.number == 0
                else dealing.rekey(previous, ep.number, secret, self.game_id, seeds)
            )
            keys[ep.number] = previous
        checked = 0
        for version, epoch, draw in self.operations:
            key = keys.get(epoch)
            if key is None:
                continue
            if dealing._result_problem(key, draw) is not None:  # its words name values: not shown
                return checked, (
                    version,
                    f"{draw.operation} at counter {draw.counter}: the recorded result is not the "
                    "one the key gives",
                )
            checked += 1
        return checked, None


def verify(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Re-derive a game's dealing from its records (each ``{"version", "event"}``, in order):
    every commitment against its reveal, that every commitment precedes every reveal and the
    first random operation, that no counter is skipped or repeated, and, once the server's
    secrets are revealed (the game is over), the key and every operation. Names the first
    event that does not match.

    ``{"mode", "ok", "scheme", "operations", "checked", "hidden", "complete",
    "first_mismatch": {"version", "type", "reason"} | None}``: ``checked`` counts the
    operations re-derived; ``hidden`` those a viewer's export does not show in full;
    ``complete`` is true once every secret is revealed and every operation checked.
    """
    first = records[0]["event"] if records else {}
    opened = first.get("dealing")
    if not isinstance(opened, Mapping):
        return {"mode": "table", "ok": True, "first_mismatch": None}
    verifier = _Verifier(str(first.get("game_id")), opened, first)
    problems: list[Problem] = []
    for record in records[1:]:
        problem = verifier.check(int(record["version"]), record["event"])
        if problem is not None:  # read on: a later secret may reveal that an earlier
            problems.append(problem)  # operation was not the key's
    checked, bad = verifier.results()  # operations whose key is known: before any mismatch
    if bad is not None:
        problems.append(bad)
    mismatch: dict[str, Any] | None = None
    if problems:
        version, reason = min(problems, key=lambda p: p[0])  # the first event that does not match
        kind = next(r["event"].get("type") for r in records if r["version"] == version)
        mismatch = {"version": version, "type": kind, "reason": reason}
    revealed = all(ep.secret is not None for ep in verifier.epochs)
    return {
        "mode": "server",
        "scheme": opened.get("scheme"),
        "ok": mismatch is None,
        "operations": len(verifier.operations) + verifier.hidden,
        "checked": checked,
        "hidden": verifier.hidden,
        "complete": mismatch is None and revealed and verifier.hidden == 0,
        "first_mismatch": mismatch,
    }


#: Fields of a stored event that are never a random operation's result.
_NOT_RESULTS = frozenset({"type", "v", "seat", "cause", "violation", "unchecked"})


def _first(*problems: Problem | None) -> Problem | None:
    """The problem of ``problems`` at the earliest version (``None``: none)."""
    found = [p for p in problems if p is not None]
    return min(found, key=lambda p: p[0]) if found else None


def _pile_problem(use: RandomUse, dealt: Mapping[str, Any]) -> str | None:
    """Why the ``Dealt`` ``dealt`` is not the draw ``use`` the log holds at its point: its
    ``among`` another set of cards than the pile's in no known order, or another ``take``. Its
    words give counts, never a card (the reason is shown to every viewer)."""
    among = dealt.get("among")
    if not isinstance(among, list) or not all(isinstance(c, str) for c in among):
        return None  # a viewer's export: the pile is not shown
    if sorted(among) != list(use.among):
        return (
            f"deals from {len(among)} cards of {use.pile}, not the {len(use.among)} the log "
            "holds there in no known order"
            if len(among) != len(use.among)
            else f"deals from cards of {use.pile} other than those the log holds there"
        )
    if dealt.get("take") != use.take:
        return f"takes {dealt.get('take')!r} cards where the draw takes {use.take} by chance"
    return None


def _numbers(value: Any) -> Iterator[int]:
    """Every whole number in a JSON value, in order (a dict's in its keys' order)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)


def _in_order(values: Sequence[Any], numbers: Sequence[int]) -> bool:
    """Whether ``values`` appear in ``numbers`` in their order (not necessarily side by side)."""
    found = iter(numbers)
    return all(any(n == v for n in found) for v in values)


def _card_fields(event: Any) -> list[set[str]]:
    """The card ids of each of ``event``'s card fields (a card, a list of cards, a dict keyed
    by cards as ``Event.card_ids`` reads it), one set per field: the cards one operation dealt
    must all be in one of them (a mulligan's new hand, not spread over it and the old one)."""
    out: list[set[str]] = []
    for name in type(event).card_fields:
        value = getattr(event, name, None)
        if isinstance(value, str):
            out.append({value})
        elif isinstance(value, list):
            out.append({v for v in value if isinstance(v, str)})
        elif isinstance(value, dict):
            out.append({k for k in value if k != "hero"})
    return out
