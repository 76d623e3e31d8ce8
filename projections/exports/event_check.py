"""Checking an event's export offline (``munchlog verify``; docs/events.md): the event and every
game in it, with nothing but the export and the rules.

:func:`check_event_export` reads the object ``GET /api/events/<id>/export?format=json`` gives
(``service.event_exports``) and checks, each finding one :class:`Problem` (one line):

* **games** -- every game of every pairing is in the export, placed where its labels say (the
  event, round and table), seating the pairing's players; a complete game export (the judge's)
  passes the game's own verification (:func:`projections.exports.verify.check_game_export`: the
  hash chain, every event replayed through its rules, the dealing). A seat's or a spectator's
  game export has no hashes: its chain is not checked, and the check says how many were not
  and whose export this is (``projections.exports.completeness``: only the judge's is
  complete);
* **round 1's draw** -- the revealed secret opens the commitment published when the event
  opened, round 1 seats exactly the players registered before it (and not dropped), and
  drawing them again under the key (``domain.tournament.rules.round_one_key``,
  ``domain.tournament.pairing.round_one``) gives the same tables and bye;
* **rounds** -- every later round (Swiss and the top cut, pairings and classic tables) drawn
  again from the export alone (:mod:`projections.exports.event_rounds`), the first round and
  table that differ named;
* **decklists** -- every list the export shows (to the organizer, the judges, its player)
  hashes, with its salt and hero, to the published ``decklist_hash``;
* **results** -- each result is what its games say (a best-of-three's games counted, a classic
  table's places from its game's final state, a match loss or a disqualification in a game
  losing its player the match: ``domain.tournament.rules.pairing_result``, the reading the
  service's results use), or what a judge or the organizer reported; a decided match has a
  result and an undecided one none;
* **standings** -- recomputed from the results (``domain.tournament.standings``: the MTR's
  Appendix C for two players, places for classic tables), row by row;
* **penalties** -- each is the ruling its game records at its version (a penalty of that kind
  to the seat of that player, on that dispute), in a game of the event's round and table; and
  every such ruling in the exported games is listed, as far as the export's viewer may see
  penalties (the judges and the organizer all, a player its own; a spectator none).

An export made with ``games=false`` (``games_left_out``) is checked without its games and its
results against them, and the check says so.

Problems are phrased for people: where (``round 2, table 1``), then what. Nothing here raises
for a damaged export but :class:`ExportFormatError` when the object is no event export at all:
a part that cannot be read is a problem of that part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain import State
from domain.family import result_updates
from domain.penalties import ENDS_MATCH, is_ruling
from domain.tournament import registrations, rules
from domain.tournament.pairing import round_one
from domain.tournament.rounds import swiss_rows
from projections.exports.completeness import ONLY_THE_JUDGES, event_view
from projections.exports.event_findings import EventCheck
from projections.exports.event_rounds import check_rounds
from projections.exports.event_rounds import names as _names
from projections.exports.event_rounds import result_text as _result_text
from projections.exports.formats import read_export
from projections.exports.verify import check_game_export
from projections.exports.walk import ExportFormatError, game_result

EVENT_FORMAT = "munchlog-event"
EVENT_FORMAT_VERSION = 1
#: The viewers a spectator delay holds back (``service.delay.DELAYED_VIEWERS``).
DELAYED_VIEWERS = ("spectator", "organizer")


@dataclass(frozen=True)
class GameFacts:
    """What the results need of one game: its result as its events give it (a seat, ``A+C``,
    ``draw`` or ``*``), its final state when its export is complete and sound, whom the
    export shows it to, and its rulings that lose a player the match (:func:`ending_rulings`)."""

    result: str
    state: State | None
    viewer: str
    ends_match: tuple[dict[str, Any], ...] = ()


def ending_rulings(records: Iterable[Mapping[str, Any]]) -> tuple[dict[str, Any], ...]:
    """A game's rulings whose penalty loses the player the match (a match loss or a
    disqualification, docs/rules.md F.5), in order, as ``domain.tournament.rules.
    lost_by_penalty`` reads them: ``{seat, penalty, live}``, ``live`` when the game's events
    before it had not ended it."""
    found: list[dict[str, Any]] = []
    result = "*"
    updates = result_updates()
    for record in records:
        event = record["event"]
        if (
            is_ruling(event)
            and event.get("penalty") in ENDS_MATCH
            and event.get("player") is not None
        ):
            found.append(
                {"seat": str(event["player"]), "penalty": event["penalty"], "live": result == "*"}
            )
        update = updates.get(str(event.get("type", "")))
        if update is not None:
            result = update(event)
    return tuple(found)


def is_event_export(obj: Any) -> bool:
    """Whether ``obj`` (parsed JSON) says it is an event export."""
    return isinstance(obj, Mapping) and obj.get("format") == EVENT_FORMAT


def check_event_export(obj: Mapping[str, Any]) -> EventCheck:
    """Check an event export (the module docstring); :class:`ExportFormatError` if ``obj`` is
    not one this version reads."""
    if not is_event_export(obj):
        raise ExportFormatError(f"not a {EVENT_FORMAT} export")
    if obj.get("format_version") != EVENT_FORMAT_VERSION:
        raise ExportFormatError(f"unsupported format_version {obj.get('format_version')!r}")
    check = EventCheck(str(obj.get("event_id")))
    facts: dict[str, GameFacts] = {}
    if obj.get("games_left_out") is True:
        check.notes.append(
            "this export leaves the games out (games=false): neither they nor the results "
            "against them were checked"
        )
    else:
        _part(check, "games", lambda: facts.update(_check_games(obj, check)))
    _part(check, "round 1's draw", lambda: _check_draw(obj, check))
    _part(check, "rounds", lambda: check_rounds(obj, check))
    _part(check, "decklists", lambda: _check_decklists(obj, check))
    if obj.get("games_left_out") is not True:
        _part(check, "results", lambda: _check_results(obj, facts, check))
        _part(check, "games and matches", lambda: _check_reported_games(obj, facts, check))
        _part(check, "deck check", lambda: _check_decks(obj, facts, check))
    _part(check, "standings", lambda: _check_standings(obj, check))
    _part(check, "penalties", lambda: _check_penalties(obj, check))
    return check


def _part(check: EventCheck, name: str, run: Callable[[], None]) -> None:
    """Run one part of the check; a part the export's shape does not let it read is one
    problem (a tampered or truncated export never stops the other parts)."""
    try:
        run()
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        check.problem(name, f"cannot be read from this export ({type(exc).__name__}: {exc})")


def _seated(seats: Mapping[str, str]) -> list[str]:
    """A pairing's players in seat order (A, B, ...)."""
    return [str(seats[s]) for s in sorted(seats)]


