"""schemathesis over the served OpenAPI (issue 12: "0 server errors and 0 schema mismatches, with
and without tokens").

The document is the one the app serves (``/api/openapi.json``, loaded through the app itself).
Every operation gets schemathesis's generated requests -- its examples, coverage and fuzzing
phases, valid and invalid data, ``max-examples`` :data:`MAX_EXAMPLES` -- in process on SQLite
(and the valid data on PostgreSQL: invalid data is refused before it reaches a store, so what
PostgreSQL adds is the store's own limits on data that gets through), each valid request sent
five times: anonymously, with the organizer's token and with seat A's, the table's and the
judge's token of a game made for the run (:func:`before_call` puts that game and its open
dispute in the path); each invalid one twice, anonymously and with one of the four tokens in
turn (:func:`_identities`). Every check schemathesis has runs on every
answer (server errors, status codes, content types, response schemas and headers, valid data
accepted and invalid data refused, missing headers, ignored auth, unsupported methods and their
``Allow`` ...), and two of ours: :func:`documented_status` (each status the operation's own
list names, never only through ``default``) and :func:`error_shape` (every error, 405 too, in
the one JSON shape). ``test_live_server`` sends a few of them through a live ``munchlog serve``
(granian), as a client would.

What the OpenAPI (3.0) cannot say is said here, once, and nowhere looser: schema-valid bodies
of the operations whose contents the rules decide (:data:`RULES_DECIDE`: card definitions, a
command's own fields, corrections, an export) may be refused with 400 or 422 as well; ``?at``
and ``?turn`` are not given together, nor a dispute's ``turn`` with a version range.
"""

from __future__ import annotations

import collections
import copy
import itertools
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from flask import Flask

# A new game's ``ruleset`` is an enum of the rulesets the process knows when the document is
# built: the three-seat test-trio is loaded here (test_second_ruleset.py loads it into the
# session anyway, maybe after this module was collected) and in the live server.
import tests.rulesets.trio  # noqa: F401
from api.json_api import inputs
from tests.api.helpers import ORGANIZER_TOKEN, bearer
from tests.conftest import PG_URL, require_postgres

pytestmark = pytest.mark.slow  # POST /api/games alone takes 30 s per store

#: Fuzzed requests per operation (the coverage phase adds its own, deterministic, on top).
MAX_EXAMPLES = 20
IDENTITIES = ("anonymous", "organizer", "A", "table", "judge")
#: Operations whose body holds what the rules (not the schema) check: card definitions, a
#: command's own fields, a judge's corrections, an export. Their schema-valid bodies may be
#: refused with 400 (``request/...`` of the rules' argument checks) or 422 as well.
RULES_DECIDE = [
    "/api/games",
    "/api/games/{game_id}/actions",
    "/api/games/{game_id}/disputes/{dispute_id}/ruling",
    "/api/games/import",
]
#: What schema-valid data may get: 422 is a refusal by the rules or the game's state (a
#: dispute already ruled, a backup past the game), never a malformed request.
ACCEPTED = ["2xx", "401", "403", "404", "409", "422"]
SETTINGS: dict[str, Any] = {
    "generation": {"max-examples": MAX_EXAMPLES, "database": "none"},
    "checks": {
        "enabled": True,
        "positive_data_acceptance": {"expected-statuses": ACCEPTED},
    },
    "operations": [
        {
            "include-path": RULES_DECIDE,
            "include-method": "POST",
            "checks": {
                "positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "400"]},
            },
        },
        {
            # the workers send a stream on to the stream process (307), or say there is
            # none to send it to (503 stream/unavailable: the in-process app, docs/streams.md)
            "include-path": "/api/games/{game_id}/stream",
            "include-method": "GET",
            "checks": {
                "positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "307", "503"]},
                # its 503 is the answer designed for a server without a stream process (the
                # in-process app here); the live server below has one and answers 307
                "not_a_server_error": {"enabled": False},
            },
        },
    ],
}
#: On PostgreSQL: valid data only (see the module's docstring), every phase.
PG_SETTINGS: dict[str, Any] = {
    **SETTINGS,
    "generation": {**SETTINGS["generation"], "mode": "positive"},
}
#: Through a live server: valid requests only, a few per operation (the in-process run above
#: is the thorough one; this one is about the HTTP server in between).
LIVE_SETTINGS: dict[str, Any] = {
    **SETTINGS,
    "operations": [  # every check: the live server has a stream process to send streams to
        SETTINGS["operations"][0],
        {
            "include-path": "/api/games/{game_id}/stream",
            "include-method": "GET",
            "checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "307"]}},
        },
    ],
    "generation": {**SETTINGS["generation"], "max-examples": 3, "mode": "positive"},
    "phases": {"coverage": {"enabled": False}},
}


