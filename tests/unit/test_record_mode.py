"""Record mode stays physical (docs/rules.md "Record mode"; issue #13 item 6).

A command out of turn, out of phase or by the wrong seat is recorded in ``record`` mode, its
events flagged with the rule code, only when the table could be in the resulting state; otherwise
it is refused in both modes as ``command/…`` (:class:`ImpossibleCommand`). Strict mode always
gives the ``rule/…`` code.

The table here is the table of docs/rules.md: :func:`test_the_doc_table_names_every_command_once`
and the tests after it parse the doc and check that every refusal it lists has a row here (and
back), that every recorded row's code is listed for its command, and that every seat and timing
check it lists as recorded has a row. Each row is then played in both modes; a recorded one must
leave a physical state (:func:`physical_problems`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domain import ImpossibleCommand, RuleViolation
from domain.ccg import HANDLERS
from domain.ccg import events as ev
from projections.replay import invariant_violations
from tests.builders import (
    RS,
    State,
    add_gold,
    card_id,
    cmd,
    game_spec,
    give,
    hero,
    horde_triggered,
    judge,
    new_game,
    play,
    started_game,
)

Command = dict[str, Any]
Case = tuple[State, Command]
Position = Callable[[str], State]
Setup = Callable[[str], Case]
RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

HORDE = "Sample Goblin Horde"
POT = "Sample Plant Pot"
SWORD = "Sample Rusty Sword"
SQUIRE = "Sample Loyal Squire"
PRANK = "Sample Encore Prank"
HAGGLER = "Sample Haggler"
RECORDED = "recorded"
#: The checks of who acts and when: every one the doc table records needs a row here.
TIMING = {
    f"rule/{name}"
    for name in [
        *("not_your_turn", "wrong_phase", "wrong_step", "fight_in_progress", "window_closed"),
        *("ability_resolving", "wrong_fight_step", "not_defender", "not_attacker"),
        *("not_your_ability", "not_roll_winner", "mulligan_order", "out_of_order"),
        *("already_drawn", "already_decided", "no_window", "already_passed"),
        *("not_resolving_source", "no_ability_resolving"),
    ]
}


# ---------------------------------------------------------------------------- positions


def deck(s: State, seat: str) -> list[str]:
    return list(s["seats"][seat]["zones"]["deck"])


def setting_up(mode: str) -> State:
    return new_game(game_spec(mode=mode))[0]


def opened(mode: str) -> State:
    s = setting_up(mode)
    s, _ = play(s, cmd("draw_opening", "A", cards=deck(s, "A")[:6]))
    s, _ = play(s, cmd("draw_opening", "B", cards=deck(s, "B")[:6]))
    return s


def rolled(mode: str) -> State:
    """A won the roll-off: A chooses who goes first."""
    return play(opened(mode), cmd("roll_first", "A", rolls={"A": 6, "B": 2}))[0]


def mulliganing(mode: str) -> State:
    return play(rolled(mode), cmd("choose_first", "A", first="A"))[0]


def in_warmup(mode: str) -> State:
    """Turn 1, A at its draw step."""
    return started_game(mode=mode, draw=False)[0]


def munchkining(mode: str) -> State:
    """Turn 1, A munchkining (Orc Warrior); B is the Gnome Thief."""
    return started_game(mode=mode)[0]


def in_cooldown(mode: str) -> State:
    return judge(munchkining(mode), ev.PhaseStarted(seat="judge", phase="cooldown", step="level"))


def hero_ability(seat: str) -> Callable[[State], Command]:
    """``seat`` zaps its Hero for its ability: A's Warrior deals 1 to B's Hero, B's Thief draws."""
    return lambda s: cmd(
        "activate",
        seat,
        card=hero(s, seat),
        costs={"zap": True},
        targets=[hero(s, "B")] if seat == "A" else [],
    )


def _activated(s: State, seat: str) -> State:
    return play(s, hero_ability(seat)(s))[0]


def resolving(mode: str) -> State:
    """A munchkining with its Warrior's ability (1 damage to B's Hero) on the stack."""
    return _activated(munchkining(mode), "A")


