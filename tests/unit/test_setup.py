"""Game setup and mulligans (docs/rules.md A.7, D.8, D.17)."""

from __future__ import annotations

import pytest

from domain.ccg import events as ev
from tests.builders import (
    RS,
    RandomGame,
    cmd,
    game_spec,
    new_game,
    of_type,
    other,
    play,
    started_game,
    types,
)


def opened(mode: str = "strict") -> dict:
    s, _ = new_game(game_spec(mode=mode))
    for seat in ("A", "B"):
        s, _ = play(s, cmd("draw_opening", seat, cards=s["seats"][seat]["zones"]["deck"][:6]))
    return s


def test_a_new_game_puts_heroes_in_play_at_level_1_on_run_away_with_empty_purses() -> None:
    s, events = new_game(game_spec())
    assert types(events) == ["GameCreated"]
    assert (s["status"], s["phase"], s["step"]) == ("setup", "setup", "draw_opening")
    for seat in ("A", "B"):
        st = s["seats"][seat]
        assert (st["level"], st["marker"], st["gold"]) == (1, "run_away", 0)
        assert len(st["zones"]["deck"]) == 40
        assert s["cards"][st["hero"]]["known"] == ["A", "B"]
        assert all(s["cards"][c]["known"] == [seat] for c in st["zones"]["deck"])


def test_both_opening_hands_of_six_lead_to_the_roll_off() -> None:
    s = opened()
    assert s["step"] == "roll_first"
    assert [len(s["seats"][x]["zones"]["hand"]) for x in "AB"] == [6, 6]


def test_a_tied_roll_is_rolled_again_and_the_higher_roller_chooses_who_goes_first() -> None:
    s, tie = play(opened(), cmd("roll_first", "A", rolls={"A": 3, "B": 3}))
    assert of_type(tie, ev.FirstPlayerRolled)[0].tie is True
    assert s["step"] == "roll_first"
    assert {c["type"] for c in RS.legal_commands(s, "B")} == {"roll_first"}
    s, _ = play(s, cmd("roll_first", "B", rolls={"A": 2, "B": 5}))
    assert s["setup"]["roll_winner"] == "B"
    assert RS.legal_commands(s, "A") == []
    assert {c["first"] for c in RS.legal_commands(s, "B")} == {"A", "B"}


@pytest.mark.parametrize("first", ["A", "B"])
def test_the_first_player_gets_1_gold_and_the_second_2(first: str) -> None:
    s, _ = play(opened(), cmd("roll_first", "A", rolls={"A": 6, "B": 1}))
    s, events = play(s, cmd("choose_first", "A", first=first))
    granted = {g.player: g.amount for g in of_type(events, ev.GoldGranted)}
    assert granted == {first: 1, other(first): 2}


def test_the_first_player_decides_on_a_mulligan_first_then_the_game_starts_with_a_draw() -> None:
    s, _ = play(
        opened(),
        cmd("roll_first", "A", rolls={"A": 6, "B": 1}),
        cmd("choose_first", "A", first="B"),
    )
    assert RS.legal_commands(s, "A") == [], "A waits for B, the first player"
    s, events = play(s, cmd("keep", "B"))
    assert types(events) == ["MulliganDeclined"]
    hand = list(s["seats"]["A"]["zones"]["hand"])
    new = s["seats"]["A"]["zones"]["deck"][:6]
    s, events = play(s, cmd("mulligan", "A", cards=new))
    taken = of_type(events, ev.MulliganTaken)[0]
    assert (taken.returned, taken.cards) == (hand, new)
    assert sorted(s["seats"]["A"]["zones"]["hand"]) == sorted(new)
    assert all(s["cards"][c]["zone"] == "deck" for c in hand if c not in new)
    assert types(events)[1:] == [
        "TurnStarted",
        "RunAwayMarkerFlipped",
        "CardsUnzapped",
        "StashUnstashed",
    ]
    assert (s["status"], s["active"], s["turn"], s["step"]) == ("playing", "B", 1, "draw")
    assert [c["type"] for c in RS.legal_commands(s, "B") if c["type"] == "draw"], "D.8"


