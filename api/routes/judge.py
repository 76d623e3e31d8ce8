"""Routes of the judge issue (placeholder blueprint; filled in by its owner)."""

from __future__ import annotations

from api.routes.games import ApiBlueprint

blp = ApiBlueprint("judge", __name__, url_prefix="/api", description="judge")