def in_fight(stage: str) -> Position:
    """A attacks with a Goblin Horde and 1 gold; the fight is at ``stage``."""
    path = {
        "declared": [],
        "defending": [cmd("face", "B")],
        "ready": [cmd("face", "B"), cmd("ready", "B")],
        "revealed": [cmd("face", "B"), cmd("ready", "B"), cmd("reveal", "A")],
    }[stage]

    def position(mode: str) -> State:
        s, horde = give(munchkining(mode), "A", HORDE)
        s, _ = give(s, "B", SQUIRE, "hoard")
        s, _ = give(s, "A", SQUIRE, "hoard")
        return play(s, cmd("attack", "A", card=horde, gold=1), *path)[0]

    return position


def allocating(mode: str) -> State:
    """A hired Axe Brute against B's committed Squire and Weasel: damage waits for B to split."""
    s = munchkining(mode)
    s, squire = give(s, "B", SQUIRE, "hoard")
    s, weasel = give(s, "B", "Sample Trained Weasel", "hoard")
    s, brute = give(s, "A", "Sample Axe Brute")
    s = add_gold(s, "A", 2)
    s, _ = play(
        s,
        cmd("attack", "A", card=brute, gold=3),
        cmd("face", "B"),
        cmd("commit", "B", cards=[squire, weasel]),
        cmd("ready", "B"),
        cmd("reveal", "A"),
    )
    while s.get("window") is not None:  # the cost, hire and damage windows: both pass
        s, _ = play(s, cmd("pass", "A"), cmd("pass", "B"))
    assert s["fight"]["stage"] == "allocating", s["fight"]
    return s


# ---------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Row:
    """``command`` breaking the check ``code`` in a position; ``outcome`` in record mode:
    :data:`RECORDED` (flagged events) or the ``command/…`` code it is refused with. ``strict`` is
    the code strict mode raises when an earlier check of the same command fires first."""

    command: str
    code: str
    outcome: str
    name: str
    setup: Setup
    strict: str | None = None


ROWS: list[Row] = []


def row(
    command: str,
    code: str,
    outcome: str,
    name: str,
    position: Position,
    make: Callable[[State], Command],
    strict: str | None = None,
) -> None:
    def setup(mode: str) -> Case:
        s = position(mode)
        return s, make(s)

    ROWS.append(Row(command, f"rule/{code}", outcome, name, setup, strict and f"rule/{strict}"))


def with_card(
    position: Position, seat: str, name: str, zone: str = "hand"
) -> tuple[Position, Callable[[State], str]]:
    """``position`` with ``seat``'s card ``name`` in ``zone``, and a reader of the card's id."""
    return (
        lambda mode: give(position(mode), seat, name, zone)[0],
        lambda s: card_id(s, seat, name, zone),
    )


def then(position: Position, *commands: Callable[[State], Command]) -> Position:
    """``position`` followed by ``commands`` (each made from the state it is played in)."""

    def after(mode: str) -> State:
        s = position(mode)
        for make in commands:
            s, _ = play(s, make(s))
        return s

    return after


def top(seat: str) -> Callable[[State], str]:
    return lambda s: deck(s, seat)[-1]


def bottom_known(seat: str, position: Position) -> Position:
    """``position`` with the first card of ``seat``'s hand put on the bottom of its deck (a
    judge's correction): that card's place is known (docs/rules.md D.20)."""

    def after(mode: str) -> State:
        s = position(mode)
        cid = s["seats"][seat]["zones"]["hand"][0]
        return judge(s, ev.CardMoved(seat="judge", card=cid, to="deck_bottom", face="down"))

    return after


# fmt: off
# -- setup (A.7)
row("draw_opening", "already_drawn", RECORDED, "a second opening hand",
    then(setting_up, lambda s: cmd("draw_opening", "A", cards=deck(s, "A")[:6])),
    lambda s: cmd("draw_opening", "A", cards=deck(s, "A")[:6]))
