"""The long game of ``bench/domain_bench.py`` and ``bench/replay_bench.py``: one legal strict game
of the sample catalog's encoded cards, kept going for thousands of events.

Every card is checked (issue #13; docs/cards.md): activations pay their card's exact cost, each
resolution records the card's effects in order, and the engine's triggers go on the stack as in
any game. A Hero's ability costs a zap, so it is used once a turn: the game gets long through
many turns, not through looping one ability, which needs decks larger than a prime deck, so the
game is ``casual`` (docs/rules.md A.6: any deck size), ``deck`` cards a seat:

* Heroes: two Wandering Bards (zap, pay 1 gold: take 2 gold), whose abilities take no card from
  the deck, so a seat's deck lasts about one turn a card;
* each deck holds ten Piggy Banks (Loot, rank 1: zap, collect 1) and a Location (A: Toll Bridge,
  a reckoning trigger, take 1 gold; B: Tavern, zap, take 1 gold); the rest are harmless fillers
  (Monsters to attack with, Allies, Blood Pact, ...).

The fewer cards a game holds, the less a turn's warmup and the fold's copy of the card table cost,
so the decks are no larger than the length needs (the Gnome Thief would take two cards a turn).
The policy (:func:`choose`) never deals damage, so the game ends when a deck runs out (a draw from
an empty deck eliminates, A.13). In order of preference: the controller of the
resolving ability records its card's next effect (``legal_commands`` offers exactly that) or
resolves it; any seat activates an ability ``legal_commands`` offers; the active player plays a
Piggy Bank or a Location, or draws one; otherwise a random harmless legal command
(:func:`peaceful`: attacks only when the defender can run away for free, and then it does).
"""

from __future__ import annotations

import random
from typing import Any

from domain import find_ruleset
from domain.family import load_families

load_families()  # the kernel imports no family: register the installed ones, as the app does

RS = find_ruleset("munchkin-ccg")
SEATS = ("A", "B")
HARMFUL = {"concede", "damage", "allocate", "face", "cancel"}
HEROES = {"A": "Sample Wandering Bard", "B": "Sample Wandering Bard"}
#: What makes the events: cards with activated or triggered abilities, played early.
ENGINE = {
    "A": ["Sample Piggy Bank"] * 10 + ["Sample Toll Bridge"],
    "B": ["Sample Piggy Bank"] * 10 + ["Sample Tavern"],
}
WANTED = {"Sample Piggy Bank", "Sample Toll Bridge", "Sample Tavern"}
FILLER = [
    "Sample Plant Pot",
    "Sample Loyal Squire",
    "Sample Grave Moth",
    "Sample Lucky Charm",
    "Sample War Drummer",
    "Sample Blood Pact",
    "Sample Trained Weasel",
    "Sample Pointy Stick",
]
#: A seat's deck size that takes the game past 10,000 events (``bench/domain_bench.py``).
DEFAULT_DECK = 115
#: What the resolving ability's controller may record: its card's effects and ``resolve``.
NOT_AN_EFFECT = {"concede", "activate", "play", "pass"}

Command = dict[str, Any]
State = dict[str, Any]


def decks(size: int) -> dict[str, list[str]]:
    """Each seat's deck, by card name: its engine cards, then fillers up to ``size``."""
    if size < len(ENGINE["A"]) + 6:
        raise ValueError(f"a long-game deck needs at least {len(ENGINE['A']) + 6} cards")
    return {
        seat: engine + [FILLER[i % len(FILLER)] for i in range(size - len(engine))]
        for seat, engine in ENGINE.items()
    }


def api_spec(size: int) -> dict[str, Any]:
    """The game as a ``POST /api/games`` body (cards by name, resolved against the catalog)."""
    seats = []
    for seat, names in decks(size).items():
        counts: dict[str, int] = {}
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        seats.append(
            {
                "seat": seat,
                "player": f"long {seat}",
                "hero": {"name": HEROES[seat]},
                "deck": [{"name": n, "count": k} for n, k in counts.items()],
            }
        )
    return {
        "ruleset": "munchkin-ccg",
        "mode": "strict",
        "format": "casual",
        "seats": seats,
        "labels": {"event": "long game bench"},
    }


