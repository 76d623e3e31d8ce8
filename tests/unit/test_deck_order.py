"""The deck's known order (docs/rules.md D.20; issue #13 item 5).

A card put on the top or the bottom of a deck by an effect (or a judge's correction) keeps that
place: the state knows, per deck, the cards on top in order and the cards at the bottom in
order, derived from the events alone; a shuffle (a mulligan) forgets them; a draw takes the
known top card, or any card of unknown place but never a known bottom card while another card
remains. A draw or a Spill naming another card is refused in strict mode
(``rule/not_the_top_card``) and recorded with that violation in record mode, where a player can
physically take the wrong card. Which card sits at a known place is hidden from the other seat
(docs/rules.md A.4): views show the deck as counts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain import RuleViolation, apply_record, initial_state
from domain.ccg import events as ev
from domain.ccg.corrections import SeatRestored, decide_correction, undo_steps
from domain.ccg.state import drawable, known_bottom, known_top, takes_from_top
from domain.events import event_from_dict
from domain.fold import FOLD_VERSION
from projections.replay import invariant_violations
from projections.views import event_view, state_view
from tests.builders import (
    RS,
    THIEF,
    State,
    add_gold,
    cmd,
    draw_card,
    game_spec,
    give,
    hero,
    judge,
    new_game,
    of_type,
    play,
    prime_deck,
    records,
    resolving,
    started_game,
    top_card,
    types,
)


def deck(s: State, seat: str) -> list[str]:
    return list(s["seats"][seat]["zones"]["deck"])


def hand(s: State, seat: str) -> list[str]:
    return list(s["seats"][seat]["zones"]["hand"])


def put(s: State, seat: str, to: str, *cards: str) -> State:
    """``seat``'s resolving (unchecked) Hero ability puts ``cards`` on its deck's ``to``."""
    for cid in cards:
        s, _ = play(s, cmd("move", seat, source=hero(s, seat), card=cid, to=to))
    return s


def draw(s: State, seat: str, cid: str) -> State:
    """An ability's draw of ``cid`` (the resolving ability is ``seat``'s Hero's)."""
    s, events = play(s, cmd("draw", seat, source=hero(s, seat), card=cid))
    assert types(events) == ["CardDrawn"] and events[0].violation is None, events
    return s


def counts(s: State, seat: str) -> tuple[int, int]:
    st = s["seats"][seat]
    return st["deck_known_top"], st["deck_known_bottom"]


# ---------------------------------------------------------------------------- placing


def test_a_new_deck_has_no_known_order() -> None:
    s, _ = new_game(game_spec())
    for seat in ("A", "B"):
        assert counts(s, seat) == (0, 0)
        assert known_top(s, seat) == known_bottom(s, seat) == []
        assert drawable(s, seat) == deck(s, seat)


def test_cards_put_on_top_are_drawn_last_put_first() -> None:
    s = resolving("A")
    first, second = hand(s, "A")[:2]
    s = put(s, "A", "deck_top", first, second)
    assert known_top(s, "A") == [second, first] and counts(s, "A") == (2, 0)
    assert drawable(s, "A") == [second]
    s = draw(s, "A", second)
    assert known_top(s, "A") == [first] and drawable(s, "A") == [first]
    s = draw(s, "A", first)
    assert counts(s, "A") == (0, 0)
    assert drawable(s, "A") == deck(s, "A"), "back to a deck of unknown order"


def test_cards_put_on_the_bottom_stay_there_in_order() -> None:
    s = resolving("A")
    first, second = hand(s, "A")[:2]
    s = put(s, "A", "deck_bottom", first, second)
    assert known_bottom(s, "A") == [first, second] and counts(s, "A") == (0, 2)
    assert first not in drawable(s, "A") and second not in drawable(s, "A")
    assert len(drawable(s, "A")) == len(deck(s, "A")) - 2


