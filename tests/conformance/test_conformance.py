"""The DATC-style conformance suite: one JSON case per rule situation, each citing its case.

Run one case: ``pytest tests/conformance -k 024``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conformance.harness import run_case
from tests.conformance.naval_harness import run_case as run_naval_case

CASES = sorted((Path(__file__).parent / "sixth_fleet_1975").glob("*.json"))
NAVAL = sorted((Path(__file__).parent / "naval_module").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = json.loads(path.read_text("utf-8"))
    assert case.get("cites"), "every case cites the rule it tests"
    problems = run_case(case)
    assert not problems, "\n".join(problems)


def test_every_worked_example_has_a_case() -> None:
    """Every SF75-* example of the shared examples.json is covered by a case."""
    shared = Path(__file__).resolve().parents[2] / ".." / "shared" / "rules" / "examples.json"
    if not shared.is_file():
        pytest.skip("the shared rules folder is not available")
    ids = {
        c["id"]
        for c in json.loads(shared.read_text("utf-8"))["cases"]
        if c["id"].startswith("SF75")
    }
    covered = {json.loads(p.read_text("utf-8")).get("example") for p in CASES}
    assert ids <= covered, sorted(ids - covered)


@pytest.mark.parametrize("path", NAVAL, ids=[p.stem for p in NAVAL])
def test_naval_case(path: Path) -> None:
    case = json.loads(path.read_text("utf-8"))
    assert case.get("cites"), "every case cites the rule it tests"
    problems = run_naval_case(case)
    assert not problems, "\n".join(problems)


def test_every_naval_example_has_a_case() -> None:
    """Every NM-* example of the shared examples.json is covered by a naval_module case."""
    shared = Path(__file__).resolve().parents[2] / ".." / "shared" / "rules" / "examples.json"
    if not shared.is_file():
        pytest.skip("the shared rules folder is not available")
    ids = {
        c["id"] for c in json.loads(shared.read_text("utf-8"))["cases"] if c["id"].startswith("NM-")
    }
    covered = {json.loads(p.read_text("utf-8")).get("example") for p in NAVAL}
    assert ids <= covered, sorted(ids - covered)
