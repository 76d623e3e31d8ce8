"""venue_drop: issue #41's acceptance scenario, a venue publishing to a public server while its
link drops.

Two real ``munchlog serve`` processes on this machine: the **venue** on SQLite and the
**public** server on PostgreSQL (a schema of its own, dropped after), and ``munchlog publish``
(a third process) beside the venue, talking to the public server through a small TCP proxy
(threads, here) that can DROP the link: the listening socket closed (new connections refused)
and every open connection cut.

A whole 9-player classic event (``munchkin-deluxe``, tables of 3, ``--rounds`` Swiss rounds) is
run on the venue by HTTP: at every table the players record a live game through their seat
tokens (each command the demo's policy picks, read as the event's judge), ``--pace`` seconds
apart; round 1's live games are cut short by concessions after ``--round-actions`` commands. In
round 2 the link is cut for ``--drop-seconds`` while the three tables keep recording; just
before it returns every table of round 2 is finished (concessions), so the venue's records are
a fixed target. Then:

* **catch-up**: seconds from the link's return until the public server holds every venue
  record (the mirror's ``records`` equals the venue's game and event records; goal <= 10 s), and
  records a second;
* **the public side's CPU per mirrored record**: utime+stime (``/proc/<pid>/stat``) of the
  public server's processes (``serve``, its workers, its stream process) before the return
  and once caught up, divided by the records caught up (it includes the 10 Hz poll of the
  mirror's status that measures the catch-up);
* **streams**: the public spectator's stream of a round-2 game (opened before the drop) equals
  the venue's, event for event;
* **verify**: ``munchlog verify`` of the game's spectator export and of the event's spectator
  export, public and venue, print the same lines.

Then round 3 is played with the link up, the event finishes, and the public side's standings
must equal the venue's.

Usage: ``PYTHONPATH=. .venv/bin/python bench/venue_drop.py [--drop-seconds 60] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, redirect_stdout, suppress
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import evolve, initial_state
from domain.family import family_named, load_families
from tests.live import free_port, munchlog_serve, pg_schema
from tests.streams import parse_sse

PG_URL = os.environ.get("MUNCHLOG_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
VENUE_ORGANIZER = "venue-organizer-token"
PUBLIC_ORGANIZER = "public-organizer-token"
RULESET = "munchkin-deluxe"
PLAYERS = [f"player{i}" for i in range(1, 10)]
#: A stream's heartbeat every second (default 15 s): the last event of a stream is read at once.
BEAT = {"MUNCHLOG_STREAM_HEARTBEAT": "1"}


# ---------------------------------------------------------------------------- the link


class Proxy:
    """A TCP proxy from ``port`` to ``target`` that can drop the link (:meth:`cut`: the
    listener closed, so connections are refused, and every open one closed) and bring it back
    (:meth:`restore`)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.up = threading.Event()
        self.closed = False
        self.lock = threading.Lock()
        self.conns: set[socket.socket] = set()
        self.listener: socket.socket | None = None
        self.restore()
        threading.Thread(target=self._accept, daemon=True).start()

    def _listen(self) -> socket.socket:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        sock.listen(64)
        sock.settimeout(0.2)
        return sock

    def restore(self) -> None:
        with self.lock:
            self.listener = self._listen()
            self.up.set()

    def cut(self) -> None:
        with self.lock:
            self.up.clear()
            if self.listener is not None:
                self.listener.close()
                self.listener = None
            for conn in list(self.conns):
                with suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
                conn.close()
            self.conns.clear()

    def close(self) -> None:
        self.closed = True
        self.cut()

    def _accept(self) -> None:
        while not self.closed:
            if not self.up.wait(0.2):
                continue
            listener = self.listener
            if listener is None:
                continue
            try:
                client, _ = listener.accept()
            except (TimeoutError, OSError):
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                if not self.up.is_set():
                    client.close()
                    server.close()
                    continue
                self.conns |= {client, server}
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)


