"""Routes of the exports issue (placeholder blueprint; filled in by its owner)."""

from __future__ import annotations

from api.routes.games import ApiBlueprint

blp = ApiBlueprint("exports", __name__, url_prefix="/api", description="exports")