def _make_app(folder: Path, url: str) -> Flask:
    from api.app import create_app

    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(folder / "instance"),
            "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER_TOKEN,
            "MUNCHLOG_DATABASE_URL": url,
        }
    )


class Current:
    """The WSGI app schemathesis calls (the app of the back end under test) and the game and
    dispute that :func:`before_call` puts in paths."""

    app: Any = None
    game_id = ""
    dispute_id = ""

    def __call__(self, environ: Any, start_response: Any) -> Any:
        return self.app(environ, start_response)


CURRENT = Current()
#: Statuses answered, per (run, operation, identity): what :func:`_check_the_run` reads.
SEEN: dict[tuple[str, str, str], collections.Counter[int]] = collections.defaultdict(
    collections.Counter
)


def _served_schema(settings: dict[str, Any] = SETTINGS) -> Any:
    """schemathesis's schema of ``/api/openapi.json`` as an app serves it."""
    with tempfile.TemporaryDirectory() as folder:
        CURRENT.app = _make_app(Path(folder), str(Path(folder) / "spec.sqlite"))
        try:
            return schemathesis.openapi.from_wsgi(
                "/api/openapi.json", CURRENT, config=schemathesis.Config.from_dict(settings)
            )
        finally:
            CURRENT.app.extensions["munchlog"].close()
            CURRENT.app = None


#: The served document and its two schemathesis schemas, made once per process at the first test
#: that needs them (not at collection: each of pytest-xdist's workers collects every module, and
#: building the coverage cases of every operation there cost each worker about 14 s of CPU).
SPEC: dict[str, Any] = {}
OURS: set[int] = set()


@pytest.fixture(scope="session")
def served_schema() -> Any:
    schema = _served_schema()
    SPEC.update(copy.deepcopy(schema.raw_schema))  # as served (generating cases may touch it)
    OURS.add(id(schema.raw_schema))
    return schema


@pytest.fixture(scope="session")
def pg_served_schema(served_schema: Any) -> Any:
    """The same document with :data:`PG_SETTINGS`."""
    schema = _served_schema(PG_SETTINGS)
    OURS.add(id(schema.raw_schema))
    return schema


@pytest.fixture(scope="session")
def live_served_schema(served_schema: Any) -> Any:
    """The same document, for requests sent over HTTP to a live server (``test_live_server``)."""
    live = schemathesis.openapi.from_dict(
        copy.deepcopy(SPEC), config=schemathesis.Config.from_dict(LIVE_SETTINGS)
    )
    OURS.add(id(live.raw_schema))
    return live


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request: pytest.FixtureRequest) -> None:
    """schemathesis 4.32's lazy tests read and name their operations' sub-tests through
    ``node._nodeid``, which pytest 9 no longer has: it is given the node's id."""
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid


