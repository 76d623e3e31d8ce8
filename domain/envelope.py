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

import orjson

from domain.errors import DomainError
from domain.events import event_from_dict, family_of

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
#: What in orjson's output may be a float it writes differently from :mod:`json` (``1e-7`` for
#: ``1e-07``, ``0.00001`` for ``1e-05``): when either is there, the stdlib encodes the value.
_FLOAT_SPELLINGS = (b"e-", b"0.0000")


def canonical_bytes(value: Json) -> bytes:
    """:func:`canonical_json` as UTF-8 bytes: what the hash chain is computed over.

    orjson writes it when it can, about ten times faster than :mod:`json`; the bytes are the
    same as the stdlib's (a property test holds them to it, floats, big integers and any text
    included): orjson sorts keys by code point as ``sort_keys`` does, leaves non-ASCII text as
    ``ensure_ascii=False`` does and escapes the same characters the same way. Where they
    differ, orjson gives way: a number orjson cannot hold (past 64 bits), a key that is not a
    string (``json`` writes ``1`` as ``"1"``), nesting deeper than orjson's limit, a lone
    surrogate -- orjson refuses those, and a float that it may spell differently
    (:data:`_FLOAT_SPELLINGS` in its output; strings holding those bytes merely take the slower
    road). Values are plain JSON (``NaN`` and the infinities never get here: ``api.json_api.inputs``
    refuses them and the domain makes none).

    >>> canonical_bytes({"b": 1e-07, "a": "é"}) == canonical_json({"b": 1e-07, "a": "é"}).encode()
    True
    """
    try:
        out: bytes = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        pass
    else:
        if spelled_as_json(out):
            return out
    return _CANONICAL.encode(value).encode("utf-8")


def spelled_as_json(out: bytes) -> bool:
    """Whether orjson's ``out`` holds no float :mod:`json` may spell differently
    (:data:`_FLOAT_SPELLINGS`): then, for a value orjson wrote at all, its bytes are the
    stdlib's (with the same key order and ``ensure_ascii=False``)."""
    return _FLOAT_SPELLINGS[0] not in out and _FLOAT_SPELLINGS[1] not in out


def canonical_json(value: Json) -> str:
    """JSON with sorted keys and no spaces: the text the hash chain is computed over.

    >>> canonical_json({"b": 1, "a": [1, 2]})
    '{"a":[1,2],"b":1}'
    """
    return canonical_bytes(value).decode("utf-8")


def chain_hash(record: Mapping[str, Json], prev_hash: str) -> str:
    """The hash of a record (its ``version``, ``event``, ``received_at``, ``client_at`` and
    ``visible_to``) chained after ``prev_hash`` (see the module docstring).

    >>> len(chain_hash({k: None for k in RECORD_KEYS}, GENESIS_HASH))
    64
    """
    body = canonical_bytes({key: record[key] for key in _HASHED})
    return hashlib.sha256(body + prev_hash.encode("utf-8")).hexdigest()


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


class Problem(TypedDict):
    """One thing wrong with a chain of records: the ``version`` it is at, the ``reason``
    (:func:`verify_records`) and a ``detail`` safe to show any viewer (it names no content)."""

    version: int
    reason: str
    detail: str


class Verification(TypedDict):
    """What :func:`verify_records` found (``GET /games/<id>/verify`` answers with it)."""

    ok: bool
    checked: int
    first_broken: Broken | None
    head: str
    problems: list[Problem]


#: The key of a stored row that could not be read as a record (:func:`unreadable`).
UNREADABLE = "unreadable"


def unreadable(version: int, why: str) -> Record:
    """What stands in a list of records for the stored row at ``version`` that does not decode
    (its state is not JSON, its topic is no game event's ...): :func:`verify_records` reports
    it as ``undecodable`` with ``why`` as the detail."""
    return {"version": version, UNREADABLE: why}


