"""The stored record: one domain event in its envelope, chained to the one before by a hash.

A *record* is plain JSON (DESIGN.md "Storage envelope")::

    {"version", "event", "received_at", "client_at", "visible_to", "hash", "prev_hash"}

* ``version`` -- the game's version after the event (1 for ``GameCreated``);
* ``event`` -- the domain event dict (``Event.to_dict()``);
* ``received_at`` -- server clock, ISO 8601 UTC, the time the request arrived;
* ``client_at`` -- the client's ``at`` for the action, verbatim, or ``None``;
* ``visible_to`` -- ``{card_id: [seats]}`` from ``domain.visibility.knowledge`` (docs/rules.md A.4);
* ``prev_hash``/``hash`` -- a SHA-256 chain: ``hash = sha256(canonical_json({version, event,
  received_at, client_at, visible_to}) + prev_hash)``, with :data:`GENESIS_HASH` before event 1.

:func:`seal` makes a record, :func:`verify_records` is the one check of a chain of them (the
import, ``GET /games/<id>/verify``, ``munchlog verify`` and ``Game.adopt`` all use it).

>>> ended = {"type": "GameEnded", "winner": "A"}
>>> first = seal(1, ended, received_at="2024-01-01T00:00:00+00:00", visible_to={})
>>> verify_records([first])["ok"], first["prev_hash"] == GENESIS_HASH
(True, True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from domain.errors import DomainError
from domain.events import event_from_dict

Json = Any
Record = dict[str, Json]
"""A stored event as plain data (the module docstring); ``projections.views.event_view``
redacts one of these per viewer."""

#: ``prev_hash`` of a game's first event.
GENESIS_HASH = "0" * 64

#: What a stored event (``domain.game.Game.Opened`` / ``Game.Recorded``) carries besides its
#: version, which the event store keeps as the aggregate version.
STORED_FIELDS = ("event", "received_at", "client_at", "visible_to", "hash", "prev_hash")
#: A record's keys, in order.
RECORD_KEYS = ("version", *STORED_FIELDS)
#: The keys the hash is computed over (with ``prev_hash`` appended).
_HASHED = RECORD_KEYS[:5]

#: One encoder, made once: ``json.dumps(..., sort_keys=True)`` builds a new one on every call.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Json) -> str:
    """JSON with sorted keys and no spaces: the byte string the hash chain is computed over.

    >>> canonical_json({"b": 1, "a": [1, 2]})
    '{"a":[1,2],"b":1}'
    """
    return _CANONICAL.encode(value)


def chain_hash(record: Mapping[str, Json], prev_hash: str) -> str:
    """The hash of a record (its ``version``, ``event``, ``received_at``, ``client_at`` and
    ``visible_to``) chained after ``prev_hash`` (see the module docstring).

    >>> len(chain_hash({k: None for k in RECORD_KEYS}, GENESIS_HASH))
    64
    """
    body = canonical_json({key: record[key] for key in _HASHED})
    return hashlib.sha256((body + prev_hash).encode("utf-8")).hexdigest()


def seal(
    version: int,
    event: Mapping[str, Json],
    *,
    received_at: str,
    visible_to: Mapping[str, Json],
    client_at: str | None = None,
    prev_hash: str = GENESIS_HASH,
) -> Record:
    """The record of ``event`` at ``version``, chained after ``prev_hash``."""
    values = (version, event, received_at, client_at, visible_to)
    record: Record = dict(zip(_HASHED, values, strict=True))
    record["hash"] = chain_hash(record, prev_hash)
    record["prev_hash"] = prev_hash
    return record


def record_from(version: int, stored: Mapping[str, Json]) -> Record:
    """The record of a stored event: its ``version`` and its :data:`STORED_FIELDS`."""
    record: Record = {"version": version}
    for key in STORED_FIELDS:
        record[key] = stored[key]
    return record


def stored_fields(record: Mapping[str, Json]) -> dict[str, Json]:
    """A record's :data:`STORED_FIELDS`: what a stored event is made of."""
    return {key: record[key] for key in STORED_FIELDS}


class Broken(TypedDict):
    version: int
    reason: str


class Verification(TypedDict):
    """What :func:`verify_records` found (``GET /games/<id>/verify`` answers with it)."""

    ok: bool
    checked: int
    first_broken: Broken | None
    head: str


def verify_records(records: Iterable[Any], prev_hash: str = GENESIS_HASH) -> Verification:
    """Recompute the hash chain of a game's records, from version 1 after ``prev_hash``.

    ``checked`` counts the records that verified, ``first_broken`` is ``None`` or ``{"version",
    "reason"}`` with reason ``version_gap`` (versions must run 1, 2, ...),
    ``prev_hash_mismatch``, ``hash_mismatch`` or ``bad_event`` (not a record, or an event that
    does not load), and ``head`` is the last verified hash.

    >>> verify_records([])
    {'ok': True, 'checked': 0, 'first_broken': None, 'head': '0000000000000000000000000000000000000000000000000000000000000000'}
    """
    checked = 0
    for record in records:
        expected = checked + 1
        reason = _broken(record, expected, prev_hash)
        if reason is not None:
            version = record.get("version") if isinstance(record, Mapping) else None
            at = version if isinstance(version, int) else expected
            broken: Broken = {"version": at, "reason": reason}
            return {"ok": False, "checked": checked, "first_broken": broken, "head": prev_hash}
        prev_hash = str(record["hash"])
        checked += 1
    return {"ok": True, "checked": checked, "first_broken": None, "head": prev_hash}


def _broken(record: Any, version: int, prev_hash: str) -> str | None:
    """Why ``record`` does not continue the chain at ``version`` after ``prev_hash``, or None."""
    if not isinstance(record, Mapping) or any(k not in record for k in RECORD_KEYS):
        return "bad_event"
    if not isinstance(record["event"], Mapping) or not isinstance(record["visible_to"], Mapping):
        return "bad_event"
    if record["version"] != version:
        return "version_gap"
    if record["prev_hash"] != prev_hash:
        return "prev_hash_mismatch"
    try:
        expected = chain_hash(record, prev_hash)
    except (TypeError, ValueError):
        return "bad_event"
    if record["hash"] != expected:
        return "hash_mismatch"
    try:
        event_from_dict(dict(record["event"]))
    except (DomainError, TypeError, ValueError, KeyError):
        return "bad_event"
    return None
