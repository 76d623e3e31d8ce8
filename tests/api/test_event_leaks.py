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

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.ccg.cards import sample_catalog
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


@pytest.mark.slow
@leak_property(12)
def test_a_decklist_reaches_only_its_player_the_judges_and_the_organizer(
    client: FlaskClient, seed: int
) -> None:
    rng = random.Random(seed)
    count = rng.randint(2, 6)
    event = open_event(client)
    eid = event["event_id"]
    players = [f"p{i}" for i in range(count)]
    decklists = lists(rng, count)
    tokens: dict[str, str] = {}
    salts: dict[str, str] = {}
    for player, decklist in zip(players, decklists, strict=True):
        response = client.post(
            f"/api/events/{eid}/players",
            json={"player": player, "hero": {"name": "Sample Orc Warrior"}, "decklist": decklist},
            headers=bearer(ORGANIZER_TOKEN),
        )
        assert response.status_code == 201, response.get_json()
        tokens[player] = response.get_json()["token"]
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