def _resolve_checks_config_once() -> None:
    """schemathesis 4 resolves an operation's checks configuration (a merge of its hierarchy of
    settings) again for every answer it validates: 18 % of ``test_api_on_sqlite``'s CPU under
    py-spy. The settings do not change during a run, so each (settings, operation, phase) is
    resolved once; what is returned is only read (``CheckContext.config``)."""
    from schemathesis.config._projects import ProjectConfig

    resolve = ProjectConfig.checks_config_for
    if getattr(resolve, "once", False):
        return
    resolved: dict[tuple[int, str | None, str | None], tuple[Any, Any]] = {}

    def checks_config_for(self: Any, *, operation: Any = None, phase: str | None = None) -> Any:
        key = (id(self), None if operation is None else operation.label, phase)
        if key not in resolved:  # the settings are kept too, so their id is not reused
            resolved[key] = (self, resolve(self, operation=operation, phase=phase))
        return resolved[key][1]

    checks_config_for.once = True  # type: ignore[attr-defined]
    ProjectConfig.checks_config_for = checks_config_for  # type: ignore[method-assign]


_resolve_checks_config_once()


schema = schemathesis.pytest.from_fixture("served_schema")
pg_schema = schemathesis.pytest.from_fixture("pg_served_schema")
live_schema = schemathesis.pytest.from_fixture("live_served_schema")


@schemathesis.serializer("application/x-ndjson")
def ndjson(context: Any, value: Any) -> dict[str, Any]:
    """``POST /api/games/import`` takes NDJSON text too."""
    if isinstance(value, bytes):
        return {"data": value}
    return {"data": str(value).encode("utf-8", "surrogatepass")}


def _is_uuid(value: Any) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: Any) -> None:
    """The game and dispute of the run in the path (a generated game id that is no UUID stays:
    then it is what the request gets wrong), and the rules between fields that OpenAPI 3.0
    cannot state: ``?at`` or ``?turn``, not both; a dispute's ``turn`` or its version range,
    not both, from the lower version to the higher. schemathesis validates the request again
    after this hook."""
    if id(case.operation.schema.raw_schema) not in OURS:
        return
    params = case.path_parameters
    if params and _is_uuid(params.get("game_id")):
        params["game_id"] = CURRENT.game_id
    if params and "dispute_id" in params:
        params["dispute_id"] = CURRENT.dispute_id
    query = case.query
    if isinstance(query, dict) and "at" in query and "turn" in query:
        del query["turn"]
    body = case.body
    if case.operation.path.endswith("/disputes") and isinstance(body, dict):
        if "turn" in body and ("from_version" in body or "to_version" in body):
            del body["turn"]
        low, high = body.get("from_version"), body.get("to_version")
        if isinstance(low, int) and isinstance(high, int) and low > high:
            body["from_version"], body["to_version"] = high, low


def _operation(case: Any) -> dict[str, Any]:
    op: dict[str, Any] = SPEC["paths"][case.operation.path][case.operation.method.lower()]
    return op


def documented_status(ctx: Any, response: Any, case: Any) -> bool | None:
    """The status is in the operation's own list (``default`` does not count); a method the
    path does not have is 405 with ``Allow`` (``OPTIONS``: 200 with ``Allow``)."""
    status = response.status_code
    if case.method.lower() != case.operation.method.lower():
        expected = 200 if case.method.upper() == "OPTIONS" else 405
        assert status == expected, f"{case.method} on {case.operation.path}: {status}"
        assert response.headers.get("allow"), f"{status} without Allow"
        return None
    listed = set(_operation(case)["responses"]) - {"default"}
    assert str(status) in listed, f"{status} is not listed for {case.operation.label}: {listed}"
    return None


