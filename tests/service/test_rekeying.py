"""The judge's re-keying ruling (docs/rules.md E.3, docs/dealing.md) through the service: the
judge alone gets the secret of the epoch that ends, a new secret is committed and kept with the
game, the contributors seed the new epoch before the next draw, and the finished game verifies
across its epochs; what the judge learned says nothing of the later cards.

The game, its seeds and verify before any re-keying: tests/service/test_dealing.py.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import dealing, fair_check
from domain.dealing import seat_commitment, server_commitment
from domain.errors import ImpossibleCommand, RuleViolation
from domain.game import Game, GameSecrets
from domain.judge import Claim, decide_dispute, decide_ruling
from projections.exports import export_json_text
from projections.views import event_view, state_view
from service.games import GameLog
from tests.builders import as_new, game_spec
from tests.service.helpers import events_as, refused, start
from tests.service.test_dealing import (
    Seeds,
    act,
    commit,
    game_with,
    judge_sees,
    records,
    reveal,
    seeded,
    started,
)

VIEWERS = ("A", "B", "table", "spectator")


def secrets_of(log: GameLog, gid: UUID) -> dict[int, bytes]:
    found: Any = log.store.load(GameSecrets.id_for(gid))
    return dict(found.by_epoch())


def rekey(log: GameLog, gid: UUID, **more: Any) -> Any:
    """A dispute and the judge's re-keying ruling on it (the API's body: ``rekey: true``)."""
    did, _ = log.open_dispute(gid, Claim(raised_by="B", statement="show me the deck"))
    return log.rule(gid, did, {"ruling": "re-keyed", "corrections": [], "rekey": True, **more})


def seed_epoch(log: GameLog, gid: UUID) -> Seeds:
    seeds = {seat: os.urandom(32) for seat in "AB"}
    for seat in "AB":
        commit(log, gid, seat, seeds[seat])
    for seat in "AB":
        reveal(log, gid, seat, seeds[seat])
    return seeds


def everything_shown(log: GameLog, gid: UUID) -> str:
    """Every record and what every viewer is shown of the game (events, state, overview)."""
    state = log.game(gid).state
    texts = [repr(records(log, gid)), repr(log.overview(gid)), repr(log.verify_game(gid))]
    for viewer in (*VIEWERS, "judge"):
        texts.append(repr(events_as(log, gid, viewer)))
        texts.append(repr(state_view(state, viewer)))
    return "\n".join(texts)


def dealt_in(rows: list[dict[str, Any]], epoch: int) -> list[dict[str, Any]]:
    return [
        r["event"] for r in rows if r["event"]["type"] == "Dealt" and r["event"]["epoch"] == epoch
    ]


def test_a_rekey_mid_game(log: GameLog) -> None:
    gid, seeds0 = seeded(log)
    started(log, gid)
    act(log, gid, "A", "draw")
    first = records(log, gid)[0]["event"]["dealing"]
    counter = log.overview(gid)["dealing"]["next_counter"]
    ruled = rekey(log, gid)

    # the judge gets the secret of epoch 0, which opens its commitment
    secret0 = bytes.fromhex(ruled.dealing_secret["secret"])
    assert ruled.dealing_secret == {"epoch": 0, "secret": secrets_of(log, gid)[0].hex()}
    assert server_commitment(str(gid), secret0) == first["server_commitment"]
    assert secret0.hex() not in repr(ruled)
    # the ruling: the new commitment, then the RulingRecorded; the new secret kept with the game
    stored = secrets_of(log, gid)
    assert sorted(stored) == [0, 1]
    events = [r["event"] for r in ruled.records]
    assert [e["type"] for e in events] == ["DealingRekeyed", "RulingRecorded"]
    assert (events[0]["epoch"], events[0]["ruling"], events[0]["seat"]) == (1, "d1", "judge")
    assert events[0]["server_commitment"] == server_commitment(str(gid), stored[1])
    # no secret in any event, nor in what any viewer (the judge included) is shown
    for viewer in (*VIEWERS, "judge"):
        seen = repr([event_view(r, viewer, ("A", "B")) for r in ruled.records])
        assert secret0.hex() not in seen and stored[1].hex() not in seen
    shown = everything_shown(log, gid)
    assert secret0.hex() not in shown and stored[1].hex() not in shown

    view = log.overview(gid)["dealing"]
    assert (view["epoch"], view["committed"], view["revealed"], view["ready"]) == (1, [], [], False)
    assert view["next_counter"] == counter  # the counter runs on across epochs
    act(log, gid, "A", "end_turn")
    with refused(RuleViolation, "rule/seeds_pending"):
        act(log, gid, "B", "draw")
    with refused(RuleViolation, "rule/commitment_reused"):  # a seed the judge could know
        commit(log, gid, "A", seeds0["A"])
    seeds1 = seed_epoch(log, gid)
    drawn = act(log, gid, "B", "draw")["events"]
    assert drawn[0]["type"] == "Dealt"
    assert (drawn[0]["data"]["epoch"], drawn[0]["data"]["counter"]) == (1, counter)
    before = log.verify_game(gid)["dealing"]
    assert before["ok"] and not before["complete"] and before["checked"] == 0

    act(log, gid, "A", "concede")
    rows = records(log, gid)
    revealed = [r["event"] for r in rows if r["event"]["type"] == "ServerSecretRevealed"]
    assert [(e["epoch"], e["secret"]) for e in revealed] == [
        (0, stored[0].hex()),
        (1, stored[1].hex()),
    ]
    report = log.verify_game(gid)
    assert report["ok"] and report["dealing"]["complete"], report
    assert (
        report["dealing"]["checked"]
        == report["dealing"]["operations"]
        == len(dealt_in(rows, 0) + dealt_in(rows, 1))
    )
    assert dealt_in(rows, 1)

    # what the judge learned (epoch 0's secret, hence its key) does not give epoch 1's draws
    key0 = dealing.game_key(secret0, str(gid), [(s, seeds0[s]) for s in "AB"])
    guess = dealing.rekey(key0, 1, secret0, str(gid), [(s, seeds1[s]) for s in "AB"])
    key1 = dealing.rekey(key0, 1, stored[1], str(gid), [(s, seeds1[s]) for s in "AB"])
    for op in dealt_in(rows, 1):
        among, take, cards = op["among"], op["take"], op["cards"]
        assert dealing.deal(key1, op["counter"], among, take) == cards
        # the whole order each key gives (a single card drawn may agree by chance, 1 in N;
        # a whole order of N cards only by one in N!)
        order = dealing.shuffle(key1, op["counter"], among)
        assert dealing.shuffle(key0, op["counter"], among) != order
        assert dealing.shuffle(guess, op["counter"], among) != order


def test_the_secrets_are_read_again_after_a_rekey(log: GameLog) -> None:
    """This process had epoch 0's secrets in memory: after the re-keying it reads epoch 1's."""
    gid, _ = seeded(log)
    act(log, gid, "A", "draw_opening")
    assert sorted(log.secrets_of(log.game(gid)) or {}) == [0]
    rekey(log, gid)
    seed_epoch(log, gid)
    assert sorted(log.secrets_of(log.game(gid)) or {}) == [0, 1]
    events = act(log, gid, "B", "draw_opening")["events"]
    assert events[0]["data"]["epoch"] == 1


def test_withholding_and_rekeying_again_work_per_epoch(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = start(log, dealing="server", reveal_timeout=5).game_id
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:00+00:00")
    a0 = os.urandom(32)
    commit(log, gid, "A", a0)
    commit(log, gid, "B", os.urandom(32))
    reveal(log, gid, "A", a0)
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:06+00:00")
    act(log, gid, "A", "draw_opening")  # B withheld in epoch 0
    assert rekey(log, gid).dealing_secret["epoch"] == 0
    assert log.overview(gid)["dealing"]["withheld"] == []  # a new epoch: B seeds again
    seed_epoch(log, gid)
    act(log, gid, "B", "draw_opening")
    second = rekey(log, gid)
    assert second.dealing_secret == {"epoch": 1, "secret": secrets_of(log, gid)[1].hex()}
    a2 = os.urandom(32)
    commit(log, gid, "A", a2)
    commit(log, gid, "B", os.urandom(32))
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:07+00:00")
    reveal(log, gid, "A", a2)
    monkeypatch.setattr("service.games.utc_now", lambda: "2030-01-01T00:00:13+00:00")
    events = act(log, gid, "A", "roll_first")["events"]
    assert events[0]["type"] == "SeedWithheld" and events[0]["data"]["epoch"] == 2
    assert next(e for e in events if e["type"] == "Dealt")["data"]["epoch"] == 2
    act(log, gid, "A", "concede")
    rows = records(log, gid)
    revealed = [r["event"]["epoch"] for r in rows if r["event"]["type"] == "ServerSecretRevealed"]
    assert revealed == [0, 1, 2]
    report = log.verify_game(gid)["dealing"]
    assert report["ok"] and report["complete"] and report["checked"] == 3, report


def test_a_backup_that_reopens_a_finished_game_rekeys_it(log: GameLog) -> None:
    """Issue #35, item 6: at the end the server's secret is revealed to all; a judge's backup
    that takes the game back into play must not deal on under that public key. The ruling
    re-keys it (no secret told: everyone has seen it), so the next hand is not the one the
    public secret and seeds give, and the whole game still verifies."""
    gid, seeds0 = seeded(log)
    point = log.current_version(gid)  # seeded, no card dealt yet
    opening = act(log, gid, "A", "draw_opening")["events"][0]["data"]
    act(log, gid, "A", "concede")
    public = log.overview(gid)
    assert public["status"] == "finished"
    secret0 = bytes.fromhex(public["dealing"]["server_secrets"]["0"])  # what anyone reads
    shown = [e["data"] for e in events_as(log, gid, "spectator") if e["type"] == "SeedRevealed"]
    assert {e["contributor"]: bytes.fromhex(e["seed"]) for e in shown} == seeds0
    key0 = dealing.game_key(secret0, str(gid), [(s, seeds0[s]) for s in "AB"])
    counter = public["dealing"]["next_counter"]
    foreseen = dealing.deal(key0, counter, opening["among"], opening["take"])

    did, _ = log.open_dispute(gid, Claim(raised_by="judge", statement="a misdeal"))
    ruled = log.rule(gid, did, {"ruling": "backed up", "corrections": [], "backup_to": point})
    events = [r["event"] for r in ruled.records]
    assert [e["type"] for e in events[-2:]] == ["DealingRekeyed", "RulingRecorded"]
    assert events[-2]["epoch"] == 1
    assert ruled.dealing_secret is None  # nothing to tell the judge: it is public
    assert sorted(secrets_of(log, gid)) == [0, 1]
    view = log.overview(gid)
    assert view["status"] == "setup"
    assert (view["dealing"]["epoch"], view["dealing"]["ready"]) == (1, False)
    with refused(RuleViolation, "rule/seeds_pending"):
        act(log, gid, "A", "draw_opening")

    seed_epoch(log, gid)
    dealt = act(log, gid, "A", "draw_opening")["events"][0]["data"]
    assert (dealt["epoch"], dealt["counter"]) == (1, counter)
    assert sorted(dealt["among"]) == sorted(opening["among"])  # the same deck, restored
    assert dealt["cards"] != foreseen
    act(log, gid, "B", "concede")
    rows = records(log, gid)
    revealed = [r["event"]["epoch"] for r in rows if r["event"]["type"] == "ServerSecretRevealed"]
    assert revealed == [0, 1]
    report = log.verify_game(gid)
    assert report["ok"] and report["dealing"]["complete"], report


def test_a_backup_of_an_imported_finished_game_stands_without_a_rekey(
    make_log: Callable[[], GameLog],
) -> None:
    """An imported game's secret is not on this server: it deals nothing more after a backup
    either (422 ``command/no_dealer``), so the backup is recorded without a re-keying (which
    this server could not make: no 422 for the backup)."""
    log = make_log()
    gid, _ = seeded(log)
    point = log.current_version(gid)
    act(log, gid, "A", "draw_opening")
    act(log, gid, "A", "concede")
    other = make_log()
    other.import_export(export_json_text(log.all_records(gid), "judge"))
    did, _ = other.open_dispute(gid, Claim(raised_by="judge", statement="a misdeal"))
    ruled = other.rule(gid, did, {"ruling": "backed up", "corrections": [], "backup_to": point})
    assert "DealingRekeyed" not in [r["event"]["type"] for r in ruled.records]
    assert other.overview(gid)["status"] == "setup"
    with refused(ImpossibleCommand, "command/no_dealer"):
        act(other, gid, "A", "draw_opening")


def test_a_rekey_is_refused_where_there_is_nothing_to_rekey(log: GameLog) -> None:
    table = start(log).game_id
    version = log.current_version(table)
    with refused(RuleViolation, "rule/table_deals") as raised:
        rekey(log, table)
    assert raised.value.rule == "E.3"
    assert log.current_version(table) == version + 1  # the dispute only
    over, _ = seeded(log)
    act(log, over, "A", "concede")
    with refused(ImpossibleCommand, "command/game_over"):
        rekey(log, over)
    assert sorted(secrets_of(log, over)) == [0]


def test_verify_names_a_server_commitment_used_again(log: GameLog) -> None:
    gid, _ = seeded(log)
    rekey(log, gid)
    rows = records(log, gid)
    first = rows[0]["event"]["dealing"]["server_commitment"]
    forged = copy.deepcopy(rows)
    rekeyed = next(r for r in forged if r["event"]["type"] == "DealingRekeyed")
    rekeyed["event"]["server_commitment"] = first  # a secret the judge knows
    report = fair_check.verify(forged)
    assert report["first_mismatch"]["version"] == rekeyed["version"]
    assert "used before" in report["first_mismatch"]["reason"]
    assert fair_check.verify(rows)["ok"]


def rekeyed_game(secret: bytes, spec: dict[str, Any]) -> Game:
    """A game seeded and re-keyed with ``secret`` as epoch 1's, epoch 0 the same every time."""
    game = game_with(bytes([7]) * 32, {"A": bytes(32), "B": bytes([1]) * 32}, spec)
    at = "2030-01-01T00:00:01Z"
    game.record_judge(decide_dispute(game.state, Claim("A", "?")), received_at=at)
    steps = decide_ruling(
        game.state, "d1", {"ruling": "r", "rekey": True}, _no_backup, new_secret=secret
    )
    game.record_judge(steps, received_at=at)
    for seat, seed in (("A", bytes([2]) * 32), ("B", bytes([3]) * 32)):
        commitment = seat_commitment(str(game.id), seat, seed)
        game.execute(
            [({"type": "commit_seed", "seat": seat, "commitment": commitment}, None)],
            received_at=at,
        )
    for seat, seed in (("A", bytes([2]) * 32), ("B", bytes([3]) * 32)):
        game.execute(
            [({"type": "reveal_seed", "seat": seat, "seed": seed.hex()}, None)], received_at=at
        )
    return game


