"""A decklist never reaches the opponent, spectators or another player (issue #27's leak
property; docs/rules.md F.1).

Random events: each player registers a list drawn from its own share of the sample catalog
(no card name in two lists), so any of its names in what another viewer fetched is a leak.
Every viewer (spectators, each player, the judge, the organizer) fetches every read of the
event (its summary, standings and both exports, games included) before and after round 1 is
paired, and each seat its own game's state and log; the
only viewers who may see a list are its player, the event's judges and the organizer. The
salted hash is public; the salt is not (it would let anyone test guesses of a list).
"""

from __future__ import annotations

import json
import random
from typing import Any
from uuid import UUID

import pytest
from flask.testing import FlaskClient

import service.event_views  # noqa: F401  (the stream's views of reports and calls)
from domain.ccg.cards import sample_catalog
from domain.game import token_hash
from service.event_stream import next_chunks, viewer_name
from service.tournaments import Tournaments
from tests.api.helpers import ORGANIZER_TOKEN, bearer, leak_property
from tests.api.test_events import open_event, pair

pytestmark = pytest.mark.storage_agnostic

NAMES = sorted(c["name"] for c in sample_catalog().cards.values() if c["type"] != "hero")


def lists(rng: random.Random, players: int) -> list[list[dict[str, Any]]]:
    """``players`` decklists, each from a share of the catalog no other list uses."""
    names = NAMES[:]
    rng.shuffle(names)
    share = len(names) // players
    out = []
    for i in range(players):
        mine = names[i * share : (i + 1) * share]
        out.append([{"name": n, "count": rng.randint(1, 3)} for n in mine])
    return out


def entrants(
    client: FlaskClient, eid: str, rng: random.Random
) -> tuple[list[str], list[list[dict[str, Any]]], dict[str, str]]:
    """2 to 6 players registered with lists of their own: names, lists, tokens."""
    count = rng.randint(2, 6)
    players = [f"p{i}" for i in range(count)]
    decklists = lists(rng, count)
    tokens: dict[str, str] = {}
    for player, decklist in zip(players, decklists, strict=True):
        response = client.post(
            f"/api/events/{eid}/players",
            json={"player": player, "hero": {"name": "Sample Orc Warrior"}, "decklist": decklist},
            headers=bearer(ORGANIZER_TOKEN),
        )
        assert response.status_code == 201, response.get_json()
        tokens[player] = response.get_json()["token"]
    return players, decklists, tokens


@pytest.mark.slow
@leak_property(12)
def test_a_decklist_reaches_only_its_player_the_judges_and_the_organizer(
    client: FlaskClient, seed: int
) -> None:
    rng = random.Random(seed)
    event = open_event(client)
    eid = event["event_id"]
    players, decklists, tokens = entrants(client, eid, rng)
    judge = client.get(f"/api/events/{eid}", headers=bearer(event["judge_token"])).get_json()
    salts = {row["player"]: row["salt"] for row in judge["players"]}
    exclusive = {p: {e["name"] for e in d} for p, d in zip(players, decklists, strict=True)}
    viewers: dict[str, str | None] = {
        "spectator": None,
        **tokens,
        "judge": event["judge_token"],
        "organizer": ORGANIZER_TOKEN,
    }

    def check(texts: dict[str, str]) -> None:
        for viewer, text in texts.items():
            for player in players:
                if viewer in (player, "judge", "organizer"):
                    continue
                leaked = sorted(n for n in exclusive[player] if n in text)
                assert leaked == [], (viewer, player, leaked)
                assert salts[player] not in text, (viewer, player, "salt")

    reads = ("", "/standings", "/export?format=json", "/export?format=text")
    check(
        {
            v: "".join(
                client.get(f"/api/events/{eid}{r}", headers=bearer(t)).get_data(True) for r in reads
            )
            for v, t in viewers.items()
        }
    )
    paired = pair(client, eid)
    check(
        {
            v: "".join(
                client.get(f"/api/events/{eid}{r}", headers=bearer(t)).get_data(True) for r in reads
            )
            for v, t in viewers.items()
        }
    )
    # each seat's own game: its opponent's list is not in the state or the log it sees
    for pairing in paired["pairings"]:
        for seat, player in pairing["seats"].items():
            game = client.get(
                f"/api/events/{eid}/rounds/1/my-game", headers=bearer(tokens[player])
            ).get_json()
            assert game["seat"] == seat
            texts = {
                player: "".join(
                    client.get(
                        f"/api/games/{game['game_id']}{path}", headers=bearer(game["token"])
                    ).get_data(True)
                    for path in ("/state", "/events")
                )
            }
            check(texts)


