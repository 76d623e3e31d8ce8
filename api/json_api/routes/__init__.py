"""The JSON API's blueprints: games, judging, exports, live, events, rulesets, docs (/api/docs)."""
