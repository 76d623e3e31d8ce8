"""Card definitions through the API (docs/cards.md): catalog integrity in prime and draft (a 422
naming the fields that differ, docs/rules.md A.6), casual games' ``custom`` marks computed by
the engine, malformed definitions refused as 400 ``request/invalid_card`` (never a 500), and
the OpenAPI's card definition components. ``storage_agnostic``: SQLite only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.cli.demo import demo_spec
from domain.ccg import cards
from domain.ccg.cards import Catalog, sample_catalog
from tests.api.helpers import ORGANIZER_TOKEN, bearer

pytestmark = pytest.mark.storage_agnostic

CATALOG = sample_catalog()


def _post(client: FlaskClient, body: dict[str, Any]) -> Any:
    return client.post("/api/games", json=body, headers=bearer(ORGANIZER_TOKEN))


def _with_defined_card(
    fmt: str, mode: str = "strict", size: int = 40, **changes: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The demo's game in ``fmt`` and ``mode``, ``size`` cards a deck, with seat A's first deck
    card sent as a full definition (the catalog's, with ``changes``) instead of by name."""
    spec = {**demo_spec(seed=0), "format": fmt, "mode": mode}
    for seat in spec["seats"]:
        total = sum(e["count"] for e in seat["deck"])
        for entry in seat["deck"]:
            while total > size and entry["count"] > 1:
                entry["count"] -= 1
                total -= 1
        assert total == size
    deck = spec["seats"][0]["deck"]
    card = CATALOG.get(deck[0]["name"])
    deck[0]["count"] -= 1
    if not deck[0]["count"]:
        del deck[0]
    deck.append({**card, **changes})
    return spec, card


def _created(client: FlaskClient, created: dict[str, Any]) -> dict[str, Any]:
    """The game's ``GameCreated`` as the judge sees it."""
    page = client.get(
        f"/api/games/{created['game_id']}/events?limit=1", headers=bearer(created["judge_token"])
    ).get_json()
    event: dict[str, Any] = page["events"][0]
    assert event["type"] == "GameCreated"
    data: dict[str, Any] = event["data"]
    return data


@pytest.mark.parametrize(("fmt", "size"), [("prime", 40), ("draft", 30)])
@pytest.mark.parametrize("mode", ["strict", "record"])
def test_a_changed_catalog_card_is_refused_naming_the_fields(
    client: FlaskClient, fmt: str, size: int, mode: str
) -> None:
    name = demo_spec(seed=0)["seats"][0]["deck"][0]["name"]
    keywords = {**CATALOG.get(name)["keywords"], "flaunt": True}
    spec, card = _with_defined_card(fmt, mode, size, cost=99, keywords=keywords)
    response = _post(client, spec)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["error"]
    assert (error["code"], error["rule"]) == ("rule/not_the_catalog_card", "A.6")
    shown = "null" if card["cost"] is None else str(card["cost"])
    assert error["fields"] == {
        "cost": [f"catalog: {shown}, given: 99"],
        "keywords.flaunt": ["catalog: absent, given: true"],
    }
    assert card["name"] in error["message"]


def test_a_card_the_catalog_lacks_is_refused_in_prime(client: FlaskClient) -> None:
    spec, _ = _with_defined_card("prime", name="Sample Homebrew")
    response = _post(client, spec)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert (error["code"], error["rule"]) == ("rule/unknown_card", "A.6")
    assert set(error["fields"]) == {"name"}


def test_the_exact_catalog_card_as_a_definition_is_accepted_and_not_custom(
    client: FlaskClient,
) -> None:
    spec, _ = _with_defined_card("prime", custom=True)  # a client's mark is not trusted
    response = _post(client, spec)
    assert response.status_code == 201, response.get_json()
    created = _created(client, response.get_json())
    for seat in created["seats"]:
        assert not any(c.get("custom") for c in [seat["hero"], *seat["deck"]])


def test_casual_games_mark_the_cards_that_are_not_the_catalogs(client: FlaskClient) -> None:
    spec, card = _with_defined_card("casual", cost=99)
    spec["seats"][1]["deck"].append(
        {"name": "Sample Homebrew", "type": "ally", "cost": 1, "life": 1, "abilities": []}
    )
    spec["seats"][1]["deck"].append({**CATALOG.get("Sample Plant Pot"), "custom": True})
    response = _post(client, spec)
    assert response.status_code == 201, response.get_json()
    created = _created(client, response.get_json())
    custom = {
        (seat["seat"], c["name"])
        for seat in created["seats"]
        for c in [seat["hero"], *seat["deck"]]
        if c.get("custom")
    }
    assert custom == {("A", card["name"]), ("B", "Sample Homebrew")}
    changed = [c for c in created["seats"][0]["deck"] if c.get("custom")]
    assert [c["cost"] for c in changed] == [99]


