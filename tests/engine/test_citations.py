"""Typed rule citations (issue 25): every citation a ruleset's code writes is read into
:class:`~referee.engine.core.RuleCase` (ruleset, case, sub-case), gives its string back
unchanged (reports stay byte-identical), and names a case its ruleset declares in
``cases.toml``; a citation of a case the ruleset does not declare fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee.coverage.cases import load_cases
from referee.coverage.citations import cited_by_package, undeclared
from referee.engine.core import Event, RuleCase, Violation, cite

REPO = Path(__file__).resolve().parents[2]
PACKAGES = {
    rid: REPO / "referee" / "rules" / rid
    for rid in (
        "carrier_battlegroup",
        "naval_module",
        "sixth_fleet_1975",
        "sixth_fleet_2019",
        "sixth_fleet_dtp",
        "declared",
    )
} | {"toy_duel": REPO / "tests" / "toy_duel"}

# the callables that take a rule citation, and the position of that argument: the one
# violation type, events, die rolls and the decisions owed by a player
RULE_ARG = {"Violation": 0, "Event": 1, "roll": 2, "Roll": 4, "PendingDecision": 3}


def test_the_citations_the_code_writes_are_typed() -> None:
    assert cite("DTP 8.23b", "sixth_fleet_dtp") == (RuleCase("sixth_fleet_dtp", "DTP 8.23", "b"),)
    assert cite("8.24", "sixth_fleet_1975") == (RuleCase("sixth_fleet_1975", "8.24"),)
    assert cite("provisional 10.0", "sixth_fleet_2019") == (
        RuleCase("sixth_fleet_2019", "10.0", provisional=True),
    )
    assert cite("11.3 rule 4", "sixth_fleet_dtp") == (
        RuleCase("sixth_fleet_dtp", "11.3", "rule 4"),
    )
    assert [c.case for c in cite("8.51, 9.15, 9.29", "sixth_fleet_dtp")] == ["8.51", "9.15", "9.29"]
    assert cite("orders", "naval_module")[0].orders_file
    assert Violation("6.43B", "m").cases("x") == (RuleCase("x", "6.43", "B"),)
    assert Event("move", "4.0 step 4e", "t").cases("x") == (RuleCase("x", "4.0", "step 4e"),)


@pytest.mark.parametrize(
    "text",
    ["8.24", "DTP 4.01d", "provisional 10.0", "11.3 rule 4", "DTP 11.3 victory 3", "28.14(a)"],
)
def test_a_citation_reads_back_as_written(text: str) -> None:
    assert ", ".join(str(c) for c in cite(text, "x")) == text


@pytest.mark.parametrize("text", ["", "eight", "8.", "DTP8.23", "8.24 ", "8.24,9.1", "rule 4"])
def test_a_string_that_cites_no_case_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="cites no rule case"):
        cite(text, "x")


def _written(package: Path) -> dict[str, list[str]]:
    """Citation -> ``file:line`` of every string literal the package passes as a rule: the
    rule argument of a violation, problem, event or roll, and every ``rule=`` keyword."""
    out: dict[str, list[str]] = {}
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
            args = [k.value for k in node.keywords if k.arg == "rule"]
            if name in RULE_ARG and len(node.args) > RULE_ARG[name]:
                args.append(node.args[RULE_ARG[name]])
            for a in args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    out.setdefault(a.value, []).append(f"{path.name}:{a.lineno}")
    return out


def _undeclared(package: Path, ruleset: str, ids: list[str]) -> list[str]:
    """Each citation of ``package`` that reads as no case, or names a case not in ``ids``."""
    found = _written(package)
    for c, modules in cited_by_package(package).items():
        found.setdefault(c, []).extend(f"{m}.py" for m in sorted(modules))
    assert found, f"no citation found in {package}"
    return [
        f"{where[0]}: {e}"
        for text, where in sorted(found.items())
        for e in undeclared(text, ruleset, ids)
    ]


@pytest.mark.parametrize("ruleset", sorted(PACKAGES))
def test_every_citation_names_a_case_the_ruleset_declares(ruleset: str) -> None:
    package = PACKAGES[ruleset]
    ids = [r.id for r in load_cases(package / "cases.toml").rows]
    bad = _undeclared(package, ruleset, ids)
    assert not bad, "\n".join(bad)


def test_an_undeclared_case_or_a_malformed_citation_fails(tmp_path: Path) -> None:
    """The check above can fail: a package citing a case its cases.toml lacks, or writing a
    rule that is no citation at all."""
    (tmp_path / "rules.py").write_text(
        'Violation("9.99", "no such case")\nEvent("move", "DTP8.2", "typo")\n'
        'Violation("8.24", "declared")\n',
        encoding="utf-8",
    )
    bad = _undeclared(tmp_path, "toy", ["8.24", "9.1"])
    assert sorted(bad) == [
        "rules.py:1: '9.99' names 9.99, not declared in cases.toml",
        "rules.py:2: 'DTP8.2' cites no rule case of toy (one: 'DTP8.2')",
    ]
