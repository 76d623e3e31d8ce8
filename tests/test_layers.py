"""Dependencies point one way: api -> service -> adapters / projections -> domain.

Read from the source (``ast``), so a lazy import inside a function counts as much as one at
the top. The rules (docs/DESIGN.md, "Layers"):

* ``domain/`` is pure: only the aggregate module (``domain/game.py``) imports eventsourcing, and
  nothing in it imports a layer above, a web framework or a database driver;
* storage (eventsourcing's persistence, database drivers, file locks) is imported only by
  ``adapters/``;
* ``projections/`` read and render: no service, adapters or aggregate module;
* nothing below ``api/`` imports ``api`` or Flask.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("domain", "service", "adapters", "projections", "api")
STORAGE = (
    "sqlite3",
    "psycopg",
    "psycopg_pool",
    "fcntl",
    "eventsourcing.persistence",
    "eventsourcing.sqlite",
    "eventsourcing.postgres",
    "eventsourcing.popo",
    "eventsourcing.application",
)
WEB = ("flask", "flask_smorest", "werkzeug", "webargs", "marshmallow", "gunicorn", "api")


def imports_of(path: Path) -> list[str]:
    """Every module name ``path`` imports (``from x import y`` gives ``x`` and ``x.y``)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
            names.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def modules(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


def is_under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def offenders(layer: str, forbidden: tuple[str, ...], *, allow: tuple[str, ...] = ()) -> list[str]:
    found = []
    for path in modules(layer):
        rel = path.relative_to(ROOT).as_posix()
        if rel in allow:
            continue
        found.extend(f"{rel}: {n}" for n in imports_of(path) if is_under(n, forbidden))
    return found


def test_the_layers_exist() -> None:
    for layer in LAYERS:
        assert modules(layer), f"no modules in {layer}/"


def test_domain_is_pure() -> None:
    above = ("service", "adapters", "projections", *WEB, *STORAGE, "requests", "rich")
    assert offenders("domain", above) == []
    assert offenders("domain", ("eventsourcing",), allow=("domain/game.py",)) == []


@pytest.mark.parametrize("layer", ["domain", "service", "projections", "api"])
def test_storage_is_imported_only_by_the_adapters(layer: str) -> None:
    assert offenders(layer, STORAGE) == []


@pytest.mark.parametrize("layer", ["service", "projections", "api"])
def test_only_the_aggregate_module_and_the_adapters_import_eventsourcing(layer: str) -> None:
    assert offenders(layer, ("eventsourcing",)) == []


def test_projections_only_read() -> None:
    assert offenders("projections", ("service", "adapters", "domain.game", *WEB)) == []


@pytest.mark.parametrize("layer", ["domain", "service", "adapters", "projections"])
def test_nothing_below_the_api_imports_it(layer: str) -> None:
    assert offenders(layer, WEB) == []


def test_the_adapters_serve_the_service_not_the_other_way() -> None:
    assert offenders("adapters", ("service", "api")) == []


def test_the_checker_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from flask import g\n    import sqlite3\n")
    assert imports_of(module) == ["flask", "flask.g", "sqlite3"]
