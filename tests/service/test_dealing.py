"""Fair dealing through the service (issue #25, docs/rules.md E, docs/dealing.md): a CCG game
the server deals, its seeds, its refusals, withholding, the end's reveal and the verifier.

The scheme's own properties (commitments, the key, uniformity) are tests/unit/test_dealing.py's;
here the game: what each command records, what every viewer sees, and what ``verify`` names.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import fair, fair_check
from domain.dealing import seat_commitment, server_commitment
from domain.errors import ImpossibleCommand, InvalidCommand, RuleViolation
from domain.fold import apply_record, initial_state
from domain.game import Game, GameSecrets
from domain.seeding import play_seed
from service.games import GameLog
from tests.builders import as_new, game_spec
from tests.service.helpers import event_view, play_demo, refused, start

Seeds = dict[str, bytes]


def secret_of(log: GameLog, game_id: UUID) -> bytes:
    found: Any = log.store.load(GameSecrets.id_for(game_id))
    return bytes(found.by_epoch()[0])


def commit(log: GameLog, gid: UUID, seat: str, seed: bytes) -> dict[str, Any]:
    command = {
        "type": "commit_seed",
        "seat": seat,
        "commitment": seat_commitment(str(gid), seat, seed),
    }
    return log.record(gid, [command], actor=seat).response


def reveal(log: GameLog, gid: UUID, seat: str, seed: bytes) -> dict[str, Any]:
    command = {"type": "reveal_seed", "seat": seat, "seed": seed.hex()}
    return log.record(gid, [command], actor=seat).response


def act(log: GameLog, gid: UUID, seat: str, kind: str, **fields: Any) -> dict[str, Any]:
    return log.record(gid, [{"type": kind, "seat": seat, **fields}], actor=seat).response


def seeded(log: GameLog, **options: Any) -> tuple[UUID, Seeds]:
    """A server-dealt CCG game whose two seats have committed and revealed."""
    gid = start(log, dealing="server", **options).game_id
    seeds = {seat: os.urandom(32) for seat in "AB"}
    for seat in "AB":
        commit(log, gid, seat, seeds[seat])
    for seat in "AB":
        reveal(log, gid, seat, seeds[seat])
    return gid, seeds


def records(log: GameLog, gid: UUID) -> list[dict[str, Any]]:
    return [dict(r) for r in log.all_records(gid)]


def started(log: GameLog, gid: UUID) -> None:
    """Opening hands, the roll (again on a tie) and the choice: the game in play."""
    act(log, gid, "A", "draw_opening")
    act(log, gid, "B", "draw_opening")
    while True:
        events = act(log, gid, "A", "roll_first")["events"]
        rolled = next(e for e in events if e["type"] == "FirstPlayerRolled")["data"]
        if not rolled["tie"]:
            break
    winner = max(rolled["rolls"], key=rolled["rolls"].get)
    act(log, gid, winner, "choose_first", first="A")
    act(log, gid, "A", "keep")
    act(log, gid, "B", "keep")


@pytest.fixture
def dealt(log: GameLog) -> Iterator[tuple[GameLog, UUID, Seeds]]:
    gid, seeds = seeded(log)
    yield log, gid, seeds


# --------------------------------------------------------------------------- creation


def test_the_first_event_carries_the_commitment_and_never_the_secret(log: GameLog) -> None:
    gid = start(log, dealing="server").game_id
    secret = secret_of(log, gid)
    first = records(log, gid)[0]["event"]
    assert first["v"] == 2
    assert first["dealing"] == {
        "mode": "server",
        "scheme": "munchlog-rand-v1",
        "server_commitment": server_commitment(str(gid), secret),
        "contributors": ["A", "B"],
        "reveal_timeout": 60,
    }
    shown = repr([records(log, gid), log.overview(gid), log.game(gid).state])
    assert secret.hex() not in shown
    assert secret.hex() not in repr(log.store.load(GameSecrets.id_for(gid)))


def test_a_table_dealt_game_is_stored_as_before(log: GameLog) -> None:
    gid = start(log).game_id
    first = records(log, gid)[0]["event"]
    assert "dealing" not in first and "dealing" not in log.game(gid).state
    assert log.overview(gid)["dealing"] == {
        "mode": "table",
        "scheme": None,
        "contributors": [],
        "revealed": [],
        "withheld": [],
    }
    assert log.verify_game(gid)["dealing"] == {"mode": "table", "ok": True, "first_mismatch": None}


def test_a_version_1_creating_event_loads_as_table_dealt(log: GameLog) -> None:
    gid = start(log).game_id
    first = records(log, gid)[0]["event"]
    old = {**first, "v": 1}  # as stored before server dealing existed
    assert apply_record(initial_state(), {"event": old}) == apply_record(
        initial_state(), {"event": first}
    )
    assert "dealing" not in apply_record(initial_state(), {"event": old})


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"dealing": "dice"}, "request/invalid_dealing"),
        ({"contributors": ["A"]}, "request/invalid_dealing"),
        ({"dealing": "server", "contributors": ["C"]}, "request/invalid_contributors"),
        ({"dealing": "server", "contributors": ["A", "A"]}, "request/invalid_contributors"),
        ({"dealing": "server", "contributors": "A"}, "request/invalid_contributors"),
        ({"dealing": "server", "reveal_timeout": 0}, "request/invalid_reveal_timeout"),
        ({"dealing": "server", "reveal_timeout": True}, "request/invalid_reveal_timeout"),
    ],
)
def test_a_malformed_dealing_is_refused(log: GameLog, options: dict[str, Any], code: str) -> None:
    with refused(InvalidCommand, code):
        start(log, **options)


def test_contributors_are_kept_in_seat_order(log: GameLog) -> None:
    gid = start(log, dealing="server", contributors=["B", "A"], reveal_timeout=5).game_id
    assert log.overview(gid)["dealing"]["contributors"] == ["A", "B"]


# --------------------------------------------------------------------------- the seeds


def test_the_seeds_in_order(log: GameLog) -> None:
    gid = start(log, dealing="server").game_id
    a, b = os.urandom(32), os.urandom(32)
    with refused(RuleViolation, "rule/commitments_pending"):
        reveal(log, gid, "A", a)
    commit(log, gid, "A", a)
    with refused(RuleViolation, "rule/already_committed"):
        commit(log, gid, "A", os.urandom(32))
    with refused(RuleViolation, "rule/commitment_reused"):
        command = {"type": "commit_seed", "seat": "B"}
        log.record(gid, [{**command, "commitment": seat_commitment(str(gid), "A", a)}], actor="B")
    with refused(RuleViolation, "rule/seeds_pending"):
        act(log, gid, "A", "draw_opening")
    commit(log, gid, "B", b)
    with refused(RuleViolation, "rule/seed_mismatch"):
        reveal(log, gid, "A", b)
    reveal(log, gid, "A", a)
    with refused(RuleViolation, "rule/already_revealed"):
        reveal(log, gid, "A", a)
    view = log.overview(gid)["dealing"]
    assert (view["committed"], view["revealed"], view["ready"]) == (["A", "B"], ["A"], False)
    reveal(log, gid, "B", b)
    assert log.overview(gid)["dealing"]["ready"] is True


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"type": "commit_seed", "commitment": "AB" * 32}, "request/invalid_hex"),
        ({"type": "commit_seed", "commitment": "ab" * 31}, "request/invalid_hex"),
        ({"type": "commit_seed"}, "request/invalid_hex"),
        ({"type": "reveal_seed", "seed": 7}, "request/invalid_hex"),
    ],
)
def test_a_malformed_seed_command_is_400(log: GameLog, command: dict[str, Any], code: str) -> None:
    gid = start(log, dealing="server").game_id
    with refused(InvalidCommand, code):
        log.record(gid, [{**command, "seat": "A"}], actor="A")


def test_seeds_in_a_table_game_or_from_a_non_contributor_are_refused(log: GameLog) -> None:
    table = start(log).game_id
    with refused(RuleViolation, "rule/table_deals"):
        commit(log, table, "A", os.urandom(32))
    gid = start(log, dealing="server", contributors=["A"]).game_id
    with refused(RuleViolation, "rule/not_a_contributor"):
        commit(log, gid, "B", os.urandom(32))


def test_a_server_only_game_deals_at_once(log: GameLog) -> None:
    gid = start(log, dealing="server", contributors=[]).game_id
    events = act(log, gid, "A", "draw_opening")["events"]
    assert [e["type"] for e in events] == ["Dealt", "OpeningHandDrawn"]
    assert events[0]["data"]["counter"] == 0


# --------------------------------------------------------------------------- withholding


def test_a_late_contributor_is_recorded_as_withholding(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = start(log, dealing="server", reveal_timeout=30).game_id
    a, b = os.urandom(32), os.urandom(32)
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:00+00:00")
    commit(log, gid, "A", a)
    commit(log, gid, "B", b)
    assert log.overview(gid)["dealing"]["reveal_deadline"] == "2030-01-01T00:00:30Z"
    reveal(log, gid, "A", a)
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:31+00:00")
    with refused(RuleViolation, "rule/seed_withheld"):
        reveal(log, gid, "B", b)  # the withholding is decided first: the late reveal is refused
    withheld = records(log, gid)[-1]["event"]  # recorded on its own, the refusal aside
    assert (withheld["type"], withheld["contributor"], withheld["seat"]) == (
        "SeedWithheld",
        "B",
        "rules",
    )
    view = log.overview(gid)["dealing"]
    assert (view["revealed"], view["withheld"], view["ready"]) == (["A"], ["B"], True)
    events = act(log, gid, "A", "draw_opening")["events"]
    assert [e["type"] for e in events] == ["Dealt", "OpeningHandDrawn"]
    act(log, gid, "A", "concede")
    report = log.verify_game(gid)["dealing"]
    assert report["ok"] and report["complete"], report


# --------------------------------------------------------------------------- dealing


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("draw_opening", {"cards": ["x"] * 6}),
        ("roll_first", {"rolls": {"A": 6, "B": 1}}),
        ("mulligan", {"cards": ["x"] * 6}),
        ("draw", {"card": "x"}),
        ("spill", {"cards": ["x"]}),
    ],
)
def test_a_command_naming_its_card_or_value_is_refused(
    dealt: tuple[GameLog, UUID, Seeds], kind: str, fields: dict[str, Any]
) -> None:
    log, gid, _ = dealt
    version = log.game(gid).version
    with refused(RuleViolation, "rule/server_deals") as caught:
        act(log, gid, "A", kind, **fields)
    assert caught.value.rule == "E.1"  # type: ignore[attr-defined]
    assert log.game(gid).version == version


def test_the_record_mode_refuses_them_too(log: GameLog) -> None:
    gid = start(log, dealing="server", contributors=[], mode="record").game_id
    with refused(RuleViolation, "rule/server_deals"):
        act(log, gid, "A", "draw_opening", cards=["x"] * 6)


def test_a_played_game_verifies_from_end_to_end(dealt: tuple[GameLog, UUID, Seeds]) -> None:
    log, gid, _ = dealt
    started(log, gid)
    act(log, gid, "A", "draw")
    before = log.verify_game(gid)["dealing"]
    assert before["ok"] and not before["complete"] and before["checked"] == 0
    act(log, gid, "B", "concede")
    rows = records(log, gid)
    dealt_rows = [r["event"] for r in rows if r["event"]["type"] == "Dealt"]
    assert [d["counter"] for d in dealt_rows] == list(range(len(dealt_rows)))
    assert rows[-1]["event"]["type"] == "ServerSecretRevealed"
    assert rows[-1]["event"]["secret"] == secret_of(log, gid).hex()
    report = log.verify_game(gid)
    assert report["ok"] and report["dealing"]["complete"], report
    assert report["dealing"]["checked"] == report["dealing"]["operations"] == len(dealt_rows)
    assert log.overview(gid)["dealing"]["server_secrets"] == {"0": secret_of(log, gid).hex()}


def test_the_draws_are_the_keys(dealt: tuple[GameLog, UUID, Seeds]) -> None:
    """A drawn card is the one the key gives: the drawn card is the first of the deck's cards
    (in no known order) shuffled at the draw's counter."""
    log, gid, _ = dealt
    started(log, gid)
    deck = list(log.game(gid).state["seats"]["A"]["zones"]["deck"])
    events = act(log, gid, "A", "draw")["events"]
    op, drawn = events[0], events[1]
    assert op["type"] == "Dealt" and drawn["type"] == "CardDrawn"
    assert sorted(op["data"]["among"]) == sorted(deck)
    assert op["data"]["cards"] == [drawn["data"]["card"]]
    game = log.game(gid)
    key = fair.key_of(game.state, {0: secret_of(log, gid)})
    from domain.dealing import deal

    assert deal(key, op["data"]["counter"], deck, 1) == op["data"]["cards"]


