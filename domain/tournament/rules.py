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
        winner = str(game.get("winner"))
        if winner in seats:
            wins[seats[winner]] += 1
        else:
            drawn += 1
    return wins, drawn, True


def match_decided(match: str, wins: Mapping[str, int], drawn: int, played: int) -> bool:
    """Whether a match is over: a player has the games it needs, or (bo3) three games were
    played, or (bo1) its one game is over."""
    need = match_games(match)
    return (
        any(w >= need for w in wins.values())
        or played >= (2 * need - 1)
        or (need == 1 and played >= 1 and drawn == played)
    )


def pairing_result(
    settings: Mapping[str, Any],
    pairing: Mapping[str, Any],
    games: Sequence[Mapping[str, Any]],
    last_state: Mapping[str, Any] | None,
) -> dict[str, Any] | None:
    """The result of one pairing (docs/rules.md F.3), ``None`` while it is undecided: its
    reported result (``{games, drawn_games}``) if a judge or the organizer gave one; a classic
    table's places (``{places}``) from its game's final state (``last_state``); else a
    two-player match's from its games' summaries in order (``status``, ``winner``: a seat)."""
    seats = pairing["seats"]
    if "reported" in pairing:
        reported = pairing["reported"]
        return {"games": dict(reported["games"]), "drawn_games": int(reported["drawn_games"])}
    if is_table_game(str(settings["ruleset"])):
        if last_state is None or last_state.get("status") != "finished":
            return None
        return {"places": {seats[s]: n for s, n in table_places(last_state).items()}}
    wins, drawn, finished = two_player_score(seats, games)
    if finished and match_decided(str(settings["match"]), wins, drawn, len(games)):
        return {"games": wins, "drawn_games": drawn}
    return None


def table_places(state: Mapping[str, Any]) -> dict[str, int]:
    """Each seat's finishing place at a finished classic table (docs/rules.md F.3): the
    winners 1st; then the others by level, highest first, those who conceded or were
    eliminated after everyone still in; equals share a place (1, 2, 2, 4)."""
    seats = state["seats"]
    winners = set(state.get("winners") or [])

    def key(seat: str) -> tuple[int, int, int]:
        info = seats[seat]
        return (
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
