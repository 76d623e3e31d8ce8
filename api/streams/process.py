"""The stream process: ``GET /api/games/<id>/stream``, Server-Sent Events, on an ASGI server.

A stream holds its connection for a whole game. On the recording workers (WSGI: a thread per
request) 8 of them would take every app thread of 2 workers, so streams have their own
process (issue #26; docs/streams.md): granian's ASGI interface, one event loop, where an open
stream is a coroutine waiting for its end, not a thread. ``munchlog serve`` starts it beside the
recording workers (:func:`api.ops.serving.run`), on the next port up; behind nginx
(``deploy/nginx.conf``) the stream path goes to it and everything else to the workers.

How an event reaches a stream:

1. A recording worker commits it. The stream process follows the log (``EventStore.follow``,
   in a thread: PostgreSQL wakes it by ``LISTEN``/``NOTIFY``; SQLite, which cannot notify
   another process, is polled every :data:`POLL_SECONDS`: one ``SELECT`` of the notifications
   after the last, whose cost is measured in ``bench/RESULTS.md``);
2. the follower marks the game's :class:`Channel` dirty on the event loop;
3. the channel's pump groups its subscribers by (viewer, last version sent), reads the events
   after that version once per group as that viewer may see them
   (:func:`service.streams.next_chunks`, in a thread: the store is synchronous; one read of
   the store for all of them) and writes the same bytes to every subscriber of the group
   (:class:`Subscriber`: at once, in the pump's own step, while the connection takes them). A
   burst is coalesced: a pump that found work waits :data:`COALESCE_SECONDS` before it looks
   again, so a game recording flat out costs its streams a bounded number of reads and writes
   a second, whatever its rate.

Every stream reads from the store after the version it last sent, so it is gapless and has no
repeats whatever the follower misses; a subscriber that falls :data:`MAX_BACKLOG` chunks behind
(a client that does not read) is closed and resumes with ``Last-Event-ID``. A spectator of a
game with a spectator delay is held back by the same ``Delays`` as every read path; a delay in
seconds is looked at again every :data:`DELAY_TICK` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import threading
import time
import types
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs
from uuid import UUID

from api.json_api.auth import bearer_token, viewer_for
from api.json_api.errors import error_body
from api.ops.metrics import exposition
from api.ops.routes import current_lag
from api.streams.events import event_viewer, read_event
from api.streams.metrics import StreamCounts, stream_metrics, viewer_kind
from service.delay import DELAYED_VIEWERS
from service.streams import (
    HEARTBEAT,
    HEARTBEAT_SECONDS,
    OPENING,
    Chunk,
    next_chunks,
    prepare,
    stream_position,
    tickets_for,
)

log = logging.getLogger("munchlog.streams")

#: Seconds between two looks at a SQLite log (PostgreSQL notifies).
POLL_SECONDS = 0.02
#: Seconds a pump that found work waits before it looks again (bursts are coalesced), at least;
#: with many streams open, long enough for about WRITES_PER_SECOND writes a second in all, up
#: to MAX_COALESCE_SECONDS (Hub.coalesce).
COALESCE_SECONDS = 0.05
WRITES_PER_SECOND = 6_500
MAX_COALESCE_SECONDS = 0.2
#: Chunks a subscriber may have waiting before it is closed (it resumes by Last-Event-ID).
MAX_BACKLOG = 256
#: The streams served: a game's, an event's (``/api/<kind>/<id>/stream``).
KINDS = ("games", "events")
#: Seconds between two looks at games delayed by time.
DELAY_TICK = 1.0
#: Threads that read the store for the streams.
READERS = 2

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def heartbeat_seconds() -> float:
    """Seconds between heartbeats (``MUNCHLOG_STREAM_HEARTBEAT``, default 15)."""
    raw = os.environ.get("MUNCHLOG_STREAM_HEARTBEAT")
    return float(raw) if raw else HEARTBEAT_SECONDS


class Subscriber:
    """One open stream: its viewer, the last version it was sent, and its connection.

    What a pump or the ticker has for it is written at once (:meth:`push`), in the caller's
    step of the loop: a connection that takes the bytes (granian's send completes at once
    while its buffer has room) costs no task switch, which at a thousand streams is most of
    the stream process's work (``bench/RESULTS.md``, "Live streams"). Only a write the
    connection makes wait gets a task of its own (:meth:`_drain`); what arrives meanwhile
    waits in order and goes in one write when it is done. A subscriber that falls
    :data:`MAX_BACKLOG` chunks behind (a client that does not read) is closed and resumes by
    ``Last-Event-ID``. ``done`` resolves when the stream is over."""

    __slots__ = (
        "_counts",
        "_drainer",
        "_pending",
        "_reason",
        "_send",
        "after",
        "done",
        "sent_at",
        "viewer",
    )

    def __init__(self, viewer: str, after: int, send: Send, counts: StreamCounts) -> None:
        self.viewer = viewer
        self.after = after
        self._send = send
        self._counts = counts
        self._pending: list[bytes] = []
        self._drainer: asyncio.Task[None] | None = None  # a write the connection made wait
        self._reason: str | None = None  # set by finish(): ends once what waits is written
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.sent_at = time.monotonic()

    def push(self, data: bytes) -> None:
        """Write ``data``."""
        self.sent_at = time.monotonic()
        if self.done.done() or self._reason is not None:
            return
        if self._drainer is not None:
            if len(self._pending) >= MAX_BACKLOG:
                self.end("too_far_behind")  # it resumes where it was
            else:
                self._pending.append(data)
        else:
            self._write(data)

    def finish(self, reason: str) -> None:
        """End the stream once what waits is written (``reason``: as counted,
        :data:`api.streams.metrics.CLOSE_REASONS`)."""
        if self.done.done() or self._reason is not None:
            return
        self._reason = reason
        if self._drainer is None:
            self.end(reason)

    def _write(self, data: bytes) -> None:
        self._counts.wrote(data)
        try:
            waiting = self._send({"type": "http.response.body", "body": data, "more_body": True})
            steps = waiting.__await__()
            first = next(steps)
        except StopIteration:
            return  # taken at once
        except Exception:  # the client went away
            self.end("client_gone")
            return
        self._counts.waited += 1
        self._drainer = asyncio.ensure_future(self._drain(steps, first))

    async def _drain(self, steps: Any, first: Any) -> None:
        """The rest of a write the connection made wait, then what came meanwhile."""
        try:
            await _resume(steps, first)
            while self._pending and not self.done.done():
                data, self._pending = b"".join(self._pending), []
                self._counts.wrote(data)
                await self._send({"type": "http.response.body", "body": data, "more_body": True})
        except Exception:  # the client went away mid-send
            self.end("client_gone")
        finally:
            self._drainer = None
        if self._reason is not None:
            self.end(self._reason)

    def end(self, reason: str) -> None:
        """The stream is over (``reason``, counted once): its handler closes the response."""
        if not self.done.done():
            self._counts.closed[reason] += 1
            self.done.set_result(None)
        self._pending = []
        if self._drainer is not None and self._drainer is not asyncio.current_task():
            self._drainer.cancel()


@types.coroutine
def _resume(steps: Any, first: Any) -> Any:
    """Go on awaiting an awaitable whose first step was taken outside a task (``first`` is
    what that step yielded: the future it waits on), as ``await`` would have. A task only
    ever sends ``None`` in, so the steps are taken with ``next`` (granian's awaitables are
    plain iterators, without ``send``)."""
    yielded = first
    while True:
        try:
            yield yielded
        except BaseException as exc:  # cancelled: pass it in, if it takes it
            throw = getattr(steps, "throw", None)
            if throw is None:
                raise
            try:
                yielded = throw(exc)
            except StopIteration as stop:
                return stop.value
            continue
        try:
            yielded = next(steps)
        except StopIteration as stop:
            return stop.value


class Channel:
    """The open streams of one game, and its pump."""

    __slots__ = ("delayed", "dirty", "game_id", "kind", "pump", "subscribers")

    def __init__(self, game_id: UUID, kind: str = "games") -> None:
        self.game_id = game_id
        self.kind = kind  # "games", or "events": an event's stream (api.streams.events)
        self.subscribers: set[Subscriber] = set()
        self.dirty = False
        self.pump: asyncio.Task[None] | None = None
        self.delayed = False  # a delay in seconds, with a delayed viewer among its streams


class Hub:
    """Every open stream of this process, by game; the follower that wakes them."""

    def __init__(self, app: Any, *, poll: float = POLL_SECONDS) -> None:
        self.app = app
        self.gamelog = app.extensions["munchlog"]
        self.tickets = tickets_for(self.gamelog, app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"])
        self.channels: dict[UUID, Channel] = {}
        self.poll = poll
        self.pool = ThreadPoolExecutor(READERS, thread_name_prefix="munchlog-stream")
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._follower: threading.Thread | None = None
        self._notes: Any = None  # the follower's subscription (stopped by stop())
        self._pending: set[UUID] = set()  # games the follower woke, for the loop
        self._pending_lock = threading.Lock()
        self._scheduled = False
        self._ticker: asyncio.Task[None] | None = None
        self.followed = 0  # the last notification the follower saw
        self._behind_since: float | None = None  # since when the follower is behind the log
        self._dumps = app.json.dumps
        self.heartbeat = heartbeat_seconds()
        self.counts = StreamCounts()
        self.metrics = stream_metrics()

    # ------------------------------------------------------------------ life
    def start(self) -> None:
        """Start following the log (on the running loop)."""
        if self.loop is not None:
            return
        self.loop = asyncio.get_running_loop()
        head = self.followed = self.gamelog.store.max_notification_id()
        self._follower = threading.Thread(
            target=self._follow, args=(head,), name="munchlog-stream-follow", daemon=True
        )
        self._follower.start()
        self._ticker = self.loop.create_task(self._tick())

    def stop(self) -> None:
        self._stop.set()
        if self._notes is not None:
            self._notes.stop()
        if self._ticker is not None:
            self._ticker.cancel()
        for channel in self.channels.values():
            for sub in channel.subscribers:
                sub.finish("shutdown")
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self._follower is not None:
            self._follower.join(5)

    def _follow(self, head: int) -> None:
        """In a thread: wake the game of every new notification, until stopped; after a
        failure, follow again from the last one seen (the pumps read the store themselves, so
        nothing a stream sends depends on this seeing every notification)."""
        position = head
        while not self._stop.is_set():
            try:
                with self.gamelog.store.follow(position, interval=self.poll) as notes:
                    self._notes = notes
                    if self._stop.is_set():
                        break
                    for note in notes:
                        position = self.followed = note.id
                        if self._stop.is_set():
                            notes.stop()
                            break
                        self._wake_threadsafe(note.originator_id)
            except Exception:  # the store went away: try again in a while
                if self._stop.is_set():
                    return
                log.exception("stream follower: following again in 1 s")
                self._stop.wait(1.0)

    def _wake_threadsafe(self, game_id: UUID) -> None:
        """From the follower: wake the game on the loop. The games woken while the loop has
        not yet run the last wake-up join it (one callback however many events a poll
        brings: a game recording flat out does not wake the loop once per event)."""
        loop = self.loop
        if loop is None or game_id not in self.channels:
            return
        with self._pending_lock:
            self._pending.add(game_id)
            if self._scheduled:
                return
            self._scheduled = True
        loop.call_soon_threadsafe(self._wake_pending)

    def _wake_pending(self) -> None:
        with self._pending_lock:
            woken, self._pending = self._pending, set()
            self._scheduled = False
        for game_id in woken:
            self.wake(game_id)

    async def _tick(self) -> None:
        """Every :data:`DELAY_TICK` seconds (or half the heartbeat, if shorter): a heartbeat to
        each stream idle for :attr:`heartbeat` seconds, and a wake-up to the games delayed by
        time that a delayed viewer follows (their visible version moves with the clock, not
        with the log)."""
        while True:
            await asyncio.sleep(min(DELAY_TICK, self.heartbeat / 2))
            self.flush_metrics()
            with contextlib.suppress(Exception):  # the store away: the follower says so
                await self.measure_lag()
            idle = time.monotonic() - self.heartbeat
            for game_id, channel in list(self.channels.items()):
                for sub in channel.subscribers:
                    if sub.sent_at <= idle:
                        sub.push(HEARTBEAT)
                if channel.delayed:
                    self.wake(game_id)

    # ------------------------------------------------------------------ streams
    def subscribe(self, game_id: UUID, sub: Subscriber, delayed: bool, kind: str = "games") -> None:
        channel = self.channels.get(game_id)
        if channel is None:
            channel = self.channels[game_id] = Channel(game_id, kind)
        channel.subscribers.add(sub)
        channel.delayed = channel.delayed or (delayed and sub.viewer in DELAYED_VIEWERS)
        self.counts.opened[viewer_kind(sub.viewer)] += 1
        self.wake(game_id)

    def unsubscribe(self, game_id: UUID, sub: Subscriber) -> None:
        channel = self.channels.get(game_id)
        if channel is None:
            return
        channel.subscribers.discard(sub)
        if not channel.subscribers:
            del self.channels[game_id]
            if channel.pump is not None:
                channel.pump.cancel()

    def coalesce(self) -> float:
        """Seconds a pump that sent something waits before it looks again: at least
        :data:`COALESCE_SECONDS`, longer with many streams open, so that they are written
        about :data:`WRITES_PER_SECOND` times a second in all, at most every
        :data:`MAX_COALESCE_SECONDS` each (``bench/RESULTS.md``, "Live streams")."""
        return min(
            MAX_COALESCE_SECONDS, max(COALESCE_SECONDS, self.open_streams() / WRITES_PER_SECOND)
        )

    def open_streams(self) -> int:
        return sum(len(c.subscribers) for c in self.channels.values())

    async def measure_lag(self) -> None:
        """The follower's lag for the metrics: notifications of the log it has not seen yet,
        and for how long it has been behind (0 when it is at the head)."""
        assert self.loop is not None
        head = await self.loop.run_in_executor(self.pool, self.gamelog.store.max_notification_id)
        behind = max(0, head - self.followed)
        now = time.monotonic()
        if not behind:
            self._behind_since = None
        elif self._behind_since is None:
            self._behind_since = now
        since = self._behind_since
        self.metrics.follower(behind, 0.0 if since is None else now - since)

    def flush_metrics(self) -> None:
        """Add what was counted to the process's metrics (:mod:`api.streams.metrics`)."""
        self.metrics.flush(self.counts, self.open_streams())

    def wake(self, game_id: UUID) -> None:
        channel = self.channels.get(game_id)
        if channel is None:
            return
        channel.dirty = True
        if channel.pump is None:
            assert self.loop is not None
            channel.pump = self.loop.create_task(self._pump(channel))

    async def _pump(self, channel: Channel) -> None:
        loop = asyncio.get_running_loop()
        try:
            while channel.dirty and channel.subscribers:
                channel.dirty = False
                groups: dict[tuple[str, int], list[Subscriber]] = {}
                for sub in channel.subscribers:
                    groups.setdefault((sub.viewer, sub.after), []).append(sub)
                sent = False
                try:
                    read = self._read if channel.kind == "games" else self._read_event
                    chunks: dict[tuple[str, int], Chunk] = await loop.run_in_executor(
                        self.pool, read, channel.game_id, list(groups)
                    )
                except Exception as exc:  # damaged rows, storage away: end these streams
                    log.warning("streams of %s: %s", channel.game_id, exc)
                    for subs in groups.values():
                        for sub in subs:
                            sub.push(error_event(exc))
                            sub.finish("error")
                    continue
                self.counts.reads += 1
                for (viewer, after), subs in groups.items():
                    chunk = chunks[(viewer, after)]
                    if chunk.data:
                        sent = True
                        for sub in subs:
                            sub.after = chunk.last
                            sub.push(chunk.data)
                    if chunk.more:
                        channel.dirty = True
                if sent:
                    await asyncio.sleep(self.coalesce())
        finally:
            channel.pump = None
            if channel.dirty and channel.subscribers and not self._stop.is_set():
                self.wake(channel.game_id)

    def _read(self, game_id: UUID, wanted: list[tuple[str, int]]) -> dict[tuple[str, int], Chunk]:
        return next_chunks(self.gamelog, game_id, wanted, self._compact)

    def _read_event(
        self, event_id: UUID, wanted: list[tuple[str, int]]
    ) -> dict[tuple[str, int], Chunk]:
        return read_event(self.gamelog, event_id, wanted, self._compact)

    def _compact(self, item: Any) -> str:
        return str(self._dumps(item, separators=(",", ":")))

    # ------------------------------------------------------------------ who
    def authenticate(self, game_id: UUID, authorization: str | None, ticket: str | None) -> str:
        """The viewer of a stream (in a thread: it reads the game's tokens): by the
        ``Authorization`` header like every endpoint, else by a ticket, else a spectator."""
        access = self.gamelog.access(game_id)  # GameNotFoundError
        if authorization is None and ticket is not None:
            return self.tickets.redeem(ticket, game_id)
        organizer = self.app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"]
        return viewer_for(access, bearer_token(authorization), organizer, self.gamelog)

    def delayed_by_time(self, game_id: UUID) -> bool:
        delay = self.gamelog.delays.of(game_id)
        return bool(delay is not None and delay.seconds)


