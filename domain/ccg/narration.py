"""The Munchkin CCG's events in words (docs/rules.md A): the family's narrator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from domain.narration import Narrator, Phrase, Says

_OUTCOMES = {
    "ran": "fight over: ran away",
    "caught": "fight over: caught cheating",
    "squished": "fight over: Monster squished",
    "survived": "fight over: Monster survived",
    "no_card": "fight over: no attacking card",
}
_MARKER = {"run_away": "Run Away", "limp_away": "Limp Away"}
_TRIGGERS = {
    "hired": "Hired:",
    "survivor": "Survivor:",
    "reckoning": "reckoning",
    "end_of_fight": "end-of-fight",
    "level_gained": "level-gain",
}


def _levels(n: int) -> str:
    return "a level" if n == 1 else f"{n} levels"


_DAMAGE_REASONS = {
    "limp_away": "limping away",
    "caught_cheating": "caught cheating",
    "strike": "the Monster's strike",
}
_ZONE = {"deck_bottom": "the bottom of the deck", "deck_top": "the top of the deck"}


class CcgNarrator(Narrator):
    """The Munchkin CCG's events in words (docs/rules.md sections in the comments). Its events with
    no sentence (the judge's corrections) are bookkeeping: their type only, left out of the
    transcript."""

    SAYS: ClassVar[Mapping[str, Says]] = {
        **Narrator.SAYS,
        "FirstPlayerChosen": Says("chooser", "chooses {first} to go first"),
        "GoldGranted": Says(None, "{player} gets {amount} gold"),
        "MulliganTaken": Says("player", "takes a mulligan"),
        "MulliganDeclined": Says("player", "keeps"),
        "TurnStarted": Says(None, "turn {turn}: {player}", minor=True),
        "CardDrawn": Says("player", "draws {card}"),
        "LootPlayed": Says("player", "plays {card}"),
        "LocationPlayed": Says("player", "plays the Location {card}"),
        "AllyPlayed": Says("player", "pays {gold_paid} gold for {card}"),
        "CardZapped": Says("seat", "zaps {card}"),
        "CardUnzapped": Says("seat", "unzaps {card}"),
        "AbilityCanceled": Says("seat", "cancels the ability of event {ref}"),
        "PriorityPassed": Says("player", "passes", minor=True),
        "ResponseWindowClosed": Says(None, "{window} window closed", minor=True),
        "DefenderFaced": Says("player", "faces the monster"),
        "DefenderCardsCommitted": Says("player", "commits {cards}"),
        "DefenderReady": Says("player", "is ready", minor=True),
        "MonsterCostModified": Says("seat", "{card} now costs {cost}"),
        "CaughtCheating": Says(None, "{player} is caught cheating"),
        "MonsterHired": Says(None, "{card} hired (power {power}, life {life})"),
        "HireGoldSpent": Says(None, "{player}'s {amount} gold goes to the stockpile", minor=True),
        "CommittedGoldReturned": Says(None, "{amount} committed gold back to {player}", minor=True),
        "GoldStolen": Says("to_player", "steals {amount} gold from {from_player}"),
        "GoldTaken": Says(None, "{player} takes {amount} gold"),
        "TokensCollected": Says(None, "{card} collects {amount} tokens"),
        "CardStuck": Says(None, "{card} is stuck to {host}"),
        "CardsSpilled": Says(None, "{player} spills {cards}"),
        "CardDiscarded": Says(None, "{card} is discarded"),
        "CardRevealed": Says(None, "{card} is revealed"),
        "CardRemoved": Says(None, "{card} is removed from the game"),
        "MonsterDiscarded": Says(None, "{card} goes to the discard", minor=True),
        "MonsterStashedFaceUp": Says(None, "{card} survives with {damage} damage, stashed face up"),
        "DefenderCardsReturned": Says(None, "{cards} back to {player}'s hoard", minor=True),
        "LevelIncreased": Says(None, "{player} reaches level {level}"),
        "GoldRefilled": Says(None, "{player} refills {amount} gold"),
        "TurnEnded": Says(None, "turn {turn} over", minor=True),
        "PlayerConceded": Says("player", "concedes"),
        "PlayerEliminated": Says(None, "{player} is eliminated ({reason})"),
        "TableRestored": Says("seat", "restores the table to turn {turn} ({phase})"),
        "StackTrimmed": Says("seat", "cuts the stack back to {keep}"),
        "StackEntryRestored": Says("seat", "puts {card} back on the stack"),
    }

    def unknown(self, etype: str, data: Mapping[str, Any], who: str | None) -> list[Phrase]:
        return [Phrase(who, etype, True)]

    def on_OpeningHandDrawn(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"draws an opening hand of {len(d['cards'])}")]

    def on_FirstPlayerRolled(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        rolls = ", ".join(f"{s} {v}" for s, v in sorted(d["rolls"].items()))
        return [Phrase(None, f"rolls {rolls}" + (": a tie, roll again" if d["tie"] else ""))]

    # turn (A.8)

    def on_PhaseStarted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, str(d["phase"]), d["phase"] != "cooldown")]

    def on_RunAwayMarkerFlipped(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        player, side = d["player"], d["side"]
        unchanged = self.markers.get(player, "run_away") == side
        self.markers[player] = side
        minor = unchanged or e.get("cause") == self.consequences_of
        return [Phrase(player, f"turns the marker to {_MARKER.get(side, side)}", minor)]

    def on_CardsUnzapped(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        cards = d["cards"]
        return [Phrase(d["player"], f"unzaps {self.names(cards)}", not cards)]

    def on_StashUnstashed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        cards = d["cards"]
        text = f"unstashes {self.names(cards)}"
        if d.get("curses"):
            text += f" (Curses {self.names(d['curses'])} to the discard)"
        return [Phrase(d["player"], text, not cards)]

    def on_CardSquished(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        if d["reason"] == "action" and who is not None:
            return [Phrase(who, f"squishes {self.name(d['card'])}")]
        why = {"damage": " by damage", "ability": f" by {self.name(d.get('source'))}"}
        return [Phrase(None, f"{self.name(d['card'])} is squished{why.get(d['reason'], '')}")]

    # abilities (A.11)
    def on_MischiefPlayed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        text = f"plays {self.name(d['card'])}"
        if d.get("gold_paid"):
            text += f" ({d['gold_paid']} gold)"
        if d.get("targets"):
            text += f" on {self.names(d['targets'])}"
        return [Phrase(d["player"], text)]

    def on_AbilityActivated(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        costs = d.get("costs") or {}
        paid = []
        if costs.get("zap"):
            paid.append("zap")
        if costs.get("gold"):
            paid.append(f"{costs['gold']} gold")
        if costs.get("give_blood"):
            paid.append(f"{costs['give_blood']} blood")
        if costs.get("discard"):
            paid.append(f"discarding {self.names(costs['discard'])}")
        text = f"uses {self.name(d['card'])}" + (f" ({', '.join(paid)})" if paid else "")
        if d.get("targets"):
            text += f" on {self.names(d['targets'])}"
        return [Phrase(d["player"], text)]

    def on_AbilityTriggered(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        """A mandatory trigger put on the stack by the rules (docs/rules.md A.9, A.8); the
        trigger and the ability's number are hidden with a card the viewer may not see."""
        trigger = d.get("trigger")
        which = f"{_TRIGGERS.get(trigger, trigger)} " if isinstance(trigger, str) else ""
        text = f"{self.name(d['card'])}'s {which}ability triggers"
        if d.get("targets"):
            text += f" on {self.names(d['targets'])}"
        return [Phrase(d["player"], text)]

    def on_TriggerTargeted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        """A triggered ability's targets, named by its controller (docs/rules.md D.23)."""
        return [Phrase(d["player"], f"aims {self.name(d['card'])} at {self.names(d['targets'])}")]

    def on_AbilityResolved(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        if d.get("outcome") == "canceled":
            return [Phrase(None, f"{self.name(d['card'])} fizzles (canceled)")]
        return [Phrase(None, f"{self.name(d['card'])} resolves", True)]

    # fight (A.9)
    def on_FightStarted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        self.attack = {"attacker": d["attacker"], "defender": d["defender"], "card": None}
        return [Phrase(d["attacker"], f"starts a fight with {d['defender']}", True)]

    def on_AttackCardCommitted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        self.attack["card"] = d["card"]
        card = self.name(d["card"], "a face-down card")
        if isinstance(d["card"], str):
            card += " face down"
        return [Phrase(d["player"], f"commits {card}", True)]

    def on_GoldCommitted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        card = self.name(self.attack.get("card"), "a face-down card")
        if isinstance(self.attack.get("card"), str):
            card += " (face down)"
        return [Phrase(d["player"], f"attacks with {card} and {d['amount']} gold")]

    def on_RanAway(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        self.consequences_of = e.get("version")
        how = "flipping the marker to Limp Away" if d["paid_by"] == "marker" else "taking 2 damage"
        return [Phrase(d["player"], f"runs away, {how}")]

    def on_AttackCardRevealed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        card = self.cards.get(d["card"]) if isinstance(d["card"], str) else None
        text = f"reveals {self.name(d['card'])}"
        if card is not None:
            kind = "Monster" if card.get("type") == "monster" else str(card.get("type"))
            cost = f", cost {card['cost']}" if card.get("cost") is not None else ""
            text += f" ({kind}{cost})"
        return [Phrase(d["player"], text)]

    def on_CheatingChecked(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        result = d["result"]
        if result == "underpaid":
            text = f"underpaid: {d['gold']} gold for cost {d['cost']}"
        elif result == "not_monster":
            text = f"{self.name(d['card'])} is not a Monster"
        else:
            text = f"paid: {d['gold']} gold for cost {d['cost']}"
        return [Phrase(None, text, result == "hired")]

    def on_DamageDealt(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        target, amount = self.name(d["target"]), d["amount"]
        blocked = f" ({d['reduced_by_defense']} blocked)" if d.get("reduced_by_defense") else ""
        if d.get("kind") == "combat" and d["target"] == self.attack.get("card"):
            defender = self.attack.get("defender", "the defender")
            return [Phrase(None, f"{defender}'s weapons deal {amount} to {target}{blocked}")]
        if d.get("source") is not None and d["source"] == d["target"]:  # Collect on itself
            return [Phrase(None, f"{target} takes {amount} damage from its own tokens")]
        if d.get("source") is not None:
            return [Phrase(None, f"{self.name(d['source'])} deals {amount} to {target}{blocked}")]
        minor = e.get("cause") is not None and e.get("cause") == self.consequences_of
        return [Phrase(None, f"{target} takes {amount} damage{blocked}", minor)]

    def on_DamageAnnounced(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        """Damage the rules are about to deal, before the window for interrupts (A.11)."""
        reason = _DAMAGE_REASONS.get(d["reason"], str(d["reason"]))
        if d.get("target") is None and "target" in d and d["reason"] == "strike":
            defender = self.attack.get("defender", "the defender")
            target = f"{defender}'s committed Allies"
        else:
            target = self.name(d.get("target"))
        source = f" from {self.name(d['source'])}" if d.get("source") is not None else ""
        return [Phrase(None, f"{d['amount']} damage{source} to {target} announced ({reason})")]

    def on_DamagePrevented(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        """A Prevent effect (docs/rules.md A.12)."""
        text = f"prevents {d['amount']} damage"
        if d.get("source") is not None:
            text += f" with {self.name(d['source'])}"
        return [Phrase(who, text)]

    def on_DamageAllocated(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        parts = [
            f"{'the Hero' if k == 'hero' else self.name(k)} {v}" for k, v in d["allocation"].items()
        ]
        return [Phrase(d["player"], f"allocates damage: {', '.join(parts) or 'none'}")]

    def on_Healed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        source = ""
        if d.get("source") is not None and d["source"] != d["target"]:
            source = f" ({self.name(d['source'])})"
        return [Phrase(None, f"{self.name(d['target'])} heals {d['amount']}{source}")]

    def on_CardStashed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        owner = self.owner_of(d["card"])
        card = self.name(d["card"])
        if d["card"] is None and "card" in self.attack and self.attack["card"] is None:
            owner, card = self.attack.get("attacker"), "the attack card"
        where = f"{owner}'s stash" if owner else "its owner's stash"
        return [Phrase(None, f"{card} to {where} (face {d['face']})")]

    def on_CardMoved(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        to = _ZONE.get(d["to"], f"the {d['to']}")
        return [Phrase(None, f"{self.name(d['card'])} moves to {to}")]

    def on_FightEnded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        self.attack = {}
        return [Phrase(None, _OUTCOMES.get(d["outcome"], f"fight over: {d['outcome']}"))]

    # cooldown, levels, end (A.8, A.13)

    def on_LevelGained(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        """A level an ability gave (docs/rules.md A.2, A.8): never past 10."""
        by = f" ({self.name(d['source'])})" if d.get("source") is not None else ""
        if not d["amount"]:
            return [Phrase(None, f"{d['player']} stays at level {d['level']}{by}")]
        return [Phrase(None, f"{d['player']} gains {_levels(d['amount'])}: level {d['level']}{by}")]

    def on_LevelLost(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        """A level an ability took (docs/rules.md A.2): never below 1."""
        by = f" ({self.name(d['source'])})" if d.get("source") is not None else ""
        if not d["amount"]:
            return [Phrase(None, f"{d['player']} stays at level {d['level']}{by}")]
        return [Phrase(None, f"{d['player']} loses {_levels(d['amount'])}: level {d['level']}{by}")]

    def on_GameEnded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        winner = d["winner"]
        return [Phrase(None, "the game is a draw" if winner == "draw" else f"{winner} wins")]

    # judge (domain.corrections)
    def on_CardRestored(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        owner = self.owner_of(d["card"])
        zone = (
            d["zone"]
            if owner is None or d["zone"] in ("dmz", "stuck")
            else f"{owner}'s {d['zone']}"
        )
        return [Phrase(who, f"restores {self.name(d['card'])} to {zone}")]

    def on_SeatRestored(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        text = f"restores {d['player']}: level {d['level']}, {d['gold']} gold"
        return [Phrase(who, text)]
