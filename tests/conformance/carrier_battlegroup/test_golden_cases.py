"""The CBG-* golden cases of the shared examples.json that need a battle of built units
(CBG-EX-21.1, CBG-EX-22.3); the others are conformance cases of the one format
(``*.json`` here, ``example``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.engine.core import ScriptedDice
from referee.rules.carrier_battlegroup import battle, damage
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.damage import Condition
from tests.conformance.harness import case_paths, load_case
from tests.conformance.rulesets.carrier_battlegroup import module

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "rules" / "examples.json"


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


def _ex_22_3(case: dict[str, Any]) -> None:
    one = damage.damage_22_3(Condition(1), 1)
    two_a = damage.damage_22_3(Condition(2), 1)
    two_b = damage.damage_22_3(two_a, 1)
    assert one.sunk and not two_a.sunk and two_b.sunk
    assert case["expected"] == {"defense_1_sunk_at_damage": 1, "defense_2_sunk_at_damage": 2}


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "CBG-EX-21.1": _ex_21_1,
    "CBG-EX-22.3": _ex_22_3,
}


def _shared() -> list[dict[str, Any]]:
    if not SHARED.is_file():
        return []
    return [c for c in json.loads(SHARED.read_text("utf-8"))["cases"] if c["id"].startswith("CBG")]


@pytest.mark.parametrize("case", [c for c in _shared() if c["id"] in CHECKS], ids=lambda c: c["id"])
def test_golden_case(case: dict[str, Any]) -> None:
    assert case["id"] in CHECKS, f"no check for {case['id']}"
    CHECKS[case["id"]](case)


def test_every_golden_case_is_checked() -> None:
    if not SHARED.is_file():
        pytest.skip("the shared rules folder is not available")
    as_data = {load_case(p).get("example") for p in case_paths("carrier_battlegroup")}
    assert {c["id"] for c in _shared()} == set(CHECKS) | (as_data - {None})
