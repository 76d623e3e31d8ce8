"""Forgeries of a finished server-dealt game's judge export that a pile check alone can tell
(issue #35; docs/dealing.md "What verify checks"), for the CLI, ``GET /verify``, the import
(tests/api/test_dealing_piles.py) and the viewer's JavaScript (tests/e2e/test_viewer_piles.py).

The forger is the best one: after its change every ``visible_to`` is recomputed from the
fold (``domain.visibility.knowledge``) and the hash chain re-sealed, so the chain, the replay's
visibility check and every result the revealed key re-derives all hold. Each forgery returns
the export and the version that verify must name.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain import dealing, evolve, initial_state
from domain.fair import seeds_of
from domain.fold import load_event
from domain.visibility import knowledge
from projections.exports import export_json_text, read_export
from tests.unit.seeded_games import reseal

Records = list[dict[str, Any]]
#: The draws a forgery rewrites: the CCG's draw step, classic's kicked door.
DRAWS = ("CardDrawn", "DoorKicked")


def classic_export(
    ruleset: str = "munchkin-deluxe", seats: int = 4, *, reshuffled: bool = False
) -> str:
    """The judge's export of a classic game dealt by the server, played out by the demo's
    policy (tests/service/test_classic_dealing.py); ``reshuffled``: one where a deck ran out
    and the rules reshuffled its discards (the seeds are random: games are played until one
    does)."""
    from domain.classic import CLASSIC
    from tests.service.helpers import new_log
    from tests.service.test_classic_dealing import seeded

    for attempt in range(40):
        log = new_log()
        try:
            gid = seeded(log, ruleset, seats)
            family, rng = CLASSIC[ruleset], random.Random(7 + attempt)
            while log.game(gid).state["status"] != "finished":
                log.record(gid, [family.demo_next(log.game(gid).state, rng)], actor="table")
            records = log.all_records(gid)
        finally:
            log.close()
        if not reshuffled or any(r["event"]["type"] == "DiscardReshuffled" for r in records):
            return export_json_text(records, "judge")
    raise AssertionError(f"no {ruleset} game of {seats} seats reshuffled a deck")


def ccg_export() -> str:
    """The judge's export of a CCG game dealt by the server: opening hands, the roll, A's draw,
    A's turn ended, B's draw, then A concedes (tests/service/test_dealing.py)."""
    from tests.service.helpers import new_log
    from tests.service.test_dealing import act, seeded, started

    log = new_log()
    try:
        gid, _ = seeded(log)
        started(log, gid)
        act(log, gid, "A", "draw")
        act(log, gid, "A", "end_turn")
        act(log, gid, "B", "draw")
        act(log, gid, "A", "concede")
        return export_json_text(log.all_records(gid), "judge")
    finally:
        log.close()


def _sealed(export: str, records: Records) -> str:
    """``records`` renumbered 1, 2, ... (each ``cause`` and ``ref`` following its event), every
    ``visible_to`` recomputed from the fold, the chain re-sealed."""
    header = read_export(export)[0]
    moved = {r["version"]: n for n, r in enumerate(records, 1)}
    state = initial_state()
    for n, record in enumerate(records, 1):
        record["version"] = n
        event = record["event"]
        for name in ("cause", "ref"):
            if isinstance(event.get(name), int) and event[name] in moved:
                event[name] = moved[event[name]]
        after = evolve(state, load_event(state, event))
        record["visible_to"] = knowledge(state, after, load_event(state, event))
        state = after
    return export_json_text(
        reseal(records), str(header["viewer"]), exported_at=header.get("exported_at")
    )


def _states(records: Records) -> list[Any]:
    """The state before each record."""
    out, state = [], initial_state()
    for record in records:
        out.append(state)
        state = evolve(state, load_event(state, record["event"]))
    return out


def _key(records: Records) -> bytes:
    """The game key of epoch 0, from the revealed seeds and secret."""
    created = records[0]["event"]
    kinds: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        kinds.setdefault(r["event"]["type"], []).append(r["event"])
    revealed = {e["contributor"]: e["seed"] for e in kinds.get("SeedRevealed", [])}
    withheld = [e["contributor"] for e in kinds.get("SeedWithheld", [])]
    seeds = seeds_of(created["dealing"]["contributors"], revealed, withheld)
    secret = next(e["secret"] for e in kinds["ServerSecretRevealed"] if e["epoch"] == 0)
    return dealing.game_key(bytes.fromhex(secret), created["game_id"], seeds)


def _redeal(records: Records, dealt: dict[str, Any], among: list[str]) -> None:
    """``dealt`` dealing from ``among`` as the key gives it (its counter and take kept)."""
    dealt["among"] = sorted(among)
    dealt["cards"] = dealing.Dealer(_key(records), dealt["counter"]).deal(among, dealt["take"])[0]


def _a_draw(records: Records, also: Callable[[int], bool] = lambda i: True) -> int:
    """The index of the last ``Dealt`` of one card right before a draw (a pile of several
    cards) for which ``also`` holds."""
    return max(
        i
        for i, r in enumerate(records[:-1])
        if r["event"]["type"] == "Dealt"
        and r["event"].get("take") == 1
        and records[i + 1]["event"]["type"] in DRAWS
        and len(r["event"]["among"]) > 1
        and also(i)
    )


def _drawn_as(use: dict[str, Any], old: str, new: str) -> None:
    """The draw ``use`` and what it names of the card: ``new`` for ``old``."""
    use["card"] = new
    for key, value in list(use.items()):
        if value == old and key != "card":
            use[key] = new


def narrowed(export: str) -> tuple[str, int]:
    """A one-card pile: the ``Dealt`` before a draw deals from one card of its pile, another
    than the one it drew, and the draw takes that card (no key needed to shuffle one card)."""
    records = read_export(export)[1]
    i = _a_draw(records)
    dealt, use = records[i]["event"], records[i + 1]["event"]
    x = next(c for c in dealt["among"] if c not in dealt["cards"])
    old = dealt["cards"][0]
    dealt.update(among=[x], cards=[x])
    _drawn_as(use, old, x)
    return _sealed(export, records), records[i]["version"]


def not_in_pile(export: str) -> tuple[str, int]:
    """A ``Dealt`` dealing a card the pile does not hold: one of the game's cards elsewhere
    (another deck, a hand, a discard pile) added to the pile the draw deals from."""
    records = read_export(export)[1]
    i = _a_draw(records)
    before = _states(records)[i]
    dealt = records[i]["event"]
    elsewhere = sorted(c for c in before["cards"] if c not in dealt["among"])
    old = dealt["cards"][0]
    _redeal(records, dealt, [*dealt["among"], elsewhere[0]])
    _drawn_as(records[i + 1]["event"], old, dealt["cards"][0])
    return _sealed(export, records), records[i]["version"]


def deleted(export: str) -> tuple[str, int]:
    """The last ``Dealt`` of a draw deleted, every later version moved down by one: the draw
    takes its card with no ``Dealt`` before it."""
    records = read_export(export)[1]
    i = _a_draw(records)
    version = records[i]["version"]
    del records[i]
    return _sealed(export, records), version


def moved_after(export: str) -> tuple[str, int]:
    """A ``Dealt`` moved after the draw that uses it."""
    records = read_export(export)[1]
    i = _a_draw(records)
    version = records[i]["version"]
    records[i], records[i + 1] = records[i + 1], records[i]
    return _sealed(export, records), version


def wrong_pile(export: str) -> tuple[str, int]:
    """A draw from another pile: the ``Dealt`` before a draw deals from another pile (the other
    seat's deck, the Treasures), as the key gives it, and the draw takes that card."""
    records = read_export(export)[1]
    states = _states(records)

    def other_pile(i: int) -> tuple[str, list[str]]:
        before = states[i]
        if "decks" in before:  # classic: a Treasure for a Door
            return "treasures", list(before["decks"]["treasure"])
        player = records[i + 1]["event"]["player"]
        other = "B" if player == "A" else "A"
        return f"{other}:deck", list(before["seats"][other]["zones"]["deck"])

    # a draw while the other pile holds a card (a random game may have emptied the Treasures)
    i = _a_draw(records, lambda i: bool(other_pile(i)[1]))
    pile, among = other_pile(i)
    dealt = records[i]["event"]
    old = dealt["cards"][0]
    dealt["pile"] = pile
    _redeal(records, dealt, among)
    _drawn_as(records[i + 1]["event"], old, dealt["cards"][0])
    return _sealed(export, records), records[i + 1]["version"]


def part_reshuffled(export: str) -> tuple[str, int]:
    """A classic reshuffle that lists only some of the discards (the first one), and the
    ``Dealt`` after it dealing from just those the cards the honest draw took (the draw itself
    unchanged): a part the key deals them from (the discards but one), else the drawn cards
    alone. Only the discards the log holds at that point tell."""
    records = read_export(export)[1]
    i = next(i for i, r in enumerate(records) if r["event"]["type"] == "DiscardReshuffled")
    reshuffle, dealt = records[i]["event"], records[i + 1]["event"]
    assert dealt["type"] == "Dealt" and sorted(reshuffle["cards"]) == dealt["among"]
    key, drawn = _key(records), dealt["cards"]
    parts = [sorted(set(dealt["among"]) - {c}) for c in dealt["among"] if c not in drawn]
    deal = dealing.Dealer(key, dealt["counter"]).deal
    part = next((p for p in parts if deal(p, dealt["take"])[0] == drawn), sorted(drawn))
    reshuffle["cards"] = [c for c in reshuffle["cards"] if c in part]
    dealt.update(among=part, cards=deal(part, dealt["take"])[0])
    return _sealed(export, records), records[i + 1]["version"]


FORGERIES: dict[str, Callable[[str], tuple[str, int]]] = {
    "narrowed": narrowed,
    "not_in_pile": not_in_pile,
    "deleted": deleted,
    "moved_after": moved_after,
    "wrong_pile": wrong_pile,
}
#: Each family's forgeries: classic's also forges a reshuffle (the CCG has none).
FAMILY_FORGERIES: dict[str, dict[str, Callable[[str], tuple[str, int]]]] = {
    "ccg": FORGERIES,
    "classic": {**FORGERIES, "part_reshuffled": part_reshuffled},
}
