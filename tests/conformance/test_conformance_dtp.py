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


def test_every_implemented_dtp_case_has_a_case() -> None:
    """One case at least for each DTP case the rules package implements."""
    cited = {c for p in CASES for c in json.loads(p.read_text("utf-8"))["cites"]}
    wanted = {
        "DTP 4.01a", "DTP 4.01b", "DTP 4.01c", "DTP 4.01d", "DTP 4.1", "DTP 6.0c", "DTP 6.0d",
        "DTP 6.1", "DTP 6.2", "DTP 6.2a", "DTP 6.2b", "DTP 6.21", "DTP 6.22", "DTP 6.23",
        "DTP 6.24", "DTP 6.3", "DTP 6.41", "DTP 6.42", "DTP 6.43", "DTP 6.51", "DTP 6.52",
        "DTP 6.62", "DTP 6.63", "DTP 6.64", "DTP 6.65", "DTP 8.14", "DTP 8.15", "DTP 8.2",
        "DTP 8.21", "DTP 8.22", "DTP 8.231", "DTP 8.232", "DTP 8.233", "DTP 8.234",
        "DTP 8.51", "DTP 8.52", "DTP 8.54", "DTP 8.55", "DTP 8.57", "DTP 9.15", "DTP 9.23",
        "DTP 9.24", "DTP 9.27", "DTP 9.29", "DTP 10.42", "DTP 10.44", "DTP 11.0", "DTP 5.24",
        "DTP 5.25", "DTP 9.22", "DTP 9.25",
    }  # fmt: skip
    assert wanted <= cited, sorted(wanted - cited)
