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
from domain.ccg.cards import check_deck
from domain.classic import CLASSIC
from domain.classic.cards import sample_catalog
from domain.errors import InvalidCommand, RuleViolation
from domain.tournament import standings as ranking

#: The rulesets a tournament may run, and whether their games seat two players (the CCG) or a
#: table of 3 to 6 (classic Munchkin).
TWO_PLAYER = ("munchkin-ccg",)
TABLE_RULESETS = tuple(CLASSIC)
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


def is_table_game(ruleset: str) -> bool:
    return ruleset in TABLE_RULESETS


def settings_of(body: Mapping[str, Any]) -> dict[str, Any]:
    """The stored settings of a new tournament from ``POST /api/events``'s body (its shapes
    already checked), with the defaults filled in; :class:`InvalidCommand` for a combination
    the rules do not allow (docs/rules.md F.1)."""
    ruleset = str(body["ruleset"])
    if ruleset not in TWO_PLAYER + TABLE_RULESETS:
        raise InvalidCommand(
            "request/unknown_ruleset",
            f"no tournament for ruleset {ruleset!r}",
            {"ruleset": [ruleset]},
        )
    table = is_table_game(ruleset)
    match = str(body.get("match", "bo1"))
    if table and match != "bo1":
        raise InvalidCommand(
            "request/invalid_match",
            "a classic Munchkin table plays one game a round (bo1)",
            {"match": ["bo1 for classic rulesets"]},
        )
    size = body.get("table_size")
    if size is not None and not table:
        raise InvalidCommand(
            "request/invalid_table_size",
            "table_size is for classic Munchkin events (the CCG seats two)",
            {"table_size": ["classic rulesets only"]},
        )
    top_cut = int(body.get("top_cut", 0))
    if table and top_cut:
        raise InvalidCommand(
            "request/invalid_top_cut",
            "a top cut is single elimination between two players: CCG events only",
            {"top_cut": ["0 for classic rulesets"]},
        )
    return {
        "name": str(body["name"]),
        "ruleset": ruleset,
        "format": str(body["format"]),
        "match": match,
        "round_minutes": int(body["round_minutes"]),
        "rounds": body.get("rounds"),
        "top_cut": top_cut,
        "table_size": (int(size) if size is not None else DEFAULT_TABLE_SIZE) if table else None,
        "spectator_delay": dict(body["spectator_delay"]) if body.get("spectator_delay") else None,
        "dealing": str(body.get("dealing", "server")),
        "mode": str(body.get("mode", "strict")),
        **({"doors": list(body["doors"])} if body.get("doors") else {}),
        **({"treasures": list(body["treasures"])} if body.get("treasures") else {}),
    }


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
    a classic table's three."""
    return 3 if is_table_game(ruleset) else 2


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


def check_decklist(fmt: str, hero: Mapping[str, Any], cards: Sequence[Mapping[str, Any]]) -> None:
    """A CCG player's hero and list (card definitions) against the event's format, as a
    game's deck is checked (docs/rules.md A.6): :class:`RuleViolation` otherwise."""
    check_deck(fmt, hero, cards)


def sample_decks(ruleset: str) -> dict[str, list[dict[str, Any]]]:
    """A classic event's decks by default: three copies of each card of the set's sample
    catalog, as ``doors`` and ``treasures`` (a classic game's creation body)."""
    decks: dict[str, list[dict[str, Any]]] = {"doors": [], "treasures": []}
    for name, card in sorted(sample_catalog(ruleset).items()):
        decks["doors" if card["deck"] == "door" else "treasures"].append({"name": name, "count": 3})
    return decks


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
    reported result (``{games, drawn_games}``) if a judge or the organizer gave one; a classic
    table's places (``{places}``) from its game's final state (``last_state``), a seat given a
    match loss or a disqualification while the game was played last (``games``' last entry's
    ``ends_match``); else a two-player match's from its games in order (``status``, ``winner``:
    a seat; ``ends_match``: :func:`lost_by_penalty`), a match lost by a penalty recorded as
    lost without a game won, the opponent having the games the match is won with (0-2 in a
    best-of-three, 0-1 in a best-of-one)."""
    seats = pairing["seats"]
    if "reported" in pairing:
        reported = pairing["reported"]
        return {"games": dict(reported["games"]), "drawn_games": int(reported["drawn_games"])}
    if is_table_game(str(settings["ruleset"])):
        if last_state is None or last_state.get("status") != "finished":
            return None
        last = games[-1] if games else {}
        out = {str(r["seat"]) for r in last.get("ends_match") or () if _live(r, last)}
        return {"places": {seats[s]: n for s, n in table_places(last_state, out).items()}}
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
    return all(g.get("status") == "finished" for g in games) and (
        pairing_result(settings, pairing, games, None) is None
    )


def table_places(state: Mapping[str, Any], last: Iterable[str] = ()) -> dict[str, int]:
    """Each seat's finishing place at a finished classic table (docs/rules.md F.3): the
    winners 1st; then the others by level, highest first, those who conceded or were
    eliminated after everyone still in; equals share a place (1, 2, 2, 4). The seats in
    ``last`` (a match loss or a disqualification in the game, F.5) come after everyone else
    and share the last place, whatever their level."""
    seats = state["seats"]
    winners = set(state.get("winners") or [])
    penalised = set(last)

    def key(seat: str) -> tuple[int, int, int, int]:
        if seat in penalised:
            return (1, 0, 0, 0)
        info = seats[seat]
        return (
            0,
            0 if seat in winners else 1,
            1 if info.get("eliminated") else 0,
            -int(info["level"]),
        )

    order = sorted(seats, key=key)
    places: dict[str, int] = {}
    for index, seat in enumerate(order):
        before = order[index - 1] if index else None
        places[seat] = (
            places[before] if before is not None and key(before) == key(seat) else index + 1
        )
    return places


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
