"""The CBG-* golden cases of the shared examples.json, each with the book's numbers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.engine.core import ScriptedDice
from referee.rules.carrier_battlegroup import battle, damage, escorts, fire, incidents, movement
from referee.rules.carrier_battlegroup import victory as vic
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.damage import Condition
from tests.conformance.carrier_battlegroup.cbg_helpers import module

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "rules" / "examples.json"


def _ex_2_2(case: dict[str, Any]) -> None:
    assert fire.dice_to_roll_2_2(case["setup"]["unit_value"]) == case["expected"]["dice_rolled"]


def _ex_4_0_7(case: dict[str, Any]) -> None:
    words = {("DDG", "DDG"): "2 DDG", ("DD", "DDG"): "1 DDG + 1 DD", ("DD", "DD"): "2 DD"}
    got = {words[tuple(sorted(p))] for p in escorts.choices_4_0_7("destroyer", 2)}
    assert got == set(case["expected"]["allowed"])
    assert ("CG Aegis", "CG Aegis") not in escorts.choices_4_0_7("cruiser", 2)
    assert not escorts.aegis_ok_4_0_7(["CG Aegis", "DDG", "CG Aegis"])


def _ex_12_2_a(case: dict[str, Any]) -> None:
    s = movement.ship_speed_12_2(5, nuclear=True)
    e = case["expected"]
    assert (s.cruise, s.maximum, s.fuel_for_maximum) == (
        e["normal_max_spaces"],
        e["maximum_speed_spaces"],
        e["fuel_cost"],
    )


def _ex_12_2_b(case: dict[str, Any]) -> None:
    s = movement.ship_speed_12_2(4, nuclear=False)
    assert (s.cruise, s.maximum, s.fuel_for_maximum) == (4, 6, 1)
    # one Fuel for the whole CVBG, not per warship (docs/interpretations.md, CBG 12.2)
    assert movement.cvbg_allowance_12_1([(4, False), (4, False), (6, True)], spend_fuel=True) == 6
    assert movement.cvbg_allowance_12_1([(4, False), (6, True)], spend_fuel=False) == 4


def _ex_16_0(case: dict[str, Any]) -> None:
    n = incidents.chits_to_draw_16_0(
        module(), case["setup"]["alert_level"], "high_seas", objective=False
    )
    assert n == case["expected"]["chits_drawn"]


def _ex_16_1(case: dict[str, Any]) -> None:
    extra = incidents.extra_chits_16_1(module(), "soviet_base", objective=True)
    assert extra == case["expected"]["additional_chits"]


def _ship(pid: str, side: str, ty: str, values: dict[str, int]) -> Fighter:
    return Fighter(pid, side, "surface", ty, values, Condition(values["DEF"]))


def _ex_21_1(case: dict[str, Any]) -> None:
    v = {"AA": 0, "AS": 2, "ASW": 0, "DEF": 2, "SPD": 5, "EW": 2}
    usn = [_ship(f"US-{i}", "USN", "DD", v) for i in range(3)]
    target = _ship("SO-A", "Soviet", "DD", {**v, "DEF": 9})
    b = Battle("X", "USN", "USN", [*usn, target], {}, ammo=3)
    # every die a miss: 2 firing dice per ship, three ships, no hit dice
    battle._fire_side(b, module(), ScriptedDice([1] * 6), "USN", "AS", "Inner")
    fires = [e for e in b.events if e.kind == "fire"]
    assert [e.data["target"] for e in fires] == ["SO-A"] * 3  # concentrated: legal
    assert [e.data["strength"] for e in fires] == [2, 2, 2]  # each fires alone [21.2]


def _ex_21_5(case: dict[str, Any]) -> None:
    got = fire.may_target_21_5({"AA": 0, "AS": 3, "ASW": 0})
    assert set(got) == {"AS"} and got["AS"] == ("surface", "coastal")


def _ex_22_3(case: dict[str, Any]) -> None:
    one = damage.damage_22_3(Condition(1), 1)
    two_a = damage.damage_22_3(Condition(2), 1)
    two_b = damage.damage_22_3(two_a, 1)
    assert one.sunk and not two_a.sunk and two_b.sunk
    assert case["expected"] == {"defense_1_sunk_at_damage": 1, "defense_2_sunk_at_damage": 2}


def _ex_24_3(case: dict[str, Any]) -> None:
    vp = case["setup"]["vp_level_at_end_of_turn"]
    assert vic.vp_check_24_3(vp).lose_at_most == case["expected"]["lose_if_2d6_at_most"]
    assert vic.vp_defeat_24_3(vp, 7) and not vic.vp_defeat_24_3(vp, 8)


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "CBG-EX-2.2": _ex_2_2,
    "CBG-EX-4.0-7": _ex_4_0_7,
    "CBG-EX-12.2-a": _ex_12_2_a,
    "CBG-EX-12.2-b": _ex_12_2_b,
    "CBG-EX-16.0": _ex_16_0,
    "CBG-EX-16.1": _ex_16_1,
    "CBG-EX-21.1": _ex_21_1,
    "CBG-EX-21.5": _ex_21_5,
    "CBG-EX-22.3": _ex_22_3,
    "CBG-EX-24.3": _ex_24_3,
}


def _shared() -> list[dict[str, Any]]:
    if not SHARED.is_file():
        return []
    return [c for c in json.loads(SHARED.read_text("utf-8"))["cases"] if c["id"].startswith("CBG")]


@pytest.mark.parametrize("case", _shared(), ids=lambda c: c["id"])
def test_golden_case(case: dict[str, Any]) -> None:
    assert case["id"] in CHECKS, f"no check for {case['id']}"
    CHECKS[case["id"]](case)


def test_every_golden_case_is_checked() -> None:
    if not SHARED.is_file():
        pytest.skip("the shared rules folder is not available")
    assert {c["id"] for c in _shared()} == set(CHECKS)