def tampered(rows: list[dict[str, Any]], version: int, **data: Any) -> list[dict[str, Any]]:
    out = copy.deepcopy(rows)
    out[version - 1]["event"].update(data)
    return out


def test_verify_names_the_first_tampered_event(dealt: tuple[GameLog, UUID, Seeds]) -> None:
    log, gid, _ = dealt
    started(log, gid)
    act(log, gid, "A", "concede")
    rows = records(log, gid)
    ops = [r for r in rows if r["event"]["type"] == "Dealt"]
    dice = next(r for r in ops if r["event"]["op"] == "dice")
    deal_op = ops[0]
    values = [7 - v for v in dice["event"]["values"]]
    cases = [
        (tampered(rows, dice["version"], values=values), dice["version"], "recorded result"),
        (
            tampered(rows, deal_op["version"], cards=[*deal_op["event"]["cards"][1:], "x"]),
            deal_op["version"],
            "recorded result",
        ),
        (tampered(rows, ops[1]["version"], counter=5), ops[1]["version"], "skips"),
        (tampered(rows, ops[1]["version"], counter=0), ops[1]["version"], "repeats"),
    ]
    seed_row = next(r for r in rows if r["event"]["type"] == "SeedRevealed")
    cases.append((tampered(rows, seed_row["version"], seed="00" * 32), seed_row["version"], "open"))
    secret_row = rows[-1]
    cases.append(
        (tampered(rows, secret_row["version"], secret="11" * 32), secret_row["version"], "open")
    )
    for bad, version, words in cases:
        report = fair_check.verify(bad)
        assert not report["ok"], (version, words)
        assert report["first_mismatch"]["version"] == version, report
        assert words in report["first_mismatch"]["reason"], report