class DamagedRecords(Exception):
    """A game's stored records are damaged: a row does not decode, a version is missing, or
    the hash chain does not verify. ``version`` and ``reason`` are the first problem's
    (:class:`Problem`); ``problems`` lists every one found (may be just the first, when the
    reader stopped there). ``record`` names a stored record of the game other than its events
    (``"access"``, ``"summary"``, ...) when that is what is damaged. The API answers it with
    ``storage/damaged``."""

    code = "storage/damaged"

    def __init__(self, game_id: object, problems: list[Problem], *, record: str = "") -> None:
        first = problems[0]
        self.game_id = game_id
        self.version = first["version"]
        self.reason = first["reason"]
        self.problems = problems
        self.record = record
        if record:
            where = f"its {record} record (version {self.version}, {self.reason})"
        else:
            where = f"event {self.version} ({self.reason}); GET /api/games/<id>/verify lists every problem"
        self.message = f"game {game_id} is damaged in storage at {where}"
        super().__init__(self.message)


def verify_records(records: Iterable[Any], prev_hash: str = GENESIS_HASH) -> Verification:
    """Recompute the hash chain of a game's records, from version 1 after ``prev_hash``, and
    report every problem, not only the first.

    ``problems`` lists each as ``{"version", "reason", "detail"}``, in order; the reasons:

    * ``undecodable`` -- a stored row that does not decode (:func:`unreadable`);
    * ``version_gap`` -- versions missing (at the first missing version);
    * ``prev_hash_mismatch`` -- a record that does not follow the previous record's hash;
    * ``hash_mismatch`` -- a record whose fields no longer give its hash;
    * ``out_of_order`` / ``duplicate_version`` -- a record found after a higher version or
      after its own version; or a record whose fields give its hash under another version
      (rows moved in a store, where a row's version is its place; ``duplicate_version`` when
      that version's own row holds the same record);
    * ``bad_event`` -- not a record, or an event that does not load.

    The check goes on after a problem: each record's hash is recomputed from its own fields and
    ``prev_hash``, and linked to the previous record's hash, so an edited record is named alone
    and a missing, unreadable or misplaced one does not hide what follows it.

    ``ok`` is whether there is no problem; ``first_broken`` is the first problem's ``{"version",
    "reason"}`` (or ``None``); ``checked`` counts the records that verified before it, and
    ``head`` is the hash of the last of those.

    >>> verify_records([])["ok"], verify_records([])["problems"], verify_records([])["head"][:8]
    (True, [], '00000000')
    """
    rows = list(records)
    places = _Places(rows, prev_hash)
    family = _family(rows)
    problems: list[Problem] = []
    checked, head, expected = 0, prev_hash, 1
    link: str | None = prev_hash  # the hash the next record must follow (None: not known)
    for record in rows:
        version = record.get("version") if isinstance(record, Mapping) else None
        if not isinstance(version, int) or isinstance(version, bool):
            problems.append(_problem(expected, "bad_event", "not a record with a version"))
            expected, link = expected + 1, None
            continue
        if version < expected:
            reason = "duplicate_version" if version == expected - 1 else "out_of_order"
            problems.append(_problem(version, reason, f"found after version {expected - 1}"))
            continue
        if version > expected:
            missing = f"{expected}" if version == expected + 1 else f"{expected} to {version - 1}"
            problems.append(_problem(expected, "version_gap", f"missing: {missing}"))
            link = None
        found = _broken(record, link, family)
        if found is not None and found[0] in ("hash_mismatch", "prev_hash_mismatch"):
            found = places.misplaced(record) or found
        if found is None:
            if not problems:
                checked, head = checked + 1, str(record["hash"])
        else:
            problems.append(_problem(version, *found))
        expected, link = version + 1, _next_link(record, found)
    first: Broken | None = None
    if problems:
        first = {"version": problems[0]["version"], "reason": problems[0]["reason"]}
    return {
        "ok": not problems,
        "checked": checked,
        "first_broken": first,
        "head": head,
        "problems": problems,
    }


