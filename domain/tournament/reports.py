"""Results the players report, and a judge's correction of a past round (issue #38,
docs/rules.md F.3).

An event's ``results`` option says what decides a match: ``"games"`` (the default: its recorded
games, ``domain.tournament.rules.pairing_result``) or ``"reported"`` (the games are played on
paper; the event records only results). Either way a player of a pairing may report its result
(``POST …/rounds/<n>/report``): a two-player match as ``{"wins", "losses", "draws"}`` from the
reporter's side, a table as ``{"places": {player: place}}``. Each report is a
:class:`PlayerReported`; when every player of the pairing has reported the same result, it
stands (:class:`ReportsAgreed`, the pairing's ``reported`` as a judge's report is); a report
that differs opens a dispute for the judges with every report in it (:class:`ReportDisputed`),
which a judge's ``POST …/results`` (``Tournament.Reported``) settles. In a ``"games"`` event a
report that contradicts the recorded games is refused, and a match the games decided is not
decided again by its reports.

A judge corrects a result that stands in an earlier round, later rounds paired or not
(:class:`ResultCorrected`, with the reason): the standings follow, the later rounds stand, and
each pairing made before the correction says so (``paired_before_correction``).

Pure: the aggregate is passed in, its events triggered through ``trigger_event``; what the
games recorded comes in from the service.

>>> seats = {"A": "ann", "B": "bob"}
>>> from_reporter({"wins": 2, "losses": 1}, "bob", seats, "bo3")
{'games': {'ann': 1, 'bob': 2}, 'drawn_games': 0}
>>> contradicts({"games": {"ann": 0, "bob": 2}, "drawn_games": 0}, None, {"ann": 1, "bob": 0}, 0)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import ImpossibleCommand, InvalidCommand, NotFound, RuleViolation
from domain.tournament import rules
from domain.tournament.aggregate import Tournament

RESULTS = ("games", "reported")


def _pairing(aggregate: Tournament, number: int, table: int) -> dict[str, Any]:
    for pairing in aggregate.round_at(number)["pairings"]:
        if pairing["table"] == table:
            return pairing
    raise ImpossibleCommand("event/table_not_found", f"round {number} has no table {table}")


class _AtTable(Tournament.Event):
    """An event of the pairing at ``table`` in round ``round`` (never stored as such): its
    fields come first, the event's own after them."""

    round: int
    table: int

    def pairing(self, aggregate: Tournament) -> dict[str, Any]:
        return _pairing(aggregate, self.round, self.table)


class PlayerReported(_AtTable):
    """``player`` reported ``result`` (canonical: ``{games, drawn_games}`` or ``{places}``)
    for its pairing at ``table`` in round ``round``; a later report of the same player
    replaces its earlier one."""

    player: str
    result: dict[str, Any]
    at: str

    def apply(self, aggregate: Tournament) -> None:
        reports = self.pairing(aggregate).setdefault("reports", {})
        reports[self.player] = {**self.result, "at": self.at}


class ReportsAgreed(_AtTable):
    """Every player of the pairing reported ``result``: it stands, as a judge's report does."""

    result: dict[str, Any]
    at: str

    def apply(self, aggregate: Tournament) -> None:
        pairing = self.pairing(aggregate)
        pairing["reported"] = {**self.result, "by": "players", "at": self.at}


class ReportDisputed(_AtTable):
    """The players' reports differ: a dispute for the judges, with every report (``reports``,
    by player) as it stood; a judge's result (``Tournament.Reported``) settles it, and so do
    reports that come to agree."""

    reports: dict[str, Any]
    at: str

    def apply(self, aggregate: Tournament) -> None:
        pairing = self.pairing(aggregate)
        pairing["dispute"] = {"reports": dict(self.reports), "opened_at": self.at}


class ResultCorrected(_AtTable):
    """A judge corrected the result that stood at ``table`` of round ``round`` (``reason``):
    the new one stands; every pairing of a later round already paired was paired before it."""

    result: dict[str, Any]
    reason: str
    by: str
    at: str

    def apply(self, aggregate: Tournament) -> None:
        pairing = self.pairing(aggregate)
        was = {k: v for k, v in (pairing.get("reported") or {}).items() if k != "corrected"}
        pairing["reported"] = {
            **self.result,
            "by": self.by,
            "at": self.at,
            "corrected": {"reason": self.reason, "was": was},
        }
        for round_ in aggregate.rounds[self.round :]:
            for later in round_["pairings"]:
                later["paired_before_correction"] = True


# ------------------------------------------------------------------------------ reading


