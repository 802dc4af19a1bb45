"""One orders parser: ``referee.engine.orders.parse_orders(text, file, vocabulary)``, reached
through ``Ruleset.parse_orders`` (``docs/rulesets.md``). A ruleset declares its words
(``vocabulary.py``), never a parser of its own or a wrapper binding its vocabulary to the
core one: that would be a second way to read an orders file."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "referee" / "rules"
PARSERS = {"parse_orders", "parse_orders_json", "parse_orders_text"}


def test_no_ruleset_module_defines_an_orders_parser() -> None:
    found = []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in PARSERS:
                found.append(f"{path.relative_to(RULES)}:{node.lineno} {node.name}")
    assert not found, found
