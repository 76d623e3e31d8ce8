"""Match histories: export a game's log and read it back (issue "Match histories").

Modelled on python-chess's ``chess.pgn``: :func:`walk` reads a game's stored records and
drives a :class:`GameVisitor` (``begin_game``, ``visit_event``, ``end_game``, ``result``);
each export format is a visitor:

* :class:`JsonExporter` -- the canonical export, one JSON object::

    {"format": "munchlog-game", "format_version": 1, "game_id", "ruleset", "rules_version",
     "mode", "game_format", "exported_at"?, "viewer", "complete", "seats": [{seat, player,
     hero}], "labels", "result", "events": [entry, ...]}

  An *entry* is ``projections.views.event_view(record, viewer)`` plus the event's class
  version ``v``; for viewers who see the whole log (``judge``, ``table``: ``complete`` is
  true) it also has the record's ``visible_to``, so the records, and with them the hash chain,
  can be rebuilt exactly: such an export is self-contained (``GameCreated`` holds every card
  definition) and can be verified offline and imported. A seat's export shows what that seat
  may see (RULES.md A.4): the opponent's hidden cards stay hidden, and it has no hashes.
* :class:`NdjsonExporter` / :func:`export_ndjson` -- the same, streamed: the first line is the
  header (the object above without ``events``), then one entry per line.
* :class:`CsvExporter` / :func:`export_csv` -- one row per event for spreadsheets.
* :class:`TranscriptExporter` / :func:`export_transcript` -- a readable transcript in the
  spirit of PGN: ``[Tag "value"]`` headers, then one paragraph per turn.

The read side: :func:`read_export` (canonical JSON or NDJSON back to a header and records),
:func:`verify_records` (the hash chain), :func:`replay_records` (every event replayed and
checked) and :func:`import_game` (all three, for the HTTP import).

>>> verify_records([])
{'ok': True, 'checked': 0, 'first_broken': None, 'head': '0000000000000000000000000000000000000000000000000000000000000000'}
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import domain.corrections  # noqa: F401  (registers the judge's events)
from domain.errors import DomainError
from domain.events import Event, event_from_dict
from domain.game import GENESIS_HASH, canonical_json, chain_hash
from domain.rules import find_ruleset
from domain.state import State, evolve, initial_state
from domain.visibility import knowledge
from projections.replay import invariant_violations
from projections.views import event_view, sees_whole_log

Record = Mapping[str, Any]
FORMAT = "munchlog-game"
FORMAT_VERSION = 1
T = TypeVar("T")

# ============================================================================ errors


class ExportFormatError(ValueError):
    """The text is not a munchlog export this version can read."""

    code = "import/not_an_export"


class ImportRejected(ValueError):
    """An imported game failed a check at event ``version`` (``reason`` says which).

    Reasons: ``version_gap``, ``prev_hash_mismatch``, ``hash_mismatch``, ``bad_event``,
    ``incomplete_export``, ``not_game_created``, ``setup_rejected``, ``setup_mismatch``,
    ``after_game_end``, ``invariant``, ``visibility_mismatch``; ``detail`` explains.
    """

    def __init__(self, version: int, reason: str, detail: str = "") -> None:
        super().__init__(f"event {version}: {reason}" + (f" ({detail})" if detail else ""))
        self.version = version
        self.reason = reason
        self.detail = detail
        self.message = str(self)

    @property
    def code(self) -> str:
        """``import/broken_chain``, ``import/bad_event``, ``import/incomplete_export`` or
        ``import/impossible_event`` (every replay reason)."""
        return _REJECTION_CODES.get(self.reason, "import/impossible_event")


_REJECTION_CODES = {
    "version_gap": "import/broken_chain",
    "prev_hash_mismatch": "import/broken_chain",
    "hash_mismatch": "import/broken_chain",
    "bad_event": "import/bad_event",
    "incomplete_export": "import/incomplete_export",
}


# ============================================================================ records


def records_from_events(
    events: Iterable[Event],
    *,
    received_at: str | Callable[[int], str],
    client_at: str | None = None,
    state: State | None = None,
    prev_hash: str = GENESIS_HASH,
) -> list[dict[str, Any]]:
    """Wrap domain events in storage envelopes as ``domain.game.Game`` does (hash chain and
    ``visible_to`` included), continuing from ``state`` and ``prev_hash``.

    ``received_at`` is one timestamp or a function of the version. For tests and for logs
    that arrive without envelopes.
    """
    before = initial_state() if state is None else state
    out: list[dict[str, Any]] = []
    for event in events:
        after = evolve(before, event)
        version = after["version"]
        at = received_at(version) if callable(received_at) else received_at
        data = event.to_dict()
        visible = knowledge(before, after, event)
        digest = chain_hash(version, data, at, client_at, visible, prev_hash)
        out.append(
            {
                "version": version,
                "event": data,
                "received_at": at,
                "client_at": client_at,
                "visible_to": visible,
                "hash": digest,
                "prev_hash": prev_hash,
            }
        )
        before, prev_hash = after, digest
    return out


def game_result(records: Iterable[Record]) -> str:
    """``"A"``, ``"B"``, ``"draw"`` or ``"*"`` (not over), as of the last record.

    >>> game_result([{"event": {"type": "GameEnded", "winner": "B"}}])
    'B'
    """
    result = "*"
    for record in records:
        event = record["event"]
        if event.get("type") == "GameEnded":
            result = str(event["winner"])
        elif event.get("type") == "TableRestored":
            result = str(event["winner"]) if event.get("status") == "finished" else "*"
    return result


def game_header(
    first: Record, viewer: str, *, result: str = "*", exported_at: str | None = None
) -> dict[str, Any]:
    """The export header, from the game's first record (its ``GameCreated``)."""
    created = first["event"]
    if not _creates_game(created):
        raise ExportFormatError("a game's first event must be GameCreated")
    header: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": created["game_id"],
        "ruleset": created["ruleset"],
        "rules_version": created["rules_version"],
        "mode": created["mode"],
        "game_format": created["format"],
        "viewer": viewer,
        "complete": sees_whole_log(viewer),
        "seats": [
            {"seat": s["seat"], "player": s["player"], "hero": dict(s["hero"])}
            for s in created["seats"]
        ],
        "labels": dict(created.get("labels") or {}),
        "result": result,
    }
    if exported_at is not None:
        header["exported_at"] = exported_at
    return header


