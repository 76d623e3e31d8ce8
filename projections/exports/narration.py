"""Narration: export entries as the sentences of a transcript (and of the CSV's summary).

The :class:`Narrator` knows the Munchkin CCG's events by name (``on_<EventType>``) and tells
any other ruleset's events generically: the type and the cards named, as the viewer may see
them. Two marks show what the rules did not check (docs/cards.md): an event recorded from a
card whose text is not encoded ends in ``[unchecked]`` (when the viewer's entry carries the
mark), and a card that is not the catalog's is named with ``[custom]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from string import Formatter
from typing import Any, ClassVar

from domain import EVENT_TYPES
from projections.exports.walk import card_book


@dataclass(frozen=True, slots=True)
class Phrase:
    """One sentence of a transcript: who acted (``None`` for the rules' own steps) and what.

    ``minor`` phrases (passes, bookkeeping) are left out of the transcript, kept in the CSV.
    """

    actor: str | None
    text: str
    minor: bool = False

    def render(self, *, with_actor: bool) -> str:
        if with_actor and self.actor is not None:
            return f"{actor_label(self.actor)}: {self.text}"
        return self.text


class Says:
    """The one phrase of an event: ``template`` filled in from the event's data (the card
    fields by name, as the viewer may see them), said by the seat in the data field ``by``
    (``"seat"``: the entry's own seat; ``None``: the rules themselves)."""

    __slots__ = ("by", "fields", "minor", "template")

    def __init__(self, by: str | None, template: str, *, minor: bool = False) -> None:
        self.by = by
        self.template = template
        self.minor = minor
        self.fields = tuple(name for _, name, _, _ in Formatter().parse(template) if name)


def actor_label(seat: str) -> str:
    return "Judge" if seat == "judge" else seat


def card_label(card: Mapping[str, Any]) -> str:
    """A card's name, marked ``[custom]`` for a card that is not the catalog's (docs/cards.md).

    >>> card_label({"name": "Sample Nope"}), card_label({"name": "Home Brew", "custom": True})
    ('Sample Nope', 'Home Brew [custom]')
    """
    name = str(card.get("name"))
    return f"{name} {CUSTOM_MARK}" if card.get("custom") else name


_OUTCOMES = {
    "ran": "fight over: ran away",
    "caught": "fight over: caught cheating",
    "squished": "fight over: Monster squished",
    "survived": "fight over: Monster survived",
    "no_card": "fight over: no attacking card",
}
_MARKER = {"run_away": "Run Away", "limp_away": "Limp Away"}
#: The marks of what the rules did not check (docs/cards.md).
UNCHECKED_MARK = "[unchecked]"
CUSTOM_MARK = "[custom]"
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


class Narrator:
    """Turns export entries into :class:`Phrase` s, remembering what a reader would.

    This base tells the events every game has (``GameCreated``, the judge's disputes and
    rulings) and any other generically (:meth:`unknown`); :class:`CcgNarrator` knows the
    Munchkin CCG's events. :func:`narrator_for` picks one for a game.

    Hidden cards (ids the viewer's entry leaves out) read as ``"a face-down card"`` in the DMZ
    and ``"a card"`` elsewhere; visible ones by name.

    An event is told by its ``on_<EventType>`` method, else by its entry in :attr:`SAYS`,
    else by :meth:`unknown`.
    """

    SAYS: ClassVar[Mapping[str, Says]] = {"GameCreated": Says(None, "game created", minor=True)}

    def __init__(self, cards: Mapping[str, Mapping[str, Any]], seats: Iterable[str]) -> None:
        self.cards = cards
        self.actors = {*seats, "judge"}
        self.markers: dict[str, str] = {}
        self.attack: dict[str, Any] = {}
        self.consequences_of: int | None = None

    # -- words ------------------------------------------------------------------------------

    def name(self, cid: Any, hidden: str = "a card") -> str:
        """A card the viewer may see by name (``[custom]`` if it is not the catalog's), else
        ``hidden``."""
        if not isinstance(cid, str):
            return hidden
        card = self.cards.get(cid)
        if card is None:
            return f"card {cid}"
        return card_label(card)

    def names(self, cids: Iterable[Any], hidden: str = "a card") -> str:
        shown = [self.name(c) for c in cids if isinstance(c, str)]
        n_hidden = sum(1 for c in cids if not isinstance(c, str))
        if n_hidden:
            shown.append(hidden if n_hidden == 1 else f"{n_hidden} cards")
        if not shown:
            return "nothing"
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]

    def card_words(self, value: Any) -> str:
        """A card field's value in words: one card, or a list of them."""
        return self.names(value) if isinstance(value, list) else self.name(value)

    def owner_of(self, cid: Any) -> str | None:
        card = self.cards.get(cid) if isinstance(cid, str) else None
        return None if card is None else str(card["owner"])

    # -- events -----------------------------------------------------------------------------

    def unknown(self, etype: str, data: Mapping[str, Any], who: str | None) -> list[Phrase]:
        """An event this narrator has no sentence for (another ruleset's): its type and the
        cards it names, hidden ones as ``"a card"``."""
        cls = EVENT_TYPES.get(etype)
        cids: list[Any] = []
        for name in cls.card_fields if cls is not None else ():
            value = data.get(name)
            if isinstance(value, list | dict):
                cids.extend(value)
            elif name in data:
                cids.append(value)
        return [Phrase(who, f"{etype} {self.names(cids)}" if cids else etype)]

    def describe(self, entry: Mapping[str, Any]) -> list[Phrase]:
        """The phrases for one entry (possibly none); the ``[unchecked]`` mark and a violation
        are appended to the last."""
        etype = str(entry["type"])
        data: Mapping[str, Any] = entry.get("data") or {}
        actor = entry.get("seat")
        who = actor if actor in self.actors else None
        method = getattr(self, f"on_{etype}", None)
        says = self.SAYS.get(etype)
        phrases: list[Phrase]
        if method is not None:
            phrases = method(data, who, entry)
        elif says is not None:
            phrases = [self.say(says, etype, data, who)]
        else:
            phrases = self.unknown(etype, data, who)
        if entry.get("unchecked") is True:
            if phrases:
                last = phrases[-1]
                phrases[-1] = Phrase(last.actor, f"{last.text} {UNCHECKED_MARK}", last.minor)
            else:
                phrases = [Phrase(who, f"{etype} {UNCHECKED_MARK}", True)]
        if entry.get("violation") and phrases:
            last = phrases[-1]
            phrases[-1] = Phrase(last.actor, f"{last.text} [violation: {entry['violation']}]")
        elif entry.get("violation"):
            phrases = [Phrase(who, f"{etype} [violation: {entry['violation']}]")]
        return phrases

    def say(self, says: Says, etype: str, data: Mapping[str, Any], who: str | None) -> Phrase:
        """The phrase ``says`` makes of one event's ``data``."""
        cls = EVENT_TYPES.get(etype)
        card_fields = cls.card_fields if cls is not None else ()
        words = {
            name: self.card_words(data[name]) if name in card_fields else data[name]
            for name in says.fields
        }
        actor = who if says.by == "seat" else None if says.by is None else data[says.by]
        return Phrase(actor, says.template.format_map(words), says.minor)

    # events every game has: its creation (in SAYS) and the judge's record (A.14)
    def on_DisputeOpened(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        about = f" about event {d['about']}" if d.get("about") is not None else ""
        note = f": {d['note']}" if d.get("note") else ""
        return [Phrase(d["raised_by"], f"calls the judge{about} ({d['dispute']}){note}")]

    def on_RulingRecorded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        text = f"rules on {d['dispute']}: {d['ruling']}"
        if d.get("penalty"):
            text += f" ({d['penalty']}" + (f" for {d['player']}" if d.get("player") else "") + ")"
        return [Phrase(who, text)]


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


#: The narrator of each ruleset that has its own, by ruleset name.
NARRATORS: dict[str, type[Narrator]] = {"munchkin-ccg": CcgNarrator}


def narrate(entry: Mapping[str, Any], state: Mapping[str, Any]) -> list[str]:
    """One entry's sentences on their own (the replay viewer's), actors named: ``entry`` as a
    viewer may see it (``projections.views.event_view``), ``state`` any judge's state of its
    game (its card definitions name the cards the entry shows; hidden ones stay unnamed).
    Without the events before it, a phrase that needs them (the card a fight's gold goes
    with) reads as it does for a card the viewer may not see."""
    narrator = NARRATORS.get(str(state.get("ruleset")), Narrator)(
        card_book(state), list(state.get("seats") or ())
    )
    return [phrase.render(with_actor=True) for phrase in narrator.describe(entry)]


def narrator_for(header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> Narrator:
    """The narrator of the game an export ``header`` describes, knowing its ``cards``."""
    narrator = NARRATORS.get(str(header.get("ruleset")), Narrator)
    return narrator(cards, [seat["seat"] for seat in header["seats"]])
