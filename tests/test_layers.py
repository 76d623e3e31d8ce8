"""Dependencies point one way: api -> service -> adapters / projections -> domain.

Read from the source (``ast``), so a lazy import inside a function counts as much as one at
the top. The rules (docs/DESIGN.md, "Layers"):

* ``domain/`` is pure: only the aggregate modules (``domain/game.py``, a tournament's
  ``domain/tournament/aggregate.py``) import eventsourcing, and
  nothing in it imports a layer above, a web framework or a database driver;
* storage (eventsourcing's persistence, database drivers, file locks) is imported only by
  ``adapters/``;
* ``projections/`` read and render: no service, adapters or aggregate module;
* nothing below ``api/`` imports ``api`` or Flask;
* inside ``domain/`` the modules import one another one way: every import at the top of its
  module, and no import cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
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
    found: list[str] = []
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
    aggregates = (
        "domain/game.py",
        "domain/tournament/aggregate.py",
        "domain/tournament/clock.py",  # the clock's Tournament events (issue #38)
    )
    assert offenders("domain", ("eventsourcing",), allow=aggregates) == []


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


# ---------------------------------------------------------------------------- one-way modules
#
# Inside ``domain/`` the modules depend one way, as python-chess's and boardgame.io's do: every
# import is at the top of its module (an import inside a function hides a cycle from the reader
# and from this test), and the graph of the imports has no cycle (every import counts, one in
# a function too, so a cycle hidden that way is still found; ``if TYPE_CHECKING:`` imports
# count: a cycle of types is a cycle of the design too).

#: In-function imports allowed in domain/ (none: classic's ``decide`` now lives in
#: ``deciding.py`` below ``moves.py``, and ``drawable`` in ``combat.py`` below ``play.py``).
IN_FUNCTION_LEFT: set[str] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_nodes(tree: ast.AST, *, in_functions: bool) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module: those inside a function (``in_functions``), or the
    others, run when the module is imported (at the top, under ``if``, in a class body)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside == in_functions:
                found.append(child)
            nested = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, inside or nested)

    visit(tree, False)
    return found


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def targets(node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The modules of ``known`` an import statement loads by name: ``from p import m`` is
    module ``p.m`` when there is one, else ``p`` (a name defined in ``p``). A package's
    ``__init__`` runs before its modules, but only an import that names it is an edge."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names} & known
    assert node.level == 0 and node.module, "domain/ uses absolute imports"
    out = set()
    for alias in node.names:
        sub = f"{node.module}.{alias.name}"
        out.add(sub if sub in known else node.module)
    return out & known


def label(path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """``domain/x.py: module`` for each module an import statement names."""
    names = (
        [node.module or "."] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
    )
    return [f"{path.relative_to(ROOT).as_posix()}: {name}" for name in names]


def import_graph(*layers: str) -> dict[str, set[str]]:
    """``{module: the modules of ``layers`` it imports}``, wherever the import is (the imports
    inside functions listed in :data:`IN_FUNCTION_LEFT` aside)."""
    paths = [path for layer in layers for path in modules(layer)]
    known = {module_name(p) for p in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        tree = parse(path)
        nodes = import_nodes(tree, in_functions=False) + [
            n
            for n in import_nodes(tree, in_functions=True)
            if not set(label(path, n)) <= IN_FUNCTION_LEFT
        ]
        graph[module_name(path)] = set().union(*(targets(n, known) for n in nodes))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module (or a module
    importing itself), each sorted: the import cycles."""
    reach: dict[str, set[str]] = {}
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo.extend(graph.get(node, ()))
        reach[start] = seen
    groups = {
        tuple(sorted(m for m in graph if m == start or (m in reach[start] and start in reach[m])))
        for start in graph
        if start in reach[start]
    }
    return sorted(list(g) for g in groups)


def test_no_import_inside_a_function_in_the_domain() -> None:
    found = [
        name
        for path in modules("domain")
        for node in import_nodes(parse(path), in_functions=True)
        for name in label(path, node)
    ]
    assert [f for f in found if f not in IN_FUNCTION_LEFT] == []


