"""Visibility and per-viewer views (docs/rules.md A.4, D.7; docs/DESIGN.md "Seats, roles and
viewers come from the game")."""

from __future__ import annotations

import json
from typing import Any

from domain import evolve, knowledge
from domain.ccg import events as ev
from projections.views import event_view, state_view
from tests.builders import (
    State,
    attack_revealed,
    cmd,
    game_spec,
    give,
    new_game,
    play,
    records,
    started_game,
)


def record_of(before: State, after: State, event: ev.Event) -> dict[str, Any]:
    return {
        "version": after["version"],
        "event": event.to_dict(),
        "visible_to": knowledge(before, after, event),
        "hash": "h",
        "prev_hash": "p",
    }


def test_a_seat_sees_its_own_hand_and_only_the_count_of_the_opponents() -> None:
    s, _ = started_game()
    view = state_view(s, "B")
    assert "hand" not in view["seats"]["A"]
    assert view["seats"]["A"]["hand_count"] == 7
    assert len(view["seats"]["B"]["hand"]) == 6
    assert view["seats"]["A"]["deck_count"] == 33
    text = json.dumps(view)
    assert not [c for c in s["seats"]["A"]["zones"]["hand"] if c in text]


def test_the_judge_sees_both_hands_and_a_spectator_neither() -> None:
    s, _ = started_game()
    assert {"hand"} <= set(state_view(s, "judge")["seats"]["A"])
    spectator = state_view(s, "spectator")
    assert "hand" not in spectator["seats"]["A"] and "hand" not in spectator["seats"]["B"]


def test_a_face_down_attack_card_shows_its_commitment_but_not_its_identity_or_salt() -> None:
    s, _ = started_game()
    s, pot = give(s, "A", "Sample Plant Pot")
    before = s
    s, events = play(s, cmd("attack", "A", card=pot, gold=1, salt="secret-salt"))
    attack_b = state_view(s, "B")["fight"]["attack_card"]
    assert attack_b.get("hidden") is True and "salt" not in attack_b
    assert attack_b["commitment"] == s["fight"]["commitment"]
    assert state_view(s, "A")["fight"]["attack_card"]["salt"] == "secret-salt"
    rec = list(records(events, before))[1][1]
    assert rec["event"]["type"] == "AttackCardCommitted"
    view = event_view(rec, "B")
    assert view["data"]["card"] is None and view["data"]["salt"] is None
    assert "secret-salt" not in json.dumps(view) and pot not in json.dumps(view)
    assert event_view(rec, "A")["data"]["card"] == pot


def test_a_card_run_away_from_is_never_shown_to_the_defender() -> None:
    s, _ = started_game()
    s, pot = give(s, "A", "Sample Plant Pot")
    s, _ = play(s, cmd("attack", "A", card=pot, gold=0), cmd("run_away", "B"))
    stash = state_view(s, "B")["seats"]["A"]["stash"]
    assert stash == [{"hidden": True}]
    assert pot not in json.dumps(state_view(s, "B"))
    assert state_view(s, "A")["seats"]["A"]["stash"][0]["id"] == pot


def test_a_card_caught_cheating_stays_known_to_both_in_the_face_down_stash() -> None:
    s, _ = started_game()
    s, sword = give(s, "A", "Sample Rusty Sword")
    s, _ = play(s, *attack_revealed("A", sword, 0))
    assert state_view(s, "B")["dmz"][0]["name"] == "Sample Rusty Sword", "revealed"
    s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))  # the 1 damage is dealt, the fight ends
    assert state_view(s, "B")["seats"]["A"]["stash"][0]["name"] == "Sample Rusty Sword"
    assert state_view(s, "spectator")["seats"]["A"]["stash"][0]["id"] == sword


def test_the_game_created_event_hides_each_deck_from_the_opponent() -> None:
    spec = game_spec()
    s, events = new_game(spec)
    rec = record_of({"version": 0, "status": "new"}, s, events[0])
    view = event_view(rec, "B")
    seat_a = view["data"]["seats"][0]
    assert seat_a["deck_count"] == 40
    assert all(c == {"hidden": True} for c in seat_a["deck"])
    assert seat_a["hero"]["name"] == "Sample Orc Warrior"
    assert all("hidden" not in c for c in view["data"]["seats"][1]["deck"])
    assert all("hidden" not in c for c in event_view(rec, "judge")["data"]["seats"][0]["deck"])


