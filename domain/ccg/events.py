"""The Munchkin CCG's events: one class per state change of docs/rules.md C.1 (see docs/rules.md).

Class names are permanent (stored games name them); see :mod:`domain.events` for the common
fields and for changing a stored shape.
"""

from __future__ import annotations

from dataclasses import field

from domain.event_bases import CreatingEvent, PlayerCardEvent, PlayerCardsEvent, PlayerEvent
from domain.events import Event, Json, event_dataclass, events_of

#: Declares this family's events (domain.events.events_of).
event = events_of("ccg")

# --------------------------------------------------------------------------- shared fields
# The fields several events have alike, in the order they are stored. These bases are never
# stored themselves; a field they give is a field of each event that names them.


@event_dataclass
class _PlayerAmount(Event):
    player: str
    amount: int


@event_dataclass
class _PlayerTurn(Event):
    player: str
    turn: int


@event_dataclass
class _CardBySource(Event):
    card: str
    source: str | None = None
    card_fields = ("card", "source")


@event_dataclass
class _StackEntry(Event):
    ref: int


@event_dataclass
class _LevelChange(Event):
    source: str | None
    player: str
    amount: int
    level: int
    card_fields = ("source",)


# --------------------------------------------------------------------------- setup (A.7)


@event
class GameCreated(CreatingEvent):
    """A game was set up: its header (``game_id``, ``ruleset``, ``rules_version``, ``mode``,
    ``format``: :class:`CreatingEvent`'s fields), seats with heroes and full decks, labels.

    Each seat is ``{"seat", "player", "hero": {id, **def}, "deck": [{id, **def}, ...]}``; the
    definitions travel with the event so the game never needs a catalog again (docs/rules.md A.6-A.7).
    """

    seats: list[dict[str, Json]]
    labels: dict[str, Json] = field(default_factory=dict)
    dealing: dict[str, Json] | None = None  # version 2 (CreatingEvent)

    def card_ids(self) -> list[str]:
        """Every Hero and deck card the game starts with."""
        return [s["hero"]["id"] for s in self.seats] + [
            c["id"] for s in self.seats for c in s["deck"]
        ]


@event
class OpeningHandDrawn(PlayerCardsEvent):
    """A seat drew its six opening cards (docs/rules.md A.7 step 2)."""


@event
class FirstPlayerRolled(Event):
    """Both players rolled for first player; a tie must be rolled again (docs/rules.md A.7 step 3)."""

    rolls: dict[str, int]
    tie: bool


@event
class FirstPlayerChosen(Event):
    """The higher roller chose who goes first (docs/rules.md A.7 step 3)."""

    chooser: str
    first: str


@event
class GoldGranted(_PlayerAmount):
    """Starting gold from the stockpile: 1 to the first player, 2 to the second (A.7 step 4)."""


@event
class MulliganTaken(Event):
    """Hand shuffled into the deck and six new cards drawn (docs/rules.md A.7 step 5, D.17)."""

    player: str
    returned: list[str]
    cards: list[str]
    card_fields = ("returned", "cards")


@event
class MulliganDeclined(PlayerEvent):
    """The player kept the opening hand (docs/rules.md A.7 step 5)."""


# --------------------------------------------------------------------------- turn (A.8)


@event
class TurnStarted(_PlayerTurn):
    """A new turn began for ``player`` (docs/rules.md A.8)."""


@event
class PhaseStarted(Event):
    """The active player's turn entered a phase/step (docs/rules.md A.8)."""

    phase: str
    step: str | None = None


@event
class RunAwayMarkerFlipped(Event):
    """The Run Away marker now shows ``side`` (warmup flip step, or a run-away payment)."""

    player: str
    side: str


@event
class CardsUnzapped(PlayerCardsEvent):
    """Warmup unzap step: all of the player's zapped cards unzapped (docs/rules.md A.8 step 2)."""


@event
class StashUnstashed(Event):
    """Warmup unstash: every stashed card to hand; tokens to the stockpile (docs/rules.md A.8 step 4).

    ``curses`` are the Curses that were stuck to unstashed cards, now in their owners' discards.
    """

    player: str
    cards: list[str]
    tokens_returned: int
    curses: list[str] = field(default_factory=list)
    card_fields = ("cards", "curses")