def _seats_text(seats: Mapping[str, Any]) -> str:
    return " ".join(f"{s}={seats[s]}" for s in sorted(seats))


# ---------------------------------------------------------------------------- games


def _check_games(obj: Mapping[str, Any], check: EventCheck) -> dict[str, GameFacts]:
    event_id = str(obj["event_id"])
    exported: dict[str, Mapping[str, Any]] = {}
    for game in obj["games"]:
        gid = str(game.get("game_id"))
        if gid in exported:
            check.problem(f"game {gid}", "is in the export twice")
        exported[gid] = game
    omitted = {str(o.get("game_id")): o for o in obj.get("omitted") or []}
    placed: dict[str, tuple[int, int, Mapping[str, str]]] = {}
    for round_ in obj["rounds"]:
        for pairing in round_["pairings"]:
            for gid in pairing["games"]:
                placed[str(gid)] = (int(round_["round"]), int(pairing["table"]), pairing["seats"])
    facts: dict[str, GameFacts] = {}
    verified, unchecked = 0, 0
    for gid, (number, table, seats) in placed.items():
        where = f"round {number}, table {table}, game {gid}"
        game = exported.get(gid)
        if game is None:
            left = omitted.get(gid)
            if left is not None:
                why = f"stored event {left.get('version')} is damaged: {left.get('reason')}"
                check.problem(where, f"left out of the export ({why})")
            else:
                check.problem(where, "is missing from the export")
            continue
        labels = game.get("labels") or {}
        said = (labels.get("event_id"), labels.get("round"), labels.get("table"))
        if said != (event_id, number, table):
            check.problem(
                where,
                f"its labels place it at event {said[0]}, round {said[1]}, table {said[2]}",
            )
        players = {str(s.get("seat")): s.get("player") for s in game.get("seats") or []}
        if players != dict(seats):
            check.problem(
                where,
                f"it seats {_seats_text(players)}, its pairing {_seats_text(seats)}",
            )
        report, state = check_game_export(game)
        broken = report.get("first_broken") or {}
        if report.get("error"):
            check.problem(where, f"not a game export: {report['error']}")
            continue
        if broken.get("reason") == "incomplete_export":
            unchecked += 1
        elif not report["ok"]:
            check.problem(
                where,
                f"fails its own verification: {broken.get('reason')} at event "
                f"{broken.get('version')}",
            )
        else:
            verified += 1
        _, records = read_export(game)
        result = game_result(records)
        if str(game.get("result")) != result:
            check.problem(where, f"its header says {game.get('result')!r}, its events {result!r}")
        facts[gid] = GameFacts(
            result=result,
            state=state,
            viewer=str(game.get("viewer")),
            ends_match=ending_rulings(records),
        )
    for gid in exported:
        if gid not in placed:
            check.problem(f"game {gid}", "is in no pairing of the event")
    if verified:
        check.checked.append(
            f"{verified} game(s) verified: hash chains, every event replayed, the dealing"
        )
    if unchecked:
        chains = "1 game's chain was" if unchecked == 1 else f"{unchecked} games' chains were"
        whose, _ = event_view(obj)
        check.notes.append(
            f"{chains} not checked: this is {whose} export, whose games carry no hashes; "
            f"{ONLY_THE_JUDGES}"
        )
    return facts


