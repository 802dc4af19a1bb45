"""A prepared game (``tests/viewer/drafting.py``, :func:`prepared_game`) refuses a position no
game could reach before it writes anything: the browser tests built on it would otherwise
judge the viewer and the rules on a board that cannot be, and pass or fail for that."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.engine.ruleset import get_ruleset
from referee.shapes import ShapeError
from tests.viewer.drafting import prepared_game, refuse_impossible

CASES = Path(__file__).resolve().parents[1] / "conformance"


def _refused(tmp_path: Path, module: Any, state: Any) -> str:
    """``prepared_game`` refuses ``state``, having written nothing: the message."""
    root = tmp_path / "prepared"
    with pytest.raises(ShapeError) as got:
        prepared_game(root, module, state)
    assert not root.exists()
    return str(got.value)


def test_a_naval_unit_on_a_land_hex_is_refused(tmp_path: Path) -> None:
    """Sixth Fleet (1975): the French carrier of case 161 moved onto a land hex, which the
    Terrain Effects Chart closes to surface units [5.12], [10.12]."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.position import move_piece
    from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module

    case = json.loads((CASES / "sixth_fleet_1975" / "161-12.22-french-carrier-air-on-cap.json")
                      .read_text())  # fmt: skip
    module = fixture_module("sixth_fleet")
    state = build_state(module, case["position"])
    refuse_impossible(module, get_ruleset(module.ruleset), state)  # as the case has it: taken
    land = next(h for h, x in sorted(module.map.hexes.items()) if x.terrain == "land")
    state = move_piece(Game.of(module, state), state, "FR-CV-1", land)
    said = _refused(tmp_path, module, state)
    assert said == (
        f"$.units[0].location: expected a hex a surface unit may enter (FR-CV-1 in {land}: "
        f"the Terrain Effects Chart closes Land to surface units), got the string '{land}'"
    ), said


def test_a_ship_on_a_coastal_hex_of_the_naval_module_is_refused(tmp_path: Path) -> None:
    """The naval module: a ship is in a port, a sea zone or on an all-sea hex; a coastal hex
    (part land) is closed to it."""
    from tests.conformance.rulesets import naval_module as nm

    module = nm.naval_module()
    state = nm.build_state(module, {"phase": "readiness", "units": [["SU-CL-KK", "0920"]]})
    said = _refused(tmp_path, module, state)
    assert "SU-CL-KK in 0920" in said and "closes Coastal" in said, said
    in_port = nm.build_state(module, {"phase": "readiness", "units": [["SU-CL-KK", "Sevastopol"]]})
    refuse_impossible(module, get_ruleset(module.ruleset), in_port)


def test_a_unit_carried_in_a_box_closed_to_movement_is_taken() -> None:
    """Sixth Fleet (2019): a Marine brigade in its amphibian's holding box (a box no movement
    enters, but the brigade is carried there) is a position the game reaches (a location
    type says what may move in, not what may be there)."""
    from tests.conformance.rulesets.sixth_fleet_2019 import build_state, module_2019

    module = module_2019()
    carried = build_state(module, {"turn": 3, "phase": "nato_actions", "units": [
        ["US-AWG-1", "Ionian Sea"], ["US-MEB", "Holding US-AWG-1"]]})  # fmt: skip
    refuse_impossible(module, get_ruleset(module.ruleset), carried)


def test_a_unit_the_module_does_not_have_is_refused_as_a_state_file_would_be(
    tmp_path: Path,
) -> None:
    """The checks every state read from a file passes come first: a unit id not in the
    module's counter mix."""
    from referee.engine.core import UnitState
    from tests.conformance.rulesets import naval_module as nm

    module = nm.naval_module()
    state = nm.build_state(module, {"phase": "readiness", "units": [["SU-CL-KK", "Sevastopol"]]})
    state = state.with_unit(UnitState("SU-XX-99", "Soviet", None, None))
    said = _refused(tmp_path, module, state)
    assert "a unit of module" in said and "SU-XX-99" in said, said
