"""Classic Munchkin's events (docs/rules.md C.2): one frozen class per fact of B.1-B.16.

Class names are permanent (stored games name them). Names the Munchkin CCG already uses
(``GameCreated``, ``TurnEnded``, ``CardDiscarded``, ``PlayerConceded``) get a ``Classic``
prefix. Every event carries the results the rules computed (a level after a loss, the cards a
Bad Stuff took), so the fold never decides anything (docs/rules.md C.2). The fold handlers are in
:mod:`domain.classic.state`.
"""

from __future__ import annotations

from dataclasses import field

from domain.event_bases import CreatingEvent, PlayerCardEvent, PlayerCardsEvent, PlayerEvent
from domain.events import NAMESPACES, Event, Json, event_dataclass, events_of

#: Declares this family's events (domain.events.events_of).
event = events_of("classic")

# --------------------------------------------------------------------------- shared fields
# The fields several events have alike, in the order they are stored. These bases are never
# stored themselves; a field they give is a field of each event that names them.


@event_dataclass
class _Helper(Event):
    helper: str


@event_dataclass
class _PlayerMonster(Event):
    player: str
    monster: str
    card_fields = ("monster",)


@event_dataclass
class _Trade(Event):
    player: str
    with_seat: str
    give: list[str]
    get: list[str]
    card_fields = ("give", "get")


@event_dataclass
class _BadStuff(Event):
    player: str
    monster: str
    lost: list[str]
    levels: int
    hand: list[str]
    card_fields = ("monster", "lost", "hand")


# --------------------------------------------------------------------------- setup (B.1)


@event
class ClassicGameCreated(CreatingEvent):
    """A classic game was set up: its header (:class:`CreatingEvent`'s fields, the set is the
    ``ruleset``), options, seats in seating order and both decks (``{id, **definition}``, in no
    known order: the decks are shuffled) (docs/rules.md B.1), labels."""

    options: dict[str, Json]
    seats: list[dict[str, Json]]
    doors: list[dict[str, Json]]
    treasures: list[dict[str, Json]]
    labels: dict[str, Json] = field(default_factory=dict)
    dealing: dict[str, Json] | None = None  # version 2 (CreatingEvent)

    def card_ids(self) -> list[str]:
        return [c["id"] for c in [*self.doors, *self.treasures]]


@event
class CardsDealt(Event):
    """``player`` drew four Doors and four Treasures face down (docs/rules.md B.1, B.9)."""

    player: str
    doors: list[str]
    treasures: list[str]
    card_fields = ("doors", "treasures")


@event
class FirstPlayerDetermined(Event):
    """The seats ``rolls`` rolled for first player; ``first`` is the highest, or ``None`` when
    the highest rolls tied and ``tied`` must roll again (docs/rules.md B.1)."""

    rolls: dict[str, int]
    first: str | None
    tied: list[str]


@event
class SeatReady(PlayerEvent):
    """``player`` finished creating its character (docs/rules.md B.1)."""


# --------------------------------------------------------------------------- turn (B.4)


@event
class TurnBegan(Event):
    """Turn ``turn`` is ``player``'s; it begins with kicking open the door (B.4)."""

    player: str
    turn: int


@event
class CharacterReturned(PlayerEvent):
    """A dead ``player``'s new character appears at the start of a turn (docs/rules.md B.9)."""


@event
class PhaseEntered(Event):
    """The active player's turn moved to ``phase`` (docs/rules.md B.4)."""

    player: str
    phase: str


@event
class DiscardReshuffled(Event):
    """An empty ``deck`` (``door``/``treasure``) was rebuilt from its discards (B.1)."""

    deck: str
    cards: list[str]


@event
class DoorKicked(PlayerCardEvent):
    """``player`` kicked open the door: ``card`` is face up for everyone (docs/rules.md B.4)."""


@event
class CardTakenToHand(PlayerCardEvent):
    """The face-up Door ``card`` went to ``player``'s hand (docs/rules.md B.4)."""


@event
class LookedForTrouble(_PlayerMonster):
    """``player`` played ``monster`` from its hand to fight it (docs/rules.md B.4)."""


