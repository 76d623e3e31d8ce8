"""The stream process's ASGI app driven in this process (no server, no port): one event loop
in a thread, as granian would run it, and streams opened on it that the tests read as they
grow. For the same over real HTTP, tests/live.py's ``munchlog serve``."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask

from api.streams.process import StreamApp


def parse_sse(text: str) -> list[dict[str, Any]]:
    """The events of an SSE text: ``{"id", "event", "data"}`` each (comments left out)."""
    events = []
    for block in text.split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                fields["data"] = fields.get("data", "") + value
            elif name in ("id", "event"):
                fields[name] = value
        if "data" in fields:
            events.append(fields)
    return events


class Stream:
    """One open stream: its status, headers and everything sent so far."""

    def __init__(self, server: AsgiServer) -> None:
        self.server = server
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.text = ""
        self.ended = False
        self.writes = 0  # body messages the app sent
        self.waiting = 0  # writes held by hold(), not yet taken
        self._gone: asyncio.Event | None = None
        self._held: asyncio.Event | None = None
        self._lock = threading.Condition()

    # what the app sends
    async def send(self, message: dict[str, Any]) -> None:
        held = self._held
        if held is not None and message["type"] != "http.response.start":
            with self._lock:
                self.waiting += 1
                self._lock.notify_all()
            await held.wait()  # a client that does not read: the write waits
            with self._lock:
                self.waiting -= 1
        with self._lock:
            self.writes += message["type"] != "http.response.start"
            if message["type"] == "http.response.start":
                self.status = message["status"]
                self.headers = {k.decode(): v.decode() for k, v in message["headers"]}
            else:
                self.text += message.get("body", b"").decode()
                if not message.get("more_body"):
                    self.ended = True
            self._lock.notify_all()

    async def receive(self) -> dict[str, Any]:
        assert self._gone is not None
        await self._gone.wait()
        return {"type": "http.disconnect"}

    def wait(self, until: Callable[[Stream], bool], timeout: float = 10.0) -> Stream:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not until(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"stream: timed out; got {self.text[-400:]!r}")
                self._lock.wait(left)
        return self

    def events(self) -> list[dict[str, Any]]:
        return parse_sse(self.text)

    def items(self) -> list[dict[str, Any]]:
        return [json.loads(e["data"]) for e in self.events() if "event" not in e]

    def ids(self) -> list[int]:
        return [int(e["id"]) for e in self.events() if "id" in e]

    def until_version(self, version: int, timeout: float = 10.0) -> Stream:
        return self.wait(lambda s: bool(s.ids()) and s.ids()[-1] >= version, timeout)

    def hold(self) -> None:
        """The client stops reading: every write from now on waits until :meth:`release`."""
        self._held = asyncio.Event()

    def release(self) -> None:
        """The client reads again: what waits is taken."""
        held, self._held = self._held, None
        if held is not None:
            self.server.loop.call_soon_threadsafe(held.set)

    def close(self) -> None:
        """The client goes away."""
        if self._gone is not None:
            self.server.loop.call_soon_threadsafe(self._gone.set)
        self.wait(lambda s: s.ended or s.status != 200, 5)


class AsgiServer:
    """A :class:`~api.streams.process.StreamApp` over ``app`` on its own event loop thread."""

    def __init__(self, app: Flask, **options: Any) -> None:
        self.app = StreamApp(app, **options)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.streams: list[Stream] = []

    def open(
        self, game_id: Any, *, token: str | None = None, query: str = "", last_id: Any = None
    ) -> Stream:
        headers = []
        if token is not None:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        if last_id is not None:
            headers.append((b"last-event-id", str(last_id).encode()))
        return self.request(f"/api/games/{game_id}/stream", headers=headers, query=query)

    def request(
        self, path: str, *, method: str = "GET", headers: Any = (), query: str = ""
    ) -> Stream:
        stream = Stream(self)
        scope = {
            "type": "http",
            "method": method,
            "path": path,
            "query_string": query.encode(),
            "headers": list(headers),
        }

        async def run() -> None:
            stream._gone = asyncio.Event()
            try:
                await self.app(scope, stream.receive, stream.send)
            except BaseException as exc:  # a bug in the app: the test says so
                stream.text += f"\n<<app raised {exc!r}>>"
                stream.status = stream.status or 500
                raise
            with stream._lock:
                stream.ended = True
                stream._lock.notify_all()

        asyncio.run_coroutine_threadsafe(run(), self.loop)
        stream.wait(lambda s: s.status is not None)
        self.streams.append(stream)
        return stream

    def close(self) -> None:
        for stream in self.streams:
            if not stream.ended:
                stream.close()

        async def shutdown() -> None:
            ticker = self.app.hub._ticker
            self.app.hub.stop()
            if ticker is not None:
                await asyncio.gather(ticker, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