def refusal(app: Any, exc: BaseException) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """The status, headers and body of a stream refused before it starts: the app's own
    answer to ``exc`` (its error handlers, ``api.json_api.errors``), as every endpoint's."""
    with app.test_request_context():
        response = app.handle_user_exception(exc)
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.headers]
    return response.status_code, headers, response.get_data()


def error_event(exc: BaseException) -> bytes:
    """An SSE ``stream-error`` event with the API's error shape (a stream that cannot go on)."""
    code = getattr(exc, "code", "storage/unavailable")
    message = getattr(exc, "message", None) or "the game's events cannot be read now"
    body = json.dumps(error_body(code, message))
    return f"event: stream-error\ndata: {body}\n\n".encode()


class StreamApp:
    """The ASGI app of the stream process (see the module docstring)."""

    def __init__(self, app: Any = None, *, poll: float = POLL_SECONDS) -> None:
        if app is None:
            from api.app import create_app

            app = create_app()
        self.hub = Hub(app, poll=poll)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        self.hub.start()
        path = scope.get("path", "")
        parts = path.strip("/").split("/")
        if path == "/healthz" and scope["method"] in ("GET", "HEAD"):
            await _json(send, 200, {"status": "ok", "streams": self.hub.open_streams()})
        elif path == "/metrics" and scope["method"] in ("GET", "HEAD"):
            await self._metrics(scope, send)
        elif len(parts) == 4 and parts[0] == "api" and parts[1] in KINDS and parts[3] == "stream":
            if scope["method"] not in ("GET", "HEAD"):
                await _error(send, 405, "request/method_not_allowed", "only GET streams")
            else:
                await self._stream(scope, receive, send, parts[2], parts[1])
        else:
            await _error(send, 404, "request/not_found", "the stream process serves only streams")

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.hub.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.hub.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _stream(
        self, scope: Scope, receive: Receive, send: Send, raw_id: str, kind: str = "games"
    ) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        try:
            game_id = UUID(raw_id)
        except ValueError:
            what = "game" if kind == "games" else "event"
            await _error(send, 404, f"{what}/not_found", f"no {what} {raw_id}")
            return
        after = _after(headers.get("last-event-id"), query.get("after"))
        if after is None:
            await _error(
                send,
                400,
                "request/invalid_query",
                "after (or Last-Event-ID) must be a version >= 0",
            )
            return
        loop = asyncio.get_running_loop()
        ticket = (query.get("ticket") or [None])[0]
        try:
            who = self._who if kind == "games" else self._who_event
            viewer, delayed = await loop.run_in_executor(
                self.hub.pool, who, game_id, headers.get("authorization"), ticket
            )
        except Exception as exc:
            await _answer(send, *refusal(self.hub.app, exc))
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-store"),
                    (b"x-accel-buffering", b"no"),
                    (b"access-control-allow-origin", b"*"),
                    (b"x-content-type-options", b"nosniff"),
                ],
            }
        )
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return
        try:
            await send({"type": "http.response.body", "body": OPENING, "more_body": True})
        except Exception:  # the client went away already
            return
        self.hub.counts.wrote(OPENING)
        sub = Subscriber(viewer, after, send, self.hub.counts)
        self.hub.subscribe(game_id, sub, delayed, kind)
        watcher = asyncio.ensure_future(_until_disconnect(receive, sub))
        try:
            await sub.done
        finally:
            watcher.cancel()
            self.hub.unsubscribe(game_id, sub)
            sub.end("shutdown")  # cancelled with the process (else it has ended already)
        with contextlib.suppress(Exception):
            await send({"type": "http.response.body", "body": b""})

    async def _metrics(self, scope: Scope, send: Send) -> None:
        """``GET /metrics``: this process's (in multiprocess mode: every process's) metrics,
        what it counted flushed first (:mod:`api.streams.metrics`)."""
        self.hub.flush_metrics()
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        app = self.hub.app

        def render() -> tuple[bytes, str]:
            with app.app_context():
                return exposition(current_lag, headers.get("accept"))

        body, content_type = await asyncio.get_running_loop().run_in_executor(self.hub.pool, render)
        out = [(b"content-type", content_type.encode()), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 200, "headers": out})
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body}
        )

    def _who(self, game_id: UUID, authorization: str | None, ticket: str | None) -> Any:
        """Who is asking, and whether the game is delayed by time; the game's stored chain
        verified now (once per process), before the stream starts, rather than when its
        first events are due (a long game's chain takes a while)."""
        viewer = self.hub.authenticate(game_id, authorization, ticket)
        prepare(self.hub.gamelog, game_id)
        return viewer, self.hub.delayed_by_time(game_id)

    def _who_event(self, event_id: UUID, authorization: str | None, ticket: str | None) -> Any:
        """Who is asking for an event's stream (``api.streams.events``); never delayed."""
        hub = self.hub
        organizer = hub.app.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"]
        args = (hub.gamelog, hub.tickets, organizer, event_id, authorization, ticket)
        return event_viewer(*args), False