row("roll_first", "out_of_order", RECORDED, "rolling before the opening hands",
    setting_up, lambda _: cmd("roll_first", "B", rolls={"A": 3, "B": 5}))
row("choose_first", "out_of_order", RECORDED, "choosing before the roll",
    opened, lambda _: cmd("choose_first", "A", first="B"))
row("choose_first", "not_roll_winner", RECORDED, "the roll loser choosing",
    rolled, lambda _: cmd("choose_first", "B", first="B"))
row("choose_first", "out_of_order", "command/already_chosen", "choosing the first player again",
    mulliganing, lambda _: cmd("choose_first", "A", first="B"))
row("keep", "out_of_order", RECORDED, "keeping before the first player is chosen",
    rolled, lambda _: cmd("keep", "A"))
row("mulligan", "out_of_order", RECORDED, "a mulligan before the first player is chosen",
    rolled, lambda s: cmd("mulligan", "B", cards=deck(s, "B")[:6]))
row("keep", "mulligan_order", RECORDED, "the second player deciding first",
    mulliganing, lambda _: cmd("keep", "B"))
row("mulligan", "already_decided", RECORDED, "a second mulligan decision",
    then(mulliganing, lambda _: cmd("keep", "A")),
    lambda s: cmd("mulligan", "A", cards=deck(s, "A")[:6]))

# -- the turn (A.8)
row("draw", "not_your_turn", RECORDED, "drawing in the opponent's draw step",
    in_warmup, lambda s: cmd("draw", "B", card=top("B")(s)))
row("draw", "not_your_turn", RECORDED, "drawing on the opponent's munchkining",
    munchkining, lambda s: cmd("draw", "B", card=top("B")(s)))
row("draw", "wrong_step", RECORDED, "a second draw in munchkining",
    munchkining, lambda s: cmd("draw", "A", card=top("A")(s)))
row("draw", "not_your_ability", RECORDED, "drawing for the opponent's ability",
    resolving, lambda s: cmd("draw", "B", card=top("B")(s)))
row("draw", "not_the_top_card", RECORDED, "drawing the card put on the bottom (D.20)",
    bottom_known("A", in_warmup), lambda s: cmd("draw", "A", card=deck(s, "A")[-1]))
sword_b, sword_b_id = with_card(munchkining, "B", SWORD)
row("play", "not_your_turn", RECORDED, "Loot on the opponent's turn",
    sword_b, lambda s: cmd("play", "B", card=sword_b_id(s)))
warm_sword, warm_sword_id = with_card(in_warmup, "A", SWORD)
row("play", "wrong_phase", RECORDED, "Loot before the draw",
    warm_sword, lambda s: cmd("play", "A", card=warm_sword_id(s)))
fight_sword, fight_sword_id = with_card(in_fight("declared"), "A", SWORD)
row("play", "fight_in_progress", RECORDED, "Loot during a fight",
    fight_sword, lambda s: cmd("play", "A", card=fight_sword_id(s)))
stack_sword, stack_sword_id = with_card(resolving, "A", SWORD)
row("play", "ability_resolving", RECORDED, "Loot while an ability resolves",
    stack_sword, lambda s: cmd("play", "A", card=stack_sword_id(s)))
cool_prank, cool_prank_id = with_card(in_cooldown, "B", PRANK)
row("play", "window_closed", RECORDED, "Mischief in cooldown",
    cool_prank, lambda s: cmd("play", "B", card=cool_prank_id(s), gold=1, targets=[hero(s, "A")]))
hoard_b, hoard_b_id = with_card(munchkining, "B", SWORD, "hoard")
row("squish", "not_your_turn", RECORDED, "squishing on the opponent's turn",
    hoard_b, lambda s: cmd("squish", "B", card=hoard_b_id(s)))
warm_hoard, warm_hoard_id = with_card(in_warmup, "A", SWORD, "hoard")
row("squish", "wrong_phase", RECORDED, "squishing before the draw",
    warm_hoard, lambda s: cmd("squish", "A", card=warm_hoard_id(s)))