def test_a_mulligan_may_redraw_cards_that_were_in_the_hand() -> None:
    s, _ = play(
        opened(),
        cmd("roll_first", "A", rolls={"A": 6, "B": 1}),
        cmd("choose_first", "A", first="A"),
    )
    hand = s["seats"]["A"]["zones"]["hand"]
    s, _ = play(s, cmd("mulligan", "A", cards=hand[:3] + s["seats"]["A"]["zones"]["deck"][:3]))
    assert len(s["seats"]["A"]["zones"]["hand"]) == 6
    assert s["seats"]["A"]["mulligan"] == "taken"


def test_started_game_builder_reaches_the_first_players_munchkining() -> None:
    s, events = started_game(first="B")
    assert (s["active"], s["phase"], s["turn"]) == ("B", "munchkining", 1)
    assert types(events)[-2:] == ["CardDrawn", "PhaseStarted"]
    assert len(s["seats"]["B"]["zones"]["hand"]) == 7


def test_a_player_may_concede_during_setup() -> None:
    s, events = play(opened(), cmd("concede", "B"))
    assert types(events) == ["PlayerConceded", "PlayerEliminated", "GameEnded"]
    assert (s["status"], s["winner"]) == ("finished", "A")


def test_in_record_mode_a_repeated_opening_hand_does_not_skip_the_opponents() -> None:
    s, _ = new_game(game_spec(mode="record"))
    deck = s["seats"]["A"]["zones"]["deck"]
    s, events = play(
        s, cmd("draw_opening", "A", cards=deck[:6]), cmd("draw_opening", "A", cards=deck[6:12])
    )
    assert events[-1].violation == "rule/already_drawn"
    assert s["step"] == "draw_opening", "B has not drawn its opening hand yet"


def test_in_record_mode_a_repeated_mulligan_decision_does_not_start_the_game() -> None:
    s, _ = play(
        opened("record"),
        cmd("roll_first", "A", rolls={"A": 6, "B": 1}),
        cmd("choose_first", "A", first="A"),
    )
    s, events = play(s, cmd("keep", "A"), cmd("keep", "A"))
    assert events[-1].violation == "rule/already_decided"
    assert s["status"] == "setup", "B has not decided on its mulligan yet"


def test_a_server_dealt_setup_offers_the_seeds_then_no_card_and_no_value() -> None:
    """docs/rules.md E: ``legal_commands`` of a game the server deals offer each contributor
    its commitment, then (every seat committed) its reveal, and nothing that draws or rolls
    before; then the opening hands, the roll and a mulligan without a card or a value (E.1)."""
    game = RandomGame(seed=1, dealing=True)

    def offered(seat: str) -> list[dict]:
        return RS.legal_commands(game.state, seat)

    def only(seat: str) -> dict:
        (command,) = offered(seat)
        game.apply(seat, command)
        return command

    assert only("A")["type"] == "commit_seed"
    assert offered("A") == [], "no reveal before every contributor has committed"
    assert only("B")["type"] == "commit_seed"
    assert only("B")["type"] == "reveal_seed"
    assert offered("B") == []
    assert only("A")["type"] == "reveal_seed"
    for seat in ("A", "B"):
        assert only(seat) == {"type": "draw_opening", "seat": seat}
    while game.state["step"] == "roll_first":  # again on a tie
        assert offered("B") == [{"type": "roll_first", "seat": "B"}]
        only("A")
    winner = game.state["setup"]["roll_winner"]
    game.apply(winner, cmd("choose_first", winner, first="A"))
    assert offered("A") == [{"type": "keep", "seat": "A"}, {"type": "mulligan", "seat": "A"}]
