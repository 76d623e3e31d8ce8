"""The trace in docs/rules.md ("Trace: the classic rulebooks, paragraph by paragraph") names,
for every paragraph of the three classic rulebooks, the code and the test that enforce it or
the decision taken instead. This test checks the trace against the project, not against the
rulebooks (they are not shipped):

- each set's table has a row for every section of its rulebook, in the rulebook's order (the
  section titles are listed here);
- every module it names exists, and so does the function named after ``::``;
- every test file it names exists, and so does the test function named after ``::``;
- a legality-table row it cites by error code (``test_strict`` … ``rule/…``) is one the
  legality table has;
- every row names a test or says what was decided instead.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
TRACE_HEADING = "## Trace: the classic rulebooks, paragraph by paragraph"
LEGALITY = "tests/classic/test_legality.py"

#: Each rulebook's sections (their titles, in the rulebook's order), by the set's abbreviation
#: in docs/rules.md *Official sources*. A row's section is the part before :data:`SUB`.
SECTIONS: dict[str, list[str]] = {
    "DX": [
        "Introduction",
        "Setup",
        "Conflicts Between Cards and Rules",
        "Card Management",
        "Character Creation",
        "Starting and Finishing the Game",
        "When You May Take Actions",
        "Turn Phases",
        "Combat: Basic Rules",
        "Character Stats",
        "Super Munchkin and Half-Breed",
        "Treasures",
        "Items",
        "Level Counters: It's Not Cheating, It's Using the Rules!",
        '"One-Shot" Treasures',
        "Other Treasures",
        "Combat",
        "Monsters",
        "Monster Enhancers",
        "Fighting Multiple Monsters",
        "Undead Monsters",
        "Asking For Help",
        "Interfering With Combat",
        "Rewards",
        "Example of Combat, With Numbers and Everything",
        "Running Away",
        "Death",
        "Curses",
        "Super-Sized Munchkin",
        "Faster Play Rules",
        "More Munchkin!",
        "Credits",
    ],
    "OW": [
        "Starting and Finishing the Game",
        "Turn Phases",
        "Combat",
        "Fighting Multiple Monsters",
        "Asking For Help",
        "Running Away",
        "Death",
        "Treasure",
        "Character Stats",
        "Items",
        "When to Play Cards",
        "Undead Monsters",
        "Interfering With Combat",
        "Example of Combat, With Numbers and Everything",
        "Level Counters: It's Not Cheating, It's Using the Rules!",
    ],
    "AoS": [
        "Introduction",
        "Setup",
        "Card Management",
        "Character Creation",
        "Starting and Finishing the Game",
        "Conflicts Between Cards and Rules",
        "When You May Take Actions",
        "Turn Phases",
        "Combat: Basic Rules",
        "Character Stats",
        "Alliance",
        "Level Counters: It's Not Cheating, It's Using the Rules!",
        "Treasures",
        "Items",
        '"One-Shot" Treasures',
        "Other Treasures",
        "Combat",
        "Interfering With Combat",
        "Monsters",
        "Monster Enhancers",
        "Fighting Multiple Monsters",
        "Example of Combat, With Numbers and Everything",
        "Undead and Chaos Monsters",
        "Asking For Help",
        "Rewards",
        "Running Away",
        "Death",
        "Curses",
        "Super-Sized Munchkin",
        "Faster Play Rules",
        "More Munchkin!",
        "Combining This With Munchkin Warhammer 40,000",
    ],
}
#: Sub-headings the rulebooks run into a section's text: ``(section, sub-heading)``, the trace's
#: section cell joining the two with :data:`SUB`.
SUBSECTIONS: dict[str, set[tuple[str, str]]] = {
    "DX": {
        ("Character Stats", "Level"),
        ("Character Stats", "Class"),
        ("Character Stats", "Race"),
        ("Items", "Big Items"),
        ("Items", "Trading"),
        ("Items", "Selling Items for Levels"),
    },
    "OW": {
        ("Character Stats", "Level"),
        ("Character Stats", "Class"),
        ("Items", "Trading"),
        ("Items", "Selling Items for Levels"),
        ("When to Play Cards", "Monsters"),
    },
    "AoS": {
        ("Character Stats", "Level"),
        ("Character Stats", "Army"),
        ("Items", "Big Items"),
        ("Items", "Steeds"),
        ("Items", "Trading"),
        ("Items", "Selling Items for Levels"),
    },
}
#: How a row's section cell joins a section and its sub-heading.
SUB = " \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} "
DASH = "\N{EN DASH}"
COLUMNS = ("section", "¶", "begins", "enforced in", "checked by", "decision")
DECISIONS = ("not a rule", "not modelled", "left to the table", "read as", "no test", "defect")
MODULE = re.compile(r"`((?:domain|projections|service|adapters|api)/[\w/]+\.py)(?:::(\w+))?`")
TEST = re.compile(r"`(tests/[\w/]+\.py)(?:::(\w+))?`")
ERROR_CODE = re.compile(r"`(rule/[a-z_]+)`")

Row = dict[str, str]


def _cells(line: str) -> list[str]:
    """The cells of a table line; a ``|`` inside backticks or quotes is not expected."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