def test_the_domain_modules_import_one_way() -> None:
    graph = import_graph("domain")
    assert "domain.ccg.abilities" in graph["domain.ccg.effects"]  # the graph sees the imports
    assert "domain.ccg.events" in graph["domain.ccg.fights"]  # ``from domain.ccg import events``
    assert cycles(graph) == []


def test_the_product_has_no_import_cycle() -> None:
    """Across the product's packages no module imports, however indirectly, one that imports it
    (an import in a function or under ``if TYPE_CHECKING:`` counts): what two modules share
    lives below both (``service/reading.py``, ``api/cli/common.py``, ``api/ops/connections.py``,
    ``projections/exports/event_findings.py``), and ``api/`` is one package per program."""
    graph = import_graph(*LAYERS)
    assert "service.games" in graph["service.delay"] or "service.delay" in graph["service.games"]
    assert cycles(graph) == []


def test_the_api_is_one_package_per_program() -> None:
    """``api/``: the JSON API, the pages, the stream process, the command line and operations,
    each its own package; beside them only the app that puts their blueprints together and the
    settings every program reads alike (without Flask: ``api.settings``)."""
    packages = {p.parent.name for p in (ROOT / "api").glob("*/__init__.py")}
    assert packages == {"json_api", "pages", "streams", "cli", "ops"}
    assert sorted(p.name for p in (ROOT / "api").glob("*.py")) == [
        "__init__.py",
        "app.py",
        "settings.py",
    ]


def test_the_checkers_see_nested_imports_and_cycles(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import a\nif x:\n    from b import c\n"
        "def f():\n    import d\n    g = lambda: 0\nclass K:\n    def m(self):\n        import e\n"
    )
    tree = parse(module)
    top = [ast.unparse(n) for n in import_nodes(tree, in_functions=False)]
    inner = [ast.unparse(n) for n in import_nodes(tree, in_functions=True)]
    assert (top, inner) == (["import a", "from b import c"], ["import d", "import e"])
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# ---------------------------------------------------------------------------- families
#
# A game family is one package under ``domain/`` (``domain/ccg/``, ``domain/classic/``): its
# write side (``domain.ruleset.Ruleset``) and its read side (``domain.family.Family``). Nothing
# above ``domain/`` imports a family package or names a ruleset: it finds a game's family by the
# ruleset's registered name (issue #23).

ABOVE_DOMAIN = ("api", "service", "adapters", "projections")
FAMILIES = ("domain.ccg", "domain.classic")
#: Files above ``domain/`` that still import a family or name a ruleset, each with why. Only
#: ever shrinks: a new offender fails :func:`test_nothing_above_the_domain_knows_a_family`.
FAMILY_OFFENDERS_LEFT: dict[str, str] = {}


def ruleset_literals(path: Path) -> list[str]:
    """The lines of ``path`` that name a ruleset (``munchkin-...``), comments and docstrings
    included: a family's name is the family's to say."""
    return [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "munchkin-" in line
    ]


def family_offenders() -> list[str]:
    found: list[str] = []
    for layer in ABOVE_DOMAIN:
        for path in modules(layer):
            rel = path.relative_to(ROOT).as_posix()
            if rel in FAMILY_OFFENDERS_LEFT:
                continue
            found += [f"{rel}: {n}" for n in imports_of(path) if is_under(n, FAMILIES)]
            found += [f"{rel}: {line}" for line in ruleset_literals(path)]
    return found


def test_nothing_above_the_domain_knows_a_family() -> None:
    assert family_offenders() == []


#: The kernel's modules that host events (docs/rules.md F): they ask a game's family
#: (``domain.family``'s event part) and, as the layers above, import none and name no ruleset.
TOURNAMENT = "domain/tournament"


def tournament_offenders() -> list[str]:
    found: list[str] = []
    for path in sorted((ROOT / TOURNAMENT).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}: {n}" for n in imports_of(path) if is_under(n, FAMILIES)]
        found += [f"{rel}: {line}" for line in ruleset_literals(path)]
    return found


def test_the_events_know_no_family() -> None:
    assert tournament_offenders() == []


def kernel_modules() -> list[Path]:
    """``domain/`` outside its family packages: the kernel (``domain/tournament/`` too)."""
    return [p for p in modules("domain") if not is_under(module_name(p), FAMILIES)]