@leak_property(3)
def test_a_call_note_a_decklist_or_a_token_reaches_no_one_who_may_not_see_it(
    client: FlaskClient, seed: int
) -> None:
    """Issue #39: the staff, the judge calls, the print pages, the floor's pages and the
    event's stream. A call's note reaches its
    player, the staff and the organizer; a judge's note on a call the staff and the organizer
    (a resolution's, the player who called too);
    a decklist (the print page's too) its player, the judges and the organizer; no token any
    read at all."""
    rng = random.Random(seed)
    event = open_event(client)
    eid = event["event_id"]
    players, decklists, tokens = entrants(client, eid, rng)
    staff: dict[str, tuple[str, str]] = {}  # name -> (role, token)
    for n in range(rng.randint(1, 3)):
        role = rng.choice(["head_judge", "judge", "scorekeeper"])
        added = client.post(
            f"/api/events/{eid}/staff",
            json={"name": f"s{n}", "role": role},
            headers=bearer(ORGANIZER_TOKEN),
        ).get_json()
        staff[f"s{n}"] = (role, added["token"])
    paired = pair(client, eid)
    notes: dict[str, str] = {}  # a player's call note
    judge_notes: dict[str, str | None] = {}  # a judge's note -> who may see it too
    judges = [t for r, t in staff.values() if r != "scorekeeper"] + [event["judge_token"]]
    for pairing in paired["pairings"]:
        for player in pairing["seats"].values():
            if rng.random() < 0.7:
                notes[player] = f"note-{rng.getrandbits(48):012x}"
                token = tokens[player]
                if rng.random() < 0.5:  # its seat's token, as the table page calls
                    token = client.get(
                        f"/api/events/{eid}/rounds/1/my-game", headers=bearer(tokens[player])
                    ).get_json()["token"]
                made = client.post(
                    f"/api/events/{eid}/calls",
                    json={"table": pairing["table"], "note": notes[player]},
                    headers=bearer(token),
                )
                assert made.status_code == 201, made.get_json()
                action = rng.choice(["claim", "escalate", "resolve"])
                note = f"jnote-{rng.getrandbits(48):012x}"
                judge_notes[note] = player if action == "resolve" else None  # told the player
                acted = client.post(
                    f"/api/events/{eid}/calls/{made.get_json()['call_id']}",
                    json={"action": action, "note": note},
                    headers=bearer(
                        event["judge_token"] if action != "claim" else rng.choice(judges)
                    ),
                )
                assert acted.status_code == 200, acted.get_json()
    viewers: dict[str, str | None] = {
        "spectator": None,
        **tokens,
        **{name: token for name, (_, token) in staff.items()},
        "judge": event["judge_token"],
        "organizer": ORGANIZER_TOKEN,
    }
    officials = {"judge", "organizer", *staff}
    sees_lists = {"judge", "organizer", *(n for n, (r, _) in staff.items() if r != "scorekeeper")}
    exclusive = {p: {e["name"] for e in d} for p, d in zip(players, decklists, strict=True)}
    reads = ["", "/calls", "/export?format=json", "/export?format=text"]
    pages = ["print/pairings?by=name", "print/pairings?by=table", "print/slips"]
    pages += ["print/standings", "print/decklists", "tv", "judge"]
    every_token = [t for t in viewers.values() if t is not None]
    log = client.application.extensions["munchlog"]
    loaded = Tournaments(log).load(UUID(eid))
    organizer = client.application.config["MUNCHLOG_ORGANIZER_TOKEN_HASH"]
    for viewer, token in viewers.items():
        text = "".join(
            client.get(f"/api/events/{eid}{r}", headers=bearer(token)).get_data(True) for r in reads
        ) + "".join(
            client.get(f"/events/{eid}/{p}", headers=bearer(token)).get_data(True) for p in pages
        )
        # the event's stream from its start, as the stream process sends it to this viewer
        caller = Tournaments.caller(loaded, None if token is None else token_hash(token), organizer)
        assert caller is not None
        wanted = (viewer_name(caller), 0)
        text += next_chunks(log.store, UUID(eid), [wanted], json.dumps)[wanted].data.decode()
        for secret in every_token:
            assert secret not in text, (viewer, "a token")
        for player, note in notes.items():
            if viewer not in officials and viewer != player:
                assert note not in text, (viewer, player, "call note")
        if viewer not in officials:
            seen = [n for n, told in judge_notes.items() if n in text and told != viewer]
            assert seen == [], (viewer, "a judge's note")
        for player in players:
            if viewer not in sees_lists and viewer != player:
                leaked = sorted(n for n in exclusive[player] if n in text)
                assert leaked == [], (viewer, player, leaked)
