"""An event export as a readable report (``GET /api/events/<id>/export?format=text``).

:func:`event_report` renders what ``service.event_exports`` gathered, as its viewer may see it:
the event and its settings, whose export it is and what it leaves out
(``projections.exports.completeness``), round 1's commitment and secret, the players (each
decklist's hash; a list itself only where the export holds it), one heading per round with its
tables, results and byes, the standings as a table, the penalties the viewer may see (none to a
spectator), then each game's transcript (``projections.exports.transcript``) one after another,
as a PGN file holds its games.

>>> head = {"event_id": "e1", "exported_at": "2025-01-01T00:00:00+00:00",
...     "viewer": {"role": "spectator", "player": None}, "state": "registration", "round": 0,
...     "planned_rounds": 3, "swiss_rounds": 3, "commitment": "ab", "revealed_secret": None,
...     "settings": {"name": "Friday", "ruleset": "a-ruleset", "format": "casual",
...         "match": "bo1", "round_minutes": 35, "top_cut": 0, "table_size": None},
...     "players": [], "rounds": [], "results": [], "standings": [], "omitted": []}
>>> print(event_report(head, []).splitlines()[0])
Friday
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.penalties import infraction_label, upgrade_label
from domain.tournament import registrations
from projections.exports.completeness import event_view, export_line
from projections.exports.event_rounds import names, result_text

#: Names of the top cut's rounds, from the last one back.
CUT_ROUNDS = ("final", "semifinals", "quarterfinals")


def _heading(text: str, underline: str = "-") -> list[str]:
    return [text, underline * len(text)]


def _viewer(viewer: Mapping[str, Any]) -> str:
    role = viewer.get("role")
    if role == "player":
        return f"the player {viewer.get('player')}"
    return f"the {role}"


def _round_title(number: int, swiss: int, planned: int) -> str:
    if number <= swiss:
        return f"Round {number}"
    from_last = planned - number
    name = CUT_ROUNDS[from_last] if from_last < len(CUT_ROUNDS) else "top cut"
    return f"Round {number} (top cut: {name})"


def _told(pairing: Mapping[str, Any]) -> str:
    """Who reported a pairing's result, and a judge's correction with its reason (F.3)."""
    reported = pairing.get("reported")
    if not reported:
        return ""
    corrected = reported.get("corrected")
    why = f"; corrected: {corrected.get('reason')}" if corrected else ""
    return f" (reported by the {reported.get('by')}{why})"


def _result_line(result: Mapping[str, Any] | None, pairing: Mapping[str, Any]) -> str:
    if result is None:
        return "not over"
    if "places" in result:
        places = result["places"]
        ordered = sorted(places, key=lambda p: (places[p], p))
        return "places: " + ", ".join(f"{places[p]}. {p}" for p in ordered) + _told(pairing)
    games = result["games"]
    seats = pairing["seats"]
    players = [seats[s] for s in sorted(seats)]
    best = max(int(games.get(p, 0)) for p in players)
    winners = [p for p in players if int(games.get(p, 0)) == best]
    if len(winners) == 1:  # the winner's games first
        players = winners + [p for p in players if p != winners[0]]
    drawn = int(result.get("drawn_games") or 0)
    score = "-".join(str(games.get(p, 0)) for p in players) + (f"-{drawn}" if drawn else "")
    told = _told(pairing)
    if len(winners) > 1:
        return f"drawn {score}{told}"
    return f"{winners[0]} won {score}{told}"


def _standings(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    header = ("Rank", "Player", "Points", "W-L-D", "OMW%", "GW%", "OGW%", "")
    body = [
        (
            str(r["rank"]),
            str(r["player"]),
            str(r["points"]),
            f"{r['wins']}-{r['losses']}-{r['draws']}",
            f"{100 * float(r['omw']):.2f}",
            f"{100 * float(r['gw']):.2f}",
            f"{100 * float(r['ogw']):.2f}",
            "dropped" if r.get("dropped") else "",
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    left = {1, 7}  # the names and the mark read from the left; numbers line up on the right

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return [line(header), *(line(row) for row in body)]


def _penalties(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line a penalty (the event's record: docs/rules.md F.5), where it was given."""
    if not rows:
        return ["  none"]
    out = []
    for row in rows:
        infraction = row.get("infraction")
        why = [infraction_label(str(infraction))] if infraction else []
        if row.get("escalated_from"):
            why.append(upgrade_label(infraction, str(row["escalated_from"]), str(row["kind"])))
        kind = f"{row['kind']} ({'; '.join(why)})" if why else str(row["kind"])
        out.append(
            f"  Round {row['round']}, table {row['table']}: {row['player']}, {kind}: "
            f"{row['ruling']} (game {row['game_id']}, event {row['version']})"
        )
    return out