# ---------------------------------------------------------------------------- round 1


def _when(text: Any) -> datetime:
    return datetime.fromisoformat(str(text))


def _check_draw(obj: Mapping[str, Any], check: EventCheck) -> None:
    rounds = obj["rounds"]
    if not rounds:
        check.notes.append("no round is paired yet: round 1's draw is still to come")
        return
    event_id = str(obj["event_id"])
    revealed = obj.get("revealed_secret")
    if not revealed:
        check.problem("round 1", "is paired but its secret is not revealed")
        return
    secret = bytes.fromhex(str(revealed))
    if rules.commitment(event_id, secret) != obj["commitment"]:
        check.problem(
            "round 1's secret", "does not open the commitment published when the event opened"
        )
        return
    first = rounds[0]
    paired_at = _when(first["paired_at"])
    entrants = sorted(
        str(p["player"])
        for p in obj["players"]
        if p.get("dropped_after") != 0 and _when(p["registered_at"]) <= paired_at
    )
    seated = [p for pairing in first["pairings"] for p in _seated(pairing["seats"])]
    seated += [str(b) for b in first["byes"]]
    if sorted(seated) != entrants:
        extra = sorted(set(seated) - set(entrants))
        missing = sorted(set(entrants) - set(seated))
        check.problem(
            "round 1",
            f"does not seat the players registered before it (seated but not entered: "
            f"{_names(extra)}; entered but not seated: {_names(missing)})",
        )
    key = rules.round_one_key(event_id, secret)
    size = obj["settings"].get("table_size")
    tables: list[tuple[str, ...]]
    byes: list[str]
    if size is not None:
        tables, byes = [tuple(t) for t in round_one(entrants, key, int(size)).tables], []
    else:
        drawn = round_one(entrants, key)
        tables = [tuple(p) for p in drawn.pairs]
        byes = [drawn.bye] if drawn.bye is not None else []
    shown = {int(p["table"]): tuple(_seated(p["seats"])) for p in first["pairings"]}
    wrong = 0
    for number in sorted(set(shown) | set(range(1, len(tables) + 1))):
        want = tables[number - 1] if number <= len(tables) else None
        if shown.get(number) != want:
            wrong += 1
            check.problem(
                f"round 1, table {number}",
                f"seats {_names(shown.get(number) or ())}; the draw seats {_names(want or ())}",
            )
    if [str(b) for b in first["byes"]] != byes:
        wrong += 1
        check.problem(
            "round 1", f"gives the bye to {_names(first['byes'])}; the draw to {_names(byes)}"
        )
    if not wrong:
        check.checked.append(
            f"round 1's draw: the revealed secret opens the commitment and draws the same "
            f"{len(tables)} table(s) again"
        )


