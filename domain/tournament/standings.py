"""An event's standings (issue #27): match points and the Magic Tournament Rules' tiebreakers for
two-player (CCG) events, points by finishing place for classic tables of 3 to 6.

Pure functions over frozen inputs: :class:`Match` (a two-player match, bo1 or bo3),
:class:`Bye` and :class:`Table` (a classic game's finishing places). The arithmetic is exact
(:class:`~fractions.Fraction`); the API turns the fractions into numbers.

**Two-player events** follow the Magic: The Gathering Tournament Rules (MTR), Appendix C
*Tiebreaker Explanation* and 3.1 *Tiebreakers*. The points and match-win paragraphs were read in
the annotated MTR (blogs.magicjudges.org/rules/mtr-appendix-c/, mtr3-1/, mtr2-1/); the game-win,
opponents' and byes sentences as quoted from the May 2023 and February 2026 editions in public
code and notes; the Wizards PDF itself was not read:

* match points, C: "Players earn 3 match points for each match win, 0 points for each match loss
  and 1 match point for each match ending in a draw. Players receiving byes are considered to
  have won the match." Who won a match is MTR 2.1's: the player with more game wins; "If both
  players have equal game wins, the match is a draw" (1-1-1, 0-0-1, or 0-0 at time);
* game points, C: 3 a game won, 1 a game drawn, 0 a game lost; "Unfinished games are considered
  draws. Unplayed games are worth 0 points.";
* match-win percentage, C: "accumulated match points divided by the total match points possible
  in those rounds (generally, 3 times the number of rounds played). If this number is lower than
  0.33, use 0.33 instead." The floor is the text's 0.33 (:data:`FLOOR`, 33/100), not 1/3: a
  0-3 opponent counts 33/100. Rounds played are the rounds the inputs show, byes included: a
  player who dropped is over the rounds they played (C's own example: "3-2-0, including a
  first-round bye, then withdraws", 9/(5*3) = 0.60), and nothing else about a drop is needed;
* game-win percentage, C: game points over 3 times the games played; "Again, use 0.33 if the
  actual game-win percentage is lower than that.";
* byes, C: "they are considered to have won the match 2-0. Thus, that player earns 3 match points
  and 6 game points. A player's byes are ignored when computing their opponents' match-win and
  opponents' game-win percentages." A bye is a round played and two games won, and no opponent;
* opponents' match-win percentage, C: "the average match-win percentage of each opponent that
  player faced (ignoring those rounds for which the player received a bye)", each already
  floored; opponents' game-win percentage likewise. One entry per match: an opponent met twice
  counts twice. A player with no opponent at all (only byes, or no round yet) gets :data:`FLOOR`
  for both: the MTR says nothing for that case, and the floor is the least an opponent counts;
* order, 3.1: match points, then opponents' match-win %, game-win %, opponents' game-win %. The
  MTR names nothing after those four; munchlog breaks what is left by a caller-supplied order
  (``order``: e.g. a draw the organizer committed to) or else by the player's name, so the same
  inputs always give the same standings. Ranks are 1 to n in that order: players equal on every
  tiebreaker get consecutive ranks, not a shared one. (3.1 adds that "Not all of these
  tiebreakers may be used in formats with single-game matches"; issue #27 asks for all four, bo1
  too.)

**Classic events** (:func:`table_standings`) score each table by finishing place
(:func:`table_points`): 3 for first, 2 for second, 1 for third, 0 below. No points-by-place table
from Steve Jackson Games was found (the official Munchkin tournament pages found cover eligibility
and conduct; the convention events found advance each table's winner). The table is a store's
published multiplayer one, Howayte's *Commander Tournaments Structure & Point System*
(howayte.com/blogs/news/commander-tournaments-structure-point-system): pods of 4 score 3, 2, 1, 0
and pods of 3 score 3, 2, 1, which is this function for both; below third at tables of 5 and 6 is
munchlog's extension. A shared place (places are competition ranks: two winners are both 1, the
next is 3) gives each the points of that place, as the Halesowen Board Gamers' expo tournaments
do ("Joint Winner 3, Joint second 1.5"; Howayte instead splits the places' points and rounds up):
points stay whole and a co-winner is a winner. The table favours small tables (on average 6/n
points a seat: 2 at 3, 1.5 at 4, 1.2 at 5); pairing seats 4 and uses 3 or 5 only where the count
needs it.

The columns mean, for classic: ``wins`` the tables won (first place, shared or not), ``losses``
the tables not won, ``draws`` 0; and the percentages are the MTR's, each seat read as a match:

* the points percentage (the match-win % analogue): points over 3 times the tables played (3 is
  a table's most), floored at :data:`FLOOR`; ``omw`` averages it over the table-mates, one entry
  per table-mate per table;
* ``gw``, the head-to-head percentage: each table-mate is one game, won (3) when the player
  finished ahead of them, drawn (1) when on the same place, lost (0) behind; over 3 times the
  table-mates, floored. It counts what the place alone does not (second of five beats three
  players, second of three one), and a seat's average is one half at any table size (no shared
  place aside); ``ogw`` averages it over the table-mates.

>>> rows = standings(["Ann", "Bob", "Cy"], [Match(1, ("Ann", "Bob"), (2, 1))], [Bye(1, "Cy")])
>>> [(s.rank, s.player, s.points, str(s.omw), str(s.gw)) for s in rows]
[(1, 'Cy', 3, '33/100', '1'), (2, 'Ann', 3, '33/100', '2/3'), (3, 'Bob', 0, '1', '1/3')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

#: The least a match-win or game-win percentage counts: MTR Appendix C's "0.33", exactly.
FLOOR = Fraction(33, 100)
#: Match points (and game points) for a win and a draw; a loss scores 0 (MTR Appendix C).
WIN, DRAW = 3, 1
#: The games a bye counts as won: "considered to have won the match 2-0" (MTR Appendix C).
BYE_GAMES = 2
#: A classic table's points for first, second and third place; any lower place scores 0.
TABLE_POINTS = (3, 2, 1)
#: The seats a classic table may have (issue #27: tables of 3 to 6).
TABLE_SIZES = range(3, 7)


# ----------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Match:
    """A two-player match of ``round``: ``games`` the games each of ``players`` won, in the same
    order, and ``drawn_games`` the games drawn (an unfinished game is a draw). The player with
    more game wins won the match; equal game wins are a drawn match (MTR 2.1), which is also how
    a match unfinished at time with no game played is reported (0-0-0)."""

    round: int
    players: tuple[str, str]
    games: tuple[int, int]
    drawn_games: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))  # a list from JSON compares
        object.__setattr__(self, "games", tuple(self.games))  # unequal to the same tuple
        if self.round < 1:
            raise ValueError(f"a round is numbered from 1, not {self.round}")
        if len(self.players) != 2 or self.players[0] == self.players[1]:
            raise ValueError(f"a match is between two different players, not {self.players}")
        if len(self.games) != 2 or min(self.games) < 0 or self.drawn_games < 0:
            raise ValueError(f"game counts are two whole numbers of 0 or more: {self.games}")

    @property
    def winner(self) -> str | None:
        """The player who won the match, ``None`` for a drawn match.

        >>> Match(1, ("A", "B"), (1, 2)).winner, Match(1, ("A", "B"), (1, 1), 1).winner
        ('B', None)
        """
        first, second = self.games
        if first == second:
            return None
        return self.players[0] if first > second else self.players[1]


@dataclass(frozen=True)
class Bye:
    """``player`` had the bye of ``round``: a match won 2-0, and no opponent (MTR Appendix C)."""

    round: int
    player: str

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError(f"a round is numbered from 1, not {self.round}")


@dataclass(frozen=True)
class Table:
    """A classic game of ``round``: each seated player's finishing ``place``, 1 for the winner.
    Places are competition ranks: players on the same place share it and the places they take
    are skipped (two winners are both 1, the next is 3), so a place is always one more than the
    number of players who finished ahead. A table seats 3 to 6 (:data:`TABLE_SIZES`)."""

    round: int
    places: Mapping[str, int]

    def __post_init__(self) -> None:
        places = MappingProxyType(dict(self.places))
        object.__setattr__(self, "places", places)
        if self.round < 1:
            raise ValueError(f"a round is numbered from 1, not {self.round}")
        if len(places) not in TABLE_SIZES:
            raise ValueError(f"a table seats 3 to 6 players, not {len(places)}")
        for player, place in places.items():
            ahead = sum(1 for other in places.values() if other < place)
            if place != ahead + 1:
                raise ValueError(
                    f"{player!r} is placed {place} with {ahead} ahead: places are competition "
                    "ranks (1, 1, 3, ...)"
                )


# ----------------------------------------------------------------------------- outputs


@dataclass(frozen=True)
class Record:
    """What a player's rounds add up to, before any tiebreaker. Two-player events: ``points``
    the match points, ``rounds`` the rounds played (byes included), ``game_points`` and
    ``games`` the games' points and count (a bye: 6 and 2), ``opponents`` one name a match, in
    round order (a bye adds none). Classic events: ``points`` the table points, ``rounds`` the
    tables, and each table-mate is a game and an opponent (the module docstring)."""

    points: int
    rounds: int
    game_points: int
    games: int
    wins: int
    losses: int
    draws: int
    opponents: tuple[str, ...]

    @property
    def mw(self) -> Fraction:
        """The match-win percentage (classic: the points percentage), floored."""
        return percentage(self.points, WIN * self.rounds)

    @property
    def gw(self) -> Fraction:
        """The game-win percentage (classic: the head-to-head percentage), floored."""
        return percentage(self.game_points, WIN * self.games)


@dataclass(frozen=True)
class Standing:
    """One row of the standings: ``rank`` from 1, the record's ``points``, ``wins``, ``losses``
    and ``draws``, and the tiebreakers ``omw`` (opponents' match-win %), ``gw`` (game-win %) and
    ``ogw`` (opponents' game-win %), each a fraction from :data:`FLOOR` to 1."""

    rank: int
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    omw: Fraction
    gw: Fraction
    ogw: Fraction


# ----------------------------------------------------------------------------- arithmetic


def percentage(points: int, possible: int) -> Fraction:
    """``points`` over ``possible``, never below :data:`FLOOR`; :data:`FLOOR` when nothing was
    possible (no round, no game: the MTR does not say, and the floor is what it uses for the
    least).

    >>> percentage(16, 24), percentage(3, 12), percentage(0, 0)
    (Fraction(2, 3), Fraction(33, 100), Fraction(33, 100))
    """
    if possible == 0:
        return FLOOR
    return max(Fraction(points, possible), FLOOR)


def table_points(place: int) -> int:
    """A classic table's points for finishing ``place`` (:data:`TABLE_POINTS`, 0 below third).

    >>> [table_points(place) for place in range(1, 7)]
    [3, 2, 1, 0, 0, 0]
    """
    return TABLE_POINTS[place - 1] if place <= len(TABLE_POINTS) else 0


@dataclass
class _Tally:
    """A :class:`Record` being added up."""

    points: int = 0
    rounds: int = 0
    game_points: int = 0
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    met: list[tuple[int, str]] = field(default_factory=list)

    def record(self) -> Record:
        opponents = tuple(name for _, name in sorted(self.met))
        return Record(
            self.points,
            self.rounds,
            self.game_points,
            self.games,
            self.wins,
            self.losses,
            self.draws,
            opponents,
        )


class _Rounds:
    """The roster's tallies, refusing an unknown player or one seated twice in a round."""

    def __init__(self, players: Sequence[str]) -> None:
        if len(set(players)) != len(players):
            raise ValueError("a player is listed twice")
        self.tallies = {player: _Tally() for player in players}
        self.seated: set[tuple[int, str]] = set()

    def seat(self, round_: int, player: str) -> _Tally:
        if player not in self.tallies:
            raise ValueError(f"{player!r} is not one of the event's players")
        if (round_, player) in self.seated:
            raise ValueError(f"{player!r} is seated twice in round {round_}")
        self.seated.add((round_, player))
        tally = self.tallies[player]
        tally.rounds += 1
        return tally

    def records(self) -> dict[str, Record]:
        return {player: tally.record() for player, tally in self.tallies.items()}


def records(
    players: Sequence[str], matches: Iterable[Match], byes: Iterable[Bye]
) -> dict[str, Record]:
    """Each of ``players``' :class:`Record` in a two-player event (MTR Appendix C's points).

    Raises ``ValueError`` for a player not in ``players``, a name listed twice, or a player in
    two matches (or a match and a bye) of the same round.
    """
    event = _Rounds(players)
    for match in matches:
        (first, second), (won, lost) = match.players, match.games
        for me, them, mine, theirs in ((first, second, won, lost), (second, first, lost, won)):
            tally = event.seat(match.round, me)
            tally.game_points += WIN * mine + DRAW * match.drawn_games
            tally.games += mine + theirs + match.drawn_games
            tally.met.append((match.round, them))
            if mine > theirs:
                tally.wins += 1
                tally.points += WIN
            elif mine < theirs:
                tally.losses += 1
            else:
                tally.draws += 1
                tally.points += DRAW
    for bye in byes:
        tally = event.seat(bye.round, bye.player)
        tally.wins += 1
        tally.points += WIN
        tally.game_points += WIN * BYE_GAMES
        tally.games += BYE_GAMES
    return event.records()


def table_records(players: Sequence[str], tables: Iterable[Table]) -> dict[str, Record]:
    """Each of ``players``' :class:`Record` in a classic event: :func:`table_points` by place,
    and a game against each table-mate (won ahead of them, drawn on their place, lost behind).

    Raises ``ValueError`` as :func:`records` does.
    """
    event = _Rounds(players)
    for table in tables:
        for player, place in table.places.items():
            tally = event.seat(table.round, player)
            tally.points += table_points(place)
            if place == 1:
                tally.wins += 1
            else:
                tally.losses += 1
            for other, theirs in table.places.items():
                if other == player:
                    continue
                tally.games += 1
                tally.met.append((table.round, other))
                if place < theirs:
                    tally.game_points += WIN
                elif place == theirs:
                    tally.game_points += DRAW
    return event.records()


# ----------------------------------------------------------------------------- standings


def standings(
    players: Sequence[str],
    matches: Iterable[Match],
    byes: Iterable[Bye],
    *,
    order: Sequence[str] | None = None,
) -> list[Standing]:
    """The standings of a two-player event: every one of ``players``, best first, by match
    points, opponents' match-win %, game-win % and opponents' game-win % (MTR 3.1), then
    ``order`` (every player once; by default the name). A dropped player stays, with the rounds
    they played. Raises ``ValueError`` as :func:`records` does, or for an ``order`` that is not
    the players."""
    return ranked(records(players, matches, byes), order=order)


def table_standings(
    players: Sequence[str], tables: Iterable[Table], *, order: Sequence[str] | None = None
) -> list[Standing]:
    """The standings of a classic event: by table points, then the classic analogues of the
    MTR's tiebreakers (the module docstring), then ``order`` as :func:`standings`."""
    return ranked(table_records(players, tables), order=order)


def ranked(table: Mapping[str, Record], *, order: Sequence[str] | None = None) -> list[Standing]:
    """``table``'s players ranked: points, ``omw``, ``gw``, ``ogw`` (higher first), then
    ``order``'s position or else the name. Each opponent's percentages are already floored
    before they are averaged; a player with no opponent averages :data:`FLOOR`."""
    if order is not None and (len(order) != len(table) or set(order) != set(table)):
        raise ValueError("order must list every player once")
    position = {name: index for index, name in enumerate(order)} if order is not None else None
    mw = {player: record.mw for player, record in table.items()}
    gw = {player: record.gw for player, record in table.items()}

    def average(values: Sequence[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else FLOOR

    rows = []
    for player, record in table.items():
        omw = average([mw[opponent] for opponent in record.opponents])
        ogw = average([gw[opponent] for opponent in record.opponents])
        last: int | str = position[player] if position is not None else player
        rows.append(((-record.points, -omw, -gw[player], -ogw, last), player, record, omw, ogw))
    rows.sort(key=lambda row: row[0])
    return [
        Standing(
            rank=rank,
            player=player,
            points=record.points,
            wins=record.wins,
            losses=record.losses,
            draws=record.draws,
            omw=omw,
            gw=gw[player],
            ogw=ogw,
        )
        for rank, (_, player, record, omw, ogw) in enumerate(rows, 1)
    ]