def _no_backup(point: int) -> Any:
    raise AssertionError("no backup in this ruling")


def judge_knows(game: Game) -> list[Any]:
    """Everything the judge knows of the game after the re-keying but epoch 1's commitment:
    every event and the state (epoch 0's secret it was given is the same in every game here)."""
    return judge_sees(game, commitments_of=("DealingRekeyed",))


@settings(max_examples=20, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_what_the_judge_learned_says_nothing_of_later_cards(one: bytes, two: bytes) -> None:
    """Two games the same in all the judge knows, epoch 0's secret included (but epoch 1's
    commitment), differ in their next draw whenever epoch 1's secrets differ: the later cards
    are not a function of what the judge learned."""
    spec = as_new(game_spec(3, game_id="11111111-2222-4333-8444-666666666666"))
    games = [rekeyed_game(secret, spec) for secret in (one, two)]
    assert judge_knows(games[0]) == judge_knows(games[1])
    hands = []
    for game, secret in zip(games, (one, two), strict=True):
        game.execute(
            [({"type": "draw_opening", "seat": "A"}, None)],
            received_at="2030-01-01T00:00:02Z",
            secrets={0: bytes([7]) * 32, 1: secret},
        )
        hands.append(game.state["seats"]["A"]["zones"]["hand"])
    if one != two:
        assert hands[0] != hands[1]  # 40 choose 6 hands: equal only by a ~1e-7 chance