def test_once_the_unknown_cards_are_drawn_the_bottom_cards_come_up_in_order() -> None:
    decks = {"A": prime_deck("Sample Orc Warrior")[:9]}  # 6 in hand, 1 drawn, 2 left
    s = resolving("A", decks=decks)
    assert len(deck(s, "A")) == 2
    first, second = hand(s, "A")[:2]
    s = put(s, "A", "deck_bottom", first, second)
    unknown = [c for c in deck(s, "A") if c not in (first, second)]
    s = draw(s, "A", unknown[0])
    assert drawable(s, "A") == [unknown[1]]
    s = draw(s, "A", unknown[1])
    assert known_top(s, "A") == [first, second] and counts(s, "A") == (2, 0)
    assert drawable(s, "A") == [first]
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("draw", "A", source=hero(s, "A"), card=second))
    assert (info.value.code, info.value.rule) == ("rule/not_the_top_card", "D.20")
    s = draw(s, "A", first)
    s = draw(s, "A", second)
    assert deck(s, "A") == [] and counts(s, "A") == (0, 0)


def test_a_card_put_on_the_bottom_of_a_deck_known_whole_is_its_last_card() -> None:
    decks = {"A": prime_deck("Sample Orc Warrior")[:8]}  # one card left in the deck
    s = resolving("A", decks=decks)
    (last,) = deck(s, "A")
    on_top, below = hand(s, "A")[:2]
    s = put(s, "A", "deck_top", on_top)
    assert known_top(s, "A") == [on_top] and drawable(s, "A") == [on_top]
    s = draw(s, "A", on_top)
    s = draw(s, "A", last)
    s = put(s, "A", "deck_top", on_top)
    s = put(s, "A", "deck_bottom", below)
    assert known_top(s, "A") == [on_top, below] and counts(s, "A") == (2, 0)
    assert drawable(s, "A") == [on_top]


def test_a_card_moved_from_the_known_top_to_the_bottom_changes_place() -> None:
    s = resolving("A")
    card = hand(s, "A")[0]
    s = put(s, "A", "deck_top", card)
    s = put(s, "A", "deck_bottom", card)
    assert known_top(s, "A") == [] and known_bottom(s, "A") == [card]
    assert card not in drawable(s, "A")


def test_a_card_leaving_the_deck_otherwise_leaves_the_known_order() -> None:
    s = resolving("A")
    first, second = hand(s, "A")[:2]
    s = put(s, "A", "deck_top", first, second)
    s, _ = play(s, cmd("discard", "A", source=hero(s, "A"), card=second))
    assert known_top(s, "A") == [first] and drawable(s, "A") == [first]


def test_both_decks_are_independent() -> None:
    s = resolving("A")
    s = put(s, "A", "deck_bottom", hand(s, "A")[0])
    assert counts(s, "A") == (0, 1) and counts(s, "B") == (0, 0)
    assert drawable(s, "B") == deck(s, "B")
    s = judge(s, ev.CardMoved(seat="judge", card=hand(s, "B")[0], to="deck_top", face="down"))
    assert counts(s, "A") == (0, 1) and counts(s, "B") == (1, 0)
    s = draw(s, "A", drawable(s, "A")[0])
    assert counts(s, "B") == (1, 0), "A's draw leaves B's deck alone"


# ---------------------------------------------------------------------------- shuffles


def test_a_mulligan_shuffles_the_deck_and_forgets_its_order() -> None:
    s, _ = new_game(game_spec())
    s, _ = play(
        s,
        cmd("draw_opening", "A", cards=deck(s, "A")[:6]),
        cmd("draw_opening", "B", cards=deck(s, "B")[:6]),
        cmd("roll_first", "A", rolls={"A": 6, "B": 1}),
        cmd("choose_first", "A", first="A"),
    )
    s = judge(s, ev.CardMoved(seat="judge", card=hand(s, "A")[0], to="deck_bottom", face="down"))
    assert counts(s, "A") == (0, 1)
    s, events = play(s, cmd("mulligan", "A", cards=deck(s, "A")[:6]))
    assert types(events)[0] == "MulliganTaken"
    assert counts(s, "A") == (0, 0)
    assert drawable(s, "A") == deck(s, "A")