def test_a_random_operation_before_the_commitments_is_named() -> None:
    rows = [
        {
            "version": 1,
            "event": {
                "game_id": "g",
                "dealing": {"contributors": ["A"], "server_commitment": "00" * 32},
            },
        },
        {
            "version": 2,
            "event": {
                "type": "Dealt",
                "op": "dice",
                "counter": 0,
                "epoch": 0,
                "scheme": "munchlog-rand-v1",
                "sides": 6,
                "values": [3],
            },
        },
    ]
    report = fair_check.verify(rows)
    assert report["first_mismatch"]["version"] == 2
    assert "before A revealed" in report["first_mismatch"]["reason"]


# --------------------------------------------------------------------------- who sees what


def test_a_seat_never_sees_the_cards_the_other_draws(dealt: tuple[GameLog, UUID, Seeds]) -> None:
    log, gid, _ = dealt
    started(log, gid)
    act(log, gid, "A", "draw")
    seats = ("A", "B")
    for record in log.all_records(gid):
        if record["event"]["type"] != "Dealt" or record["event"]["pile"] is None:
            continue
        owner = record["event"]["pile"].split(":")[0]
        other = "B" if owner == "A" else "A"
        seen = event_view(record, other, seats)["data"]
        assert all(c is None for c in [*seen["among"], *seen["cards"]]), seen
        judge = event_view(record, "judge", seats)["data"]
        assert judge["cards"] == record["event"]["cards"]


