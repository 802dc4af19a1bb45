"""The core reaches rulesets through the registry only [issue 10 §7].

Every module of ``referee/`` outside ``referee/rules/`` is read as Python and its imports
listed (top-level and the lazy ones inside functions); none may import a ruleset package
(``referee.rules.<anything>``). The registry names rulesets by id in data
(``referee/engine/ruleset.py``, ``referee/source/schema.py``) and imports them with
``importlib``, so it passes this test by construction.
"""

from __future__ import annotations

import ast
from pathlib import Path

REFEREE = Path(__file__).resolve().parents[2] / "referee"


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out


def _offenders() -> list[str]:
    bad: list[str] = []
    for path in sorted(REFEREE.rglob("*.py")):
        rel = path.relative_to(REFEREE)
        if rel.parts[0] == "rules":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, name in _imports(tree):
            if name == "referee.rules" or name.startswith("referee.rules."):
                bad.append(f"referee/{rel}:{line}: imports {name}")
    return bad


def test_nothing_outside_rules_imports_a_ruleset() -> None:
    assert _offenders() == []


def test_the_scan_would_catch_an_import(tmp_path: Path) -> None:
    """The scan sees both forms, also inside a function (how commands import lazily)."""
    src = (
        "def f():\n    from referee.rules.x.y import z\n"
        "import referee.rules.x\nfrom referee.rules import x\n"
    )
    found = [n for _, n in _imports(ast.parse(src))]
    assert "referee.rules.x.y" in found and "referee.rules.x" in found
    assert "referee.rules" in found


RULESET_IDS = {
    "carrier_battlegroup",
    "declared",
    "naval_module",
    "sixth_fleet_1975",
    "sixth_fleet_2019",
    "sixth_fleet_dtp",
}


def _names_a_ruleset(node: ast.expr) -> bool:
    """A string constant that is a ruleset id, alone or in a tuple/list/set literal."""
    if isinstance(node, ast.Constant):
        return node.value in RULESET_IDS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_ruleset(e) for e in node.elts)
    return False


def test_the_pbem_core_and_the_engine_branch_on_no_ruleset_id() -> None:
    """The PBEM core and the engine never compare anything with a ruleset's id (``ruleset.id
    == "declared"``): what differs between rulesets is a typed part of the contract
    (``Ruleset.orders_unclaimed_pieces``, a capability), so a new ruleset gets it by
    declaring it."""
    bad = []
    for folder in ("engine", "pbem", "picture", "viewer"):
        for path in sorted((REFEREE / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Compare) and any(
                    _names_a_ruleset(x) for x in (node.left, *node.comparators)
                ):
                    bad.append(f"referee/{path.relative_to(REFEREE)}:{node.lineno}")
    assert not bad, bad
