"""Every round of an event as a function of what its export holds (docs/rules.md F.2, F.4):
the one reading the service pairs by (``service.tournaments``) and ``munchlog verify``
re-derives each round with (``projections.exports.event_rounds``).

Round ``n`` of an event is :func:`draw` of

* the settings (``ruleset``, ``table_size``, ``top_cut``) and the number of Swiss rounds;
* the players registered when it was paired (only their names: ties left by the tiebreakers
  go by name, never by registration order) and the *active* ones among them: registered at or
  before ``paired_at`` and not dropped before it (``dropped_after`` none or at least ``n``);
* the earlier rounds as paired: each pairing's seats in seat order and the byes;
* the results of the earlier rounds *as they stood when round n was paired* (a result
  reported again, or a game a judge corrected, after that is not what it was paired on: the
  export says what it was, ``paired_on``);
* round 1 only: the key drawn from the revealed secret (``rules.round_one_key``).

Pure: the same inputs give the same tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.errors import RuleViolation
from domain.tournament import pairing as pairs
from domain.tournament import rules
from domain.tournament import standings as ranking
from domain.tournament import tables as seating

#: A result's key: its round and its players in seat order.
Key = tuple[int, tuple[str, ...]]
#: A round as drawn: its tables (players in seat order, table 1 first) and its byes.
Drawn = tuple[list[tuple[str, ...]], list[str]]


def result_key(result: Mapping[str, Any]) -> Key:
    return int(result["round"]), tuple(str(p) for p in result["players"])


def results_then(paired_on: Sequence[Sequence[Mapping[str, Any]] | None]) -> dict[Key, Any]:
    """The results the last of these rounds was paired on, by :func:`result_key`, from what
    each round's pairing recorded of them (``Tournament.Paired``'s ``results``: those it read
    that no earlier pairing had recorded as they were; ``None`` for a round paired before
    pairings recorded them, which adds nothing)."""
    known: dict[Key, Any] = {}
    for read in paired_on:
        for result in read or ():
            known[result_key(result)] = dict(result)
    return known


def newly_read(
    known: Mapping[Key, Mapping[str, Any]], results: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """What a pairing records of the ``results`` it read: each one the rounds before had not
    recorded as it is now (``known``, :func:`results_then`): the last round's, and any earlier
    one reported again or corrected since.

    >>> drawn = {"round": 1, "players": ["a", "b"], "games": {"a": 0, "b": 0}, "drawn_games": 1}
    >>> won = {"round": 1, "players": ["c", "d"], "games": {"c": 1, "d": 0}, "drawn_games": 0}
    >>> newly_read({}, [drawn, won]) == [drawn, won]  # round 2: round 1's results
    True
    >>> later = {**drawn, "games": {"a": 1, "b": 0}, "drawn_games": 0}  # reported again
    >>> newly_read(results_then([[], [drawn, won]]), [later, won]) == [later]  # round 3
    True
    """
    return [dict(r) for r in results if known.get(result_key(r)) != dict(r)]


def swiss_rows(
    ruleset: str,
    players: Sequence[str],
    results: Sequence[Mapping[str, Any]],
    rounds: Sequence[Mapping[str, Any]],
    swiss: int,
) -> list[ranking.Standing]:
    """The standings over the Swiss rounds (a top cut decides places, not points) of
    ``players`` from ``results`` (``{round, players, games, drawn_games}`` or ``{round,
    players, places}``) and the byes of ``rounds``; none before round 1 (nobody is ranked
    before playing).

    >>> swiss_rows("any", ["ann", "bob"], [], [], 3)
    []
    """
    if not rounds:
        return []
    byes = [(int(r["round"]), str(p)) for r in rounds[:swiss] for p in r["byes"]]
    kept = [r for r in results if int(r["round"]) <= swiss]
    return rules.ranked(ruleset, list(players), kept, byes)


@dataclass(frozen=True)
class Inputs:
    """What every round is drawn from (the module docstring) but its number and round 1's key:
    the ``settings``, the number of ``swiss`` rounds, the ``players`` registered and the
    ``active`` ones, the earlier ``results`` as the round was paired on them and the earlier
    ``rounds`` (``{round, pairings: [{table, seats}], byes}``)."""

    settings: Mapping[str, Any]
    swiss: int
    players: Sequence[str]
    active: Sequence[str]
    results: Sequence[Mapping[str, Any]]
    rounds: Sequence[Mapping[str, Any]]

    def rows(self) -> list[ranking.Standing]:
        return swiss_rows(
            str(self.settings["ruleset"]), self.players, self.results, self.rounds, self.swiss
        )


def draw(number: int, given: Inputs, key: bytes | None = None) -> Drawn:
    """Round ``number`` (the module docstring): round 1 drawn under ``key``, then the Swiss
    rounds by the standings, then the top cut; ``rounds`` are the rounds before it."""
    size = given.settings.get("table_size")
    seats = rules.table_seats(str(given.settings["ruleset"]))
    active, results, rounds = given.active, given.results, given.rounds
    if number > given.swiss:
        return _cut(number, given)
    if number == 1:
        if key is None:
            raise ValueError("round 1 is drawn under its key")
        if size is not None:
            drawn = pairs.round_one(active, key, int(size), seats)
            return [tuple(t) for t in drawn.tables], []
        first_round = pairs.round_one(active, key)
        return [tuple(p) for p in first_round.pairs], _byes(first_round.bye)
    rows = given.rows()
    order = [row.player for row in rows if row.player in active]
    points = {row.player: int(row.points) for row in rows}
    met = {frozenset(p) for r in results for p in _pairs_of(r["players"])}
    if size is not None:
        first = dict.fromkeys(active, 0)
        for round_ in rounds:
            for pairing in round_["pairings"]:
                if pairing["seats"]["A"] in first:
                    first[pairing["seats"]["A"]] += 1
        tables = seating.swiss_tables(order, points, met, first, int(size), seats)
        return [tuple(t) for t in tables.tables], []
    had_bye = {str(p) for r in rounds for p in r["byes"]}
    swiss_round = pairs.swiss(order, points, met, had_bye)
    return [tuple(p) for p in swiss_round.pairs], _byes(swiss_round.bye)


def _cut(number: int, given: Inputs) -> Drawn:
    """A top cut round (docs/rules.md F.4): single elimination seeded by the standings after
    the Swiss rounds (1 v 8, 4 v 5, 2 v 7, 3 v 6; ``rules.cut_size`` of the active players),
    then the winners in bracket order; the higher seed (seat A) goes through a drawn match. A
    player who dropped or was disqualified since leaves its opponent a bye (through to the
    next round); two such leave their place in the bracket empty."""
    active = given.active
    if number == given.swiss + 1:
        size = rules.cut_size(int(given.settings.get("top_cut") or 0), len(active))
        seeds = [r.player for r in given.rows() if r.player in active]
        bracket: list[str | None] = [seeds[i - 1] for i in rules.CUT_SEEDING[size]]
    else:
        bracket = _bracket(given.swiss, number, given.results, given.rounds)
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for first, second in zip(bracket[::2], bracket[1::2], strict=True):
        here = [p for p in (first, second) if p is not None and p in active]
        if len(here) == 2:
            tables.append((here[0], here[1]))
        else:
            byes += here
    return tables, byes


def _bracket(
    swiss: int,
    number: int,
    results: Sequence[Mapping[str, Any]],
    rounds: Sequence[Mapping[str, Any]],
) -> list[str | None]:
    """Who goes into top cut round ``number`` (after the first), place by place in the
    bracket: each earlier cut round's match winner or bye, ``None`` where nobody did."""
    first = rounds[swiss]
    places: list[str | None] = [
        p for pairing in first["pairings"] for p in seated(pairing["seats"])
    ]
    for done in range(swiss + 1, number):
        round_ = rounds[done - 1]
        through: list[str | None] = []
        for pair in zip(places[::2], places[1::2], strict=True):
            pairing = next(
                (p for p in round_["pairings"] if set(p["seats"].values()) == set(pair)),
                None,
            )
            bye = next((p for p in pair if p is not None and p in round_["byes"]), None)
            through.append(_winner(done, pairing, results) if pairing else bye)
        places = through
    return places