def mode(settings: Mapping[str, Any]) -> str:
    """What decides the event's matches: ``"games"`` (also an event opened before the option)
    or ``"reported"``."""
    return str(settings.get("results") or "games")


def from_reporter(
    report: Mapping[str, Any], player: str, seats: Mapping[str, str], match: str
) -> dict[str, Any]:
    """A two-player report ``{wins, losses, draws}`` from ``player``'s side as the match's
    result (``{games: {player: wins}, drawn_games}``), checked against the match (F.3)."""
    if set(report) - {"wins", "losses", "draws"} or "wins" not in report:
        raise InvalidCommand(
            "request/invalid_report",
            "a match's report is {wins, losses, draws} from the reporter's side",
            {"report": ["wins, losses, draws"]},
        )
    other = next(p for p in seats.values() if p != player)
    games = {player: int(report["wins"]), other: int(report.get("losses", 0))}
    return rules.check_report({"games": games, "drawn_games": report.get("draws", 0)}, seats, match)


def check_places(places: Any, seats: Mapping[str, str]) -> dict[str, Any]:
    """A table's reported places: every player of the table once, each place 1 to the
    table's size (equals share a place)."""
    players = set(seats.values())
    if not isinstance(places, Mapping) or set(places) != players:
        named = sorted(places) if isinstance(places, Mapping) else []
        raise InvalidCommand(
            "request/invalid_places",
            f"places name every player of the table once: {sorted(players)}, not {named}",
            {"places": sorted(players)},
        )
    bad = sorted(p for p, n in places.items() if not isinstance(n, int) or not 1 <= n <= len(seats))
    if bad:
        raise InvalidCommand(
            "request/invalid_places",
            f"a place is 1 to {len(seats)}: {', '.join(bad)}",
            {f"places.{p}": [f"1..{len(seats)}"] for p in bad},
        )
    if 1 not in places.values():
        raise RuleViolation("rule/impossible_result", "a table's places start at 1", "F.3")
    return {"places": {p: int(places[p]) for p in sorted(places)}}


def settlement(
    result: Mapping[str, Any], pairing: Mapping[str, Any], settings: Mapping[str, Any]
) -> dict[str, Any]:
    """A judge's result (``POST …/results``, a correction): ``places`` at a table, else
    ``{games, drawn_games}`` (``rules.check_report``)."""
    seats = pairing["seats"]
    if rules.is_table_game(settings["ruleset"]):
        return check_places(result.get("places"), seats)
    if result.get("games") is None:
        raise InvalidCommand(
            "request/invalid_report", "a match's result gives `games`", {"games": ["required"]}
        )
    return rules.check_report(result, seats, settings["match"])


def contradicts(
    result: Mapping[str, Any],
    decided: Mapping[str, Any] | None,
    wins: Mapping[str, int],
    drawn: int,
) -> bool:
    """Whether a reported ``result`` contradicts the recorded games: the result they
    ``decided`` (``None``: undecided) or, short of it, the games already finished (``wins``
    by player, ``drawn`` games), which a result cannot count fewer of."""
    if decided is not None:
        return {k: v for k, v in result.items() if k in decided} != dict(decided)
    if "places" in result:
        return False
    games = result["games"]
    return any(int(games.get(p, 0)) < n for p, n in wins.items()) or (
        int(result["drawn_games"]) < drawn
    )


def open_dispute(pairing: Mapping[str, Any]) -> bool:
    """Whether the pairing's reports disagree and no result stands yet."""
    return "dispute" in pairing and "reported" not in pairing


def round_view(round_: Mapping[str, Any], staff: bool, player: str | None) -> dict[str, Any]:
    """A round as ``GET /api/events/<id>`` shows it to a viewer: the players' reports to the
    judges and the organizer; to a player of the pairing its own report; to everyone who has
    reported (``reported_by``) and whether a dispute is open, not what the others reported
    (a report is the reporter's until the result stands)."""
    pairings = []
    for pairing in round_["pairings"]:
        shown = {k: v for k, v in pairing.items() if k not in ("reports", "dispute")}
        reports = pairing.get("reports") or {}
        if reports:
            shown["reported_by"] = sorted(reports)
            if staff:
                shown["reports"] = dict(reports)
            elif player in reports:
                shown["reports"] = {player: reports[player]}
        if "dispute" in pairing:
            shown["dispute"] = {
                "open": open_dispute(pairing),
                "opened_at": pairing["dispute"]["opened_at"],
                **({"reports": pairing["dispute"]["reports"]} if staff else {}),
            }
        pairings.append(shown)
    return {**round_, "pairings": pairings}


# ------------------------------------------------------------------------------ deciding


