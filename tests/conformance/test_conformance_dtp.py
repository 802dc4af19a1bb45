"""The DTP revised rules' conformance catalogue (``sixth_fleet_dtp/*.json``): one case per DTP
case at least, each citing it, and every ``DTP-*`` golden case of the shared examples (except
the three Westpac ones, which come with Westpac) with the book's numbers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conformance.dtp_harness import run_case

HERE = Path(__file__).resolve().parent / "sixth_fleet_dtp"
CASES = sorted(HERE.glob("*.json"))
WESTPAC = {"DTP-EX-11.5051", "DTP-EX-11.5091", "DTP-EX-11.5134"}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = json.loads(path.read_text("utf-8"))
    assert case.get("cites"), "every case cites the rule it tests"
    problems = run_case(case)
    assert not problems, "\n".join(problems)


def test_every_dtp_golden_case_but_westpac_has_a_case() -> None:
    shared = Path(__file__).resolve().parents[2] / ".." / "shared" / "rules" / "examples.json"
    if not shared.is_file():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("the shared rules folder is missing and CI=true")
        pytest.skip("the shared rules folder is not available")
    ids = {
        c["id"]
        for c in json.loads(shared.read_text("utf-8"))["cases"]
        if c["id"].startswith("DTP-")
    }
    covered = {json.loads(p.read_text("utf-8")).get("example") for p in CASES}
    assert ids - WESTPAC <= covered, sorted(ids - WESTPAC - covered)
