"""Issue #13's events and marks through views, exports, transcripts and imports.

Games of ``tests/marked.py`` hold mandatory triggers, damage announced and prevented, events
marked ``unchecked`` (a card whose text is not encoded, docs/cards.md) and a ``custom`` card.
Every format carries them (JSON/NDJSON per event, the CSV's last column, the transcript's
``[unchecked]`` and ``[custom]``), a complete export imports and verifies as it was, and a seat
never learns through them anything about a card it may not see (docs/rules.md A.4).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from domain import event_from_dict, evolve
from domain.ccg import events as ev
from domain.ccg.corrections import StackEntryRestored
from domain.envelope import verify_records
from domain.visibility import knowledge
from projections.exports import (
    CSV_COLUMNS,
    ImportRejected,
    export_csv,
    export_json,
    export_json_text,
    export_ndjson,
    export_transcript,
    import_game,
    read_export,
)
from projections.exports.narration import narrate, narrator_for
from projections.replay import diff_view, state_diff
from projections.views import event_view, state_view
from tests.builders import (
    State,
    cmd,
    judge,
    play,
    started_game,
    unchecked,
)
from tests.marked import HOME_BREW, holds_everything, marked_game
from tests.unit.seeded_games import records_for, reseal

#: The CSV's columns before the ``unchecked`` column: tools read them by position.
COLUMNS_BEFORE = (
    "version",
    "received_at",
    "client_at",
    "seat",
    "type",
    "turn",
    "summary",
    "violation",
    "data",
)


@pytest.fixture(scope="module")
def marked() -> tuple[State, list[ev.Event], list[dict[str, Any]]]:
    """A finished marked game (seed 1 holds every new event type, see ``holds_everything``)."""
    game = marked_game(1, unique_names=["A"])
    assert holds_everything(game.events)
    return game.state, game.events, records_for(game.events)


def unchecked_versions(records: list[dict[str, Any]]) -> set[int]:
    return {r["version"] for r in records if r["event"].get("unchecked")}


# ---------------------------------------------------------------------------- narration

CARDS = {
    "imp": {"name": "Sample Pickpocket Imp", "owner": "A", "type": "monster"},
    "hero": {"name": "Sample Gnome Thief", "owner": "B", "type": "hero"},
    "shield": {"name": "Sample Tin Shield", "owner": "B", "type": "loot"},
    "brew": {"name": HOME_BREW, "owner": "A", "type": "location", "custom": True},
}
HEADER = {"ruleset": "munchkin-ccg", "seats": [{"seat": "A"}, {"seat": "B"}]}


def said(etype: str, seat: str, data: dict[str, Any], **marks: Any) -> str:
    entry = {"version": 9, "type": etype, "seat": seat, "data": data, **marks}
    phrases = narrator_for(HEADER, CARDS).describe(entry)
    return " · ".join(p.render(with_actor=True) for p in phrases)


def test_the_new_events_read_as_sentences() -> None:
    """docs/rules.md A.9 (Hired:), A.11 (damage waits for interrupts), A.12 (Prevent X)."""
    trigger = {"player": "A", "card": "imp", "ability": 0, "trigger": "hired", "targets": ["hero"]}
    assert said("AbilityTriggered", "rules", trigger) == (
        "A: Sample Pickpocket Imp's Hired: ability triggers on Sample Gnome Thief"
    )
    announced = {"target": "hero", "amount": 3, "reason": "strike", "source": "imp"}
    assert said("DamageAnnounced", "rules", announced) == (
        "3 damage from Sample Pickpocket Imp to Sample Gnome Thief announced (the Monster's strike)"
    )
    limp = {"target": "hero", "amount": 2, "reason": "limp_away", "source": None}
    assert said("DamageAnnounced", "rules", limp) == (
        "2 damage to Sample Gnome Thief announced (limping away)"
    )
    prevented = {"amount": 1, "source": "shield"}
    assert said("DamagePrevented", "B", prevented) == "B: prevents 1 damage with Sample Tin Shield"


def test_a_hidden_card_keeps_its_trigger_and_name_to_itself() -> None:
    hidden = {"player": "A", "card": None, "ability": None, "trigger": None, "targets": []}
    assert said("AbilityTriggered", "rules", hidden) == "A: a card's ability triggers"


def test_unchecked_events_and_custom_cards_are_marked() -> None:
    zap = {"player": "A", "card": "brew", "costs": {"zap": True}, "targets": []}
    assert said("AbilityActivated", "A", zap, unchecked=True) == (
        "A: uses Home Brew Tavern [custom] (zap) [unchecked]"
    )
    assert said("AbilityActivated", "A", zap) == "A: uses Home Brew Tavern [custom] (zap)"
    gold = {"source": "brew", "player": "A", "amount": 1}
    assert said("GoldTaken", "A", gold, unchecked=True, violation="rule/x") == (
        "A takes 1 gold [unchecked] [violation: rule/x]"
    )


# ---------------------------------------------------------------------------- formats


def test_json_and_ndjson_carry_the_mark_per_event(marked: Any) -> None:
    _, _, records = marked
    want = unchecked_versions(records)
    assert want, "the game has unchecked events"
    for viewer in ("judge", "table"):
        entries = export_json(records, viewer)["events"]
        assert {e["version"] for e in entries if e.get("unchecked")} == want
        assert all(e["unchecked"] is True for e in entries if "unchecked" in e)
        assert not any("unchecked" in e["data"] for e in entries), "a mark, not a data field"
    lines = [json.loads(line) for line in export_ndjson(records, "judge")][1:]
    assert {e["version"] for e in lines if e.get("unchecked")} == want


def test_csv_appends_the_unchecked_column_at_the_end(marked: Any) -> None:
    _, _, records = marked
    rows = list(csv.reader(io.StringIO("".join(export_csv(records, "judge")))))
    assert tuple(rows[0]) == CSV_COLUMNS == (*COLUMNS_BEFORE, "unchecked")
    assert {r[-1] for r in rows[1:]} == {"true", ""}
    assert {int(r[0]) for r in rows[1:] if r[-1] == "true"} == unchecked_versions(records)
    marked_rows = [r for r in rows[1:] if r[-1] == "true"]
    assert all("[unchecked]" in r[6] for r in marked_rows)


def test_the_transcript_tells_triggers_prevention_and_marks(marked: Any) -> None:
    _, _, records = marked
    text = " ".join(export_transcript(records, "judge").split())
    assert "'s Survivor: ability triggers" in text
    assert "damage to Sample Orc Warrior [custom] announced (limping away)" in text
    assert "announced (the Monster's strike)" in text
    assert "prevents 1 damage with Sample Tin Shield" in text
    assert "A: uses Sample Orc Warrior [custom] (zap) [unchecked]" in text
    assert f"plays the Location {HOME_BREW} ~A039~ [custom]" in text


def test_a_complete_export_with_the_new_events_imports_and_verifies_as_it_was(
    marked: Any,
) -> None:
    state, _, records = marked
    assert verify_records(records)["ok"]
    for text in (
        export_json_text(records, "judge"),
        "".join(export_ndjson(records, "table")),
    ):
        _, back = read_export(text)
        assert back == records, "the same records: events, marks, visibility and hashes"
        imported = import_game(text)
        assert imported.records == records
        assert imported.state == state
        check = verify_records(imported.records)
        assert check["ok"] and check["checked"] == len(records)


def test_an_export_without_the_mark_is_refused_when_the_mark_named_a_card() -> None:
    """The unchecked card an effect was recorded from is in the effect's ``visible_to``: an
    export that drops the mark (and reseals the chain) no longer matches what the rules
    compute (``replay_records`` step 5), so the mark cannot be stripped unnoticed there."""
    _, _, events, _, before = hidden_activation()
    records = records_for([*before, *events])
    assert import_game(export_json_text(records, "judge")).records == records
    gold = next(r for r in records if r["event"]["type"] == "GoldTaken")
    assert gold["event"]["unchecked"] is True and not event_from_dict(gold["event"]).card_ids()
    forged = json.loads(json.dumps(records))
    del forged[gold["version"] - 1]["event"]["unchecked"]
    with pytest.raises(ImportRejected) as caught:
        import_game(export_json_text(reseal(forged), "judge"))
    assert (caught.value.version, caught.value.reason) == (gold["version"], "visibility_mismatch")


@pytest.mark.parametrize("seat", ["A", "B"])
def test_a_seat_sees_the_mark_only_on_events_whose_cards_it_may_see(marked: Any, seat: str) -> None:
    _, _, records = marked
    entries = export_json(records, seat)["events"]
    by_version = {r["version"]: r for r in records}
    shown = 0
    for entry in entries:
        record = by_version[entry["version"]]
        visible = record["visible_to"]
        if entry.get("unchecked"):
            shown += 1
            assert all(seat in seats for seats in visible.values()), entry
        elif record["event"].get("unchecked"):
            assert any(seat not in seats for seats in visible.values()), entry
    assert shown, "the mark shows where the seat may see the card"


# ---------------------------------------------------------------------------- hidden cards


def hidden_activation() -> tuple[State, State, list[ev.Event], str, list[ev.Event]]:
    """Record mode: A activates a face-down stash card whose text is not encoded (a Tavern,
    made unchecked), takes gold while it resolves without naming it, and resolves it
    (docs/rules.md A.3: a face-down card cannot act; record mode keeps the violation).

    Returns the state before the activation, the state after, the three events, the card and
    every event before them."""
    s, setup = started_game(
        mode="record",
        fmt="casual",
        unique_names=["A"],
        changes=unchecked("Sample Tavern"),
        decks={"A": ["Sample Tavern"] * 10 + ["Sample Plant Pot"] * 30},
    )
    tavern = next(c for c in s["seats"]["A"]["zones"]["deck"] if "Tavern" in name(s, c))
    stashed = ev.CardMoved(seat="judge", card=tavern, to="stash", face="down")
    s = judge(s, stashed)
    after, events = play(
        s,
        cmd("activate", "A", card=tavern, costs={"zap": True}, text="Zap: take 1 gold."),
        cmd("take_gold", "A", amount=1),
        cmd("resolve", "A"),
    )
    return s, after, events, tavern, [*setup, stashed]


def name(s: State, cid: str) -> str:
    return str(s["cards"][cid]["def"]["name"])


def views(before: State, events: list[ev.Event]) -> list[tuple[State, State, dict[str, Any]]]:
    out = []
    for event in events:
        after = evolve(before, event)
        record = {
            "version": after["version"],
            "event": event.to_dict(),
            "visible_to": knowledge(before, after, event),
        }
        out.append((before, after, record))
        before = after
    return out


def test_a_hidden_cards_ability_and_mark_stay_hidden_from_the_other_seat() -> None:
    s, _, events, tavern, _ = hidden_activation()
    assert [e.type for e in events] == ["AbilityActivated", "GoldTaken", "AbilityResolved"]
    assert all(e.unchecked for e in events)
    (_, mid, activated), (_, _, gold), (_, _, resolved) = views(s, events)
    assert gold["visible_to"] == {tavern: ["A"]}, "the effect lists the card it came from"
    for record in (activated, gold, resolved):
        b = event_view(record, "B", ("A", "B"))
        assert "unchecked" not in b and tavern not in json.dumps(b)
        assert event_view(record, "A", ("A", "B"))["unchecked"] is True
        assert event_view(record, "judge")["unchecked"] is True
        assert "unchecked" not in event_view(record, "spectator", ("A", "B"))
    b = event_view(activated, "B", ("A", "B"))["data"]
    assert b["card"] is None and b["ability"] is None and b["text"] is None
    assert event_view(activated, "A", ("A", "B"))["data"]["text"] == "Zap: take 1 gold."
    # the state's stack and the replay's diff keep the mark and the plan with the card
    stack_b = state_view(mid, "B")["stack"]
    assert stack_b and stack_b[-1]["card"] == {"hidden": True} and "unchecked" not in stack_b[-1]
    assert state_view(mid, "A")["stack"][-1]["unchecked"] is True
    diff_b = diff_view(state_diff(s, mid), s, mid, "B")["stack"]["to"][-1]
    assert diff_b["card"] is None and diff_b["unchecked"] is None and diff_b["plan"] is None
    assert diff_view(state_diff(s, mid), s, mid, "A")["stack"]["to"][-1]["unchecked"] is True


def test_b_reads_the_hidden_activation_without_the_mark_or_the_card() -> None:
    s, _, events, tavern, before = hidden_activation()
    records = records_for([*before, *events])
    tavern_name = name(s, tavern)
    texts = {
        viewer: (
            export_transcript(records, viewer),
            "".join(export_csv(records, viewer)),
            export_json_text(records, viewer),
        )
        for viewer in ("A", "B")
    }
    for text in texts["B"]:
        assert tavern not in text and tavern_name not in text
    transcript, csv_text, json_text = texts["B"]
    assert "[unchecked]" not in transcript
    assert not any(row[-1] for row in csv.reader(io.StringIO(csv_text)) if row[0] != "version")
    assert not any("unchecked" in e for e in json.loads(json_text)["events"])
    transcript, csv_text, json_text = texts["A"]
    assert f"uses {tavern_name} [custom] (zap) [unchecked]" in " ".join(transcript.split())
    rows = [r for r in csv.reader(io.StringIO(csv_text)) if r[-1] == "true"]
    assert [r[4] for r in rows] == ["AbilityActivated", "GoldTaken", "AbilityResolved"]
    assert sum(1 for e in json.loads(json_text)["events"] if e.get("unchecked")) == 3


def test_a_restored_stack_entry_keeps_its_plan_with_its_card() -> None:
    restored = StackEntryRestored(
        seat="judge",
        ref=17,
        card="c1",
        player="A",
        kind="ability",
        extra={"ability": 0, "plan": [{"op": "take_gold", "amount": 1}], "unchecked": False},
    )
    record = {"version": 30, "event": restored.to_dict(), "visible_to": {"c1": ["A"]}}
    assert event_view(record, "B", ("A", "B"))["data"]["extra"] is None
    assert event_view(record, "A", ("A", "B"))["data"]["extra"]["plan"]


def test_the_replay_viewer_narrates_an_event_as_its_viewer_may_see_it() -> None:
    s, after, events, tavern, _ = hidden_activation()
    (_, _, activated), *_ = views(s, events)
    as_a = narrate(event_view(activated, "A", ("A", "B")), after)
    as_b = narrate(event_view(activated, "B", ("A", "B")), after)
    assert as_a == [
        f"A: uses {name(s, tavern)} [custom] (zap) [unchecked] [violation: rule/not_in_play]"
    ]
    assert as_b == ["A: uses a card (zap) [violation: rule/not_in_play]"]


def test_the_damage_a_window_waits_on_names_its_cards_as_the_viewer_may_see_them() -> None:
    """The state's window (docs/rules.md A.11) and the replay's diff show the announced
    damage's target only to a viewer who may see that card (folded by hand: events are facts)."""
    s, _ = started_game()
    secret = s["seats"]["A"]["zones"]["hand"][0]
    after = evolve(
        s, ev.DamageAnnounced(seat="rules", target=secret, amount=1, reason="caught_cheating")
    )
    assert state_view(after, "A")["window"]["damage"]["target"] == secret
    assert state_view(after, "B")["window"]["damage"]["target"] is None
    assert secret not in json.dumps(state_view(after, "B"))
    diff = state_diff(s, after)
    assert diff_view(diff, s, after, "B")["window"]["to"]["damage"]["target"] is None
    assert diff_view(diff, s, after, "judge")["window"]["to"]["damage"]["target"] == secret


def test_an_event_view_carries_the_stored_class_version() -> None:
    """A view shows the version its ``data`` was stored with (older ones stay as stored)."""
    old = {
        "type": "AbilityActivated",
        "v": 1,
        "seat": "A",
        "cause": None,
        "violation": None,
        "player": "A",
        "card": "c1",
        "costs": {},
        "targets": [],
        "text": None,
        "interrupting": None,
    }
    record = {"version": 12, "event": old, "visible_to": {"c1": ["A", "B"]}}
    view = event_view(record, "B", ("A", "B"))
    assert view["v"] == 1 and "ability" not in view["data"] and "v" not in view["data"]