def game_with(secret: bytes, seeds: Seeds, spec: dict[str, Any]) -> Game:
    gid = UUID(spec["game_id"])
    game = Game.open(
        gid,
        {**spec, "dealing": {"contributors": ["A", "B"], "reveal_timeout": 60}},
        received_at="2030-01-01T00:00:00Z",
        secret=secret,
    )
    at = "2030-01-01T00:00:01Z"
    for seat in "AB":
        commitment = seat_commitment(str(gid), seat, seeds[seat])
        game.execute(
            [({"type": "commit_seed", "seat": seat, "commitment": commitment}, None)],
            received_at=at,
        )
    for seat in "AB":
        game.execute(
            [({"type": "reveal_seed", "seat": seat, "seed": seeds[seat].hex()}, None)],
            received_at=at,
        )
    return game


def judge_sees(game: Game, commitments_of: tuple[str, ...] = ()) -> list[Any]:
    """Everything the judge sees of the game but the server's commitment (the creating
    event's, and the ``server_commitment`` of the events of types ``commitments_of``)."""
    state = copy.deepcopy(game.state)
    state["dealing"].pop("server_commitment")
    events = []
    for e in game.pending_events:
        data = copy.deepcopy(getattr(e, "event", {}))
        data.pop("dealing", None)
        if data.get("type") in commitments_of:
            data.pop("server_commitment")
        events.append(data)
    return [state, events]