@event
class CardDrawn(PlayerCardEvent):
    """The player drew ``card`` from their deck (docs/rules.md A.8 step 5)."""


@event
class LootPlayed(PlayerCardEvent):
    """Loot moved from hand to hoard (docs/rules.md A.8, rank limit)."""


@event
class LocationPlayed(PlayerCardEvent):
    """A Location moved from hand to hoard (docs/rules.md A.8, one Location at a time)."""


@event
class AllyPlayed(Event):
    """An Ally was paid for from the purse and put in the hoard (docs/rules.md A.8)."""

    player: str
    card: str
    gold_paid: int
    card_fields = ("card",)


@event
class CardSquished(Event):
    """A card in play went to its owner's discard (docs/rules.md A.10 Squish).

    ``reason`` is ``action`` (munchkining squish), ``damage`` or ``ability``.
    """

    card: str
    reason: str
    source: str | None = None
    card_fields = ("card", "source")


@event
class CardZapped(_CardBySource):
    """A card was zapped (docs/rules.md A.10)."""


@event
class CardUnzapped(_CardBySource):
    """A card was unzapped by an ability (docs/rules.md A.10)."""


# --------------------------------------------------------------------------- abilities (A.11)


@event
class MischiefPlayed(Event):
    """A Mischief card was paid for and moved to the DMZ to resolve (docs/rules.md A.5, A.11)."""

    player: str
    card: str
    gold_paid: int
    targets: list[str] = field(default_factory=list)
    interrupting: int | None = None
    give_blood: int = 0
    card_fields = ("card", "targets")


@event
class AbilityActivated(Event):
    """An ability was activated with its costs paid (docs/rules.md A.11).

    ``costs`` = ``{"gold": n, "zap": bool, "discard": [ids], "give_blood": n}``.
    ``interrupting`` is the stack reference (version) of the ability it interrupts.
    ``ability`` is the index of the activated ability among the card's abilities
    (docs/cards.md), ``None`` for a card whose text is not encoded (version 1 had no index).
    """

    player: str
    card: str
    costs: dict[str, Json] = field(default_factory=dict)
    targets: list[str] = field(default_factory=list)
    text: str | None = None
    interrupting: int | None = None
    ability: int | None = None
    card_fields = ("card", "targets")
    #: Which ability, and the words a client gave for it, tell a seat what a card it may not
    #: see can do (docs/rules.md A.4): hidden with the card.
    secret_with = {"ability": "card", "text": "card"}
    class_version = 2

    @staticmethod
    def upcast_v1_v2(data: dict[str, Json]) -> dict[str, Json]:
        """Version 1 was recorded before abilities were data: which ability is unknown."""
        return {**data, "ability": None}


@event
class AbilityTriggered(Event):
    """The engine put a card's mandatory trigger on the stack (docs/rules.md A.9 steps 4 and 8,
    A.8 reckoning): ``trigger`` is ``hired``, ``survivor``, ``reckoning`` or ``end_of_fight``;
    ``ability`` its index among the card's abilities; ``player`` the seat that resolves it."""

    player: str
    card: str
    ability: int
    trigger: str
    targets: list[str] = field(default_factory=list)
    card_fields = ("card", "targets")
    secret_with = {"ability": "card", "trigger": "card"}


@event
class TriggerTargeted(Event):
    """The controller of a triggered ability on top of the stack named its targets (docs/rules.md
    D.23): the stack entry ``ref`` (of ``card``) now targets ``targets``."""

    player: str
    ref: int
    card: str
    targets: list[str] = field(default_factory=list)
    card_fields = ("card", "targets")


@event
class AbilityCanceled(_StackEntry):
    """An ability on the stack was canceled: its cost stays paid (docs/rules.md A.12 Cancel)."""

    source: str | None = None
    card_fields = ("source",)


@event
class AbilityResolved(_StackEntry):
    """The newest ability on the stack finished resolving (LIFO, docs/rules.md A.11)."""

    card: str
    outcome: str = "resolved"
    card_fields = ("card",)


@event
class PriorityPassed(Event):
    """A player passed in an open response window (docs/rules.md A.14 fair chance to respond)."""

    player: str
    window: str


@event
class ResponseWindowClosed(Event):
    """Both players passed since the last action: the window closed (docs/rules.md A.11, A.14)."""

    window: str


