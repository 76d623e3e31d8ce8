"""``munchlog publish``: a venue's records pushed to a public server's mirror (issue #41).

The publisher follows the venue's log (every game event and every event's (tournament's)
stored event, in commit order, after its position: ``adapters.mirror_feed.feed_since``, an
event's token hashes sent blank; looked at every :data:`LOOK_SECONDS` when it is caught up, so
no notification is needed) and sends what it finds in batches of at most :data:`BATCH` records
exactly as stored (``POST /api/mirrors/<id>/batches``: ``service.mirrors`` checks each against
the copy it holds). It starts from the position the public server says it last took (the
mirror's ``last_batch``), so a publisher stopped and started again, or a second one, resumes
where the mirror is.

While the link is down (the request fails, or the server answers 5xx) it keeps its position and
tries again every :data:`RETRY_SECONDS`, and catches up in order when the link returns. A batch
whose answer was lost (stored, but the link dropped before the 201) comes back as 409
``mirror/does_not_extend`` with the version held: the records the copy holds already are left
out and the rest sent again; one that lost a race with another batch (``conflict``) is sent
again. Any other refusal stops the publisher (:class:`PublishRefused`):
the venue's records do not extend what the public server holds, which a person must look at.

A progress line (``say``) after each batch and whenever the link goes down or comes back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from adapters.mirror_feed import feed_since
from service.games import GameLog

#: Records a batch holds at most.
BATCH = 500
#: Seconds between two looks at a caught-up log.
LOOK_SECONDS = 0.25
#: Seconds between two tries while the link is down.
RETRY_SECONDS = 1.0

#: ``send(method, path, body) -> (status, answer)``; raises :class:`LinkDown` when no answer came.
Send = Callable[[str, str, Any], tuple[int, Any]]


class LinkDown(Exception):
    """No answer from the public server (a refused or dropped connection, a timeout)."""


class PublishRefused(Exception):
    """The public server refused what the venue holds (not a link problem): stop."""


@dataclass
class Publisher:
    """Pushes ``log``'s records to the mirror ``mirror_id`` through ``send`` (module docstring)."""

    log: GameLog
    send: Send
    mirror_id: str
    games: Collection[str] = ()
    #: Events to publish, each with its games (empty with ``games`` empty: everything).
    events: Collection[str] = ()
    say: Callable[[str], None] = print
    batch: int = BATCH
    position: int = 0
    published: int = 0
    link_up: bool = True
    _held: dict[str, int] = field(default_factory=dict)

    def start(self) -> None:
        """Learn the position the mirror last took (retrying while the link is down)."""
        status, answer = self._call("GET", f"/api/mirrors/{self.mirror_id}", None)
        self._refused_unless(status, answer, 200)
        last = answer.get("last_batch") or {}
        self.position = int(last.get("position") or 0)
        self.say(f"publish: the mirror holds the venue's log up to {self.position}")

    def run(self, stop: threading.Event, *, once: bool = False) -> int:
        """Publish until ``stop`` is set (``once``: until caught up); the records published."""
        self.start()
        while not stop.is_set():
            if not self.step():
                if once:
                    break
                stop.wait(LOOK_SECONDS)
        return self.published

    def caught_up(self) -> bool:
        """Whether every game record of the venue's log has been sent."""
        return not feed_since(self.log.store, self.position, 1)

    def step(self) -> bool:
        """Send the next batch, if there is one; whether there was. The head it tells the
        mirror is the venue's last game record when the batch was read if the batch ends
        there, else the log's head (an upper bound: the lag it gives is at most that)."""
        found = feed_since(self.log.store, self.position, self.batch)
        if not found:
            return False
        position = found[-1][0]
        head = position if len(found) < self.batch else self.log.store.max_notification_id()
        wanted = self._wanted_games()
        records = [
            {"game_id": game_id, **record}
            for _, kind, game_id, record in found
            if kind == "game" and (wanted is None or game_id in wanted)
        ]
        events = [
            {"event_id": event_id, **record}
            for _, kind, event_id, record in found
            if kind == "event" and (not (self.games or self.events) or event_id in self.events)
        ]
        records, events = self._unheld(records), self._unheld(events)
        while records or events:
            body = {
                "records": records,
                "events": events,
                "position": position,
                "head": head,
                "delays": self._delays(records),
            }
            status, answer = self._call("POST", f"/api/mirrors/{self.mirror_id}/batches", body)
            if status == 409 and _reason(answer) == "conflict":  # another batch came first
                time.sleep(RETRY_SECONDS)
                continue
            if status == 409 and _held_already(answer, [*records, *events]):
                error = answer["error"]
                self._held[_named(error)] = int(error["version"])
                records, events = self._unheld(records), self._unheld(events)
                continue
            self._refused_unless(status, answer, 201)
            sent = len(records) + len(events)
            self.published += sent
            self.say(
                f"publish: {sent} records sent, {self.published} in all; "
                f"position {position} of {head} (lag {head - position})"
            )
            break
        self.position = position
        return True

    def _wanted_games(self) -> set[str] | None:
        """The games to send: ``None`` for all (nothing named), else those named and the games
        of the events named, read now. An event's game is saved with the event record that adds
        it (one transaction), so a game whose records were just read is already listed."""
        if not (self.games or self.events):
            return None
        wanted = set(self.games)
        for event_id in self.events:
            event: Any = self.log.store.load(UUID(event_id))
            for played in event.rounds:
                for pairing in played["pairings"]:
                    wanted.update(pairing["games"])
        return wanted

    def _unheld(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``records`` but those the mirror told it holds already (``_held``)."""
        return [r for r in records if r["version"] > self._held.get(_named(r), 0)]

    def _delays(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """The spectator delay of each game ``records`` start, by id: the public server
        holds its copy back from spectators as the venue does."""
        found = {}
        for record in records:
            if record["version"] == 1:
                delay = self.log.delays.of(UUID(record["game_id"]))
                if delay is not None:
                    found[record["game_id"]] = delay.as_dict()
        return found

    def _call(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        """``send``, again every :data:`RETRY_SECONDS` while the link is down or the server
        answers 5xx, saying when the link goes down and when it comes back."""
        while True:
            try:
                status, answer = self.send(method, path, body)
            except LinkDown as exc:
                status, answer = 0, str(exc)
            if status and status < 500:
                if not self.link_up:
                    self.link_up = True
                    self.say(f"publish: the link is back; catching up from {self.position}")
                return status, answer
            if self.link_up:
                self.link_up = False
                self.say(
                    f"publish: the link is down ({status or answer}); "
                    f"keeping position {self.position}, trying again every {RETRY_SECONDS:.0f} s"
                )
            time.sleep(RETRY_SECONDS)

    @staticmethod
    def _refused_unless(status: int, answer: Any, wanted: int) -> None:
        if status != wanted:
            error = answer.get("error", {}) if isinstance(answer, dict) else {}
            raise PublishRefused(f"{status} {error.get('code')}: {error.get('message')}")


def _reason(answer: Any) -> str | None:
    """The ``reason`` of a ``mirror/does_not_extend`` answer (``None`` for another)."""
    error = answer.get("error", {}) if isinstance(answer, dict) else {}
    return error.get("reason") if error.get("code") == "mirror/does_not_extend" else None


def _named(entry: dict[str, Any]) -> str:
    """The game or event a record (or a 409's error) names."""
    return str(entry.get("game_id") or entry.get("event_id"))


def _held_already(answer: Any, records: list[dict[str, Any]]) -> bool:
    """Whether a 409 says the copy holds a game or an event further than the batch starts it
    (a batch stored whose answer the link lost): those records are left out and the rest
    sent."""
    if _reason(answer) != "not_next":
        return False
    error = answer["error"]
    held = error.get("version")
    starts = [r["version"] for r in records if _named(r) == _named(error)]
    return isinstance(held, int) and bool(starts) and starts[0] <= held