def _problem(version: int, reason: str, detail: str = "") -> Problem:
    return {"version": version, "reason": reason, "detail": detail}


def _own_hash(record: Mapping[str, Any]) -> str | None:
    """The hash ``record``'s fields give after its own ``prev_hash`` (None: not computable)."""
    if any(k not in record for k in RECORD_KEYS) or not isinstance(record["prev_hash"], str):
        return None
    try:
        return chain_hash(record, record["prev_hash"])
    except (TypeError, ValueError):
        return None


def _family(rows: list[Any]) -> str | None:
    """The event family the game of ``rows`` loads in: its creating record's ruleset's."""
    for row in rows:
        event = row.get("event") if isinstance(row, Mapping) and row.get("version") == 1 else None
        if isinstance(event, Mapping):
            return family_of(event.get("ruleset"))
    return None


def _broken(
    record: Mapping[str, Any], link: str | None, family: str | None = None
) -> tuple[str, str] | None:
    """``(reason, detail)`` of what is wrong with ``record`` after a record whose hash is
    ``link`` (``None``: not known), or None; its event loads in ``family`` (domain.events)."""
    if UNREADABLE in record:
        return "undecodable", str(record[UNREADABLE])
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        return "bad_event", f"no {', '.join(missing)}"
    if not isinstance(record["event"], Mapping) or not isinstance(record["visible_to"], Mapping):
        return "bad_event", "event and visible_to must be objects"
    if link is not None and record["prev_hash"] != link:
        return "prev_hash_mismatch", "it does not follow the previous record's hash"
    own = _own_hash(record)
    if own is None:
        return "bad_event", "its fields are not JSON"
    if record["hash"] != own:
        return "hash_mismatch", "its fields do not give its hash"
    try:
        event_from_dict(dict(record["event"]), family)
    except (DomainError, TypeError, ValueError, KeyError):
        return "bad_event", "its event does not load"
    return None


def _next_link(record: Mapping[str, Any], found: tuple[str, str] | None) -> str | None:
    """The hash the record after ``record`` must follow: its stored hash, unless it has none
    or is another version's record."""
    stored = record.get("hash")
    if not isinstance(stored, str) or UNREADABLE in record:
        return None
    if found is not None and found[0] in ("out_of_order", "duplicate_version"):
        return None
    return stored


class _Places:
    """Where a record whose hash does not match its place belongs: the version under which its
    fields give its hash, found from its neighbours' hashes (rows moved or copied)."""

    def __init__(self, rows: list[Any], genesis: str) -> None:
        self.after: dict[str, int] = {genesis: 1}  # a record's hash -> the version after it
        self.before: dict[str, int] = {}  # a record's prev_hash -> the version before it
        self.rows: dict[int, Mapping[str, Any]] = {}
        for row in rows:
            if not isinstance(row, Mapping) or not isinstance(row.get("version"), int):
                continue
            version = int(row["version"])
            self.rows.setdefault(version, row)
            if isinstance(row.get("hash"), str):
                self.after.setdefault(str(row["hash"]), version + 1)
            if isinstance(row.get("prev_hash"), str):
                self.before.setdefault(str(row["prev_hash"]), version - 1)

    def misplaced(self, record: Mapping[str, Any]) -> tuple[str, str] | None:
        """``("out_of_order" | "duplicate_version", detail)`` when ``record`` is another
        version's record, else None."""
        if not isinstance(record.get("hash"), str) or not isinstance(record.get("prev_hash"), str):
            return None
        here = record["version"]
        for version in (self.after.get(record["prev_hash"]), self.before.get(record["hash"])):
            if version is None or version == here or version < 1:
                continue
            try:
                if (
                    chain_hash({**record, "version": version}, record["prev_hash"])
                    != record["hash"]
                ):
                    continue
            except (TypeError, ValueError):
                return None
            original = self.rows.get(version)
            copied = original is not None and original.get("hash") == record["hash"]
            reason = "duplicate_version" if copied else "out_of_order"
            return reason, f"holds the record of version {version}"
        return None