# ---------------------------------------------------------------------------- the wrong card


def bottom_then_draw_step(mode: str) -> tuple[State, str]:
    """B's Gnome Thief (draw 2, put 1 from the hand on the bottom) used on A's turn; then B's
    turn, at its draw step. Returns the state and the card B put on the bottom."""
    s, _ = started_game(mode=mode)
    thief = hero(s, "B")
    first, second = deck(s, "B")[:2]
    s, _ = play(
        s,
        cmd("activate", "B", card=thief),
        cmd("draw", "B", source=thief, card=first),
        cmd("draw", "B", source=thief, card=second),
        cmd("move", "B", source=thief, card=first, to="deck_bottom"),
        cmd("resolve", "B"),
        cmd("end_turn", "A"),
    )
    assert (s["active"], s["phase"], s["step"]) == ("B", "warmup", "draw")
    assert known_bottom(s, "B") == [first]
    return s, first


def test_strict_mode_refuses_drawing_the_card_put_on_the_bottom() -> None:
    s, bottom = bottom_then_draw_step("strict")
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("draw", "B", card=bottom))
    assert (info.value.code, info.value.rule) == ("rule/not_the_top_card", "D.20")
    others = [c for c in deck(s, "B") + hand(s, "B") if c != bottom]
    assert not any(c in info.value.message for c in others), "the message names no other card"
    assert json.dumps(s, sort_keys=True) == before
    s, events = play(s, cmd("draw", "B", card=top_card(s, "B")))
    assert types(events) == ["CardDrawn", "PhaseStarted"]
    assert known_bottom(s, "B") == [bottom]


def test_record_mode_keeps_the_wrong_draw_flagged_and_the_known_cards_in_place() -> None:
    s, bottom = bottom_then_draw_step("record")
    s, events = play(s, cmd("draw", "B", card=bottom))
    assert types(events) == ["CardDrawn", "PhaseStarted"]
    assert events[0].violation == "rule/not_the_top_card"
    assert events[1].violation is None, "the engine's step is not the player's violation"
    assert bottom in hand(s, "B") and counts(s, "B") == (0, 0)
    assert (s["phase"], invariant_violations(s)) == ("munchkining", [])


def test_record_mode_keeps_a_draw_passing_over_the_known_top_card() -> None:
    s = resolving("A", mode="record")
    on_top = hand(s, "A")[0]
    s = put(s, "A", "deck_top", on_top)
    other_card = deck(s, "A")[-1]
    s, events = play(s, cmd("draw", "A", source=hero(s, "A"), card=other_card))
    assert events[0].violation == "rule/not_the_top_card"
    assert known_top(s, "A") == [on_top], "the top card is still on top"


def test_the_turns_draw_must_take_the_known_top_card() -> None:
    s, _ = started_game(draw=False)
    on_top = hand(s, "A")[0]
    s = judge(s, ev.CardMoved(seat="judge", card=on_top, to="deck_top", face="down"))
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("draw", "A", card=deck(s, "A")[-1]))
    assert info.value.code == "rule/not_the_top_card"
    s, _ = draw_card(s, "A")
    assert on_top in hand(s, "A") and counts(s, "A") == (0, 0)


def test_a_spill_takes_the_known_top_cards_first() -> None:
    s, _ = started_game()
    s, ale = give(add_gold(s, "A", 1), "A", "Sample Spilled Ale")
    s, _ = play(s, cmd("play", "A", card=ale, gold=1))
    on_top, below = hand(s, "A")[:2]
    s = judge(s, ev.CardMoved(seat="judge", card=on_top, to="deck_top", face="down"))
    s = judge(s, ev.CardMoved(seat="judge", card=below, to="deck_bottom", face="down"))
    rest = [c for c in deck(s, "A") if c not in (on_top, below)]
    assert takes_from_top(s, "A", [on_top, rest[-1]])
    assert takes_from_top(s, "A", [rest[3], on_top]), "the order of the list does not matter"
    assert not takes_from_top(s, "A", [rest[0], rest[1]])
    assert not takes_from_top(s, "A", [on_top, below])
    with pytest.raises(RuleViolation) as info:
        RS.decide(s, cmd("spill", "A", source=ale, cards=[on_top, below]))
    assert (info.value.code, info.value.rule) == ("rule/not_the_top_card", "A.12")
    s, events = play(s, cmd("spill", "A", source=ale, cards=[on_top, rest[-1]]))
    assert types(events) == ["CardsSpilled"] and known_bottom(s, "A") == [below]