def test_the_kernel_imports_no_family() -> None:
    """The app registers the families (``domain.family.load_families``); the kernel, as
    python-chess's core its variants, imports none (a lazy import counts)."""
    found = [
        f"{path.relative_to(ROOT).as_posix()}: {name}"
        for path in kernel_modules()
        for name in imports_of(path)
        if is_under(name, FAMILIES)
    ]
    assert "domain.tournament.rules" in {module_name(p) for p in kernel_modules()}
    assert found == []


def test_the_allowed_family_offenders_still_offend() -> None:
    """An entry of :data:`FAMILY_OFFENDERS_LEFT` that no longer offends must go."""
    for rel in FAMILY_OFFENDERS_LEFT:
        path = ROOT / rel
        assert path.exists(), rel
        names = [n for n in imports_of(path) if is_under(n, FAMILIES)]
        assert names or ruleset_literals(path), f"{rel} knows no family: drop it from the list"


def test_the_family_checker_sees_imports_and_names(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""about munchkin-ccg"""\ndef f():\n    from domain.classic import x\n')
    assert [n for n in imports_of(module) if is_under(n, FAMILIES)] == [
        "domain.classic",
        "domain.classic.x",
    ]
    assert len(ruleset_literals(module)) == 1


# ---------------------------------------------------------------------------- family fields
#
# The generic read side (``projections/`` and the kernel's views and family contract) reads a
# card or a seat only through the state conventions and what the game's family says: the card
# fields a judge's diff lists (``Family.diff_card_fields``), a card's own fields in its view
# (``Family.card_view``), the history row's hero (``Family.history_hero``). Naming one family's
# fields there again would show every other family's games the CCG's way.

#: Card and seat fields of the Munchkin CCG that the generic read side once named.
FAMILY_FIELDS = frozenset({"damage", "tokens", "zapped", "cost_mod", "stuck", "hero"})
#: The kernel's generic read side, beside ``projections/``.
KERNEL_READ_SIDE = ("domain/viewing.py", "domain/family.py")
#: Names a file may use as its own: a history row's ``hero`` column (``Family.history_hero``
#: fills it).
OWN_NAMES = {"projections/history.py": frozenset({"hero"})}


def field_literals(path: Path, names: frozenset[str]) -> list[str]:
    """The string literals of ``path`` that are exactly one of ``names`` (a docstring or a
    comment that mentions one is prose, not a key)."""
    return [
        f"{path.name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(parse(path))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    ]


def test_the_generic_read_side_names_no_familys_card_fields() -> None:
    paths = [*modules("projections"), *(ROOT / rel for rel in KERNEL_READ_SIDE)]
    found: list[str] = []
    for path in paths:
        rel = path.relative_to(ROOT).as_posix()
        found += field_literals(path, FAMILY_FIELDS - OWN_NAMES.get(rel, frozenset()))
    assert found == []


def test_the_field_checker_sees_keys_not_prose(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""damage and tokens"""\n# zapped\nx = card["damage"]\ny = ("stuck",)\n')
    assert field_literals(module, FAMILY_FIELDS) == ["m.py:3: 'damage'", "m.py:4: 'stuck'"]


def test_the_commands_that_need_no_app_start_without_flask() -> None:
    """``munchlog export``, ``verify``, ``publish``, ``worker`` ... import :mod:`api.settings`,
    not the app: Flask and the routes cost a command about 0.3 s of start-up (0.69-0.75 s against
    0.40-0.43 s of CPU for an export)."""
    code = (
        "import sys, api.cli.main, api.cli.history, api.cli.publish, api.cli.events\n"
        "print(sorted(m for m in ('flask', 'api.app', 'marshmallow') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_any_program_module_imported_alone_sees_every_family() -> None:
    """Importing a module of ``api`` (``api.app``, as the servers and benches do) registers the
    installed families first, so the schemas built at import hold each family's seat fields
    (the CCG's ``hero``, classic's ``doors``), as through ``from api import create_app``."""
    code = (
        "import api.app\nfrom api.json_api.schemas import SeatSpecSchema\n"
        "print(sorted({'hero', 'doors', 'treasures'} & set(SeatSpecSchema().fields)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "['doors', 'hero', 'treasures']", out.stdout + out.stderr