@event
class RoomLooted(Event):
    """``player`` drew ``card`` face down from the ``deck`` into its hand (B.4, B.15)."""

    player: str
    card: str
    deck: str
    card_fields = ("card",)


@event
class ListenedAtDoor(PlayerCardEvent):
    """Listen At The Door: ``player`` drew ``card`` face down before kicking (B.15)."""


@event
class CharityResolved(Event):
    """``player`` gave ``gifts`` ``{card: seat}`` to the lowest-level players and discarded
    ``discarded`` (docs/rules.md B.13; a gift is known to giver and receiver, D.C11)."""

    player: str
    gifts: dict[str, str]
    discarded: list[str]
    card_fields = ("gifts", "discarded")


@event
class ClassicTurnEnded(Event):
    """``player`` ended its turn; turn ``turn`` is ``next_player``'s (docs/rules.md B.4)."""

    player: str
    next_player: str
    turn: int


@event
class ClassicConceded(PlayerEvent):
    """``player`` left the game (docs/rules.md B.16)."""


@event
class GameWon(Event):
    """``winners`` reached Level 10 (docs/rules.md B.16); the game is over."""

    winners: list[str]
    reason: str


# --------------------------------------------------------------------------- cards in play


@event
class CharacterCardPlayed(Event):
    """``player`` put a Race, Class or Army card (or a multi card) in front of it (B.11)."""

    player: str
    card: str
    trait_kind: str
    card_fields = ("card",)


@event
class ItemPlayed(Event):
    """``player`` put the Item ``card`` in play, ``equipped`` or only carried (B.12)."""

    player: str
    card: str
    equipped: bool
    card_fields = ("card",)


@event
class ItemEquipped(PlayerCardEvent):
    """``player`` equipped the carried Item ``card`` (docs/rules.md B.12)."""


@event
class ItemUnequipped(PlayerCardEvent):
    """``player`` turned the equipped Item ``card`` sideways: carried (B.12)."""


@event
class HelperPlayed(PlayerCardEvent):
    """``player`` put a Hireling, Sidekick or Steed in play (docs/rules.md B.2, B.12)."""


@event
class ClassicCardDiscarded(Event):
    """``player`` discarded ``card``; ``bonus`` is what it gave to the combat it fights, as the
    player or the helper (a discard power such as the Warrior's, docs/rules.md B.7, B.11)."""

    player: str
    card: str
    bonus: int = 0
    card_fields = ("card",)


@event
class ItemsSold(PlayerCardsEvent):
    """``player`` sold ``cards`` for ``gold`` gold pieces: ``levels`` levels (B.12, D.C3)."""

    gold: int
    levels: int


@event
class GoUpALevelPlayed(Event):
    """``by`` played ``card`` on ``target``, who goes up one level (docs/rules.md B.3)."""

    by: str
    card: str
    target: str
    card_fields = ("card",)


@event
class CurseApplied(Event):
    """The Curse or Trap ``card`` hit ``victim``: ``lost`` cards gone, ``levels`` lost, the
    hand discarded; a drawn one comes ``from_door``; a persistent one ``stays`` in front of the
    victim (docs/rules.md B.10)."""

    by: str
    card: str
    victim: str
    lost: list[str]
    levels: int
    hand: list[str]
    from_door: bool
    stays: bool = False
    card_fields = ("card", "lost", "hand")


@event
class TradeOffered(_Trade):
    """``player`` offered its Items ``give`` for ``with_seat``'s ``get`` (B.12)."""


@event
class ItemsTraded(_Trade):
    """The offered trade happened; received Items are carried (docs/rules.md B.12)."""


@event
class CardsGiven(Event):
    """``player`` gave ``cards`` to ``to`` (a bribe paid, a share of the Treasure; D.C6)."""

    player: str
    to: str
    cards: list[str]
    card_fields = ("cards",)


# --------------------------------------------------------------------------- combat (B.5-B.8)


@event
class CombatStarted(_PlayerMonster):
    """``player`` fights ``monster``; ``conditions`` are outside facts its card counts
    (e.g. the time of day), as declared at the table (docs/rules.md B.5, D.C13)."""

    conditions: list[str] = field(default_factory=list)