def error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every error answer is JSON in the one shape: ``{"error": {"code", "message", ...}}``."""
    if response.status_code < 400:
        return None
    content_type = response.headers.get("content-type", [""])[0]
    assert content_type.startswith("application/json"), content_type
    body = response.json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error.get("code"), str) and "/" in error["code"], body
    assert isinstance(error.get("message"), str) and error["message"], body
    return None


#: The codes of the edge and the schemas: a request the OpenAPI calls valid never gets one.
SCHEMA_CODES = {
    "request/invalid_body",
    "request/invalid_json",
    "request/too_deep",
    "request/invalid_encoding",
}


#: What ``api.json_api.inputs`` says of a value inside a free-form object (a card definition, a
#: command's own fields, a correction): the rules of every value, in the API's description.
EDGE_MESSAGES = {inputs.BAD_NUMBER, inputs.BAD_STRING, inputs.BAD_KEY}
#: Rules between fields that depend on the ruleset, as the field's description says.
RULESET_FIELDS = {("POST /api/games", "seats")}


def _messages(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for child in node.values():
            yield from _messages(child)
    elif isinstance(node, list):
        for child in node:
            yield from _messages(child)
    else:
        yield str(node)


def passes_the_schemas(ctx: Any, response: Any, case: Any) -> bool | None:
    """Valid data (by the OpenAPI) is not refused by the server's schemas or edge checks. Where
    400 may come from the rules (:data:`RULES_DECIDE`) it is a rules' code, an edge rule on a
    value in a free-form object (:data:`EDGE_MESSAGES`) or a field of :data:`RULESET_FIELDS`."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    error = response.json()["error"]
    if error["code"] not in SCHEMA_CODES:
        return None
    fields = error.get("fields") or {}
    if set(_messages(fields)) <= EDGE_MESSAGES:
        return None
    if {(case.operation.label, name) for name in fields} <= RULESET_FIELDS:
        return None
    raise AssertionError(f"valid data refused: {response.json()}")


def _without_a_token(case: Any) -> bool:
    """Whether ``case`` is invalid for the lack of an ``Authorization`` header: it is sent as
    generated, without a token (with one, it would be another request)."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_negative:
        return False
    data = meta.phase.data
    names = {data.parameter, *(m.parameter for m in getattr(data, "mutations", ()))}
    return "Authorization" in names


#: The token each operation's next invalid request is sent with, besides none (in turn).
_TURNS: dict[tuple[str, str], Iterator[str]] = {}


def _identities(case: Any, run: str) -> tuple[str, ...]:
    """Who sends ``case``: a valid request every identity (what each may do differs); an invalid
    one is refused before anyone's rights matter, so anonymously and with one token, each of
    the four in turn per operation (every token still meets every operation's invalid data:
    the coverage phase alone makes dozens of invalid requests an operation); one invalid for
    its lack of a token only anonymously."""
    if _without_a_token(case):
        return ("anonymous",)
    meta = case.meta
    if meta is None or not meta.generation.mode.is_negative:
        return IDENTITIES
    turn = _TURNS.setdefault((run, case.operation.label), itertools.cycle(IDENTITIES[1:]))
    return ("anonymous", next(turn))


def _call_as_everyone(case: Any, run: dict[str, Any], **kwargs: Any) -> None:
    """``case`` as each identity :func:`_identities` names, with every check schemathesis has
    and ours."""
    CURRENT.game_id, CURRENT.dispute_id = run["game"]
    for who in _identities(case, run["name"]):
        try:
            response = case.call_and_validate(
                headers=bearer(run["tokens"][who]),
                additional_checks=[documented_status, error_shape, passes_the_schemas],
                **kwargs,
            )
        except BaseException as exc:
            exc.add_note(f"sent as: {who}")
            raise
        SEEN[(run["name"], case.operation.label, who)][response.status_code] += 1


Post = Callable[[str, dict[str, Any], dict[str, str]], tuple[int, Any]]


def _probe_game(post: Post) -> dict[str, Any]:
    """A game in setup with one open dispute, made with ``post(path, body, headers) ->
    (status, json)``, and the tokens of the run."""
    from api.cli.demo import demo_spec

    status, game = post("/api/games", demo_spec(seed=0), bearer(ORGANIZER_TOKEN))
    assert status == 201, game
    gid = game["game_id"]
    status, opened = post(
        f"/api/games/{gid}/disputes", {"statement": "probe"}, bearer(game["judge_token"])
    )
    assert status == 201, opened
    return {
        "game": (gid, opened["dispute"]["dispute_id"]),
        "tokens": {
            "anonymous": None,
            "organizer": ORGANIZER_TOKEN,
            "A": game["seats"]["A"]["token"],
            "table": game["table_token"],
            "judge": game["judge_token"],
        },
    }


def _check_the_run(name: str, *, thorough: bool) -> None:
    """What the answers of run ``name`` prove (a run that never reached the game or sent a token
    would pass every check above without testing much): every read of the game (that names
    nothing else; ``thorough``: every read) answered 2xx for someone; ``thorough``: a dispute
    was opened by exactly the identities that may (seat, table and judge, never anonymously or
    as the organizer)."""
    ran = {label for (run, label, _who) in SEEN if run == name}
    reads = [label for label in ran if label.startswith("GET /api/games/{game_id}")]
    for label in reads:
        if thorough or label.count("{") == 1:
            codes = sum((SEEN[(name, label, who)] for who in IDENTITIES), collections.Counter())
            if label.endswith("/stream"):  # the workers send it on (307), or have nowhere to
                assert codes[307 if name == "live" else 503], (name, label, codes)
                continue
            assert any(200 <= c < 300 for c in codes), (name, label, codes)
    disputes = "POST /api/games/{game_id}/disputes"
    if thorough and disputes in ran:
        opened = {who for who in IDENTITIES if SEEN[(name, disputes, who)][201]}
        assert opened == {"A", "table", "judge"}, (name, opened)


@pytest.fixture(scope="module")
def on_sqlite(
    tmp_path_factory: pytest.TempPathFactory, served_schema: Any
) -> Iterator[dict[str, Any]]:
    yield from _in_process("sqlite", tmp_path_factory)


@pytest.fixture(scope="module")
def on_postgres(
    tmp_path_factory: pytest.TempPathFactory, served_schema: Any
) -> Iterator[dict[str, Any]]:
    yield from _in_process("postgres", tmp_path_factory)


def _in_process(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The app on a new store of the back end (one for all operations), with its game."""
    folder = tmp_path_factory.mktemp("schemathesis")
    schema_name = None
    if backend == "sqlite":
        url = str(folder / "munchlog.sqlite")
    else:
        require_postgres()
        import psycopg

        schema_name = f"munchlog_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema_name}"')
        url = f"{PG_URL}?schema={schema_name}"
    app = _make_app(folder, url)
    client = app.test_client()

    def post(path: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, Any]:
        response = client.post(path, json=body, headers=headers)
        return response.status_code, response.get_json()

    try:
        served = client.get("/api/openapi.json").get_json()
        assert served == SPEC  # the document under test is this app's
        yield {"name": backend, "app": app, **_probe_game(post)}
        _check_the_run(backend, thorough=True)
    finally:
        app.extensions["munchlog"].close()
        if schema_name:
            import psycopg

            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema_name}" CASCADE')


