"""Every round after the first re-derived from an event export alone (``munchlog verify``,
docs/events.md; docs/rules.md F.2): Swiss rounds and the top cut, two-player pairings and
classic tables, by the very function the server pairs with (``domain.tournament.rounds.draw``).

Round ``n`` is drawn again from the export's settings, its number of Swiss rounds (checked
against the setting, or round 1's entrants), the players registered at or before its
``paired_at`` and those of them still in (``dropped_after`` none or at least ``n``), the earlier
rounds as the export shows them, and the earlier rounds' results as they stood when it was
paired: the export's ``results``, but where the round's ``paired_on`` says one was different
then (reported again or corrected since), that one. The first round whose tables or byes differ
is named with its first differing table; the rounds after it rest on it and are not drawn
again. Round 1 is the draw's (``event_check``'s "round 1's draw").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from domain.errors import DomainError
from domain.tournament import rules
from domain.tournament.rounds import Inputs, draw, result_key, seated
from projections.exports.event_findings import EventCheck


def names(players: Iterable[Any]) -> str:
    """Players for a line of the check: ``ann, bob`` (``nobody`` for none)."""
    return ", ".join(str(p) for p in players) or "nobody"


def _when(text: Any) -> datetime:
    return datetime.fromisoformat(str(text))


def swiss_rounds_of(obj: Mapping[str, Any]) -> int:
    """The event's Swiss rounds from its export: ``rounds_setting``, else as many as round 1's
    entrants call for (``rules.swiss_rounds``), as the server counts them."""
    setting = obj["settings"].get("rounds_setting")
    if setting is not None:
        return int(setting)
    first = obj["rounds"][0]
    entrants = sum(len(p["seats"]) for p in first["pairings"]) + len(first["byes"])
    return rules.swiss_rounds(entrants)


def result_text(result: Mapping[str, Any]) -> str:
    """A result for a line of the check or the report: ``games won ann 1, bob 0``, a classic
    table's ``places ann 1, bob 2``, or (a table seen without its final state) ``won by ann``."""
    if "places" in result:
        places = result["places"]
        return "places " + ", ".join(f"{p} {places[p]}" for p in sorted(places, key=places.get))
    if "winners" in result:
        return f"won by {names(result['winners'])}"
    games = result.get("games") or {}
    text = ", ".join(f"{p} {n}" for p, n in games.items())
    drawn = result.get("drawn_games") or 0
    return f"games won {text}" + (f", {drawn} drawn" if drawn else "")


def check_rounds(obj: Mapping[str, Any], check: EventCheck) -> None:
    """Re-derive rounds 2 on (the module docstring): a problem at the first round and table
    that differ, a note for each result a round was paired on that has changed since."""
    rounds = obj["rounds"]
    if not rounds:
        return
    swiss = swiss_rounds_of(obj)
    if swiss != int(obj["swiss_rounds"]):
        check.problem(
            "swiss_rounds",
            f"the export says {obj['swiss_rounds']}; its setting and round 1's entrants give "
            f"{swiss}",
        )
    settings = obj["settings"]
    delayed = bool(settings.get("spectator_delay")) and obj.get("results_as") != "judge"
    now = {result_key(r): r for r in obj["results"]}
    drawn, held = 0, 0
    for index in range(1, len(rounds)):
        round_ = rounds[index]
        number = int(round_["round"])
        if round_.get("paired_on_held_back"):
            if not delayed:
                check.problem(
                    f"round {number}",
                    "says its results are held back, but nothing delays this export's results",
                )
                return
            held += 1
            continue
        then = {key: r for key, r in now.items() if key[0] < number}
        for result in round_.get("paired_on") or ():
            key = result_key(result)
            then[key] = result
            shown = now.get(key)
            check.notes.append(
                f"round {number} was paired on round {key[0]}'s result for {names(key[1])} as "
                f"it was then ({result_text(result)}); the export's is "
                f"{result_text(shown) if shown else 'none'} (changed since)"
            )
        if not _same(obj, round_, swiss, list(then.values()), rounds[:index], check):
            if index + 1 < len(rounds):
                check.notes.append(
                    f"rounds {number + 1} to {rounds[-1]['round']} rest on round {number}: "
                    "they were not drawn again"
                )
            return
        drawn += 1
    if drawn:
        check.checked.append(
            f"{drawn} round(s) after round 1 drawn again from the export (standings, byes, "
            "earlier pairings, drops, the top cut): the same tables and byes"
        )
    if held:
        check.notes.append(
            f"{held} round(s) were paired on results the spectator delay holds back from this "
            "export: they were not drawn again (the judge's export lets them be)"
        )


def _same(
    obj: Mapping[str, Any],
    round_: Mapping[str, Any],
    swiss: int,
    results: list[Mapping[str, Any]],
    before: Sequence[Mapping[str, Any]],
    check: EventCheck,
) -> bool:
    """Whether ``round_`` (after the rounds ``before``) is what the export draws again from
    ``results``; a problem naming its first differing table, or its byes, when it is not."""
    number = int(round_["round"])
    paired_at = _when(round_["paired_at"])
    registered = [p for p in obj["players"] if _when(p["registered_at"]) <= paired_at]
    players = [str(p["player"]) for p in registered]
    active = [
        str(p["player"])
        for p in registered
        if p.get("dropped_after") is None or int(p["dropped_after"]) >= number
    ]
    try:
        given = Inputs(obj["settings"], swiss, players, active, results, before)
        tables, byes = draw(number, given)
    except DomainError as exc:
        check.problem(f"round {number}", f"cannot be drawn again from the export: {exc}")
        return False
    shown = {int(p["table"]): tuple(seated(p["seats"])) for p in round_["pairings"]}
    for table in sorted(set(shown) | set(range(1, len(tables) + 1))):
        want = tables[table - 1] if table <= len(tables) else None
        if shown.get(table) != want:
            check.problem(
                f"round {number}, table {table}",
                f"seats {names(shown.get(table) or ())}; drawn again from the export, it "
                f"seats {names(want or ())}",
            )
            return False
    if [str(b) for b in round_["byes"]] != byes:
        check.problem(
            f"round {number}",
            f"gives the bye to {names(round_['byes'])}; drawn again from the export, to "
            f"{names(byes)}",
        )
        return False
    return True