# ---------------------------------------------------------------------------- processes


@contextmanager
def public_db() -> Iterator[str]:
    """A PostgreSQL schema of this run's own, dropped after: its database URL."""
    with pg_schema(PG_URL, "venue_drop") as schema:
        yield f"{PG_URL}?schema={schema}"


def tree(pid: int) -> list[int]:
    """``pid`` and every process under it (``/proc/<pid>/task/*/children``)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            with suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return found


def cpu_seconds(pid: int) -> float:
    """utime + stime of ``pid`` and every process under it, in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for each in tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / tick


# ---------------------------------------------------------------------------- HTTP


class Server:
    def __init__(self, base: str, organizer: str) -> None:
        self.base = base
        self.http = requests.Session()
        self.organizer = organizer

    def call(
        self, method: str, path: str, token: str | None = None, body: Any = None, want: int = 200
    ) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = self.http.request(method, self.base + path, json=body, headers=headers, timeout=60)
        if answer.status_code != want:
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text[:300]}")
        return answer.json() if "json" in answer.headers.get("Content-Type", "") else answer.text


class Table(threading.Thread):
    """One table's live game, recorded by its players through their seat tokens: each command
    the demo's policy picks (read as the event's judge), ``pace`` seconds apart, until
    ``stop`` is set, the game is over or ``most`` commands were sent."""

    def __init__(
        self, venue: Server, game_id: str, seats: dict[str, str], judge: str, seed: int, pace: float
    ) -> None:
        super().__init__(daemon=True)
        self.venue, self.game_id, self.seats, self.judge = venue, game_id, seats, judge
        self.rng = random.Random(seed)
        self.pace = pace
        self.stop = threading.Event()
        self.most: int | None = None
        self.sent = 0
        self.error: str | None = None
        self.state = initial_state()
        self.version = 0

    def read(self) -> None:
        while True:
            path = f"/api/games/{self.game_id}/events?after={self.version}&limit=1000"
            page = self.venue.call("GET", path, self.judge)
            for view in page["events"]:
                from api.cli.demo import domain_event_from_view

                self.state = evolve(self.state, domain_event_from_view(view))
                self.version = view["version"]
            if page["next_after"] is None:
                return

    def run(self) -> None:
        family = family_named(RULESET)
        try:
            while not self.stop.is_set() and (self.most is None or self.sent < self.most):
                self.read()
                if self.state["status"] == "finished":
                    return
                command = family.demo_next(self.state, self.rng)
                if command is None:
                    return
                body = {"expected_version": self.version, "actions": [command]}
                path = f"/api/games/{self.game_id}/actions"
                self.venue.call("POST", path, self.seats[command["seat"]], body, want=201)
                self.sent += 1
                self.stop.wait(self.pace)
        except Exception as exc:
            self.error = str(exc)

    def finish(self) -> None:
        """Every seat but the first still in concedes, in seat order (the table's result)."""
        self.read()
        for seat in list(self.seats)[1:]:
            if self.state["status"] == "finished":
                return
            body = {"actions": [{"type": "concede", "seat": seat}]}
            path = f"/api/games/{self.game_id}/actions"
            self.venue.call("POST", path, self.seats[seat], body, want=201)
            self.read()


class SseCollector(threading.Thread):
    """A spectator's stream of a game (no token), every event kept, until the one with id
    ``target`` (set later) has come."""

    def __init__(self, base: str, game_id: str) -> None:
        super().__init__(daemon=True)
        self.url = f"{base}/api/games/{game_id}/stream"
        self.text = ""
        self.target: int | None = None
        self.done = threading.Event()
        self.error: str | None = None

    def events(self) -> list[dict[str, Any]]:
        return parse_sse(self.text)

    def _complete(self) -> bool:
        if self.target is None:
            return False
        head = f"id: {self.target}\n"
        return head in self.text and "\n\n" in self.text.split(head, 1)[1]

    def run(self) -> None:
        try:
            with requests.get(self.url, stream=True, timeout=(5, 300)) as response:
                if response.status_code != 200:
                    self.error = f"{response.status_code} {response.text[:200]}"
                    return
                for chunk in response.iter_content(chunk_size=None, decode_unicode=True):
                    self.text += chunk
                    if self._complete():
                        return
        except Exception as exc:
            self.error = str(exc)
        finally:
            self.done.set()