@pytest.mark.parametrize(
    ("card", "field"),
    [
        ({"name": "X", "type": "ally", "life": 1, "keywords": "ab"}, "keywords"),
        ({"name": "X", "type": "ally", "life": 1, "keywords": ["ab"]}, "keywords"),
        ({"name": "X", "type": "ally", "life": 1, "class": 7}, "class"),
        ({"name": "X", "type": "ally", "life": 1, "text": False}, "text"),
        ({"name": "X", "type": "ally", "life": 1, "custom": "yes"}, "custom"),
        ({"name": ["X"], "type": "ally", "life": 1}, "name"),
        ({"name": "X", "type": ["ally"], "life": 1}, "type"),
        ({"name": "X", "type": "ally", "life": 1, "abilities": {}}, "abilities"),
        (
            {"name": "X", "type": "ally", "life": 1, "abilities": [{"effects": [{"op": ["d"]}]}]},
            "abilities.0.effects.0.op",
        ),
        (
            {"name": "X", "type": "ally", "life": 1, "abilities": [{"cost": [], "effects": []}]},
            "abilities.0.cost",
        ),
        (
            {"name": "X", "type": "ally", "life": 1, "abilities": [{"conditions": 0}]},
            "abilities.0.conditions",
        ),
        (
            {
                "name": "X",
                "type": "ally",
                "life": 1,
                "abilities": [{"effects": [{"op": "heal", "index": "x"}]}],
            },
            "abilities.0.effects.0.index",
        ),
        ({"name": "X", "type": "ally", "life": 1, "count": 2}, "count"),
    ],
)
def test_a_malformed_card_definition_is_a_400_naming_the_field(
    client: FlaskClient, card: dict[str, Any], field: str
) -> None:
    spec = {**demo_spec(seed=0), "format": "casual"}
    spec["seats"][0]["deck"].append(card)
    response = _post(client, spec)
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "request/invalid_card"
    position = len(spec["seats"][0]["deck"]) - 1
    assert f"seats.0.deck.{position}.{field}" in error["fields"], error


def test_the_openapi_documents_card_definitions_from_the_engines_vocabulary(
    client: FlaskClient,
) -> None:
    doc = client.get("/api/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    entry = {
        "anyOf": [{"$ref": f"#/components/schemas/{n}"} for n in ("CardDefinition", "CardByName")]
    }
    seat = schemas["SeatSpec"]["properties"]
    assert seat["hero"]["anyOf"] == entry["anyOf"]
    assert seat["deck"]["items"]["anyOf"] == entry["anyOf"]
    definition = schemas["CardDefinition"]["properties"]
    assert set(definition) == set(cards.CARD_FIELDS)
    assert definition["type"]["enum"] == list(cards.CARD_TYPES)
    assert definition["abilities"]["items"] == {"$ref": "#/components/schemas/Ability"}
    ability = schemas["Ability"]["properties"]
    assert ability["trigger"]["enum"] == list(cards.TRIGGERS)
    assert ability["conditions"]["items"]["enum"] == list(cards.CONDITIONS)
    assert set(schemas["Cost"]["properties"]) == set(cards.COST_PARTS)
    assert schemas["TargetFilter"]["properties"]["zones"]["items"]["enum"] == list(
        cards.FILTER_ZONES
    )
    effect = schemas["Effect"]["properties"]
    assert effect["op"]["enum"] == list(cards.EFFECT_OPS)
    assert effect["to"]["enum"] == list(cards.REFERENTS)
    error = schemas["ErrorDetail"]["properties"]
    assert "fields" in error and "not_the_catalog_card" in error["fields"]["description"]


def test_the_servers_own_catalog_is_the_one_checked(tmp_path: Path) -> None:
    """An operator's catalog (``MUNCHLOG_CATALOG`` / ``--catalog``) is the one a new game's
    cards must match: here its Goblin Horde costs 5, so the sample's (cost 2) is refused."""
    from api.app import create_app

    goblin = CATALOG.get("Sample Goblin Horde")
    theirs = Catalog("operator catalog", {**CATALOG.cards, goblin["name"]: {**goblin, "cost": 5}})
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
            "MUNCHLOG_DATABASE_URL": str(tmp_path / "munchlog.sqlite"),
            "MUNCHLOG_CATALOG": theirs,
        }
    )
    try:
        client = app.test_client()
        spec = {**demo_spec(seed=0), "format": "casual"}
        spec["seats"][0]["deck"] = [{"name": goblin["name"], "count": 3}, goblin]
        created = _post(client, spec)
        assert created.status_code == 201
        marked = [
            c.get("custom", False) for c in _created(client, created.get_json())["seats"][0]["deck"]
        ]
        assert marked == [False, False, False, True]  # by name: the operator's; the sample's
        spec["format"] = "prime"
        spec["seats"][0]["deck"] = [goblin, *demo_spec(seed=0)["seats"][0]["deck"]]
        spec["seats"][0]["deck"][1]["count"] -= 1
        refused = _post(client, spec)
        assert refused.status_code == 422, refused.get_json()
        error = refused.get_json()["error"]
        assert error["code"] == "rule/not_the_catalog_card"
        assert error["fields"] == {"cost": ["catalog: 5, given: 2"]}
        assert "operator catalog" in error["message"]
    finally:
        app.extensions["munchlog"].close()
