"""The rules coverage pages stay in step with the code and the tests (issue 32).

For every ruleset that declares its cases (``referee/rules/<id>/cases.toml``): every case its
code or its conformance catalogue cites is a row, every test a row names exists, every
enforced or provisional row is applied somewhere and shown by something, every switch a row
names is declared, and the committed page is the one the generator writes. The checks
themselves are tested on a toy package, so a broken check cannot pass silently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import app
from referee.coverage.cases import CasesError, parse_cases
from referee.coverage.citations import cited_in_source, rows_for
from referee.coverage.generate import coverage_of, declared_rulesets, page_files
from referee.coverage.page import build
from tests.clirun import Runner

RUN = Runner()
RULESETS = declared_rulesets()


def test_the_sixth_fleet_rulesets_have_pages() -> None:
    assert {"sixth_fleet_1975", "sixth_fleet_dtp"} <= set(RULESETS)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_declaration_is_in_step_with_the_code(ruleset: str) -> None:
    cov = coverage_of(ruleset)
    assert not cov.out_of_step, "\n".join(cov.out_of_step)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_committed_page_is_the_generated_one(ruleset: str) -> None:
    for path, text in page_files(coverage_of(ruleset)).items():
        assert path.is_file(), f"{path} missing: run python -m referee.coverage.generate"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.name} is stale: run python -m referee.coverage.generate {ruleset}"
        )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_row_a_moderator_must_act_on_says_why(ruleset: str) -> None:
    for row in coverage_of(ruleset).rows:
        c = row.case
        if c.status in ("partly", "not-built", "host", "player", "text"):
            assert len(c.reason.split()) >= 4, f"{c.id}: {c.reason!r}"
        if c.status == "provisional":
            assert c.interpretation, c.id


# ---- the checks themselves, on a toy package ---------------------------------------------

SOURCE = '''
"""A docstring citing [9.99] does not count."""
from x import Violation, Event

def f():
    """Nor here [9.98]."""
    Violation("8.21", "must attack [6.32]; may not leave [6.11, 5.26]", code="code")
    Event("retreat", "DTP 11.3 rule 7", "text")
    return "6.43B"
'''


def test_citations_are_string_literals_and_bracketed_cases() -> None:
    assert cited_in_source(SOURCE) == {"8.21", "6.32", "6.11", "5.26", "DTP 11.3 rule 7", "6.43B"}


def test_a_citation_names_its_row_or_its_section() -> None:
    ids = ["6.43", "8.5.1", "8.5.2", "8.13", "8.21", "DTP 11.3", "DTP 11.3 rule 7"]
    assert rows_for("6.43B", ids) == ["6.43"]
    assert rows_for("8.5", ids) == ["8.5.1", "8.5.2"]
    assert rows_for("8.1", ids) == ["8.13"]
    assert rows_for("DTP 11.3 rule 7", ids) == ["DTP 11.3 rule 7"]
    assert rows_for("DTP 11.3 rule 9", ids) == ["DTP 11.3"]
    assert rows_for("8.2", ids) == ["8.21"]
    assert rows_for("7.0", ids) == []


def _toy(tmp_path: Path, rows: list[dict[str, object]]) -> tuple[Path, dict[str, object]]:
    pkg = tmp_path / "referee" / "rules" / "toy"
    pkg.mkdir(parents=True)
    (pkg / "combat.py").write_text(SOURCE, encoding="utf-8")
    (pkg / "flags.py").write_text("class F:\n    real_switch: bool = True\n", "utf-8")
    cat = tmp_path / "tests" / "conformance" / "toy"
    cat.mkdir(parents=True)
    (cat / "001-x.json").write_text(json.dumps({"cites": ["8.21", "5.21"]}), "utf-8")
    data = {
        "meta": {
            "ruleset": "toy",
            "rulebook": "Toy",
            "source": "made up",
            "catalogues": ["tests/conformance/toy/*.json"],
            "flags": ["referee/rules/toy/flags.py"],
        },
        "case": rows,
    }
    return pkg, data


CONF = ["tests/conformance/toy/001-x.json"]
GOOD = [
    {
        "id": "6.32",
        "title": "t",
        "status": "enforced",
        "tests": CONF,
    },
    {
        "id": "6.43",
        "title": "t",
        "status": "provisional",
        "interpretation": "i",
        "switch": "real_switch",
        "tests": CONF,
    },
    {"id": "8.21", "title": "t", "status": "enforced"},
    {"id": "6.11", "title": "t", "status": "enforced", "tests": CONF},
    {"id": "5.26", "title": "t", "status": "enforced", "tests": CONF},
    {"id": "5.21", "title": "t", "status": "enforced", "where": ["combat.py"]},
    {
        "id": "DTP 11.3",
        "title": "t",
        "status": "partly",
        "reason": "only the docking is built",
        "where": ["combat.py"],
    },
]


def test_a_toy_package_in_step(tmp_path: Path) -> None:
    pkg, data = _toy(tmp_path, GOOD)
    cov = build(parse_cases(data, "toy"), tmp_path, pkg)
    assert cov.out_of_step == ()
    row = {r.case.id: r for r in cov.rows}["8.21"]
    assert row.where == ("combat.py",)
    assert row.conformance == ("tests/conformance/toy/001-x.json",)


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (lambda rows: rows[1:], "6.32: cited by combat but not a row"),
        (lambda rows: [r for r in rows if r["id"] != "5.21"], "5.21: cited by conformance case"),
        (
            lambda rows: [{**rows[0], "tests": ["tests/nowhere.py::test_x"]}, *rows[1:]],
            "6.32: test tests/nowhere.py::test_x does not exist",
        ),
        (
            lambda rows: [*rows, {"id": "9.1", "title": "t", "status": "enforced"}],
            "9.1: enforced, but no code cites it",
        ),
        (
            lambda rows: [
                *rows,
                {"id": "9.2", "title": "t", "status": "enforced", "where": ["combat.py"]},
            ],
            "9.2: enforced, but no conformance case or test shows it",
        ),
        (
            lambda rows: [rows[0], {**rows[1], "switch": "dead_switch"}, *rows[2:]],
            "6.43: switch dead_switch is declared by no flags file",
        ),
    ],
)
def test_each_way_out_of_step_is_found(tmp_path: Path, change, fault: str) -> None:
    pkg, data = _toy(tmp_path, change(list(GOOD)))
    cov = build(parse_cases(data, "toy"), tmp_path, pkg)
    assert any(p.startswith(fault) for p in cov.out_of_step), cov.out_of_step


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"id": "1.1", "title": "t", "status": "partly"}, "needs a `reason`"),
        ({"id": "1.1", "title": "t", "status": "not-built", "reason": " "}, "needs a `reason`"),
        ({"id": "1.1", "title": "t", "status": "provisional"}, "names its `interpretation`"),
        ({"id": "1.1", "title": "t", "status": "done"}, "status 'done'"),
        ({"id": "1.1", "title": "t", "status": "enforced", "wher": []}, "unknown key(s) wher"),
    ],
)
def test_a_bad_declaration_is_refused_with_its_place(row: dict, message: str) -> None:
    data = {"meta": {"ruleset": "t", "rulebook": "T", "source": "s"}, "case": [row]}
    with pytest.raises(CasesError, match=r"\[\[case\]\] #1") as e:
        parse_cases(data, "cases.toml")
    assert message in str(e.value)


# ---- referee rules ---------------------------------------------------------------------


def test_referee_rules_prints_the_page() -> None:
    r = RUN.invoke(app, ["rules", "sixth_fleet_1975"])
    assert r.exit_code == 0, r.output
    page = Path("docs/rules-coverage/sixth_fleet_1975.md")
    assert r.output == (Path(__file__).parents[1] / page).read_text(encoding="utf-8")


def test_referee_rules_json_and_status_filter() -> None:
    r = RUN.invoke(app, ["rules", "sixth_fleet_1975", "--json", "--status", "not-built"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["ruleset"] == "sixth_fleet_1975"
    assert all(row["status"] == "not-built" for row in data["rows"])
    assert sum(data["summary"].values()) >= 150


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "no_such_ruleset"], "no rules coverage page for ruleset 'no_such_ruleset'"),
        (["rules", "sixth_fleet_1975", "--status", "done"], "unknown status 'done'"),
    ],
)
def test_referee_rules_refuses_clearly(args: list[str], message: str) -> None:
    r = RUN.invoke(app, args)
    assert getattr(r.exception, "exit_code", None) == 2, r.output
    assert message in str(r.exception)