def peaceful(state: State) -> list[tuple[str, Command]]:
    """``(seat, command)`` for the legal commands that cannot damage a Hero; when every choice is
    harmful, every legal command but conceding."""
    legal = [(seat, c) for seat in state["seats"] for c in RS.legal_commands(state, seat)]
    out = []
    for seat, c in legal:
        kind = c["type"]
        if kind in HARMFUL or (kind == "play" and (c.get("targets") or c.get("give_blood"))):
            continue  # Curses and damage Mischief; Give Blood damages one's own Hero
        defender = "B" if seat == "A" else "A"
        if kind == "attack" and state["seats"][defender]["marker"] != "run_away":
            continue
        if kind == "run_away" and state["seats"][seat]["marker"] != "run_away":
            continue
        out.append((seat, c))
    return out or [(seat, c) for seat, c in legal if c["type"] != "concede"]


def _harmless_activation(state: State, command: Command) -> bool:
    from domain.ccg.cards import abilities_of

    card = state["cards"][command["card"]]
    abilities = abilities_of(card["def"]) or []
    index = command.get("ability")
    ability = abilities[index] if index is not None and index < len(abilities) else None
    return ability is not None and not any(e["op"] == "damage" for e in ability["effects"])


def choose(state: State, rng: random.Random) -> tuple[str, Command]:
    """The long game's next ``(seat, command)`` (see the module docstring); every command is one
    ``legal_commands`` offers, so it is legal in strict mode."""
    legal = [(seat, c) for seat in SEATS for c in RS.legal_commands(state, seat)]
    stack = state["stack"]
    if stack:
        controller = stack[-1]["player"]
        effects = [(s, c) for s, c in legal if s == controller and c["type"] not in NOT_AN_EFFECT]
        if effects:
            return effects[0]
    for seat, c in legal:
        if c["type"] == "activate" and _harmless_activation(state, c):
            return seat, c
    cards = state["cards"]
    for kind in ("play", "draw"):
        wanted = [
            (seat, c)
            for seat, c in legal
            if c["type"] == kind and cards[c["card"]]["def"]["name"] in WANTED
        ]
        if wanted:
            return wanted[0] if kind == "play" else rng.choice(wanted)
    seat, command = rng.choice(peaceful(state))
    if command["type"] == "attack":
        command = {**command, "salt": f"{rng.getrandbits(128):032x}"}
    return seat, command


# ---------------------------------------------------------------------------- the server bench


