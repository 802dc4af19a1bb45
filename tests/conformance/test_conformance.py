"""The conformance suite of every ruleset: one JSON case per rule situation, each citing its
case, all in one format (``docs/conformance.md``) and run by one harness (``harness.py``).

Run one ruleset's cases: ``pytest tests/conformance -k sixth_fleet_2019``; one case:
``pytest tests/conformance -k 'sixth_fleet_1975/024'``.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conformance.harness import FOLDERS, HERE, case_paths, load_case, run_case

CASES = case_paths()
SHARED_EXAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "rules" / "examples.json"
# the worked examples of the shared examples.json each ruleset's cases must cover
EXAMPLES = {
    "sixth_fleet_1975": "SF75",
    "sixth_fleet_2019": "DG19",
    "naval_module": "NM-",
    "sixth_fleet_dtp": "DTP-",
    "carrier_battlegroup": "CBG-",
}
WESTPAC = {"DTP-EX-11.5051", "DTP-EX-11.5091", "DTP-EX-11.5134"}  # they come with Westpac


def _name(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", CASES, ids=[_name(p) for p in CASES])
def test_case(path: Path) -> None:
    case = load_case(path)
    assert path.parent.name in FOLDERS[case["ruleset"]], (
        f"{case['ruleset']} case in the wrong folder"
    )
    problems = run_case(case)
    assert not problems, "\n".join(problems)


def test_every_folder_holds_cases() -> None:
    for ruleset, folders in FOLDERS.items():
        for folder in folders:
            assert list((HERE / folder).glob("*.json")), f"{ruleset}: no cases in {folder}/"


def shared_examples_or_skip(path: Path) -> Path:
    """``path`` when it exists; otherwise skip, except under ``CI=true``, where a missing
    ``../shared`` must fail the run rather than let the check pass silently."""
    if path.is_file():
        return path
    why = f"the shared rules folder is not available ({path})"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(why + " and CI=true: a CI run must have ../shared")
    pytest.skip(why)


def test_missing_shared_fails_under_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        shared_examples_or_skip(tmp_path / "examples.json")
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception):
        shared_examples_or_skip(tmp_path / "examples.json")


@pytest.mark.parametrize("ruleset", sorted(EXAMPLES))
def test_every_worked_example_has_a_case(ruleset: str) -> None:
    """Every worked example of the shared examples.json is covered by a case of its ruleset
    (``example``), but for the three Westpac examples, which come with Westpac, and those of
    Carrier Battlegroup, whose golden cases are Python tests yet (see its README)."""
    if ruleset == "carrier_battlegroup":
        pytest.skip("the CBG-* golden cases are tests/conformance/carrier_battlegroup/*.py")
    shared = shared_examples_or_skip(SHARED_EXAMPLES)
    prefix = EXAMPLES[ruleset]
    ids = {c["id"] for c in json.loads(shared.read_text("utf-8"))["cases"]}
    ids = {i for i in ids if i.startswith(prefix)} - WESTPAC
    covered = {load_case(p).get("example") for p in case_paths(ruleset)}
    assert ids <= covered, sorted(ids - covered)


def _cited(ruleset: str) -> set[str]:
    return {c for p in case_paths(ruleset) for c in load_case(p)["cites"]}


def test_every_2019_seed_rule_case_has_a_case() -> None:
    """One case at least for each rule case the 2019 ruleset implements from the seed."""
    wanted = {
        "2.1", "2.1.2", "2.3", "2.8", "2.8.2", "2.8.3", "2.11", "3.2", "3.2.1", "3.3.1",
        "4.1", "4.2", "4.3", "4.3.1", "4.4", "5.0", "5.1", "5.3", "6.0", "6.1", "6.2",
        "6.3", "6.6", "7.1.1", "7.1.2", "7.1.3", "7.2", "8.0", "8.1", "8.2", "8.3",
        "8.3.1", "8.3.2", "8.3.4", "8.4", "8.4.1",
    }  # fmt: skip
    assert wanted <= _cited("sixth_fleet_2019"), sorted(wanted - _cited("sixth_fleet_2019"))


def test_every_implemented_dtp_case_has_a_case() -> None:
    """One case at least for each DTP case the rules package implements, and for each
    Denmark Strait special rule [DTP 11.3]."""
    wanted = {
        "DTP 4.01a", "DTP 4.01b", "DTP 4.01c", "DTP 4.01d", "DTP 4.1", "DTP 6.0c", "DTP 6.0d",
        "DTP 6.1", "DTP 6.2", "DTP 6.2a", "DTP 6.2b", "DTP 6.21", "DTP 6.22", "DTP 6.23",
        "DTP 6.24", "DTP 6.3", "DTP 6.41", "DTP 6.42", "DTP 6.43", "DTP 6.51", "DTP 6.52",
        "DTP 6.62", "DTP 6.63", "DTP 6.64", "DTP 6.65", "DTP 8.14", "DTP 8.15", "DTP 8.2",
        "DTP 8.21", "DTP 8.22", "DTP 8.231", "DTP 8.232", "DTP 8.233", "DTP 8.234",
        "DTP 8.51", "DTP 8.52", "DTP 8.54", "DTP 8.55", "DTP 8.57", "DTP 9.15", "DTP 9.23",
        "DTP 9.24", "DTP 9.27", "DTP 9.29", "DTP 10.42", "DTP 10.44", "DTP 11.0", "DTP 5.24",
        "DTP 5.25", "DTP 9.22", "DTP 9.25", "DTP 11.3 rule 4", "DTP 11.3 rule 5",
        "DTP 11.3 rule 6", "DTP 11.3 rule 7", "DTP 11.3 rule 8",
    }  # fmt: skip
    assert wanted <= _cited("sixth_fleet_dtp"), sorted(wanted - _cited("sixth_fleet_dtp"))


def test_convoy_vp_is_exact() -> None:
    """A convoy's VP is a fraction, not rounded [DTP 11.3 rule 7]: 2 eliminations + 1/4."""
    from referee.rules.sixth_fleet_dtp import denmark_strait

    assert denmark_strait.convoy_vp_11_3_7(7, 4) == Fraction(9)