def export_entry(record: Record, viewer: str, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """One record as ``viewer`` may see it: ``event_view`` plus ``v`` (and ``visible_to`` for
    viewers who see the whole log). ``seats``: the game's (see ``event_view``)."""
    entry = event_view(record, viewer, seats)
    entry["v"] = record["event"].get("v", 1)
    if sees_whole_log(viewer):
        entry["visible_to"] = record.get("visible_to") or {}
    return entry


def record_from_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The stored record an entry of a complete export came from (inverse of
    :func:`export_entry` for ``judge`` and ``table``)."""
    data = dict(entry.get("data") or {})
    if entry.get("version") == 1 and isinstance(data.get("seats"), list):
        data["seats"] = [
            {
                k: v
                for k, v in seat.items()
                if not (k.endswith("_count") and isinstance(seat.get(k[: -len("_count")]), list))
            }
            for seat in data["seats"]
        ]
    event = {
        "type": entry.get("type"),
        "v": entry.get("v", 1),
        "seat": entry.get("seat"),
        "cause": entry.get("cause"),
        "violation": entry.get("violation"),
        **data,
    }
    return {
        "version": entry.get("version"),
        "event": event,
        "received_at": entry.get("received_at"),
        "client_at": entry.get("client_at"),
        "visible_to": entry.get("visible_to") or {},
        "hash": entry.get("hash"),
        "prev_hash": entry.get("prev_hash"),
    }


# ============================================================================ visitor


class GameVisitor(Generic[T]):
    """Base class of export visitors (python-chess ``pgn.BaseVisitor``).

    :func:`walk` calls ``begin_game(header, cards)`` once, ``visit_event(entry, turn)`` for
    each record (``entry`` as :func:`export_entry` makes it for the viewer; ``turn`` is 0 in
    setup), then ``end_game()``, and returns ``result()``. ``cards`` maps every card id to its
    definition: a visitor may only look up ids that an entry shows, which are the ones the
    viewer may see.
    """

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        """Called once, before the first event."""

    def visit_event(self, entry: Mapping[str, Any], turn: int) -> None:
        """Called for each event, in version order."""

    def end_game(self) -> None:
        """Called once, after the last event."""

    def result(self) -> T:
        """What the visitor built."""
        raise NotImplementedError


def visit(
    records: Iterable[Record],
    visitor: GameVisitor[Any],
    viewer: str,
    *,
    result: str | None = None,
    exported_at: str | None = None,
) -> Iterator[None]:
    """Drive ``visitor`` over ``records``, yielding after each call (for streaming exporters).

    ``result`` goes into the header; by default it is computed from ``records`` when they are
    a sequence, else ``"*"``.
    """
    if result is None:
        result = game_result(records) if isinstance(records, Sequence) else "*"
    turn = 0
    started = False
    seats: list[str] = []
    for record in records:
        event = record["event"]
        if not started:
            header = game_header(record, viewer, result=result, exported_at=exported_at)
            seats = [str(s["seat"]) for s in event["seats"]]
            visitor.begin_game(header, _card_book(event))
            started = True
            yield None
        if event.get("type") in ("TurnStarted", "TableRestored"):
            turn = int(event["turn"])
        visitor.visit_event(export_entry(record, viewer, seats), turn)
        yield None
    if not started:
        raise ExportFormatError("a game has at least its GameCreated event")
    visitor.end_game()
    yield None


def walk(
    records: Iterable[Record],
    visitor: GameVisitor[T],
    viewer: str,
    *,
    result: str | None = None,
    exported_at: str | None = None,
) -> T:
    """Run ``visitor`` over the whole game and return what it built."""
    for _ in visit(records, visitor, viewer, result=result, exported_at=exported_at):
        pass
    return visitor.result()


def _card_book(created: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    book: dict[str, dict[str, Any]] = {}
    for seat in created.get("seats") or []:
        for card in [seat["hero"], *seat["deck"]]:
            book[card["id"]] = {**card, "owner": seat["seat"]}
    return book


# ============================================================================ JSON, NDJSON


class JsonExporter(GameVisitor[dict[str, Any]]):
    """Builds the canonical export object (module docstring)."""

    def __init__(self) -> None:
        self.header: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.header = dict(header)

    def visit_event(self, entry: Mapping[str, Any], turn: int) -> None:
        self.events.append(dict(entry))

    def result(self) -> dict[str, Any]:
        return {**self.header, "events": self.events}


def export_json(
    records: Iterable[Record], viewer: str, *, exported_at: str | None = None
) -> dict[str, Any]:
    """The canonical export object for ``viewer``."""
    return walk(records, JsonExporter(), viewer, exported_at=exported_at)


def export_json_text(
    records: Iterable[Record], viewer: str, *, exported_at: str | None = None
) -> str:
    """The canonical export as text: sorted keys, one space indent, UTF-8, final newline."""
    obj = export_json(records, viewer, exported_at=exported_at)
    return json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


class _Streaming(GameVisitor[None]):
    """A visitor that produces lines as it goes; :meth:`drain` hands them over."""

    def __init__(self) -> None:
        self._lines: list[str] = []

    def emit(self, line: str) -> None:
        self._lines.append(line)

    def drain(self) -> list[str]:
        lines, self._lines = self._lines, []
        return lines

    def result(self) -> None:
        return None


def _stream(
    records: Iterable[Record],
    visitor: _Streaming,
    viewer: str,
    result: str | None,
    exported_at: str | None,
) -> Iterator[str]:
    for _ in visit(records, visitor, viewer, result=result, exported_at=exported_at):
        yield from visitor.drain()


class NdjsonExporter(_Streaming):
    """NDJSON lines: the header (no ``events``) first, then one entry per line."""

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.emit(canonical_json(dict(header)) + "\n")

    def visit_event(self, entry: Mapping[str, Any], turn: int) -> None:
        self.emit(canonical_json(entry) + "\n")


def export_ndjson(
    records: Iterable[Record],
    viewer: str,
    *,
    result: str | None = None,
    exported_at: str | None = None,
) -> Iterator[str]:
    """Stream the export as NDJSON lines (each ends with ``\\n``); see :class:`NdjsonExporter`.

    Pass ``result`` when ``records`` is a one-pass iterator (else the header says ``"*"``).
    """
    return _stream(records, NdjsonExporter(), viewer, result, exported_at)


CSV_COLUMNS = (
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


class CsvExporter(_Streaming):
    """CSV rows (RFC 4180, CRLF): a row of :data:`CSV_COLUMNS`, then one row per event.

    ``summary`` is the transcript's sentence for the event; ``data`` the entry's data as
    compact JSON.
    """

    def __init__(self) -> None:
        super().__init__()
        self.narrator: Narrator | None = None

    def _row(self, values: Sequence[Any]) -> None:
        buf = io.StringIO()
        csv.writer(buf).writerow(values)
        self.emit(buf.getvalue())

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.narrator = Narrator(cards)
        self._row(CSV_COLUMNS)

    def visit_event(self, entry: Mapping[str, Any], turn: int) -> None:
        assert self.narrator is not None
        phrases = self.narrator.describe(entry)
        summary = " · ".join(p.render(with_actor=True) for p in phrases)
        self._row(
            [
                entry["version"],
                entry.get("received_at") or "",
                entry.get("client_at") or "",
                entry.get("seat") or "",
                entry["type"],
                turn,
                summary,
                entry.get("violation") or "",
                canonical_json(entry.get("data") or {}),
            ]
        )


def export_csv(
    records: Iterable[Record], viewer: str, *, exported_at: str | None = None
) -> Iterator[str]:
    """Stream the log as CSV lines; see :class:`CsvExporter`."""
    return _stream(records, CsvExporter(), viewer, None, exported_at)


# ============================================================================ narration


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


def actor_label(seat: str) -> str:
    return "Judge" if seat == "judge" else seat


_OUTCOMES = {
    "ran": "fight over: ran away",
    "caught": "fight over: caught cheating",
    "squished": "fight over: Monster squished",
    "survived": "fight over: Monster survived",
    "no_card": "fight over: no attacking card",
}
_MARKER = {"run_away": "Run Away", "limp_away": "Limp Away"}
_ZONE = {"deck_bottom": "the bottom of the deck", "deck_top": "the top of the deck"}


class Narrator:
    """Turns export entries into :class:`Phrase` s, remembering what a reader would.

    Hidden cards (ids the viewer's entry leaves out) read as ``"a face-down card"`` in the DMZ
    and ``"a card"`` elsewhere; visible ones by name.
    """

    def __init__(self, cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.cards = cards
        self.markers = {"A": "run_away", "B": "run_away"}
        self.attack: dict[str, Any] = {}
        self.consequences_of: int | None = None

    # -- words ------------------------------------------------------------------------------

    def name(self, cid: Any, hidden: str = "a card") -> str:
        if not isinstance(cid, str):
            return hidden
        card = self.cards.get(cid)
        return str(card["name"]) if card is not None else f"card {cid}"

    def names(self, cids: Iterable[Any], hidden: str = "a card") -> str:
        shown = [self.name(c) for c in cids if isinstance(c, str)]
        n_hidden = sum(1 for c in cids if not isinstance(c, str))
        if n_hidden:
            shown.append(hidden if n_hidden == 1 else f"{n_hidden} cards")
        if not shown:
            return "nothing"
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]

    def owner_of(self, cid: Any) -> str | None:
        card = self.cards.get(cid) if isinstance(cid, str) else None
        return None if card is None else str(card["owner"])

    # -- events -----------------------------------------------------------------------------

    def describe(self, entry: Mapping[str, Any]) -> list[Phrase]:
        """The phrases for one entry (possibly none); a violation is appended to the last."""
        etype = str(entry["type"])
        data: Mapping[str, Any] = entry.get("data") or {}
        actor = entry.get("seat")
        who = actor if actor not in (None, "rules") else None
        method = getattr(self, f"on_{etype}", None)
        phrases: list[Phrase] = (
            method(data, who, entry) if method is not None else [Phrase(who, etype, True)]
        )
        if entry.get("violation") and phrases:
            last = phrases[-1]
            phrases[-1] = Phrase(last.actor, f"{last.text} [violation: {entry['violation']}]")
        elif entry.get("violation"):
            phrases = [Phrase(who, f"{etype} [violation: {entry['violation']}]")]
        return phrases

    # setup (A.7)
    def on_GameCreated(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, "game created", True)]

    def on_OpeningHandDrawn(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"draws an opening hand of {len(d['cards'])}")]

    def on_FirstPlayerRolled(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        rolls = ", ".join(f"{s} {v}" for s, v in sorted(d["rolls"].items()))
        return [Phrase(None, f"rolls {rolls}" + (": a tie, roll again" if d["tie"] else ""))]

    def on_FirstPlayerChosen(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["chooser"], f"chooses {d['first']} to go first")]

    def on_GoldGranted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['player']} gets {d['amount']} gold")]

    def on_MulliganTaken(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], "takes a mulligan")]

    def on_MulliganDeclined(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], "keeps")]

    # turn (A.8)
    def on_TurnStarted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"turn {d['turn']}: {d['player']}", True)]

    def on_PhaseStarted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, str(d["phase"]), d["phase"] != "cooldown")]

    def on_RunAwayMarkerFlipped(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        player, side = d["player"], d["side"]
        unchanged = self.markers.get(player) == side
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

    def on_CardDrawn(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"draws {self.name(d['card'])}")]

    def on_LootPlayed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"plays {self.name(d['card'])}")]

    def on_LocationPlayed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"plays the Location {self.name(d['card'])}")]

    def on_AllyPlayed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"pays {d['gold_paid']} gold for {self.name(d['card'])}")]

    def on_CardSquished(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        if d["reason"] == "action" and who is not None:
            return [Phrase(who, f"squishes {self.name(d['card'])}")]
        why = {"damage": " by damage", "ability": f" by {self.name(d.get('source'))}"}
        return [Phrase(None, f"{self.name(d['card'])} is squished{why.get(d['reason'], '')}")]

    def on_CardZapped(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(who, f"zaps {self.name(d['card'])}")]

    def on_CardUnzapped(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(who, f"unzaps {self.name(d['card'])}")]

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

    def on_AbilityCanceled(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(who, f"cancels the ability of event {d['ref']}")]

    def on_AbilityResolved(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        if d.get("outcome") == "canceled":
            return [Phrase(None, f"{self.name(d['card'])} fizzles (canceled)")]
        return [Phrase(None, f"{self.name(d['card'])} resolves", True)]

    def on_PriorityPassed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], "passes", True)]

    def on_ResponseWindowClosed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['window']} window closed", True)]

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

    def on_DefenderFaced(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], "faces the monster")]

    def on_DefenderCardsCommitted(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], f"commits {self.names(d['cards'])}")]

    def on_DefenderReady(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], "is ready", True)]

    def on_AttackCardRevealed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        card = self.cards.get(d["card"]) if isinstance(d["card"], str) else None
        text = f"reveals {self.name(d['card'])}"
        if card is not None:
            kind = "Monster" if card.get("type") == "monster" else str(card.get("type"))
            cost = f", cost {card['cost']}" if card.get("cost") is not None else ""
            text += f" ({kind}{cost})"
        return [Phrase(d["player"], text)]

    def on_MonsterCostModified(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(who, f"{self.name(d['card'])} now costs {d['cost']}")]

    def on_CheatingChecked(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        result = d["result"]
        if result == "underpaid":
            text = f"underpaid: {d['gold']} gold for cost {d['cost']}"
        elif result == "not_monster":
            text = f"{self.name(d['card'])} is not a Monster"
        else:
            text = f"paid: {d['gold']} gold for cost {d['cost']}"
        return [Phrase(None, text, result == "hired")]

    def on_CaughtCheating(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['player']} is caught cheating")]

    def on_MonsterHired(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [
            Phrase(None, f"{self.name(d['card'])} hired (power {d['power']}, life {d['life']})")
        ]

    def on_HireGoldSpent(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['player']}'s {d['amount']} gold goes to the stockpile", True)]

    def on_CommittedGoldReturned(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['amount']} committed gold back to {d['player']}", True)]

    def on_DamageDealt(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        target, amount = self.name(d["target"]), d["amount"]
        blocked = f" ({d['reduced_by_defense']} blocked)" if d.get("reduced_by_defense") else ""
        if d.get("kind") == "combat" and d["target"] == self.attack.get("card"):
            defender = self.attack.get("defender", "the defender")
            return [Phrase(None, f"{defender}'s weapons deal {amount} to {target}{blocked}")]
        if d.get("source") is not None:
            return [Phrase(None, f"{self.name(d['source'])} deals {amount} to {target}{blocked}")]
        minor = e.get("cause") is not None and e.get("cause") == self.consequences_of
        return [Phrase(None, f"{target} takes {amount} damage{blocked}", minor)]

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

    def on_GoldStolen(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        text = f"steals {d['amount']} gold from {d['from_player']}"
        return [Phrase(d["to_player"], text)]

    def on_GoldTaken(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['player']} takes {d['amount']} gold")]

    def on_TokensCollected(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{self.name(d['card'])} collects {d['amount']} tokens")]

    def on_CardStuck(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{self.name(d['card'])} is stuck to {self.name(d['host'])}")]

    def on_CardStashed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        owner = self.owner_of(d["card"])
        card = self.name(d["card"])
        if d["card"] is None and "card" in self.attack and self.attack["card"] is None:
            owner, card = self.attack.get("attacker"), "the attack card"
        where = f"{owner}'s stash" if owner else "its owner's stash"
        return [Phrase(None, f"{card} to {where} (face {d['face']})")]

    def on_CardsSpilled(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['player']} spills {self.names(d['cards'])}")]

    def on_CardDiscarded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{self.name(d['card'])} is discarded")]

    def on_CardRevealed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{self.name(d['card'])} is revealed")]

    def on_CardRemoved(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{self.name(d['card'])} is removed from the game")]

    def on_CardMoved(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        to = _ZONE.get(d["to"], f"the {d['to']}")
        return [Phrase(None, f"{self.name(d['card'])} moves to {to}")]

    def on_FightEnded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        self.attack = {}
        return [Phrase(None, _OUTCOMES.get(d["outcome"], f"fight over: {d['outcome']}"))]

    def on_MonsterDiscarded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{self.name(d['card'])} goes to the discard", True)]

    def on_MonsterStashedFaceUp(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        text = f"{self.name(d['card'])} survives with {d['damage']} damage, stashed face up"
        return [Phrase(None, text)]

    def on_DefenderCardsReturned(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{self.names(d['cards'])} back to {d['player']}'s hoard", True)]

    # cooldown, end (A.8, A.13)
    def on_LevelIncreased(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['player']} reaches level {d['level']}")]

    def on_GoldRefilled(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['player']} refills {d['amount']} gold")]

    def on_TurnEnded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"turn {d['turn']} over", True)]

    def on_PlayerConceded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(d["player"], "concedes")]

    def on_PlayerEliminated(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(None, f"{d['player']} is eliminated ({d['reason']})")]

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

    def on_TableRestored(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(who, f"restores the table to turn {d['turn']} ({d['phase']})")]

    def on_StackTrimmed(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(who, f"cuts the stack back to {d['keep']}")]

    def on_StackEntryRestored(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        return [Phrase(who, f"puts {self.name(d['card'])} back on the stack")]

    def on_DisputeOpened(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        about = f" about event {d['about']}" if d.get("about") is not None else ""
        note = f": {d['note']}" if d.get("note") else ""
        return [Phrase(d["raised_by"], f"calls the judge{about} ({d['dispute']}){note}")]

    def on_RulingRecorded(self, d: Mapping[str, Any], who: Any, e: Any) -> list[Phrase]:
        text = f"rules on {d['dispute']}: {d['ruling']}"
        if d.get("penalty"):
            text += f" ({d['penalty']}" + (f" for {d['player']}" if d.get("player") else "") + ")"
        return [Phrase(who, text)]


# ============================================================================ transcript


#: Tags written first and in this order (as PGN's Seven Tag Roster); other labels follow.
ROSTER = ("event", "site", "date", "round", "table")


def _tag(name: str, value: Any) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


class TranscriptExporter(GameVisitor[str]):
    """A readable transcript in the spirit of PGN.

    Header tags (``[Event "..."]``, ``[Round "..."]``, ``[Table "..."]``, ``[A "player
    (Hero)"]``, ``[B ...]``, ``[Result "A"|"B"|"draw"|"*"]``, ``[Rules "ruleset version"]``,
    ...), a blank line, then one paragraph per turn (``Setup``, ``T1 A:``, ...): the phrases of
    :class:`Narrator`, joined with `` · ``, naming the acting seat when it changes, wrapped at
    ``width`` columns; each fight gets its own indented line. The last line is the result, as
    in PGN.
    """

    def __init__(self, width: int = 100) -> None:
        self.width = width
        self.tags: list[str] = []
        self.paragraphs: list[str] = []
        self.narrator = Narrator({})
        self.current: list[str] = []
        self.lines_in_turn = 0
        self.last_actor: str | None = None
        self.turn: int | None = None
        self.result_token = "*"
        self.date_from_log = True

    def begin_game(self, header: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> None:
        self.narrator = Narrator(cards)
        labels = {str(k): v for k, v in (header.get("labels") or {}).items()}
        self.result_token = str(header.get("result", "*"))
        self.date_from_log = "date" not in labels
        tags = [_tag(k.capitalize(), labels.pop(k, "?")) for k in ROSTER]
        tags.append(_tag("Game", header["game_id"]))
        for seat in header["seats"]:
            tags.append(_tag(seat["seat"], f"{seat['player']} ({seat['hero']['name']})"))
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

    def visit_event(self, entry: Mapping[str, Any], turn: int) -> None:
        etype = entry["type"]
        data = entry.get("data") or {}
        if etype == "GameCreated" and self.date_from_log and entry.get("received_at"):
            self.tags[ROSTER.index("date")] = _tag("Date", str(entry["received_at"])[:10])
        if turn != self.turn or etype == "TurnStarted":
            self._flush(turn_over=True)
            self.turn = turn
            label = "Setup" if turn == 0 else f"T{turn}"
            if etype == "TurnStarted":
                self.current = [f"{label} {data.get('player')}:"]
                self.last_actor = data.get("player")
            else:
                self.current = [f"{label}:"]
                self.last_actor = None
        elif etype == "FightStarted":
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
        if etype == "FightEnded":
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


# ============================================================================ reading


def read_export(
    source: str | bytes | Mapping[str, Any],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read a canonical JSON export (object or text) or an NDJSON export back into
    ``(header, records)``; records have the stored shape (``domain.game.Record``).

    Only complete exports (``judge``, ``table``) give back records that verify. Raises
    :class:`ExportFormatError` when ``source`` is not an export this version reads.
    """
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    if isinstance(source, str):
        try:
            parsed: Any = json.loads(source)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, dict) and "events" in parsed:
            obj: Mapping[str, Any] = parsed
        else:
            obj = _read_ndjson(source)
    else:
        obj = source
    header = {k: v for k, v in obj.items() if k != "events"}
    if header.get("format") != FORMAT:
        raise ExportFormatError(f"not a {FORMAT} export")
    if header.get("format_version") != FORMAT_VERSION:
        raise ExportFormatError(f"unsupported format_version {header.get('format_version')!r}")
    events = obj.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise ExportFormatError("'events' must be a list of objects")
    return header, [record_from_entry(e) for e in events]


def _read_ndjson(text: str) -> dict[str, Any]:
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ExportFormatError("empty export")
    try:
        header = json.loads(lines[0])
        events = [json.loads(line) for line in lines[1:]]
    except json.JSONDecodeError as exc:
        raise ExportFormatError(f"bad JSON on a line: {exc.msg}") from None
    if not isinstance(header, dict):
        raise ExportFormatError("the first line must be the header object")
    return {**header, "events": events}


_RECORD_KEYS = ("version", "event", "received_at", "client_at", "visible_to", "hash", "prev_hash")


def verify_records(records: Iterable[Record], prev_hash: str = GENESIS_HASH) -> dict[str, Any]:
    """Recompute the hash chain (``domain.game.chain_hash``) of a game's records.

    Returns ``{"ok", "checked", "first_broken", "head"}``: ``checked`` counts the records that
    verified, ``first_broken`` is ``None`` or ``{"version", "reason"}`` with reason
    ``version_gap`` (versions must run 1, 2, ...), ``prev_hash_mismatch``, ``hash_mismatch``
    or ``bad_event`` (not a record, or an event that does not load), and ``head`` is the last
    verified hash.
    """
    checked = 0
    expected_version = 1
    for record in records:
        version = record.get("version") if isinstance(record, Mapping) else None
        broken = _check_record(record, expected_version, prev_hash)
        if broken is not None:
            at = version if isinstance(version, int) else expected_version
            return {
                "ok": False,
                "checked": checked,
                "first_broken": {"version": at, "reason": broken},
                "head": prev_hash,
            }
        prev_hash = str(record["hash"])
        checked += 1
        expected_version += 1
    return {"ok": True, "checked": checked, "first_broken": None, "head": prev_hash}


def _check_record(record: Any, version: int, prev_hash: str) -> str | None:
    if not isinstance(record, Mapping) or any(k not in record for k in _RECORD_KEYS):
        return "bad_event"
    if not isinstance(record["event"], Mapping) or not isinstance(record["visible_to"], Mapping):
        return "bad_event"
    if record["version"] != version:
        return "version_gap"
    if record["prev_hash"] != prev_hash:
        return "prev_hash_mismatch"
    try:
        expected = chain_hash(
            version,
            record["event"],
            record["received_at"],
            record["client_at"],
            record["visible_to"],
            prev_hash,
        )
    except (TypeError, ValueError):
        return "bad_event"
    if expected != record["hash"]:
        return "hash_mismatch"
    try:
        event_from_dict(dict(record["event"]))
    except (DomainError, TypeError, ValueError, KeyError):
        return "bad_event"
    return None


def replay_records(records: Iterable[Record], *, max_level: int = 10) -> State:
    """Replay an imported game through the rules and return its final (judge's) state.

    Commands are not stored, so the rules' decisions cannot be re-run; "replayed through the
    rules" means each event must be one the game could have recorded at that point:

    1. versions run 1, 2, ... and each event loads (``event_from_dict``, with upcasting);
    2. event 1 is ``GameCreated`` and the ruleset it names re-creates exactly that event from
       its own seats, decks, mode and format (``Ruleset.create``: known ruleset and rules
       version, legal decks for the format, unique card ids); no later ``GameCreated``;
    3. after the game ended (``status == "finished"``) only the judge records events;
    4. ``evolve`` applies the event and the new state keeps the invariants of
       :func:`projections.replay.invariant_violations`: no negative gold, damage, tokens or
       committed gold; levels within 1..``max_level``; every card in exactly one zone; a
       ``GameEnded`` winner that agrees with the eliminations;
    5. the record's ``visible_to`` is what ``domain.visibility.knowledge`` computes for it, so
       an import cannot widen or narrow what each seat is shown (RULES.md A.4).

    It does not check that each event was *legal* (e.g. that a Loot fit the level), nor the
    hash chain (:func:`verify_records` does). Raises :class:`ImportRejected` at the first
    event that fails, with ``reason`` ``version_gap``, ``bad_event``, ``not_game_created``,
    ``setup_rejected``, ``setup_mismatch``, ``after_game_end``, ``invariant`` or
    ``visibility_mismatch``.
    """
    state = initial_state()
    expected = 1
    for record in records:
        version = record.get("version")
        if version != expected:
            raise ImportRejected(expected, "version_gap", f"found version {version!r}")
        try:
            event = event_from_dict(dict(record["event"]))
        except (DomainError, TypeError, ValueError, KeyError) as exc:
            raise ImportRejected(expected, "bad_event", str(exc)) from None
        if expected == 1:
            _check_created(event)
        elif _creates_game(event.to_dict()):
            raise ImportRejected(expected, "not_game_created", f"a second {event.type}")
        if state.get("status") == "finished" and event.seat != "judge":
            raise ImportRejected(expected, "after_game_end", f"{event.type} by {event.seat}")
        after = evolve(state, event)
        problems = invariant_violations(after, max_level=max_level)
        if problems:
            raise ImportRejected(expected, "invariant", problems[0])
        if record.get("visible_to") != knowledge(state, after, event):
            raise ImportRejected(expected, "visibility_mismatch")
        state = after
        expected += 1
    return state


def _check_created(event: Event) -> None:
    data = event.to_dict()
    if not _creates_game(data):
        raise ImportRejected(1, "not_game_created", f"first event is {event.type}")
    try:
        rs = find_ruleset(str(data["ruleset"]))
        spec = {k: data[k] for k in ("game_id", "mode", "format", "labels", "seats")}
        again = rs.create(spec)
    except DomainError as exc:
        raise ImportRejected(1, "setup_rejected", f"{exc.code}: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ImportRejected(1, "setup_rejected", str(exc)) from None
    mine = {k: v for k, v in data.items() if k not in ("seat", "cause", "violation")}
    theirs = {
        k: v for k, v in again[0].to_dict().items() if k not in ("seat", "cause", "violation")
    }
    if len(again) != 1 or mine != theirs:
        raise ImportRejected(1, "setup_mismatch", "the ruleset sets this game up differently")


def _creates_game(event: Mapping[str, Any]) -> bool:
    """Whether ``event`` (stored form) sets a game up: ``GameCreated`` or another ruleset's
    creation event (it names the ruleset and carries the seats)."""
    return event.get("type") == "GameCreated" or (
        isinstance(event.get("seats"), list) and isinstance(event.get("ruleset"), str)
    )


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A verified and replayed import: the export's header, its records and final state."""

    header: dict[str, Any]
    records: list[dict[str, Any]]
    state: State


def import_game(source: str | bytes | Mapping[str, Any]) -> ImportedGame:
    """Read, verify and replay an export: what ``POST /games/import`` needs.

    Raises :class:`ExportFormatError` (not an export), or :class:`ImportRejected`:
    ``incomplete_export`` for a seat's or spectator's export, a chain reason from
    :func:`verify_records`, or a replay reason from :func:`replay_records`.
    """
    header, records = read_export(source)
    if not header.get("complete"):
        raise ImportRejected(1, "incomplete_export", f"exported for {header.get('viewer')!r}")
    check = verify_records(records)
    if not check["ok"]:
        broken = check["first_broken"]
        raise ImportRejected(broken["version"], broken["reason"])
    state = replay_records(records)
    return ImportedGame(header=header, records=records, state=state)