# ---------------------------------------------------------------------------- decklists


def _check_decklists(obj: Mapping[str, Any], check: EventCheck) -> None:
    shown, hidden = 0, 0
    for player in obj["players"]:
        name = player["player"]
        digest = registrations.hash_again(player)
        if digest is None:
            hidden += player.get("decklist_hash") is not None
            continue
        shown += 1
        if digest != player.get("decklist_hash"):
            check.problem(
                f"decklist of {name}",
                "does not hash to its published decklist_hash (with its salt and hero)",
            )
    if shown:
        check.checked.append(f"{shown} decklist(s) hashed again: each must give its decklist_hash")
    if hidden:
        check.notes.append(
            f"{hidden} decklist(s) not in this export (only the organizer, the judges and its "
            "player see a list): their hashes were not checked"
        )


def _check_decks(obj: Mapping[str, Any], facts: Mapping[str, GameFacts], check: EventCheck) -> None:
    """The deck check (docs/rules.md F.1): in each game whose state the export gives whole,
    every seat plays the list its player registered (where the export shows that list)."""
    rows = {str(p["player"]): p for p in obj["players"]}
    checked = 0
    for round_ in obj["rounds"]:
        for pairing in round_["pairings"]:
            for gid in pairing["games"]:
                state = facts[str(gid)].state if str(gid) in facts else None
                if state is None:
                    continue
                for seat, player in pairing["seats"].items():
                    row = rows.get(str(player), {})
                    if not registrations.shows_list(row):
                        continue
                    checked += 1
                    differs = registrations.deck_differences(row, state, str(seat))
                    if differs:
                        check.problem(
                            f"round {round_['round']}, table {pairing['table']}, game {gid}",
                            f"seat {seat} ({player}) plays a deck that is not the list "
                            f"registered: {', '.join(differs)}",
                        )
    if checked:
        check.checked.append(f"{checked} deck(s) in the games are the lists registered")


# ---------------------------------------------------------------------------- results


def _expected(
    pairing: Mapping[str, Any], facts: Mapping[str, GameFacts], settings: Mapping[str, Any]
) -> tuple[bool, dict[str, Any] | None]:
    """``(known, result)``: whether the export lets the result be worked out (every game of
    the pairing is in it), and the result its games (or its report) give, ``None`` while the
    match is undecided. A classic table's places come from a complete export's final state;
    from any other, only who won (``{"winners": [...]}``)."""
    seats = pairing["seats"]
    if "reported" in pairing:
        return True, rules.pairing_result(settings, pairing, [], None)
    games = [facts.get(str(g)) for g in pairing["games"]]
    found = [g for g in games if g is not None]
    if len(found) != len(games):
        return False, None
    last = found[-1]
    if rules.is_table_game(settings["ruleset"]) and last.state is None and last.result != "*":
        # an incomplete export's table: who won its header says, not the places
        return True, {"winners": sorted(seats[s] for s in last.result.split("+") if s in seats)}
    summaries = [
        {
            "status": "finished" if g.result != "*" else "playing",
            "winner": g.result,
            "ends_match": list(g.ends_match),
        }
        for g in found
    ]
    return True, rules.pairing_result(settings, pairing, summaries, last.state)


