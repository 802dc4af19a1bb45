"""Westpac's war limits on unloading [DTP 11.5102, 11.51022]: "Players may not conduct
amphibious landings" before hostilities commence, and "SEATO AK or amphib units may not unload
in Taiwan before the PRC commences hostilities". The unit is held in the hex, cited with the
war's case, and lands once the war allows (``westpac_unloading``)."""

from __future__ import annotations

from referee.engine.core import Event, GameState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_dtp.westpac_unloading import (
    barred_by_the_war_11_510 as barred_by_the_war,
)
from referee.rules.sixth_fleet_dtp.westpac_unloading import (
    unload_11_50922,
)
from tests.conformance.rulesets.dtp_westpac import module, set_up


def _landing(hostilities: dict[str, int]) -> tuple[GameState, list[Event]]:
    m = module()
    state = set_up().evolve(turn=4).with_data(hostilities=hostilities)
    game = Game.of(m, state)
    state = move_piece(game, state, "US-LPD-30", "2744")  # a Korean landing hex of the table
    events: list[Event] = []
    return unload_11_50922(game, state, "SEATO", events), events


def test_no_amphibious_landing_before_hostilities_commence() -> None:
    state, events = _landing({"asked": 4})
    barred = [e for e in events if e.kind == "unload-barred"]
    assert [(e.rule, e.data["unit"]) for e in barred] == [("DTP 11.5102", "US-LPD-30")]
    assert "before hostilities commence" in barred[0].text
    assert state.units["US-LPD-30"].location == "2744"  # held at sea, not set aside


def test_the_landing_is_made_once_hostilities_have_commenced() -> None:
    state, events = _landing({"asked": 4, "war": 4, "prc": 4})
    assert [e.data["unit"] for e in events if e.kind == "unload"] == ["US-LPD-30"]
    assert state.units["US-LPD-30"].location is None


def test_seato_may_not_unload_in_taiwan_before_the_prc_enters() -> None:
    """No award hex of SEATO's lies in Taiwan in the module's (estimated) table, so the limit
    is held by the function every unloading asks, for a Taiwanese hex (1761)."""
    m = module()
    at_war_only = set_up().with_data(hostilities={"asked": 1, "war": 1})
    game = Game.of(m, at_war_only)
    for unit, amphibious in (("US-LPD-30", True), ("US-AK-50", False)):
        why = barred_by_the_war(game, at_war_only, unit, "1761", amphibious)
        assert why is not None and why[0] == "DTP 11.51022", why
    # the PRC's own invasion is not limited by it, nor is SEATO once the PRC has entered
    assert barred_by_the_war(game, at_war_only, "CH-LSM-122", "1761", True) is None
    prc_in = at_war_only.with_data(hostilities={"asked": 1, "war": 1, "prc": 1})
    assert barred_by_the_war(game, prc_in, "US-LPD-30", "1761", True) is None