def rss_mb(pids: list[int]) -> float:
    """The summed resident set size of ``pids``, in MB (from ``/proc/<pid>/status``)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def main(argv: list[str] | None = None) -> int:
    """Record ``--actions`` actions of the long game, one a request, into a live
    ``munchlog serve`` (``--workers``, SQLite in a temp folder or ``--db``); report the server's
    resident memory (all its processes) before, after the recording, after the replay's
    reads and after ``--scrub`` random ``GET /events/<v>`` (each keeps two states in the
    replay's cache), and the wall time of ``GET /turns/1``, ``/turns/<last>`` and
    ``/timeline``.

    The client keeps its own copy of the state (the game's records read once from its export,
    then each command decided locally by the same rules, which are deterministic), so the
    recording requests are the only load.
    """
    import argparse
    import http.client
    import json
    import sys
    import tempfile
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    from bench.variants_bench import descendants
    from domain.fold import apply_record, initial_state
    from projections.exports.importing import read_export
    from tests.live import munchlog_serve

    parser = argparse.ArgumentParser(description="the long game over HTTP: memory and replay")
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--deck", type=int, default=400, help="cards a seat (400: 20,000 actions)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", default=None, help="a postgresql:// URL (default: SQLite)")
    parser.add_argument(
        "--scrub", type=int, default=200, help="random GET /events/<v> after the reads"
    )
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for the server")
    args = parser.parse_args(argv)
    organizer = "long-game-organizer-token"
    extra = dict(item.split("=", 1) for item in args.env)
    if args.db:
        extra["MUNCHLOG_DATABASE_URL"] = args.db
    with (
        tempfile.TemporaryDirectory(prefix="long-game-") as folder,
        munchlog_serve(Path(folder), organizer, workers=args.workers, extra_env=extra) as (
            port,
            env,
        ),
    ):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        def call(method: str, path: str, token: str, body: Any = None) -> tuple[int, bytes]:
            headers = {"Authorization": f"Bearer {token}"}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()

        def timed(path: str, token: str) -> float:
            start = time.perf_counter()
            status, data = call("GET", path, token)
            elapsed = (time.perf_counter() - start) * 1000
            if status != 200:
                raise SystemExit(f"{path}: HTTP {status} {data[:300]!r}")
            return elapsed

        time.sleep(1.0)  # the workers have built their apps
        pids = lambda: descendants(env.process.pid)  # noqa: E731
        call("GET", "/healthz", organizer)
        base_rss = rss_mb(pids())
        status, data = call("POST", "/api/games", organizer, api_spec(args.deck))
        if status != 201:
            raise SystemExit(f"creating the game: HTTP {status} {data[:300]!r}")
        created = json.loads(data)
        gid, table, judge = created["game_id"], created["table_token"], created["judge_token"]
        _, export = call("GET", f"/api/games/{gid}/export?format=json", judge)
        state = initial_state()
        for record in read_export(export.decode())[1]:
            state = apply_record(state, record)
        rng = random.Random(args.seed)
        actions, t0 = 0, time.perf_counter()
        while actions < args.actions and state["status"] != "finished":
            _, chosen = choose(state, rng)
            command = {k: v for k, v in chosen.items() if k != "salt"}  # the server's to choose
            steps = RS.decide(state, dict(chosen))
            status, data = call("POST", f"/api/games/{gid}/actions", table, {"actions": [command]})
            if status != 201:
                raise SystemExit(f"action {actions + 1}: HTTP {status} {data[:300]!r}")
            if steps:
                state = steps[-1].state
            actions += 1
        recorded = time.perf_counter() - t0
        version, last_turn = state["version"], int(state["turn"])
        _, body = call("GET", f"/api/games/{gid}", judge)
        if json.loads(body)["version"] != version:
            raise SystemExit("the client's copy of the game is not the server's")
        after_recording = rss_mb(pids())
        reads = {
            "turns/1 (first)": timed(f"/api/games/{gid}/turns/1", judge),
            f"turns/{last_turn} (last)": timed(f"/api/games/{gid}/turns/{last_turn}", judge),
            "turns/1 (again)": timed(f"/api/games/{gid}/turns/1", judge),
            "timeline": timed(f"/api/games/{gid}/timeline", judge),
            f"events/{version // 2}": timed(f"/api/games/{gid}/events/{version // 2}", judge),
        }
        scrub = random.Random(args.seed)
        turns = sorted(
            timed(f"/api/games/{gid}/turns/{n}", judge)
            for n in scrub.sample(range(last_turn + 1), min(50, last_turn + 1))
        )
        reads["turns/<random> x50, median"] = turns[len(turns) // 2]
        reads["turns/<random> x50, max"] = turns[-1]
        after_reads = rss_mb(pids())
        t0 = time.perf_counter()
        for _ in range(args.scrub):
            timed(f"/api/games/{gid}/events/{scrub.randint(1, version)}", judge)
        scrubbed = (time.perf_counter() - t0) * 1000 / max(1, args.scrub)
        after_scrub = rss_mb(pids())
        per_process = {pid: rss_mb([pid]) for pid in pids()}
        conn.close()
    backend = "PostgreSQL" if args.db else "SQLite"
    print(
        f"# long game over HTTP: {actions} actions, {version} events, {last_turn} turns, "
        f"{backend}, {args.workers} worker(s); recorded in {recorded:.0f} s "
        f"({actions / recorded:.0f} actions/s)"
    )
    print(
        f"# server RSS (all processes): {base_rss:.0f} MB at start, {after_recording:.0f} MB "
        f"after recording, {after_reads:.0f} MB after the reads below"
    )
    print(
        f"# then {args.scrub} GET /events/<random v> (a viewer scrubbing; {scrubbed:.0f} ms "
        f"each on average): {after_scrub:.0f} MB; by process: "
        + ", ".join(f"{mb:.0f}" for mb in per_process.values())
    )
    for name, ms in reads.items():
        print(f"GET {name}: {ms:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