def test_a_spill_of_the_whole_deck_takes_the_bottom_cards_too() -> None:
    s = resolving("A", decks={"A": prime_deck("Sample Orc Warrior")[:9]})
    below = hand(s, "A")[0]
    s = put(s, "A", "deck_bottom", below)
    whole = deck(s, "A")
    assert takes_from_top(s, "A", whole)
    assert not takes_from_top(s, "A", [whole[0], below])


# ---------------------------------------------------------------------------- legal moves


def test_legal_commands_offer_only_the_known_top_card() -> None:
    s, _ = started_game(draw=False)
    on_top = hand(s, "A")[0]
    s = judge(s, ev.CardMoved(seat="judge", card=on_top, to="deck_top", face="down"))
    draws = [c for c in RS.legal_commands(s, "A") if c["type"] == "draw"]
    assert draws == [{"type": "draw", "seat": "A", "card": on_top}]


def test_legal_commands_never_offer_a_card_put_on_the_bottom() -> None:
    s, bottom = bottom_then_draw_step("strict")
    draws = [c["card"] for c in RS.legal_commands(s, "B") if c["type"] == "draw"]
    assert bottom not in draws and len(draws) == len(deck(s, "B")) - 1


def test_the_gnome_thief_from_legal_commands_puts_its_card_under_the_deck() -> None:
    s, _ = started_game()
    s, _ = play(s, cmd("activate", "B", card=hero(s, "B")))
    for _ in range(2):
        (option,) = [c for c in RS.legal_commands(s, "B") if c["type"] == "draw"][:1]
        s, _ = play(s, option)
    moves = [c for c in RS.legal_commands(s, "B") if c["type"] == "move"]
    s, _ = play(s, moves[0])
    assert known_bottom(s, "B") == [moves[0]["card"]]


# ---------------------------------------------------------------------------- elimination


def test_an_abilitys_forced_draw_from_an_empty_deck_eliminates() -> None:
    """docs/rules.md A.13, D.13: the Gnome Thief's "draw 2" with one card left draws it, and
    resolving with the second draw undone (the deck is empty) eliminates its controller."""
    decks = {"B": prime_deck(THIEF)[:7]}  # 6 in the opening hand, 1 left
    s, _ = started_game(fmt="casual", decks=decks)
    thief = hero(s, "B")
    (last,) = deck(s, "B")
    s, _ = play(s, cmd("activate", "B", card=thief), cmd("draw", "B", source=thief, card=last))
    assert deck(s, "B") == []
    assert [c for c in RS.legal_commands(s, "B") if c["type"] != "concede"] == [cmd("resolve", "B")]
    s, events = play(s, cmd("resolve", "B"))
    eliminated = of_type(events, ev.PlayerEliminated)
    assert [(e.player, e.reason) for e in eliminated] == [("B", "deck")]
    assert (s["status"], s["winner"]) == ("finished", "A")


# ---------------------------------------------------------------------------- corrections


def test_a_judges_correction_puts_a_card_at_a_known_place() -> None:
    s, _ = started_game()
    card = hand(s, "A")[0]
    event = decide_correction(s, {"type": "move", "card": card, "to": "deck_top", "corrects": 3})
    s = judge(s, event)
    assert known_top(s, "A") == [card]