# --------------------------------------------------------------------------- fight (A.9)


@event
class FightStarted(Event):
    """The active player started a fight (docs/rules.md A.9)."""

    attacker: str
    defender: str


@event
class AttackCardCommitted(Event):
    """One card from hand moved face down to the DMZ (docs/rules.md A.9 step 1).

    ``commitment`` = SHA-256 of ``"{salt}:{card}:{name}"``: the defender sees it now and can
    check it once the card is revealed; ``salt`` stays secret with the card.
    """

    player: str
    card: str
    commitment: str
    salt: str
    card_fields = ("card",)
    secret_with = {"salt": "card"}


@event
class GoldCommitted(_PlayerAmount):
    """Gold moved from the attacker's purse next to the committed card (docs/rules.md A.9 step 1)."""


@event
class RanAway(Event):
    """The defender ran away; ``paid_by`` is ``marker`` (flip) or ``damage`` (2 damage)."""

    player: str
    paid_by: str


@event
class DefenderFaced(PlayerEvent):
    """The defender chose to face the monster (docs/rules.md A.9 (I))."""


@event
class DefenderCardsCommitted(PlayerCardsEvent):
    """The defender zapped these hoard cards and moved them to the DMZ (docs/rules.md A.9 (I) 1)."""


@event
class DefenderReady(PlayerEvent):
    """The defender is done committing cards (docs/rules.md A.9 (I) 2)."""


@event
class AttackCardRevealed(Event):
    """The attacker revealed the committed card, with the salt of its commitment (A.9 (I) 3)."""

    player: str
    card: str
    salt: str
    card_fields = ("card",)


@event
class MonsterCostModified(Event):
    """A card or ability changed the revealed Monster's gold cost (docs/rules.md A.9 cheat check)."""

    card: str
    cost: int
    source: str | None = None
    card_fields = ("card", "source")


@event
class CheatingChecked(Event):
    """The engine checked for cheating: ``hired``, ``not_monster`` or ``underpaid`` (A.9)."""

    card: str
    result: str
    gold: int
    cost: int | None
    card_fields = ("card",)


@event
class CaughtCheating(PlayerEvent):
    """The attacker was caught cheating: Sketchy abilities unlock this turn (docs/rules.md A.9 2.1)."""


@event
class MonsterHired(Event):
    """The revealed Monster was paid for: it is hired and its abilities trigger (A.9 (I) 4)."""

    card: str
    power: int
    life: int
    card_fields = ("card",)


@event
class HireGoldSpent(_PlayerAmount):
    """All gold committed to the hired Monster went to the stockpile, surplus too (A.9 (I) 5)."""


@event
class CommittedGoldReturned(_PlayerAmount):
    """Committed gold went back to the attacker's purse (run away, caught cheating, D.6)."""


@event
class DamageDealt(Event):
    """Damage tokens put on a card with life (docs/rules.md A.10).

    ``kind`` is ``combat`` (fight steps 6-7) or ``noncombat``; ``reduced_by_defense`` records
    how much committed defense absorbed (docs/rules.md D.4).
    """

    source: str | None
    target: str
    amount: int
    kind: str = "noncombat"
    reduced_by_defense: int = 0
    card_fields = ("source", "target")


@event
class DamageAnnounced(Event):
    """The rules are about to deal damage (``reason``: ``limp_away``, ``caught_cheating``,
    ``strike`` or ``bleeding``, a Bleeding Curse's at the reckoning, D.28): a window for interrupts such as Prevent X opens first (docs/rules.md A.11
    "interrupts on a game mechanic resolve before that mechanic happens", A.12 Prevent).
    ``target`` is ``None`` when the defender will split it among committed Allies (D.3)."""

    target: str | None
    amount: int
    reason: str
    source: str | None = None
    card_fields = ("target", "source")


@event
class DamagePrevented(Event):
    """A Prevent effect stopped ``amount`` of the announced damage (docs/rules.md A.12)."""

    amount: int
    source: str | None = None
    card_fields = ("source",)


@event
class DamageAllocated(Event):
    """The defender split the Monster's damage among committed Allies (docs/rules.md D.3)."""

    player: str
    allocation: dict[str, int]
    card_fields = ("allocation",)