fight_hoard, fight_hoard_id = with_card(in_fight("declared"), "A", SWORD, "hoard")
row("squish", "fight_in_progress", RECORDED, "squishing during a fight",
    fight_hoard, lambda s: cmd("squish", "A", card=fight_hoard_id(s)))
stack_hoard, stack_hoard_id = with_card(resolving, "A", SWORD, "hoard")
row("squish", "ability_resolving", RECORDED, "squishing while an ability resolves",
    stack_hoard, lambda s: cmd("squish", "A", card=stack_hoard_id(s)))
row("end_turn", "not_your_turn", "command/not_your_turn", "ending the opponent's turn",
    munchkining, lambda _: cmd("end_turn", "B"))
row("end_turn", "not_your_turn", "command/not_your_turn", "ending the opponent's warmup",
    in_warmup, lambda _: cmd("end_turn", "B"))
row("end_turn", "wrong_phase", RECORDED, "ending the turn without drawing",
    in_warmup, lambda _: cmd("end_turn", "A"))
row("end_turn", "fight_in_progress", "command/fight_in_progress", "ending the turn mid-fight",
    in_fight("defending"), lambda _: cmd("end_turn", "A"))
row("end_turn", "ability_resolving", "command/ability_resolving", "ending the turn mid-ability",
    resolving, lambda _: cmd("end_turn", "A"))

# -- fights (A.9, D.3)
pot_b, pot_b_id = with_card(munchkining, "B", POT)
row("attack", "not_your_turn", RECORDED, "attacking on the opponent's turn",
    pot_b, lambda s: cmd("attack", "B", card=pot_b_id(s), gold=1, salt="s"))
warm_pot, warm_pot_id = with_card(in_warmup, "A", POT)
row("attack", "wrong_phase", RECORDED, "attacking before the draw",
    warm_pot, lambda s: cmd("attack", "A", card=warm_pot_id(s), gold=1, salt="s"))
fight_pot, fight_pot_id = with_card(in_fight("defending"), "A", POT)
row("attack", "fight_in_progress", "command/fight_in_progress", "a second attack mid-fight",
    fight_pot, lambda s: cmd("attack", "A", card=fight_pot_id(s), gold=0, salt="s"))
stack_pot, stack_pot_id = with_card(resolving, "A", POT)
row("attack", "ability_resolving", RECORDED, "attacking while an ability resolves",
    stack_pot, lambda s: cmd("attack", "A", card=stack_pot_id(s), gold=1, salt="s"))
row("run_away", "not_defender", "command/not_defender", "the attacker running away",
    in_fight("declared"), lambda _: cmd("run_away", "A"))
row("run_away", "wrong_fight_step", RECORDED, "running away after facing",
    in_fight("defending"), lambda _: cmd("run_away", "B"))
row("run_away", "ability_resolving", RECORDED, "running away while an ability resolves",
    then(in_fight("declared"), hero_ability("B")), lambda _: cmd("run_away", "B"))
row("face", "not_defender", "command/not_defender", "the attacker facing its own Monster",
    in_fight("declared"), lambda _: cmd("face", "A"))
row("face", "wrong_fight_step", RECORDED, "facing again once ready",
    in_fight("ready"), lambda _: cmd("face", "B"))
row("face", "wrong_fight_step", "command/wrong_fight_step", "facing after the reveal",
    in_fight("revealed"), lambda _: cmd("face", "B"))
row("face", "ability_resolving", RECORDED, "facing while an ability resolves",
    then(in_fight("declared"), hero_ability("B")), lambda _: cmd("face", "B"))
row("commit", "not_defender", "command/not_defender", "the attacker committing its Ally",
    in_fight("defending"), lambda s: cmd("commit", "A", cards=[card_id(s, "A", SQUIRE, "hoard")]))
row("commit", "wrong_fight_step", RECORDED, "committing before facing",
    in_fight("declared"), lambda s: cmd("commit", "B", cards=[card_id(s, "B", SQUIRE, "hoard")]))
