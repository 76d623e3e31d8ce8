"""Tokens on a card with a life icon are damage (issue #24 item 6; docs/rules.md A.10, A.12
Collect X; docs/cards.md ``collect``).

The rules: "Tokens on any card with a life icon are always damage"; Collect X moves X
stockpile tokens onto the card. So an ability that puts tokens on a Hero, an Ally or a Monster
deals that damage, and it can squish the card; it used to be refused
(``rule/tokens_are_damage``). The sample Penitent Monk (Ally, life 2; Zap: Collect 1) shows it:
its second use squishes it.
"""

from __future__ import annotations

import pytest

from domain import RuleViolation
from domain.ccg import events as ev
from projections.exports.narration import narrate
from tests import builders as b
from tests.builders import BARD, State, cmd, of_type, play, types

MONK = "Sample Penitent Monk"
CLERIC = [
    "Sample Holy Promotion",
    "Sample Humbling Prayer",
    "Sample Choir Boy",
    MONK,
    "Sample Divine Wrath",
]


def with_monk(mode: str = "strict") -> tuple[State, str]:
    """A Wandering Bard (prime, cleric cards) with the Penitent Monk in its hoard."""
    deck = b.prime_deck(BARD)[:30] + CLERIC * 2
    s, _ = b.started_game(mode=mode, heroes=(BARD, BARD), decks={"A": deck, "B": deck})
    return b.give(s, "A", MONK, "hoard")


def collect_once(s: State, monk: str) -> tuple[State, list[ev.Event]]:
    return play(
        s,
        cmd("activate", "A", card=monk),
        cmd("collect", "A", source=monk, card=monk, amount=1),
        cmd("resolve", "A"),
    )


def test_collect_on_an_ally_deals_the_tokens_as_damage() -> None:
    s, monk = with_monk()
    offered = [c for c in b.RS.legal_commands(s, "A") if c["type"] == "activate"]
    assert cmd("activate", "A", card=monk) in [
        {k: v for k, v in c.items() if k in ("type", "seat", "card")} for c in offered
    ]
    s, events = collect_once(s, monk)
    assert types(events) == ["AbilityActivated", "DamageDealt", "AbilityResolved"]
    dealt = of_type(events, ev.DamageDealt)[0]
    assert (dealt.source, dealt.target, dealt.amount, dealt.violation) == (monk, monk, 1, None)
    card = s["cards"][monk]
    assert (card["damage"], card["tokens"], card["zone"]) == (1, 0, "hoard")


def test_the_narration_tells_the_tokens_as_damage() -> None:
    s, monk = with_monk()
    s, events = collect_once(s, monk)
    dealt = events[1].to_dict()
    entry = {"type": "DamageDealt", "seat": "A", "cause": events[1].cause, "data": dealt}
    assert narrate(entry, s) == [f"{MONK} takes 1 damage from its own tokens"]


def test_the_second_collect_squishes_the_monk() -> None:
    s, monk = with_monk()
    s, _ = collect_once(s, monk)
    s = b.judge(s, ev.CardUnzapped(seat="judge", card=monk, source=None))
    s, events = collect_once(s, monk)
    assert types(events)[1:3] == ["DamageDealt", "CardSquished"]
    assert of_type(events, ev.CardSquished)[0].reason == "damage"
    assert b.zone_of(s, monk) == "discard"


def test_the_resolving_ability_offers_the_collect_as_its_card_says() -> None:
    s, monk = with_monk()
    s, _ = play(s, cmd("activate", "A", card=monk))
    assert cmd("collect", "A", source=monk, card=monk, amount=1) in b.RS.legal_commands(s, "A")


def test_tokens_on_a_hero_are_damage_and_can_eliminate() -> None:
    """An unchecked ability collecting on a Hero: allowed (it was rule/tokens_are_damage), and
    the Hero reaching its life is out at once (D.9)."""
    s = b.resolving("A")
    s = b.with_damage(s, "B", 17)  # Gnome Thief, life 18
    s, events = play(s, cmd("collect", "A", source=b.hero(s, "A"), card=b.hero(s, "B"), amount=1))
    assert types(events) == ["DamageDealt", "PlayerEliminated", "GameEnded"]
    assert s["winner"] == "A"


def test_tokens_on_a_card_without_life_stay_tokens() -> None:
    s, _ = b.started_game()
    s, pig = b.give(s, "A", "Sample Piggy Bank", "hoard")
    s, events = play(
        s,
        cmd("activate", "A", card=pig),
        cmd("collect", "A", source=pig, card=pig, amount=1),
    )
    assert types(events)[-1] == "TokensCollected"
    assert (s["cards"][pig]["tokens"], s["cards"][pig]["damage"]) == (1, 0)


def test_collect_on_a_face_down_card_with_life_is_refused_strict_flagged_in_record() -> None:
    s = b.resolving("A")
    s, pot = b.give(s, "B", "Sample Plant Pot", "stash")
    command = cmd("collect", "A", source=b.hero(s, "A"), card=pot, amount=1)
    with pytest.raises(RuleViolation) as info:
        b.RS.decide(s, command)
    assert (info.value.code, info.value.rule) == ("rule/not_in_play", "A.3")
    s = b.resolving("A", mode="record")
    s, pot = b.give(s, "B", "Sample Plant Pot", "stash")
    s, events = play(s, cmd("collect", "A", source=b.hero(s, "A"), card=pot, amount=1))
    assert [(e.type, e.violation) for e in events] == [("DamageDealt", "rule/not_in_play")]


def test_a_monk_stashed_face_down_before_its_collect_may_resolve_without_it() -> None:
    """The tokens would be damage on a card out of play (A.3): what cannot be done may be left
    out (A.11 partial resolution), rather than leaving the ability stuck."""
    s, monk = with_monk()
    s, _ = play(s, cmd("activate", "A", card=monk))
    s = b.judge(s, ev.CardMoved(seat="judge", card=monk, to="stash", face="down"))
    assert cmd("resolve", "A") in b.RS.legal_commands(s, "A")
    s, events = play(s, cmd("resolve", "A"))
    assert of_type(events, ev.AbilityResolved)[0].outcome == "partial"