@event
class MonsterJoined(Event):
    """``by`` added ``monster`` to the combat, ``via`` a Wandering Monster ``card`` or a tag
    (docs/rules.md B.6)."""

    by: str
    monster: str
    via: str
    card: str | None = None
    conditions: list[str] = field(default_factory=list)
    card_fields = ("monster", "card")


@event
class EnhancerPlayed(Event):
    """``by`` played the monster enhancer ``card`` on ``monster`` (docs/rules.md B.6)."""

    by: str
    card: str
    monster: str
    card_fields = ("card", "monster")


@event
class OneShotPlayed(Event):
    """``by`` played the one-shot ``card`` for ``side`` (``player``/``monster``): ``bonus`` to
    its strength, ``run_away`` to its rolls; ``removed`` is an enhancer or monster it took out
    of the combat (docs/rules.md B.5, B.6, B.12)."""

    by: str
    card: str
    side: str
    bonus: int
    run_away: int = 0
    removed: str | None = None
    card_fields = ("card", "removed")


@event
class MonsterChasedAway(Event):
    """The fighter ``by`` chased the ``monster`` away with its ``trait``, one the
    monster's card names (``chased_by``): out of the combat, not killed (docs/rules.md B.6,
    B.7)."""

    by: str
    monster: str
    trait: str
    card_fields = ("monster",)


@event
class HelpRequested(Event):
    """``player`` asked ``helper`` to help, offering ``bribe`` (docs/rules.md B.7, D.C6)."""

    player: str
    helper: str
    bribe: dict[str, Json] | None = None


@event
class HelpAccepted(_Helper):
    """``helper`` joined the combat on the player's side (docs/rules.md B.7)."""


@event
class HelpDeclined(_Helper):
    """``helper`` declined to help (docs/rules.md B.7)."""


@event
class CombatPassed(PlayerEvent):
    """``player`` will not interfere with the combat as it stands (docs/rules.md D.C1)."""


@event
class CombatWon(Event):
    """The player's side won, ``player_strength`` to ``monster_strength``: ``killed`` monsters
    give levels, ``treasures`` is what the player draws (docs/rules.md B.5, B.7)."""

    player: str
    helper: str | None
    killed: list[str]
    player_strength: int
    monster_strength: int
    treasures: int
    card_fields = ("killed",)


@event
class LevelsGained(Event):
    """``player`` went up ``levels`` levels to ``level`` for ``reason`` (docs/rules.md B.3)."""

    player: str
    levels: int
    level: int
    reason: str


@event
class TreasuresDrawn(PlayerCardsEvent):
    """``player`` drew its rewards ``cards``, ``face`` down alone or up when helped (B.7)."""

    face: str


@event
class RunAwayRolled(_PlayerMonster):
    """``player`` rolled ``roll`` to flee ``monster``; with ``modifier`` it ``escaped`` on 5+
    (docs/rules.md B.8)."""

    roll: int
    modifier: int
    escaped: bool


@event
class SidekickSacrificed(Event):
    """``player`` sacrificed its Sidekick ``card`` and escaped ``monsters`` (Old West, B.2)."""

    player: str
    card: str
    monsters: list[str]
    card_fields = ("card", "monsters")


@event
class BadStuffApplied(_BadStuff):
    """``monster``'s Bad Stuff hit ``player``: ``lost`` cards, ``levels`` lost, ``hand``
    discarded (docs/rules.md B.9)."""


@event
class CombatEnded(Event):
    """The combat is over (``outcome``: won, fled, removed, conceded): its monsters and cards
    went to the discards (docs/rules.md B.5)."""

    player: str
    outcome: str
    discarded: list[str]
    card_fields = ("discarded",)


@event
class PlayerDied(Event):
    """``player`` died: ``body`` (its hand and Items) is laid out, to be looted in ``order``
    (docs/rules.md B.9)."""

    player: str
    body: list[str]
    order: list[str]
    card_fields = ("body",)