row("commit", "ability_resolving", RECORDED, "committing while an ability resolves",
    then(in_fight("defending"), hero_ability("B")),
    lambda s: cmd("commit", "B", cards=[card_id(s, "B", SQUIRE, "hoard")]))
row("ready", "not_defender", "command/not_defender", "the attacker declaring the defence ready",
    in_fight("defending"), lambda _: cmd("ready", "A"))
row("ready", "wrong_fight_step", RECORDED, "ready without facing",
    in_fight("declared"), lambda _: cmd("ready", "B"))
row("ready", "wrong_fight_step", "command/wrong_fight_step", "ready again after the reveal",
    in_fight("revealed"), lambda _: cmd("ready", "B"))
row("ready", "ability_resolving", RECORDED, "ready while an ability resolves",
    then(in_fight("defending"), hero_ability("B")), lambda _: cmd("ready", "B"))
row("reveal", "not_attacker", "command/not_attacker", "the defender revealing the attack card",
    in_fight("ready"), lambda _: cmd("reveal", "B"))
row("reveal", "wrong_fight_step", RECORDED, "revealing before the defender decides",
    in_fight("declared"), lambda _: cmd("reveal", "A"))
row("reveal", "wrong_fight_step", "command/wrong_fight_step", "revealing twice",
    in_fight("revealed"), lambda _: cmd("reveal", "A"))
row("reveal", "ability_resolving", RECORDED, "revealing while an ability resolves",
    then(in_fight("ready"), hero_ability("A")), lambda _: cmd("reveal", "A"))


def fight_card(s: State) -> str:
    return str(s["fight"]["card"])


row("modify_cost", "wrong_fight_step", RECORDED, "a cost modified before the reveal",
    in_fight("ready"), lambda s: cmd("modify_cost", "A", card=fight_card(s), cost=0))
row("modify_cost", "no_ability_resolving", RECORDED, "a cost modified with nothing resolving",
    in_fight("revealed"), lambda s: cmd("modify_cost", "A", card=fight_card(s), cost=0))
haggling = then(
    with_card(in_fight("revealed"), "B", HAGGLER)[0],
    lambda s: cmd("play", "B", card=card_id(s, "B", HAGGLER, "hand"), gold=1),
)
row("modify_cost", "not_resolving_source", RECORDED, "the opponent's Haggler recorded by A",
    haggling,
    lambda s: cmd("modify_cost", "A", card=fight_card(s), cost=0, source=s["stack"][-1]["card"]))
row("allocate", "not_defender", "command/not_defender", "the attacker allocating the damage",
    allocating, lambda s: cmd("allocate", "A", damage={card_id(s, "B", SQUIRE, "dmz"): 4}))
row("allocate", "ability_resolving", "command/nothing_to_allocate", "allocating mid-ability",
    then(allocating, hero_ability("B")),
    lambda s: cmd("allocate", "B", damage={card_id(s, "B", SQUIRE, "dmz"): 4}))

# -- abilities, windows, effects (A.10-A.12)
row("resolve", "not_your_ability", "command/not_your_ability", "resolving the opponent's ability",
    resolving, lambda _: cmd("resolve", "B"))
row("target", "not_your_ability", "command/not_your_ability",
    "naming the targets of the opponent's trigger",
    horde_triggered, lambda s: cmd("target", "B", targets=[hero(s, "A")]))
row("pass", "no_window", RECORDED, "passing with no window open",
    munchkining, lambda _: cmd("pass", "B"))
row("pass", "already_passed", RECORDED, "passing twice",
    then(in_fight("revealed"), lambda _: cmd("pass", "A")), lambda _: cmd("pass", "A"))
row("pass", "ability_resolving", RECORDED, "passing while an ability resolves",
    then(in_fight("revealed"), hero_ability("B")), lambda _: cmd("pass", "A"))
dagger, dagger_id = with_card(munchkining, "B", "Sample Sneaky Dagger", "hoard")
row("activate", "not_your_turn", RECORDED, "a Smack on the opponent's turn",
    dagger,
    lambda s: cmd("activate", "B", card=dagger_id(s), costs={"zap": True}, targets=[hero(s, "A")]))
