"""A tournament's rules that are not pairing or standings (docs/rules.md F): its settings,
decklists and their public hash, round 1's committed randomness, the seat tokens derived for
its games, and each match's result read from its games.

Pure: secrets, salts and the clock come in as arguments.

>>> canonical_decklist([{"name": "b", "count": 2}, {"name": "a"}, {"name": "b"}])
[['a', 1], ['b', 3]]
>>> decklist_hash(bytes(16), [["a", 1]]) == decklist_hash(bytes(16), [["a", 1]])
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain import dealing
from domain.errors import InvalidCommand, RuleViolation
from domain.family import EventEntry, Family, families, family_named
from domain.ruleset import RULESETS
from domain.tournament import checkin, clock
from domain.tournament import standings as ranking

MATCHES = ("bo1", "bo3")
TOP_CUTS = (0, 4, 8)
#: The sizes a top cut can be played at, largest first (single elimination without byes).
CUT_SIZES = (8, 4, 2)
#: A top cut's first round by seed: 1 v 8, 4 v 5, 2 v 7, 3 v 6 (the winners meet in this order).
CUT_SEEDING = {2: (1, 2), 4: (1, 4, 2, 3), 8: (1, 8, 4, 5, 2, 7, 3, 6)}
DEFAULT_TABLE_SIZE = 4
#: Swiss rounds by default (the MTR's Appendix E table, for two-player events): enough rounds
#: for one undefeated player.
_SWISS_ROUNDS = ((8, 3), (16, 4), (32, 5), (64, 6), (128, 7), (226, 8), (409, 9))
PAIRING_SCHEME = "munchlog-pairing-v1"


def event_rulesets() -> tuple[str, ...]:
    """The rulesets an event may run: every registered one, in registration order."""
    return tuple(RULESETS)


def table_rulesets() -> tuple[str, ...]:
    """The registered rulesets whose events seat tables (``Family.plays_tables``)."""
    return tuple(name for name, family in families().items() if family.plays_tables)


def is_table_game(ruleset: str) -> bool:
    """Whether ``ruleset``'s events seat tables of three or more (``Family.plays_tables``)."""
    return family_named(ruleset).plays_tables


def _seat_range(family: Family) -> tuple[int, int]:
    return int(getattr(family, "min_seats", 2)), int(getattr(family, "max_seats", 2))


def table_seats(ruleset: str) -> tuple[int, int]:
    """The fewest and most players at one of ``ruleset``'s tables (its family's seats)."""
    return _seat_range(family_named(ruleset))


def settings_of(body: Mapping[str, Any]) -> dict[str, Any]:
    """The stored settings of a new tournament from ``POST /api/events``'s body (its shapes
    already checked), with the defaults filled in; :class:`InvalidCommand` for a combination
    the rules do not allow (docs/rules.md F.1)."""
    ruleset = str(body["ruleset"])
    if ruleset not in RULESETS:
        raise InvalidCommand(
            "request/unknown_ruleset",
            f"no tournament for ruleset {ruleset!r}",
            {"ruleset": [ruleset]},
        )
    family = family_named(ruleset)
    table = family.plays_tables
    match = str(body.get("match", "bo1"))
    if table and match != "bo1":
        raise InvalidCommand(
            "request/invalid_match",
            f"a {ruleset} table plays one game a round (bo1)",
            {"match": [f"bo1 for {ruleset}"]},
        )
    size = body.get("table_size")
    fewest, most = _seat_range(family)
    if size is not None and not table:
        raise InvalidCommand(
            "request/invalid_table_size",
            f"table_size is for events that seat tables ({ruleset} seats two)",
            {"table_size": [f"not for {ruleset}"]},
        )
    if size is not None and not fewest <= int(size) <= most:
        raise InvalidCommand(
            "request/invalid_table_size",
            f"a {ruleset} table seats {fewest} to {most} players, not {size}",
            {"table_size": [f"{fewest} to {most}"]},
        )
    top_cut = int(body.get("top_cut", 0))
    if table and top_cut:
        raise InvalidCommand(
            "request/invalid_top_cut",
            "a top cut is single elimination between two players: not for tables",
            {"top_cut": [f"0 for {ruleset}"]},
        )
    if size is None and table:
        size = min(max(DEFAULT_TABLE_SIZE, fewest), most)
    settings = {
        "name": str(body["name"]),
        "ruleset": ruleset,
        "format": str(body["format"]),
        "match": match,
        "round_minutes": int(body["round_minutes"]),
        "rounds": body.get("rounds"),
        "top_cut": top_cut,
        "table_size": int(size) if table and size is not None else None,
        "spectator_delay": dict(body["spectator_delay"]) if body.get("spectator_delay") else None,
        "dealing": str(body.get("dealing", "server")),
        "mode": str(body.get("mode", "strict")),
        "results": str(body.get("results", "games")),
        "check_in": checkin.options(body),
    }
    settings.update(clock.time_options(body, tables=table))  # the end of round (F.6)
    extra = [f for f in body if f not in settings and body[f] is not None]  # the tables' cards
    for field in (f for f in extra if f not in family.event_card_fields):
        raise InvalidCommand(
            "request/no_decks_here",
            f"{field} is not for {ruleset} events (its players bring their cards)",
            {field: [f"not for {ruleset}"]},
        )
    settings.update({f: list(body[f]) for f in family.event_card_fields if body.get(f)})
    return settings