def test_a_backup_restores_the_known_order() -> None:
    s0 = resolving("A")
    on_top = hand(s0, "A")[0]
    s1 = put(s0, "A", "deck_top", on_top)
    s2 = draw(s1, "A", on_top)
    assert counts(s1, "A") == (1, 0) and counts(s2, "A") == (0, 0)
    _, events = play(s1, cmd("draw", "A", source=hero(s1, "A"), card=on_top))
    recs = [r for _, r in records(events, s1)]
    undone = undo_steps(s1, s2, recs)
    (_, steps), *_ = undone
    back = steps[-1].state
    assert any(isinstance(step.event, SeatRestored) for step in steps)
    assert counts(back, "A") == (1, 0) and known_top(back, "A") == [on_top]
    assert {k: v for k, v in back.items() if k != "version"} == {
        k: v for k, v in s1.items() if k != "version"
    }


def test_seat_restored_version_1_loads_with_no_known_order() -> None:
    """A SeatRestored stored before the deck's order was kept (class version 1) restores a
    seat whose deck has no card in a known place, as after a shuffle (docs/rules.md D.20)."""
    old = {
        "type": "SeatRestored",
        "v": 1,
        "seat": "judge",
        "cause": None,
        "violation": None,
        "player": "A",
        "level": 2,
        "gold": 1,
        "marker": "run_away",
        "caught_cheating": False,
        "ran_this_turn": 0,
        "eliminated": None,
        "mulligan": "kept",
        "undoes": 9,
    }
    event = event_from_dict(old)
    assert isinstance(event, SeatRestored) and event.class_version == 2
    assert (event.deck_known_top, event.deck_known_bottom) == (0, 0)
    s = resolving("A")
    s = put(s, "A", "deck_bottom", hand(s, "A")[0])
    after = apply_record(s, {"event": old})
    assert counts(after, "A") == (0, 0) and after["seats"]["A"]["level"] == 2


def test_the_fold_version_counts_the_known_order() -> None:
    assert FOLD_VERSION >= 3  # the seats' deck_known_top/deck_known_bottom are new in 3


def test_the_known_order_folds_from_the_events_alone() -> None:
    s, events = started_game(seed=4)
    s, more = play(s, cmd("activate", "B", card=hero(s, "B")))
    events += more
    first, second = deck(s, "B")[:2]
    s, more = play(
        s,
        cmd("draw", "B", source=hero(s, "B"), card=first),
        cmd("draw", "B", source=hero(s, "B"), card=second),
        cmd("move", "B", source=hero(s, "B"), card=second, to="deck_bottom"),
        cmd("resolve", "B"),
    )
    events += more
    folded = initial_state()
    for event in events:
        folded = apply_record(folded, {"event": json.loads(json.dumps(event.to_dict()))})
    assert folded == s and known_bottom(folded, "B") == [second]


# ---------------------------------------------------------------------------- hidden information


def test_views_give_the_known_order_as_counts_and_never_the_cards() -> None:
    s0, _ = started_game()
    s0, _ = play(s0, cmd("activate", "B", card=hero(s0, "B")))
    first, second = deck(s0, "B")[:2]
    s, events = play(
        s0,
        cmd("draw", "B", source=hero(s0, "B"), card=first),
        cmd("draw", "B", source=hero(s0, "B"), card=second),
        cmd("move", "B", source=hero(s0, "B"), card=first, to="deck_bottom"),
    )
    for viewer in ("A", "B", "spectator", "table", "judge"):
        seat_b: dict[str, Any] = state_view(s, viewer)["seats"]["B"]
        assert (seat_b["deck_known_top"], seat_b["deck_known_bottom"]) == (0, 1)
        assert "deck" not in seat_b
        if viewer in ("A", "spectator"):
            assert first not in json.dumps(state_view(s, viewer))
    # The move as stored: only B may see which card went under its deck (A.4).
    *_, (_, record) = records(events, s0)
    assert record["event"]["type"] == "CardMoved"
    assert record["visible_to"][first] == ["B"]
    assert event_view(record, "A", ("A", "B"))["data"]["card"] is None
    assert event_view(record, "spectator", ("A", "B"))["data"]["card"] is None
    assert event_view(record, "B", ("A", "B"))["data"]["card"] == first
    assert event_view(record, "A", ("A", "B"))["data"]["to"] == "deck_bottom"