def verify_lines(obj: Any, folder: Path, name: str) -> tuple[int, list[str]]:
    """``munchlog verify <file>`` of ``obj`` (its own ``main``, in this process): the exit
    code and the lines it printed."""
    from api.cli.main import main as munchlog

    path = folder / f"{name}.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    printed = io.StringIO()
    with redirect_stdout(printed):
        code = munchlog(["verify", str(path)])
    return code, printed.getvalue().splitlines()


# ---------------------------------------------------------------------------- the scenario


def venue_records(db: Path) -> int:
    """The venue's game and event records (what the mirror's ``records`` must reach)."""
    from adapters.mirror_feed import EVENT_TOPICS
    from adapters.record_mapper import GAME_TOPICS

    topics = [*GAME_TOPICS, *EVENT_TOPICS]
    import sqlite3

    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        marks = ",".join("?" * len(topics))
        row = conn.execute(
            f"SELECT COUNT(*) FROM stored_events WHERE topic IN ({marks})", topics
        ).fetchone()
    return int(row[0])


def run(args: argparse.Namespace) -> dict[str, Any]:
    load_families()
    figures: dict[str, Any] = {"drop_seconds": args.drop_seconds}
    with ExitStack() as stack:
        t0 = time.monotonic()
        phases: dict[str, float] = {}

        def phase(name: str) -> None:
            phases[name] = round(time.monotonic() - t0, 2)

        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="venue-drop-")))
        (tmp / "venue").mkdir()
        (tmp / "public").mkdir()
        db = tmp / "venue" / "venue.sqlite"
        pg = stack.enter_context(public_db())
        venue_port, venue_env = stack.enter_context(
            munchlog_serve(
                tmp / "venue", VENUE_ORGANIZER, extra_env={"MUNCHLOG_DATABASE_URL": str(db), **BEAT}
            )
        )
        public_port, public_env = stack.enter_context(
            munchlog_serve(
                tmp / "public", PUBLIC_ORGANIZER, extra_env={"MUNCHLOG_DATABASE_URL": pg, **BEAT}
            )
        )
        venue = Server(f"http://127.0.0.1:{venue_port}", VENUE_ORGANIZER)
        public = Server(f"http://127.0.0.1:{public_port}", PUBLIC_ORGANIZER)
        proxy = Proxy(public_port)
        stack.callback(proxy.close)
        phase("servers_up")
        mirror = public.call("POST", "/api/mirrors", PUBLIC_ORGANIZER, want=201)
        out = open(tmp / "publish.log", "w")  # noqa: SIM115
        stack.callback(out.close)
        publisher = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "api.cli.main",
                "publish",
                "--db",
                str(db),
                "--to",
                f"http://127.0.0.1:{proxy.port}",
                "--token",
                mirror["token"],
            ],
            env={**venue_env, "PYTHONUNBUFFERED": "1"},
            cwd=tmp / "venue",
            stdout=out,
            stderr=subprocess.STDOUT,
        )

        def stop_publisher() -> None:
            publisher.terminate()
            publisher.wait(30)

        stack.callback(stop_publisher)
        status_path = f"/api/mirrors/{mirror['mirror_id']}"

        def mirrored() -> int:
            return int(public.call("GET", status_path, PUBLIC_ORGANIZER)["records"])

        # the event, on the venue, by HTTP
        spec = {
            "name": "Venue drop", "ruleset": RULESET, "format": "casual",
            "round_minutes": 50, "dealing": "table", "rounds": args.rounds, "table_size": 3,
        }  # fmt: skip
        event = venue.call("POST", "/api/events", VENUE_ORGANIZER, spec, want=201)
        eid, judge = event["event_id"], event["judge_token"]
        tokens = {
            p: venue.call(
                "POST", f"/api/events/{eid}/players", VENUE_ORGANIZER, {"player": p}, want=201
            )["token"]
            for p in PLAYERS
        }

        def tables_of(number: int) -> list[Table]:
            paired = venue.call("POST", f"/api/events/{eid}/rounds", VENUE_ORGANIZER, want=201)
            made = []
            for pairing in paired["pairings"]:
                seats: dict[str, str] = {}
                game_id = ""
                for seat, player in pairing["seats"].items():
                    mine = venue.call(
                        "GET", f"/api/events/{eid}/rounds/{number}/my-game", tokens[player]
                    )
                    seats[seat], game_id = mine["token"], mine["game_id"]
                seed = number * 100 + int(pairing["table"])
                made.append(Table(venue, game_id, seats, judge, seed, args.pace))
            return made

        # round 1: live games, cut short by concessions after --round-actions commands
        started = time.monotonic()
        for table in (round_one := tables_of(1)):
            table.most = args.round_actions
            table.start()
        for table in round_one:
            table.join()
            table.finish()
        phase("round_1_played")
        # round 2: live; the link dropped while the tables record
        round_two = tables_of(2)
        watched = round_two[0].game_id
        streams = {"venue": SseCollector(venue.base, watched)}
        streams["public"] = SseCollector(public.base, watched)
        for table in round_two:
            table.start()
        time.sleep(min(2.0, args.drop_seconds / 2))  # some records published live first
        until = time.monotonic() + 30
        while mirrored() < venue_records(db) and time.monotonic() < until:
            time.sleep(0.1)  # the public side holds the watched game (its stream is no 404)
        for collector in streams.values():
            collector.start()
        figures["records_before_drop"] = mirrored()
        phase("link_cut")
        proxy.cut()
        cut_at = time.monotonic()
        time.sleep(args.drop_seconds)
        for table in round_two:
            table.stop.set()
        for table in round_two:
            table.join()
            table.finish()
        figures["table_errors"] = [t.error for t in round_one + round_two if t.error]
        figures["commands_during_drop"] = sum(t.sent for t in round_two)
        target = venue_records(db)
        held = mirrored()
        figures["records_to_catch_up"] = target - held
        figures["link_down_seconds"] = round(time.monotonic() - cut_at, 2)
        public_pid = public_env.process.pid
        cpu_before = cpu_seconds(public_pid)
        proxy.restore()
        back_at = time.monotonic()
        first_batch: float | None = None
        while (now_held := mirrored()) < target:
            if first_batch is None and now_held > held:
                first_batch = time.monotonic() - back_at
            if time.monotonic() - back_at > 300:
                raise RuntimeError(f"not caught up in 300 s: {now_held} of {target}")
            time.sleep(0.1)
        caught_up = time.monotonic() - back_at
        # the publisher tries again every second while the link is down: the first batch
        # stored after the return, seen by the 10 Hz poll (None: all in one poll's time)
        figures["first_batch_seconds"] = None if first_batch is None else round(first_batch, 2)
        cpu_used = cpu_seconds(public_pid) - cpu_before
        records = figures["records_to_catch_up"]
        figures["catch_up_seconds"] = round(caught_up, 2)
        figures["catch_up_records_per_second"] = round(records / caught_up, 1)
        figures["public_cpu_seconds"] = round(cpu_used, 3)
        figures["public_cpu_ms_per_record"] = round(1000 * cpu_used / records, 3)
        figures["catch_up_goal_met"] = caught_up <= 10.0
        phase("caught_up")
        # the watched game's streams, event for event
        final = int(venue.call("GET", f"/api/games/{watched}/state")["version"])
        for collector in streams.values():
            collector.target = final
        for collector in streams.values():
            collector.done.wait(120)
        mine, theirs = streams["venue"].events(), streams["public"].events()
        figures["stream_events"] = {"venue": len(mine), "public": len(theirs), "version": final}
        figures["stream_errors"] = [c.error for c in streams.values() if c.error]
        figures["streams_equal"] = bool(mine) and mine == theirs
        phase("streams_compared")
        # the game's and the event's spectator exports, verified on both sides
        verdicts: dict[str, Any] = {}
        for name, path in (
            ("game", f"/api/games/{watched}/export"),
            ("event", f"/api/events/{eid}/export"),
        ):
            here, there = venue.call("GET", path), public.call("GET", path)
            here.pop("exported_at", None)
            there.pop("exported_at", None)
            a = verify_lines(here, tmp, f"venue-{name}")
            b = verify_lines(there, tmp, f"public-{name}")
            verdicts[name] = {
                "exports_equal": here == there,
                "venue_exit": a[0],
                "public_exit": b[0],
                "same_result": a == b,
                "last_line": a[1][-1] if a[1] else "",
            }
        figures["verify_mid_event"] = verdicts
        # the copy's whole chain, checked by the public server (its organizer) as by the venue's
        checked = [
            venue.call("GET", f"/api/games/{watched}/verify", judge)["ok"],
            public.call("GET", f"/api/games/{watched}/verify", PUBLIC_ORGANIZER)["ok"],
        ]
        figures["game_chain_verified"] = {"venue_judge": checked[0], "public": checked[1]}
        phase("exports_verified")
        # round 3 (and any later) with the link up: the event finishes on both sides
        for number in range(3, args.rounds + 1):
            for table in tables_of(number):
                table.most = args.round_actions
                table.start()
                table.join()
                table.finish()
        target = venue_records(db)
        until = time.monotonic() + 60
        while mirrored() < target and time.monotonic() < until:
            time.sleep(0.1)
        figures["records_in_all"] = target
        figures["mirrored_in_all"] = mirrored()
        shown = [s.call("GET", f"/api/events/{eid}") for s in (venue, public)]
        figures["event_state"] = [shown[0]["state"], shown[1]["state"]]
        standings = [s.call("GET", f"/api/events/{eid}/standings") for s in (venue, public)]
        figures["standings_equal"] = standings[0] == standings[1]
        here = venue.call("GET", f"/api/events/{eid}/export")
        there = public.call("GET", f"/api/events/{eid}/export")
        here.pop("exported_at", None)
        there.pop("exported_at", None)
        a, b = verify_lines(here, tmp, "venue-final"), verify_lines(there, tmp, "public-final")
        figures["verify_final_event"] = {
            "exports_equal": here == there,
            "venue_exit": a[0],
            "public_exit": b[0],
            "same_result": a == b,
            "last_line": a[1][-1] if a[1] else "",
        }
        figures["whole_run_seconds"] = round(time.monotonic() - started, 1)
        phase("done")
        figures["phases"] = phases
        out.flush()
        lines = (tmp / "publish.log").read_text().splitlines()
        figures["publish_lines"] = [
            line for line in lines if "link is" in line or "catching up" in line
        ][:6]
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drop-seconds", type=float, default=60.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pace", type=float, default=0.2, help="seconds between two commands")
    parser.add_argument("--round-actions", type=int, default=30)
    parser.add_argument("--json", help="write the figures to this file too")
    args = parser.parse_args()
    figures = run(args)
    for key, value in figures.items():
        print(f"{key}: {json.dumps(value)}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    ok = (
        figures["catch_up_goal_met"]
        and figures["streams_equal"]
        and all(v["same_result"] for v in figures["verify_mid_event"].values())
        and figures["verify_final_event"]["same_result"]
        and figures["standings_equal"]
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
