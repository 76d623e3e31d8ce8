"""What the OpenAPI document says beyond each field's own declaration: the rules every input
follows (``api.json_api.inputs``) and the path parameters, written where a client -- or a generator of
requests such as schemathesis (``tests/api/test_schemathesis.py``) -- reads them.

* **Strings**: every string field, query parameter and path parameter carries
  :data:`NO_NUL` (``pattern: ^[^\\x00]*$``): U+0000 is refused everywhere (400
  ``request/invalid_body``). Lone surrogates are refused too but have no place in a pattern
  (they are not characters a UTF-8 request can carry); the API's description says so.
* **Rulesets**: a new game's ``ruleset`` is an ``enum`` of the rulesets this process knows
  (``domain.RULESETS`` when the document is built: the built-in ones and
  ``MUNCHLOG_RULESETS``).
* **Card definitions**: a new game's seat card fields (each family's ``seat_fields``) are
  documented as the components each family gives (``Family.card_components``: the CCG's
  ``CardDefinition`` with ``Ability``, ``Cost``, ``TargetFilter``, ``Effect``, and
  ``CardByName``; classic's ``ClassicCardDefinition``), from the engine's vocabulary; the
  engine checks them (400 ``request/invalid_card``).
* **Game ids**: ``<game:game_id>`` (:class:`GameIdConverter`) is documented as a UUID; it
  matches any path segment but ``import`` (so ``/api/games/import`` is only the import
  route: ``OPTIONS`` lists its methods alone) and the view answers 404 ``game/not_found``
  for anything that is not a game.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from apispec.ext.marshmallow import MarshmallowPlugin
from werkzeug.routing import BaseConverter, PathConverter, UnicodeConverter

from api.json_api.schemas import card_components, known_ruleset, refresh_family_fields
from domain import RULESETS
from domain.schemas import NO_NUL


class GameIdConverter(BaseConverter):
    """A game id in a path: any segment but ``import`` (the import route's own)."""

    regex = "(?!import$)[^/]+"


def game_id_param(converter: BaseConverter) -> dict[str, Any]:
    return {"type": "string", "format": "uuid"}


def text_param(converter: BaseConverter) -> dict[str, Any]:
    return {"type": "string", "pattern": NO_NUL}


def input_rules(self: Any, field: ma.fields.Field, ret: dict[str, Any], **_: Any) -> dict[str, Any]:
    """apispec attribute function: :data:`NO_NUL` on every string, the known rulesets on a
    ``ruleset`` field validated by ``api.json_api.schemas.known_ruleset``."""
    extra: dict[str, Any] = {}
    if ret.get("type") == "string" and "enum" not in ret and "pattern" not in ret:
        extra["pattern"] = NO_NUL
    if known_ruleset in field.validators:
        extra["enum"] = sorted(RULESETS)
        extra.pop("pattern", None)
    return extra


class MarshmallowRules(MarshmallowPlugin):
    """apispec's marshmallow plugin with :func:`input_rules` (from the first schema on)."""

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        assert self.converter is not None
        self.converter.add_attribute_function(input_rules)


def install(api: Any, app: Any) -> None:
    """Register the path converters on a flask-smorest ``Api`` made with
    :class:`MarshmallowRules` (before its blueprints are registered), ``<game:...>`` on the
    app's URL map, and the card definition components."""
    app.url_map.converters["game"] = GameIdConverter
    api.register_converter(GameIdConverter, game_id_param)
    api.register_converter(UnicodeConverter, text_param)
    api.register_converter(PathConverter, text_param)  # a player's name (``/`` too)
    refresh_family_fields()  # the families registered since (``MUNCHLOG_RULESETS``)
    for name, component in card_components().items():
        api.spec.components.schema(name, component)
