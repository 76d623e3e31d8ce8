"""The viewer's own verifier, in Chromium: ``api/static/dealing.js`` (the dealing scheme and
``domain.fair_check.verify``) and ``api/static/chain.js`` (canonical JSON, the hash chain, reading an
export) against the Python code they re-implement (issue #25).

The scripts run in a page of their own, served by Playwright from ``https://munchlog.test``
(a secure context, so WebCrypto is there) with nothing else: no server, no viewer. Checked: the
known-answer vectors of docs/dealing.md (``tests/unit/test_dealing.py``), then many random
inputs on which JavaScript and Python must agree: deals, dice, large bounds, commitments and
keys; canonical JSON of awkward values (floats, big integers, any text); and ``verify`` of a
finished server-dealt game's records, honest and forged.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain import dealing, fair_check
from domain.envelope import canonical_json, verify_records
from tests import dealt
from tests.unit import test_dealing as kat

pytestmark = pytest.mark.e2e

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
ORIGIN = "https://munchlog.test"
PAGE = (
    "<!doctype html><meta charset=utf-8><title>dealing.js</title>"
    '<script src="/static/dealing.js"></script><script src="/static/chain.js"></script>'
)


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()

    def serve(route: Any) -> None:
        path = route.request.url[len(ORIGIN) :]
        if path.startswith("/static/"):
            body = (STATIC / path[len("/static/") :]).read_text(encoding="utf-8")
            route.fulfill(status=200, content_type="text/javascript", body=body)
        else:
            route.fulfill(status=200, content_type="text/html", body=PAGE)

    context.route(f"{ORIGIN}/**", serve)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{ORIGIN}/")
    assert page.evaluate("window.isSecureContext && !!window.MunchlogChain")
    try:
        yield page
    finally:
        context.close()


def test_the_known_answers(page: Any) -> None:
    got = page.evaluate(
        """async ([game, secret, secret1]) => {
          const D = MunchlogDealing, u = D.unhex, fill = (b) => new Uint8Array(32).fill(b);
          const seeds = [["A", fill(0x41)], ["B", fill(0x42)], ["C", null]];
          const k = await D.gameKey(u(secret), game, seeds);
          const k1 = await D.rekey(k, 1, u(secret1), game, [["A", fill(0x61)], ["B", null], ["C", fill(0x63)]]);
          const rolls = [], rolls1 = [];
          for (let c = 0; c < 10; c++) rolls.push(await D.roll(k, c));
          for (let c = 12; c < 17; c++) rolls1.push(await D.roll(k1, c));
          const ids = Array.from({ length: 10 }, (_, i) => "c0" + i);
          return {
            vectors: {
              "server commitment": await D.serverCommitment(game, u(secret)),
              "seat A commitment": await D.seatCommitment(game, "A", fill(0x41)),
              "seat B commitment": await D.seatCommitment(game, "B", fill(0x42)),
              "game key": D.hex(k),
              "server-only key": D.hex(await D.gameKey(u(secret), game, [])),
              "block 0 of counter 0": D.hex(await D.block(k, 0, 0)),
              "epoch 1 server commitment": await D.serverCommitment(game, u(secret1)),
              "epoch 1 key": D.hex(k1),
            },
            message: D.hex(D.keyMessage(game, seeds)),
            rolls: rolls, rolls1: rolls1,
            below: await D.randbelow(k, 10, 1000000),
            shuffled: await D.shuffle(k, 11, ids.slice().reverse()),
          };
        }""",
        [kat.GAME, kat.SECRET.hex(), kat.SECRET_1.hex()],
    )
    assert got["vectors"] == kat.VECTORS
    assert got["message"] == kat.KEY_MESSAGE
    assert (got["rolls"], got["rolls1"]) == (kat.ROLLS, kat.ROLLS_1)
    assert got["below"] == kat.RANDBELOW_10
    assert got["shuffled"] == kat.SHUFFLE_11


def _ids(rng: random.Random) -> list[str]:
    n = rng.choice([1, 2, 3, 7, 40, rng.randint(1, 130)])
    alphabet = string.ascii_letters + string.digits + "-_:.~"
    ids = {"".join(rng.choices(alphabet, k=rng.randint(1, 12))) for _ in range(n)}
    return rng.sample(sorted(ids), len(ids))  # distinct, in no particular order


def test_deals_and_dice_agree_with_python_on_random_inputs(page: Any) -> None:
    rng = random.Random(25)
    deals, rolls, bounds = [], [], []
    for _ in range(400):
        key, counter, items = rng.randbytes(32), rng.choice([0, rng.getrandbits(64)]), _ids(rng)
        deals.append([key.hex(), str(counter), items, rng.randint(0, len(items))])
    for _ in range(400):
        key, counter = rng.randbytes(32), rng.choice([rng.randint(0, 999), rng.getrandbits(64)])
        sides = rng.choice([1, 2, 3, 6, 20, 255, 256, 257, rng.randint(1, 2**31)])
        rolls.append([key.hex(), str(counter), sides, rng.randint(1, 12)])
    for _ in range(100):
        key, n = rng.randbytes(32), rng.choice([2**53 + 1, 2**64, rng.getrandbits(90) + 1])
        bounds.append([key.hex(), str(rng.getrandbits(64)), str(n)])
    got = page.evaluate(
        """async ([deals, rolls, bounds]) => {
          const D = MunchlogDealing, u = D.unhex;
          const out = { deals: [], rolls: [], bounds: [] };
          for (const [k, c, items, take] of deals) out.deals.push(await D.deal(u(k), BigInt(c), items, take));
          for (const [k, c, sides, count] of rolls) out.rolls.push(await D.dice(u(k), BigInt(c), sides, count));
          for (const [k, c, n] of bounds) out.bounds.push(String(await D.randbelow(u(k), BigInt(c), BigInt(n))));
          return out;
        }""",
        [deals, rolls, bounds],
    )
    assert got["deals"] == [
        dealing.deal(bytes.fromhex(k), int(c), items, take) for k, c, items, take in deals
    ]
    assert got["rolls"] == [
        dealing.dice(bytes.fromhex(k), int(c), sides, count) for k, c, sides, count in rolls
    ]
    assert got["bounds"] == [
        str(dealing.randbelow(bytes.fromhex(k), int(c), int(n))) for k, c, n in bounds
    ]


def test_commitments_and_keys_agree_with_python_on_random_inputs(page: Any) -> None:
    rng = random.Random(2025)
    cases = []
    for _ in range(60):
        game = "".join(
            rng.choices(string.ascii_letters + string.digits + "-", k=rng.randint(1, 40))
        )
        seats = rng.sample(["A", "B", "C", "D", "E", "F", "seat-7"], rng.randint(0, 6))
        seeds = [[s, rng.choice([None, rng.randbytes(32).hex()])] for s in seats]
        cases.append([game, rng.randbytes(32).hex(), rng.randbytes(32).hex(), seeds])
    got = page.evaluate(
        """async (cases) => {
          const D = MunchlogDealing, u = D.unhex, out = [];
          for (const [game, secret, secret1, seeds] of cases) {
            const s = seeds.map(([seat, seed]) => [seat, seed === null ? null : u(seed)]);
            const k = await D.gameKey(u(secret), game, s);
            const seatOf = s.find(([, seed]) => seed !== null);
            out.push([await D.serverCommitment(game, u(secret)), D.hex(k),
              D.hex(await D.rekey(k, 3, u(secret1), game, s.slice().reverse())),
              seatOf ? await D.seatCommitment(game, seatOf[0], seatOf[1]) : null]);
          }
          return out;
        }""",
        cases,
    )
    want = []
    for game, secret, secret1, seeds in cases:
        s = [(seat, None if seed is None else bytes.fromhex(seed)) for seat, seed in seeds]
        key = dealing.game_key(bytes.fromhex(secret), game, s)
        seat_of = next(((seat, seed) for seat, seed in s if seed is not None), None)
        want.append(
            [
                dealing.server_commitment(game, bytes.fromhex(secret)),
                key.hex(),
                dealing.rekey(key, 3, bytes.fromhex(secret1), game, s[::-1]).hex(),
                dealing.seat_commitment(game, *seat_of) if seat_of else None,
            ]
        )
    assert got == want


FLOATS = [
    0.0,
    -0.0,
    1.0,
    -1.5,
    1e-07,
    1e-05,
    0.0001,
    1e16,
    1e15,
    123456789012345.67,
    1e300,
    5e-324,
    0.1 + 0.2,
    2.5e-5,
    1.7976931348623157e308,
    100000.0,
]


def _value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(9 if depth < 4 else 6)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.choice([0, -1, 2**53 - 1, 2**53 + 1, -(2**63), 2**64 + 7, rng.getrandbits(40)])
    if pick == 2:
        return rng.choice(
            [*FLOATS, rng.uniform(-1e6, 1e6), rng.random() * 10 ** rng.randint(-30, 30)]
        )
    if pick in (3, 4, 5):
        chars = 'aZ09 "\\/\n\t\x00\x1f\x7fé€\u2028\ufeff😀𝄞' + "\ud7ff\ue000\uffff"
        return "".join(rng.choices(chars, k=rng.randint(0, 8)))
    if pick in (6, 7):
        return {_key(rng): _value(rng, depth + 1) for _ in range(rng.randint(0, 5))}
    return [_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]


def _key(rng: random.Random) -> str:
    return "".join(rng.choices("ab_Z1é😀\ue000\uffff", k=rng.randint(0, 4)))


def test_canonical_json_agrees_with_python_on_awkward_values(page: Any) -> None:
    rng = random.Random(7)
    values = [_value(rng) for _ in range(400)] + [{"f": f} for f in FLOATS]
    texts = [
        json.dumps(v, indent=rng.choice([None, 1]), ensure_ascii=rng.random() < 0.5) for v in values
    ]
    got = page.evaluate(
        "texts => texts.map((t) => MunchlogChain.canonical(MunchlogChain.parse(t)))", texts
    )
    assert got == [canonical_json(v) for v in values]


@pytest.fixture(scope="module")
def game_export(tmp_path_factory: pytest.TempPathFactory) -> str:

    folder = tmp_path_factory.mktemp("dealing-js")
    return dealt.export_in(folder)


def js_agrees_with_python(page: Any, exports: list[str]) -> list[dict[str, Any]]:
    """The viewer's own check of each export (``MunchlogChain.verifyExport``), each asserted
    to find the chain whole (the forger re-sealed it) and to say what ``fair_check`` says."""
    got: list[dict[str, Any]] = page.evaluate(
        "async (texts) => { const out = []; for (const t of texts) "
        "out.push(await MunchlogChain.verifyExport(t)); return out; }",
        exports,
    )
    for text, report in zip(exports, got, strict=True):
        records = dealt.records_of(text)
        assert report["chain"]["ok"] is True and report["chain"]["checked"] == len(records)
        assert report["dealing"] == fair_check.verify(records)
    return got


def _forgeries(export: str, operations: int = 10**6) -> list[str]:
    """``export`` rewritten one event at a time, the chain re-sealed each time: the first
    ``operations`` Dealt's result, counter and epoch, the cards or dice of the event that uses
    it, every commitment and reveal, the secret."""
    out = []
    before: dict[str, Any] = {}
    for record in dealt.records_of(export):
        event, version = record["event"], record["version"]
        if event["type"] == "Dealt":
            operations -= 1
        if operations < 0 and event["type"] != "ServerSecretRevealed":
            continue
        if before.get("type") == "Dealt" and event["type"] != "Dealt":  # it uses the result
            left = [c for c in before["among"] if c not in before["cards"]]
            # any drawn card (a mulligan's returned hand may hold a card drawn again: verify
            # asks that the dealt cards be all in one field, the new hand)
            cards = event.get("cards") if isinstance(event.get("cards"), list) else []
            only = [i for i, c in enumerate(cards) if isinstance(c, str)]
            if left and only:
                out.append(
                    dealt.forged(
                        export,
                        version,
                        lambda e, i=only[0], c=left[0]: e["cards"].__setitem__(i, c),
                    )
                )
            if "rolls" in event:
                out.append(
                    dealt.forged(export, version, lambda e: e.update(rolls={"A": 7, "B": 0}))
                )
        before = event
        if event["type"] == "Dealt":
            change = dealt.other_card if event["op"] == "deal" else dealt.other_die
            if event["op"] == "deal" and len(event["cards"]) in (0, len(event["among"])):
                change = dealt.next_counter  # no other card to deal
            out += [
                dealt.forged(export, version, change),
                dealt.forged(export, version, dealt.next_counter),
            ]
            out.append(dealt.forged(export, version, lambda e: e.update(epoch=1)))
        elif event["type"] == "SeedRevealed":
            out.append(dealt.forged(export, version, dealt.other_seed))
        elif event["type"] == "SeedCommitted":
            out.append(dealt.forged(export, version, lambda e: e.update(contributor="Z")))
        elif event["type"] == "ServerSecretRevealed":
            out.append(dealt.forged(export, version, dealt.other_secret))
    return out


def test_verify_agrees_with_python_on_an_honest_and_forged_exports(
    page: Any, game_export: str
) -> None:
    exports = [game_export, *_forgeries(game_export)]
    got = js_agrees_with_python(page, exports)
    assert got[0]["dealing"]["complete"] is True
    assert all(r["dealing"]["first_mismatch"] for r in got[1:])
    head = dealt.records_of(game_export)[-1]["hash"]
    assert got[0]["chain"]["head"] == head
    records = dealt.records_of(game_export)
    broken = [
        [records[0], records[2], records[1], *records[3:]],  # two rows swapped
        records[1:],  # the first cut off
        [*records[:3], records[2], *records[3:]],  # one twice
        [*records[:5], {**records[5], "received_at": "2000-01-01T00:00:00+00:00"}, *records[6:]],
    ]
    texts = [export_json_text_unchecked(game_export, rows) for rows in broken]
    got = page.evaluate(
        """async (texts) => {
          const out = [];
          for (const t of texts) out.push((await MunchlogChain.verifyChain(MunchlogChain.readExport(t).records)).problems);
          return out;
        }""",
        texts,
    )
    want = [verify_records(rows)["problems"] for rows in broken]
    assert [[(p["version"], p["reason"]) for p in ps] for ps in got] == [
        [(p["version"], p["reason"]) for p in ps] for ps in want
    ]
    assert all(got)


def export_json_text_unchecked(export: str, rows: list[dict[str, Any]]) -> str:
    """``export`` holding ``rows`` as they are (entries made one by one, not walked: rows out
    of order would not fold)."""
    from projections.exports.walk import export_entry

    doc = json.loads(export)
    doc["events"] = [export_entry(row, "judge") for row in rows]
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("ruleset", "seats"), [("munchkin-deluxe", 4), ("munchkin-age-of-sigmar", 6)]
)
def test_a_classic_game_checks_alike(page: Any, ruleset: str, seats: int) -> None:
    """A classic Munchkin game dealt by the server, played out by the demo's policy (a deck
    may run out: the rules' reshuffle stands between a draw and its use): its chain, and its
    dealing honest and forged, as Python finds them."""
    from tests.pile_forgeries import classic_export

    export = classic_export(ruleset, seats)
    exports = [export, *_forgeries(export, operations=3)]
    got = js_agrees_with_python(page, exports)
    assert got[0]["dealing"]["complete"] is True and got[0]["dealing"]["checked"] > 10
    assert len(got) > 8 and all(r["dealing"]["first_mismatch"] for r in got[1:])


def test_verify_agrees_on_what_stands_between_an_operation_and_its_use(
    page: Any, game_export: str
) -> None:
    """An event inserted between each Dealt and the event that uses it: the rules' bookkeeping
    that names none of the cards dealt stands (a classic reshuffle), a seat's event or one after
    a die does not. The records go to both verifiers as they are (no chain)."""
    records = dealt.records_of(game_export)
    cases, kinds = [], []
    for index, record in enumerate(records):
        if record["event"]["type"] != "Dealt":
            continue
        for seat in ("rules", "A"):
            between = {"type": "GoldGranted", "v": 1, "seat": seat, "cause": None}
            between |= {"violation": None, "player": "B", "amount": 1}
            rows = [*records[: index + 1], {"version": 0, "event": between}, *records[index + 1 :]]
            cases.append([{"version": n, "event": r["event"]} for n, r in enumerate(rows, 1)])
            kinds.append((seat, record["event"]["op"]))
    got = page.evaluate(
        "async (cases) => { const out = []; for (const c of cases) out.push(await MunchlogDealing.verify(c)); return out; }",
        cases,
    )
    assert got == [fair_check.verify(rows) for rows in cases]
    verdicts = {(*kind, report["ok"]) for kind, report in zip(kinds, got, strict=True)}
    assert verdicts == {
        ("rules", "deal", True),
        ("A", "deal", False),
        ("rules", "dice", False),
        ("A", "dice", False),
    }


# --------------------------------------------------------------------------- the piles (#35)


@pytest.fixture(scope="module")
def family_exports() -> dict[str, str]:
    """A finished server-dealt game of each family (tests/pile_forgeries.py), with draws."""
    from tests import pile_forgeries

    return {
        "ccg": pile_forgeries.ccg_export(),
        "classic": pile_forgeries.classic_export(reshuffled=True),
    }


@pytest.mark.parametrize("family", ("ccg", "classic"))
def test_the_pile_forgeries_are_named_alike(
    page: Any, family_exports: dict[str, str], family: str
) -> None:
    """The best forger's pile forgeries (a pile narrowed to one card, a card not in the pile,
    a Dealt deleted, a Dealt moved after its use, a draw from the wrong pile; classic's
    reshuffle listing only some of the discards and its Dealt dealing from those: the chain,
    the visibility and every result hold): the viewer's check names each at the version
    ``munchlog verify``, ``GET /verify`` and the import name (tests/api/test_dealing_piles.py),
    with Python's very report."""
    from tests import pile_forgeries

    export = family_exports[family]
    forgeries = pile_forgeries.FAMILY_FORGERIES[family]
    cases = {name: forge(export) for name, forge in forgeries.items()}
    got = js_agrees_with_python(page, [export, *(text for text, _ in cases.values())])
    assert got[0]["dealing"]["ok"] is True and got[0]["dealing"]["complete"] is True
    for (name, (_, version)), report in zip(cases.items(), got[1:], strict=True):
        assert report["dealing"]["first_mismatch"]["version"] == version, (name, report)


