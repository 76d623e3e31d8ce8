"""The Munchkin CCG's state invariants (docs/rules.md A.3, A.8, A.13): what an import refuses
(``Family.invariants``) and what the tests hold every state to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.judge import closed_by_report

State = Mapping[str, Any]


def invariant_violations(state: State, *, max_level: int = 10) -> list[str]:
    """What is impossible about ``state`` (empty when nothing): docs/rules.md A.3, A.8, A.13.

    Checks: no negative gold, damage, tokens or committed gold; levels within 1..``max_level``;
    every card in exactly one zone (and that zone's list names it once); a deck's known top and
    bottom cards (docs/rules.md D.20) are never more than the deck holds; a finished game's
    winner agrees with the eliminations (a seat wins only when the other is out and it is not;
    a draw when both are out).

    >>> invariant_violations({"status": "new", "version": 0})
    []
    """
    if state.get("status") in (None, "new"):
        return []
    problems: list[str] = []
    seats = state["seats"]
    cards = state["cards"]
    for seat, st in seats.items():
        if "level" in st and not 1 <= st["level"] <= max_level:
            problems.append(f"{seat}: level {st['level']} outside 1..{max_level}")
        if st.get("gold", 0) < 0:
            problems.append(f"{seat}: negative gold {st['gold']}")
        if st.get("ran_this_turn", 0) < 0:
            problems.append(f"{seat}: negative run-away count")
        if "deck_known_top" in st:
            top, bottom = st["deck_known_top"], st.get("deck_known_bottom", 0)
            size = len(st["zones"].get("deck") or ())
            if top < 0 or bottom < 0 or top + bottom > size:
                problems.append(f"{seat}: {top} known on top, {bottom} at the bottom of {size}")
    fight = state.get("fight")
    if fight is not None and fight.get("gold", 0) < 0:
        problems.append("fight: negative committed gold")
    for cid in sorted(cards):
        card = cards[cid]
        if card.get("damage", 0) < 0 or card.get("tokens", 0) < 0:
            problems.append(f"card {cid}: negative damage or tokens")
    problems.extend(_zone_problems(state))
    if state["status"] == "finished":
        out = {seat for seat in seats if seats[seat].get("eliminated")}
        winner = state.get("winner")
        left = [seat for seat in seats if seat not in out]
        expected = "draw" if not left else left[0] if len(left) == 1 else None
        # a draw nobody was out of: at time (F.6), or closed by its match's reported result
        declared = winner == "draw" and bool(state.get("time") or closed_by_report(state))
        if not (declared and not out) and (len(out) == 0 or winner != expected):
            problems.append(f"game ended with winner {winner!r} but eliminated {sorted(out)}")
    return problems


def _zone_problems(state: State) -> list[str]:
    cards = state["cards"]
    seen: dict[str, list[str]] = {cid: [] for cid in cards}
    problems: list[str] = []

    def note(cid: str, where: str) -> None:
        if cid not in seen:
            problems.append(f"{where} names an unknown card {cid}")
        else:
            seen[cid].append(where)

    for st in state["seats"].values():
        if "hero" in st:
            note(st["hero"], "hero")
        for zone, ids in st["zones"].items():
            for cid in ids:
                note(cid, zone)
    for cid in state.get("dmz") or ():
        note(cid, "dmz")
    for host in cards:
        for cid in cards[host].get("stuck") or ():
            note(cid, "stuck")
    for cid in sorted(cards):
        card = cards[cid]
        if seen[cid] != [card["zone"]]:
            problems.append(f"card {cid}: in {seen[cid]} but its zone is {card['zone']!r}")
        elif (
            card["zone"] in state["seats"][card["owner"]]["zones"]
            and cid not in state["seats"][card["owner"]]["zones"][card["zone"]]
        ):
            problems.append(f"card {cid}: in another seat's {card['zone']}")
        elif card["zone"] == "stuck" and cid not in cards.get(card.get("host"), {}).get(
            "stuck", []
        ):
            problems.append(f"card {cid}: stuck to {card.get('host')!r}, which does not hold it")
    return problems