def _agrees(found: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    if "winners" in expected:
        places = found.get("places") or {}
        return sorted(p for p, n in places.items() if n == 1) == expected["winners"]
    if "places" in expected:
        return dict(found.get("places") or {}) == expected["places"]
    return dict(found.get("games") or {}) == expected["games"] and int(
        found.get("drawn_games", 0)
    ) == int(expected["drawn_games"])


def _check_results(
    obj: Mapping[str, Any], facts: Mapping[str, GameFacts], check: EventCheck
) -> None:
    settings = obj["settings"]
    delayed = bool(settings.get("spectator_delay")) and obj["results_as"] != "judge"
    listed: dict[tuple[int, tuple[str, ...]], Mapping[str, Any]] = {}
    for result in obj["results"]:
        key = (int(result["round"]), tuple(str(p) for p in result["players"]))
        if key in listed:
            check.problem(f"round {key[0]}", f"has two results for {_names(key[1])}")
        listed[key] = result
    agreed, reported, held_back = 0, 0, 0
    for round_ in obj["rounds"]:
        number = int(round_["round"])
        for pairing in round_["pairings"]:
            where = f"round {number}, table {pairing['table']}"
            found = listed.pop((number, tuple(_seated(pairing["seats"]))), None)
            known, expected = _expected(pairing, facts, settings)
            if not known:
                continue  # a game is missing: said under games
            if expected is None and found is not None:
                check.problem(
                    where, f"the export gives a result ({_result_text(found)}) its games do not"
                )
            elif expected is not None and found is None:
                live = any(
                    facts[str(g)].viewer not in DELAYED_VIEWERS
                    for g in pairing["games"]
                    if str(g) in facts
                )
                if delayed and live:
                    held_back += 1  # a seat sees its game live; the results are delayed
                else:
                    check.problem(
                        where, f"its games give {_result_text(expected)}, the export no result"
                    )
            elif expected is not None and found is not None:
                if _agrees(found, expected):
                    agreed += 1
                    reported += "reported" in pairing
                else:
                    check.problem(
                        where,
                        f"the export's result ({_result_text(found)}) is not its games' "
                        f"({_result_text(expected)})",
                    )
    for (number, players), _ in listed.items():
        check.problem(f"round {number}", f"a result for {_names(players)}, who share no table")
    if agreed:
        by = f" ({reported} reported by a judge or the organizer)" if reported else ""
        check.checked.append(f"{agreed} result(s) agree with their games{by}")
    if held_back:
        check.notes.append(
            f"{held_back} match(es) over in a game this export shows live have no result yet: "
            "the spectator delay holds results back for all but the judges"
        )


def _check_reported_games(
    obj: Mapping[str, Any], facts: Mapping[str, GameFacts], check: EventCheck
) -> None:
    """A reported two-player match (its result a report, in an event whose games decide)
    and its games agree (issue #44): every game over (a report closes the open ones) and no
    player won more games than the result gives it (``rules.games_disagree``). A judge's
    correction of a result stands over its games, and a delayed export's games are not
    final: neither is checked."""
    settings = obj["settings"]
    if settings.get("results") == "reported" or rules.is_table_game(settings["ruleset"]):
        return
    if bool(settings.get("spectator_delay")) and obj["results_as"] != "judge":
        return
    agreed = 0
    for round_ in obj["rounds"]:
        for pairing in round_["pairings"]:
            reported = pairing.get("reported")
            ids = [str(g) for g in pairing["games"]]
            if reported is None or reported.get("corrected") or any(g not in facts for g in ids):
                continue
            summaries = [
                {
                    "status": "finished" if facts[g].result != "*" else "playing",
                    "winner": facts[g].result,
                }
                for g in ids
            ]
            disagrees = rules.games_disagree(pairing["seats"], summaries, reported)
            if disagrees is None:
                agreed += 1
            else:
                check.problem(
                    f"round {round_['round']}, table {pairing['table']}",
                    f"its games and its reported result disagree: {disagrees}",
                )
    if agreed:
        check.checked.append(f"{agreed} reported match(es) agree with their games")


# ---------------------------------------------------------------------------- standings


def recompute_standings(obj: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The standings an export's results give (as ``GET …/standings`` shows them): over the
    Swiss rounds only, every registered player, fractions as floats."""
    swiss = int(obj["swiss_rounds"])
    players = [str(p["player"]) for p in obj["players"]]
    dropped = {str(p["player"]): p.get("dropped_after") is not None for p in obj["players"]}
    rows = swiss_rows(obj["settings"]["ruleset"], players, obj["results"], obj["rounds"], swiss)
    return [rules.standing_row(row, dropped[row.player]) for row in rows]


def _row_text(row: Mapping[str, Any]) -> str:
    return (
        f"{row.get('player')} {row.get('points')} points, {row.get('wins')}-{row.get('losses')}"
        f"-{row.get('draws')}, OMW {row.get('omw')}, GW {row.get('gw')}, OGW {row.get('ogw')}"
    )


def _check_standings(obj: Mapping[str, Any], check: EventCheck) -> None:
    expected = recompute_standings(obj)
    shown = list(obj["standings"])
    wrong = 0
    for index in range(max(len(expected), len(shown))):
        want = expected[index] if index < len(expected) else None
        got = shown[index] if index < len(shown) else None
        if want is not None and got is not None and all(got.get(k) == v for k, v in want.items()):
            continue
        wrong += 1
        check.problem(
            f"standings, rank {index + 1}",
            f"the export has {_row_text(got) if got else 'no row'}; its results give "
            f"{_row_text(want) if want else 'no row'}",
        )
    if not wrong:
        check.checked.append(f"the standings recomputed from the results: {len(expected)} row(s)")


# ---------------------------------------------------------------------------- penalties


def _penalty_text(kind: Any, player: Any) -> str:
    return f"{kind} to {player}"


def _check_penalties(obj: Mapping[str, Any], check: EventCheck) -> None:
    listed = obj["penalties"]
    placed: dict[str, tuple[int, int, Mapping[str, str]]] = {
        str(gid): (int(r["round"]), int(p["table"]), p["seats"])
        for r in obj["rounds"]
        for p in r["pairings"]
        for gid in p["games"]
    }
    games = {} if obj.get("games_left_out") else {str(g.get("game_id")): g for g in obj["games"]}
    viewer = obj.get("viewer") or {}
    found: set[tuple[str, int]] = set()
    agreed = 0
    for row in listed:
        gid, version, player = str(row["game_id"]), int(row["version"]), row["player"]
        where = f"penalty of {player} (round {row['round']}, table {row['table']})"
        if gid not in placed:
            check.problem(where, f"its game {gid} is not one of the event's")
            continue
        number, table, seats = placed[gid]
        if (int(row["round"]), int(row["table"])) != (number, table):
            check.problem(where, f"its game {gid} is played in round {number}, table {table}")
        seat = next((s for s, p in seats.items() if p == player), None)
        if seat is None:
            check.problem(where, f"{player} has no seat in game {gid}")
            continue
        found.add((gid, version))
        game = games.get(gid)
        if game is None:
            continue  # left out of the export: said under games
        entry = next((e for e in game.get("events") or [] if e.get("version") == version), None)
        if entry is None:
            if game.get("viewer") in DELAYED_VIEWERS:
                check.notes.append(
                    f"{where}: game {gid}'s event {version} is past what this export shows of "
                    "it (the spectator delay)"
                )
            else:
                check.problem(where, f"game {gid} has no event {version}")
            continue
        data = entry.get("data") or {}
        if not is_ruling(entry):
            check.problem(where, f"event {version} of game {gid} is a {entry.get('type')}")
        elif (data.get("penalty"), data.get("player"), data.get("dispute")) != (
            row["kind"],
            seat,
            row["dispute"],
        ):
            check.problem(
                where,
                f"game {gid}'s ruling at event {version} gives "
                f"{_penalty_text(data.get('penalty'), data.get('player'))} on dispute "
                f"{data.get('dispute')}; the export says {_penalty_text(row['kind'], seat)} on "
                f"dispute {row['dispute']}",
            )
        else:
            agreed += 1
    role = viewer.get("role")
    if role in ("judge", "organizer", "player"):
        for gid, game in games.items():
            if gid not in placed:
                continue
            seats = placed[gid][2]
            for entry in game.get("events") or []:
                data = entry.get("data") or {}
                if not is_ruling(entry) or data.get("penalty") is None:
                    continue
                owner = seats.get(str(data.get("player")))
                if owner is None or (role == "player" and owner != viewer.get("player")):
                    continue
                if (gid, int(entry["version"])) not in found:
                    check.problem(
                        f"game {gid}, event {entry['version']}",
                        f"a penalty ({_penalty_text(data['penalty'], owner)}) the export's "
                        "penalties do not list",
                    )
    if agreed:
        check.checked.append(f"{agreed} penalty(ies) found as their games' rulings record them")