def swiss_rounds(players: int) -> int:
    """The number of Swiss rounds when the event did not set ``rounds``: the MTR's table from
    5 players up; below, as many as one undefeated player needs (4 players 2, 2 players 1)."""
    if players <= 4:
        return max(1, (players - 1).bit_length())
    for most, rounds in _SWISS_ROUNDS:
        if players <= most:
            return rounds
    return 10


def cut_size(top_cut: int, active: int) -> int:
    """The top cut an event plays (docs/rules.md F.4): ``top_cut`` when ``active`` players are
    left to fill it, else the largest of 8, 4 and 2 that they fill, and none (0) below two.

    >>> cut_size(8, 9), cut_size(8, 7), cut_size(4, 3), cut_size(4, 1), cut_size(0, 9)
    (8, 4, 2, 0, 0)
    """
    if not top_cut:
        return 0
    return next((size for size in CUT_SIZES if size <= min(top_cut, active)), 0)


def seats_needed(ruleset: str) -> int:
    """The fewest active players a round is paired for (docs/rules.md F.2): a game's two seats,
    a table's fewest (a classic table's three)."""
    return _seat_range(family_named(ruleset))[0] if is_table_game(ruleset) else 2


def swiss_stopped(paired: int, swiss: int, active: int, seats: int) -> bool:
    """Whether an event's Swiss rounds stop at round ``paired`` of ``swiss`` (docs/rules.md
    F.2): a round was paired, it is not the last Swiss round, and fewer ``active`` players are
    left than a round needs (``seats``, :func:`seats_needed`). No round follows it (nor a top
    cut): the event is finished on the standings as they are once that round is complete.

    >>> swiss_stopped(1, 3, 1, 2), swiss_stopped(2, 3, 2, 3), swiss_stopped(1, 3, 2, 2)
    (True, True, False)
    >>> swiss_stopped(3, 3, 1, 2), swiss_stopped(0, 3, 1, 2)  # the last round; none paired
    (False, False)
    """
    return 0 < paired < swiss and active < seats


def cut_rounds(size: int) -> int:
    """The rounds of a top cut of ``size`` (8: 3, 4: 2, 2: 1, none: 0)."""
    return max(size.bit_length() - 1, 0)


# ------------------------------------------------------------------------------- decklists


def canonical_decklist(entries: Iterable[Mapping[str, Any]]) -> list[list[Any]]:
    """A decklist as ``[[name, count], ...]`` sorted by name, each name once: the form its
    hash is taken over, whatever order or grouping the list was given in."""
    counts: dict[str, int] = {}
    for entry in entries:
        name = str(entry["name"])
        counts[name] = counts.get(name, 0) + int(entry.get("count", 1))
    return [[name, counts[name]] for name in sorted(counts)]


def decklist_hash(salt: bytes, canonical: Sequence[Sequence[Any]], hero: str | None = None) -> str:
    """The public fingerprint of a registered list: lowercase hex of ``SHA-256(salt || JSON)``
    over the hero's name and the canonical list. Salted, because an unsalted hash of a popular
    list could be looked up; the salt is shown with the list to those who may see the list, so
    they can check the hash."""
    body = json.dumps({"hero": hero, "deck": [list(e) for e in canonical]}, separators=(",", ":"))
    return hashlib.sha256(salt + body.encode("utf-8")).hexdigest()


