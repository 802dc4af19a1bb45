"""[13.12] Israel cut off and [13.13] the Eastern Mediterranean blockade, on the real map
(Israeli coastal hexes 0735, 0835, 0935; the Soviet Defended hex 0633 closes the coast road
north). The readings tested here are recorded in docs/interpretations.md."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.victory import score_13_0
from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module


def _bonuses(units: list[list[str]]) -> dict[str, Any]:
    module = fixture_module("sixth_fleet")
    state = build_state(module, {"scenario": "short", "side": "Soviet", "units": units})
    return {b["id"]: b for b in score_13_0(Game.of(module, state), state)["bonuses"]}


def test_an_open_sea_is_no_bonus() -> None:
    b = _bonuses([])
    assert not b["israel_cut_off"]["holds"] and not b["east_med_blockade"]["holds"]


@pytest.mark.parametrize("unit", ["SO-DD-1", "SO-T16.1"])
def test_the_starting_hexes_must_pass_the_control_test(unit: str) -> None:
    """One Soviet unit in 0834 controls all three Israeli coastal hexes: no path may start
    there. An air unit's zone of control blocks as a ship's does [6.21]."""
    b = _bonuses([[unit, "0834"]])
    assert b["israel_cut_off"]["holds"] and b["israel_cut_off"]["vp"] == 15
    assert b["east_med_blockade"]["holds"] and b["east_med_blockade"]["vp"] == 15


def test_a_nato_naval_unit_unblocks_a_controlled_hex() -> None:
    b = _bonuses([["SO-DD-1", "0834"], ["US-DD-1", "0935"]])
    assert not b["israel_cut_off"]["holds"]
    assert not b["east_med_blockade"]["holds"]  # only if 13.12 was earned


def test_a_nato_air_unit_does_not_unblock() -> None:
    b = _bonuses([["SO-DD-1", "0834"], ["US-F4.1", "0735"]])
    assert b["israel_cut_off"]["holds"]
    assert b["east_med_blockade"]["holds"]  # 13.13 counts naval units only


def test_13_13_fails_with_a_nato_ship_east_of_the_line() -> None:
    b = _bonuses([["SO-DD-1", "0834"], ["US-DD-1", "0734"]])
    assert b["israel_cut_off"]["holds"]
    assert not b["east_med_blockade"]["holds"] and b["east_med_blockade"]["vp"] == 0