def _winner(number: int, pairing: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> str:
    """Who goes through from a top cut match of round ``number``: its winner, or the higher
    seed (seat A) after a drawn match (docs/rules.md F.4)."""
    seats = pairing["seats"]
    players = seated(seats)
    for result in results:
        if int(result["round"]) == number and list(result["players"]) == players:
            a, b = players
            match = ranking.Match(number, (a, b), (result["games"][a], result["games"][b]))
            return match.winner or str(seats["A"])
    raise RuleViolation("rule/round_in_progress", f"round {number} is not over", "F.3")


def winner(
    swiss: int,
    rounds: Sequence[Mapping[str, Any]],
    results: Sequence[Mapping[str, Any]],
    rows: Sequence[ranking.Standing],
) -> str | None:
    """Who won a finished event: its top cut's final (its winner, the higher seed after a
    drawn match, or the one player its last round gave a bye), else the first of the
    standings after the Swiss rounds ``rows`` (their tiebreakers, docs/rules.md F.4).

    >>> winner(1, [{"round": 1, "pairings": [], "byes": []}], [], [])
    """
    if len(rounds) > swiss:  # a top cut was played: its last round is the final
        final = rounds[-1]
        if final["pairings"]:
            return _winner(int(final["round"]), final["pairings"][0], results)
        return str(final["byes"][0]) if final["byes"] else None
    return rows[0].player if rows else None


def seated(seats: Mapping[str, str]) -> list[str]:
    """A pairing's players in seat order (A, B, ...)."""
    return [str(seats[seat]) for seat in sorted(seats)]


def _byes(bye: str | None) -> list[str]:
    return [] if bye is None else [bye]


def _pairs_of(players: Sequence[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
