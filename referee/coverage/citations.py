"""The rule cases a ruleset's code cites, found by reading its source (never importing it).

A citation is a string literal that is a case number (``"8.24"``, ``"6.43B"``, ``"DTP 8.232"``,
``"DTP 11.3 rule 7"``), the ``rule`` of a :class:`~referee.engine.core.Violation` or an
event, or a bracketed case inside a message (``"... [8.71]"``). Docstrings and comments are
left out: they explain, they do not cite. ``rows_for`` says which declared rows a citation
names, so a page can show where each case is applied and a test can find a citation no row
declares.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from referee.engine.core import cite

_NUM = r"\d{1,3}\.\d{1,4}(?:\.\d{1,2})?[A-Za-z]?(?:\([a-z]\))?(?: (?:rules?|victory) \d+)?"
WHOLE = re.compile(rf"^(?:(?:DTP|SPI) )?{_NUM}$")
"""A string that is one case and nothing else."""
_ONE = rf"(?:(?:DTP|SPI) )?{_NUM}"
BRACKETED = re.compile(rf"\[({_ONE}(?:, {_ONE})*)\]")
"""Cases cited inside a message: ``[8.71]``, ``[DTP 9.15]``, ``[6.11, 5.26]``."""
_SUFFIX = re.compile(r"(?:\([a-z]\)|[A-Za-z]| (?:rules?|victory) \d+)$")


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """The string literals that stand alone as statements: docstrings of modules, classes,
    functions and attributes. They explain a case; they do not apply it."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def cited_in_source(text: str) -> set[str]:
    """The cases one Python source cites (see the module docstring)."""
    tree = ast.parse(text)
    docs = _docstring_nodes(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) in docs:
            continue
        value = node.value.strip()
        if WHOLE.match(value):
            found.add(value)
        for m in BRACKETED.finditer(node.value):
            found.update(m.group(1).split(", "))
    return found


def cited_by_package(package: Path) -> dict[str, set[str]]:
    """Case -> the modules (file stems, sorted by the caller) of ``package`` that cite it."""
    out: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        for case in cited_in_source(path.read_text(encoding="utf-8")):
            out.setdefault(case, set()).add(path.stem)
    return out


def _in_section(row: str, section: str) -> bool:
    """Is ``row`` a case under ``section`` (``8.5`` holds ``8.5.1``, ``8.1`` holds ``8.13``,
    ``4.01`` holds ``4.01a``)?"""
    if not row.startswith(section) or row == section:
        return False
    nxt = row[len(section)]
    return nxt == "." or (nxt.isalnum() and section[-1].isdigit())


def rows_for(citation: str, ids: Iterable[str]) -> list[str]:
    """The declared rows ``citation`` names: the row itself; else, without a sub-letter,
    a bracketed part or a rule number (``6.43B`` -> ``6.43``, ``DTP 11.3 rule 9`` ->
    ``DTP 11.3``), that row; else every row of the section it heads (``8.5`` -> ``8.5.1``
    ... ``8.5.5``). Empty when no row answers: the citation is missing from the page."""
    ids = list(ids)
    known = set(ids)
    case = citation
    while True:
        if case in known:
            return [case]
        shorter = _SUFFIX.sub("", case).rstrip()
        if shorter == case:
            break
        case = shorter
    return [r for r in ids if _in_section(r, case)]


def undeclared(rule: str, ruleset: str, ids: Iterable[str]) -> list[str]:
    """What is wrong with the citation ``rule`` in ``ruleset``, whose ``cases.toml`` declares
    ``ids``: it reads as no case (:func:`~referee.engine.core.cite`), or it names a case no
    row declares. Empty when every case it cites is declared (the orders file's own
    citation, ``"orders"``, is no rulebook case and always passes)."""
    try:
        cases = cite(rule, ruleset)
    except ValueError as exc:
        return [str(exc)]
    ids = list(ids)
    out = []
    for c in cases:
        plain = str(replace(c, provisional=False))
        if not c.orders_file and not rows_for(plain, ids):
            out.append(f"{rule!r} names {plain}, not declared in cases.toml")
    return out