def report(
    event: Tournament,
    number: int,
    player: str,
    given: Mapping[str, Any],
    *,
    recorded: tuple[Mapping[str, Any] | None, Mapping[str, int], int] | None,
    at: str,
) -> dict[str, Any]:
    """``player`` reports the result of its pairing in round ``number`` (``given`` as the API
    takes it); ``recorded``: in a ``"games"`` event, what its games recorded (the result they
    decided or ``None``, the game wins by player and the drawn games so far). Triggers
    :class:`PlayerReported`, then :class:`ReportsAgreed` or :class:`ReportDisputed` when every
    player has reported. Returns the pairing's report state as the reporter sees it."""
    pairing = event.pairing_of(number, player)
    if pairing is None:
        if player in event.round_at(number)["byes"]:
            raise NotFound("event/bye", f"{player} has a bye in round {number}: nothing to report")
        raise NotFound("event/not_paired", f"{player} is not paired in round {number}")
    table, seats = pairing["table"], pairing["seats"]
    where = f"round {number}, table {table}"
    if "reported" in pairing:
        raise RuleViolation(
            "rule/result_stands",
            f"{where}: its result stands (reported by the {pairing['reported'].get('by')}); "
            "a judge corrects it",
            "F.3",
        )
    table_game = rules.is_table_game(event.settings["ruleset"])
    if table_game:
        if set(given) != {"places"}:
            raise InvalidCommand(
                "request/invalid_report",
                "a table's report is {places: {player: place}}",
                {"report": ["places"]},
            )
        result = check_places(given["places"], seats)
    else:
        result = from_reporter(given, player, seats, str(event.settings["match"]))
    if recorded is not None:
        decided, wins, drawn = recorded
        if table_game and decided is None:
            raise RuleViolation(
                "rule/table_result_from_game",
                f"{where}: a table's places come from its game, which is not over",
                "F.3",
            )
        if contradicts(result, decided, wins, drawn):
            raise RuleViolation(
                "rule/report_contradicts_games",
                f"{where}: the report ({_text(result)}) contradicts the recorded games"
                + (f" ({_text(decided)})" if decided is not None else ""),
                "F.3",
            )
    event.trigger_event(
        PlayerReported, round=number, table=table, player=player, result=result, at=at
    )
    after = _pairing(event, number, table)
    reports = {p: {k: v for k, v in r.items() if k != "at"} for p, r in after["reports"].items()}
    players = list(seats.values())
    decided_by_games = recorded is not None and recorded[0] is not None
    if len(reports) == len(players) and not decided_by_games:
        if all(r == result for r in reports.values()):
            event.trigger_event(ReportsAgreed, round=number, table=table, result=result, at=at)
        else:
            event.trigger_event(
                ReportDisputed, round=number, table=table, reports=dict(after["reports"]), at=at
            )
    after = _pairing(event, number, table)
    return {
        "round": number,
        "table": table,
        "report": result,
        "reported_by": sorted(after.get("reports") or {}),
        "stands": after.get("reported"),
        "dispute": open_dispute(after),
    }


def correct(
    event: Tournament,
    number: int,
    table: int,
    result: Mapping[str, Any],
    *,
    reason: str,
    by: str,
    at: str,
) -> dict[str, Any]:
    """A judge's correction of the result that stands at ``table`` of round ``number``
    (``result`` as ``POST …/results`` takes it); refused for a pairing with no reported
    result (``rule/nothing_to_correct``: report it) or the same result again."""
    pairing = _pairing(event, number, table)
    if "reported" not in pairing:
        raise RuleViolation(
            "rule/nothing_to_correct",
            f"round {number}, table {table} has no reported result to correct: a judge "
            "reports it (POST …/results); a game's result is corrected by a ruling in the game",
            "F.3",
        )
    if not reason.strip():
        raise InvalidCommand("request/reason_required", "a correction says why", {"reason": []})
    checked = settlement(result, pairing, event.settings)
    if {k: v for k, v in pairing["reported"].items() if k in checked} == checked:
        raise RuleViolation(
            "rule/same_result", f"round {number}, table {table} stands as {_text(checked)}", "F.3"
        )
    where = {"round": number, "table": table}
    event.trigger_event(ResultCorrected, **where, result=checked, reason=reason, by=by, at=at)
    return {**where, **checked, "reason": reason}


def _text(result: Mapping[str, Any]) -> str:
    if "places" in result:
        return ", ".join(f"{p} {n}" for p, n in result["places"].items())
    games = ", ".join(f"{p} {n}" for p, n in result["games"].items())
    return f"{games}, drawn {result.get('drawn_games', 0)}"