def registered(entry: EventEntry | None, salt: bytes) -> dict[str, Any]:
    """What ``Tournament.Registered`` stores of a player's entry (``Family.event_entry``):
    its ``hero`` as given with the list's ``salt``, the canonical ``decklist`` as ``{name,
    count}`` and its public ``decklist_hash``; all ``None`` for a family without entries."""
    if entry is None:
        return {"hero": None, "decklist": None, "decklist_hash": None}
    canonical = canonical_decklist(entry.cards)
    return {
        "hero": {**dict(entry.hero), "salt": salt.hex()},
        "decklist": [{"name": name, "count": count} for name, count in canonical],
        "decklist_hash": decklist_hash(salt, canonical, entry.hero_name),
    }


def game_seats(settings: Mapping[str, Any], seats: Mapping[str, Mapping[str, Any]]) -> list[Any]:
    """The ``seats`` of the creation body of an event's game: ``{seat: the player's row}``
    (``player`` its name) in seat order, each with what its player's entry brings and the
    cards the table plays with (``Family.entry_seat``, ``Family.event_seats``)."""
    family = family_named(settings["ruleset"])
    out = [
        {"seat": seat, "player": row["player"], **family.entry_seat(row)}
        for seat, row in seats.items()
    ]
    return family.event_seats(settings, out)


# ------------------------------------------------------------------------- randomness, tokens


def commitment(event_id: str, secret: bytes) -> str:
    """The commitment to round 1's secret published when the event opens: fair dealing's
    server commitment (docs/dealing.md) with the event's id for the game's."""
    return dealing.server_commitment(event_id, secret)


def round_one_key(event_id: str, secret: bytes) -> bytes:
    """The key round 1 is shuffled under: ``HMAC-SHA256(secret, "munchlog-pairing-v1|" ||
    event_id || "|round-1")``. Anyone can recompute it once round 1 reveals the secret."""
    message = f"{PAIRING_SCHEME}|{event_id}|round-1".encode()
    return hmac.new(secret, message, hashlib.sha256).digest()


def seat_token(token_key: bytes, game_id: str, seat: str, player_token_hash: str) -> str:
    """A player's token for one seat of one of the event's games, derived (never stored) from
    the event's token key, the game, the seat and the player's event token hash: the service
    can hand it to its player at any time and stores only its hash in the game's access."""
    message = f"{PAIRING_SCHEME}|seat|{game_id}|{seat}|{player_token_hash}".encode()
    return hmac.new(token_key, message, hashlib.sha256).hexdigest()


# ---------------------------------------------------------------------------- match results


def match_games(match: str) -> int:
    """Games a player must win to win the match."""
    return 2 if match == "bo3" else 1


def two_player_score(
    seats: Mapping[str, str], games: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, int], int, bool]:
    """``(game wins by player, drawn games, finished)`` of a two-player match from its games'
    summaries in order (``status``, ``winner``: a seat or ``None``). A finished game without a
    winner is a drawn game; ``finished`` is whether every game created is over."""
    wins = dict.fromkeys(seats.values(), 0)
    drawn = 0
    for game in games:
        if game.get("status") != "finished":
            return wins, drawn, False
        wins, drawn = _counted(seats, wins, drawn, game)
    return wins, drawn, True


def games_disagree(
    seats: Mapping[str, str], games: Sequence[Mapping[str, Any]], reported: Mapping[str, Any]
) -> str | None:
    """Why a two-player match's games disagree with its reported result (``None`` when they
    do not): a game still open, or a player who won more games than the result gives it (a
    drawn game, or one the result does not count, disagrees with nothing: issue #44).

    >>> seats = {"A": "ann", "B": "bob"}
    >>> games_disagree(seats, [{"status": "finished", "winner": "A"}], {"games": {"ann": 0}})
    'ann won 1 of its games, the result gives it 0'
    >>> games_disagree(seats, [{"status": "finished", "winner": None}], {"games": {"ann": 1}})
    """
    for number, game in enumerate(games, 1):
        if game.get("status") != "finished":
            return f"game {number} is still open"
    wins, _, _ = two_player_score(seats, games)
    for player, won in wins.items():
        given = int((reported.get("games") or {}).get(player, 0))
        if won > given:
            return f"{player} won {won} of its games, the result gives it {given}"
    return None


