"""The narrator's base, every family's (the kernel): an event as the sentences of a transcript.

A family's narrator (``Family.narrator``) subclasses :class:`Narrator` and tells its own events
by name (``on_<EventType>``) or by template (:attr:`Narrator.SAYS`); the base tells the events
every game has and any other generically: the type and the cards named, as the viewer may see
them. Two marks show what the rules did not check (docs/cards.md): an event recorded from a
card whose text is not encoded ends in ``[unchecked]`` (when the viewer's entry carries the
mark), and a card that is not the catalog's is named with ``[custom]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from string import Formatter
from typing import Any, ClassVar

from domain.events import EVENT_TYPES
from domain.penalties import infraction_label, upgrade_label


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


#: The marks of what the rules did not check (docs/cards.md).
UNCHECKED_MARK = "[unchecked]"
CUSTOM_MARK = "[custom]"


class Narrator:
    """Turns export entries into :class:`Phrase` s, remembering what a reader would.

    This base tells the events every game has (``GameCreated``, the judge's disputes and
    rulings) and any other generically (:meth:`unknown`); each family's narrator knows its
    own events (``Family.narrator``; ``projections.exports.narration.narrator_for`` picks one).

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
            text += f" ({d['penalty']}" + (f" for {d['player']}" if d.get("player") else "")
            if d.get("infraction"):  # docs/rules.md F.5: the penalty guide's infraction
                text += f": {infraction_label(str(d['infraction']))}"
            if d.get("escalated_from"):  # docs/rules.md F.5: a repeated infraction's upgrade
                given, kind = str(d["escalated_from"]), str(d["penalty"])
                text += f"; {upgrade_label(d.get('infraction'), given, kind)}"
            text += ")"
        return [Phrase(who, text)]

    # the fair dealing of a server-dealt game (docs/rules.md E, domain.fair): the seeds and
    # the deals are bookkeeping (the family's own event says what was drawn or rolled), the
    # withholding, the re-keying and the end's reveal are told
    def on_SeedCommitted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["contributor"], f"commits to a seed{_epoch(d)}", True)]

    def on_SeedRevealed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["contributor"], f"reveals its seed{_epoch(d)}", True)]

    def on_SeedWithheld(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [
            Phrase(None, f"{d['contributor']} withholds its seed{_epoch(d)}: the deadline passed")
        ]

    def on_TimeCalled(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        turns = int(d.get("extra_turns") or 0)
        if d.get("last_turn") is None:
            rest = "the game goes on"
        else:
            rest = f"{turns} more turn{'' if turns == 1 else 's'} after this one"
        return [Phrase(None, f"time is called at the table (deadline {d['deadline']}): {rest}")]

    def on_Dealt(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        if d.get("op") == "dice":
            values = ", ".join(str(v) for v in d.get("values") or [])
            return [Phrase(None, f"the server rolls d{d.get('sides')}: {values}", True)]
        cards = list(d.get("cards") or [])
        owner, _, pile = str(d.get("pile") or "").partition(":")
        source = f" from {owner}'s {pile}" if pile else f" from {owner}" if owner else ""
        text = f"the server deals {len(cards)} card{'' if len(cards) == 1 else 's'}{source}"
        if any(isinstance(c, str) for c in cards):  # only the cards the viewer may see
            text += f": {self.names(cards)}"
        return [Phrase(None, text, True)]

    def on_ServerSecretRevealed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"the server reveals its secret{_epoch(d)}")]

    def on_DealingRekeyed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        ruling = f" ({d['ruling']})" if d.get("ruling") else ""
        text = f"re-keys the dealing{ruling}: epoch {d['epoch']}, new seeds before the next deal"
        return [Phrase(who, text)]


def _epoch(d: Mapping[str, Any]) -> str:
    """`` of epoch n`` after a re-keying (nothing in epoch 0: most games have no other)."""
    return f" of epoch {d['epoch']}" if d.get("epoch") else ""