@cache
def trace() -> dict[str, list[Row]]:
    """``{set abbreviation: rows}`` of the trace's tables, one table per ``###`` subsection."""
    text = RULES_DOC.read_text(encoding="utf-8")
    assert TRACE_HEADING in text, f"docs/rules.md has no {TRACE_HEADING!r}"
    body = text.split(TRACE_HEADING, 1)[1].split("\n## ", 1)[0]
    tables: dict[str, list[Row]] = {}
    current: str | None = None
    for line in body.splitlines():
        if line.startswith("### "):
            found = re.search(r"\((DX|OW|AoS)\)\s*$", line)
            assert found, f"a trace subsection names its set as (DX), (OW) or (AoS): {line!r}"
            current = found.group(1)
            assert current not in tables, f"two subsections for {current}"
            tables[current] = []
        elif line.startswith("|") and current is not None:
            cells = _cells(line)
            if tuple(cells) == COLUMNS or all(re.fullmatch(r"-+", c) for c in cells):
                continue
            assert len(cells) == len(COLUMNS), f"{current}: a row of {len(cells)} cells: {line!r}"
            tables[current].append(dict(zip(COLUMNS, cells, strict=True)))
    return tables


def _all_rows() -> list[tuple[str, Row]]:
    return [(abbr, row) for abbr, rows in trace().items() for row in rows]


@cache
def _defined(path: str) -> frozenset[str]:
    """Every function and class name defined anywhere in ``path`` (methods included)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=path)
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, kinds))


@cache
def _tests_in(path: str) -> frozenset[str]:
    """The test functions of a test module (module level ``test_*`` and test class methods)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), filename=path)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test_"
        ):
            names.add(node.name)
    return frozenset(names)


def test_the_trace_has_a_table_per_set() -> None:
    assert sorted(trace()) == sorted(SECTIONS)
    assert all(len(rows) >= len(SECTIONS[abbr]) for abbr, rows in trace().items())


@pytest.mark.parametrize("abbr", sorted(SECTIONS))
def test_every_section_of_the_rulebook_has_rows_in_its_order(abbr: str) -> None:
    rows = trace()[abbr]
    order: list[str] = []
    for row in rows:
        top = row["section"].split(SUB)[0]
        if top not in order:
            order.append(top)
    assert order == SECTIONS[abbr], f"{abbr}: sections traced {order}"
    subs = {tuple(row["section"].split(SUB)) for row in rows if SUB in row["section"]}
    assert subs == SUBSECTIONS[abbr]


@pytest.mark.parametrize("abbr", sorted(SECTIONS))
def test_each_section_is_one_block_with_its_paragraphs_numbered(abbr: str) -> None:
    seen: list[str] = []
    for row in trace()[abbr]:
        if not seen or seen[-1] != row["section"]:
            assert row["section"] not in seen, f"{abbr}: {row['section']!r} is split"
            seen.append(row["section"])
        assert re.fullmatch(f"[0-9]+({DASH}[0-9]+)?", row["¶"]), f"{abbr}: ¶ {row['¶']!r}"
        assert row["begins"], f"{abbr}: {row['section']} ¶{row['¶']} quotes nothing"


def test_every_module_and_function_the_trace_names_exists() -> None:
    missing = []
    for abbr, row in _all_rows():
        for path, name in MODULE.findall(row["enforced in"] + row["decision"]):
            where = f"{abbr} {row['section']} ¶{row['¶']}: {path}"
            if not (ROOT / path).is_file():
                missing.append(where)
            elif name and name not in _defined(path):
                missing.append(f"{where}::{name}")
    assert missing == []


def test_every_test_the_trace_names_exists() -> None:
    missing = []
    for abbr, row in _all_rows():
        for path, name in TEST.findall(row["checked by"] + row["decision"]):
            where = f"{abbr} {row['section']} ¶{row['¶']}: {path}"
            if not (ROOT / path).is_file():
                missing.append(where)
            elif name and name not in _tests_in(path):
                missing.append(f"{where}::{name}")
    assert missing == []


def test_the_legality_rows_the_trace_cites_are_in_the_legality_table() -> None:
    table = (ROOT / LEGALITY).read_text(encoding="utf-8")
    missing = []
    for abbr, row in _all_rows():
        if f"{LEGALITY}::test_strict" not in row["checked by"]:
            continue
        for code in ERROR_CODE.findall(row["checked by"]):
            if f'"{code}"' not in table:
                missing.append(f"{abbr} {row['section']} ¶{row['¶']}: {code}")
    assert missing == []


def test_every_row_names_a_test_or_a_decision() -> None:
    bare = [
        f"{abbr} {row['section']} ¶{row['¶']}"
        for abbr, row in _all_rows()
        if not TEST.search(row["checked by"])
        and not any(word in row["decision"] for word in DECISIONS)
    ]
    assert bare == []


def test_a_row_without_code_is_a_decision() -> None:
    # A paragraph no module enforces is one munchlog decided about: say what.
    bare = [
        f"{abbr} {row['section']} ¶{row['¶']}"
        for abbr, row in _all_rows()
        if not MODULE.search(row["enforced in"])
        and not any(word in row["decision"] for word in DECISIONS)
    ]
    assert bare == []


def test_the_trace_stands_alone() -> None:
    text = RULES_DOC.read_text(encoding="utf-8").split(TRACE_HEADING, 1)[1]
    assert "../shared" not in text and "seeds/" not in text