@event
class BodyLooted(Event):
    """``picker`` took ``card`` from ``dead``'s body into its hand (docs/rules.md B.9)."""

    picker: str
    dead: str
    card: str
    card_fields = ("card",)


@event
class BodyDiscarded(Event):
    """What nobody took from ``dead``'s body was discarded (docs/rules.md B.9)."""

    dead: str
    cards: list[str]
    card_fields = ("cards",)


# --------------------------------------------------------------------------- added later (B.2, B.8, B.10)


@event
class CurseExpired(PlayerCardEvent):
    """The "next combat" Curse or Trap ``card`` in front of ``player`` took effect in the
    combat that just ended and was discarded (docs/rules.md B.10)."""


@event
class CurseRemoved(Event):
    """``by`` removed the Curse or Trap ``card`` in front of ``victim``: with the card
    ``remover`` (a card that removes Curses), or with none (a discard at will, only ever
    recorded as a violation); both go to the discards (docs/rules.md B.10)."""

    by: str
    victim: str
    card: str
    remover: str | None
    card_fields = ("card", "remover")


@event
class HurtOnEscape(_BadStuff):
    """``player`` escaped ``monster``, which hurt it anyway (its ``escape_bad_stuff``):
    ``lost`` cards, ``levels`` lost, ``hand`` discarded (docs/rules.md B.8)."""


@event
class HelpForced(Event):
    """``player`` played ``card`` (a card that compels help) and ``helper`` helps it in its
    combat without being asked (docs/rules.md B.7, D.C7)."""

    player: str
    helper: str
    card: str
    card_fields = ("card",)


@event
class HelperReleased(_Helper):
    """The forced ``helper`` backed out of a combat that became a fight for the win
    (docs/rules.md D.C7)."""


@event
class ItemGivenToHireling(Event):
    """``player``'s Hireling ``hireling`` now carries its Item ``card``: the Item counts as
    equipped, outside the slot and Big limits, and is listed with the helpers (Deluxe,
    docs/rules.md B.2)."""

    player: str
    card: str
    hireling: str
    card_fields = ("card", "hireling")


@event
class Backstabbed(Event):
    """``by`` (a Thief) discarded ``card`` to backstab ``victim``, a fighter: ``bonus`` (a
    penalty) to the victim's side for this combat (Deluxe, docs/rules.md B.2)."""

    by: str
    card: str
    victim: str
    bonus: int
    card_fields = ("card",)


@event
class CheatPlayed(Event):
    """``player`` attached Cheat! ``card`` to its Item ``item``: the Item is equipped and counts
    past the slot, Big and trait limits while the Cheat! stays with it; the Cheat! is listed
    with the helpers (docs/rules.md B.2)."""

    player: str
    card: str
    item: str
    card_fields = ("card", "item")


@event
class CheatDiscarded(PlayerCardEvent):
    """The Cheat! ``card`` in front of ``player`` lost its Item (gone, or no longer equipped)
    and was discarded (docs/rules.md B.2)."""


@event
class SteedCheated(Event):
    """``player`` put its Steed ``steed`` in play past the one-Steed limit with Cheat! ``card``:
    both are listed with the helpers, and the Cheat! goes when that Steed does (AoS *Items,
    Steeds*: "You may only have one Steed at a time unless you Cheat!"; docs/rules.md B.2)."""

    player: str
    card: str
    steed: str
    card_fields = ("card", "steed")


@event
class TheftAttempted(Event):
    """``by`` (a Thief) discarded ``card`` to try to steal ``item``, a Small Item in play of
    ``victim``, rolling ``roll`` (``needed`` or more succeeds): ``stolen``, the Item goes to
    ``by``'s carried Items; else ``by`` loses ``levels`` levels (Deluxe, docs/rules.md B.2)."""

    by: str
    card: str
    victim: str
    item: str
    roll: int
    needed: int
    stolen: bool
    levels: int
    card_fields = ("card", "item")


def all_event_types() -> list[type[Event]]:
    """Every classic event class (for tests and narration)."""
    return [cls for cls in NAMESPACES["classic"].values() if cls.__module__ == __name__]