row("activate", "window_closed", RECORDED, "an ability in cooldown", in_cooldown, hero_ability("B"))
row("zap", "window_closed", RECORDED, "a zap in cooldown",
    in_cooldown, lambda s: cmd("zap", "B", card=hero(s, "B")))
row("zap", "not_resolving_source", RECORDED, "a zap during the opponent's ability",
    resolving, lambda s: cmd("zap", "B", card=hero(s, "B")))
row("take_gold", "not_resolving_source", RECORDED, "an effect of the opponent's ability",
    resolving, lambda s: cmd("take_gold", "B", source=hero(s, "A"), amount=1))
row("damage", "no_ability_resolving", RECORDED, "damage with nothing resolving",
    munchkining, lambda s: cmd("damage", "A", source=hero(s, "A"), target="B", amount=1))
# fmt: on


# ---------------------------------------------------------------------------- the doc


@dataclass(frozen=True)
class DocRow:
    commands: tuple[str, ...]
    recorded: frozenset[str]
    refused: frozenset[tuple[str, str]]


def doc_table() -> list[DocRow]:
    """The rows of the "Record mode" table of docs/rules.md."""
    text = RULES_DOC.read_text(encoding="utf-8")
    section = text.split("\n## Record mode\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        refused = re.findall(
            r"`(rule/[a-z_]+)`[^;`]*(?:\([^)]*\))?[^;`]*→ `(command/[a-z_]+)`", cells[2]
        )
        rows.append(
            DocRow(
                tuple(re.findall(r"`([a-z_]+)`", cells[0])),
                frozenset(re.findall(r"rule/[a-z_]+", cells[1])),
                frozenset(refused),
            )
        )
    return rows


def doc_row(command: str) -> DocRow:
    return next(r for r in doc_table() if command in r.commands)


def test_the_doc_table_names_every_command_once() -> None:
    named = [c for r in doc_table() for c in r.commands]
    assert sorted(named) == sorted(HANDLERS)


def test_every_refusal_the_doc_lists_has_a_row_and_back() -> None:
    listed = {(c, code, out) for r in doc_table() for c in r.commands for code, out in r.refused}
    rows = {(r.command, r.code, r.outcome) for r in ROWS if r.outcome != RECORDED}
    assert rows == listed


def test_every_recorded_row_is_listed_as_recorded_for_its_command() -> None:
    missing = [
        (r.command, r.code)
        for r in ROWS
        if r.outcome == RECORDED and r.code not in doc_row(r.command).recorded
    ]
    assert missing == []


def test_every_seat_and_timing_check_the_doc_records_has_a_row() -> None:
    covered = {(r.command, r.code) for r in ROWS if r.outcome == RECORDED}
    missing = [
        (doc.commands, code)
        for doc in doc_table()
        for code in sorted(doc.recorded & TIMING)
        if not any((c, code) in covered for c in doc.commands)
    ]
    assert missing == []


def test_the_error_index_lists_every_command_code_of_the_table() -> None:
    text = RULES_DOC.read_text(encoding="utf-8").split("\n## Error index\n", 1)[1]
    indexed = set(re.findall(r"^\| `(command/[a-z_]+)` \|", text, re.MULTILINE))
    refused = {out for r in doc_table() for _, out in r.refused}
    assert refused - indexed == set()


# ---------------------------------------------------------------------------- the rows