def _counted(
    seats: Mapping[str, str], wins: Mapping[str, int], drawn: int, game: Mapping[str, Any]
) -> tuple[dict[str, int], int]:
    """The game wins by player and the drawn games with a finished ``game`` counted: a game
    win for its winner's player, a drawn game when it has no winner (docs/rules.md F.3)."""
    after = dict(wins)
    winner = str(game.get("winner"))
    if winner in seats:
        after[seats[winner]] += 1
        return after, drawn
    return after, drawn + 1


def match_decided(match: str, wins: Mapping[str, int], drawn: int, played: int) -> bool:
    """Whether a match is over: a player has the games it needs, or (bo3) three games were
    played, or (bo1) its one game is over."""
    need = match_games(match)
    return (
        any(w >= need for w in wins.values())
        or played >= (2 * need - 1)
        or (need == 1 and played >= 1 and drawn == played)
    )


def _live(ruling: Mapping[str, Any], game: Mapping[str, Any]) -> bool:
    """Whether a ruling was given while its game was still being played (``live``, true
    unless said otherwise; a game not over yet cannot have been over before it)."""
    return bool(ruling.get("live", True)) or game.get("status") != "finished"


def lost_by_penalty(
    match: str, seats: Mapping[str, str], games: Sequence[Mapping[str, Any]]
) -> str | None:
    """The player of a two-player match who lost it by a match loss or a disqualification
    (docs/rules.md F.5), or ``None``. ``games`` are the match's games in order, each with its
    ``status`` and ``winner`` and its ``ends_match`` rulings in the order given (``{"seat",
    "penalty", "live"}``, ``live``: the game was not over yet when it was given). A ruling
    loses its player the match if the match was still undecided when it was given: by the
    games before its game, and by its game too when that was already over (IPG 1.1: a match
    already over is not changed; the guide applies the penalty to the next match, which the
    officials report). The first such ruling decides the match; later ones find it decided.

    >>> over = {"status": "finished", "winner": "A"}
    >>> ruled = {"status": "finished", "winner": "A",
    ...          "ends_match": [{"seat": "B", "penalty": "match_loss", "live": True}]}
    >>> lost_by_penalty("bo3", {"A": "ann", "B": "bob"}, [over, ruled])
    'bob'
    >>> late = {**over, "ends_match": [{"seat": "A", "penalty": "match_loss", "live": False}]}
    >>> lost_by_penalty("bo3", {"A": "ann", "B": "bob"}, [over, late]) is None
    True
    """
    wins = dict.fromkeys(seats.values(), 0)
    drawn = played = 0
    for game in games:
        over = game.get("status") == "finished"
        after, drawn_after = _counted(seats, wins, drawn, game) if over else (wins, drawn)
        for ruling in game.get("ends_match") or ():
            seat = str(ruling.get("seat"))
            if seat not in seats:
                continue
            if _live(ruling, game):
                decided = match_decided(match, wins, drawn, played)
            else:
                decided = match_decided(match, after, drawn_after, played + 1)
            if not decided:
                return seats[seat]
        if not over:
            return None
        wins, drawn, played = after, drawn_after, played + 1
    return None