# ---- the harness can fail ----------------------------------------------------------------


def _case(ruleset: str, number: str) -> dict:
    folder = FOLDERS[ruleset][0]
    return load_case(next((HERE / folder).glob(f"{number}-*.json")))


def test_reach_after_checks_the_position_the_orders_leave() -> None:
    """A ``look`` after the orders can fail: a cost the unit does not pay after its retreat
    [8.73], a hex it cannot reach."""
    case = _case("sixth_fleet_1975", "142")
    assert run_case(case) == []
    case["steps"][-1]["expect"]["reach"] = {"SO-DE-1": {"1623": 2, "0101": None}}
    problems = run_case(case)
    assert any("reaches 1623 at cost 3, expected 2" in p for p in problems), problems
    assert any("should reach 0101" in p for p in problems), problems


def test_a_misspelt_expectation_fails() -> None:
    case = _case("sixth_fleet_2019", "067")
    case["steps"][-1]["expect"]["unitz"] = {}
    assert any("unknown expectation 'unitz'" in p for p in run_case(case))


def test_a_wrong_ruling_fails_in_every_kind_of_step() -> None:
    """Each kind of step reports a ruling the rules do not give: refusals, events, the
    position after, a probe's answer."""
    orders = _case("sixth_fleet_1975", "001")
    orders["steps"][-1]["expect"]["violations"] = ["9.99"]
    assert any("expected ['9.99']" in p for p in run_case(orders))
    probe = load_case(next((HERE / "sixth_fleet_dtp").glob("001-*.json")))
    probe["steps"][0]["expect"]["may_attempt"] = not probe["steps"][0]["expect"]["may_attempt"]
    assert any("may_attempt = " in p for p in run_case(probe))
    naval = _case("naval_module", "001")
    step = next(s for s in naval["steps"] if s["do"] == "orders" and s["expect"].get("events"))
    step["expect"]["events"] = [{"kind": "no-such-event"}]
    assert any("no event like" in p for p in run_case(naval))


def test_no_case_is_left_in_an_earlier_format() -> None:
    from tests.conformance.upgrade import upgrade

    assert upgrade(write=False) == [], "run python -m tests.conformance.upgrade"


def test_an_earlier_case_upgrades_to_the_same_rulings() -> None:
    """A 1975 case as it was written before issue 25 upgrades to the case the suite holds."""
    from tests.conformance.upgrade import convert_75

    old = {
        "id": "001",
        "cites": ["7.45", "8.41"],
        "title": "SG attacks the air unit on top of the stack",
        "example": "SF75-EX-7.45-a",
        "turn": 2,
        "phase": "combat",
        "side": "Soviet",
        "units": [
            ["SO-SG-1", "1422"],
            ["US-F4.1", "1423"],
            ["GR-DD-1", "1423"],
            ["TU-DE-1", "1423"],
        ],
        "orders": "attack SO-SG-1 -> US-F4.1",
        "expect": {"violations": ["8.41"]},
    }
    path = next((HERE / "sixth_fleet_1975").glob("001-*.json"))
    assert convert_75(old, path) == load_case(path)
