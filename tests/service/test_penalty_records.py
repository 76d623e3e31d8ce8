"""An event's penalties as use cases (service/event_penalties.py, docs/rules.md F.5): what makes a
game one of an event's, for the record and for the upgrade of a repeated infraction."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.ccg.cards import sample_catalog
from domain.judge import Claim
from service.event_penalties import EventPenalties
from service.games import GameLog
from service.tournaments import Caller, Tournaments
from tests.service.helpers import play_demo

SLOW_PLAY = {"kind": "warning", "seat": "A", "infraction": "tournament_error.slow_play"}


def decklist() -> list[dict[str, Any]]:
    names = [c["name"] for c in sample_catalog().cards.values() if c["type"] != "hero"]
    return [{"name": names[i % len(names)]} for i in range(20)]


def warn(log: GameLog, game_id: UUID) -> str:
    """A slow-play warning for seat A of ``game_id``: the penalty recorded."""
    did, _ = log.open_dispute(game_id, Claim(raised_by="judge", statement="slow"))
    EventPenalties(log).rule(game_id, did, {"ruling": "slow", "penalty": SLOW_PLAY})
    (ruling,) = log.game(game_id).state["disputes"][did]["rulings"]
    return str(ruling["penalty"])


def test_a_game_only_labelled_with_an_event_is_not_one_of_its_games(log: GameLog) -> None:
    """Labels are the creator's (the API keeps `event_id` for the event's own games, but an
    import or the service may carry any): only the event's pairings make a game its."""
    tournaments = Tournaments(log)
    body = {"name": "FNM", "ruleset": "munchkin-ccg", "format": "casual", "round_minutes": 35}
    event_id, _ = tournaments.create({**body, "dealing": "table"})
    for player in ("ann", "bob"):
        hero = {"name": "Sample Orc Warrior"}
        tournaments.register(event_id, {"player": player, "hero": hero, "decklist": decklist()})
    (pairing,) = tournaments.pair_next(event_id)["pairings"]
    outsider = play_demo(log, seed=1, max_actions=4, extra={"labels": {"event_id": str(event_id)}})
    service = EventPenalties(log)
    assert service.event_of(outsider.game_id) is None
    assert [warn(log, outsider.game_id) for _ in range(2)] == ["warning", "warning"]
    assert service.penalties(event_id, Caller("judge")) == []
    # the event's own game: listed, and its second slow play is upgraded
    game_id = UUID(pairing["games"][0])
    found = service.event_of(game_id)
    assert found is not None and found[1] == pairing["seats"]
    assert [warn(log, game_id) for _ in range(2)] == ["warning", "game_loss"]
    listed = service.penalties(event_id, Caller("judge"))
    assert [(p["player"], p["kind"]) for p in listed] == [
        (pairing["seats"]["A"], "warning"),
        (pairing["seats"]["A"], "game_loss"),
    ]


def test_a_game_loss_ending_a_server_dealt_game_reveals_its_secret(log: GameLog) -> None:
    """The end of a game by a penalty is an end like any (docs/rules.md E.2): the server's
    secret is revealed after it, and the whole game checks."""
    played = play_demo(log, seed=2, max_actions=12, dealing="server")
    did, _ = log.open_dispute(played.game_id, Claim(raised_by="judge", statement="cards marked"))
    ruled = EventPenalties(log).rule(
        played.game_id, did, {"ruling": "game loss", "penalty": {"kind": "game_loss", "seat": "A"}}
    )
    types = [r["event"]["type"] for r in ruled.records]
    assert types[0] == "RulingRecorded" and types[-1] == "ServerSecretRevealed"
    assert "GameEnded" in types
    assert log.game(played.game_id).state["winner"] == "B"
    checked = log.verify_game(played.game_id)
    assert checked["ok"] and checked["dealing"]["ok"] and checked["dealing"]["complete"]