def _renumbered(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"version": n, "event": r["event"]} for n, r in enumerate(rows, 1)]


def test_the_pile_rule_reads_alike_in_both_languages(
    page: Any, family_exports: dict[str, str]
) -> None:
    """Records (no chain) on which both verifiers must give the same report, the rule's edges:
    a card put on top of the deck is drawn with no Dealt (D.20), and a Dealt there is one too
    many; a pile with a card more or less; a take rewritten; a mulligan's pile without the hand;
    a roll without its Dealt; an honest classic game's reshuffles."""
    from domain.ccg.events import CardMoved

    rows = [dict(r) for r in dealt.records_of(family_exports["ccg"])]
    events = [r["event"] for r in rows]
    last = max(i for i, e in enumerate(events) if e["type"] == "CardDrawn")
    drawer = events[last]["player"]
    hand = next(
        e["cards"] for e in events if e["type"] == "OpeningHandDrawn" and e["player"] == drawer
    )
    on_top = CardMoved(seat="judge", card=hand[0], to="deck_top", face="down").to_dict()
    known_top = [*rows[: last - 1], {"version": 0, "event": on_top}]
    cases = {
        "known top drawn without a Dealt": [
            *known_top,
            {"version": 0, "event": {**events[last], "card": hand[0]}},
            *rows[last + 1 :],
        ],
        "known top drawn after a Dealt": [*known_top, *rows[last - 1 :]],
    }

    def changed(index: int, **fields: Any) -> list[dict[str, Any]]:
        out = [dict(r) for r in rows]
        out[index] = {**out[index], "event": {**events[index], **fields}}
        return out

    dealt_at = last - 1
    among = events[dealt_at]["among"]
    cases["a card less"] = changed(
        dealt_at, among=among[1:] if among[0] not in events[dealt_at]["cards"] else among[:-1]
    )
    cases["a take rewritten"] = changed(dealt_at, take=2)
    mulligan = [
        i
        for i, e in enumerate(events)
        if e["type"] == "Dealt" and events[i + 1]["type"] == "OpeningHandDrawn"
    ]
    cases["an opening hand's pile less a card"] = changed(
        mulligan[0], among=events[mulligan[0]]["among"][:-1]
    )
    roll = next(i for i, e in enumerate(events) if e["type"] == "Dealt" and e["op"] == "dice")
    cases["a roll without its Dealt"] = [*rows[:roll], *rows[roll + 1 :]]
    classic = [dict(r) for r in dealt.records_of(family_exports["classic"])]
    cases["an honest classic game"] = classic
    texts = [_renumbered(c) for c in cases.values()]
    got = page.evaluate(
        "async (cases) => { const out = []; for (const c of cases) out.push(await MunchlogDealing.verify(c)); return out; }",
        texts,
    )
    want = [fair_check.verify(c) for c in texts]
    assert got == want
    verdicts = {
        name: (r["first_mismatch"] or {}).get("reason") for name, r in zip(cases, want, strict=True)
    }
    assert verdicts["known top drawn without a Dealt"] is None, verdicts
    assert verdicts["an honest classic game"] is None, verdicts
    assert all(
        verdicts[name]
        for name in cases
        if name not in ("known top drawn without a Dealt", "an honest classic game")
    ), verdicts


def test_demo_games_the_server_deals_check_alike(page: Any) -> None:
    """The CCG demo's games dealt by the server (draws, spills, cards moved by effects, the
    known order of a deck): the viewer's check and Python's give one report, and it is ok."""
    from projections.exports import export_json_text
    from tests.service.helpers import new_log, play_demo

    exports = []
    for seed in (1, 2, 3):
        log = new_log()
        try:
            played = play_demo(log, seed=seed, dealing="server")
            exports.append(export_json_text(log.all_records(played.game_id), "judge"))
        finally:
            log.close()
    got = js_agrees_with_python(page, exports)
    assert all(r["dealing"]["ok"] and r["dealing"]["complete"] for r in got)