def pairing_result(
    settings: Mapping[str, Any],
    pairing: Mapping[str, Any],
    games: Sequence[Mapping[str, Any]],
    last_state: Mapping[str, Any] | None,
) -> dict[str, Any] | None:
    """The result of one pairing (docs/rules.md F.3, F.5), ``None`` while it is undecided: its
    reported result (``{games, drawn_games}``) if a judge or the organizer gave one; a table's
    places (``{places}``, ``Family.places``) from its game's final state (``last_state``), a seat given a
    match loss or a disqualification while the game was played last (``games``' last entry's
    ``ends_match``); else a two-player match's from its games in order (``status``, ``winner``:
    a seat; ``ends_match``: :func:`lost_by_penalty`), a match lost by a penalty recorded as
    lost without a game won, the opponent having the games the match is won with (0-2 in a
    best-of-three, 0-1 in a best-of-one)."""
    seats = pairing["seats"]
    if "reported" in pairing:
        reported = pairing["reported"]
        if "places" in reported:
            return {"places": dict(reported["places"])}
        return {"games": dict(reported["games"]), "drawn_games": int(reported["drawn_games"])}
    if settings.get("results") == "reported":  # played on paper: only a report decides
        return None
    if is_table_game(str(settings["ruleset"])):
        if last_state is None or last_state.get("status") != "finished":
            return None
        last = games[-1] if games else {}
        out = {str(r["seat"]) for r in last.get("ends_match") or () if _live(r, last)}
        places = family_named(settings["ruleset"]).places(last_state, out)
        return {"places": {seats[s]: n for s, n in places.items()}}
    match = str(settings["match"])
    loser = lost_by_penalty(match, seats, games)
    if loser is not None:
        need = match_games(match)
        return {"games": {p: 0 if p == loser else need for p in seats.values()}, "drawn_games": 0}
    wins, drawn, finished = two_player_score(seats, games)
    if finished and match_decided(match, wins, drawn, len(games)):
        return {"games": wins, "drawn_games": drawn}
    return None


def next_game_due(
    settings: Mapping[str, Any], pairing: Mapping[str, Any], games: Sequence[Mapping[str, Any]]
) -> bool:
    """Whether a two-player match needs its next game (``my-game`` creates it): no result was
    reported, every game created is over, and neither they nor a penalty decided the match."""
    if is_table_game(str(settings["ruleset"])) or "reported" in pairing:
        return False
    if settings.get("results") == "reported":
        return False
    return all(g.get("status") == "finished" for g in games) and (
        pairing_result(settings, pairing, games, None) is None
    )


def check_report(result: Mapping[str, Any], seats: Mapping[str, str], match: str) -> dict[str, Any]:
    """A reported two-player result (``{"games": {player: wins}, "drawn_games": n}``) checked
    against the match: its players only, within what the match allows (F.3)."""
    games = result.get("games") or {}
    players = set(seats.values())
    if set(games) - players:
        raise InvalidCommand(
            "request/not_in_match",
            "the result names a player who is not in this match",
            {"games": sorted(set(games) - players)},
        )
    need = match_games(match)
    wins = {p: int(games.get(p, 0)) for p in sorted(players)}
    drawn = int(result.get("drawn_games", 0))
    # no more wins than the match is won with, and no more won games than it can have
    if any(w > need for w in wins.values()) or sum(wins.values()) > 2 * need - 1:
        raise RuleViolation(
            "rule/impossible_result",
            f"a {match} match is won with {need} game(s): {wins} cannot be its result",
            "F.3",
        )
    return {"games": wins, "drawn_games": drawn}


# ------------------------------------------------------------------------------ standings


def ranked(
    ruleset: str,
    players: Sequence[str],
    results: Iterable[Mapping[str, Any]],
    byes: Iterable[tuple[int, str]],
) -> list[ranking.Standing]:
    """The standings (``domain.tournament.standings``) of ``players`` from decided matches or
    tables as ``service.tournaments`` gives them (``{round, players, games, drawn_games}``, a
    classic table's ``{round, players, places}``) and the byes as ``(round, player)``; the
    caller keeps to the rounds that count (the Swiss ones)."""
    if is_table_game(ruleset):
        tables = [ranking.Table(round=int(r["round"]), places=r["places"]) for r in results]
        return ranking.table_standings(players, tables)
    matches = [
        ranking.Match(
            round=int(r["round"]),
            players=(r["players"][0], r["players"][1]),
            games=(int(r["games"][r["players"][0]]), int(r["games"][r["players"][1]])),
            drawn_games=int(r.get("drawn_games", 0)),
        )
        for r in results
    ]
    return ranking.standings(players, matches, [ranking.Bye(round=n, player=p) for n, p in byes])


def standing_row(row: ranking.Standing, dropped: bool) -> dict[str, Any]:
    """One row of ``GET /api/events/<id>/standings``: the fractions as floats."""
    return {
        "rank": row.rank,
        "player": row.player,
        "points": int(row.points),
        "wins": row.wins,
        "losses": row.losses,
        "draws": row.draws,
        "omw": float(row.omw),
        "gw": float(row.gw),
        "ogw": float(row.ogw),
        "dropped": dropped,
    }