async def _until_disconnect(receive: Receive, sub: Subscriber) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            sub.end("client_gone")
            return


def _after(last_event_id: str | None, after: list[str] | None) -> int | None:
    """Where a stream starts: ``Last-Event-ID`` (a resuming ``EventSource``), else ``?after=``,
    else 0 (the first event); ``None`` for anything but an ASCII version number
    (:func:`~service.streams.stream_position`)."""
    if last_event_id not in (None, ""):
        return stream_position(last_event_id)
    return stream_position(after[-1]) if after else 0


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]], data: bytes) -> None:
    """A whole response (not a stream), open to pages of any origin, never cached."""
    headers = [h for h in headers if h[0] not in (b"access-control-allow-origin", b"cache-control")]
    headers += [(b"access-control-allow-origin", b"*"), (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


async def _json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data))]
    await _answer(send, status, headers, data)


async def _error(send: Send, status: int, code: str, message: str) -> None:
    await _json(send, status, error_body(code, message))


def stream_app() -> StreamApp:
    """The factory granian loads in the stream process (``munchlog serve`` starts it)."""
    from api.ops.logs import configure_logging
    from api.ops.processes import die_with_parent

    die_with_parent()  # the stream process's master dies: so does this worker
    configure_logging()
    app = StreamApp()
    from api.ops.serving import SECRET_ENV

    for name in SECRET_ENV:
        os.environ.pop(name, None)
    return app