def _calls(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line a judge call (docs/rules.md F.8) and one a step taken on it, with who (and
    for its resolution, the dispute of its game ruled on, if it names one)."""
    out = []
    for row in rows:
        dispute = (row.get("resolution") or {}).get("dispute_id")
        ruled = f" with the ruling in dispute {dispute}" if dispute else ""
        note = f": {row['note']}" if row.get("note") else ""
        out.append(
            f"  {row['opened_at']} round {row['round']}, table {row['table']}: "
            f"{row['raised_by']} called (by {row['via']} token, game {row['game_id']} at "
            f"event {row['version']}){note}; {row['state']}, {row['age_s']} s"
        )
        for step in row.get("actions") or ():
            said = f": {step['note']}" if step.get("note") else ""
            by = (step.get("by") or {}).get("name")
            how = ruled if step["action"] == "resolve" else ""
            out.append(f"    {step['at']} {step['action']} by {by}{how}{said}")
    return out or ["  none"]


def event_report(head: Mapping[str, Any], transcripts: Sequence[str]) -> str:
    """The report of an event export's ``head`` (``service.event_exports.EventExports.head``
    with its ``omitted``), followed by the games' ``transcripts``."""
    settings = head["settings"]
    out: list[str] = _heading(str(settings["name"]), "=")
    out.append(
        f"Event {head['event_id']}, exported {head['exported_at']} as {_viewer(head['viewer'])}"
    )
    line = export_line(*event_view(head))
    out.append(line[0].upper() + line[1:] + ".")
    table_size = settings.get("table_size")
    seats = f"tables of {table_size}" if table_size else settings["match"] + " matches"
    cut = f", top {settings['top_cut']}" if settings.get("top_cut") else ""
    out.append(
        f"{settings['ruleset']}, {settings['format']} format, {seats} of "
        f"{settings['round_minutes']} minutes; {head['swiss_rounds']} Swiss round(s){cut}"
    )
    out.append(f"State: {head['state']}, round {head['round']} of {head['planned_rounds']}")
    if head.get("end_note"):
        out.append(f"Ends early: {head['end_note']}")
    if head.get("cut_note"):
        out.append(f"Top cut: {head['cut_note']}")
    out.append(f"Round 1's commitment: {head['commitment']}")
    revealed = head.get("revealed_secret")
    out.append(
        f"Round 1's secret: {revealed} (munchlog verify draws round 1 again)"
        if revealed
        else "Round 1's secret: revealed when round 1 is paired"
    )
    out.append("")
    out += _heading(f"Players ({len(head['players'])})")
    for player in head["players"]:
        notes = []
        if player.get("decklist_hash"):
            notes.append(f"decklist {player['decklist_hash']}")
        if player.get("disqualified"):  # shown to whom the player's penalties are
            notes.append(f"disqualified in game {player['disqualified']['game_id']}")
        if player.get("dropped_after") is not None:
            by = f" by {player['dropped_by']}" if player.get("dropped_by") else ""
            why = f": {player['drop_reason']}" if player.get("drop_reason") else ""
            notes.append(f"dropped after round {player['dropped_after']}{by}{why}")
        out.append(f"  {player['player']}" + (f"  ({'; '.join(notes)})" if notes else ""))
    results = {(r["round"], tuple(r["players"])): r for r in head["results"]}
    for round_ in head["rounds"]:
        number = int(round_["round"])
        out.append("")
        out += _heading(
            _round_title(number, int(head["swiss_rounds"]), int(head["planned_rounds"]))
        )
        for pairing in round_["pairings"]:
            seats = pairing["seats"]
            ordered = [seats[s] for s in sorted(seats)]
            who = " v ".join(f"{p} ({s})" for s, p in zip(sorted(seats), ordered, strict=True))
            result = results.get((number, tuple(ordered)))
            out.append(f"  Table {pairing['table']}: {who}")
            out.append(
                f"    {_result_line(result, pairing)}; game(s) {', '.join(pairing['games'])}"
            )
        for bye in round_["byes"]:
            out.append(f"  Bye: {bye}")
        for then in round_.get("paired_on") or ():
            out.append(
                f"  Paired on round {then['round']}'s result for {names(then['players'])} as it "
                f"stood then ({result_text(then)}); it has changed since"
            )
    out.append("")
    out += _heading("Standings after the Swiss rounds")
    out += (
        ["  " + line for line in _standings(head["standings"])]
        if head["standings"]
        else ["  none yet"]
    )
    if head.get("viewer", {}).get("role") != "spectator":  # a spectator sees no penalty
        out.append("")
        out += _heading("Penalties")
        out += _penalties(head.get("penalties") or [])
    if head.get("calls"):  # the staff's and the organizer's every call, a player's its own
        out.append("")
        out += _heading("Judge calls")
        out += _calls(head["calls"])
    lists = [p for p in head["players"] if registrations.shows_list(p)]
    if lists:
        out.append("")
        out += _heading("Decklists")
        for player in lists:
            hero = registrations.hero_name(player)
            out.append(f"  {player['player']}: hero {hero}; salt {player.get('salt')}")
            out += [f"    {e['count']} {e['name']}" for e in player["decklist"]]
    for left in head.get("omitted") or []:
        out.append(f"; game {left['game_id']} left out: event {left['version']} ({left['reason']})")
    text = "\n".join(out) + "\n"
    if transcripts:
        text += "\n" + "\n".join(_heading("Games")) + "\n\n" + "\n".join(transcripts)
    return text
