"""What a ruleset's games may name: ``GET /api/rulesets/<ruleset>/cards``, the cards of the
catalog munchlog ships for a ruleset, by name (``Family.card_names``: a classic set's sample
catalog).

Public data, the same for anyone (no token is read): the table page's pickers suggest these
names when the table tells a drawn card by its name (docs/rules.md E.4), and a game's creation
may bring them by name (B.1). It lists the catalog, never a game's cards: which cards a game
holds, and where, is each viewer's to see or not (A.4).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import marshmallow as ma
from flask.views import MethodView

from api.json_api.routes.games import ApiBlueprint
from api.ops.routes import NO_AUTH
from domain.errors import NotFound
from domain.family import family_named
from domain.ruleset import RULESETS

blp = ApiBlueprint(
    "rulesets",
    __name__,
    url_prefix="/api/rulesets",
    description="What the rulesets' games may name: a classic set's sample card names.",
)

CATALOG = "munchlog sample catalog"


class CardNameSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata={"description": "as printed on the card"})
    deck = ma.fields.String(required=True, metadata={"enum": ["door", "treasure"]})
    kind = ma.fields.String(
        required=True, metadata={"description": "the card's kind (docs/cards.md): monster, …"}
    )


class CardNamesSchema(ma.Schema):
    ruleset = ma.fields.String(required=True)
    catalog = ma.fields.String(
        required=True,
        metadata={
            "description": "the catalog listed: SAMPLE cards invented for munchlog's tests and "
            "demo, not the real card lists"
        },
    )
    cards = ma.fields.List(
        ma.fields.Nested(CardNameSchema),
        required=True,
        metadata={"description": "each card of the catalog once, Doors then Treasures, by name"},
    )


@lru_cache(maxsize=64)
def card_names(ruleset: str) -> dict[str, Any] | None:
    """The answer for ``ruleset``, ``None`` when it ships no card names."""
    cards = family_named(ruleset).card_names() if ruleset in RULESETS else None
    return None if cards is None else {"ruleset": ruleset, "catalog": CATALOG, "cards": cards}


@blp.route("/<ruleset>/cards")
class RulesetCards(MethodView):
    @blp.errors(404)
    @blp.response(200, CardNamesSchema)
    @blp.doc(security=NO_AUTH)
    def get(self, ruleset: str) -> dict[str, Any]:
        """The card names of a ruleset's shipped catalog (anonymous, public)

        Each card of the sample catalog munchlog ships for a classic set: its `name`, `deck`
        and `kind`. A table that names a drawn card by its name (`{"name": …}` in a
        table-dealt game, see `POST /actions`) may pick from these; a game's own cards may be
        others. 404 `ruleset/no_card_names` for a ruleset that ships none.
        """
        answer = card_names(ruleset)
        if answer is None:
            raise NotFound("ruleset/no_card_names", f"no card names for ruleset {ruleset!r}")
        return answer