@schema.parametrize()
def test_api_on_sqlite(case: Any, on_sqlite: dict[str, Any]) -> None:
    CURRENT.app = on_sqlite["app"]
    _call_as_everyone(case, on_sqlite)


@pytest.mark.postgres
@pg_schema.parametrize()
def test_api_on_postgres(case: Any, on_postgres: dict[str, Any]) -> None:
    CURRENT.app = on_postgres["app"]
    _call_as_everyone(case, on_postgres)


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, served_schema: Any
) -> Iterator[dict[str, Any]]:
    """``munchlog serve`` (granian, one worker, SQLite) with its game."""
    from tests.live import munchlog_serve

    folder = tmp_path_factory.mktemp("schemathesis-live")
    rulesets = {"MUNCHLOG_RULESETS": "tests.rulesets.trio"}  # as in process
    with munchlog_serve(folder, ORGANIZER_TOKEN, extra_env=rulesets) as (port, _env):
        base = f"http://127.0.0.1:{port}"
        session = requests.Session()

        def post(path: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, Any]:
            response = session.post(base + path, json=body, headers=headers, timeout=30)
            return response.status_code, response.json()

        assert session.get(f"{base}/api/openapi.json", timeout=30).json() == SPEC
        yield {"name": "live", "base_url": base, "session": session, **_probe_game(post)}
        session.close()
        _check_the_run("live", thorough=False)


@live_schema.parametrize()
def test_live_server(case: Any, live_server: dict[str, Any]) -> None:
    _call_as_everyone(
        case, live_server, base_url=live_server["base_url"], session=live_server["session"]
    )
