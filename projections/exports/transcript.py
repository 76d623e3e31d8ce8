"""The readable transcript of a game, in the spirit of PGN (:class:`TranscriptExporter`)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from typing import Any

from domain.envelope import Record
from projections.exports.narration import Narrator, card_label, narrator_for
from projections.exports.walk import GameVisitor, Turn, walk

#: Tags written first and in this order (as PGN's Seven Tag Roster); other labels follow.
ROSTER = ("event", "site", "date", "round", "table")
#: Classic events that may open a combat (docs/rules.md B.4): each starts a new line, so that
#: the door, the help, the fight and its outcome read as one line of table talk.
COMBAT_OPENERS = ("DoorKicked", "LookedForTrouble")


def _tag(name: str, value: Any) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


class TranscriptExporter(GameVisitor[str]):
    """A readable transcript in the spirit of PGN.

    Header tags (``[Event "..."]``, ``[Round "..."]``, ``[Table "..."]``, one per seat in
    seating order (``[A "player (Hero)"]``: the player and the seat's public cards, a custom
    card marked ``[custom]``),
    ``[Result "<seat>"|"draw"|"*"]``, ``[Rules "ruleset version"]``, ...), a blank line, then
    one paragraph per turn (``Setup``, ``T1 A:``, ...: the turn and its active seat): the phrases of
    :class:`Narrator`, joined with `` · ``, naming the acting seat when it changes, wrapped at
    ``width`` columns; each fight gets its own indented line. An event recorded from a card
    whose text is not encoded ends in ``[unchecked]`` (docs/cards.md), as the viewer may see
    it. A classic game's combat gets its line from the door kicked (or the trouble looked
    for) to its end (:data:`COMBAT_OPENERS`). The last line is the result, as in PGN.
    """

    needs_turns = True

    def __init__(self, width: int = 100) -> None:
        self.width = width
        self.tags: list[str] = []
        self.paragraphs: list[str] = []
        self.narrator = Narrator({}, ())
        self.current: list[str] = []
        self.lines_in_turn = 0
        self.last_actor: str | None = None
        self.turn: int | None = None
        self.result_token = "*"
        self.date_from_log = True

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.narrator = narrator_for(header, cards)
        labels = {str(k): v for k, v in (header.get("labels") or {}).items()}
        self.result_token = str(header.get("result", "*"))
        self.date_from_log = "date" not in labels
        tags = [_tag(k.capitalize(), labels.pop(k, "?")) for k in ROSTER]
        tags.append(_tag("Game", header["game_id"]))
        for seat in header["seats"]:
            names = [card_label(v) for v in seat.values() if isinstance(v, Mapping) and "name" in v]
            who = f"{seat['player']} ({', '.join(names)})" if names else seat["player"]
            tags.append(_tag(seat["seat"], who))
        tags.append(_tag("Result", self.result_token))
        tags.append(_tag("Rules", f"{header['ruleset']} {header['rules_version']}"))
        tags.append(_tag("Mode", header["mode"]))
        tags.append(_tag("Format", header["game_format"]))
        tags.append(_tag("Viewer", header["viewer"]))
        if header.get("exported_at"):
            tags.append(_tag("Exported", header["exported_at"]))
        tags.extend(_tag(k, v) for k, v in sorted(labels.items()))
        self.tags = tags

    def _flush(self, *, turn_over: bool) -> None:
        """End the current line; a turn's later lines (one per fight) are indented."""
        if self.current:
            indent = "    " if self.lines_in_turn else ""
            self.paragraphs.append(
                textwrap.fill(
                    " ".join(self.current),
                    width=self.width,
                    initial_indent=indent,
                    subsequent_indent="    ",
                    break_long_words=False,
                    break_on_hyphens=False,
                )
            )
            self.lines_in_turn += 1
        self.current = []
        if turn_over:
            self.lines_in_turn = 0

    def visit_event(self, entry: Mapping[str, Any], turn: Turn | None) -> None:
        assert turn is not None  # needs_turns
        etype = entry["type"]
        if entry.get("version") == 1 and self.date_from_log and entry.get("received_at"):
            self.tags[ROSTER.index("date")] = _tag("Date", str(entry["received_at"])[:10])
        if turn.number != self.turn:
            # A turn's paragraph names its active seat, unless the judge backed the game up to
            # it (the judge's own phrase says so).
            self._flush(turn_over=True)
            self.turn = turn.number
            label = "Setup" if turn.number == 0 else f"T{turn.number}"
            seat = turn.seat if entry.get("seat") != "judge" else None
            self.current = [f"{label} {seat}:" if seat else f"{label}:"]
            self.last_actor = seat
        elif etype == "FightStarted" or (etype in COMBAT_OPENERS and len(self.current) > 1):
            self._flush(turn_over=False)
            self.last_actor = None
        for phrase in self.narrator.describe(entry):
            if phrase.minor:
                continue
            text = phrase.render(with_actor=phrase.actor != self.last_actor)
            self.last_actor = phrase.actor
            if self.current and not self.current[-1].endswith(":"):
                self.current.append("·")
            self.current.append(text)
        if etype in ("FightEnded", "CombatEnded"):
            self._flush(turn_over=False)
            self.last_actor = None

    def end_game(self) -> None:
        self._flush(turn_over=True)
        self.paragraphs.append(self.result_token)

    def result(self) -> str:
        return "\n".join(self.tags) + "\n\n" + "\n".join(self.paragraphs) + "\n"


def export_transcript(records: Iterable[Record], viewer: str, *, width: int = 100) -> str:
    """The readable transcript of the game for ``viewer``; see :class:`TranscriptExporter`."""
    return walk(records, TranscriptExporter(width), viewer)
