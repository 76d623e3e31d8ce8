"""Blueprints: ``games`` (the JSON API under /api/games) and ``docs`` (/api/docs)."""