@event
class Healed(Event):
    """Damage tokens moved from ``target`` to the stockpile (docs/rules.md A.10 Heal)."""

    source: str | None
    target: str
    amount: int
    card_fields = ("source", "target")


@event
class GoldStolen(Event):
    """Gold moved from one purse to the other (docs/rules.md A.10 Steal)."""

    source: str | None
    from_player: str
    to_player: str
    amount: int
    card_fields = ("source",)


@event
class GoldTaken(Event):
    """Gold moved from the stockpile to a purse (docs/rules.md A.10 Take gold)."""

    source: str | None
    player: str
    amount: int
    card_fields = ("source",)


@event
class TokensCollected(Event):
    """Collect X: stockpile tokens moved onto a card (docs/rules.md A.12)."""

    source: str | None
    card: str
    amount: int
    card_fields = ("source", "card")


@event
class CardStuck(Event):
    """A Curse was stuck to a host card in play (docs/rules.md A.5, A.10 Stick)."""

    source: str | None
    card: str
    host: str
    card_fields = ("source", "card", "host")


@event
class CardStashed(Event):
    """A card went to its owner's stash, face ``up`` or ``down`` (docs/rules.md A.3)."""

    card: str
    face: str
    source: str | None = None
    card_fields = ("card", "source")


@event
class CardsSpilled(Event):
    """Spill X: top deck cards moved face up to the discard, never drawn (docs/rules.md A.12)."""

    player: str
    cards: list[str]
    source: str | None = None
    card_fields = ("cards", "source")


@event
class CardDiscarded(_CardBySource):
    """A card went to its owner's discard pile (docs/rules.md A.3)."""


@event
class CardRevealed(_CardBySource):
    """A card was shown to every player (docs/rules.md A.4 Reveal)."""


@event
class CardRemoved(_CardBySource):
    """A card was removed from the game (docs/rules.md A.12 Remove)."""


@event
class CardMoved(Event):
    """An ability moved a card to a zone of its owner (``deck_bottom`` keeps it hidden)."""

    card: str
    to: str
    face: str = "up"
    source: str | None = None
    card_fields = ("card", "source")


@event
class FightEnded(Event):
    """The fight is over: ``ran``, ``caught``, ``squished``, ``survived``, ``no_card`` or
    ``game_over`` (a player was eliminated during it)."""

    outcome: str


@event
class MonsterDiscarded(Event):
    """A squished hired Monster went to its owner's discard (docs/rules.md A.9 step 8)."""

    card: str
    card_fields = ("card",)


@event
class MonsterStashedFaceUp(Event):
    """A surviving Monster went face up to its owner's stash, keeping its damage (A.9 step 8)."""

    card: str
    damage: int
    card_fields = ("card",)


@event
class DefenderCardsReturned(PlayerCardsEvent):
    """The defender's surviving committed cards went back to the hoard, still zapped (A.9)."""


# --------------------------------------------------------------------------- cooldown, end


@event
class LevelIncreased(Event):
    """Cooldown step 1: level +1, capped at 10 (docs/rules.md A.8)."""

    player: str
    level: int


@event
class LevelGained(_LevelChange):
    """An ability's effect raised ``player``'s level by ``amount`` to ``level`` (docs/rules.md
    A.8: never past 10; ``amount`` is what was gained, 0 for a gain flagged at level 10)."""


@event
class LevelLost(_LevelChange):
    """An ability's effect lowered ``player``'s level by ``amount`` to ``level`` (docs/rules.md
    A.8: never below 1; ``amount`` is what was lost)."""


@event
class GoldRefilled(_PlayerAmount):
    """Cooldown step 2: purse filled from the stockpile up to the level (docs/rules.md A.8)."""


@event
class TurnEnded(_PlayerTurn):
    """Cooldown step 3: the turn is over (docs/rules.md A.8)."""


@event
class PlayerConceded(PlayerEvent):
    """A player conceded (docs/rules.md A.13)."""


@event
class PlayerEliminated(Event):
    """A player is out: ``life``, ``deck`` (empty-deck draw), ``concede`` (docs/rules.md A.13)."""

    player: str
    reason: str


@event
class GameEnded(Event):
    """The game is over: ``winner`` is a seat or ``"draw"`` (docs/rules.md A.13)."""

    winner: str