def test_drawn_cards_and_mulligans_are_named_only_to_their_owner() -> None:
    s, log = new_game(game_spec())
    for seat in ("A", "B"):
        s, events = play(s, cmd("draw_opening", seat, cards=s["seats"][seat]["zones"]["deck"][:6]))
        log += events
    s, events = play(
        s, cmd("roll_first", "A", rolls={"A": 6, "B": 1}), cmd("choose_first", "A", first="A")
    )
    log += events
    s, events = play(s, cmd("mulligan", "A", cards=s["seats"]["A"]["zones"]["deck"][:6]))
    log += events
    s, events = play(
        s, cmd("keep", "B"), cmd("draw", "A", card=s["seats"]["A"]["zones"]["deck"][-1])
    )
    log += events
    seen = set()
    for after, rec in records(log):
        etype = rec["event"]["type"]
        if etype in ("CardDrawn", "OpeningHandDrawn", "MulliganTaken"):
            player = rec["event"]["player"]
            opponent = "B" if player == "A" else "A"
            text = json.dumps(event_view(rec, opponent)["data"])
            owned = [c for c in after["cards"] if after["cards"][c]["owner"] == player]
            assert not [c for c in owned if c in text], etype
            assert event_view(rec, player)["data"] == {
                k: v
                for k, v in rec["event"].items()
                if k not in ("type", "v", "seat", "cause", "violation")
            }
            seen.add(etype)
    assert seen == {"CardDrawn", "OpeningHandDrawn", "MulliganTaken"}


def test_hash_chain_fields_are_shown_only_to_viewers_who_see_every_event_whole() -> None:
    _, events = started_game()
    rec = list(records(events))[-1][1] | {"hash": "h", "prev_hash": "p"}
    assert event_view(rec, "judge")["hash"] == "h"
    assert event_view(rec, "table")["hash"] == "h"
    assert "hash" not in event_view(rec, "A") and "hash" not in event_view(rec, "spectator")


def test_knowledge_is_the_union_of_who_knew_before_and_after() -> None:
    s, _ = started_game()
    s, sword = give(s, "A", "Sample Rusty Sword")
    event = ev.LootPlayed(seat="A", player="A", card=sword)
    after = evolve(s, event)
    assert knowledge(s, after, event) == {sword: ["A", "B"]}
    back = ev.CardMoved(seat="judge", card=sword, to="hand")
    assert knowledge(after, evolve(after, back), back) == {sword: ["A", "B"]}, (
        "the opponent watched a public card go back to the hand"
    )


#: A custom Flaunt card (casual): used from the hand, it deals 1 damage to a Hero.
FLAUNTER = {
    "name": "Custom Show-Off",
    "type": "mischief",
    "subtype": "treachery",
    "cost": 0,
    "keywords": {"flaunt": True},
    "text": "Flaunt: deal 1 damage to a Hero.",
    "abilities": [
        {
            "trigger": "activated",
            "targets": [{"types": ["hero"], "controller": "any"}],
            "effects": [{"op": "damage", "amount": 1, "to": "target", "index": 0}],
        }
    ],
}


def test_a_flaunted_card_is_shown_to_the_opponent_and_named_in_its_log() -> None:
    """Flaunt: the card is revealed from the hand to be used (docs/rules.md A.12, A.4)."""
    spec = game_spec(fmt="casual")
    spec["seats"][0]["deck"][0] = {**FLAUNTER, "id": spec["seats"][0]["deck"][0]["id"]}
    s, _ = started_game(spec=spec)
    flaunter = spec["seats"][0]["deck"][0]["id"]
    if s["cards"][flaunter]["zone"] != "hand":
        s, _ = give(s, "A", FLAUNTER["name"])
    assert s["cards"][flaunter]["known"] == ["A"], "in the hand, only its owner knows it"
    before = s
    target = s["seats"]["B"]["hero"]
    s, events = play(s, cmd("activate", "A", card=flaunter, targets=[target]))
    assert s["cards"][flaunter]["known"] == ["A", "B"]
    rec = next(iter(records(events, before)))[1]
    assert rec["event"]["type"] == "AbilityActivated"
    assert event_view(rec, "B")["data"]["card"] == flaunter
    s, _ = play(s, cmd("damage", "A", source=flaunter, target=target, amount=1))
    assert s["cards"][target]["damage"] == 1