@settings(max_examples=20, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_no_viewer_learns_the_next_card_before_it_is_drawn(one: bytes, two: bytes) -> None:
    """The judge's whole view before a draw is the same whatever the server's secret, except
    the commitment; the secret decides what is drawn. So nothing a viewer (the judge included)
    sees before the draw tells which card comes: the deck's order does not exist before it."""
    spec = as_new(game_spec(3, game_id="11111111-2222-4333-8444-555555555555"))
    seeds = {"A": bytes(32), "B": bytes([1]) * 32}
    games = [game_with(secret, seeds, spec) for secret in (one, two)]
    assert judge_sees(games[0]) == judge_sees(games[1])
    hands = []
    for game, secret in zip(games, (one, two), strict=True):
        game.execute(
            [({"type": "draw_opening", "seat": "A"}, None)],
            received_at="2030-01-01T00:00:02Z",
            secrets={0: secret},
        )
        hands.append(game.state["seats"]["A"]["zones"]["hand"])
    if one != two:
        assert hands[0] != hands[1]  # 40 choose 6 hands: equal only by a ~1e-7 chance


def test_deciding_without_the_secret_is_refused_not_a_crash(log: GameLog) -> None:
    gid = start(log, dealing="server", contributors=[]).game_id
    game = log.game(gid)
    with pytest.raises(ImpossibleCommand) as caught:
        game.execute(
            [({"type": "draw_opening", "seat": "A"}, None)], received_at="2030-01-01T00:00:00Z"
        )
    assert caught.value.code == "command/no_dealer"


def test_a_table_dealt_creating_event_keeps_version_1s_bytes(log: GameLog) -> None:
    """Version 2 of the creating events only adds ``dealing``: a table-dealt game's is stored
    as version 1 was, so new table-dealt games hash as they did before server dealing."""
    first = records(log, start(log).game_id)[0]["event"]
    assert first["v"] == 1 and "dealing" not in first
    dealt = records(log, start(log, dealing="server").game_id)[0]["event"]
    assert dealt["v"] == 2 and "dealing" in dealt


def test_the_next_command_records_the_withholding_first(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = start(log, dealing="server", reveal_timeout=5).game_id
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:00+00:00")
    for seat in "AB":
        commit(log, gid, seat, os.urandom(32))
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:06+00:00")
    events = act(log, gid, "B", "draw_opening")["events"]
    assert [e["type"] for e in events] == [
        "SeedWithheld",
        "SeedWithheld",
        "Dealt",
        "OpeningHandDrawn",
    ]
    assert [e["data"]["contributor"] for e in events[:2]] == ["A", "B"]


def test_verify_names_an_event_that_does_not_use_what_was_dealt(
    dealt: tuple[GameLog, UUID, Seeds],
) -> None:
    """A forged export that keeps every Dealt honest but changes the card or the die the next
    event records is named at that event (the cards dealt, the dice in their order)."""
    log, gid, _ = dealt
    started(log, gid)
    act(log, gid, "A", "draw")
    act(log, gid, "A", "concede")
    rows = records(log, gid)
    assert fair_check.verify(rows)["ok"]
    drawn = next(r for r in rows if r["event"]["type"] == "CardDrawn")
    other = next(c for c in log.game(gid).state["seats"]["A"]["zones"]["deck"])
    rolled = next(r for r in rows if r["event"]["type"] == "FirstPlayerRolled")
    rolls = {seat: 7 - value for seat, value in rolled["event"]["rolls"].items()}
    for version, data, words in (
        (drawn["version"], {"card": other}, "does not draw the cards"),
        (rolled["version"], {"rolls": rolls}, "does not use the dice"),
    ):
        report = fair_check.verify(tampered(rows, version, **data))
        assert report["first_mismatch"]["version"] == version, report
        assert words in report["first_mismatch"]["reason"]


# --------------------------------------------------------------------------- the demo's game


def test_the_demo_plays_a_server_dealt_game_with_random_seeds(log: GameLog) -> None:
    """``munchlog demo --dealing server`` through the service (``play_demo``): both seats
    commit to fresh random bytes (never ``legal_commands``' public play seed) and reveal them,
    the game is played to its end by its legal commands, and ``verify`` re-derives it all."""
    played = play_demo(log, seed=4, dealing="server")
    assert played.status == "finished"
    events = [r["event"] for r in records(log, played.game_id)]
    seeds = {e["contributor"]: e["seed"] for e in events if e["type"] == "SeedRevealed"}
    assert sorted(seeds) == ["A", "B"]
    for seat, seed in seeds.items():
        assert seed != play_seed(str(played.game_id), seat, 0).hex()
    report = log.verify_game(played.game_id)["dealing"]
    assert report["ok"] and report["complete"] and report["checked"] > 3, report


def test_a_contributor_that_never_commits_cannot_stall_the_game(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first commitment opens the commitments for ``reveal_timeout``: a contributor that
    has not committed by then is withheld, and the others then have as long to reveal."""
    gid = start(log, dealing="server", reveal_timeout=10).game_id
    a = os.urandom(32)
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:00+00:00")
    commit(log, gid, "A", a)
    assert log.overview(gid)["dealing"]["reveal_deadline"] == "2030-01-01T00:00:10Z"
    with refused(RuleViolation, "rule/commitments_pending"):
        reveal(log, gid, "A", a)
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:11+00:00")
    with refused(RuleViolation, "rule/seed_withheld"):
        commit(log, gid, "B", os.urandom(32))  # too late: B is withheld (recorded on its own)
    view = log.overview(gid)["dealing"]
    assert (view["withheld"], view["ready"], view["reveal_deadline"]) == (
        ["B"],
        False,
        "2030-01-01T00:00:20Z",
    )
    with refused(RuleViolation, "rule/seeds_pending"):
        act(log, gid, "A", "draw_opening")
    reveal(log, gid, "A", a)
    events = act(log, gid, "A", "draw_opening")["events"]
    assert [e["type"] for e in events] == ["Dealt", "OpeningHandDrawn"]
    act(log, gid, "A", "concede")
    report = log.verify_game(gid)["dealing"]
    assert report["ok"] and report["complete"], report


def test_verify_wants_a_mulligans_dealt_cards_in_its_new_hand(
    dealt: tuple[GameLog, UUID, Seeds],
) -> None:
    """The cards dealt must all be in one card field of the event that uses them: a forged
    mulligan that puts a dealt card in the returned hand and another in the new one is named."""
    log, gid, _ = dealt
    act(log, gid, "A", "draw_opening")
    act(log, gid, "B", "draw_opening")
    while act(log, gid, "A", "roll_first")["events"][-1]["data"]["tie"] is not False:
        pass
    state = log.game(gid).state
    act(log, gid, state["setup"]["roll_winner"], "choose_first", first="A")
    act(log, gid, "A", "mulligan")
    act(log, gid, "A", "concede")
    rows = records(log, gid)
    assert fair_check.verify(rows)["ok"]
    taken = next(r for r in rows if r["event"]["type"] == "MulliganTaken")
    hand, returned = taken["event"]["cards"], taken["event"]["returned"]
    other = next(c for c in log.game(gid).state["seats"]["A"]["zones"]["deck"] if c not in hand)
    forged = tampered(
        rows, taken["version"], cards=[other, *hand[1:]], returned=[*returned, hand[0]]
    )
    report = fair_check.verify(forged)
    assert report["first_mismatch"]["version"] == taken["version"], report
    assert "does not draw the cards" in report["first_mismatch"]["reason"]


def test_a_seat_is_offered_its_reveal_once_a_silent_contributor_is_withheld(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The legal moves follow the rules' reading of "every contributor has committed": a
    contributor withheld for not committing no longer holds the others' reveals back."""
    from domain.seeding import seed_commands

    gid = start(log, dealing="server", reveal_timeout=10).game_id
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:00+00:00")
    commit(log, gid, "A", os.urandom(32))
    assert seed_commands(log.game(gid).state, "A") == []  # B may still commit
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:11+00:00")
    with refused(RuleViolation, "rule/seed_withheld"):
        commit(log, gid, "B", os.urandom(32))  # too late: B is withheld
    assert [c["type"] for c in seed_commands(log.game(gid).state, "A")] == ["reveal_seed"]