def physical_problems(before: State, after: State, command: Command) -> list[str]:
    """What the table could not be left in after ``command``: the invariants, and no step of
    the turn, the fight or an ability taken for a seat by another."""
    problems = list(invariant_violations(after))
    seat = command["seat"]
    if before["status"] == "setup" and after["status"] == "playing":
        setup = after["setup"]
        if setup.get("first") is None or set(setup["decided"]) < {"A", "B"}:
            problems.append(f"the game started without a first player or decisions: {setup}")
    if before["status"] == "playing" and after["status"] == "playing":
        ended = command["type"] == "end_turn" and seat == before["active"]
        if not ended and (after["active"], after["turn"]) != (before["active"], before["turn"]):
            problems.append("the turn changed hands")
        if seat != before["active"] and (after["phase"], after["step"]) != (
            before["phase"],
            before["step"],
        ):
            problems.append("the other seat moved the active player's phase")
        bf, af = before.get("fight"), after.get("fight")
        if bf and af and (bf["attacker"], bf["defender"]) != (af["attacker"], af["defender"]):
            problems.append("the fight changed hands")
        for entry in before["stack"]:
            if entry["player"] == seat:
                continue
            now = [e for e in after["stack"] if e["ref"] == entry["ref"]]
            if not now or now[0].get("done") != entry.get("done"):
                problems.append(f"{seat} advanced or ended the other seat's ability {entry['ref']}")
    fight = after.get("fight") or {}
    owned = {fight.get("card"), *fight.get("defender_cards", [])} | {
        e["card"] for e in after.get("stack") or []
    }
    problems += [
        f"{cid} is in the DMZ for nothing" for cid in after.get("dmz") or [] if cid not in owned
    ]
    return problems


def _id(r: Row) -> str:
    return f"{r.command} {r.code}: {r.name}"


@pytest.mark.parametrize("r", ROWS, ids=_id)
def test_strict_mode_refuses_with_the_rule_code(r: Row) -> None:
    state, command = r.setup("strict")
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RuleViolation) as info:
        RS.decide(state, command)
    assert info.value.code == (r.strict or r.code)
    assert json.dumps(state, sort_keys=True) == before


@pytest.mark.parametrize("r", ROWS, ids=_id)
def test_record_mode_records_a_physical_state_or_refuses(r: Row) -> None:
    state, command = r.setup("record")
    before = json.dumps(state, sort_keys=True)
    if r.outcome != RECORDED:
        with pytest.raises(ImpossibleCommand) as info:
            RS.decide(state, command)
        assert info.value.code == r.outcome
        assert json.dumps(state, sort_keys=True) == before
        return
    steps = RS.decide(state, command)
    own = [s.event for s in steps if s.event.seat == command["seat"]]
    assert own, f"nothing recorded: {[s.event.type for s in steps]}"
    assert all(r.code in (e.violation or "").split(",") for e in own), own
    assert all(s.event.violation is None for s in steps if s.event.seat == "rules")
    assert physical_problems(state, steps[-1].state, command) == []


# ---------------------------------------------------------------------------- the cheats found


def test_an_out_of_turn_end_turn_gives_nobody_a_new_turn() -> None:
    s = munchkining("record")
    with pytest.raises(ImpossibleCommand) as info:
        RS.decide(s, cmd("end_turn", "B"))
    assert info.value.code == "command/not_your_turn"


def test_an_out_of_turn_draw_is_an_extra_card_and_the_active_player_still_draws() -> None:
    s = in_warmup("record")
    hand_b = len(s["seats"]["B"]["zones"]["hand"])
    s, events = play(s, cmd("draw", "B", card=top("B")(s)))
    assert [e.type for e in events] == ["CardDrawn"]
    assert events[0].violation == "rule/not_your_turn"
    assert (s["active"], s["phase"], s["step"]) == ("A", "warmup", "draw")
    assert len(s["seats"]["B"]["zones"]["hand"]) == hand_b + 1
    s, events = play(s, cmd("draw", "A", card=top("A")(s)))
    assert [e.type for e in events] == ["CardDrawn", "PhaseStarted"]
    assert events[0].violation is None
    assert s["phase"] == "munchkining"


def test_mulligans_decided_before_the_choice_wait_for_the_first_player() -> None:
    s, events = play(rolled("record"), cmd("keep", "A"), cmd("keep", "B"))
    assert s["status"] == "setup"
    assert all(e.violation == "rule/out_of_order" for e in events)
    s, events = play(s, cmd("choose_first", "A", first="B"))
    assert events[0].violation is None
    assert (s["status"], s["active"], s["turn"]) == ("playing", "B", 1)
    assert (s["seats"]["A"]["gold"], s["seats"]["B"]["gold"]) == (2, 1)
