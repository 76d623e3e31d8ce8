"""The rules reference belongs to the project: docs/rules.md indexes every section code and every
``rule/…`` error code the domain uses, and the README links it and stands alone.

The domain's sources are read, never imported (modules move; a file that does not parse fails
here loudly), so the test follows the code wherever it lives under ``domain/``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
README = ROOT / "README.md"
SECTION = re.compile(r"[A-F]\.[0-9]+")
ERROR_CODE = re.compile(r"rule/[a-z_]+")


def _sources(*packages: str) -> Iterator[Path]:
    for package in packages:
        yield from sorted((ROOT / package).rglob("*.py"))


def _literals(path: Path) -> Iterator[ast.Constant]:
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node


def _calls(path: Path) -> Iterator[ast.Call]:
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Call):
            yield node


def _table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"\|\s*-", line):
            rows.append([cell.strip().strip("*`").strip() for cell in line.strip("|").split("|")])
    return rows


def _documented_sections() -> set[str]:
    return {row[0] for row in _table_rows(RULES_DOC.read_text()) if SECTION.fullmatch(row[0])}


def _error_index() -> dict[str, set[str]]:
    """``{error code: {sections}}`` from the error index of docs/rules.md."""
    index: dict[str, set[str]] = {}
    for row in _table_rows(RULES_DOC.read_text()):
        if ERROR_CODE.fullmatch(row[0]) and len(row) > 1:
            index[row[0]] = set(SECTION.findall(row[1]))
    return index


def _sections_in_rule_arguments() -> dict[str, set[str]]:
    """Every section code the domain passes as a rule: a whole-string literal, which covers
    ``rule="A.9"``, ``{"rule": "A.9"}`` and ``check(ok, "rule/x", "message", "A.9")``."""
    found: dict[str, set[str]] = {}
    for path in _sources("domain"):
        where = str(path.relative_to(ROOT))
        for node in _literals(path):
            if SECTION.fullmatch(node.value):
                found.setdefault(node.value, set()).add(f"{where}:{node.lineno}")
    return found


def _error_codes_with_sections() -> dict[str, set[str]]:
    """``{rule/… code: {sections cited with it in the same call}}`` across the domain."""
    found: dict[str, set[str]] = {}
    for path in _sources("domain"):
        for call in _calls(path):
            values = [*call.args, *(k.value for k in call.keywords)]
            texts = [v.value for v in values if isinstance(v, ast.Constant)]
            strings = [t for t in texts if isinstance(t, str)]
            codes = [t for t in strings if ERROR_CODE.fullmatch(t)]
            sections = {t for t in strings if SECTION.fullmatch(t)}
            for code in codes:
                found.setdefault(code, set()).update(sections)
    return found


def test_the_scan_finds_the_rule_codes_it_looks_for() -> None:
    # Guard against a scan that silently finds nothing after a move.
    assert {"A.7", "A.8", "A.9", "A.11"} <= set(_sections_in_rule_arguments())
    assert len(_error_codes_with_sections()) >= 30


def test_every_section_code_passed_as_a_rule_has_a_row() -> None:
    documented = _documented_sections()
    missing = {
        code: sorted(where)
        for code, where in _sections_in_rule_arguments().items()
        if code not in documented
    }
    assert not missing, f"section codes without a row in docs/rules.md: {missing}"


def test_every_section_code_cited_in_the_code_has_a_row() -> None:
    # Docstrings and comments cite sections too ("RULES.md A.3", "(D.7)"): each must resolve.
    documented = _documented_sections()
    cited = {
        code: str(path.relative_to(ROOT))
        for path in _sources("domain", "projections", "api")
        for code in re.findall(r"\b[A-F]\.[0-9]+\b", path.read_text())
    }
    missing = {code: where for code, where in cited.items() if code not in documented}
    assert not missing, f"section codes cited but without a row in docs/rules.md: {missing}"


def test_every_error_code_is_indexed_with_its_sections() -> None:
    index = _error_index()
    problems = {
        code: f"cites {sorted(sections)}, indexed as {sorted(index.get(code, set()))}"
        for code, sections in _error_codes_with_sections().items()
        if code not in index or not sections <= index[code]
    }
    assert not problems, f"docs/rules.md error index is out of date: {problems}"


def test_every_documented_row_names_a_source_and_a_module_column() -> None:
    for row in _table_rows(RULES_DOC.read_text()):
        if SECTION.fullmatch(row[0]) or re.fullmatch(r"D\.C[0-9]+", row[0]):
            assert len(row) == 5, row
            assert all(row[:4]), row


def test_the_readme_links_the_rules_reference_and_stands_alone() -> None:
    text = README.read_text()
    assert re.search(r"\]\(docs/rules\.md(#[a-z0-9-]+)?\)", text), "README must link docs/rules.md"
    assert "../shared" not in text, "users do not have ../shared"
    assert "RULES.md" not in text, "RULES.md is a development file; cite docs/rules.md"


def test_the_rules_reference_stands_alone() -> None:
    text = RULES_DOC.read_text()
    assert "../shared" not in text
    assert "seeds/" not in text


def test_every_module_the_reference_names_exists() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:domain|projections|service|adapters|api)/[\w/]+\.py)`", text))
    assert named, "the reference names no module"
    assert sorted(p for p in named if not (ROOT / p).is_file()) == []
