"""Narration of classic Munchkin's events (docs/rules.md B): a transcript that reads like the
table talk, e.g. ``T4 C: kicks open the door: Sample Tax Wraith (L6) · D: helps for 2
treasures · C: wins 15 to 10 …``.

Cards the viewer may not see (ids its entry leaves out) read as ``a card``; a face-down loot
as ``loots the room (face down)``; a charity gift the viewer did not give nor get as ``a card
to B`` (docs/rules.md A.4, B.13).

The judge's corrections and backups (``domain.classic.corrections``, docs/rules.md B.17) read
as the judge's words, e.g. ``Judge: moves a card to B's hand (correcting event 12)`` and
``Judge: returns Hat to A's hand (undoing event 40)``: the card is named only to a viewer
whose entry shows it (one that knew it before or after), the zone to everyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from domain.narration import Narrator, Phrase, Says

Data = Mapping[str, Any]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


#: The words for a zone without a holder (decks and discards) or a seat zone (``{}``: the seat).
_PLACES = {
    "door": "the Door deck",
    "treasure": "the Treasure deck",
    "door_discard": "the Door discards",
    "treasure_discard": "the Treasure discards",
    "hand": "{}'s hand",
    "equipped": "{}'s equipped Items",
    "carried": "{}'s carried Items",
    "race": "{}'s Race",
    "class": "{}'s Class",
    "army": "{}'s Army",
    "curses": "the Curses on {}",
    "helpers": "{}'s helpers",
    "combat": "the combat",
    "body": "the body being looted",
    "table": "the table",
}


def place(zone: Any, owner: Any = None) -> str:
    """A zone in words, with its holder (docs/rules.md B.1).

    >>> place("hand", "B"), place("treasure_discard"), place("curses", "C"), place("moon")
    ("B's hand", 'the Treasure discards', 'the Curses on C', 'the moon')
    """
    words = _PLACES.get(str(zone), f"the {zone}")
    if "{}" in words:
        return words.format(owner) if owner is not None else words.format("a seat")
    return words


def _correcting(d: Data) -> str:
    return f" (correcting event {d['corrects']})" if d.get("corrects") is not None else ""


def _undoing(d: Data) -> str:
    return f" (undoing event {d['undoes']})" if d.get("undoes") is not None else ""


#: How a classic game's end reads (``GameWon.reason``; docs/rules.md B.15, B.16).
_WIN_REASONS = {
    "level_10_by_a_kill": "Level 10 by a kill",
    "shared_victory": "Level 10 by a kill, the helper sharing the victory",
    "time": "the extra turns at time played, by the event's time_result (docs/rules.md F.6)",
}


class ClassicNarrator(Narrator):
    """The classic sets' events (by template, :attr:`SAYS`, or ``on_<EventType>``); see the module
    docstring."""

    #: The events told by one template (the card fields by name, as the viewer may see them);
    #: the others have an ``on_<EventType>`` method below.
    SAYS: ClassVar[Mapping[str, Says]] = {
        **Narrator.SAYS,
        # setup and the turn
        "SeatReady": Says("player", "is ready", minor=True),
        "TurnBegan": Says("player", "turn {turn}", minor=True),
        "CharacterReturned": Says("player", "comes back as a new character"),
        "DiscardReshuffled": Says(None, "the {deck} discards are shuffled into a new deck"),
        "CardTakenToHand": Says("player", "takes {card} into the hand"),
        "ClassicTurnEnded": Says("player", "ends the turn", minor=True),
        "ClassicConceded": Says("player", "concedes"),
        # cards in play
        "CharacterCardPlayed": Says("player", "plays {card} ({trait_kind})"),
        "ItemEquipped": Says("player", "equips {card}"),
        "ItemUnequipped": Says("player", "unequips {card}"),
        "HelperPlayed": Says("player", "takes on {card}"),
        "TradeOffered": Says("player", "offers {give} to {with_seat} for {get}"),
        "ItemsTraded": Says("player", "trades {give} with {with_seat} for {get}"),
        "CardsGiven": Says("player", "gives {cards} to {to}"),
        # combat
        "CombatPassed": Says("player", "passes", minor=True),
        "LevelsGained": Says("player", "goes up to Level {level}"),
        "SidekickSacrificed": Says("player", "sacrifices {card} and escapes"),
        "BodyLooted": Says("picker", "takes {card} from {dead}'s body"),
        "BodyDiscarded": Says(None, "the rest of {dead}'s body is discarded", minor=True),
        # the rules added later
        "CurseExpired": Says("player", "is rid of {card} (its combat is over)"),
        "HelpForced": Says("player", "plays {card}: {helper} must help"),
        "HelperReleased": Says("helper", "backs out of the fight for the win (forced to help)"),
        "ItemGivenToHireling": Says("player", "gives {card} to {hireling} to carry"),
        "CheatPlayed": Says("player", "cheats with {item} ({card})"),
        "SteedCheated": Says("player", "plays {steed}, a Steed past the limit ({card})"),
        "CheatDiscarded": Says("player", "discards {card} (its Item is gone)"),
    }

    def __init__(self, cards: Mapping[str, Mapping[str, Any]], seats: Any) -> None:
        super().__init__(cards, seats)
        self.bribe: Mapping[str, Any] | None = None

    # -- words ------------------------------------------------------------------------------

    def monster(self, cid: Any) -> str:
        """A monster by name with its level, ``Net Troll (level 10)``."""
        card = self.cards.get(cid) if isinstance(cid, str) else None
        if card is None or card.get("kind") != "monster":
            return self.name(cid)
        return f"{self.name(cid)} (level {card.get('level')})"

    def losses(self, d: Data) -> str:
        parts = []
        if d.get("levels"):
            parts.append(f"loses {_plural(int(d['levels']), 'level')}")
        if d.get("lost"):
            parts.append(f"loses {self.names(d['lost'])}")
        if d.get("hand"):
            parts.append("discards the hand")
        return ", ".join(parts) or "no harm done"

    @staticmethod
    def bribe_words(bribe: Any) -> str:
        if not isinstance(bribe, Mapping) or not bribe:
            return ""
        words = [
            _plural(int(v), str(k).rstrip("s")) if isinstance(v, int) else f"{k} {v}"
            for k, v in bribe.items()
        ]
        return " for " + ", ".join(words)

    # -- setup ------------------------------------------------------------------------------

    def on_ClassicGameCreated(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        doors = d.get("doors_count", len(d.get("doors") or ()))
        treasures = d.get("treasures_count", len(d.get("treasures") or ()))
        on = [k for k, v in (d.get("options") or {}).items() if v]
        rules = f" ({', '.join(on)})" if on else ""
        return [Phrase(None, f"{doors} Doors and {treasures} Treasures shuffled{rules}")]

    def on_CardsDealt(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"is dealt {self.names([*d['doors'], *d['treasures']])}")]

    def on_FirstPlayerDetermined(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        rolls = ", ".join(f"{s} {r}" for s, r in d["rolls"].items())
        then = f"{d['first']} goes first" if d["first"] else f"{', '.join(d['tied'])} roll again"
        return [Phrase(None, f"rolls {rolls}: {then}")]

    # -- the turn ---------------------------------------------------------------------------

    def on_PhaseEntered(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], d["phase"].replace("_", " "), minor=True)]

    def on_DoorKicked(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"kicks open the door: {self.monster(d['card'])}")]

    def on_LookedForTrouble(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"looks for trouble: {self.monster(d['monster'])}")]

    def on_RoomLooted(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        card = d.get("card")
        what = f": {self.name(card)}" if isinstance(card, str) else " (face down)"
        return [Phrase(d["player"], f"loots the room{what}")]

    def on_ListenedAtDoor(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        card = d.get("card")
        what = f": {self.name(card)}" if isinstance(card, str) else ""
        return [Phrase(d["player"], f"listens at the door{what}")]

    def on_CharityResolved(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        gifts = d.get("gifts") or {}
        given = ", ".join(f"{self.name(c)} to {s}" for c, s in gifts.items())
        parts = [f"gives {given}"] if given else []
        if d.get("discarded"):
            parts.append(f"discards {self.names(d['discarded'])}")
        return [Phrase(d["player"], "charity: " + ("; ".join(parts) or "nothing"))]

    def on_GameWon(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        winners = " and ".join(d["winners"])
        verb = "wins" if len(d["winners"]) == 1 else "win"
        reason = _WIN_REASONS.get(str(d["reason"]), str(d["reason"]).replace("_", " "))
        return [Phrase(None, f"{winners} {verb} ({reason})")]

    # -- cards in play ----------------------------------------------------------------------

    def on_ItemPlayed(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        card = self.cards.get(d["card"]) if isinstance(d.get("card"), str) else None
        if card is not None and card.get("kind") == "one_shot":  # used later (B.12)
            return [Phrase(d["player"], f"puts {self.name(d['card'])} on the table (carried)")]
        how = "equipped" if d.get("equipped") else "carried"
        return [Phrase(d["player"], f"plays {self.name(d['card'])} ({how})")]

    def on_ClassicCardDiscarded(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        bonus = f" (+{d['bonus']} in the combat)" if d.get("bonus") else ""
        return [Phrase(d["player"], f"discards {self.name(d['card'])}{bonus}")]

    def on_ItemsSold(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        gain = f": up {_plural(int(d['levels']), 'level')}" if d.get("levels") else ""
        return [Phrase(d["player"], f"sells {self.names(d['cards'])} for {d['gold']} gold{gain}")]

    def on_GoUpALevelPlayed(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        whom = "" if d["target"] == d["by"] else f" on {d['target']}"
        return [Phrase(d["by"], f"plays {self.name(d['card'])}{whom}: up a level")]

    def on_CurseApplied(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        how = "from the door" if d.get("from_door") else f"played by {d['by']}"
        stays = ", it stays" if d.get("stays") else ""
        text = f"{self.name(d['card'])} ({how}) hits {d['victim']}: {self.losses(d)}{stays}"
        return [Phrase(None, text)]

    # -- combat -----------------------------------------------------------------------------

    def on_CombatStarted(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        self.bribe = None
        return [Phrase(d["player"], f"fights {self.monster(d['monster'])}", minor=True)]

    def on_MonsterJoined(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        via = f" with {self.name(d['card'])}" if d.get("card") else ""
        return [Phrase(d["by"], f"adds {self.monster(d['monster'])} to the combat{via}")]

    def on_EnhancerPlayed(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        card = self.cards.get(d["card"]) if isinstance(d.get("card"), str) else None
        bonus = card.get("bonus") if card else None
        sign = f" ({bonus:+d})" if isinstance(bonus, int) and bonus else ""
        text = f"plays {self.name(d['card'])}{sign} on {self.name(d['monster'])}"
        return [Phrase(d["by"], text)]

    def on_OneShotPlayed(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        bonus = f" {d['bonus']:+d}" if d.get("bonus") else ""
        removed = f", removing {self.name(d['removed'])}" if d.get("removed") else ""
        text = f"plays {self.name(d['card'])} for the {d['side']}{bonus}{removed}"
        return [Phrase(d["by"], text)]

    def on_MonsterChasedAway(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        trait = f" (a {d['trait']})" if d.get("trait") else ""
        text = f"chases {self.monster(d['monster'])} away{trait}"
        return [Phrase(d["by"], text)]

    def on_HelpRequested(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        self.bribe = d.get("bribe")
        return [Phrase(d["player"], f"asks {d['helper']} for help{self.bribe_words(self.bribe)}")]

    def on_HelpAccepted(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["helper"], f"helps{self.bribe_words(self.bribe)}")]

    def on_HelpDeclined(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        self.bribe = None
        return [Phrase(d["helper"], "declines to help")]

    def on_CombatWon(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        score = f"wins {d['player_strength']} to {d['monster_strength']}"
        killed = f": kills {self.names(d['killed'])}" if d.get("killed") else ""
        return [Phrase(d["player"], score + killed)]

    def on_TreasuresDrawn(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        cards = d.get("cards") or []
        if d.get("face") == "up":
            return [Phrase(d["player"], f"draws {self.names(cards)} face up")]
        shown = [c for c in cards if isinstance(c, str)]
        what = f": {self.names(shown)}" if shown else ""
        return [Phrase(d["player"], f"draws {_plural(len(cards), 'Treasure')} face down{what}")]

    def on_RunAwayRolled(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        mod = f"{d['modifier']:+d}" if d.get("modifier") else ""
        result = "escapes" if d.get("escaped") else "is caught"
        text = f"rolls {d['roll']}{mod} to run from {self.name(d['monster'])}: {result}"
        return [Phrase(d["player"], text)]

    def on_BadStuffApplied(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"Bad Stuff of {self.name(d['monster'])}: {self.losses(d)}")]

    def on_CombatEnded(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        self.bribe = None
        return [Phrase(None, f"the combat ends ({d['outcome']})", minor=True)]

    def on_PlayerDied(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        order = f" (looted by {', '.join(d['order'])})" if d.get("order") else ""
        return [Phrase(d["player"], f"dies{order}")]

    # -- the judge (domain.classic.corrections, docs/rules.md B.17) ------------------------

    def on_ClassicJudgeLevelSet(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        text = f"sets {d['player']}'s level to {d['level']}{_correcting(d)}"
        return [Phrase(who, text)]

    def on_ClassicJudgeCardMoved(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        if d.get("to") == "curses":
            text = f"puts {self.name(d['card'])} on {d['player']}"
        else:
            text = f"moves {self.name(d['card'])} to {place(d['to'], d.get('player'))}"
        withdrawn = ", withdrawing the offered trade" if d.get("ends_trade") else ""
        return [Phrase(who, f"{text}{withdrawn}{_correcting(d)}")]

    def on_ClassicJudgeDeathSet(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        state = "dead" if d.get("dead") else "alive"
        return [Phrase(who, f"marks {d['player']}'s character {state}{_correcting(d)}")]

    def on_ClassicJudgeCombatEnded(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        self.bribe = None
        cards = d.get("discarded") or []
        gone = f": {self.names(cards)} to the discards" if cards else ""
        then = f"; {d['player']} goes on to {str(d['phase']).replace('_', ' ')}"
        text = f"ends {d['player']}'s combat{gone}{then if d.get('phase') else ''}"
        return [Phrase(who, text + _correcting(d))]

    def on_ClassicJudgeTurnSet(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        phase = str(d["phase"]).replace("_", " ")
        return [Phrase(who, f"makes it {d['active']}'s turn ({phase}){_correcting(d)}")]

    def on_ClassicCardRestored(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        where = place(d["zone"], d.get("owner"))
        return [Phrase(who, f"returns {self.name(d['card'])} to {where}{_undoing(d)}")]

    def on_ClassicSeatRestored(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        parts = [f"Level {d['level']}", "dead" if d.get("dead") else "alive"]
        if d.get("eliminated"):
            parts.append(f"out ({str(d['eliminated']).replace('_', ' ')})")
        return [Phrase(who, f"restores {d['player']}: {', '.join(parts)}{_undoing(d)}")]

    def on_ClassicTableRestored(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        if d.get("status") == "setup" or not d.get("active"):
            where = str(d.get("status"))
        else:
            where = f"turn {d['turn']}, {d['active']} to play ({str(d['phase']).replace('_', ' ')})"
        parts = [where]
        if d.get("winners"):
            parts.append(f"won by {' and '.join(d['winners'])}")
        combat = d.get("combat")
        if isinstance(combat, Mapping):
            monsters = [
                m.get("card") for m in combat.get("monsters") or () if isinstance(m, Mapping)
            ]
            parts.append(f"{combat.get('player')} fighting {self.names(monsters)}")
        body = d.get("body")
        if isinstance(body, Mapping) and body.get("dead"):
            parts.append(f"{body['dead']}'s body being looted")
        if d.get("trade"):
            parts.append("a trade on offer")
        return [Phrase(who, f"restores the table: {'; '.join(parts)}{_undoing(d)}")]

    # -- the rules added later: curses, escape, forced help, Hirelings, backstab, Cheat! ----

    def on_CurseRemoved(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        how = f"with {self.name(d['remover'])}" if d.get("remover") else "at will"
        whose = "" if d["victim"] == d["by"] else f" from {d['victim']}"
        return [Phrase(d["by"], f"removes {self.name(d['card'])}{whose} {how}")]

    def on_HurtOnEscape(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        text = f"escapes but {self.name(d['monster'])} hurts anyway: {self.losses(d)}"
        return [Phrase(d["player"], text)]

    def on_Backstabbed(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        text = f"backstabs {d['victim']} ({d['bonus']:+d}), discarding {self.name(d['card'])}"
        return [Phrase(d["by"], text)]

    def on_TheftAttempted(self, d: Data, who: Any, e: Any) -> list[Phrase]:
        text = (
            f"tries to steal {self.name(d['item'])} from {d['victim']}, discarding "
            f"{self.name(d['card'])}: rolls {d['roll']} ({d['needed']}+ needed)"
        )
        if d["stolen"]:
            text += ", takes it"
        elif d.get("levels"):
            text += f", is caught: loses {_plural(int(d['levels']), 'level')}"
        else:
            text += ", fails"
        return [Phrase(d["by"], text)]
