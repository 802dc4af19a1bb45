"""Naval Base units at set-up [32.21]: a base stands on a port hex its side controls, at most
one per hex; a scenario that breaks this is refused by ``new_game`` with a clear message and
exit code 1 (docs/interpretations.md NM-26). Play cases are in tests/conformance/naval_module
(NM-095..097, NM-112..114)."""

from __future__ import annotations

import dataclasses

import pytest

from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.rules.naval_module.bases import setup_32_21
from referee.rules.naval_module.context import Game
from tests.conformance.rulesets.naval_module import build_state, naval_module


def test_the_scenario_base_at_sevastopol_is_legal() -> None:
    m = naval_module()
    state = get_ruleset("naval_module").new_game(m, "kerch_feodosia", "g")
    assert state.units["SU-NB-SEV"].location == "Sevastopol"
    assert setup_32_21(Game.of(m), state) == []


@pytest.mark.parametrize(
    ("where", "control", "says"),
    [
        ("2923", {}, "not on a port hex its side controls"),  # a coastal hex, no port
        ("Sudak", {"Sudak": "Axis"}, "not on a port hex its side controls"),  # an enemy port
    ],
)
def test_a_base_off_a_friendly_port_is_refused(where: str, control: dict, says: str) -> None:
    m = naval_module()
    case = {"units": [["SU-NB-SEV", where]], "control": control}
    problems = setup_32_21(Game.of(m), build_state(m, case))
    assert len(problems) == 1 and says in problems[0] and "[32.21]" in problems[0]


def test_new_game_refuses_a_misplaced_base() -> None:
    m = naval_module()
    sc = m.scenarios["kerch_feodosia"]
    fixed = tuple(
        dataclasses.replace(f, hex="2923") if f.unit == "SU-NB-SEV" else f for f in sc.fixed
    )
    bad = dataclasses.replace(m, scenarios={"kerch_feodosia": dataclasses.replace(sc, fixed=fixed)})
    with pytest.raises(UserError) as e:
        get_ruleset("naval_module").new_game(bad, "kerch_feodosia", "g")
    assert "SU-NB-SEV" in str(e.value) and "[32.21]" in str(e.value)
    assert e.value.exit_code == 1 and e.value.hint
