"""The Sixth Fleet (2019) conformance catalogue: one JSON case per rule situation, each citing
its case; every ``DG19-*`` golden case of the shared examples has a case with its numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conformance.harness_2019 import run_case

CASES = sorted((Path(__file__).parent / "sixth_fleet_2019").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = json.loads(path.read_text("utf-8"))
    assert case.get("cites"), "every case cites the rule it tests"
    problems = run_case(case)
    assert not problems, "\n".join(problems)


def test_every_dg19_golden_case_has_a_case() -> None:
    shared = Path(__file__).resolve().parents[2] / ".." / "shared" / "rules" / "examples.json"
    if not shared.is_file():
        pytest.skip("the shared rules folder is not available")
    ids = {
        c["id"]
        for c in json.loads(shared.read_text("utf-8"))["cases"]
        if c["id"].startswith("DG19")
    }
    covered = {json.loads(p.read_text("utf-8")).get("example") for p in CASES}
    assert ids <= covered, sorted(ids - covered)


def test_every_seed_rule_case_has_a_case() -> None:
    """One case at least for each rule case the ruleset implements from the seed."""
    cited = {c for p in CASES for c in json.loads(p.read_text("utf-8"))["cites"]}
    wanted = {
        "2.1", "2.1.2", "2.3", "2.8", "2.8.2", "2.8.3", "2.11", "3.2", "3.2.1", "3.3.1",
        "4.1", "4.2", "4.3", "4.3.1", "4.4", "5.0", "5.1", "5.3", "6.0", "6.1", "6.2",
        "6.3", "6.6", "7.1.1", "7.1.2", "7.1.3", "7.2", "8.0", "8.1", "8.2", "8.3",
        "8.3.1", "8.3.2", "8.3.4", "8.4", "8.4.1",
    }  # fmt: skip
    assert wanted <= cited, sorted(wanted - cited)


def test_standing_orders_are_hidden_from_the_other_side() -> None:
    """A side's standing `divert`/`eliminate` orders [8.3.2], [7.2] are decisions he has not
    yet had to take: the other side's view never holds them."""
    from referee.engine.ruleset import get_ruleset, parse_orders_for
    from tests.conformance.harness_2019 import build_state, module_2019

    m = module_2019()
    rs = get_ruleset(m.ruleset)
    st = build_state(m, {"units": [["SO-TU16.1", "Ukraine"], ["US-F14.1", "Naples"]]})
    earlier = parse_orders_for(rs, "side: NATO\n[standing]\ndivert US-F14.1 -> Sicily\n", "o")
    st = st.with_data(standing={"NATO": [o.to_json() for o in earlier.standing]})
    assert "standing" not in rs.view(m, st, "Soviet").data or not rs.view(m, st, "Soviet").data[
        "standing"
    ].get("NATO")
    assert rs.view(m, st, "NATO").data["standing"]["NATO"]