__all__ = ["StreamApp", "stream_app"]


#: Open streams one stream process takes at once (granian's ``backpressure``).
MAX_STREAMS = 10_000


def serve(host: str, port: int) -> None:
    """Serve :func:`stream_app` on ``host:port`` under granian's ASGI interface, one worker
    (one event loop holds every stream), until SIGTERM/SIGINT."""
    from granian import Granian
    from granian.constants import Interfaces

    from api.ops.logs import granian_log_config

    Granian(
        "api.streams.process:stream_app",
        address=host,
        port=port,
        interface=Interfaces.ASGI,
        factory=True,
        workers=1,
        websockets=False,
        backlog=4096,
        backpressure=MAX_STREAMS,
        workers_kill_timeout=5,
        log_access=False,
        log_dictconfig=granian_log_config(),
    ).serve()


def main(argv: list[str] | None = None) -> int:
    """``python -m api.streams.process [--host H] [--port P]``: the stream process alone (``munchlog
    serve`` starts it for you)."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m api.streams.process", description=main.__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8001)
    a = p.parse_args(argv)
    try:
        serve(a.host, a.port)
        code = 0
    except SystemExit as exc:  # granian's master: a worker that died
        code = exc.code if isinstance(exc.code, int) else 1
    # Its worker is gone, nothing is left to do: skip the interpreter's teardown of every
    # module imported (about 0.9 s measured on a loaded machine, which a restart or a port
    # waits for: docs/operations.md, "Processes").
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    raise SystemExit(main())
