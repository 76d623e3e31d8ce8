"""The one call that records a batch of actions, behind both entrances of
``POST /api/games/<id>/actions``: the hot path (:mod:`api.json_api.hotpath`) and the Flask route
(``api.json_api.routes.games.GameActions.post``). Each entrance authenticates and parses the request its
own way, then calls :func:`record_actions`, so what a request carries (its body's fields, the
headers in :data:`RECORD_HEADERS`) reaches :meth:`service.games.GameLog.record` the same way
from both: a field or header handled here is handled for both; one the hot path cannot handle
is in :data:`RECORD_HEADERS`, and the hot path leaves such a request to the Flask route
(``tests/api/test_record_entrances.py`` holds both to it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from service.games import BatchOutcome, GameLog

#: The request headers recording reads (besides ``Authorization``): the Flask route reads them
#: (``api.json_api.auth.idempotency_key``); the hot path passes any request that carries one to it.
RECORD_HEADERS = ("Idempotency-Key",)
#: The same headers as WSGI environ keys (what the hot path looks for).
RECORD_HEADER_KEYS = tuple("HTTP_" + h.upper().replace("-", "_") for h in RECORD_HEADERS)


def record_actions(
    log: GameLog,
    game_id: UUID,
    body: Mapping[str, Any],
    *,
    actor: str,
    idempotency_key: str | None = None,
) -> BatchOutcome:
    """Record the parsed ``body`` (``ActionBatchSchema``: ``actions``, ``expected_version``)
    for ``actor`` (the token's role) with the request's ``Idempotency-Key``, if any."""
    return log.record(
        game_id,
        body["actions"],
        actor=actor,
        expected_version=body.get("expected_version"),
        idempotency_key=idempotency_key,
    )
