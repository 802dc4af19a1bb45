"""Carrier Battlegroup [8.1] Initial Deployment Exception: "If a scenario starts the task
force at sea, it is not required to be in a NATO base for its logistics". Both printed
scenarios start it in the NATO Base Area [4.0 step 9a], [25.0]; a scenario that fixes the
CVBG marker at sea starts it there (conformance case 033 shows the outfitting at sea)."""

from __future__ import annotations

import dataclasses

from referee.rules.carrier_battlegroup.setup import CARRIER, CVBG, NATO_BASE, new_game
from referee.source.model import Module
from tests.conformance.rulesets.carrier_battlegroup import module

AT_SEA = "Shetland Gap"


def _at_sea(m: Module, scenario: str) -> Module:
    """``m`` with ``scenario``'s task force (the CVBG marker and the carrier) fixed at sea."""
    sc = m.scenario(scenario)
    fixed = tuple(
        dataclasses.replace(f, hex=AT_SEA) if f.unit in (CVBG, CARRIER) else f for f in sc.fixed
    )
    scenarios = {**m.scenarios, scenario: dataclasses.replace(sc, fixed=fixed)}
    return dataclasses.replace(m, scenarios=scenarios)


def test_8_1_printed_scenarios_start_at_the_nato_base() -> None:
    m = module()
    for scenario in ("mission", "red_oktober"):
        st = new_game(m, scenario, "g")
        assert st.data["cvbg"]["space"] == NATO_BASE
        assert st.units[CVBG].location == NATO_BASE


def test_8_1_a_scenario_may_start_the_task_force_at_sea() -> None:
    st = new_game(_at_sea(module(), "mission"), "mission", "g")
    assert st.data["cvbg"]["space"] == AT_SEA
    assert st.units[CVBG].location == AT_SEA
    assert st.units[CARRIER].location == AT_SEA
